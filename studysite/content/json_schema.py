"""JSON Schema of the content files, made from the schema's declarations (content/schema.py),
for an author's editor: VS Code's YAML extension (and any editor that speaks the YAML
language server) checks and completes a record as it is typed. A build checks more (ids
that exist, counts that agree between languages); the editor catches the shape.

`studysite schema --out DIR` writes one file per kind; `studysite new` writes them into a
new site with the editor settings that use them.
"""

from __future__ import annotations

import json

from studysite.content.fields import NO_DEFAULT, REQUIRED, Field, Kind
from studysite.content.schema import KINDS_DECLARED, SITE

DRAFT = "http://json-schema.org/draft-07/schema#"
LANGUAGE_KEY = "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"  # a block's key: nl, fr, pt-BR, zh-Hans (a build checks it against Babel's locales)
FILES = {"site": "site", "topics": "topic", "questions": "question", "glossary": "term", "comparisons": "comparison"}


def schema_files() -> dict[str, str]:
    """Each content kind's JSON Schema, as the text of its file (by file name)."""
    return {f"{FILES[kind.folder]}.schema.json": json.dumps(kind_schema(kind), indent=2, ensure_ascii=False) + "\n" for kind in (SITE, *KINDS_DECLARED)}


def kind_schema(kind: Kind) -> dict:
    """One kind's schema: its record keys (of every type, each type's own required and
    allowed with if/then) and a language block per key that looks like a language code."""
    variants = list(kind.variants.values())
    schema = {
        "$schema": DRAFT,
        "title": f"Studysite {kind.noun}",
        "type": "object",
        "properties": _union(variant.record for variant in variants),
        "patternProperties": {LANGUAGE_KEY: {"type": "object", "properties": _union(variant.block for variant in variants), "additionalProperties": False}},
        "additionalProperties": False,
    }
    if not kind.variant_key:
        schema["required"] = [f.name for f in kind.record.fields if f.need is REQUIRED]
        return schema
    schema["allOf"] = [_variant_rule(kind, variant) for variant in variants]
    return schema


def _variant_rule(kind, variant) -> dict:
    """What a record of one type must hold and may not: its required keys, and none of the
    other types' keys, in the record or a block."""
    named = {"properties": {kind.variant_key: {"const": variant.name}}}
    if variant.name == kind.default_variant:
        named = {"anyOf": [named | {"required": [kind.variant_key]}, {"not": {"required": [kind.variant_key]}}]}
    else:
        named["required"] = [kind.variant_key]
    others = {f.name for other in kind.variants.values() for f in other.record.fields} - set(variant.record.names)
    foreign = {f.name for other in kind.variants.values() for f in other.block.fields} - set(variant.block.names)
    then = {
        "required": [f.name for f in variant.record.fields if f.need is REQUIRED],
        "properties": {**{f.name: field_schema(f) for f in variant.record.fields}, **{name: False for name in sorted(others)}},
        "patternProperties": {LANGUAGE_KEY: {"properties": {name: False for name in sorted(foreign)}}},
    }
    return {"if": named, "then": then}


def _union(tables) -> dict[str, dict]:
    """The schema of each key any of the tables has: a key whose shape differs between
    tables (a question's answer: a letter, letters, true or false, a number) takes any of
    them, each type's rule (_variant_rule) saying which."""
    shapes: dict[str, list[dict]] = {}
    for table in tables:
        for f in table.fields:
            found = shapes.setdefault(f.name, [])
            if field_schema(f) not in found:
                found.append(field_schema(f))
    return {name: found[0] if len(found) == 1 else {"anyOf": found} for name, found in shapes.items()}


def field_schema(f: Field) -> dict:
    """A field's JSON Schema: its shape's, with what it is and how it is written."""
    schema = dict(f.shape.json)
    words = [f.about] if f.about else []
    if f.text is not None:
        words.append(f.text.value)
    if f.need is REQUIRED:
        words.append("required")
    if words:
        schema["description"] = "; ".join(words)
    if f.default is not NO_DEFAULT and isinstance(f.default, (str, int, float, bool)) and f.default not in ("", float("inf")):
        schema["default"] = f.default
    return schema
