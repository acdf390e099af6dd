"""Commit: a build's output put in place in one step, and the spare folder that keeps it cheap.

The output folder changes only by an exchange of two names (renameat2 with RENAME_EXCHANGE,
Linux 3.15 and glibc 2.28): a complete folder made beside it takes its place, and it takes the
other's. A build killed at any moment leaves the previous site or the new one, each whole.

A complete folder made anew for each build would cost a folder and a hard link per page and
their removal afterwards: at 5,000 questions in two languages, 11,000 folders, which multiplied
a rebuild's time by 3 to 6 on ext4. So the folder that the exchange puts aside is kept as the
spare (`.site.studysite-spare` beside `site/`): it holds the build before, and the next build
brings it up to date with only what differs (complete_spare: the files this build changed,
moved in; those the build before changed, hard-linked from the output; those no longer built,
removed), then exchanges it with the output. The spare is checked as the output is
(manifest.checked_folder), and lists what it is about to change before changing it, so a
build killed meanwhile leaves a spare the next one can check.

Where the exchange is missing (another system, a file system without it), the output is set
aside (`.site.old-<pid>`) and the new folder renamed in its place; a build killed between
the two leaves no output folder, and the next puts the one set aside back (recover).
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from studysite.fileio import files_below, write_whole
from studysite.output.manifest import MARKER, PARTIAL_SUFFIX, PENDING, TEMP_MARKER, Manifest, OutputError, checked_folder, read_manifest, read_marker
from studysite.output.record import Records, Seen, disk_clock, read_records, seen_of_folder, vouched

SPARE_SUFFIX = ".studysite-spare"
RENAME_EXCHANGE = 2  # linux/fs.h
_UNSUPPORTED = (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP)


AT_FDCWD = -100


def renameat2():
    """glibc's renameat2 (2.28 and later), or None; looked up when a build commits (ctypes
    is a few milliseconds of every command's start otherwise)."""
    import ctypes

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def spare_folder(out_dir: Path) -> Path:
    return out_dir.parent / f".{out_dir.name}{SPARE_SUFFIX}"


def set_aside_folder(out_dir: Path) -> Path:
    return out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"


def check_spare(out_dir: Path, records: Records | None = None, output: Manifest | None = None) -> Manifest | None:
    """The spare's manifest, checked (manifest.checked_folder), or None when there is none;
    OutputError when it is a link, a file, or holds anything Studysite did not write.
    output: the output's, checked (a file the two share, as the record shows, is checked once)."""
    spare = spare_folder(out_dir)
    what = f"'{spare}' (the spare folder beside the output)"
    if not os.path.lexists(spare):
        return None
    if spare.is_symlink() or not spare.is_dir():
        raise OutputError(f"{what} is not a folder Studysite made; remove it")
    marker = read_marker(spare)
    if not marker and not any(spare.iterdir()):  # an empty output, put aside
        spare.rmdir()
        return None
    clock = disk_clock(out_dir)
    known = output.present if output is not None else None
    checked = checked_folder(spare, marker, read_records(out_dir) if records is None else records, clock, what, known)
    return replace(checked, inputs={}, records={})  # what the commit does not need (and, from a process aside, need not come back)


def exchange(new: Path, out_dir: Path, spare: Path) -> None:
    """Put the complete folder new in the output's place in one step, and the output in the
    spare's (the spare is new, or missing); or, without the exchange, in two renames with the
    output set aside between them."""
    if not os.path.lexists(out_dir):
        os.rename(new, out_dir)
        return
    swap = renameat2()
    if swap is not None:
        if swap(AT_FDCWD, os.fsencode(new), AT_FDCWD, os.fsencode(out_dir), RENAME_EXCHANGE) == 0:
            if new != spare:
                _keep_as_spare(new, spare)
            return
        code = _errno()
        if code not in _UNSUPPORTED:
            raise OSError(code, os.strerror(code), os.fspath(out_dir))
    aside = set_aside_folder(out_dir)
    os.rename(out_dir, aside)
    try:
        os.rename(new, out_dir)
    except OSError:
        os.rename(aside, out_dir)
        raise
    _keep_as_spare(aside, spare)


def _errno() -> int:
    import ctypes

    return ctypes.get_errno()


def _keep_as_spare(folder: Path, spare: Path) -> None:
    """The previous output, put aside by the exchange, kept as the spare; removed when it
    cannot be, or holds no site (the new site is in place: nothing here may fail the build)."""
    try:
        if read_marker(folder) and not os.path.lexists(spare):
            os.rename(folder, spare)
            return
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)


def complete_spare(spare: Path, staged_in: Path, out_dir: Path, new: Mapping[str, str], held: Manifest, manifest: bytes) -> set[str]:
    """Bring the spare, which holds the build before the output's (held: its manifest,
    checked), to the new build's files (path -> digest): those in the staging folder moved
    in; those it lacks, which the output has as they are to be, hard-linked from the output;
    those not built removed; then its manifest. The paths it changes are listed first as
    pending, so that a build stopped midway leaves a spare the next one can check. Returns
    the paths changed."""
    present = held.present or {}
    staged = files_below(staged_in) - {TEMP_MARKER}
    linked = [path for path in new if path not in staged and (path not in present or held.files.get(path) != new[path])]
    removed = sorted(set(present) - set(new) - {MARKER, PENDING})
    touched = staged | set(linked) | set(removed)
    if touched:
        listed = "".join(f"{path}\n" for path in sorted(touched)).encode()
        write_whole(spare / PENDING, lambda file: file.write(listed), staged_in / PENDING)  # made in the staging folder: never a stray file in the spare
    folders: set[str] = set()
    for path in sorted(staged):
        _make_folder_for(spare, path, folders)
        os.replace(staged_in / path, spare / path)
    for path in linked:
        _make_folder_for(spare, path, folders)
        partial = spare / (path + PARTIAL_SUFFIX)
        partial.unlink(missing_ok=True)
        os.link(out_dir / path, partial)
        os.replace(partial, spare / path)
    for path in removed:
        (spare / path).unlink(missing_ok=True)
        _remove_empty_folders((spare / path).parent, spare)
    write_whole(spare / MARKER, lambda file: file.write(manifest), staged_in / MARKER)
    (spare / PENDING).unlink(missing_ok=True)
    return touched


def folders_after(folder: Path, before: Mapping[str, Seen], touched: Iterable[str], clock: int) -> dict[str, Seen]:
    """What lstat says of a folder's folders once these paths in it were changed: asked again
    of each folder on their way (made, changed or removed), the others as before."""
    around = {"", *(path.rpartition("/")[0] for path in touched)}
    ancestors = {"/".join(parts[:end]) for folder_path in around for parts in [folder_path.split("/")] for end in range(len(parts) + 1)}
    now = {relative: seen_of_folder(f"{os.fspath(folder)}/{relative}" if relative else os.fspath(folder)) for relative in ancestors}
    after = {**before, **vouched({relative: found for relative, found in now.items() if found is not None}, clock)}
    return {relative: found for relative, found in after.items() if now.get(relative, found) is not None}


def _make_folder_for(root: Path, path: str, made: set[str]) -> None:
    folder = path.rpartition("/")[0]
    if folder and folder not in made:
        os.makedirs(root / folder, exist_ok=True)
        made.add(folder)


def _remove_empty_folders(folder: Path, root: Path) -> None:
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty
            return
        folder = folder.parent


def recover(out_dir: Path) -> None:
    """Tidy what interrupted builds left beside the output, and only that: a folder a build
    was filling (it holds the partial marker) is removed; a whole site set aside (an output
    folder between two renames, or a new one) is put back in the output's place when that is
    empty, kept as the spare when there is none, and removed otherwise."""
    if not out_dir.parent.is_dir():
        return
    for folder in sorted([*out_dir.parent.glob(f".{out_dir.name}.tmp-*"), *out_dir.parent.glob(f".{out_dir.name}.old-*")]):
        if folder.is_symlink() or not folder.is_dir():
            continue
        if (folder / TEMP_MARKER).is_file():
            shutil.rmtree(folder)
        elif read_manifest(folder) is not None:
            if not os.path.lexists(out_dir):
                os.rename(folder, out_dir)
            elif not os.path.lexists(spare_folder(out_dir)):
                os.rename(folder, spare_folder(out_dir))
            else:
                shutil.rmtree(folder)
