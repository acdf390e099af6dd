"""Validate: turn the located YAML nodes into frozen records, enforcing every content rule.

Each record kind is declared once, below, as a table of its fields (content/fields.py reads them).
All problems of a run are collected in the report; the caller stops once, after this phase.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace

import yaml

from studysite.content.fields import (
    ID_LENGTH_HINT,
    ID_PATTERN,
    IN_SITE_LANGUAGES,
    REQUIRED,
    Context,
    Field,
    FieldValues,
    Kind,
    Reference,
    Rows,
    Table,
    abridged,
    answer_index,
    audio_file,
    choices,
    is_too_long,
    mentions,
    number,
    read_block,
    record_id,
    term_ids,
    text,
    texts,
    topic_id,
)
from studysite.content.load import Document
from studysite.content.node_reader import NodeReader
from studysite.content.records import (
    KINDS,
    Aspect,
    Comparison,
    ComparisonText,
    Content,
    Question,
    QuestionText,
    SiteConfig,
    Term,
    TermText,
    Topic,
    TopicText,
    answer_letter,
)
from studysite.content.site_config import read_site_config
from studysite.diagnostics import Diagnostic, Location, Report, Severity, did_you_mean, plural
from studysite.languages import is_valid_language, language_problem

UNORDERED = float("inf")  # records without an 'order' follow the ordered ones, by file path
TOPIC_HINT = "name the topic this belongs to, e.g. 'topic: ai-hardware-stack'"

# The record kinds. A record has its own keys and one block per language; a required block
# field is required in every block, or (IN_SITE_LANGUAGES) only in the blocks of the site's
# languages. A field without a default must have a value for its record or text to be built.
TOPICS = Kind(
    "topics",
    "topic",
    record=Table(
        Topic,
        Field("id", record_id),
        Field("order", number, default=UNORDERED),
    ),
    block=Table(
        TopicText,
        Field("title", text, REQUIRED),
        Field("description", text, default=""),
    ),
)
QUESTIONS = Kind(
    "questions",
    "question",
    record=Table(
        Question,
        Field("id", record_id),
        Field("topic", topic_id, REQUIRED, hint=TOPIC_HINT),
        Field("order", number, default=UNORDERED),
        Field("answer", answer_index, REQUIRED, hint="give the letter of the correct choice, e.g. 'answer: A'"),
        Field("terms", term_ids(), default=()),
    ),
    block=Table(
        QuestionText,
        Field("question", text, REQUIRED),
        Field("choices", choices, IN_SITE_LANGUAGES),
        Field("explanation", text, IN_SITE_LANGUAGES, hint="explain why the answer is right; Markdown is allowed"),
        Field("audio", audio_file, default=""),
    ),
)
GLOSSARY = Kind(
    "glossary",
    "term",
    record=Table(
        Term,
        Field("id", record_id),
        Field("related", term_ids(), default=()),
    ),
    block=Table(
        TermText,
        Field("term", text, REQUIRED),
        Field("aliases", texts, default=()),
        Field("definition", text, IN_SITE_LANGUAGES, default="", hint="define the term; Markdown is allowed"),
        Field("audio", audio_file, default=""),
    ),
)
ASPECT_ROW = Table(
    Aspect,
    Field("label", text, REQUIRED),
    Field("values", texts, REQUIRED),
)
COMPARISONS = Kind(
    "comparisons",
    "comparison",
    record=Table(
        Comparison,
        Field("id", record_id),
        Field("topic", topic_id, REQUIRED, hint=TOPIC_HINT),
        Field("terms", term_ids(at_least=2), REQUIRED, hint="list the compared term ids, e.g. 'terms: [gpu, tpu]'"),
    ),
    block=Table(
        ComparisonText,
        Field("title", text, REQUIRED),
        Field("aspects", Rows(ASPECT_ROW, "an aspect", "each row is '- label: ...' with 'values: [...]'"), IN_SITE_LANGUAGES),
        Field("summary", text, default=""),
    ),
)
SCHEMAS = {kind.folder: kind for kind in (TOPICS, QUESTIONS, GLOSSARY, COMPARISONS)}  # each of the record kinds (model.KINDS)
assert tuple(SCHEMAS) == KINDS, "a schema for each kind of record, in their order"


@dataclass
class ParsedRecord:
    """What one record file yields before the cross-file checks."""

    kind: Kind
    id: str
    id_location: Location
    record: FieldValues
    blocks: dict[str, FieldValues]  # by language
    block_locations: dict[str, Location]  # where each language block's key is


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
    site = read_site_config(site_docs[0], report, base_url_override) if site_docs else None
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


def validate_record(document: Document, report: Report, languages: tuple[str, ...], supplied: frozenset = frozenset()):
    """The record of one content file, by every rule that needs no other file, or None. For
    a file whose references did not change (serve/quick_edit.py checks that): they are not checked."""
    validator = _RecordValidator(report, languages, supplied)
    parsed = validator.record(document)
    if parsed is None:
        return None
    return _build(parsed) if validator.check(parsed) else None


class _RecordValidator:
    def __init__(self, report: Report, languages: tuple[str, ...], supplied: frozenset = frozenset()):
        self.report = report
        self.languages = languages
        self.supplied = supplied
        self.references: list[Reference] = []

    def record(self, document: Document) -> ParsedRecord | None:
        kind = SCHEMAS[document.kind]
        reader = NodeReader(document.path, self.report)
        context = Context(reader, kind.noun, self.references)
        entries = reader.mapping(document.node, f"a {kind.noun} record")
        if entries is None:
            return None
        record, blocks, block_locations = FieldValues(), {}, {}
        for key, key_node, value_node in entries:
            field = kind.record.field(key)
            if field is not None:
                record.read(context, field, value_node)
            elif not isinstance(value_node, yaml.MappingNode):
                self._not_a_block(reader, kind, key, key_node, value_node)
            elif self._is_language(reader, kind, key, key_node):
                blocks[key] = self._language_block(replace(context, language=key), kind, value_node)
                block_locations[key] = reader.where(key_node)
        for field in kind.record.fields:
            if field.need is REQUIRED and field.name not in record.values and not mentions(document.node, field.name):
                reader.error(document.node, "field.missing", f"the {kind.noun} has no '{field.name}'", field.hint)
        record_id, id_location = self._record_id(document, record)
        if record_id is None:
            return None
        if not blocks:
            hint = f"add a block per language, such as '{(self.languages or ('nl',))[0]}:'"
            reader.error(document.node, "translation.none", f"the {kind.noun} has no language block", hint)
            return None
        return ParsedRecord(kind, record_id, id_location, record, blocks, block_locations)

    def _not_a_block(self, reader: NodeReader, kind: Kind, key: str, key_node: yaml.Node, value_node: yaml.Node) -> None:
        """A key that is no field and holds no mapping: a language block left empty or
        written as a list or text, else a key the record does not know."""
        if key in self.languages or (is_valid_language(key) and key not in kind.record.names and not did_you_mean(key, kind.record.names)):
            first = ", ".join(kind.block.names[:2])
            reader.error(
                value_node, "type.mapping", f"the '{key}' block is not a mapping of keys to texts", f"write its keys indented under '{key}:', such as {first}"
            )
            return
        self._unknown_key(reader, kind, key, key_node)

    def _unknown_key(self, reader: NodeReader, kind: Kind, key: str, key_node: yaml.Node) -> None:
        hint = did_you_mean(key, kind.record.names)
        if key in kind.block.names:
            hint = f"'{key}' belongs inside a language block such as '{(self.languages or ('nl',))[0]}:'"
        reader.error(key_node, "key.unknown", f"unknown key '{key}'", hint or f"a {kind.noun} takes {', '.join(kind.record.names)} and language blocks")

    def _is_language(self, reader: NodeReader, kind: Kind, key: str, key_node: yaml.Node) -> bool:
        problem = language_problem(key)
        if problem is None:
            return True
        message, canonical = problem
        hint = (f"write '{canonical}:'" if canonical else did_you_mean(key, self.languages)) or (
            f"language blocks are keyed by a code such as 'nl', 'fr' or 'pt-BR'; record keys are {', '.join(kind.record.names)}"
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

    def _language_block(self, context: Context, kind: Kind, node: yaml.Node) -> FieldValues:
        block = read_block(context, node, kind.block)
        needs = (REQUIRED, IN_SITE_LANGUAGES) if context.language in self.languages else (REQUIRED,)
        for field in kind.block.fields:
            if field.need in needs and field.name not in block.values and not mentions(node, field.name):
                context.reader.error(node, "field.missing", f"the '{context.language}' block has no '{field.name}'", field.hint)
        return block

    def link(self, parsed: list[ParsedRecord]) -> dict[str, dict]:
        """Cross-file rules: unique ids, references, translations; then the frozen records,
        by content folder."""
        by_kind: dict[str, dict[str, ParsedRecord]] = {folder: {} for folder in SCHEMAS}
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
                noun = SCHEMAS[reference.kind].noun
                hint = did_you_mean(reference.target, known) or f"{noun}s are the files in {reference.kind}/"
                self.report.error(reference.location, f"ref.unknown-{noun}", f"unknown {noun} '{reference.target}'", hint)
        _check_term_names(by_kind["glossary"].values(), self.report)
        unbuildable = {id(item) for item in parsed if not self.check(item)}
        return {folder: {i: r for i, p in items.items() if id(p) not in unbuildable for r in [_build(p)] if r is not None} for folder, items in by_kind.items()}

    def check(self, item: ParsedRecord) -> bool:
        """The rules of a record that need no other file; False when the record cannot be
        built. The parsed record is left as it is (the build cache keeps it)."""
        self._check_translations(item)
        if item.kind is QUESTIONS:
            return self._check_choices(item)
        if item.kind is COMPARISONS:
            self._check_aspects(item)
        return True

    def _check_translations(self, item: ParsedRecord) -> None:
        for language in self.languages:
            if language not in item.blocks and (item.kind.folder, item.id, language) not in self.supplied:
                last_block = list(item.block_locations.values())[-1]
                self.report.warning(
                    last_block, "translation.missing", f"{item.kind.noun} '{item.id}' has no '{language}' text", f"add a block '{language}:' like this one"
                )

    def _check_choices(self, item: ParsedRecord) -> bool:
        """Whether the question can be built: its answer is one of its choices."""
        counts = {lang: len(b.values["choices"]) for lang, b in item.blocks.items() if "choices" in b.values}
        if not counts:
            return True
        reference_language = next((lang for lang in self.languages if lang in counts), next(iter(counts)))
        expected = counts[reference_language]
        for language, count in counts.items():
            if count != expected:
                self.report.error(
                    item.blocks[language].where["choices"],
                    "choices.mismatch",
                    f"the '{language}' block has {count} choices but the '{reference_language}' block has {expected}",
                    "every language lists the same choices in the same order",
                )
        answer = item.record.values.get("answer")
        fewest = min(counts.values())
        if answer is not None and answer >= fewest:
            message = f"answer '{answer_letter(answer)}' is outside the {fewest} choices (A-{answer_letter(fewest - 1)})"
            self.report.error(item.record.where["answer"], "value.answer", message)
            return False
        return True

    def _check_aspects(self, item: ParsedRecord) -> None:
        columns = len(item.record.values.get("terms", ()))
        for block in item.blocks.values():
            for row in block.values.get("aspects", ()):
                label, values = row.values["label"], row.values["values"]
                if columns and len(values) != columns:
                    self.report.error(
                        row.where["values"],
                        "value.count",
                        f"aspect '{label}' has {plural(len(values), 'value')} for {plural(columns, 'term')}",
                        "give one value per term, in the order of 'terms'",
                    )


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
    by_language = {language: t for language, block in item.blocks.items() for t in [item.kind.block.build(block.values)] if t is not None}
    return item.kind.record.build(item.record.values, id=item.id, location=item.id_location, texts=by_language)
