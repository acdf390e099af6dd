"""Content translated in PO files: content.pot, content.po per language, the build using it."""

from babel.messages.pofile import read_po, write_po
from conftest import run_cli

SITE = "languages: [nl, fr, de]\nnl: {title: Studie}\nfr: {title: Étude}\nde: {title: Studium}\n"
GERMAN = {
    "topics/basics:title": "Grundlagen",
    "topics/basics:description": "Über *Dinge*.",
    "questions/gpu-role:question": "Was macht eine GPU?",
    "questions/gpu-role:choices.1": "Nichts",
    "questions/gpu-role:choices.2": "Rechnen",
    "questions/gpu-role:explanation": "Eine GPU rechnet parallel.",
    "glossary/gpu:term": "GPU",
    "glossary/gpu:definition": "Grafikprozessor.",
}


def read(path):
    with path.open("rb") as file:
        return read_po(file)


def translate(path, translations):
    """What a translator does in a PO editor: fill msgstrs, clear the fuzzy flags."""
    catalog = read(path)
    for message in catalog:
        if message.context in translations:
            message.string = translations[message.context]
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, width=100)


def test_extract_writes_one_entry_per_field_named_by_msgctxt(make_content):
    content = make_content()
    result = run_cli("i18n", "extract", "--content", content)
    assert result.status == 0, result.err
    pot = content.parent / "locales/content.pot"
    catalog = read(pot)
    entries = {m.context: m.id for m in catalog if m.id}
    assert entries == {
        "topics/basics:title": "Onderwerp",
        "topics/basics:description": "Over *dingen*.",
        "questions/gpu-role:question": "Wat doet een GPU?",
        "questions/gpu-role:choices.1": "Niets",
        "questions/gpu-role:choices.2": "Rekenen",
        "questions/gpu-role:explanation": "Een GPU rekent parallel.",
        "glossary/gpu:term": "GPU",
        "glossary/gpu:definition": "Grafische processor.",
    }
    assert [m.context for m in catalog if m.id][:2] == ["topics/basics:title", "topics/basics:description"]  # record order, not msgid order
    text = pot.read_text(encoding="utf-8")
    assert "#: content/questions/gpu-role.yaml\n" in text and "content-type: text/plain; charset=utf-8" in text.lower()
    assert "#. question gpu-role, explanation (Markdown)" in text and "#. question gpu-role, choice B (inline Markdown)" in text


def test_round_trip_translate_build_change_source_outdated(make_content, tmp_path):
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    header = po.read_text(encoding="utf-8")
    assert "Language: de" in header and "Plural-Forms: nplurals=2" in header  # what Poedit needs
    translate(po, GERMAN)
    check = run_cli("check", "--content", content, "--strict")
    assert check.status == 0, check.err  # no "has no 'de' text" warning: content.po translates it
    out = tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", out, "--no-search").status == 0
    page = (out / "de/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert "Was macht eine GPU?" in page and "Rechnen" in page and "<p>Eine GPU rechnet parallel.</p>" in page
    assert 'class="notice"' not in page and ' lang="nl"' not in page.partition("<main")[2]
    assert "content 3/3 translated" in run_cli("status", "--content", content).out.split("\nde: ")[1]

    question = content / "questions/gpu-role.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Een GPU rekent parallel.", "Een GPU rekent sterk parallel."), encoding="utf-8")
    built = run_cli("build", "--content", content, "--out", out, "--no-search")
    assert built.status == 0
    assert "locales/de/LC_MESSAGES/content.po:" in built.err and "[content-po.outdated]" in built.err
    page = (out / "de/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert "Was macht eine GPU?" not in page and "Een GPU rekent sterk parallel." in page and 'class="notice"' in page
    status = run_cli("status", "--content", content).out.split("\nde: ")[1]
    assert status.startswith("content 2/3 translated, 0 missing, 1 outdated")
    assert "  outdated: questions/gpu-role (" in status and "content.po:" in status
    status_page = (out / "de/status/index.html").read_text(encoding="utf-8")
    assert "questions/gpu-role" in status_page

    assert run_cli("i18n", "update", "de", "--content", content).status == 0
    entry = next(m for m in read(po) if m.context == "questions/gpu-role:explanation")
    assert entry.fuzzy and entry.string == "Eine GPU rechnet parallel."
    assert '#, fuzzy\n#| msgid "Een GPU rekent parallel."\nmsgctxt "questions/gpu-role:explanation"' in po.read_text(encoding="utf-8")
    untouched = next(m for m in read(po) if m.context == "questions/gpu-role:question")
    assert not untouched.fuzzy and untouched.string == "Was macht eine GPU?"
    translate(po, {"questions/gpu-role:explanation": "Eine GPU rechnet stark parallel."})
    assert run_cli("build", "--content", content, "--out", out, "--no-search").status == 0
    assert "Eine GPU rechnet stark parallel." in (out / "de/questions/gpu-role/index.html").read_text(encoding="utf-8")


def test_a_yaml_block_wins_over_content_po(make_content, tmp_path):
    content = make_content(**{"site.yaml": SITE, "topics/basics.yaml": "nl: {title: Onderwerp}\nde: {title: Aus YAML}\n"})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    translate(content.parent / "locales/de/LC_MESSAGES/content.po", {**GERMAN, "topics/basics:title": "Aus PO"})
    assert run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search").status == 0
    assert "Aus YAML" in (tmp_path / "site/de/topics/basics/index.html").read_text(encoding="utf-8")


def test_update_is_stable_and_keeps_removed_entries_as_obsolete(make_content):
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    translate(po, GERMAN)
    before = po.read_text(encoding="utf-8")
    assert run_cli("i18n", "update", "--content", content).status == 0
    assert po.read_text(encoding="utf-8") == before  # nothing changed: no diff
    (content / "glossary/gpu.yaml").unlink()
    (content / "questions/gpu-role.yaml").write_text((content / "questions/gpu-role.yaml").read_text().replace("terms: [gpu]\n", ""))
    assert run_cli("i18n", "update", "--content", content).status == 0
    assert '#~ msgctxt "glossary/gpu:definition"' in po.read_text(encoding="utf-8")


def test_po_syntax_error_is_located_and_other_languages_warn(make_content, tmp_path):
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    lines.insert(20, "this is not PO")
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("check", "--content", content)
    assert result.status == 1
    assert "locales/de/LC_MESSAGES/content.po:21:1: error: unknown keyword 'this'" in result.err and "[content-po.syntax]" in result.err
    po.unlink()
    other = content.parent / "locales/it/LC_MESSAGES/content.po"
    other.parent.mkdir(parents=True)
    other.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n', encoding="utf-8")
    result = run_cli("check", "--content", content)
    assert result.status == 0
    assert "locales/it/LC_MESSAGES/content.po: warning: content translations for 'it' are not used: it is not a site language" in result.err
    assert "hint: add 'it' to 'languages:' in content/site.yaml" in result.err


def test_every_syntax_error_and_control_character_of_content_po_is_located(make_content):
    """Babel reads an unterminated string or text after a string's end without a word;
    each is an error at its line, all in one run; so is a control character in a translation."""
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    text = po.read_text(encoding="utf-8")
    broken = text.replace('msgid "Onderwerp"\nmsgstr ""', 'msgid "Onderwerp"\nmsgstr "Thema').replace(
        'msgid "Wat doet een GPU?"\nmsgstr ""', 'msgid "Wat doet een GPU?"\nmsgstr "Was" tut'
    )
    assert broken.count("\n") == text.count("\n") and broken != text
    po.write_text(broken, encoding="utf-8")
    result = run_cli("check", "--content", content)
    lines = broken.splitlines()
    first, second = (lines.index('msgstr "Thema') + 1, lines.index('msgstr "Was" tut') + 1)
    assert result.status == 1 and "Traceback" not in result.err
    assert (
        f"content.po:{first}:8: error: unterminated string" in result.err
        and f"content.po:{second}:14: error: text after the string's closing quote" in result.err
    )
    po.write_text(text.replace('msgid "Onderwerp"\nmsgstr ""', 'msgid "Onderwerp"\nmsgstr "Thema \x1b[2J"'), encoding="utf-8")
    result = run_cli("check", "--content", content)
    assert result.status == 1 and f"content.po:{first}:15: error: the translation of topics/basics:title contains the control character U+001B" in result.err
    assert "\x1b" not in result.err and 'msgstr "Thema \u241b[2J"' in result.err


def init_german(make_content):
    """A content folder whose German comes from content.po, translated in full."""
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    translate(po, GERMAN)
    return content, po


def test_entries_that_name_no_field_are_located_warnings(make_content):
    """A msgctxt of no record or field (a record removed, a typing mistake) is warned about
    at its line, with the closest field; an obsolete (#~) entry is not."""
    content, po = init_german(make_content)
    added = (
        '\nmsgctxt "garbage"\nmsgid "X"\nmsgstr "Y"\n'
        '\nmsgctxt "questions/nope:question"\nmsgid "Wat?"\nmsgstr "Was?"\n'
        '\nmsgctxt "questions/gpu-role:choices.9"\nmsgid "Alles"\nmsgstr "Alles"\n'
        '\nmsgid "no context"\nmsgstr "kein Kontext"\n'
        '\n#~ msgctxt "questions/gone:question"\n#~ msgid "Weg?"\n#~ msgstr "Weg?"\n'
    )
    po.write_text(po.read_text(encoding="utf-8") + added, encoding="utf-8")
    lines = po.read_text(encoding="utf-8").splitlines()
    garbage, nope, nine, none = (lines.index(f'msgid "{msgid}"') + 1 for msgid in ("X", "Wat?", "Alles", "no context"))
    result = run_cli("check", "--content", content)
    assert result.status == 0, result.err
    shown = "locales/de/LC_MESSAGES/content.po"
    assert f"{shown}:{garbage}:1: warning: the msgctxt 'garbage' names no field of the content: it is not written <kind>/<id>:<field>" in result.err
    assert f"{shown}:{nope}:1: warning: the msgctxt 'questions/nope:question' names no field of the content: there is no question 'nope'" in result.err
    assert f"{shown}:{nine}:1: warning: the msgctxt 'questions/gpu-role:choices.9' names no field" in result.err
    assert "question 'gpu-role' has no field 'choices.9' in 'nl' [content-po.unknown]" in result.err
    assert f"{shown}:{none}:1: warning: the entry has no msgctxt" in result.err
    assert result.err.count("[content-po.unknown]") == 4 and "gone" not in result.err
    assert "hint: did you mean 'questions/gpu-role:question'? Correct the msgctxt, or run 'python build.py i18n update'" in result.err
    assert "hint: correct the msgctxt, or run 'python build.py i18n update', which marks the entries that name no field obsolete" in result.err
    assert run_cli("check", "--content", content, "--strict").status == 1
    assert run_cli("i18n", "update", "de", "--content", content).status == 0
    assert "[content-po.unknown]" not in run_cli("check", "--content", content).err  # obsolete now


def test_a_duplicate_entry_of_content_po_is_a_located_error(make_content):
    """Babel keeps one of two entries with the same msgctxt and msgid without a word."""
    content, po = init_german(make_content)
    text = po.read_text(encoding="utf-8")
    po.write_text(text + '\nmsgctxt "topics/basics:title"\nmsgid "Onderwerp"\nmsgstr "Thema"\n', encoding="utf-8")
    lines = po.read_text(encoding="utf-8").splitlines()
    first, second = (index + 1 for index, line in enumerate(lines) if line == 'msgid "Onderwerp"')
    result = run_cli("check", "--content", content)
    assert result.status == 1 and "Traceback" not in result.err
    assert (
        f"locales/de/LC_MESSAGES/content.po:{second}:1: error: duplicate entry: msgid 'Onderwerp' with msgctxt 'topics/basics:title' appears twice [i18n.duplicate]"
        in result.err
    )
    assert f"hint: the first is on line {first};" in result.err
    before = po.read_bytes()
    assert run_cli("i18n", "update", "de", "--content", content).status == 1 and po.read_bytes() == before  # nothing lost


def test_an_incomplete_translation_is_located_at_the_records_first_entry(make_content):
    content, po = init_german(make_content)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "Rechnen"', 'msgstr ""'), encoding="utf-8")
    line = po.read_text(encoding="utf-8").splitlines().index('msgid "Wat doet een GPU?"') + 1
    result = run_cli("check", "--content", content)
    assert result.status == 0, result.err
    assert f"locales/de/LC_MESSAGES/content.po:{line}:1: warning: the 'de' translation of question 'gpu-role' is incomplete" in result.err
    assert "hint: translate every entry whose msgctxt starts with questions/gpu-role: (untranslated: choices.2)" in result.err


def test_a_problem_in_text_from_content_po_is_located_there(make_content):
    content, po = init_german(make_content)
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgstr "Über *Dinge*."', 'msgstr "Über $\\\\frac{a}$."').replace(
        'msgstr "Grafikprozessor."', 'msgstr "Grafik ![](https://e.org/g.png)"'
    )
    po.write_text(text, encoding="utf-8")
    lines = po.read_text(encoding="utf-8").splitlines()
    math, image = (next(number for number, line in enumerate(lines, 1) if needle in line) for needle in ("frac", "g.png"))
    result = run_cli("check", "--content", content)
    assert result.status == 1
    assert f"locales/de/LC_MESSAGES/content.po:{math}:" in result.err and "[markup.math]" in result.err
    assert f"locales/de/LC_MESSAGES/content.po:{image}:" in result.err and "[markup.image-alt]" in result.err
    assert "topics/basics.yaml:1:1" not in result.err and "glossary/gpu.yaml:1:1" not in result.err


def test_obsolete_translations_survive_a_second_update_and_come_back_with_their_record(make_content):
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    translate(po, GERMAN)
    term = (content / "glossary/gpu.yaml").read_text(encoding="utf-8")
    question = (content / "questions/gpu-role.yaml").read_text(encoding="utf-8")
    (content / "glossary/gpu.yaml").unlink()
    (content / "questions/gpu-role.yaml").write_text(question.replace("terms: [gpu]\n", ""), encoding="utf-8")
    assert run_cli("i18n", "update", "--content", content).status == 0
    after_one = po.read_text(encoding="utf-8")
    assert run_cli("i18n", "update", "--content", content).status == 0
    assert po.read_text(encoding="utf-8") == after_one  # the obsolete entries are kept, not dropped
    (content / "glossary/gpu.yaml").write_text(term, encoding="utf-8")  # the record is back (a revert)
    assert run_cli("i18n", "update", "--content", content).status == 0
    definition = read(po).get("Grafische processor.", "glossary/gpu:definition")
    assert definition is not None and definition.string == "Grafikprozessor." and not definition.fuzzy


def test_update_twice_keeps_the_previous_source_of_a_fuzzy_entry(make_content):
    content = make_content(**{"site.yaml": SITE})
    assert run_cli("i18n", "init", "de", "--content", content).status == 0
    po = content.parent / "locales/de/LC_MESSAGES/content.po"
    translate(po, GERMAN)
    question = content / "questions/gpu-role.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Wat doet een GPU?", "Wat doet een GPU precies?"), encoding="utf-8")
    assert run_cli("i18n", "update", "--content", content).status == 0
    after_one = po.read_text(encoding="utf-8")
    assert '#| msgid "Wat doet een GPU?"' in after_one
    assert run_cli("i18n", "update", "--content", content).status == 0
    assert po.read_text(encoding="utf-8") == after_one  # not turned into a translator's comment "# | msgid"


def test_every_question_types_texts_are_entries_and_come_back_as_its_block():
    """A list every language sizes itself (a typed question's accepted answers) is one
    entry, its items separated by ' | '; lists that agree between languages (items, pairs,
    choices and their feedback) are an entry per item; an empty feedback has none."""
    from studysite.content.records import QuestionText
    from studysite.content.schema import QUESTION_TYPES
    from studysite.i18n.content_po import build_text, describe_field, text_fields

    typed = QUESTION_TYPES["typed"].block
    source = QuestionText("De ggd is ___.", "Zie *hier*.", accept=("6", "zes"))
    assert text_fields(typed, source) == [("question", "De ggd is ___."), ("explanation", "Zie *hier*."), ("accept", "6 | zes")]
    assert describe_field(typed, "accept") == "accept (plain text; alternatives separated by '|')"
    translated = build_text(typed, source, {"question": "Le pgcd est ___.", "explanation": "Voir *ici*.", "accept": "6 | six | six."})
    assert translated == QuestionText("Le pgcd est ___.", "Voir *ici*.", accept=("6", "six", "six."))

    single = QUESTION_TYPES["single"].block
    source = QuestionText("Q", "E", choices=("a", "b"), feedback=("", "not b"))
    assert [path for path, _ in text_fields(single, source)] == ["question", "explanation", "choices.1", "choices.2", "feedback.2"]
    assert describe_field(single, "choices.2") == "choice B (inline Markdown)" and describe_field(single, "feedback.2") == "feedback B (inline Markdown)"
    back = build_text(single, source, {"question": "q", "explanation": "e", "choices.1": "A", "choices.2": "B", "feedback.2": "pas b"})
    assert back == QuestionText("q", "e", choices=("A", "B"), feedback=("", "pas b"))

    match = QUESTION_TYPES["match"].block
    source = QuestionText("Q", "E", pairs=(("GPU", "kaart"), ("CPU", "processor")))
    assert [path for path, _ in text_fields(match, source)] == ["question", "explanation", "pairs.1.1", "pairs.1.2", "pairs.2.1", "pairs.2.2"]
