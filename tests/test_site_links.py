"""Site links: [text](glossary:ID), question:ID, topic:ID and comparison:ID become relative
links to those pages in the language of the page that shows the text; an unknown id is a
located error with the closest id as a hint."""

import pytest
from conftest import run_cli

from studysite import urls
from studysite.text.markup import MarkdownConverter
from studysite.text.site_links import UnknownTarget, record_href, scheme_of

TARGETS = {"glossary": {"gpu", "allele"}, "questions": {"gpu-role"}, "topics": {"basics"}, "comparisons": {"cpu-vs-gpu"}}

QUESTION = """\
topic: basics
answer: B
nl:
  question: Wat doet een [GPU](glossary:gpu)?
  choices: [Niets, Rekenen]
  explanation: Zie [het thema](topic:basics) en [deze vraag](question:gpu-role#top).
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Voir [le glossaire](glossary:gpu).
"""


@pytest.mark.parametrize(
    "href,expected",
    [
        ("glossary:allele", "../../glossary/allele/"),
        ("question:gpu-role", "../../questions/gpu-role/"),
        ("topic:basics#intro", "../../topics/basics/#intro"),
        ("Comparison:cpu-vs-gpu", "../../comparisons/cpu-vs-gpu/"),
    ],
)
def test_a_site_link_leads_from_any_record_page(href, expected):
    assert scheme_of(href)
    assert record_href(href, TARGETS, urls.RECORD_PAGE) == expected
    assert record_href(href, TARGETS, urls.LANGUAGE_HOME) == expected.removeprefix("../../")


def test_other_links_are_not_site_links():
    assert not scheme_of("https://example.org") and not scheme_of("glossary/allele") and not scheme_of("mailto:a@b.c")


def test_an_unknown_id_is_named_with_the_closest_one():
    problem = record_href("glossary:alele", TARGETS, urls.RECORD_PAGE)
    assert isinstance(problem, UnknownTarget) and problem.code == "ref.unknown-term" and problem.hint == "did you mean 'allele'?"
    assert record_href("topic:none", TARGETS, urls.RECORD_PAGE).hint == "topics are the files in topics/, named by their ids"


def test_the_converter_makes_them_links_after_the_sanitiser():
    markup = MarkdownConverter(targets=TARGETS)
    assert markup.inline("een [allel](glossary:allele)") == 'een <a href="../../glossary/allele/" rel="noopener noreferrer">allel</a>'
    assert MarkdownConverter().inline("een [allel](glossary:allele)") == "een allel"  # with no ids to check against: its text
    assert markup.inline("[x](javascript:alert(1)) [y](glossary:javascript:alert(1))") == "x y"
    assert markup.inline("![een allel](glossary:allele)") == "een allel"  # a page is no image: its alt text stands in


def test_site_links_on_the_built_pages(make_content, tmp_path):
    site_yaml = "languages: [nl, fr]\nnl: {title: Studie, description: 'Begin bij [de GPU](glossary:gpu).'}\nfr: {title: Étude}\n"
    content = make_content(**{"questions/gpu-role.yaml": QUESTION, "site.yaml": site_yaml})
    site = tmp_path / "site"
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 0, result.err
    page = (site / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert '<a href="../../glossary/gpu/" rel="noopener noreferrer">GPU</a>' in page
    assert '<a href="../../topics/basics/" rel="noopener noreferrer">het thema</a>' in page
    assert '<a href="../../questions/gpu-role/#top" rel="noopener noreferrer">deze vraag</a>' in page
    assert '<a href="../../glossary/gpu/" rel="noopener noreferrer">le glossaire</a>' in (site / "fr/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert '<a href="../../glossary/gpu/"' in (site / "nl/practice/basics/index.html").read_text(encoding="utf-8")
    home = (site / "nl/index.html").read_text(encoding="utf-8")
    assert '<a href="glossary/gpu/" rel="noopener noreferrer">de GPU</a>' in home  # the home page is one folder below the root
    assert (site / "nl/questions/gpu-role/../../glossary/gpu/index.html").resolve().is_file()
    assert (site / "nl/glossary/gpu/index.html").is_file()


def test_an_unknown_id_is_a_located_error(make_content):
    question = QUESTION.replace("glossary:gpu)?", "glossary:gpus)?").replace("question:gpu-role#top", "question:gpu-rol")
    site_yaml = "languages: [nl, fr]\nnl: {title: Studie, description: 'Zie [x](comparison:none).'}\nfr: {title: Étude}\n"
    result = run_cli("check", "--content", make_content(**{"questions/gpu-role.yaml": question, "site.yaml": site_yaml}))
    assert result.status == 1
    assert "questions/gpu-role.yaml:4:26: error: link to an unknown term 'gpus' [ref.unknown-term]\n" in result.err
    assert "  hint: did you mean 'gpu'?" in result.err
    assert "questions/gpu-role.yaml:6:49: error: link to an unknown question 'gpu-rol' [ref.unknown-question]\n" in result.err
    assert "site.yaml:2:39: error: link to an unknown comparison 'none' [ref.unknown-comparison]\n" in result.err
