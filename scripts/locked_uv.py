"""Write the uv binary that uv.lock pins to DEST, after checking its hash against the lock.

Standard library only, so that a machine with nothing but python3 (no pip, no venv module,
an externally managed Python) can install the lock: scripts/setup and scripts/lock use it
when the project's environment does not hold uv yet. Linux and macOS.

    python3 scripts/locked_uv.py DEST
"""

from __future__ import annotations

import hashlib
import io
import platform
import re
import sys
import urllib.request
import zipfile
from pathlib import Path

LOCK = Path(__file__).resolve().parent.parent / "uv.lock"
_LEGACY_LINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def locked_wheels(lock_text: str) -> tuple[str, list[tuple[str, str]]]:
    """uv's version in the lock and its wheels as (url, sha256)."""
    block = re.search(r'^\[\[package\]\]\nname = "uv"\nversion = "([^"]+)"\n(.*?)(?=^\[\[package\]\]|\Z)', lock_text, re.M | re.S)
    if block is None:
        raise SystemExit("uv.lock pins no uv: add 'uv' to the dev dependency group of pyproject.toml")
    return block.group(1), re.findall(r'\{ url = "([^"]+\.whl)", hash = "sha256:([0-9a-f]{64})"', block.group(2))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2])


def runs_here(platform_tag: str) -> bool:
    """Whether a wheel's platform tag (one of the dot-separated parts) runs on this machine."""
    machine = platform.machine().lower()
    if sys.platform == "darwin":
        found = re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", platform_tag)
        here = _version(platform.mac_ver()[0])
        return bool(found) and _version(f"{found[1]}.{found[2]}") <= here and found[3] in (machine, "universal2")
    if not sys.platform.startswith("linux"):
        return False
    libc, libc_version = platform.libc_ver()
    for legacy, version in _LEGACY_LINUX.items():
        platform_tag = platform_tag.replace(f"{legacy}_", f"manylinux_{version[0]}_{version[1]}_")
    found = re.fullmatch(r"(manylinux|musllinux)_(\d+)_(\d+)_(\w+)", platform_tag)
    if not found or found[4] != machine:
        return False
    if found[1] == "manylinux":
        return libc == "glibc" and (int(found[2]), int(found[3])) <= _version(libc_version)
    return libc != "glibc"  # musl: every musllinux_1_x wheel uv publishes runs on a current musl


def pick_wheel(wheels: list[tuple[str, str]]) -> tuple[str, str]:
    for url, digest in wheels:
        tags = url.rsplit("/", 1)[-1].removesuffix(".whl").split("-")[-1]
        if any(runs_here(tag) for tag in tags.split(".")):
            return url, digest
    raise SystemExit(f"uv.lock has no uv wheel for this machine ({sys.platform}, {platform.machine()}): install uv yourself and run 'uv sync --locked'")


def fetch_uv(destination: Path) -> None:
    version, wheels = locked_wheels(LOCK.read_text(encoding="utf-8"))
    url, digest = pick_wheel(wheels)
    print(f"Fetching uv {version} as pinned in uv.lock ...", file=sys.stderr)
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != digest:
        raise SystemExit(f"the uv wheel from {url} does not match the hash in uv.lock; nothing was installed")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        binary = next(name for name in wheel.namelist() if re.fullmatch(r"[^/]+\.data/scripts/uv", name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(wheel.read(binary))
    destination.chmod(0o755)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: " + __doc__.strip().splitlines()[-1].strip())
    fetch_uv(Path(sys.argv[1]))
