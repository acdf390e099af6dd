"""Readings: every content file read into a Reading (validate.py), from the build cache when
the file's bytes are as they were, so that a build parses only the files that changed.

A reading is kept as it is, keyed by a digest of the file's path, kind and bytes and of
the site's languages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from .cache import BuildCache
from .diagnostics import Report
from .load import Document, find_content_files, parse_bytes, parse_file, read_file_bytes
from .model import SiteConfig
from .siteconfig import read_site_config
from .validate import Reading, read_document


def read_content(
    content_dir: Path, report: Report, base_url_override: str = "", cache: BuildCache | None = None, digests: Mapping[Path, str] | None = None
) -> tuple[SiteConfig | None, list[Reading]]:
    """The site's configuration and a reading of each record file, in content order.
    digests: the sha256 of files read already, by content_dir / relative path."""
    report.source_root = content_dir
    files = find_content_files(content_dir, report)
    site_files = [path for kind, path in files if kind == "site"]
    site_node = parse_file(site_files[0], site_files[0].name, report) if site_files else None
    site = read_site_config(Document(site_files[0].name, "site", site_node), report, base_url_override) if site_node is not None else None
    languages = site.languages if site else ()
    readings = []
    for kind, path in files:
        if kind != "site":
            reading = read_file(content_dir, kind, path, languages, report, cache, (digests or {}).get(path))
            if reading is not None:
                readings.append(reading)
    return site, readings


def read_file(
    content_dir: Path, kind: str, path: Path, languages: tuple[str, ...], report: Report, cache: BuildCache | None, digest: str | None = None
) -> Reading | None:
    """The reading of one record file; None, reported, when it cannot be read as YAML. With
    the digest of its bytes, a file whose reading the cache has is not read at all."""
    relative = path.relative_to(content_dir).as_posix()
    if digest is not None and cache is not None:
        reading = _cached(cache, _key(relative, kind, languages, digest))
        if reading is not None:
            return reading
    data = read_file_bytes(path, relative, report)
    if data is None:
        return None
    key = _key(relative, kind, languages, hashlib.sha256(data).hexdigest())
    reading = _cached(cache, key) if cache is not None else None
    if reading is not None:
        return reading
    node = parse_bytes(data, relative, report)
    if node is None:
        return None
    reading = read_document(Document(relative, kind, node), languages)
    if cache is not None:
        cache.put_reading(key, reading)
    return reading


def _key(relative: str, kind: str, languages: tuple[str, ...], digest: str) -> str:
    return hashlib.sha256(f"{relative}\0{kind}\0{languages}\0{digest}".encode()).hexdigest()[:32]


def _cached(cache: BuildCache, key: str) -> Reading | None:
    reading = cache.reading(key)
    return reading if isinstance(reading, Reading) else None
