"""Write: the guarded, atomic output of a build.

A build writes into a temporary folder beside the output folder and puts a complete new
folder in the output's place in one step at the end (output/commit.py), so a failed,
interrupted or killed build leaves the previous site as it was. A rebuild stages only the
files that changed, and brings the spare folder beside the output up to date with them
before the exchange; a build without a spare makes the whole folder, carrying unchanged
files over as hard links. The writer refuses to write outside its folder or the same file
twice, marks the folders it builds, and never deletes a folder that holds anything it did
not write (nor a link, which it never follows).

What the build trusts of the folders it finds is proven first (output/manifest.py), by
what the record beside them (output/record.py) saw of each file or by its digest, so a file
changed by hand is written again.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Mapping
from pathlib import Path

from studysite.fileio import write_new_file
from studysite.output.commit import check_spare, complete_spare, exchange, folders_after, recover, spare_folder
from studysite.output.manifest import (
    MARKER,
    PARTIAL_SUFFIX,
    PENDING,
    TEMP_MARKER,
    Manifest,
    OutputError,
    checked_folder,
    digest,
    manifest_of,
    not_studysites,
    output_as_recorded,
    read_manifest,
    read_marker,
)
from studysite.output.record import (
    UNPROVEN,
    Packed,
    Seen,
    as_recorded,
    disk_clock,
    look_through,
    lstat_files,
    manifest_digest,
    packed_listing,
    read_records,
    vouched,
    write_records,
)

__all__ = [
    "MARKER",
    "PARTIAL_SUFFIX",
    "PENDING",
    "TEMP_MARKER",
    "Manifest",
    "OutputError",
    "SiteWriter",
    "check_destination",
    "check_output_folder",
    "manifest_of",
    "output_as_recorded",
    "read_manifest",
]

_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _manifest_bytes(files: dict[str, str], inputs: dict[str, str]) -> bytes:
    """The manifest file's bytes (ASCII JSON), made once: they are written and are the
    record's key for the folder (at 150,000 files, some 30 MB, held while the commit reads
    the new folder)."""
    return json.dumps({"generator": "studysite", "files": files, "inputs": inputs}, sort_keys=True).encode("ascii")


def check_destination(out_dir: Path, protected: list[Path]) -> bytes:
    """The output folder's manifest file (b"" when there is none), or OutputError if
    Studysite may not write there at all: it overlaps a protected folder (the sources: is
    one, is inside one or holds one), is a link or a file, or holds files and no manifest.
    Cheap, and safe to ask before the folder is locked: builds only ever leave one with its
    manifest. (Which of its files are not Studysite's is for check_output_folder.)"""
    out = out_dir.resolve()
    for folder in protected:
        folder = folder.resolve()
        if out == folder or folder in out.parents or out in folder.parents:
            raise OutputError(f"the output folder '{out_dir}' overlaps '{folder}'; choose a folder of its own, such as 'site/'")
    if out_dir.is_symlink():
        raise OutputError(f"'{out_dir}' is a symbolic link; give the folder it points to with --out")
    if not out_dir.exists():
        return b""
    if not out_dir.is_dir():
        raise OutputError(f"'{out_dir}' exists and is not a folder; choose another --out")
    marker = read_marker(out_dir)
    if not marker and any(out_dir.iterdir()):
        raise not_studysites(out_dir, f"'{out_dir}'")
    return marker


def check_output_folder(out_dir: Path, protected: list[Path]) -> Manifest:
    """The manifest of the current output (empty when there is none), or OutputError; what
    interrupted builds left beside it tidied first (commit.recover). Files changed since
    the last build left them are taken as they are now (manifest.checked_folder)."""
    check_destination(out_dir, protected)
    recover(out_dir)
    marker = check_destination(out_dir, protected)
    records = read_records(out_dir)
    if not marker:  # no folder, or an empty one
        return Manifest(records=records)
    return checked_folder(out_dir, marker, records, disk_clock(out_dir), f"'{out_dir}'")


class SiteWriter:
    """Writes one build into a temporary folder; commit() puts it in place, abort() removes it.

    in_place (for a rebuild of an existing site that has a spare folder beside it): the
    temporary folder receives only the files that changed, and commit() completes the spare
    with them and exchanges it with the output; unchanged files are not touched at all.
    spare: the spare, checked already (commit.check_spare); else it is checked on entering."""

    def __init__(self, out_dir: Path, previous: Manifest, in_place: bool = False, spare: Manifest | None = None):
        self.out_dir = out_dir
        self.previous = previous
        self.in_place = in_place and bool(previous.files)
        self.spare = spare
        self.temp_dir = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
        self.written: dict[str, str] = {}
        self.inputs: dict[str, str] = {}
        self.changed = 0
        self.committed = False  # the new site is in place
        self._temp = os.fspath(self.temp_dir)
        self._folders: set[str] = set()

    def __enter__(self) -> SiteWriter:
        if self.in_place:
            self.spare = self.spare or check_spare(self.out_dir, self.previous.records, self.previous)
            self.in_place = self.spare is not None
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.temp_dir.mkdir()
        (self.temp_dir / TEMP_MARKER).write_bytes(b"")
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.temp_dir.exists():  # after a failure, what cannot be removed is left to the next build: the failure is what to tell
            shutil.rmtree(self.temp_dir, ignore_errors=exc_type is not None or self.committed)

    def _check(self, path: str) -> None:
        parts = [part for part in path.split("/") if part not in ("", ".")]
        if path.startswith("/") or ".." in parts or not parts or path in (MARKER, TEMP_MARKER, PENDING):
            raise OutputError(f"refusing to write '{path}': it is outside the output folder")
        if path in self.written:
            raise OutputError(f"refusing to write '{path}' twice: two pages have the same URL")

    def write(self, path: str, data: bytes, key: str = "") -> None:
        """Write a file; key, for a rendered page, names everything its bytes came from."""
        self._check(path)
        made = digest(data)
        if key:
            self.inputs[path] = key
        self.written[path] = made
        if self.previous.files.get(path) == made and self._link_previous(path):
            return
        write_new_file(self._place_for(path), data)
        self.changed += 1

    def reuse(self, path: str, key: str) -> bool:
        """Carry a page over from the previous build if it was made from the same inputs."""
        if not key or self.previous.inputs.get(path) != key or path not in self.previous.files:
            return False
        self._check(path)
        if not self._link_previous(path):
            return False
        self.written[path] = self.previous.files[path]
        self.inputs[path] = key
        return True

    def carry_over(self, path: str, key: str = "") -> bool:
        """Keep a file of the previous build as it is (a search index that is still right);
        key, if any, is what the manifest says it was made from."""
        self._check(path)
        if path not in self.previous.files or not self._link_previous(path):
            return False
        self.written[path] = self.previous.files[path]
        if key:
            self.inputs[path] = key
        return True

    def _place_for(self, path: str) -> str:
        """Where a site file goes in the temporary folder, its folder made (once: it is there
        already for the other files beside it)."""
        target = f"{self._temp}/{path}"
        folder = target.rpartition("/")[0]
        if folder not in self._folders:
            try:
                os.mkdir(folder)
            except FileExistsError:
                pass
            except FileNotFoundError:
                os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        return target

    def _link_previous(self, path: str) -> bool:
        if self.in_place:  # the file stays where it is, and the spare gets it at the commit
            present = self.previous.present
            return path in present if present is not None else os.path.isfile(self.out_dir / path)
        try:
            os.link(self.out_dir / path, self._place_for(path))
        except OSError:
            return False
        return True

    def merge(self, written: dict[str, str], inputs: dict[str, str], changed: int) -> None:
        """Take over what a render worker wrote into this writer's temporary folder."""
        for path in written:
            self._check(path)  # the same guards as for a write of our own
        self.written.update(written)
        self.inputs.update(inputs)
        self.changed += changed

    def record_tool_output(self, folder: Path, digests: Mapping[str, str]) -> None:
        """Count the files a tool wrote straight into a folder of the temporary folder (a
        search index's part): their paths in that folder, and their sha256."""
        prefix = folder.relative_to(self.temp_dir).as_posix() + "/"
        for path in sorted(digests):
            self.written[prefix + path] = digests[path]

    def commit(self) -> None:
        """Put the new site in the output's place, in one step (commit.exchange); Ctrl-C and
        SIGTERM wait meanwhile. committed says whether it is in place."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            if self.in_place:
                self._commit_spare()
            else:
                self._commit_whole()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _commit_spare(self) -> None:
        """Bring the spare up to date and exchange it with the output. What the record keeps
        of each folder is taken before the exchange (which changes no file), so a build killed
        just after it leaves a record of both."""
        assert self.spare is not None
        spare, manifest = spare_folder(self.out_dir), _manifest_bytes(self.written, self.inputs)
        touched = complete_spare(spare, self.temp_dir, self.out_dir, self.written, self.spare, manifest)
        record_name = manifest_digest(manifest)
        del manifest  # written: let go before the folder is read (30 MB at 20,000 questions in three languages)
        clock = disk_clock(self.out_dir)
        kept = {path: seen for path, seen in (self.spare.present or {}).items() if path in self.written and path not in touched}
        new = kept | lstat_files(spare, (touched & self.written.keys()) | {MARKER}, clock)
        folders = folders_after(spare, self.spare.folders, touched | {MARKER}, clock)
        self._record(record_name, as_recorded(new, folders), lstat_files(self.out_dir, touched & self.previous.files.keys(), clock))
        exchange(spare, self.out_dir, spare)
        self.committed = True

    def _commit_whole(self) -> None:
        """Mark the complete temporary folder and exchange it with the output, which then
        becomes the spare (or is removed, when there is one)."""
        manifest = _manifest_bytes(self.written, self.inputs)
        (self.temp_dir / MARKER).write_bytes(manifest)
        record_name = manifest_digest(manifest)
        del manifest  # written: let go before the folder is read (30 MB at 20,000 questions in three languages)
        (self.temp_dir / TEMP_MARKER).unlink()
        clock = disk_clock(self.out_dir)
        old = look_through(self.out_dir).files if self.previous.marker else {}  # hard links were made to every file
        self._record(record_name, packed_listing(self.temp_dir, clock), vouched(old, clock))
        exchange(self.temp_dir, self.out_dir, spare_folder(self.out_dir))
        self.committed = True

    def _record(self, record_name: str, new: dict[str, Seen] | Packed, old_touched: dict[str, Seen]) -> None:
        """Record both folders, each by its manifest's digest: the new one, and the previous
        output (which the exchange makes the spare), its files not as its manifest says
        recorded as unproven (every entry of a folder is recorded: record.look_through takes
        a folder's entries from there)."""
        previous = self.previous
        old = {path: seen if path not in previous.pending else (*seen[:3], UNPROVEN) for path, seen in {**(previous.present or {}), **old_touched}.items()}
        folders = {record_name: new}
        if previous.marker:
            folders[manifest_digest(previous.marker)] = as_recorded(old, previous.folders)
        write_records(self.out_dir, folders)
