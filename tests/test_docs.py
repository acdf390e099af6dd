"""The documentation's examples are what Studysite reads: docs/authoring.md's complete example
site is tests/sites/biology-basics/, file for file, and README keeps within its length."""

import re

from conftest import ROOT, run_cli

EXAMPLE = ROOT / "tests/sites/biology-basics"


def test_the_example_site_of_the_authoring_guide_is_the_fixture_and_checks():
    text = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    example = text.partition("## A complete example site")[2]
    shown = dict(re.findall(r"`content/([^`]+)`:\n\n```yaml\n(.*?)```", example, re.S))
    files = {path.relative_to(EXAMPLE).as_posix(): path.read_text(encoding="utf-8") for path in EXAMPLE.rglob("*.yaml")}
    assert shown == files
    result = run_cli("check", "--content", EXAMPLE)
    assert result.status == 0 and result.err.count("[translation.missing]") == 2, result.err


def test_the_readme_stays_for_users_and_short():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    assert re.findall(r"```sh\n(.*?)```", readme, re.S) == ["bash scripts/setup && .venv/bin/python build.py\n", "bash scripts/test\n"]
    for section in ("## Start your own site", "## Deploy to GitHub Pages"):
        assert section in readme


def test_each_kind_of_question_in_the_authoring_guide_checks(tmp_path):
    """The guide's example of each question type is a question Studysite reads, as written."""
    text = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    block = re.search(r"### Other kinds of question.*?```yaml\n(.*?)```", text, re.S).group(1)
    examples = block.split("---\n")
    assert len(examples) == 6
    content = tmp_path / "content"
    (content / "questions").mkdir(parents=True)
    (content / "topics").mkdir()
    (content / "site.yaml").write_text("languages: [en]\nen: {title: Biology}\n", encoding="utf-8")
    (content / "topics/cells.yaml").write_text("en: {title: Cells}\n", encoding="utf-8")
    for number, example in enumerate(examples):
        (content / f"questions/q{number}.yaml").write_text("topic: cells\n" + example, encoding="utf-8")
    result = run_cli("check", "--content", content)
    assert result.status == 0 and "warning" not in result.err, result.err
