"""The translators' gettext workflow over templates/: extract, update, init (with Babel)."""

from __future__ import annotations

import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, catalog_path, is_valid_language, parse_locale

TEMPLATE_FILE = f"{DOMAIN}.pot"
METHOD_MAP = [("**.html", "jinja2.ext:babel_extract"), ("**.xml", "jinja2.ext:babel_extract")]
OPTIONS_MAP = {"**": {"extensions": "jinja2.ext.i18n", "trimmed": "true", "newstyle_gettext": "true"}}
# A fixed date keeps the catalogs' headers from changing on every run.
EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


class CatalogError(Exception):
    pass


def extract(site_root: Path) -> Catalog:
    """Every UI message of the site's templates, with the places it is used."""
    templates = site_root / "templates"
    if not templates.is_dir():
        raise CatalogError(f"no templates/ folder in '{site_root}'")
    return extract_from([templates])


def extract_from(template_dirs: list[Path]) -> Catalog:
    """Every UI message of the templates in these folders."""
    catalog = Catalog(project="Studysite", domain=DOMAIN, creation_date=EPOCH, fuzzy=False)
    for templates in template_dirs:
        for filename, lineno, message, comments, context in extract_from_dir(templates, METHOD_MAP, OPTIONS_MAP):
            catalog.add(message, None, [(f"templates/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, sort_output=True, ignore_obsolete=True)


def _read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=parse_locale(language) if language else None)


def run(action: str, site_root: Path, language: str | None) -> str:
    locales = site_root / "locales"
    template = extract(site_root)
    if action == "extract":
        _write(template, locales / TEMPLATE_FILE)
        return f"Extracted {len(template)} messages to {locales / TEMPLATE_FILE}."
    if action == "init":
        return init(locales, template, language or "")
    return update(locales, template)


def init(locales: Path, template: Catalog, language: str) -> str:
    if not is_valid_language(language):
        raise CatalogError(f"'{language}' is not a valid language code")
    path = catalog_path(locales, language)
    if path.exists():
        raise CatalogError(f"{path} exists already; run 'python build.py i18n update' to bring it up to date")
    catalog = Catalog(locale=parse_locale(language), domain=DOMAIN, project="Studysite", creation_date=EPOCH, revision_date=EPOCH, fuzzy=False)
    catalog.update(template)
    _write(catalog, path)
    return f"Created {path}: translate its {len(catalog)} messages, then add '{language}' to 'languages:' in content/site.yaml."


def update(locales: Path, template: Catalog) -> str:
    updated = []
    for path in sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        language = path.parent.parent.name.replace("_", "-")
        catalog = _read(path, language)
        catalog.update(template)
        _write(catalog, path)
        updated.append(language)
    _write(template, locales / TEMPLATE_FILE)
    return f"Updated {len(updated)} catalogs ({', '.join(updated) or 'none'}) from {len(template)} messages."
