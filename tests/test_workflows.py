"""This repository's two workflows: ci.yml tests the generator; pages.yml deploys whatever
site is in content/, so a fork with its own content deploys without touching a workflow."""

from __future__ import annotations

import re
import shutil
import sys

from conftest import ROOT, run_cli
from workflows import copy_of_the_repository, read_workflow, run_job, uses_of

from studysite import scaffold

WORKFLOWS = ROOT / ".github/workflows"
PAGES_BASE_URL = "https://teacher.github.io/biology"
BIOLOGY = ROOT / "tests/sites/biology-basics"  # en, es and de; de partly translated


def with_the_current_environment(script: str) -> str:
    """`bash scripts/setup` (the lock installed into .venv, from the network): here the
    environment the tests run in stands in for it."""
    return script.replace("bash scripts/setup", f"ln -s '{sys.prefix}' .venv") if "scripts/setup" in script else script


def test_a_fork_with_its_own_content_deploys_with_the_workflow_as_it_is(tmp_path):
    fork = copy_of_the_repository(tmp_path / "fork")
    shutil.rmtree(fork / "content")
    shutil.copytree(BIOLOGY, fork / "content")
    ran = run_job(WORKFLOWS / "pages.yml", "build", fork, {"steps.pages.outputs.base_url": PAGES_BASE_URL}, with_the_current_environment)
    assert any("build.py build" in script for script in ran)
    site = fork / "site"
    home = (site / "de/index.html").read_text(encoding="utf-8")
    assert "Biologie-Grundlagen" in home
    untranslated = (site / "de/questions/energy/index.html").read_text(encoding="utf-8")
    assert 'class="notice"' in untranslated and "Which part of the cell makes most of its energy?" in untranslated, "published with the fallback notice"
    assert f'href="{PAGES_BASE_URL}/de/questions/nucleus-role/"' in (site / "de/questions/nucleus-role/index.html").read_text(encoding="utf-8")
    # the same content fails --strict, which the workflow does not use: its gaps are warnings
    strict = run_cli("check", "--content", fork / "content", "--strict")
    assert strict.status == 1 and "[translation.missing]" in strict.err


def test_the_deploy_runs_no_tests_and_no_strict_build_and_ci_runs_what_scripts_test_runs():
    pages = " ".join(step.get("run", "") for step in read_workflow(WORKFLOWS / "pages.yml")["jobs"]["build"]["steps"])
    for unwanted in ("pytest", "ruff", "npm", "--strict", "scripts/test"):
        assert unwanted not in pages
    assert "build.py build --content content" in pages and "--base-url" in pages
    ci = [step.get("run", "") for step in read_workflow(WORKFLOWS / "ci.yml")["jobs"]["test"]["steps"]]
    assert any(re.match(r"bash scripts/test\b", run) for run in ci)


def test_the_deploy_uses_the_official_actions_pinned_as_a_new_sites_workflow_pins_them():
    pinned = {f"{repository}@{commit}" for repository, commit, _ in scaffold.ACTIONS.values()}
    used = uses_of(WORKFLOWS / "pages.yml")
    official = [name for name in used if name.split("@")[0] in {repository for repository, _, _ in scaffold.ACTIONS.values()}]
    assert official and set(official) <= pinned, f"pages.yml's official actions differ from scaffold.ACTIONS: {official}"


def test_every_action_of_the_repositorys_workflows_is_pinned_to_a_commit():
    """A tag can be moved to other code; a commit cannot (the tag it stands for in a comment)."""
    for workflow in sorted(WORKFLOWS.glob("*.yml")):
        floating = [name for name in uses_of(workflow) if not re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", name)]
        assert floating == [], f"{workflow.name}: {floating}"
