"""Manifest: what a folder Studysite built holds, and the proof that it still does.

Each folder a build leaves (the output, and the spare beside it: output/commit.py) holds a
manifest, `.studysite`: each file's sha256 and, for rendered pages, the key of everything the
page was made from. Before a build trusts a folder it checks it (checked_folder): nothing in
it that Studysite did not write, and each file as its manifest says, proven by what the
record (output/record.py) saw of it or, where that differs, by its digest. A file changed
since is taken as it now is, so that the build writes it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from studysite.fileio import read_regular
from studysite.output.record import Records, Seen, look_through, read_records, recorded, vouched

MARKER = ".studysite"
TEMP_MARKER = ".studysite-partial"
PENDING = ".studysite-pending"  # the files serve's quick edits replaced since the manifest was written
PARTIAL_SUFFIX = ".studysite-partial"  # a file being written beside the one it replaces


class OutputError(Exception):
    """The output folder cannot be used; the message says why and what to do."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Manifest:
    """What a Studysite folder holds: each file's sha256 and, for rendered pages, the key
    of everything its rendering depended on (so that an unchanged page is not rendered)."""

    files: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    present: Mapping[str, Seen] | None = None  # the files found in the folder, as a record may keep them (record.vouched), when it was looked through
    folders: Mapping[str, Seen] = field(default_factory=dict)  # the folders found in it ("" itself), likewise
    pending: frozenset[str] = frozenset()  # the files not as the manifest says: replaced by quick edits, or changed by hand
    marker: bytes = b""  # the manifest file's bytes, which name the folder's record
    records: Records = field(default_factory=dict)  # the record file, as read when the folder was checked


def read_marker(folder: Path) -> bytes:
    """The bytes of a folder's manifest file; b"" when there is none (never through a link)."""
    try:
        return read_regular(folder / MARKER, follow=False)
    except OSError:
        return b""


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of a Studysite folder, or None if it is not one. The files that quick
    edits replaced since it was written are taken as they now are, with no key: the next
    build renders them again and compares."""
    marker = read_marker(folder)
    return manifest_of(folder, marker) if marker else None


def manifest_of(folder: Path, marker: bytes) -> Manifest | None:
    """The manifest of a Studysite folder whose marker file holds these bytes (read_manifest);
    None when it names a file outside the folder (a build deletes the files it lists and no
    longer makes: a manifest changed by hand must not lead it elsewhere)."""
    try:
        data = json.loads(marker.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError too
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not are_site_paths(files):
        return None
    inputs = data.get("inputs")
    inputs = inputs if isinstance(inputs, dict) else {}
    try:
        listed = read_regular(folder / PENDING, follow=False).decode("utf-8")
    except FileNotFoundError:
        return Manifest(files, inputs, marker=marker)
    except (OSError, UnicodeDecodeError):  # a pending list that is not one: no file of the folder is taken as its manifest says
        listed = "\n".join(files)
    pending = {line for line in listed.splitlines() if line}
    if not are_site_paths(pending):
        return None
    replaced = {path: file_digest(folder / path) for path in pending}
    partial = {path + PARTIAL_SUFFIX: "" for path in pending}  # left by a quick edit stopped while writing
    inputs = {path: key for path, key in inputs.items() if path not in pending}
    return Manifest(files | replaced | partial | {PENDING: ""}, inputs, pending=frozenset(pending), marker=marker)


# What marks an empty, '.' or '..' part of a path (a leading '/' makes an empty one), in paths
# each put between line breaks.
_NOT_INSIDE = ("\0", "//", "/./", "/../", "\n/", "/\n", "\n./", "\n../", "/.\n", "/..\n", "\n.\n", "\n..\n", "\n\n")


def are_site_paths(paths: Iterable[str]) -> bool:
    """Whether every path names a file inside the site folder: relative, POSIX, no empty,
    '.' or '..' part. Looked for in the paths joined by line breaks, a substring search each
    (a manifest lists every file; a break within a path only makes more parts to refuse)."""
    paths = list(paths)
    joined = "\n" + "\n".join(paths) + "\n"
    return not paths or not any(mark in joined for mark in _NOT_INSIDE)


def file_digest(path: Path) -> str:
    """The sha256 of a file of a folder Studysite built; "" when it is not a regular file."""
    try:
        return digest(read_regular(path, follow=False))
    except OSError:
        return ""


def checked_folder(folder: Path, marker: bytes, records: Records, clock: int, what: str, known: Mapping[str, Seen] | None = None) -> Manifest:
    """The manifest of a folder a build left, once checked (OutputError if it holds anything
    Studysite did not write, a link included), with each file that is not as the manifest says taken as it now
    is (changed_files): its key dropped and listed as pending, so that the build writes it
    again. clock: the file system's present before the folder is looked through (record.disk_clock);
    known: what lstat said of another folder's files (record.look_through)."""
    manifest = manifest_of(folder, marker)
    if manifest is None:  # a manifest no build wrote
        raise not_studysites(folder, what)
    listing = look_through(folder, recorded(records, marker), known)
    present, others = listing.files, listing.others
    foreign = sorted((set(present) - set(manifest.files) - {MARKER, PENDING + PARTIAL_SUFFIX}) | {f"{path} (a link)" if (folder / path).is_symlink() else path for path in others})
    if foreign:
        listed = ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else "")
        raise OutputError(
            f"{what} holds files that Studysite did not write ({listed}); nothing was changed. Move them away, or into static/ to publish them with the site"
        )
    changed = changed_files(folder, manifest, recorded(records, marker), present)
    if changed:
        files = manifest.files | changed
        inputs = {path: key for path, key in manifest.inputs.items() if path not in changed}
        manifest = replace(manifest, files=files, inputs=inputs, pending=manifest.pending | set(changed))
    return replace(manifest, present=vouched(present, clock), folders=vouched(listing.folders, clock), records=records)


def changed_files(folder: Path, manifest: Manifest, recorded: Mapping[str, Seen], present: Mapping[str, Seen]) -> dict[str, str]:
    """The files of the folder whose bytes are not as its manifest says, with their digests:
    of those the record does not vouch for (any lstat that differs, a change time
    included), each read."""
    suspects = [path for path, seen in present.items() if manifest.files.get(path) and path not in manifest.pending and recorded.get(path) != seen]
    now = {path: file_digest(folder / path) for path in suspects}
    return {path: found for path, found in now.items() if found != manifest.files[path]}


def output_as_recorded(out_dir: Path, marker: bytes, records: Records | None = None) -> bool:
    """Whether the output folder holds exactly the files the last build left, each as it
    left it, and nothing else: proven by lstat where the record vouches for a file, else
    by its digest."""
    manifest = manifest_of(out_dir, marker)
    kept = recorded(read_records(out_dir) if records is None else records, marker)
    listing = look_through(out_dir, kept)
    present = {path: found for path, found in listing.files.items() if path != MARKER}
    if manifest is None or manifest.pending or listing.others or present.keys() != manifest.files.keys():
        return False
    return not changed_files(out_dir, manifest, kept, present)


def not_studysites(folder: Path, what: str) -> OutputError:
    return OutputError(f"{what} holds files that Studysite did not write; nothing was changed. Choose an empty or new folder with --out")
