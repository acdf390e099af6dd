"""Search: a static full-text index of the built pages, made by Pagefind.

Pagefind reads the finished HTML, splits the index by each page's <html lang> (its
extended build segments Japanese and Chinese) and ships the small script the search page
loads. It runs on the temporary build folder, so the index is swapped in with the pages.
Only the pages readers search for are indexed (questions, terms, topics, comparisons; not
the practice, review or status pages that repeat them). A language none of whose indexed
pages changed keeps the index of the previous build.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

INDEX_FOLDER = "pagefind"
ENTRY_FILE = "pagefind-entry.json"
INDEXED_FOLDERS = ("questions", "glossary", "topics", "comparisons")
_INDEXED_PAGE = re.compile(rf"[^/]+/(?:{'|'.join(INDEXED_FOLDERS)})/[^/]+/index\.html")


class SearchIndexError(Exception):
    pass


def index_folder(language: str) -> str:
    """Where a language's search bundle lives, relative to the site root."""
    return f"{INDEX_FOLDER}/{language}"


def is_indexed(path: str) -> bool:
    """Whether a site file (relative POSIX path) is a page the search index covers."""
    return bool(_INDEXED_PAGE.fullmatch(path))


def index_site(site_dir: Path, languages: tuple[str, ...], reuse: dict[str, tuple[Path, list[str]]] | None = None) -> None:
    """One index per language, made one after the other: a language's search page loads
    only its own, and indexing a large site takes a third of the memory of one run.
    reuse: per language, a previous index folder that is still right and its files' names."""
    reuse = reuse or {}
    for language in languages:
        target = site_dir / index_folder(language)
        if language in reuse and _reuse_index(*reuse[language], target):
            continue
        _run_pagefind(site_dir, language)
        _make_deterministic(target / ENTRY_FILE)


def _reuse_index(source: Path, names: list[str], target: Path) -> bool:
    """Link (or copy) the files of a previous index into place; False if that fails."""
    if ENTRY_FILE not in names:
        return False
    try:
        for name in names:
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source / name, destination)
            except OSError:
                shutil.copy2(source / name, destination)
    except OSError:
        shutil.rmtree(target, ignore_errors=True)
        return False
    return True


def _run_pagefind(site_dir: Path, language: str) -> None:
    command = [
        sys.executable, "-m", "pagefind", "--site", str(site_dir), "--glob", f"{language}/{{{','.join(INDEXED_FOLDERS)}}}/*/index.html",
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
