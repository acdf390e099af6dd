"""Export: the questions of one language as a question bank (Moodle XML, GIFT, QTI 2.1).

The site is read and checked as a build reads it (content.po translations included); a
site with errors exports nothing. Each question with a text in the language becomes a bank
question (bank.py): its texts converted to HTML by the build's Markdown converter, math
kept as TeX, its images resolved to their files (media.py). A format's writer makes the
file's bytes; a question or a part a format cannot hold is left out with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studysite.content.fields import Text, texts_of, with_texts
from studysite.content.records import Content, Question
from studysite.content.schema import QUESTIONS
from studysite.content.validate import content_of
from studysite.diagnostics import ContentError, Report, plural
from studysite.exchange import gift, moodle, qti
from studysite.exchange.bank import Bank, BankQuestion, BankTopic, sources_in
from studysite.exchange.importing import UsageError
from studysite.exchange.media import image_files
from studysite.exchange.texts import text_to_html
from studysite.fileio import shown_path, write_whole
from studysite.i18n import content_po
from studysite.i18n.ui_catalogs import load_layered_translations
from studysite.incremental.readings import read_content_files
from studysite.options import Options
from studysite.text.markup import MarkdownConverter

WRITERS = {"moodle": moodle.write_moodle, "gift": gift.write_gift, "qti": qti.write_qti}
FORMAT_NAMES = {"moodle": "Moodle XML", "gift": "GIFT", "qti": "QTI 2.1"}


@dataclass(frozen=True)
class ExportOptions:
    format: str
    content_dir: Path = Path("content")
    language: str = ""
    out: Path = Path("questions.xml")


@dataclass(frozen=True)
class ExportResult:
    options: ExportOptions
    exported: int
    untranslated: int  # questions without a text in the language: left out
    report: Report

    def summary(self) -> str:
        left = f"; {plural(self.untranslated, 'question')} without '{self.language}' text left out" if self.untranslated else ""
        return (
            f"Exported {plural(self.exported, 'question')} in '{self.language}' as {FORMAT_NAMES[self.options.format]} to {shown_path(self.options.out)}{left}."
        )

    @property
    def language(self) -> str:
        return self.options.language


def export_bank(options: ExportOptions) -> ExportResult:
    """Write the bank; raises ContentError when the site has errors, UsageError for options
    that cannot be followed."""
    content = read_content(options.content_dir)
    language = options.language or content.site.default_language
    if language not in content.site.languages:
        raise UsageError(f"--lang '{language}' is not one of the site's languages ({', '.join(content.site.languages)})")
    options = ExportOptions(options.format, options.content_dir, language, options.out)
    report = Report()
    bank, untranslated = make_bank(content, language, options.content_dir, report)
    data = WRITERS[options.format](bank, report)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    write_whole(options.out, lambda file: file.write(data))
    return ExportResult(options, len(bank.questions()), untranslated, report)


def read_content(content_dir: Path) -> Content:
    """The site's records, with what content.po translates, as a build reads them."""
    report = Report()
    site, readings = read_content_files(content_dir, report)
    catalogs = content_po.read_content_catalogs(content_dir.resolve().parent / "locales", report)
    content = content_of(site, readings, report, frozenset(content_po.supplied(catalogs)))
    report.raise_if_errors()
    if content is None:
        raise ContentError(report.sorted())
    content, _ = content_po.apply_translations(content, content_po.site_catalogs(catalogs, content.site.languages, report), report)
    report.raise_if_errors()
    return content


def make_bank(content: Content, language: str, content_dir: Path, report: Report) -> tuple[Bank, int]:
    """The questions with a text in the language, by topic in the site's order; and how many have none."""
    markup = MarkdownConverter(Report(source_root=content_dir))
    by_topic: dict[str, list[Question]] = {}
    for question in content.questions.values():
        by_topic.setdefault(question.topic, []).append(question)
    topics, untranslated = [], 0
    for topic in sorted(content.topics.values(), key=lambda t: (t.order, t.id)):
        questions = sorted(by_topic.get(topic.id, ()), key=lambda q: (q.order, q.location.path))
        untranslated += sum(language not in q.texts for q in questions)
        items = tuple(bank_question(q, language, markup, content_dir) for q in questions if language in q.texts)
        text = topic.texts.get(language) or topic.texts.get(content.site.default_language)
        title = text.title if text else topic.id
        description = text_to_html(markup, text.description, Text.MARKDOWN) if text and text.description else ""
        if items:
            topics.append((BankTopic(topic.id, title, description), items))
    site_text = content.site.texts.get(language) or content.site.texts.get(content.site.default_language)
    return Bank(language, site_text.title if site_text else "", tuple(topics), true_false(content_dir, language)), untranslated


def true_false(content_dir: Path, language: str) -> tuple[str, str]:
    """ "True" and "False" in the language, as the site's pages say them."""
    translations = load_layered_translations(Options(content_dir=content_dir).layered("locales"), language, Report())
    return translations.gettext("True"), translations.gettext("False")


def bank_question(question: Question, language: str, markup: MarkdownConverter, content_dir: Path) -> BankQuestion:
    """A question of the bank: its texts in the language, as written and as HTML, and the
    image files that HTML shows."""
    markup.source = question.location.path
    table = QUESTIONS.block_table(question)
    text = question.texts[language]
    html = with_texts(table, text, lambda path, field, value: text_to_html(markup, value, field.text))
    sources = [source for _, _, value in texts_of(table, html) for source in sources_in(value)]
    return BankQuestion(question, text, html, image_files(sources, question.location.path, content_dir))
