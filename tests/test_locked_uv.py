"""scripts/locked_uv.py: the uv that uv.lock pins, chosen for the machine that installs it."""

import platform
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import locked_uv  # noqa: E402

WHEELS = [
    (f"https://files.example/uv-1.0.0-py3-none-{tags}.whl", f"{n:064x}")
    for n, tags in enumerate(
        [
            "macosx_10_12_x86_64",
            "macosx_11_0_arm64",
            "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
            "manylinux_2_17_x86_64.manylinux2014_x86_64",
            "musllinux_1_1_x86_64",
            "win_amd64",
        ]
    )
]


def machine(monkeypatch, system: str, arch: str, libc: tuple[str, str] = ("", ""), mac: str = "") -> None:
    monkeypatch.setattr(sys, "platform", system)
    monkeypatch.setattr(platform, "machine", lambda: arch)
    monkeypatch.setattr(platform, "libc_ver", lambda: libc)
    monkeypatch.setattr(platform, "mac_ver", lambda: (mac, ("", "", ""), ""))


@pytest.mark.parametrize(
    "system, arch, libc, mac, chosen",
    [
        ("linux", "x86_64", ("glibc", "2.36"), "", "manylinux_2_17_x86_64.manylinux2014_x86_64"),
        ("linux", "aarch64", ("glibc", "2.31"), "", "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64"),
        ("linux", "x86_64", ("", ""), "", "musllinux_1_1_x86_64"),  # Alpine: musl
        ("darwin", "arm64", ("", ""), "14.5", "macosx_11_0_arm64"),
        ("darwin", "x86_64", ("", ""), "10.15", "macosx_10_12_x86_64"),
    ],
)
def test_the_wheel_for_the_machine_is_chosen(monkeypatch, system, arch, libc, mac, chosen):
    machine(monkeypatch, system, arch, libc, mac)
    url, _ = locked_uv.pick_wheel(WHEELS)
    assert url.endswith(f"-{chosen}.whl")


@pytest.mark.parametrize(
    "system, arch, libc", [("linux", "x86_64", ("glibc", "2.12")), ("linux", "riscv64", ("glibc", "2.39")), ("freebsd14", "amd64", ("", ""))]
)
def test_no_wheel_for_the_machine_is_a_clear_error(monkeypatch, system, arch, libc):
    machine(monkeypatch, system, arch, libc)
    with pytest.raises(SystemExit, match="has no uv wheel for this machine"):
        locked_uv.pick_wheel(WHEELS)


def test_the_committed_lock_pins_uv_with_hashed_wheels():
    version, wheels = locked_uv.locked_wheels((ROOT / "uv.lock").read_text(encoding="utf-8"))
    assert version.count(".") == 2 and len(wheels) > 5
    assert all(url.endswith(".whl") and len(digest) == 64 for url, digest in wheels)
    assert locked_uv.pick_wheel(wheels)  # one runs on this machine


def test_a_lock_without_uv_is_refused():
    with pytest.raises(SystemExit, match="pins no uv"):
        locked_uv.locked_wheels('version = 1\n\n[[package]]\nname = "jinja2"\nversion = "3.1.6"\n')


def exported_lock(*selection: str) -> str:
    """uv.lock as pip's requirements with their hashes, without uv's header."""
    uv = Path(sys.executable).with_name("uv")
    command = [str(uv), "export", "--frozen", "--no-emit-project", *selection, "--format", "requirements-txt", "--no-header", "--quiet"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_requirements_txt_holds_the_locked_versions_with_their_hashes():
    """requirements.txt (for pip: --require-hashes) is uv.lock exported; scripts/lock keeps them in step."""
    committed = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert committed.split("\n", 2)[2] == exported_lock("--all-extras"), "requirements.txt lags behind uv.lock: run bash scripts/lock"  # less uv's header
    assert "jinja2==" in committed and "--hash=sha256:" in committed


def test_the_package_ships_the_locked_versions_a_build_needs():
    """studysite/requirements.lock, which a site's workflow installs (studysite/locked.py),
    is uv.lock exported without the test tools; scripts/lock keeps it in step."""
    from studysite.locked import LOCKED_REQUIREMENTS

    shipped = LOCKED_REQUIREMENTS.read_text(encoding="utf-8")
    assert shipped.split("\n", 2)[2] == exported_lock("--no-dev"), "studysite/requirements.lock lags behind uv.lock: run bash scripts/lock"
    assert "jinja2==" in shipped and "--hash=sha256:" in shipped
    assert "pytest==" not in shipped and "uv==" not in shipped


def test_the_build_backend_of_the_editable_install_is_pinned_too():
    """uv.lock lists what is installed, not what builds Studysite itself: the setuptools
    that does is pinned in tool.uv (recorded in the lock's manifest), within build-system's range."""
    import tomllib

    from packaging.specifiers import SpecifierSet

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    (pinned,) = project["tool"]["uv"]["build-constraint-dependencies"]
    name, version = pinned.split("==")
    assert lock["manifest"]["build-constraints"] == [{"name": name, "specifier": f"=={version}"}]
    (required,) = project["build-system"]["requires"]
    assert required.startswith(name) and version in SpecifierSet(required[len(name) :])
