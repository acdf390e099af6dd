"""YAML layout: a record written as an author would write it, the same way every time.

Block style throughout: the record's own fields first, then one block per language, each
field in the schema's order with the Markdown ones (an explanation) last, as literal blocks
(`|`). Lettered lists (choices, feedback) are block lists, one item a line; other lists
are flow lists ([a, b]) when they fit on a line; a match question's pairs are one [left,
right] a line. A text is written plain unless YAML would read it as something else (a
number, true, a comment, a key), then quoted. Fields at their default are left out.

Each line written is tagged with the field it belongs to ("answer", "nl.choices.2"), so
that a problem the schema finds in the YAML is told where the imported file gave that field.
An existing record is updated in place (updated_text): its lines are kept but for the
fields and blocks the import replaces, so other languages' blocks and comments stay.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import yaml

from studysite.content.fields import NO_DEFAULT, Field, Table, Text

INDENT = "  "
FLOW_WIDTH = 100  # a list longer than this on its line is written one item a line
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
_FLOW_SPECIAL = re.compile(r"[,?\[\]{}]|:(?!\w)")  # what ends a plain text in a flow list (PyYAML's scanner)
_YAML_BREAKS = re.compile("[\x85\u2028\u2029\r]")
_NOT_PRINTABLE = re.compile("[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPED = re.compile('[\\\\"\n\t\r\x85\u2028\u2029]|' + _NOT_PRINTABLE.pattern)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P"}


@dataclass(frozen=True)
class Lines:
    """YAML lines, each with the field path it writes ("" for none)."""

    lines: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line, _ in self.lines)

    def fields(self) -> dict[int, str]:
        """The field path of each line, by 1-based line number."""
        return {number: path for number, (_, path) in enumerate(self.lines, 1) if path}


def scalar(text: str, flow: bool = False) -> str:
    """A text as a YAML scalar: plain where YAML reads it back as this same text, else
    quoted: in double quotes when nothing in it needs an escape there (no '"' nor '\\'), in
    single quotes (where only the quote itself is doubled) otherwise, and in double quotes
    with escapes when it holds what only an escape writes (a line break, a control character)."""
    if _plain_reads_back(text, flow):
        return text
    if "\n" in text or _YAML_BREAKS.search(text) or _NOT_PRINTABLE.search(text):
        return '"' + _ESCAPED.sub(lambda m: _ESCAPES.get(m.group(0)) or f"\\u{ord(m.group(0)):04x}", text) + '"'
    if '"' not in text and "\\" not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def _plain_reads_back(text: str, flow: bool) -> bool:
    if not text or text != text.strip() or text[0] in _INDICATORS or text.endswith(":"):
        return False
    if ": " in text or " #" in text or "\t" in text or "\n" in text or _YAML_BREAKS.search(text) or _NOT_PRINTABLE.search(text):
        return False
    if flow and _FLOW_SPECIAL.search(text):
        return False
    return not any(regexp.match(text) for _, regexp in yaml.resolver.Resolver.yaml_implicit_resolvers.get(text[0], ()))


def _literal(text: str, indent: str) -> list[str] | None:
    """The lines of a literal block (`|`) holding the text and one final line break; None
    when a literal block cannot hold it as it is (a first line that starts with a space, a
    character YAML reads as a line break)."""
    body = text.strip("\n")
    if not body or body[0] in " \t" or _YAML_BREAKS.search(body) or _NOT_PRINTABLE.search(body):
        return None
    return [indent + line if line else "" for line in body.split("\n")]


def value_text(value: object, flow: bool = False) -> str:
    """A value that is not a text (a number, true/false) or a text, as one scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int):
        return str(value)
    return scalar(str(value), flow)


def flow_list(items: Sequence[object]) -> str:
    return "[" + ", ".join(value_text(item, flow=True) for item in items) + "]"


def field_lines(field: Field, value: object, indent: str, path: str) -> list[tuple[str, str]]:
    """The lines of one field: `name: value`, a literal block, a flow or a block list."""
    key = f"{indent}{field.name}:"
    if isinstance(value, str) and field.text is Text.MARKDOWN:
        literal = _literal(value, indent + INDENT)
        if literal is not None:
            return [(key + " |", path), *((line, path) for line in literal)]
    if isinstance(value, list | tuple):
        if value and all(isinstance(item, list | tuple) for item in value):  # pairs: one a line
            return [(key, path)] + [(f"{indent}{INDENT}- {flow_list(item)}", f"{path}.{n}") for n, item in enumerate(value, 1)]
        flow = f"{key} {flow_list(value)}"
        if not field.lettered and len(flow) <= FLOW_WIDTH or not value:
            return [(flow, path)]
        return [(key, path)] + [(f"{indent}{INDENT}- {value_text(item)}", f"{path}.{n}") for n, item in enumerate(value, 1)]
    return [(f"{key} {value_text(value)}", path)]


def _ordered(table: Table) -> list[Field]:
    """A table's fields as written: the schema's order, Markdown texts last."""
    return sorted(table.fields, key=lambda f: f.text is Text.MARKDOWN)


def _is_default(field: Field, value: object) -> bool:
    if field.default is NO_DEFAULT:
        return False
    if isinstance(value, list | tuple) and isinstance(field.default, tuple):
        return not value and not field.default
    return value == field.default


def record_lines(record: Table, values: Mapping[str, object], skip: Sequence[str] = ("id",)) -> list[tuple[str, str]]:
    """The record's own fields that are set and not at their default, in the schema's order."""
    lines = []
    for field in _ordered(record):
        if field.name in values and field.name not in skip and not _is_default(field, values[field.name]):
            lines += field_lines(field, values[field.name], "", field.name)
    return lines


def block_lines(block: Table, language: str, values: Mapping[str, object]) -> list[tuple[str, str]]:
    """A language block: its key and its fields, indented."""
    lines = [(f"{language}:", language)]
    for field in _ordered(block):
        if field.name in values and not _is_default(field, values[field.name]):
            lines += field_lines(field, values[field.name], INDENT, f"{language}.{field.name}")
    return lines


def record_text(record: Table, block: Table, values: Mapping[str, object], blocks: Mapping[str, Mapping[str, object]], with_id: bool = False) -> Lines:
    """A new record file: its fields (its id only when asked: the file's name is its id),
    then its language blocks in the order given."""
    lines = record_lines(record, values, skip=() if with_id else ("id",))
    for language, block_values in blocks.items():
        lines += block_lines(block, language, block_values)
    return Lines(tuple(lines))


def updated_text(
    old: str, node: yaml.Node, tables: tuple[Table, Table], values: Mapping[str, object], removed: set[str], blocks: Mapping[str, Mapping[str, object]]
) -> Lines:
    """An existing record file with the given record fields and language blocks replaced or
    added, the removed fields and those its table (the question's type) does not take left
    out, and every other line kept as it was: other languages' blocks, comments, the
    author's layout. A record written as one flow mapping ({...}) is written anew."""
    record, block = tables
    entries = _top_entries(old, node)
    if entries is None:
        loaded = yaml.safe_load(old) or {}
        kept = {key: value for key, value in loaded.items() if key in record.names and key not in removed}
        return record_text(record, block, {**kept, **values}, {**{key: value for key, value in loaded.items() if isinstance(value, dict)}, **blocks})
    new_fields = {f.name: f for f in record.fields if f.name in values and f.name != "id"}
    segments: list[tuple[bool, list[tuple[str, str]]]] = []  # (is a language block, lines)
    for key, lines in entries[1:]:
        if key in new_fields:
            segments.append((False, field_lines(new_fields[key], values[key], "", key) if not _is_default(new_fields[key], values[key]) else []))
        elif key in blocks:
            segments.append((True, block_lines(block, key, blocks[key])))
        elif key in record.names and key not in removed:
            segments.append((False, [(line, "") for line in lines]))
        elif isinstance(_value_of(node, key), yaml.MappingNode):  # another language's block
            segments.append((True, [(line, "") for line in lines]))
        # else: a record field the question's (new) type does not take: left out
    present = {key for key, _ in entries[1:]}
    added = [
        line
        for name, field in new_fields.items()
        if name not in present and not _is_default(field, values[name])
        for line in field_lines(field, values[name], "", name)
    ]
    first_block = next((index for index, (is_block, _) in enumerate(segments) if is_block), len(segments))
    segments.insert(first_block, (False, added))
    segments += [(True, block_lines(block, language, blocks[language])) for language in blocks if language not in present]
    return Lines(tuple([(line, "") for line in entries[0][1]] + [line for _, lines in segments for line in lines]))


def _value_of(node: yaml.Node, key: str) -> yaml.Node | None:
    return next((value for k, value in node.value if getattr(k, "value", None) == key), None) if isinstance(node, yaml.MappingNode) else None


def _top_entries(old: str, node: yaml.Node) -> list[tuple[str, list[str]]] | None:
    """The file's lines cut at each top-level key: ("", the lines before the first key),
    then (key, its lines through the line before the next key). None for a flow mapping."""
    if not isinstance(node, yaml.MappingNode) or node.flow_style or not node.value:
        return None
    lines = old.removeprefix("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts = [key.start_mark.line for key, _ in node.value]
    if any(key.start_mark.column != 0 for key, _ in node.value) or starts != sorted(starts):
        return None
    entries = [("", lines[: starts[0]])]
    for index, (key, _) in enumerate(node.value):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        entries.append((str(getattr(key, "value", "")), lines[starts[index] : end]))
    return entries
