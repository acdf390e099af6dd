"""The view types: Page (what to render), the view model of each template (QuestionView for
question.html, ...) and the parts they are made of (Link, Text, QuestionBody...), and the
small text helpers the view builders share: dictionary order, index letters, descriptions.

A view model names and types what its template reads: the template sees each field as a
variable of its own ({{ question.stem }}, {% for item in topics %}), and nothing else of
the model."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from studysite.content.records import Answer, QuestionText, answer_letter
from studysite.text.markup import excerpt, plain_text

if TYPE_CHECKING:
    from studysite.i18n.status import LanguageStatus
    from studysite.study.anki import DeckSummary


@dataclass(frozen=True)
class View:
    """The view model of a template; its fields are the template's variables."""

    def variables(self) -> Mapping[str, Any]:
        """The fields by name, for the template: the instance's own dict, not a copy."""
        return vars(self)


@dataclass(frozen=True, slots=True)
class Page:
    """A page to render: where it goes, with which template, showing which record."""

    path: str
    template: str
    language: str
    title: str
    context: Callable[[], View]  # built when the page is rendered, to keep memory flat
    alternates: Mapping[str, str] = field(default_factory=dict)  # language -> path
    in_sitemap: bool = True
    x_default: str | None = None  # the x-default alternate; the default language's version if None
    description: str = ""  # the meta description: the record's own text, else the site's description
    fallbacks: frozenset[str] = frozenset()  # languages whose version shows another language's text
    record: str = ""  # a record page's record (a practice page's topic)


@dataclass(frozen=True, slots=True)
class Link:
    path: str
    label: str
    lang: str = ""  # set when the label is in another language than the page
    dir: str = ""  # set when that language is written in the other direction


@dataclass(frozen=True)
class Text:
    """Content shown on a page, with the language it is written in when that differs."""

    html: Markup
    lang: str = ""
    dir: str = ""  # set when that language is written in the other direction


@dataclass(frozen=True)
class Choice:
    letter: str
    html: Markup


@dataclass(frozen=True)
class Audio:
    """A sound file the page plays when asked (a question read out, a term spoken)."""

    path: str  # from the site's root
    type: str  # its MIME type


@dataclass(frozen=True)
class QuestionBody:
    """A question as its page, a practice page and a term page show it: its text as HTML
    (its terms linked where the page links them), and what its type's template part
    (templates/questions/<type>.html) needs to show and judge an answer."""

    id: str
    type: str  # single, multiple, true-false, typed, numeric, order, match
    text_lang: str  # set when the text is in another language than the page
    text: QuestionText  # its fields of Markdown and inline text as Markup; its plain ones (accept) as text
    answer: Answer  # the record's (records.Answer)
    tolerance: Decimal = Decimal(0)
    accents: str = "count"  # typed: "ignore" or "count"
    audio: Audio | None = None  # its sound file, played beside it

    @property
    def stem(self) -> Markup:
        return Markup(self.text.question)

    @property
    def explanation(self) -> Markup:
        return Markup(self.text.explanation)

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(Choice(answer_letter(index), Markup(html)) for index, html in enumerate(self.text.choices))

    @property
    def right(self) -> tuple[int, ...]:
        """The indexes of the right choices (single, multiple)."""
        return self.answer if isinstance(self.answer, tuple) else (self.answer,) if isinstance(self.answer, int) and not isinstance(self.answer, bool) else ()

    @property
    def answer_index(self) -> int:
        return self.right[0]


@dataclass(frozen=True)
class QuestionView(View):
    """question.html: a question, its answer behind a reveal, and where to go from it."""

    question: QuestionBody
    topic: Link
    practice: str  # the topic's practice page
    terms: tuple[Link, ...]
    more: tuple[Link, ...]  # the topic's next questions
    comparisons: tuple[Link, ...]


@dataclass(frozen=True)
class PracticeItem:
    question: QuestionBody
    link: Link  # to the question's page, its label cut to a title


@dataclass(frozen=True)
class PracticeView(View):
    """practice.html: a topic's questions, one after the other."""

    topic: Link
    questions: tuple[PracticeItem, ...]


@dataclass(frozen=True)
class TopicView(View):
    """topic.html: a topic's description and what it holds."""

    topic: str  # its id
    text_lang: str
    description: Markup
    questions: tuple[Link, ...]
    question_ids: str  # space-separated, for the progress the browser shows
    terms: tuple[Link, ...]
    comparisons: tuple[Link, ...]
    practice: str  # the practice page, "" when the topic has no questions
    worksheet: tuple[QuestionBody, ...] = ()  # its questions as paper shows them (print.css): stems and choices, then the answers


@dataclass(frozen=True)
class TermUsage:
    link: Link  # to the question, its label the stem cut short
    excerpt: Text  # the sentence of the question that names the term


@dataclass(frozen=True)
class TermView(View):
    """term.html: a term's definition, its key question and the questions that use it."""

    term: str
    text_lang: str
    definition: Markup
    term_language: str  # the site's term_language
    term_language_name: str  # its name in the page's language, when foreign_name is set
    foreign_name: str  # the term's name in term_language
    topics: tuple[Link, ...]
    key_question: QuestionBody | None
    key_link: Link | None
    questions: tuple[TermUsage, ...]
    related: tuple[Link, ...]
    others: tuple[Link, ...]  # other glossary terms to browse on
    audio: Audio | None = None  # the term spoken


@dataclass(frozen=True)
class ComparisonRow:
    label: str  # the aspect
    cells: tuple[Markup, ...]  # one per term


@dataclass(frozen=True)
class ComparisonView(View):
    """comparison.html: terms compared aspect by aspect, in a table."""

    text_lang: str
    topic: Link
    columns: tuple[Link, ...]  # the terms compared
    rows: tuple[ComparisonRow, ...]
    summary: Markup


@dataclass(frozen=True)
class TopicCard:
    link: Link
    topic: str  # its id
    practice: str  # its practice page, "" when it has no questions
    summary: str
    questions: int
    question_ids: str  # space-separated
    terms: int


@dataclass(frozen=True)
class HomeView(View):
    """home.html: a language's home, its topics as cards."""

    topics: tuple[TopicCard, ...]
    description: Markup  # the site's
    term_count: int
    comparisons: tuple[Link, ...] = ()  # every comparison of the language, in content order


@dataclass(frozen=True)
class GlossaryEntry:
    link: Link
    summary: str


@dataclass(frozen=True)
class GlossaryView(View):
    """glossary.html: every term of a language, under its index letter."""

    groups: Mapping[str, tuple[GlossaryEntry, ...]]  # index letter -> its terms, in order
    comparisons: tuple[Link, ...] = ()  # every comparison of the language: tables of terms side by side


@dataclass(frozen=True)
class ChooserView(View):
    """chooser.html: the site root, where a reader picks a language."""

    choices: tuple[Link, ...]  # each language's home, labelled with its autonym
    titles: Mapping[str, str]  # language -> the site's title in it


@dataclass(frozen=True)
class NotFoundView(View):
    """404.html: a section per language, each linking to its home."""

    homes: tuple[Link, ...]


@dataclass(frozen=True)
class SearchView(View):
    """search.html: the form; the index is found through the page's variables."""


@dataclass(frozen=True)
class ReviewView(View):
    """review.html: the reader's progress, filled in by the browser."""

    questions: Mapping[str, Mapping[str, str]]  # id -> {"title", "path"}: JSON for the page's script


@dataclass(frozen=True)
class Flashcard:
    """A glossary term as a card: its name (linking to its page), definition and name in term_language."""

    id: str
    link: Link  # the term's page, labelled with its name
    definition: Markup  # its links made for this page (urls.one_folder_up)
    foreign_name: str  # its name in term_language, "" when it has none


@dataclass(frozen=True)
class FlashcardsView(View):
    """flashcards.html: the glossary as cards, a list of reveals that the browser deals one by one."""

    cards: tuple[Flashcard, ...]
    term_language: str  # set when some card has a name in it
    term_language_name: str  # its name in the page's language


@dataclass(frozen=True)
class ExamTopic:
    id: str
    link: Link  # the topic's page
    practice: str  # its practice page
    questions: int


@dataclass(frozen=True)
class ExamView(View):
    """exam.html: the choice of topics, questions and minutes; the browser runs the exam."""

    topics: tuple[ExamTopic, ...]  # those with questions
    questions: Mapping[str, Mapping[str, str]]  # id -> {"title", "path", "topic"}: JSON for the page's script
    default_questions: int  # site.yaml's exam
    default_minutes: int


@dataclass(frozen=True)
class DownloadsView(View):
    """downloads.html: the Anki deck and saving a language for offline reading."""

    deck: DeckSummary
    page_list: str  # the language's list of pages to store offline
    language: str  # its name


@dataclass(frozen=True)
class OfflineView(View):
    """offline.html: what the service worker shows for a page it did not store."""

    downloads: str  # the downloads page


@dataclass(frozen=True)
class StatusView(View):
    """status.html: what is left to translate into a language."""

    status: LanguageStatus
    default_language: str
    missing: tuple[tuple[Link, str], ...]  # (link to the record, its file)
    outdated: tuple[tuple[Link, str], ...]


DESCRIPTION_EXCERPT = 160  # characters of a record's text that make its meta description


def description(fragment: str) -> str:
    """A meta description from a record's HTML text: its plain text, cut near DESCRIPTION_EXCERPT characters."""
    return excerpt(plain_text(fragment), DESCRIPTION_EXCERPT)


@functools.lru_cache(maxsize=65536)  # pages sort the same names over and over
def sort_key(label: str) -> tuple[str, str]:
    """Dictionary order that folds accents and case: "Élagage" sorts with "elagage"."""
    decomposed = unicodedata.normalize("NFKD", label)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return folded, label


def index_letter(label: str) -> str:
    """The A-Z heading a label files under; digits and symbols file under '#'."""
    first = sort_key(label)[0][:1].upper()
    return first if first.isalpha() else "#"
