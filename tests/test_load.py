"""Loading: files become located YAML nodes; unreadable files become located errors.

The tests name Studysite's own diagnostic codes and locations; where a message comes from
PyYAML or libyaml (a syntax error), its wording is theirs and is not asserted."""

import pytest
import yaml

from studysite.content import load
from studysite.content.load import MAX_DEPTH, load_documents, parse_text
from studysite.diagnostics import Report


def errors(report: Report) -> list[str]:
    return [f"{d.location}: {d.message}" for d in report.errors]


def located(report: Report) -> list[tuple[str, str]]:
    return [(str(d.location), d.code) for d in report.diagnostics]


@pytest.fixture(params=["libyaml", "pure-python"])
def loader(request, monkeypatch):
    """Run a test with libyaml's loader (where PyYAML has it) and with PyYAML's own."""
    if request.param == "libyaml" and not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML was built without libyaml")
    monkeypatch.setattr(load, "_Loader", yaml.CSafeLoader if request.param == "libyaml" else yaml.SafeLoader)
    return request.param


def test_syntax_error_is_located(loader):
    report = Report()
    assert parse_text("a: [1, 2\nb: 3\n", "questions/q.yaml", report) is None
    assert located(report) == [("questions/q.yaml:2:2", "yaml.syntax")]
    assert report.errors[0].message.startswith("YAML syntax error: ")


def test_a_tab_that_indents_is_named_as_one(loader):
    report = Report()
    assert parse_text("nl:\n\ttitle: x\n", "topics/t.yaml", report) is None
    assert located(report) == [("topics/t.yaml:2:1", "yaml.syntax")]
    assert "a tab where YAML expects spaces" in report.errors[0].message and "indent with spaces" in report.errors[0].hint


@pytest.mark.parametrize(
    ("text", "where", "hint"),
    [
        # an unquoted ': ' in a value: at the colon, with the line quoted as it should be
        ("topic: t\nen:\n  question: Why: because\n  choices: [a, b]\n", "3:16", 'put the text in quotes: question: "Why: because"'),
        ("en:\n  choices:\n    - a\n  explanation: A text\n    that says this: it\n", "5:19", "put the text in quotes"),
        # a key indented one space too far: at that line, the column of its siblings
        ("topic: t\nen:\n  question: Q\n   choices: [a, b]\n", "4:4", "indent it to column 3, as line 3 ('question: Q')"),
        # one space too few: the block's column, or its parent's to end the block
        ("topic: t\nen:\n  question: Q\n choices: [a, b]\n", "4:2", "indent it to column 3, as line 3 ('question: Q'), or to column 1 to end that block"),
        ("en:\n  choices:\n    - a\n   - b\n", "4:4", "indent it to column 5, as line 3 ('- a')"),
        ("en:\n  explanation: |\n    text\n   more\n", "4:4", "indent it to column 5, as line 3 ('text')"),
        # the line after a mistake is where the parser stops; the hint names the line the sibling is on
        ("en:\n    question: Q\n  choices: [a, b]\n", "3:3", "indent it to column 5, as line 2 ('question: Q')"),
    ],
)
def test_common_yaml_mistakes_are_located_at_their_line_with_a_hint(loader, text, where, hint):
    report = Report()
    assert parse_text(text, "questions/q.yaml", report) is None
    assert located(report) == [(f"questions/q.yaml:{where}", "yaml.syntax")]
    assert hint in report.errors[0].hint, report.errors[0].hint


def test_a_comma_inside_an_item_of_a_bracketed_list_is_named_with_the_item_to_quote():
    from studysite.content.yaml_hints import split_flow_item

    node = parse_text("nl:\n  choices: [Parijs, de hoofdstad, Lyon]\n", "q.yaml", Report())
    choices = node.value[0][1].value[0][1]
    found = split_flow_item(choices, 2)
    assert (found.line, found.column) == (2, 13) and found.hint == 'quote it: "Parijs, de hoofdstad"'
    assert "holds a comma" in found.message
    unknown = split_flow_item(parse_text("c: [Een, Twee, Drie]\n", "q.yaml", Report()).value[0][1], 2)
    assert (unknown.line, unknown.column) == (1, 4) and "quote an item that holds one" in unknown.hint
    assert split_flow_item(choices, 3) is None  # as many items as expected: no comma too many
    block = parse_text("c:\n  - Parijs, de hoofdstad\n  - Lyon\n", "q.yaml", Report()).value[0][1]
    assert split_flow_item(block, 1) is None  # a "- item" list keeps its commas


def test_positions_are_one_based():
    node = parse_text("nl:\n  title: x\n", "t.yaml", Report())
    key, value = node.value[0]
    assert (key.start_mark.line, key.start_mark.column) == (0, 0)


def test_invalid_utf8_names_line_and_column(tmp_path):
    (tmp_path / "site.yaml").write_bytes(b"languages: [nl]\nnl:\n  title: caf\xe9\n")
    report = Report()
    assert load_documents(tmp_path, report) == []
    assert errors(report) == ["site.yaml:3:13: the file is not valid UTF-8 (byte 0xe9)"]


def test_byte_order_mark_is_accepted(tmp_path):
    (tmp_path / "site.yaml").write_bytes("\ufefflanguages: [nl]\n".encode())
    report = Report()
    documents = load_documents(tmp_path, report)
    assert not report.errors and documents[0].node.value[0][0].value == "languages"


def test_empty_file_is_an_error(tmp_path):
    (tmp_path / "site.yaml").write_text("languages: [nl]\n")
    (tmp_path / "topics").mkdir()
    (tmp_path / "topics" / "empty.yaml").write_text("# nothing\n")
    report = Report()
    load_documents(tmp_path, report)
    assert errors(report) == ["topics/empty.yaml:1:1: the file is empty"]


@pytest.mark.parametrize(
    "levels",
    [
        MAX_DEPTH,  # with the root mapping, one level too many: found in the composed tree
        2000,  # short enough to compose; newer libyaml stops at its own limit (1,000 levels)
        60000,  # long: found by the event scan before composing, which could crash the C stack
    ],
)
def test_deep_nesting_gives_one_diagnostic_whichever_layer_notices(loader, levels):
    report = Report()
    assert parse_text("a: " + "[" * levels + "]" * levels, "q.yaml", report) is None
    assert located(report) == [("q.yaml:1:67", "yaml.depth")]  # the bracket that opens level 65
    assert report.errors[0].message == f"the YAML nests deeper than {MAX_DEPTH} levels"


def test_deep_block_nesting_and_unclosed_brackets_are_the_same_diagnostic(loader):
    for text, where in (("x:\n" + "- " * 200 + "1\n", "q.yaml:2:127"), ("a: " + "[" * 3000 + "x", "q.yaml:1:67")):
        report = Report()
        assert parse_text(text, "q.yaml", report) is None
        assert located(report) == [(where, "yaml.depth")]


def test_nesting_within_the_limit_and_aliases_are_accepted(loader):
    assert parse_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "q.yaml", Report()) is not None
    deep = "[" * 40 + "x" + "]" * 40
    report = Report()
    node = parse_text(f"a: &a {deep}\nb: {'[' * 20}*a{']' * 20}\n", "q.yaml", report)
    assert node is not None and not report.diagnostics  # an alias is not nesting written out


def test_missing_site_yaml_and_stray_files(tmp_path):
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "q.yml").write_text("x: 1\n")
    (tmp_path / "question").mkdir()
    report = Report()
    load_documents(tmp_path, report)
    assert errors(report) == [f"site.yaml:1:1: the content folder '{tmp_path}' has no site.yaml"]
    warnings = [(d.code, d.hint) for d in report.warnings]
    assert ("file.extension", "rename it to 'q.yaml'") in warnings
    assert ("folder.unknown", "did you mean 'questions'?") in warnings


def test_control_characters_are_located(loader):
    report = Report()
    assert parse_text("a: ééé\nb: x\x1f\n", "q.yaml", report) is None
    assert errors(report) == ["q.yaml:2:5: YAML does not allow the control character U+001F"]
    assert located(report) == [("q.yaml:2:5", "yaml.character")] and report.errors[0].hint == "remove it"
