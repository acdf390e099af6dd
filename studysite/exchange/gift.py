"""GIFT, Moodle's text format for question banks: read and written as Moodle's own
qformat_gift does (its escapes \\~ \\= \\# \\{ \\} \\: \\\\ \\n, names ::...::, formats [html],
general feedback ####, categories $CATEGORY:), and the ordering type's {>N ...} (core in
Moodle since 4.4, a plugin before).

Out, texts are HTML ([html]); a numeric question's unit and an order question's
explanation have no place in GIFT (a warning says so). In, a question is a run of lines up
to a blank line; a type GIFT has and Studysite has not (essay, description) is an error.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from studysite.content.schema import BLANK
from studysite.diagnostics import Location, Report
from studysite.exchange.bank import Bank, BankQuestion, left_out, lost
from studysite.exchange.drafts import Draft, decode_text
from studysite.exchange.lms_in import DraftMaker, Fragment, category_name, right_letters
from studysite.exchange.texts import html_to_text

NOT_CARRIED = frozenset({"order", "terms", "accents", "unit"})
_ESCAPABLE = {":": "\ue101", "#": "\ue102", "=": "\ue103", "{": "\ue104", "}": "\ue105", "~": "\ue106", "n": "\ue107"}
_RESTORED = {placeholder: char for char, placeholder in _ESCAPABLE.items()} | {"\ue107": "\n", "\ue100": "\\"}
_WEIGHT = re.compile(r"^%(-?[0-9]{1,3}(?:\.[0-9]*)?)%")
_FORMAT = re.compile(r"^\[(html|moodle|plain|markdown)\]")
_ID_COMMENT = re.compile(r"^//\s*\[id:([^\]]+)\]")


# -- in -----------------------------------------------------------------------------------


def read_gift(data: bytes, path: str, language: str, report: Report) -> list[Draft]:
    """The drafts of a GIFT file's questions in one language; problems go to the report."""
    text = decode_text(data, path, report)
    if text is None:
        return []
    maker = DraftMaker(path, language, report, NOT_CARRIED)
    drafts, category = [], ""
    for line, lines, idnumber in _chunks(text):
        where = Location(path, line, 1)
        body = _escaped("\n".join(lines)).strip()
        if body.startswith("$CATEGORY:"):
            first, _, body = body.partition("\n")
            category = category_name(_restored(first[len("$CATEGORY:") :]))
            body = body.strip()
            if not body:
                continue
        draft = _question(body, where, maker, category, idnumber)
        if draft is not None:
            drafts.append(draft)
    return drafts


def _chunks(text: str):
    """(first line number, lines, id from a '// [id:...]' comment) of each run of lines up to
    a blank line; comment lines left out."""
    lines, start, idnumber = [], 0, ""
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            if lines:
                yield start, lines, idnumber
            lines, idnumber = [], ""
            continue
        if stripped.startswith("//"):
            found = _ID_COMMENT.match(stripped)
            idnumber = found.group(1).strip() if found else idnumber
            continue
        if not lines:
            start = number
        lines.append(line)
    if lines:
        yield start, lines, idnumber


def _escaped(text: str) -> str:
    """The text with GIFT's escapes set aside as placeholders (Moodle's escapedchar_pre)."""
    text = text.replace("\\\\", "\ue100")
    return re.sub(r"\\([:#={}~n])", lambda m: _ESCAPABLE[m.group(1)], text)


def _restored(text: str) -> str:
    return "".join(_RESTORED.get(char, char) for char in text)


def _question(body: str, where: Location, maker: DraftMaker, category: str, idnumber: str) -> Draft | None:
    name = ""
    if body.startswith("::") and "::" in body[2:]:
        name, body = body[2:].split("::", 1)
        name, body = _restored(name).strip(), body.strip()
    start, end = body.find("{"), body.find("}", body.find("{") + 1)
    if start < 0 and end < 0:
        maker.unsupported(where, "description", "GIFT")
        return None
    if start < 0 or end < 0:
        maker.error(where, "gift.braces", "the answers have no '{' or no '}'", "write the answers between braces; a '{' or '}' in a text is written \\{ or \\}")
        return None
    answers = body[start + 1 : end].strip()
    after = body[end + 1 :]
    stem = body[:start] + BLANK + after if after.strip() else body[:start]  # GIFT's missing word: the answers where the blank is
    explanation = ""
    if "####" in answers:
        answers, explanation = answers.rsplit("####", 1)
        answers = answers.strip()
    stem_fragment = _fragment(stem.strip(), "moodle")
    text_format = stem_fragment.format
    common = {"question": maker.text(stem_fragment, "question", where), "explanation": maker.text(_fragment(explanation, text_format), "explanation", where)}
    made = _typed_part(answers, text_format, where, maker)
    if made is None:
        return None
    record, block = made
    no_explanation = frozenset({"explanation"}) if answers.startswith(">") else frozenset()  # the ordering answers end the question
    return maker.draft(
        where, record, {**common, **block}, name or html_to_text(stem_fragment.text), category, record_id=_restored(idnumber), also_not_carried=no_explanation
    )


def _fragment(text: str, default: str) -> Fragment:
    """A GIFT text: its [format] if it starts with one (else the default), escapes restored."""
    text = text.strip()
    found = _FORMAT.match(text)
    return Fragment(_restored(text[found.end() :] if found else text).strip(), found.group(1) if found else default)


def _typed_part(answers: str, text_format: str, where: Location, maker: DraftMaker):
    """The record fields and block fields of a question's answers, by what they look like
    (as Moodle tells GIFT's types apart); None when they cannot be read (reported)."""
    if not answers:
        maker.unsupported(where, "essay", "GIFT")
        return None
    if answers.startswith(">"):
        return _ordering(answers, text_format, where, maker)
    if answers.startswith("#"):
        return _numerical(answers[1:], where, maker)
    if "~" in answers:
        return _multichoice(answers, text_format, where, maker)
    if "=" in answers and "->" in answers:
        return _matching(answers, text_format, where, maker)
    head = answers.split("#", 1)[0].strip()
    if head in ("T", "TRUE", "F", "FALSE"):
        if "#" in answers:
            maker.warn(where, "import.feedback", "a true-false question has no feedback per answer in Studysite: it is left out")
        return {"type": "true-false", "answer": head.startswith("T")}, {}
    return _shortanswer(answers, where, maker)


def _split_answers(answers: str) -> list[tuple[str, str]]:
    """(marker '=' or '~', text) of each answer."""
    return [(match.group(1), match.group(2).strip()) for match in re.finditer(r"([=~])([^=~]*)", answers)]


def _weight(text: str) -> tuple[float | None, str]:
    found = _WEIGHT.match(text)
    return (float(found.group(1)), text[found.end() :]) if found else (None, text)


def _multichoice(answers: str, text_format: str, where: Location, maker: DraftMaker):
    single = "=" in answers
    choices, feedback, fractions = [], [], []
    for marker, text in _split_answers(answers):
        weight, text = _weight(text)
        fraction = 100.0 if marker == "=" else (weight or 0.0)
        answer, _, comment = text.partition("#")
        choices.append(maker.text(_fragment(answer, text_format), "choices", where))
        feedback.append(maker.text(_fragment(comment, text_format), "feedback", where) if comment.strip() else "")
        fractions.append(fraction)
    letters = right_letters(fractions)
    if single:
        full = [chr(ord("A") + index) for index, fraction in enumerate(fractions) if fraction >= 100]
        if len(full) != 1:
            maker.error(
                where,
                "import.answer",
                f"a single-answer question has {len(full)} right answers (=)",
                "mark one answer with '='; for a select-all question use weights: ~%50%right",
            )
            return None
        if len(letters) > 1:
            maker.warn(where, "import.partial", "answers worth part of the grade count as wrong in Studysite")
        record = {"type": "single", "answer": full[0]}
    else:
        if not letters:
            maker.error(where, "import.answer", "no answer is worth anything (a weight above 0%)", "give the right answers a weight, e.g. ~%50%right")
            return None
        record = {"type": "multiple", "answer": letters}
    return record, {"choices": choices, **({"feedback": feedback} if any(feedback) else {})}


def _shortanswer(answers: str, where: Location, maker: DraftMaker):
    accepted = []
    for _, text in _split_answers(answers):
        weight, text = _weight(text)
        answer, _, comment = text.partition("#")
        if comment.strip():
            maker.warn(where, "import.feedback", "a typed answer has no feedback in Studysite: it is left out")
        if weight is not None and weight < 100:
            maker.warn(
                where, "import.partial", f"the answer '{_restored(answer.strip())}' is worth {weight:g}%: Studysite takes an answer as right or wrong; left out"
            )
            continue
        accepted.append(_restored(answer.strip()))
    return _accepted(accepted, where, maker)


def _accepted(accepted: list[str], where: Location, maker: DraftMaker):
    """The accept field of answers Moodle compares with wildcards: '\\*' is a star, '*' a wildcard."""
    if any(re.search(r"(?<!\\)\*", answer) for answer in accepted):
        maker.error(
            where,
            "import.wildcard",
            "an accepted answer holds the wildcard '*', which Studysite does not have",
            "list the answers a reader may type; write a star as \\*",
        )
        return None
    return {"type": "typed"}, {"accept": [maker.text(Fragment(answer.replace("\\*", "*"), "plain"), "accept", where) for answer in accepted]}


def _numerical(answers: str, where: Location, maker: DraftMaker):
    answers = answers.split("~", 1)[0]
    full = [
        (weight, text)
        for marker, text in _split_answers("=" + answers if not answers.lstrip().startswith("=") else answers)
        for weight, text in [_weight(text)]
    ]
    right = [text.partition("#")[0].strip() for weight, text in full if weight is None or weight >= 100]
    if not right:
        maker.error(where, "import.answer", "the numerical question has no answer worth 100%")
        return None
    value = _restored(right[0])
    try:
        if ".." in value:
            low, high = (Decimal(part) for part in value.split("..", 1))
            answer, tolerance = (low + high) / 2, (high - low) / 2
        else:
            number, _, margin = value.partition(":")
            answer, tolerance = Decimal(number), Decimal(margin or 0)
    except InvalidOperation:
        maker.error(where, "import.number", f"'{value}' is not a number, a number:margin or a low..high range")
        return None
    return {"type": "numeric", "answer": answer, **({"tolerance": tolerance} if tolerance else {})}, {}


def _matching(answers: str, text_format: str, where: Location, maker: DraftMaker):
    pairs = []
    for _, text in _split_answers(answers):
        left, arrow, right = text.partition("->")
        if not arrow:
            maker.error(where, "gift.match", f"'{_restored(text)}' is not a pair 'left -> right'")
            return None
        if not left.strip():
            maker.warn(where, "import.distractor", f"the extra answer '{_restored(right.strip())}' (no left side) has no place in Studysite: left out")
            continue
        pairs.append([maker.text(_fragment(left, text_format), "pairs", where), maker.text(Fragment(_restored(right.strip()), "plain"), "pairs", where)])
    return {"type": "match"}, {"pairs": pairs}


def _ordering(answers: str, text_format: str, where: Location, maker: DraftMaker):
    lines = _restored(answers[1:]).split("\n")
    items = [line.strip() for line in lines[1:] if line.strip()]
    return {"type": "order"}, {"items": [maker.text(Fragment(item, "moodle"), "items", where) for item in items]}


# -- out ----------------------------------------------------------------------------------


def escaped(text: str) -> str:
    """A text as GIFT writes it (Moodle's repchar): \\ # = ~ { } : escaped, line breaks as \\n."""
    text = text.replace("\\", "\\\\")
    for char in "#=~{}:":
        text = text.replace(char, "\\" + char)
    return text.replace("\r", "").replace("\n", "\\n")


def write_gift(bank: Bank, report: Report) -> bytes:
    """The bank as a GIFT file: a $CATEGORY per topic, then its questions."""
    parts = [f"// {bank.title} ({bank.language}): questions exported by Studysite\n"]
    for topic, questions in bank.topics:
        written = [text for item in questions for text in [_question_text(item, report)] if text]
        if written:
            parts.append(f"$CATEGORY: $course$/top/{topic.title.replace('/', '//')}\n")
            parts += written
    return "\n".join(parts).encode("utf-8")


def _question_text(item: BankQuestion, report: Report) -> str:
    writer = _WRITERS[item.question.type]
    answers = writer(item, report)
    if answers is None:
        return ""
    html = item.html
    stem = html.question
    explanation = f"####[html]{escaped(html.explanation)}" if html.explanation and item.question.type != "order" else ""
    if item.question.type == "order" and html.explanation:
        lost(report, item, "GIFT", "explanation (GIFT's ordering answers end the question)")
    head = f"// [id:{item.question.id}]\n::{escaped(item.question.id)}::[html]"
    if BLANK in stem and item.question.type == "typed":
        before, after = stem.split(BLANK, 1)
        return f"{head}{escaped(before)}{{{answers}{explanation}}}{escaped(after)}\n"
    return f"{head}{escaped(stem)}{{{answers}{explanation}}}\n"


def _feedback(item: BankQuestion, index: int) -> str:
    feedback = item.html.feedback
    return f"#{escaped(feedback[index])}" if index < len(feedback) and feedback[index] else ""


def _single(item: BankQuestion, report: Report) -> str:
    return (
        "".join(
            f"\n\t{'=' if index == item.question.answer else '~'}{escaped(choice)}{_feedback(item, index)}" for index, choice in enumerate(item.html.choices)
        )
        + "\n"
    )


def _multiple(item: BankQuestion, report: Report) -> str:
    right = set(item.question.answer)
    share = _percent(100 / len(right))
    return (
        "".join(f"\n\t~%{share if index in right else '-100'}%{escaped(choice)}{_feedback(item, index)}" for index, choice in enumerate(item.html.choices))
        + "\n"
    )


def _percent(value: float) -> str:
    return f"{value:.5f}".rstrip("0").rstrip(".")


def _true_false(item: BankQuestion, report: Report) -> str:
    return "TRUE" if item.question.answer else "FALSE"


def _typed(item: BankQuestion, report: Report) -> str:
    return "".join(f"\n\t={escaped(answer).replace('*', chr(92) + '*')}" for answer in item.text.accept) + "\n"


def _numeric(item: BankQuestion, report: Report) -> str:
    if item.text.unit:
        lost(report, item, "GIFT", f"unit '{item.text.unit}'")
    tolerance = f":{format(item.question.tolerance, 'f')}" if item.question.tolerance else ""
    return f"#{format(item.question.answer, 'f')}{tolerance}"


def _order(item: BankQuestion, report: Report) -> str | None:
    items = item.html.items
    if any(char in text for text in items for char in "{}\n"):
        left_out(report, item, "GIFT", "an item holds '{', '}' or a line break, which GIFT's ordering answers cannot")
        return None
    return f">{len(items)} ALL VERTICAL ALL_OR_NOTHING SHOW\n" + "".join(f"{text}\n" for text in items)


def _match(item: BankQuestion, report: Report) -> str | None:
    if any("->" in left for left, _ in item.html.pairs):
        left_out(report, item, "GIFT", "a left side holds '->', which ends it in GIFT")
        return None
    return "".join(f"\n\t={escaped(left)} -> {escaped(html_to_text(right))}" for left, right in item.html.pairs) + "\n"


_WRITERS = {"single": _single, "multiple": _multiple, "true-false": _true_false, "typed": _typed, "numeric": _numeric, "order": _order, "match": _match}
