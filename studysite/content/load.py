"""Load: find the content files and parse each into a YAML node tree that keeps positions.

Nothing here knows the content schema; it only turns bytes into located nodes and reports
files that cannot be read as YAML.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from studysite.content.records import KINDS
from studysite.content.yaml_hints import syntax_hint
from studysite.diagnostics import Location, Report, did_you_mean
from studysite.fileio import MAX_TEXT, FileRefused, files_below, read_bytes

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml: slower, same nodes
    _Loader = yaml.SafeLoader

SITE_FILE = "site.yaml"
MAX_DEPTH = 64
# libyaml's composer recurses once per nesting level and overflows the C stack at some
# tens of thousands of levels; a text shorter than this cannot nest that deep.
_SAFE_LENGTH = 10_000


@dataclass(frozen=True)
class Document:
    """One content file: its path relative to the content folder, its kind and its root node."""

    path: str
    kind: str
    node: yaml.Node


def find_content_files(content_dir: Path, report: Report, listing: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Every YAML file of the content folder as (kind, path relative to the folder, POSIX),
    in a stable order; site.yaml's kind is "site". listing: every file below the folder
    (relative POSIX paths), when it was listed already."""
    files: list[tuple[str, str]] = []
    if not content_dir.is_dir():
        report.error(
            Location(SITE_FILE, 1, 1), "site.missing", f"there is no content folder '{content_dir}'", "give the folder that holds site.yaml with --content"
        )
        return files
    if os.path.lexists(content_dir / SITE_FILE) and not (content_dir / SITE_FILE).is_dir():  # read, or refused where it is read
        files.append(("site", SITE_FILE))
    else:
        report.error(
            Location(SITE_FILE, 1, 1),
            "site.missing",
            f"the content folder '{content_dir}' has no {SITE_FILE}",
            "a site needs content/site.yaml with at least 'languages: [..]'",
        )
    order = {kind: index for index, kind in enumerate(KINDS)}
    listing = list(files_below(content_dir) if listing is None else listing)
    in_kinds = [
        (kind, relative)
        for relative in listing
        for kind in [relative.split("/", 1)[0]]
        if kind in order and "/" in relative
    ]
    for kind, relative in sorted(in_kinds, key=lambda item: (order[item[0]], item[1].split("/"))):
        name = relative.rsplit("/", 1)[1]
        if is_record_file(relative):
            files.append((kind, relative))
        elif name.endswith(".yml") and not name.startswith("."):
            report.warning(Location(relative, 1, 1), "file.extension", "file ignored: content files end in '.yaml'", f"rename it to '{name[:-4]}.yaml'")
    media_folders = _media_folders(listing)
    for path in sorted(content_dir.iterdir()):
        if path.is_dir() and path.name not in KINDS and not path.name.startswith(".") and path.name not in media_folders:
            hint = _closest_kind(path.name)
            report.warning(Location(path.name + "/", 1, 1), "folder.unknown", f"folder '{path.name}' is not a content kind and is ignored", hint)
    return files


def _media_folders(listing: list[str]) -> set[str]:
    """The top folders of the content folder that hold files, none of them YAML: folders of
    images and audio (content/media.py), not misspelt kinds."""
    holding = {relative.split("/", 1)[0] for relative in listing if "/" in relative}
    with_yaml = {relative.split("/", 1)[0] for relative in listing if "/" in relative and relative.endswith((".yaml", ".yml"))}
    return holding - with_yaml


def is_record_file(relative: str) -> bool:
    """Whether a file of the content folder (its relative POSIX path) holds a record."""
    kind, _, rest = relative.partition("/")
    name = rest.rsplit("/", 1)[-1]
    return kind in KINDS and name.endswith(".yaml") and not name.startswith(".")


def _closest_kind(name: str) -> str:
    return did_you_mean(name, KINDS) or f"content folders are {', '.join(KINDS)}"


def load_documents(content_dir: Path, report: Report) -> list[Document]:
    """Parse every content file; unreadable files are reported and left out."""
    report.source_root = content_dir
    documents = []
    for kind, relative in find_content_files(content_dir, report):
        node = parse_file(content_dir / relative, relative, report)
        if node is not None:
            documents.append(Document(relative, kind, node))
    return documents


def parse_file(path: str | Path, relative: str, report: Report) -> yaml.Node | None:
    data = read_file_bytes(path, relative, report)
    return parse_bytes(data, relative, report) if data is not None else None


def read_file_bytes(path: str | Path, relative: str, report: Report) -> bytes | None:
    """A content file's bytes (path: the content folder's, then relative); refused, located,
    when it is not a regular file, holds more than fileio.MAX_TEXT or is a link out of the folder."""
    try:
        return read_bytes(path, MAX_TEXT, within=os.fspath(path).removesuffix(relative))
    except FileRefused as error:
        report.error(Location(relative, 1, 1), error.code, error.strerror, error.hint, source="")
        return None
    except OSError as error:
        report.error(Location(relative, 1, 1), "file.unreadable", f"cannot read the file: {error.strerror}")
        return None


def parse_bytes(data: bytes, relative: str, report: Report) -> yaml.Node | None:
    text = decode(data, relative, report)
    if text is None:
        return None
    return parse_text(text, relative, report)


def decode(data: bytes, relative: str, report: Report) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        report.error(
            Location(relative, line, column),
            "file.encoding",
            f"the file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
            "save the file as UTF-8",
        )
        return None


def _tab_at(text: str, line: int, column: int) -> bool:
    """Whether the character at a 0-based line and column of a text is a tab."""
    lines = text.splitlines()
    return line < len(lines) and column < len(lines[line]) and lines[line][column] == "\t"


def parse_text(text: str, relative: str, report: Report) -> yaml.Node | None:
    """The root node of a YAML text, or None after reporting why there is none."""
    try:
        node = _compose(text)
    except _TooDeep as deep:
        report.error(
            Location(relative, deep.mark.line + 1, deep.mark.column + 1),
            "yaml.depth",
            f"the YAML nests deeper than {MAX_DEPTH} levels",
            "content records are at most a few levels deep",
        )
        return None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        message = error.problem or error.context or "invalid YAML"
        hint = f"{error.context} that starts at line {error.context_mark.line + 1}" if error.context and error.context_mark else ""
        if mark and _tab_at(text, mark.line, mark.column):  # PyYAML names it only as a character that cannot start a token
            message, hint = "a tab where YAML expects spaces", "indent with spaces: YAML does not allow tabs for indentation"
        elif (common := syntax_hint(text, error)) is not None:  # a common mistake, at its own line
            line, column, message, hint = common.line, common.column, common.message, common.hint
        report.error(Location(relative, line, column), "yaml.syntax", f"YAML syntax error: {message}", hint)
        return None
    except yaml.reader.ReaderError as error:
        _report_character(text, _code_point(error.character), relative, report)
        return None
    except yaml.YAMLError as error:
        report.error(Location(relative, 1, 1), "yaml.syntax", "YAML syntax error: " + str(error).splitlines()[0])
        return None
    if node is None:
        report.error(Location(relative, 1, 1), "yaml.empty", "the file is empty", "a record is a YAML mapping of keys to values")
    return node


class _TooDeep(Exception):
    def __init__(self, mark: yaml.Mark):
        super().__init__(mark)
        self.mark = mark


def _compose(text: str) -> yaml.Node | None:
    """Compose a text, raising _TooDeep at the first collection nested deeper than MAX_DEPTH,
    whichever notices it: the event scan, libyaml's own nesting limit or the composed tree."""
    if len(text) > _SAFE_LENGTH or _Loader is yaml.SafeLoader:  # PyYAML's own composer recurses sooner
        _check_nesting(text)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError:
        _check_nesting(text)  # newer libyaml stops deep nesting itself, as a syntax error
        raise
    _check_tree(node)
    return node


def _check_nesting(text: str) -> None:
    """Scan the parser's events, which need no recursion. libyaml may stop at its own nesting
    limit before it has sent the events that show the depth, so a scan it cannot finish is
    repeated with PyYAML's pure-Python parser, which has none; a syntax error ends the scan
    quietly (the parse that follows reports it with its position)."""
    for loader in dict.fromkeys((_Loader, yaml.SafeLoader)):
        depth = 0
        try:
            for event in yaml.parse(text, Loader=loader):
                if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise _TooDeep(event.start_mark)
                elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    depth -= 1
            return
        except yaml.YAMLError:
            continue


_NESTING = (yaml.MappingNode, yaml.SequenceNode)  # the nodes that hold others (a scalar nests nothing)


def _check_tree(root: yaml.Node | None) -> None:
    """The same limit on a composed tree, counting each node where it is written (an alias
    is not followed again), so a short text gets the same verdict as a long one."""
    stack, seen = [(root, 1)] if isinstance(root, _NESTING) else [], set()
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _TooDeep(node.start_mark)
        children = [child for pair in node.value for child in pair] if isinstance(node, yaml.MappingNode) else node.value
        stack.extend((child, depth + 1) for child in reversed(children) if isinstance(child, _NESTING))


def _report_character(text: str, code: int, relative: str, report: Report) -> None:
    index = max(text.find(chr(code)), 0)  # the reader stops at the first such character
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    if unicodedata.category(chr(code)) == "Cc":
        message, hint = f"YAML does not allow the control character U+{code:04X}", "remove it"
    else:
        message, hint = f"YAML does not allow the character U+{code:04X}", "remove it, or write it as an escape in a double-quoted string"
    report.error(Location(relative, line, column), "yaml.character", message, hint)


def _code_point(character: int | str) -> int:
    return character if isinstance(character, int) else ord(character)
