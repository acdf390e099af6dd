"""Content in locale files: records translated in PO files, the way Sphinx translates documents.

`locales/content.pot` has one entry per translatable field of every record: its msgid is the
default language's text of the field, its msgctxt names the record and the field
(`questions/gpu-role:choices.2`, see docs/content.md). A language's
`locales/<lang>/LC_MESSAGES/content.po` translates them. At build time a record with no YAML
block for a language takes that language's text from content.po when every field of it has a
current translation. An entry is *outdated* when its source changed after it was translated:
it is fuzzy (`i18n update` marked it so) or its msgid is no longer the source text. Outdated
and incomplete translations are not used; the record falls back as an untranslated one. An
entry whose msgctxt names no field of the content (a record removed, a typing mistake) is
not used either, and warned about; `i18n update` makes it obsolete.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import unescape

from studysite.content.fields import Table, texts_of
from studysite.content.records import FIELD_OF_KIND, KINDS, Content, Record
from studysite.content.schema import KIND_OF_FOLDER
from studysite.diagnostics import Location, Report, did_you_mean
from studysite.fileio import shown_path
from studysite.i18n import po_check
from studysite.languages import is_valid_language, locale_file, parse_locale

DOMAIN = "content"
TEMPLATE_FILE = f"{DOMAIN}.pot"
JOINED = " | "  # how the items of a joined field (accepted answers) are written as one entry
@dataclass(frozen=True)
class Entry:
    """One translation read from a content.po."""

    source: str  # the msgid: the source text it was translated from
    text: str  # the msgstr, NFC and stripped as YAML text is
    fuzzy: bool
    line: int


@dataclass(frozen=True)
class ContentCatalog:
    language: str
    path: Path
    entries: Mapping[str, Entry]  # msgctxt -> entry
    unnamed: tuple[int, ...] = ()  # the lines of entries without a msgctxt, which name no field

    def translates(self, kind: str, record_id: str) -> bool:
        """True when any field of the record has a translation, current or not."""
        prefix = f"{kind}/{record_id}:"
        return any(context.startswith(prefix) and entry.text for context, entry in self.entries.items())


@dataclass(frozen=True)
class Coverage:
    """What content.po did for a language: records it translated, and those left outdated."""

    translated: frozenset[tuple[str, str]] = frozenset()
    outdated: Mapping[tuple[str, str], str] = dataclasses.field(default_factory=dict)  # (kind, id) -> "path:line"


def noun(kind: str) -> str:
    return KIND_OF_FOLDER[kind].noun


def po_path(locales_dir: Path, language: str) -> Path:
    return locale_file(locales_dir, language, DOMAIN)


def records_of(content: Content) -> list[tuple[str, Record]]:
    """Every record with its kind, in a stable order: by kind, then by id."""
    return [(kind, content.records(kind)[record_id]) for kind in KINDS for record_id in sorted(content.records(kind))]


def block_table(kind: str, record: Record) -> Table:
    """The table of a record's language blocks (its type's, for a question)."""
    return KIND_OF_FOLDER[kind].block_table(record)


def text_fields(table: Table, text) -> list[tuple[str, str]]:
    """(field, text) for every translatable text of a language block, in reading order (the
    schema's): a list's items one by one ("choices.2"), a joined field's as one entry
    ("accept": "6 | zes", each language listing as many as it has). Other spellings
    (aliases) are left out: they are a language's own, not translations."""
    fields, joined = [], set()
    for path, field, value in texts_of(table, text):
        if not field.translatable:
            continue
        if field.joined:
            if field.name not in joined:
                joined.add(field.name)
                fields.append((field.name, JOINED.join(getattr(text, field.name))))
        else:
            fields.append((path, value))
    return fields


def build_text(table: Table, source, translated: Mapping[str, str], prefix: str = ""):
    """A language block made of translated texts, shaped like the source block; what is not
    translated (other spellings, a language's own files) is left at its default."""
    values = {}
    for field in table.fields:
        value = getattr(source, field.name)
        if field.shape.rows is not None:
            value = tuple(build_text(field.shape.rows, row, translated, f"{prefix}{field.name}.{number}.") for number, row in enumerate(value, 1))
        elif not field.translatable:
            value = field.default
        elif field.joined:
            value = tuple(part.strip() for part in translated[prefix + field.name].split("|") if part.strip())
        else:
            value = _translated(prefix + field.name, value, translated)
        values[field.name] = value
    return table.build(values)


def _translated(path: str, value, translated: Mapping[str, str]):
    """A text, or a list or pairs of them, each replaced by its translation (texts_of's paths)."""
    if isinstance(value, str):
        return translated[path] if value else value
    return tuple(_translated(f"{path}.{number}", item, translated) for number, item in enumerate(value, 1))


def describe_field(table: Table, path: str) -> str:
    """A translator's note on a field: what it is and how it is written: "choice B (inline
    Markdown)", "aspects row 1, label (plain text)", "accept (plain text; ...)"."""
    name, *rest = path.split(".")
    field = table.field(name)
    if field is None or field.shape.rows is not None and len(rest) < 2:
        return path
    if field.shape.rows is not None:
        return f"{name} row {rest[0]}, {describe_field(field.shape.rows, '.'.join(rest[1:]))}"
    words = f"{name.removesuffix('s')} {chr(ord('A') + int(rest[0]) - 1)}" if field.lettered and len(rest) == 1 else " ".join((name, *rest))
    how = f"{field.text.value}; alternatives separated by '{JOINED.strip()}'" if field.joined else field.text.value
    return f"{words} ({how})"


def context_of(kind: str, record_id: str, field: str) -> str:
    return f"{kind}/{record_id}:{field}"


def make_template(content: Content, creation_date) -> Catalog:
    """content.pot: every translatable field of every record, in the default language."""
    default = content.site.default_language
    catalog = Catalog(project="Studysite content", domain=DOMAIN, creation_date=creation_date, revision_date=creation_date, fuzzy=False)
    for kind, record in records_of(content):
        text = record.texts.get(default)
        if text is None:
            continue
        table = block_table(kind, record)
        for field, source in text_fields(table, text):
            comments = [f"{noun(kind)} {record.id}, {describe_field(table, field)}"]
            message = catalog.add(source, None, [(f"content/{record.location.path}", None)], auto_comments=comments, context=context_of(kind, record.id, field))
            message.flags.discard("python-format")  # content is not a format string, whatever its % signs
    return catalog


def read_content_catalog(path: Path, language: str, report: Report) -> ContentCatalog | None:
    """A content.po; a syntax error (po_check.py) is a located error and gives None."""
    checked = po_check.read_po_file(path, parse_locale(language), shown_path(path), report, "content-po.syntax")
    if checked is None:
        return None
    catalog, shown = checked.catalog, shown_path(path)
    for message, problem in list(po_check.control_problems(catalog, checked.layout, checked.lines)):
        po_check.report_problems(report, shown, checked.lines, [problem], "content-po.control-character")
        catalog.delete(message.id, message.context)
    entries, unnamed = {}, []
    for message in catalog:
        if message.id and message.context and isinstance(message.id, str) and isinstance(message.string, str):
            text = unicodedata.normalize("NFC", message.string.strip())
            entries[message.context] = Entry(unicodedata.normalize("NFC", message.id.strip()), text, message.fuzzy, message.lineno or 1)
        elif message.id and not message.context:
            unnamed.append(message.lineno or 1)
    return ContentCatalog(language, path, entries, tuple(unnamed))


def read_content_catalogs(locales_dir: Path, report: Report) -> dict[str, ContentCatalog]:
    """Every language's content.po under a locales/ folder."""
    found = {}
    for path in sorted(locales_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        language = path.parent.parent.name.replace("_", "-")
        if not is_valid_language(language):
            report.warning(Location(shown_path(path)), "content-po.unused-language", f"'{language}' is not a valid language code: this file is not used")
            continue
        catalog = read_content_catalog(path, language, report)
        if catalog is not None:
            found[language] = catalog
    return found


def site_catalogs(catalogs: Mapping[str, ContentCatalog], languages: tuple[str, ...], report: Report) -> dict[str, ContentCatalog]:
    """The content catalogs of the site languages but the default; one for any other
    language is a warning (it is not used)."""
    used = {}
    for language, catalog in catalogs.items():
        if language in languages[1:]:
            used[language] = catalog
            continue
        is_default = bool(languages) and language == languages[0]
        reason = "the default language, the one content.po files translate from" if is_default else "not a site language"
        hint = "" if is_default else f"add '{language}' to 'languages:' in content/site.yaml"
        report.warning(
            Location(shown_path(catalog.path)), "content-po.unused-language", f"content translations for '{language}' are not used: it is {reason}", hint
        )
    return used


def supplied(catalogs: Mapping[str, ContentCatalog]) -> set[tuple[str, str, str]]:
    """(kind, id, language) of every record a content.po translates, at least in part."""
    result = set()
    for language, catalog in catalogs.items():
        for context, entry in catalog.entries.items():
            kind, _, rest = context.partition("/")
            record_id = rest.partition(":")[0]
            if entry.text and kind in KINDS:
                result.add((kind, record_id, language))
    return result


def apply_translations(content: Content, catalogs: Mapping[str, ContentCatalog], report: Report) -> tuple[Content, dict[str, Coverage]]:
    """The content with the records content.po translates in full and up to date; per
    language, what it translated and what it left outdated (with a warning). Entries that
    name no field of the content are warned about (warn_unknown)."""
    default = content.site.default_language
    added: dict[tuple[str, str], dict[str, object]] = {}
    coverage = {}
    known = known_contexts(content)
    for language, catalog in catalogs.items():
        warn_unknown(content, catalog, known, report)
        translated, outdated = set(), {}
        for kind, record in records_of(content):
            if language in record.texts or default not in record.texts or not catalog.translates(kind, record.id):
                continue
            text, stale = _translate(kind, record, record.texts[default], catalog)
            if stale is not None:
                where = f"{shown_path(catalog.path)}:{stale.line}"
                outdated[(kind, record.id)] = where
                report.warning(
                    Location(shown_path(catalog.path), stale.line, 1),
                    "content-po.outdated",
                    f"the '{language}' translation of {noun(kind)} '{record.id}' is outdated: its {default} text changed",
                    "run 'python build.py i18n update', then review the fuzzy entries in a PO editor",
                )
            elif text is not None:
                translated.add((kind, record.id))
                added.setdefault((kind, record.id), {})[language] = text
            else:
                texts = text_fields(block_table(kind, record), record.texts[default])
                untranslated = [field for field, _ in texts if not _text_of(catalog, kind, record.id, field)]
                report.warning(
                    Location(shown_path(catalog.path), _first_line(catalog, kind, record.id), 1),
                    "content-po.incomplete",
                    f"the '{language}' translation of {noun(kind)} '{record.id}' is incomplete: it is not used",
                    f"translate every entry whose msgctxt starts with {context_of(kind, record.id, '')} (untranslated: {', '.join(untranslated)})",
                )
        coverage[language] = Coverage(frozenset(translated), outdated)
    return _with_texts(content, added), coverage


def _text_of(catalog: ContentCatalog, kind: str, record_id: str, field: str) -> str:
    """The translation content.po has of a field; '' when it has none."""
    entry = catalog.entries.get(context_of(kind, record_id, field))
    return entry.text if entry is not None else ""


def _first_line(catalog: ContentCatalog, kind: str, record_id: str) -> int:
    """The line of a record's first entry in content.po (a record it translates has one)."""
    prefix = context_of(kind, record_id, "")
    return min((entry.line for context, entry in catalog.entries.items() if context.startswith(prefix)), default=0)


def known_contexts(content: Content) -> set[str]:
    """The msgctxt of every field content.pot has: each translatable field of each record's
    text in the default language."""
    default = content.site.default_language
    return {
        context_of(kind, record.id, field)
        for kind, record in records_of(content)
        if default in record.texts
        for field, _ in text_fields(block_table(kind, record), record.texts[default])
    }


GUESSED = 20  # the unknown entries given the closest msgctxt (after many records were removed, guessing for all is slow)


def _alike(content: Content, context: str, known: set[str]) -> list[str]:
    """The msgctxts an unknown one may have meant: its record's fields when the record
    exists, else the contexts of its kind with the same field (comparing with every field
    of a large site would take a second a guess)."""
    kind, record_id, field = _parts(context)
    if kind in KINDS and record_id in content.records(kind):
        return [known_context for known_context in known if known_context.startswith(context_of(kind, record_id, ""))]
    return [known_context for known_context in known if known_context.startswith(kind + "/") and known_context.endswith(":" + (field or ""))]


def warn_unknown(content: Content, catalog: ContentCatalog, known: set[str], report: Report) -> None:
    """A warning at each entry of content.po that names no field of the content (known,
    its contexts): it is not used, and a translator would not know. `i18n update` makes
    such entries obsolete (#~), which Babel does not read as entries."""
    shown = shown_path(catalog.path)
    for line in catalog.unnamed:
        hint = "content.po entries are named by a msgctxt such as questions/<id>:question; give it one, or run 'python build.py i18n update', which removes it"
        report.warning(Location(shown, line, 1), "content-po.unknown", "the entry has no msgctxt: it names no field of the content", hint)
    unknown = sorted(((context, entry) for context, entry in catalog.entries.items() if context not in known), key=lambda item: item[1].line)
    for number, (context, entry) in enumerate(unknown):
        guess = did_you_mean(context, _alike(content, context, known)) if number < GUESSED else ""
        fix = "correct the msgctxt, or run 'python build.py i18n update', which marks the entries that name no field obsolete (#~)"
        hint = f"{guess} {fix[0].upper()}{fix[1:]}" if guess else fix
        report.warning(
            Location(shown, entry.line, 1),
            "content-po.unknown",
            f"the msgctxt '{context}' names no field of the content: {_why_unknown(content, context)}",
            hint,
        )


def _parts(context: str) -> tuple[str, str, str | None]:
    """The kind, record id and field a msgctxt names (context_of's inverse); field None
    when it has no ':'."""
    kind, _, rest = context.partition("/")
    record_id, colon, field = rest.partition(":")
    return kind, record_id, field if colon else None


def _why_unknown(content: Content, context: str) -> str:
    """Why a msgctxt names no field: it is not <kind>/<id>:<field>, or there is no such record,
    or the record has no such field in the default language."""
    kind, record_id, field = _parts(context)
    if kind not in KINDS or not record_id or field is None:
        return "it is not written <kind>/<id>:<field>"
    if record_id not in content.records(kind):
        return f"there is no {noun(kind)} '{record_id}'"
    return f"{noun(kind)} '{record_id}' has no field '{field}' in '{content.site.default_language}'"


def _translate(kind: str, record: Record, source, catalog: ContentCatalog):
    """(text, None) when every field has a current translation; (None, entry) for the first
    outdated entry; (None, None) when a field is untranslated."""
    table = block_table(kind, record)
    fields, translated = text_fields(table, source), {}
    for field, text in fields:
        entry = catalog.entries.get(context_of(kind, record.id, field))
        if entry is None or not entry.text:
            continue
        if entry.fuzzy or entry.source != text:
            return None, entry
        translated[field] = entry.text
    if len(translated) < len(fields):
        return None, None
    return build_text(table, source, translated), None


def _with_texts(content: Content, added: Mapping[tuple[str, str], Mapping[str, object]]) -> Content:
    if not added:
        return content
    changes = {}
    for kind, attribute in FIELD_OF_KIND.items():
        records = getattr(content, attribute)
        changes[attribute] = {
            record_id: dataclasses.replace(record, texts={**record.texts, **added[(kind, record_id)]}) if (kind, record_id) in added else record
            for record_id, record in records.items()
        }
    return dataclasses.replace(content, **changes)


def update_catalog(catalog: Catalog, template: Catalog) -> Catalog:
    """A language's content catalog refreshed from content.pot, entry by entry (matched by
    msgctxt, never by similar text): translations are kept; one whose source changed is
    fuzzy, with the old source as its previous msgid; entries of records gone are obsolete,
    and stay so from update to update; an obsolete entry whose record is back is used again."""
    old = {**_by_context(catalog.obsolete.values()), **_by_context(catalog)}  # a current entry wins over an obsolete one
    fresh = Catalog(locale=catalog.locale, domain=DOMAIN, fuzzy=False)
    fresh.mime_headers = catalog.mime_headers
    for message in template:
        if not message.id:
            continue
        previous = old.pop(message.context, None)
        string = previous.string if previous is not None else ""
        flags, previous_id = set(message.flags), ()
        if previous is not None and string and (previous.fuzzy or previous.id != message.id):
            flags.add("fuzzy")
            previous_id = previous.id if previous.id != message.id else previous.previous_id
        fresh.add(
            message.id,
            string,
            message.locations,
            flags=flags,
            auto_comments=message.auto_comments,
            user_comments=previous.user_comments if previous is not None else (),
            previous_id=previous_id,
            context=message.context,
        )
    for context, message in old.items():
        fresh.obsolete[(message.id, context)] = _as_obsolete(message)
    return fresh


def _by_context(messages) -> dict[str, Message]:
    """Messages by their msgctxt, each with the previous msgid its `#|` lines keep."""
    return {message.context: _with_previous_id(message) for message in messages if message.id and message.context}


def _with_previous_id(message: Message) -> Message:
    """The message with the source of its `#| msgid` lines as its previous_id: Babel reads
    those lines as a translator's comment, which written back would lose the source."""
    marked = [comment[1:].strip() for comment in message.user_comments if comment.startswith("|")]
    if not marked:
        return message
    own = [comment for comment in message.user_comments if not comment.startswith("|")]
    return _message(message, message.id, own, _previous_source(marked) or message.previous_id)


def _previous_source(lines: list[str]) -> str:
    """The msgid that `#|` lines (`msgid "..."`, then `"..."` continuing it) write."""
    source, keyword = "", ""
    for line in lines:
        if not line.startswith('"'):
            keyword, _, line = line.partition(" ")
        if keyword == "msgid" and line.startswith('"'):
            source += unescape(line)
    return source


def _as_obsolete(message: Message) -> Message:
    """An entry of a record gone, as `#~` lines keep it. They hold no flag: a fuzzy entry
    keeps the source it was translated from as its msgid, so that its translation reads as
    outdated, not as current, if the record comes back."""
    if not message.fuzzy or not message.previous_id:
        return message
    source = message.previous_id if isinstance(message.previous_id, str) else message.previous_id[0]
    return _message(message, source, list(message.user_comments), ())


def _message(message: Message, msgid: str, user_comments: list[str], previous_id) -> Message:
    """A copy of a message with another msgid, translator's comments or previous msgid."""
    return Message(msgid, message.string, message.locations, message.flags, message.auto_comments, user_comments, previous_id, message.lineno, message.context)
