"""Diagnostics: located errors and warnings, collected over a whole run and printed once."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TextIO

from studysite.fileio import MAX_TEXT, read_bytes


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"

    def __reduce_ex__(self, protocol: object) -> tuple:
        """Pickled as Severity("error") under every Python 3.11: its early releases (Debian
        12's 3.11.2) pickle a member as getattr(Severity, "ERROR"), and the build cache,
        which unpickles no function, would read a file with problems again each build."""
        return type(self), (self.value,)


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a content file; line and column are 1-based."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.path
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    severity: Severity
    location: Location
    code: str
    message: str
    hint: str = ""
    source_line: str = ""

    def format(self) -> str:
        """The diagnostic as the terminal shows it; control characters of the content (an
        escape sequence, a bell) are shown as visible symbols, never sent to the terminal."""
        lines = [f"{visible(str(self.location))}: {self.severity.value}: {visible(self.message)} [{self.code}]"]
        if self.source_line and self.location.column:
            lines.append("    " + visible(self.source_line))
            lines.append("    " + " " * display_width(visible(self.source_line[: self.location.column - 1])) + "^")
        if self.hint:
            lines.append(f"  hint: {visible(self.hint)}")
        return "\n".join(lines)


# C0 controls and DEL as their Control Pictures (U+2400-U+2421: one character each, so the
# caret stays under its column); C1 controls and the bidirectional overrides and isolates,
# which reorder what a terminal shows, as \x or \u escapes
_VISIBLE = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\u2421"}
_VISIBLE |= {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
_VISIBLE |= {code: f"\\u{code:04x}" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def visible(text: str) -> str:
    """Text with every character that would act on a terminal shown as a visible one."""
    return text.translate(_VISIBLE)


def display_width(text: str) -> int:
    """How many columns a terminal gives the text: two for a wide character (Chinese,
    Japanese), none for a combining mark."""
    return sum(0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


class ContentError(Exception):
    """Raised once a phase has collected errors; carries every diagnostic of the run."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics)  # as the only argument, so that it pickles whole
        self.diagnostics = diagnostics

    def __str__(self) -> str:
        return f"{len(self.diagnostics)} diagnostics"


@dataclass
class Report:
    """Collects diagnostics for one run. The offending source line is read from the file
    under source_root (the content folder) when a diagnostic points into it."""

    strict: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source_root: Path | None = None
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _told: set[Diagnostic] = field(default_factory=set, repr=False)

    def _source_line(self, location: Location) -> str:
        if self.source_root is None or not location.line:
            return ""
        if location.path not in self._lines:
            try:
                text = read_bytes(self.source_root / location.path, MAX_TEXT, within=self.source_root).decode("utf-8", errors="replace")
            except OSError:
                text = ""
            self._lines[location.path] = text.removeprefix("\ufeff").splitlines()
        lines = self._lines[location.path]
        return lines[location.line - 1] if location.line <= len(lines) else ""

    def _add(self, severity: Severity, location: Location, code: str, message: str, hint: str, source: str | None) -> None:
        source_line = self._source_line(location) if source is None else source
        diagnostic = Diagnostic(severity, location, code, message, hint, source_line)
        if diagnostic not in self._told:  # a file checked twice in a run (a UI catalog) is told once
            self._told.add(diagnostic)
            self.diagnostics.append(diagnostic)

    def error(self, location: Location, code: str, message: str, hint: str = "", source: str | None = None) -> None:
        """An error; source is the line to show (default: read from the file under source_root)."""
        self._add(Severity.ERROR, location, code, message, hint, source)

    def warning(self, location: Location, code: str, message: str, hint: str = "", source: str | None = None) -> None:
        severity = Severity.ERROR if self.strict else Severity.WARNING
        self._add(severity, location, code, message, hint, source)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ContentError(self.sorted())

    def sorted(self) -> list[Diagnostic]:
        return sorted(
            self.diagnostics,
            key=lambda d: (d.location.path, d.location.line, d.location.column, d.code, d.message),
        )

    def summary(self) -> str:
        return f"{plural(len(self.errors), 'error')}, {plural(len(self.warnings), 'warning')}"


def print_report(report: Report, stream: TextIO) -> None:
    """Every diagnostic of a run, in file order: `file:line:column: severity: message [code]`,
    the offending line with a caret under the column, and the hint."""
    for diagnostic in report.sorted():
        print(diagnostic.format(), file=stream)


def print_failure(diagnostics: Iterable[Diagnostic], stream: TextIO, what: str = "Build") -> None:
    """A command stopped by errors (what: "Build", "Check"...): every diagnostic, then how
    many errors and warnings."""
    report = Report(diagnostics=list(diagnostics))
    print_report(report, stream)
    print(f"{what} failed: {report.summary()}.", file=stream)


def built_summary(pages: int, languages: int, seconds: float, changed: int, warnings: int) -> str:
    """The line a successful build ends with."""
    counted = f", {plural(warnings, 'warning')}" if warnings else ""
    return f"Built {plural(pages, 'page')} in {plural(languages, 'language')} in {seconds:.1f} s ({changed} files changed{counted})."


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def did_you_mean(word: str, candidates) -> str:
    """A hint naming the closest candidate, or '' when nothing is close."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else ""


def diagnostics_to_json(diagnostics: list[Diagnostic]) -> list[list]:
    return [[d.severity.value, d.location.path, d.location.line, d.location.column, d.code, d.message, d.hint, d.source_line] for d in diagnostics]


def diagnostics_from_json(items: object) -> list[Diagnostic] | None:
    """The diagnostics saved with a build, or None when they are not in the expected shape."""
    try:
        return [Diagnostic(Severity(s), Location(str(p), int(line), int(col)), str(c), str(m), str(h), str(src)) for s, p, line, col, c, m, h, src in items]
    except (TypeError, ValueError):
        return None
