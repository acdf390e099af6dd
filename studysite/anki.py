"""Anki: one deck package (.apkg) per site language, made with genanki.

A language's deck is "<site title>" with a sub-deck per topic ("<site title>::<topic
title>") holding its questions, and one for the glossary's terms. Fields hold the same
sanitised HTML as the pages (without the links to term pages, which would lead nowhere
in Anki). Model, deck and note ids and note GUIDs are derived from the site's URL, the
language and the record id, so importing a newer deck updates the notes it imported
before. The package's bytes depend only on its notes: genanki's clock is replaced by the
modification times of the records (or SOURCE_DATE_EPOCH) and the zip entries are dated
1980-01-01.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import tempfile
import unicodedata
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from . import urls
from .forks import Aside
from .graph import Edition, LanguageGraph, build_edition, topic_questions
from .i18n import language_name
from .inputs import modified_seconds
from .markup import ContentHtml
from .model import Content, answer_letter
from .viewtypes import DeckSummary
from .write import Manifest, SiteWriter

if TYPE_CHECKING:
    import genanki


def _genanki():
    """genanki, imported where a package is planned or made: the processes aside, not the
    start of every build (it brings asyncio, some 30 ms)."""
    import genanki

    return genanki


CARD_TEMPLATES = "anki/cards.html"
UNTRANSLATED_TAG = "untranslated"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
ZIP_LEVEL = 3  # zlib's level: a 5,000-question collection deflates in half the time of the default 6, 11 % larger
DECK_SUFFIX = ".apkg"
QUESTION_FIELDS = ("Stem", "Choices", "Answer", "Explanation", "Topic", "Link")


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

    @property
    def key(self) -> str:
        """A digest of the plan, to carry the package over when nothing changed."""
        digest = hashlib.sha256(f"{_genanki().__version__}{(self.language, self.path, self.site_key, self.models, self.decks)!r}".encode())
        for note in self.notes:  # note by note: the repr of a whole deck would be a large string; of a tuple: made in C
            digest.update(repr((note.model, note.deck, note.guid, note.fields, note.tags, note.modified)).encode())
        return digest.hexdigest()

    def count(self, model: str) -> int:
        return sum(1 for note in self.notes if note.model == model)


def deck_path(title: str, language: str) -> str:
    """Where a language's package is written: next to its downloads page."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-") or "deck"
    return f"{urls.downloads(language)}{slug}-{language}{DECK_SUFFIX}"


def deck_summary(lg: LanguageGraph, default_title: str) -> DeckSummary:
    """What the downloads page says of a language's deck: where it is and what it holds."""
    topics = sum(1 for topic_id in lg.edition.topics if lg.questions_by_topic[topic_id])
    path = deck_path(default_title, lg.edition.language)
    return DeckSummary(path, questions=len(lg.edition.questions), terms=len(lg.edition.terms), topics=topics)


def stable_id(*parts: str, low: int = 1 << 30, span: int = 1 << 30) -> int:
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return low + int.from_bytes(digest[:8], "big") % span


@dataclass(frozen=True)
class DeckSource:
    """What every language's deck is made from."""

    content: Content
    content_html: ContentHtml
    modified: Callable[[str], int]  # content file path -> modification time in seconds

    def site_title(self, language: str) -> str:
        texts = self.content.site.texts
        text = texts.get(language) or texts.get(self.content.site.default_language)
        return text.title if text else "Studysite"


def file_times(content_dir: Path, seen: Mapping[str, list]) -> Callable[[str], int]:
    """A record file's modification time in seconds: as the build saw it when it listed its
    inputs (inputs.py's signatures, by path), else from the file; SOURCE_DATE_EPOCH for
    every file when it is set."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "")
    if fixed.isdigit():
        return lambda path: int(fixed)
    folder = os.fspath(content_dir)
    return functools.cache(lambda path: modified_seconds(seen, os.path.join(folder, path)))


class Decks:
    """Every language's package, begun in processes aside as soon as this is made, so
    that the build goes on meanwhile (they need the records and their HTML, not the
    graph); write() takes them. A package whose plan did not change is not made again.
    Leaving the with block stops what write() did not take.

    A build into a folder with no site yet renders every page, which takes far longer than
    the decks: one process makes them all in turn (a process a language made such a build
    2 % slower at 5,000 questions in two languages: each forked process copies the pages
    of memory that it or the build writes to). A rebuild renders few pages and waits for
    the decks (an edited file's notes carry its new time in every language): at most jobs
    processes, each making its share of the languages' packages."""

    def __init__(self, previous: Manifest, source: DeckSource, environments: Mapping[str, jinja2.Environment], jobs: int = 1):
        self.source, self.environments = source, environments
        languages, children = list(source.content.site.languages), max(1, jobs) if previous.files else 1
        _name_term_language(source.content.site.term_language, languages)
        self._shares = [languages[index::children] for index in range(min(len(languages), children))]
        self._aside = Aside([functools.partial(self._make_each, previous, share) for share in self._shares], jobs, background=True)

    def __enter__(self) -> Decks:
        return self

    def __exit__(self, *exc_info) -> None:
        self._aside.__exit__(*exc_info)

    def _plan(self, language: str) -> DeckPlan:
        return plan_deck(self.source, language, self.environments[language])

    def _make(self, previous: Manifest, language: str) -> tuple[str, str, bytes | None]:
        """The package's path, key and bytes (None: the previous package is the same)."""
        plan = self._plan(language)
        key = plan.key
        same = previous.inputs.get(plan.path) == key and plan.path in previous.files
        return plan.path, key, None if same else write_package(plan)

    def _make_each(self, previous: Manifest, share: list[str]) -> list[tuple[str, str, bytes | None]]:
        return [self._make(previous, language) for language in share]

    def write(self, writer: SiteWriter) -> None:
        """The packages into the writer; one whose plan did not change is carried over unwritten."""
        made = {
            language: result
            for share, results in zip(self._shares, self._aside.results(), strict=True)
            for language, result in zip(share, results, strict=True)
        }
        for language in self.source.content.site.languages:
            path, key, package = made[language]
            if package is None and writer.reuse(path, key):
                continue
            writer.write(path, package if package is not None else write_package(self._plan(language)), key)


def plan_deck(source: DeckSource, language: str, environment: jinja2.Environment) -> DeckPlan:
    """The notes, sub-decks and note types of one language's deck: the records its site
    edition shows (graph.build_edition)."""
    content, edition = source.content, build_edition(source.content, language)
    site, title = content.site, source.site_title(language)
    cards = environment.get_template(CARD_TEMPLATES).module
    term_language = site.term_language
    term_fields = ("Term", term_field_name(term_language), "Definition")
    models = {
        "question": ModelPlan(f"{title} ({language})", QUESTION_FIELDS, str(cards.question_front()), str(cards.question_back()), str(cards.css())),
        "term": ModelPlan(
            f"{title}: {cards.glossary()} ({language})",
            term_fields,
            str(cards.term_front()),
            str(cards.term_back(term_fields[1], language_name(term_language, language) if term_language else "")),
            str(cards.css()),
        ),
    }
    notes = [*question_notes(source, edition, title, cards), *term_notes(source, edition, f"{title}::{cards.glossary()}")]
    decks = (title, *dict.fromkeys(note.deck for note in notes))
    return DeckPlan(language, deck_path(source.site_title(site.default_language), language), site.base_url, models, decks, tuple(notes))


def _name_term_language(term_language: str, languages: list[str]) -> None:
    """Look up, before the decks' processes fork, the names of the term language the decks
    write (language_name keeps them): Babel loads a locale's data in the process that first
    asks, and each process aside would load it again."""
    if term_language:
        term_field_name(term_language)
        for language in languages:
            language_name(term_language, language)


def term_field_name(term_language: str) -> str:
    """The name of the field holding a term's name in the site's term_language ("Japanese name")."""
    return f"{language_name(term_language, 'en')} name" if term_language else "Other name"


def question_notes(source: DeckSource, edition: Edition, title: str, cards) -> list[DeckNote]:
    content, language, notes, guid_for = source.content, edition.language, [], _genanki().guid_for
    by_topic = topic_questions(content, edition)
    for topic_id, text_lang in edition.topics.items():
        topic_title = content.topics[topic_id].texts[text_lang].title
        for question_id in by_topic[topic_id]:
            question, shown = content.questions[question_id], edition.questions[question_id]
            html = source.content_html.questions[(question_id, shown)]
            letters = [answer_letter(i) for i in range(len(html.choices))]
            link = urls.absolute(content.site.base_url, urls.record("questions", language, question_id))
            fields = (
                html.stem,
                str(cards.choices_field(list(zip(letters, html.choices, strict=True)))),
                str(cards.answer_field(letters[question.answer], html.choices[question.answer])),
                html.explanation,
                topic_title,
                link,
            )
            tags = (UNTRANSLATED_TAG,) if shown != language else ()
            guid = guid_for(content.site.base_url, language, "question", question_id)
            notes.append(DeckNote("question", f"{title}::{topic_title}", guid, fields, tags, source.modified(question.location.path)))
    return notes


def term_notes(source: DeckSource, edition: Edition, deck: str) -> list[DeckNote]:
    content, language, notes, guid_for = source.content, edition.language, [], _genanki().guid_for
    term_language = content.site.term_language
    for term_id, shown in sorted(edition.terms.items(), key=lambda item: content.terms[item[0]].texts[item[1]].term.casefold()):
        term = content.terms[term_id]
        other = term.texts[term_language].term if term_language in term.texts and term_language != language else ""
        fields = (term.texts[shown].term, other, source.content_html.terms.get((term_id, shown), ""))
        tags = (UNTRANSLATED_TAG,) if shown != language else ()
        guid = guid_for(content.site.base_url, language, "term", term_id)
        notes.append(DeckNote("term", deck, guid, fields, tags, source.modified(term.location.path)))
    return notes


def write_package(plan: DeckPlan) -> bytes:
    """The .apkg bytes of a plan: a zip holding the SQLite collection and an empty media list.
    genanki writes the collection's schema, decks and note types; the notes and cards are
    inserted here at once, with their final ids and times (genanki inserts them one by one),
    in the order of their ids and before the indexes are made: 25 % faster at 5,000
    questions, and a 7 % smaller package, than inserting them in deck order into indexed tables."""
    genanki = _genanki()
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
    for note in plan.notes:
        decks[note.deck].add_model(models[note.model])
    timestamp = max((note.modified for note in plan.notes), default=0)
    with tempfile.TemporaryDirectory(prefix="studysite-deck-") as folder:  # on disk: a large deck stays out of memory
        database = Path(folder) / "collection.anki2"
        connection = sqlite3.connect(database)
        try:
            connection.execute("PRAGMA journal_mode = OFF")  # a file made once and thrown away needs no rollback journal
            connection.execute("PRAGMA synchronous = OFF")  # nor to reach the disk before it is zipped
            cursor = connection.cursor()
            write_collection(cursor, list(decks.values()), timestamp)
            insert_notes(cursor, plan, models, {name: deck.deck_id for name, deck in decks.items()})
            index_collection(cursor)
            connection.commit()
        finally:
            connection.close()
        return zip_package(database)


def write_collection(cursor: sqlite3.Cursor, decks: list[genanki.Deck], timestamp: int) -> None:
    """The collection's tables, decks and note types, as genanki's Package.write_to_db
    writes them (a note type's deck is the last that uses it), with the collection's JSON
    of decks and of note types read and written once: genanki does it for each deck, a
    fifth of a package's time at a hundred topics. Its indexes: index_collection."""
    from genanki.apkg_col import APKG_COL

    cursor.executescript(_schema_statements(index=False))
    cursor.executescript(APKG_COL)
    all_decks, all_models = map(json.loads, cursor.execute("SELECT decks, models FROM col").fetchone())
    for deck in decks:
        all_decks[str(deck.deck_id)] = deck.to_json()
        all_models.update({str(model.model_id): model.to_json(timestamp, deck.deck_id) for model in deck.models.values()})
    cursor.execute("UPDATE col SET decks = ?", (json.dumps(all_decks),))
    cursor.execute("UPDATE col SET models = ?", (json.dumps(all_models),))


def insert_notes(cursor: sqlite3.Cursor, plan: DeckPlan, models: Mapping[str, genanki.Model], deck_ids: Mapping[str, int]) -> None:
    """Each note, and its card if its note type's front shows something (genanki's rule),
    as genanki would write them; ids derived from the note's GUID, times its record's."""
    notes, cards = [], []
    by_deck: dict[str, list[DeckNote]] = {deck: [] for deck in plan.decks}
    for note in plan.notes:
        by_deck[note.deck].append(note)
    for deck, deck_notes in by_deck.items():  # deck by deck, as genanki writes them
        for note in deck_notes:
            model = models[note.model]
            note_id = stable_id(note.guid, "note", low=1_500_000_000_000, span=100_000_000_000)
            tags = " " + " ".join(note.tags) + " "
            notes.append((note_id, note.guid, model.model_id, note.modified, -1, tags, "\x1f".join(note.fields), note.fields[model.sort_field_index], 0, 0, ""))
            for card_ord in card_ords(model, note.fields):
                card_id = stable_id(note.guid, "card", low=1_500_000_000_000, span=100_000_000_000)
                cards.append((card_id, note_id, deck_ids[deck], card_ord, note.modified, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ""))
    cursor.executemany("INSERT INTO notes VALUES(?,?,?,?,?,?,?,?,?,?,?)", sorted(notes))  # by id: each row goes at the table's end
    cursor.executemany("INSERT INTO cards VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", sorted(cards))


def index_collection(cursor: sqlite3.Cursor) -> None:
    """The indexes of genanki's schema, made once the rows are in."""
    cursor.executescript(_schema_statements(index=True))


def _schema_statements(index: bool) -> str:
    """genanki's schema: its CREATE INDEX statements, or all the others."""
    from genanki.apkg_schema import APKG_SCHEMA

    statements = [statement.strip() for statement in APKG_SCHEMA.split(";") if statement.strip()]
    return "".join(f"{statement};\n" for statement in statements if statement.upper().startswith("CREATE INDEX") == index)


def card_ords(model: genanki.Model, fields: tuple[str, ...]) -> list[int]:
    """The cards of a note: a template's card when the fields its front needs are filled
    (genanki's Note.cards, from the requirements genanki works out once per note type)."""
    met = {"any": any, "all": all}
    return [card_ord for card_ord, any_or_all, required in model._req if met[any_or_all](fields[index] for index in required)]


def zip_package(database: Path) -> bytes:
    """The package: the collection and an empty media list, dated 1980 (equal decks, equal bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        with database.open("rb") as source, package.open(_entry("collection.anki2"), "w") as target:
            shutil.copyfileobj(source, target, 1 << 20)
        package.writestr(_entry("media"), json.dumps({}).encode())
    return buffer.getvalue()


def _entry(name: str) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name, ZIP_DATE)
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry._compresslevel = ZIP_LEVEL  # what ZipFile.open takes from an entry it is given (public as compress_level from Python 3.13)
    return entry
