"""Markup: content Markdown to safe HTML.

Content is untrusted: Markdown is converted, then sanitised with nh3's allow-list, so raw
HTML, scripts, event handlers and javascript:/data: URLs never reach a page. Text of the
everyday subset (paragraphs, lists, emphasis: plain_markdown.py), the common case, skips
the Markdown parser and the sanitiser altogether. TeX between dollars becomes MathML
(text/texmath.py), set aside while Markdown and the sanitiser run and put back afterwards;
in a tag (a link's title or URL, an image's alt text) it is put back as its TeX, as text,
and the fragment sanitised again.

Whatever the content says, the HTML is valid: a link left without a target (its URL was
not allowed) becomes its text, an image left without a source its alt text, and an image
without alt text gets an empty one and an error (every image of a text says what it shows).

After the sanitiser, on every build (its HTML may come from the cache): a link to a record
(`glossary:ID`...) becomes the relative link to its page (text/site_links.py), and an image
of a local file, given a media library (content/media.py), the path of its published copy,
with its width and height.
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urlsplit

import markdown
import nh3

from studysite import urls
from studysite.diagnostics import Location, Report
from studysite.fileio import MAX_CATALOG, read_bytes, shown_path
from studysite.memo import NO_MEMO, Memo
from studysite.text import plain_markdown, site_links
from studysite.text.texmath import TexError, has_math, protect_math


class MediaFinder(Protocol):
    """Finds and checks the file a reference names (content/media.py's MediaLibrary): the
    file (with .path, .width, .height), or None, and its problems (.code, .message, .hint, .warning)."""

    def find(self, reference: str, base_file: str, kind: str) -> tuple[Any, tuple[Any, ...]]: ...

BLOCK_TAGS = {"p", "br", "hr", "ul", "ol", "li", "blockquote", "pre", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "h3", "h4", "h5", "h6"}
INLINE_TAGS = {"a", "abbr", "b", "code", "del", "em", "i", "kbd", "mark", "q", "s", "strong", "sub", "sup", "img"}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "abbr": {"title"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
}
URL_SCHEMES = {"http", "https", "mailto", *site_links.SCHEMES}  # the site's own are made links to pages after the sanitiser
EXTENSIONS = ["fenced_code", "tables"]

_BLOCK_START = re.compile(r"^(\s*\d+|\s*)([.)]|#|>|[-+*](?=\s))")


# What a text must hold for each of Python-Markdown's inline patterns to match anywhere in
# it: a parser for a text without them leaves those patterns out (each is otherwise tried
# on every piece of text). Patterns not named here are always kept.
_INLINE_TRIGGERS = {
    "backtick": ("`",),
    "escape": ("\\",),
    "reference": ("[",),
    "link": ("[",),
    "short_reference": ("[",),
    "image_link": ("![",),
    "image_reference": ("![",),
    "short_image_ref": ("![",),
    "autolink": ("<",),
    "automail": ("<",),
    "html": ("<",),
    "entity": ("&",),
    "em_strong": ("*", "_"),
    "em_strong2": ("_",),
}


def _unneeded_patterns(text: str) -> frozenset[str]:
    unneeded = {name for name, triggers in _INLINE_TRIGGERS.items() if not any(t in text for t in triggers)}
    if not (("  " in text or "\t" in text) and ("\n" in text or "\r" in text)):  # a hard line break: two spaces (or a tab) at a line's end
        unneeded.add("linebreak")
    return frozenset(unneeded)


_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")  # private-use characters: no Markdown meaning, kept by nh3
_PLACEHOLDER_IN_TAG = re.compile("<[^>]*\ue000\\d+\ue001")  # nh3 escapes "<" and ">" in text and in attributes: a "<" opens a tag
_ATTRIBUTE = re.compile(r'\s([\w:-]+)="([^"]*)"')  # nh3 double-quotes every attribute
_URL_ATTRIBUTES = {"href", "src"}
_URL_SAFE = "!$&'()*+,-./:;=?@_~"  # what TeX may keep as it is in a URL; the rest ("^", "{", "\", " "...) is percent-encoded
_LINK = re.compile(r'<a((?:\s+[\w:-]+(?:="[^"]*")?)*)>(.*?)</a>', re.DOTALL)  # nh3 double-quotes every attribute
_IMAGE = re.compile(r'<img((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*/?>')
_HREF_VALUE = re.compile(r'\shref="([^"]*)"')


class MarkdownConverter:
    """Converts content text to sanitised HTML; one instance per build (Python-Markdown parsers are stateful).

    Problems in the text (TeX that cannot be converted, an image without alt text) go to
    the report, located in the file named by `source`; without a report they raise. The
    cache keeps the Markdown-and-sanitiser step only: math and the checks of _finish run
    on every build, so their diagnostics are never lost to a memo's hit."""

    def __init__(
        self,
        report: Report | None = None,
        memo: Memo = NO_MEMO,
        media: MediaFinder | None = None,
        targets: site_links.Targets | None = None,
    ) -> None:
        self._parsers: dict[frozenset[str], markdown.Markdown] = {}
        self.report = report
        self.source = ""  # path of the content file whose text is being converted
        self.translation: Path | None = None  # the content.po its text may come from instead (i18n/content_po.py)
        self.place = urls.RECORD_PAGE  # where the text is shown: what its relative links start with
        self.media = media  # without it, images keep the URL written
        self.targets = targets  # the ids a link to a record may name; without them, such a link is its text
        self.used: list[Any] = []  # the media files of the texts converted since it was emptied
        self._math: list[str] = []
        self._memo = memo  # the sanitised HTML of texts converted before, by text_key

    def _convert(self, text: str) -> str:
        """Python-Markdown's HTML for a text, from a parser without the inline patterns
        that cannot match in it: the same HTML, sooner."""
        unneeded = _unneeded_patterns(text)
        parser = self._parsers.get(unneeded)
        if parser is None:
            parser = self._parsers[unneeded] = markdown.Markdown(extensions=EXTENSIONS)
            for name in unneeded:
                if name in parser.inlinePatterns:
                    parser.inlinePatterns.deregister(name)
        return parser.reset().convert(text)

    def _cached(self, kind: str, text: str, convert) -> str:
        key = text_key(kind, text)
        html = self._memo.get(key)
        if html is None:
            html = convert(text)
            self._memo.put(key, html)
        return html

    def block(self, text: str) -> str:
        """Block Markdown (paragraphs, lists, code...) to sanitised HTML."""
        text = self._set_math_aside(text)
        plain = plain_markdown.block(text)
        if plain is not None:
            return self._finish(plain)
        return self._finish(self._cached("block", text, self._block))

    def _block(self, text: str) -> str:
        converted = self._convert(text)
        return sanitize(converted, BLOCK_TAGS | INLINE_TAGS)

    def inline(self, text: str) -> str:
        """Inline Markdown (emphasis, code, links) to sanitised HTML with no block elements."""
        text = self._set_math_aside(" ".join(text.split()))
        plain = plain_markdown.inline(text)
        if plain is not None:
            return self._finish(plain)
        return self._finish(self._cached("inline", text, self._inline))

    def _inline(self, text: str) -> str:
        text = _BLOCK_START.sub(r"\1\\\2", text, count=1)
        converted = self._convert(text)
        if converted.startswith("<p>") and converted.endswith("</p>"):
            converted = converted[3:-4]
        return sanitize(converted, INLINE_TAGS)

    def _set_math_aside(self, text: str) -> str:
        self._math = []
        if not has_math(text):
            return text

        def placeholder(fragment: str) -> str:
            self._math.append(fragment)
            return f"\ue000{len(self._math) - 1}\ue001"

        try:
            return protect_math(text, placeholder)
        except TexError as error:
            if self.report is None:
                raise
            self._problem((error.tex,), "markup.math", str(error), "write TeX that latex2mathml understands, or \\$ for a dollar sign", warn=False)
            return text  # shown as written; the build fails anyway

    def _finish(self, fragment: str) -> str:
        """Valid HTML whatever the text said, with the math put back."""
        if self._math and _PLACEHOLDER_IN_TAG.search(fragment):
            fragment = self._math_in_tags_as_text(fragment)
        fragment = _LINK.sub(self._link, fragment)
        fragment = _IMAGE.sub(self._image_with_alt, fragment)
        return _PLACEHOLDER.sub(self._math_back, fragment)

    def _math_back(self, match: re.Match) -> str:
        """A formula set aside by _set_math_aside; text that only looks like a placeholder stays."""
        index = int(match.group(1))
        return self._math[index] if index < len(self._math) else match.group(0)

    def _math_in_tags_as_text(self, fragment: str) -> str:
        """The fragment with each formula in a tag (in an attribute's value) put back as its
        TeX, escaped: MathML there would break the tag open. The sanitiser only saw the
        placeholder, so it runs again on the TeX: `[x]($javascript:alert(1)$)` must not
        become a link to a script. Both tag sets are allowed, as the fragment was
        sanitised to its own before."""
        fragment = _TAG.sub(lambda tag: _ATTRIBUTE.sub(self._attribute_with_tex, tag.group(0)), fragment)
        return sanitize(fragment, BLOCK_TAGS | INLINE_TAGS)

    def _attribute_with_tex(self, attribute: re.Match) -> str:
        """An attribute with each formula in its value as its TeX ("$" for \\$), escaped; in a
        URL also percent-encoded, as "^", "{" or "\\" would make the URL invalid."""
        name, value = attribute.groups()
        in_url = name.lower() in _URL_ATTRIBUTES

        def tex(match: re.Match) -> str:
            text = plain_text(self._math_back(match))
            return html.escape(quote(text, safe=_URL_SAFE) if in_url else text)

        return f' {name}="{_PLACEHOLDER.sub(tex, value)}"'

    def _link(self, match: re.Match) -> str:
        """A link as it stays, a link to a record made the link to its page, or, without a
        target (its URL was not allowed, its record does not exist), its text."""
        href = _HREF_VALUE.search(match.group(1))
        if href is None or not href.group(1):
            return match.group(2)
        written = html.unescape(href.group(1))
        if not site_links.scheme_of(written):
            return match.group(0)
        if self.targets is None:
            return match.group(2)
        resolved = site_links.record_href(written, self.targets, self.place)
        if isinstance(resolved, site_links.UnknownTarget):
            snippets = (f"[{plain_text(match.group(2))}]({written}", f"]({written}", f'href="{written}"', written)
            self._problem(snippets, resolved.code, resolved.message, resolved.hint, warn=False)
            return match.group(2)
        return f'<a{match.group(1)[: href.start(1)]}{html.escape(resolved)}{match.group(1)[href.end(1) :]}>{match.group(2)}</a>'

    def _image_with_alt(self, match: re.Match) -> str:
        attributes = match.group(1)
        source = re.search(r'\ssrc="([^"]*)"', attributes)
        if source is None or site_links.scheme_of(html.unescape(source.group(1))):  # its URL was not allowed (or names a page): its alt text stands in
            alt = re.search(r'\salt="([^"]*)"', attributes)
            return alt.group(1) if alt else ""
        where = html.unescape(source.group(1))
        alt = re.search(r'\salt="([^"]*)"', attributes)
        snippets = (f"![{html.unescape(alt.group(1)) if alt else ''}]({where}", f"]({where}", f"src={where}", f'src="{where}"', where)
        if not re.search(r'\salt="[^"]', attributes):
            attributes = ' alt=""' + re.sub(r'\salt=""', "", attributes)
            self._problem(
                snippets,
                "markup.image-alt",
                "image without alt text",
                "say what it shows, in the text's language: ![what it shows](" + where + ")",
                warn=False,
            )
        if self.media is not None and _is_local(where):
            attributes = self._published(attributes, where, snippets)
        return f"<img{attributes}>"

    def _published(self, attributes: str, url: str, snippets: tuple[str, ...]) -> str:
        """An image's attributes with its src the published copy of its file, and the file's
        width and height (in place of any written); as written when the file has a problem."""
        found = self._find_media(unquote(urlsplit(url).path), "image", snippets)
        if found is None:
            return attributes
        attributes = re.sub(r'\s(?:width|height)="[^"]*"', "", attributes)
        attributes = re.sub(r'(\ssrc=")[^"]*"', lambda m: m.group(1) + html.escape(self.place.site_file(found.path)) + '"', attributes)
        size = f' width="{found.width}" height="{found.height}"' if found.width and found.height else ""
        return attributes + size

    def audio(self, reference: str) -> Any:
        """The file of an `audio:` field, checked (None without a media library, or when it
        has a problem: told, located at the field)."""
        if self.media is None or not reference:
            return None
        return self._find_media(reference, "audio", (f"audio: {reference}", f"audio: '{reference}'", f'audio: "{reference}"', reference))

    def _find_media(self, reference: str, kind: str, snippets: tuple[str, ...]) -> Any:
        assert self.media is not None
        found, problems = self.media.find(reference, self.source or "site.yaml", kind)
        for problem in problems:
            self._problem(snippets, problem.code, problem.message, problem.hint, warn=problem.warning)
        if found is not None:
            self.used.append(found)
        return found

    def _problem(self, snippets: tuple[str, ...], code: str, message: str, hint: str, warn: bool = True) -> None:
        if self.report is None:
            return
        (self.report.warning if warn else self.report.error)(self._where(snippets), code, message, hint)

    def _where(self, snippets: tuple[str, ...]) -> Location:
        """Where the first of the snippets that occurs first occurs (the first line of it):
        in the record's file, else in the content.po its text was translated in; else the
        record's file."""
        root = self.report.source_root if self.report is not None else None
        if root and self.source and (found := _find(_lines_of(root / self.source), snippets)):
            return Location(self.source, *found)
        if self.translation is not None and (found := _find(_lines_of(self.translation), snippets)):
            return Location(shown_path(self.translation), *found)
        return Location(self.source, 1, 1) if self.source else Location("content")


def _is_local(url: str) -> bool:
    """Whether an image's URL names a file of the site: no scheme, no host, a path."""
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc and bool(parts.path)


def _lines_of(path: Path) -> list[str]:
    try:
        return read_bytes(path, MAX_CATALOG).decode("utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _find(lines: list[str], snippets: tuple[str, ...]) -> tuple[int, int] | None:
    """The 1-based line and column where the first of the snippets that occurs first occurs
    (the first line of it)."""
    for snippet in snippets:
        first_line = snippet.strip().splitlines()[0] if snippet.strip() else ""
        for number, line in enumerate(lines, 1):
            column = line.find(first_line) if first_line else -1
            if column >= 0:
                return number, column + 1
    return None


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


_MATH_ELEMENT = re.compile(r'<math[^>]*\salttext="([^"]*)"[^>]*>.*?</math>', re.DOTALL)


def plain_text(fragment: str, formula: str | None = None) -> str:
    """The visible text of an HTML fragment, for excerpts and descriptions; math as its
    TeX, or as `formula` when given (for text that would rather leave a formula out)."""
    if "<math" in fragment:  # a test for the element, cheaper than a search that finds none
        fragment = _MATH_ELEMENT.sub(r"\1" if formula is None else lambda _: formula, fragment)
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


def text_key(kind: str, text: str) -> str:
    """The key of a text's HTML in a memo."""
    return hashlib.sha256(f"{kind}\0{text}".encode()).hexdigest()[:32]
