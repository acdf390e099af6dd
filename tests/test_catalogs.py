"""Studysite's shipped UI catalogs: complete, with their placeholders and CLDR plural forms,
and a site's own catalog overriding them message by message."""

import io
import shutil

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from conftest import ROOT, run_cli

from studysite.diagnostics import Report
from studysite.i18n import catalogs, po_check
from studysite.i18n.catalogs import extract_from
from studysite.i18n.ui_catalogs import catalog_path, is_translated, load_layered_translations, read_checked_catalog
from studysite.languages import parse_locale

SHIPPED = sorted(ROOT.glob("locales/*/LC_MESSAGES/messages.po"))


def language_of(path) -> str:
    return path.parent.parent.name.replace("_", "-")


@pytest.fixture(scope="module")
def template():
    return extract_from([ROOT / "templates"])


def test_the_shipped_template_catalog_holds_every_message_of_the_shipped_templates(template):
    """A build and a site's i18n commands read the shipped templates' messages from
    locales/messages.pot instead of parsing them (catalogs.extract, status.py): it must be
    what 'i18n extract' makes of them now."""
    with (ROOT / "locales/messages.pot").open("rb") as file:
        shipped = read_po(file)
    assert sorted((repr(m.id), m.context or "") for m in shipped if m.id) == sorted((repr(m.id), m.context or "") for m in template if m.id)


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


def test_init_of_a_shipped_language_makes_its_content_po_and_no_copy_of_the_shipped_messages(make_content, tmp_path):
    """A site's own messages.po overrides the shipped one message by message: a copy of
    Studysite's would only freeze its messages at this version."""
    content = make_content()
    result = run_cli("i18n", "init", "fr", "--content", content)
    assert result.status == 0, result.err
    assert "ships the interface in 'fr'" in result.out
    assert not catalog_path(content.parent / "locales", "fr").exists()
    assert (content.parent / "locales/fr/LC_MESSAGES/content.po").is_file()
    again = run_cli("i18n", "init", "fr", "--content", content)
    assert again.status == 2 and "content.po exists already" in again.err
    build = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert build.status == 0, build.err
    assert ">Glossaire<" in (tmp_path / "site/fr/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SHIPPED, ids=language_of)
def test_shipped_catalog_passes_the_build_checks(path):
    """Every shipped catalog passes what a build checks of a catalog (po_check.py)."""
    report = Report()
    assert read_checked_catalog(path, language_of(path), report) is not None
    assert [d.format() for d in report.diagnostics] == []


# A site's own French catalog with one fault per entry; (line, column, code) of each
SITE_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "%(language)s name: %(name)s"
msgstr "{language} : {name}"

msgid "%(num)s term"
msgid_plural "%(num)s terms"
msgstr[0] "%(num)s terme"
msgstr[1] "%(nope)s termes"
msgstr[2] "%(num)s termes"

msgid "Glossary"
msgstr "Glossaire à 100 %"

msgid "Home"
msgstr "100% auf %s"

msgid "Search"
msgstr "Chercher"
"""
SITE_PO_FAULTS = [(6, 9, "i18n.placeholders"), (11, 12, "i18n.placeholders"), (15, 25, "i18n.placeholders"), (18, 12, "i18n.placeholders")]


# A site's own French catalog, overriding two shipped messages
OWN_FR_PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Glossary"\nmsgstr "Glossaire"\n\nmsgid "Home"\nmsgstr "Accueil"\n'


def write_site_catalog(root, text):
    path = catalog_path(root / "locales", "fr")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_translation_whose_placeholders_differ_is_a_located_error_and_left_out(tmp_path):
    write_site_catalog(tmp_path, SITE_PO)
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code) for d in report.sorted()] == SITE_PO_FAULTS
    assert all(d.severity == "error" and d.hint for d in report.diagnostics)
    assert "uses {language}, {name}, which the message has not; leaves out %(language)s, %(name)s" in report.sorted()[0].message
    # each is left out: the shipped translation shows instead, and no page can fail on it
    assert translations.gettext("%(language)s name: %(name)s") == "Nom %(language)s : %(name)s"
    assert translations.ngettext("%(num)s term", "%(num)s terms", 2) == "%(num)s termes"
    assert translations.gettext("Glossary") == "Glossaire" and translations.gettext("Search") == "Chercher"


@pytest.mark.parametrize(
    ("header", "faults"),
    [
        ("nplurals=2; plural=(n > 1 +);", [(4, 1, "i18n.plural-forms")]),  # does not parse
        ("bogus", [(4, 1, "i18n.plural-forms")]),
        ("nplurals=x; plural=(n > 1);", [(4, 1, "i18n.plural-forms")]),  # Babel's own reader fails on it
        ("nplurals=2; plural=(n > 1 ? 2 : 0);", [(4, 1, "i18n.plural-forms")]),  # a form beyond nplurals
        ("nplurals=2; plural=(n > 1);", [(9, 1, "i18n.plural-forms")]),  # the entry has 3 forms
        ('nplurals=3; plural=(n == 1 ? 0 : "\n"n == 2 ? 1 : 2);', []),  # on two lines, as Babel writes a long one
    ],
)
def test_a_bad_plural_forms_header_is_a_located_error(tmp_path, header, faults):
    text = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ' + header + '\\n"\n\n'
    text += 'msgid "Glossary"\nmsgstr "Glossaire"\n\nmsgid "%(num)s term"\nmsgid_plural "%(num)s terms"\n'
    text += 'msgstr[0] "un terme"\nmsgstr[1] "deux termes"\nmsgstr[2] "%(num)s termes"\n'
    write_site_catalog(tmp_path, text)
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code) for d in report.sorted()] == faults
    assert translations.ngettext("%(num)s term", "%(num)s terms", 5) % {"num": 5}  # never a traceback


def test_plural_forms_for_a_single_count_may_leave_the_count_out():
    """As msgfmt allows: a form used for one count alone (one, the dual) need not say it."""
    write = (
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);\\n"\n\n'
        'msgid "%(num)s term"\nmsgid_plural "%(num)s terms"\nmsgstr[0] "un"\nmsgstr[1] "deux"\nmsgstr[2] "trois"\n'
    )
    lines = po_check.lines_of(write.encode())
    layout = po_check.read_layout(lines)
    _, rule = po_check.plural_problems(layout, "")
    catalog = read_po(io.BytesIO(write.encode()))
    problems = [problem for _, problem in po_check.placeholder_problems(catalog, layout, rule, lines)]
    assert [(p.line, p.message) for p in problems] == [(9, "the translation of '%(num)s term' leaves out %(num)s")]


def test_a_faulty_site_catalog_fails_check_and_build_located_with_the_content_errors(make_content, tmp_path):
    content = make_content(**{"topics/broken.yaml": "nl: {title: T}\nfr: {title: T}\norder: first\n"})
    write_site_catalog(content.parent, SITE_PO)
    for command, what in ((["check"], "Check"), (["build", "--out", tmp_path / "site", "--no-search"], "Build")):
        result = run_cli(*command, "--content", content)
        assert result.status == 1 and "Traceback" not in result.err
        for line, column, code in SITE_PO_FAULTS:
            assert f"locales/fr/LC_MESSAGES/messages.po:{line}:{column}: error: " in result.err and f"[{code}]" in result.err
        assert "topics/broken.yaml:3:8: error:" in result.err  # in the same run as the content's
        assert result.err.rstrip().endswith(f"{what} failed: 5 errors, 0 warnings.")
    assert not (tmp_path / "site").exists()
    (content / "topics/broken.yaml").unlink()
    fixed = SITE_PO.replace("{language} : {name}", "%(name)s (%(language)s)").replace("%(nope)s", "%(num)s").replace("100 %", "100 %%")
    write_site_catalog(content.parent, fixed.replace('"100% auf %s"', '"Accueil"'))
    assert run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search").status == 0
    assert '<span lang="ja">GPU</span> (japonais)' in (tmp_path / "site/fr/glossary/gpu/index.html").read_text(encoding="utf-8")


def test_update_refuses_a_catalog_it_would_misread_and_writes_nothing(make_content):
    """Babel reads an unterminated string cut short; `i18n update` would write it back so.
    Every such mistake, in any catalog, is located and no file is written."""
    content = make_content()
    shutil.copytree(ROOT / "templates", content.parent / "templates")
    ui = write_site_catalog(content.parent, OWN_FR_PO)
    text = ui.read_text(encoding="utf-8")
    ui.write_text(text.replace('msgstr "Glossaire"', 'msgstr "Glossaire'), encoding="utf-8")
    before = {path: path.read_bytes() for path in (content.parent / "locales").rglob("*") if path.is_file()}
    result = run_cli("i18n", "update", "--content", content)
    line = text.splitlines().index('msgstr "Glossaire"') + 1
    assert result.status == 1 and "Traceback" not in result.err
    assert f"locales/fr/LC_MESSAGES/messages.po:{line}:8: error: unterminated string" in result.err
    assert {path: path.read_bytes() for path in (content.parent / "locales").rglob("*") if path.is_file()} == before


def test_plural_forms_of_an_entry_without_plural_are_a_located_error(tmp_path):
    """Babel would take msgstr[0] and pass over msgstr[1] of an entry without msgid_plural."""
    write_site_catalog(tmp_path, 'msgid ""\nmsgstr ""\n\nmsgid "Glossary"\nmsgstr[0] "Glossaire"\nmsgstr[1] "Glossaires"\n')
    report = Report()
    load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code) for d in report.diagnostics] == [(4, 1, "i18n.plural-forms")]


def test_markup_or_a_straight_quote_in_an_interface_translation_is_a_located_error_and_left_out(tmp_path):
    """Templates put interface text in as it is, in elements and in attributes alike."""
    write_site_catalog(
        tmp_path,
        'msgid ""\nmsgstr ""\n\nmsgid "Glossary"\nmsgstr "Glos<img src=x onerror=alert(1)>saire"\n\n'
        'msgid "Search"\nmsgstr "Le \\"moteur\\""\n\nmsgid "Home"\nmsgstr "Accueil < 1"\n',
    )
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code) for d in report.sorted()] == [(5, 13, "i18n.markup"), (8, 12, "i18n.markup")]
    assert "typographic quotes" in report.sorted()[1].hint
    assert translations.gettext("Glossary") == "Glossaire" and translations.gettext("Search") == "Rechercher", "the shipped ones"
    assert translations.gettext("Home") == "Accueil < 1", "a '<' that starts no tag is text"


def test_control_characters_in_a_translation_and_a_file_that_is_no_po_file(tmp_path):
    """A control character in a translation is an error, as in YAML text, shown as a visible
    symbol; a file that is no PO file at all gives twenty errors, the last saying how many more."""
    write_site_catalog(tmp_path, 'msgid ""\nmsgstr ""\n\nmsgid "Glossary"\nmsgstr "Glossaire \x1b[2J\x07"\n')
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code) for d in report.diagnostics] == [(5, 19, "i18n.control-character")]
    assert "U+001B" in report.diagnostics[0].message and "\u241b[2J\u2407" in report.diagnostics[0].format()
    assert translations.gettext("Glossary") == "Glossaire"  # the shipped one
    write_site_catalog(tmp_path, "".join(f"line {number}\n" for number in range(100)))
    report = Report()
    load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert len(report.diagnostics) == 20 and "80 more syntax errors after this line are not shown" in report.diagnostics[-1].message


def test_a_duplicate_entry_is_a_located_error_naming_the_first(tmp_path):
    """Babel keeps one of two entries with the same msgid and msgctxt without a word; the
    same msgid with another msgctxt, or in an obsolete (#~) entry, is no duplicate."""
    write_site_catalog(
        tmp_path,
        'msgid ""\nmsgstr ""\n\nmsgid "Glossary"\nmsgstr "Glossaire"\n\nmsgctxt "menu"\nmsgid "Glossary"\nmsgstr "Lexique"\n\n'
        'msgid "Search"\nmsgstr "Chercher"\n\nmsgid "Glos"\n"sary"\nmsgstr "Vocabulaire"\n\n#~ msgid "Search"\n#~ msgstr "Rechercher"\n',
    )
    report = Report()
    load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.location.column, d.code, d.severity) for d in report.diagnostics] == [(14, 1, "i18n.duplicate", "error")]
    assert report.diagnostics[0].message == "duplicate entry: msgid 'Glossary' appears twice"
    assert report.diagnostics[0].hint.startswith("the first is on line 4;") and report.diagnostics[0].source_line == 'msgid "Glos"'


def test_a_catalog_saved_with_a_byte_order_mark_and_crlf_is_read(tmp_path):
    """Notepad and some editors on Windows save UTF-8 with a BOM and CRLF line ends; YAML
    content may be so saved, and so may a catalog."""
    path = write_site_catalog(tmp_path, "")
    path.write_bytes(b"\xef\xbb\xbf" + b'msgid ""\r\nmsgstr ""\r\n"Content-Type: text/plain; charset=UTF-8\\n"\r\n\r\nmsgid "Glossary"\r\nmsgstr "Lexique"\r\n')
    report = Report()
    translations = load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [d.format() for d in report.diagnostics] == []
    assert translations.gettext("Glossary") == "Lexique"


def test_update_locates_the_mistakes_of_messages_po_and_content_po_in_one_run(make_content):
    content = make_content()
    ui = write_site_catalog(content.parent, OWN_FR_PO)
    assert run_cli("i18n", "init", "fr", "--content", content).status == 0
    texts = content.parent / "locales/fr/LC_MESSAGES/content.po"
    ui.write_text(ui.read_text(encoding="utf-8").replace('msgstr "Glossaire"', 'msgstr "Glossaire'), encoding="utf-8")
    texts.write_text(texts.read_text(encoding="utf-8").replace('msgid "Wat doet een GPU?"', 'msgid "Wat doet een GPU?'), encoding="utf-8")
    result = run_cli("i18n", "update", "--content", content)
    assert result.status == 1
    assert "messages.po:" in result.err and "content.po:" in result.err and "2 errors" in result.err


LATIN_1_PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Glossary"\nmsgstr "Lexique é"\n'


def test_a_catalog_in_another_charset_is_read_and_update_keeps_its_messages(make_content):
    """A Latin-1 catalog is a PO file too: the build merged it with the shipped one (whose
    messages have '…') in Latin-1 and stopped with a traceback; update wrote '…' as \\u2026."""
    content = make_content()
    ui = write_site_catalog(content.parent, "")
    ui.write_bytes(LATIN_1_PO.encode("latin-1"))
    report = Report()
    translations = load_layered_translations([content.parent / "locales", ROOT / "locales"], "fr", report)
    assert [d.format() for d in report.diagnostics] == [] and translations.gettext("Glossary") == "Lexique é"
    assert run_cli("i18n", "update", "fr", "--content", content).status == 0
    with ui.open("rb") as file:
        catalog = read_po(file)
    assert catalog["Glossary"].string == "Lexique é"
    assert not [message.id for message in catalog if message.id and "\\u" in str(message.id)]  # msgids as the templates write them


def test_a_catalog_whose_charset_is_unknown_or_whose_bytes_are_not_utf8_is_a_located_error(tmp_path):
    write_site_catalog(tmp_path, LATIN_1_PO.replace("ISO-8859-1", "latin-9x"))
    report = Report()
    load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.code) for d in report.diagnostics] == [(3, "i18n.catalog-syntax")]
    assert "charset=UTF-8" in report.diagnostics[0].hint
    write_site_catalog(tmp_path, "").write_bytes(LATIN_1_PO.replace("ISO-8859-1", "UTF-8").encode("latin-1"))
    report = Report()
    load_layered_translations([tmp_path / "locales", ROOT / "locales"], "fr", report)
    assert [(d.location.line, d.code, d.hint) for d in report.diagnostics] == [(6, "i18n.catalog-syntax", "save it as UTF-8")]


def test_an_update_stopped_while_writing_leaves_the_catalog_as_it_was(make_content, monkeypatch):
    """Ctrl-C (or a full disk) during `i18n update` of a large catalog cut the translator's
    file short: it was truncated before Babel wrote it."""
    content = make_content()
    po = write_site_catalog(content.parent, OWN_FR_PO)
    assert run_cli("i18n", "init", "fr", "--content", content).status == 0
    before = po.read_bytes()

    def stopped_while_writing(file, catalog, **options):
        file.write(b"# German transl")
        raise KeyboardInterrupt

    monkeypatch.setattr(catalogs, "write_po", stopped_while_writing)
    assert run_cli("i18n", "update", "fr", "--content", content).status == 130
    assert po.read_bytes() == before
    assert sorted(path.name for path in po.parent.iterdir()) == ["content.po", "messages.po"]  # no temporary file left
