"""Fields: the vocabulary the schema (content/schema.py) declares record kinds with.

A kind of record is two tables of fields: the keys of the record itself and the keys of
each language block. A field names its key, its shape (the reader that turns its YAML node
into a value, and the JSON Schema of what it accepts), whether it is required, the value
the model gets when it is absent, and, for text, how it is written (plain, inline Markdown
or Markdown) and translated. A kind whose records come in types (questions) has a table
pair per type, chosen by a key of the record (`type:`). Reading a mapping against a table
gives FieldValues: the values, and beside them where each was written.

Validation (content/validate.py), content.po (i18n/content_po.py), the conversion to HTML
(content/html.py), the JSON Schema for editors (content/json_schema.py), import and export
read these declarations; none of them knows a field by name that the schema could tell it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

import yaml

from studysite.content.node_reader import NodeReader
from studysite.content.yaml_hints import comma_split_item
from studysite.diagnostics import Location, Report, did_you_mean


class Need(Enum):
    OPTIONAL = "optional"
    REQUIRED = "required"  # in a record; in a language block: in every block
    IN_SITE_LANGUAGES = "required in the blocks of the site's languages"  # language blocks only


OPTIONAL, REQUIRED, IN_SITE_LANGUAGES = Need.OPTIONAL, Need.REQUIRED, Need.IN_SITE_LANGUAGES


class Text(Enum):
    """How a text field is written: what it becomes on a page and what a translator is told."""

    PLAIN = "plain text"  # shown as written (escaped)
    INLINE = "inline Markdown"  # emphasis, code, links, math; no block elements
    MARKDOWN = "Markdown"  # paragraphs, lists, tables...


FLOW_LIST_HINT = 'a comma ends an item in a [...] list: quote an item that holds one ("a, b"), or write the list one "- item" per line'


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


Read = Callable[[Context, yaml.Node, str], object]  # the value, or None after reporting why not


@dataclass(frozen=True)
class Shape:
    """How a value is written: the reader that takes it from its node, and the JSON Schema of
    what that reader accepts (for editors; content/json_schema.py). rows: the table each item
    of a list of mappings is read against (a comparison's aspects)."""

    read: Read
    json: Mapping[str, object]
    rows: Table | None = None


@dataclass(frozen=True)
class Field:
    """One key of a mapping: its shape, whether it is required, the model's value when
    absent; for text, its format and how content.po translates it."""

    name: str
    shape: Shape
    need: Need = OPTIONAL
    default: object = NO_DEFAULT
    hint: str = ""  # for the error when a required field is missing
    text: Text | None = None  # a text, or texts (a list, rows, pairs): how they are written
    translated: bool = True  # a text in content.po; False: a language's own (other spellings)
    same_count: bool = False  # as many items in every language (choices: the answer letters name them)
    joined: bool = False  # content.po: the items as one entry, "a | b", each language its own number (accepted answers)
    placing: bool = False  # decides where the record appears or what links to it (its topic, its name)
    lettered: bool = False  # its items are named by letters A, B, C... (choices and their feedback)
    about: str = ""  # what it holds: for the JSON Schema and translators' notes

    @property
    def translatable(self) -> bool:
        return self.text is not None and self.translated


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

    def extended(self, *fields: Field) -> Table:
        """This table with more fields (a question type's, after the ones every type has)."""
        return Table(self.model, *self.fields, *fields)

    def build(self, values: Mapping[str, object], **given):
        """The model from the values read and the given ones; None when a field without a
        default has no value."""
        arguments = dict(given)
        for f in self.fields:
            if f.name not in given:
                value = values.get(f.name, f.default)
                if value is NO_DEFAULT:
                    return None
                arguments[f.name] = tuple(f.shape.rows.build(row.values) for row in value) if f.shape.rows is not None else value
        return self.model(**arguments)


# A type-specific rule over a parsed record (a question's answer against its choices): it
# reports what is wrong and says whether the record can still be built.
Check = Callable[["ParsedRecord", Report], bool]


def no_check(item: ParsedRecord, report: Report) -> bool:
    return True


@dataclass(frozen=True)
class Variant:
    """One type of a kind's records (a question type): the tables its records are read
    against, the rule they must keep, and what the browser judges an answer by."""

    name: str
    record: Table
    block: Table
    check: Check = no_check
    about: str = ""


@dataclass(frozen=True, eq=False)
class Kind:
    """A record kind: its content folder, its noun in messages, and its tables (one pair, or
    one per type named by the record's `variant_key`); check: its rules across fields."""

    folder: str
    noun: str
    variants: Mapping[str, Variant]
    variant_key: str = ""  # the record key that names its type ("type"); "": one type
    default_variant: str = ""
    check: Check = no_check

    @property
    def record(self) -> Table:
        return self.variants[self.default_variant].record

    @property
    def block(self) -> Table:
        return self.variants[self.default_variant].block

    def variant(self, name: str) -> Variant:
        return self.variants[name]

    @functools.cached_property
    def any_block(self) -> Table:
        """The fields of every type's language blocks, each once, in the order the types
        declare them (each type's are in this order too): a text whose type is not known
        holds the others empty."""
        fields = {f.name: f for variant in self.variants.values() for f in variant.block.fields}
        return Table(self.block.model, *fields.values())

    def block_table(self, record) -> Table:
        """The language block table of a built record (its type's)."""
        return self.variants[getattr(record, self.variant_key) if self.variant_key else self.default_variant].block

    def __reduce__(self):
        """Pickled as its folder's name, to be one of the schema's kinds again (the build cache keeps parsed records)."""
        return kind_in_folder, (self.folder,)


def one_variant(table: Table, block: Table) -> dict[str, Variant]:
    return {"": Variant("", table, block)}


def kind_in_folder(folder: str) -> Kind:
    from studysite.content.schema import KIND_OF_FOLDER  # the declarations, which import this module

    return KIND_OF_FOLDER[folder]


@dataclass
class FieldValues:
    """The values read from one mapping, by field name, and where each value was written."""

    values: dict[str, object] = field(default_factory=dict)
    where: dict[str, Location] = field(default_factory=dict)
    split: dict[str, str] = field(default_factory=dict)  # of a list written [a, b, c]: why it may have more items than meant, and how to write it

    def read(self, context: Context, f: Field, node: yaml.Node) -> None:
        value = f.shape.read(context, node, f.name)
        if value is not None:
            self.values[f.name] = value
            self.where[f.name] = context.reader.where(node)
            if isinstance(node, yaml.SequenceNode) and node.flow_style:
                split = comma_split_item(node)
                self.split[f.name] = f"{split.message}: {split.hint}" if split else FLOW_LIST_HINT


@dataclass
class ParsedRecord:
    """What one record file yields before the cross-file checks."""

    kind: Kind
    variant: str
    id: str
    id_location: Location
    record: FieldValues
    blocks: dict[str, FieldValues]  # by language
    block_locations: dict[str, Location]  # where each language block's key is

    @property
    def tables(self) -> Variant:
        return self.kind.variant(self.variant)

    def counts(self, name: str) -> dict[str, tuple[int, Location]]:
        """How many items a list field holds in each block that has it, and where it is."""
        return {language: (len(block.values[name]), block.where[name]) for language, block in self.blocks.items() if name in block.values}


def read_block(context: Context, node: yaml.Node, table: Table) -> FieldValues:
    """The fields of a language block (or of a row inside one); unknown keys are errors."""
    language, reader = context.language, context.reader
    block = FieldValues()
    for key, key_node, value_node in reader.mapping(node, f"the '{language}' block" if language else f"a {context.noun}") or ():
        f = table.field(key)
        if f is None:
            where = f"the '{language}' block" if language else f"a {context.noun}"
            hint = did_you_mean(key, table.names) or f"{where} takes {', '.join(table.names)}"
            reader.error(key_node, "key.unknown", f"unknown key '{key}' in {where}", hint)
        else:
            block.read(context, f, value_node)
    return block


def mentions(node: yaml.Node, key: str) -> bool:
    """True when the mapping sets key (its value was invalid and is reported already)."""
    return isinstance(node, yaml.MappingNode) and any(getattr(k, "value", None) == key for k, _ in node.value)


def texts_of(table: Table, model: object, prefix: str = "") -> Iterator[tuple[str, Field, str]]:
    """(path, field, text) of every text a model of the table holds, in the table's order: a
    field's own ("question"), a list's items ("choices.2", 1-based), a pair's sides
    ("pairs.1.2"), a row's fields ("aspects.1.values.3"). Empty texts (a choice without
    feedback) are left out."""
    for f in table.fields:
        value = getattr(model, f.name)
        if f.shape.rows is not None:
            for number, row in enumerate(value, 1):
                yield from texts_of(f.shape.rows, row, f"{prefix}{f.name}.{number}.")
        elif f.text is not None:
            yield from _texts_in(f"{prefix}{f.name}", f, value)


def _texts_in(path: str, f: Field, value: object) -> Iterator[tuple[str, Field, str]]:
    if isinstance(value, str):
        if value:
            yield path, f, value
    else:
        for number, item in enumerate(value, 1):
            yield from _texts_in(f"{path}.{number}", f, item)


def with_texts(table: Table, model: object, text_of: Callable[[str, Field, str], object], prefix: str = ""):
    """A model of the table with each of its texts (texts_of's paths) replaced by
    text_of(path, field, text); the other fields as they are."""
    values = {}
    for f in table.fields:
        value = getattr(model, f.name)
        if f.shape.rows is not None:
            value = tuple(with_texts(f.shape.rows, row, text_of, f"{prefix}{f.name}.{number}.") for number, row in enumerate(value, 1))
        elif f.text is not None:
            value = _replaced(f"{prefix}{f.name}", f, value, text_of)
        values[f.name] = value
    return type(model)(**values)


def _replaced(path: str, f: Field, value: object, text_of: Callable[[str, Field, str], object]) -> object:
    if isinstance(value, str):
        return text_of(path, f, value) if value else value
    return tuple(_replaced(f"{path}.{number}", f, item, text_of) for number, item in enumerate(value, 1))


def placement(kind: Kind, record) -> tuple:
    """What of a record decides where it appears and what links to it (its placing fields,
    and the languages it has a block in): an edit that keeps it keeps every page's sources."""
    tables = kind.variant(getattr(record, kind.variant_key) if kind.variant_key else kind.default_variant)
    own = tuple(getattr(record, f.name) for f in tables.record.fields if f.placing)
    named = [f.name for f in tables.block.fields if f.placing]
    texts = tuple(sorted((language, *(getattr(text, name) for name in named)) for language, text in record.texts.items()))
    return own, texts
