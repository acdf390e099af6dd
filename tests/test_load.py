"""Loading: files become located YAML nodes; unreadable files become located errors."""

from studysite.diagnostics import Report
from studysite.load import MAX_DEPTH, load_documents, parse_text


def errors(report: Report) -> list[str]:
    return [f"{d.location}: {d.message}" for d in report.errors]


def test_syntax_error_is_located():
    report = Report()
    assert parse_text("a: [1, 2\nb: 3\n", "questions/q.yaml", report) is None
    assert errors(report) == ["questions/q.yaml:2:2: YAML syntax error: did not find expected ',' or ']'"]
    assert "flow sequence" in report.errors[0].hint


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


def test_deep_nesting_is_refused_not_crashed():
    report = Report()
    text = "a: " + "[" * 60000 + "]" * 60000
    assert parse_text(text, "q.yaml", report) is None
    assert report.errors[0].message == f"the YAML nests deeper than {MAX_DEPTH} levels"


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


def test_control_characters_are_located():
    report = Report()
    assert parse_text("a: ééé\nb: x\x1f\n", "q.yaml", report) is None
    assert errors(report) == ["q.yaml:2:5: YAML does not allow the character U+001F (control characters are not allowed)"]
