"""Assets: the static files of a site (its own over Studysite's), each at a path that
changes with its bytes, so that a browser may keep it for good."""

from __future__ import annotations

import hashlib
from pathlib import Path

from studysite.output.lean import lean

SERVE_ONLY_ASSETS = {"live-reload.js"}  # served by `serve` itself, never part of a site
MODULE_FOLDERS = ("js", "vendor")  # ES modules import each other by relative URL: one fingerprint per folder


def fingerprinted(name: str, data: bytes) -> str:
    """Where an asset of these bytes is published: "style.css" -> "assets/style.<hash>.css"."""
    stem, dot, suffix = name.rpartition(".")
    fingerprint = hashlib.sha256(data).hexdigest()[:10]
    return f"assets/{stem}.{fingerprint}.{suffix}" if dot else f"assets/{name}.{fingerprint}"


def collect_assets(static_folders: list[Path]) -> dict[str, tuple[str, bytes]]:
    """Static files by name -> (fingerprinted path, bytes); the first folder's file wins.

    A file is fingerprinted by its bytes ("style.css" -> "assets/style.<hash>.css"); the
    files of a module folder by the whole folder ("js/main.js" -> "assets/js.<hash>/main.js"),
    so that the modules' relative imports still meet. Scripts and stylesheets are published
    without the comments that fill whole lines (lean.py)."""
    files: dict[str, bytes] = {}
    for folder in reversed(static_folders):
        for path in sorted(folder.rglob("*")):
            name = path.relative_to(folder).as_posix()
            if path.is_file() and name not in SERVE_ONLY_ASSETS:
                try:
                    files[name] = lean(name, path.read_bytes())
                except FileNotFoundError:  # an editor's temporary file, gone since the listing
                    continue
    assets = {name: (fingerprinted(name, data), data) for name, data in files.items()}
    for folder in MODULE_FOLDERS:
        members = sorted(name for name in files if name.startswith(folder + "/"))
        digest = hashlib.sha256()
        for name in members:
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
        for name in members:
            assets[name] = (f"assets/{folder}.{digest.hexdigest()[:10]}/{name[len(folder) + 1 :]}", files[name])
    return assets
