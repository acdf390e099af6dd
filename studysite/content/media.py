"""Media: the images and audio files the content names, found, checked and described.

A reference is resolved as Markdown editors, Hugo's page bundles and MkDocs resolve one:
relative to the folder of the file that names it, or, when it starts with "/", to the
content folder. Nothing outside the content folder is ever read: a path that leaves it
(".."), a link (symlink) that leads out of it and a file that is not a regular one (a
device, a FIFO) are refused before anything is opened, and a file larger than MAX_READ
before it is read. What is read is checked against its extension's format (Pillow for
raster images, the magic bytes for audio, an XML parser that refuses entities for SVG).

The site publishes each file once, under media/ with a name that changes with its bytes
(MediaFile.path); an SVG is shown as an image only (<img>, never inlined), where a browser
runs none of its scripts and loads nothing it refers to: a script or an event handler in
one is an error all the same, an external reference a warning.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from studysite.content.media_formats import MediaProblem, check_format
from studysite.content.records import Theme
from studysite.diagnostics import Report, did_you_mean

IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml"}
AUDIO_TYPES = {"mp3": "audio/mpeg", "ogg": "audio/ogg", "oga": "audio/ogg", "m4a": "audio/mp4", "wav": "audio/wav"}
TYPES = {"image": IMAGE_TYPES, "audio": AUDIO_TYPES}  # what a reference of each kind may name
MEDIA_FOLDER = "media"  # where the site publishes them
LARGE = 1_000_000  # bytes: a file larger than this slows the page it is on (a warning)
MAX_READ = 20 * 1024 * 1024  # bytes: a larger file is refused unread
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_OPEN = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class MediaFile:
    """A file of the content folder that the site publishes."""

    source: str  # its path in the content folder (POSIX)
    path: str  # where the site publishes it: media/<name>.<digest>.<extension>
    type: str  # its MIME type
    width: int = 0  # an image's size in CSS pixels (0 when it cannot be told)
    height: int = 0

    @property
    def name(self) -> str:
        """The published file's name, unique in the site (the Anki decks' media name)."""
        return self.path.rsplit("/", 1)[-1]


class MediaRefused(OSError):
    """A file that is not read: outside the content folder, not a regular file, too large
    (an OSError: read again when the site is written, such a file is the environment's doing)."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message)
        self.code, self.message = code, message


def resolve(reference: str, base_file: str) -> str | MediaProblem:
    """The path in the content folder that a reference names, from the file that names it
    (both POSIX, the latter relative to the content folder); a problem when it leaves the folder."""
    if "\\" in reference:
        return MediaProblem("media.path", f"'{reference}' has a backslash", "separate folders with '/', as in media/cell.svg")
    if reference.startswith("/"):
        joined = reference.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(base_file), reference)
    path = posixpath.normpath(joined) if joined else ""
    if not path or path == "." or path == ".." or path.startswith("../"):
        return MediaProblem(
            "media.outside",
            f"'{reference}' is outside the content folder",
            "put the file in the content folder, beside the record or in content/media/; nothing outside it is published",
        )
    return path


class MediaLibrary:
    """The media files of one content folder, each found, read and checked once per build."""

    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self._root = os.path.realpath(content_dir)
        self._found: dict[tuple[str, str], tuple[MediaFile | None, tuple[MediaProblem, ...]]] = {}

    def find(self, reference: str, base_file: str, kind: str) -> tuple[MediaFile | None, tuple[MediaProblem, ...]]:
        """The file a reference of a kind ("image", "audio") names, checked, with its
        problems (None when it cannot be published: its problems hold an error)."""
        path = resolve(reference, base_file)
        if isinstance(path, MediaProblem):
            return None, (path,)
        key = (path, kind)
        if key not in self._found:
            self._found[key] = self._read(path, reference, kind)
        return self._found[key]

    def _read(self, path: str, reference: str, kind: str) -> tuple[MediaFile | None, tuple[MediaProblem, ...]]:
        kinds = TYPES[kind]
        extension = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
        if extension not in kinds:
            return None, (_wrong_type(reference, extension, kind),)
        try:
            data = read_confined(self._root, path)
        except FileNotFoundError:
            return None, (self._missing(path, reference),)
        except MediaRefused as refused:
            return None, (MediaProblem(refused.code, f"'{reference}' {refused.message}", _REFUSED_HINT),)
        except OSError as error:
            return None, (MediaProblem("media.file", f"cannot read '{reference}': {error.strerror or error}"),)
        size, problems = check_format(data, extension)
        if any(not problem.warning for problem in problems):
            return None, tuple(_about(reference, problem) for problem in problems)
        if len(data) > LARGE:
            problems += (MediaProblem("media.large", f"'{reference}' is {len(data) / 1_000_000:.1f} MB", "a page loads it whole: make it smaller than 1 MB", True),)
        media = MediaFile(path, published_path(path, extension, data), kinds[extension], *size)
        return media, tuple(_about(reference, problem) for problem in problems)

    def _missing(self, path: str, reference: str) -> MediaProblem:
        folder, name = posixpath.split(path)
        hint = ""
        real_folder = os.path.realpath(os.path.join(self._root, folder))
        if _inside(self._root, real_folder) and os.path.isdir(real_folder):
            hint = did_you_mean(name, sorted(os.listdir(real_folder)))
        if not hint:
            hint = "a path is taken from the folder of the file that names it, or from the content folder when it starts with '/'"
        return MediaProblem("media.missing", f"there is no file '{reference}' (looked for '{path}' in the content folder)", hint)


_NOT_REGULAR = "is not a regular file (a device, a FIFO or a folder): nothing is read from it"
_TOO_LARGE = f"is larger than {MAX_READ // (1024 * 1024)} MB: it is not read"
_REFUSED_HINT = "put the file itself (a regular file, at most 20 MB) in the content folder; nothing outside it is read or published"


def _about(reference: str, problem: MediaProblem) -> MediaProblem:
    """A problem of a file's bytes, its message naming the file."""
    return MediaProblem(problem.code, f"'{reference}' {problem.message}", problem.hint, problem.warning)


def _wrong_type(reference: str, extension: str, kind: str) -> MediaProblem:
    if kind == "image" and extension in AUDIO_TYPES:
        return MediaProblem("media.type", f"'{reference}' is audio, not an image", "give a term's or a question's audio as 'audio: file' in its language block")
    what = "audio" if kind == "audio" else "an image"
    return MediaProblem("media.type", f"'{reference}' is not {what} that Studysite publishes", f"use a file ending in {', '.join('.' + e for e in TYPES[kind])}")


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def read_confined(root: str, path: str) -> bytes:
    """The bytes of a file of the folder root (its real path) at path (POSIX, relative):
    refused (MediaRefused) when the file, links followed, is outside the folder, is not a
    regular file or holds more than MAX_READ bytes; nothing is opened before that is known,
    and nothing beyond MAX_READ is read."""
    real = os.path.realpath(os.path.join(root, *path.split("/")))
    os.lstat(os.path.join(root, *path.split("/")))  # FileNotFoundError when there is no such file (nor link)
    if not _inside(root, real):
        raise MediaRefused("media.outside", "is a link to a file outside the content folder")
    status = os.stat(real)
    if not stat.S_ISREG(status.st_mode):
        raise MediaRefused("media.special", _NOT_REGULAR)
    if status.st_size > MAX_READ:
        raise MediaRefused("media.too-large", _TOO_LARGE)
    descriptor = os.open(real, _OPEN)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise MediaRefused("media.special", _NOT_REGULAR)
        chunks, left = [], MAX_READ + 1
        while left and (chunk := os.read(descriptor, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    if not left:
        raise MediaRefused("media.too-large", _TOO_LARGE)
    return b"".join(chunks)


def media_bytes(content_dir: Path, source: str) -> bytes:
    """A media file's bytes (source: its path in the content folder), read again as it was
    checked (read_confined), when the site or a deck is written."""
    return read_confined(os.path.realpath(content_dir), source)


def published_path(path: str, extension: str, data: bytes) -> str:
    """media/<its name, made safe>.<digest>.<extension>: a name that changes with the bytes,
    so a browser may keep the file for good, and that is unique whatever folder it came from."""
    stem = posixpath.basename(path).rsplit(".", 1)[0]
    safe = _NAME_UNSAFE.sub("-", stem).strip("-")[:60] or "file"
    return f"{MEDIA_FOLDER}/{safe}.{hashlib.sha256(data).hexdigest()[:10]}.{extension}"


# -- the theme's files ------------------------------------------------------------------

MIN_ICON = 512  # px: the installed app's largest icon, made from the favicon


def theme_files(theme: Theme, library: MediaLibrary, report: Report) -> dict[str, MediaFile]:
    """The files site.yaml's theme names, checked, by role: "logo", "favicon" and
    "app-icon", the raster image the installed app's PNG icons are made from (the favicon,
    or for an SVG favicon a PNG of the same name beside it); problems told where each was written."""
    found = {}
    for role in ("logo", "favicon"):
        reference = getattr(theme, role)
        if not reference:
            continue
        media, problems = library.find(reference, "site.yaml", "image")
        for problem in problems:
            (report.warning if problem.warning else report.error)(theme.where[role], problem.code, problem.message, problem.hint)
        if media is not None:
            found[role] = media
    favicon = found.get("favicon")
    if favicon is not None:
        icon = _app_icon(favicon, library, theme, report)
        if icon is not None:
            found["app-icon"] = icon
    return found


def _app_icon(favicon: MediaFile, library: MediaLibrary, theme: Theme, report: Report) -> MediaFile | None:
    """The raster image the app's icons are made from, with a warning where there is none or
    it is small: an SVG cannot be made into PNG icons here, a PNG beside it (icon.svg,
    icon.png) can."""
    where = theme.where["favicon"]
    if favicon.type == IMAGE_TYPES["svg"]:
        beside = favicon.source.rsplit(".", 1)[0] + ".png"
        icon, problems = library.find("/" + beside, "site.yaml", "image")
        if icon is None:
            missing = any(problem.code == "media.missing" for problem in problems)
            hint = f"put a PNG of at least {MIN_ICON} px beside it as {posixpath.basename(beside)}: the app's 192 and {MIN_ICON} px icons are made from it"
            message = "the favicon is an SVG and no PNG of the same name is beside it, so the installed app has no PNG icon"
            report.warning(where, "theme.icon", message if missing else f"{posixpath.basename(beside)} beside the favicon cannot be used: {problems[0].message}", hint)
            return None
        favicon = icon
    if min(favicon.width, favicon.height) < MIN_ICON:
        report.warning(
            where,
            "theme.icon",
            f"{posixpath.basename(favicon.source)} is {favicon.width}×{favicon.height} px: the installed app's {MIN_ICON} px icon is enlarged from it",
            f"give an image of at least {MIN_ICON}×{MIN_ICON} px",
        )
    return favicon
