"""Inputs: every file a build reads, listed and digested, so that a build knows what
changed without reading a file whose times, size and inode are as they were."""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite.content.media import MAX_READ
from studysite.fileio import check_file, files_below, read_bytes


@dataclass(frozen=True)
class Inputs:
    """What a build reads, as digests: of everything together, and of each file's bytes."""

    digest: str
    listed: Mapping[Path, Mapping[str, str]]  # folder -> relative path of each of its files, sorted -> sha256 ("" if unreadable)
    signatures: dict[str, list]  # path -> [mtime, ctime, size, inode, sha256] of the files whose times have settled


DIGEST_LIMIT = MAX_READ  # bytes: a larger file is not read to be digested (the stage that would use it refuses it unread)
SETTLED_NS = 2_000_000_000  # a file changed less than this long before it was read is digested again next time


def read_inputs(folders: list[Path], settings: str, stamp: str, known: Mapping[str, list] | None = None) -> Inputs:
    """A digest of every file a build reads (names and bytes), the settings, the code and
    the git commit of the content (the status pages depend on its history), and the
    digest of each file, so that the build need not read an unchanged file again.

    known: the signatures of the previous build. A file whose modification and change
    times, size and inode are as they were then is not read: its digest is taken from
    there. The change time is set by the system on every write, whatever a tool does to
    the modification time; a file that changed within SETTLED_NS of being read is
    digested again next time, as two writes so close may leave the same times."""
    digest = hashlib.sha256(f"{stamp}\0{settings}\0{git_head(folders[0])}".encode())
    listed, signatures, now = {}, {}, time.time_ns()
    for folder in folders:
        digest.update(b"\1" + str(folder.resolve()).encode())
        listed[folder] = files = {}
        for path in sorted(files_below(folder)):
            files[path] = _file_digest(os.path.join(folder, path), folder, known or {}, signatures, now) or ""
            digest.update(f"{path}\0{files[path] or 'gone'}\0".encode())  # gone since the listing: the build will say what is missing
    return Inputs(digest.hexdigest(), listed, signatures)


def _file_digest(name: str, folder: Path, known: Mapping[str, list], signatures: dict[str, list], now: int) -> str | None:
    """The sha256 of a file's bytes (None when it cannot be read, or a build refuses to read
    it: the stage that reads it says why), from its signature when known."""
    try:
        check_file(name, DIGEST_LIMIT, within=folder)  # a special file, a link out of its folder: never read
        status = os.stat(name)
        signature = [status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino]
        entry = known.get(name)
        if entry is not None and entry[:4] == signature:
            signatures[name] = entry
            return entry[4]
        file_digest = hashlib.sha256(read_bytes(name, DIGEST_LIMIT, within=folder)).hexdigest()
    except OSError:
        return None
    if now - max(status.st_mtime_ns, status.st_ctime_ns) > SETTLED_NS:
        signatures[name] = [*signature, file_digest]
    return file_digest


def modified_seconds(signatures: Mapping[str, list], name: str) -> int:
    """A file's modification time in whole seconds: as its signature has it (read_inputs),
    else from the file."""
    signature = signatures.get(name)
    return (signature[0] if signature else os.stat(name).st_mtime_ns) // 1_000_000_000


def file_times(content_dir: Path, signatures: Mapping[str, list]) -> Callable[[str], int]:
    """A content file's modification time in seconds, by its path in the folder: as the
    build saw it when it listed its inputs (its signature), else from the file;
    SOURCE_DATE_EPOCH for every file when it is set (the decks' note times)."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "")
    if fixed.isdigit():
        return lambda path: int(fixed)
    folder = os.fspath(content_dir)
    return functools.cache(lambda path: modified_seconds(signatures, os.path.join(folder, path)))


def git_head(folder: Path) -> str:
    try:
        result = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""
