"""View models (pages/builder.py, term_page.py, view_models.py): each template gets one frozen
dataclass, whose fields are its variables; the record pages are made by one helper."""

import collections
import dataclasses
import random
from pathlib import Path

import pytest
from conftest import STUDY_CONTENT, run_cli

from studysite import pipeline
from studysite.diagnostics import Report
from studysite.incremental.early_start import make_renderer
from studysite.incremental.page_sources import keyed_by_sources
from studysite.output.assets import collect_assets
from studysite.pages import term_page, view_models
from studysite.pages.record_parts import PlaceMemo, RecordParts
from studysite.text.markup import plain_text

TEMPLATE_VIEWS = {
    "question.html": view_models.QuestionView,
    "practice.html": view_models.PracticeView,
    "topic.html": view_models.TopicView,
    "term.html": view_models.TermView,
    "comparison.html": view_models.ComparisonView,
    "home.html": view_models.HomeView,
    "glossary.html": view_models.GlossaryView,
    "flashcards.html": view_models.FlashcardsView,
    "exam.html": view_models.ExamView,
    "chooser.html": view_models.ChooserView,
    "404.html": view_models.NotFoundView,
    "search.html": view_models.SearchView,
    "review.html": view_models.ReviewView,
    "downloads.html": view_models.DownloadsView,
    "offline.html": view_models.OfflineView,
    "status.html": view_models.StatusView,
}


def load(content: Path) -> pipeline.LoadedSite:
    return pipeline.load(pipeline.Options(content_dir=content), Report())


@pytest.fixture(scope="module")
def sample() -> pipeline.LoadedSite:
    return load(STUDY_CONTENT)


def test_every_page_gets_the_view_model_of_its_template(sample):
    for page in sample.pages:
        assert type(page.context()) is TEMPLATE_VIEWS[page.template], page.path
    assert {page.template for page in sample.pages} == set(TEMPLATE_VIEWS)


def test_a_view_model_is_frozen_and_hands_its_own_fields_to_the_template(sample):
    view = next(page for page in sample.pages if page.template == "question.html").context()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.more = ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.question.stem = "changed"
    assert list(view.variables()) == [field.name for field in dataclasses.fields(view)]
    assert view.variables()["question"] is view.question  # not a copy


def test_no_view_field_hides_a_variable_every_page_has(sample):
    """The template gets the page's variables and the view's fields side by side: a field
    named like a page variable (home, page, lang...) would make every such page fail."""
    options = pipeline.Options(content_dir=STUDY_CONTENT)
    renderer = make_renderer(options, sample.content, Report(), collect_assets(options.layered("static")))
    page_variables = set(renderer.page_context(sample.pages[0]))
    for view_type in TEMPLATE_VIEWS.values():
        assert not {field.name for field in dataclasses.fields(view_type)} & page_variables, view_type.__name__


def test_the_record_pages_share_their_versions_and_keys(sample):
    for page in sample.pages:
        if page.template in ("question.html", "topic.html", "term.html", "comparison.html"):
            assert keyed_by_sources(page) and sample.shown.of(page)[0].endswith(f"/{page.record}") and page.description, page.path
            assert page.alternates[page.language] == page.path
            assert all(path.replace(f"{lang}/", f"{page.language}/", 1) == page.path for lang, path in page.alternates.items())


GPU_QUESTION = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Parallel rekenen]
  explanation: Een GPU rekent snel.
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un GPU calcule vite.
"""


def test_a_terms_key_question_links_the_other_terms_of_its_answer_and_explanation(make_content):
    loaded = load(make_content(**{"questions/gpu-role.yaml": GPU_QUESTION, "glossary/parallel.yaml": "nl: {term: parallel, definition: Tegelijk.}\n"}))
    page = next(page for page in loaded.pages if page.path == "nl/glossary/gpu/")
    question = page.context().key_question
    answer = question.choices[question.answer_index]
    assert answer.letter == "B"
    assert '<a class="term" href="../../glossary/parallel/">Parallel</a>' in answer.html
    assert "glossary/gpu/" not in answer.html + question.explanation  # the page's own term is not linked
    assert question.choices[0].html == "Niets"


def test_a_term_is_quoted_by_the_first_sentence_naming_it_and_ranked_by_where():
    question = term_page.PlainQuestion.of("What does a  GPU do?", "It computes. The gpu draws frames! Ｇ。A GPU again.")
    assert question.sentences == ("It computes.", "The gpu draws frames!", "Ｇ。", "A GPU again.")
    assert term_page.mention(question, term_page.folded_names(["GPU"])) == ((0, 0), "The gpu draws frames!")
    assert term_page.mention(question, term_page.folded_names(["frames", "again"])) == ((1, 1), "The gpu draws frames!")
    assert term_page.mention(question, term_page.folded_names(["again", ""])) == ((1, 3), "A GPU again.")
    assert term_page.mention(question, term_page.folded_names(["Ｇ"])) == ((1, 2), "Ｇ。")
    assert term_page.mention(question, term_page.folded_names(["CPU"])) == ((2, 0), "What does a GPU do?")
    assert term_page.PlainQuestion.of("Q", "").first_sentence_naming(["q"]) is None


def test_a_sentence_with_a_formula_is_not_quoted():
    """A term named in a sentence that holds math ranks by that sentence, but is quoted by
    the stem: a quote is plain text, which would show the formula's TeX."""
    explanation = plain_text('<p>It is <math alttext="7 \\times 16"><mn>7</mn></math> bytes per GPU. A GPU again.</p>', term_page.FORMULA)
    question = term_page.PlainQuestion.of("How much memory?", explanation)
    assert term_page.mention(question, ["gpu"]) == ((1, 0), "How much memory?")
    assert "\\times" not in explanation and plain_text('<math alttext="7 \\times 16"><mn>7</mn></math>') == "7 \\times 16"


def test_no_quoted_sentence_runs_from_one_block_into_the_next():
    """A list's items have no full stops: each block of the explanation ends its sentence,
    so a term named in the paragraph after a list is quoted without the list."""
    html = "<p>It works as follows:</p>\n<ul>\n<li>a warp of threads</li>\n<li>its <em>lanes</em><br>in step</li>\n</ul>\n<p>The GPU runs them. Again.</p>"
    question = term_page.PlainQuestion.of("What runs?", term_page.explanation_text(html))
    assert question.sentences == ("It works as follows:", "a warp of threads", "its lanes", "in step", "The GPU runs them.", "Again.")
    assert term_page.mention(question, ["gpu"]) == ((1, 4), "The GPU runs them.")


def test_sentences_split_as_their_ends_are_walked():
    """The quick split and the walk over each sentence end agree, block by block, on texts
    made of the characters that matter (a NUL among them, which the split leaves to the
    walk, the end of a block, and white space other than spaces and line ends)."""
    randomly = random.Random(7)
    for _ in range(20000):
        text = "".join(randomly.choice("ab .!?。！？\n\t\0\u00a0\u3000" + term_page.PARAGRAPH) for _ in range(randomly.randint(0, 16)))
        walked = [s for block in text.split(term_page.PARAGRAPH) for s in term_page._sentences_walked(" ".join(block.split()))]
        assert term_page.sentences(text) == walked, repr(text)
    assert term_page.sentences("Een. Twee? Drie! Vier。五 ！六") == ["Een.", "Twee?", "Drie!", "Vier。", "五 ！", "六"]


def test_two_pages_for_one_file_are_told_at_the_record_the_second_shows():
    from studysite.diagnostics import Report
    from studysite.pages.view_models import Page
    from studysite.pipeline import check_unique_paths

    pages = [Page(f"nl/questions/{name}/", "question.html", "nl", name, lambda: None, record=record) for name, record in (("a", "a"), ("a", "b"))]
    report = Report()
    check_unique_paths(pages, report, lambda page: (f"questions/{page.record}",))
    [problem] = report.diagnostics
    assert (problem.code, problem.location.path) == ("url.collision", "questions/b")
    report = Report()
    check_unique_paths(pages, report, lambda page: ())
    assert report.diagnostics[0].location.path == "nl/questions/a/index.html"


def test_a_place_memo_makes_a_value_once_for_its_place_and_forgets_it_for_the_next():
    memo, made = PlaceMemo(), []

    def make(value):
        made.append(value)
        return value

    assert memo.get(("nl", "gpu"), "q1", lambda: make("first")) == "first"
    assert memo.get(("nl", "gpu"), "q1", lambda: make("again")) == "first"
    assert memo.get(("nl", "cpu"), "q2", lambda: make("second")) == "second"
    assert memo.get(("nl", "gpu"), "q1", lambda: make("anew")) == "anew"
    assert made == ["first", "second", "anew"]


def test_a_build_in_one_process_links_each_question_once_for_its_topics_pages(tmp_path, monkeypatch):
    """The topic's page, practice page and question pages of a topic show the same linked
    questions: rendered one after the other in one process too, each is linked once."""
    linked, make = collections.Counter(), RecordParts._make_question_body

    def counted(parts, lg, question_id, with_links):
        linked[(lg.edition.language, question_id)] += with_links
        return make(parts, lg, question_id, with_links)

    monkeypatch.setattr(RecordParts, "_make_question_body", counted)
    result = run_cli("build", "--content", STUDY_CONTENT, "--out", tmp_path / "site", "--no-search", "--jobs", "1")
    assert result.status == 0, result.err
    assert len(linked) > 10 and set(linked.values()) == {1}
