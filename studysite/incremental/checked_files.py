"""Checked files: the build cache's files (incremental/cache.py) and the kept model (incremental/kept_model.py), each
written whole or not at all, with the sha256 of what it holds after it, and read back by
an unpickler that makes no object but plain data and the classes its reader allows."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path

from studysite.fileio import write_whole

FORMAT = b"studysite-cache/4\n"
PROTOCOL = pickle.HIGHEST_PROTOCOL
DIGEST_LENGTH = 64  # a sha256 in hexadecimal
UNPICKLING_ERRORS = (pickle.UnpicklingError, ValueError, TypeError, EOFError, AttributeError, ImportError, IndexError, KeyError)


def write_checked(path: Path, write: Callable[[Digesting], None]) -> None:
    """A cache file written whole or not at all: the format, what write() puts, its sha256
    (checked_payload reads it back). A cache that cannot be written is no error."""

    def checked(file) -> None:
        file.write(FORMAT)
        digesting = Digesting(file)
        write(digesting)
        file.write(digesting.digest.hexdigest().encode())

    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, checked)


def remove_temporary_files(path: Path) -> None:
    """What writing a cache file left when its process was stopped (write_checked names its
    temporary file by the writer's process id: one still running, a build of the same
    content beside this one, is left to finish)."""
    with contextlib.suppress(OSError):
        for stale in path.parent.glob(f"{path.name}.*.tmp"):
            writer = stale.name.removeprefix(path.name + ".").removesuffix(".tmp")
            if not (writer.isdigit() and process_running(int(writer))):
                stale.unlink(missing_ok=True)


def process_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


def save_checked(path: Path, *values: object) -> None:
    """Values pickled one after the other into a cache file of its own."""

    def write(digesting: Digesting) -> None:
        for value in values:
            pickle.dump(value, digesting, protocol=PROTOCOL)

    write_checked(path, write)


def checked_payload(data: bytes) -> memoryview | None:
    """What write_checked put between the format and the sha256; None when the file is of
    another format, or not whole, or its digest does not match."""
    checksum_at = len(data) - DIGEST_LENGTH
    if not data.startswith(FORMAT) or checksum_at < len(FORMAT):
        return None
    payload = memoryview(data)[len(FORMAT) : checksum_at]
    return payload if data[checksum_at:] == hashlib.sha256(payload).hexdigest().encode() else None


def load_checked(path: Path, allowed: Callable[[str, str], bool]) -> Iterator[object]:
    """What save_checked put into a file, value by value, each unpickled when asked for:
    plain data and the classes allowed(module, name) accepts. Nothing when there is no such
    file, or it is not whole; nothing more from a value that holds other classes."""
    checked = read_checked(path)
    return checked_values(checked[1], allowed) if checked is not None else iter(())


def read_checked(path: Path) -> tuple[str, memoryview] | None:
    """The sha256 (hex) and the payload of a file write_checked wrote; None when there is no
    such file, or it is not whole. The digest names the file's contents, as a file that
    builds on another names it (incremental/kept_model.py's edits file)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    payload = checked_payload(data)
    return (data[-DIGEST_LENGTH:].decode("ascii"), payload) if payload is not None else None


def checked_values(payload: memoryview, allowed: Callable[[str, str], bool]) -> Iterator[object]:
    """The values of a checked file's payload, each unpickled when asked for (load_checked)."""
    stream = io.BytesIO(payload)
    while stream.tell() < len(payload):
        try:
            yield RestrictedUnpickler(stream, allowed).load()
        except UNPICKLING_ERRORS:
            return


class Digesting:
    """A file's write(), digesting what it writes."""

    def __init__(self, file) -> None:
        self.file, self.digest = file, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        return self.file.write(data)


class RestrictedUnpickler(pickle.Unpickler):
    """Plain data, and the classes allowed(module, name) accepts."""

    def __init__(self, file, allowed: Callable[[str, str], bool]):
        super().__init__(file)
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        if not self.allowed(module, name):
            raise pickle.UnpicklingError(f"{module}.{name} has no place in a cache file")
        return super().find_class(module, name)
