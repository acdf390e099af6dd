"""UI translations and locale data.

Catalogs are the .po files under locales/<lang>/LC_MESSAGES/, read at build time with
Babel. Language names, plural rules, text direction and numbers come from Babel's CLDR data
with the locale passed explicitly every time.
"""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from studysite.diagnostics import Diagnostic, Location, Report
from studysite.i18n import po_check

DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
SHIPPED_LOCALES = Path(__file__).resolve().parents[2] / "locales"  # Studysite's own UI catalogs


def catalog_path(locales_dir: Path, language: str) -> Path:
    return locales_dir / language.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str) -> Catalog:
    """A UI catalog as the build uses it (its mistakes, which the build reports, left out)."""
    return read_checked_catalog(path, language, Report()) or Catalog(locale=parse_locale(language), domain=DOMAIN)


def read_checked_catalog(path: Path, language: str, report: Report) -> Catalog | None:
    """A UI catalog, every mistake in it a located error (po_check.py): None when its syntax
    or its Plural-Forms is wrong; a translation whose placeholders are wrong is left out,
    so that the page shows the next catalog's translation or the English message instead.
    A build reads each twice (with the content, then to render): the second time is taken
    from the first, by the file's bytes."""
    key = (shown_path(path), language, hashlib.sha256(path.read_bytes()).hexdigest())
    if key not in _CHECKED:
        if len(_CHECKED) >= 64:  # a long `serve` session: the catalogs of its latest edits
            _CHECKED.clear()
        told = Report()
        _CHECKED[key] = (_checked_catalog(path, language, told), tuple(told.diagnostics))
    catalog, diagnostics = _CHECKED[key]
    for diagnostic in diagnostics:
        report.error(diagnostic.location, diagnostic.code, diagnostic.message, diagnostic.hint, source=diagnostic.source_line)
    return catalog


_CHECKED: dict[tuple[str, str, str], tuple[Catalog | None, tuple[Diagnostic, ...]]] = {}  # (path, language, digest) -> what reading it gave


def _checked_catalog(path: Path, language: str, report: Report) -> Catalog | None:
    shown = shown_path(path)
    checked = po_check.read_po_file(path, parse_locale(language), shown, report, "i18n.catalog-syntax")
    if checked is None:
        return None
    catalog, layout, lines = checked.catalog, checked.layout, checked.lines
    placeholders, controls = po_check.placeholder_problems(catalog, layout, checked.rule, lines), po_check.control_problems(catalog, layout, lines)
    for code, found in (("i18n.placeholders", placeholders), ("i18n.control-character", controls)):
        for message, problem in list(found):  # each generator reads the catalog once the one before is done
            po_check.report_problems(report, shown, lines, [problem], code)
            catalog.delete(message.id, message.context)
    return catalog


def load_translations(locales_dir: Path, language: str, report: Report) -> NullTranslations:
    """The UI translations of one locales/ folder; English msgids (with a warning) when it has none."""
    return load_layered_translations([locales_dir], language, report)


def load_layered_translations(folders: list[Path], language: str, report: Report) -> NullTranslations:
    """The UI translations of a language from layered locales/ folders, the first winning
    message by message (a site's own catalog over Studysite's shipped one); English
    msgids, with a warning, when no folder has the language."""
    paths = [catalog_path(folder, language) for folder in folders if catalog_path(folder, language).is_file()]
    if not paths:
        if not language.startswith(SOURCE_LANGUAGE):
            report.warning(
                Location(shown_path(catalog_path(folders[0], language))),
                "i18n.catalog-missing",
                f"no UI translations for '{language}': its pages use English UI text",
                f"run 'python build.py i18n init {language}' and translate the new .po file",
            )
        return NullTranslations()
    catalogs = [catalog for catalog in (read_checked_catalog(path, language, report) for path in paths) if catalog is not None]
    if not catalogs:
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, merge_catalogs(catalogs))  # fuzzy entries are left out, as gettext does
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def check_catalogs(folders: list[Path], languages: tuple[str, ...], report: Report) -> None:
    """The mistakes of every UI catalog a build of these languages reads, reported with the
    content's (the build reads them again, and the report keeps each diagnostic once)."""
    for language in filter(is_valid_language, languages):
        for folder in folders:
            if catalog_path(folder, language).is_file():
                read_checked_catalog(catalog_path(folder, language), language, report)


def is_translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and not message.fuzzy and all(strings)


def merge_catalogs(catalogs: list[Catalog]) -> Catalog:
    """One catalog from several: the first's headers (its plural forms), and for each
    message the first translation of it that is complete and not fuzzy."""
    merged = Catalog(locale=catalogs[0].locale, domain=DOMAIN, fuzzy=False)
    merged.mime_headers = catalogs[0].mime_headers
    for catalog in reversed(catalogs):
        for message in catalog:
            current = merged.get(message.id, message.context) if message.id else None
            if message.id and (current is None or is_translated(message)):
                merged.delete(message.id, message.context)  # setting an existing message would merge the two
                merged[message.id] = message
    return merged


def shown_path(path: Path) -> str:
    """A path as a user would type it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def is_valid_language(code: str) -> bool:
    try:
        parse_locale(code)
    except (UnknownLocaleError, ValueError, TypeError):
        return False
    return True


@functools.cache  # records, pages and numbers ask for the same few languages over and over
def parse_locale(language: str) -> Locale:
    return Locale.parse(language, sep="-")


@functools.cache
def language_name(language: str, in_language: str) -> str:
    """The name of a language as written in another ("japonais" in French)."""
    return parse_locale(language).get_display_name(parse_locale(in_language)) or language


@functools.cache
def autonym(language: str) -> str:
    """A language's name in itself, capitalised as a menu item ("Français")."""
    name = language_name(language, language)
    return name[:1].upper() + name[1:]


@functools.cache
def text_direction(language: str) -> str:
    return "rtl" if parse_locale(language).character_order == "right-to-left" else "ltr"


def format_number(number: int, language: str) -> str:
    return format_decimal(number, locale=parse_locale(language))
