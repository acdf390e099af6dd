"""pages/urls.py: every page path follows one pattern, absolute URLs are the base URL and a path,
and pages that stand in for another address link absolutely."""

from urllib.parse import urljoin

import pytest

from studysite import urls


def test_every_page_path_is_language_then_folders():
    assert urls.home("nl") == "nl/"
    assert urls.record("questions", "nl", "gpu-role") == "nl/questions/gpu-role/"
    assert urls.record("glossary", "pt-BR", "tensor") == "pt-BR/glossary/tensor/"
    assert urls.record("practice", "fr", "basics") == "fr/practice/basics/"
    assert [f("ja") for f in (urls.glossary, urls.search, urls.status, urls.review, urls.downloads, urls.offline)] == [
        "ja/glossary/",
        "ja/search/",
        "ja/status/",
        "ja/review/",
        "ja/downloads/",
        "ja/offline/",
    ]
    assert urls.file_for(urls.home("nl")) == "nl/index.html" and urls.file_for(urls.NOT_FOUND) == "404.html"


@pytest.mark.parametrize("kind", sorted(urls.KIND_FOLDERS))
def test_term_links_from_any_record_page_reach_the_term_page(kind):
    base = "https://example.org/study/"
    record_page = urls.absolute(base, urls.record(kind, "nl", "some-id"))
    assert urljoin(record_page, urls.term_from_record_page("tensor")) == urls.absolute(base, urls.record("glossary", "nl", "tensor"))


@pytest.mark.parametrize(
    ("given", "normalized"),
    [
        ("https://example.org", "https://example.org/"),
        ("https://user.github.io/repo", "https://user.github.io/repo/"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/"),
    ],
)
def test_base_urls_end_in_a_slash_and_absolute_urls_follow(given, normalized):
    assert urls.is_base_url(given)
    base = urls.normalize_base_url(given)
    assert base == normalized
    assert urls.absolute(base, urls.record("questions", "nl", "q1")) == normalized + "nl/questions/q1/"
    assert urls.absolute(base, urls.SITEMAP) == normalized + "sitemap.xml"


@pytest.mark.parametrize(
    "bad",
    [
        "example.org",
        "/repo/",
        "ftp://example.org/",
        "https://",
        "https://exa mple.org/",
        "https://e.com/x?y=1",  # paths go after it: a query or fragment would end up inside them
        "https://e.com/x#z",
        'https://e.com/"><script>',  # put in attributes and the sitemap as it is
        "https://e.com/a\\b",
    ],
)
def test_only_absolute_http_urls_are_base_urls(bad):
    assert not urls.is_base_url(bad)


def test_search_index_lives_per_language_under_one_folder():
    assert urls.search_index_folder("nl") == "pagefind/nl"
    assert urls.search_index("nl") == "pagefind/nl/pagefind.js"


def test_the_404_page_links_absolutely_and_the_offline_page_relatively():
    assert urls.links_absolutely(urls.NOT_FOUND) and not urls.links_absolutely(urls.offline("nl"))
    assert not urls.links_absolutely(urls.home("nl")) and not urls.links_absolutely(urls.record("questions", "nl", "offline"))
    assert urls.Links("https://user.github.io/repo/", urls.NOT_FOUND).root == "/repo/"
    assert urls.Links("https://user.github.io/repo/", urls.offline("fr")).root == "../../"  # the service worker makes them absolute
    assert urls.Links("https://user.github.io/repo/", urls.record("topics", "fr", "basics")).href("") == "../../../"


def test_a_page_file_gives_back_the_path_it_serves():
    for path in ("", "nl/", "nl/questions/q/", "404.html", "nl/downloads/deck-nl.apkg"):
        assert urls.path_of(urls.file_for(path)) == path
