"""Media formats: what a media file's bytes say of it, checked against its extension: an
image's size (Pillow reads a raster image's header without decoding it; an SVG is read by
expat, refusing entity declarations, for its size and for what a browser would not run or
load in it), and an audio file's magic bytes. content/media.py finds the files.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
import xml.parsers.expat
from dataclasses import dataclass

PILLOW_FORMATS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "gif": "GIF", "webp": "WEBP"}


@dataclass(frozen=True)
class MediaProblem:
    """What is wrong with a reference or its file; the caller says where it was written."""

    code: str
    message: str
    hint: str = ""
    warning: bool = False


def check_format(data: bytes, extension: str) -> tuple[tuple[int, int], tuple[MediaProblem, ...]]:
    """The size of an image (0, 0 for audio, or when it cannot be told) and what is wrong
    with the bytes for their extension."""
    if extension == "svg":
        return svg_size(data)
    if extension in PILLOW_FORMATS:
        return raster_size(data, extension)
    if not audio_matches(data, extension):
        return (0, 0), (MediaProblem("media.format", f"is not {extension.upper()} audio: its bytes are another format", "save it again in the format its name says"),)
    return (0, 0), ()


def raster_size(data: bytes, extension: str) -> tuple[tuple[int, int], tuple[MediaProblem, ...]]:
    """A PNG, JPEG, GIF or WebP image's size as a browser shows it (EXIF orientation
    applied), read by Pillow from its header without decoding it."""
    from PIL import Image, UnidentifiedImageError

    expected = PILLOW_FORMATS[extension]
    wrong = MediaProblem("media.format", f"is not a {expected} image: its bytes are another format", "save it again in the format its name says")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[expected]) as image:
                width, height = image.size
                orientation = image.getexif().get(0x0112, 1) if expected in ("JPEG", "WEBP", "PNG") else 1
    except Image.DecompressionBombError:
        return (0, 0), (MediaProblem("media.format", "has too many pixels to be shown safely", "make it smaller"),)
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError, IndexError, TypeError, struct.error):
        return (0, 0), (wrong,)
    if orientation in (5, 6, 7, 8):  # turned a quarter: browsers show it turned (CSS image-orientation: from-image)
        width, height = height, width
    return (width, height), ()


_AUDIO_MAGIC = {
    "mp3": lambda d: d[:3] == b"ID3" or (len(d) > 1 and d[0] == 0xFF and d[1] & 0xE0 == 0xE0),
    "ogg": lambda d: d[:4] == b"OggS",
    "oga": lambda d: d[:4] == b"OggS",
    "m4a": lambda d: d[4:8] == b"ftyp",
    "wav": lambda d: d[:4] == b"RIFF" and d[8:12] == b"WAVE",
}


def audio_matches(data: bytes, extension: str) -> bool:
    """Whether an audio file's first bytes are its extension's format's."""
    return _AUDIO_MAGIC[extension](data)


_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*")
_UNIT = {None: 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*(?!#|data:)|@import", re.IGNORECASE)
_SVG_NAMESPACE = "http://www.w3.org/2000/svg"


class _SvgRefused(Exception):
    pass


def svg_size(data: bytes) -> tuple[tuple[int, int], tuple[MediaProblem, ...]]:
    """An SVG's size (its width and height, else its viewBox's) and its problems: not
    well-formed XML or no <svg> at its root (an error), an entity declaration (refused
    unexpanded: an error), a script or an event handler (an error), a reference to another
    file (a warning: shown as an image, it loads nothing)."""
    found = _SvgReader()
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = found.entity
    parser.StartElementHandler = found.start
    parser.EndElementHandler = found.end
    parser.CharacterDataHandler = found.text
    try:
        parser.Parse(data, True)
    except _SvgRefused:
        return (0, 0), (MediaProblem("media.format", "declares an XML entity", "remove the <!ENTITY ...> declarations: an SVG is published without them"),)
    except xml.parsers.expat.ExpatError:
        return (0, 0), (MediaProblem("media.format", "is not an SVG image: it is not well-formed XML", "save it again as SVG"),)
    if found.root is None or found.root != (_SVG_NAMESPACE, "svg"):
        return (0, 0), (MediaProblem("media.format", "is not an SVG image: its root element is not <svg>", "save it again as SVG"),)
    problems = list(found.problems)
    size = found.size()
    if size == (0, 0):
        problems.append(MediaProblem("media.size", "has neither a width and height nor a viewBox", "give its <svg> a viewBox, e.g. viewBox=\"0 0 200 100\"", True))
    return size, tuple(problems)


class _SvgReader:
    """What an SVG's elements say, as expat reads them."""

    def __init__(self):
        self.root: tuple[str, str] | None = None
        self.root_attributes: dict[str, str] = {}
        self.problems: list[MediaProblem] = []
        self._in_style = 0

    def entity(self, *_):
        raise _SvgRefused

    def start(self, name: str, attributes: dict[str, str]) -> None:
        namespace, _, local = name.rpartition(" ")
        if self.root is None:
            self.root, self.root_attributes = (namespace, local), attributes
        if local.lower() == "script":
            self._problem("media.svg-script", "holds a script", "remove the <script> element: the site publishes no script of its content")
        if local.lower() == "style":
            self._in_style += 1
        for attribute, value in attributes.items():
            key = attribute.rpartition(" ")[2].lower()
            if key.startswith("on"):
                self._problem("media.svg-script", f"has an event handler ({key})", f"remove the {key} attribute: the site publishes no script of its content")
            elif key == "href" and value.strip().lower().startswith("javascript:"):
                self._problem("media.svg-script", "links to a script (javascript:)", "remove the link")
            elif key == "href" and not value.strip().startswith(("#", "data:")) or key == "style" and _CSS_URL.search(value):
                self._external()

    def end(self, name: str) -> None:
        if name.rpartition(" ")[2].lower() == "style":
            self._in_style -= 1

    def text(self, data: str) -> None:
        if self._in_style and _CSS_URL.search(data):
            self._external()

    def _external(self) -> None:
        self._problem(
            "media.svg-external",
            "refers to another file, which a browser does not load for an image",
            "put what it refers to inside the SVG (or as a data: URL)",
            warning=True,
        )

    def _problem(self, code: str, message: str, hint: str, warning: bool = False) -> None:
        problem = MediaProblem(code, message, hint, warning)
        if problem not in self.problems:
            self.problems.append(problem)

    def size(self) -> tuple[int, int]:
        """The root's width and height in CSS pixels, the missing one (or both) from its viewBox."""
        width, height = _length(self.root_attributes.get("width")), _length(self.root_attributes.get("height"))
        box = _view_box(self.root_attributes.get("viewBox"))
        if box is not None:
            if width and not height:
                height = width * box[1] / box[0]
            elif height and not width:
                width = height * box[0] / box[1]
            elif not width and not height:
                width, height = box
        if not width or not height:
            return 0, 0
        return max(1, round(width)), max(1, round(height))


def _length(value: str | None) -> float:
    """An SVG length in CSS pixels; 0 for none, a percentage or a unit relative to a font."""
    match = _LENGTH.fullmatch(value) if value else None
    return float(match.group(1)) * _UNIT[match.group(2)] if match else 0.0


def _view_box(value: str | None) -> tuple[float, float] | None:
    try:
        numbers = [float(part) for part in re.split(r"[\s,]+", value.strip())] if value else []
    except ValueError:
        return None
    return (numbers[2], numbers[3]) if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0 else None
