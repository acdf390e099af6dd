"""Record parts: what many pages show of a record, made once per build and shared by the
page builders (builder.py, site_pages.py, term_page.py): the link to a record's page, a
question as its page shows it (its terms linked), a question's stem as plain text."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from markupsafe import Markup

from studysite import urls
from studysite.content.fields import Text, with_texts
from studysite.content.graph import Graph, LanguageGraph
from studysite.content.html import ContentHtml
from studysite.content.records import Content
from studysite.content.schema import QUESTIONS
from studysite.languages import text_direction
from studysite.pages.view_models import Audio, Link, QuestionBody, sort_key
from studysite.text.linking import Mention, separator_for, with_links
from studysite.text.markup import excerpt, plain_text

# The record pages: kind -> (template, the field of an Edition that lists the kind's records)
RECORD_PAGES = {
    "questions": ("question.html", "questions"),
    "topics": ("topic.html", "topics"),
    "glossary": ("term.html", "terms"),
    "comparisons": ("comparison.html", "comparisons"),
}


Made = TypeVar("Made")


class PlaceMemo(Generic[Made]):
    """What the pages of one place share, made once for them: a topic's page, its practice
    page and its questions' pages show the same linked questions; a language's term pages
    read the same questions' sentences. A place's pages are rendered one after the other,
    by one process (incremental/rendering.py's work_group), so a memo holds one place's at
    a time: asked for another place's, it forgets the last."""

    def __init__(self) -> None:
        self._place: Hashable = None
        self._made: dict[Hashable, Made] = {}

    def get(self, place: Hashable, key: Hashable, make: Callable[[], Made]) -> Made:
        if place != self._place:
            self._place, self._made = place, {}
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = make()
        return made


class RecordParts:
    """The parts of records that pages share, each made once, when first asked for."""

    def __init__(self, content: Content, content_html: ContentHtml, graph: Graph):
        self.content = content
        self.content_html = content_html
        self.graph = graph
        self.site = content.site
        self._links: dict[tuple[str, str], dict[tuple[str, int | str], Link]] = {}  # (kind, id) -> (page language, limit) -> its link
        self._sorted_terms: dict[str, list[tuple[str, Link]]] = {}
        self._linked_bodies: PlaceMemo[QuestionBody] = PlaceMemo()  # by question id, for a topic's pages in a language
        self._plain_stems: dict[tuple[str, str], str] = {}

    def linked(self, fragments: tuple[str, ...], text_lang: str, skip: str = "", mentions: tuple[Mention, ...] | None = None) -> tuple[Markup, ...]:
        """Text fragments, read in order, with the first mention of each term linked;
        the links lead from any record page. mentions: where the terms are first named in
        the fragments joined by separator_for, found already (graph.terms_named)."""
        matcher = self.graph.matchers.get(text_lang)
        if matcher:
            separator = separator_for(fragments)
            if separator is None:  # the fragments hold every candidate: link them one by one
                fragments = tuple(matcher.link(f, urls.term_from_record_page, skip) for f in fragments)
            else:
                text = separator.join(fragments)
                found = mentions if mentions is not None else matcher.first_mentions(text)
                fragments = tuple(with_links(text, found, urls.term_from_record_page, skip).split(separator))
        return tuple(Markup(f) for f in fragments)

    def foreign(self, text_lang: str, page_lang: str) -> str:
        return "" if text_lang == page_lang else text_lang

    def language_of(self, text_lang: str, page_lang: str) -> tuple[str, str]:
        """The lang and dir attributes of text in text_lang on a page in page_lang: empty
        when they are the page's own."""
        if text_lang == page_lang:
            return "", ""
        direction = text_direction(text_lang)
        return text_lang, direction if direction != text_direction(page_lang) else ""

    def link(self, path: str, label: str, text_lang: str, page_lang: str) -> Link:
        """A link whose label is in text_lang, on a page in page_lang."""
        return Link(path, label, *self.language_of(text_lang, page_lang))

    def record_link(self, lg: LanguageGraph, kind: str, record_id: str, limit: int = 0) -> Link:
        """The link to a record's page in lg's language, made once per build: pages list
        the same records many times over."""
        links = self._links.get((kind, record_id))
        if links is None:
            links = self._links[(kind, record_id)] = {}
        link = links.get((lg.edition.language, limit))
        if link is None:
            link = links[(lg.edition.language, limit)] = self._make_record_link(lg, kind, record_id, limit)
        return link

    def _make_record_link(self, lg: LanguageGraph, kind: str, record_id: str, limit: int) -> Link:
        language = lg.edition.language
        text_lang = getattr(lg.edition, RECORD_PAGES[kind][1])[record_id]
        if kind == "questions":
            label = self.plain_stem(record_id, text_lang)
            label = excerpt(label, limit) if limit else label
        elif kind == "glossary":
            label = self.content.terms[record_id].texts[text_lang].term
        else:
            label = getattr(self.content, kind)[record_id].texts[text_lang].title
        return self.link(urls.record(kind, language, record_id), label, text_lang, language)

    def topic_link(self, lg: LanguageGraph, topic_id: str) -> Link:
        return self.record_link(lg, "topics", topic_id)

    def term_link(self, lg: LanguageGraph, term_id: str) -> Link:
        return self.record_link(lg, "glossary", term_id)

    def question_link(self, lg: LanguageGraph, question_id: str, limit: int = 0) -> Link:
        return self.record_link(lg, "questions", question_id, limit)

    def comparison_link(self, lg: LanguageGraph, comparison_id: str) -> Link:
        return self.record_link(lg, "comparisons", comparison_id)

    def sorted_term_links(self, lg: LanguageGraph) -> list[tuple[str, Link]]:
        """(term id, link) of every term of lg's glossary, in dictionary order; made once."""
        language = lg.edition.language
        if language not in self._sorted_terms:
            links = [(term_id, self.term_link(lg, term_id)) for term_id in lg.edition.terms]
            self._sorted_terms[language] = sorted(links, key=lambda item: sort_key(item[1].label))
        return self._sorted_terms[language]

    def question_body(self, lg: LanguageGraph, question_id: str, linked: bool) -> QuestionBody:
        """A question as its page shows it; linked: its terms linked, made once for its
        topic's pages (its page, its topic's page and practice page show the same: their term
        links are the same from each)."""
        if not linked:
            return self._make_question_body(lg, question_id, linked)
        place = (lg.edition.language, self.content.questions[question_id].topic)
        return self._linked_bodies.get(place, question_id, lambda: self._make_question_body(lg, question_id, linked))

    def _make_question_body(self, lg: LanguageGraph, question_id: str, linked: bool) -> QuestionBody:
        text_lang = lg.edition.questions[question_id]
        fragments = None
        if linked:
            fragments = self.linked(self.content_html.question_fragments(question_id, text_lang), text_lang, mentions=self.graph.mentions.get((question_id, text_lang)))
        return question_body(self.content, self.content_html, question_id, text_lang, lg.edition.language, fragments)

    def audio(self, kind: str, record_id: str, text_lang: str) -> Audio | None:
        """The sound file of a record's text in a language, if it has one."""
        return audio_of(self.content_html, kind, record_id, text_lang)

    def plain_stem(self, question_id: str, text_lang: str) -> str:
        """A question's stem as plain text, made once: its page's title and description and
        every link to it are made from it."""
        key = (question_id, text_lang)
        if key not in self._plain_stems:
            self._plain_stems[key] = plain_text(self.content_html.questions[key].question)
        return self._plain_stems[key]


def question_body(
    content: Content, content_html: ContentHtml, question_id: str, text_lang: str, page_lang: str, fragments: tuple[str, ...] | None = None
) -> QuestionBody:
    """A question as a page in page_lang shows its text in text_lang; fragments: its HTML
    texts in question_fragments' order as the page shows them (its terms linked), else as
    they are."""
    question, html = content.questions[question_id], content_html.questions[(question_id, text_lang)]
    shown = iter(fragments if fragments is not None else content_html.question_fragments(question_id, text_lang))
    text = with_texts(QUESTIONS.block_table(question), html, lambda path, field, value: value if field.text is Text.PLAIN else Markup(next(shown)))
    foreign = "" if text_lang == page_lang else text_lang
    audio = audio_of(content_html, "questions", question_id, text_lang)
    return QuestionBody(question_id, question.type, foreign, text, question.answer, question.tolerance, question.accents or content.site.accents, audio)


def audio_of(content_html: ContentHtml, kind: str, record_id: str, text_lang: str) -> Audio | None:
    """The sound file of a record's text in a language, if it has one."""
    media = content_html.audio.get((kind, record_id, text_lang))
    return Audio(media.path, media.type) if media is not None else None
