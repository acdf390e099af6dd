"""Views: one view model per page, built from the content, its HTML text and the graph.

Templates receive these objects (pages/view_models.py: one frozen dataclass per template) and never
reach into the model; every URL comes from pages/urls.py, every piece of content HTML has been
sanitised in text/markup.py. ViewBuilder makes the links and the record pages (question,
practice, topic, comparison; the term page in term_page.py); site_pages.py makes the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from markupsafe import Markup

from studysite import urls
from studysite.content.graph import Graph, LanguageGraph
from studysite.content.html import ContentHtml
from studysite.content.records import Content
from studysite.i18n.status import TranslationStatus
from studysite.pages import site_pages, term_page
from studysite.pages.record_parts import RECORD_PAGES, RecordParts
from studysite.pages.site_pages import TITLE_EXCERPT
from studysite.pages.view_models import (
    DESCRIPTION_EXCERPT,
    ComparisonRow,
    ComparisonView,
    Page,
    PracticeItem,
    PracticeView,
    QuestionView,
    TopicView,
    View,
    description,
    sort_key,
)
from studysite.text.markup import excerpt


class ViewBuilder:
    """Builds every page of a site: the record pages here, the term page's view model with
    term_page.TermPages, the site's and each language's own pages with site_pages.SitePages,
    all from the record parts they share (record_parts.RecordParts). Holds the build's data;
    keeps no state between builds."""

    def __init__(self, content: Content, content_html: ContentHtml, graph: Graph, statuses: TranslationStatus):
        self.content = content
        self.content_html = content_html
        self.statuses = statuses
        self.site = content.site
        self.graph = graph
        self.parts = RecordParts(content, content_html, graph)
        self.site_pages = site_pages.SitePages(self.parts, statuses)
        self.term_pages = term_page.TermPages(self.parts)

    def _record_page(
        self,
        lg: LanguageGraph,
        kind: str,
        record_id: str,
        title: str,
        view: Callable[[LanguageGraph, str], View],
        about: str,
    ) -> Page:
        """The page of a record (question, topic, term or comparison) in lg's language: at the
        record's URL, with its versions in the other languages (alternates) and the languages
        that show it untranslated (fallbacks); its view model, view(lg, record_id), is made
        when it is rendered. about: its meta description."""
        template, listed_in = RECORD_PAGES[kind]
        editions = {lang: getattr(other.edition, listed_in) for lang, other in self.graph.languages.items()}
        alternates = {lang: urls.record(kind, lang, record_id) for lang, ids in editions.items() if record_id in ids}
        fallbacks = frozenset(lang for lang, ids in editions.items() if ids.get(record_id, lang) != lang)
        language = lg.edition.language
        path, context = urls.record(kind, language, record_id), partial(view, lg, record_id)
        return Page(path, template, language, title, context, alternates, description=about, fallbacks=fallbacks, record=record_id)

    # -- pages --------------------------------------------------------------------

    def pages(self) -> list[Page]:
        """Every page of the site: its own, then each language's, then the record pages."""
        pages = [self.site_pages.language_chooser(), self.site_pages.not_found()]
        for lg in self.graph.languages.values():
            pages.extend(self.language_pages(lg))
            pages.extend(self.topic(lg, t) for t in lg.edition.topics)
            pages.extend(self.practice(lg, t) for t in lg.edition.topics if lg.questions_by_topic[t])
            pages.extend(self.question(lg, q) for q in lg.edition.questions)
            pages.extend(self.term(lg, t) for t in lg.edition.terms)
            pages.extend(self.comparison(lg, c) for c in lg.edition.comparisons)
        return [self._described(page) for page in pages]

    def own_pages(self) -> list[Page]:
        """The site's own pages and each language's: none shows a single record."""
        pages = [self.site_pages.language_chooser(), self.site_pages.not_found()]
        for lg in self.graph.languages.values():
            pages.extend(self.language_pages(lg))
        return [self._described(page) for page in pages]

    def language_pages(self, lg: LanguageGraph) -> list[Page]:
        """The pages of a language that are no record's."""
        return [
            self.site_pages.home(lg),
            self.site_pages.glossary(lg),
            self.site_pages.flashcards(lg),
            self.site_pages.exam(lg),
            self.site_pages.search(lg),
            self.site_pages.status(lg),
            self.site_pages.review(lg),
            self.site_pages.downloads(lg),
            self.site_pages.offline_page(lg),
        ]

    def _described(self, page: Page) -> Page:
        return page if page.description else replace(page, description=self.site_pages.site_description(page.language))

    def page_again(self, page: Page) -> Page:
        """The page that another builder planned as this one (a page of pages() that shows
        records: the same template, language and record), planned from this one's content."""
        lg = self.graph.languages[page.language]
        plans = {
            "question.html": self.question,
            "topic.html": self.topic,
            "term.html": self.term,
            "comparison.html": self.comparison,
            "practice.html": self.practice,
            "home.html": lambda lg, _: self.site_pages.home(lg),
            "glossary.html": lambda lg, _: self.site_pages.glossary(lg),
            "review.html": lambda lg, _: self.site_pages.review(lg),
            "flashcards.html": lambda lg, _: self.site_pages.flashcards(lg),
            "exam.html": lambda lg, _: self.site_pages.exam(lg),
        }
        return self._described(plans[page.template](lg, page.record))

    def topic(self, lg: LanguageGraph, topic_id: str) -> Page:
        text_lang = lg.edition.topics[topic_id]
        title = self.content.topics[topic_id].texts[text_lang].title
        about = description(self.content_html.topics[(topic_id, text_lang)].description)
        return self._record_page(lg, "topics", topic_id, title, self._topic_view, about)

    def _topic_view(self, lg: LanguageGraph, topic_id: str) -> TopicView:
        language, text_lang = lg.edition.language, lg.edition.topics[topic_id]
        return TopicView(
            topic=topic_id,
            text_lang=self.parts.foreign(text_lang, language),
            description=Markup(self.content_html.topics[(topic_id, text_lang)].description),
            questions=tuple(self.parts.question_link(lg, q) for q in lg.questions_by_topic[topic_id]),
            question_ids=" ".join(lg.questions_by_topic[topic_id]),
            terms=tuple(sorted((self.parts.term_link(lg, t) for t in lg.terms_by_topic[topic_id]), key=lambda link: sort_key(link.label))),
            comparisons=tuple(self.parts.comparison_link(lg, c) for c in lg.comparisons_by_topic[topic_id]),
            practice=urls.record("practice", language, topic_id) if lg.questions_by_topic[topic_id] else "",
            worksheet=tuple(self.parts.question_body(lg, q, linked=True) for q in lg.questions_by_topic[topic_id]),
        )

    def question(self, lg: LanguageGraph, question_id: str) -> Page:
        stem = self.parts.plain_stem(question_id, lg.edition.questions[question_id])
        return self._record_page(lg, "questions", question_id, excerpt(stem, TITLE_EXCERPT), self._question_view, excerpt(stem, DESCRIPTION_EXCERPT))

    def _question_view(self, lg: LanguageGraph, question_id: str) -> QuestionView:
        question = self.content.questions[question_id]
        return QuestionView(
            question=self.parts.question_body(lg, question_id, linked=True),
            topic=self.parts.topic_link(lg, question.topic),
            practice=urls.record("practice", lg.edition.language, question.topic),
            terms=tuple(sorted((self.parts.term_link(lg, t) for t in lg.terms_by_question[question_id]), key=lambda link: sort_key(link.label))),
            more=tuple(self.parts.question_link(lg, q) for q in lg.more_questions[question_id]),
            comparisons=tuple(self.parts.comparison_link(lg, c) for c in lg.comparisons_by_topic[question.topic]),
        )

    def practice(self, lg: LanguageGraph, topic_id: str) -> Page:
        language = lg.edition.language
        question_ids = lg.questions_by_topic[topic_id]

        def view() -> PracticeView:
            questions = tuple(PracticeItem(self.parts.question_body(lg, q, linked=True), self.parts.question_link(lg, q, TITLE_EXCERPT)) for q in question_ids)
            return PracticeView(self.parts.topic_link(lg, topic_id), questions)

        alternates = {lang: urls.record("practice", lang, topic_id) for lang, other in self.graph.languages.items() if other.questions_by_topic.get(topic_id)}
        title = self.parts.topic_link(lg, topic_id).label
        return Page(urls.record("practice", language, topic_id), "practice.html", language, title, view, alternates, record=topic_id)

    def term(self, lg: LanguageGraph, term_id: str) -> Page:
        text_lang = lg.edition.terms[term_id]
        title, about = self.content.terms[term_id].texts[text_lang].term, description(self.content_html.terms[(term_id, text_lang)].definition)
        return self._record_page(lg, "glossary", term_id, title, self.term_pages.view, about)

    def comparison(self, lg: LanguageGraph, comparison_id: str) -> Page:
        text_lang = lg.edition.comparisons[comparison_id]
        comparison = self.content.comparisons[comparison_id]
        title, about = comparison.texts[text_lang].title, description(self.content_html.comparisons[(comparison_id, text_lang)].summary)
        return self._record_page(lg, "comparisons", comparison_id, title, self._comparison_view, about)

    def _comparison_view(self, lg: LanguageGraph, comparison_id: str) -> ComparisonView:
        language, text_lang = lg.edition.language, lg.edition.comparisons[comparison_id]
        comparison = self.content.comparisons[comparison_id]
        text = comparison.texts[text_lang]
        html = self.content_html.comparisons[(comparison_id, text_lang)]
        rows = tuple(ComparisonRow(aspect.label, tuple(Markup(c) for c in cells.values)) for aspect, cells in zip(text.aspects, html.aspects, strict=True))
        return ComparisonView(
            text_lang=self.parts.foreign(text_lang, language),
            topic=self.parts.topic_link(lg, comparison.topic),
            columns=tuple(self.parts.term_link(lg, t) for t in comparison.terms),
            rows=rows,
            summary=Markup(html.summary),
        )
