"""A question bank: the questions of one language, by topic, ready for a format's writer
(gift.py, moodle.py, qti.py): each with its record, its texts as written and as HTML, and
the image files its HTML shows."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite.content.records import Question, QuestionText
from studysite.diagnostics import Report

_SOURCE = re.compile(r'(<img\b[^>]*?\ssrc=")([^"]*)(")')


@dataclass(frozen=True)
class BankQuestion:
    question: Question
    text: QuestionText  # the language's texts as written (Markdown)
    html: QuestionText  # the same fields as HTML, math as TeX; plain texts escaped
    images: Mapping[str, Path]  # each <img src> of the HTML whose file is under content/ -> that file


@dataclass(frozen=True)
class BankTopic:
    id: str
    title: str
    description: str  # HTML


@dataclass(frozen=True)
class Bank:
    language: str
    title: str  # the site's title in that language
    topics: tuple[tuple[BankTopic, tuple[BankQuestion, ...]], ...]  # in the site's order
    true_false: tuple[str, str] = ("True", "False")  # the language's words for them (the interface's catalog)

    def questions(self) -> list[BankQuestion]:
        return [question for _, questions in self.topics for question in questions]


def left_out(report: Report, item: BankQuestion, format_name: str, why: str) -> None:
    """A question a format cannot hold: a warning at its record, and it is left out."""
    report.warning(item.question.location, "export.left-out", f"question '{item.question.id}' is left out of the {format_name} file: {why}")


def lost(report: Report, item: BankQuestion, format_name: str, what: str) -> None:
    """Part of a question a format cannot hold: a warning at its record."""
    report.warning(item.question.location, "export.lost", f"{format_name} has no place for the {what} of question '{item.question.id}': it is left out")


def with_sources(fragment: str, new_source: Mapping[str, str]) -> str:
    """HTML with each <img src> that new_source names replaced by its new value."""
    return _SOURCE.sub(lambda m: m.group(1) + new_source.get(m.group(2), m.group(2)) + m.group(3), fragment) if new_source else fragment


def sources_in(fragment: str) -> list[str]:
    return [match.group(2) for match in _SOURCE.finditer(fragment)]
