"""The records' texts as HTML: every Markdown field of every record, in every site language
it is written in, converted by text/markup.py, kept by record id and language; with the media files each text
shows (its images, its audio: content/media.py) and the files of the site's theme."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from studysite import urls
from studysite.content.fields import Field, Text, texts_of, with_texts
from studysite.content.media import MediaFile, MediaLibrary, theme_files
from studysite.content.records import KINDS, ComparisonText, Content, QuestionText, TermText, TopicText
from studysite.content.schema import KIND_OF_FOLDER, QUESTIONS
from studysite.diagnostics import Report
from studysite.languages import locale_file
from studysite.memo import NO_MEMO, Memo
from studysite.text.markup import MarkdownConverter
from studysite.text.site_links import Targets

SITE_TEXT = ("site", "")  # the (kind, id) of the site's description among the texts' media


@dataclass(frozen=True)
class ContentHtml:
    """Every content text as HTML, keyed by (record id, language of the text): each record's
    text shaped as its text is (a QuestionText, a TopicText...), its Markdown and inline
    fields as sanitised HTML, its plain ones as they are (the schema says which is which);
    and the media files the texts show."""

    questions: Mapping[tuple[str, str], QuestionText]
    topics: Mapping[tuple[str, str], TopicText]
    terms: Mapping[tuple[str, str], TermText]
    comparisons: Mapping[tuple[str, str], ComparisonText]
    site: Mapping[str, str]  # the site's description, by language
    media: Mapping[tuple[str, str, str], tuple[MediaFile, ...]] = field(default_factory=dict)  # (kind, id, language) -> what its text shows
    audio: Mapping[tuple[str, str, str], MediaFile] = field(default_factory=dict)  # (kind, id, language) -> a question's or term's audio
    theme: Mapping[str, MediaFile] = field(default_factory=dict)  # the theme's files by role (content/media.py theme_files)

    def published_media(self) -> dict[str, MediaFile]:
        """Every media file the site publishes, by its published path."""
        files = {media.path: media for shown in self.media.values() for media in shown}
        return files | {media.path: media for role, media in self.theme.items() if role != "app-icon"}

    def question_fragments(self, question_id: str, language: str) -> tuple[str, ...]:
        """The HTML texts of a question in the order its terms are linked: the schema's
        order (stem, explanation, then its type's fields: choices, feedback, items...)."""
        question = self.questions[(question_id, language)]
        return tuple(text for _, field, text in texts_of(QUESTIONS.any_block, question) if field.text is not Text.PLAIN)


def convert_texts(content: Content, report: Report | None = None, memo: Memo = NO_MEMO, targets: Targets | None = None, with_site: bool = True) -> ContentHtml:
    """The text of every record, in every site language it is written in, as sanitised HTML;
    problems in the text go to the report (without one, TeX that cannot be converted raises,
    and images keep their URLs). memo: the HTML of texts converted before, by their text;
    targets: the ids of every record, which links may name (by default the content's);
    with_site: the site's description and theme too."""
    targets = targets if targets is not None else {kind: content.records(kind).keys() for kind in KINDS}
    root = report.source_root if report is not None else None  # the content folder
    media = MediaLibrary(root) if root is not None else None
    markup = MarkdownConverter(report, memo, media, {kind: frozenset(ids) for kind, ids in targets.items()})
    return _convert_texts(markup, content, with_site)


def _convert_texts(markup: MarkdownConverter, content: Content, with_site: bool = True) -> ContentHtml:
    languages = set(content.site.languages)

    root = markup.report.source_root if markup.report is not None else None  # the content folder, beside locales/ (options.Options.site_root)
    translations = {lang: locale_file(root.parent / "locales", lang, "content") if root is not None else None for lang in languages}
    converters = {Text.INLINE: markup.inline, Text.MARKDOWN: markup.block}
    media: dict[tuple[str, str, str], tuple[MediaFile, ...]] = {}
    audio: dict[tuple[str, str, str], MediaFile] = {}

    def html(path: str, field: Field, text: str) -> str:
        convert = converters.get(field.text)
        return convert(text) if convert is not None else text

    def converted(kind: str) -> dict[tuple[str, str], object]:
        """Each record's text in each site language, converted; the media files it shows kept."""
        schema, texts = KIND_OF_FOLDER[kind], {}
        for record in content.records(kind).values():
            markup.source = record.location.path
            table = schema.block_table(record)
            for lang, text in record.texts.items():
                if lang in languages:
                    markup.translation = translations[lang]  # where a problem is looked for when the record's file has not its text
                    markup.used = []
                    if sound := markup.audio(getattr(text, "audio", "")):
                        audio[(kind, record.id, lang)] = sound
                    texts[(record.id, lang)] = with_texts(table, text, html)
                    if markup.used:
                        media[(kind, record.id, lang)] = tuple(dict.fromkeys(markup.used))
        return texts

    return ContentHtml(
        questions=converted("questions"),
        topics=converted("topics"),
        terms=converted("glossary"),
        comparisons=converted("comparisons"),
        site=_site_descriptions(markup, content, media) if with_site else {},
        media=media,
        audio=audio,
        theme=theme_files(content.site.theme, markup.media, markup.report) if with_site and markup.media and markup.report else {},
    )


def _site_descriptions(markup: MarkdownConverter, content: Content, media: dict) -> dict[str, str]:
    """The site's description in each language, its links made from the language's home
    page (urls.LANGUAGE_HOME), the one page that shows it."""
    markup.source, markup.translation, markup.place = "site.yaml", None, urls.LANGUAGE_HOME
    descriptions = {}
    for lang, text in content.site.texts.items():
        if text.description:
            markup.used = []
            descriptions[lang] = markup.inline(text.description)
            if markup.used:
                media[(*SITE_TEXT, lang)] = tuple(dict.fromkeys(markup.used))
    markup.place = urls.RECORD_PAGE
    return descriptions
