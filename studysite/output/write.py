"""Write: the guarded, atomic output of a build.

A build writes into a temporary folder beside the output folder and swaps it in only when
everything succeeded, so a failed or interrupted build leaves the previous site as it was.
Files whose bytes did not change are carried over as hard links; a rebuild in place stages
only the changed files and moves them in at the end. The writer refuses to
write outside its folder or the same file twice, marks the folders it builds, and never
deletes a folder that holds anything it did not write (nor a link, which it never follows).

In the file beside the folder that builds lock (`site.lock` for `site/`; output/lock.py) it
records the size, modification time and inode of each file it left (output/record.py), so that the next build, by looking at them alone, finds a file
changed by hand and writes it again (and a build with nothing to do stays one stat per file).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from studysite.fileio import files_below, read_bytes, write_new_file
from studysite.output.record import Seen, recorded_output, scan_output, write_record

MARKER = ".studysite"
TEMP_MARKER = ".studysite-partial"
PENDING = ".studysite-pending"  # the files replaced since the manifest was written: by quick edits, or by a commit under way
PARTIAL_SUFFIX = ".studysite-partial"  # a file being written beside the one it replaces


class OutputError(Exception):
    """The output folder cannot be used; the message says why and what to do."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Manifest:
    """What a Studysite folder holds: each file's sha256 and, for rendered pages, the key
    of everything its rendering depended on (so that an unchanged page is not rendered)."""

    files: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    present: Mapping[str, Seen] | None = None  # the files found in the folder (with what lstat said), when it was looked through
    pending: frozenset[str] = frozenset()  # the files quick edits replaced since it was written


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of a Studysite folder, or None if it is not one. The files that quick
    edits replaced since it was written are taken as they now are, with no key: the next
    build renders them again and compares."""
    try:
        marker = (folder / MARKER).read_bytes()
    except OSError:
        return None
    return manifest_of(folder, marker)


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
        pending = {line for line in (folder / PENDING).read_text(encoding="utf-8").splitlines() if line}
    except OSError:
        return Manifest(files, inputs)
    if not are_site_paths(pending):
        return None
    replaced = {path: _file_digest(folder / path) for path in pending}
    partial = {path + PARTIAL_SUFFIX: "" for path in pending}  # left by a quick edit stopped while writing
    inputs = {path: key for path, key in inputs.items() if path not in pending}
    return Manifest(files | replaced | partial | {PENDING: ""}, inputs, pending=frozenset(pending))


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


def _file_digest(path: Path) -> str:
    try:
        return _digest(read_bytes(path))
    except OSError:
        return ""


class FileReplacer:
    """Writes pages straight into a built folder (serve's quick edits), each in one step.
    The manifest is left as the last build wrote it: each file replaced is listed as
    pending, and the next build takes it as it is then (read_manifest)."""

    def __init__(self, out_dir: Path, files: dict[str, str], inputs: dict[str, str], pending: set[str]):
        self.out_dir = out_dir
        self.root = os.path.realpath(out_dir)
        self.files, self.inputs = dict(files), dict(inputs)
        self.pending = pending  # the files listed as pending already
        self.written: list[str] = []

    def write(self, path: str, data: bytes, key: str) -> None:
        """A page and the key it was made from; written only when its bytes changed. Not
        through a link on its way (OutputError: a build then says where it is)."""
        self.inputs[path] = key
        digest = _digest(data)
        if self.files.get(path) == digest:
            return
        folder = os.path.dirname(path)
        if os.path.realpath(self.out_dir / folder) != (os.path.join(self.root, folder) if folder else self.root):
            raise OutputError(f"refusing to write '{path}': a link on its way leads elsewhere")
        if path not in self.pending:
            with open(self.out_dir / PENDING, "a", encoding="utf-8") as pending:
                pending.write(path + "\n")
            self.pending.add(path)
        target = self.out_dir / path
        partial = target.with_name(target.name + PARTIAL_SUFFIX)
        partial.write_bytes(data)
        os.replace(partial, target)
        self.files[path] = digest
        self.written.append(path)


def _manifest_text(files: dict[str, str], inputs: dict[str, str]) -> str:
    return json.dumps({"generator": "studysite", "files": files, "inputs": inputs}, sort_keys=True)


def _write_manifest(out_dir: Path, files: dict[str, str], inputs: dict[str, str], staging: Path) -> None:
    temporary = staging / MARKER
    temporary.write_text(_manifest_text(files, inputs), encoding="utf-8")
    os.replace(temporary, out_dir / MARKER)


def record_output(out_dir: Path, files: dict[str, Seen] | None = None) -> None:
    """Note what the files of a build just committed look like (files, when the caller
    knows; else the folder is looked through), for the next build. A record that cannot
    be written costs the next build a reading of every file, no more."""
    try:
        marker = (out_dir / MARKER).read_bytes()
        if files is None:
            files, _ = scan_output(out_dir)
            files.pop(MARKER, None)
    except OSError:
        return
    write_record(out_dir, marker, files)


def output_as_recorded(out_dir: Path, marker: bytes) -> bool:
    """Whether the output folder holds exactly the files the last build left, each as it
    left it (by lstat alone: no file is read), and nothing else."""
    recorded = recorded_output(out_dir, marker)
    files, others = scan_output(out_dir)
    files.pop(MARKER, None)
    return bool(recorded) and not others and files.keys() == recorded.keys() and all(list(seen) == recorded[path] for path, seen in files.items())


def _verified(out_dir: Path, manifest: Manifest, marker: bytes, found: dict[str, Seen]) -> Manifest:
    """The manifest, with each file that is not as the last build left it (by lstat; every
    file, when there is no record) taken as it now is, if its bytes changed: its digest
    read, its key dropped and listed as pending, so that the build writes it again."""
    recorded = recorded_output(out_dir, marker)
    suspects = [path for path, seen in found.items() if manifest.files.get(path) and path not in manifest.pending and recorded.get(path) != list(seen)]
    now = {path: _file_digest(out_dir / path) for path in suspects}
    changed = {path for path, digest in now.items() if digest != manifest.files[path]}
    if not changed:
        return manifest
    files = manifest.files | {path: now[path] for path in changed}
    inputs = {path: key for path, key in manifest.inputs.items() if path not in changed}
    return replace(manifest, files=files, inputs=inputs, pending=manifest.pending | changed)


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
    try:
        marker = (out_dir / MARKER).read_bytes()
    except OSError:
        marker = b""
    if not marker and any(out_dir.iterdir()):
        raise _not_studysites(out_dir)
    return marker


def _not_studysites(out_dir: Path) -> OutputError:
    return OutputError(f"'{out_dir}' holds files that Studysite did not write; nothing was changed. Choose an empty or new folder with --out")


def check_output_folder(out_dir: Path, protected: list[Path]) -> Manifest:
    """The manifest of the current output (empty when there is none), or OutputError. Files
    changed since the last build left them are taken as they are now (_verified)."""
    marker = check_destination(out_dir, protected)
    if not marker:  # no folder, or an empty one
        return Manifest()
    manifest = manifest_of(out_dir, marker)
    if manifest is None:  # a manifest no build wrote
        raise _not_studysites(out_dir)
    present, others = scan_output(out_dir)
    foreign = sorted((set(present) - set(manifest.files) - {MARKER}) | {f"{path} (a link)" if (out_dir / path).is_symlink() else path for path in others})
    if foreign:
        listed = ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else "")
        raise OutputError(
            f"'{out_dir}' holds files that Studysite did not write ({listed}); nothing was changed. Move them away, or into static/ to publish them with the site"
        )
    return replace(_verified(out_dir, manifest, marker, present), present=present)


class SiteWriter:
    """Writes one build into a temporary folder; commit() swaps it in, abort() removes it.

    in_place (for a rebuild of an existing site): the temporary folder receives only the
    files that changed, and commit() moves them into the output folder, removes what is no
    longer built and then writes the manifest; unchanged files are not touched at all."""

    def __init__(self, out_dir: Path, previous: Manifest, in_place: bool = False):
        self.out_dir = out_dir
        self.previous = previous
        self.in_place = in_place and bool(previous.files)
        self.temp_dir = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
        self.written: dict[str, str] = {}
        self.inputs: dict[str, str] = {}
        self.changed = 0
        self._temp = os.fspath(self.temp_dir)
        self._folders: set[str] = set()
        self._moved_in: frozenset[str] = frozenset()

    def __enter__(self) -> SiteWriter:
        remove_stale_temp_folders(self.out_dir)
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.temp_dir.mkdir()
        (self.temp_dir / TEMP_MARKER).write_bytes(b"")
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.temp_dir.exists():  # after a failure, what cannot be removed is left to the next build: the failure is what to tell
            shutil.rmtree(self.temp_dir, ignore_errors=exc_type is not None)

    def _check(self, path: str) -> None:
        parts = [part for part in path.split("/") if part not in ("", ".")]
        if path.startswith("/") or ".." in parts or not parts or path in (MARKER, TEMP_MARKER):
            raise OutputError(f"refusing to write '{path}': it is outside the output folder")
        if path in self.written:
            raise OutputError(f"refusing to write '{path}' twice: two pages have the same URL")

    def write(self, path: str, data: bytes, key: str = "") -> None:
        """Write a file; key, for a rendered page, names everything its bytes came from."""
        self._check(path)
        digest = _digest(data)
        if key:
            self.inputs[path] = key
        self.written[path] = digest
        if self.previous.files.get(path) == digest and self._link_previous(path):
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
        if self.in_place:  # the file stays where it is
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

    def record_tool_output(self, folder: Path) -> None:
        """Count the files a tool wrote straight into a folder of the temporary folder (a
        search index): only that folder is listed, not the whole site."""
        prefix = folder.relative_to(self.temp_dir).as_posix() + "/"
        for path in sorted(files_below(folder)):
            self.written[prefix + path] = _digest(read_bytes(folder / path))

    def commit(self) -> None:
        """Mark the new folder and put it in the place of the old one. Ctrl-C and SIGTERM
        wait until this is done, so no half-swapped site or leftover folder remains."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            self._swap()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        record_output(self.out_dir, self._seen_after_update())

    def _swap(self) -> None:
        if self.in_place:
            return self._update_in_place()
        (self.temp_dir / MARKER).write_text(_manifest_text(self.written, self.inputs), encoding="utf-8")
        (self.temp_dir / TEMP_MARKER).unlink()
        old = self.out_dir.parent / f".{self.out_dir.name}.old-{os.getpid()}"
        if self.out_dir.exists():
            os.rename(self.out_dir, old)
        try:
            os.rename(self.temp_dir, self.out_dir)
        except OSError:
            if old.exists():
                os.rename(old, self.out_dir)
            raise
        if old.exists():
            shutil.rmtree(old)

    def _seen_after_update(self) -> dict[str, Seen] | None:
        """What lstat says of each file after a rebuild in place: as the folder was looked
        through before it for the files it left alone, asked again for those it moved in
        (so a rebuild of a large site does not look through all of it again)."""
        before = self.previous.present
        if not self.in_place or before is None:
            return None
        seen = {}
        for path in self.written:
            if path in self._moved_in or path not in before:
                try:
                    found = os.lstat(self.out_dir / path)
                except OSError:  # gone already: the folder is looked through instead
                    return None
                seen[path] = (found.st_size, found.st_mtime_ns, found.st_ino)
            else:
                seen[path] = before[path]
        return seen

    def _update_in_place(self) -> None:
        """Move the changed files into the output folder. They are listed as pending first
        (as quick edits list theirs), so that a build killed midway is followed by one that
        takes them as they are and renders them again (read_manifest)."""
        staged = sorted(files_below(self.temp_dir) - {TEMP_MARKER})
        self._moved_in = frozenset(staged)
        removed = sorted(set(self.previous.files) - set(self.written))
        with open(self.out_dir / PENDING, "a", encoding="utf-8") as pending:
            pending.write("".join(path + "\n" for path in staged))
        for path in staged:
            target = self.out_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.temp_dir / path, target)
        for path in removed:
            (self.out_dir / path).unlink(missing_ok=True)
            _remove_empty_folders((self.out_dir / path).parent, self.out_dir)
        _write_manifest(self.out_dir, self.written, self.inputs, self.temp_dir)
        (self.out_dir / PENDING).unlink(missing_ok=True)


def _remove_empty_folders(folder: Path, root: Path) -> None:
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty
            return
        folder = folder.parent


def remove_stale_temp_folders(out_dir: Path) -> None:
    """Remove what interrupted builds of this output left, and only that."""
    if not out_dir.parent.is_dir():
        return
    for folder in out_dir.parent.glob(f".{out_dir.name}.tmp-*"):
        if (folder / TEMP_MARKER).is_file():
            shutil.rmtree(folder)
    for folder in sorted(out_dir.parent.glob(f".{out_dir.name}.old-*")):
        if read_manifest(folder) is None:
            continue
        if out_dir.exists():
            shutil.rmtree(folder)
        else:  # a build stopped between its two renames: put the previous site back
            os.rename(folder, out_dir)
