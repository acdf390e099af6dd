"""Reading typed values out of located YAML nodes, reporting every mismatch where it is."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import yaml

from studysite.diagnostics import Location, Report, did_you_mean

STR_TAG = "tag:yaml.org,2002:str"
NULL_TAG = "tag:yaml.org,2002:null"
NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
# The tags YAML gives plain values by itself; an explicit other tag (!!python/..., !include)
# asks for behaviour that content never gets.
PLAIN_TAGS = {STR_TAG, NULL_TAG, *NUMBER_TAGS, "tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}

# C0 and C1 control characters but tab, line feed and carriage return. YAML keeps them out of a
# file, but a double-quoted string makes them from escapes ("\0", "\x01"); in a page they are
# invisible at best and cut or garble the text at worst.
CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

_KIND_NAMES = {
    yaml.ScalarNode: "a single value",
    yaml.SequenceNode: "a list",
    yaml.MappingNode: "a mapping",
}


def describe(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
        return "nothing"
    return _KIND_NAMES.get(type(node), "a value")


@dataclass
class NodeReader:
    """Reads one file's nodes; every problem goes to the report with the node's position."""

    path: str
    report: Report

    def plain(self, node: yaml.Node) -> bool:
        """False, with an error, for a node that carries an explicit YAML tag."""
        if node.tag in PLAIN_TAGS:
            return True
        self.error(node, "yaml.tag", f"YAML tag '{node.tag}' is not supported", "remove the tag; content is plain text, lists and mappings")
        return False

    def where(self, node: yaml.Node) -> Location:
        return locate(self.path, node)

    def error(self, node: yaml.Node, code: str, message: str, hint: str = "") -> None:
        self.report.error(self.where(node), code, message, hint)

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node, yaml.Node]] | None:
        """The (key, key node, value node) entries of a mapping; duplicate keys are errors."""
        if not self.plain(node):
            return None
        if not isinstance(node, yaml.MappingNode):
            self.error(node, "type.mapping", f"{what} must be a mapping of keys to values, not {describe(node)}")
            return None
        seen: dict[str, yaml.Node] = {}
        entries = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error(key_node, "type.key", "a key must be a plain word, not " + describe(key_node))
                continue
            key = key_node.value
            if key == "<<":  # YAML 1.1's merge key, which composing (as Studysite reads) leaves a key like any other
                self.error(key_node, "yaml.merge", "merge keys ('<<') are not supported", "write the keys out; an alias (*name) may stand for a whole value")
                continue
            if key in seen:
                first = seen[key].start_mark.line + 1
                self.error(key_node, "yaml.duplicate-key", f"duplicate key '{key}' (first set at line {first})", "remove one of the two")
                continue
            seen[key] = key_node
            entries.append((key, key_node, value_node))
        return entries

    def text(self, node: yaml.Node, key: str) -> str | None:
        """A non-empty text value without control characters; numbers and other scalars are
        taken as written."""
        if not self.plain(node):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag == NULL_TAG:
            self.error(node, "type.text", f"{_named(key)} must be text, not {describe(node)}", _text_hint(node))
            return None
        value = unicodedata.normalize("NFC", node.value.strip())
        if not value:
            self.error(node, "value.empty", f"{_named(key)} is empty")
            return None
        control = CONTROL_CHARACTER.search(value)
        if control:
            self.error(
                node,
                "value.control-character",
                f"{_named(key)} contains the control character U+{ord(control.group()):04X}",
                "remove it; in a double-quoted string an escape such as \\0 or \\x01 makes one",
            )
            return None
        return value

    def number(self, node: yaml.Node, key: str) -> float | None:
        if not self.plain(node):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag not in NUMBER_TAGS:
            self.error(node, "type.number", f"'{key}' must be a number, not {_shown(node)}")
            return None
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            self.error(node, "type.number", f"'{key}' must be a number, not {_shown(node)}")
            return None

    def text_list(self, node: yaml.Node, key: str) -> list[tuple[str, yaml.Node]] | None:
        """A list of non-empty texts, each with its node."""
        if not self.plain(node):
            return None
        if not isinstance(node, yaml.SequenceNode):
            self.error(node, "type.list", f"'{key}' must be a list, not {describe(node)}", f"write it as '{key}: [first, second]' or one '- item' per line")
            return None
        items = []
        for item in node.value:
            value = self.text(item, f"an item of '{key}'")
            if value is None:
                return None
            items.append((value, item))
        return items

    def block(self, node: yaml.Node, language: str, keys: tuple[str, ...], readers: dict | None = None) -> dict:
        """The fields of one language block, each read by its reader (plain text by default)."""
        entries = self.mapping(node, f"the '{language}' block")
        block: dict = {}
        if entries is None:
            return block
        for key, key_node, value_node in entries:
            if key not in keys:
                self.error(
                    key_node,
                    "key.unknown",
                    f"unknown key '{key}' in the '{language}' block",
                    did_you_mean(key, keys) or f"a '{language}' block takes {', '.join(keys)}",
                )
                continue
            read = (readers or {}).get(key, self.text)
            value = read(value_node, key)
            if value is not None:
                block[key] = value
                block["@" + key] = value_node
        return block


def locate(path: str, node: yaml.Node) -> Location:
    """Where a node starts, 1-based."""
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _named(key: str) -> str:
    """A field as a message names it: 'question', or an item of 'choices'."""
    return key if key.startswith("an item of ") else f"'{key}'"


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode) and node.tag != NULL_TAG:
        return f"'{node.value}'"
    return describe(node)


def _text_hint(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a text with ': ' in it must be quoted"
    if isinstance(node, yaml.SequenceNode):
        return "a text that starts with '[' must be quoted"
    return ""
