"""Math: TeX between dollar signs in content text, converted to MathML at build time.

`$...$` is inline math and `$$...$$` display math; `\\$` is a literal dollar sign. As in
Pandoc, inline math opens with a `$` not followed by a space and closes with a `$` not
preceded by a space nor followed by a digit, with no `$` between: so "costs $5" and
"$5 or $10" stay text. Dollars inside code are left alone. The MathML comes from
latex2mathml, then is checked (every element known, every fraction, script and root
complete, no unknown command) and serialised again, so no content text reaches a page
unescaped. TeX that cannot be converted raises TexError.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "munder", "mover", "munderover",
    "mfrac", "msqrt", "mroot", "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom", "menclose", "merror",
}  # fmt: skip
ARITY = {"mfrac": 2, "msub": 2, "msup": 2, "mroot": 2, "munder": 2, "mover": 2, "msubsup": 3, "munderover": 3}
ATTRIBUTES = {
    "display", "stretchy", "fence", "form", "accent", "accentunder", "separator", "movablelimits", "largeop", "symmetric",
    "mathvariant", "mathsize", "width", "height", "depth", "lspace", "rspace", "linethickness", "notation", "columnalign",
    "rowspacing", "columnspacing", "scriptlevel", "displaystyle", "minsize", "maxsize",
}  # fmt: skip
ET.register_namespace("", MATHML_NS)
_LESS, _GREATER = "\ue010", "\ue011"  # stand for < and > while latex2mathml runs: it does not escape text

# Code (fenced blocks, then inline spans) is skipped; then display math, inline math, \$.
_CODE = re.compile(r"^(```|~~~).*?^\1|(`+).+?\2", re.DOTALL | re.MULTILINE)
_MATH = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|(?<![\\$])\$(?P<inline>[^\s$](?:(?:(?!\n[ \t]*\n)[^$])*?[^\s\\$])?)\$(?!\d)"
    r"|(?P<dollar>\\\$)",
    re.DOTALL,
)


class TexError(ValueError):
    """TeX that cannot be converted; tex is the offending source, without its dollars."""

    def __init__(self, tex: str, reason: str):
        super().__init__(f"cannot convert the math '{tex}': {reason}")
        self.tex = tex
        self.reason = reason


def has_math(text: str) -> bool:
    return "$" in text


def protect_math(text: str, placeholder: Callable[[str], str]) -> str:
    """The text with each math span and each \\$ replaced by placeholder(html), the HTML
    that stands there in the end (MathML, or a dollar sign). Raises TexError."""
    parts = []
    position = 0
    for code in _CODE.finditer(text):
        parts.append(_protect_span(text[position : code.start()], placeholder))
        parts.append(code.group(0))
        position = code.end()
    parts.append(_protect_span(text[position:], placeholder))
    return "".join(parts)


def _protect_span(text: str, placeholder: Callable[[str], str]) -> str:
    def replace(match: re.Match) -> str:
        if match.group("dollar"):
            return placeholder("$")
        display = match.group("display") is not None
        return placeholder(to_mathml(match.group("display") if display else match.group("inline"), display))

    return _MATH.sub(replace, text)


def to_mathml(tex: str, display: bool = False) -> str:
    """MathML for a TeX formula; raises TexError when it cannot be converted faithfully."""
    tex = tex.strip()
    if not tex:
        raise TexError(tex, "the formula is empty")
    _check_braces(tex)
    source = tex.replace("<", _LESS).replace(">", _GREATER)
    from latex2mathml.converter import convert  # here, not at every build's start (some 20 ms): most sites hold no math

    try:
        converted = convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises bare exception classes named after the problem
        raise TexError(tex, _reason(error)) from None
    try:
        root = ET.fromstring(converted)
    except ET.ParseError:
        raise TexError(tex, "it produces malformed MathML (a raw '&' outside a table?)") from None
    _check_tree(root, tex)
    root.set("alttext", tex.replace("<", _LESS))
    return ET.tostring(root, encoding="unicode", method="html").replace(_LESS, "&lt;").replace(_GREATER, "&gt;")


def _reason(error: Exception) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(error).__name__.removesuffix("Error")).lower()
    return f"{words}{': ' + str(error) if str(error) else ''}"


def _check_braces(tex: str) -> None:
    depth = 0
    for match in re.finditer(r"\\.|[{}]", tex):
        if match.group(0) == "{":
            depth += 1
        elif match.group(0) == "}":
            depth -= 1
            if depth < 0:
                raise TexError(tex, "a '}' closes no '{'")
    if depth:
        raise TexError(tex, "a '{' is never closed")


def _check_tree(root: ET.Element, tex: str) -> None:
    for element in root.iter():
        name = element.tag.removeprefix("{" + MATHML_NS + "}")
        if name not in ELEMENTS:
            raise TexError(tex, f"it produces an unsupported MathML element '{name}'")
        if name in ARITY and len(element) != ARITY[name]:
            raise TexError(tex, f"a {_PARTS[name]} is incomplete")
        if name in ("mi", "mo") and (element.text or "").startswith("\\"):
            raise TexError(tex, f"unknown command '{element.text}'")
        for attribute in list(element.attrib):
            if attribute not in ATTRIBUTES and attribute != "xmlns":
                del element.attrib[attribute]
        if name in ("mi", "mo") and element.text in (_LESS, _GREATER):
            element.tag = "{" + MATHML_NS + "}mo"


_PARTS = {
    "mfrac": "fraction",
    "msub": "subscript",
    "msup": "superscript",
    "mroot": "root",
    "munder": "script below",
    "mover": "script above",
    "msubsup": "sub- or superscript",
    "munderover": "limit",
}
