"""The content files' JSON Schemas: made from the schema, committed beside the sample for
editors (schemas/), and every record of the fixture sites valid against them, while broken
shapes are not."""

from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import ROOT, STUDY_CONTENT, run_cli

from studysite.content.json_schema import schema_files

SITES = [STUDY_CONTENT, ROOT / "tests/sites/variety/content", ROOT / "tests/sites/types/content"]
KIND_OF = {"topics": "topic", "questions": "question", "glossary": "term", "comparisons": "comparison"}


def schema_for(path: Path, content: Path) -> dict:
    relative = path.relative_to(content).as_posix()
    name = "site" if relative == "site.yaml" else KIND_OF[relative.split("/")[0]]
    return yaml.safe_load(schema_files()[f"{name}.schema.json"])


def records(content: Path) -> list[Path]:
    return [content / "site.yaml", *sorted(p for p in content.rglob("*.yaml") if p.parent != content)]


@pytest.mark.parametrize("content", SITES, ids=lambda path: path.parent.name)
def test_every_record_of_the_fixture_sites_is_valid(content):
    for path in records(content):
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema_for(path, content), cls=jsonschema.Draft7Validator)


@pytest.mark.parametrize(
    "record",
    [
        {"topic": "t", "answer": "AB", "nl": {"question": "Q"}},  # not one letter
        {"topic": "t", "type": "multiple", "answer": True, "nl": {"question": "Q"}},
        {"topic": "t", "type": "typed", "answer": "A", "nl": {"question": "Q", "accept": ["x"]}},  # typed has no answer
        {"topic": "t", "type": "order", "nl": {"question": "Q", "choices": ["a", "b"]}},  # order has items, not choices
        {"topic": "t", "answer": "A", "nl": {"question": "Q", "explantion": "E"}},
        {"answer": "A", "nl": {"question": "Q"}},  # no topic
        {"topic": "t", "type": "sorting", "nl": {"question": "Q"}},
    ],
)
def test_a_wrong_shape_is_refused(record):
    schema = yaml.safe_load(schema_files()["question.schema.json"])
    assert list(jsonschema.Draft7Validator(schema).iter_errors(record))


def test_the_committed_schemas_are_the_schema_of_this_version(tmp_path):
    """schemas/ is what `studysite schema` writes: regenerate it after changing content/schema.py."""
    assert run_cli("schema", "--out", tmp_path).status == 0
    for name, text in schema_files().items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text
        assert (ROOT / "schemas" / name).read_text(encoding="utf-8") == text, f"run: python build.py schema (schemas/{name} is out of date)"
