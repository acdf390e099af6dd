"""QTI 2.1 out: an IMS content package whose items are valid QTI.

No package on PyPI or npm ships IMS's own QTI 2.1 schema (imsqti_v2p1.xsd), so the items
are checked, with lxml, against tests/qti/qti21-items.xsd, the part of QTI 2.1 the export
writes, transcribed from QTI's information model (element order, required attributes,
value lists); and the package against what Canvas's QTI importer (instructure/qti) reads:
resources of type imsqti_item_xmlv2p1 whose files are in the zip, one interaction per item,
an identifier and a title, correct responses that name the interaction's choices."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.conftest import ROOT, STUDY_CONTENT, run_cli

etree = pytest.importorskip("lxml.etree")

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
EXCHANGE_CONTENT = ROOT / "tests" / "sites" / "exchange" / "content"
INTERACTIONS = ("choiceInteraction", "textEntryInteraction", "orderInteraction", "matchInteraction")


@pytest.fixture(scope="module")
def schema():
    return etree.XMLSchema(etree.parse(str(ROOT / "tests" / "qti" / "qti21-items.xsd")))


def package_of(content, tmp_path, language: str = "nl") -> zipfile.ZipFile:
    out = tmp_path / f"{language}.zip"
    result = run_cli("export", "--format", "qti", "--content", content, "--lang", language, "--out", out)
    assert result.status == 0, result.err
    return zipfile.ZipFile(io.BytesIO(out.read_bytes()))


def items_of(package: zipfile.ZipFile) -> dict[str, object]:
    manifest = etree.fromstring(package.read("imsmanifest.xml"))
    resources = manifest.findall(f"{CP}resources/{CP}resource")
    assert resources and all(resource.get("type") == "imsqti_item_xmlv2p1" for resource in resources)
    for resource in resources:
        for file in resource.findall(f"{CP}file"):
            assert file.get("href") in package.namelist()
    return {resource.get("href"): etree.fromstring(package.read(resource.get("href"))) for resource in resources}


@pytest.mark.parametrize("content", [EXCHANGE_CONTENT, STUDY_CONTENT], ids=["every-type", "sample"])
def test_every_item_is_valid_qti(tmp_path, schema, content):
    for language in ("nl", "fr"):
        for name, item in items_of(package_of(content, tmp_path, language)).items():
            assert schema.validate(item), (name, schema.error_log.last_error)


def test_each_type_has_its_interaction_and_its_correct_response(tmp_path):
    items = {name.removeprefix("items/").removesuffix(".xml"): item for name, item in items_of(package_of(EXCHANGE_CONTENT, tmp_path)).items()}
    expected = {
        "organelle": ("choiceInteraction", "single", ["B"]),
        "membranes": ("choiceInteraction", "multiple", ["A", "C"]),
        "nucleus-dna": ("choiceInteraction", "single", ["false"]),
        "gcd": ("textEntryInteraction", "single", ["6"]),
        "gravity": ("textEntryInteraction", "single", ["9.81"]),
        "cell-stages": ("orderInteraction", "ordered", ["I1", "I2", "I3", "I4"]),
        "organelle-roles": ("matchInteraction", "multiple", ["L1 R1", "L2 R2", "L3 R3"]),
    }
    assert items.keys() == expected.keys()
    for name, (interaction, cardinality, correct) in expected.items():
        item = items[name]
        assert item.get("identifier") == name and item.get("title")
        found = [element for tag in INTERACTIONS for element in item.iter(QTI + tag)]
        assert [element.tag for element in found] == [QTI + interaction], name  # one interaction: Canvas refuses more
        response = item.find(f"{QTI}responseDeclaration")
        assert response.get("cardinality") == cardinality
        assert [value.text for value in response.findall(f"{QTI}correctResponse/{QTI}value")] == correct
        choices = {choice.get("identifier") for choice in found[0].iter(QTI + "simpleChoice", QTI + "simpleAssociableChoice")}
        assert all(part in choices for value in correct for part in value.split()) or interaction == "textEntryInteraction"


def test_typed_answers_are_mapped_without_case_and_numbers_compared_within_the_tolerance(tmp_path):
    items = items_of(package_of(EXCHANGE_CONTENT, tmp_path))
    typed = items["items/gcd.xml"]
    assert [(entry.get("mapKey"), entry.get("caseSensitive")) for entry in typed.iter(QTI + "mapEntry")] == [("6", "false"), ("zes", "false"), ("x*y", "false")]
    paragraph = next(typed.iter(QTI + "p"))
    assert (
        paragraph.text.startswith("De grootste gemene deler van 12 en 18 is") and paragraph[0].tag == QTI + "textEntryInteraction" and paragraph[0].tail == "."
    )
    equal = next(items["items/gravity.xml"].iter(QTI + "equal"))
    assert (equal.get("toleranceMode"), equal.get("tolerance")) == ("absolute", "0.05 0.05")
    assert "m/s²" in etree.tostring(items["items/gravity.xml"], encoding="unicode")


def test_feedback_per_choice_and_the_explanation_are_modal_feedback_math_is_tex_and_images_are_in_the_package(tmp_path):
    package = package_of(EXCHANGE_CONTENT, tmp_path)
    item = items_of(package)["items/organelle.xml"]
    feedback = {(element.get("outcomeIdentifier"), element.get("identifier")) for element in item.iter(QTI + "modalFeedback")}
    assert feedback == {("FEEDBACK", "A"), ("FEEDBACK", "C"), ("EXPLANATION", "shown")}
    images = [image.get("src") for image in item.iter(QTI + "img")]
    assert images == ["../media/organelle-nucleus.svg", "../media/organelle-cell.svg"]
    assert {"media/organelle-nucleus.svg", "media/organelle-cell.svg"} <= set(package.namelist())
    gcd = etree.tostring(items_of(package)["items/gcd.xml"], encoding="unicode")
    assert r"\(12 = 2 \cdot 6\)" in gcd and "<math" not in gcd
