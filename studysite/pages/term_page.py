"""The term page, as the seed shows it: which questions come first, which is the key
question, the sentence each is quoted by, how its stem is cut, what to browse on.

TermPages makes the term page's view model (TermView), for builder.ViewBuilder."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup

from studysite.content.graph import LanguageGraph
from studysite.languages import language_name
from studysite.pages.record_parts import PlaceMemo, RecordParts
from studysite.pages.view_models import Link, QuestionBody, TermUsage, TermView, Text
from studysite.text.markup import excerpt, plain_text

STEM_CUT = 60  # characters of a question's stem shown under its excerpt, "…" included
SENTENCE_EXCERPT = 400  # a quoted sentence longer than this is cut
FORMULA = "\ufffc"  # where a question's explanation has math, in its plain text: a quote shows no TeX
PARAGRAPH = "\u2029"  # where a block of a question's explanation ends, in its plain text: no sentence runs on into the next
_BLOCK_END = re.compile(r"</(?:p|li|blockquote|pre|dt|dd|th|td|h[1-6])>|<br\s*/?>")  # of the blocks text/markup.py lets through
BROWSE_LIMIT = 30  # other glossary terms listed at the foot of a term page
_SENTENCE_END = re.compile(r"([.!?。！？])( ?)")  # in text whose white space is single spaces
_WIDE_ENDS = "。！？"  # a Chinese or Japanese sentence's end, a space after it or not


def explanation_text(html: str) -> str:
    """The visible text of a question's explanation as a term page quotes it: each
    paragraph, list item, heading or cell ended by PARAGRAPH (a list's items have no full
    stops), each formula left out as FORMULA."""
    return plain_text(_BLOCK_END.sub(PARAGRAPH, html), FORMULA)  # the tags go: plain_text would drop them


def sentences(text: str) -> list[str]:
    """The sentences of a text: each ends at a full stop, question or exclamation mark
    followed by a space, at a Chinese or Japanese one, or at a PARAGRAPH. (Each end is
    marked with a NUL, the spaces beside it dropped, and the text split there, in a third
    less time than walking the ends; a text that holds a NUL itself has them walked.)"""
    if "\0" in text:
        return [sentence for block in text.split(PARAGRAPH) for sentence in _sentences_walked(" ".join(block.split()))]
    text = " ".join(text.replace(PARAGRAPH, " \0 ").split()).replace(" \0", "\0").replace("\0 ", "\0")
    text = text.replace(". ", ".\0").replace("? ", "?\0").replace("! ", "!\0")
    for end in _WIDE_ENDS:
        if end in text:
            text = text.replace(end + " ", end).replace(end, end + "\0")
    return [s for s in text.split("\0") if s]


def _sentences_walked(text: str) -> list[str]:
    """sentences() of a text whose white space is single spaces, end by end."""
    found, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        if end.group(2) or end.group(1) in _WIDE_ENDS:
            found.append(text[start : end.end(1)])
            start = end.end()
    found.append(text[start:])
    return [s for s in found if s]


@dataclass(frozen=True)
class PlainQuestion:
    """A question's stem and its explanation's sentences as plain text; and, to look for
    a term's names in them, the stem casefolded and the sentences casefolded and joined by
    NUL (which no text holds, so no name found spans two), with where each begins."""

    stem: str
    sentences: tuple[str, ...]
    folded_stem: str
    folded_sentences: str
    starts: tuple[int, ...]

    @classmethod
    def of(cls, stem: str, explanation: str) -> PlainQuestion:
        stem, found = " ".join(stem.split()), tuple(sentences(explanation))
        folded = [sentence.casefold() for sentence in found]
        starts = tuple(itertools.accumulate((len(sentence) + 1 for sentence in folded[:-1]), initial=0)) if folded else ()
        return cls(stem, found, stem.casefold(), "\0".join(folded), starts)

    def first_sentence_naming(self, folded_names: Sequence[str]) -> int | None:
        """The number of the explanation's first sentence that names the term, if any."""
        found = [at for name in folded_names if (at := self.folded_sentences.find(name)) >= 0]
        return bisect.bisect_right(self.starts, min(found)) - 1 if found else None


def folded_names(names: Sequence[str]) -> list[str]:
    """A term's names as mention() looks for them."""
    return [name.casefold() for name in names if name]


def mention(question: PlainQuestion, folded: Sequence[str]) -> tuple[tuple[int, int], str]:
    """How early a question names the term (its names folded_names): (0, 0) in its stem,
    else (1, n) in its explanation's sentence n, else (2, 0); and the sentence it is
    quoted by: the explanation's first that names the term, unless that holds a formula
    (FORMULA: a quote is plain text, which would show its TeX), else the stem."""
    number = question.first_sentence_naming(folded)
    quoted = question.stem if number is None or FORMULA in question.sentences[number] else question.sentences[number]
    if any(name in question.folded_stem for name in folded):
        return (0, 0), quoted
    return ((2, 0) if number is None else (1, number)), quoted


def cut_stem(stem: str, limit: int = STEM_CUT) -> str:
    """The stem's first limit - 1 characters and "…" when it is longer than limit."""
    stem = " ".join(stem.split())
    return stem if len(stem) <= limit else stem[: limit - 1].rstrip() + "…"


class TermPages:
    """The term page's view model, from the record parts; with the plain text of questions
    and their cut links, made once for a language's term pages (every term a question uses
    quotes it)."""

    def __init__(self, parts: RecordParts):
        self.parts = parts
        self.content = parts.content
        self.content_html = parts.content_html
        self.site = parts.site
        self._plain_questions: PlaceMemo[PlainQuestion] = PlaceMemo()  # by question id, for a language's term pages
        self._cut_links: PlaceMemo[Link] = PlaceMemo()  # by question id, for a language's term pages

    def view(self, lg: LanguageGraph, term_id: str) -> TermView:
        """The seed's parts in order: definition, name in term_language, where it appears (topics
        linked), the key question with its choices and a reveal, each question quoted (the
        first is the key question, which term.html does not list again), related terms, others."""
        language, text_lang = lg.edition.language, lg.edition.terms[term_id]
        term = self.content.terms[term_id]
        text = term.texts[text_lang]
        term_language = self.site.term_language
        foreign_name = term.texts[term_language].term if term_language and term_language in term.texts and term_language != language else ""
        mentions = self._term_questions(lg, term_id)
        question_ids = [q for q, _ in mentions]
        used_topics = {self.content.questions[q].topic for q in question_ids}
        topic_ids = [t for t in lg.edition.topics if t in used_topics]
        related = tuple(self.parts.term_link(lg, r) for r in lg.related_terms[term_id])
        shown = {term_id, *lg.related_terms[term_id]}
        others = tuple(itertools.islice((link for t, link in self.parts.sorted_term_links(lg) if t not in shown), BROWSE_LIMIT))
        return TermView(
            term=text.term,
            text_lang=self.parts.foreign(text_lang, language),
            definition=self.parts.linked((self.content_html.terms[(term_id, text_lang)].definition,), text_lang, skip=term_id)[0],
            term_language=term_language,
            term_language_name=language_name(term_language, language) if foreign_name else "",
            foreign_name=foreign_name,
            topics=tuple(self.parts.topic_link(lg, t) for t in topic_ids),
            key_question=self._key_question(lg, question_ids[0], term_id) if question_ids else None,
            key_link=self.parts.question_link(lg, question_ids[0]) if question_ids else None,
            questions=tuple(TermUsage(self._cut_link(lg, q), self._quoted(lg, q, quoted)) for q, quoted in mentions),
            related=related,
            others=others,
            audio=self.parts.audio("glossary", term_id, text_lang),
        )

    def _term_questions(self, lg: LanguageGraph, term_id: str) -> list[tuple[str, str]]:
        """The questions using a term, those that name it earliest first (in the stem, then in
        the explanation's first sentences), each with the sentence it is quoted by; the
        first is the term's key question."""
        text = self.content.terms[term_id].texts[lg.edition.terms[term_id]]
        names = folded_names([text.term, *text.aliases])
        mentions = [(*mention(self._plain_question(lg, q), names), q) for q in lg.questions_by_term[term_id]]
        mentions.sort(key=lambda item: item[0])  # stable: questions named equally early keep their order
        return [(question_id, quoted) for _, quoted, question_id in mentions]

    def _plain_question(self, lg: LanguageGraph, question_id: str) -> PlainQuestion:
        """A question's plain text, made once for a language's term pages: every term the
        question uses looks for itself in it."""
        text_lang = lg.edition.questions[question_id]
        return self._plain_questions.get(
            lg.edition.language,
            question_id,
            lambda: PlainQuestion.of(self.parts.plain_stem(question_id, text_lang), explanation_text(self.content_html.questions[(question_id, text_lang)].explanation)),
        )

    def _key_question(self, lg: LanguageGraph, question_id: str, term_id: str) -> QuestionBody:
        """The question as the term page shows it, behind a reveal: its answer and explanation
        with their terms linked, the term itself left unlinked."""
        body = self.parts.question_body(lg, question_id, linked=False)
        text_lang = lg.edition.questions[question_id]
        explanation, *right = self.parts.linked((body.explanation, *(body.text.choices[index] for index in body.right)), text_lang, skip=term_id)
        choices = list(body.text.choices)
        for index, html in zip(body.right, right, strict=True):
            choices[index] = html
        return replace(body, text=replace(body.text, explanation=explanation, choices=tuple(choices)))

    def _cut_link(self, lg: LanguageGraph, question_id: str) -> Link:
        """The link to a question with its stem cut, made once for a language's term pages:
        each question is listed on the page of every term it uses."""

        def cut() -> Link:
            whole = self.parts.question_link(lg, question_id)
            return Link(whole.path, cut_stem(whole.label), whole.lang, whole.dir)

        return self._cut_links.get(lg.edition.language, question_id, cut)

    def _quoted(self, lg: LanguageGraph, question_id: str, sentence: str) -> Text:
        """The sentence a question is quoted by on a term page (its white space single
        spaces already: PlainQuestion), cut when long."""
        text_lang = lg.edition.questions[question_id]
        shown = sentence if len(sentence) <= SENTENCE_EXCERPT else excerpt(sentence, SENTENCE_EXCERPT)
        return Text(Markup.escape(shown), *self.parts.language_of(text_lang, lg.edition.language))
