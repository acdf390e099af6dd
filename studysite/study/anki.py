"""Anki: one deck package (.apkg) per site language, made with genanki.

A language's deck is "<site title>" with a sub-deck per topic ("<site title>::<topic
title>") holding its questions, and one for the glossary's terms. A typed question's note
uses Anki's type-in field, on a note type of its own; one with a blank in its stem is a
Cloze note, the answer in the blank's place; every other type is Basic with the answer in
words, as its page gives it. Fields hold the same
sanitised HTML as the pages (without the links to term pages, which would lead nowhere
in Anki). Model, deck and note ids and note GUIDs are derived from the site's URL, the
language and the record id, so importing a newer deck updates the notes it imported
before. A note's time is its record file's modification time (or SOURCE_DATE_EPOCH).
Anki shows fields and names as HTML, and content is untrusted: plain text (titles, term
names) is escaped, the fields' HTML loads nothing from elsewhere (an image of the site's
own media is shipped in the deck's media and named by its file alone; any other becomes
its text alternative), a link to another page of the site leads to it on the site (an
absolute URL), audio is Anki's [sound:file], and deck and note type names hold no markup characters.

This module plans each deck (DeckPlan); study/apkg.py makes its package, and
incremental/decks.py has the packages made for a build.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jinja2

from studysite import urls
from studysite.content.graph import Edition, LanguageGraph, build_edition, topic_questions
from studysite.content.html import ContentHtml
from studysite.content.media import MediaFile
from studysite.content.records import Content
from studysite.languages import language_name
from studysite.study.apkg import DeckNote, DeckPlan, ModelPlan, load_genanki

CARD_TEMPLATES = "anki/cards.html"
UNTRANSLATED_TAG = "untranslated"
DECK_SUFFIX = ".apkg"
DECK_SLUG_LIMIT = 64  # characters of the title in a package's file name: with the language, far below any file system's limit
QUESTION_FIELDS = ("Stem", "Choices", "Answer", "Explanation", "Topic", "Link")  # Basic, with the answer in words
TYPED_FIELDS = ("Stem", "Answer", "Also accepted", "Explanation", "Topic", "Link")  # Anki's type-in field: {{type:Answer}}
CLOZE_FIELDS = ("Text", "Also accepted", "Explanation", "Topic", "Link")  # a typed question's stem with {{c1::answer}} in its blank
BLANK = "___"  # a typed question's blank in its stem (SPEC: question types)


def deck_path(title: str, language: str) -> str:
    """Where a language's package is written: next to its downloads page."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower())[:DECK_SLUG_LIMIT].strip("-") or "deck"
    return f"{urls.downloads(language)}{slug}-{language}{DECK_SUFFIX}"


def text_field(text: str) -> str:
    """Plain text (a title, a term's name) as a field's HTML: shown as written, never as markup."""
    return html.escape(text, quote=False)


_IMAGE = re.compile(r"<img\b[^>]*>")  # nh3 and the MathML serialiser write < and > in attribute values as entities
_ALT = re.compile(r'\salt="([^"]*)"')
_OWN_MEDIA = re.compile(r'(\ssrc=")' + re.escape(urls.RECORD_PAGE.site_file("media/")) + r'([^"/]+)"')
_PAGE_LINK = re.compile(r'(<a\s[^>]*?href=")' + re.escape(urls.RECORD_PAGE.language_root) + r'(?!\.\./)([^"]*)"')


def offline_html(fragment: str, language_url: str = "") -> str:
    """A field's HTML (the pages' sanitised HTML, made for a record page) as a card shows
    it: an image of the site's media names its file in the deck's media; any other image
    becomes its text alternative (Anki would fetch it from wherever its src points each time
    the card shows); a link to a page of the site leads to it under language_url (the
    absolute URL of the language's root)."""
    if "<img" in fragment:
        fragment = _IMAGE.sub(_image_in_deck, fragment)
    if language_url and "<a" in fragment:
        fragment = _PAGE_LINK.sub(lambda m: m.group(1) + html.escape(language_url + html.unescape(m.group(2))) + '"', fragment)
    return fragment


_DATA_ATTRIBUTE = re.compile(r"""\sdata-[\w-]+(?:="[^"]*"|='[^']*')?""")


def card_html(fragment: str, language_url: str = "") -> str:
    """A page's part as a card field: as offline_html makes it, and without the data-
    attributes the page's scripts read (what the browser judges an answer by)."""
    return _DATA_ATTRIBUTE.sub("", offline_html(fragment, language_url))


def _image_in_deck(image: re.Match) -> str:
    own = _OWN_MEDIA.search(image.group(0))
    if own is not None:
        return _OWN_MEDIA.sub(r"\1\2" + '"', image.group(0))
    alt = _ALT.search(image.group(0))
    return html.escape(html.unescape(alt.group(1)), quote=False) if alt else ""


_DECK_MEDIA = re.compile(r'<img\b[^>]*?\ssrc="([^"/]+)"')


def media_named(fields: tuple[str, ...]) -> set[str]:
    """The names of the deck's media files that fields show."""
    return {html.unescape(name) for field in fields if "<img" in field for name in _DECK_MEDIA.findall(field)}


def _with_sound(field: str, media: MediaFile | None) -> str:
    """A field with Anki's mark that plays a file of the deck's media after it, when there is one."""
    return f"{field} [sound:{media.name}]" if media is not None else field


_NAME_MARKUP = str.maketrans({"<": "\u2039", ">": "\u203a"})  # ‹ ›: read as text, whatever reads the name as HTML


def anki_name(text: str) -> str:
    """A deck's or a note type's name from a title: one line of text with no markup
    characters, and no "::" (which would nest a deck in another)."""
    printable = "".join(character if character.isprintable() else " " for character in text)
    return " ".join(re.sub(r":{2,}", ":", printable.translate(_NAME_MARKUP)).split()) or "-"


@dataclass(frozen=True)
class DeckSummary:
    """What the downloads page says of a language's Anki deck."""

    path: str
    questions: int
    terms: int
    topics: int


def deck_summary(lg: LanguageGraph, title: str) -> DeckSummary:
    """What the downloads page says of a language's deck: where it is (named from the site's
    title in that language) and what it holds."""
    topics = sum(1 for topic_id in lg.edition.topics if lg.questions_by_topic[topic_id])
    path = deck_path(title, lg.edition.language)
    return DeckSummary(path, questions=len(lg.edition.questions), terms=len(lg.edition.terms), topics=topics)


@dataclass(frozen=True)
class DeckSource:
    """What every language's deck is made from."""

    content: Content
    content_html: ContentHtml
    modified: Callable[[str], int]  # content file path -> modification time in seconds
    question_body: Callable[[str, str, str], object]  # (question id, language of its text, deck's language) -> its view (pages/record_parts.py)
    made_from: str = ""  # what the notes' fields depend on besides the records: the code, its libraries, the templates
    media_root: Path | str = ""  # the content folder, which the media files are read from

    def site_title(self, language: str) -> str:
        texts = self.content.site.texts
        text = texts.get(language) or texts.get(self.content.site.default_language)
        return text.title if text else "Studysite"


# How a question's Choices and Answer fields and GUID are had: (question id, what they are
# made of, how to make them) -> them; made anew by default, a rebuild takes them back
# from a memo when they were made of the same (incremental/decks.py's NoteMemo).
QuestionParts = Callable[[str, tuple[str, ...], Callable[[], tuple[str, str, str]]], tuple[str, str, str]]


def made_anew(question_id: str, made_of: tuple[str, ...], make: Callable[[], tuple[str, str, str]]) -> tuple[str, str, str]:
    return make()


def plan_deck(source: DeckSource, language: str, environment: jinja2.Environment, question_parts: QuestionParts = made_anew) -> DeckPlan:
    """The notes, sub-decks and note types of one language's deck: the records its site
    edition shows (graph.build_edition); question_parts: how each question's are had."""
    content, edition = source.content, build_edition(source.content, language)
    site, title = content.site, anki_name(source.site_title(language))
    cards = environment.get_template(CARD_TEMPLATES).module
    term_language = site.term_language
    term_fields = ("Term", term_field_name(term_language), "Definition")
    models = {
        "question": ModelPlan(f"{title} ({language})", QUESTION_FIELDS, str(cards.question_front()), str(cards.question_back()), str(cards.css())),
        "typed": ModelPlan(
            f"{title}: {anki_name(str(cards.typed_name()))} ({language})", TYPED_FIELDS, str(cards.typed_front()), str(cards.typed_back()), str(cards.css())
        ),
        "cloze": ModelPlan(
            f"{title}: {anki_name(str(cards.cloze_name()))} ({language})", CLOZE_FIELDS, str(cards.cloze_front()), str(cards.cloze_back()), str(cards.css()), True
        ),
        "term": ModelPlan(
            f"{title}: {anki_name(str(cards.glossary()))} ({language})",
            term_fields,
            str(cards.term_front()),
            str(cards.term_back(term_fields[1], language_name(term_language, language) if term_language else "")),
            str(cards.css()),
        ),
    }
    glossary = f"{title}::{anki_name(str(cards.glossary()))}"
    notes = [*question_notes(source, edition, title, environment, question_parts), *term_notes(source, edition, glossary)]
    decks = (title, *dict.fromkeys(note.deck for note in notes))
    path = deck_path(source.site_title(language), language)
    return DeckPlan(language, path, site.base_url, models, decks, tuple(notes), source.made_from, deck_media(source, notes), str(source.media_root))


def deck_media(source: DeckSource, notes: list[DeckNote]) -> tuple[tuple[str, str], ...]:
    """(name, file in the content folder) of each media file the notes show or play."""
    by_name = {media.name: media.source for media in source.content_html.published_media().values()}
    names = {name for note in notes for name in media_named(note.fields)}
    names |= {name for note in notes for field in note.fields if "[sound:" in field for name in _SOUND.findall(field)}
    return tuple(sorted((name, by_name[name]) for name in names if name in by_name))


_SOUND = re.compile(r"\[sound:([^\]]+)\]")


def term_field_name(term_language: str) -> str:
    """The name of the field holding a term's name in the site's term_language ("Japanese name")."""
    return f"{language_name(term_language, 'en')} name" if term_language else "Other name"


def question_notes(source: DeckSource, edition: Edition, title: str, environment: jinja2.Environment, question_parts: QuestionParts) -> list[DeckNote]:
    """A note per question, its Choices field what follows the stem on its page (choices,
    items, pairs) and its Answer field the page's answer in words, both made by the
    question type's template part (templates/questions/<type>.html)."""
    content, language, notes, guid_for = source.content, edition.language, [], load_genanki().guid_for
    base_url, by_topic = content.site.base_url, topic_questions(content, edition)
    language_url = urls.absolute(base_url, urls.home(language))

    def made(question_id: str, shown: str) -> tuple[str, str, str]:
        question = source.question_body(question_id, shown, language)
        part = environment.get_template(f"questions/{question.type}.html").module
        body, answer = card_html(str(part.body(question, "")), language_url), card_html(str(part.answer(question, "")), language_url)
        return body, answer, guid_for(base_url, language, "question", question_id)

    also_accepted = environment.get_template(CARD_TEMPLATES).module.word_list
    for topic_id, text_lang in edition.topics.items():
        topic_title = content.topics[topic_id].texts[text_lang].title
        deck, topic_field = f"{title}::{anki_name(topic_title)}", text_field(topic_title)
        for question_id in by_topic[topic_id]:
            question, shown = content.questions[question_id], edition.questions[question_id]
            texts = source.content_html.questions[(question_id, shown)]
            link = html.escape(urls.absolute(base_url, urls.record("questions", language, question_id)))  # an attribute's value
            about = (offline_html(texts.explanation, language_url), topic_field, link)
            stem = _with_sound(offline_html(texts.question, language_url), source.content_html.audio.get(("questions", question_id, shown)))
            if question.type == "typed":
                accept = question.texts[shown].accept
                others = str(also_accepted(accept[1:])) if len(accept) > 1 else ""
                guid = guid_for(base_url, language, "question", question_id)
                if BLANK in stem:
                    model, fields = "cloze", (cloze_text(stem, accept[0]), others, *about)
                else:
                    model, fields = "typed", (stem, text_field(accept[0]), others, *about)
            else:
                made_of = (question.type, str(question.answer), shown, *source.content_html.question_fragments(question_id, shown))
                choices, answer, guid = question_parts(question_id, made_of, functools.partial(made, question_id, shown))
                model, fields = "question", (stem, choices, answer, *about)
            tags = (UNTRANSLATED_TAG,) if shown != language else ()
            notes.append(DeckNote(model, deck, guid, fields, tags, source.modified(question.location.path)))
    return notes


_CLOZE_MARKUP = str.maketrans({"{": "&#123;", "}": "&#125;", ":": "&#58;"})


def cloze_text(stem: str, answer: str) -> str:
    """A typed question's stem (HTML) as a Cloze note's text: its answer in the place of its
    blank, as {{c1::answer}}. The answer is text, and neither it nor the stem can open or
    close a cloze of its own: their braces (and the answer's colons, which end a cloze's
    answer) are written as character references, which Anki shows and compares as they are."""
    before, _, after = stem.partition(BLANK)
    hidden = html.escape(answer, quote=False).translate(_CLOZE_MARKUP)
    return f"{_no_cloze(before)}{{{{c1::{hidden}}}}}{_no_cloze(after)}"


def _no_cloze(html_text: str) -> str:
    return html_text.replace("{{", "{&#123;").replace("}}", "}&#125;")


def term_notes(source: DeckSource, edition: Edition, deck: str) -> list[DeckNote]:
    content, language, notes, guid_for = source.content, edition.language, [], load_genanki().guid_for
    term_language, language_url = content.site.term_language, urls.absolute(content.site.base_url, urls.home(language))
    for term_id, shown in sorted(edition.terms.items(), key=lambda item: content.terms[item[0]].texts[item[1]].term.casefold()):
        term = content.terms[term_id]
        other = term.texts[term_language].term if term_language in term.texts and term_language != language else ""
        name = _with_sound(text_field(term.texts[shown].term), source.content_html.audio.get(("glossary", term_id, shown)))
        fields = (name, text_field(other), offline_html(source.content_html.terms[(term_id, shown)].definition, language_url))
        tags = (UNTRANSLATED_TAG,) if shown != language else ()
        guid = guid_for(content.site.base_url, language, "term", term_id)
        notes.append(DeckNote("term", deck, guid, fields, tags, source.modified(term.location.path)))
    return notes
