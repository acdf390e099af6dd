"""scripts/debian_packages.py: the test suite's Debian packages, installed at the versions in debian-packages.lock."""

import subprocess
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import debian_packages as debian  # noqa: E402
from debian_packages import Locked  # noqa: E402

CHROMIUM = Locked("chromium", "156.0-1", "chromium")
FONT = Locked("fonts-ipafont-gothic", "00303-23")


def test_the_lock_names_what_the_suite_needs_and_reads_back_as_written():
    entries = debian.read_lock(debian.LOCK.read_text(encoding="utf-8"))
    assert {e.package for e in entries} >= {"chromium-headless-shell", "default-jre-headless", "npm", "fonts-ipafont-gothic"}
    assert debian.write_lock(entries) == debian.LOCK.read_text(encoding="utf-8")
    assert "python3 scripts/debian_packages.py install" in (ROOT / "scripts/test").read_text(encoding="utf-8")


def test_a_malformed_line_is_named_by_its_number():
    with pytest.raises(SystemExit, match=r"debian-packages.lock:2: expected 'package version \[command\]'"):
        debian.read_lock("# comment\nchromium\n")


@pytest.mark.parametrize(
    "installed, commands, needed",
    [
        ({"chromium": "156.0-1", "fonts-ipafont-gothic": "00303-23"}, set(), []),
        ({"chromium": "157.0-1", "fonts-ipafont-gothic": "00303-23"}, {"chromium"}, [CHROMIUM]),  # another version: the lock's
        ({}, {"chromium"}, [FONT]),  # a chromium that is no Debian package stands for it; a font has no command
        ({}, set(), [CHROMIUM, FONT]),
    ],
)
def test_what_is_installed_is_what_is_missing_or_at_another_version(installed, commands, needed):
    assert debian.to_install([CHROMIUM, FONT], installed, lambda command: command in commands) == needed


def test_lock_keeps_the_versions_the_archive_offers_and_moves_the_others_to_its_newest():
    offered = {"chromium": ["157.0-1", "150.0-1"], "fonts-ipafont-gothic": ["00303-23"]}
    assert debian.refreshed([CHROMIUM, FONT], offered) == [Locked("chromium", "157.0-1", "chromium"), FONT]
    assert debian.refreshed([Locked("chromium", "150.0-1", "chromium")], offered) == [Locked("chromium", "150.0-1", "chromium")]
    assert debian.refreshed([Locked("chromium", "150.0-1", "chromium")], offered, upgrade=True) == [Locked("chromium", "157.0-1", "chromium")]
    assert debian.refreshed([CHROMIUM], {}) == [CHROMIUM]  # unknown to this machine's archives: as it was


@pytest.mark.parametrize("pinned_works", [True, False])
def test_install_asks_apt_for_the_locked_versions_then_for_what_the_archive_has(monkeypatch, tmp_path, capsys, pinned_works):
    lock = tmp_path / "debian-packages.lock"
    lock.write_text(debian.write_lock([CHROMIUM, FONT]), encoding="utf-8")
    monkeypatch.setattr(debian, "LOCK", lock)
    monkeypatch.setattr(debian, "as_root", lambda: ["env"])
    monkeypatch.setattr(debian.shutil, "which", lambda command: None)
    installs = {"chromium": "157.0-1"}
    monkeypatch.setattr(debian, "installed_versions", lambda packages: {p: v for p, v in installs.items() if p in packages})
    calls = []

    def run(command, **kwargs):
        calls.append(command[command.index("apt-get") + 1 :])
        pinned = any("=" in argument for argument in command[command.index("apt-get") :])
        if "install" in command and (not pinned or pinned_works):
            installs.update({"chromium": "156.0-1" if pinned else "157.0-1", "fonts-ipafont-gothic": "00303-23"})
        return subprocess.CompletedProcess(command, 0 if pinned_works or not pinned else 100)

    monkeypatch.setattr(debian.subprocess, "run", run)
    assert debian.install() == 0
    pinned = ["install", "-y", "-qq", "--no-install-recommends", "--allow-downgrades", "chromium=156.0-1", "fonts-ipafont-gothic=00303-23"]
    assert calls[:2] == [["update", "-qq"], pinned]
    if pinned_works:
        assert len(calls) == 2 and not capsys.readouterr().err
    else:
        assert calls[2] == [*pinned[:-2], "chromium", "fonts-ipafont-gothic"]
        assert "installed chromium 157.0-1 (locked: 156.0-1)" in capsys.readouterr().err
