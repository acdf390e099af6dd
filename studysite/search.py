"""Search: a static full-text index of the built pages, made by Pagefind.

Pagefind reads the finished HTML, splits the index by each page's <html lang> (its
extended build segments Japanese and Chinese) and ships the small script the search page
loads. It runs on the temporary build folder, so the index is swapped in with the pages.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

INDEX_FOLDER = "pagefind"
ENTRY_FILE = "pagefind-entry.json"


class SearchIndexError(Exception):
    pass


def index_folder(language: str) -> str:
    """Where a language's search bundle lives, relative to the site root."""
    return f"{INDEX_FOLDER}/{language}"


def index_site(site_dir: Path, languages: tuple[str, ...]) -> None:
    """One index per language, made one after the other: a language's search page loads
    only its own, and indexing a large site takes a third of the memory of one run."""
    for language in languages:
        _run_pagefind(site_dir, language)
        _make_deterministic(site_dir / index_folder(language) / ENTRY_FILE)


def _run_pagefind(site_dir: Path, language: str) -> None:
    command = [
        sys.executable, "-m", "pagefind", "--site", str(site_dir), "--glob", f"{language}/**/*.html",
        "--output-subdir", index_folder(language), "--silent",
    ]  # fmt: skip
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise SearchIndexError(f"cannot run Pagefind: {error}") from None
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise SearchIndexError("Pagefind could not index the site: " + (detail[-1] if detail else f"exit status {result.returncode}"))


def _make_deterministic(entry_file: Path) -> None:
    """Pagefind lists the index's languages in hash-map order; sort them so that two
    builds of the same input are byte-identical."""
    data = json.loads(entry_file.read_text(encoding="utf-8"))
    entry_file.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")), encoding="utf-8")
