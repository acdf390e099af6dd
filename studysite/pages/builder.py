"""Views: one view model per page, built from the content, its HTML text and the graph.

Templates receive these objects (pages/view_models.py: one frozen dataclass per template) and never
reach into the model; every URL comes from pages/urls.py, every piece of content HTML has been
sanitised in text/markup.py. ViewBuilder makes the links and the record pages (question,
practice, topic, comparison; the term page in term_page.py); site_pages.py makes the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import replace
from functools import partial

from markupsafe import Markup

from studysite import urls
from studysite.content.graph import Graph, LanguageGraph
from studysite.content.html import ContentHtml
from studysite.content.records import Content, answer_letter
from studysite.i18n.status import TranslationStatus
from studysite.languages import text_direction
from studysite.pages import site_pages, term_page
from studysite.pages.site_pages import TITLE_EXCERPT
from studysite.pages.view_models import (
    DESCRIPTION_EXCERPT,
    Choice,
    ComparisonRow,
    ComparisonView,
    Link,
    Page,
    PracticeItem,
    PracticeView,
    QuestionBody,
    QuestionView,
    TopicView,
    View,
    description,
    sort_key,
)
from studysite.text.linking import Mention, separator_for, with_links
from studysite.text.markup import excerpt, plain_text

# The record pages: kind -> (template, the field of an Edition that lists the kind's records)
RECORD_PAGES = {
    "questions": ("question.html", "questions"),
    "topics": ("topic.html", "topics"),
    "glossary": ("term.html", "terms"),
    "comparisons": ("comparison.html", "comparisons"),
}


class ViewBuilder(term_page.TermPage, site_pages.SitePages):
    """Builds every page of a site. Holds the build's data; keeps no state between builds."""

    def __init__(self, content: Content, content_html: ContentHtml, graph: Graph, statuses: TranslationStatus):
        self.content = content
        self.content_html = content_html
        self.graph = graph
        self.statuses = statuses
        self.site = content.site
        self._links: dict[tuple[str, str], dict[tuple[str, int | str], Link]] = {}  # (kind, id) -> (page language, limit) -> its link
        self._sorted_terms: dict[str, list[tuple[str, Link]]] = {}
        self._linked_bodies: dict[tuple[str, str], QuestionBody] = {}  # (question id, page language): _question_body
        self._plain_questions: dict[tuple[str, str], term_page.PlainQuestion] = {}
        self._plain_stems: dict[tuple[str, str], str] = {}

    def with_edits(self, content: Content, content_html: ContentHtml, edited: Mapping[str, Collection[str]]) -> ViewBuilder:
        """A builder of the content after an edit that kept the graph as it was (serve/quick_edit.py),
        with what this one made once but for the edited records (ids by kind)."""
        questions = edited.get("questions", ())
        languages = {*self.site.languages, *(language for q in questions for language in self.content.questions[q].texts)}
        by_question = [(q, language) for q in questions for language in languages]  # how the caches of a question's text are keyed
        graph = replace(self.graph, mentions=_without(self.graph.mentions, by_question))
        builder = ViewBuilder(content, content_html, graph, self.statuses)
        builder._links = _without(self._links, [(kind, record_id) for kind, ids in edited.items() for record_id in ids])
        builder._sorted_terms = {} if edited.get("glossary") else self._sorted_terms
        builder._linked_bodies = _without(self._linked_bodies, by_question)
        builder._plain_questions = _without(self._plain_questions, by_question)
        builder._plain_stems = _without(self._plain_stems, by_question)
        return builder

    # -- text helpers -------------------------------------------------------------

    def _linked(self, fragments: tuple[str, ...], text_lang: str, skip: str = "", mentions: tuple[Mention, ...] | None = None) -> tuple[Markup, ...]:
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

    def _foreign(self, text_lang: str, page_lang: str) -> str:
        return "" if text_lang == page_lang else text_lang

    def _language_of(self, text_lang: str, page_lang: str) -> tuple[str, str]:
        """The lang and dir attributes of text in text_lang on a page in page_lang: empty
        when they are the page's own."""
        if text_lang == page_lang:
            return "", ""
        direction = text_direction(text_lang)
        return text_lang, direction if direction != text_direction(page_lang) else ""

    def _link(self, path: str, label: str, text_lang: str, page_lang: str) -> Link:
        """A link whose label is in text_lang, on a page in page_lang."""
        return Link(path, label, *self._language_of(text_lang, page_lang))

    def _record_link(self, lg: LanguageGraph, kind: str, record_id: str, limit: int = 0) -> Link:
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
            label = self._plain_stem(record_id, text_lang)
            label = excerpt(label, limit) if limit else label
        elif kind == "glossary":
            label = self.content.terms[record_id].texts[text_lang].term
        else:
            label = getattr(self.content, kind)[record_id].texts[text_lang].title
        return self._link(urls.record(kind, language, record_id), label, text_lang, language)

    def topic_link(self, lg: LanguageGraph, topic_id: str) -> Link:
        return self._record_link(lg, "topics", topic_id)

    def term_link(self, lg: LanguageGraph, term_id: str) -> Link:
        return self._record_link(lg, "glossary", term_id)

    def question_link(self, lg: LanguageGraph, question_id: str, limit: int = 0) -> Link:
        return self._record_link(lg, "questions", question_id, limit)

    def comparison_link(self, lg: LanguageGraph, comparison_id: str) -> Link:
        return self._record_link(lg, "comparisons", comparison_id)

    def sorted_term_links(self, lg: LanguageGraph) -> list[tuple[str, Link]]:
        """(term id, link) of every term of lg's glossary, in dictionary order; made once."""
        language = lg.edition.language
        if language not in self._sorted_terms:
            links = [(term_id, self.term_link(lg, term_id)) for term_id in lg.edition.terms]
            self._sorted_terms[language] = sorted(links, key=lambda item: sort_key(item[1].label))
        return self._sorted_terms[language]

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
        pages = [self.language_chooser(), self.not_found()]
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
        pages = [self.language_chooser(), self.not_found()]
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
        return [self.home(lg), self.glossary(lg), self.search(lg), self.status(lg), self.review(lg), self.downloads(lg), self.offline_page(lg)]

    def _described(self, page: Page) -> Page:
        return page if page.description else replace(page, description=self.site_description(page.language))

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
            "home.html": lambda lg, _: self.home(lg),
            "glossary.html": lambda lg, _: self.glossary(lg),
            "review.html": lambda lg, _: self.review(lg),
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
        about = description(self.content_html.topics.get((topic_id, text_lang), ""))
        return self._record_page(lg, "topics", topic_id, title, self._topic_view, sources, about)

    def _topic_view(self, lg: LanguageGraph, topic_id: str) -> TopicView:
        language, text_lang = lg.edition.language, lg.edition.topics[topic_id]
        return TopicView(
            topic=topic_id,
            text_lang=self._foreign(text_lang, language),
            description=Markup(self.content_html.topics.get((topic_id, text_lang), "")),
            questions=tuple(self.question_link(lg, q) for q in lg.questions_by_topic[topic_id]),
            question_ids=" ".join(lg.questions_by_topic[topic_id]),
            terms=tuple(sorted((self.term_link(lg, t) for t in lg.terms_by_topic[topic_id]), key=lambda link: sort_key(link.label))),
            comparisons=tuple(self.comparison_link(lg, c) for c in lg.comparisons_by_topic[topic_id]),
            practice=urls.record("practice", language, topic_id) if lg.questions_by_topic[topic_id] else "",
        )

    def _question_body(self, lg: LanguageGraph, question_id: str, linked: bool) -> QuestionBody:
        """A question as its page shows it; linked: its terms linked, made once (its page
        and its topic's practice page show the same: their term links are the same from both)."""
        key = (question_id, lg.edition.language)
        body = self._linked_bodies.get(key) if linked else None
        if body is None:
            body = self._make_question_body(lg, question_id, linked)
            if linked:
                self._linked_bodies[key] = body
        return body

    def _make_question_body(self, lg: LanguageGraph, question_id: str, linked: bool) -> QuestionBody:
        text_lang = lg.edition.questions[question_id]
        fragments = self.content_html.question_fragments(question_id, text_lang)
        if linked:
            stem, explanation, *choice_html = self._linked(fragments, text_lang, mentions=self.graph.mentions.get((question_id, text_lang)))
        else:
            stem, explanation, *choice_html = (Markup(f) for f in fragments)
        choices = tuple(Choice(answer_letter(i), c) for i, c in enumerate(choice_html))
        text_lang = self._foreign(text_lang, lg.edition.language)
        return QuestionBody(question_id, text_lang, stem, choices, self.content.questions[question_id].answer, explanation)

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
        stem = self._plain_stem(question_id, text_lang)
        work_group = f"{lg.edition.language}/{question.topic}"
        return self._record_page(
            lg, "questions", question_id, excerpt(stem, TITLE_EXCERPT), self._question_view, sources, excerpt(stem, DESCRIPTION_EXCERPT), work_group
        )

    def _plain_stem(self, question_id: str, text_lang: str) -> str:
        """A question's stem as plain text, made once: its page's title and description and
        every link to it are made from it."""
        key = (question_id, text_lang)
        if key not in self._plain_stems:
            self._plain_stems[key] = plain_text(self.content_html.questions[key].stem)
        return self._plain_stems[key]

    def _question_view(self, lg: LanguageGraph, question_id: str) -> QuestionView:
        question = self.content.questions[question_id]
        return QuestionView(
            question=self._question_body(lg, question_id, linked=True),
            topic=self.topic_link(lg, question.topic),
            practice=urls.record("practice", lg.edition.language, question.topic),
            terms=tuple(sorted((self.term_link(lg, t) for t in lg.terms_by_question[question_id]), key=lambda link: sort_key(link.label))),
            more=tuple(self.question_link(lg, q) for q in lg.more_questions[question_id]),
            comparisons=tuple(self.comparison_link(lg, c) for c in lg.comparisons_by_topic[question.topic]),
        )

    def practice(self, lg: LanguageGraph, topic_id: str) -> Page:
        language = lg.edition.language
        question_ids = lg.questions_by_topic[topic_id]

        def view() -> PracticeView:
            questions = tuple(PracticeItem(self._question_body(lg, q, linked=True), self.question_link(lg, q, TITLE_EXCERPT)) for q in question_ids)
            return PracticeView(self.topic_link(lg, topic_id), questions)

        alternates = {lang: urls.record("practice", lang, topic_id) for lang, other in self.graph.languages.items() if other.questions_by_topic.get(topic_id)}
        terms = sorted({f"glossary/{t}" for q in question_ids for t in lg.terms_by_question[q]})  # linked in the text
        names = sorted({f"terms:{lg.edition.questions[q]}" for q in question_ids})  # the names that link them
        sources = (f"topics/{topic_id}", *(f"questions/{q}" for q in question_ids), *terms, *names)
        title = self.topic_link(lg, topic_id).label
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
        title, about = self.content.terms[term_id].texts[text_lang].term, description(self.content_html.terms.get((term_id, text_lang), ""))
        group = f"{language}:glossary"  # no topic's group, whose name is language/topic id (ids hold no colon)
        return self._record_page(lg, "glossary", term_id, title, self._term_view, sources, about, group)

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
        rows = tuple(ComparisonRow(aspect.label, tuple(Markup(c) for c in cells)) for aspect, cells in zip(text.aspects, html.rows, strict=True))
        return ComparisonView(
            text_lang=self._foreign(text_lang, language),
            topic=self.topic_link(lg, comparison.topic),
            columns=tuple(self.term_link(lg, t) for t in comparison.terms),
            rows=rows,
            summary=Markup(html.summary),
        )


def _without(cache: Mapping, keys: Iterable) -> dict:
    """A copy of a cache of every record's, without these keys (an edit's few): copied whole
    and then each taken out, not filtered entry by entry."""
    kept = dict(cache)
    for key in keys:
        kept.pop(key, None)
    return kept
