"""The round trip: the export of one language of a site imports back into that language's
blocks of the same records: same ids, same answers, same texts. For Moodle XML and GIFT,
for a fixture with every question type (tests/sites/exchange) and for the sample
(tests/sites/study)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from studysite.content.fields import texts_of
from studysite.content.schema import QUESTIONS
from studysite.exchange.exporting import read_content
from studysite.text.markup import MarkdownConverter
from tests.conftest import ROOT, STUDY_CONTENT, run_cli

EXCHANGE_CONTENT = ROOT / "tests" / "sites" / "exchange" / "content"
SITES = {"exchange": EXCHANGE_CONTENT, "study": STUDY_CONTENT}
EXTENSIONS = {"moodle": "xml", "gift": "gift"}


def copied(content: Path, tmp_path: Path) -> Path:
    target = tmp_path / "site" / "content"
    shutil.copytree(content, target)
    return target


def same_text(a: str, b: str) -> bool:
    """Two texts the same but for where a line breaks inside a paragraph and for trailing
    line breaks (which YAML's '|' adds): Markdown makes the same of both."""

    def normalized(text: str) -> list[str]:
        return [" ".join(part.split()) for part in re.split(r"\n\s*\n", text.strip())]

    return normalized(a) == normalized(b)


def rendered(markup: MarkdownConverter, text: str) -> str:
    return markup.block(text)


def assert_same_question(original, imported, language: str, markup: MarkdownConverter) -> None:
    assert (imported.id, imported.topic, imported.type, imported.answer, imported.tolerance) == (
        original.id,
        original.topic,
        original.type,
        original.answer,
        original.tolerance,
    )
    table = QUESTIONS.block_table(original)
    before = {path: text for path, _, text in texts_of(table, original.texts[language])}
    after = {path: text for path, _, text in texts_of(table, imported.texts[language])}
    assert before.keys() == after.keys(), original.id
    for path, text in before.items():
        assert same_text(text, after[path]) or rendered(markup, text) == rendered(markup, after[path]), (original.id, path, text, after[path])


@pytest.mark.parametrize("name", SITES)
@pytest.mark.parametrize("format_name", EXTENSIONS)
def test_the_export_of_each_language_imports_back_into_the_same_records(tmp_path, name, format_name):
    content = copied(SITES[name], tmp_path)
    original = read_content(content)
    for language in original.site.languages:
        bank = tmp_path / f"{language}.{EXTENSIONS[format_name]}"
        exported = run_cli("export", "--format", format_name, "--content", content, "--lang", language, "--out", bank)
        assert exported.status == 0, exported.err
        imported = run_cli("import", bank, "--content", content, "--lang", language, "--update")
        assert imported.status == 0, imported.err
        assert f"Imported {len(original.questions)} questions (0 new, {len(original.questions)} updated)" in imported.out
    after = read_content(content)
    assert after.questions.keys() == original.questions.keys()
    markup = MarkdownConverter()
    for question_id, question in original.questions.items():
        assert after.questions[question_id].texts.keys() == question.texts.keys()
        for language in question.texts:
            assert_same_question(question, after.questions[question_id], language, markup)
        assert (after.questions[question_id].order, after.questions[question_id].terms) == (
            question.order,
            question.terms,
        )  # kept: the formats have no place for them


@pytest.mark.parametrize("format_name", EXTENSIONS)
def test_an_export_imports_into_a_site_without_its_questions(tmp_path, format_name):
    content = copied(EXCHANGE_CONTENT, tmp_path)
    original = read_content(content)
    bank = tmp_path / f"nl.{EXTENSIONS[format_name]}"
    assert run_cli("export", "--format", format_name, "--content", content, "--out", bank).status == 0
    shutil.rmtree(content / "questions")
    result = run_cli("import", bank, "--content", content)
    if format_name == "gift":  # GIFT's ordering answers end the question: no place for an explanation, which a new record needs
        assert result.status == 1
        assert "error: the 'nl' block has no 'explanation' [field.missing]" in result.err and result.err.count("error:") == 1
        return
    assert result.status == 0, result.err
    after = read_content(content)
    assert after.questions.keys() == original.questions.keys()
    markup = MarkdownConverter()
    for question_id, question in original.questions.items():
        assert list(after.questions[question_id].texts) == ["nl"]
        assert_same_question(question, after.questions[question_id], "nl", markup)
    assert (content / "questions" / "cells" / "nucleus.svg").read_bytes() == (EXCHANGE_CONTENT / "questions" / "cells" / "nucleus.svg").read_bytes()
