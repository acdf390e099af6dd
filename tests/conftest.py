"""Shared fixtures: small content folders written on the fly, the CLI run in-process,
and one build of the sample content shared by the whole-site tests."""

from __future__ import annotations

import contextlib
import io
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from studysite.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_CONTENT = ROOT / "content"
BASE_PATH = "/repo/"

SITE_YAML = """\
languages: [nl, fr]
term_language: ja
base_url: https://example.org/study/
nl: {title: Studie}
fr: {title: Étude}
"""
TOPIC_YAML = """\
nl: {title: Onderwerp, description: Over *dingen*.}
fr: {title: Thème, description: Sur les *choses*.}
"""
QUESTION_YAML = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Rekenen]
  explanation: Een GPU rekent parallel.
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un GPU calcule en parallèle.
"""
TERM_YAML = """\
ja: {term: GPU}
nl: {term: GPU, definition: Grafische processor.}
fr: {term: GPU, definition: Processeur graphique.}
"""


@dataclass
class Result:
    status: int
    out: str
    err: str


def run_cli(*args: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return Result(status, out.getvalue(), err.getvalue())


def write_files(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def minimal_files(**overrides: str | None) -> dict[str, str]:
    """A valid two-language site: one topic, one question, one term. None removes a file."""
    files = {
        "site.yaml": SITE_YAML,
        "topics/basics.yaml": TOPIC_YAML,
        "questions/gpu-role.yaml": QUESTION_YAML,
        "glossary/gpu.yaml": TERM_YAML,
    }
    files.update(overrides)
    return {name: text for name, text in files.items() if text is not None}


@pytest.fixture
def make_content(tmp_path):
    """Write a content folder from minimal_files(**overrides) and return its path."""

    def make(**overrides: str | None) -> Path:
        return write_files(tmp_path / "content", minimal_files(**overrides))

    return make


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    """The sample content built once, strict, under a non-root base path; returns the site folder."""
    root = tmp_path_factory.mktemp("served")
    site = root / BASE_PATH.strip("/")
    result = run_cli("build", "--content", SAMPLE_CONTENT, "--out", site, "--base-url", f"https://example.org{BASE_PATH}", "--strict")
    assert result.status == 0, result.err
    return site
