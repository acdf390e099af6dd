"""The schema: every kind of record and every question type, declared once.

A kind is a content folder whose records have their own keys (the record table) and one
block per language (the block table); questions come in types, each with its own pair of
tables and its own rule. Every module that needs to know a field reads it here: validation
(validate.py), content.po (i18n/content_po.py), the HTML of the texts (html.py), the JSON
Schema for editors (json_schema.py), import and export. Adding a field or a question type
is a few lines here, a template part and a browser module (docs/architecture.md).
"""

from __future__ import annotations

from decimal import Decimal

from studysite.content.fields import (
    IN_SITE_LANGUAGES,
    REQUIRED,
    Field,
    Kind,
    ParsedRecord,
    Table,
    Text,
    Variant,
    one_variant,
)
from studysite.content.readers import (
    ACCENT,
    AUDIO,
    BASE_URL,
    BOOLEAN,
    DECIMAL,
    ID,
    LANGUAGE,
    LANGUAGES,
    LETTER,
    LETTERS_SHAPE,
    NOT_NEGATIVE,
    NUMBER,
    PAIRS,
    TEXT,
    TEXTS,
    TOPIC,
    choice_of,
    feedback_list,
    group,
    rows,
    term_ids,
    text_list,
    whole_number,
)
from studysite.content.records import (
    Aspect,
    Comparison,
    ComparisonText,
    ExamDefaults,
    Question,
    QuestionText,
    SiteConfig,
    SiteText,
    Term,
    TermText,
    Theme,
    Topic,
    TopicText,
    answer_letter,
)
from studysite.diagnostics import Report, plural

UNORDERED = float("inf")  # records without an 'order' follow the ordered ones, by file path
TOPIC_HINT = "name the topic this belongs to, e.g. 'topic: ai-hardware-stack'"
MIN_CHOICES, MAX_CHOICES = 2, 6
BLANK = "___"  # where a typed question's answer goes in its stem

# -- site.yaml ---------------------------------------------------------------------------

THEME = Table(
    Theme,
    Field("accent", ACCENT, default="", about='links, buttons, progress: #rrggbb, at least 4.5:1 on the light background, e.g. "#0b6e4f"'),
    Field("logo", TEXT, default="", about="an image shown in the header beside the title, in the content folder"),
    Field("favicon", TEXT, default="", about="the browser's icon and the installed app's (192 and 512 px made from it)"),
)

MAX_EXAM_QUESTIONS = 1000
MAX_EXAM_MINUTES = 600  # as the browser keeps an exam (static/js/storage.js)
EXAM = Table(
    ExamDefaults,
    Field("questions", whole_number(MAX_EXAM_QUESTIONS), default=ExamDefaults.questions, about="how many questions the exam page offers first"),
    Field("minutes", whole_number(MAX_EXAM_MINUTES), default=ExamDefaults.minutes, about="how many minutes it offers first"),
)

SITE = Kind(
    "site",
    "site configuration",
    one_variant(
        Table(
            SiteConfig,
            Field("languages", LANGUAGES, REQUIRED, hint="add 'languages: [nl, fr]'; the first is the default", about="the site's languages; the first is the default"),
            Field("term_language", LANGUAGE, default="", about="glossary pages show each term's name in this language"),
            Field("base_url", BASE_URL, default="/", about="where the site will live, e.g. https://user.github.io/repo/"),
            Field("fallback", choice_of(("notice", "skip")), default="notice", about="an untranslated record: shown with a notice, or left out"),
            Field("accents", choice_of(("count", "ignore")), default="count", about="typed answers: whether accents count (the default for every question)"),
            Field("theme", group(THEME, "theme"), default=Theme(), about="the site's look: accent colour, logo, favicon"),
            Field("exam", group(EXAM, "mock exam", keep_where=False), default=ExamDefaults(), about="the mock exam's first offer: questions and minutes"),
        ),
        Table(
            SiteText,
            Field("title", TEXT, REQUIRED, text=Text.PLAIN, about="the site's title"),
            Field("short_title", TEXT, default="", text=Text.PLAIN, about="a shorter title for a phone's header"),
            Field("description", TEXT, default="", text=Text.INLINE, about="shown on the home page"),
        ),
    ),
)

# -- topics, glossary, comparisons -------------------------------------------------------

TOPICS = Kind(
    "topics",
    "topic",
    one_variant(
        Table(Topic, Field("id", ID), Field("order", NUMBER, default=UNORDERED, placing=True, about="topics are listed by order, then id")),
        Table(
            TopicText,
            Field("title", TEXT, REQUIRED, text=Text.PLAIN),
            Field("description", TEXT, default="", text=Text.MARKDOWN),
        ),
    ),
)

GLOSSARY = Kind(
    "glossary",
    "term",
    one_variant(
        Table(Term, Field("id", ID), Field("related", term_ids(), default=(), placing=True, about="other term ids")),
        Table(
            TermText,
            Field("term", TEXT, REQUIRED, text=Text.PLAIN, placing=True),
            Field("aliases", TEXTS, default=(), text=Text.PLAIN, translated=False, placing=True, about="other spellings that link to this term"),
            Field("definition", TEXT, IN_SITE_LANGUAGES, default="", hint="define the term; Markdown is allowed", text=Text.MARKDOWN),
            Field("audio", AUDIO, default="", about="the term spoken: a sound file beside the record, or under content/ from /"),
        ),
    ),
)

ASPECT_ROW = Table(
    Aspect,
    Field("label", TEXT, REQUIRED, text=Text.PLAIN),
    Field("values", TEXTS, REQUIRED, text=Text.INLINE, about="one value per compared term"),
)


def check_aspects(item: ParsedRecord, report: Report) -> bool:
    """Each aspect has one value per compared term."""
    columns = len(item.record.values.get("terms", ()))
    for block in item.blocks.values():
        for row in block.values.get("aspects", ()):
            label, values = row.values["label"], row.values["values"]
            if columns and len(values) != columns:
                report.error(
                    row.where["values"],
                    "value.count",
                    f"aspect '{label}' has {plural(len(values), 'value')} for {plural(columns, 'term')}",
                    "give one value per term, in the order of 'terms'",
                )
    return True


COMPARISONS = Kind(
    "comparisons",
    "comparison",
    one_variant(
        Table(
            Comparison,
            Field("id", ID),
            Field("topic", TOPIC, REQUIRED, hint=TOPIC_HINT, placing=True),
            Field("terms", term_ids(at_least=2), REQUIRED, placing=True, hint="list the compared term ids, e.g. 'terms: [gpu, tpu]'", about="the columns"),
        ),
        Table(
            ComparisonText,
            Field("title", TEXT, REQUIRED, text=Text.PLAIN),
            Field("aspects", rows(ASPECT_ROW, "an aspect", "each row is '- label: ...' with 'values: [...]'"), IN_SITE_LANGUAGES, about="the rows"),
            Field("summary", TEXT, default="", text=Text.MARKDOWN),
        ),
    ),
    check=check_aspects,
)

# -- questions ---------------------------------------------------------------------------

QUESTION = Table(
    Question,
    Field("id", ID),
    Field("type", choice_of(("single", "multiple", "true-false", "typed", "numeric", "order", "match")), default="single", about="how it is answered"),
    Field("topic", TOPIC, REQUIRED, hint=TOPIC_HINT, placing=True),
    Field("order", NUMBER, default=UNORDERED, placing=True, about="a topic's questions are listed by order, then by file path"),
    Field("terms", term_ids(), default=(), placing=True, about="glossary terms it uses; names found in the text count too"),
)
QUESTION_TEXT = Table(
    QuestionText,
    Field("question", TEXT, REQUIRED, text=Text.INLINE, about="the stem"),
    Field("explanation", TEXT, IN_SITE_LANGUAGES, default="", hint="explain why the answer is right; Markdown is allowed", text=Text.MARKDOWN),
    Field("audio", AUDIO, default="", about="a sound file played beside the question, beside the record or under content/ from /"),
)
CHOICES = Field(
    "choices",
    text_list(MIN_CHOICES, MAX_CHOICES, "choices"),
    IN_SITE_LANGUAGES,
    default=(),
    hint="list the choices, e.g. 'choices: [first, second]'",
    text=Text.INLINE,
    same_count=True,
    lettered=True,
    about="lettered A, B, C... in this order",
)
FEEDBACK = Field(
    "feedback",
    feedback_list(MAX_CHOICES),
    default=(),
    text=Text.INLINE,
    same_count=True,
    lettered=True,
    about="one text per choice, shown when it is picked; '' for none",
)


def check_choices(item: ParsedRecord, report: Report) -> bool:
    """The answer letters name choices every language has; feedback has one text per choice."""
    counts = item.counts("choices")
    for language, block in item.blocks.items():
        if "feedback" in block.values and language in counts and len(block.values["feedback"]) != counts[language][0]:
            given, expected = len(block.values["feedback"]), counts[language][0]
            message = f"the '{language}' block has {plural(given, 'feedback text')} for {plural(expected, 'choice')}"
            report.error(block.where["feedback"], "value.count", message, "give one text per choice, in their order; '' where a choice has none")
    if not counts or "answer" not in item.record.values:
        return True
    answer = item.record.values["answer"]
    fewest = min(count for count, _ in counts.values())
    outside = [index for index in (answer if isinstance(answer, tuple) else (answer,)) if index >= fewest]
    if outside:
        message = f"answer '{answer_letter(outside[0])}' is outside the {fewest} choices (A-{answer_letter(fewest - 1)})"
        report.error(item.record.where["answer"], "value.answer", message)
        return False
    return True


def check_blank(item: ParsedRecord, report: Report) -> bool:
    """A typed question's stem holds one blank at most."""
    for language, block in item.blocks.items():
        stem = block.values.get("question", "")
        if isinstance(stem, str) and stem.count(BLANK) > 1:
            report.error(block.where["question"], "value.blank", f"the '{language}' question has {stem.count(BLANK)} blanks ({BLANK})", "a typed question has one blank at most: the place of its answer")
            return False
    return True


def question_type(name: str, record_fields: tuple[Field, ...], block_fields: tuple[Field, ...], check=None, about: str = "") -> Variant:
    return Variant(name, QUESTION.extended(*record_fields), QUESTION_TEXT.extended(*block_fields), check or (lambda item, report: True), about)


ACCEPT = Field(
    "accept",
    TEXTS,
    IN_SITE_LANGUAGES,
    default=(),
    hint="list the answers taken as right, e.g. 'accept: [\"6\", zes]'",
    text=Text.PLAIN,
    joined=True,
    about="the answers taken as right, compared without case and extra spaces",
)
QUESTION_TYPES = {
    variant.name: variant
    for variant in (
        question_type(
            "single",
            (Field("answer", LETTER, REQUIRED, hint="give the letter of the correct choice, e.g. 'answer: A'"),),
            (CHOICES, FEEDBACK),
            check_choices,
            "one right choice",
        ),
        question_type(
            "multiple",
            (Field("answer", LETTERS_SHAPE, REQUIRED, hint="give the letters of every right choice, e.g. 'answer: [A, C]'"),),
            (CHOICES, FEEDBACK),
            check_choices,
            "every right choice and no wrong one",
        ),
        question_type("true-false", (Field("answer", BOOLEAN, REQUIRED, hint="write 'answer: true' or 'answer: false'"),), (), None, "true or false"),
        question_type(
            "typed",
            (Field("accents", choice_of(("count", "ignore")), default="", about="whether accents count; site.yaml sets the default"),),
            (ACCEPT,),
            check_blank,
            "the reader types the answer",
        ),
        question_type(
            "numeric",
            (
                Field("answer", DECIMAL, REQUIRED, hint="give the number, e.g. 'answer: 9.81'"),
                Field("tolerance", NOT_NEGATIVE, default=Decimal(0), about="how far from the answer a number may be and still count"),
            ),
            (Field("unit", TEXT, default="", text=Text.INLINE, about="shown after the number"),),
            None,
            "a number, within a tolerance",
        ),
        question_type(
            "order",
            (),
            (Field("items", text_list(3, 8, "items", unique=True), IN_SITE_LANGUAGES, default=(), text=Text.INLINE, same_count=True, about="in the right order"),),
            None,
            "the items put in their order",
        ),
        question_type(
            "match",
            (),
            (Field("pairs", PAIRS, IN_SITE_LANGUAGES, default=(), text=Text.INLINE, same_count=True, about="[left, right], each pair right"),),
            None,
            "each left item paired with its right one",
        ),
    )
}
QUESTIONS = Kind("questions", "question", QUESTION_TYPES, variant_key="type", default_variant="single")

KINDS_DECLARED = (TOPICS, QUESTIONS, GLOSSARY, COMPARISONS)  # the record kinds, in their order (records.KINDS)
KIND_OF_FOLDER = {kind.folder: kind for kind in KINDS_DECLARED}
