"""The pages of a language and of the site, as opposed to a record's: the language
chooser, 404, home, glossary, flashcards, exam, search, review, downloads, offline and status pages.

SitePages makes them, for builder.ViewBuilder; each is a Page whose view
model (pages/view_models.py) is made at once, but for the status page's, which asks git."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from markupsafe import Markup

from studysite import urls
from studysite.content.graph import LanguageGraph
from studysite.content.records import Term
from studysite.i18n.status import TranslationStatus
from studysite.languages import autonym, language_name
from studysite.pages.record_parts import RecordParts
from studysite.pages.view_models import (
    ChooserView,
    DownloadsView,
    ExamTopic,
    ExamView,
    Flashcard,
    FlashcardsView,
    GlossaryEntry,
    GlossaryView,
    HomeView,
    Link,
    NotFoundView,
    OfflineView,
    Page,
    ReviewView,
    SearchView,
    StatusView,
    TopicCard,
    View,
    description,
    index_letter,
)
from studysite.study import anki, offline

TITLE_EXCERPT = 70  # characters of a question's stem that make its title


class SitePages:
    """The language's and the site's own pages, from the record parts (their links)."""

    def __init__(self, parts: RecordParts, statuses: TranslationStatus):
        self.parts = parts
        self.site = parts.site
        self.content_html = parts.content_html
        self.statuses = statuses

    def _every_language(self, make_path) -> dict[str, str]:
        return {lang: make_path(lang) for lang in self.site.languages}

    def site_description(self, language: str) -> str:
        """The site's description, for pages that have no text of their own (or its title)."""
        html = self.content_html.site.get(language) or self.content_html.site.get(self.site.default_language, "")
        return description(html) or self.site_title(language)

    def language_chooser(self) -> Page:
        default = self.site.default_language
        choices = tuple(Link(urls.home(lang), autonym(lang), lang) for lang in self.site.languages)
        titles = {lang: self.site_title(lang) for lang in self.site.languages}
        return Page("", "chooser.html", default, self.site_title(default), _ready(ChooserView(choices, titles)), x_default="")

    def not_found(self) -> Page:
        homes = tuple(Link(urls.home(lang), autonym(lang), lang) for lang in self.site.languages)
        return Page(urls.NOT_FOUND, "404.html", self.site.default_language, "404", _ready(NotFoundView(homes)), in_sitemap=False)

    def site_title(self, language: str) -> str:
        text = self.site.texts.get(language) or self.site.texts.get(self.site.default_language)
        return text.title if text else "Studysite"

    def home(self, lg: LanguageGraph) -> Page:
        language = lg.edition.language
        topics = tuple(
            TopicCard(
                link=self.parts.topic_link(lg, t),
                topic=t,
                practice=urls.record("practice", language, t) if lg.questions_by_topic[t] else "",
                summary=description(self.content_html.topics[(t, lg.edition.topics[t])].description),
                questions=len(lg.questions_by_topic[t]),
                question_ids=" ".join(lg.questions_by_topic[t]),
                terms=len(lg.terms_by_topic[t]),
            )
            for t in lg.edition.topics
        )
        view = HomeView(topics, Markup(self.content_html.site.get(language, "")), len(lg.edition.terms), self._comparison_links(lg))
        return Page(urls.home(language), "home.html", language, self.site_title(language), _ready(view), self._every_language(urls.home))

    def glossary(self, lg: LanguageGraph) -> Page:
        language = lg.edition.language
        groups: dict[str, list[GlossaryEntry]] = {}
        for term_id, link in self.parts.sorted_term_links(lg):
            text_lang = lg.edition.terms[term_id]
            summary = description(self.content_html.terms[(term_id, text_lang)].definition)
            groups.setdefault(index_letter(link.label), []).append(GlossaryEntry(link, summary))
        return Page(
            urls.glossary(language),
            "glossary.html",
            language,
            "",
            _ready(GlossaryView({letter: tuple(entries) for letter, entries in groups.items()}, self._comparison_links(lg))),
            self._every_language(urls.glossary),
        )

    def _comparison_links(self, lg: LanguageGraph) -> tuple[Link, ...]:
        """The language's comparisons, which the home page and the glossary link to: the
        site menu has no entry of its own for them."""
        return tuple(self.parts.comparison_link(lg, c) for c in lg.edition.comparisons)

    def flashcards(self, lg: LanguageGraph) -> Page:
        """The glossary as flashcards, in its dictionary order; the browser schedules each card."""
        language, term_language = lg.edition.language, self.site.term_language
        cards = []
        for term_id, link in self.parts.sorted_term_links(lg):
            term = self.parts.content.terms[term_id]
            definition = Markup(urls.one_folder_up(self.content_html.terms[(term_id, lg.edition.terms[term_id])].definition))
            foreign = term.texts[term_language].term if "name" in flashcard_sides(term, term_language, language) else ""
            cards.append(Flashcard(term_id, link, definition, foreign))
        named = term_language if any(card.foreign_name for card in cards) else ""
        view = FlashcardsView(tuple(cards), named, language_name(named, language) if named else "")
        return Page(urls.flashcards(language), "flashcards.html", language, "", _ready(view), self._every_language(urls.flashcards))

    def exam(self, lg: LanguageGraph) -> Page:
        """The mock exam: topics to choose, each question's title, page and topic for the
        browser, which fetches the questions it draws."""
        language = lg.edition.language
        return Page(urls.exam(language), "exam.html", language, "", partial(self._exam_view, lg), self._every_language(urls.exam))

    def _exam_view(self, lg: LanguageGraph) -> ExamView:
        language = lg.edition.language
        topics = tuple(
            ExamTopic(t, self.parts.topic_link(lg, t), urls.record("practice", language, t), len(lg.questions_by_topic[t]))
            for t in lg.edition.topics
            if lg.questions_by_topic[t]
        )
        questions = {}
        for topic in topics:
            for q in lg.questions_by_topic[topic.id]:
                link = self.parts.question_link(lg, q, TITLE_EXCERPT)
                questions[q] = {"title": link.label, "path": link.path, "topic": topic.id}
        exam = self.site.exam
        return ExamView(topics, questions, exam.questions, exam.minutes)

    def search(self, lg: LanguageGraph) -> Page:
        language = lg.edition.language
        return Page(urls.search(language), "search.html", language, "", _ready(SearchView()), self._every_language(urls.search))

    def review(self, lg: LanguageGraph) -> Page:
        """The student's own page: progress, mistakes and questions due, filled in by the
        browser, which is told every question's title and page."""
        language = lg.edition.language
        return Page(urls.review(language), "review.html", language, "", partial(self._review_view, lg), self._every_language(urls.review))

    def _review_view(self, lg: LanguageGraph) -> ReviewView:
        questions = {}
        for q in lg.edition.questions:
            link = self.parts.question_link(lg, q, TITLE_EXCERPT)  # made once per build, with its path
            questions[q] = {"title": link.label, "path": link.path}
        return ReviewView(questions)

    def downloads(self, lg: LanguageGraph) -> Page:
        """The language's Anki deck, how to import it, and the switch that saves the language for offline reading."""
        language = lg.edition.language
        deck = anki.deck_summary(lg, self.site_title(language))  # its file named in its own language
        view = DownloadsView(deck, offline.page_list_path(language), language_name(language, language))
        return Page(urls.downloads(language), "downloads.html", language, "", _ready(view), self._every_language(urls.downloads))

    def offline_page(self, lg: LanguageGraph) -> Page:
        """Shown by the service worker, at any address, for a page that was not stored."""
        language = lg.edition.language
        view = OfflineView(urls.downloads(language))
        return Page(urls.offline(language), "offline.html", language, "", _ready(view), self._every_language(urls.offline), in_sitemap=False)

    def status(self, lg: LanguageGraph) -> Page:
        """The translators' page: what is left to translate in this language."""
        language, default = lg.edition.language, self.site.default_language

        def record_link(ref) -> Link:
            return Link(urls.record(ref.kind, default, ref.id), f"{ref.kind}/{ref.id}", default if language != default else "")

        def view() -> StatusView:  # the status (git) is worked out when the page is rendered
            status = self.statuses.of(language)
            missing = tuple((record_link(ref), ref.path) for ref in status.missing)
            return StatusView(status, default, missing, tuple((record_link(ref), ref.path) for ref in status.outdated))

        return Page(urls.status(language), "status.html", language, "", view, self._every_language(urls.status))


def flashcard_sides(term: Term, term_language: str, language: str) -> tuple[str, ...]:
    """The sides a term's flashcards show first (their keys in the reader's store are
    "<term id>:<side>"): its name, its definition, and its name in term_language when it has
    one and that is not the page's language."""
    named = bool(term_language) and term_language != language and term_language in term.texts
    return ("term", "definition", "name") if named else ("term", "definition")


def _ready(view: View) -> Callable[[], View]:
    """The view model of a page that is cheap to keep: made at once, handed over when rendered."""
    return lambda: view
