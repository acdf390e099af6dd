"""Readings: every content file read into a Reading (validate.py), from the build cache when
the file's bytes are as they were, so that a build parses only the files that changed;
many new files are parsed by forked processes.

A reading is kept as it is, keyed by a digest of the file's path, kind and bytes and of
the site's languages.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from .cache import BuildCache
from .diagnostics import Diagnostic, Report
from .forks import map_in_forks
from .load import Document, find_content_files, parse_bytes, parse_file, read_file_bytes
from .model import SiteConfig
from .siteconfig import read_site_config
from .validate import Reading, read_document


def read_content(
    content_dir: Path,
    report: Report,
    base_url_override: str = "",
    cache: BuildCache | None = None,
    digests: Mapping[Path, str] | None = None,
    jobs: int = 1,
    listing: Iterable[str] | None = None,
) -> tuple[SiteConfig | None, list[Reading]]:
    """The site's configuration and a reading of each record file, in content order.
    digests: the sha256 of files read already, by content_dir / relative path; listing:
    the files of content_dir, when listed already. The files the cache has no reading of
    are parsed by jobs processes when there are many."""
    report.source_root = content_dir
    files = find_content_files(content_dir, report, listing)
    site_files = [path for kind, path in files if kind == "site"]
    site_node = parse_file(site_files[0], site_files[0].name, report) if site_files else None
    site = read_site_config(Document(site_files[0].name, "site", site_node), report, base_url_override) if site_node is not None else None
    languages = site.languages if site else ()
    records = [(kind, path) for kind, path in files if kind != "site"]
    readings = {path: _kept_reading(content_dir, kind, path, languages, cache, (digests or {}).get(path)) for kind, path in records}
    new = [(kind, path) for kind, path in records if readings[path] is None]
    for (_, path), (key, reading, diagnostics) in zip(
        new, map_in_forks(functools.partial(_read_new, content_dir, languages, report.strict), new, jobs), strict=True
    ):
        report.diagnostics.extend(diagnostics)
        readings[path] = reading
        if cache is not None and reading is not None:
            cache.put_reading(key, reading)
    return site, [reading for reading in readings.values() if reading is not None]


def _kept_reading(content_dir: Path, kind: str, path: Path, languages: tuple[str, ...], cache: BuildCache | None, digest: str | None) -> Reading | None:
    """The cache's reading of a record file, if it has one for the file's bytes (their
    digest known already, or read here)."""
    if cache is None:
        return None
    if digest is None:
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:  # told when the file is read to be parsed
            return None
    reading = cache.reading(_key(path.relative_to(content_dir).as_posix(), kind, languages, digest))
    return reading if isinstance(reading, Reading) else None


def _read_new(content_dir: Path, languages: tuple[str, ...], strict: bool, item: tuple[str, Path]) -> tuple[str, Reading | None, list[Diagnostic]]:
    """A record file read and parsed, perhaps in a forked process: the key its reading is
    kept under, the reading (None when it cannot be read as YAML) and what went wrong."""
    kind, path = item
    report = Report(strict=strict, source_root=content_dir)
    relative = path.relative_to(content_dir).as_posix()
    data = read_file_bytes(path, relative, report)
    if data is None:
        return "", None, report.diagnostics
    node = parse_bytes(data, relative, report)
    reading = read_document(Document(relative, kind, node), languages) if node is not None else None
    return _key(relative, kind, languages, hashlib.sha256(data).hexdigest()), reading, report.diagnostics


def _key(relative: str, kind: str, languages: tuple[str, ...], digest: str) -> str:
    return hashlib.sha256(f"{relative}\0{kind}\0{languages}\0{digest}".encode()).hexdigest()[:32]
