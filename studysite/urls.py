"""URLs: the one place that maps a page to its path, file and links.

Paths are site-relative ("nl/questions/q1/"). Pages link to each other relatively, so a
site works under any base path; 404.html, which GitHub Pages serves at any depth, links
with absolute paths under the base path instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlsplit

KIND_FOLDERS = {"topics": "topics", "questions": "questions", "glossary": "glossary", "comparisons": "comparisons", "practice": "practice"}
NOT_FOUND = "404.html"


def home(language: str) -> str:
    return f"{language}/"


def record(kind: str, language: str, record_id: str) -> str:
    """The page of a record: kind is topics, questions, glossary, comparisons or practice."""
    return f"{language}/{KIND_FOLDERS[kind]}/{record_id}/"


def glossary(language: str) -> str:
    return f"{language}/glossary/"


def search(language: str) -> str:
    return f"{language}/search/"


def status(language: str) -> str:
    return f"{language}/status/"


def review(language: str) -> str:
    return f"{language}/review/"


def downloads(language: str) -> str:
    return f"{language}/downloads/"


def offline(language: str) -> str:
    """What the service worker shows for a page that was never stored, at any address."""
    return f"{language}/offline/"


def links_absolutely(path: str) -> bool:
    """Pages served in place of another address (404, offline) link with absolute paths."""
    return path == NOT_FOUND or (path.count("/") == 2 and path.endswith("/offline/"))


def term_from_record_page(term_id: str) -> str:
    """A term page's link from any record page of the same language.

    Record pages all sit at <lang>/<kind>/<id>/, so the link is the same from each of
    them; this lets a text's term links be made once and shown on any record page."""
    return f"../../glossary/{term_id}/"


def file_for(path: str) -> str:
    """The file that serves a path: pretty URLs are folders with an index.html."""
    return path + "index.html" if path == "" or path.endswith("/") else path


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
        return self.base_url + path
