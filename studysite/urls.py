"""URLs: the one place that maps a page to its path, file and links, makes absolute URLs
and says where the search index lives.

Paths are site-relative ("nl/questions/q1/"). Pages link to each other relatively, so a
site works under any base path; 404.html, which GitHub Pages serves at any depth, links
with absolute paths under the base path instead. Absolute URLs (canonical, hreflang,
sitemap, robots.txt, Anki note links) are the base URL, which always ends in "/", and a path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlsplit

KIND_FOLDERS = {"topics": "topics", "questions": "questions", "glossary": "glossary", "comparisons": "comparisons", "practice": "practice"}
NOT_FOUND = "404.html"
SITEMAP = "sitemap.xml"
SEARCH_INDEX_FOLDER = "pagefind"
_BASE_URL = re.compile(r'https?://[^/\s"<>?#\\]+(/[^\s"<>?#\\]*)?$')  # no query or fragment (paths go after it), nothing HTML would take for markup
_TERM_FROM_RECORD_PAGE = f"../../{KIND_FOLDERS['glossary']}/"


def page(language: str, *segments: str) -> str:
    """The one pattern of every page's path but 404.html: "<lang>/<segment>/.../", a
    folder that its index.html serves."""
    return "/".join((language, *segments, ""))


def home(language: str) -> str:
    return page(language)


def record(kind: str, language: str, record_id: str) -> str:
    """The page of a record: kind is topics, questions, glossary, comparisons or practice."""
    return page(language, KIND_FOLDERS[kind], record_id)


def glossary(language: str) -> str:
    return page(language, KIND_FOLDERS["glossary"])


def search(language: str) -> str:
    return page(language, "search")


def status(language: str) -> str:
    return page(language, "status")


def review(language: str) -> str:
    return page(language, "review")


def review_questions(language: str) -> str:
    """The ids of the questions a language's site has (a JSON list): what the review page
    lists, for the due count every page shows."""
    return f"{review(language)}questions.json"


def downloads(language: str) -> str:
    return page(language, "downloads")


def flashcards(language: str) -> str:
    return page(language, "flashcards")


def flashcard_list(language: str) -> str:
    """The keys of the flashcards a language's site has (a JSON list, "<term id>:<side shown
    first>"): the due count every page shows counts only these."""
    return f"{flashcards(language)}cards.json"


def exam(language: str) -> str:
    return page(language, "exam")


def offline(language: str) -> str:
    """What the service worker shows for a page that was never stored, at any address."""
    return page(language, "offline")


def search_index_folder(language: str) -> str:
    """Where a language's search bundle (Pagefind's) lives, relative to the site root."""
    return f"{SEARCH_INDEX_FOLDER}/{language}"


SEARCH_PART_PREFIX = "part-"  # a language's index in parts: part-2/, part-3/... inside its folder


def search_index_part(number: int) -> str:
    """The folder of a language's index part (from 2; the first is the language's index
    folder itself), relative to that folder."""
    return f"{SEARCH_PART_PREFIX}{number}"


def search_index(language: str) -> str:
    """The script of a language's search bundle, which its search page loads."""
    return search_index_folder(language) + "/pagefind.js"


def is_base_url(url: str) -> bool:
    """Whether url can be a site's base URL: an absolute http(s) URL of a folder, without a
    query, a fragment, quotes, angle brackets or backslashes."""
    return bool(_BASE_URL.match(url))


def normalize_base_url(url: str) -> str:
    """The base URL ending in "/", so that a path can be put after it."""
    return url if url.endswith("/") else url + "/"


def absolute(base_url: str, path: str) -> str:
    """The absolute URL of a site path under a (normalised) base URL."""
    return base_url + path


def links_absolutely(path: str) -> bool:
    """The 404 page, which GitHub Pages serves in place of any address, links with absolute
    paths under the base URL's. (The offline page, which the service worker serves in place
    of a page, links relatively: the worker makes its links absolute under the path it is
    served at, which may differ from base_url's.)"""
    return path == NOT_FOUND


def term_from_record_page(term_id: str) -> str:
    """A term page's link from any record page of the same language.

    Record pages all sit at <lang>/<kind>/<id>/, so the link is the same from each of
    them; this lets a text's term links be made once and shown on any record page."""
    return f"{_TERM_FROM_RECORD_PAGE}{term_id}/"


@dataclass(frozen=True)
class TextPlace:
    """Where a record's text is shown, as what its relative links start with: the way up to
    the site's root (its images, under media/) and to its language's root (the pages it
    links to, in the language of the page that shows it)."""

    site_root: str
    language_root: str

    def record(self, kind: str, record_id: str) -> str:
        """The link to a record's page, in the language of the page the text is shown on."""
        return self.language_root + "/".join((KIND_FOLDERS[kind], record_id, ""))

    def site_file(self, path: str) -> str:
        """The link to a file of the site (a path from its root)."""
        return self.site_root + path


RECORD_PAGE = TextPlace("../../../", "../../")  # every record page, <lang>/<kind>/<id>/ (term_from_record_page), and practice pages
LANGUAGE_HOME = TextPlace("../", "")  # a language's home page, <lang>/, which shows the site's description


_UP_ONE = re.compile(r'(\s(?:href|src)=")\.\./')


def one_folder_up(fragment: str) -> str:
    """A record page's text (its relative links made for <lang>/<kind>/<id>/, RECORD_PAGE) as
    a page one folder higher shows it (<lang>/flashcards/): each relative link one "../" shorter."""
    return _UP_ONE.sub(r"\1", fragment)


def file_for(path: str) -> str:
    """The file that serves a path: pretty URLs are folders with an index.html."""
    return path + "index.html" if path == "" or path.endswith("/") else path


def path_of(file: str) -> str:
    """The path a site file is served at: file_for's inverse ("nl/x/index.html" -> "nl/x/")."""
    return file.removesuffix("index.html") if file == "index.html" or file.endswith("/index.html") else file


@dataclass(frozen=True)
class Links:
    """Makes the links of one page."""

    base_url: str
    page_path: str

    @cached_property
    def root(self) -> str:
        """The prefix that leads from this page to the site root."""
        if links_absolutely(self.page_path):
            return urlsplit(self.base_url).path
        return "../" * self.page_path.count("/")

    def href(self, path: str) -> str:
        return self.root + path or "./"

    def absolute(self, path: str) -> str:
        return absolute(self.base_url, path)
