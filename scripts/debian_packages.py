"""The Debian packages the test suite needs, at the versions in debian-packages.lock.

    python3 scripts/debian_packages.py install   install what is missing or at another version (scripts/test)
    python3 scripts/debian_packages.py lock      record the versions to install (scripts/lock)
    python3 scripts/debian_packages.py lock --upgrade   every package at the archive's newest

Each line of the lock names a package, its version and, optionally, the command that
stands for it: a machine whose java or npm comes from elsewhere (not a Debian package)
has what that package would bring, and nothing is installed for it. A package installed
at another version than the lock's is installed at the lock's.

Debian's archive keeps only the newest build of a package in each suite (a point
release's, and the latest security update's), so a locked version can leave it; then
install takes the version the archive offers, says which, and lock records it. lock keeps
every version the archive still offers (with --upgrade, none). Standard library only: it runs before .venv exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

LOCK = Path(__file__).resolve().parent.parent / "debian-packages.lock"
HEADER = """\
# The Debian packages the test suite needs (bookworm), at the versions it was run with:
# scripts/test installs them (scripts/debian_packages.py), scripts/lock rewrites this file.
# package  version  [the command that stands for it when it does not come from Debian]
"""


@dataclass(frozen=True)
class Locked:
    package: str
    version: str
    command: str = ""


def read_lock(text: str) -> list[Locked]:
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) not in (2, 3):
            raise SystemExit(f"{LOCK.name}:{number}: expected 'package version [command]', found {line.strip()!r}")
        entries.append(Locked(*fields))
    return entries


def write_lock(entries: list[Locked]) -> str:
    return HEADER + "".join(" ".join(filter(None, (e.package, e.version, e.command))) + "\n" for e in entries)


def to_install(entries: list[Locked], installed: dict[str, str], has_command) -> list[Locked]:
    """The entries to install: not installed (and no command standing for them), or
    installed at another version."""
    needed = []
    for entry in entries:
        version = installed.get(entry.package)
        if version is None and entry.command and has_command(entry.command):
            continue  # brought by something else than Debian
        if version != entry.version:
            needed.append(entry)
    return needed


def refreshed(entries: list[Locked], offered: dict[str, list[str]], upgrade: bool = False) -> list[Locked]:
    """The lock with each version the archive no longer offers (upgrade: every version)
    replaced by the archive's newest."""
    kept = []
    for entry in entries:
        versions = offered.get(entry.package) or [entry.version]  # unknown to the archive: as it was
        kept.append(entry if entry.version in versions and not upgrade else Locked(entry.package, versions[0], entry.command))
    return kept


def installed_versions(packages: list[str]) -> dict[str, str]:
    """package -> version of those dpkg has installed."""
    if not shutil.which("dpkg-query"):
        return {}
    result = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Version}\n", *packages], capture_output=True, text=True, check=False)
    rows = (line.split("\t") for line in result.stdout.splitlines())
    return {row[0]: row[2] for row in rows if len(row) == 3 and row[1] == "install ok installed"}


def offered_versions(package: str) -> list[str]:
    """The versions the configured archives offer, newest first (apt-cache madison)."""
    result = subprocess.run(["apt-cache", "madison", package], capture_output=True, text=True, check=False)
    return [fields[1].strip() for fields in (line.split("|") for line in result.stdout.splitlines()) if len(fields) >= 3]


def as_root() -> list[str] | None:
    """How to run apt-get as root here: directly, through passwordless sudo, or not at all."""
    if not shutil.which("apt-get"):
        return None
    if os.geteuid() == 0:
        return ["env"]
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False).returncode == 0:
        return ["sudo", "env"]
    return None


def install() -> int:
    entries = read_lock(LOCK.read_text(encoding="utf-8"))
    needed = to_install(entries, installed_versions([e.package for e in entries]), shutil.which)
    if not needed:
        return 0
    root = as_root()
    if root is None:
        print("scripts/test: please install " + " ".join(f"{e.package}={e.version}" for e in needed) + " (Debian packages)", file=sys.stderr)
        return 0
    apt = [*root, "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    subprocess.run([*apt, "update", "-qq"], check=True)
    options = ["install", "-y", "-qq", "--no-install-recommends", "--allow-downgrades"]
    if subprocess.run([*apt, *options, *(f"{e.package}={e.version}" for e in needed)], stdout=subprocess.DEVNULL, check=False).returncode == 0:
        return 0
    subprocess.run([*apt, *options, *(e.package for e in needed)], stdout=subprocess.DEVNULL, check=True)
    now = installed_versions([e.package for e in needed])
    moved = ", ".join(f"{e.package} {now.get(e.package, '?')} (locked: {e.version})" for e in needed if now.get(e.package) != e.version)
    print(f"scripts/test: the archive no longer offers every locked version; installed {moved}. bash scripts/lock records them.", file=sys.stderr)
    return 0


def lock(upgrade: bool = False) -> int:
    if not shutil.which("apt-cache"):
        print(f"scripts/lock: no apt-cache here; {LOCK.name} is left as it is", file=sys.stderr)
        return 0
    entries = read_lock(LOCK.read_text(encoding="utf-8"))
    LOCK.write_text(write_lock(refreshed(entries, {e.package: offered_versions(e.package) for e in entries}, upgrade)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["install"]:
        sys.exit(install())
    if sys.argv[1:2] == ["lock"] and set(sys.argv[2:]) <= {"--upgrade"}:
        sys.exit(lock(upgrade="--upgrade" in sys.argv[2:]))
    raise SystemExit(__doc__)
