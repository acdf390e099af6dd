"""The .apkg package of a deck's plan, written by genanki's documented API (Model, Deck,
Note, Package.write_to_file): the SQLite collection, zipped with an empty media list. Its
bytes depend only on the plan (study/anki.py makes it): genanki numbers notes and cards in
turn from the package's time and dates them all by it; settle_notes then gives each note its
record's time and ids of its own (stable_ids), and the zip is made again here with entries
dated 1980-01-01.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sqlite3
import struct
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite.content.media import media_bytes


def load_genanki():
    """genanki, imported where a package is planned or made: the processes aside, not the
    start of every build (it brings asyncio, some 30 ms)."""
    import genanki

    return genanki


ZIP_LEVEL = 2  # ISA-L's level (0 to 3): at 5,000 questions 3 takes twice as long for 2 % less


@dataclass(frozen=True)
class DeckNote:
    model: str  # its note type's key in the plan's models: "question", "typed", "cloze", "term"
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
    cloze: bool = False  # a Cloze note type: a card for each {{c1::...}} of its first field


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


_ID_RANGE = {"low": 1_500_000_000_000, "span": 100_000_000_000}  # note and card ids: milliseconds, as Anki makes them


def note_id(guid: str) -> int:
    """A note's id where none other takes it: derived from its GUID."""
    return stable_id(guid, "note", **_ID_RANGE)


def card_id(guid: str, ordinal: int) -> int:
    """A card's id where none other takes it: derived from its note's GUID and its place."""
    return stable_id(guid, "card", *([str(ordinal)] if ordinal else []), **_ID_RANGE)


def free_ids(keys: Iterable[tuple], first_choice: Callable[..., int], taken: set[int]) -> dict[tuple, int]:
    """An id for each key, none in taken (which each is added to): its first choice, else the
    next free one after it, wrapping round within the ids' range. Keys are given their ids in
    sorted order, so the same keys always get the same ids, and a key keeps its id unless a
    key before it comes to collide with it: at 120,000 notes, two first choices are equal in
    about one deck in fourteen."""
    ids = {}
    low, span = _ID_RANGE["low"], _ID_RANGE["span"]
    for key in sorted(keys):
        chosen = first_choice(*key)
        while chosen in taken:
            chosen = low + (chosen - low + 1) % span
        taken.add(chosen)
        ids[key] = chosen
    return ids


def write_package(plan: DeckPlan, scratch: str | None = None) -> bytes:
    """The .apkg bytes of a plan: genanki's Package.write_to_file writes the collection, its
    notes numbered and dated as it does, into a package in a folder of ours (in scratch, or
    the system's temporary folder); settle_notes gives them their own ids and times, and
    zip_package zips the collection again, so that equal plans make equal bytes (genanki's
    zip is dated by the time it is made)."""
    genanki = load_genanki()
    models = {
        kind: genanki.Model(
            stable_id(plan.site_key, plan.language, kind, *m.fields),
            m.name,
            fields=[{"name": name} for name in m.fields],
            templates=[{"name": m.name, "qfmt": m.front, "afmt": m.back}],
            css=m.css,
            model_type=genanki.Model.CLOZE if m.cloze else genanki.Model.FRONT_BACK,
        )
        for kind, m in plan.models.items()
    }
    decks = {name: genanki.Deck(stable_id(plan.site_key, plan.language, "deck", name), name) for name in plan.decks}
    for note in plan.notes:
        decks[note.deck].add_note(genanki.Note(model=models[note.model], fields=list(note.fields), tags=list(note.tags), guid=note.guid))
    timestamp = max((note.modified for note in plan.notes), default=0)  # the note types' time
    try:
        with tempfile.TemporaryDirectory(prefix="studysite-deck-", dir=scratch) as folder:  # on disk: a large deck stays out of memory
            made, database = Path(folder) / "genanki.apkg", Path(folder) / "collection.anki2"
            with scratch_files_in(folder):
                genanki.Package(list(decks.values())).write_to_file(str(made), timestamp=timestamp)
            with zipfile.ZipFile(made) as package, package.open("collection.anki2") as collection, database.open("wb") as copy:
                while chunk := collection.read(1 << 20):
                    copy.write(chunk)
            made.unlink()
            settle_notes(database, plan.notes)
            return zip_package(database, [(name, media_bytes(Path(plan.media_root), source)) for name, source in plan.media])
    except sqlite3.Error as error:
        error.deck_folder = scratch or tempfile.gettempdir()  # where SQLite wrote: failures.as_environment_error names it
        raise


@contextlib.contextmanager
def scratch_files_in(folder: str) -> Iterator[None]:
    """Python's temporary files made in folder while the block runs. genanki's write_to_file
    makes its copy of the collection with tempfile.mkstemp() and never deletes it: in our
    folder, it goes with it. tempfile.tempdir is the documented way to choose that folder;
    nothing else runs meanwhile in a deck's process (or, building with one job, in the build's,
    which writes the decks before it starts the search index's threads; nor in a render
    process that takes a deck, whole, from its queue)."""
    before = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield
    finally:
        tempfile.tempdir = before


def settle_notes(database: Path, notes: Iterable[DeckNote]) -> None:
    """Give each note of the collection (found by its GUID) its own time and ids, and its
    cards theirs (free_ids: derived from the GUID, never equal to another note's or card's),
    in place of genanki's: it numbers them in turn from the package's time, so a note's ids
    would change whenever a note before it came or went, and dates them all by that time,
    where Anki updates on import only the notes whose time is newer."""
    times = {note.guid: note.modified for note in notes}
    connection = sqlite3.connect(database)
    try:
        connection.execute("PRAGMA journal_mode = OFF")  # a file made once and thrown away needs no rollback journal
        connection.execute("PRAGMA synchronous = OFF")  # nor to reach the disk before it is zipped
        cards = connection.execute("SELECT notes.guid, cards.ord FROM cards JOIN notes ON notes.id = cards.nid").fetchall()
        taken: set[int] = set()
        note_ids = free_ids([(guid,) for guid in times], note_id, taken)
        card_ids = free_ids(cards, card_id, taken)
        connection.execute("CREATE TEMP TABLE planned_notes (guid TEXT PRIMARY KEY, id INTEGER, mod INTEGER)")
        connection.execute("CREATE TEMP TABLE planned_cards (guid TEXT, ord INTEGER, id INTEGER, PRIMARY KEY (guid, ord))")
        connection.executemany("INSERT INTO planned_notes VALUES (?, ?, ?)", ((guid, note_ids[(guid,)], time) for guid, time in times.items()))
        connection.executemany("INSERT INTO planned_cards VALUES (?, ?, ?)", ((guid, ordinal, new) for (guid, ordinal), new in card_ids.items()))
        connection.executescript(SETTLE_NOTES)
        connection.commit()
        connection.execute("VACUUM")  # the rows moved: packed again, as a collection written at once is
    finally:
        connection.close()


# genanki's ids are set aside first (made negative), so that no new id meets an old one.
SETTLE_NOTES = """
UPDATE cards SET id = -id;
UPDATE notes SET id = -id;
UPDATE cards SET id = planned_cards.id, nid = planned_notes.id, mod = planned_notes.mod
  FROM notes, planned_notes, planned_cards
  WHERE notes.id = -cards.nid AND planned_notes.guid = notes.guid AND planned_cards.guid = notes.guid AND planned_cards.ord = cards.ord;
UPDATE notes SET id = planned_notes.id, mod = planned_notes.mod FROM planned_notes WHERE planned_notes.guid = notes.guid;
"""


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
