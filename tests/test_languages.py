"""The sample site with German, Arabic, Hebrew, Japanese and Simplified Chinese added by one
line in site.yaml: valid HTML, no accessibility violation, no English interface text in a
language Studysite ships a catalog for, and a 404 page in the reader's language."""

import functools
import http.server
import re
import shutil
import threading
from html.parser import HTMLParser

import pytest
from conftest import ROOT, STUDY_CONTENT, QuietServer, run_cli
from test_accessibility import violations
from test_validity import validate

from studysite.i18n.catalogs import extract_from
from studysite.i18n.ui_catalogs import SHIPPED_LOCALES, catalog_path

ADDED = ["de", "ar", "he", "ja", "zh-Hans"]
LANGUAGES = ["nl", "fr", *ADDED]
PAGES = [
    "{lang}/",
    "{lang}/topics/ai-hardware-stack/",
    "{lang}/questions/data-parallelism/",
    "{lang}/glossary/",
    "{lang}/glossary/data-parallelism/",
    "{lang}/comparisons/parallelism-strategies/",
    "{lang}/practice/gpu-programming/",
    "{lang}/search/",
    "{lang}/status/",
    "{lang}/review/",
    "{lang}/downloads/",
]
SHOWN_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "content"}


@pytest.fixture(scope="module")
def many_languages_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("languages")
    content = root / "content"
    shutil.copytree(STUDY_CONTENT, content)
    for term in (content / "glossary").glob("*.yaml"):  # the sample's 'ja:' term blocks only name the term
        term.write_text(re.sub(r"(?m)^ja: \{term: .*\}\n", "", term.read_text(encoding="utf-8")), encoding="utf-8")
    site_yaml = content / "site.yaml"
    site_yaml.write_text(site_yaml.read_text(encoding="utf-8").replace("languages: [nl, fr]", f"languages: [{', '.join(LANGUAGES)}]"), encoding="utf-8")
    site = root / "served" / "repo"
    result = run_cli("build", "--content", content, "--out", site, "--base-url", "https://example.org/repo/", "--no-search")
    assert result.status == 0, result.err
    return site


class _ShownText(HTMLParser):
    """The text a reader sees or hears: text nodes, labels, and the data-* strings scripts show."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        self.parts += [value for name, value in attrs if value and (name in SHOWN_ATTRIBUTES or name.startswith("data-"))]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def shown_text(html: str) -> str:
    parser = _ShownText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@functools.cache
def english_phrases() -> tuple[str, ...]:
    """Every run of two or more words of the English msgids, placeholders cut out."""
    phrases = set()
    for message in extract_from([ROOT / "templates"]):
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for fragment in re.split(r"%\(\w+\)s|\{\w+\}", text or ""):
                fragment = fragment.strip(" .,:;!?“”…")
                if len(fragment.split()) >= 2:
                    phrases.add(fragment)
    return tuple(sorted(phrases))


def test_the_english_check_finds_english():
    assert "Show answer and explanation" in english_phrases()
    assert "Show answer and explanation" in shown_text("<details><summary>Show answer and explanation</summary></details>")
    assert "Correct" in shown_text('<div data-correct="Correct!"></div>') and "x" not in shown_text("<script>x</script>")


def test_every_language_builds_valid_html(many_languages_site):
    """Each kind of page in each added language (nl and fr are the whole sample's, checked in
    test_validity.py): what differs between languages is their text, direction and attributes."""
    pages = [many_languages_site / pattern.format(lang=lang) / "index.html" for pattern in PAGES for lang in ADDED]
    assert validate(many_languages_site / "404.html", *pages) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_interface_text(many_languages_site, lang):
    if not catalog_path(SHIPPED_LOCALES, lang).is_file():
        pytest.skip(f"Studysite ships no '{lang}' catalog yet")
    found = {}
    for pattern in [*PAGES, "404.html"]:
        path = many_languages_site / pattern.format(lang=lang)
        html = (path / "index.html" if path.is_dir() else path).read_text(encoding="utf-8")
        if pattern == "404.html":
            html = re.search(rf'<section lang="{lang}".*?</section>', html, re.S).group(0)
        text = shown_text(html)
        english = [phrase for phrase in english_phrases() if phrase in text]
        if english:
            found[pattern] = english
    assert found == {}


def test_fallback_text_in_right_to_left_pages_is_left_to_right(many_languages_site):
    for lang in ("ar", "he"):
        page = (many_languages_site / lang / "questions/data-parallelism/index.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}" dir="rtl">' in page
        assert '<h1 class="stem" lang="nl" dir="ltr">' in page


def test_not_found_page_has_a_section_per_language_with_absolute_links(many_languages_site):
    page = (many_languages_site / "404.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section lang="([^"]+)" dir="(\w+)" data-language="[^"]+"[^>]*?( hidden)?>', page)
    assert [(lang, hidden) for lang, _, hidden in sections] == [("nl", "")] + [(lang, " hidden") for lang in LANGUAGES[1:]]
    assert dict((lang, direction) for lang, direction, _ in sections)["ar"] == "rtl"
    for lang in LANGUAGES:
        assert page.count(f'href="/repo/{lang}/"') >= len(LANGUAGES)  # every section links to every home


# -- in the browser -----------------------------------------------------------------------


class _PagesHandler(http.server.SimpleHTTPRequestHandler):
    """Serves like GitHub Pages: a missing path gets the site's 404.html."""

    def log_message(self, format, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        page = self.server.site / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def languages_url(many_languages_site):
    handler = functools.partial(_PagesHandler, directory=str(many_languages_site.parent))
    server = QuietServer(("127.0.0.1", 0), handler)
    server.site = many_languages_site
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/repo/"
    server.shutdown()


def open_in(browser, url, bypass_csp=False):
    context = browser.new_context(bypass_csp=bypass_csp)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return context, page, errors


@pytest.mark.browser
@pytest.mark.parametrize("missing,lang", [("ar/questions/gone/", "ar"), ("ja/nothing", "ja"), ("xx/gone/", "nl"), ("zh-Hans/gone", "zh-Hans")])
def test_not_found_speaks_the_language_of_the_requested_path(browser, languages_url, missing, lang):
    context, page, errors = open_in(browser, languages_url + missing)
    try:
        assert errors == []
        assert page.evaluate("document.documentElement.lang") == lang
        visible = page.locator("section[data-language]:visible")
        assert visible.count() == 1 and visible.get_attribute("lang") == lang
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        home = visible.locator(f'a[hreflang="{lang}"]')
        home.click()
        page.wait_for_load_state()
        assert page.url == f"{languages_url}{lang}/"
    finally:
        context.close()


@pytest.mark.browser
def test_not_found_without_javascript_is_in_the_default_language(browser, languages_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(languages_url + "fr/gone/")
        assert page.locator("section[data-language]:visible").get_attribute("lang") == "nl"
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ADDED)
@pytest.mark.parametrize("pattern", ["{lang}/questions/data-parallelism/", "{lang}/practice/gpu-programming/", "{lang}/gone/"])
def test_added_languages_have_no_accessibility_violations(browser, languages_url, lang, pattern):
    context, page, errors = open_in(browser, languages_url + pattern.format(lang=lang), bypass_csp=True)
    try:
        assert errors == []
        assert violations(page) == []
    finally:
        context.close()
