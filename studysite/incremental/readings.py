"""Readings: every content file read into a Reading (content/validate.py), from the build cache when
the file's bytes are as they were, so that a build parses only the files that changed;
many new files are parsed by forked processes.

A reading is kept as it is, keyed by a digest of the file's path, kind and bytes and of
the site's languages.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from studysite.content.load import SITE_FILE, Document, find_content_files, parse_file, read_file_bytes
from studysite.content.records import SiteConfig
from studysite.content.validate import Reading, read_record, read_site
from studysite.diagnostics import Diagnostic, Report
from studysite.fileio import read_bytes
from studysite.incremental.cache import BuildCache
from studysite.workers import map_in_forks


def read_content_files(
    content_dir: Path,
    report: Report,
    base_url_override: str = "",
    cache: BuildCache | None = None,
    listed: Mapping[str, str] | None = None,
    jobs: int = 1,
) -> tuple[SiteConfig | None, list[Reading]]:
    """The site's configuration and a reading of each record file, in content order.
    listed: every file of content_dir (relative POSIX path) with the sha256 of its bytes
    ("" when it could not be read), when the inputs were listed already. The files the
    cache has no reading of are parsed by jobs processes when there are many."""
    report.source_root = content_dir
    files = find_content_files(content_dir, report, listed)
    site_node = parse_file(content_dir / SITE_FILE, SITE_FILE, report) if ("site", SITE_FILE) in files else None
    site = read_site(Document(SITE_FILE, "site", site_node), report, base_url_override) if site_node is not None else None
    languages = site.languages if site else ()
    records = [(kind, path) for kind, path in files if kind != "site"]
    digests = listed or {}
    readings = {path: _kept_reading(content_dir, kind, path, languages, cache, digests.get(path)) for kind, path in records}
    new = [(kind, path) for kind, path in records if readings[path] is None]
    for (_, path), (key, reading, diagnostics) in zip(
        new, map_in_forks(functools.partial(_read_new, content_dir, languages, report.strict), new, jobs), strict=True
    ):
        report.diagnostics.extend(diagnostics)
        readings[path] = reading
        if cache is not None and reading is not None:
            cache.put_reading(key, reading)
    return site, [reading for reading in readings.values() if reading is not None]


def _kept_reading(content_dir: Path, kind: str, relative: str, languages: tuple[str, ...], cache: BuildCache | None, digest: str | None) -> Reading | None:
    """The cache's reading of a record file (its path relative to content_dir), if it has
    one for the file's bytes (their digest known already, or read here)."""
    if cache is None:
        return None
    if not digest:
        try:
            digest = hashlib.sha256(read_bytes(os.path.join(content_dir, relative), within=content_dir)).hexdigest()
        except OSError:  # told when the file is read to be parsed
            return None
    reading = cache.reading(_key(relative, kind, languages, digest))
    return reading if isinstance(reading, Reading) else None


def _read_new(content_dir: Path, languages: tuple[str, ...], strict: bool, item: tuple[str, str]) -> tuple[str, Reading | None, list[Diagnostic]]:
    """A record file (kind, path relative to content_dir) read and parsed, perhaps in a
    forked process: the key its reading is kept under, the reading (None when it cannot
    be read as YAML) and what went wrong."""
    kind, relative = item
    report = Report(strict=strict, source_root=content_dir)
    data = read_file_bytes(os.path.join(content_dir, relative), relative, report)
    if data is None:
        return "", None, report.diagnostics
    return _key(relative, kind, languages, hashlib.sha256(data).hexdigest()), read_record(relative, kind, data, languages), []


def _key(relative: str, kind: str, languages: tuple[str, ...], digest: str) -> str:
    return hashlib.sha256(f"{relative}\0{kind}\0{languages}\0{digest}".encode()).hexdigest()[:32]
