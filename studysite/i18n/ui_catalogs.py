"""UI translations: the catalogs of the templates' messages.

Catalogs are the .po files under locales/<lang>/LC_MESSAGES/, read at build time with
Babel; a site's own catalog of a language overrides Studysite's shipped one message by
message (languages.py has the locale data)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

from studysite.diagnostics import Location, Report
from studysite.fileio import shown_path
from studysite.i18n import po_check
from studysite.languages import is_valid_language, locale_file, parse_locale, with_parents
from studysite.shipped import shipped_folder

DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
SHIPPED_LOCALES = shipped_folder("locales")  # Studysite's own UI catalogs


def catalog_path(locales_dir: Path, language: str) -> Path:
    return locale_file(locales_dir, language, DOMAIN)


def catalogs_of(folders: list[Path], language: str) -> list[tuple[Path, str]]:
    """(path, language) of each UI catalog a language reads, the first winning message by
    message: the language's own in each folder, then (as gettext falls back) its parent's,
    so that pt-BR or de-CH have Studysite's pt or de messages where no catalog has theirs."""
    return [(catalog_path(folder, code), code) for code in with_parents(language) for folder in folders if os.path.lexists(catalog_path(folder, code))]


def read_catalog(path: Path, language: str) -> Catalog:
    """A UI catalog as the build uses it (its mistakes, which the build reports, left out)."""
    return read_checked_catalog(path, language, Report()) or Catalog(locale=parse_locale(language), domain=DOMAIN)


def read_checked_catalog(path: Path, language: str, report: Report) -> Catalog | None:
    """A UI catalog, every mistake in it a located error (po_check.py): None when its syntax
    or its Plural-Forms is wrong; a duplicate entry is an error, of which Babel keeps one; a translation whose placeholders are wrong, or that adds
    markup (po_check.markup_problems), is left out,
    so that the page shows the next catalog's translation or the English message instead.
    A build reads each twice (with the content, then to render): the report keeps each
    diagnostic once."""
    shown = shown_path(path)
    checked = po_check.read_po_file(path, parse_locale(language), shown, report, "i18n.catalog-syntax")
    if checked is None:
        return None
    catalog, layout, lines = checked.catalog, checked.layout, checked.lines
    placeholders, controls = po_check.placeholder_problems(catalog, layout, checked.rule, lines), po_check.control_problems(catalog, layout, lines)
    markup = po_check.markup_problems(catalog, layout, lines)
    for code, found in (("i18n.placeholders", placeholders), ("i18n.control-character", controls), ("i18n.markup", markup)):
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
    paths = catalogs_of(folders, language)
    if not paths:
        if not language.startswith(SOURCE_LANGUAGE):
            report.warning(
                Location(shown_path(catalog_path(folders[0], language))),
                "i18n.catalog-missing",
                f"no UI translations for '{language}': its pages use English UI text",
                f"run 'python build.py i18n init {language}' and translate the new .po file",
            )
        return NullTranslations()
    catalogs = [catalog for catalog in (read_checked_catalog(path, code, report) for path, code in paths) if catalog is not None]
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
        for path, code in catalogs_of(folders, language):
            read_checked_catalog(path, code, report)


def is_translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and not message.fuzzy and all(strings)


def merge_catalogs(catalogs: list[Catalog]) -> Catalog:
    """One catalog from several: the first's headers (its plural forms), and for each
    message the first translation of it that is complete and not fuzzy."""
    merged = Catalog(locale=catalogs[0].locale, domain=DOMAIN, fuzzy=False)
    merged.mime_headers = catalogs[0].mime_headers
    merged.charset = "utf-8"  # the first may be in Latin-1; the others' messages are not
    for catalog in reversed(catalogs):
        for message in catalog:
            current = merged.get(message.id, message.context) if message.id else None
            if message.id and (current is None or is_translated(message)):
                merged.delete(message.id, message.context)  # setting an existing message would merge the two
                merged[message.id] = message
    return merged
