"""What each page shows, by the names of page_keys.py's sources: "<kind>/<id>" for every record
whose text it shows, "terms:<lang>" for the names that link that language's terms,
"glossary:<lang>" for a glossary's list and "titles:<lang>" for every question's title.

A page kept by its key is keyed by the digests of what it shows (page_keys.py), a build after
an edit plans anew the pages that show one (replanning.py), and serve writes those again
(serve/quick_edit.py). pages/ plans the pages as if every build were cold; this reads the
same graph beside it. A page whose view model reads more than is named here (its own
language's pages) is keyed by its view model instead: only the KEYED_BY_SOURCES are keyed by
their sources.
"""

from __future__ import annotations

from collections.abc import Callable

from studysite.content.graph import Graph, LanguageGraph
from studysite.content.records import Content
from studysite.pages.view_models import Page

KEYED_BY_SOURCES = frozenset({"question.html", "topic.html", "practice.html", "term.html", "comparison.html", "review.html"})


def keyed_by_sources(page: Page) -> bool:
    """Whether the page's view model reads nothing but what it shows and the site."""
    return page.template in KEYED_BY_SOURCES


class PageSources:
    """The sources of each page of a site, from its content and graph."""

    def __init__(self, content: Content, graph: Graph):
        self.content = content
        self.graph = graph
        self._shown_by: dict[str, Callable[[LanguageGraph, str], tuple[str, ...]]] = {
            "question.html": self._question,
            "topic.html": self._topic,
            "practice.html": self._practice,
            "term.html": self._term,
            "comparison.html": self._comparison,
            "home.html": self._home,
            "glossary.html": self._glossary,
            "flashcards.html": self._flashcards,
            "exam.html": self._exam,
            "review.html": self._review,
        }

    def of(self, page: Page) -> tuple[str, ...]:
        """The page's sources: the record its page is first, when it is a record's."""
        shown = self._shown_by.get(page.template)
        return shown(self.graph.languages[page.language], page.record) if shown else ()

    def _question(self, lg: LanguageGraph, question_id: str) -> tuple[str, ...]:
        topic = self.content.questions[question_id].topic
        return (
            f"questions/{question_id}",
            f"topics/{topic}",
            *(f"glossary/{t}" for t in lg.terms_by_question[question_id]),
            *(f"questions/{q}" for q in lg.more_questions[question_id]),
            *(f"comparisons/{c}" for c in lg.comparisons_by_topic[topic]),
            f"terms:{lg.edition.questions[question_id]}",
        )

    def _topic(self, lg: LanguageGraph, topic_id: str) -> tuple[str, ...]:
        return (
            f"topics/{topic_id}",
            *(f"questions/{q}" for q in lg.questions_by_topic[topic_id]),
            *(f"glossary/{t}" for t in lg.terms_by_topic[topic_id]),
            *(f"comparisons/{c}" for c in lg.comparisons_by_topic[topic_id]),
        )

    def _practice(self, lg: LanguageGraph, topic_id: str) -> tuple[str, ...]:
        question_ids = lg.questions_by_topic[topic_id]
        terms = sorted({f"glossary/{t}" for q in question_ids for t in lg.terms_by_question[q]})  # linked in the text
        names = sorted({f"terms:{lg.edition.questions[q]}" for q in question_ids})  # the names that link them
        return (f"topics/{topic_id}", *(f"questions/{q}" for q in question_ids), *terms, *names)

    def _term(self, lg: LanguageGraph, term_id: str) -> tuple[str, ...]:
        question_ids = lg.questions_by_term[term_id]
        return (
            f"glossary/{term_id}",
            *(f"questions/{q}" for q in question_ids),
            *sorted({f"topics/{self.content.questions[q].topic}" for q in question_ids}),
            *(f"glossary/{t}" for t in lg.related_terms[term_id]),
            *sorted({f"terms:{lg.edition.terms[term_id]}", *(f"terms:{lg.edition.questions[q]}" for q in question_ids)}),
            f"glossary:{lg.edition.language}",  # the other terms it lists
        )

    def _comparison(self, lg: LanguageGraph, comparison_id: str) -> tuple[str, ...]:
        comparison = self.content.comparisons[comparison_id]
        return (f"comparisons/{comparison_id}", f"topics/{comparison.topic}", *(f"glossary/{t}" for t in comparison.terms))

    def _home(self, lg: LanguageGraph, _: str) -> tuple[str, ...]:
        return (*(f"topics/{t}" for t in lg.edition.topics), *(f"comparisons/{c}" for c in lg.edition.comparisons))

    def _glossary(self, lg: LanguageGraph, _: str) -> tuple[str, ...]:
        return (*(f"glossary/{t}" for t in lg.edition.terms), *(f"comparisons/{c}" for c in lg.edition.comparisons))

    def _flashcards(self, lg: LanguageGraph, _: str) -> tuple[str, ...]:
        return (*(f"glossary/{t}" for t in lg.edition.terms), f"glossary:{lg.edition.language}")

    def _exam(self, lg: LanguageGraph, _: str) -> tuple[str, ...]:
        # Keyed by its view model (which question is in which topic is no source's): these
        # say which edits show on it.
        return (f"titles:{lg.edition.language}", *(f"topics/{t}" for t in lg.edition.topics))

    def _review(self, lg: LanguageGraph, _: str) -> tuple[str, ...]:
        # Every question's title and page (page_keys.title_digests): its view model is made
        # only when one of them changed.
        return (f"titles:{lg.edition.language}",)
