"""`build.py serve`: watches the sources, rebuilds only what an edit affects, pushes reloads
and build problems to the open pages, and keeps serving whatever goes wrong."""

from __future__ import annotations

import json
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from studysite import pipeline
from studysite.incremental.cache import cache_lock_file, open_cache
from studysite.output import assets as assets_module
from studysite.output.lock import build_lock
from studysite.serve import http as serve_http
from studysite.serve import server as serve

BROKEN_TOPIC = "topic: basic\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Printed:
    """What a process prints on a stream, read as it comes (so the process never blocks on a full pipe)."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.ended = False
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for(self, text: str, timeout: float = 60) -> None:
        """Until a line printed holds text."""
        with self.changed:
            found = self.changed.wait_for(lambda: self.ended or any(text in line for line in self.lines), timeout)
            assert found and any(text in line for line in self.lines), f"never printed {text!r}: {''.join(self.lines)}"

    def all(self, timeout: float = 30) -> str:
        """Everything printed, once the stream has ended."""
        with self.changed:
            self.changed.wait_for(lambda: self.ended, timeout)
            return "".join(self.lines)


class PortTaken(AssertionError):
    """serve stopped as it began: the port free_port() found was taken meanwhile (by another
    test's server or a connection's own port: free_port() only finds one free for now)."""


# serve, with its first build held once it has read the sources and before it writes a page,
# until the test has done what it does meanwhile: argv is the file it makes when held, the
# file that lets it go on, then serve's own arguments.
HELD_FIRST_BUILD = """
import sys, time
from pathlib import Path
from studysite import pipeline
from studysite.cli import main

held, go_on = Path(sys.argv[1]), Path(sys.argv[2])
write_site = pipeline.write_site


def held_once(*args, **kwargs):
    if not held.exists():
        held.touch()
        while not go_on.exists():
            time.sleep(0.01)
    return write_site(*args, **kwargs)


pipeline.write_site = held_once
sys.exit(main(sys.argv[3:]))
"""


class Server:
    """A `build.py serve` process, the server-sent events it pushes and what it prints on stderr."""

    def __init__(self, content: Path, out: Path, while_building=None):
        """while_building: called while the first build is held, once it has read the sources
        and before it writes a page."""
        self.out = out
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.stopping = False
        for attempt in range(5):
            self.port = free_port()
            serve_args = ["serve", "--content", str(content), "--out", str(out), "--port", str(self.port)]
            held, go_on = out.parent / f"held-{attempt}", out.parent / f"go-on-{attempt}"
            command = [sys.executable, "-c", HELD_FIRST_BUILD, str(held), str(go_on), *serve_args] if while_building else [sys.executable, "build.py", *serve_args]
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.stderr = Printed(self.process.stderr)
            try:
                self._started(while_building, held, go_on)
                break
            except PortTaken:  # serve binds its port before it builds: nothing was built, try another
                continue
        else:
            raise AssertionError("serve found no port it could use")
        threading.Thread(target=self._listen, daemon=True).start()

    def _started(self, while_building, held: Path, go_on: Path) -> None:
        if while_building is not None:
            while not held.exists():  # waiting for the first build to be held (no time limit of its own: the test's)
                if self.process.poll() is not None:
                    self._stopped()
                time.sleep(0.01)
            while_building()
            go_on.touch()
        self.get("/nl/")

    def _stopped(self):
        error = self.stderr.all()
        if re.search(r"port \d+ on 127\.0\.0\.1 cannot be used", error):
            raise PortTaken(error)
        raise AssertionError(f"serve stopped: {error}")

    def get(self, path: str) -> str:
        return self.get_bytes(path).decode()

    def get_bytes(self, path: str) -> bytes:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=60) as response:
                    return response.read()
            except OSError:
                if self.process.poll() is not None:
                    self._stopped()
                time.sleep(0.1)
        raise AssertionError(f"no answer for {path}")

    def _listen(self) -> None:
        """Queue the events serve pushes, until it stops (a test that waits for none may stop
        it before this thread has connected)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{serve.EVENTS_PATH}", timeout=60) as stream:
                name = ""
                for raw in stream:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        self.events.put((name, line[6:]))
        except OSError:
            if not self.stopping:
                raise

    def wait_event(self, name: str, matches=lambda data: True, timeout: float = 60) -> str:
        """The data of the next such event; others (an editor's intermediate save) are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            event, data = self.events.get(timeout=max(deadline - time.monotonic(), 0.01))
            if event == name and matches(data):
                return data

    def stop(self) -> None:
        self.stopping = True
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def server(make_content, tmp_path):
    started = Server(make_content(), tmp_path / "site")
    yield started
    started.stop()


def test_pages_get_the_live_reload_script_only_when_served(server):
    page = server.get("/nl/")
    assert re.search(f'<script src="{serve.SCRIPT_PATH}" data-build="[1-9][0-9]*" defer></script></head>', page)
    assert "EventSource" in server.get(serve.SCRIPT_PATH)
    assert not list(server.out.rglob("live-reload*.js"))  # the built site itself never has it
    assert "liveReload" not in next(server.out.glob("assets/site.*.js")).read_text(encoding="utf-8")


def test_an_edit_is_pushed_a_problem_shown_and_cleared_and_the_result_equals_a_clean_build(server, tmp_path):
    content = tmp_path / "content"
    assert json.loads(server.wait_event("ok"))["build"] == 1
    question = content / "questions/gpu-role.yaml"
    original = question.read_text(encoding="utf-8")
    question.write_text(original.replace("topic: basics\n", BROKEN_TOPIC), encoding="utf-8")
    (problem,) = json.loads(server.wait_event("failed", lambda data: "basic" in data))
    assert problem["where"].startswith("questions/gpu-role.yaml:1:") and "basic" in problem["message"] and problem["hint"]
    assert "Rekenen" in server.get("/nl/questions/gpu-role/")  # the previous site is still served
    (content / "questions/.gpu-role.yaml.swp").write_bytes(b"\x00swap")  # editors' files are no content
    (content / "questions/.gpu-role.yaml.swp").unlink()
    question.write_text(original.replace("Rekenen", "Parallel rekenen"), encoding="utf-8")
    assert json.loads(server.wait_event("ok"))["build"] >= 2
    assert "Parallel rekenen" in server.get("/nl/questions/gpu-role/")
    # An edit of text alone is applied to the kept model and pushed with the pages it changed.
    question.write_text(original.replace("Rekenen", "Snel rekenen"), encoding="utf-8")
    changed = json.loads(server.wait_event("ok", lambda data: "/nl/questions/gpu-role/" in (json.loads(data)["changed"] or ())))["changed"]
    assert "Snel rekenen" in server.get("/nl/questions/gpu-role/")
    assert "/nl/topics/basics/" in changed and "/nl/" not in changed  # the topic page prints its questions' choices
    # An edit rebuilds the pages at once; the deck and search index follow when asked for.
    deck = next(server.out.glob("nl/downloads/*.apkg"))
    before = deck.read_bytes()
    assert server.get_bytes("/" + deck.relative_to(server.out).as_posix()) == deck.read_bytes() != before
    clean = tmp_path / "clean"
    options = pipeline.Options(content_dir=content, out_dir=clean, base_url=f"http://127.0.0.1:{server.port}/", live_reload=True)
    pipeline.build(options)
    served = {p.relative_to(server.out): p.read_bytes() for p in server.out.rglob("*") if p.is_file() and p.name != ".studysite"}
    assert served == {p.relative_to(clean): p.read_bytes() for p in clean.rglob("*") if p.is_file() and p.name != ".studysite"}


def test_a_locales_folder_made_while_serving_is_watched_from_then_on(server, tmp_path):
    assert json.loads(server.wait_event("ok"))["build"] == 1
    po = tmp_path / "locales/nl/LC_MESSAGES/messages.po"  # beside content/, where no folder was
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: nl\\n"\n\n'
    po.parent.mkdir(parents=True)
    po.write_text(header + 'msgid "Glossary"\nmsgstr "Woordenboek"\n', encoding="utf-8")
    server.wait_event("ok", lambda data: json.loads(data)["build"] >= 2)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the file may be written after the build that the new folder began
        if "Woordenboek" in server.get("/nl/"):
            break
        time.sleep(0.1)
    assert "Woordenboek" in server.get("/nl/")
    # An "ok" that changed /nl/ may still be queued from the builds above (the one the loop
    # waited for), and a write seen as two events (emptied, then written) makes two builds:
    # the event waited for is one after which the page has the words.
    po.write_text(header + 'msgid "Glossary"\nmsgstr "Begrippenlijst"\n', encoding="utf-8")
    server.wait_event("ok", lambda data: "/nl/" in (json.loads(data)["changed"] or ()) and "Begrippenlijst" in server.get("/nl/"))
    assert "Begrippenlijst" in server.get("/nl/")
    shutil.rmtree(tmp_path / "locales")  # and one removed is no longer watched: the shipped words come back
    server.wait_event("ok", lambda data: "/nl/" in (json.loads(data)["changed"] or ()) and "Begrippenlijst" not in server.get("/nl/"))
    assert "Begrippenlijst" not in server.get("/nl/")


def test_an_edit_saved_while_the_first_build_runs_is_served(make_content, tmp_path):
    question = make_content() / "questions/gpu-role.yaml"
    original = question.read_text(encoding="utf-8")
    started = Server(question.parent.parent, tmp_path / "site", lambda: question.write_text(original.replace("Rekenen", "Snel rekenen"), encoding="utf-8"))
    try:
        deadline = time.monotonic() + 30
        while "Snel rekenen" not in started.get("/nl/questions/gpu-role/"):
            assert time.monotonic() < deadline, "the edit was lost"
            time.sleep(0.05)
    finally:
        started.stop()


def test_the_open_pages_reload_when_they_changed_or_a_style_or_script_did():
    assert serve.reloads(["nl/questions/q/index.html", "index.html", "nl/downloads/deck.apkg", "pagefind/nl/x.pf_index"]) == ["/nl/questions/q/", "/"]
    assert serve.reloads(["nl/questions/q/index.html", "assets/style.0123456789.css"]) is None


def test_any_failing_rebuild_is_reported_and_serving_goes_on(monkeypatch, tmp_path, capsys):
    def broken(options, cache=None, guard=None):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(pipeline, "build", broken)
    state = serve.LiveState()
    assert serve.rebuild(pipeline.Options(out_dir=tmp_path / "site"), None, state) == serve.FAILED
    assert state.problems == [{"where": "build", "severity": "error", "message": "RuntimeError: disk on fire", "hint": ""}]
    assert b"event: failed" in state.event()
    assert "disk on fire" in capsys.readouterr().err


def test_a_failed_rebuild_is_printed_as_build_prints_it(make_content, tmp_path, capsys):
    content = make_content(**{"questions/gpu-role.yaml": BROKEN_TOPIC})
    built = run_cli("build", "--content", content, "--out", tmp_path / "built", "--no-search")
    assert built.status == 1 and "  hint: did you mean 'basics'?" in built.err
    options = pipeline.Options(content_dir=content, out_dir=tmp_path / "served", search=False)
    assert serve.rebuild(options, open_cache(content), serve.LiveState()) == serve.FAILED
    assert capsys.readouterr().err == built.err + "Serving the problems until they are fixed.\n"  # there is no previous site


def test_a_rebuild_prints_its_warnings_and_summary_as_build_does(make_content, tmp_path, capsys):
    content = make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n"})
    built = run_cli("build", "--content", content, "--out", tmp_path / "built", "--no-search")
    assert built.status == 0 and "warning: term 'gpu' has no 'fr' text [translation.missing]" in built.err
    options = pipeline.Options(content_dir=content, out_dir=tmp_path / "served", search=False)
    assert serve.rebuild(options, open_cache(content), serve.LiveState()) == serve.BUILT
    served = capsys.readouterr()
    assert served.err == built.err

    def timeless(line):
        return re.sub(r" in [0-9.]+ s ", " in ? s ", line)

    assert timeless(served.out) == timeless(built.out) and ", 1 warning)." in built.out


def test_a_static_file_that_vanishes_while_listed_is_skipped(tmp_path, monkeypatch):
    site_root = tmp_path / "src"
    (site_root / "static").mkdir(parents=True)
    (site_root / "static/.#style.css").write_text("lock")
    original = assets_module.read_bytes

    def vanish(path, *args, **kwargs):
        if path.name.startswith(".#"):
            raise FileNotFoundError(2, "No such file", str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(assets_module, "read_bytes", vanish)
    assets = assets_module.collect_assets(pipeline.Options(content_dir=site_root / "content").layered("static"))
    assert ".#style.css" not in assets and "site.js" in assets


# The builds each page was told of, in order: live-reload.js learns the page's build from the
# first "ok" event, and reloads only for a later one. A page whose stream opens after an edit
# was built never reloads for it; one whose first event is "failed" never reloads at all.
BUILDS_SEEN = """(() => {
  const Native = window.EventSource;
  window.__builds = [];
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("ok", (event) => window.__builds.push(JSON.parse(event.data).build));  // before live-reload.js's own
    }
  };
})();"""


def wait_told_its_build(page) -> int:
    """Wait until the page's live reload knows the build it shows (its stream is open); that build."""
    page.wait_for_function("() => window.__builds.length > 0", timeout=30000)  # a function: CSP forbids the eval a polled expression needs
    return page.evaluate("window.__builds[0]")


@pytest.mark.browser
def test_the_page_shows_build_problems_and_reloads_when_fixed(server, browser, tmp_path):
    context = browser.new_context()
    context.add_init_script(BUILDS_SEEN)
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/nl/questions/gpu-role/")
        wait_told_its_build(page)
        question = tmp_path / "content/questions/gpu-role.yaml"
        original = question.read_text(encoding="utf-8")
        question.write_text(original.replace("topic: basics\n", BROKEN_TOPIC), encoding="utf-8")
        overlay = page.locator("#studysite-build-errors")
        overlay.wait_for(timeout=30000)
        assert overlay.get_attribute("role") == "alert"
        assert "questions/gpu-role.yaml:1:8" in overlay.inner_text() and "hint:" in overlay.inner_text()
        question.write_text(original.replace("Rekenen", "Snel rekenen"), encoding="utf-8")
        page.get_by_text("Snel rekenen").first.wait_for(timeout=30000)
        assert page.locator("#studysite-build-errors").count() == 0
        # An edit reloads the pages it changed, and no other.
        page.evaluate("window.notReloaded = true")
        topic_page = context.new_page()
        topic_page.goto(f"http://127.0.0.1:{server.port}/nl/topics/basics/")
        wait_told_its_build(topic_page)
        told = page.evaluate("window.__builds.length")
        topic = tmp_path / "content/topics/basics.yaml"
        topic.write_text(topic.read_text(encoding="utf-8").replace("Over *dingen*", "Over *zaken*"), encoding="utf-8")
        topic_page.get_by_text("zaken").first.wait_for(timeout=30000)
        # the other page, told of that build too (or reloaded, which the assert reports):
        page.wait_for_function("(told) => !window.notReloaded || window.__builds.length > told", arg=told, timeout=30000)
        assert page.evaluate("window.notReloaded") is True
    finally:
        context.close()


@pytest.mark.browser
def test_a_page_opened_while_the_build_is_broken_reloads_once_it_is_fixed(server, browser, tmp_path):
    question = tmp_path / "content/questions/gpu-role.yaml"
    original = question.read_text(encoding="utf-8")
    question.write_text(original.replace("topic: basics\n", BROKEN_TOPIC), encoding="utf-8")
    server.wait_event("failed", lambda data: "basic" in data)
    context = browser.new_context()
    try:
        page = context.new_page()  # its stream's first event is the failure: the tag says the build it shows
        page.goto(f"http://127.0.0.1:{server.port}/nl/questions/gpu-role/")
        page.locator("#studysite-build-errors").wait_for(timeout=30000)
        question.write_text(original.replace("Rekenen", "Snel rekenen"), encoding="utf-8")
        page.get_by_text("Snel rekenen").first.wait_for(timeout=30000)
    finally:
        context.close()


# -- the HTTP side (serve/http.py), on a folder of its own -----------------------------


@pytest.fixture
def site_server(tmp_path, monkeypatch):
    """serve's HTTP server on a small site folder (with a link out of it), on 127.0.0.1."""
    site = tmp_path / "site"
    for path, text in {
        "index.html": "<html><head></head>home</html>",
        "nl/index.html": "<html><head></head>nl</html>",
        "404.html": "<html><head></head>site's own 404</html>",
        "bare/notes.txt": "x",
    }.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)
    (tmp_path / "secret.txt").write_text("secret")
    (site / "etcdir").symlink_to("/etc")
    (site / "secret.txt").symlink_to(tmp_path / "secret.txt")
    monkeypatch.setattr(serve_http.Handler, "timeout", 0.5)
    server = serve_http.make_server(0, site, serve.LiveState(), b"", lambda path: None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def answer(port: int, path: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_a_url_with_a_nul_is_a_bad_request_and_serving_goes_on(site_server):
    for path in ("/%00", "/nl/index.html%00", "/nl%00/"):
        assert answer(site_server, path)[0] == 400, path
    with socket.create_connection(("127.0.0.1", site_server), timeout=10) as raw:
        raw.sendall(b"HEAD /a%00b HTTP/1.0\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.0 400"), "HEAD is answered as GET is"
    assert answer(site_server, "/nl/")[0] == 200


def test_a_name_the_system_refuses_is_not_found_and_nothing_is_printed(site_server, capsys):
    for path in ("/" + "a" * 1000, "/nl/" + "a" * 1000 + "/", "/%ED%A0%80", "/nl/%ED%A0%80/"):
        assert answer(site_server, path)[0] == 404, path[:20]
    assert capsys.readouterr().err == "", "no traceback"
    assert answer(site_server, "/nl/")[0] == 200


def head(port: int, path: str) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def test_head_says_what_get_would_without_the_body(site_server):
    for path in ("/nl/", "/bare/notes.txt", "/missing", serve.SCRIPT_PATH, serve.RELOAD_PATH):
        status, headers, body = answer(site_server, path)
        head_status, head_headers = head(site_server, path)
        assert head_status == status, path
        for name in ("Content-Type", "Content-Length", "Cache-Control"):
            assert head_headers.get(name) == headers.get(name), (path, name)


def test_before_the_first_build_an_error_page_still_reloads_with_the_problems(tmp_path):
    site = tmp_path / "site"  # no 404.html yet: the first build failed
    server = serve_http.make_server(0, site, serve.LiveState(), b"", lambda path: None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        status, _, body = answer(server.server_address[1], "/")
        assert status == 404 and f'<script src="{serve.SCRIPT_PATH}" data-build="0" defer></script></head>'.encode() in body
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_not_found_is_the_sites_own_404_with_status_404(site_server):
    live_reload = f'<script src="{serve.SCRIPT_PATH}" data-build="0" defer></script>'.encode()
    for path in ("/no/such/page/", "/bare/", "/etcdir/hostname", "/secret.txt", "/etcdir/"):
        status, headers, body = answer(site_server, path)
        # with the live-reload script: a page asked for before it is built shows itself once it is
        assert (status, body) == (404, b"<html><head>" + live_reload + b"</head>site's own 404</html>"), path
    assert answer(site_server, "/bare/notes.txt")[2] == b"x"


def test_every_answer_says_nosniff(site_server):
    for path in ("/", "/nl/", "/bare/notes.txt", "/missing", serve.SCRIPT_PATH):
        assert answer(site_server, path)[1].get("X-Content-Type-Options") == "nosniff", path


def test_two_hundred_requests_at_once_are_all_answered(site_server):
    results, started = [], time.monotonic()

    def ask():
        results.append(answer(site_server, "/nl/")[0])

    threads = [threading.Thread(target=ask) for _ in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results == [200] * 200
    assert time.monotonic() - started < 30


def test_connections_have_a_time_limit_and_a_backlog_for_bursts():
    assert serve_http.Handler.timeout == serve_http.REQUEST_SECONDS <= 30
    assert serve_http.SiteServer.request_queue_size >= 128


def test_a_request_never_finished_is_closed(site_server):
    with socket.create_connection(("127.0.0.1", site_server), timeout=10) as idle:
        idle.sendall(b"GET /nl/ HTTP/1.1\r\nHost: 127")  # and nothing more
        started = time.monotonic()
        assert idle.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 5
    assert answer(site_server, "/nl/")[0] == 200


def test_a_port_that_is_taken_stops_serve_before_it_builds(make_content, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "build.py", "serve", "--content", str(make_content()), "--out", str(tmp_path / "site"), "--port", str(port)]
        process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert process.returncode == 3
    assert f"port {port} on 127.0.0.1 cannot be used" in process.stderr and "Traceback" not in process.stderr
    assert not (tmp_path / "site").exists()


def test_serve_refuses_a_folder_of_someone_elses_files_and_serves_nothing(make_content, tmp_path):
    (tmp_path / "home/.ssh").mkdir(parents=True)
    (tmp_path / "home/.ssh/id_rsa").write_text("KEY")
    port = free_port()
    command = [sys.executable, "build.py", "serve", "--content", str(make_content()), "--out", str(tmp_path / "home"), "--port", str(port)]
    process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert process.returncode == 2 and "holds files that Studysite did not write" in process.stderr
    assert "Serving" not in process.stdout + process.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "home"], "no lock file beside it either"


def test_a_quick_edit_does_not_write_through_a_link_in_the_site(server, tmp_path):
    content, victim = tmp_path / "content", tmp_path / "victim"
    server.wait_event("ok")
    page = server.out / "nl/questions/gpu-role"
    victim.mkdir()
    (victim / "index.html").write_text("PRECIOUS")
    shutil.rmtree(page)
    page.symlink_to(victim)
    edit = content / "questions/gpu-role.yaml"
    edit.write_text(edit.read_text(encoding="utf-8").replace("Wat doet een GPU?", "Wat doet een GPU precies?"), encoding="utf-8")
    problems = server.wait_event("failed")
    assert "nl/questions/gpu-role (a link)" in problems, "the build that follows says where the link is"
    assert (victim / "index.html").read_text() == "PRECIOUS"


def test_an_edit_waits_while_another_process_builds_the_site(server, tmp_path):
    """Neither a quick edit nor a rebuild writes the folder while a `build` holds it."""
    content = tmp_path / "content"
    assert json.loads(server.wait_event("ok"))["build"] == 1
    question = content / "questions/gpu-role.yaml"
    with build_lock(server.out, cache_lock_file(content)):
        question.write_text(question.read_text(encoding="utf-8").replace("Rekenen", "Vlot rekenen"), encoding="utf-8")
        server.stderr.wait_for("Waiting for another build")  # serve saw the edit, and waits for the folder
        assert "Vlot rekenen" not in (server.out / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    server.wait_event("ok", lambda data: json.loads(data)["build"] >= 2)
    assert "Vlot rekenen" in server.get("/nl/questions/gpu-role/")
