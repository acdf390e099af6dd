"""Markup: content Markdown to safe HTML.

Content is untrusted: Markdown is rendered, then sanitised with nh3's allow-list, so raw
HTML, scripts, event handlers and javascript:/data: URLs never reach a page. Plain text,
the common case, skips the Markdown parser altogether.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass

import markdown
import nh3

from .cache import BuildCache
from .model import Content

BLOCK_TAGS = {"p", "br", "hr", "ul", "ol", "li", "blockquote", "pre", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "h3", "h4", "h5", "h6"}
INLINE_TAGS = {"a", "abbr", "b", "code", "del", "em", "i", "kbd", "mark", "q", "s", "strong", "sub", "sup", "img"}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "abbr": {"title"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
}
URL_SCHEMES = {"http", "https", "mailto"}
EXTENSIONS = ["fenced_code", "tables"]

# Text without these characters, and without lines Markdown reads as block syntax, renders
# to exactly its escaped self; such text skips the Markdown parser.
_MARKDOWN_CHARS = re.compile(r"[\\`*_\[\]!<>&#|~=]|  \n|^[ \t]|^[-+]|^\d+[.)]", re.MULTILINE)
_BLOCK_START = re.compile(r"^(\s*\d+|\s*)([.)]|#|>|[-+*](?=\s))")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


class MarkdownRenderer:
    """Renders content text; one instance per build (Python-Markdown parsers are stateful)."""

    def __init__(self, cache: BuildCache | None = None) -> None:
        self._markdown = markdown.Markdown(extensions=EXTENSIONS)
        self._cache = cache

    def _cached(self, kind: str, text: str, convert) -> str:
        return self._cache.text(kind, text, convert) if self._cache is not None else convert(text)

    def block(self, text: str) -> str:
        """Block Markdown (paragraphs, lists, code...) to sanitised HTML."""
        if not _MARKDOWN_CHARS.search(text):
            paragraphs = (p.strip() for p in _PARAGRAPH_BREAK.split(text.strip()))
            return "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in paragraphs if p)
        return self._cached("block", text, self._block)

    def _block(self, text: str) -> str:
        rendered = self._markdown.reset().convert(text)
        return sanitize(rendered, BLOCK_TAGS | INLINE_TAGS)

    def inline(self, text: str) -> str:
        """Inline Markdown (emphasis, code, links) to sanitised HTML with no block elements."""
        text = " ".join(text.split())
        if not _MARKDOWN_CHARS.search(text):
            return html.escape(text, quote=False)
        return self._cached("inline", text, self._inline)

    def _inline(self, text: str) -> str:
        text = _BLOCK_START.sub(r"\1\\\2", text, count=1)
        rendered = self._markdown.reset().convert(text)
        if rendered.startswith("<p>") and rendered.endswith("</p>"):
            rendered = rendered[3:-4]
        return sanitize(rendered, INLINE_TAGS)


def sanitize(fragment: str, tags: set[str]) -> str:
    return nh3.clean(
        fragment,
        tags=tags,
        attributes=ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        clean_content_tags={"script", "style"},
    )


_TAG = re.compile(r"<[^>]*>")


def plain_text(fragment: str) -> str:
    """The visible text of an HTML fragment, for excerpts and descriptions."""
    return html.unescape(_TAG.sub("", fragment))


def excerpt(text: str, limit: int) -> str:
    """Text cut at a word boundary to at most limit characters, with '…' when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


@dataclass(frozen=True)
class QuestionHtml:
    stem: str
    choices: tuple[str, ...]
    explanation: str


@dataclass(frozen=True)
class ComparisonHtml:
    rows: tuple[tuple[str, ...], ...]  # per aspect, one cell per term
    summary: str


@dataclass(frozen=True)
class RenderedText:
    """Every content text as HTML, keyed by (record id, language of the text)."""

    questions: Mapping[tuple[str, str], QuestionHtml]
    topics: Mapping[tuple[str, str], str]
    terms: Mapping[tuple[str, str], str]
    comparisons: Mapping[tuple[str, str], ComparisonHtml]
    site: Mapping[str, str]

    def question_html(self, question_id: str, language: str) -> str:
        """The whole text of a question, for finding the terms it names."""
        q = self.questions[(question_id, language)]
        return "\n".join((q.stem, *q.choices, q.explanation))


def render_content(content: Content, cache: BuildCache | None = None) -> RenderedText:
    """Render the text of every record in every site language it is written in."""
    markup = MarkdownRenderer(cache)
    languages = set(content.site.languages)

    def each(records):
        return ((r, lang, text) for r in records.values() for lang, text in r.texts.items() if lang in languages)

    return RenderedText(
        questions={
            (q.id, lang): QuestionHtml(markup.inline(t.question), tuple(map(markup.inline, t.choices)), markup.block(t.explanation))
            for q, lang, t in each(content.questions)
        },
        topics={(r.id, lang): markup.block(t.description) for r, lang, t in each(content.topics) if t.description},
        terms={(r.id, lang): markup.block(t.definition) for r, lang, t in each(content.terms) if t.definition},
        comparisons={
            (c.id, lang): ComparisonHtml(tuple(tuple(map(markup.inline, a.values)) for a in t.aspects), markup.block(t.summary) if t.summary else "")
            for c, lang, t in each(content.comparisons)
        },
        site={lang: markup.inline(t.description) for lang, t in content.site.texts.items() if t.description},
    )
