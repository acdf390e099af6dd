"""Files: a build's many small files listed, read and written by the os calls themselves.

A site has thousands of files. pathlib's read_bytes and write_bytes make a file object
and a buffer for each, which costs several times the reading itself (6,000 content files
read in 0.40 s instead of 0.08 s); os.walk makes a tuple per folder, and a site has a
folder per page.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_bytes(path: str | os.PathLike) -> bytes:
    """A file's bytes, as Path.read_bytes gives them (OSError when it cannot be read)."""
    descriptor = os.open(path, _READ)
    try:
        size = os.fstat(descriptor).st_size
        data = os.read(descriptor, size + 1)  # a regular file reads short only at its end
        if len(data) <= size:
            return data
        chunks = [data]  # it grew since fstat (or is not a regular file): read to its end
        while chunk := os.read(descriptor, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


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


def write_new_file(path: str | int, data: bytes) -> None:
    """A new file of these bytes (or one that replaces a file of that name); given an open
    file's descriptor, its bytes replaced by these."""
    if isinstance(path, int):
        os.ftruncate(path, 0)
        os.lseek(path, 0, os.SEEK_SET)
        _write_all(path, data)
        return
    descriptor = os.open(path, _NEW_FILE, 0o666)
    try:
        _write_all(descriptor, data)
    finally:
        os.close(descriptor)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
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
