"""`studysite export` to Moodle XML and GIFT: what each type becomes, math as TeX, images
embedded, what a format cannot hold told; and the exit statuses."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import ROOT, run_cli

EXCHANGE_CONTENT = ROOT / "tests" / "sites" / "exchange" / "content"


@pytest.fixture(scope="module")
def moodle(tmp_path_factory) -> ET.Element:
    out = tmp_path_factory.mktemp("moodle") / "bank.xml"
    result = run_cli("export", "--format", "moodle", "--content", EXCHANGE_CONTENT, "--out", out)
    assert result.status == 0, result.err
    assert "Exported 7 questions in 'nl' as Moodle XML" in result.out
    return ET.fromstring(out.read_bytes())


def question(root: ET.Element, name: str) -> ET.Element:
    return next(q for q in root.iter("question") if q.findtext("name/text") == name)


def test_topics_are_categories_with_their_id(moodle):
    categories = [(q.findtext("category/text"), q.findtext("idnumber")) for q in moodle.iter("question") if q.get("type") == "category"]
    assert categories == [("$course$/top/De cel", "cells"), ("$course$/top/Getallen", "numbers")]


def test_choices_carry_their_fractions_and_feedback(moodle):
    single = question(moodle, "organelle")
    assert (single.get("type"), single.findtext("single"), single.findtext("idnumber")) == ("multichoice", "true", "organelle")
    answers = [(a.get("fraction"), a.findtext("text"), a.findtext("feedback/text")) for a in single.findall("answer")]
    assert answers == [
        ("0", "De kern", "De kern bewaart het DNA."),
        ("100", "Het mitochondrion", ""),
        ("0", "Het <code>ribosoom</code>", "Ribosomen maken eiwitten."),
    ]
    multiple = question(moodle, "membranes")
    assert multiple.findtext("single") == "false"
    assert [a.get("fraction") for a in multiple.findall("answer")] == ["50", "-100", "50", "-100"]


def test_each_other_type_is_its_moodle_type(moodle):
    truefalse = question(moodle, "nucleus-dna")
    assert truefalse.get("type") == "truefalse" and [(a.get("fraction"), a.findtext("text")) for a in truefalse.findall("answer")] == [
        ("0", "true"),
        ("100", "false"),
    ]
    typed = question(moodle, "gcd")
    assert typed.get("type") == "shortanswer" and typed.findtext("usecase") == "0"
    assert [a.findtext("text") for a in typed.findall("answer")] == ["6", "zes", "x\\*y"]  # a star is a wildcard in Moodle unless escaped
    numeric = question(moodle, "gravity")
    assert numeric.get("type") == "numerical"
    assert (numeric.findtext("answer/text"), numeric.findtext("answer/tolerance"), numeric.findtext("units/unit/unit_name")) == ("9.81", "0.05", "m/s²")
    order = question(moodle, "cell-stages")
    assert order.get("type") == "ordering" and order.findtext("gradingtype") == "ALL_OR_NOTHING"
    assert [(a.get("fraction"), a.findtext("text")) for a in order.findall("answer")] == [
        ("1.0000000", "Profase"),
        ("2.0000000", "Metafase"),
        ("3.0000000", "Anafase"),
        ("4.0000000", "Telofase"),
    ]
    match = question(moodle, "organelle-roles")
    assert match.get("type") == "matching"
    assert [(s.findtext("text"), s.findtext("answer/text")) for s in match.findall("subquestion")][2] == ("<em>Mitochondrion</em>", "energie leveren")


def test_math_is_tex_and_images_are_embedded_as_plugin_files(moodle):
    assert question(moodle, "gcd").findtext("generalfeedback/text") == r"<p>\(12 = 2 \cdot 6\) en \(18 = 3 \cdot 6\).</p>"
    assert r"\[g = \frac{GM}{r^2}\]" in question(moodle, "gravity").findtext("generalfeedback/text")
    stem = question(moodle, "organelle").find("questiontext")
    assert '<img alt="Een cel" src="@@PLUGINFILE@@/nucleus.svg">' in stem.findtext("text")
    file = stem.find("file")
    assert (file.get("name"), file.get("path"), file.get("encoding")) == ("nucleus.svg", "/", "base64")
    assert base64.b64decode(file.text) == (EXCHANGE_CONTENT / "questions" / "cells" / "nucleus.svg").read_bytes()
    explanation = question(moodle, "organelle").find("generalfeedback")
    assert explanation.find("file").get("path") == "/media/" and "@@PLUGINFILE@@/media/cell.svg" in explanation.findtext("text")


def test_gift_escapes_its_special_characters_and_says_what_it_cannot_hold(tmp_path):
    out = tmp_path / "bank.gift"
    result = run_cli("export", "--format", "gift", "--content", EXCHANGE_CONTENT, "--lang", "fr", "--out", out)
    assert result.status == 0, result.err
    text = out.read_text(encoding="utf-8")
    assert "$CATEGORY: $course$/top/La cellule\n" in text
    assert "// [id:gravity]\n::gravity::[html]Quelle est l'accélération de la pesanteur \\\\(g\\\\) sur Terre ?{#9.81:0.05####" in text
    assert "{#9.81:0.05####[html]<p>Environ 9,81 m/s² ($ et 50 % \\: \\{accolades\\} \\# dièse \\= égal \\~ tilde \\\\ barre).</p>}" in text
    assert "::gcd::[html]Le plus grand commun diviseur de 12 et 18 est {\n\t=6\n\t=six\n####" in text and "}.\n" in text
    assert "{>4 ALL VERTICAL ALL_OR_NOTHING SHOW\nProphase\nMétaphase\nAnaphase\nTélophase\n}" in text
    assert (
        "questions/numbers/gravity.yaml:1:1: warning: GIFT has no place for the unit 'm/s²' of question 'gravity': it is left out [export.lost]" in result.err
    )


def test_export_exit_statuses(tmp_path, make_content):
    assert run_cli("export", "--format", "gift", "--content", EXCHANGE_CONTENT, "--lang", "de", "--out", tmp_path / "x.gift").status == 2
    broken = make_content(**{"questions/gpu-role.yaml": "topic: nope\nanswer: A\nnl: {question: x, choices: [a, b], explanation: y}\n"})
    result = run_cli("export", "--format", "moodle", "--content", broken, "--out", tmp_path / "x.xml")
    assert result.status == 1 and "unknown topic 'nope'" in result.err and "Export failed" in result.err
    assert not (tmp_path / "x.xml").exists()
