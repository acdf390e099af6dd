"""Search: a static full-text index of the built pages, made by Pagefind.

Pagefind reads the finished HTML, splits the index by each page's <html lang> (its
extended build segments Japanese and Chinese) and ships the small script the search page
loads. It writes into the temporary build folder, so the index is swapped in with the pages.
One index per language, made one after the other: a language's search page loads only its
own, and indexing a large site takes a third of the memory of one run.
Only the pages readers search for are indexed (questions, terms, topics, comparisons; not
the practice, review or status pages that repeat them). A language none of whose indexed
pages changed keeps the index of the previous build; for the others, Pagefind reads a
folder of links to that language's pages, old and new, and writes into the build.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import urls

ENTRY_FILE = "pagefind-entry.json"
INDEXED_FOLDERS = tuple(urls.KIND_FOLDERS[kind] for kind in ("questions", "glossary", "topics", "comparisons"))
_INDEXED_PAGE = re.compile(rf"[^/]+/(?:{'|'.join(INDEXED_FOLDERS)})/[^/]+/index\.html")


class SearchIndexError(Exception):
    pass


def is_indexed(path: str) -> bool:
    """Whether a site file (relative POSIX path) is a page the search index covers."""
    return bool(_INDEXED_PAGE.fullmatch(path))


def index_language(site_dir: Path, language: str, output_dir: Path) -> None:
    """Index a language's pages under site_dir into output_dir."""
    command = [
        sys.executable, "-m", "pagefind", "--site", str(site_dir), "--glob", f"{language}/{{{','.join(INDEXED_FOLDERS)}}}/*/index.html",
        "--output-path", str(output_dir.resolve()), "--silent",
    ]  # fmt: skip
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise SearchIndexError(f"cannot run Pagefind: {error}") from None
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise SearchIndexError("Pagefind could not index the site: " + (detail[-1] if detail else f"exit status {result.returncode}"))
    _make_deterministic(output_dir / ENTRY_FILE)


def gather_pages(pages: dict[str, Path], folder: Path) -> None:
    """Hard-link (or copy) pages, by their site path, into a folder for Pagefind to read."""
    for path, source in pages.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)


def _make_deterministic(entry_file: Path) -> None:
    """Pagefind lists the index's languages in hash-map order; sort them so that two
    builds of the same input are byte-identical."""
    data = json.loads(entry_file.read_text(encoding="utf-8"))
    entry_file.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")), encoding="utf-8")
