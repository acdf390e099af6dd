"""A folder of broken and hostile content (tests/sites/hostile/) goes through check and
build: every diagnostic is exactly as in expected.txt, nothing is written, nothing runs.

After an intended change to the messages, regenerate expected.txt with:
    STUDYSITE_UPDATE_GOLDEN=1 python -m pytest tests/test_hostile.py
"""

import os

from conftest import ROOT, run_cli

from studysite.diagnostics import Diagnostic, Location, Severity

HOSTILE = ROOT / "tests" / "sites" / "hostile"


def test_check_reports_every_problem_located(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the catalogs' paths are shown from the working folder
    result = run_cli("check", "--content", HOSTILE / "content")
    assert result.status == 1 and "Traceback" not in result.err
    expected = HOSTILE / "expected.txt"
    if os.environ.get("STUDYSITE_UPDATE_GOLDEN") == "1":
        expected.write_text(result.err, encoding="utf-8")
    assert result.err == expected.read_text(encoding="utf-8")


def test_build_writes_nothing_and_keeps_the_previous_site(tmp_path, make_content):
    site = tmp_path / "site"
    assert run_cli("build", "--content", make_content(), "--out", site, "--no-search").status == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    result = run_cli("build", "--content", HOSTILE / "content", "--out", site)
    summary = (HOSTILE / "expected.txt").read_text(encoding="utf-8").rstrip().splitlines()[-1]  # "Check failed: N errors, M warnings."
    assert result.status == 1 and result.err.rstrip().endswith(summary.replace("Check failed", "Build failed"))
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "content", "site"]


def test_control_characters_in_content_never_reach_the_terminal(make_content):
    """An escape sequence or a bell in a content file (its text, its name) is shown as a
    visible symbol in the message and the line shown, with the caret still under its column."""
    content = make_content(
        **{
            "questions/bell.yaml": 'topic: basics\nanswer: A\nnl: {question: "Bell \a and \x1b[2J", choices: [a, b], explanation: E}\n',
            "questions/\x1b[31mred.yaml": "topic: basics\nanswer: A\nnl: {question: Q, choices: [a, b], explanation: E}\n",
        }
    )
    result = run_cli("check", "--content", content)
    assert result.status == 1 and "Traceback" not in result.err
    assert not any(ord(char) < 0x20 and char != "\n" or 0x7F <= ord(char) < 0xA0 for char in result.err)
    assert '    nl: {question: "Bell \u2407 and \u241b[2J", choices: [a, b], explanation: E}\n' + " " * 25 + "^\n" in result.err
    assert "questions/\u241b[31mred.yaml" in result.err


def test_faulty_ui_catalog_fails_check_and_build_located_never_with_a_traceback(make_content, tmp_path, monkeypatch):
    """A site's messages.po whose translations break their placeholders, or whose
    Plural-Forms header does not parse, fails check and build with located errors."""
    monkeypatch.chdir(tmp_path)
    content = make_content()
    po = content.parent / "locales/fr/LC_MESSAGES/messages.po"
    po.parent.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {}\\n"\n\n'
    entries = {
        '"{language}: {name}"': "7:9",  # published as it is
        '"%(nope)s"': "7:9",  # KeyError
        '"100% auf %s"': "7:12",  # TypeError
    }
    for translation, where in entries.items():
        po.write_text(header.format("nplurals=2; plural=(n > 1);") + f'msgid "%(language)s name: %(name)s"\nmsgstr {translation}\n', encoding="utf-8")
        for command in (["check"], ["build", "--out", tmp_path / "site", "--no-search"]):
            result = run_cli(*command, "--content", content)
            assert result.status == 1 and "Traceback" not in result.err, result.err
            assert f"locales/fr/LC_MESSAGES/messages.po:{where}: error: " in result.err
            assert "[i18n.placeholders]" in result.err and "  hint: " in result.err
    po.write_text(header.format("nplurals=2; plural=(n > 1 +);") + 'msgid "Glossary"\nmsgstr "Glossaire"\n', encoding="utf-8")
    result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 1 and "locales/fr/LC_MESSAGES/messages.po:4:1: error: " in result.err and "[i18n.plural-forms]" in result.err
    assert not (tmp_path / "site").exists()


def test_unterminated_string_in_content_po_is_a_located_error(make_content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    content = make_content(**{"site.yaml": "languages: [nl, fr, de]\nnl: {title: S}\nfr: {title: S}\nde: {title: S}\n"})
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgctxt "topics/basics:title"\nmsgid "Onderwerp"\nmsgstr "Thema\n',
        encoding="utf-8",
    )
    result = run_cli("check", "--content", content)
    assert result.status == 1 and "locales/de/LC_MESSAGES/content.po:7:8: error: unterminated string" in result.err and "[content-po.syntax]" in result.err


def test_two_terms_with_one_name_warn_naming_both_files_and_fail_strict(make_content, tmp_path):
    content = make_content(**{"glossary/graphics.yaml": 'nl: {term: "gpu", definition: D.}\nfr: {term: "Gpu", definition: D.}\n'})
    result = run_cli("check", "--content", content)
    assert result.status == 0 and result.err.count("[term.duplicate-name]") == 2
    assert "glossary/graphics.yaml:1:12: warning: the 'nl' name 'gpu' of term 'graphics' is also the name of term 'gpu' (glossary/gpu.yaml:2:12)" in result.err
    assert run_cli("check", "--strict", "--content", content).status == 1


def test_term_names_of_any_length_are_linked(make_content, tmp_path):
    for length in (500, 5000):
        name, alias = "x" * length, "y" * length
        content = make_content(
            **{
                "glossary/long.yaml": f"nl: {{term: {name}, aliases: [{alias}], definition: D.}}\nfr: {{term: {name}, definition: D.}}\n",
                "questions/named.yaml": f"topic: basics\nanswer: A\nnl: {{question: Wat is {alias}?, choices: [a, b], explanation: E}}\n"
                f"fr: {{question: Q {name}, choices: [a, b], explanation: E}}\n",
            }
        )
        result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
        assert result.status == 0 and "Traceback" not in result.err, result.err
        assert 'class="term" href="../../glossary/long/"' in (tmp_path / "site/nl/questions/named/index.html").read_text(encoding="utf-8")


def test_the_caret_stands_under_its_column_after_wide_characters_and_marks():
    line = "ja: {term: データ, aliases: [e\u0301\x1b]}"
    diagnostic = Diagnostic(Severity.ERROR, Location("glossary/x.yaml", 1, line.index("]") + 1), "code", "message", "", line)
    shown, caret = diagnostic.format().splitlines()[1:3]
    assert shown == "    ja: {term: データ, aliases: [e\u0301\u241b]}" and caret == " " * (4 + len("ja: {term: ") + 6 + len(", aliases: [e\u241b")) + "^"
