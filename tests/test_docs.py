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
