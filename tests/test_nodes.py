"""Reading typed values out of located YAML nodes (nodes.NodeReader)."""

import pytest

from studysite.content.load import parse_text
from studysite.content.node_reader import NodeReader
from studysite.diagnostics import Report


def read_text(yaml_value: str) -> tuple[str | None, list[tuple[str, str, str]]]:
    report = Report()
    root = parse_text(f"question: {yaml_value}\n", "q.yaml", report)
    value = NodeReader("q.yaml", report).text(root.value[0][1], "question")
    return value, [(str(d.location), d.code, d.message) for d in report.diagnostics]


@pytest.mark.parametrize("escape, code_point", [("\\0", "U+0000"), ("\\x01", "U+0001"), ("\\e", "U+001B"), ("\\x7f", "U+007F"), ("\\N", "U+0085")])
def test_a_control_character_from_an_escape_is_refused_where_it_is_written(escape, code_point):
    value, diagnostics = read_text(f'"Wat doet{escape} een GPU?"')
    assert value is None
    assert diagnostics == [("q.yaml:1:11", "value.control-character", f"'question' contains the control character {code_point}")]


def test_tabs_and_line_breaks_are_text():
    assert read_text('"Een\\tGPU\\nrekent\\r\\n"') == ("Een\tGPU\nrekent", [])


def test_list_items_are_named_as_items():
    report = Report()
    root = parse_text('choices: [a, "b\\0"]\n', "q.yaml", report)
    assert NodeReader("q.yaml", report).text_list(root.value[0][1], "choices") is None
    assert [(str(d.location), d.message) for d in report.diagnostics] == [("q.yaml:1:14", "an item of 'choices' contains the control character U+0000")]
