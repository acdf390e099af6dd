"""Anki decks: each language's .apkg opened as Anki would (a zip holding SQLite)."""

from __future__ import annotations

import ast
import html.parser
import json
import os
import re
import shutil
import sqlite3
import time
import zipfile
from dataclasses import dataclass, fields, replace
from pathlib import Path

import pytest
from conftest import SITE_YAML, STUDY_CONTENT, run_cli

from studysite.incremental import inputs
from studysite.incremental.cache import FileMemo
from studysite.incremental.checked_files import save_checked
from studysite.incremental.decks import NoteMemo
from studysite.study.anki import anki_name, deck_path
from studysite.study.apkg import DeckNote, DeckPlan, ModelPlan, stable_id, write_package

LANGUAGES = ("nl", "fr")


@dataclass
class Deck:
    notes: list[dict]  # guid, id, mod, tags, fields (by name), model, deck
    decks: list[str]
    models: dict[str, list[str]]  # model name -> field names


def read_deck(path: Path, tmp_path: Path) -> Deck:
    with zipfile.ZipFile(path) as package:
        assert sorted(package.namelist()) == ["collection.anki2", "media"]
        assert json.loads(package.read("media")) == {}
        database = tmp_path / f"{path.stem}.anki2"
        database.write_bytes(package.read("collection.anki2"))
    connection = sqlite3.connect(database)
    try:
        decks_json, models_json = connection.execute("SELECT decks, models FROM col").fetchone()
        decks = {int(k): d["name"] for k, d in json.loads(decks_json).items()}
        models = {int(k): m for k, m in json.loads(models_json).items()}
        notes = []
        for note_id, guid, mid, mod, tags, fields in connection.execute("SELECT id, guid, mid, mod, tags, flds FROM notes ORDER BY id"):
            (deck_id,) = connection.execute("SELECT did FROM cards WHERE nid = ?", (note_id,)).fetchone()
            names = [f["name"] for f in models[mid]["flds"]]
            notes.append(
                {
                    "id": note_id,
                    "guid": guid,
                    "mod": mod,
                    "tags": tags.split(),
                    "fields": dict(zip(names, fields.split("\x1f"), strict=True)),
                    "model": models[mid]["name"],
                    "deck": decks[deck_id],
                }
            )
    finally:
        connection.close()
    return Deck(notes, sorted(decks.values()), {m["name"]: [f["name"] for f in m["flds"]] for m in models.values()})


def deck_file(site: Path, lang: str) -> Path:
    (path,) = (site / lang / "downloads").glob("*.apkg")
    return path


@pytest.fixture(scope="module")
def sample_decks(sample_site: Path, tmp_path_factory) -> dict[str, Deck]:
    folder = tmp_path_factory.mktemp("decks")
    return {lang: read_deck(deck_file(sample_site, lang), folder) for lang in LANGUAGES}


def questions_notes(deck: Deck) -> list[dict]:
    return [n for n in deck.notes if "Stem" in n["fields"]]


def term_notes(deck: Deck) -> list[dict]:
    return [n for n in deck.notes if "Term" in n["fields"]]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_a_deck_with_every_question_and_term(sample_decks, lang):
    deck = sample_decks[lang]
    assert len(questions_notes(deck)) == len(list((STUDY_CONTENT / "questions").rglob("*.yaml")))
    assert len(term_notes(deck)) == len(list((STUDY_CONTENT / "glossary").glob("*.yaml")))
    assert len({n["guid"] for n in deck.notes}) == len(deck.notes)


def test_topics_are_sub_decks_named_after_the_site(sample_decks):
    for lang, title, topic, glossary in (
        ("nl", "AI-studiegids", "AI-hardware en softwarestack", "Woordenlijst"),
        ("fr", "Guide d'étude de l'IA", "Pile matérielle et logicielle de l'IA", "Glossaire"),
    ):
        deck = sample_decks[lang]
        question_decks = {n["deck"] for n in questions_notes(deck)}
        assert len(question_decks) == 2 and all(name.startswith(f"{title}::") for name in question_decks)
        assert {n["deck"] for n in term_notes(deck)} == {f"{title}::{glossary}"}
        data_parallelism = next(n for n in questions_notes(deck) if "/questions/data-parallelism/" in n["fields"]["Link"])
        assert data_parallelism["deck"] == f"{title}::{topic}"


def test_question_fields_are_the_pages_text_in_each_language(sample_decks, sample_site: Path):
    for lang, stem, answer in (
        ("nl", "dataparallellisme", ("Antwoord: A.</strong>", "Elke GPU")),
        ("fr", "parallélisme de données", ("Réponse : A.</strong>", "Chaque GPU")),
    ):
        note = next(n for n in questions_notes(sample_decks[lang]) if n["fields"]["Link"].endswith(f"/{lang}/questions/data-parallelism/"))
        fields = note["fields"]
        assert stem in fields["Stem"]
        assert fields["Choices"].startswith('<ol class="choices">') and fields["Choices"].count("<li>") == 3  # as on the page
        assert all(words in fields["Answer"] for words in answer)
        assert fields["Explanation"].startswith("<p>") and "all-reduce" in fields["Explanation"]
        assert fields["Link"] == f"https://example.org/repo/{lang}/questions/data-parallelism/"
        page = (sample_site / lang / "questions/data-parallelism/index.html").read_text(encoding="utf-8")
        assert fields["Stem"].split("<")[0][:40] in page
        assert note["tags"] == []


def test_term_notes_hold_the_japanese_name_and_the_rendered_definition(sample_decks):
    note = next(n for n in term_notes(sample_decks["fr"]) if n["fields"]["Term"] == "Parallélisme de données")
    assert note["fields"]["Japanese name"] == "データ並列"
    assert note["fields"]["Definition"].startswith("<p>Méthode")
    model = next(name for name in sample_decks["fr"].models if name == note["model"])
    assert sample_decks["fr"].models[model] == ["Term", "Japanese name", "Definition"]


def test_markdown_and_hostile_html_are_rendered_as_on_the_pages(make_content, tmp_path: Path):
    question = """\
        topic: basics
        answer: A
        nl:
          question: Wat is **vet** <script>alert(1)</script>?
          choices: ["`code`", Niets]
          explanation: "Zie [uitleg](javascript:alert(1)) en *nadruk*."
        """
    content = make_content(**{"questions/markdown.yaml": question})
    site = tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    deck = read_deck(deck_file(site, "nl"), tmp_path)
    fields = next(n["fields"] for n in questions_notes(deck) if n["fields"]["Link"].endswith("/markdown/"))
    assert "<strong>vet</strong>" in fields["Stem"] and "<script" not in fields["Stem"]
    assert "<code>code</code>" in fields["Choices"]
    assert "javascript:" not in fields["Explanation"] and "<em>nadruk</em>" in fields["Explanation"]
    page = (site / "nl/questions/markdown/index.html").read_text(encoding="utf-8")
    assert fields["Stem"] in page


def test_untranslated_questions_are_in_the_deck_with_a_tag(make_content, tmp_path: Path):
    question = """\
        topic: basics
        answer: A
        nl:
          question: Alleen in het Nederlands?
          choices: [Ja, Nee]
          explanation: Ja.
        """
    content = make_content(**{"questions/only-dutch.yaml": question})
    site = tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    deck = read_deck(deck_file(site, "fr"), tmp_path)
    tagged = {n["fields"]["Link"].rsplit("/", 2)[-2]: n["tags"] for n in questions_notes(deck)}
    assert tagged == {"only-dutch": ["untranslated"], "gpu-role": []}
    assert read_deck(deck_file(site, "nl"), tmp_path).notes[0]["tags"] == []


def test_ids_guids_and_bytes_are_the_same_in_two_builds(tmp_path: Path):
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        assert run_cli("build", "--content", tmp_path / "content", "--out", out, "--no-search").status == 0
    for lang in LANGUAGES:
        assert deck_file(first, lang).read_bytes() == deck_file(second, lang).read_bytes()
        a, b = read_deck(deck_file(first, lang), tmp_path), read_deck(deck_file(second, lang), tmp_path)
        assert [(n["id"], n["guid"]) for n in a.notes] == [(n["id"], n["guid"]) for n in b.notes]
    nl, fr = (read_deck(deck_file(first, lang), tmp_path) for lang in LANGUAGES)
    assert not {n["guid"] for n in nl.notes} & {n["guid"] for n in fr.notes}  # importing both keeps both


def test_a_deck_is_rebuilt_only_when_its_records_change_and_then_updates_notes(tmp_path: Path):
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    site = tmp_path / "site"

    def build() -> None:
        assert run_cli("build", "--content", tmp_path / "content", "--out", site, "--no-search").status == 0

    build()
    before = {lang: read_deck(deck_file(site, lang), tmp_path) for lang in LANGUAGES}
    inodes = {lang: deck_file(site, lang).stat().st_ino for lang in LANGUAGES}
    build()
    assert {lang: deck_file(site, lang).stat().st_ino for lang in LANGUAGES} == inodes  # carried over
    question = tmp_path / "content/questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    build()
    after = read_deck(deck_file(site, "nl"), tmp_path)
    changed = [n for n in after.notes if "Waarvoor gebruikt" in n["fields"].get("Stem", "")]
    assert len(changed) == 1
    old = next(n for n in before["nl"].notes if n["guid"] == changed[0]["guid"])
    assert (old["id"], old["guid"]) == (changed[0]["id"], changed[0]["guid"]) and changed[0]["mod"] >= old["mod"]


def test_a_rebuild_that_takes_the_note_memo_makes_the_decks_a_clean_build_makes(tmp_path: Path, monkeypatch):
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    site, clean = tmp_path / "site", tmp_path / "clean"
    build = ("build", "--content", tmp_path / "content", "--no-search", "--out")
    assert run_cli(*build, site).status == 0
    question = tmp_path / "content/questions/gpu-programming/kv-cache.yaml"
    edited = question.read_text(encoding="utf-8").replace("Om de gewichten van het model te comprimeren", "Om de gewichten van het model **klein** te maken")
    question.write_text(edited.replace("answer: B", "answer: C"), encoding="utf-8")
    assert run_cli(*build, site).status == 0  # every other question's fields from the memo
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "no-cache"))
    assert run_cli(*build, clean).status == 0
    for lang in LANGUAGES:
        assert deck_file(site, lang).read_bytes() == deck_file(clean, lang).read_bytes()
    fields = next(n["fields"] for n in read_deck(deck_file(site, "nl"), tmp_path).notes if "Waarom gebruikt" in n["fields"].get("Stem", ""))
    assert "<strong>klein</strong>" in fields["Choices"] and "Antwoord: C.</strong>" in fields["Answer"]


def test_a_note_memo_gives_back_only_what_was_made_of_the_same_texts_by_the_same_header(tmp_path: Path):
    path, made, again = tmp_path / "memo.pickle", ("<ol>a b</ol>", "B: b", "guid"), ("made", "again", "now")
    texts = ("single", "1", "nl", "Q", "a", "b")

    def fields(header: str = "h", made_of: tuple[str, ...] = texts) -> tuple[str, str, str]:
        return NoteMemo(FileMemo(path, header)).question("q1", made_of, lambda: again)

    first = FileMemo(path, "h")
    assert NoteMemo(first).question("q1", texts, lambda: made) == made
    first.save()
    assert fields() == made
    assert fields(made_of=("single", "0", *texts[2:])) == fields(made_of=(*texts[:-1], "c")) == fields("another header") == again
    save_checked(path, "h", {"q1": (None, texts, ("one", 2, "three"))})  # not three texts
    assert fields() == again
    first.save()
    path.write_bytes(path.read_bytes()[:-3] + b"xyz")  # not whole
    assert fields() == again


def test_a_notes_time_is_its_record_files_modification_time_in_whole_seconds(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(inputs, "SETTLED_NS", 0)  # every file's signature kept: the rebuild takes the times from there
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    site, question = tmp_path / "site", tmp_path / "content/questions/gpu-programming/kv-cache.yaml"
    os.utime(question, ns=(1_600_000_000_999_999_999,) * 2)  # as a float, 1,600,000,001.0 s

    def question_time() -> int:
        assert run_cli("build", "--content", tmp_path / "content", "--out", site, "--no-search").status == 0
        return next(n["mod"] for n in read_deck(deck_file(site, "nl"), tmp_path).notes if "Waarom gebruikt" in n["fields"].get("Stem", ""))

    assert question_time() == 1_600_000_000
    term = tmp_path / "content/glossary/gpu.yaml"
    term.write_text(term.read_text(encoding="utf-8").replace("Grafische processor", "Een grafische processor"), encoding="utf-8")
    assert question_time() == 1_600_000_000  # the deck made again, the question's time from the listing of the inputs


def test_the_decks_are_begun_before_the_graph_is_made(monkeypatch, tmp_path: Path):
    """They need the records and their HTML alone: made aside while the terms are found
    and the pages planned, not after."""
    from studysite.incremental import texts
    from studysite.incremental.decks import Decks

    events, make_decks, make_graph = [], Decks.__init__, texts.build_graph

    def decks_begun(self, *args, **kwargs):
        events.append("decks")
        make_decks(self, *args, **kwargs)

    def graph_made(*args, **kwargs):
        events.append("graph")
        return make_graph(*args, **kwargs)

    monkeypatch.setattr(Decks, "__init__", decks_begun)
    monkeypatch.setattr(texts, "build_graph", graph_made)
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    assert run_cli("build", "--content", tmp_path / "content", "--out", tmp_path / "site", "--no-search").status == 0
    assert events == ["decks", "graph"]
    assert all(read_deck(deck_file(tmp_path / "site", lang), tmp_path).notes for lang in LANGUAGES)


def test_the_languages_the_decks_process_aside_has_not_begun_are_made_by_the_build(monkeypatch, tmp_path: Path):
    """The process aside, which yields the processor to the build's, makes the languages in
    turn; a render worker of the build takes those not yet begun first, at its own priority.
    Here the process aside holds its first language until another process has begun the
    second (without the queue's part, it would wait 60 s and then make both)."""
    from studysite.incremental.decks import Decks

    made_by, make, write_taken = tmp_path / "made-by", Decks._make, Decks.write_taken
    made_by.mkdir()

    def until(path: Path) -> None:
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.01)

    def make_noted(self, language):
        (made_by / language).write_text(str(os.getpid()))
        if language == LANGUAGES[0]:
            until(made_by / LANGUAGES[1])
        return make(self, language)

    def taken_once_the_first_is_begun(self, writer):
        until(made_by / LANGUAGES[0])
        return write_taken(self, writer)

    monkeypatch.setattr(Decks, "_make", make_noted)
    monkeypatch.setattr(Decks, "write_taken", taken_once_the_first_is_begun)
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    started = time.monotonic()
    assert run_cli("build", "--content", tmp_path / "content", "--out", tmp_path / "site", "--no-search", "--jobs", "2").status == 0
    makers = {language: int((made_by / language).read_text()) for language in LANGUAGES}
    assert makers[LANGUAGES[0]] != makers[LANGUAGES[1]] and time.monotonic() - started < 60, makers
    assert all(read_deck(deck_file(tmp_path / "site", lang), tmp_path).notes for lang in LANGUAGES)


def test_stable_ids_stay_in_their_range():
    ids = [stable_id("https://example.org/", str(n)) for n in range(200)]
    assert all((1 << 30) <= i < (1 << 31) for i in ids) and len(set(ids)) == 200
    assert stable_id("a", "b") == stable_id("a", "b") != stable_id("a", "c")


def test_a_plan_key_tells_apart_plans_that_differ_in_any_part_of_any_note():
    note = DeckNote("question", "Site::Topic", "guid", ("stem", "choices"), ("tag",), 1700000000)
    plan = DeckPlan("nl", "nl/downloads/site-nl.apkg", "https://example.org/", {}, ("Site",), (note,))
    others = {replace(note, **{part.name: value}) for part, value in zip(fields(DeckNote), ("term", "Site::Other", "guid2", ("stem",), (), 1), strict=True)}
    keys = {plan.key, *(replace(plan, notes=(other,)).key for other in others)}
    assert len(keys) == 1 + len(fields(DeckNote)) and replace(plan).key == plan.key


def test_the_package_is_written_by_genankis_documented_api_alone(monkeypatch, tmp_path: Path):
    """No private name of genanki or of any other library, no module of genanki but its
    package, none of its undocumented write_to_db methods: what its next versions keep.
    genanki writes every note (Package.write_to_file), each then with its own time and ids
    derived from its GUID; the note types carry the latest time; nothing is left in the
    system's temporary folder."""
    import genanki

    from studysite.study import anki, apkg

    for module in (anki, apkg):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        private = [
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and re.fullmatch(r"_[^_].*", node.attr) and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        ]
        submodules = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("genanki.")]
        undocumented = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "write_to_db"]
        undocumented += [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "write_to_db"]
        assert (module.__name__, private, submodules, undocumented) == (module.__name__, [], [], [])
    written, write_file = [], genanki.Package.write_to_file

    def spy(package, file, timestamp=None):
        written.append([note.guid for deck in package.decks for note in deck.notes])
        write_file(package, file, timestamp)

    monkeypatch.setattr(genanki.Package, "write_to_file", spy)
    scratch = tmp_path / "system-temp"
    scratch.mkdir()
    monkeypatch.setattr(apkg.tempfile, "tempdir", str(scratch))
    model = ModelPlan("Site (nl)", ("Front", "Back"), "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}", ".card {}")
    notes = (
        DeckNote("card", "Site::A", "guid-a", ("a", "1"), (), 1_700_000_000),
        DeckNote("card", "Site::B", "guid-b", ("b", ""), ("untranslated",), 1_600_000_000),
    )
    plan = DeckPlan("nl", "nl/downloads/site-nl.apkg", "https://example.org/", {"card": model}, ("Site", "Site::A", "Site::B"), notes)
    package = write_package(plan)
    assert written == [["guid-a", "guid-b"]] and write_package(plan) == package
    assert list(scratch.iterdir()) == []  # genanki's copy of the collection went with the deck's folder
    (tmp_path / "site-nl.apkg").write_bytes(package)
    deck = read_deck(tmp_path / "site-nl.apkg", tmp_path)
    assert [(n["guid"], n["id"], n["mod"], n["deck"], n["tags"]) for n in sorted(deck.notes, key=lambda n: n["guid"])] == [
        ("guid-a", stable_id("guid-a", "note", low=1_500_000_000_000, span=100_000_000_000), 1_700_000_000, "Site::A", []),
        ("guid-b", stable_id("guid-b", "note", low=1_500_000_000_000, span=100_000_000_000), 1_600_000_000, "Site::B", ["untranslated"]),
    ]
    assert deck.decks == ["Default", "Site", "Site::A", "Site::B"] and deck.models["Site (nl)"] == ["Front", "Back"]


def test_note_and_card_ids_that_collide_go_to_the_next_free_one_the_same_in_every_build(monkeypatch, tmp_path: Path):
    """Issue 50: at 120,000 notes two ids derived from GUIDs came out equal and the deck
    could not be written. Here every first choice is the same id: the notes, then the cards,
    take it and the ones after it, in the order of their GUIDs, whatever the plan's order."""
    from studysite.study import apkg

    monkeypatch.setattr(apkg, "stable_id", lambda *parts, low=1 << 30, span=1 << 30: low + 7)
    model = ModelPlan("Site (nl)", ("Front", "Back"), "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}", ".card {}")
    notes = tuple(DeckNote("card", "Site", f"guid-{n}", (str(n), ""), (), 1_700_000_000) for n in (3, 1, 2))
    plan = DeckPlan("nl", "nl/downloads/site-nl.apkg", "https://example.org/", {"card": model}, ("Site",), notes)
    package = write_package(plan)
    assert write_package(plan) == package
    (tmp_path / "site-nl.apkg").write_bytes(package)
    (tmp_path / "reversed-nl.apkg").write_bytes(write_package(replace(plan, notes=notes[::-1])))
    low = 1_500_000_000_000 + 7
    assert [(n["guid"], n["id"]) for n in read_deck(tmp_path / "site-nl.apkg", tmp_path).notes] == [("guid-1", low), ("guid-2", low + 1), ("guid-3", low + 2)]
    assert [(n["guid"], n["id"]) for n in read_deck(tmp_path / "reversed-nl.apkg", tmp_path).notes] == [("guid-1", low), ("guid-2", low + 1), ("guid-3", low + 2)]
    connection = sqlite3.connect(tmp_path / "site-nl.anki2")
    try:
        cards = connection.execute("SELECT cards.id, notes.guid FROM cards JOIN notes ON notes.id = cards.nid ORDER BY cards.id").fetchall()
    finally:
        connection.close()
    assert cards == [(low + 3, "guid-1"), (low + 4, "guid-2"), (low + 5, "guid-3")]  # no card id equals a note's either


def test_free_ids_wrap_round_within_their_range():
    from studysite.study.apkg import free_ids

    last = 1_500_000_000_000 + 100_000_000_000 - 1
    taken = {last}
    assert free_ids([("b",), ("a",)], lambda key: last, taken) == {("a",): 1_500_000_000_000, ("b",): 1_500_000_000_001}


TYPES_SITE = {
    "questions/typed.yaml": """\
        topic: basics
        type: typed
        nl: {question: "Welke chip rekent *grafisch*?", accept: [GPU, "grafische <processor>"], explanation: Een GPU.}
        fr: {question: Quelle puce calcule les images ?, accept: [GPU], explanation: Un GPU.}
        """,
    "questions/blank.yaml": """\
        topic: basics
        type: typed
        nl: {question: "De grootste gemene deler van 12 en 18 is ___.", accept: ["6", zes], explanation: Zes.}
        fr: {question: "Le plus grand diviseur commun de 12 et 18 est ___.", accept: ["6"], explanation: Six.}
        """,
    "questions/truth.yaml": """\
        topic: basics
        type: true-false
        answer: false
        nl: {question: Een GPU is een muis., explanation: Nee.}
        fr: {question: Un GPU est une souris., explanation: Non.}
        """,
}


def test_each_question_type_has_its_note_type_typed_in_cloze_or_basic_with_the_answer(make_content, tmp_path: Path):
    site = tmp_path / "site"
    assert run_cli("build", "--content", make_content(**TYPES_SITE), "--out", site, "--no-search").status == 0
    path = deck_file(site, "nl")
    notes = {n["fields"]["Link"].rsplit("/", 2)[-2]: n for n in read_deck(path, tmp_path).notes if "Link" in n["fields"]}
    typed, blank, truth, single = notes["typed"], notes["blank"], notes["truth"], notes["gpu-role"]
    assert typed["model"] == "Studie: Antwoord typen (nl)" and typed["fields"]["Answer"] == "GPU"  # the first accepted answer, as text
    assert typed["fields"]["Also accepted"] == "grafische &lt;processor&gt;" and "<em>grafisch</em>" in typed["fields"]["Stem"]  # answers are text
    assert blank["model"] == "Studie: Gatentekst (nl)"
    assert blank["fields"]["Text"] == "De grootste gemene deler van 12 en 18 is {{c1::6}}." and blank["fields"]["Also accepted"] == "zes"
    assert truth["model"] == single["model"] == "Studie (nl)" and truth["fields"]["Answer"].startswith('<p class="answer">')  # in words
    connection = sqlite3.connect(tmp_path / f"{path.stem}.anki2")
    try:
        models = {m["name"]: m for m in json.loads(connection.execute("SELECT models FROM col").fetchone()[0]).values()}
        cards = dict(connection.execute("SELECT notes.guid, count(*) FROM cards JOIN notes ON notes.id = cards.nid GROUP BY notes.guid").fetchall())
    finally:
        connection.close()
    assert "{{type:Answer}}" in models["Studie: Antwoord typen (nl)"]["tmpls"][0]["qfmt"]
    assert models["Studie: Gatentekst (nl)"]["type"] == 1 and "{{cloze:Text}}" in models["Studie: Gatentekst (nl)"]["tmpls"][0]["qfmt"]
    assert set(cards.values()) == {1} and len(cards) == len(read_deck(path, tmp_path).notes)  # a card for each note, the cloze's too


HOSTILE_SITE = """\
    languages: [nl, fr]
    term_language: ja
    base_url: https://example.org/study/
    nl: {title: "<script>alert('title')</script> Studie::Deel"}
    fr: {title: "<img src=x onerror=alert(1)>"}
    """
HOSTILE_TOPIC = """\
    nl: {title: "<b onmouseover=alert(1)>Onderwerp</b>", description: Over dingen.}
    fr: {title: "Thème <script>alert(1)</script>", description: Sur les choses.}
    """
HOSTILE_QUESTION = """\
    topic: basics
    answer: A
    nl:
      question: "Wat is dit <img src=https://evil.example/a.png alt=a onerror=alert(1)> ![een schema](https://evil.example/b.png)?"
      choices: ["<img src=//evil.example/x alt='<script>alert(1)</script>'>", "<script>alert(1)</script>Niets"]
      explanation: "<iframe src=//evil.example></iframe><style>*{}</style>Zie ![c](//evil.example/c.png)."
    """
HOSTILE_TERM = """\
    ja: {term: "<script>alert('ja')</script>"}
    nl: {term: "<b onmouseover=alert(1)>GPU</b>", definition: "<iframe src=//evil.example></iframe> ![x](https://evil.example/t.png)"}
    fr: {term: GPU, definition: "<object data=//evil.example></object>Processeur."}
    """


class Markup(html.parser.HTMLParser):
    """The elements and attributes an HTML reading of a text finds."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, list[str]]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, [name for name, _ in attrs]))


def test_hostile_titles_names_and_html_stay_text_in_the_decks(make_content, tmp_path: Path):
    """Anki shows fields as HTML and may show names as HTML: nothing in a deck runs a
    script or loads a resource, and names hold no markup at all."""
    content = make_content(
        **{"site.yaml": HOSTILE_SITE, "topics/basics.yaml": HOSTILE_TOPIC, "questions/gpu-role.yaml": HOSTILE_QUESTION, "glossary/gpu.yaml": HOSTILE_TERM}
    )
    site = tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    for lang in LANGUAGES:
        deck = read_deck(deck_file(site, lang), tmp_path)
        assert deck.notes
        for note in deck.notes:
            for name, value in note["fields"].items():
                for tag, attributes in Markup(value).tags:
                    assert tag in {"p", "ol", "ul", "li", "dl", "dt", "dd", "div", "span", "strong", "em", "a", "code"}, (name, value)
                    assert set(attributes) <= {"class", "type", "href", "rel", "lang", "dir"}, (name, value)
        for name in [*deck.decks, *deck.models, *(tag for note in deck.notes for tag in note["tags"])]:
            assert "<" not in name and ">" not in name and not Markup(name).tags
    nl = read_deck(deck_file(site, "nl"), tmp_path)
    question, term = questions_notes(nl)[0]["fields"], term_notes(nl)[0]["fields"]
    assert "een schema" in question["Stem"] and "&lt;script&gt;alert(1)&lt;/script&gt;" in question["Choices"]  # an image's text
    assert question["Topic"] == "&lt;b onmouseover=alert(1)&gt;Onderwerp&lt;/b&gt;"
    assert term["Term"] == "&lt;b onmouseover=alert(1)&gt;GPU&lt;/b&gt;" and term["Japanese name"] == "&lt;script&gt;alert('ja')&lt;/script&gt;"
    assert (
        questions_notes(nl)[0]["deck"]
        == "\u2039script\u203aalert('title')\u2039/script\u203a Studie:Deel::\u2039b onmouseover=alert(1)\u203aOnderwerp\u2039/b\u203a"
    )


def test_anki_names_are_one_line_of_text_that_nests_no_deck():
    assert anki_name("A::B ::: <i>C</i>\x00\n\tD\u2028E") == "A:B : \u2039i\u203aC\u2039/i\u203a D E"
    assert anki_name(" \x07 ") == "-"


@pytest.mark.parametrize("title", ["A very long title " * 39, "Été très long " * 50, "日本語の長いタイトル" * 70])
def test_a_long_title_makes_a_short_deck_file_name(make_content, tmp_path: Path, title: str):
    """The package's file name comes from the title, cut: a 700-character title once made
    a name longer than file systems allow, and the build stopped."""
    content = make_content(**{"site.yaml": SITE_YAML.replace("nl: {title: Studie}", f"nl: {{title: {title!r}}}")})
    site = tmp_path / "site"
    assert len(title) >= 700
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    for lang in LANGUAGES:
        path = deck_file(site, lang)
        assert re.fullmatch(rf"[a-z0-9]+(-[a-z0-9]+)*-{lang}\.apkg", path.name) and len(path.name.encode()) <= 100
        assert read_deck(path, tmp_path).notes


def test_a_deck_file_name_is_a_slug_of_the_title():
    assert deck_path("Guide d'étude de l'IA", "fr") == "fr/downloads/guide-d-etude-de-l-ia-fr.apkg"
    assert deck_path("../../etc/passwd\x00 \\ x", "nl") == "nl/downloads/etc-passwd-x-nl.apkg"
    assert deck_path("日本語", "ja") == "ja/downloads/deck-ja.apkg"
    assert deck_path("x" * 700, "pt-BR") == f"pt-BR/downloads/{'x' * 64}-pt-BR.apkg"


def test_a_plan_key_changes_with_the_code_that_writes_the_package():
    """A site built by an older Studysite gets its packages made again, as a clean build makes them."""
    import dataclasses

    plan = DeckPlan("nl", "nl/downloads/site-nl.apkg", "https://example.org/", {}, ("Site",), (), made_from="code")
    assert dataclasses.replace(plan, made_from="other code").key != plan.key


def test_each_deck_file_is_named_from_the_site_title_in_its_own_language(sample_site: Path):
    for lang, name in (("nl", "ai-studiegids-nl.apkg"), ("fr", "guide-d-etude-de-l-ia-fr.apkg")):
        assert deck_file(sample_site, lang).name == name
        assert f'/{lang}/downloads/{name}" download' in (sample_site / lang / "downloads/index.html").read_text(encoding="utf-8")
