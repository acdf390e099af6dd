"""UI translations and locale data.

Catalogs are the .po files under locales/<lang>/LC_MESSAGES/, read at build time with
Babel. Language names, plural rules, text direction and numbers come from Babel's CLDR data
with the locale passed explicitly every time.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from .diagnostics import Location, Report

DOMAIN = "messages"
SOURCE_LANGUAGE = "en"


def catalog_path(locales_dir: Path, language: str) -> Path:
    return locales_dir / language.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str):
    with path.open("rb") as file:
        return read_po(file, locale=parse_locale(language), abort_invalid=True)


def load_translations(locales_dir: Path, language: str, report: Report) -> NullTranslations:
    """The UI translations of a language; English msgids (with a warning) when it has none."""
    path = catalog_path(locales_dir, language)
    if not path.is_file():
        if not language.startswith(SOURCE_LANGUAGE):
            report.warning(
                Location(shown_path(path)),
                "i18n.catalog-missing",
                f"no UI translations for '{language}': its pages use English UI text",
                f"run 'python build.py i18n init {language}' and translate the new .po file",
            )
        return NullTranslations()
    try:
        catalog = read_catalog(path, language)
    except (PoFileError, UnicodeDecodeError, ValueError) as error:
        report.error(Location(shown_path(path)), "i18n.catalog-invalid", f"cannot read the catalog: {error}")
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries are left out, as gettext does
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


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


def parse_locale(language: str) -> Locale:
    return Locale.parse(language, sep="-")


def language_name(language: str, in_language: str) -> str:
    """The name of a language as written in another ("japonais" in French)."""
    return parse_locale(language).get_display_name(parse_locale(in_language)) or language


def autonym(language: str) -> str:
    """A language's name in itself, capitalised as a menu item ("Français")."""
    name = language_name(language, language)
    return name[:1].upper() + name[1:]


def text_direction(language: str) -> str:
    return "rtl" if parse_locale(language).character_order == "right-to-left" else "ltr"


def format_number(number: int, language: str) -> str:
    return format_decimal(number, locale=parse_locale(language))
