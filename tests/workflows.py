"""GitHub Actions workflows run here: a job's `run:` steps in order, as a runner runs them
(bash -e, the workflow's env), with its ${{ ... }} expressions given the values GitHub
would give, and any step a test must not run here (an install from the network) replaced."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import yaml
from conftest import ROOT


def read_workflow(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def substitute_expressions(text: str, values: Mapping[str, str]) -> str:
    """The workflow's ${{ ... }} expressions replaced by values (every one must be known)."""

    def value(match: re.Match) -> str:
        expression = match.group(1).strip()
        assert expression in values, f"the test does not know what GitHub gives for {expression}"
        return values[expression]

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def run_job(
    workflow_path: Path,
    job: str,
    cwd: Path,
    expressions: Mapping[str, str],
    replace: Callable[[str], str] = lambda script: script,
    path_before: Path | None = None,
) -> list[str]:
    """Run a job's `run:` steps in cwd; replace(script) gives what runs here in a step's
    place. Returns the scripts run; a failing step fails the test with its output."""
    workflow = read_workflow(workflow_path)
    env = {**os.environ, **{key: str(value) for key, value in workflow.get("env", {}).items()}}
    env.pop("PYTHONPATH", None)
    if path_before is not None:
        env["PATH"] = f"{path_before}{os.pathsep}{env['PATH']}"
    ran = []
    for step in workflow["jobs"][job]["steps"]:
        if "run" not in step:
            continue
        script = replace(substitute_expressions(step["run"], expressions))
        result = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"step {step.get('name')!r} ({script}) failed:\n{result.stdout}\n{result.stderr}"
        ran.append(script)
    return ran


def uses_of(workflow_path: Path) -> list[str]:
    """Every action a workflow uses, as written (`owner/name@ref`), in order."""
    workflow = read_workflow(workflow_path)
    return [step["uses"] for job in workflow["jobs"].values() for step in job["steps"] if "uses" in step]


def copy_of_the_repository(target: Path) -> Path:
    """The files git has (or would add) of this checkout: what a clone or a fork holds."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for relative in filter(None, listed.decode().split("\0")):
        source = ROOT / relative
        if source.is_file() and not source.is_symlink():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / relative)
    return target
