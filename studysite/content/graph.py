"""Graph: which records each language shows, and how they refer to each other, by id.

For every site language an Edition says which records appear and in which language their
text is written (their own, or the default language under `fallback: notice`). The graph
adds the indexes pages need: questions per topic (by `order`, then file path), terms used
per question (named in `terms:` or found in the text), questions per term, the questions
that follow each one in its topic, comparisons.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from studysite.content.html import ContentHtml
from studysite.content.records import Content, Record
from studysite.memo import NO_MEMO, Memo
from studysite.text.linking import Mention, TermMatcher, separator_for

MORE_QUESTIONS = 5
# How a function is applied to each of a list of items: map by default; a build passes one
# that shares the items among processes (workers.map_in_forks).
MapEach = Callable[[Callable, Sequence], Iterable]


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
    # (question id, language of its text) -> where its text first names each term, found
    # with the terms (not kept with the model, nor after an edit: the pages link anew)
    mentions: Mapping[tuple[str, str], tuple[Mention, ...]] = field(default_factory=dict)


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
    ordered = sorted(content.questions.values(), key=lambda q: q.order)  # stable: file path order among equals
    questions = shown(q for q in ordered if q.topic in topics)
    comparisons = shown(c for c in content.comparisons.values() if c.topic in topics and all(t in terms for t in c.terms))
    return Edition(language, topics, questions, terms, comparisons)


def build_matchers(content: Content) -> dict[str, TermMatcher]:
    """One matcher per site language, over the names its pages show for each term.

    An untranslated term shown in another language under `fallback: notice` is found by
    the name it is shown with; a term's name in the site's term_language (its Japanese
    name, say) is found in every language, like an alias."""
    site = content.site
    matchers = {}
    for language in site.languages:
        names: dict[str, tuple[str, ...]] = {}
        for term in content.terms.values():
            shown = text_language(term, language, site.languages, site.fallback)
            if shown:
                foreign = term.texts.get(site.term_language) if site.term_language else None
                names[term.id] = (term.texts[shown].term, *term.texts[shown].aliases, *((foreign.term,) if foreign else ()))
        matchers[language] = TermMatcher.build(names)
    return matchers


def build_graph(content: Content, content_html: ContentHtml, memo: Memo = NO_MEMO, map_each: MapEach = map) -> Graph:
    matchers = build_matchers(content)
    found, mentions = find_terms(matchers, content_html, memo, map_each)

    def found_terms(question_id: str, lang: str) -> set[str]:
        return found.get((question_id, lang), set())

    languages = {}
    for language in content.site.languages:
        edition = build_edition(content, language)
        languages[language] = _language_graph(content, edition, found_terms)
    return Graph(languages, matchers, mentions)


def find_terms(
    matchers: Mapping[str, TermMatcher], content_html: ContentHtml, memo: Memo = NO_MEMO, map_each: MapEach = map
) -> tuple[dict[tuple[str, str], set[str]], dict[tuple[str, str], tuple[Mention, ...]]]:
    """The terms each question's text names, by (question id, language of the text): from
    the memo when neither the text nor the names changed, else found (by map_each);
    and for the texts looked through, where each term is first named (for linking them)."""
    names = {lang: hashlib.sha256(repr(sorted(matcher.names.items())).encode()).hexdigest() for lang, matcher in matchers.items()}
    keys = {key: _found_key(names[key[1]], content_html.question_fragments(*key)) for key in content_html.questions if key[1] in matchers}
    found = {key: _as_set(memo.get(digest)) for key, digest in keys.items()}
    missing = [key for key, terms in found.items() if terms is None]
    mentions = {}

    def find(key: tuple[str, str]) -> tuple[set[str], tuple[Mention, ...] | None]:
        return terms_named(matchers[key[1]], content_html.question_fragments(*key))

    for key, (terms, first) in zip(missing, map_each(find, missing), strict=True):
        found[key] = terms
        if first is not None:
            mentions[key] = first
        memo.put(keys[key], sorted(terms))
    return found, mentions  # type: ignore[return-value]


def _found_key(names: str, fragments: tuple[str, ...]) -> str:
    """The key in a memo of the terms found in a question's text: the text and the names looked for."""
    return hashlib.sha256(f"{names}\0{chr(0).join(fragments)}".encode()).hexdigest()[:32]


def _as_set(found: object) -> set[str] | None:
    return None if found is None else set(found)


def terms_named(matcher: TermMatcher, fragments: tuple[str, ...]) -> tuple[set[str], tuple[Mention, ...] | None]:
    """The terms named in a question's texts, read as one (as they are linked), and where
    each is first named in them joined by separator_for(fragments); None for that when no
    character can join them (the fragments are then read and linked one by one)."""
    separator = separator_for(fragments)
    if separator is None:
        return set().union(*(matcher.find(fragment) for fragment in fragments)), None
    mentions = matcher.first_mentions(separator.join(fragments))
    return {term_id for _, _, term_id in mentions}, mentions


def topic_questions(content: Content, edition: Edition) -> dict[str, tuple[str, ...]]:
    """The questions an edition shows on each of its topics, in the topic's order."""
    by_topic: dict[str, list[str]] = {topic: [] for topic in edition.topics}
    for question_id in edition.questions:
        by_topic[content.questions[question_id].topic].append(question_id)
    return {topic: tuple(questions) for topic, questions in by_topic.items()}


def _language_graph(content: Content, edition: Edition, found_terms) -> LanguageGraph:
    questions_by_topic = topic_questions(content, edition)
    comparisons_by_topic: dict[str, list[str]] = {topic: [] for topic in edition.topics}
    terms_by_question: dict[str, tuple[str, ...]] = {}
    questions_by_term: dict[str, list[str]] = {term: [] for term in edition.terms}
    term_order = {term: index for index, term in enumerate(edition.terms)}
    for question_id, lang in edition.questions.items():
        question = content.questions[question_id]
        used = (set(question.terms) | found_terms(question_id, lang)) & edition.terms.keys()
        terms_by_question[question_id] = tuple(sorted(used, key=term_order.__getitem__))
        for term_id in terms_by_question[question_id]:
            questions_by_term[term_id].append(question_id)
    for comparison_id in edition.comparisons:
        comparisons_by_topic[content.comparisons[comparison_id].topic].append(comparison_id)
    terms_by_topic = {}
    for topic, questions in questions_by_topic.items():
        used = {t for q in questions for t in terms_by_question[q]}
        terms_by_topic[topic] = tuple(t for t in edition.terms if t in used)
    related_terms = {term_id: tuple(r for r in content.terms[term_id].related if r in edition.terms and r != term_id) for term_id in edition.terms}
    more_questions = {question_id: following for questions in questions_by_topic.values() for question_id, following in following_questions(questions).items()}
    return LanguageGraph(
        edition=edition,
        questions_by_topic=questions_by_topic,
        comparisons_by_topic={k: tuple(v) for k, v in comparisons_by_topic.items()},
        terms_by_question=terms_by_question,
        questions_by_term={k: tuple(v) for k, v in questions_by_term.items()},
        terms_by_topic=terms_by_topic,
        related_terms=related_terms,
        more_questions=more_questions,
    )


def following_questions(topic_questions, limit: int = MORE_QUESTIONS) -> dict[str, tuple[str, ...]]:
    """For each question of a topic, the `limit` questions that follow it in the topic's
    order, wrapping round to the first ones after the last; fewer in a smaller topic."""
    count = len(topic_questions)
    return {
        question_id: tuple(topic_questions[(position + step) % count] for step in range(1, min(limit, count - 1) + 1))
        for position, question_id in enumerate(topic_questions)
    }
