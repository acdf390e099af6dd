"""Validate: turn the located YAML nodes into frozen records, enforcing every content rule.

Every kind of record and question type is declared once, in content/schema.py; this module
reads records against those declarations. There is one way to read a record file:
read_record, a function of its path, kind and bytes and of the site's languages alone, which
a cold build, the build cache (incremental/readings.py) and serve's quick edits all call.
The rules that need other files (unique ids, references, term names) follow in content_of.
All problems of a run are collected in the report; the caller stops once, after this phase.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace

import yaml

from studysite import urls
from studysite.content.fields import (
    IN_SITE_LANGUAGES,
    REQUIRED,
    Context,
    FieldValues,
    Kind,
    ParsedRecord,
    Reference,
    Table,
    mentions,
    read_block,
)
from studysite.content.load import Document, parse_bytes
from studysite.content.node_reader import NodeReader
from studysite.content.readers import ID_LENGTH_HINT, ID_PATTERN, abridged, is_too_long
from studysite.content.records import KINDS, Content, SiteConfig
from studysite.content.schema import KIND_OF_FOLDER, SITE
from studysite.diagnostics import Diagnostic, Location, Report, Severity, did_you_mean
from studysite.languages import is_valid_language, language_problem

assert tuple(KIND_OF_FOLDER) == KINDS, "a schema for each kind of record, in their order"


@dataclass(frozen=True)
class Reading:
    """What reading one record file gave, before the cross-file checks: its parsed record
    (None when unusable), its problems, its references to other records, and the lines of
    each language block (i18n/status.py). It depends on nothing but the file and the site's
    languages, so the build cache keeps it by the file's bytes (incremental/readings.py)."""

    path: str
    kind: str
    parsed: ParsedRecord | None
    diagnostics: tuple[Diagnostic, ...]
    references: tuple[Reference, ...]
    blocks: Mapping[str, tuple[int, int]]


def read_record(path: str, kind: str, data: bytes, languages: tuple[str, ...]) -> Reading:
    """A record file read: its bytes parsed as YAML and read against its kind's schema."""
    report = Report()
    node = parse_bytes(data, path, report)
    if node is None:
        return Reading(path, kind, None, tuple(report.diagnostics), (), {})
    reading = read_document(Document(path, kind, node), languages)
    return replace(reading, diagnostics=(*report.diagnostics, *reading.diagnostics))


def read_document(document: Document, languages: tuple[str, ...]) -> Reading:
    report = Report()  # its problems are told again, with their source lines, by content_of()
    validator = _RecordValidator(report, languages)
    parsed = validator.record(document)
    return Reading(document.path, document.kind, parsed, tuple(report.diagnostics), tuple(validator.references), language_blocks(document.node))


def language_blocks(node: yaml.Node) -> dict[str, tuple[int, int]]:
    """Language -> (first line, last line), 1-based, of each language block of a record."""
    blocks = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(value, yaml.MappingNode) and isinstance(key, yaml.ScalarNode):
                blocks[key.value] = (key.start_mark.line + 1, max(value.end_mark.line, key.start_mark.line + 1))
    return blocks


def validate_content(documents: list[Document], report: Report, base_url_override: str = "", supplied: frozenset = frozenset()) -> Content | None:
    """Records from documents; None when the site configuration itself is unusable. A record
    missing a language is not warned about when `supplied` holds its (kind, id, language):
    content.po translates it (i18n/content_po.py checks that translation)."""
    site_docs = [d for d in documents if d.kind == "site"]
    site = read_site(site_docs[0], report, base_url_override) if site_docs else None
    languages = site.languages if site else ()
    return content_of(site, [read_document(d, languages) for d in documents if d.kind != "site"], report, supplied)


def content_of(site: SiteConfig | None, readings: list[Reading], report: Report, supplied: frozenset = frozenset()) -> Content | None:
    """The content of the site from the readings of its record files, once the cross-file
    rules hold; their problems go to the report."""
    validator = _RecordValidator(report, site.languages if site else (), supplied)
    parsed = []
    for reading in readings:
        for d in reading.diagnostics:
            (report.error if d.severity is Severity.ERROR else report.warning)(d.location, d.code, d.message, d.hint)
        validator.references.extend(reading.references)
        if reading.parsed is not None:
            parsed.append(reading.parsed)
    records = validator.link(parsed)
    if site is None:
        return None
    return Content.of_kinds(site, records)


def record_alone(reading: Reading, report: Report, languages: tuple[str, ...], supplied: frozenset = frozenset()):
    """The record of a reading, by every rule that needs no other file, or None; its problems
    go to the report. For a file whose references did not change (serve/quick_edit.py checks that)."""
    for d in reading.diagnostics:
        (report.error if d.severity is Severity.ERROR else report.warning)(d.location, d.code, d.message, d.hint)
    if reading.parsed is None or report.errors:
        return None
    return _build(reading.parsed) if _RecordValidator(report, languages, supplied).check(reading.parsed) else None


# -- site.yaml ---------------------------------------------------------------------------


def read_site(document: Document, report: Report, base_url_override: str = "") -> SiteConfig | None:
    """site.yaml read against the schema's SITE; None when it names no usable language."""
    reader = NodeReader(document.path, report)
    context = Context(reader, SITE.noun, [])
    entries = reader.mapping(document.node, "site.yaml")
    if entries is None:
        return None
    values, texts, blocks = FieldValues(), {}, set()
    for key, key_node, value_node in entries:
        field = SITE.record.field(key)
        if field is not None:
            values.read(context, field, value_node)
        elif not isinstance(value_node, yaml.MappingNode):
            reader.error(key_node, "key.unknown", f"unknown key '{key}' in site.yaml", did_you_mean(key, SITE.record.names))
        elif problem := language_problem(key):
            message, canonical = problem
            reader.error(key_node, "language.invalid", message, did_you_mean(key, SITE.record.names) or (f"write '{canonical}'" if canonical else ""))
        else:
            blocks.add(key)
            text = _site_text(replace(context, language=key), key, value_node, SITE.block)
            if text is not None:
                texts[key] = text
    languages = values.values.get("languages")
    if not languages:
        if "languages" not in values.values and not mentions(document.node, "languages"):
            reader.error(document.node, "field.missing", "site.yaml has no 'languages'", SITE.record.field("languages").hint)
        return None
    _check_titles(reader, document, languages, blocks)
    base_url = urls.normalize_base_url(base_url_override or values.values.get("base_url") or "/")
    return SITE.record.build(values.values, base_url=base_url, texts=texts)


def _site_text(context: Context, language: str, node: yaml.Node, table: Table):
    """A language's block of site.yaml: its title (required) and its short title, which must
    be shorter (one no shorter would not help)."""
    block = read_block(context, node, table)
    reader = context.reader
    if "title" not in block.values:
        if not mentions(node, "title"):  # set, but not a text: reported already
            reader.error(node, "field.missing", f"the '{language}' block of site.yaml has no 'title'", f"add 'title: ...' to the '{language}' block")
        return None
    short, title = block.values.get("short_title", ""), block.values["title"]
    if short and len(short) >= len(title):
        reader.report.error(block.where["short_title"], "value.long", f"short_title '{short}' is not shorter than the title '{title}'", "shorten it, or leave it out")
        block.values.pop("short_title")
    return table.build(block.values)


def _check_titles(reader: NodeReader, document: Document, languages: tuple[str, ...], blocks: set[str]) -> None:
    """A language without a block has no title. For the default language that is an error:
    its title is every page's title, and the other languages' when they have none. For
    another language it is a warning: its pages show the default language's title."""
    default = languages[0]
    if default not in blocks:
        reader.error(
            _listed(document, default),
            "field.missing",
            f"the default language '{default}' has no title in site.yaml",
            f"add a block '{default}: {{title: ...}}' to site.yaml: every page's title comes from the default language's",
        )
    for code in languages[1:]:
        if code not in blocks:
            reader.report.warning(reader.where(document.node), "translation.missing", f"site.yaml has no '{code}' title", f"add '{code}: {{title: ...}}'")


def _listed(document: Document, code: str) -> yaml.Node:
    """Where the 'languages' list names a language: the list's item, else the whole file."""
    lists = [value for key, value in document.node.value if getattr(key, "value", None) == "languages" and isinstance(value, yaml.SequenceNode)]
    return next((item for item in (lists[0].value if lists else ()) if getattr(item, "value", None) == code), document.node)


# -- records -----------------------------------------------------------------------------


class _RecordValidator:
    def __init__(self, report: Report, languages: tuple[str, ...], supplied: frozenset = frozenset()):
        self.report = report
        self.languages = languages
        self.supplied = supplied
        self.references: list[Reference] = []

    def record(self, document: Document) -> ParsedRecord | None:
        kind = KIND_OF_FOLDER[document.kind]
        reader = NodeReader(document.path, self.report)
        context = Context(reader, kind.noun, self.references)
        entries = reader.mapping(document.node, f"a {kind.noun} record")
        if entries is None:
            return None
        variant = self._variant(context, kind, entries)
        if variant is None:
            return None
        tables = kind.variant(variant)
        record, blocks, block_locations = FieldValues(), {}, {}
        for key, key_node, value_node in entries:
            field = tables.record.field(key)
            if field is not None:
                record.read(context, field, value_node)
            elif not isinstance(value_node, yaml.MappingNode):
                self._not_a_block(reader, kind, variant, key, key_node, value_node)
            elif self._is_language(reader, kind, variant, key, key_node):
                blocks[key] = self._language_block(replace(context, language=key), kind, variant, value_node)
                block_locations[key] = reader.where(key_node)
        for field in tables.record.fields:
            if field.need is REQUIRED and field.name not in record.values and not mentions(document.node, field.name):
                reader.error(document.node, "field.missing", f"the {kind.noun} has no '{field.name}'", field.hint)
        record_id, id_location = self._record_id(document, record)
        if record_id is None:
            return None
        if not blocks:
            hint = f"add a block per language, such as '{(self.languages or ('nl',))[0]}:'"
            reader.error(document.node, "translation.none", f"the {kind.noun} has no language block", hint)
            return None
        return ParsedRecord(kind, variant, record_id, id_location, record, blocks, block_locations)

    def _variant(self, context: Context, kind: Kind, entries: list) -> str | None:
        """The type a record names (its kind's default when it names none); None when the
        type it names is unknown (reported)."""
        if not kind.variant_key:
            return kind.default_variant
        for key, _, value_node in entries:
            if key == kind.variant_key:
                return kind.record.field(key).shape.read(context, value_node, key)
        return kind.default_variant

    def _not_a_block(self, reader: NodeReader, kind: Kind, variant: str, key: str, key_node: yaml.Node, value_node: yaml.Node) -> None:
        """A key that is no field and holds no mapping: a language block left empty or
        written as a list or text, else a key the record does not know."""
        tables = kind.variant(variant)
        if key in self.languages or (is_valid_language(key) and key not in _all_record_names(kind) and not did_you_mean(key, tables.record.names)):
            first = ", ".join(tables.block.names[:2])
            reader.error(
                value_node, "type.mapping", f"the '{key}' block is not a mapping of keys to texts", f"write its keys indented under '{key}:', such as {first}"
            )
            return
        self._unknown_key(reader, kind, variant, key, key_node)

    def _unknown_key(self, reader: NodeReader, kind: Kind, variant: str, key: str, key_node: yaml.Node) -> None:
        tables = kind.variant(variant)
        hint = did_you_mean(key, tables.record.names)
        elsewhere = [name for name, other in kind.variants.items() if other.record.field(key) is not None]
        if key in tables.block.names:
            hint = f"'{key}' belongs inside a language block such as '{(self.languages or ('nl',))[0]}:'"
        elif elsewhere:
            hint = f"'{key}' belongs to {kind.noun}s of type {' or '.join(elsewhere)}; this one is of type {variant}"
        reader.error(key_node, "key.unknown", f"unknown key '{key}'", hint or f"a {kind.noun} takes {', '.join(tables.record.names)} and language blocks")

    def _is_language(self, reader: NodeReader, kind: Kind, variant: str, key: str, key_node: yaml.Node) -> bool:
        problem = language_problem(key)
        if problem is None:
            return True
        message, canonical = problem
        hint = (f"write '{canonical}:'" if canonical else did_you_mean(key, self.languages)) or (
            f"language blocks are keyed by a code such as 'nl', 'fr' or 'pt-BR'; record keys are {', '.join(kind.variant(variant).record.names)}"
        )
        reader.error(key_node, "language.invalid", message, hint)
        return False

    def _record_id(self, document: Document, record: FieldValues) -> tuple[str | None, Location]:
        if "id" in record.values:
            return record.values["id"], record.where["id"]
        location = Location(document.path, 1, 1)
        if mentions(document.node, "id"):  # set, but invalid: reported already
            return None, location
        return self._file_name_id(location, document.path.rsplit("/", 1)[-1].removesuffix(".yaml")), location

    def _file_name_id(self, location: Location, stem: str) -> str | None:
        """The id a record without 'id:' takes from its file name, or None when the name
        cannot be one: not a slug, or too long to name the folders of its pages."""
        if not ID_PATTERN.fullmatch(stem):
            suggestion = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "my-record"
            self.report.error(
                location,
                "id.invalid",
                f"the file name '{stem}' is not a valid id (lowercase letters, digits and '-')",
                f"rename the file to '{suggestion}.yaml' or set 'id: {suggestion}'",
            )
            return None
        if is_too_long(stem):
            message = f"the file name '{abridged(stem)}' is too long for an id ({len(stem)} characters)"
            self.report.error(location, "id.invalid", message, f"rename the file or set a shorter 'id:'; {ID_LENGTH_HINT}")
            return None
        return stem

    def _language_block(self, context: Context, kind: Kind, variant: str, node: yaml.Node) -> FieldValues:
        table = kind.variant(variant).block
        block = read_block(context, node, table)
        needs = (REQUIRED, IN_SITE_LANGUAGES) if context.language in self.languages else (REQUIRED,)
        for field in table.fields:
            if field.need in needs and field.name not in block.values and not mentions(node, field.name):
                context.reader.error(node, "field.missing", f"the '{context.language}' block has no '{field.name}'", field.hint)
        return block

    def link(self, parsed: list[ParsedRecord]) -> dict[str, dict]:
        """Cross-file rules: unique ids, references, translations; then the frozen records,
        by content folder."""
        by_kind: dict[str, dict[str, ParsedRecord]] = {folder: {} for folder in KIND_OF_FOLDER}
        for item in parsed:
            existing = by_kind[item.kind.folder].get(item.id)
            if existing:
                self.report.error(
                    item.id_location,
                    "id.duplicate",
                    f"duplicate {item.kind.noun} id '{item.id}': also defined in {existing.id_location.path}",
                    f"ids are unique per kind; rename one of {existing.id_location.path} and {item.id_location.path}",
                )
                continue
            by_kind[item.kind.folder][item.id] = item
        for reference in self.references:
            known = by_kind[reference.kind]
            if reference.target not in known:
                noun = KIND_OF_FOLDER[reference.kind].noun
                hint = did_you_mean(reference.target, known) or f"{noun}s are the files in {reference.kind}/"
                self.report.error(reference.location, f"ref.unknown-{noun}", f"unknown {noun} '{reference.target}'", hint)
        _check_term_names(by_kind["glossary"].values(), self.report)
        unbuildable = {id(item) for item in parsed if not self.check(item)}
        return {folder: {i: r for i, p in items.items() if id(p) not in unbuildable for r in [_build(p)] if r is not None} for folder, items in by_kind.items()}

    def check(self, item: ParsedRecord) -> bool:
        """The rules of a record that need no other file; False when the record cannot be
        built. The parsed record is left as it is (the build cache keeps it)."""
        self._check_translations(item)
        for field in item.tables.block.fields:
            if field.same_count:
                self._check_count(item, field.name)
        of_type, of_kind = item.tables.check(item, self.report), item.kind.check(item, self.report)  # both told, whatever the first says
        return of_type and of_kind

    def _check_translations(self, item: ParsedRecord) -> None:
        for language in self.languages:
            if language not in item.blocks and (item.kind.folder, item.id, language) not in self.supplied:
                last_block = list(item.block_locations.values())[-1]
                self.report.warning(
                    last_block, "translation.missing", f"{item.kind.noun} '{item.id}' has no '{language}' text", f"add a block '{language}:' like this one"
                )

    def _check_count(self, item: ParsedRecord, name: str) -> None:
        """A list that every language must have as many items of (choices, items, pairs):
        each block that differs from the first site language's is an error at its list."""
        counts = item.counts(name)
        if not counts:
            return
        reference = next((lang for lang in self.languages if lang in counts), next(iter(counts)))
        expected = counts[reference][0]
        for language, (count, where) in counts.items():
            if count != expected:
                hint = f"every language lists the same {name} in the same order"
                if count > expected and name in item.blocks[language].split:
                    hint = item.blocks[language].split[name]
                message = f"the '{language}' block has {count} {name} but the '{reference}' block has {expected}"
                self.report.error(where, f"{name}.mismatch" if name == "choices" else "value.count", message, hint)


def _all_record_names(kind: Kind) -> set[str]:
    return {name for variant in kind.variants.values() for name in variant.record.names}


def _check_term_names(terms, report: Report) -> None:
    """A warning for each name or alias that another term has in the same language (case
    and Unicode normalisation aside): a text naming it is linked to one of them only."""
    seen: dict[tuple[str, str], tuple[ParsedRecord, str, Location]] = {}
    for item in terms:
        for language, block in item.blocks.items():
            names = [("name", block.values.get("term"), block.where.get("term"))]
            names += [("alias", alias, block.where.get("aliases")) for alias in block.values.get("aliases", ())]
            for what, name, where in names:
                if not isinstance(name, str) or where is None:
                    continue
                key = (language, unicodedata.normalize("NFC", " ".join(name.split())).casefold())
                first = seen.setdefault(key, (item, what, where))
                if first[0] is not item:
                    report.warning(
                        where,
                        "term.duplicate-name",
                        f"the '{language}' {what} '{name}' of term '{item.id}' is also the {first[1]} of term '{first[0].id}' ({first[2]})",
                        f"rename one of them in {where.path} or {first[2].path}, or merge the two terms: a text naming '{name}' is linked to one of them only",
                    )


def _build(item: ParsedRecord):
    """The frozen record, with a text per language block that has what the text needs; None
    when the record lacks a field it needs (reported already)."""
    tables = item.tables
    by_language = {language: t for language, block in item.blocks.items() for t in [tables.block.build(block.values)] if t is not None}
    return tables.record.build(item.record.values, id=item.id, location=item.id_location, texts=by_language)
