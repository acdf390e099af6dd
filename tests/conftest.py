"""Shared fixtures: small content folders written on the fly, the CLI run in-process,
and one build of the sample content shared by the whole-site tests."""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import os
import re
import shutil
import sys
import textwrap
import threading
from dataclasses import dataclass
from datetime import date, datetime
from datetime import time as dt_time
from pathlib import Path

import pytest

from studysite.cli import main

ROOT = Path(__file__).resolve().parent.parent
TYPES_CONTENT = ROOT / "tests" / "sites" / "types" / "content"  # a question of each type
STUDY_CONTENT = ROOT / "tests" / "sites" / "study" / "content"  # the sample content as the tests have it: the repository's content/ is the deploy's, never a test's
BASE_PATH = "/repo/"

SITE_YAML = """\
languages: [nl, fr]
term_language: ja
base_url: https://example.org/study/
nl: {title: Studie}
fr: {title: Étude}
"""
TOPIC_YAML = """\
nl: {title: Onderwerp, description: Over *dingen*.}
fr: {title: Thème, description: Sur les *choses*.}
"""
QUESTION_YAML = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Rekenen]
  explanation: Een GPU rekent parallel.
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un GPU calcule en parallèle.
"""
TERM_YAML = """\
ja: {term: GPU}
nl: {term: GPU, definition: Grafische processor.}
fr: {term: GPU, definition: Processeur graphique.}
"""


@dataclass
class Result:
    status: int
    out: str
    err: str


def run_cli(*args: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return Result(status, out.getvalue(), err.getvalue())


def write_files(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def png(width: int = 4, height: int = 3, colour: str = "#1f5fa8") -> bytes:
    """The bytes of a small PNG image of this size (for content that shows an image)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def minimal_files(**overrides: str | None) -> dict[str, str]:
    """A valid two-language site: one topic, one question, one term. None removes a file."""
    files = {
        "site.yaml": SITE_YAML,
        "topics/basics.yaml": TOPIC_YAML,
        "questions/gpu-role.yaml": QUESTION_YAML,
        "glossary/gpu.yaml": TERM_YAML,
    }
    files.update(overrides)
    return {name: text for name, text in files.items() if text is not None}


@pytest.fixture(autouse=True, scope="session")
def _build_cache_outside_home(tmp_path_factory):
    """Builds run by the tests keep their cache (STUDYSITE_CACHE_DIR) in a temporary folder."""
    patch = pytest.MonkeyPatch()
    patch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path_factory.mktemp("build-cache")))
    yield
    patch.undo()


@pytest.fixture
def make_content(tmp_path):
    """Write a content folder from minimal_files(**overrides) and return its path."""

    def make(**overrides: str | None) -> Path:
        return write_files(tmp_path / "content", minimal_files(**overrides))

    return make


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    """The sample content built once, strict, under a non-root base path; returns the site folder."""
    root = tmp_path_factory.mktemp("served")
    site = root / BASE_PATH.strip("/")
    result = run_cli("build", "--content", STUDY_CONTENT, "--out", site, "--base-url", f"https://example.org{BASE_PATH}", "--strict")
    assert result.status == 0, result.err
    return site


# -- the browser tier ------------------------------------------------------------------

ARTIFACTS = ROOT / "test-artifacts"
# Chromium's headless shell (Debian's chromium-headless-shell, what Playwright runs headless):
# the same Blink as the browser, at a third of the CPU per page opened.
CHROMIUM = os.environ.get("STUDYSITE_CHROMIUM", shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell")
# What a page fetches and compiles before it can answer (Pagefind's WebAssembly and index,
# the scheduler): on a loaded machine this can take seconds, near the 5 s other waits get.
LOADING_MS = 30_000
# What any other wait of a browser test may take: an action, an expectation or a page's load
# on a loaded machine (CI shares its two cores; a passing test never waits this long).
WAIT_MS = 15_000
NAVIGATION_MS = 30_000


def with_timeouts(context):
    """A new browser context with the suite's waits: a test waits for events, and these are
    only how long before an event that never comes fails the test."""
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(NAVIGATION_MS)
    return context


try:  # Playwright's expect() waits as long as the rest
    from playwright.sync_api import expect as _expect

    _expect.set_options(timeout=WAIT_MS)
except ImportError:  # the browser tier is skipped without Playwright
    pass


@pytest.fixture
def noon() -> int:
    """Today at local noon, in ms since 1970: the time a test's browser pages start at (their
    clock then runs on as usual) when the test asks for this fixture, so that answers the test
    makes "now" or "N days ago" fall on the day the page calls today, whenever the test runs."""
    return int(datetime.combine(date.today(), dt_time(12)).timestamp() * 1000)


def start_clock(context, request) -> None:
    """A new browser context's clock at the test's noon, if it asked for one."""
    if "noon" in request.fixturenames:
        context.clock.install(time=request.getfixturevalue("noon") / 1000)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="session")
def site_url(sample_site: Path):
    """The sample site served over HTTP on 127.0.0.1 under its base path."""
    handler = functools.partial(_QuietHandler, directory=str(sample_site.parent))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{BASE_PATH}"
    server.shutdown()


@pytest.fixture(scope="session")
def types_site(tmp_path_factory) -> Path:
    """The site of one question of each type (tests/sites/types/, en and ar), built once, strict."""
    site = tmp_path_factory.mktemp("types-served") / "types"
    result = run_cli("build", "--content", TYPES_CONTENT, "--out", site, "--base-url", "https://example.org/types/", "--strict", "--no-search")
    assert result.status == 0, result.err
    return site


@pytest.fixture(scope="session")
def types_url(types_site: Path):
    """The types site served over HTTP on 127.0.0.1 under /types/."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(types_site.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/types/"
    server.shutdown()


class QuietServer(http.server.ThreadingHTTPServer):
    """A test's HTTP server: a page the browser left before its files were sent is no error."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a built site, silently. A rebuild may replace a file within the second of its
    previous version, which Last-Modified cannot tell apart: every request is answered whole
    (no 304 for If-Modified-Since), and the browser is told to ask each time."""

    def log_message(self, format, *args):
        pass

    def send_head(self):
        del self.headers["If-Modified-Since"]
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class Chromium:
    """The tests' Chromium: its contexts block service workers unless a test allows them
    (service_workers="allow"), so that only the offline tests pay for the worker each page
    registers and for the files it keeps."""

    def __init__(self, browser):
        self.browser = browser

    def new_context(self, **options):
        return self.browser.new_context(**{"service_workers": "block", **options})

    def __getattr__(self, name):
        return getattr(self.browser, name)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield Chromium(browser)
        browser.close()


def next_frame(page) -> None:
    """Wait until the page has drawn its next frame and run the tasks queued before it: what
    an input or a script set in motion has then shown itself."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


@dataclass
class BrowserPage:
    """A Playwright page that records console errors and failed requests."""

    page: object
    errors: list[str]


# How Chromium names a request that was cancelled, not failed: a navigation leaving the page
# (a test going on to the next page while a module still loads) or the page aborting it.
CANCELLED = "net::ERR_ABORTED"


def recording_errors(page) -> list[str]:
    """The page's console errors, script errors, failed requests and HTTP errors, as they come.
    A request cancelled by leaving the page is none (a missing file still shows, as its
    HTTP status; a refused or broken connection as its own failure)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: None if r.failure == CANCELLED else errors.append(f"request failed: {r.url} ({r.failure})"))
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    return errors


@contextlib.contextmanager
def pages_of(browser, base_url: str, request=None, **defaults):
    """A function that opens a page of a served site (its path below base_url) in a fresh
    context: with the suite's waits, the test's clock if it asked for one (noon), an init
    script first if given, and its console errors and failed requests recorded. Keyword
    arguments are Playwright's context options, these defaults overridden per page
    (scheme is color_scheme). The contexts close when the with block ends."""
    contexts = []

    def open_(path: str, scheme: str = "light", init: str = "", **options) -> BrowserPage:
        context = with_timeouts(browser.new_context(**{**defaults, "color_scheme": scheme, **options}))
        contexts.append(context)
        if init:
            context.add_init_script(init)
        if request is not None:
            start_clock(context, request)
        page = context.new_page()
        found = recording_errors(page)
        page.goto(base_url + path)
        return BrowserPage(page, found)

    try:
        yield open_
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def open_page(browser, site_url, request):
    """Open a site page (path below the base path) in a fresh context; on failure the
    test's screenshot and HTML are saved under test-artifacts/<test name>/."""
    contexts = []
    opened: list[BrowserPage] = []

    def open_(path: str, width: int = 1200, color_scheme: str = "light", bypass_csp: bool = False) -> BrowserPage:
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=color_scheme, bypass_csp=bypass_csp)
        contexts.append(context)
        with_timeouts(context)
        start_clock(context, request)
        page = context.new_page()
        errors = recording_errors(page)
        page.goto(site_url + path)
        result = BrowserPage(page, errors)
        opened.append(result)
        return result

    yield open_
    call = getattr(request.node, "report_call", None)
    if call is not None and call.failed:
        folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
        folder.mkdir(parents=True, exist_ok=True)
        for index, item in enumerate(opened):
            item.page.screenshot(path=str(folder / f"page{index}.png"), full_page=True)
            (folder / f"page{index}.html").write_text(item.page.content(), encoding="utf-8")
        print(f"\nscreenshots and HTML of the failed test: {folder}")
    for context in contexts:
        context.close()
