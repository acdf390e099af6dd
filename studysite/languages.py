"""Languages: codes checked and read as locales, and what Babel's CLDR data says of them
(names, direction, numbers), with the locale passed explicitly every time."""

from __future__ import annotations

import functools
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal


def locale_file(locales_dir: Path, language: str, domain: str) -> Path:
    """A language's catalog of a gettext domain ('messages', the interface; 'content') in a
    locales/ folder, as gettext lays them out (zh-Hans in zh_Hans/)."""
    return locales_dir / language.replace("-", "_") / "LC_MESSAGES" / f"{domain}.po"


def with_parents(language: str) -> list[str]:
    """A language and the ones gettext falls back to, most specific first: 'pt-BR', 'pt';
    'zh-Hant-TW', 'zh-Hant', 'zh'."""
    parts = language.split("-")
    return ["-".join(parts[:count]) for count in range(len(parts), 0, -1)]


def is_valid_language(code: str) -> bool:
    return canonical_language(code) is not None


def canonical_language(code: str) -> str | None:
    """The code as BCP 47 writes it ('nl', 'pt-BR', 'zh-Hans'), or None when it names no
    language Babel knows: nor 'root' or 'und', which Babel reads as none and as English."""
    try:
        locale = parse_locale(code)
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    if locale.language == "root" or locale.language != code.split("-")[0].lower():
        return None
    return str(locale).replace("_", "-")


def language_problem(code: str) -> tuple[str, str | None] | None:
    """What is wrong with a language code, and how it is written (None when it names no
    language); None when nothing is. A code written other than as BCP 47 writes it ('NL',
    'pt-br') is wrong: a site's languages, its blocks and its catalogs are matched as written."""
    canonical = canonical_language(code)
    if canonical is None:
        return f"'{code}' is not a valid language code", None
    return (f"the language code '{code}' is written '{canonical}'", canonical) if canonical != code else None


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
