"""Files: a build's many small files listed, read and written by the os calls themselves.

A site has thousands of files. pathlib's read_bytes and write_bytes make a file object
and a buffer for each, which costs several times the reading itself (6,000 content files
read in 0.40 s instead of 0.08 s); os.walk makes a tuple per folder, and a site has a
folder per page.
"""

from __future__ import annotations

import os
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


def write_new_file(path: str, data: bytes) -> None:
    """A new file of these bytes (or one that replaces a file of that name)."""
    descriptor = os.open(path, _NEW_FILE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
    finally:
        os.close(descriptor)


def write_whole(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """A file written whole or not at all (Ctrl-C, a full disk): write() fills a temporary
    file named by this process's id beside it, which then takes the file's place."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
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
