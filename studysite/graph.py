"""Graph: which records each language shows, and how they refer to each other, by id.

For every site language an Edition says which records appear and in which language their
text is written (their own, or the default language under `fallback: notice`). The graph
adds the indexes pages need: questions per topic, terms used per question (named in
`terms:` or found in the text), questions per term, related questions, comparisons.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import islice

from .linking import TermMatcher
from .markup import RenderedText
from .model import Content, Record

MORE_QUESTIONS = 5


@dataclass(frozen=True)
class Edition:
    """The records one site language shows: id -> language of the text shown."""

    language: str
    topics: Mapping[str, str]
    questions: Mapping[str, str]
    terms: Mapping[str, str]
    comparisons: Mapping[str, str]


@dataclass(frozen=True)
class LanguageGraph:
    edition: Edition
    questions_by_topic: Mapping[str, tuple[str, ...]]
    comparisons_by_topic: Mapping[str, tuple[str, ...]]
    terms_by_question: Mapping[str, tuple[str, ...]]
    questions_by_term: Mapping[str, tuple[str, ...]]
    terms_by_topic: Mapping[str, tuple[str, ...]]
    related_terms: Mapping[str, tuple[str, ...]]
    more_questions: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Graph:
    languages: Mapping[str, LanguageGraph]
    matchers: Mapping[str, TermMatcher]  # language of a text -> matcher of the term names shown in it


def text_language(record: Record, language: str, site_languages: tuple[str, ...], fallback: str) -> str | None:
    """The language whose text a record shows in a site language, or None to leave it out.

    Under `fallback: notice` an untranslated record shows its default-language text (or,
    lacking that, the first site language it has)."""
    if language in record.texts:
        return language
    if fallback == "notice":
        return next((lang for lang in site_languages if lang in record.texts), None)
    return None


def build_edition(content: Content, language: str) -> Edition:
    site = content.site

    def shown(records) -> dict[str, str]:
        pairs = ((r.id, text_language(r, language, site.languages, site.fallback)) for r in records)
        return {record_id: lang for record_id, lang in pairs if lang}

    topics = shown(sorted(content.topics.values(), key=lambda t: (t.order, t.id)))
    terms = shown(content.terms.values())
    questions = shown(q for q in content.questions.values() if q.topic in topics)
    comparisons = shown(c for c in content.comparisons.values() if c.topic in topics and all(t in terms for t in c.terms))
    return Edition(language, topics, questions, terms, comparisons)


def build_matchers(content: Content) -> dict[str, TermMatcher]:
    """One matcher per site language, over the names its pages show for each term.

    An untranslated term shown in another language under `fallback: notice` is found by
    the name it is shown with."""
    site = content.site
    matchers = {}
    for language in site.languages:
        names: dict[str, tuple[str, ...]] = {}
        for term in content.terms.values():
            shown = text_language(term, language, site.languages, site.fallback)
            if shown:
                names[term.id] = (term.texts[shown].term, *term.texts[shown].aliases)
        matchers[language] = TermMatcher.build(names)
    return matchers


def build_graph(content: Content, rendered: RenderedText) -> Graph:
    matchers = build_matchers(content)
    found_cache: dict[tuple[str, str], set[str]] = {}

    def found_terms(question_id: str, lang: str) -> set[str]:
        key = (question_id, lang)
        if key not in found_cache:
            matcher = matchers.get(lang)
            found_cache[key] = matcher.find(rendered.question_html(question_id, lang)) if matcher else set()
        return found_cache[key]

    languages = {}
    for language in content.site.languages:
        edition = build_edition(content, language)
        languages[language] = _language_graph(content, edition, found_terms)
    return Graph(languages, matchers)


def _language_graph(content: Content, edition: Edition, found_terms) -> LanguageGraph:
    questions_by_topic: dict[str, list[str]] = {topic: [] for topic in edition.topics}
    comparisons_by_topic: dict[str, list[str]] = {topic: [] for topic in edition.topics}
    terms_by_question: dict[str, tuple[str, ...]] = {}
    questions_by_term: dict[str, list[str]] = {term: [] for term in edition.terms}
    for question_id, lang in edition.questions.items():
        question = content.questions[question_id]
        questions_by_topic[question.topic].append(question_id)
        used = (set(question.terms) | found_terms(question_id, lang)) & edition.terms.keys()
        terms_by_question[question_id] = tuple(t for t in edition.terms if t in used)
        for term_id in terms_by_question[question_id]:
            questions_by_term[term_id].append(question_id)
    for comparison_id in edition.comparisons:
        comparisons_by_topic[content.comparisons[comparison_id].topic].append(comparison_id)
    terms_by_topic = {
        topic: tuple(t for t in edition.terms if any(t in terms_by_question[q] for q in questions)) for topic, questions in questions_by_topic.items()
    }
    related_terms = {term_id: tuple(r for r in content.terms[term_id].related if r in edition.terms and r != term_id) for term_id in edition.terms}
    more_questions = {
        question_id: ranked for questions in questions_by_topic.values() for question_id, ranked in rank_more_questions(questions, terms_by_question).items()
    }
    return LanguageGraph(
        edition=edition,
        questions_by_topic={k: tuple(v) for k, v in questions_by_topic.items()},
        comparisons_by_topic={k: tuple(v) for k, v in comparisons_by_topic.items()},
        terms_by_question=terms_by_question,
        questions_by_term={k: tuple(v) for k, v in questions_by_term.items()},
        terms_by_topic=terms_by_topic,
        related_terms=related_terms,
        more_questions=more_questions,
    )


def rank_more_questions(topic_questions, terms_by_question, limit: int = MORE_QUESTIONS) -> dict[str, tuple[str, ...]]:
    """For each question of a topic, up to `limit` others: most shared terms first, then
    content order. Shared terms are counted through each term's list of questions, so a
    question costs the length of its terms' lists, not the size of the topic."""
    using: dict[str, list[int]] = {}
    for position, question_id in enumerate(topic_questions):
        for term_id in terms_by_question[question_id]:
            using.setdefault(term_id, []).append(position)
    ranked = {}
    for position, question_id in enumerate(topic_questions):
        shared = Counter(other for term_id in terms_by_question[question_id] for other in using[term_id] if other != position)
        best = sorted(shared, key=lambda other: (-shared[other], other))[:limit]
        chosen = set(best)
        rest = (other for other in range(len(topic_questions)) if other != position and other not in chosen)
        best += islice(rest, limit - len(best))
        ranked[question_id] = tuple(topic_questions[other] for other in best)
    return ranked
