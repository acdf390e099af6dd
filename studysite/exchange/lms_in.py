"""What GIFT and Moodle XML readers share: a question bank's texts made into the fields the
schema declares (each by its text format: Markdown, inline, plain), and the draft of a
question of one language."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from studysite.content.fields import Text
from studysite.content.schema import QUESTIONS
from studysite.diagnostics import Location, Report
from studysite.exchange.drafts import Draft
from studysite.exchange.texts import html_to_markdown, html_to_plain, plain_to_markdown
from studysite.text.markup import MarkdownConverter

# Moodle's question types that have a Studysite type: the rest are told by name, as errors
STUDYSITE_TYPE = {
    "multichoice": "single or multiple",
    "truefalse": "true-false",
    "shortanswer": "typed",
    "numerical": "numeric",
    "ordering": "order",
    "matching": "match",
    "match": "match",
}
WHAT_TO_DO = "Studysite has single, multiple, true-false, typed, numeric, order and match questions; leave this one out or rewrite it as one of them"


def record_fields(kind=QUESTIONS) -> set[str]:
    return {f.name for variant in kind.variants.values() for f in variant.record.fields}


def block_fields(kind=QUESTIONS) -> set[str]:
    return set(kind.any_block.names)


@dataclass
class Fragment:
    """A text as a bank holds it, and how: html, moodle (HTML, line breaks kept), plain or markdown."""

    text: str
    format: str = "html"


@dataclass
class DraftMaker:
    """Makes the drafts of one file of one language. not_carried: the fields the format
    cannot say (on --update they are kept)."""

    path: str
    language: str
    report: Report
    not_carried: frozenset[str]
    markup: MarkdownConverter = field(default_factory=MarkdownConverter)
    images: Callable[[str], str] = lambda source: source

    def text(self, fragment: Fragment, name: str, where: Location) -> str:
        """A bank's text as the field `name` of a language block takes it."""
        text_format = QUESTIONS.any_block.field(name).text
        if fragment.format == "markdown" and text_format is not Text.PLAIN:
            return fragment.text.strip()
        if text_format is Text.PLAIN:
            return html_to_plain(fragment.text) if fragment.format != "plain" else fragment.text.strip()
        if fragment.format == "plain":
            return plain_to_markdown(fragment.text, text_format, self.markup)
        source = fragment.text.replace("\n", "<br>") if fragment.format == "moodle" and "<" not in fragment.text else fragment.text
        markdown, joined = html_to_markdown(source, text_format, self.markup, self.images)
        if joined:
            self.report.warning(where, "import.joined", f"the {name} has several paragraphs; a {name} is one line: they are joined", "check the text")
        return markdown

    def warn(self, where: Location, code: str, message: str, hint: str = "") -> None:
        self.report.warning(where, code, message, hint)

    def error(self, where: Location, code: str, message: str, hint: str = "") -> None:
        self.report.error(where, code, message, hint)

    def unsupported(self, where: Location, lms_type: str, format_name: str) -> None:
        self.error(where, "import.type", f"{format_name} question type '{lms_type}' has no Studysite type", WHAT_TO_DO)

    def draft(
        self,
        where: Location,
        record: Mapping[str, object],
        block: Mapping[str, object],
        name: str = "",
        category: str = "",
        category_id: str = "",
        record_id: str = "",
        also_not_carried: frozenset[str] = frozenset(),
    ) -> Draft:
        """The draft of one question: its record fields, its block in the file's language."""
        record = {**record, **({"id": record_id} if record_id else {})}
        not_carried = self.not_carried | also_not_carried
        carried = {name for name in record_fields() if name not in not_carried and name != "topic"} | {
            f"{self.language}.{name}" for name in block_fields() if name not in not_carried
        }
        places = {"": where, self.language: where}
        block = {key: value for key, value in block.items() if value not in ("", [], ())}
        return Draft(where, record, {self.language: block}, frozenset(carried), places, name, category, category_id)


def right_letters(fractions: Iterable[float]) -> list[str]:
    """The letters of the answers worth something (fraction above 0)."""
    return [chr(ord("A") + index) for index, fraction in enumerate(fractions) if fraction > 0]


def category_name(path: str) -> str:
    """The last part of a Moodle category path ($course$/top/Biology/Cells: 'Cells'); a '/'
    in a name is written '//'. '' for the top category."""
    parts = [part.replace("\0", "/").strip() for part in path.replace("//", "\0").split("/")]
    parts = [part for part in parts if part and not (part.startswith("$") and part.endswith("$"))]
    if parts and parts[0] == "top":
        parts = parts[1:]
    return parts[-1] if parts else ""
