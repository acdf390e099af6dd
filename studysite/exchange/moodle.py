"""Moodle XML, Moodle's own question bank format (qformat_xml): read and written.

Out: a category per topic (its title, and the topic's id as the category's idnumber), then
its questions, each named by its id (and with it as idnumber): multichoice (single or
not, per-answer <feedback>), truefalse, shortanswer (typed), numerical (tolerance and
unit), matching, and ordering (qtype_ordering, core in Moodle since 4.4, a plugin before).
Texts are HTML, math as TeX; an image is a base64 <file> of the text, named from it by
@@PLUGINFILE@@. In: the same, and Moodle's other question types are errors naming the type.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import xml.etree.ElementTree as ET
import xml.parsers.expat
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation

from studysite.diagnostics import Location, Report
from studysite.exchange.bank import Bank, BankQuestion, sources_in, with_sources
from studysite.exchange.drafts import Draft, decode_text
from studysite.exchange.lms_in import STUDYSITE_TYPE, DraftMaker, Fragment, category_name, right_letters
from studysite.exchange.texts import html_to_text

NOT_CARRIED = frozenset({"order", "terms", "accents"})
PLUGINFILE = "@@PLUGINFILE@@/"
_FORMATS = {"html": "html", "moodle_auto_format": "moodle", "plain_text": "plain", "markdown": "markdown"}


# -- in -----------------------------------------------------------------------------------


@dataclass
class Node:
    """An XML element with the line it starts on."""

    tag: str
    attributes: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str) -> Node | None:
        return next((child for child in self.children if child.tag == tag), None)

    def all(self, tag: str) -> list[Node]:
        return [child for child in self.children if child.tag == tag]

    def value(self, *path: str) -> str:
        """The text of the element at the path below this one ("" when there is none)."""
        node: Node | None = self
        for tag in path:
            node = node.find(tag) if node is not None else None
        return node.text.strip() if node is not None else ""


def parse_xml(text: str, path: str, report: Report) -> Node | None:
    """The document's root element; None when it is not well-formed XML (reported at the line)."""
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = True
    root = Node("", {}, 0)
    stack = [root]

    def start(tag, attributes):
        node = Node(tag, attributes, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag):
        stack.pop()

    def data(chunk):
        stack[-1].text += chunk

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, data
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as error:
        report.error(
            Location(path, error.lineno, error.offset + 1), "xml.syntax", f"the file is not well-formed XML: {xml.parsers.expat.ErrorString(error.code)}"
        )
        return None
    return root.children[0] if root.children else None


def read_moodle(data: bytes, path: str, language: str, report: Report) -> list[Draft]:
    """The drafts of a Moodle XML file's questions in one language; problems go to the report."""
    text = decode_text(data, path, report)
    root = parse_xml(text, path, report) if text is not None else None
    if root is None:
        return []
    if root.tag != "quiz":
        report.error(Location(path, root.line, 1), "xml.root", f"a Moodle XML file holds <quiz>, not <{root.tag}>")
        return []
    reader = _Reader(path, language, report)
    return [draft for question in root.all("question") for draft in [reader.question(question)] if draft is not None]


class _Reader:
    def __init__(self, path: str, language: str, report: Report):
        self.path = path
        self.maker = DraftMaker(path, language, report, NOT_CARRIED)
        self.category, self.category_id = "", ""
        self.files: dict[str, bytes] = {}  # the images the question's texts embed, by path

    def question(self, node: Node) -> Draft | None:
        lms_type = node.attributes.get("type", "")
        where = Location(self.path, node.line, 1)
        if lms_type == "category":
            self.category, self.category_id = category_name(node.value("category", "text")), node.value("idnumber")
            return None
        self.files = {}
        read = getattr(self, f"_{lms_type}", None) if lms_type in STUDYSITE_TYPE else None
        if read is None:
            self.maker.unsupported(where, lms_type or "(none)", "Moodle")
            return None
        made = read(node, where)
        if made is None:
            return None
        record, block = made
        stem = self.fragment(node.find("questiontext"))
        block = {
            "question": self.text(stem, "question", where),
            "explanation": self.text(self.fragment(node.find("generalfeedback")), "explanation", where),
            **block,
        }
        name = node.value("name", "text") or html_to_text(stem.text)
        draft = self.maker.draft(where, record, block, name, self.category, self.category_id, node.value("idnumber"))
        return replace(draft, media=dict(self.files))

    def fragment(self, node: Node | None) -> Fragment:
        """A text element's text and format; its <file>s kept by name."""
        if node is None:
            return Fragment("")
        for file in node.all("file"):
            folder = file.attributes.get("path", "/").strip("/")
            try:
                self.files[f"{folder}/{file.attributes.get('name', '')}".lstrip("/")] = base64.b64decode(file.text, validate=False)
            except (binascii.Error, ValueError):
                pass
        return Fragment(node.value("text"), _FORMATS.get(node.attributes.get("format", "html"), "html"))

    def text(self, fragment: Fragment, name: str, where: Location) -> str:
        return self.maker.text(fragment, name, where) if fragment.text else ""

    def answers(self, node: Node) -> list[tuple[float, Node]]:
        return [(_fraction(answer.attributes.get("fraction", "0")), answer) for answer in node.all("answer")]

    def _multichoice(self, node: Node, where: Location):
        answers = self.answers(node)
        choices = [self.text(self.fragment(answer), "choices", where) for _, answer in answers]
        feedback = [self.text(self.fragment(answer.find("feedback")), "feedback", where) for _, answer in answers]
        fractions = [fraction for fraction, _ in answers]
        letters = right_letters(fractions)
        if node.value("single").lower() in ("true", "1"):
            best = max(fractions, default=0)
            full = [letter for letter, fraction in zip("ABCDEFGHIJ", fractions, strict=False) if fraction == best and best > 0]
            if len(full) != 1:
                self.maker.error(where, "import.answer", f"a single-answer question has {len(full)} right answers", "give one answer the fraction 100")
                return None
            if len(letters) > 1:
                self.maker.warn(where, "import.partial", "answers worth part of the grade count as wrong in Studysite")
            record = {"type": "single", "answer": full[0]}
        elif not letters:
            self.maker.error(where, "import.answer", "no answer has a fraction above 0")
            return None
        else:
            record = {"type": "multiple", "answer": letters}
        return record, {"choices": choices, **({"feedback": feedback} if any(feedback) else {})}

    def _truefalse(self, node: Node, where: Location):
        right = [answer.value("text").lower() for fraction, answer in self.answers(node) if fraction > 0]
        if len(right) != 1 or right[0] not in ("true", "false"):
            self.maker.error(where, "import.answer", "the true/false question has no answer 'true' or 'false' with a fraction of 100")
            return None
        return {"type": "true-false", "answer": right[0] == "true"}, {}

    def _shortanswer(self, node: Node, where: Location):
        accepted = []
        for fraction, answer in self.answers(node):
            text = answer.value("text")
            if fraction < 100:
                self.maker.warn(where, "import.partial", f"the answer '{text}' is worth {fraction:g}%: Studysite takes an answer as right or wrong; left out")
            elif re.search(r"(?<!\\)\*", text):
                self.maker.error(
                    where, "import.wildcard", f"the answer '{text}' holds the wildcard '*', which Studysite does not have", "list the answers a reader may type"
                )
                return None
            else:
                accepted.append(self.text(Fragment(text.replace("\\*", "*"), "plain"), "accept", where))
        return {"type": "typed"}, {"accept": accepted}

    def _numerical(self, node: Node, where: Location):
        right = [answer for fraction, answer in self.answers(node) if fraction >= 100 and answer.value("text") not in ("", "*")]
        if not right:
            self.maker.error(where, "import.answer", "the numerical question has no answer with a fraction of 100")
            return None
        try:
            answer, tolerance = Decimal(right[0].value("text")), Decimal(right[0].value("tolerance") or 0)
        except InvalidOperation:
            self.maker.error(where, "import.number", f"'{right[0].value('text')}' is not a number")
            return None
        units = (
            [unit.value("unit_name") for unit in node.find("units").all("unit") if _fraction(unit.value("multiplier") or "1") == 1]
            if node.find("units")
            else []
        )
        record = {"type": "numeric", "answer": answer, **({"tolerance": tolerance} if tolerance else {})}
        return record, ({"unit": self.text(Fragment(units[0], "plain"), "unit", where)} if units and units[0] else {})

    def _matching(self, node: Node, where: Location):
        pairs = []
        for sub in node.all("subquestion"):
            left, right = self.fragment(sub), sub.value("answer", "text")
            if not left.text.strip():
                self.maker.warn(where, "import.distractor", f"the extra answer '{right}' (no left side) has no place in Studysite: left out")
                continue
            pairs.append([self.text(left, "pairs", where), self.text(Fragment(right, "plain"), "pairs", where)])
        return {"type": "match"}, {"pairs": pairs}

    _match = _matching

    def _ordering(self, node: Node, where: Location):
        answers = sorted(self.answers(node), key=lambda item: item[0])
        return {"type": "order"}, {"items": [self.text(self.fragment(answer), "items", where) for _, answer in answers]}


def _fraction(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


# -- out ----------------------------------------------------------------------------------


def write_moodle(bank: Bank, report: Report) -> bytes:
    """The bank as a Moodle XML file."""
    quiz = ET.Element("quiz")
    quiz.append(ET.Comment(f" {bank.title} ({bank.language}): questions exported by Studysite "))
    for topic, questions in bank.topics:
        category = ET.SubElement(quiz, "question", type="category")
        _text(ET.SubElement(category, "category"), f"$course$/top/{topic.title.replace('/', '//')}")
        _text(ET.SubElement(category, "info", format="html"), topic.description)
        ET.SubElement(category, "idnumber").text = topic.id
        for item in questions:
            quiz.append(_question(item))
    ET.indent(quiz)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="utf-8") + b"\n"


def _text(parent: ET.Element, text: str, item: BankQuestion | None = None) -> ET.Element:
    """A <text> child holding HTML; with the question, each image it shows as a <file> of
    the parent, which the HTML names @@PLUGINFILE@@/path/name: the path as the content
    text wrote it, so that an import finds the same file again."""
    paths = _file_paths(text, item) if item is not None else {}
    ET.SubElement(parent, "text").text = with_sources(text, {source: PLUGINFILE + path for source, path in paths.items()})
    for source, path in paths.items():
        folder, _, name = path.rpartition("/")
        data = base64.b64encode(item.images[source].read_bytes()).decode("ascii")
        ET.SubElement(parent, "file", name=name, path=f"/{folder}/" if folder else "/", encoding="base64").text = data
    return parent


def _file_paths(fragment: str, item: BankQuestion) -> dict[str, str]:
    """The file path of each image of the text whose file is known: its src without a
    leading '/' (a path that climbs with '..' as its file name alone)."""
    paths: dict[str, str] = {}
    for source in sources_in(fragment):
        if source in item.images:
            path = html.unescape(source).lstrip("/")
            paths[source] = item.images[source].name if ".." in path.split("/") else path
    return paths


def _html(parent: ET.Element, tag: str, text: str, item: BankQuestion) -> ET.Element:
    return _text(ET.SubElement(parent, tag, format="html"), text, item)


def _question(item: BankQuestion) -> ET.Element:
    question = ET.Element("question", type=_MOODLE_TYPE[item.question.type])
    _text(ET.SubElement(question, "name"), item.question.id)
    _html(question, "questiontext", item.html.question, item)
    _html(question, "generalfeedback", item.html.explanation, item)
    for tag, value in (("defaultgrade", "1"), ("penalty", "0.3333333"), ("hidden", "0"), ("idnumber", item.question.id)):
        ET.SubElement(question, tag).text = value
    _WRITERS[item.question.type](question, item)
    return question


def _answer(parent: ET.Element, fraction: str, text: str, item: BankQuestion, text_format: str = "html", feedback: str = "") -> ET.Element:
    answer = ET.SubElement(parent, "answer", fraction=fraction, format=text_format)
    _text(answer, text, item)
    _html(answer, "feedback", feedback, item)
    return answer


def _choices(question: ET.Element, item: BankQuestion) -> None:
    single = item.question.type == "single"
    right = {item.question.answer} if single else set(item.question.answer)
    share = f"{100 / len(right):.5f}".rstrip("0").rstrip(".")
    for tag, value in (("single", "true" if single else "false"), ("shuffleanswers", "true"), ("answernumbering", "ABCD"), ("showstandardinstruction", "0")):
        ET.SubElement(question, tag).text = value
    feedback = item.html.feedback
    for index, choice in enumerate(item.html.choices):
        fraction = ("100" if single else share) if index in right else ("0" if single else "-100")
        _answer(question, fraction, choice, item, feedback=feedback[index] if index < len(feedback) else "")


def _true_false(question: ET.Element, item: BankQuestion) -> None:
    for value in (True, False):
        _answer(question, "100" if item.question.answer is value else "0", "true" if value else "false", item, "moodle_auto_format")


def _typed(question: ET.Element, item: BankQuestion) -> None:
    ET.SubElement(question, "usecase").text = "0"
    for accepted in item.text.accept:
        _answer(question, "100", accepted.replace("*", "\\*"), item, "moodle_auto_format")


def _numeric(question: ET.Element, item: BankQuestion) -> None:
    answer = _answer(question, "100", format(item.question.answer, "f"), item, "moodle_auto_format")
    ET.SubElement(answer, "tolerance").text = format(item.question.tolerance, "f")
    if item.text.unit:
        unit = ET.SubElement(ET.SubElement(question, "units"), "unit")
        ET.SubElement(unit, "multiplier").text = "1"
        ET.SubElement(unit, "unit_name").text = item.text.unit
    for tag, value in (("unitgradingtype", "0"), ("unitpenalty", "0.1000000"), ("showunits", "3" if not item.text.unit else "2"), ("unitsleft", "0")):
        ET.SubElement(question, tag).text = value


def _order(question: ET.Element, item: BankQuestion) -> None:
    settings = (
        ("layouttype", "VERTICAL"),
        ("selecttype", "ALL"),
        ("selectcount", "0"),
        ("gradingtype", "ALL_OR_NOTHING"),
        ("showgrading", "SHOW"),
        ("numberingstyle", "none"),
    )
    for tag, value in settings:
        ET.SubElement(question, tag).text = value
    for number, text in enumerate(item.html.items, 1):
        _answer(question, f"{number}.0000000", text, item)


def _match(question: ET.Element, item: BankQuestion) -> None:
    ET.SubElement(question, "shuffleanswers").text = "true"
    for left, right in item.html.pairs:
        sub = _text(ET.SubElement(question, "subquestion", format="html"), left, item)
        _text(ET.SubElement(sub, "answer"), html_to_text(right))


_WRITERS = {"single": _choices, "multiple": _choices, "true-false": _true_false, "typed": _typed, "numeric": _numeric, "order": _order, "match": _match}
_MOODLE_TYPE = {
    "single": "multichoice",
    "multiple": "multichoice",
    "true-false": "truefalse",
    "typed": "shortanswer",
    "numeric": "numerical",
    "order": "ordering",
    "match": "matching",
}
