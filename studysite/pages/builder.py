"""Views: one view model per page, built from the content, its HTML text and the graph.

Templates receive these objects (pages/view_models.py: one frozen dataclass per template) and never
reach into the model; every URL comes from pages/urls.py, every piece of content HTML has been
sanitised in text/markup.py. ViewBuilder makes the links and the record pages (question,
practice, topic, comparison; the term page in term_page.py); site_pages.py makes the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
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

    def __init__(self, content: Content, content_html: ContentHtml, graph: Graph, statuses: TranslationStatus, parts: RecordParts | None = None):
        self.content = content
        self.content_html = content_html
        self.statuses = statuses
        self.site = content.site
        self.parts = parts if parts is not None else RecordParts(content, content_html, graph)
        self.graph = self.parts.graph
        self.site_pages = site_pages.SitePages(self.parts, statuses)
        self.term_pages = term_page.TermPages(self.parts)

    def with_edits(self, content: Content, content_html: ContentHtml, edited: Mapping[str, Collection[str]]) -> ViewBuilder:
        """A builder of the content after an edit that kept the graph as it was (serve/quick_edit.py),
        with what this one made once but for the edited records (ids by kind)."""
        questions = edited.get("questions", ())
        languages = {*self.site.languages, *(language for q in questions for language in self.content.questions[q].texts)}
        by_question = [(q, language) for q in questions for language in languages]  # how the memos of a question's text are keyed
        builder = ViewBuilder(content, content_html, self.graph, self.statuses, self.parts.with_edits(content, content_html, edited, by_question))
        builder.term_pages = self.term_pages.with_edits(builder.parts, by_question)
        return builder

    def _record_page(
        self,
        lg: LanguageGraph,
        kind: str,
        record_id: str,
        title: str,
        view: Callable[[LanguageGraph, str], View],
        sources: tuple[str, ...],
        about: str,
        work_group: str = "",
    ) -> Page:
        """The page of a record (question, topic, term or comparison) in lg's language: at the
        record's URL, with its versions in the other languages (alternates) and the languages
        that show it untranslated (fallbacks); its view model, view(lg, record_id), is made
        when it is rendered, and its key from its sources. about: its meta description;
        work_group: see Page."""
        template, listed_in = RECORD_PAGES[kind]
        editions = {lang: getattr(other.edition, listed_in) for lang, other in self.graph.languages.items()}
        alternates = {lang: urls.record(kind, lang, record_id) for lang, ids in editions.items() if record_id in ids}
        fallbacks = frozenset(lang for lang, ids in editions.items() if ids.get(record_id, lang) != lang)
        language = lg.edition.language
        path, context = urls.record(kind, language, record_id), partial(view, lg, record_id)
        return Page(
            path,
            template,
            language,
            title,
            context,
            alternates,
            sources,
            description=about,
            fallbacks=fallbacks,
            reads_only_sources=True,
            work_group=work_group,
            record=record_id,
        )

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

    def _site_pages(self) -> list[Page]:
        """The site's own pages and each language's (none shows a single record)."""
        pages = [self.site_pages.language_chooser(), self.site_pages.not_found()]
        for lg in self.graph.languages.values():
            pages.extend(self.language_pages(lg))
        return pages

    def pages_again(self, kept: tuple[Page, ...], edited: frozenset[str]) -> tuple[list[Page], frozenset[int]]:
        """Every page, from the pages planned by the build whose model this builder's content
        came from (incremental/kept_model.py) with no view model, and the positions of those planned anew: the
        record pages whose sources include no edited source are as they were, their view
        models made when they are rendered; the record pages that show an edit and the
        site's and languages' own pages are planned anew."""
        own = {page.path: self._described(page) for page in self._site_pages()}
        pages, anew = [], []
        for index, page in enumerate(kept):
            again = own.get(page.path)
            if again is None and edited.isdisjoint(page.sources):
                pages.append(replace(page, context=partial(self._context_again, page)))
            else:
                pages.append(again or self.page_again(page))
                anew.append(index)
        return pages, frozenset(anew)

    def _context_again(self, page: Page) -> View:
        return self.page_again(page).context()

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
        """A page of pages() that shows records, planned anew from this builder's content; for
        serve, which renders again just the pages an edit changed (serve/quick_edit.py)."""
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
        sources = (
            f"topics/{topic_id}",
            *(f"questions/{q}" for q in lg.questions_by_topic[topic_id]),
            *(f"glossary/{t}" for t in lg.terms_by_topic[topic_id]),
            *(f"comparisons/{c}" for c in lg.comparisons_by_topic[topic_id]),
        )
        about = description(self.content_html.topics[(topic_id, text_lang)].description)
        group = f"{lg.edition.language}/{topic_id}"  # its worksheet shows the questions as their pages do: made once, by one process
        return self._record_page(lg, "topics", topic_id, title, self._topic_view, sources, about, group)

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
        question, text_lang = self.content.questions[question_id], lg.edition.questions[question_id]
        sources = (
            f"questions/{question_id}",
            f"topics/{question.topic}",
            *(f"glossary/{t}" for t in lg.terms_by_question[question_id]),
            *(f"questions/{q}" for q in lg.more_questions[question_id]),
            *(f"comparisons/{c}" for c in lg.comparisons_by_topic[question.topic]),
            f"terms:{lg.edition.questions[question_id]}",
        )
        stem = self.parts.plain_stem(question_id, text_lang)
        work_group = f"{lg.edition.language}/{question.topic}"
        return self._record_page(
            lg, "questions", question_id, excerpt(stem, TITLE_EXCERPT), self._question_view, sources, excerpt(stem, DESCRIPTION_EXCERPT), work_group
        )

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
        terms = sorted({f"glossary/{t}" for q in question_ids for t in lg.terms_by_question[q]})  # linked in the text
        names = sorted({f"terms:{lg.edition.questions[q]}" for q in question_ids})  # the names that link them
        sources = (f"topics/{topic_id}", *(f"questions/{q}" for q in question_ids), *terms, *names)
        title = self.parts.topic_link(lg, topic_id).label
        path = urls.record("practice", language, topic_id)
        group = f"{language}/{topic_id}"
        return Page(path, "practice.html", language, title, view, alternates, sources, reads_only_sources=True, work_group=group, record=topic_id)

    def term(self, lg: LanguageGraph, term_id: str) -> Page:
        language, text_lang = lg.edition.language, lg.edition.terms[term_id]
        question_ids = lg.questions_by_term[term_id]
        sources = (
            f"glossary/{term_id}",
            *(f"questions/{q}" for q in question_ids),
            *sorted({f"topics/{self.content.questions[q].topic}" for q in question_ids}),
            *(f"glossary/{t}" for t in lg.related_terms[term_id]),
            *sorted({f"terms:{text_lang}", *(f"terms:{lg.edition.questions[q]}" for q in question_ids)}),
            f"glossary:{language}",  # the other terms it lists
        )
        title, about = self.content.terms[term_id].texts[text_lang].term, description(self.content_html.terms[(term_id, text_lang)].definition)
        group = f"{language}:glossary"  # no topic's group, whose name is language/topic id (ids hold no colon)
        return self._record_page(lg, "glossary", term_id, title, self.term_pages.view, sources, about, group)

    def comparison(self, lg: LanguageGraph, comparison_id: str) -> Page:
        text_lang = lg.edition.comparisons[comparison_id]
        comparison = self.content.comparisons[comparison_id]
        sources = (f"comparisons/{comparison_id}", f"topics/{comparison.topic}", *(f"glossary/{t}" for t in comparison.terms))
        title, about = comparison.texts[text_lang].title, description(self.content_html.comparisons[(comparison_id, text_lang)].summary)
        return self._record_page(lg, "comparisons", comparison_id, title, self._comparison_view, sources, about)

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
