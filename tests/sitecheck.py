"""Whole-site checks: parse built pages, resolve their links, crawl from the root."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit


@dataclass
class ParsedPage:
    links: list[tuple[str, str]] = field(default_factory=list)  # (tag, url)
    ids: set[str] = field(default_factory=set)
    alternates: dict[str, str] = field(default_factory=dict)
    canonical: str = ""
    lang: str = ""
    switcher: list[tuple[str, str]] = field(default_factory=list)  # (hreflang, href)


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._in_switcher = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.page.ids.add(a["id"])
        if tag == "html":
            self.page.lang = a.get("lang", "")
        if tag == "nav" and "switcher" in (a.get("class") or ""):
            self._in_switcher = True
        if tag == "link" and a.get("rel") == "alternate" and "hreflang" in a:
            self.page.alternates[a["hreflang"]] = a["href"]
        elif tag == "link" and a.get("rel") == "canonical":
            self.page.canonical = a["href"]
        for attribute in ("href", "src"):
            if attribute in a and not (tag == "link" and a.get("rel") in ("canonical", "alternate")):
                self.page.links.append((tag, a[attribute]))
        if tag == "a" and self._in_switcher and "hreflang" in a:
            self.page.switcher.append((a["hreflang"], a["href"]))

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_switcher = False


def parse_page(path: Path) -> ParsedPage:
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.page


def url_of(site: Path, file: Path, base_path: str) -> str:
    relative = file.relative_to(site).as_posix()
    if relative.endswith("index.html"):
        relative = relative[: -len("index.html")]
    return base_path + relative


def file_of(site: Path, url_path: str, base_path: str) -> Path | None:
    """The file that serves a URL path under the base path, as a static host would."""
    if not url_path.startswith(base_path):
        return None
    relative = unquote(url_path[len(base_path) :])
    target = site / relative
    if relative == "" or relative.endswith("/"):
        target = target / "index.html"
    return target if target.is_file() else None


def html_files(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "pagefind" not in p.parts)


@dataclass
class CrawlResult:
    reached: set[Path]
    broken: list[str]


def crawl(site: Path, base_path: str, origin: str = "https://example.org") -> CrawlResult:
    """Follow every internal href/src from the root; report links that do not resolve."""
    start = site / "index.html"
    queue, reached, broken = [start], {start}, []
    parsed: dict[Path, ParsedPage] = {}
    while queue:
        page_file = queue.pop()
        page = parsed.setdefault(page_file, parse_page(page_file))
        page_url = origin + url_of(site, page_file, base_path)
        for tag, link in page.links:
            absolute = urljoin(page_url, link)
            parts = urlsplit(absolute)
            if f"{parts.scheme}://{parts.netloc}" != origin:
                continue
            path = posixpath.normpath(parts.path)
            if parts.path.endswith("/") and not path.endswith("/"):
                path += "/"
            target = file_of(site, path, base_path)
            where = f"{page_file.relative_to(site)}: <{tag}> {link}"
            if target is None:
                broken.append(f"{where} (no such file)")
                continue
            if parts.fragment and target.suffix == ".html":
                target_page = parsed.setdefault(target, parse_page(target))
                if parts.fragment not in target_page.ids:
                    broken.append(f"{where} (no element with id '{parts.fragment}')")
            if target.suffix == ".html" and target not in reached:
                reached.add(target)
                queue.append(target)
    return CrawlResult(reached, broken)
