"""The decks of a build: every language's package, made in processes aside while the build
goes on, carried over when its plan did not change, and planned with what the last plan
made of each question (NoteMemo)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager

import jinja2

from studysite.incremental.cache import scratch_folder
from studysite.languages import language_name
from studysite.memo import NO_MEMO, Memo
from studysite.output.write import Manifest, SiteWriter
from studysite.study.anki import DeckSource, QuestionParts, made_anew, plan_deck, term_field_name
from studysite.study.apkg import DeckPlan, write_package
from studysite.workers import Aside, Tasks

# Opens the memo of a language's notes, kept by a header naming what made them; saved on leaving.
NoteMemoOpener = Callable[[str, str], AbstractContextManager[Memo]]


class NoteMemo:
    """What the card templates and genanki made of each question the last time its deck was
    planned: its Choices and Answer fields, by its answer and choices, and its GUID. A
    rebuild after an edit plans every deck again (the edited file's notes carry its new
    time); taking these back saves calling two macros and genanki's guid_for for each
    question, some 60 ms of a 5,000-question deck's 140 ms plan. Each entry of the memo is
    checked before it is taken."""

    def __init__(self, memo: Memo = NO_MEMO):
        self.memo = memo

    def question(self, question_id: str, made_of: tuple[str, ...], make: Callable[[], tuple[str, str, str]]) -> tuple[str, str, str]:
        """(Choices field, Answer field, GUID) of a question: kept, when made of the same
        texts (its type, answer and text), else make()."""
        entry = self.memo.get(question_id)
        if not (isinstance(entry, tuple) and len(entry) == 3 and entry[1] == made_of and _texts(entry[2], 3)):
            entry = (None, made_of, make())
        self.memo.put(question_id, entry)
        return entry[2]


def _texts(value: object, count: int) -> bool:
    return isinstance(value, tuple) and len(value) == count and all(isinstance(item, str) for item in value)


class Decks:
    """Every language's package, begun in processes aside as soon as this is made, so
    that the build goes on meanwhile (they need the records and their HTML, not the
    graph); write() takes them. A package whose plan did not change is not made again.
    Leaving the with block stops what write() did not take.

    A build into a folder with no site yet renders every page, which takes far longer than
    the decks: one process makes them in turn (a process a language made such a build
    2 % slower at 5,000 questions in two languages: each forked process copies the pages
    of memory that it or the build writes to). A rebuild renders few pages and waits for
    the decks (an edited file's notes carry its new time in every language): at most jobs
    processes. Each process takes the languages one by one, whichever is next; so does the
    build once it needs the packages: the processes aside yield the processor to the
    build's (Aside's background), so on a large site languages are left when the pages are
    rendered: a render worker takes them first (write_taken), at the build's priority, and
    write() those still left (at 20,000 questions in three languages, the build waited 9 s
    for the last one, made aside while a core was idle).

    The packages are made in a scratch folder of this process's, in the cache folder: a
    process aside stopped while it makes one (the build failed or was interrupted) is
    killed, and cannot remove what it made; leaving the with block removes the folder, and
    the next build one that a build killed outright left."""

    def __init__(self, previous: Manifest, source: DeckSource, environments: Mapping[str, jinja2.Environment], note_memo: NoteMemoOpener, jobs: int = 1):
        self.previous, self.source, self.environments, self.note_memo = previous, source, environments, note_memo
        self._languages = list(source.content.site.languages)
        _name_term_language(source.content.site.term_language, self._languages)
        children = min(len(self._languages), max(1, jobs) if previous.files else 1)
        self._tasks = Tasks(len(self._languages))
        self._scratch = scratch_folder("decks-")
        self._aside = Aside([self._make_taken] * children, jobs, background=True)

    def __enter__(self) -> Decks:
        return self

    def __exit__(self, *exc_info) -> None:
        try:
            self._aside.__exit__(*exc_info)
        finally:
            self._scratch.cleanup()

    def _plan(self, language: str, question_parts: QuestionParts = made_anew) -> DeckPlan:
        return plan_deck(self.source, language, self.environments[language], question_parts)

    def _make(self, language: str) -> tuple[str, str, bytes | None]:
        """The package's path, key and bytes (None: the previous package is the same)."""
        with self.note_memo(language, f"{self.source.made_from}\0{language}\0{self.source.content.site.base_url}") as memo:
            plan = self._plan(language, NoteMemo(memo).question)
        key = plan.key
        same = self.previous.inputs.get(plan.path) == key and plan.path in self.previous.files
        return plan.path, key, None if same else write_package(plan, self._scratch.name)

    def _taken(self) -> Iterator[tuple[str, tuple[str, str, bytes | None]]]:
        """Each language this process takes, until none is left, with its package made."""
        for number in self._tasks:
            yield self._languages[number], self._make(self._languages[number])

    def _make_taken(self) -> dict[str, tuple[str, str, bytes | None]]:
        """The packages of the languages this process aside takes."""
        return dict(self._taken())

    def write_taken(self, writer: SiteWriter) -> None:
        """The packages of the languages this process takes into the writer, each as it is
        made: work a render worker takes first (pipeline.write_site), and the build's own
        once it needs them all."""
        for language, made in self._taken():
            self._write(writer, language, made)

    def write(self, writer: SiteWriter) -> None:
        """Every package into the writer: those of the languages not yet begun made here."""
        self.write_taken(writer)
        for results in self._aside.results():
            for language, made in results.items():
                self._write(writer, language, made)

    def _write(self, writer: SiteWriter, language: str, made: tuple[str, str, bytes | None]) -> None:
        """A package into the writer; one whose plan did not change is carried over unwritten."""
        path, key, package = made
        if package is None and writer.reuse(path, key):
            return
        writer.write(path, package if package is not None else write_package(self._plan(language), self._scratch.name), key)


def _name_term_language(term_language: str, languages: list[str]) -> None:
    """Look up, before the decks' processes fork, the names of the term language the decks
    write (language_name keeps them): Babel loads a locale's data in the process that first
    asks, and each process aside would load it again."""
    if term_language:
        term_field_name(term_language)
        for language in languages:
            language_name(term_language, language)
