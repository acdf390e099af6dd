"""Record: what a build left in its output folder and in the spare beside it (output/commit.py),
as lstat tells it (size, modification time, inode, change time), kept in the file beside the
folder that builds lock (`.site.studysite-lock` for `site/`).

The next build compares each folder with it, file by file, without reading any: a file whose
lstat differs is read, and its digest compared with the manifest's (write.py), so a file
changed by hand is written again, and a build with nothing to do stays one lstat per file.
The change time is what makes this sound: size, modification time and inode can all be put
back by hand (`dd conv=notrunc`, then `touch -r`), but every write, `touch` or hard link made
or removed sets the change time to the file system's clock, and nothing else sets it. A file
whose change time had not yet passed when it was looked at (the same tick of that clock: a
write then would leave the change time as it was) is recorded as unproven and read next
time, as git does with its "racy" entries.

Each folder's files are recorded under the digest of its manifest: the output and the spare
trade places, and a record is never taken for another build's. A link or a special file is
listed apart, never followed, and the record file is never opened through a link.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite.fileio import read_regular, write_new_file

LOCK_SUFFIX = ".studysite-lock"
OLD_LOCK_SUFFIX = ".lock"  # the name before: `site.lock`, which could be a file of the user's (`--out uv` and uv.lock)
UNPROVEN = -1  # the change time recorded for a file looked at within its tick: never equal to what lstat says

Seen = tuple[int, int, int, int]  # a file's size, modification time (ns), inode and change time (ns)
Records = Mapping[str, Mapping[str, Seen]]  # the digest of a folder's manifest -> what was seen of each file and folder
NO_RECORDS: Records = {}


@dataclass(frozen=True)
class Listing:
    """What a folder holds: every regular file and every folder below it ("" for the folder
    itself), by relative POSIX path, with what lstat says of each; and, apart, the paths of
    everything else: links (to a file or a folder: never followed) and special files."""

    files: dict[str, Seen]
    folders: dict[str, Seen]
    others: list[str]


def scan_output(folder: Path) -> tuple[dict[str, Seen], list[str]]:
    """The regular files below a folder and, apart, everything else (look_through)."""
    listing = look_through(folder)
    return listing.files, listing.others


def look_through(folder: Path, recorded: Mapping[str, Seen] | None = None, known: Mapping[str, Seen] | None = None) -> Listing:
    """Every file and folder below a folder. A folder that the record vouches for (what lstat
    says of it is as recorded: adding, removing or renaming an entry in a folder sets its
    change time) holds the entries recorded, each asked of lstat alone; any other is read.
    known: what lstat just said of the files of another folder at the same paths (the
    output's, for the spare): an entry recorded as that very file (its inode, times and
    size), in a folder vouched for, is that file, and is not asked again."""
    recorded = recorded or {}
    children = _children(recorded)
    listing = Listing({}, {}, [])
    root, folders = os.fspath(folder), [""]
    while folders:
        relative = folders.pop()
        path = f"{root}/{relative}" if relative else root
        found = seen_of_folder(path)
        if found is None:  # gone, or not a folder
            continue
        listing.folders[relative] = found
        if recorded.get(relative + "/") == found:
            names, below = children.get(relative, ((), ()))
            for name in names:
                child = f"{relative}/{name}" if relative else name
                same = known.get(child) if known is not None else None
                if same is not None and recorded.get(child) == same:
                    listing.files[child] = same
                else:
                    _take(listing, child, f"{path}/{name}", folders)
            folders.extend(below)
        else:
            _read_folder(listing, path, f"{relative}/" if relative else "", folders)
    return listing


def _children(recorded: Mapping[str, Seen]) -> dict[str, tuple[list[str], list[str]]]:
    """Each recorded folder's recorded files (by name) and folders (by relative path)."""
    children: dict[str, tuple[list[str], list[str]]] = {}
    for key in recorded:
        if key.endswith("/"):
            if key != "/":
                children.setdefault(key[:-1].rpartition("/")[0], ([], []))[1].append(key[:-1])
        else:
            parent, _, name = key.rpartition("/")
            children.setdefault(parent, ([], []))[0].append(name)
    return children


def _take(listing: Listing, relative: str, path: str, folders: list[str]) -> None:
    """An entry of a folder the record vouched for, as lstat finds it now."""
    try:
        found = os.lstat(path)
    except OSError:  # gone
        return
    if stat.S_ISREG(found.st_mode):
        listing.files[relative] = seen(found)
    elif stat.S_ISDIR(found.st_mode):
        folders.append(relative)
    else:
        listing.others.append(relative)


def _read_folder(listing: Listing, path: str, prefix: str, folders: list[str]) -> None:
    for kind, entry in _scanned(path):
        if kind == "folder":
            folders.append(prefix + entry.name)
        elif kind == "file":
            listing.files[prefix + entry.name] = seen(entry.stat(follow_symlinks=False))
        else:
            listing.others.append(prefix + entry.name)


def _scanned(path: str) -> Iterator[tuple[str, os.DirEntry]]:
    """A folder's entries, each with its kind: "folder", "file" or "other" (a link, never
    followed, or a special file); none when the folder is gone or cannot be read."""
    try:
        entries = os.scandir(path)
    except OSError:
        return
    with entries:
        for entry in entries:
            if entry.is_symlink():
                yield "other", entry
            elif entry.is_dir(follow_symlinks=False):
                yield "folder", entry
            elif entry.is_file(follow_symlinks=False):
                yield "file", entry
            else:
                yield "other", entry


def seen_of_folder(path: str) -> Seen | None:
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return seen(found) if stat.S_ISDIR(found.st_mode) else None


def as_recorded(listing_files: Mapping[str, Seen], folders: Mapping[str, Seen]) -> dict[str, Seen]:
    """Files and folders in one record: a folder by its path and a slash ("/" itself)."""
    return {**listing_files, **{f"{relative}/": found for relative, found in folders.items()}}


def seen(found: os.stat_result) -> Seen:
    return (found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns)


def seen_at(path: str | os.PathLike) -> Seen | None:
    """What lstat says of a regular file; None when it is gone or is not one."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return seen(found) if stat.S_ISREG(found.st_mode) else None


def lstat_files(folder: Path, paths: Iterable[str], clock: int) -> dict[str, Seen]:
    """What lstat says of these files of a folder, as a record may keep it (vouched); those
    gone or not regular files left out."""
    found = {path: seen_at(f"{os.fspath(folder)}/{path}") for path in paths}
    return vouched({path: seen for path, seen in found.items() if seen is not None}, clock)


def vouched(files: Mapping[str, Seen], clock: int) -> dict[str, Seen]:
    """The files as a record may keep them, looked at after the file system's clock said
    clock (disk_clock): one changed within that tick is recorded as unproven."""
    return {path: _vouched(found, clock) for path, found in files.items()}


def disk_clock(out_dir: Path) -> int:
    """The present by the clock of the output's file system, which sets change times (the
    lock file's, set now: it is beside the output folder, on the same file system); 0, so
    that nothing is vouched for, when it cannot be set."""
    try:
        descriptor = open_lock_file(lock_file(out_dir))
    except OSError:
        return 0
    try:
        os.utime(descriptor)
        return os.fstat(descriptor).st_ctime_ns
    except OSError:
        return 0
    finally:
        os.close(descriptor)


def lock_file(out_dir: Path) -> Path:
    """The file beside the output folder that builds lock (output/lock.py) and that records
    what the last one left (written in place: a lock is held on the file, not on its name)."""
    out = out_dir.resolve()
    return out.parent / f".{out.name}{LOCK_SUFFIX}"


class NotAFile(OSError):
    """The lock file's name is taken by a link, a folder or a special file."""


def open_lock_file(path: Path) -> int:
    """The lock file, opened for reading and writing (made if missing), never through a link
    (NotAFile), nor a FIFO or a device, which could block a build or take what it writes."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as error:
        if os.path.islink(path) or os.path.isdir(path):
            raise NotAFile(error.errno, "not a file of its own", str(path)) from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise NotAFile(0, "not a regular file", str(path))
    return descriptor


def read_records(out_dir: Path) -> Records:
    """What the last builds saw of the files they left, by the digest of each folder's manifest."""
    try:
        return _decoded(read_regular(lock_file(out_dir), follow=False))
    except (OSError, ValueError, TypeError):
        return NO_RECORDS


# The record file: this line, a JSON line listing each folder's [manifest digest, number of
# entries, bytes of their paths], then for each folder its paths (UTF-8, separated by NUL,
# which no path holds) and four 64-bit integers per entry. Some 40,000 entries at 5,000
# questions: JSON took a tenth of a second to write and half of that to read.
RECORD_FORMAT = b"studysite record 2\n"


class Packed:
    """A folder's record as the record file holds it: its paths, UTF-8 and separated by NUL,
    and four 64-bit integers each (what lstat said). Read straight from a folder just built
    (packed_listing), it costs some 40 bytes an entry, where a dict of tuples costs some
    400: at 20,000 questions in three languages (225,000 entries) the commit's memory grew
    by 134 MiB with the dicts, 36 MiB without."""

    def __init__(self) -> None:
        self.count, self.paths, self.numbers = 0, bytearray(), array("q")

    @classmethod
    def of(cls, entries: Mapping[str, Seen]) -> Packed:
        packed = cls()
        for path, found in entries.items():
            packed.add(path, found)
        return packed

    def add(self, path: str, found: Seen) -> None:
        if self.count:
            self.paths += b"\0"
        self.paths += path.encode("utf-8", "surrogateescape")
        self.numbers.extend(found)
        self.count += 1


def packed_listing(folder: Path, clock: int) -> Packed:
    """Every file and folder below a folder that the build has just written and no one else
    has touched, as a record keeps them (vouched at clock, a folder by its path and a slash:
    as_recorded): what look_through and as_recorded make of it, without a dict. Links and
    special files, which the build never makes, are left out, as the record leaves them."""
    packed, root, folders = Packed(), os.fspath(folder), [""]
    while folders:
        relative = folders.pop()
        path = f"{root}/{relative}" if relative else root
        found = seen_of_folder(path)
        if found is None:
            continue
        packed.add(f"{relative}/", _vouched(found, clock))
        prefix = f"{relative}/" if relative else ""
        for kind, entry in _scanned(path):
            if kind == "folder":
                folders.append(prefix + entry.name)
            elif kind == "file":
                packed.add(prefix + entry.name, _vouched(seen(entry.stat(follow_symlinks=False)), clock))
    return packed


def _vouched(found: Seen, clock: int) -> Seen:
    return found if found[3] < clock else (*found[:3], UNPROVEN)


def _encoded(trees: Mapping[str, Mapping[str, Seen] | Packed]) -> list[bytes]:
    """The record file's bytes, in pieces (written one after the other: not joined, which
    would hold them twice)."""
    header, parts = [], []
    for digest, entries in trees.items():
        packed = entries if isinstance(entries, Packed) else Packed.of(entries)
        header.append([digest, packed.count, len(packed.paths)])
        parts += [packed.paths, packed.numbers]
    return [RECORD_FORMAT, json.dumps(header).encode(), b"\n", *parts]


def _decoded(data: bytes) -> Records:
    """The record file's folders; ValueError or TypeError for one that is not whole."""
    if not data.startswith(RECORD_FORMAT):
        return NO_RECORDS
    end = data.index(b"\n", len(RECORD_FORMAT))
    at, trees = end + 1, {}
    for digest, count, size in json.loads(data[len(RECORD_FORMAT) : end]):
        if not (isinstance(digest, str) and isinstance(count, int) and isinstance(size, int) and count >= 0 and size >= 0):
            raise ValueError("not a record")
        paths = data[at : at + size].decode("utf-8", "surrogateescape").split("\0") if count else []
        numbers = array("q")
        numbers.frombytes(data[at + size : at + size + 4 * numbers.itemsize * count])
        at += size + 4 * numbers.itemsize * count
        if len(paths) != count or len(numbers) != 4 * count:
            raise ValueError("not a record")
        values = iter(numbers)
        trees[digest] = dict(zip(paths, zip(values, values, values, values, strict=True), strict=True))
    return trees


def recorded(records: Records, marker: bytes) -> Mapping[str, Seen]:
    """What was seen of the files of the folder whose manifest holds these bytes."""
    return records.get(manifest_digest(marker), {}) if marker else {}


def write_records(out_dir: Path, trees: Mapping[str, Mapping[str, Seen] | Packed]) -> None:
    """Record the files of each folder, by the digest of its manifest's bytes (manifest_digest;
    written in place: the file is locked); and remove the record an earlier version of
    Studysite left under the old name. A record that cannot be written costs the next build
    a reading of every file, no more."""
    try:
        descriptor = open_lock_file(lock_file(out_dir))
    except OSError:
        return
    try:
        write_new_file(descriptor, *_encoded(trees))
        _remove_old_record(out_dir)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _remove_old_record(out_dir: Path) -> None:
    """`site.lock` beside `site/`, if it is a record Studysite wrote, and nothing else."""
    out = out_dir.resolve()
    old = out.parent / f"{out.name}{OLD_LOCK_SUFFIX}"
    try:
        record = json.loads(read_regular(old, follow=False))
    except (OSError, ValueError):
        return
    if isinstance(record, dict) and record.keys() == {"manifest", "files"}:
        old.unlink()


def manifest_digest(marker: bytes) -> str:
    return hashlib.sha256(marker).hexdigest()
