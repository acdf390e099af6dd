"""Serve: build, serve the site on 127.0.0.1, rebuild when a source changes and reload.

Sources are watched with watchfiles (native file events, debounced); serve/http.py answers
the requests. Each rebuild reuses the session's cache (converted Markdown, found terms, and
in memory the parsed and read content files) and the page keys of the previous build, so
only the pages an edit affects are rendered again. An edit gets a preview build (pages only); the decks, the search index
and the sitemaps follow when one of their files is asked for. The open pages are told of
each build, or the problems of a failed one (serve/http.py). A rebuild that fails, for
whatever reason, leaves the previous site served. Each build holds the output folder's
lock (output/lock.py), so a `build` run meanwhile waits for it, and it for that; a quick
edit is made only while no other process holds it (else a build follows, and waits).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

from studysite import pipeline, urls
from studysite.diagnostics import ContentError, Report, built_summary, plural, print_failure, print_report
from studysite.failures import as_environment_error, crash_report, internal_error_message
from studysite.incremental.cache import BuildCache, cache_folder, cache_lock_file, open_cache
from studysite.incremental.preview import made_after_the_pages
from studysite.output.lock import BuildBusy, build_lock
from studysite.output.search import SearchIndexError, SearchToolError
from studysite.output.write import MARKER, OutputError, check_destination
from studysite.serve.http import EVENTS_PATH, RELOAD_PATH, SCRIPT_PATH, LiveState, make_server  # noqa: F401 (the paths: for tests and scripts)
from studysite.serve.quick_edit import LiveSite

SCRIPT_NAME = "live-reload.js"
DEBOUNCE_MS = 20  # the longest a burst of file events is gathered
STEP_MS = 5  # the quiet after an event that ends a burst
SWITCH_SECONDS = 0.0005  # how long a busy thread keeps Python before the server thread may answer a request (default 5 ms)
QUIET_SECONDS = 1.0  # the build that follows quick edits waits for a pause this long
WAKE_MS = 50  # with no file event, the watcher hands back control this often (the first time: it is set up)
TOLD_ERRORS = (BuildBusy, OutputError, SearchIndexError, SearchToolError, OSError)  # a build's failures that need no traceback
BUILT, FAILED, SUPERSEDED = "built", "failed", "superseded"  # how a build in serve ended


def problems_of(error: BaseException) -> list[dict]:
    """What a failed build shows in the browser: each problem with its place and hint."""
    if isinstance(error, ContentError):
        report = Report(diagnostics=list(error.diagnostics))
        return [{"where": str(d.location), "severity": d.severity.value, "message": d.message, "hint": d.hint} for d in report.sorted()]
    return [{"where": "build", "severity": "error", "message": f"{type(error).__name__}: {error}", "hint": ""}]


class Rebuilds:
    """The session's builds. An edit of records' text is applied at once to the model kept
    from the last build (serve/quick_edit.py); any other edit gets a preview build (pages only).
    Either is pushed to the open pages that changed. Once the edits pause, a preview build
    follows in the background, for the pages a quick edit leaves (status, offline lists);
    it is not committed if another edit came meanwhile. The decks, search index and
    sitemaps are brought up to date when one of their files is asked for."""

    def __init__(self, options: pipeline.Options, cache: BuildCache, state: LiveState):
        self.options, self.cache, self.state = options, cache, state
        self.building = threading.Lock()  # one build at a time
        self.output = threading.Lock()  # the output folder, the kept model and the count of edits
        self.edits = 0  # a build begun before the latest edit is stale
        self.last_edit = 0.0
        self.live: LiveSite | None = None
        self.behind = False  # the decks, search index and sitemaps lag behind the pages
        self.follow_up = threading.Event()
        self.catching_up = threading.Lock()

    def start(self) -> None:
        """The first build, then the thread that runs the builds that follow quick edits."""
        built = self.build(self.options) == BUILT
        threading.Thread(target=self._follow_ups, daemon=True).start()
        if built and self.live is None:  # nothing had changed: the model comes from the first follow-up
            self.follow_up.set()

    def after_edit(self, changed: list[Path]) -> None:
        started = time.perf_counter()
        with self.output:
            self.edits += 1
            self.last_edit = time.monotonic()
            written = self._quick_edit(changed)
        if written is None:
            if self.build(replace(self.options, preview=True)) == BUILT:
                self.behind = True
            return
        if written:
            self.behind = True
            print(f"Updated {plural(len(written), 'file')} in {time.perf_counter() - started:.3f} s.", flush=True)
            self.state.succeeded(reloads(written))
        self.follow_up.set()

    def _quick_edit(self, changed: list[Path]) -> list[str] | None:
        """The files a quick edit wrote, or None when the edit needs a build: also when
        another process (a `build`) holds the output folder, which the build then waits for."""
        if self.live is None or self.state.problems:
            return None
        options = self.options
        try:  # a build of this session holds the lock for itself, and commits nothing stale
            with nullcontext() if self.building.locked() else build_lock(options.out_dir, cache_lock_file(options.content_dir), timeout=0):
                return self.live.edit(changed)
        except Exception:  # whatever stops it, the build that follows does the edit
            return None

    def before_serving(self, path: str) -> None:
        """Bring the decks, search index and sitemaps up to date before one of their files is served."""
        if not self.behind or not made_after_the_pages(path.lstrip("/")):
            return
        with self.catching_up:  # one request builds; those waiting for it find it done
            for _attempt in range(3):  # an edit may come while it builds
                if not self.behind:
                    return
                outcome = self.build(self.options, announce=False)
                if outcome != SUPERSEDED:
                    self.behind = outcome != BUILT
                    return

    def build(self, options: pipeline.Options, announce: bool = True) -> str:
        """A whole build, committed only if no edit came while it ran. The objects that
        outlive it (the kept model) are then frozen out of the garbage collector's scans,
        which would otherwise pause a quick edit for a second on a large site."""
        with self.building:
            with self.output:
                edits = self.edits
            gc.unfreeze()
            try:
                return rebuild(options, self.cache, self.state, announce, functools.partial(self._unless_superseded, edits))
            finally:
                gc.freeze()

    @contextlib.contextmanager
    def _unless_superseded(self, edits: int, built: pipeline.BuiltSite):
        with self.output:
            if self.edits != edits:
                raise pipeline.Superseded()
            yield
            self.live = LiveSite(built)

    def _follow_ups(self) -> None:
        while True:
            self.follow_up.wait()
            quiet = QUIET_SECONDS - (time.monotonic() - self.last_edit)
            if quiet > 0:
                time.sleep(quiet)
                continue
            self.follow_up.clear()
            if self.build(replace(self.options, preview=True), announce=False) == BUILT:
                self.behind = True


def reloads(changed) -> list[str] | None:
    """The URLs of the pages that changed, for the open pages to reload only if they are
    among them; None when all should (a style sheet or script changed)."""
    pages = []
    for path in changed:
        if path.endswith(".html"):
            pages.append("/" + urls.path_of(path))
        elif path.startswith("assets/"):
            return None
    return pages


def rebuild(options: pipeline.Options, cache: BuildCache, state: LiveState, announce: bool = True, guard: pipeline.CommitGuard | None = None) -> str:
    """Build once: BUILT, FAILED or SUPERSEDED (an edit came while it ran, so it was not
    committed and reports nothing). Report the outcome on the terminal and, if announce or
    pages changed, to the pages (problems always). Never raises."""
    try:
        with build_lock(options.out_dir, cache_lock_file(options.content_dir), options.protected_folders):
            result = pipeline.build(options, cache, guard)
    except KeyboardInterrupt:
        raise
    except pipeline.Superseded:
        return SUPERSEDED
    except Exception as error:  # any failure: report it and keep serving the previous site
        if isinstance(error, ContentError):
            print_failure(error.diagnostics, sys.stderr)  # as `build` prints them
        elif isinstance(error, TOLD_ERRORS) or as_environment_error(error) is not None:  # their message says it all, as `build` prints it
            print(f"error: {as_environment_error(error) or error}", file=sys.stderr)
        else:  # a bug: one sentence, the traceback in a file
            print(f"error: {internal_error_message(error, crash_report(error, [cache_folder()]))}.", file=sys.stderr)
        print("Still serving the previous site." if (options.out_dir / MARKER).is_file() else "Serving the problems until they are fixed.", file=sys.stderr)
        state.failed(problems_of(error))
        return FAILED
    print_report(result.report, sys.stderr)
    print(built_summary(result.pages, result.languages, result.seconds, result.changed, len(result.report.warnings)), flush=True)
    pages = reloads(result.changed_files)
    if announce or state.problems or pages is None or pages:
        state.succeeded(pages)
    return BUILT


def live_script(options: pipeline.Options) -> bytes:
    for folder in options.layered("static"):
        if (folder / SCRIPT_NAME).is_file():
            return (folder / SCRIPT_NAME).read_bytes()
    return b""


def serve(options: pipeline.Options, port: int) -> int:
    options = replace(options, base_url=f"http://127.0.0.1:{port}/", live_reload=True)
    check_destination(options.out_dir, options.protected_folders)  # a folder Studysite may not write is not served either
    cache, state = open_cache(options.content_dir), LiveState()
    sys.setswitchinterval(SWITCH_SECONDS)
    rebuilds = Rebuilds(options, cache, state)
    try:  # the port is taken before anything is built
        server = make_server(port, options.out_dir, state, live_script(options), rebuilds.before_serving)
    except OSError as error:
        raise OSError(error.errno, f"port {port} on 127.0.0.1 cannot be used ({error.strerror}); choose another with --port") from None
    changes = watch(options)  # before the first build: an edit saved while it runs is not lost
    rebuilds.start()  # when the first build fails, the previous site (if any) is served with the problems
    rebuilds.options = replace(options, jobs=1)  # later rebuilds render few pages; no forking beside the server thread
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"Serving {options.out_dir} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        for changed in changes:
            rebuilds.after_edit([Path(path) for _change, path in changed])
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        server.shutdown()
        server.server_close()
    return 0


def watch(options: pipeline.Options) -> Iterator[set[tuple[object, str]]]:
    """The sets of changed sources, from a watcher already set up when this returns; the
    events that come while a build runs are kept for the next set. A resource folder made
    beside the content while serving (templates/, static/, locales/) is watched from then
    on, and one removed no longer: either counts as a change."""
    import watchfiles  # here, not at the start of every command

    folders = watched_folders(options)
    return _changes(watchfiles, options, folders, *_watcher(watchfiles, folders))


def watched_folders(options: pipeline.Options) -> list[Path]:
    return [folder for folder in options.source_folders if folder.is_dir()]


def _watcher(watchfiles, folders: list[Path]) -> tuple[set[tuple[object, str]], Iterator[set[tuple[object, str]]]]:
    """watchfiles' watch of these folders (a set of changes, empty every WAKE_MS without any),
    set up before this returns: its first set, and the watch."""
    events = watchfiles.watch(*folders, debounce=DEBOUNCE_MS, step=STEP_MS, rust_timeout=WAKE_MS, yield_on_timeout=True)
    return next(events), events


def _changes(watchfiles, options: pipeline.Options, folders: list[Path], changed: set, events) -> Iterator[set[tuple[object, str]]]:
    while True:
        now = watched_folders(options)
        if now != folders:  # the new watch is set up before the old one stops: no event falls between
            more, new_events = _watcher(watchfiles, now)
            events.close()
            added, removed = set(now) - set(folders), set(folders) - set(now)
            changed = {*changed, *more, *((watchfiles.Change.added, str(f)) for f in added), *((watchfiles.Change.deleted, str(f)) for f in removed)}
            folders, events = now, new_events
        if changed:
            yield changed
        changed = next(events)
