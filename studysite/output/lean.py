"""The bytes a reader downloads of a script or stylesheet: its comments and indentation left out.

The sources under static/ are documented at length (each module's header says what it does
and why); a reader's browser needs none of it, and on a phone every kilobyte counts (a page
with all it loads stays under 40 KB gzipped). Only what cannot change the meaning goes:

- JavaScript: a comment that starts its line (after indentation): a whole-line `// ...`, or
  a `/* ... */` whose `*/` ends a line; the spaces that begin and end a line, and empty
  lines (every line break stays, so no statement runs into the next). A comment after code
  on its line stays (telling it from a string, a regular expression or a URL needs a
  parser). A file with a template literal that spans lines (a line with an odd number of
  backticks) or a string continued on the next line (a line ending in a backslash) is left
  whole, since a line of it may look like a comment, and its spaces count.
- CSS: every comment outside a string.

Vendored code (static/vendor/, with its licence headers) is never changed.
"""

from __future__ import annotations

import re

_CLOSED_COMMENT = re.compile(r"/\*.*?\*/")
_CSS_TOKENS = re.compile(r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|/\*.*?\*/\n?""", re.S)


def lean_script(text: str) -> str:
    """A script without the comments that fill whole lines, nor indentation and empty lines;
    or the script as it is when a line could be read two ways: a template literal over lines,
    a string continued on the next line, a comment opened after code (or a "/*" in a string)
    that does not close on its line, code after a comment's end."""
    lines = text.split("\n")
    if any(line.count("`") % 2 or line.endswith("\\") for line in lines):
        return text
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index].lstrip()
        if line.startswith("//"):
            index += 1
            continue
        if line.startswith("/*"):
            end = _comment_end(lines, index)
            if end is None:
                return text
            index = end + 1
            continue
        if "/*" in _CLOSED_COMMENT.sub("", lines[index]):
            return text
        if line.strip():
            kept.append(line.strip())
        index += 1
    return "\n".join(kept) + ("\n" if text.endswith("\n") else "")


def _comment_end(lines: list[str], start: int) -> int | None:
    """The line on which the comment that starts line start ends, if nothing follows it there."""
    for index in range(start, len(lines)):
        line = lines[index].lstrip()[2:] if index == start else lines[index]
        if "*/" in line:
            return index if not line[line.index("*/") + 2 :].strip() else None
    return None


def lean_stylesheet(text: str) -> str:
    """A stylesheet without its comments; strings are kept as they are."""
    return _CSS_TOKENS.sub(lambda found: found.group(1) or "", text)


def lean(name: str, data: bytes) -> bytes:
    """A static file as it is published: scripts and stylesheets leaner; anything else (the
    vendored modules, images, fonts) as it is."""
    if name.startswith("vendor/") or not name.endswith((".js", ".mjs", ".css")):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return (lean_stylesheet(text) if name.endswith(".css") else lean_script(text)).encode("utf-8")
