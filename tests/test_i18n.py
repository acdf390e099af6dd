"""UI translations: catalogs read from .po files, CLDR data from Babel, the gettext workflow."""

import shutil

import jinja2
import pytest
from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import get_group_symbol
from conftest import ROOT, run_cli
from markupsafe import Markup

from studysite.diagnostics import Report
from studysite.i18n.ui_catalogs import load_translations
from studysite.languages import autonym, format_number, is_valid_language, language_name, text_direction


def test_language_names_and_direction_come_from_cldr():
    # CLDR's names as Babel gives them, not as one release spells them; autonyms capitalised
    def cldr(code: str, in_language: str) -> str:
        return Locale.parse(code, sep="-").get_display_name(Locale.parse(in_language, sep="-"))

    assert autonym("fr") == cldr("fr", "fr")[:1].upper() + cldr("fr", "fr")[1:] and autonym("pt-BR").startswith("Portugu")
    assert language_name("ja", "fr") == cldr("ja", "fr") != language_name("ja", "nl") == cldr("ja", "nl")
    assert text_direction("ar") == "rtl" and text_direction("he") == "rtl" and text_direction("de") == "ltr"
    # grouping as CLDR says for each locale (French's separator changed between CLDR releases)
    assert format_number(12345, "fr") == f"12{get_group_symbol('fr')}345" != f"12{get_group_symbol('en')}345"
    assert format_number(12345, "nl") == f"12{get_group_symbol('nl')}345"
    assert is_valid_language("pt-BR") and not is_valid_language("xx-yy") and not is_valid_language("../x")


def test_catalogs_are_read_from_po_files_with_cldr_plural_rules():
    fr = load_translations(ROOT / "locales", "fr", Report())
    assert fr.gettext("Glossary") == "Glossaire"
    assert fr.ngettext("%(num)s topic", "%(num)s topics", 0) % {"num": 0} == "0 thème"  # French: 0 is singular
    nl = load_translations(ROOT / "locales", "nl", Report())
    assert nl.ngettext("%(num)s topic", "%(num)s topics", 0) % {"num": 0} == "0 onderwerpen"


def test_missing_catalog_is_a_warning_and_english_is_used(tmp_path):
    report = Report()
    translations = load_translations(tmp_path, "de", report)
    assert translations.gettext("Glossary") == "Glossary"
    assert [d.code for d in report.warnings] == ["i18n.catalog-missing"]
    assert load_translations(tmp_path, "en-GB", Report()).gettext("Glossary") == "Glossary"


def test_init_extract_and_update(tmp_path, make_content):
    content = make_content()
    shutil.copytree(ROOT / "templates", content.parent / "templates")
    result = run_cli("i18n", "init", "hr", "--content", content)
    assert result.status == 0, result.err
    po = content.parent / "locales/hr/LC_MESSAGES/messages.po"
    catalog = read_po(po.open("rb"))
    assert catalog.num_plurals == 3 and "Glossary" in catalog  # Croatian (no shipped catalog): one, few, other
    assert run_cli("i18n", "init", "hr", "--content", content).status == 2  # exists already
    assert run_cli("i18n", "init", "xx-yy", "--content", content).status == 2
    text = po.read_text(encoding="utf-8").replace('msgid "Glossary"\nmsgstr ""', 'msgid "Glossary"\nmsgstr "Pojmovnik"')
    po.write_text(text, encoding="utf-8")
    template = content.parent / "templates/parts/menu.html"
    template.write_text(
        template.read_text(encoding="utf-8").replace("{% trans %}Glossary{% endtrans %}", "{% trans %}Glossary of terms{% endtrans %}"), encoding="utf-8"
    )
    assert run_cli("i18n", "update", "--content", content).status == 0
    updated = read_po(po.open("rb"))
    assert updated["Glossary of terms"].fuzzy and updated["Glossary of terms"].string == "Pojmovnik"
    assert (content.parent / "locales/messages.pot").is_file()
    assert run_cli("i18n", "extract", "--content", content).out.startswith("Extracted ")


def test_update_keeps_the_translation_of_a_message_removed_from_the_templates(make_content):
    content = make_content()
    shutil.copytree(ROOT / "templates", content.parent / "templates")
    home = content.parent / "templates/home.html"
    original = home.read_text(encoding="utf-8")
    with_message = original.replace("{% endblock %}", "<p>{% trans %}Study a little every day{% endtrans %}</p>{% endblock %}", 1)
    home.write_text(with_message, encoding="utf-8")  # a message of the site's own templates
    assert run_cli("i18n", "init", "hr", "--content", content).status == 0
    po = content.parent / "locales/hr/LC_MESSAGES/messages.po"
    translated = 'msgid "Study a little every day"\nmsgstr "Uči malo svaki dan"'
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Study a little every day"\nmsgstr ""', translated), encoding="utf-8")
    home.write_text(original, encoding="utf-8")
    for _ in range(2):  # kept from update to update
        assert run_cli("i18n", "update", "--content", content).status == 0
        catalog = read_po(po.open("rb"))
        kept = [message.string for message in catalog.obsolete.values() if message.id == "Study a little every day"]
        assert "Study a little every day" not in catalog and kept == ["Uči malo svaki dan"]
    assert run_cli("check", "--content", content).status == 0
    home.write_text(with_message, encoding="utf-8")  # the message comes back, and its translation with it
    assert run_cli("i18n", "update", "--content", content).status == 0
    message = read_po(po.open("rb"))["Study a little every day"]
    assert message.string == "Uči malo svaki dan" and not message.fuzzy


def test_site_builds_with_a_new_language_from_init(tmp_path, make_content):
    content = make_content(
        **{"site.yaml": "languages: [nl, pl]\nnl: {title: S}\npl: {title: S}\n", "topics/basics.yaml": "nl: {title: T}\npl: {title: Podstawy}\n"}
    )
    shutil.copytree(ROOT / "templates", content.parent / "templates")
    assert run_cli("i18n", "init", "pl", "--content", content).status == 0
    result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 0 and "catalog-missing" not in result.err
    assert '<html lang="pl" dir="ltr">' in (tmp_path / "site/pl/index.html").read_text(encoding="utf-8")


def test_trans_blocks_are_translated_at_compile_time_and_escape_their_values():
    """A {% trans %} block compiles to its translation; its variables are still escaped."""
    from babel.support import Translations

    from studysite.render.environment import make_environment

    class Dutch(Translations):
        def gettext(self, message):
            return {"Menu": "Menu (nl)", "Hello %(name)s, 100%%": "Hallo %(name)s, 100%%"}.get(message, message)

        def pgettext(self, context, message):
            return self.gettext(message)

    environment = make_environment([], Dutch(), "nl")
    template = environment.from_string("{% trans %}Menu{% endtrans %}|{% trans name=who %}Hello {{ name }}, 100%{% endtrans %}")
    assert template.render(who="<b>") == "Menu (nl)|Hallo &lt;b&gt;, 100%"
    compiled = environment.compile("{% trans %}Menu{% endtrans %}", raw=True)
    assert "gettext" not in compiled and "Menu (nl)" in compiled


@pytest.mark.parametrize(
    ("translation", "in_pieces"),
    [
        ("Hallo %(name)s en %(other)s, 100%%", True),
        ("%(other)s%(name)s", True),
        ("%(name)s, nog eens %(name)s, en %(other)s", False),  # a variable used twice: put in by %
        ("Hallo %(name)s", False),  # one left out: put in by % (which still evaluates it)
        ("Hallo %(name)r en %(other)s", False),  # another format: put in by %
    ],
)
def test_trans_variables_read_as_jinja_puts_them_in(translation, in_pieces):
    """However a {% trans %} block with variables compiles (its pieces written as {{ }}
    writes them, or the format string and %), the page reads as Jinja's own gettext makes it."""
    from babel.support import NullTranslations

    from studysite.render.environment import make_environment

    class Dutch(NullTranslations):
        def gettext(self, message):
            return translation

        ugettext = gettext  # what Jinja's own gettext asks for

    source = "<p>{% trans name=who, other=what %}Hello {{ name }} and {{ other }}{% endtrans %}</p>"
    values = {"who": "<b>&", "what": Markup("<i>ok</i>")}
    jinjas = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    jinjas.install_gettext_translations(Dutch(), newstyle=True)
    ours = make_environment([], Dutch(), "nl")
    assert ours.from_string(source).render(values) == jinjas.from_string(source).render(values)
    assert ("%(name)" not in ours.compile(source, raw=True)) == in_pieces


@pytest.mark.parametrize(
    "translations",
    [
        ("%(num)s vraag over %(what)s", "%(num)s vragen over %(what)s, 100%%"),
        ("één vraag", "%(what)s: %(num)s vragen"),  # a form without the count
        ("%(num)d vraag over %(what)s", "%(num)d vragen over %(what)r"),  # other formats: put in by Markup's %
    ],
)
@pytest.mark.parametrize("count", [1, 2])
def test_plural_messages_read_as_jinja_makes_them(translations, count):
    """ngettext() and {% trans %}...{% pluralize %} blocks (formatted by plural_gettext)
    make what Jinja's own new-style ngettext makes, autoescaped or not."""
    from babel.support import NullTranslations

    from studysite.render.environment import make_environment

    class Dutch(NullTranslations):
        def ngettext(self, singular, plural, number):
            return translations[0] if number == 1 else translations[1]

        ungettext = ngettext  # what Jinja's own ngettext asks for

    source = (
        "<p>{{ ngettext('%(num)s question', '%(num)s questions', count, what=what) }}"
        "|{% trans count=count, what=what %}{{ count }} question on {{ what }}{% pluralize %}{{ count }} questions on {{ what }}{% endtrans %}"
        "|{% autoescape false %}{{ ngettext('%(num)s question', '%(num)s questions', count, what=what) }}{% endautoescape %}</p>"
    )
    jinjas = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    jinjas.install_gettext_translations(Dutch(), newstyle=True)
    ours = make_environment([], Dutch(), "nl")
    for what in ("<b>&", Markup("<i>ok</i>"), 7):
        values = {"count": count, "what": what}
        assert ours.from_string(source).render(values) == jinjas.from_string(source).render(values)


@pytest.mark.parametrize(("written", "canonical"), [("DE", "de"), ("pt-br", "pt-BR"), ("zh-hans", "zh-Hans")])
def test_init_refuses_a_language_code_written_otherwise_than_the_site_writes_it(make_content, written, canonical):
    content = make_content()
    result = run_cli("i18n", "init", written, "--content", content)
    assert result.status == 2 and f"'{canonical}'" in result.err
    assert not (content.parent / "locales").exists()  # no locales/DE/ beside locales/de/, no catalog started from nothing


def test_update_of_a_language_without_catalogs_says_so(make_content):
    content = make_content()
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    for written, expected in (("es", "i18n init es"), ("DE", "'de'"), ("xx", "not a valid language code")):
        result = run_cli("i18n", "update", written, "--content", content)
        assert result.status == 2 and expected in result.err, result.err


def test_a_regional_language_falls_back_to_the_shipped_catalog_of_its_language(tmp_path, make_content):
    """pt-BR or de-CH read Studysite's pt or de messages, as gettext falls back, and the
    site's own pt_BR catalog wins over them message by message."""
    content = make_content(
        **{"site.yaml": "languages: [nl, pt-BR]\nnl: {title: S}\npt-BR: {title: S}\n", "topics/basics.yaml": "nl: {title: T}\npt-BR: {title: Básico}\n"}
    )
    own = content.parent / "locales/pt_BR/LC_MESSAGES/messages.po"
    own.parent.mkdir(parents=True)
    own.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Glossary"\nmsgstr "Vocabulário"\n', encoding="utf-8")
    result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 0 and "catalog-missing" not in result.err, result.err
    page = (tmp_path / "site/pt-BR/index.html").read_text(encoding="utf-8")
    search = load_translations(ROOT / "locales", "pt", Report()).gettext("Search")
    assert "Vocabulário" in page and search != "Search" and f">{search}<" in page  # the site's own, then Studysite's pt
    status = run_cli("status", "--content", content).out
    assert status.split("pt-BR: ")[1].splitlines()[0].endswith("translated, 0 missing, 0 fuzzy")  # its UI complete


def test_i18n_help_shows_the_content_option():
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, "build.py", "i18n", "--help"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "--content CONTENT" in shown and "content folder" in shown
