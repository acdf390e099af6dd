"""Texts between Studysite's Markdown and the HTML of LMS banks.

Out: a text becomes the HTML the build makes of it (text/markup.py's MarkdownConverter),
with each formula put back as TeX between the delimiters LMS math filters read, \\(...\\)
inline and \\[...\\] on its own, instead of the build's MathML. A plain text (an accepted
answer) is escaped.

In: HTML (Moodle's question texts) becomes Markdown: paragraphs, lists, emphasis, code,
links, images, tables; \\(...\\), \\[...\\] and $$...$$ become $...$ and $$...$$; tags
Markdown has no syntax for and the build allows (sub, sup...) stay as they are; others
give their text. A character that would mean something in Markdown is escaped only when it
would: the text is written both without escapes and with every one, and the first is kept
when the build makes the same HTML of both.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser

from studysite.content.fields import Text
from studysite.text.markup import MarkdownConverter, plain_text
from studysite.text.texmath import TexError

_MATH = re.compile(r'<math[^>]*\sdisplay="(block|inline)"[^>]*\salttext="([^"]*)"[^>]*>.*?</math>', re.DOTALL)
_KEPT_TAGS = {"sub", "sup", "del", "s", "mark", "kbd", "q", "abbr"}  # no Markdown syntax, allowed by the build
_BLOCKS = {
    "p",
    "div",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "dl",
    "dt",
    "dd",
}
_VOID = {"br", "hr", "img", "input", "meta", "link", "col", "source", "wbr"}
_TEX_IN_TEXT = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.DOTALL)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]$])")
_LINE_START = re.compile(r"^(#|>|[-+*](?=\s)|\d+[.)](?=\s))")


# -- out ----------------------------------------------------------------------------------


def math_as_tex(fragment: str) -> str:
    """The build's HTML with each MathML formula as its TeX: \\(...\\) inline, \\[...\\] on its own."""
    if "<math" not in fragment:
        return fragment

    def tex(match: re.Match) -> str:
        source = html.unescape(match.group(2))
        return html.escape(f"\\[{source}\\]" if match.group(1) == "block" else f"\\({source}\\)", quote=False)

    return _MATH.sub(tex, fragment)


def text_to_html(markup: MarkdownConverter, text: str, text_format: Text | None) -> str:
    """A content text as the HTML an LMS shows: Markdown converted, math as TeX."""
    if text_format is Text.MARKDOWN:
        return math_as_tex(markup.block(text))
    if text_format is Text.INLINE:
        return math_as_tex(markup.inline(text))
    return html.escape(text, quote=False)


def html_to_text(fragment: str) -> str:
    """The visible text of HTML, for a format that takes plain text (math as its TeX)."""
    return plain_text(math_as_tex(fragment)).strip()


# -- in -----------------------------------------------------------------------------------


class _Tree(HTMLParser):
    """HTML as nested (tag, attributes, children) lists; text as str."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: list = ["", {}, []]
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = [tag, {name: value or "" for name, value in attrs}, []]
        self.stack[-1][2].append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1][2].append([tag, {name: value or "" for name, value in attrs}, []])

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1][2].append(data)


def parse_html(fragment: str) -> list:
    tree = _Tree()
    tree.feed(fragment)
    tree.close()
    return tree.root[2]


class _Writer:
    """Markdown from a parsed HTML tree; escape(): how a text node is written."""

    def __init__(self, escape: Callable[[str], str], images: Callable[[str], str]):
        self.escape = escape
        self.image_source = images

    def blocks(self, nodes: list, indent: str = "") -> list[str]:
        """The Markdown blocks of a list of nodes: runs of inline content become paragraphs."""
        out, run = [], []

        def flush():
            paragraph = self.inline(run).strip()
            if self.escape is _full_escape:  # a paragraph that starts as a list item or a heading would be one
                paragraph = _LINE_START.sub(_escaped_start, paragraph, count=1)
            if paragraph:
                out.append(paragraph)
            run.clear()

        for node in nodes:
            if isinstance(node, list) and node[0] in _BLOCKS:
                flush()
                out += self.block(node, indent)
            else:
                run.append(node)
        flush()
        return out

    def block(self, node: list, indent: str) -> list[str]:
        tag, attributes, children = node
        if tag in ("p", "div", "dd", "dt", "dl", "thead", "tbody", "tr", "td", "th"):
            return self.blocks(children, indent)
        if tag in ("ul", "ol"):
            items = [child for child in children if isinstance(child, list) and child[0] == "li"]
            lines = []
            for number, item in enumerate(items, 1):
                marker = f"{number}. " if tag == "ol" else "- "
                inner = self.blocks(item[2])
                text = "\n\n".join(inner).replace("\n", "\n" + " " * len(marker))
                lines.append(marker + text)
            return ["\n".join(lines)] if lines else []
        if tag == "blockquote":
            inner = "\n\n".join(self.blocks(children))
            return ["\n".join(("> " + line).rstrip() for line in inner.split("\n"))]
        if tag == "pre":
            code = _text_of(children).strip("\n")
            fence = "```" if "```" not in code else "~~~~"
            return [f"{fence}\n{code}\n{fence}"]
        if tag == "hr":
            return ["---"]
        if tag == "table":
            return [self.table(node)]
        if tag.startswith("h"):
            return [f"{'#' * max(3, min(6, int(tag[1])))} {self.inline(children).strip()}"]
        return self.blocks(children, indent)

    def table(self, node: list) -> str:
        rows = [row for row in _descendants(node, "tr")]
        cells = [[self.inline(cell[2]).strip().replace("|", "\\|") for cell in row[2] if isinstance(cell, list) and cell[0] in ("td", "th")] for row in rows]
        cells = [row for row in cells if row]
        if not cells:
            return ""
        width = max(len(row) for row in cells)
        cells = [row + [""] * (width - len(row)) for row in cells]
        lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * width]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells[1:]])

    def inline(self, nodes: list) -> str:
        parts = []
        for node in nodes:
            if isinstance(node, str):
                parts.append(self.text(node))
                continue
            tag, attributes, children = node
            inner = lambda children=children: self.inline(children)  # noqa: E731
            if tag in ("em", "i"):
                parts.append(_wrapped("*", inner()))
            elif tag in ("strong", "b"):
                parts.append(_wrapped("**", inner()))
            elif tag == "code":
                parts.append(_code(_text_of(children)))
            elif tag == "a" and attributes.get("href"):
                parts.append(f"[{inner().strip()}]({_url(attributes['href'])}{_title(attributes)})")
            elif tag == "img":
                parts.append(f"![{self.escape(attributes.get('alt', ''))}]({_url(self.image_source(attributes.get('src', '')))}{_title(attributes)})")
            elif tag == "br":
                parts.append(" ")
            elif tag == "math":
                parts.append("$" + attributes.get("alttext", "").strip() + "$")
            elif tag in _KEPT_TAGS:
                parts.append(f"<{tag}>{inner()}</{tag}>")
            elif tag in ("script", "style"):
                continue
            else:
                parts.append(inner())
        return re.sub(r"[ \t\r\n]+", " ", "".join(parts))

    def text(self, data: str) -> str:
        """A text node: whitespace as one space; TeX between \\( \\), \\[ \\] or $$ as math."""
        data = re.sub(r"\s+", " ", data)
        parts, position = [], 0
        for match in _TEX_IN_TEXT.finditer(data):
            parts.append(self.escape(data[position : match.start()]))
            inline, display, dollars = match.groups()
            parts.append(f"${inline.strip()}$" if inline is not None else f"$${(display if display is not None else dollars).strip()}$$")
            position = match.end()
        parts.append(self.escape(data[position:]))
        return "".join(parts)


def _escaped_start(match: re.Match) -> str:
    marker = match.group(1)
    return f"{marker[:-1]}\\{marker[-1]}" if marker[0].isdigit() else f"\\{marker}"


def _wrapped(marker: str, text: str) -> str:
    """Emphasis around a text, its surrounding spaces left outside (Markdown needs that)."""
    stripped = text.strip()
    if not stripped:
        return text
    before, after = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    return f"{before}{marker}{stripped}{marker}{after}"


def _code(code: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * (longest + 1)
    padding = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{fence}{padding}{code}{padding}{fence}"


def _url(url: str) -> str:
    return f"<{url}>" if re.search(r"[\s()<>]", url) else url


def _title(attributes: dict) -> str:
    title = attributes.get("title", "")
    return f' "{title}"' if title and '"' not in title else ""


def _text_of(nodes: list) -> str:
    return "".join(node if isinstance(node, str) else ("\n" if node[0] == "br" else _text_of(node[2])) for node in nodes)


def _descendants(node: list, tag: str) -> list:
    found = []
    for child in node[2]:
        if isinstance(child, list):
            found += [child] if child[0] == tag else _descendants(child, tag)
    return found


def _no_escape(text: str) -> str:
    """Only what would be markup whatever Markdown does: an entity, the start of a tag."""
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", re.sub(r"&(?=#?\w+;)", "&amp;", text))


def _full_escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text.replace("&", "&amp;").replace("<", "&lt;"))


def _same_image(source: str) -> str:
    return source


def html_to_markdown(fragment: str, text_format: Text, markup: MarkdownConverter, image_source: Callable[[str], str] = _same_image) -> tuple[str, bool]:
    """The Markdown of an HTML fragment for a field of this format, and whether block
    structure was lost (several paragraphs in an inline field: joined by a space)."""
    nodes = parse_html(fragment)
    inline = text_format is not Text.MARKDOWN
    candidates = []
    for escape in (_no_escape, _full_escape):
        blocks = _Writer(escape, image_source).blocks(nodes)
        text = " ".join(blocks) if inline else "\n\n".join(blocks)
        candidates.append((text.strip(), len(blocks) > 1 and inline))
    plain, escaped = candidates
    if plain[0] == escaped[0] or _rendered(markup, plain[0], inline) == _rendered(markup, escaped[0], inline):
        return plain
    return escaped


def _rendered(markup: MarkdownConverter, text: str, inline: bool) -> str:
    try:
        return markup.inline(text) if inline else markup.block(text)
    except TexError:  # the import reports it (importing.py)
        return "\0" + text


def plain_to_markdown(text: str, text_format: Text, markup: MarkdownConverter) -> str:
    """Plain text (GIFT's [plain], a Moodle plain_text field) as Markdown that shows it as it is."""
    if text_format is Text.PLAIN:
        return text.strip()
    return html_to_markdown(html.escape(text, quote=False).replace("\n", "<br>"), text_format, markup)[0]


def html_to_plain(fragment: str) -> str:
    """The visible text of HTML for a plain field (an accepted answer)."""
    if "<" not in fragment and "&" not in fragment:
        return fragment.strip()
    return html.unescape(re.sub(r"<[^>]*>", "", re.sub(r"<br\s*/?>", " ", fragment))).strip()
