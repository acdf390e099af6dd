"""Studysite's shipped UI catalogs: complete, with their placeholders and CLDR plural forms,
and a site's own catalog overriding them message by message."""

import shutil

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from conftest import ROOT, run_cli

from studysite.diagnostics import Report
from studysite.i18n.catalogs import extract_from
from studysite.i18n.ui_catalogs import catalog_path, is_translated, load_layered_translations
from studysite.languages import parse_locale

SHIPPED = sorted(ROOT.glob("locales/*/LC_MESSAGES/messages.po"))


def language_of(path) -> str:
    return path.parent.parent.name.replace("_", "-")


@pytest.fixture(scope="module")
def template():
    return extract_from([ROOT / "templates"])


def test_studysite_ships_catalogs():
    assert {"nl", "fr"} <= {language_of(path) for path in SHIPPED}


@pytest.mark.parametrize("path", SHIPPED, ids=language_of)
def test_shipped_catalog_translates_every_message_with_its_placeholders(path, template):
    language = language_of(path)
    with path.open("rb") as file:
        catalog = read_po(file, locale=parse_locale(language), abort_invalid=True)
    missing = [m.id for m in template if m.id and (catalog.get(m.id, m.context) is None or not is_translated(catalog.get(m.id, m.context)))]
    assert missing == [], f"{language}: untranslated or fuzzy messages"
    problems = [f"{message.id!r}: {'; '.join(map(str, errors))}" for message, errors in catalog.check()]
    assert problems == [], f"{language}: Babel's checkers (placeholders, plural forms)"


@pytest.mark.parametrize("path", SHIPPED, ids=language_of)
def test_shipped_catalog_has_the_plural_forms_of_its_locale(path):
    language = language_of(path)
    with path.open("rb") as file:
        catalog = read_po(file, locale=parse_locale(language))
    expected = get_plural(parse_locale(language))
    assert catalog.num_plurals == expected.num_plurals, f"{language}: Plural-Forms says {catalog.num_plurals} forms, the locale has {expected.num_plurals}"
    for message in catalog:
        if message.pluralizable and message.id:
            assert len(message.string) == expected.num_plurals and all(message.string), f"{language}: {message.id[0]!r}"


def test_a_site_catalog_overrides_the_shipped_one_message_by_message(tmp_path):
    site_catalog = catalog_path(tmp_path / "locales", "fr")
    site_catalog.parent.mkdir(parents=True)
    site_catalog.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Glossary"\nmsgstr "Lexique"\n\n#, fuzzy\nmsgid "Home"\nmsgstr "Maison"\n\nmsgid "Search"\nmsgstr ""\n',
        encoding="utf-8",
    )
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert translations.gettext("Glossary") == "Lexique"  # the site's own
    assert translations.gettext("Home") == "Accueil" and translations.gettext("Search") == "Rechercher"  # fuzzy or empty: shipped
    assert translations.ngettext("%(num)s topic", "%(num)s topics", 2) % {"num": 2} == "2 thèmes"  # the shipped plural forms
    assert report.diagnostics == []


def test_init_starts_from_the_shipped_catalog(make_content):
    content = make_content()
    shutil.copytree(ROOT / "templates", content.parent / "templates")
    result = run_cli("i18n", "init", "fr", "--content", content)
    assert result.status == 0, result.err
    assert "shipped translations" in result.out
    with catalog_path(content.parent / "locales", "fr").open("rb") as file:
        catalog = read_po(file)
    assert catalog["Glossary"].string == "Glossaire" and not catalog["Glossary"].fuzzy
