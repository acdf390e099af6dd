"""Checks of PO files beyond what Babel's reader refuses, each problem located at its line.

Babel reads an unterminated string, a bogus Plural-Forms header or a translation whose
placeholders differ from its message's without complaint; the build would then publish
the broken text or stop with a traceback. Here: the syntax of every line (read_layout),
the Plural-Forms header and the number of forms of each entry (plural_problems), an
entry whose msgid and msgctxt an entry above has already (duplicate_problems), the
placeholders of each translation against its message's (placeholder_problems), as Jinja's
new-style gettext formats them: every translation with `%` and the page's variables, and
(for the interface) markup a translation adds (markup_problems).
"""

from __future__ import annotations

import codecs
import gettext
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError, read_po, unescape

from studysite.content.node_reader import CONTROL_CHARACTER
from studysite.diagnostics import Location, Report
from studysite.fileio import MAX_CATALOG, FileRefused, read_bytes

# %(name)s, with optional flags, width and precision; or a positional %s: a placeholder
_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[#0+\-]?\d*(?:\.\d+)?[sdiouxXeEfFgGcr]")
_BRACES = re.compile(r"\{\w*\}")  # str.format's placeholders, which % leaves as they are
_KEYWORD = re.compile(r"[A-Za-z_]+(?:\[[^\]]*\])?")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_KEYWORDS = re.compile(r"msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?")
# the counts a plural rule is tried on: every n up to 1000, and a few large ones
_SAMPLE = (*range(1001), *(10**k for k in range(4, 10)), 1000001, 2000000, 3000000)
SYNTAX_HINT = 'open the file in a PO editor such as Poedit, which shows the mistake; write \\" for a quote inside a string'


@dataclass(frozen=True)
class Problem:
    """A mistake in a PO file: its 1-based line and column, what is wrong and how to fix it."""

    line: int
    column: int
    message: str
    hint: str = ""


@dataclass
class Entry:
    """Where one entry's lines are: its msgid, and each msgstr (by plural index; 0 for msgstr);
    and its msgctxt and msgid as text, which together name it."""

    line: int
    strings: dict[int, int] = field(default_factory=dict)
    plural: bool = False
    indexed: bool = False  # its msgstr lines are msgstr[N]
    context: str | None = None  # None: it has no msgctxt
    msgid: str = ""


@dataclass
class Layout:
    """What the syntax pass found: the problems, the entries by their msgid line, and the
    strings of the header's msgstr with their lines."""

    problems: list[Problem]
    entries: dict[int, Entry]
    header: list[tuple[int, str]] = field(default_factory=list)

    def plural_forms(self) -> tuple[int, str | None]:
        """The line and value of the Plural-Forms header; (0, None) when there is none."""
        return self.header_field("plural-forms")

    def header_field(self, name: str) -> tuple[int, str | None]:
        """The line and value of a header field such as Content-Type; (0, None) when there is none."""
        text, starts = "", []
        for line, piece in self.header:
            starts.append((len(text), line))
            text += unescape(piece)
        found = re.search(rf"^{re.escape(name)}:(.*)$", text, re.IGNORECASE | re.MULTILINE)
        if found is None:
            return 0, None
        return max(line for start, line in starts if start <= found.start()), found.group(1).strip()


def lines_of(data: bytes) -> list[str]:
    """A PO file's lines as Babel counts them (split at \\n only)."""
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff").split("\n")


def read_layout(lines: list[str]) -> Layout:
    """The syntax of every line that is not a comment: a keyword followed by one space and
    a string, or a string continuing the one above; each string closed on its own line."""
    layout = Layout([], {})
    entry: Entry | None = None
    context: str | None = None  # the msgctxt read before the next msgid
    continued = ""  # the keyword whose string a line of its own continues
    in_header = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        start = 0 if line.startswith('"') else _keyword(line, number, indent, layout.problems)
        if start is None:
            continue
        keyword = line[: start - 1] if start else ""
        continued = keyword or continued
        if keyword == "msgctxt":
            context = ""
        elif keyword == "msgid":
            entry = layout.entries.setdefault(number, Entry(number, context=context))
            context = None
        elif entry is not None and keyword == "msgid_plural":
            entry.plural = True
        elif entry is not None and keyword.startswith("msgstr"):
            entry.strings[int(keyword[7:-1]) if "[" in keyword else 0] = number
            entry.indexed = "[" in keyword
        if keyword:
            in_header = keyword == "msgstr" and entry is not None and len(layout.entries) == 1 and lines[entry.line - 1].strip() == 'msgid ""'
        if not _check_string(line, start, number, indent, layout.problems):
            continue
        if continued == "msgctxt":
            context = (context or "") + unescape(line[start:])
        elif continued == "msgid" and entry is not None:
            entry.msgid += unescape(line[start:])
        if in_header:
            layout.header.append((number, line[start:]))
    return layout


def _keyword(line: str, number: int, indent: int, problems: list[Problem]) -> int | None:
    """Where the string after a line's keyword starts; None (with a problem) when the line
    does not start with a known keyword and one space."""
    word = _KEYWORD.match(line)
    keyword = word.group() if word else line.split(None, 1)[0]
    if not word or not _KEYWORDS.fullmatch(keyword):
        hint = "an entry's lines start with msgctxt, msgid, msgid_plural, msgstr or msgstr[N], or continue a string on a line of its own"
        problems.append(Problem(number, indent + 1, f"unknown keyword '{keyword[:40]}'", hint))
        return None
    rest = line[word.end() :]
    if not rest.startswith(' "'):
        what = "one space" if rest.lstrip().startswith('"') else "a quoted string"
        problems.append(Problem(number, indent + word.end() + 1, f"'{keyword}' needs {what} after it", f'write {keyword} "text"'))
        return None
    return word.end() + 1


def _check_string(line: str, start: int, number: int, indent: int, problems: list[Problem]) -> bool:
    """Whether the rest of the line, from start, is one string; if not, a problem."""
    string = _STRING.match(line, start)
    if string is None:
        problems.append(Problem(number, indent + start + 1, 'unterminated string: it has no closing "', SYNTAX_HINT))
    elif line[string.end() :].strip():
        after = len(line) - len(line[string.end() :].lstrip())
        problems.append(Problem(number, indent + after + 1, "text after the string's closing quote", SYNTAX_HINT))
    return string is not None and not line[string.end() :].strip()


def plural_rule(header: str | None) -> tuple[int, Callable[[int], int]] | str:
    """(nplurals, the rule) of a Plural-Forms value such as `nplurals=2; plural=(n != 1);`,
    or what is wrong with it."""
    params = dict(part.strip().partition("=")[::2] for part in (header or "").split(";") if part.strip())
    count, expression = params.get("nplurals", "").strip(), params.get("plural", "").strip()
    if not count.isdigit() or not 0 < int(count) <= 10:
        return f"nplurals must be a number of forms from 1 to 10, not '{count}'" if count else "it has no nplurals"
    if not expression:
        return "it has no plural expression"
    try:
        rule = gettext.c2py(expression)
        forms = {rule(n) for n in _SAMPLE}
    except (ValueError, SyntaxError, RecursionError, ArithmeticError) as error:
        return f"its plural expression does not parse: {error}"
    beyond = sorted(forms - set(range(int(count))))
    if beyond:
        return f"its plural expression gives form {beyond[0]}, but nplurals is {count}"
    return int(count), rule


def plural_problems(layout: Layout, locale_rule: str) -> tuple[list[Problem], Callable[[int], int] | None]:
    """The problems of the Plural-Forms header and of the number of forms of each plural
    entry; and the rule of the catalog (None when its header is unusable). Without a
    header, the catalog's language has CLDR's rule (locale_rule, as Babel writes it)."""
    line, header = layout.plural_forms()
    rule = plural_rule(header if line else locale_rule)
    if isinstance(rule, str):
        hint = "write it as `nplurals=2; plural=(n != 1);`, or remove the line to use the plural rule Babel knows for the language"
        return [Problem(line or 1, 1, f"the Plural-Forms header is not usable: {rule}", hint)], None
    count, function = rule
    problems = []
    for entry in layout.entries.values():
        if entry.indexed and not entry.plural:
            problems.append(Problem(entry.line, 1, "the entry has plural forms (msgstr[N]) but no msgid_plural", 'write its translation as msgstr "..."'))
        elif entry.plural and entry.strings and (sorted(entry.strings) != list(range(count)) or not entry.indexed):
            found = ", ".join(f"msgstr[{index}]" for index in sorted(entry.strings))
            problems.append(
                Problem(
                    entry.line,
                    1,
                    f"the entry has {found}, but Plural-Forms says {count} forms",
                    f"give the forms msgstr[0] to msgstr[{count - 1}], one for each form of the language",
                )
            )
    return problems, function


def duplicate_problems(layout: Layout) -> list[Problem]:
    """Each entry with the msgid and msgctxt of an entry above it: Babel keeps one of the
    two without a word, and the other's translation is lost. Only a file whose syntax is
    sound is checked (a string cut short would make two entries look alike)."""
    if layout.problems:
        return []
    first: dict[tuple[str | None, str], int] = {}
    problems = []
    for line, entry in sorted(layout.entries.items()):
        key = (entry.context, entry.msgid)
        if key not in first:
            first[key] = line
            continue
        named = f"msgid {_quoted(entry.msgid)}" + (f" with msgctxt {_quoted(entry.context)}" if entry.context is not None else "")
        hint = f"the first is on line {first[key]}; only one of the two would be used: keep the one with the right translation, delete the other"
        problems.append(Problem(line, 1, f"duplicate entry: {named} appears twice", hint))
    return problems


def placeholders(text: str) -> tuple[set[str], list[int]]:
    """The placeholders of a format string (`%(name)s`, `%s`, `{name}`) and where each %
    that is neither a placeholder nor %% stands."""
    found, stray, at = set(_BRACES.findall(text)), [], 0
    while (at := text.find("%", at)) >= 0:
        if text.startswith("%%", at):
            at += 2
            continue
        match = _PLACEHOLDER.match(text, at)
        if match is None:
            stray.append(at)
            at += 1
            continue
        found.add(match.group())
        at = match.end()
    return found, stray


def placeholder_problems(catalog: Catalog, layout: Layout, rule: Callable[[int], int], lines: list[str]) -> Iterator[tuple[Message, Problem]]:
    """Each translated message whose translation (or a plural form of it) uses a placeholder
    its message has not, leaves one out, or holds a % that is no placeholder. A plural form
    used for a single count (one, or the dual) may leave out the count."""
    single = _single_count_forms(rule)
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = set().union(*(placeholders(text)[0] for text in ids))
        for index, string in enumerate(strings):
            if not string:
                continue
            wrong = _compare(expected, string, may_omit=message.pluralizable and index in single)
            if wrong:
                yield message, _located(_string_line(layout, message, index), lines, wrong, _named(message), expected)


def control_problems(catalog: Catalog, layout: Layout, lines: list[str]) -> Iterator[tuple[Message, Problem]]:
    """Each translated message whose translation (or a plural form of it) holds a control
    character, which text in YAML may not hold either."""
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for index, string in enumerate(strings):
            control = CONTROL_CHARACTER.search(string or "") if message.id else None
            if control is not None:
                line = _string_line(layout, message, index)
                column = _column(lines, line, control.group())
                fault = f"the translation of {_named(message)} contains the control character U+{ord(control.group()):04X}"
                yield message, Problem(line, column, fault, "remove it")
                break


# What an interface translation may not add to its message: a tag (templates put the
# translation in as it is, being text the site's own people wrote), or a straight double
# quote (it would end the attribute the translation fills: data-*="{% trans %}...").
_MARKUP = re.compile(r'<[A-Za-z/!?]|"')


def markup_problems(catalog: Catalog, layout: Layout, lines: list[str]) -> Iterator[tuple[Message, Problem]]:
    """Each translated message whose translation (or a plural form of it) holds a tag or a
    straight double quote that its message has not."""
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for index, string in enumerate(strings):
            found = _MARKUP.search(string or "")
            if found is not None and not any(found.group() in text for text in ids):
                line = _string_line(layout, message, index)
                column = _column(lines, line, '\\"' if found.group() == '"' else found.group())  # as the PO file writes it
                what = "a straight double quote" if found.group() == '"' else "HTML markup"
                hint = "use typographic quotes such as “ ” or « »" if found.group() == '"' else "write it as text: the interface's messages hold no markup"
                yield message, Problem(line, column, f"the translation of {_named(message)} adds {what}", hint)
                break


def _string_line(layout: Layout, message: Message, index: int) -> int:
    """The line of a message's msgstr (its plural form index), else of its msgid."""
    entry = layout.entries.get(message.lineno or 0)
    return entry.strings.get(index, entry.line) if entry else (message.lineno or 1)


def _column(lines: list[str], line: int, written: str) -> int:
    """Where a text first stands on a line of the file (1 when it cannot be found there)."""
    return (lines[line - 1] if line <= len(lines) else "").find(written) + 1 or 1


def _named(message: Message) -> str:
    """A message as a diagnostic names it: by its context (content.po), else by its msgid."""
    if message.context:
        return message.context
    return _quoted(message.id if isinstance(message.id, str) else message.id[0])


def _quoted(text: str) -> str:
    """A msgid or msgctxt in quotes, cut short when it is long."""
    return f"'{text}'" if len(text) <= 60 else f"'{text[:57]}...'"


def _single_count_forms(rule: Callable[[int], int]) -> set[int]:
    """The plural forms that the rule gives for a single count."""
    forms = [rule(n) for n in _SAMPLE]
    return {form for form in set(forms) if forms.count(form) == 1}


def _compare(expected: set[str], string: str, may_omit: bool) -> tuple[str, list[str]] | None:
    """What is wrong with a translation's placeholders, and the unknown ones; None when nothing is."""
    found, stray = placeholders(string)
    unknown, missing = sorted(found - expected), sorted(expected - found)
    faults = []
    if unknown:
        faults.append(f"uses {', '.join(unknown)}, which the message has not")
    if missing and not may_omit:
        faults.append(f"leaves out {', '.join(missing)}")
    if stray:
        faults.append("has a % that is no placeholder")
    return ("; ".join(faults), unknown) if faults else None


def _located(line: int, lines: list[str], wrong: tuple[str, list[str]], named: str, expected: set[str]) -> Problem:
    """The problem at the first wrong piece of the translation's line (or its opening quote)."""
    fault, pieces = wrong
    text = lines[line - 1] if line <= len(lines) else ""
    quote = max(text.find('"'), 0)
    columns = [text.find(piece, quote) for piece in pieces] + [quote + at for at in placeholders(text[quote:])[1]]
    column = min((at for at in columns if at >= 0), default=quote)
    keep = (
        f"keep exactly the message's placeholders ({', '.join(sorted(expected))}), with their English names" if expected else "the message has no placeholder"
    )
    braces = [f"%({piece[1:-1]})s for {piece}" for piece in pieces if piece.startswith("{") and f"%({piece[1:-1]})s" in expected]
    write = f"write {', '.join(braces)}; " if braces else ""
    return Problem(line, column + 1, f"the translation of {named} {fault}", f"{write}{keep}; write %% for a percent sign")


@dataclass(frozen=True)
class CheckedPo:
    """A PO file read by Babel once its syntax and Plural-Forms were found sound."""

    catalog: Catalog
    layout: Layout
    lines: list[str]
    rule: Callable[[int], int]


def read_po_file(path: Path, locale: Locale, shown: str, report: Report, syntax_code: str) -> CheckedPo | None:
    """A PO file, its syntax and Plural-Forms checked first (Babel would read a mistake in
    them wrongly, or fail with a traceback): every mistake a located error, and None. A file
    a build refuses to read (fileio.read_bytes) is one too."""
    try:
        data = read_bytes(path, MAX_CATALOG, within=path.parents[2] if len(path.parents) > 2 else path.parent)  # locales/<lang>/LC_MESSAGES/
    except FileRefused as error:
        report.error(Location(shown, 1, 1), error.code, error.strerror, error.hint, source="")
        return None
    except OSError as error:
        report.error(Location(shown, 1, 1), "file.unreadable", f"cannot read the file: {error.strerror}", source="")
        return None
    lines = lines_of(data)
    layout = read_layout(lines)
    report_problems(report, shown, lines, _at_most(layout.problems, 20), syntax_code)
    problems, rule = plural_problems(layout, get_plural(locale).plural_forms)
    report_problems(report, shown, lines, problems, "i18n.plural-forms")
    report_problems(report, shown, lines, duplicate_problems(layout), "i18n.duplicate")
    if layout.problems or problems or rule is None:
        return None
    try:
        catalog = read_po(io.BytesIO(data.removeprefix(codecs.BOM_UTF8)), locale=locale, abort_invalid=True)  # Babel reads a BOM as a keyword
    except LookupError:  # the charset of Content-Type names no encoding Python knows
        line, value = layout.header_field("content-type")
        hint = "write charset=UTF-8 in the Content-Type header, and save the file as UTF-8"
        report.error(
            Location(shown, line, 1), syntax_code, f"cannot read the PO file: unknown charset in '{value}'", hint, source=lines[line - 1] if line else ""
        )
        return None
    except (PoFileError, UnicodeDecodeError, ValueError) as error:
        undecodable = isinstance(error, UnicodeDecodeError)
        line = _first_undecodable(lines) if undecodable else getattr(error, "lineno", -1) + 1
        hint = "save it as UTF-8" if undecodable or not line else SYNTAX_HINT
        report.error(Location(shown, line, 1 if line else 0), syntax_code, f"cannot read the PO file: {error}", hint, source=lines[line - 1] if line else "")
        return None
    return CheckedPo(catalog, layout, lines, rule)


def _first_undecodable(lines: list[str]) -> int:
    """The first line that is not UTF-8 (lines_of replaced its bytes with U+FFFD); 0: none."""
    return next((number for number, line in enumerate(lines, 1) if "\ufffd" in line), 0)


def _at_most(problems: list[Problem], count: int) -> list[Problem]:
    """The first problems, and a last one saying how many more there are (a file that is
    no PO file at all would give one for each of its lines)."""
    if len(problems) <= count:
        return problems
    last = problems[count - 1]
    more = f"{last.message}; {len(problems) - count} more syntax errors after this line are not shown"
    return [*problems[: count - 1], Problem(last.line, last.column, more, "is this a PO file? " + last.hint)]


def report_problems(report: Report, path: str, lines: list[str], problems: list[Problem], code: str) -> None:
    """Each problem as a located error of a PO file, with its line shown."""
    for problem in problems:
        source = lines[problem.line - 1].rstrip("\r") if problem.line <= len(lines) else ""
        report.error(Location(path, problem.line, problem.column), code, problem.message, problem.hint, source=source)
