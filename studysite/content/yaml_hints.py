"""Hints for the YAML mistakes authors make most, each located at the line of the mistake
rather than where the parser noticed it, and said in the author's words, not the parser's:

- an unquoted ': ' inside a text ("question: Why: because"): quote the text;
- a line indented to a column no block around it uses: the column expected;
- a comma inside an item of a [...] list, which splits the item in two: quote the item.

The first two read a syntax error of PyYAML or libyaml (whose wordings differ; only what they
mean is used). The third is no syntax error: the list parses, with one item too many, and a
count check (a question's choices in each language) asks split_flow_item which item it was."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import yaml

# What the parsers say when a line's indentation fits no block: libyaml's words, then PyYAML's.
_INDENTATION_PROBLEMS = ("did not find expected key", "expected <block end>", "did not find expected '-' indicator")
_COLON_PROBLEM = "mapping values are not allowed"
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class YamlHint:
    """Where a mistake is (1-based line and column), what it is, and how to fix it."""

    line: int
    column: int
    message: str
    hint: str


def syntax_hint(text: str, error: yaml.MarkedYAMLError) -> YamlHint | None:
    """The hint for a syntax error that is one of the common mistakes; None for another."""
    mark = error.problem_mark
    problem = error.problem or ""
    if mark is None:
        return None
    lines = text.splitlines()
    if mark.line >= len(lines):
        return None
    if problem.startswith(_COLON_PROBLEM):
        return _colon_hint(lines, mark.line, mark.column)
    if problem.startswith(_INDENTATION_PROBLEMS):
        return _indentation_hint(lines, mark.line)
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _open_blocks(lines: list[str], line: int) -> list[tuple[int, int]]:
    """(indentation, 0-based line) of the blocks open above a line, innermost first: each
    line before it that is less indented than every line between them."""
    found, limit = [], None
    for number in range(line - 1, -1, -1):
        if _is_content(lines[number]) and (limit is None or _indent(lines[number]) < limit):
            limit = _indent(lines[number])
            found.append((limit, number))
            if limit == 0:
                break
    return found


def _indentation_hint(lines: list[str], line: int) -> YamlHint | None:
    """A line whose indentation is none of the blocks' open above it: the columns it could have."""
    indent = _indent(lines[line])
    blocks = _open_blocks(lines, line)
    if not blocks or indent in {level for level, _ in blocks}:
        return None
    deeper = [block for block in blocks if block[0] > indent]
    level, number = deeper[-1] if deeper else blocks[0]  # the nearest block it falls short of, else the innermost
    shown = lines[number].strip()
    hint = f"indent it to column {level + 1}, as line {number + 1} ('{_cut(shown)}')"
    outer = [block for block in blocks if block[0] < indent]
    if deeper and outer:
        hint += f", or to column {outer[0][0] + 1} to end that block"
    return YamlHint(line + 1, indent + 1, f"this line is indented to column {indent + 1}, which no block around it uses", hint)


def _colon_hint(lines: list[str], line: int, column: int) -> YamlHint:
    """A ': ' where YAML cannot start a mapping: inside a text, or after a key indented wrongly."""
    text = lines[line]
    before = text[:column].strip()
    if before.startswith("- "):
        before = before[2:].strip()
    key, separator, value = before.partition(": ")
    if not separator and _KEY.fullmatch(before):  # "   choices: [...]": a key on a line of its own
        indentation = _indentation_hint(lines, line)
        if indentation is not None:
            return YamlHint(
                indentation.line,
                indentation.column,
                indentation.message,
                indentation.hint + f"; if '{before}: ...' continues the text above instead, put that whole text in quotes",
            )
    if separator and _KEY.fullmatch(key.strip()):
        whole = text[text.index(": ", text.index(key)) + 2 :].strip()
        quoted = f"{key.strip()}: {json.dumps(whole, ensure_ascii=False)}"
        hint = f"put the text in quotes: {_cut(quoted, 70)}"
    else:
        hint = "put the text in quotes (\"...\"), or write it as a block: 'field: |' with the text on the lines below"
    return YamlHint(line + 1, column + 1, "a ': ' inside a text, where YAML reads a new key", hint)


def _cut(text: str, length: int = 40) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def split_flow_item(node: yaml.Node, expected: int) -> YamlHint | None:
    """For a list written [a, b, c] with more items than expected (the other languages'
    count): the item a comma most likely split, and how to write it (comma_split_item);
    without one, the list itself is named. None when the list is not a [...] list or is not
    too long: the comma is not the cause."""
    if not isinstance(node, yaml.SequenceNode) or not node.flow_style or len(node.value) <= expected:
        return None
    start = node.start_mark
    return comma_split_item(node) or YamlHint(
        start.line + 1,
        start.column + 1,
        f"this [...] list has {len(node.value)} items where {expected} are expected",
        'a comma ends an item in a [...] list: quote an item that holds one ("a, b"), or write the list one "- item" per line',
    )


def comma_split_item(node: yaml.Node) -> YamlHint | None:
    """In a list written [a, b, c], the item a comma most likely split: one whose next item
    starts in lower case where the list's first item does not ("[Paris, the capital,
    Lyon]"); None when no item looks so."""
    if not isinstance(node, yaml.SequenceNode) or not node.flow_style:
        return None
    items = node.value
    texts = [item.value if isinstance(item, yaml.ScalarNode) and not item.style else None for item in items]
    lower_first = bool(texts) and bool(texts[0]) and texts[0][:1].islower()
    for index in range(1, len(items)):
        previous, current = texts[index - 1], texts[index]
        if previous and current and current[:1].islower() and not lower_first:
            start = items[index - 1].start_mark
            joined = json.dumps(f"{previous}, {current}", ensure_ascii=False)
            return YamlHint(
                start.line + 1,
                start.column + 1,
                f"the item at line {start.line + 1} holds a comma, which ends an item in a [...] list",
                f"quote it: {_cut(joined, 70)}",
            )
    return None
