"""QTI 2.1 out: the bank as an IMS content package, a zip of imsmanifest.xml (IMS CP 1.1)
and one assessmentItem per question, with the images its texts show.

choiceInteraction for single, multiple and true-false (per-choice feedback as
modalFeedback, shown for the choices picked), textEntryInteraction for typed (each
accepted answer mapped, case ignored, where the blank is) and numeric (equal within the
tolerance), orderInteraction for order, matchInteraction for match. An explanation is a
modalFeedback shown after any answer. Texts are the build's HTML, written as the XHTML
subset QTI's itemBody allows, math as TeX between \\( \\). QTI items have no category:
the topics are not in the package.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from pathlib import PurePosixPath

from studysite.content.schema import BLANK
from studysite.diagnostics import Report
from studysite.exchange.bank import Bank, BankQuestion
from studysite.exchange.texts import parse_html

QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
QTI_SCHEMA = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP_SCHEMA = "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
MATCH_CORRECT = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"
MAP_RESPONSE = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"
ZIP_TIME = (2000, 1, 1, 0, 0, 0)  # every entry's time: the same questions give the same bytes
# The XHTML of QTI 2.1's itemBody: each element and the attributes it may keep; others give
# their content (a <span> in place of the tags of the build's HTML that QTI lacks).
ELEMENTS = {
    **{tag: () for tag in ("p", "div", "span", "em", "strong", "b", "i", "code", "pre", "kbd", "q", "sub", "sup", "br", "hr", "blockquote")},
    **{tag: () for tag in ("ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "h3", "h4", "h5", "h6")},
    "th": ("colspan", "rowspan"),
    "td": ("colspan", "rowspan"),
    "abbr": ("title",),
    "a": ("href",),
    "img": ("src", "alt", "width", "height"),
}
BLOCK = {"p", "div", "ul", "ol", "dl", "table", "pre", "blockquote", "hr", "h3", "h4", "h5", "h6"}


def q(tag: str) -> str:
    """An element's name: the documents declare their namespace as the default one (xmlns)."""
    return tag


def write_qti(bank: Bank, report: Report) -> bytes:
    """The bank as the bytes of a zip: imsmanifest.xml, an item file per question, media/."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        resources = []
        for _, questions in bank.topics:
            for item in questions:
                media = _media_names(item)
                name = f"items/{item.question.id}.xml"
                _add(package, name, _xml(assessment_item(item, bank, {source: f"../{path}" for source, path in media.items()})))
                for source, path in media.items():
                    _add(package, path, item.images[source].read_bytes())
                resources.append((item, name, sorted(set(media.values()))))
        _add(package, "imsmanifest.xml", _xml(manifest(bank, resources)))
    return buffer.getvalue()


def _add(package: zipfile.ZipFile, name: str, data: bytes) -> None:
    if name not in package.namelist():
        package.writestr(zipfile.ZipInfo(name, ZIP_TIME), data, zipfile.ZIP_DEFLATED)


def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False) + b"\n"


def _media_names(item: BankQuestion) -> dict[str, str]:
    """The package path of each image the question shows: media/<question id>-<file name>."""
    return {source: f"media/{item.question.id}-{path.name}" for source, path in item.images.items()}


def identifier(record_id: str) -> str:
    """A record id as a QTI identifier, which starts with a letter."""
    return record_id if record_id[:1].isalpha() else f"q-{record_id}"


# -- the item -----------------------------------------------------------------------------


def assessment_item(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> ET.Element:
    root = ET.Element("assessmentItem", {"xmlns": QTI, "xmlns:xsi": XSI, "xsi:schemaLocation": f"{QTI} {QTI_SCHEMA}"})
    root.set("identifier", identifier(item.question.id))
    root.set("title", item.question.id)
    root.set("adaptive", "false")
    root.set("timeDependent", "false")
    root.set("{http://www.w3.org/XML/1998/namespace}lang", bank.language)
    parts = _PARTS[item.question.type](item, bank, sources)
    root.append(parts.response)
    _outcome(root, "SCORE", "float", "0")
    feedback = item.html.feedback if item.question.type in ("single", "multiple") and any(item.html.feedback) else ()
    if feedback:
        ET.SubElement(
            root, q("outcomeDeclaration"), identifier="FEEDBACK", cardinality="single" if item.question.type == "single" else "multiple", baseType="identifier"
        )
    if item.html.explanation:
        ET.SubElement(root, q("outcomeDeclaration"), identifier="EXPLANATION", cardinality="single", baseType="identifier")
    root.append(parts.body)
    root.append(_processing(parts.scoring, bool(feedback), bool(item.html.explanation)))
    for index, text in enumerate(feedback):
        if text:
            modal = ET.SubElement(root, q("modalFeedback"), outcomeIdentifier="FEEDBACK", identifier=_letter(index), showHide="show")
            _fill(modal, text, sources, flow=True)
    if item.html.explanation:
        _fill(
            ET.SubElement(root, q("modalFeedback"), outcomeIdentifier="EXPLANATION", identifier="shown", showHide="show"),
            item.html.explanation,
            sources,
            flow=True,
        )
    return root


class _Parts:
    def __init__(self, response: ET.Element, body: ET.Element, scoring: ET.Element):
        self.response, self.body, self.scoring = response, body, scoring


def _outcome(root: ET.Element, name: str, base_type: str, default: str) -> None:
    outcome = ET.SubElement(root, q("outcomeDeclaration"), identifier=name, cardinality="single", baseType=base_type)
    ET.SubElement(ET.SubElement(outcome, q("defaultValue")), q("value")).text = default


def _response(cardinality: str, base_type: str, correct: list[str]) -> ET.Element:
    response = ET.Element(q("responseDeclaration"), identifier="RESPONSE", cardinality=cardinality, baseType=base_type)
    values = ET.SubElement(response, q("correctResponse"))
    for value in correct:
        ET.SubElement(values, q("value")).text = value
    return response


def _letter(index: int) -> str:
    return chr(ord("A") + index)


def _stem(item: BankQuestion, sources: dict[str, str]) -> ET.Element:
    body = ET.Element(q("itemBody"))
    _fill(ET.SubElement(body, q("div")), item.html.question, sources)
    return body


def _set_score(condition: ET.Element) -> ET.Element:
    """The scoring that sets SCORE to 1 when `condition` holds, else 0."""
    rule = ET.Element(q("responseCondition"))
    branch = ET.SubElement(rule, q("responseIf"))
    branch.append(condition)
    for parent, score in ((branch, "1"), (ET.SubElement(rule, q("responseElse")), "0")):
        ET.SubElement(ET.SubElement(parent, q("setOutcomeValue"), identifier="SCORE"), q("baseValue"), baseType="float").text = score
    return rule


def _matches_correct() -> ET.Element:
    match = ET.Element(q("match"))
    ET.SubElement(match, q("variable"), identifier="RESPONSE")
    ET.SubElement(match, q("correct"), identifier="RESPONSE")
    return match


def _processing(scoring: ET.Element, feedback: bool, explanation: bool) -> ET.Element:
    """responseProcessing: a standard template when nothing else is set, else the rules."""
    if scoring.tag == "template" and not feedback and not explanation:
        return ET.Element(q("responseProcessing"), template=scoring.get("href"))
    processing = ET.Element(q("responseProcessing"))
    processing.append(
        _set_score(_matches_correct())
        if scoring.tag == "template" and scoring.get("href") == MATCH_CORRECT
        else scoring
        if scoring.tag != "template"
        else _mapped()
    )
    if feedback:
        ET.SubElement(ET.SubElement(processing, q("setOutcomeValue"), identifier="FEEDBACK"), q("variable"), identifier="RESPONSE")
    if explanation:
        ET.SubElement(ET.SubElement(processing, q("setOutcomeValue"), identifier="EXPLANATION"), q("baseValue"), baseType="identifier").text = "shown"
    return processing


def _mapped() -> ET.Element:
    """SCORE set to the response's mapped value (what the map_response template does)."""
    rule = ET.Element(q("responseCondition"))
    branch = ET.SubElement(rule, q("responseIf"))
    ET.SubElement(ET.SubElement(branch, q("isNull")), q("variable"), identifier="RESPONSE")
    ET.SubElement(ET.SubElement(branch, q("setOutcomeValue"), identifier="SCORE"), q("baseValue"), baseType="float").text = "0"
    otherwise = ET.SubElement(rule, q("responseElse"))
    ET.SubElement(ET.SubElement(otherwise, q("setOutcomeValue"), identifier="SCORE"), q("mapResponse"), identifier="RESPONSE")
    return rule


def _template(href: str) -> ET.Element:
    return ET.Element("template", href=href)


def _choices(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    single = item.question.type == "single"
    right = [item.question.answer] if single else list(item.question.answer)
    body = _stem(item, sources)
    interaction = ET.SubElement(body, q("choiceInteraction"), responseIdentifier="RESPONSE", shuffle="false", maxChoices="1" if single else "0")
    for index, choice in enumerate(item.html.choices):
        _fill(ET.SubElement(interaction, q("simpleChoice"), identifier=_letter(index)), choice, sources, flow=True)
    response = _response("single" if single else "multiple", "identifier", [_letter(index) for index in right])
    return _Parts(response, body, _template(MATCH_CORRECT))


def _true_false(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    body = _stem(item, sources)
    interaction = ET.SubElement(body, q("choiceInteraction"), responseIdentifier="RESPONSE", shuffle="false", maxChoices="1")
    for value, label in zip(("true", "false"), bank.true_false, strict=True):
        ET.SubElement(interaction, q("simpleChoice"), identifier=value).text = label
    return _Parts(_response("single", "identifier", ["true" if item.question.answer else "false"]), body, _template(MATCH_CORRECT))


def _entry(item: BankQuestion, sources: dict[str, str], expected_length: int, after: str = "") -> ET.Element:
    """The stem with a text entry where its blank is (else after it, in a paragraph of its own)."""
    body = ET.Element(q("itemBody"))
    stem = item.html.question
    before, blank, rest = stem.partition(BLANK) if item.question.type == "typed" else (stem, "", "")
    paragraph = ET.SubElement(body, q("p") if blank else q("div"))
    _fill(paragraph, before, sources, flow=not blank)
    if not blank:
        paragraph = ET.SubElement(body, q("p"))
    interaction = ET.SubElement(paragraph, q("textEntryInteraction"), responseIdentifier="RESPONSE", expectedLength=str(expected_length))
    interaction.tail = ""
    _fill(paragraph, rest + (f" {after}" if after else ""), sources, flow=False, after=interaction)
    return body


def _typed(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    accepted = list(item.text.accept)
    response = _response("single", "string", accepted[:1])
    mapping = ET.SubElement(response, q("mapping"), defaultValue="0", lowerBound="0", upperBound="1")
    for answer in accepted:
        ET.SubElement(mapping, q("mapEntry"), mapKey=answer, mappedValue="1", caseSensitive="false")
    body = _entry(item, sources, max(len(answer) for answer in accepted) + 2)
    return _Parts(response, body, _template(MAP_RESPONSE))


def _numeric(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    response = _response("single", "float", [format(item.question.answer, "f")])
    body = _entry(item, sources, len(format(item.question.answer, "f")) + 2, item.html.unit)
    tolerance = format(item.question.tolerance, "f")
    equal = (
        ET.Element(q("equal"), toleranceMode="absolute", tolerance=f"{tolerance} {tolerance}")
        if item.question.tolerance
        else ET.Element(q("equal"), toleranceMode="exact")
    )
    ET.SubElement(equal, q("variable"), identifier="RESPONSE")
    ET.SubElement(equal, q("correct"), identifier="RESPONSE")
    return _Parts(response, body, _set_score(equal))


def _order(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    body = _stem(item, sources)
    interaction = ET.SubElement(body, q("orderInteraction"), responseIdentifier="RESPONSE", shuffle="true")
    names = [f"I{number}" for number in range(1, len(item.html.items) + 1)]
    for name, text in zip(names, item.html.items, strict=True):
        _fill(ET.SubElement(interaction, q("simpleChoice"), identifier=name), text, sources, flow=True)
    return _Parts(_response("ordered", "identifier", names), body, _template(MATCH_CORRECT))


def _match(item: BankQuestion, bank: Bank, sources: dict[str, str]) -> _Parts:
    body = _stem(item, sources)
    count = len(item.html.pairs)
    interaction = ET.SubElement(body, q("matchInteraction"), responseIdentifier="RESPONSE", shuffle="true", maxAssociations=str(count))
    sides = (ET.SubElement(interaction, q("simpleMatchSet")), ET.SubElement(interaction, q("simpleMatchSet")))
    for number, pair in enumerate(item.html.pairs, 1):
        for side, prefix, text in zip(sides, "LR", pair, strict=True):
            _fill(ET.SubElement(side, q("simpleAssociableChoice"), identifier=f"{prefix}{number}", matchMax="1"), text, sources, flow=True)
    return _Parts(_response("multiple", "directedPair", [f"L{n} R{n}" for n in range(1, count + 1)]), body, _template(MATCH_CORRECT))


_PARTS = {"single": _choices, "multiple": _choices, "true-false": _true_false, "typed": _typed, "numeric": _numeric, "order": _order, "match": _match}


# -- HTML as QTI's XHTML ------------------------------------------------------------------


def _fill(parent: ET.Element, fragment: str, sources: dict[str, str], flow: bool = True, after: ET.Element | None = None) -> None:
    """The build's HTML fragment as QTI elements appended to parent (after one of its
    children, when given). flow: the parent takes blocks too; else inline content only."""
    nodes = parse_html(fragment)
    if not flow:
        nodes = _inline_only(nodes)
    _append(parent, nodes, sources, after)


def _inline_only(nodes: list) -> list:
    """Block elements' content, run together: for a parent that takes inline content only."""
    out = []
    for node in nodes:
        if isinstance(node, list) and node[0] in BLOCK:
            out += _inline_only(node[2]) + [" "]
        else:
            out.append(node)
    return out


def _append(parent: ET.Element, nodes: list, sources: dict[str, str], after: ET.Element | None = None) -> None:
    last = after
    for node in nodes:
        if isinstance(node, str):
            if last is None:
                parent.text = (parent.text or "") + node
            else:
                last.tail = (last.tail or "") + node
            continue
        tag, attributes, children = node
        if tag not in ELEMENTS:
            element = ET.Element(q("span"))
        else:
            allowed = ELEMENTS[tag]
            element = ET.Element(q(tag), {name: value for name, value in attributes.items() if name in allowed})
            if tag == "img":
                element.set("src", sources.get(attributes.get("src", ""), attributes.get("src", "")))
                element.set("alt", attributes.get("alt", ""))
        if last is None:
            parent.append(element)
        else:
            parent.insert(list(parent).index(last) + 1, element)
        if tag not in ("img", "br", "hr"):
            _append(element, children, sources)
        last = element


# -- the manifest -------------------------------------------------------------------------


def manifest(bank: Bank, resources: list) -> ET.Element:
    root = ET.Element("manifest", {"xmlns": CP, "xmlns:xsi": XSI, "xsi:schemaLocation": f"{CP} {CP_SCHEMA}", "identifier": "studysite-questions"})
    metadata = ET.SubElement(root, "metadata")
    ET.SubElement(metadata, "schema").text = "QTIv2.1 Package"
    ET.SubElement(metadata, "schemaversion").text = "1.0.0"
    ET.SubElement(root, "organizations")
    listed = ET.SubElement(root, "resources")
    for item, name, media in resources:
        resource = ET.SubElement(listed, "resource", identifier=f"res-{identifier(item.question.id)}", type="imsqti_item_xmlv2p1", href=name)
        ET.SubElement(resource, "file", href=name)
        for path in media:
            ET.SubElement(resource, "file", href=path)
    return root


def item_files(package: zipfile.ZipFile) -> list[str]:
    """The item files a package lists (for tests and readers)."""
    return [name for name in package.namelist() if PurePosixPath(name).parent.name == "items"]
