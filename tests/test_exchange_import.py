"""`studysite import`: CSV/TSV, GIFT and Moodle XML into YAML records, and every bad input
the issue names (a missing column, another delimiter, a byte order mark, Latin-1, formulas,
types that do not map, HTML or math in typed answers, equal order items, duplicate ids, an
id that exists)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from studysite.exchange.yaml_layout import scalar
from tests.conftest import ROOT, run_cli, write_files

EXAMPLE = ROOT / "docs" / "questions-example.csv"
SITE_YAML = "languages: [nl, fr]\nnl: {title: Studie}\nfr: {title: Étude}\n"


@pytest.fixture
def site(tmp_path) -> Path:
    """A site with the topics and the term the example CSV names, and no question; returns its root."""
    write_files(
        tmp_path / "content",
        {
            "site.yaml": SITE_YAML,
            "topics/cells.yaml": "nl: {title: De cel}\nfr: {title: La cellule}\n",
            "topics/numbers.yaml": "nl: {title: Getallen}\nfr: {title: Nombres}\n",
            "glossary/mitochondrion.yaml": "nl: {term: Mitochondrion, definition: Energie.}\nfr: {term: Mitochondrie, definition: Énergie.}\n",
        },
    )
    return tmp_path


def questions_in(site: Path) -> dict[str, str]:
    folder = site / "content" / "questions"
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.yaml"))} if folder.exists() else {}


def csv_file(site: Path, text: str, name: str = "questions.csv", encoding: str = "utf-8") -> Path:
    path = site / name
    path.write_bytes(text.encode(encoding))
    return path


def import_(site: Path, *args) -> object:
    return run_cli("import", *args, "--content", site / "content")


HEADER = "id,topic,type,answer,nl.question,nl.choice.1,nl.choice.2,nl.explanation,fr.question,fr.choice.1,fr.choice.2,fr.explanation\n"
ROW = "{id},cells,single,A,Vraag {id}?,Ja,Nee,Omdat.,Question {id} ?,Oui,Non,Parce que.\n"


def test_the_example_csv_imports_every_type_in_two_languages_and_the_site_checks(site):
    result = import_(site, EXAMPLE)
    assert result.status == 0, result.err
    assert "Imported 7 questions (7 new, 0 updated)" in result.out
    files = questions_in(site)
    assert set(files) == {f"{folder}/{name}.yaml" for folder, name in [
        ("cells", "cell-energy"), ("cells", "cell-walls"), ("cells", "red-cells-nucleus"), ("numbers", "gcd"),
        ("numbers", "gravity"), ("cells", "mitosis-phases"), ("cells", "organelle-roles"),
    ]}  # fmt: skip
    assert files["cells/cell-energy.yaml"].startswith("topic: cells\norder: 1\nterms: [mitochondrion]\nanswer: B\nnl:\n  question: Welk organel")
    assert '  feedback:\n    - De kern bewaart het DNA.\n    - ""\n    - Ribosomen maken eiwitten.\n' in files["cells/cell-energy.yaml"]
    assert "  explanation: |\n    Mitochondriën maken **ATP**.\n\n    Dat gebeurt" in files["cells/cell-energy.yaml"]
    assert "answer: [A, C]" in files["cells/cell-walls.yaml"]
    assert "answer: false" in files["cells/red-cells-nucleus.yaml"]
    assert 'accept: ["6", zes]' in files["numbers/gcd.yaml"]
    assert "answer: 9.81\ntolerance: 0.05" in files["numbers/gravity.yaml"] and "unit: m/s²" in files["numbers/gravity.yaml"]
    assert "items: [Profase, Metafase, Anafase, Telofase]" in files["cells/mitosis-phases.yaml"]
    assert "  pairs:\n    - [Kern, DNA bewaren]\n" in files["cells/organelle-roles.yaml"]
    checked = run_cli("check", "--content", site / "content", "--strict")
    assert checked.status == 0, checked.err


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_a_semicolon_or_a_tab_is_found_as_the_delimiter(site, delimiter):
    text = (HEADER + ROW.format(id="one")).replace(",", delimiter)
    result = import_(site, csv_file(site, text, "questions.tsv" if delimiter == "\t" else "questions.csv"))
    assert result.status == 0, result.err
    assert "question: Vraag one?" in questions_in(site)["cells/one.yaml"]


def test_another_delimiter_is_refused_at_the_header(site):
    result = import_(site, csv_file(site, (HEADER + ROW.format(id="one")).replace(",", "|")))
    assert result.status == 1
    assert "questions.csv:1: error: the header row has no ',', ';' or tab between its columns; it holds '|' [csv.delimiter]" in result.err
    assert questions_in(site) == {}


def test_a_byte_order_mark_is_fine(site):
    result = import_(site, csv_file(site, "\ufeff" + HEADER + ROW.format(id="one")))
    assert result.status == 0, result.err
    assert "cells/one.yaml" in questions_in(site)


def test_utf16_with_its_byte_order_mark_is_read_as_a_spreadsheet_saves_unicode_text(site):
    result = import_(site, csv_file(site, "\ufeff" + (HEADER + ROW.format(id="een")).replace(",", "\t").replace("Ja", "Jaé"), "q.txt", "utf-16-le"))
    assert result.status == 0, result.err
    assert "- Jaé" in questions_in(site)["cells/een.yaml"]


def test_an_id_that_is_not_a_slug_is_an_error_at_its_cell(site):
    result = import_(site, csv_file(site, HEADER + ROW.format(id="één")))
    assert result.status == 1
    assert "questions.csv:2:id: error: 'één' is not a valid id [id.invalid]" in result.err


def test_latin1_bytes_are_refused_with_the_line_and_how_to_save_as_utf8(site):
    result = import_(site, csv_file(site, HEADER + ROW.format(id="one").replace("Vraag", "Vraag é"), encoding="latin-1"))
    assert result.status == 1
    assert "questions.csv:2:" in result.err and "the file is not UTF-8: byte 0xE9 on line 2 (in Latin-1 / Windows-1252 it would be 'é')" in result.err
    assert "hint: save the file as UTF-8" in result.err
    assert questions_in(site) == {}


def test_a_missing_column_is_told_once_at_the_header_and_nothing_is_written(site):
    header = HEADER.replace("answer,", "")
    rows = "".join(ROW.format(id=name).replace(",A,", ",") for name in ("one", "two", "three"))
    result = import_(site, csv_file(site, header + rows))
    assert result.status == 1
    assert result.err.count("error:") == 1
    assert "questions.csv:1: error: the file has no 'answer' column, which single questions need [csv.column-missing]" in result.err
    assert questions_in(site) == {}


def test_a_missing_topic_column_needs_topic(site):
    header, row = HEADER.replace("topic,", ""), ROW.format(id="one").replace("cells,", "")
    refused = import_(site, csv_file(site, header + row))
    assert refused.status == 1 and "the file has no 'topic' column" in refused.err and "--topic ID" in refused.err
    result = import_(site, csv_file(site, header + row), "--topic", "numbers")
    assert result.status == 0, result.err
    assert "topic: numbers" in questions_in(site)["numbers/one.yaml"]


def test_an_unknown_column_is_named_with_the_closest_one(site):
    result = import_(site, csv_file(site, HEADER.replace("nl.explanation", "nl.explenation") + ROW.format(id="one")))
    assert result.status == 1
    assert "questions.csv:1:nl.explenation: error: unknown column 'nl.explenation' [csv.column-unknown]" in result.err
    assert "did you mean 'explanation'?" in result.err


def test_formulas_stay_text_and_are_never_evaluated(site):
    row = ROW.format(id="one").replace("Vraag one?", '"=HYPERLINK(""http://example.org"",""klik"")"').replace("Ja", "=1+1")
    result = import_(site, csv_file(site, HEADER + row))
    assert result.status == 0, result.err
    record = yaml.safe_load(questions_in(site)["cells/one.yaml"])
    assert record["nl"]["question"] == '=HYPERLINK("http://example.org","klik")'
    assert record["nl"]["choices"] == ["=1+1", "Nee"]


def test_typed_answers_with_html_or_math_are_located_errors(site):
    header = "id,topic,type,nl.question,nl.accept,nl.explanation\n"
    rows = "a,numbers,typed,Hoeveel?,<b>6</b>|zes,Omdat.\nb,numbers,typed,Welke formule?,$x^2$,Omdat.\n"
    result = import_(site, csv_file(site, header + rows))
    assert result.status == 1
    assert "questions.csv:2:nl.accept: error: '<b>6</b>' holds HTML: an accepted answer is plain text that a reader types [text.html]" in result.err
    assert "questions.csv:3:nl.accept: error: '$x^2$' holds math: an accepted answer is plain text that a reader types [text.math]" in result.err
    assert questions_in(site) == {}


def test_an_order_question_with_two_equal_items_is_an_error_at_its_cell(site):
    header = "id,topic,type,nl.question,nl.items,nl.explanation\n"
    result = import_(site, csv_file(site, header + "steps,cells,order,Volgorde?,een|twee|een,Zo.\n"))
    assert result.status == 1
    assert "questions.csv:2:nl.items: error: 'items' lists 'een' twice [value.duplicate]" in result.err


def test_duplicate_ids_in_one_file_are_errors_at_the_second(site):
    result = import_(site, csv_file(site, HEADER + ROW.format(id="one") + ROW.format(id="two") + ROW.format(id="one")))
    assert result.status == 1
    assert "questions.csv:4:id: error: the id 'one' is also given at " in result.err and "questions.csv:2:id [id.duplicate]" in result.err
    assert questions_in(site) == {}


def test_every_problem_of_a_file_is_told_in_one_run_and_nothing_is_written(site):
    rows = ROW.format(id="good") + ROW.format(id="bad").replace(",A,", ",F,") + ROW.format(id="worse").replace("cells", "cels")
    result = import_(site, csv_file(site, HEADER + rows))
    assert result.status == 1
    assert "questions.csv:3:answer: error: answer 'F' is outside the 2 choices (A-B) [value.answer]" in result.err
    assert "questions.csv:4:topic: error: unknown topic 'cels' [ref.unknown-topic]" in result.err and "did you mean 'cells'?" in result.err
    assert "Import failed: 2 errors" in result.err
    assert questions_in(site) == {}


def test_ids_are_made_from_the_stem_and_made_unique_when_the_file_gives_none(site):
    rows = ROW.format(id="").replace("Vraag ?", "Wat is een cel?") * 2
    result = import_(site, csv_file(site, HEADER + rows))
    assert result.status == 0, result.err
    assert set(questions_in(site)) == {"cells/wat-is-een-cel.yaml", "cells/wat-is-een-cel-2.yaml"}


def test_an_existing_id_is_not_overwritten_without_update(site):
    write_files(site / "content", {"questions/cells/one.yaml": "# mine\ntopic: cells\nanswer: B\nnl: {question: Oud?, choices: [x, y], explanation: Oud.}\n"})
    before = questions_in(site)
    result = import_(site, csv_file(site, HEADER + ROW.format(id="one")))
    assert result.status == 1
    assert "questions.csv:2:id: error: question 'one' exists already (questions/cells/one.yaml) [id.exists]" in result.err
    assert "hint: give --update to replace its nl and fr text, or give this one another id" in result.err
    assert questions_in(site) == before


GIFT_FR = """\
$CATEGORY: $course$/top/La cellule

::one::[html]Question <em>une</em> ?{
\t=Oui#Bien.
\t~Non
####[html]<p>Parce que.</p>}
"""


def test_update_replaces_only_the_files_language_block_and_keeps_the_others_and_comments(site):
    existing = "# written by hand\ntopic: cells\norder: 3  # third\nanswer: B\nnl:\n  question: Oud?  # keep me\n  choices: [x, y]\n  explanation: Oud.\nfr: {question: Vieux, choices: [a, b], explanation: Vieux.}\n"
    write_files(site / "content", {"questions/cells/one.yaml": existing})
    result = import_(site, csv_file(site, GIFT_FR, "bank.gift"), "--lang", "fr", "--update")
    assert result.status == 0, result.err
    assert "Imported 1 question (0 new, 1 updated)" in result.out
    assert questions_in(site)["cells/one.yaml"] == (
        "# written by hand\ntopic: cells\norder: 3  # third\nanswer: A\nnl:\n  question: Oud?  # keep me\n  choices: [x, y]\n  explanation: Oud.\n"
        'fr:\n  question: Question *une* ?\n  choices:\n    - Oui\n    - Non\n  feedback:\n    - Bien.\n    - ""\n  explanation: |\n    Parce que.\n'
    )


def test_gift_categories_become_topics_created_when_missing(site):
    gift = "$CATEGORY: $course$/top/Nieuwe dingen\n\n::Eerste vraag::Klopt dit?{TRUE####Ja.}\n\nNaamloze vraag over cellen?{=ja =yes####Zo.}\n"
    result = import_(site, csv_file(site, gift, "bank.txt"))
    assert result.status == 0, result.err
    assert "and 1 new topic" in result.out and "3 records have no 'fr' text yet." in result.out
    assert (site / "content" / "topics" / "nieuwe-dingen.yaml").read_text(encoding="utf-8") == "nl:\n  title: Nieuwe dingen\n"
    assert set(questions_in(site)) == {"nieuwe-dingen/eerste-vraag.yaml", "nieuwe-dingen/naamloze-vraag-over-cellen.yaml"}


def test_gift_and_moodle_types_studysite_has_not_are_errors_naming_the_type(site):
    gift = "::a::Vertel over cellen.{}\n\n::b::Een beschrijving zonder vragen.\n\n::c::Goed?{TRUE}\n"
    result = import_(site, csv_file(site, gift, "bank.gift"), "--topic", "cells")
    assert result.status == 1
    assert "bank.gift:1:1: error: GIFT question type 'essay' has no Studysite type [import.type]" in result.err
    assert "bank.gift:3:1: error: GIFT question type 'description' has no Studysite type [import.type]" in result.err
    xml = '<?xml version="1.0"?>\n<quiz>\n  <question type="calculated">\n    <name><text>x</text></name>\n  </question>\n</quiz>\n'
    result = import_(site, csv_file(site, xml, "bank.xml"), "--topic", "cells")
    assert result.status == 1
    assert "bank.xml:3:1: error: Moodle question type 'calculated' has no Studysite type [import.type]" in result.err
    assert questions_in(site) == {}


def test_usage_errors_exit_with_2(site):
    assert import_(site, site / "missing.csv").status == 2
    assert import_(site, csv_file(site, GIFT_FR, "bank.gift"), "--lang", "de").status == 2
    assert import_(site, csv_file(site, HEADER, "q.csv"), "--lang", "nl").status == 2
    assert import_(site, csv_file(site, GIFT_FR, "bank.gift"), "--topic", "nope").status == 2


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
@settings(deadline=None, derandomize=True)  # no time limit a loaded machine could break, and the same examples every run
def test_a_text_written_as_a_scalar_reads_back_as_itself(text):
    for flow in (False, True):
        written = scalar(text, flow)
        assert yaml.safe_load(f"key: [{written}]" if flow else f"key: {written}") == {"key": [text] if flow else text}


def test_the_docs_name_the_example():
    assert "questions-example.csv" in (ROOT / "docs" / "import-export.md").read_text(encoding="utf-8")
