"""The records: frozen, complete when created, related to each other by id (content/graph.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from studysite.diagnostics import Location


@dataclass(frozen=True)
class SiteText:
    title: str
    description: str = ""
    short_title: str = ""  # the title where the full one has no room (a phone's header)


@dataclass(frozen=True)
class Theme:
    """site.yaml's `theme:`: the look a site gives itself; empty, the site looks as Studysite's own."""

    accent: str = ""  # #rrggbb, checked for contrast on the light background
    logo: str = ""  # a path in the content folder as written (content/media.py finds the file)
    favicon: str = ""
    where: Mapping[str, Location] = field(default_factory=dict)  # where logo and favicon were written: their files' problems are told there


@dataclass(frozen=True)
class ExamDefaults:
    """site.yaml's `exam:`: what the exam page offers first; the student may change both."""

    questions: int = 20
    minutes: int = 30


@dataclass(frozen=True)
class SiteConfig:
    languages: tuple[str, ...]
    base_url: str = "/"
    fallback: str = "notice"  # or "skip"
    term_language: str = ""
    accents: str = "count"  # typed answers: "ignore" takes an answer without its accents as right
    texts: Mapping[str, SiteText] = field(default_factory=dict)
    theme: Theme = field(default_factory=Theme)
    exam: ExamDefaults = field(default_factory=ExamDefaults)

    @property
    def default_language(self) -> str:
        return self.languages[0]


@dataclass(frozen=True, slots=True)
class TopicText:
    title: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Topic:
    id: str
    location: Location
    order: float
    texts: Mapping[str, TopicText]


@dataclass(frozen=True, slots=True)
class QuestionText:
    """A question's text in one language: the fields of its type (content/schema.py), the
    others empty."""

    question: str  # the stem; a typed question's may hold one blank, ___
    explanation: str = ""
    choices: tuple[str, ...] = ()  # single, multiple
    feedback: tuple[str, ...] = ()  # one per choice, "" for none
    accept: tuple[str, ...] = ()  # typed: the answers taken as right
    unit: str = ""  # numeric
    items: tuple[str, ...] = ()  # order: in the right order
    pairs: tuple[tuple[str, str], ...] = ()  # match: (left, right), each right
    audio: str = ""  # a sound file, as written (content/media.py finds it)


# What a question's `answer:` holds, by type: the index of the right choice (single), the
# indexes of the right ones (multiple), True or False (true-false), the number (numeric);
# typed, order and match questions have none (their text says it).
Answer = int | tuple[int, ...] | bool | Decimal | None


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    location: Location
    topic: str
    order: float  # place in its topic's list; unordered questions follow, by file path
    terms: tuple[str, ...]
    texts: Mapping[str, QuestionText]
    type: str = "single"
    answer: Answer = None
    tolerance: Decimal = Decimal(0)  # numeric: how far from the answer a number may be
    accents: str = ""  # typed: "ignore" or "count"; "": as site.yaml says


@dataclass(frozen=True, slots=True)
class TermText:
    term: str
    aliases: tuple[str, ...] = ()
    definition: str = ""
    audio: str = ""  # the term spoken, as written (content/media.py finds it)


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    location: Location
    related: tuple[str, ...]
    texts: Mapping[str, TermText]


@dataclass(frozen=True, slots=True)
class Aspect:
    label: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ComparisonText:
    title: str
    aspects: tuple[Aspect, ...]
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Comparison:
    id: str
    location: Location
    topic: str
    terms: tuple[str, ...]
    texts: Mapping[str, ComparisonText]


Record = Topic | Question | Term | Comparison
# The kinds of record: the one list of them. Each is a content folder (read in this order)
# and a field of Content ("glossary" holds the terms); content/validate.py declares each one's schema.
KINDS = ("topics", "questions", "glossary", "comparisons")
FIELD_OF_KIND = {"topics": "topics", "questions": "questions", "glossary": "terms", "comparisons": "comparisons"}


@dataclass(frozen=True)
class Content:
    """Everything a site is built from, in content order (sorted by file path)."""

    site: SiteConfig
    topics: Mapping[str, Topic]
    questions: Mapping[str, Question]
    terms: Mapping[str, Term]
    comparisons: Mapping[str, Comparison]

    @classmethod
    def of_kinds(cls, site: SiteConfig, records: Mapping[str, Mapping[str, Record]]) -> Content:
        """The content of a site and its records by kind (a kind that is missing has none)."""
        return cls(site, **{FIELD_OF_KIND[kind]: dict(records.get(kind, {})) for kind in KINDS})

    def count(self) -> int:
        """How many records there are."""
        return sum(len(self.records(kind)) for kind in KINDS)

    def records(self, kind: str) -> Mapping[str, Record]:
        """The records of a content folder ("glossary" holds the terms)."""
        return getattr(self, FIELD_OF_KIND[kind])

    def records_by_file(self) -> dict[str, tuple[str, str]]:
        """The content folder and id of each record, by the relative path of its file."""
        return {record.location.path: (kind, record.id) for kind in KINDS for record in self.records(kind).values()}


def answer_letter(index: int) -> str:
    return chr(ord("A") + index)
