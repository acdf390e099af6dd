"""Validate: turn the located YAML nodes into frozen records, enforcing every content rule.

All problems of a run are collected in the report; the caller stops once, after this phase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from .diagnostics import Location, Report, did_you_mean, plural
from .i18n import is_valid_language
from .load import Document
from .model import (
    Aspect,
    Comparison,
    ComparisonText,
    Content,
    Question,
    QuestionText,
    Term,
    TermText,
    Topic,
    TopicText,
    answer_letter,
)
from .nodes import NodeReader, locate
from .siteconfig import read_site_config

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MIN_CHOICES, MAX_CHOICES = 2, 6

# Per kind: the keys of the record itself, the keys of a language block, and which of
# those a block in a site language must have. The first block key names the record.
RECORD_KEYS = {
    "topics": ("id", "order"),
    "questions": ("id", "topic", "order", "answer", "terms"),
    "glossary": ("id", "related"),
    "comparisons": ("id", "topic", "terms"),
}
BLOCK_KEYS = {
    "topics": ("title", "description"),
    "questions": ("question", "choices", "explanation"),
    "glossary": ("term", "aliases", "definition"),
    "comparisons": ("title", "aspects", "summary"),
}
REQUIRED_IN_SITE_LANGUAGE = {
    "topics": ("title",),
    "questions": ("question", "choices", "explanation"),
    "glossary": ("term", "definition"),
    "comparisons": ("title", "aspects"),
}
REQUIRED_RECORD_KEYS = {"questions": ("topic", "answer"), "comparisons": ("topic", "terms")}
NOUNS = {"topics": "topic", "questions": "question", "glossary": "term", "comparisons": "comparison"}


@dataclass(frozen=True)
class Reference:
    """A pointer from one record to another, checked once every record is known."""

    kind: str  # "topics" or "glossary"
    target: str
    location: Location


@dataclass
class _Parsed:
    """What one record file yields before the cross-file checks."""

    kind: str
    id: str
    id_location: Location
    fields: dict
    blocks: dict  # language -> dict of block fields
    block_locations: dict  # language -> Location


def validate_content(documents: list[Document], report: Report, base_url_override: str = "", supplied: frozenset = frozenset()) -> Content | None:
    """Records from documents; None when the site configuration itself is unusable. A record
    missing a language is not warned about when `supplied` holds its (kind, id, language):
    content.po translates it (contentpo.py checks that translation)."""
    site_docs = [d for d in documents if d.kind == "site"]
    site = read_site_config(site_docs[0], report, base_url_override) if site_docs else None
    languages = site.languages if site else ()
    validator = _RecordValidator(report, languages, supplied)
    parsed = [p for d in documents if d.kind != "site" for p in [validator.record(d)] if p]
    records = validator.link(parsed)
    if site is None:
        return None
    return Content(site=site, **records)


class _RecordValidator:
    def __init__(self, report: Report, languages: tuple[str, ...], supplied: frozenset = frozenset()):
        self.report = report
        self.languages = languages
        self.supplied = supplied
        self.references: list[Reference] = []

    def record(self, document: Document) -> _Parsed | None:
        kind = document.kind
        reader = NodeReader(document.path, self.report)
        entries = reader.mapping(document.node, f"a {NOUNS[kind]} record")
        if entries is None:
            return None
        fields: dict = {}
        blocks: dict = {}
        block_locations: dict = {}
        record_keys, block_keys = RECORD_KEYS[kind], BLOCK_KEYS[kind]
        for key, key_node, value_node in entries:
            if key in record_keys:
                value = self._record_field(reader, kind, key, value_node)
                if value is not None:
                    fields[key] = value
                    fields["@" + key] = reader.where(value_node)
            elif isinstance(value_node, yaml.MappingNode):
                if not is_valid_language(key):
                    hint = (
                        did_you_mean(key, self.languages)
                        or f"language blocks are keyed by a code such as 'nl', 'fr' or 'pt-BR'; record keys are {', '.join(record_keys)}"
                    )
                    reader.error(key_node, "language.invalid", f"'{key}' is not a valid language code", hint)
                    continue
                blocks[key] = self._language_block(reader, kind, key, value_node)
                block_locations[key] = reader.where(key_node)
            else:
                hint = did_you_mean(key, record_keys)
                if key in block_keys:
                    hint = f"'{key}' belongs inside a language block such as '{(self.languages or ('nl',))[0]}:'"
                reader.error(key_node, "key.unknown", f"unknown key '{key}'", hint or f"a {NOUNS[kind]} takes {', '.join(record_keys)} and language blocks")
        for key in REQUIRED_RECORD_KEYS.get(kind, ()):
            if key not in fields and not any(k == key for k, _, _ in entries):
                reader.error(document.node, "field.missing", f"the {NOUNS[kind]} has no '{key}'", _missing_hint(kind, key))
        record_id, id_location = self._record_id(reader, document, fields)
        if record_id is None:
            return None
        if not blocks:
            reader.error(
                document.node,
                "translation.none",
                f"the {NOUNS[kind]} has no language block",
                f"add a block per language, such as '{(self.languages or ('nl',))[0]}:'",
            )
            return None
        return _Parsed(kind, record_id, id_location, fields, blocks, block_locations)

    def _record_id(self, reader: NodeReader, document: Document, fields: dict) -> tuple[str | None, Location]:
        if "id" in fields:
            return fields["id"], fields["@id"]
        if _mentions(document.node, "id"):  # set, but invalid: reported already
            return None, Location(document.path, 1, 1)
        stem = document.path.rsplit("/", 1)[-1].removesuffix(".yaml")
        location = Location(document.path, 1, 1)
        if not ID_PATTERN.fullmatch(stem):
            suggestion = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "my-record"
            self.report.error(
                location,
                "id.invalid",
                f"the file name '{stem}' is not a valid id (lowercase letters, digits and '-')",
                f"rename the file to '{suggestion}.yaml' or set 'id: {suggestion}'",
            )
            return None, location
        return stem, location

    def _record_field(self, reader: NodeReader, kind: str, key: str, node: yaml.Node):
        if key == "id":
            value = reader.text(node, key)
            if value is not None and not ID_PATTERN.fullmatch(value):
                reader.error(node, "id.invalid", f"'{value}' is not a valid id", "ids use lowercase ASCII letters, digits and '-'")
                return None
            return value
        if key == "order":
            return reader.number(node, key)
        if key == "answer":
            value = reader.text(node, key)
            if value is not None and not re.fullmatch(r"[A-Za-z]", value):
                reader.error(node, "value.answer", f"'answer' must be one letter such as A, not '{value}'")
                return None
            return value.upper() if value else None
        if key == "topic":
            value = reader.text(node, key)
            if value is not None:
                self.references.append(Reference("topics", value, reader.where(node)))
            return value
        # terms, related: lists of term ids
        items = reader.text_list(node, key)
        if items is None:
            return None
        minimum = 2 if kind == "comparisons" else 0
        if len(items) < minimum:
            reader.error(node, "value.count", f"a comparison needs at least {minimum} terms, not {len(items)}")
        for value, item in items:
            self.references.append(Reference("glossary", value, reader.where(item)))
        return tuple(value for value, _ in items)

    def _language_block(self, reader: NodeReader, kind: str, language: str, node: yaml.Node) -> dict:
        readers = {
            "choices": lambda n, k: self._choices(reader, n),
            "aliases": lambda n, k: _texts(reader, n, k),
            "aspects": lambda n, k: self._aspects(reader, n, language),
        }
        block = reader.block(node, language, BLOCK_KEYS[kind], readers)
        is_site_language = language in self.languages
        required = REQUIRED_IN_SITE_LANGUAGE[kind] if is_site_language else BLOCK_KEYS[kind][:1]
        for key in required:
            if key not in block and not _mentions(node, key):
                reader.error(node, "field.missing", f"the '{language}' block has no '{key}'", _missing_hint(kind, key))
        return block

    def _choices(self, reader: NodeReader, node: yaml.Node):
        items = reader.text_list(node, "choices")
        if items is None:
            return None
        if not MIN_CHOICES <= len(items) <= MAX_CHOICES:
            reader.error(node, "value.count", f"a question has {MIN_CHOICES} to {MAX_CHOICES} choices, not {len(items)}")
            return None
        return tuple(value for value, _ in items)

    def _aspects(self, reader: NodeReader, node: yaml.Node, language: str):
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            reader.error(node, "type.list", "'aspects' must be a non-empty list of rows", "each row is '- label: ...' with 'values: [...]'")
            return None
        aspects = []
        for item in node.value:
            row = reader.block(item, language, ("label", "values"), {"values": lambda n, k: _texts(reader, n, k)})
            if "label" not in row or "values" not in row:
                missing = "label" if "label" not in row else "values"
                if not _mentions(item, missing):
                    reader.error(item, "field.missing", f"an aspect has no '{missing}'")
                continue
            aspects.append((Aspect(row["label"], row["values"]), row["@values"]))
        return aspects

    def link(self, parsed: list[_Parsed]) -> dict:
        """Cross-file rules: unique ids, references, translations; then the frozen records."""
        by_kind: dict[str, dict[str, _Parsed]] = {kind: {} for kind in RECORD_KEYS}
        for item in parsed:
            existing = by_kind[item.kind].get(item.id)
            if existing:
                self.report.error(
                    item.id_location,
                    "id.duplicate",
                    f"duplicate {NOUNS[item.kind]} id '{item.id}': also defined in {existing.id_location.path}",
                    f"ids are unique per kind; rename one of {existing.id_location.path} and {item.id_location.path}",
                )
                continue
            by_kind[item.kind][item.id] = item
        for reference in self.references:
            known = by_kind[reference.kind]
            if reference.target not in known:
                noun = NOUNS[reference.kind]
                hint = did_you_mean(reference.target, known) or f"{noun}s are the files in {reference.kind}/"
                self.report.error(reference.location, f"ref.unknown-{noun}", f"unknown {noun} '{reference.target}'", hint)
        for item in parsed:
            self._check_translations(item)
            if item.kind == "questions":
                self._check_choices(item)
            elif item.kind == "comparisons":
                self._check_aspects(item)
        return {
            "topics": {i: _topic(p) for i, p in by_kind["topics"].items()},
            "questions": {i: q for i, p in by_kind["questions"].items() for q in [_question(p)] if q},
            "terms": {i: _term(p) for i, p in by_kind["glossary"].items()},
            "comparisons": {i: c for i, p in by_kind["comparisons"].items() for c in [_comparison(p)] if c},
        }

    def _check_translations(self, item: _Parsed) -> None:
        for language in self.languages:
            if language not in item.blocks and (item.kind, item.id, language) not in self.supplied:
                last_block = list(item.block_locations.values())[-1]
                self.report.warning(
                    last_block, "translation.missing", f"{NOUNS[item.kind]} '{item.id}' has no '{language}' text", f"add a block '{language}:' like this one"
                )

    def _check_choices(self, item: _Parsed) -> None:
        counts = {lang: len(b["choices"]) for lang, b in item.blocks.items() if "choices" in b}
        if not counts:
            return
        reference_language = next((lang for lang in self.languages if lang in counts), next(iter(counts)))
        expected = counts[reference_language]
        for language, count in counts.items():
            if count != expected:
                node = item.blocks[language]["@choices"]
                self.report.error(
                    locate(item.id_location.path, node),
                    "choices.mismatch",
                    f"the '{language}' block has {count} choices but the '{reference_language}' block has {expected}",
                    "every language lists the same choices in the same order",
                )
        answer = item.fields.get("answer")
        if answer is not None:
            index = ord(answer) - ord("A")
            fewest = min(counts.values())
            if index >= fewest:
                self.report.error(item.fields["@answer"], "value.answer", f"answer '{answer}' is outside the {fewest} choices (A-{answer_letter(fewest - 1)})")
                item.fields.pop("answer")

    def _check_aspects(self, item: _Parsed) -> None:
        columns = len(item.fields.get("terms", ()))
        for block in item.blocks.values():
            for aspect, node in block.get("aspects") or ():
                if columns and len(aspect.values) != columns:
                    self.report.error(
                        locate(item.id_location.path, node),
                        "value.count",
                        f"aspect '{aspect.label}' has {plural(len(aspect.values), 'value')} for {plural(columns, 'term')}",
                        "give one value per term, in the order of 'terms'",
                    )


def _texts(reader: NodeReader, node: yaml.Node, key: str):
    items = reader.text_list(node, key)
    return None if items is None else tuple(value for value, _ in items)


def _mentions(node: yaml.Node, key: str) -> bool:
    """True when the mapping sets key (its value was invalid and is reported already)."""
    return isinstance(node, yaml.MappingNode) and any(getattr(k, "value", None) == key for k, _ in node.value)


def _missing_hint(kind: str, key: str) -> str:
    hints = {
        "topic": "name the topic this belongs to, e.g. 'topic: ai-hardware-stack'",
        "answer": "give the letter of the correct choice, e.g. 'answer: A'",
        "terms": "list the compared term ids, e.g. 'terms: [gpu, tpu]'",
        "explanation": "explain why the answer is right; Markdown is allowed",
        "definition": "define the term; Markdown is allowed",
    }
    return hints.get(key, "")


def _topic(item: _Parsed) -> Topic:
    texts = {lang: TopicText(b["title"], b.get("description", "")) for lang, b in item.blocks.items() if "title" in b}
    return Topic(item.id, item.id_location, item.fields.get("order", float("inf")), texts)


def _question(item: _Parsed) -> Question | None:
    if "answer" not in item.fields or "topic" not in item.fields:
        return None
    texts = {
        lang: QuestionText(b["question"], b["choices"], b["explanation"])
        for lang, b in item.blocks.items()
        if {"question", "choices", "explanation"} <= b.keys()
    }
    answer = ord(item.fields["answer"]) - ord("A")
    return Question(item.id, item.id_location, item.fields["topic"], item.fields.get("order", float("inf")), answer, item.fields.get("terms", ()), texts)


def _term(item: _Parsed) -> Term:
    texts = {lang: TermText(b["term"], b.get("aliases", ()), b.get("definition", "")) for lang, b in item.blocks.items() if "term" in b}
    return Term(item.id, item.id_location, item.fields.get("related", ()), texts)


def _comparison(item: _Parsed) -> Comparison | None:
    if "topic" not in item.fields or "terms" not in item.fields:
        return None
    texts = {
        lang: ComparisonText(b["title"], tuple(a for a, _ in b["aspects"]), b.get("summary", ""))
        for lang, b in item.blocks.items()
        if "title" in b and b.get("aspects")
    }
    return Comparison(item.id, item.id_location, item.fields["topic"], item.fields["terms"], texts)
