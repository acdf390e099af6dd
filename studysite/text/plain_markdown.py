"""Plain Markdown: the everyday subset of content text (paragraphs, lists of "- " lines,
*emphasis* and **strong** around words) converted without Python-Markdown's parser, to
exactly the HTML it makes; any other text is left to it (the functions return None).
The HTML needs no sanitising: the text it takes holds no "&<>", and the tags are these.

Most explanations hold nothing else, and the parser took two thirds of a cold build's
conversion time. tests/test_markup.py compares the two on many random texts."""

from __future__ import annotations

import re

# Characters with a meaning in Markdown, and white space but spaces and line ends, which
# it has rules of its own for; text with none of them is its own HTML, as "&<>" are among them.
_MARKDOWN_CHARS = re.compile(r"[\\`*_\[\]!<>&#|~=\t\r\f\v]")
_NUMBERED = re.compile(r"\d+[.)]")
_PARAGRAPH_BREAK = re.compile(r"\n\n+")

# A pair of * or ** around words, as no rule of Markdown's reads otherwise: opened after
# white space or "(" (or at the start) before a word character; closed after a word
# character or ")", before white space, common punctuation or the end; no * or line end inside.
_EMPHASIS = re.compile(r"(?<![^\s(])(\*\*?)(\w(?:[^*\n]*[\w)])?)\1(?=[\s.,;:?)]|$)")
_TAGS = {"*": "em", "**": "strong"}
_LIST_MARKERS = (("ul", re.compile(r"- (?=.)")), ("ol", re.compile(r"\d{1,9}\. (?=.)")))  # "- " alone: a heading's underline


def block(text: str) -> str | None:
    """Python-Markdown's HTML for block text of the subset, else None."""
    converted, list_before = [], False
    for lines in (b.split("\n") for b in _blocks(text)):
        listed = _list_items(lines)
        if listed:
            tag, items = listed
            items = [inline(item) for item in items]
            if list_before or None in items:
                return None  # a list after a list is one loose list
            converted.append(f"<{tag}>\n" + "".join(f"<li>{item}</li>\n" for item in items) + f"</{tag}>")
        else:
            paragraph = inline("\n".join(lines))
            if paragraph is None:
                return None
            converted.append(f"<p>{paragraph}</p>")
        list_before = bool(listed)
    return "\n".join(converted)


def _list_items(lines: list[str]) -> tuple[str, list[str]] | None:
    """("ul" or "ol", the items' text) when every line is a list item, else None. An
    ordered list starts at 1 (another start is an attribute)."""
    for tag, marker in _LIST_MARKERS:
        starts = [marker.match(line) for line in lines]
        if all(starts) and (tag == "ul" or lines[0].startswith("1. ")):
            return tag, [line[start.end() :] for line, start in zip(lines, starts, strict=True)]
    return None


def inline(text: str) -> str | None:
    """Python-Markdown's HTML for a paragraph's text of the subset, else None."""
    html, plain, done = [], [], 0
    for match in _EMPHASIS.finditer(text) if "*" in text else ():
        before, words = text[done : match.start()], match.group(2)
        tag = _TAGS[match.group(1)]
        html += (before, f"<{tag}>{words}</{tag}>")
        plain += (before, words)
        done = match.end()
    plain.append(text[done:])
    plain_text = "".join(plain)
    if _MARKDOWN_CHARS.search(plain_text) or any(map(_block_syntax, plain_text.split("\n"))):
        return None
    html.append(text[done:])
    return "".join(html)


def _block_syntax(line: str) -> bool:
    """Whether a line may be read as more than text: a list item, a heading's underline, an
    indent (code), white space at its end (a line break)."""
    return bool(line) and (line[0] in "-+" or line[0].isspace() or line[-1].isspace() or bool(_NUMBERED.match(line)))


def _blocks(text: str) -> list[str]:
    return [p for p in _PARAGRAPH_BREAK.split(text.strip("\n")) if p]
