"""The .apkg package of a deck's plan, written by genanki (its public Model, Deck, Note and
Package): the SQLite collection, zipped with an empty media list. Its bytes depend only on
the plan (study/anki.py makes it): each note carries its record's time and ids derived from
its GUID (PlannedNote), the note types the latest of those times, and the zip entries are
dated 1980-01-01.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
import sqlite3
import struct
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from studysite.content.media import media_bytes

if TYPE_CHECKING:
    import genanki


def load_genanki():
    """genanki, imported where a package is planned or made: the processes aside, not the
    start of every build (it brings asyncio, some 30 ms)."""
    import genanki

    return genanki


ZIP_LEVEL = 2  # ISA-L's level (0 to 3): at 5,000 questions 3 takes twice as long for 2 % less


@dataclass(frozen=True)
class DeckNote:
    model: str  # "question" or "term"
    deck: str  # the full name of its sub-deck
    guid: str
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    modified: int  # seconds since the epoch; Anki updates a note when an import's is newer


@dataclass(frozen=True)
class ModelPlan:
    name: str
    fields: tuple[str, ...]
    front: str
    back: str
    css: str


@dataclass(frozen=True)
class DeckPlan:
    """Everything one language's package is made from; equal plans make equal bytes."""

    language: str
    path: str
    site_key: str
    models: Mapping[str, ModelPlan]
    decks: tuple[str, ...]
    notes: tuple[DeckNote, ...]
    made_from: str = ""  # what writes the bytes besides the plan: Studysite's code and the libraries' versions
    media: tuple[tuple[str, str], ...] = ()  # (name in the deck, file in the content folder): names change with the bytes
    media_root: str = ""  # the content folder

    @property
    def key(self) -> str:
        """A digest of the plan, to carry the package over when nothing changed."""
        digest = hashlib.sha256(f"{self.made_from}{(self.language, self.path, self.site_key, self.models, self.decks, self.media)!r}".encode())
        for note in self.notes:  # note by note, the lengths of its parts then the parts: twice as fast as its repr
            parts = (note.model, note.deck, note.guid, str(note.modified), *note.fields, "\x1e", *note.tags)
            digest.update(repr(tuple(map(len, parts))).encode())
            digest.update("".join(parts).encode())
        return digest.hexdigest()

    def count(self, model: str) -> int:
        return sum(1 for note in self.notes if note.model == model)


def stable_id(*parts: str, low: int = 1 << 30, span: int = 1 << 30) -> int:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return low + int.from_bytes(digest[:8], "big") % span


def write_package(plan: DeckPlan) -> bytes:
    """The .apkg bytes of a plan: genanki's Package.write_to_db writes the collection into a
    file of ours, zipped here. Not its write_to_file: that leaves its copy of the collection
    in the system's temporary folder, and zips it undeflated, dated by that file's time."""
    genanki = load_genanki()
    models = {
        kind: genanki.Model(
            stable_id(plan.site_key, plan.language, kind, *m.fields),
            m.name,
            fields=[{"name": name} for name in m.fields],
            templates=[{"name": m.name, "qfmt": m.front, "afmt": m.back}],
            css=m.css,
        )
        for kind, m in plan.models.items()
    }
    decks = {name: genanki.Deck(stable_id(plan.site_key, plan.language, "deck", name), name) for name in plan.decks}
    planned_note = planned_note_class()
    for note in plan.notes:
        decks[note.deck].add_note(planned_note(note, models[note.model]))
    timestamp = max((note.modified for note in plan.notes), default=0)  # the note types' time
    with tempfile.TemporaryDirectory(prefix="studysite-deck-") as folder:  # on disk: a large deck stays out of memory
        database = Path(folder) / "collection.anki2"
        connection = sqlite3.connect(database)
        try:
            connection.execute("PRAGMA journal_mode = OFF")  # a file made once and thrown away needs no rollback journal
            connection.execute("PRAGMA synchronous = OFF")  # nor to reach the disk before it is zipped
            genanki.Package(list(decks.values())).write_to_db(connection.cursor(), timestamp, itertools.count(1))  # ids: PlannedNote's
            connection.commit()
        finally:
            connection.close()
        return zip_package(database, [(name, media_bytes(Path(plan.media_root), source)) for name, source in plan.media])


@functools.cache
def planned_note_class() -> type[genanki.Note]:
    """genanki's Note for a DeckNote (made once genanki is imported), written with the note's
    own time, so that Anki updates on import only the notes whose records changed, and with
    ids derived from its GUID rather than the package's counter, which numbers the notes in
    turn from the package's time: a note keeps its ids when other notes come or go."""
    genanki = load_genanki()

    class PlannedNote(genanki.Note):
        def __init__(self, note: DeckNote, model: genanki.Model):
            super().__init__(model=model, fields=list(note.fields), tags=list(note.tags), guid=note.guid)
            self.modified = note.modified

        def write_to_db(self, cursor: sqlite3.Cursor, timestamp: float, deck_id: int, id_gen: Iterator[int]) -> None:
            ids = [stable_id(self.guid, "note", **_ID_RANGE)]
            ids += [stable_id(self.guid, "card", *([str(card.ord)] if card.ord else []), **_ID_RANGE) for card in self.cards]
            super().write_to_db(cursor, self.modified, deck_id, iter(ids))

    return PlannedNote


_ID_RANGE = {"low": 1_500_000_000_000, "span": 100_000_000_000}  # note and card ids: milliseconds, as Anki makes them


def zip_package(database: Path, media: list[tuple[str, bytes]] | None = None) -> bytes:
    """The package: a zip of the collection, the media list ({"0": name, ...}) and each media
    file (entries "0", "1"...), each entry deflated by ISA-L (isal: a 5,000-question
    collection in a fifth of the time zlib takes at level 3, 8 % larger) and dated
    1980-01-01, so that equal decks make equal bytes. zipfile deflates only with zlib; the
    entries' headers are written here, as zipfile writes them."""
    from isal import isal_zlib

    media = media or []
    listing = json.dumps({str(number): name for number, (name, _) in enumerate(media)}).encode()
    entries = [(b"collection.anki2", database.read_bytes()), (b"media", listing), *((str(number).encode(), data) for number, (_, data) in enumerate(media))]
    package, directory = io.BytesIO(), []
    for name, data in entries:
        compressor = isal_zlib.compressobj(ZIP_LEVEL, isal_zlib.DEFLATED, -15)  # raw deflate, as zip holds it
        deflated = compressor.compress(data) + compressor.flush()
        sizes = (isal_zlib.crc32(data), len(deflated), len(data), len(name))
        directory.append(_ZIP_DIRECTORY_ENTRY.pack(b"PK\1\2", _ZIP_MADE_BY, 20, 0, 8, 0, _ZIP_DOS_DATE, *sizes, 0, 0, 0, 0, 0o600 << 16, package.tell()) + name)
        package.write(_ZIP_LOCAL_HEADER.pack(b"PK\3\4", 20, 0, 8, 0, _ZIP_DOS_DATE, *sizes, 0) + name + deflated)
    start = package.tell()
    package.write(b"".join(directory))
    package.write(_ZIP_END.pack(b"PK\5\6", 0, 0, len(directory), len(directory), package.tell() - start, start, 0))
    return package.getvalue()


# A zip's local file header, central directory entry and end of central directory (APPNOTE
# 4.3.7, 4.3.12, 4.3.16): version 2.0, deflated, no flags, extra fields or comments.
_ZIP_LOCAL_HEADER = struct.Struct("<4s5H3L2H")
_ZIP_DIRECTORY_ENTRY = struct.Struct("<4s6H3L5H2L")
_ZIP_END = struct.Struct("<4s4H2LH")
_ZIP_MADE_BY = 3 << 8 | 20  # Unix, so that the entries' permissions (rw-------) are read as zipfile writes them
_ZIP_DOS_DATE = (1980 - 1980) << 9 | 1 << 5 | 1  # 1980-01-01; the time, midnight, is 0
