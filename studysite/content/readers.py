"""Readers: the shapes a field's value may take (content/fields.py Shape), each a function
that turns a located YAML node into a value, or reports why it cannot and gives None, with
the JSON Schema of what it accepts."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

import yaml

from studysite import colors, urls
from studysite.content.fields import REQUIRED, Context, FieldValues, Reference, Shape, Table, mentions, read_block
from studysite.content.media import AUDIO_TYPES
from studysite.content.node_reader import NULL_TAG, NUMBER_TAGS, STR_TAG, describe
from studysite.diagnostics import did_you_mean
from studysite.languages import language_problem

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# An id names folders of the built site (<lang>/<kind>/<id>/index.html, urls.record), and
# file systems allow a name of at most 255 bytes (ext4, APFS, NTFS). 200 bytes of UTF-8 (ids
# are ASCII: 200 characters) leave room for a suffix that an output made from an id, or a
# tool copying the site, may add (".partial", " (2)"), so that a site that checks also builds.
MAX_ID_BYTES = 200
ID_LENGTH_HINT = f"ids name the folders of the built pages (<lang>/<kind>/<id>/), so they are at most {MAX_ID_BYTES} characters"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BOOLEAN_TAG = "tag:yaml.org,2002:bool"
_STRING = {"type": "string", "minLength": 1}


def _text(context: Context, node: yaml.Node, key: str) -> str | None:
    return context.reader.text(node, key)


TEXT = Shape(_text, _STRING)


def _number(context: Context, node: yaml.Node, key: str) -> float | None:
    return context.reader.number(node, key)


NUMBER = Shape(_number, {"type": "number"})


def _decimal(context: Context, node: yaml.Node, key: str) -> Decimal | None:
    """A number kept exactly as written (9.81 stays 9.81, to be shown and compared as such)."""
    if not context.reader.plain(node):
        return None
    if isinstance(node, yaml.ScalarNode) and (node.tag in NUMBER_TAGS or node.tag == STR_TAG):
        try:
            value = Decimal(node.value.replace("_", "").strip())
            if value.is_finite():
                return value
        except InvalidOperation:
            pass
    shown = f"'{node.value}'" if isinstance(node, yaml.ScalarNode) else describe(node)
    context.reader.error(node, "type.number", f"'{key}' must be a number, not {shown}", f"write it with a point as the decimal separator, e.g. '{key}: 9.81'")
    return None


DECIMAL = Shape(_decimal, {"type": "number"})


def _not_negative(context: Context, node: yaml.Node, key: str) -> Decimal | None:
    value = _decimal(context, node, key)
    if value is not None and value < 0:
        context.reader.error(node, "value.negative", f"'{key}' must not be negative, not {value}")
        return None
    return value


NOT_NEGATIVE = Shape(_not_negative, {"type": "number", "minimum": 0})


def whole_number(most: int) -> Shape:
    """A whole number from 1 to most (site.yaml's exam: how many questions, how many minutes)."""

    def read(context: Context, node: yaml.Node, key: str) -> int | None:
        value = context.reader.number(node, key)
        if value is None:
            return None
        if not value.is_integer() or not 1 <= value <= most:
            shown = int(value) if value.is_integer() else value
            context.reader.error(node, "value.range", f"'{key}' must be a whole number from 1 to {most}, not {shown}", f"e.g. '{key}: 20'")
            return None
        return int(value)

    return Shape(read, {"type": "integer", "minimum": 1, "maximum": most})


def _boolean(context: Context, node: yaml.Node, key: str) -> bool | None:
    if not context.reader.plain(node):
        return None
    if isinstance(node, yaml.ScalarNode) and node.value.lower() in ("true", "false") and node.tag in (BOOLEAN_TAG, STR_TAG):
        return node.value.lower() == "true"
    shown = f"'{node.value}'" if isinstance(node, yaml.ScalarNode) else describe(node)
    context.reader.error(node, "type.boolean", f"'{key}' must be true or false, not {shown}")
    return None


BOOLEAN = Shape(_boolean, {"type": "boolean"})


def choice_of(values: Sequence[str]) -> Shape:
    """One of a few words (fallback: notice or skip)."""

    def read(context: Context, node: yaml.Node, key: str) -> str | None:
        value = context.reader.text(node, key)
        if value is not None and value not in values:
            hint = did_you_mean(value, values) or f"write one of {', '.join(values)}"
            context.reader.error(node, "value.choice", f"'{key}' must be {' or '.join(repr(v) for v in values)}, not '{value}'", hint)
            return None
        return value

    return Shape(read, {"enum": list(values)})


def _texts(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
    items = context.reader.text_list(node, key)
    return None if items is None else tuple(value for value, _ in items)


TEXTS = Shape(_texts, {"type": "array", "items": _STRING})


def text_list(least: int, most: int, noun: str, unique: bool = False) -> Shape:
    """A list of least to most texts (choices, items); unique: no two the same."""

    def read(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
        items = context.reader.text_list(node, key)
        if items is None:
            return None
        if not least <= len(items) <= most:
            context.reader.error(node, "value.count", f"a {context.noun} has {least} to {most} {noun}, not {len(items)}", _comma_hint(items))
            return None
        if unique and not _all_different(context, [(value, item) for value, item in items], key):
            return None
        return tuple(value for value, _ in items)

    return Shape(read, {"type": "array", "items": _STRING, "minItems": least, "maxItems": most, **({"uniqueItems": True} if unique else {})})


def _comma_hint(items: list[tuple[str, yaml.Node]]) -> str:
    """A hint when an item of a flow list ([a, b]) seems to have been cut at a comma."""
    plain = [item for _, item in items if isinstance(item, yaml.ScalarNode) and not item.style]
    if len(plain) > 1 and plain[0].start_mark.line == plain[-1].start_mark.line:
        return "an item that holds a comma must be quoted: [\"one, two\", three]"
    return ""


def _all_different(context: Context, items: list[tuple[str, yaml.Node]], key: str) -> bool:
    seen: dict[str, yaml.Node] = {}
    for value, item in items:
        folded = value.casefold()
        if folded in seen:
            context.reader.error(item, "value.duplicate", f"'{key}' lists '{value}' twice", "every item must differ from the others")
            return False
        seen[folded] = item
    return True


def feedback_list(most: int) -> Shape:
    """Up to most texts, each of which may be empty ('' where a choice has no feedback)."""

    def read(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
        if not context.reader.plain(node) or not isinstance(node, yaml.SequenceNode):
            context.reader.error(node, "type.list", f"'{key}' must be a list, not {describe(node)}", f"write it as '{key}: [first, \"\", third]', one text per choice")
            return None
        if len(node.value) > most:
            context.reader.error(node, "value.count", f"'{key}' has {len(node.value)} texts; a question has at most {most} choices")
            return None
        texts = []
        for item in node.value:
            empty = isinstance(item, yaml.ScalarNode) and item.tag in (STR_TAG, NULL_TAG) and not item.value.strip()
            value = "" if empty else context.reader.text(item, f"an item of '{key}'")
            if value is None:
                return None
            texts.append(value)
        return tuple(texts)

    return Shape(read, {"type": "array", "items": {"type": "string"}, "maxItems": most})


def _pairs(context: Context, node: yaml.Node, key: str) -> tuple[tuple[str, str], ...] | None:
    """[[left, right], ...]: 2 to 8 pairs, no side twice."""
    if not context.reader.plain(node) or not isinstance(node, yaml.SequenceNode):
        context.reader.error(node, "type.list", f"'{key}' must be a list of pairs, not {describe(node)}", "write '[[GPU, grafische kaart], [CPU, processor]]'")
        return None
    pairs = []
    for item in node.value:
        sides = context.reader.text_list(item, f"a pair of '{key}'")
        if sides is None:
            return None
        if len(sides) != 2:
            context.reader.error(item, "value.count", f"a pair has 2 sides, not {len(sides)}", "write each pair as [left, right]; quote a side that holds a comma")
            return None
        pairs.append(sides)
    if not 2 <= len(pairs) <= 8:
        context.reader.error(node, "value.count", f"a {context.noun} has 2 to 8 pairs, not {len(pairs)}")
        return None
    for side in (0, 1):
        if not _all_different(context, [(pair[side][0], pair[side][1]) for pair in pairs], key):
            return None
    return tuple((left, right) for (left, _), (right, _) in pairs)


PAIRS = Shape(_pairs, {"type": "array", "minItems": 2, "maxItems": 8, "items": {"type": "array", "items": _STRING, "minItems": 2, "maxItems": 2}})


def _record_id(context: Context, node: yaml.Node, key: str) -> str | None:
    value = context.reader.text(node, key)
    if value is not None and not ID_PATTERN.fullmatch(value):
        context.reader.error(node, "id.invalid", f"'{value}' is not a valid id", "ids use lowercase ASCII letters, digits and '-'")
        return None
    if value is not None and is_too_long(value):
        context.reader.error(node, "id.invalid", f"the id '{abridged(value)}' is too long ({len(value)} characters)", ID_LENGTH_HINT)
        return None
    return value


ID = Shape(_record_id, {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": MAX_ID_BYTES})


def is_too_long(record_id: str) -> bool:
    """Whether an id would make a file name longer than file systems allow (MAX_ID_BYTES)."""
    return len(record_id.encode("utf-8")) > MAX_ID_BYTES


def abridged(record_id: str) -> str:
    """A long id as its start, for a message that names it (the source line shows it whole)."""
    return record_id if len(record_id) <= 40 else record_id[:40] + "…"


def _letter_index(context: Context, node: yaml.Node, value: str) -> int | None:
    if not re.fullmatch(r"[A-Za-z]", value):
        context.reader.error(node, "value.answer", f"'answer' must be a letter such as A, not '{value}'")
        return None
    return ord(value.upper()) - ord("A")


def _letter(context: Context, node: yaml.Node, key: str) -> int | None:
    """The index of the choice that a letter (A, b, ...) names."""
    value = context.reader.text(node, key)
    return None if value is None else _letter_index(context, node, value)


LETTER = Shape(_letter, {"type": "string", "pattern": "^[A-Za-z]$"})


def _letters(context: Context, node: yaml.Node, key: str) -> tuple[int, ...] | None:
    """The indexes of the choices that letters name: [A, C], or 'A, C'; each once."""
    if isinstance(node, yaml.SequenceNode):
        items = context.reader.text_list(node, key)
        named = None if items is None else [(value, item) for value, item in items]
    else:
        text = context.reader.text(node, key)
        named = None if text is None else [(part.strip(), node) for part in text.split(",")]
    if not named:
        if named is not None:
            context.reader.error(node, "value.empty", "'answer' names no choice", "write the letters of every right choice, e.g. 'answer: [A, C]'")
        return None
    indexes = []
    for value, item in named:
        index = _letter_index(context, item, value)
        if index is None:
            return None
        if index in indexes:
            context.reader.error(item, "value.duplicate", f"'answer' names {value.upper()} twice")
            return None
        indexes.append(index)
    return tuple(sorted(indexes))


LETTERS_SHAPE = Shape(_letters, {"oneOf": [{"type": "array", "items": {"type": "string", "pattern": "^[A-Za-z]$"}, "minItems": 1}, {"type": "string"}]})


def _topic(context: Context, node: yaml.Node, key: str) -> str | None:
    value = context.reader.text(node, key)
    if value is not None:
        context.references.append(Reference("topics", value, context.reader.where(node)))
    return value


TOPIC = Shape(_topic, {"type": "string", "pattern": f"^{ID_PATTERN.pattern}$"})


def term_ids(at_least: int = 0) -> Shape:
    """A list of glossary term ids, at least at_least of them."""

    def read(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
        items = context.reader.text_list(node, key)
        if items is None:
            return None
        if len(items) < at_least:
            context.reader.error(node, "value.count", f"a {context.noun} needs at least {at_least} terms, not {len(items)}")
        for value, item in items:
            context.references.append(Reference("glossary", value, context.reader.where(item)))
        return tuple(value for value, _ in items)

    return Shape(read, {"type": "array", "items": {"type": "string", "pattern": f"^{ID_PATTERN.pattern}$"}, "minItems": at_least})


def rows(table: Table, noun: str, hint: str) -> Shape:
    """A non-empty list of mappings, each read against a table, as read (FieldValues, which
    keep where each value is); the model gets the table's model for each (Table.build). A row
    without one of its required fields is reported and left out."""

    def read(context: Context, node: yaml.Node, key: str) -> tuple[FieldValues, ...] | None:
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            context.reader.error(node, "type.list", f"'{key}' must be a non-empty list of rows", hint)
            return None
        found = []
        for item in node.value:
            row = read_block(context, item, table)
            missing = next((f.name for f in table.fields if f.need is REQUIRED and f.name not in row.values), None)
            if missing is None:
                found.append(row)
            elif not mentions(item, missing):
                context.reader.error(item, "field.missing", f"{noun} has no '{missing}'")
        return tuple(found) or None

    properties = {f.name: f.shape.json for f in table.fields}
    required = [f.name for f in table.fields if f.need is REQUIRED]
    return Shape(read, {"type": "array", "minItems": 1, "items": {"type": "object", "properties": properties, "required": required, "additionalProperties": False}}, table)


def group(table: Table, noun: str, keep_where: bool = True) -> Shape:
    """One mapping read against a table (site.yaml's theme, exam), as its model, which keeps
    where each value was written when keep_where (the theme's `where`: a file it names is
    checked later)."""

    def read(context: Context, node: yaml.Node, key: str):
        values = read_block(Context(context.reader, noun, context.references), node, table)
        return table.build(values.values, **({"where": dict(values.where)} if keep_where else {}))

    properties = {f.name: f.shape.json for f in table.fields}
    return Shape(read, {"type": "object", "properties": properties, "additionalProperties": False})


def _language(context: Context, node: yaml.Node, key: str) -> str | None:
    code = context.reader.text(node, key)
    if code and (problem := language_problem(code)):
        message, canonical = problem
        context.reader.error(node, "language.invalid", message, f"write '{canonical}'" if canonical else "use a code such as 'ja', 'nl' or 'pt-BR'")
        return None
    return code


LANGUAGE = Shape(_language, {"type": "string"})


def _languages(context: Context, node: yaml.Node, key: str) -> tuple[str, ...] | None:
    items = context.reader.text_list(node, key)
    if items is None:
        return None
    if not items:
        context.reader.error(node, "value.empty", "'languages' is empty", "list at least one language; the first is the default")
        return None
    codes: list[str] = []
    for code, item in items:
        if problem := language_problem(code):
            message, canonical = problem
            hint = f"write '{canonical}', here and as the key of its blocks" if canonical else "use a code such as 'nl', 'fr' or 'pt-BR'"
            context.reader.error(item, "language.invalid", message, hint)
        elif code in codes:
            context.reader.error(item, "language.duplicate", f"language '{code}' is listed twice")
        else:
            codes.append(code)
    return tuple(codes) or None  # the valid ones, so that records are still checked against them


LANGUAGES = Shape(_languages, {"type": "array", "items": {"type": "string"}, "minItems": 1})


def _base_url(context: Context, node: yaml.Node, key: str) -> str | None:
    url = context.reader.text(node, key)
    if url and not urls.is_base_url(url):
        context.reader.error(
            node,
            "value.url",
            f"base_url must be an absolute http(s) URL, not '{url}'",
            "for example https://user.github.io/repo/ (no query, fragment or quotes)",
        )
        return None
    return url


BASE_URL = Shape(_base_url, {"type": "string", "format": "uri"})


def _audio_file(context: Context, node: yaml.Node, key: str) -> str | None:
    """A sound file's path (content/media.py finds and checks the file when the text is
    converted; here, what the path alone tells: its format)."""
    value = context.reader.text(node, key)
    extension = value.rsplit(".", 1)[-1].lower() if value and "." in value.rsplit("/", 1)[-1] else ""
    if value is not None and extension not in AUDIO_TYPES:
        formats = ", ".join("." + e for e in AUDIO_TYPES)
        context.reader.error(node, "media.type", f"'{value}' is not audio that Studysite publishes", f"give a file ending in {formats}")
        return None
    return value


AUDIO = Shape(_audio_file, {"type": "string", "pattern": f"\\.({'|'.join(AUDIO_TYPES)})$"})


def _accent(context: Context, node: yaml.Node, key: str) -> str | None:
    """A #rrggbb colour that reaches WCAG AA's contrast on the light background (colors.py)."""
    if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
        context.reader.error(node, "type.text", f"'{key}' has no colour", f'quote it, as in {key}: "#0b6e4f": an unquoted # starts a comment')
        return None
    value = context.reader.text(node, key)
    if value is None:
        return None
    if not colors.HEX_COLOUR.fullmatch(value):
        context.reader.error(node, "value.colour", f"{key} must be a colour written #rrggbb, not '{value}'", f'for example {key}: "#0b6e4f" (quoted)')
        return None
    value = value.lower()
    ratio = colors.least_contrast(value, colors.LIGHT_BACKGROUNDS)
    if ratio < colors.MIN_CONTRAST:
        shown = math.floor(ratio * 100) / 100
        context.reader.error(
            node,
            "theme.contrast",
            f"{key} '{value}' has a contrast of {shown}:1 on the light background; links and buttons need {colors.MIN_CONTRAST}:1 (WCAG AA)",
            f"a darker colour of the same hue passes: {key}: \"{colors.darker_passing(value)}\"",
        )
        return None
    return value


ACCENT = Shape(_accent, {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"})
