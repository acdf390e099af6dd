"""Search: a static full-text index of the built pages, made by Pagefind.

Pagefind reads the finished HTML, splits the index by each page's <html lang> (its
extended build segments Japanese and Chinese, and runs for those languages alone) and
ships the small script the search page loads. It writes into the temporary build folder,
so the index is swapped in with the pages. One index per language, as many made at once
as the build has jobs: a language's search page loads only its own, and indexing a large
site so takes a third of the memory of one run in each process.
Only the pages readers search for are indexed (questions, terms, topics, comparisons; not
the practice, review or status pages that repeat them). A language none of whose indexed
pages changed keeps the index of the previous build; for the others, Pagefind reads a
folder of links to that language's pages, old and new, and writes into the build.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from studysite import urls
from studysite.output.write import Manifest, SiteWriter

ENTRY_FILE = "pagefind-entry.json"
INDEX_BEHIND = "behind"  # the manifest's key of a search index file kept by a preview though its pages changed
INDEXED_FOLDERS = tuple(urls.KIND_FOLDERS[kind] for kind in ("questions", "glossary", "topics", "comparisons"))
_INDEXED_PAGE = re.compile(rf"[^/]+/(?:{'|'.join(INDEXED_FOLDERS)})/[^/]+/index\.html")


class SearchIndexError(Exception):
    pass


def is_indexed(path: str) -> bool:
    """Whether a site file (relative POSIX path) is a page the search index covers."""
    return bool(_INDEXED_PAGE.fullmatch(path))


@dataclass(frozen=True)
class LanguageIndex:
    """One language's index to make: its pages under site_dir, the index into output_dir."""

    language: str
    site_dir: Path
    output_dir: Path


def index_languages(indexes: list[LanguageIndex], jobs: int = 1, made: Callable[[LanguageIndex], None] | None = None) -> None:
    """Make the indexes, up to jobs Pagefind processes at once (each uses a core and a
    half for a few seconds, and as much memory as its language's pages need); made is told
    of each as soon as it is there, while the others are still made. After a failure no
    other is started, and it is raised once none runs any more; on any other exit (Ctrl-C)
    the ones running are stopped."""
    waiting, running, failure = list(indexes), [], None
    try:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                running.append(_start(waiting.pop(0)))
            index, process, output = running[0]
            process.wait()
            running.pop(0)
            failure = failure or _failure(process, output)
            output.close()
            if failure is None:
                _make_deterministic(index.output_dir / ENTRY_FILE)
                if made is not None:
                    made(index)
            else:
                waiting.clear()
    finally:
        for _, process, output in running:
            process.kill()
            process.wait()
            output.close()
    if failure is not None:
        raise failure


# Where Pagefind starts to read a page: at the element it indexes (in base.html, <main>), not
# at <html>, the same index (a page without it is passed over either way) for a tenth less
# of its time, the header's menus and the head no longer walked element by element.
ROOT_SELECTOR = "[data-pagefind-body]"

# Languages written without spaces between words, which Pagefind's extended build segments
SEGMENTED_LANGUAGES = frozenset({"ja", "zh"})
# Pagefind's builds, as the packages that ship them: the extended one, then the standard one
EXTENDED, STANDARD = "pagefind_bin_extended", "pagefind_bin"


def pagefind_command(language: str, packages: tuple[str, ...] | None = None) -> list[str]:
    """How to run Pagefind on a language's pages: its extended build for a language it
    segments, else its standard build, which makes the same index of the others with a
    tenth less time and CPU (at 5,000 questions in Dutch); either when the other is
    missing, and the pagefind package's choice (it looks on PATH too) when both are."""
    if packages is None:
        packages = (EXTENDED, STANDARD) if language.split("-")[0].lower() in SEGMENTED_LANGUAGES else (STANDARD, EXTENDED)
    for package in packages:
        try:
            return [str(importlib.import_module(package).get_executable())]
        except (ImportError, FileNotFoundError):
            continue
    return [sys.executable, "-m", "pagefind"]


def _start(index: LanguageIndex) -> tuple[LanguageIndex, subprocess.Popen, IO[bytes]]:
    """Pagefind started on a language's pages; what it says goes to a file, not a pipe that
    nobody reads while another index is waited for."""
    command = [
        *pagefind_command(index.language), "--site", str(index.site_dir), "--glob", f"{index.language}/{{{','.join(INDEXED_FOLDERS)}}}/*/index.html",
        "--root-selector", ROOT_SELECTOR, "--output-path", str(index.output_dir.resolve()), "--silent",
    ]  # fmt: skip
    output = tempfile.TemporaryFile()
    try:
        return index, subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT), output
    except OSError as error:
        output.close()
        raise SearchIndexError(f"cannot run Pagefind: {error}") from None


def _failure(process: subprocess.Popen, output: IO[bytes]) -> SearchIndexError | None:
    if process.returncode == 0:
        return None
    output.seek(0)
    detail = output.read().decode(errors="replace").strip().splitlines()
    return SearchIndexError("Pagefind could not index the site: " + (detail[-1] if detail else f"exit status {process.returncode}"))


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


def languages_to_index(writer: SiteWriter, previous: Manifest) -> set[str]:
    """The languages whose indexed pages changed since the previous build (in it or by quick
    edits since), or whose index a preview kept though they had."""
    written, old = writer.written, previous.files
    changed = {path.split("/", 1)[0] for path in set(written) | set(old) if is_indexed(path) and written.get(path) != old.get(path)}
    changed |= {path.split("/", 1)[0] for path in previous.pending if is_indexed(path)}
    behind = {path.split("/")[1] for path, key in previous.inputs.items() if key == INDEX_BEHIND and path.startswith(urls.SEARCH_INDEX_FOLDER + "/")}
    return changed | behind


def index_site(writer: SiteWriter, out_dir: Path, previous: Manifest, languages: tuple[str, ...], jobs: int) -> None:
    """A search index per language: the previous one when none of the language's indexed
    pages changed and it is all there, else a new one made by Pagefind (jobs at once)."""
    written, old, changed = writer.written, previous.files, languages_to_index(writer, previous)
    indexes, gathered = [], []
    try:
        for language in languages:
            prefix = urls.search_index_folder(language) + "/"
            index = [path for path in old if path.startswith(prefix)]
            if language not in changed and index and all((out_dir / path).is_file() for path in index):
                for path in index:
                    writer.carry_over(path)
                continue
            site_dir = writer.temp_dir  # every page is in the temporary folder, unless the build is in place
            if writer.in_place:
                pages = {
                    p: writer.temp_dir / p if (writer.temp_dir / p).is_file() else out_dir / p
                    for p in written
                    if p.startswith(language + "/") and is_indexed(p)
                }
                site_dir = writer.temp_dir / f".search-pages-{language}"  # inside the temporary folder, so an interrupted build leaves nothing
                gathered.append(site_dir)
                gather_pages(pages, site_dir)
            indexes.append(LanguageIndex(language, site_dir, writer.temp_dir / urls.search_index_folder(language)))
        index_languages(indexes, jobs, made=lambda index: writer.record_tool_output(index.output_dir))
    finally:
        for folder in gathered:
            shutil.rmtree(folder, ignore_errors=True)
