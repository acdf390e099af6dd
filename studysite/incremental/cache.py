"""Cache: what a build can skip next time, kept outside the deployed site.

One file per content folder holds the HTML of every content text converted from Markdown
and the glossary terms each question's text names, keyed by digests of what they came
from; one beside it, what reading each content file gave (incremental/readings.py); a small one, per
output folder, a digest of every input of the last successful build with what that build
reported (written once its output is in place). A build whose inputs and output are both
as they were then does nothing (unchanged_build, remember_build). The first file also
keeps what git said about the translations' age and the templates' UI messages
(i18n/status.py), so that the status pages need no git blame of a file that did not change,
and the times, size and digest of every file the last build read, so that an unchanged
file is not read again (incremental/inputs.py).
Beside it, folders keep the templates' compiled code (render/environment.py), shared by the
sites compiled from the same templates and catalogs, and a file per site keeps the model of the last build (incremental/kept_model.py), written and checked the same way (incremental/checked_files.py).

The file is a pickle: a rebuild takes the parsed records back as they were (decoding them
from JSON took 1.5 s of a 12 s rebuild at 5,000 questions). Like Python's own __pycache__
and the templates' compiled code, it is only ever read from the user's cache folder, and
its unpickler makes no object but plain data and the records' own classes (ALLOWED).

The folder is STUDYSITE_CACHE_DIR, else $XDG_CACHE_HOME/studysite, else ~/.cache/studysite.
It is safe to delete. A file that is corrupt, of another format or written by other code
(any change to Studysite's code or its Markdown libraries), or whose checksum does not
match what it holds, is ignored and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from studysite.diagnostics import Report, diagnostics_from_json, diagnostics_to_json
from studysite.fileio import read_bytes
from studysite.i18n.status import StatusMemos
from studysite.incremental.checked_files import (
    PROTOCOL,
    UNPICKLING_ERRORS,
    Digesting,
    RestrictedUnpickler,
    load_checked,
    process_running,
    read_checked,
    remove_temporary_files,
    save_checked,
    write_checked,
)
from studysite.memo import NO_MEMO, Memo
from studysite.output.manifest import manifest_of, output_as_recorded, read_marker

SAVED = ("markdown", "history", "found", "ui_messages", "signatures")  # the parts of a BuildCache kept in its file (the readings: in one of their own)
CODE_ROOT = Path(__file__).resolve().parents[1]


def cache_folder() -> Path:
    if os.environ.get("STUDYSITE_CACHE_DIR"):
        return Path(os.environ["STUDYSITE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "studysite"


def code_stamp() -> str:
    """A digest of Studysite's code and the versions of the libraries its output depends on."""
    digest = hashlib.sha256()
    for path in sorted(CODE_ROOT.rglob("*.py")):
        digest.update(path.relative_to(CODE_ROOT).as_posix().encode() + b"\0" + read_bytes(path))
    for package in ("markdown", "nh3", "jinja2", "babel", "latex2mathml", "genanki", "isal", "pyyaml", "pagefind"):
        try:
            digest.update(f"{package}={version(package)}".encode())
        except PackageNotFoundError:
            digest.update(package.encode())
    return digest.hexdigest()


@dataclass
class BuildCache:
    """Converted Markdown, found terms and the record of previous builds; `path` None keeps it in memory only."""

    path: Path | None = None
    stamp: str = ""
    markdown: dict[str, str] = field(default_factory=dict)
    builds: dict[str, dict] = field(default_factory=dict)
    history: dict = field(default_factory=dict)  # the translations' age by git (i18n/status.py)
    found: dict[str, list[str]] = field(default_factory=dict)  # the terms named in a question's text (content/graph.py)
    ui_messages: dict[str, list[str]] = field(default_factory=dict)  # the templates' messages, by their digest (i18n/status.py)
    readings: dict[str, object] = field(
        default_factory=dict
    )  # what reading each content file gave, by its bytes (incremental/readings.py); pickled as the file held it
    signatures: dict[str, list] = field(default_factory=dict)  # what the last build saw of each file it read (incremental/inputs.py)
    _used: set[str] = field(default_factory=set)
    _readings_taken: bool = False  # whether the readings' file was read (all_readings)
    _keep_unused: bool = False

    def memo(self, part: str) -> StoreMemo:
        """The memo of a stage (memo.py) kept in one part of this cache: markdown (the HTML
        of content text), found (the terms a question's text names), history (the age of
        translations by git) or ui_messages (the templates' messages)."""
        return StoreMemo(getattr(self, part), self._used)

    def reading(self, key: str) -> object | None:
        """The reading of a content file kept under key; unpickled anew for each build (it
        stays pickled here, to be saved again as it is)."""
        self._used.add(key)
        reading = self.all_readings().get(key)
        if isinstance(reading, bytes):
            try:
                return RestrictedUnpickler(io.BytesIO(reading), in_cache).load()
            except UNPICKLING_ERRORS:
                return None
        return reading

    def put_reading(self, key: str, reading: object) -> None:
        self._used.add(key)
        self.all_readings()[key] = reading

    def all_readings(self) -> dict[str, object]:
        """The readings, each still pickled as their file held it: read from that file when
        a build first asks (one that took the kept model never does, and leaves it as it is)."""
        if not self._readings_taken:
            self._readings_taken = True
            values = load_checked(readings_path(self.path), in_cache) if self.path is not None else iter(())
            if next(values, None) == self.stamp:
                pairs = [pair for pair in values if isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], bytes)]
                self.readings = dict(pairs) | self.readings
        return self.readings

    def keep_unused(self) -> None:
        """Keep what this build did not use as well: it took the kept model (incremental/kept_model.py) and
        read few files, and the next build that reads them all will want the rest."""
        self._keep_unused = True

    def save(self) -> None:
        """Keep what this build used (all but the record of builds: save_builds); written
        atomically, and a cache that cannot be written is no error. A build saves it in a
        process aside while it renders, which may be stopped: its temporary file is removed next time."""
        if self._used and not self._keep_unused:
            self.markdown = {key: html for key, html in self.markdown.items() if key in self._used}
            self.found = {key: terms for key, terms in self.found.items() if key in self._used}
            self.history = {key: value for key, value in self.history.items() if key in self._used}
            self.ui_messages = {key: ids for key, ids in self.ui_messages.items() if key in self._used}
            self.readings = {key: reading for key, reading in self.readings.items() if key in self._used}
        if self.path is not None:
            remove_temporary_files(self.path)
            write_checked(self.path, self._write)
            if self._readings_taken:
                remove_temporary_files(readings_path(self.path))
                write_checked(readings_path(self.path), self._write_readings)

    def save_builds(self) -> None:
        """The record of the builds into each output folder, in a file of its own: it is
        written once a build's output is in place, after the rest."""
        if self.path is not None:
            save_checked(builds_path(self.path), self.stamp, self.builds)

    def _write(self, digesting: Digesting) -> None:
        pickle.dump({"stamp": self.stamp, **{name: getattr(self, name) for name in SAVED}}, digesting, protocol=PROTOCOL)

    def _write_readings(self, digesting: Digesting) -> None:
        """The stamp, then each reading pickled on its own (saving then needs no memo of every
        object of every reading, and a reading is unpickled only when a build asks for it)."""
        pickle.dump(self.stamp, digesting, protocol=PROTOCOL)
        for key, reading in self.readings.items():
            pickle.dump((key, reading if isinstance(reading, bytes) else pickle.dumps(reading, protocol=PROTOCOL)), digesting, protocol=PROTOCOL)


class FileMemo:
    """A memo in a checked file of its own, by a header naming what made its entries (a file
    of another header, or that is not whole, is ignored): what a run put is saved, when it
    differs from what was kept."""

    def __init__(self, path: Path, header: str):
        self.path, self.header, self.made = path, header, {}
        values = load_checked(path, lambda module, name: False)
        saved_header, entries = next(values, None), next(values, None)
        self.kept: dict = entries if saved_header == header and isinstance(entries, dict) else {}

    def get(self, key: str) -> object | None:
        return self.kept.get(key)

    def put(self, key: str, value: object) -> None:
        self.made[key] = value

    def save(self) -> None:
        if self.made != self.kept:
            remove_temporary_files(self.path)
            save_checked(self.path, self.header, self.made)


SCRATCH_SUFFIX = ".scratch"


def scratch_folder(prefix: str) -> tempfile.TemporaryDirectory:
    """A folder of this process's in the cache folder for what is made aside (its cleanup()
    removes it), named by the process's id; those of processes no longer running (a build
    killed outright cannot remove its own) are removed first. Where the cache folder cannot
    be written: one in the system's temporary folder."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob(f"{prefix}*{SCRATCH_SUFFIX}"):
            owner = stale.name.removeprefix(prefix).split("-", 1)[0]
            if not (owner.isdigit() and process_running(int(owner))):
                shutil.rmtree(stale, ignore_errors=True)
        return tempfile.TemporaryDirectory(prefix=f"{prefix}{os.getpid()}-", suffix=SCRATCH_SUFFIX, dir=folder)
    except OSError:
        return tempfile.TemporaryDirectory(prefix=f"studysite-{prefix}")


@contextlib.contextmanager
def note_memo(content_dir: Path, language: str, header: str) -> Iterator[FileMemo]:
    """The memo of a site's deck in a language (study/anki.py's NoteMemo), in the cache folder; saved on leaving."""
    memo = FileMemo(cache_folder() / f"deck-{site_name(content_dir)}-{language}.pickle", header)
    yield memo
    memo.save()


def memo_of(cache: BuildCache | None, part: str) -> Memo:
    """The memo of a stage in the cache's part; with no cache, one that remembers nothing."""
    return cache.memo(part) if cache is not None else NO_MEMO


def status_memos(cache: BuildCache | None) -> StatusMemos:
    """What the translation status remembers between runs, in the cache."""
    return StatusMemos(memo_of(cache, "history"), memo_of(cache, "ui_messages"))


@dataclass(frozen=True)
class StoreMemo:
    """A memo over one part of a cache: each key asked or put counts as used, and the
    cache keeps, when saved, what the build used."""

    store: dict
    used: set[str]

    def get(self, key: str) -> object | None:
        self.used.add(key)
        return self.store.get(key)

    def put(self, key: str, value: object) -> None:
        self.used.add(key)
        self.store[key] = value


# The classes a cache file may hold, beside plain data: a reading's (incremental/readings.py).
ALLOWED = {
    ("studysite.content.validate", "Reading"),
    ("studysite.content.fields", "ParsedRecord"),
    ("studysite.content.fields", "FieldValues"),
    ("decimal", "Decimal"),  # a numeric question's answer and tolerance, made from their text
    ("studysite.content.fields", "Reference"),
    ("studysite.content.fields", "kind_in_folder"),
    ("studysite.diagnostics", "Diagnostic"),
    ("studysite.diagnostics", "Location"),
    ("studysite.diagnostics", "Severity"),
}


def in_cache(module: str, name: str) -> bool:
    """Whether a class may be unpickled from the build cache (ALLOWED)."""
    return (module, name) in ALLOWED


def _unpickled(path: Path) -> object:
    """What a cache file holds; None when there is no cache file there, or its checksum does
    not match (read_checked)."""
    checked = read_checked(path)
    return RestrictedUnpickler(io.BytesIO(checked[1]), in_cache).load() if checked is not None else None


def open_cache(content_dir: Path, stamp: str | None = None) -> BuildCache:
    """The cache of a content folder; empty when there is none or it cannot be trusted."""
    stamp = stamp or code_stamp()
    path = cache_folder() / f"site-{site_name(content_dir)}.pickle"
    cache = BuildCache(path, stamp)
    try:
        data = _unpickled(path)
    except UNPICKLING_ERRORS:
        return cache
    if not _trusted(data, stamp):
        return cache
    for name in SAVED:
        setattr(cache, name, data[name])
    cache.builds = _saved_builds(path, stamp)
    return cache


def readings_path(path: Path) -> Path:
    """The file of the readings beside a site's cache file: read only by a build that reads
    content files, and written only by one that did (a build after an edit takes the kept
    model and reads neither its 16 MB at 5,000 questions)."""
    return path.with_name(path.name.replace("site-", "readings-", 1))


def builds_path(path: Path) -> Path:
    """The file of the builds' record beside a site's cache file."""
    return path.with_name(path.name.replace("site-", "builds-", 1))


def _saved_builds(path: Path, stamp: str) -> dict[str, dict]:
    """The record of builds, when this code wrote it; else none."""
    values = load_checked(builds_path(path), lambda module, name: False)
    saved_stamp, builds = next(values, None), next(values, None)
    if saved_stamp != stamp or not isinstance(builds, dict) or not all(isinstance(v, dict) for v in builds.values()):
        return {}
    return builds


KEPT_TEMPLATE_CODE = 16  # folders of compiled templates kept, the most recently used: a few sites in their languages


def template_code_folders(names: dict[str, str]) -> dict[str, Path]:
    """A folder per language for its compiled templates, named by the language and a digest
    of what they are compiled from (the templates and catalogs with their paths, the code):
    shared by every site compiled from the same, so that a new site of Studysite's own
    templates finds them compiled by any site built before it. Beyond the KEPT_TEMPLATE_CODE
    used last, the folders are removed. A language whose folder cannot be made has none."""
    root = cache_folder() / "templates"
    folders = {}
    for language, name in names.items():
        with contextlib.suppress(OSError):
            (root / name).mkdir(parents=True, exist_ok=True)
            os.utime(root / name)  # used now: kept before those used longer ago
            folders[language] = root / name
    with contextlib.suppress(OSError):
        others = sorted((folder for folder in root.iterdir() if folder not in folders.values()), key=_used, reverse=True)
        for old in others[max(0, KEPT_TEMPLATE_CODE - len(folders)) :]:
            shutil.rmtree(old, ignore_errors=True)
        for old in cache_folder().glob("templates-*"):  # one root per site, as builds before 0.2 kept them
            shutil.rmtree(old, ignore_errors=True)
    return folders


def _used(folder: Path) -> float:
    try:
        return folder.stat().st_mtime
    except OSError:  # removed meanwhile by another build
        return 0.0


def cache_lock_file(content_dir: Path) -> Path:
    """The file a build locks to hold the cache of a content folder (output/lock.py)."""
    return cache_folder() / f"site-{site_name(content_dir)}.lock"


def site_name(content_dir: Path) -> str:
    return hashlib.sha256(str(content_dir.resolve()).encode()).hexdigest()[:16]


def _trusted(data: object, stamp: str) -> bool:
    """Whether what a cache file held was written by this code, in the expected parts."""
    if not isinstance(data, dict) or data.get("stamp") != stamp or not all(isinstance(data.get(name), dict) for name in SAVED):
        return False
    lists_of_text = (v for name in ("found", "ui_messages") for v in data[name].values())
    return (
        all(isinstance(v, str) for v in data["markdown"].values())
        and all(isinstance(v, list) and all(isinstance(t, str) for t in v) for v in lists_of_text)
        and all(isinstance(v, list) and len(v) == 5 and isinstance(v[4], str) for v in data["signatures"].values())
    )


def unchanged_build(cache: BuildCache, out_dir: Path, inputs: str) -> dict | None:
    """What the previous build into out_dir reported, if it had these inputs and its output
    is still exactly what it wrote (the same manifest, no file added, removed or changed)."""
    state = cache.builds.get(str(out_dir.resolve()))
    if not state or state.get("inputs") != inputs:
        return None
    marker = read_marker(out_dir)
    manifest = manifest_of(out_dir, marker)
    diagnostics = diagnostics_from_json(state.get("diagnostics"))
    if manifest is None or diagnostics is None or hashlib.sha256(marker).hexdigest() != state.get("manifest"):
        return None
    if not output_as_recorded(out_dir, marker):  # a file added, removed or changed since
        return None
    report = Report(strict=bool(state.get("strict")), diagnostics=diagnostics)
    return {"pages": int(state.get("pages", 0)), "languages": int(state.get("languages", 0)), "report": report}


def remember_build(cache: BuildCache, out_dir: Path, inputs: str, pages: int, languages: int, report: Report) -> None:
    marker = hashlib.sha256(read_marker(out_dir)).hexdigest()
    state = {"inputs": inputs, "manifest": marker, "pages": pages, "languages": languages, "strict": report.strict}
    cache.builds[str(out_dir.resolve())] = state | {"diagnostics": diagnostics_to_json(report.diagnostics)}
    cache.save_builds()
