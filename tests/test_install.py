"""Studysite as an installed tool: a wheel of this repository, installed into a fresh virtual
environment, builds a site from a folder that has nothing to do with the checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest
from workflows import copy_of_the_repository

from studysite import __version__


def uv_command() -> str:
    uv = Path(sys.executable).parent / "uv"
    found = str(uv) if uv.is_file() else shutil.which("uv")
    if found is None:
        pytest.skip("uv (the lock's, in the project environment) is needed to build the wheel")
    return found


def build_wheel(source: Path, out: Path) -> Path:
    """The wheel, built with the build backend pyproject.toml pins ([tool.uv]): from uv's
    cache where it is there (offline), else fetched."""
    uv = uv_command()
    command = [uv, "build", "--wheel", "--out-dir", str(out), str(source)]
    if subprocess.run([*command[:2], "--offline", *command[2:]], capture_output=True, text=True).returncode != 0:
        built = subprocess.run(command, capture_output=True, text=True)
        assert built.returncode == 0, built.stderr
    (wheel,) = out.glob("studysite-*.whl")
    return wheel


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A new virtual environment with the wheel installed (without its dependencies, which
    it borrows from this test's environment: offline, and no second copy of each)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    installed = subprocess.run([uv_command(), "pip", "install", "--offline", "--no-deps", "--python", str(python), str(wheel)], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    site_packages = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    (site_packages / "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return folder / "bin"


def locked_versions(lock: str) -> dict[str, str]:
    """name -> version of each requirement of a pip requirements file with hashes."""
    return dict(line.split(" ")[0].split(";")[0].split("==") for line in lock.splitlines() if "==" in line and not line.startswith(("#", " ")))


def test_the_installed_package_ships_the_lock_of_the_versions_this_suite_runs_with(tmp_path):
    """A site's workflow installs Studysite with --no-deps, then `python -m studysite.locked`'s
    file with --require-hashes: the wheel carries it, and it names every dependency a build
    needs at the version installed here (from uv.lock), the one the whole suite ran with."""
    wheel = build_wheel(copy_of_the_repository(tmp_path / "source"), tmp_path / "dist")
    python = fresh_environment(tmp_path / "venv", wheel) / "python"
    lock = subprocess.run([str(python), "-m", "studysite.locked"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert lock.startswith(str(tmp_path / "venv")), "the lock the installed package ships, not the checkout's"
    versions = locked_versions(Path(lock).read_text(encoding="utf-8"))
    assert {"jinja2", "markdown", "pyyaml", "babel", "pagefind"} <= versions.keys()
    assert versions == {name: metadata.version(name) for name in versions}, "the lock and this test environment agree"
    requirements = metadata.requires("studysite")
    assert {re.split(r"[<>=\[ ;]", r)[0].lower().replace("_", "-") for r in requirements if "extra ==" not in r} <= versions.keys()


@pytest.mark.slow
def test_the_installed_command_builds_a_site_from_any_folder_with_its_own_files_over_the_shipped_ones(tmp_path):
    wheel = build_wheel(copy_of_the_repository(tmp_path / "source"), tmp_path / "dist")
    bin_folder = fresh_environment(tmp_path / "venv", wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def studysite(*args: str, cwd: Path = elsewhere) -> subprocess.CompletedProcess:
        return subprocess.run([str(bin_folder / "studysite"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)

    where = subprocess.run([str(bin_folder / "python"), "-c", "import studysite; print(studysite.__file__)"], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(tmp_path / "venv")), "the installed package, not the checkout"
    assert studysite("--version").stdout.strip() == f"Studysite {__version__}"

    assert studysite("new", "biology", "--languages", "en,de").returncode == 0
    site = elsewhere / "biology"
    (site / "static").mkdir()
    (site / "static/favicon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><title>own</title></svg>', encoding="utf-8")
    initialised = studysite("i18n", "init", "fr", cwd=site)
    assert initialised.returncode == 0, initialised.stderr
    assert sorted(path.name for path in (site / "locales").rglob("*.po")) == ["content.po"]  # the shipped French interface is used as it is

    built = studysite("build", "--no-search", cwd=site)
    assert built.returncode == 0, built.stderr
    assert "Built" in built.stdout
    page = (site / "site/de/questions/remembering/index.html").read_text(encoding="utf-8")
    assert "Mit welcher Lernweise behältst du am meisten?" in page and 'lang="de"' in page
    assert ">Glossar<" in page, "the shipped German interface"
    (favicon,) = (site / "site/assets").glob("favicon.*.svg")
    assert "<title>own</title>" in favicon.read_text(encoding="utf-8"), "the site's own static file over the shipped one"
    assert list((site / "site/assets").glob("style.*.css")), "the shipped style sheet"
