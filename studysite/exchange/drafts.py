"""Drafts: a question as an imported file gives it, before it is a record.

A draft holds the record's fields and its language blocks as the YAML of a record would
hold them (answer letters, true/false, numbers, texts and lists of texts), where in the
file each came from, and which fields the file's format can say at all: on `--update`,
a field the format cannot say (GIFT has no unit) is kept from the record, one it can say
and does not is removed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from studysite.content.readers import MAX_ID_BYTES
from studysite.diagnostics import Location, Report

UTF8_HINT = "save the file as UTF-8: in Excel 'CSV UTF-8 (Comma delimited)', in LibreOffice 'Character set: Unicode (UTF-8)'"
SLUG_LENGTH = 60  # an id made from a question's stem: its first words, up to this many characters


@dataclass(frozen=True)
class CellLocation(Location):
    """A cell of a spreadsheet: file:row:column-name (rows counted as a spreadsheet counts
    them, the header being row 1)."""

    column_name: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column_name}" if self.column_name else f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Draft:
    """One imported question. Field paths name a record field ("answer") or a block's
    ("nl.choices", "nl.choices.2" for an item)."""

    where: Location  # the question in the file: its row, or its first line
    record: Mapping[str, object]  # the record's fields, as YAML values
    blocks: Mapping[str, Mapping[str, object]]  # language -> the block's fields
    carried: frozenset[str]  # the field paths the format can say ("type", "nl.unit")
    places: Mapping[str, Location] = field(default_factory=dict)  # field path -> where the file gives it
    name: str = ""  # what the id is made from when the record has none: a name, else the stem
    category: str = ""  # GIFT / Moodle XML: the category (its last part), "" for none
    category_id: str = ""  # Moodle XML: the category's idnumber
    media: Mapping[str, bytes] = field(default_factory=dict)  # Moodle XML: the images its texts embed, by @@PLUGINFILE@@ path

    def place(self, path: str) -> Location:
        """Where the file gives a field (or the closest enclosing one); the question's place
        when the file does not say."""
        while path:
            if path in self.places:
                return self.places[path]
            path = path.rpartition(".")[0]
        return self.where


@dataclass(frozen=True)
class TopicDraft:
    """A topic a category of an imported file names and the site does not have yet."""

    id: str
    language: str
    title: str
    where: Location


def slug(text: str, limit: int = SLUG_LENGTH) -> str:
    """An id made of a text: ASCII letters and digits joined by '-', cut at a word boundary."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    limit = min(limit, MAX_ID_BYTES)
    if len(words) > limit:
        cut = words[: limit + 1].rsplit("-", 1)[0] if "-" in words[: limit + 1] else words[:limit]
        words = cut.strip("-")
    return words


def unique_ids(names: Iterable[str], taken: Iterable[str] = (), fallback: str = "question") -> list[str]:
    """An id for each name (slugified; fallback when nothing of it is left), each one
    different from the others and from the taken ones: a second 'q' becomes 'q-2'."""
    used, ids = set(taken), []
    for name in names:
        base = slug(name) or fallback
        candidate, number = base, 1
        while candidate in used:
            number += 1
            candidate = f"{base}-{number}"
        used.add(candidate)
        ids.append(candidate)
    return ids


def with_id(draft: Draft, record_id: str) -> Draft:
    return replace(draft, record={**draft.record, "id": record_id})


def with_topic(draft: Draft, topic: str) -> Draft:
    return replace(draft, record={**draft.record, "topic": topic}, carried=draft.carried | {"topic"})


def merged(existing: Mapping[str, object], draft: Mapping[str, object], carried: Iterable[str], prefix: str = "") -> dict[str, object]:
    """Fields of an existing record or block replaced by a draft's: those its format
    carries are the draft's (absent there: removed), the others are kept."""
    carried = set(carried)
    values = {name: value for name, value in existing.items() if f"{prefix}{name}" not in carried}
    values.update(draft)
    return values


def decode_text(data: bytes, path: str, report: Report) -> str | None:
    """An imported file's text: UTF-8 (a byte order mark is fine), or UTF-16 with its byte
    order mark (a spreadsheet's "Unicode text"); None (reported, with the line of the first
    byte that is not UTF-8) otherwise. Latin-1 is refused rather than guessed at: a wrong
    guess would garble every accent without a word."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            report.error(Location(path, 1, 1), "file.encoding", "the file starts as UTF-16 but is not", UTF8_HINT, source="")
            return None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        byte = data[error.start]
        as_latin = bytes([byte]).decode("cp1252", errors="replace")
        message = f"the file is not UTF-8: byte 0x{byte:02X} on line {line} (in Latin-1 / Windows-1252 it would be '{as_latin}')"
        report.error(Location(path, line, column), "file.encoding", message, UTF8_HINT, source="")
        return None
