"""Readings: every content file read into a Reading (validate.py), from the build cache when
the file's bytes are as they were, so that a build parses only the files that changed.

A reading is kept as JSON, keyed by a digest of the file's path, kind and bytes and of the
site's languages; an entry that does not decode is read again from its file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from .cache import BuildCache, diagnostics_from_json, diagnostics_to_json
from .diagnostics import Location, Report
from .fields import FieldValues, Reference
from .load import Document, find_content_files, parse_bytes, parse_file, read_file_bytes
from .model import SiteConfig
from .siteconfig import read_site_config
from .validate import KINDS, ParsedRecord, Reading, read_document


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
        cache.put_reading(key, reading_to_json(reading))
    return reading


def _key(relative: str, kind: str, languages: tuple[str, ...], digest: str) -> str:
    return hashlib.sha256(f"{relative}\0{kind}\0{languages}\0{digest}".encode()).hexdigest()[:32]


def _cached(cache: BuildCache, key: str) -> Reading | None:
    data = cache.reading(key)
    return reading_from_json(data) if data is not None else None


def reading_to_json(reading: Reading) -> list:
    """A reading as compact JSON: its locations are lines and columns in its own file."""
    parsed, path = reading.parsed, reading.path
    if parsed is not None:
        blocks = [[language, _values_to_json(block)] for language, block in parsed.blocks.items()]
        where = [[language, *_place(location)] for language, location in parsed.block_locations.items()]
        parsed_json = [parsed.id, _place(parsed.id_location), _values_to_json(parsed.record), blocks, where]
    references = [[r.kind, r.target, *_place(r.location)] for r in reading.references]
    spans = [[language, *span] for language, span in reading.blocks.items()]
    return [path, reading.kind, parsed_json if parsed is not None else None, diagnostics_to_json(list(reading.diagnostics)), references, spans]


def reading_from_json(data: object) -> Reading | None:
    """The reading kept in the cache, or None when it is not in the expected shape."""
    try:
        path, kind, parsed_json, diagnostics, references, blocks = data  # type: ignore[misc]
        parsed = None
        if parsed_json is not None:
            record_id, (line, column), record, block_values, where = parsed_json
            parsed = ParsedRecord(
                KINDS[kind],
                record_id,
                Location(path, line, column),
                _values_from_json(path, record),
                {language: _values_from_json(path, block) for language, block in block_values},
                {language: Location(path, line, column) for language, line, column in where},
            )
        problems = diagnostics_from_json(diagnostics)
        if problems is None:
            return None
        refs = tuple(Reference(ref_kind, target, Location(path, line, column)) for ref_kind, target, line, column in references)
        spans = {language: (int(first), int(last)) for language, first, last in blocks}
        return Reading(str(path), str(kind), parsed, tuple(problems), refs, spans)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None


def _place(location: Location) -> list:
    return [location.line, location.column]


def _values_to_json(values: FieldValues) -> dict:
    """A mapping's fields in the file's order, each with its value and place; a dict, so
    that a list of rows (each a FieldValues) is told apart from a list of texts."""
    return {"fields": [[name, _value_to_json(value), *_place(values.where[name])] for name, value in values.values.items()]}


def _value_to_json(value: object) -> object:
    if isinstance(value, FieldValues):
        return _values_to_json(value)
    if isinstance(value, tuple):
        return [_value_to_json(item) for item in value]
    return value


def _values_from_json(path: str, data: dict) -> FieldValues:
    fields = data["fields"]
    values = {name: _value_from_json(path, value) for name, value, _, _ in fields}
    return FieldValues(values, {name: Location(path, line, column) for name, _, line, column in fields})


def _value_from_json(path: str, value: object) -> object:
    """A field's value: a list was a tuple, a dict a row (FieldValues); no field reads a
    mapping of its own."""
    if isinstance(value, dict):
        return _values_from_json(path, value)
    if isinstance(value, list):
        return tuple(_value_from_json(path, item) for item in value)
    return value
