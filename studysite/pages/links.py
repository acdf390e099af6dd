"""Links between the site's own pages that an author wrote in Markdown: each relative link of
a record's text resolved from the record's page, and a warning for one that leads to no page
of the site (a typo in an id, a page renamed). Links to files that are not pages (images,
decks), to other sites and to anchors are not this check's; nor are the links the templates
make (urls.py makes every one of them from a page that exists).

It runs once the pages are planned, over the records' HTML: a set lookup per link, and the
record's file to name, whichever of its pages the text is shown on."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

from studysite import urls
from studysite.content.fields import Text, texts_of
from studysite.content.html import ContentHtml
from studysite.content.records import KINDS, Content
from studysite.content.schema import KIND_OF_FOLDER
from studysite.diagnostics import Location, Report
from studysite.pages.view_models import Page

_HREF = re.compile(r'<a\s[^>]*?href="([^"]*)"')


def check_page_links(content: Content, content_html: ContentHtml, pages: Iterable[Page], report: Report) -> None:
    """A warning for each relative link in a record's text that leads to no page of the site."""
    paths = {page.path for page in pages}
    for path, language, fragment in record_texts(content, content_html):
        if 'href="' not in fragment:
            continue
        for href in _HREF.findall(fragment):
            target = link_target(path, html.unescape(href))
            if target is not None and not leads_to_page(target, paths):
                source = record_file(content, path)
                report.warning(
                    locate_link(report.source_root, source, html.unescape(href)),
                    "link.broken",
                    f"the link '{html.unescape(href)}' in the '{language}' text leads to no page of the site ('{target}')",
                    "links are relative to the page the text is on: from a record's page, another of its kind is '../<id>/', "
                    "a glossary term '../../glossary/<id>/'",
                )


def record_texts(content: Content, content_html: ContentHtml) -> Iterator[tuple[str, str, str]]:
    """(the page a text is on, its language, its HTML) of every record text with HTML: the
    Markdown and inline fields the schema declares."""
    for folder, texts in (("questions", content_html.questions), ("topics", content_html.topics), ("glossary", content_html.terms), ("comparisons", content_html.comparisons)):
        table = KIND_OF_FOLDER[folder].any_block
        for (record_id, language), converted in texts.items():
            page = urls.record(folder, language, record_id)
            yield from ((page, language, fragment) for _, field, fragment in texts_of(table, converted) if field.text is not Text.PLAIN)
    for language, description in content_html.site.items():
        yield urls.home(language), language, description


def link_target(page: str, href: str) -> str | None:
    """The site path a relative link of a page leads to; None for a link this check leaves
    alone: to another site or scheme, an absolute path, an anchor of the page itself, a file
    that is not a page (an image, a deck), or a place outside the site."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return None
    path = unquote(parts.path)
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if "." in name and not name.endswith(".html") and name not in (".", ".."):
        return None
    joined = posixpath.normpath(posixpath.join(page, path))
    if joined == ".":
        return ""
    if joined.startswith("../") or joined == "..":
        return None
    return joined + "/" if path.endswith("/") and not joined.endswith("/") else joined


def leads_to_page(target: str, paths: set[str]) -> bool:
    """Whether a site path is a page: written as its folder (with or without the final
    "/", which GitHub Pages adds) or as its index.html."""
    return target in paths or target + "/" in paths or urls.path_of(target) in paths or target == urls.NOT_FOUND


def record_file(content: Content, page: str) -> str:
    """The content file of the record whose page this is (site.yaml for a home page)."""
    parts = page.strip("/").split("/")
    if len(parts) == 3 and parts[1] in KINDS:  # <lang>/<kind>/<id>/: a kind's folder of pages is its content folder
        record = content.records(parts[1]).get(parts[2])
        if record is not None:
            return record.location.path
    return "site.yaml"


def locate_link(content_dir: Path | None, source: str, href: str) -> Location:
    """The line and column of a link's target in its record's file, where it is written
    there (a text from content.po is not): the file, else."""
    if content_dir is not None:
        try:
            lines = (content_dir / source).read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
        for number, line in enumerate(lines, 1):
            at = line.find(f"]({href}")
            if at >= 0:
                return Location(source, number, at + 3)
    return Location(source)
