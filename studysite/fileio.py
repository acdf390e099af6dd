"""Files: a build's many small files listed, read and written by the os calls themselves.

A site has thousands of files. pathlib's read_bytes and write_bytes make a file object
and a buffer for each, which costs several times the reading itself (6,000 content files
read in 0.40 s instead of 0.08 s); os.walk makes a tuple per folder, and a site has a
folder per page.
"""

from __future__ import annotations

import os
import stat
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

Buffer = bytes | bytearray | memoryview | array  # what os.write takes

_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


MiB = 1 << 20
# What one file of a site's folders may hold (README, docs/content.md): a YAML record or a
# template is text of some kilobytes; a content.po holds every text of the site in two
# languages (some 15 MB at 5,000 questions); a static file may be an image or a video, up to
# what GitHub Pages publishes (100 MB a file).
MAX_TEXT = 4 * MiB
MAX_CATALOG = 64 * MiB
MAX_STATIC = 100 * MiB
MAX_ANY = MAX_STATIC  # any file a build reads: never without end


class FileRefused(OSError):
    """A file a build will not read, with the code of the diagnostic that says why:
    file.special (a FIFO, a device, a socket or a folder, which can be read without end or
    block), file.too-large, or file.outside (a link to a file outside the folder it is in)."""

    def __init__(self, path: str | os.PathLike, code: str, message: str, hint: str):
        super().__init__(0, message, os.fspath(path))
        self.code, self.hint = code, hint


def read_bytes(path: str | os.PathLike, limit: int = MAX_ANY, within: str | os.PathLike | None = None) -> bytes:
    """A regular file's bytes, at most limit of them; FileRefused for a special file, a
    larger one, or (within: the folder it belongs to) a link whose target is outside that
    folder. A link inside it is followed. A special file is refused before it is opened
    (opening a device can do something), and checked again once it is."""
    check_file(path, limit, within)
    descriptor = os.open(path, _READ | os.O_NONBLOCK)
    try:
        opened = os.fstat(descriptor)
        _check_regular(path, opened, limit)
        data = os.read(descriptor, opened.st_size + 1)  # a regular file reads short only at its end
        if len(data) <= opened.st_size:
            return data
        chunks, size = [data], len(data)  # it grew since fstat: read to its end, or to the limit
        while size <= limit and (chunk := os.read(descriptor, 1 << 16)):
            chunks.append(chunk)
            size += len(chunk)
        _check_regular(path, opened, limit, size)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def check_file(path: str | os.PathLike, limit: int = MAX_ANY, within: str | os.PathLike | None = None) -> None:
    """FileRefused unless a build may read the file (read_bytes), found without opening it."""
    found = os.lstat(path)
    if stat.S_ISLNK(found.st_mode):
        if within is not None and not _inside(path, within):
            raise FileRefused(
                path,
                "file.outside",
                f"a link to '{os.path.realpath(path)}', outside '{os.fspath(within)}'",
                "the site's folders are published and read as they are: put the file itself there (a link may only lead to a file of the same folder)",
            )
        found = os.stat(path)
    _check_regular(path, found, limit)


def _check_regular(path: str | os.PathLike, found: os.stat_result, limit: int, size: int | None = None) -> None:
    if not stat.S_ISREG(found.st_mode):
        raise FileRefused(path, "file.special", "not a regular file (a FIFO, a device, a socket or a folder)", "a site's folders hold only files: remove it")
    size = found.st_size if size is None else size
    if size > limit:
        raise FileRefused(
            path, "file.too-large", f"the file holds {size / MiB:.1f} MB, more than the {limit // MiB} MB such a file may hold", "split it, or keep it out of the site"
        )


def _inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether a path, its links followed, is inside the folder (its links followed too)."""
    top = os.path.realpath(folder)
    return os.path.realpath(path).startswith(top.rstrip(os.sep) + os.sep)


def read_regular(path: str | os.PathLike, follow: bool = True) -> bytes:
    """A regular file's bytes; OSError for anything else (a FIFO, a device or a folder, which
    could be read without end or block; a link, unless follow), checked before it is opened
    (opening a device can do something) and again once it is."""
    found = os.stat(path) if follow else os.lstat(path)
    if not stat.S_ISREG(found.st_mode):
        raise NotRegular(path)
    descriptor = os.open(path, _READ | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegular(path)
        return _read_all(descriptor)
    finally:
        os.close(descriptor)


class NotRegular(OSError):
    """A path that names a link, a folder or a special file where a file was expected."""

    def __init__(self, path: str | os.PathLike):
        super().__init__(0, "not a regular file", os.fspath(path))


def _read_all(descriptor: int) -> bytes:
    size = os.fstat(descriptor).st_size
    data = os.read(descriptor, size + 1)  # a regular file reads short only at its end
    if len(data) <= size:
        return data
    chunks = [data]  # it grew since fstat: read to its end
    while chunk := os.read(descriptor, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def write_new_file(path: str | int, *chunks: Buffer) -> None:
    """A new file of these bytes, one chunk after the other (or one that replaces a file of
    that name); given an open file's descriptor, its bytes replaced by these."""
    if isinstance(path, int):
        os.ftruncate(path, 0)
        os.lseek(path, 0, os.SEEK_SET)
        _write_all(path, chunks)
        return
    descriptor = os.open(path, _NEW_FILE, 0o666)
    try:
        _write_all(descriptor, chunks)
    finally:
        os.close(descriptor)


def _write_all(descriptor: int, chunks: Iterable[Buffer]) -> None:
    for chunk in chunks:
        view = memoryview(chunk).cast("B")  # by bytes, whatever the items (an array of integers)
        while view:
            view = view[os.write(descriptor, view) :]


def write_whole(path: Path, write: Callable[[BinaryIO], None], temporary: Path | None = None) -> None:
    """A file written whole or not at all (Ctrl-C, a full disk): write() fills a temporary
    file (named by this process's id beside it, unless given), which then takes the file's place."""
    temporary = temporary or path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as file:
            write(file)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def files_below(folder: str | os.PathLike) -> set[str]:
    """Every file below a folder as a relative POSIX path. A link to a folder is neither
    followed nor listed (as os.walk does)."""
    found: set[str] = set()
    folders = [(os.fspath(folder), "")]
    while folders:
        path, prefix = folders.pop()
        try:
            entries = os.scandir(path)
        except OSError:  # gone, or not readable: as os.walk, say nothing
            continue
        with entries:
            for entry in entries:
                if not entry.is_dir():
                    found.add(prefix + entry.name)
                elif not entry.is_symlink():
                    folders.append((entry.path, f"{prefix}{entry.name}/"))
    return found


def shown_path(path: Path) -> str:
    """A path as a user would type it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
