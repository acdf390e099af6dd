"""The records' texts as HTML: every Markdown field of every record, in every site language
it is written in, converted by text/markup.py (in shares by forked processes, for a large
site or many new texts), kept by record id and language."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite.content.fields import Field, Text, texts_of, with_texts
from studysite.content.records import KINDS, ComparisonText, Content, QuestionText, TermText, TopicText
from studysite.content.schema import KIND_OF_FOLDER, QUESTIONS
from studysite.diagnostics import Report
from studysite.languages import locale_file
from studysite.memo import NO_MEMO, Memo, Recorded, replay
from studysite.text.markup import MarkdownConverter, TooManyMisses
from studysite.workers import can_fork, share_out_work


@dataclass(frozen=True)
class ContentHtml:
    """Every content text as HTML, keyed by (record id, language of the text): each record's
    text shaped as its text is (a QuestionText, a TopicText...), its Markdown and inline
    fields as sanitised HTML, its plain ones as they are (the schema says which is which)."""

    questions: Mapping[tuple[str, str], QuestionText]
    topics: Mapping[tuple[str, str], TopicText]
    terms: Mapping[tuple[str, str], TermText]
    comparisons: Mapping[tuple[str, str], ComparisonText]
    site: Mapping[str, str]  # the site's description, by language

    def question_fragments(self, question_id: str, language: str) -> tuple[str, ...]:
        """The HTML texts of a question in the order its terms are linked: the schema's
        order (stem, explanation, then its type's fields: choices, feedback, items...)."""
        question = self.questions[(question_id, language)]
        return tuple(text for _, field, text in texts_of(QUESTIONS.any_block, question) if field.text is not Text.PLAIN)


MISSES_DONE_HERE = 64  # a rebuild's few new texts are converted in this process; more, by forked processes
RECORDS_WORTH_SHARING = 500  # a site of fewer records has them converted in this process, unless many texts are new


def convert_texts(content: Content, report: Report | None = None, memo: Memo = NO_MEMO, jobs: int = 1) -> ContentHtml:
    """The text of every record, in every site language it is written in, as sanitised HTML;
    problems in the text go to the report (without one, TeX that cannot be converted raises).
    With a report and jobs > 1, the records are converted in jobs shares by as many
    processes when there are RECORDS_WORTH_SHARING of them, or when more than
    MISSES_DONE_HERE of their texts are not in the memo."""
    if not can_fork(jobs) or report is None:
        return _convert_texts(MarkdownConverter(report, memo), content)
    if content.count() < RECORDS_WORTH_SHARING:
        told = len(report.diagnostics)
        try:
            return _convert_texts(MarkdownConverter(report, memo, misses_allowed=MISSES_DONE_HERE), content)
        except TooManyMisses:
            del report.diagnostics[told:]  # told again by the shares
    return _convert_in_shares(content, report, memo, jobs)


def _convert_in_shares(content: Content, report: Report, memo: Memo, jobs: int) -> ContentHtml:
    """The texts converted by jobs processes, each a share of every kind of record, in
    content order; what each told and did with its memo comes back with its HTML."""
    done = share_out_work(
        [functools.partial(_convert_share, share, report.strict, report.source_root, memo, number == 0) for number, share in enumerate(_shares(content, jobs))]
    )
    for _, told, news in done:
        report.diagnostics.extend(told)
        replay(memo, news)
    parts = [html for html, _, _ in done]
    return ContentHtml(
        questions={key: html for part in parts for key, html in part.questions.items()},
        topics={key: html for part in parts for key, html in part.topics.items()},
        terms={key: html for part in parts for key, html in part.terms.items()},
        comparisons={key: html for part in parts for key, html in part.comparisons.items()},
        site=parts[0].site,
    )


def _shares(content: Content, count: int) -> list[Content]:
    """The content in count parts of about the same size, each with a run of each kind of record."""

    def part(records: Mapping[str, object], number: int) -> dict:
        items, size = list(records.items()), -(-len(records) // count)
        return dict(items[number * size : (number + 1) * size])

    return [Content.of_kinds(content.site, {kind: part(content.records(kind), number) for kind in KINDS}) for number in range(count)]


def _convert_share(content: Content, strict: bool, source_root: Path | None, memo: Memo, with_site: bool):
    """A share's HTML (with the site's description in the first), what it told, and its
    use of the memo (perhaps in a forked process, whose memo is its own copy)."""
    report, recorded = Report(strict=strict, source_root=source_root), Recorded(memo)
    html = _convert_texts(MarkdownConverter(report, recorded), content, with_site)
    return html, report.diagnostics, recorded.news()


def _convert_texts(markup: MarkdownConverter, content: Content, with_site: bool = True) -> ContentHtml:
    languages = set(content.site.languages)

    root = markup.report.source_root if markup.report is not None else None  # the content folder, beside locales/ (pipeline.Options.site_root)
    translations = {lang: locale_file(root.parent / "locales", lang, "content") if root is not None else None for lang in languages}
    converters = {Text.INLINE: markup.inline, Text.MARKDOWN: markup.block}

    def html(path: str, field: Field, text: str) -> str:
        convert = converters.get(field.text)
        return convert(text) if convert is not None else text

    def converted(kind: str) -> dict[tuple[str, str], object]:
        schema, texts = KIND_OF_FOLDER[kind], {}
        for record in content.records(kind).values():
            markup.source = record.location.path
            table = schema.block_table(record)
            for lang, text in record.texts.items():
                if lang in languages:
                    markup.translation = translations[lang]  # where a problem is looked for when the record's file has not its text
                    texts[(record.id, lang)] = with_texts(table, text, html)
        return texts

    return ContentHtml(
        questions=converted("questions"),
        topics=converted("topics"),
        terms=converted("glossary"),
        comparisons=converted("comparisons"),
        site=_site_descriptions(markup, content) if with_site else {},
    )


def _site_descriptions(markup: MarkdownConverter, content: Content) -> dict[str, str]:
    markup.source, markup.translation = "site.yaml", None
    return {lang: markup.inline(t.description) for lang, t in content.site.texts.items() if t.description}
