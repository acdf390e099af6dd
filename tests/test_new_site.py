"""`studysite new`: a site repository that builds at once, whose Pages workflow installs a
pinned Studysite, builds the content and deploys it with the official actions pinned to commits."""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, QuietServer, png, run_cli
from test_validity import validate
from workflows import read_workflow, run_job, uses_of

from studysite import __version__, scaffold

PAGES_BASE_URL = "https://example.github.io/biology"  # what actions/configure-pages gives: no "/" at the end
STARTER_FILES = {
    ".github/workflows/pages.yml",
    ".gitignore",
    "README.md",
    "content/site.yaml",
    "content/topics/getting-started.yaml",
    "content/questions/getting-started/remembering.yaml",
    "content/glossary/active-recall.yaml",
    "content/glossary/rereading.yaml",
    "content/comparisons/recall-or-rereading.yaml",
    ".vscode/settings.json",  # the editor checks and completes the content with the JSON Schemas beside it
    *(f"schemas/{name}.schema.json" for name in ("site", "topic", "question", "term", "comparison")),
}


def files_below(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def workflow_of(site: Path) -> dict:
    return read_workflow(site / ".github/workflows/pages.yml")


def studysite_of_this_checkout(folder: Path) -> Path:
    """A `studysite` command that runs this checkout with the test's Python: the workflow's
    pinned install, pointed at this checkout (offline, and the code under test)."""
    folder.mkdir(parents=True, exist_ok=True)
    command = folder / "studysite"
    command.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m studysite "$@"\n', encoding="utf-8")
    command.chmod(0o755)
    return folder


# The workflow's install: the pinned Studysite alone, then its dependencies at the versions its
# tests ran with, from the lock the installed package ships (tests/test_install.py installs so)
WORKFLOW_INSTALL = [
    'python -m pip install --no-deps "$STUDYSITE"',
    'python -m pip install --require-hashes -r "$(python -m studysite.locked)"',
    "python -m pip check",
]


def installing_this_checkout(script: str) -> str:
    """The workflow's pinned install, replaced: studysite_of_this_checkout() made the command."""
    if '"$STUDYSITE"' not in script:
        return script
    assert [line.strip() for line in script.strip().splitlines()] == WORKFLOW_INSTALL
    return "command -v studysite"


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def test_a_new_site_builds_with_its_own_workflow_and_is_served(tmp_path):
    site = tmp_path / "biology"
    made = run_cli("new", site, "--languages", "en,es", "--title", "Biology: the basics")
    assert made.status == 0, made.err
    assert "studysite==" + __version__ in made.out
    assert files_below(site) == STARTER_FILES

    add_a_question_with_an_image_and_audio(site / "content")
    tools = studysite_of_this_checkout(tmp_path / "bin")
    workflow = site / ".github/workflows/pages.yml"
    ran = run_job(workflow, "build", site, {"steps.pages.outputs.base_url": PAGES_BASE_URL}, installing_this_checkout, tools)
    assert any("studysite build" in script for script in ran)
    assert (site / "site/en/questions/remembering/index.html").is_file()
    assert (site / "site/es/glossary/active-recall/index.html").is_file()
    published = {path.relative_to(site / "site/media").as_posix().split(".")[0] for path in (site / "site/media").iterdir()}
    assert published == {"cell", "cell-spoken"}
    assert validate(site / "site") == []  # every page of the new site, the author's question too, is valid HTML

    # served under the repository's path, as GitHub Pages serves a project site
    (tmp_path / "served").mkdir()
    (tmp_path / "served/biology").symlink_to(site / "site")
    server = QuietServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(tmp_path / "served")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        root = f"http://127.0.0.1:{server.server_address[1]}/biology/"
        status, home = fetch(root + "en/")
        assert status == 200 and "Biology: the basics" in home and "Getting started" in home
        status, question = fetch(root + "en/questions/remembering/")
        assert status == 200 and "Which way of studying helps you remember best?" in question
        assert f'<link rel="canonical" href="{PAGES_BASE_URL}/en/questions/remembering/">' in question
        status, spanish = fetch(root + "es/questions/remembering/")
        assert status == 200 and "¿Qué forma de estudiar te ayuda más a recordar?" in spanish
        status, cell = fetch(root + "en/questions/cell-parts/")
        image = re.search(r'<img alt="A cell with its nucleus" src="([^"]+)" width="4" height="3"', cell)
        sound = re.search(r'<audio controls preload="none" src="([^"]+)"', cell)
        assert status == 200 and image and sound
        for source in (image.group(1), sound.group(1)):  # both load from the served site
            with urllib.request.urlopen(urllib.parse.urljoin(root + "en/questions/cell-parts/", source), timeout=30) as response:
                assert response.status == 200 and response.read()
    finally:
        server.shutdown()


MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x00" * 64


def add_a_question_with_an_image_and_audio(content: Path) -> None:
    """What an author adds next: a question with an image beside it and its audio."""
    folder = content / "questions/getting-started"
    (folder / "cell.png").write_bytes(png())
    (folder / "cell-spoken.mp3").write_bytes(MP3)
    (folder / "cell-parts.yaml").write_text(
        "topic: getting-started\n"
        "answer: A\n"
        "en:\n"
        "  question: Which part holds the DNA?\n"
        "  choices: [The nucleus, The membrane]\n"
        "  explanation: |\n"
        "    ![A cell with its nucleus](cell.png)\n\n"
        "    The nucleus holds the DNA.\n"
        "  audio: cell-spoken.mp3\n",
        encoding="utf-8",
    )


def test_the_workflow_installs_a_pinned_studysite_and_uses_only_official_actions_pinned_to_commits(tmp_path):
    site = tmp_path / "site-repo"
    assert run_cli("new", site).status == 0
    text = (site / ".github/workflows/pages.yml").read_text(encoding="utf-8")
    workflow = workflow_of(site)
    assert workflow["env"]["STUDYSITE"] == f"studysite=={__version__}"
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    used = uses_of(site / ".github/workflows/pages.yml")
    assert [name.split("@")[0] for name in used] == [
        "actions/checkout",
        "actions/setup-python",
        "actions/configure-pages",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    ]
    for name in used:
        assert re.fullmatch(r"actions/[a-z-]+@[0-9a-f]{40}", name), name
        assert re.search(re.escape(name) + r"\s+# v\d+\.\d+\.\d+\n", text), f"{name}: its release tag in a comment"
    runs = " ".join(step.get("run", "") for step in steps).lower()
    for unwanted in ("pytest", "npm", "chromium", "playwright", "--strict"):
        assert unwanted not in runs


def test_a_language_without_starter_text_gets_the_english_text_marked_for_translation(tmp_path):
    site = tmp_path / "site-repo"
    assert run_cli("new", site, "--languages", "nl,ca").status == 0
    question = (site / "content/questions/getting-started/remembering.yaml").read_text(encoding="utf-8")
    record = yaml.safe_load(question)
    assert set(record) == {"topic", "answer", "terms", "nl", "ca"}
    assert record["nl"]["question"] == "Met welke manier van leren onthoud je het best?"
    assert record["ca"] == yaml.safe_load((ROOT / "studysite/starter/content/questions/getting-started/remembering.yaml").read_text(encoding="utf-8"))["en"]
    assert "# ca: the English text below is waiting for its translation into Catalan\nca:\n" in question
    assert "# A question:" in question, "the starter's comments are kept"
    site_yaml = yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))
    assert site_yaml["languages"] == ["nl", "ca"] and site_yaml["nl"]["title"] == "Mijn studiesite"
    check = run_cli("check", "--content", site / "content")
    assert check.status == 0, check.err


def test_new_refuses_a_folder_that_is_not_empty_and_writes_nothing(tmp_path):
    site = tmp_path / "mine"
    site.mkdir()
    (site / "README.md").write_text("my own notes\n", encoding="utf-8")
    result = run_cli("new", site)
    assert result.status == 2 and "'" + str(site) + "' is not empty" in result.err
    assert files_below(site) == {"README.md"} and (site / "README.md").read_text(encoding="utf-8") == "my own notes\n"
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    assert run_cli("new", tmp_path / "a-file").status == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("new", empty).status == 0 and files_below(empty) == STARTER_FILES


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["--languages", "EN"], "write 'en'"),
        (["--languages", "en,xx-yy"], "not a valid language code"),
        (["--languages", "en,es,en"], "'en' twice"),
        (["--pin", "latest"], "neither a version"),
        (["--title", ""], "one line"),
    ],
)
def test_new_says_what_is_wrong_with_its_options_and_writes_nothing(tmp_path, arguments, expected):
    result = run_cli("new", tmp_path / "site-repo", *arguments)
    assert result.status == 2 and expected in result.err, result.err
    assert not (tmp_path / "site-repo").exists()


def test_the_pin_is_a_version_or_a_commit_of_the_repository():
    assert scaffold.requirement_of(None) == f"studysite=={__version__}"
    assert scaffold.requirement_of("0.3.1") == "studysite==0.3.1"
    assert scaffold.requirement_of("git") == f"studysite @ git+{scaffold.REPOSITORY}@v{__version__}"
    assert scaffold.requirement_of("git:4f2a9c1") == f"studysite @ git+{scaffold.REPOSITORY}@4f2a9c1"
    assert scaffold.requirement_of("git+https://github.com/me/studysite@v0.2.0") == "studysite @ git+https://github.com/me/studysite@v0.2.0"
    for wrong in ("git:", "git:-x", "1.0; rm -rf ~", 'git+https://x"@y'):
        with pytest.raises(scaffold.NewSiteError):
            scaffold.requirement_of(wrong)


def test_a_title_that_yaml_would_misread_is_quoted():
    assert scaffold.yaml_scalar("Biology basics") == "Biology basics"
    for title in ("Biology: the basics", "#1 in biology", "yes", "- a list?", "[x]"):
        assert yaml.safe_load(f"title: {scaffold.yaml_scalar(title)}") == {"title": title}


def test_the_version_and_the_repository_are_the_same_everywhere():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == __version__
    assert project["urls"]["Repository"] == scaffold.REPOSITORY
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {__version__}" in changelog, "CHANGELOG.md says what this version changed for sites"
