"""Linking term names across a record's text fragments (pages/record_parts.RecordParts.linked): the
fragments are joined on a separator while linking, and must come back apart whatever
characters they hold."""

import pytest

from studysite import pipeline
from studysite.content.html import convert_texts
from studysite.diagnostics import Report
from studysite.incremental.replanning import graph_after_edit
from studysite.pages.builder import ViewBuilder
from studysite.text.linking import _SEPARATORS


@pytest.fixture
def views(make_content) -> ViewBuilder:
    loaded = pipeline.load(pipeline.Options(content_dir=make_content()), Report())
    return ViewBuilder(loaded.content, convert_texts(loaded.content), loaded.graph, loaded.statuses)


def test_first_mention_is_linked_across_fragments(views):
    linked = views.parts.linked(("Wat doet een GPU?", "Een GPU rekent."), "nl")
    assert linked[0].count('class="term"') == 1 and 'class="term"' not in linked[1]


def test_fragments_holding_nul_stay_apart(views):
    linked = views.parts.linked(("Een GPU\x00 rekent", "\x00", "nog een GPU"), "nl")
    assert len(linked) == 3 and linked[1] == "\x00"
    assert "GPU</a>\x00 rekent" in linked[0] and 'class="term"' not in linked[2]


def test_fragments_holding_every_separator_are_linked_one_by_one(views):
    linked = views.parts.linked((_SEPARATORS + " GPU", "GPU"), "nl")
    assert len(linked) == 2 and linked[0].startswith(_SEPARATORS)
    assert all(fragment.count('class="term"') == 1 for fragment in linked)


def test_questions_are_linked_from_where_finding_their_terms_found_them():
    """Finding a question's terms (content/graph.py) notes where each is first named; its page links
    them there, as linking its text anew would, and a quick edit of the text links anew."""
    from conftest import STUDY_CONTENT

    loaded = pipeline.load(pipeline.Options(content_dir=STUDY_CONTENT), Report())
    graph, views = loaded.graph, loaded.views
    assert graph.mentions.keys() == loaded.content_html.questions.keys()
    for (question_id, text_lang), mentions in graph.mentions.items():
        fragments = loaded.content_html.question_fragments(question_id, text_lang)
        assert views.parts.linked(fragments, text_lang, mentions=mentions) == views.parts.linked(fragments, text_lang)
        assert {term for _, _, term in mentions} == graph.matchers[text_lang].find("\x00".join(fragments))
    assert any(len(mentions) > 1 for mentions in graph.mentions.values())
    edited = graph_after_edit(graph, {"kv-cache"})
    assert ("kv-cache", "nl") not in edited.mentions and ("warp-divergence", "nl") in edited.mentions
    assert ("kv-cache", "nl") in graph.mentions, "the graph of the build stays as it was"
