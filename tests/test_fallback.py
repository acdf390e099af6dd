"""Honest fallbacks: a record shown in another language is marked, has its own direction, and
is no translation for search engines (no hreflang, not in the sitemap, canonical elsewhere)."""

import re

import pytest
from conftest import minimal_files, run_cli, write_files

SITE = "languages: [nl, fr, ar]\nbase_url: https://example.org/study/\nnl: {title: Studie}\nfr: {title: Étude}\nar: {title: دراسة}\n"
ONLY_NL = """\
topic: basics
answer: A
nl:
  question: Wat is een tensor?
  choices: [Een array met meerdere dimensies, Een soort GPU]
  explanation: Een tensor is een array.
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("fallback")
    files = minimal_files(**{"site.yaml": SITE, "questions/tensor.yaml": ONLY_NL})
    content = write_files(root / "content", files)
    out = root / "site"
    result = run_cli("build", "--content", content, "--out", out, "--no-search")
    assert result.status == 0, result.err
    return out


def read(site, path):
    return (site / path / "index.html").read_text(encoding="utf-8")


def links(html, rel):
    return re.findall(rf'<link rel="{rel}"(?: hreflang="([^"]+)")? href="([^"]+)">', html)


def test_a_fallback_page_points_its_canonical_to_the_default_language_and_has_no_alternates(site):
    page = read(site, "fr/questions/tensor")
    assert links(page, "canonical") == [("", "https://example.org/study/nl/questions/tensor/")]
    assert links(page, "alternate") == []
    assert 'class="notice"' in page  # still shown, marked, to the reader


def test_translations_leave_the_fallback_versions_out_of_their_alternates(site):
    page = read(site, "nl/questions/tensor")
    assert links(page, "canonical") == [("", "https://example.org/study/nl/questions/tensor/")]
    assert links(page, "alternate") == [
        ("nl", "https://example.org/study/nl/questions/tensor/"),
        ("x-default", "https://example.org/study/nl/questions/tensor/"),
    ]
    translated = read(site, "nl/questions/gpu-role")
    assert [code for code, _ in links(translated, "alternate")] == ["nl", "fr", "x-default"]  # gpu-role has no 'ar' text
    assert 'hreflang="ar"' in translated  # the switcher still leads the reader to the Arabic page


def test_the_sitemap_lists_translations_only(site):
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/study/nl/questions/tensor/</loc>" in sitemap
    assert "<loc>https://example.org/study/fr/questions/tensor/</loc>" not in sitemap
    assert "<loc>https://example.org/study/ar/questions/tensor/</loc>" not in sitemap
    assert 'hreflang="fr" href="https://example.org/study/fr/questions/tensor/"' not in sitemap
    assert "<loc>https://example.org/study/fr/questions/gpu-role/</loc>" in sitemap


def test_fallback_text_in_a_right_to_left_page_has_its_own_direction(site):
    page = read(site, "ar/questions/tensor")
    assert '<html lang="ar" dir="rtl">' in page
    assert '<h1 class="stem" lang="nl" dir="ltr">' in page
    assert '<ol class="choices" data-choices lang="nl" dir="ltr">' in page
    french = read(site, "fr/questions/tensor")
    assert '<h1 class="stem" lang="nl">' in french  # same direction: no dir needed


def test_practice_pages_mark_fallback_questions(site):
    page = read(site, "fr/practice/basics")
    sections = re.findall(r'<section class="practice-item".*?</section>', page, re.S)
    marked = [s for s in sections if 'class="notice"' in s]
    assert len(sections) == 2 and len(marked) == 1 and 'id="practice-tensor"' in marked[0]
    assert '<p class="stem" lang="nl">' in marked[0]
    assert 'lang="nl" dir="ltr"' in read(site, "ar/practice/basics")
