"""Fields: how a record kind is declared, and the readers that fill its fields.

A kind of record is two tables of fields (content/validate.py declares one kind per content folder):
the keys of the record itself and the keys of each language block. A field names its key,
the reader that turns its YAML node into a value, whether it is required, the value the
model gets when it is absent, and the hint shown when a required one is missing. Reading a
mapping against a table gives FieldValues: the values, and beside them where each was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import yaml

from studysite.content.media import AUDIO_TYPES
from studysite.content.node_reader import NodeReader
from studysite.diagnostics import Location, did_you_mean

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# An id names folders of the built site (<lang>/<kind>/<id>/index.html, urls.record), and
# file systems allow a name of at most 255 bytes (ext4, APFS, NTFS). 200 bytes of UTF-8 (ids
# are ASCII: 200 characters) leave room for a suffix that an output made from an id, or a
# tool copying the site, may add (".partial", " (2)"), so that a site that checks also builds.
MAX_ID_BYTES = 200
ID_LENGTH_HINT = f"ids name the folders of the built pages (<lang>/<kind>/<id>/), so they are at most {MAX_ID_BYTES} characters"
MIN_CHOICES, MAX_CHOICES = 2, 6


class Need(Enum):
    OPTIONAL = "optional"
    REQUIRED = "required"  # in a record; in a language block: in every block
    IN_SITE_LANGUAGES = "required in the blocks of the site's languages"  # language blocks only


OPTIONAL, REQUIRED, IN_SITE_LANGUAGES = Need.OPTIONAL, Need.REQUIRED, Need.IN_SITE_LANGUAGES


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT = _NoDefault()  # the model cannot be built without this field


@dataclass(frozen=True)
class Reference:
    """A pointer from one record to another, checked once every record is known."""

    kind: str  # "topics" or "glossary"
    target: str
    location: Location


@dataclass(frozen=True)
class Context:
    """What a reader needs besides its node: the file's reader, the record kind's noun for
    messages, the run's list of references to check, and the language block being read."""

    reader: NodeReader
    noun: str
    references: list[Reference]
    language: str = ""


Reader = Callable[[Context, yaml.Node, str], object]  # the value, or None after reporting why not


@dataclass(frozen=True)
class Field:
    """One key of a mapping: its reader, whether it is required, the model's value when absent."""

    name: str
    read: Reader
    need: Need = OPTIONAL
    default: object = NO_DEFAULT
    hint: str = ""  # for the error when a required field is missing


class Table:
    """The fields of one kind of mapping, and the frozen model built from their values."""

    def __init__(self, model: type, *fields: Field):
        self.model = model
        self.fields = fields
        self._by_name = {f.name: f for f in fields}  # looked up for every key of every record

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def field(self, name: str) -> Field | None:
        return self._by_name.get(name)

    def build(self, values: dict, **given):
        """The model from the values read and the given ones; None when a field without a
        default has no value."""
        arguments = dict(given)
        for f in self.fields:
            if f.name not in given:
                value = values.get(f.name, f.default)
                if value is NO_DEFAULT:
                    return None
                arguments[f.name] = f.read.build(value) if isinstance(f.read, Rows) else value
        return self.model(**arguments)


@dataclass(frozen=True)
class Kind:
    """A record kind: its content folder, its noun in messages, its record-level fields
    (model: the record) and the fields of a language block (model: the record's text)."""

    folder: str
    noun: str
    record: Table
    block: Table

    def __reduce__(self):
        """Pickled as its folder's name, to be one of validate's kinds again (the build cache keeps parsed records)."""
        return kind_in_folder, (self.folder,)


def kind_in_folder(folder: str) -> Kind:
    from studysite.content.validate import SCHEMAS  # where the kinds' schemas are declared; it imports this module

    return SCHEMAS[folder]


@dataclass
class FieldValues:
    """The values read from one mapping, by field name, and where each value was written."""

    values: dict[str, object] = field(default_factory=dict)
    where: dict[str, Location] = field(default_factory=dict)

    def read(self, context: Context, f: Field, node: yaml.Node) -> None:
        value = f.read(context, node, f.name)
        if value is not None:
            self.values[f.name] = value
            self.where[f.name] = context.reader.where(node)


def read_block(context: Context, node: yaml.Node, table: Table) -> FieldValues:
    """The fields of a language block (or of a row inside one); unknown keys are errors."""
    language, reader = context.language, context.reader
    block = FieldValues()
    for key, key_node, value_node in reader.mapping(node, f"the '{language}' block") or ():
        f = table.field(key)
        if f is None:
            hint = did_you_mean(key, table.names) or f"a '{language}' block takes {', '.join(table.names)}"
            reader.error(key_node, "key.unknown", f"unknown key '{key}' in the '{language}' block", hint)
        else:
            block.read(context, f, value_node)
    return block


def mentions(node: yaml.Node, key: str) -> bool:
    """True when the mapping sets key (its value was invalid and is reported already)."""
    return isinstance(node, yaml.MappingNode) and any(getattr(k, "value", None) == key for k, _ in node.value)


# Readers: each turns a node into a value, or reports why it cannot and gives None.


def text(context: Context, node: yaml.Node, key: str) -> str | None:
    return context.reader.text(node, key)


def number(context: Context, node: yaml.Node, key: str) -> float | None:
    return context.reader.number(node, key)


def texts(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
    items = context.reader.text_list(node, key)
    return None if items is None else tuple(value for value, _ in items)


def audio_file(context: Context, node: yaml.Node, key: str) -> str | None:
    """A sound file's path (content/media.py finds and checks the file when the text is
    converted; here, what the path alone tells: its format)."""
    value = context.reader.text(node, key)
    extension = value.rsplit(".", 1)[-1].lower() if value and "." in value.rsplit("/", 1)[-1] else ""
    if value is not None and extension not in AUDIO_TYPES:
        formats = ", ".join("." + e for e in AUDIO_TYPES)
        context.reader.error(node, "media.type", f"'{value}' is not audio that Studysite publishes", f"give a file ending in {formats}")
        return None
    return value


def record_id(context: Context, node: yaml.Node, key: str) -> str | None:
    value = context.reader.text(node, key)
    if value is not None and not ID_PATTERN.fullmatch(value):
        context.reader.error(node, "id.invalid", f"'{value}' is not a valid id", "ids use lowercase ASCII letters, digits and '-'")
        return None
    if value is not None and is_too_long(value):
        context.reader.error(node, "id.invalid", f"the id '{abridged(value)}' is too long ({len(value)} characters)", ID_LENGTH_HINT)
        return None
    return value


def is_too_long(record_id: str) -> bool:
    """Whether an id would make a file name longer than file systems allow (MAX_ID_BYTES)."""
    return len(record_id.encode("utf-8")) > MAX_ID_BYTES


def abridged(record_id: str) -> str:
    """A long id as its start, for a message that names it (the source line shows it whole)."""
    return record_id if len(record_id) <= 40 else record_id[:40] + "…"


def answer_index(context: Context, node: yaml.Node, key: str) -> int | None:
    """The index of the choice that a letter (A, b, ...) names."""
    value = context.reader.text(node, key)
    if value is None:
        return None
    if not re.fullmatch(r"[A-Za-z]", value):
        context.reader.error(node, "value.answer", f"'answer' must be one letter such as A, not '{value}'")
        return None
    return ord(value.upper()) - ord("A")


def topic_id(context: Context, node: yaml.Node, key: str) -> str | None:
    value = context.reader.text(node, key)
    if value is not None:
        context.references.append(Reference("topics", value, context.reader.where(node)))
    return value


def term_ids(at_least: int = 0) -> Reader:
    """A reader for a list of glossary term ids, at least at_least of them."""

    def read(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
        items = context.reader.text_list(node, key)
        if items is None:
            return None
        if len(items) < at_least:
            context.reader.error(node, "value.count", f"a {context.noun} needs at least {at_least} terms, not {len(items)}")
        for value, item in items:
            context.references.append(Reference("glossary", value, context.reader.where(item)))
        return tuple(value for value, _ in items)

    return read


def choices(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
    items = context.reader.text_list(node, key)
    if items is None:
        return None
    if not MIN_CHOICES <= len(items) <= MAX_CHOICES:
        context.reader.error(node, "value.count", f"a {context.noun} has {MIN_CHOICES} to {MAX_CHOICES} choices, not {len(items)}")
        return None
    return tuple(value for value, _ in items)


@dataclass(frozen=True)
class Rows:
    """A reader for a non-empty list of mappings, each read against a table. A row without
    one of its required fields is reported and left out; the rows keep their locations, and
    the model gets the table's model for each."""

    table: Table
    noun: str  # "an aspect"
    hint: str  # how a row is written

    def __call__(self, context: Context, node: yaml.Node, key: str) -> tuple[FieldValues, ...] | None:
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            context.reader.error(node, "type.list", f"'{key}' must be a non-empty list of rows", self.hint)
            return None
        rows = []
        for item in node.value:
            row = read_block(context, item, self.table)
            missing = next((f.name for f in self.table.fields if f.need is REQUIRED and f.name not in row.values), None)
            if missing is None:
                rows.append(row)
            elif not mentions(item, missing):
                context.reader.error(item, "field.missing", f"{self.noun} has no '{missing}'")
        return tuple(rows) or None

    def build(self, rows: tuple[FieldValues, ...]) -> tuple:
        return tuple(self.table.build(row.values) for row in rows)
