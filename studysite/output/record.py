"""Record: what a build left in its output folder, as lstat tells it (size, modification
time, inode), kept in the file beside the folder that builds lock (`.site.studysite-lock`
for `site/`).

The next build compares the folder with it, file by file, without reading any: a file
changed by hand since is written again (write.py), and a build with nothing to do stays
one lstat per file. The record names the digest of the manifest it goes with, so it is
never taken for another build's. A link or a special file is listed apart: never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from studysite.fileio import read_bytes, write_new_file

LOCK_SUFFIX = ".studysite-lock"
OLD_LOCK_SUFFIX = ".lock"  # the name before: `site.lock`, which could be a file of the user's (`--out uv` and uv.lock)

Seen = tuple[int, int, int]  # a file's size, modification time (ns) and inode


def scan_output(folder: Path) -> tuple[dict[str, Seen], list[str]]:
    """Every regular file below a folder, by relative POSIX path, with what lstat says of
    it; and, apart, the paths of everything else: links (to a file or a folder: never
    followed) and special files."""
    files: dict[str, Seen] = {}
    others: list[str] = []
    folders = [(os.fspath(folder), "")]
    while folders:
        path, prefix = folders.pop()
        try:
            entries = os.scandir(path)
        except OSError:  # gone, or not readable
            continue
        with entries:
            for entry in entries:
                if entry.is_symlink():
                    others.append(prefix + entry.name)
                elif entry.is_dir(follow_symlinks=False):
                    folders.append((entry.path, f"{prefix}{entry.name}/"))
                elif entry.is_file(follow_symlinks=False):
                    seen = entry.stat(follow_symlinks=False)
                    files[prefix + entry.name] = (seen.st_size, seen.st_mtime_ns, seen.st_ino)
                else:
                    others.append(prefix + entry.name)
    return files, others


def lock_file(out_dir: Path) -> Path:
    """The file beside the output folder that builds lock (output/lock.py) and that records
    what the last one left (written in place: a lock is held on the file, not on its name)."""
    out = out_dir.resolve()
    return out.parent / f".{out.name}{LOCK_SUFFIX}"


def recorded_output(out_dir: Path, marker: bytes) -> dict[str, list[int]]:
    """What the last build saw of the files it left, if it left this manifest."""
    try:
        record = json.loads(read_bytes(lock_file(out_dir)))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("manifest") != _digest(marker) or not isinstance(record.get("files"), dict):
        return {}
    return record["files"]


def write_record(out_dir: Path, marker: bytes, files: dict[str, Seen]) -> None:
    """Record the files a build left with its manifest (written in place: the file is locked),
    and remove the record an earlier version of Studysite left under the old name."""
    try:
        write_new_file(os.fspath(lock_file(out_dir)), json.dumps({"manifest": _digest(marker), "files": files}).encode())
        _remove_old_record(out_dir)
    except OSError:
        pass


def _remove_old_record(out_dir: Path) -> None:
    """`site.lock` beside `site/`, if it is a record Studysite wrote, and nothing else."""
    out = out_dir.resolve()
    old = out.parent / f"{out.name}{OLD_LOCK_SUFFIX}"
    try:
        record = json.loads(read_bytes(old))
    except (OSError, ValueError):
        return
    if isinstance(record, dict) and record.keys() == {"manifest", "files"}:
        old.unlink()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
