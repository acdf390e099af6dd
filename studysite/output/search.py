"""Search: a static full-text index of the built pages, made by Pagefind.

Pagefind reads the finished HTML, splits the index by each page's <html lang> (its
extended build segments Japanese and Chinese, and runs for those languages alone) and
ships the small script the search page loads. Its files are written into the temporary
build folder, so the index is swapped in with the pages. One index per language: a
language's search page loads only its own. A language of more than PAGES_PER_PART pages
is indexed in parts, runs of its pages in the order of their paths, each by a Pagefind of
its own (its memory grows with its pages: some 70 KB a page), as many at once as the build
has jobs; the first part's folder names the others in parts.json, and the search page
merges them (static/js/search.js, with Pagefind's mergeIndex).
Only the pages readers search for are indexed (questions, terms, topics, comparisons; not
the practice, review or status pages that repeat them). A language none of whose indexed
pages changed keeps the index of the previous build; for the others, Pagefind's service is
given each part's pages, old and new, one by one in the order of their paths (so the
index's bytes do not depend on the file system), and hands back the index's files.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from studysite import urls
from studysite.fileio import read_bytes, write_new_file
from studysite.output.manifest import digest
from studysite.output.write import Manifest, SiteWriter

ENTRY_FILE = "pagefind-entry.json"
PARTS_FILE = "parts.json"  # in a language's index folder: the folders of its other parts, relative to it
PAGES_PER_PART = 5000  # the most pages one Pagefind indexes: its memory, and how many cores a language's index can use
INDEX_BEHIND = "behind"  # the manifest's key of a search index file kept by a preview though its pages changed
INDEXED_FOLDERS = tuple(urls.KIND_FOLDERS[kind] for kind in ("questions", "glossary", "topics", "comparisons"))
_INDEXED_PAGE = re.compile(rf"[^/]+/(?:{'|'.join(INDEXED_FOLDERS)})/[^/]+/index\.html")


class SearchIndexError(Exception):
    """Pagefind could not index the pages."""


class SearchToolError(Exception):
    """The system would not let Pagefind run or stopped it (a signal, a limit): no fault of the content."""


def is_indexed(path: str) -> bool:
    """Whether a site file (relative POSIX path) is a page the search index covers."""
    return bool(_INDEXED_PAGE.fullmatch(path))


@dataclass(frozen=True)
class LanguageIndex:
    """One language's index to make (or one part of it): its pages, the index into
    output_dir. pages: each page's site path and the folder it is under; None: every page
    of the language that the index covers, under site_dir."""

    language: str
    site_dir: Path
    output_dir: Path
    pages: tuple[tuple[str, Path], ...] | None = None

    def listed(self) -> list[tuple[str, Path]]:
        """The pages in the order of their site paths, which is the order of the index."""
        if self.pages is not None:
            return sorted(self.pages)
        found = (
            path.relative_to(self.site_dir).as_posix() for folder in INDEXED_FOLDERS for path in self.site_dir.glob(f"{self.language}/{folder}/*/index.html")
        )
        return sorted((path, self.site_dir) for path in found)


def index_languages(indexes: list[LanguageIndex], jobs: int = 1, made: Callable[[LanguageIndex, dict[str, str]], None] | None = None) -> None:
    """Make the indexes, up to jobs Pagefind processes at once (each uses a core for a few
    seconds, and as much memory as its pages need); made is told of each, with the files
    written into its folder (path -> sha256), as soon as it is there, while the others are still made.
    After a failure no other is started, and it is raised once none runs any more; on any
    other exit (Ctrl-C) the ones running are stopped."""
    waiting, running, failure = list(indexes), [], None
    try:
        while waiting or running:
            while waiting and len(running) < max(1, jobs):
                running.append(_Indexer(waiting.pop(0)))
            indexer = running[0]
            indexer.wait()
            running.pop(0)
            problem = indexer.failure()
            if problem is None:
                indexer.write()
                if made is not None:
                    made(indexer.index, indexer.digests)
            else:
                failure = failure or problem
                waiting.clear()
    finally:
        for indexer in running:
            indexer.stop()
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


def _message(number: int, payload: dict) -> bytes:
    """A request to Pagefind's service: base64 of its JSON, ended by a comma."""
    return base64.b64encode(json.dumps({"message_id": number, "payload": payload}).encode()) + b","


class _Indexer:
    """Pagefind's service (`pagefind --service`) making one language's index. It is given
    the pages one by one in the order of their paths, so the index does not depend on the
    order in which the file system lists a folder (Pagefind's own walk of --site does):
    the same pages give the same bytes on ext4 and on tmpfs. It hands the index's files
    back, and they are written here (the service answers before its own writes are done).
    The conversation runs in a thread; what Pagefind says besides goes to a file, not a
    pipe nobody reads."""

    def __init__(self, index: LanguageIndex):
        self.index, self.errors, self.files, self.killed = index, [], None, False
        self.digests: dict[str, str] = {}  # each file written into the index's folder: its sha256
        self.written: bool | BaseException = False  # whether the conversation's thread wrote the index's files, or what it met
        self.listed = index.listed()
        self.pages = len(self.listed)
        self.last = self.pages + 1  # the number of the last request, for the index's files
        self.output = tempfile.TemporaryFile()
        command = [*pagefind_command(index.language), "--service"]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.output)
        except OSError as error:
            self.output.close()
            raise SearchToolError(f"cannot run Pagefind: {error}") from None
        self.thread = threading.Thread(target=self._talk, daemon=True)
        self.thread.start()

    def requests(self) -> Iterator[dict]:
        """A new index, each page (read as it is sent: a language's pages take some 90 MB at
        5,000 questions), the index's files."""
        yield {"type": "NewIndex", "config": {"root_selector": ROOT_SELECTOR}}
        for path, folder in self.listed:
            yield {"type": "AddFile", "index_id": 0, "file_path": path, "file_contents": _page_text(folder / path)}
        yield {"type": "GetFiles", "index_id": 0}

    def _feed(self) -> None:
        try:
            for number, payload in enumerate(self.requests()):
                self.process.stdin.write(_message(number, payload))
            self.process.stdin.flush()
        except (OSError, ValueError):  # Pagefind stopped: _talk reads its end
            return

    def _talk(self) -> None:
        """Send the requests and read the answers (each base64 ended by a comma; the last,
        the index's files, some megabytes) up to the last one; then close Pagefind's input,
        which ends it."""
        feeder = threading.Thread(target=self._feed, daemon=True)
        feeder.start()
        parts: list[bytes] = []
        while self.files is None and not self.killed and (chunk := self.process.stdout.read1(1 << 16)):
            while (comma := chunk.find(b",")) >= 0:
                parts.append(chunk[:comma])
                try:
                    self._take(json.loads(base64.b64decode(b"".join(parts))))
                except ValueError:  # not an answer of its service: stop it
                    self.errors.append("Pagefind gave an answer that could not be read")
                    self.killed = True
                    self.process.kill()
                    break
                parts, chunk = [], chunk[comma + 1 :]
            parts.append(chunk)
        if self.killed:
            return
        feeder.join()
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        if self.process.wait() == 0 and self.files and not self.errors:
            try:  # here, as soon as they came: while another language's Pagefind still works
                self._write_files()
            except (OSError, SearchIndexError) as error:
                self.written = error
            else:
                self.written = True

    def _take(self, response: object) -> None:
        if not isinstance(response, dict) or not isinstance(response.get("payload"), dict):
            raise ValueError("not an answer")
        payload = response["payload"]
        if payload.get("type") == "Error":
            self.errors.append(str(payload.get("message", "")).strip())
        if response.get("message_id") == self.last:
            self.files = payload.get("files") or []

    def wait(self) -> None:
        self.thread.join()
        self.process.wait()

    def stop(self) -> None:
        self.process.kill()
        self.wait()
        self.output.close()

    def failure(self) -> Exception | None:
        """What went wrong, if anything: the system stopped Pagefind (SearchToolError), or
        it could not index the pages (SearchIndexError)."""
        self.output.seek(0)
        said = self.output.read().decode(errors="replace").strip().splitlines()
        self.output.close()
        code = self.process.returncode
        if code < 0 and not self.killed:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else f"signal {-code}"
            return SearchToolError(f"Pagefind was stopped by {name} ({signal.strsignal(-code)}) while indexing '{self.index.language}'")
        if self.errors or code != 0 or not self.files:
            detail = self.errors[-1] if self.errors else said[-1] if said else f"exit status {code}"
            return SearchIndexError(f"Pagefind could not index the site: {detail}")
        if not self.pages:
            return SearchIndexError(f"Pagefind could not index the site: no page of '{self.index.language}' to index")
        return None

    def write(self) -> None:
        """The index's files written into its folder (OSError if the system refuses)."""
        if isinstance(self.written, BaseException):
            raise self.written
        if not self.written:
            self._write_files()

    def _write_files(self) -> None:
        folder, targets = self.index.output_dir, []
        for file in self.files or []:
            path = PurePosixPath(file["path"])
            if path.is_absolute() or ".." in path.parts:
                raise SearchIndexError(f"Pagefind named a file outside its folder: {file['path']}")
            targets.append((file["path"], os.fspath(folder / path), file["content"]))
        for parent in sorted({os.path.dirname(target) for _, target, _ in targets}):
            os.makedirs(parent, exist_ok=True)
        for name, target, content in targets:
            data = base64.b64decode(content)
            if name == ENTRY_FILE:
                data = _deterministic_entry(data)
            write_new_file(target, data)
            self.digests[name] = digest(data)


def _page_text(path: Path) -> str:
    """What Pagefind's service is given of a page (with its path in the site, which makes
    its URL as Pagefind's own walk of the folder would)."""
    return indexed_part(read_bytes(path)).decode("utf-8")


_HTML_TAG = re.compile(rb"<html\b[^>]*>")
_INDEXED_MAIN = re.compile(rb"<main\b[^>]*\sdata-pagefind-body[\s=>]")


def indexed_part(page: bytes) -> bytes:
    """The part of a page that Pagefind reads: its <html> tag (the page's language) and the
    <main> element it indexes (ROOT_SELECTOR: base.html's, on the pages searched for), with
    nothing between. The same index as from the whole page, for some 6 % less of Pagefind's
    CPU and memory, and less of the build's for sending it (docs/performance.md). The whole
    page when it is made otherwise (a site's own base.html: the element elsewhere, or more
    than one)."""
    opening, root, end = _HTML_TAG.search(page), _INDEXED_MAIN.search(page), page.rfind(b"</main>")
    if opening is None or root is None or end < root.start() or page.count(b"data-pagefind-body") != 1 or page.count(b"<main") != 1:
        return page
    return b"%s<body>%s</body></html>" % (opening.group(), page[root.start() : end + len(b"</main>")])


def _deterministic_entry(data: bytes) -> bytes:
    """Pagefind's entry file with its languages sorted (Pagefind lists them in hash-map
    order), so that two builds of the same input are byte-identical."""
    return json.dumps(json.loads(data), sort_keys=True, separators=(",", ":")).encode()


def languages_to_index(writer: SiteWriter, previous: Manifest) -> set[str]:
    """The languages whose indexed pages changed since the previous build (in it or by quick
    edits since), whose index a preview kept though they had, or one of whose index files
    is not as the previous build left it."""
    written, old = writer.written, previous.files
    changed = {path.split("/", 1)[0] for path in set(written) | set(old) if is_indexed(path) and written.get(path) != old.get(path)}
    changed |= {path.split("/", 1)[0] for path in previous.pending if is_indexed(path)}
    changed |= {path.split("/")[1] for path in previous.pending if path.startswith(urls.SEARCH_INDEX_FOLDER + "/")}  # an index file changed by hand
    behind = {path.split("/")[1] for path, key in previous.inputs.items() if key == INDEX_BEHIND and path.startswith(urls.SEARCH_INDEX_FOLDER + "/")}
    return changed | behind


def in_parts(pages: list[tuple[str, Path]], most: int) -> list[list[tuple[str, Path]]]:
    """A language's pages (in the order of their paths) in as few runs as hold at most
    `most` pages each, their sizes as even as can be: the same pages, the same parts."""
    count = max(1, -(-len(pages) // max(1, most)))
    size, longer = divmod(len(pages), count)
    parts, start = [], 0
    for number in range(count):
        end = start + size + (number < longer)
        parts.append(pages[start:end])
        start = end
    return parts


def index_site(writer: SiteWriter, out_dir: Path, previous: Manifest, languages: tuple[str, ...], jobs: int) -> None:
    """A search index per language: the previous one when none of the language's indexed
    pages changed and it is all there, else a new one made by Pagefind, in parts of at
    most PAGES_PER_PART pages (jobs at once), the first part's folder naming the others
    (PARTS_FILE); none for a language without a page to index."""
    written, old, changed = writer.written, previous.files, languages_to_index(writer, previous)
    indexes = []
    for language in languages:
        folder = urls.search_index_folder(language)
        prefix = folder + "/"
        index = [path for path in old if path.startswith(prefix)]
        if language not in changed and index and all((out_dir / path).is_file() for path in index):
            for path in index:
                writer.carry_over(path)
            continue
        # every page is in the temporary folder, unless the build is in place: then only the changed ones
        pages = sorted(
            (path, writer.temp_dir if not writer.in_place or (writer.temp_dir / path).is_file() else out_dir)
            for path in written
            if path.startswith(language + "/") and is_indexed(path)
        )
        if not pages:  # a language none of whose records is shown (fallback: skip): its search page says there is no index
            continue
        parts = in_parts(pages, PAGES_PER_PART)
        others = [urls.search_index_part(number) + "/" for number in range(2, len(parts) + 1)]
        writer.write(f"{folder}/{PARTS_FILE}", json.dumps(others).encode())
        for number, part in enumerate(parts, start=1):
            output = writer.temp_dir / folder / (urls.search_index_part(number) if number > 1 else "")
            indexes.append(LanguageIndex(language, writer.temp_dir, output, tuple(part)))
    index_languages(indexes, jobs, made=lambda index, digests: writer.record_tool_output(index.output_dir, digests))
