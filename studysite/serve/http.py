"""HTTP: how `serve` answers, on 127.0.0.1 only.

The built files, as GitHub Pages would serve them: a folder's index.html, no listing of a
folder (one without index.html is not found), the site's own 404.html with status 404,
nothing outside the site folder (a link that leads out of it is not followed) and
`X-Content-Type-Options: nosniff` on every answer. Every HTML page, the 404 page too, gets a script
(static/live-reload.js) that listens to /__events: the server pushes the number of each
new build, or the problems of a failed one, which the page shows over itself until they
are fixed. The listening socket is bound before the first build (a port that is taken
stops `serve` at once), takes a burst of connections (BACKLOG), and a connection that
sends no whole request for REQUEST_SECONDS is closed.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

RELOAD_PATH = "/__reload"  # the build number as text, for scripts
EVENTS_PATH = "/__events"
SCRIPT_PATH = "/__live-reload.js"
KEEP_ALIVE_SECONDS = 15
BACKLOG = 128  # connections waiting to be accepted (the standard library's default is 5)
REQUEST_SECONDS = 10.0  # the longest a connection may take to send its request
NOT_FOUND_PAGE = "404.html"


@dataclass
class LiveState:
    """The current build number and the problems of the last rebuild, if it failed."""

    build: int = 0
    problems: list[dict] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)
    pages: list[str] | None = None  # the URLs of the pages the last build changed; None: any page may have

    def succeeded(self, pages: list[str] | None = None) -> None:
        with self.changed:
            self.build += 1
            self.problems = []
            self.pages = pages
            self.changed.notify_all()

    def failed(self, problems: list[dict]) -> None:
        with self.changed:
            self.problems = problems
            self.changed.notify_all()

    def stamp(self) -> tuple[int, int]:
        return self.build, len(self.problems)

    def wait_for_change(self, since: tuple[int, int], timeout: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.stamp() != since, timeout=timeout)

    def event(self) -> bytes:
        if self.problems:
            return b"event: failed\ndata: " + json.dumps(self.problems).encode() + b"\n\n"
        return b"event: ok\ndata: " + json.dumps({"build": self.build, "changed": self.pages}).encode() + b"\n\n"


def live_reload_tag(build: int) -> str:
    """The live-reload script, told the build the page comes from: a page whose event stream
    opens after a later build, or first hears of a failed one, still knows what it shows."""
    return f'<script src="{SCRIPT_PATH}" data-build="{build}" defer></script>'


def with_live_reload(html: bytes, build: int) -> bytes:
    """A page with the live-reload script, at the end of its head."""
    return html.replace(b"</head>", live_reload_tag(build).encode() + b"</head>", 1)


class SiteServer(http.server.ThreadingHTTPServer):
    request_queue_size = BACKLOG
    daemon_threads = True


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder (directory) with the live-reload script and events."""

    state: LiveState
    script: bytes
    before_serving = staticmethod(lambda path: None)  # told the path of each request first (serve brings files up to date)
    timeout = REQUEST_SECONDS

    def do_GET(self):
        """A file, a page with the live-reload script, or one of serve's own paths; for
        HEAD (do_HEAD) the same headers without the body."""
        path = urllib.parse.urlsplit(self.path).path
        if "\0" in urllib.parse.unquote(path):
            return self.send_error(400, "Bad request")
        self.before_serving(path)
        if path == RELOAD_PATH:
            return self._send(str(self.state.build).encode(), "text/plain")
        if path == SCRIPT_PATH:
            return self._send(self.script, "text/javascript")
        if path == EVENTS_PATH:
            return self._events()
        page, build = self._page_file(path), self.state.build  # the build read first: a page it names is as new or newer
        try:
            html = page.read_bytes() if page is not None else None
        except OSError:
            html = None
        if html is None:
            return super().do_GET() if self.command == "GET" else super().do_HEAD()
        return self._send(with_live_reload(html, build), "text/html; charset=utf-8")

    do_HEAD = do_GET

    def send_head(self):
        """As the standard library's, for a file inside the site folder only."""
        if not self._inside_site(self.translate_path(self.path)):
            self.send_error(404)
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404)
        return None

    def send_error(self, code, message=None, explain=None):
        """The site's own 404.html for a page not found, as GitHub Pages answers. Before the
        first build succeeds there is none: the standard library's error page, with the
        live-reload script, then shows the problems and reloads once they are fixed."""
        page, build = Path(self.directory) / NOT_FOUND_PAGE, self.state.build
        try:
            body = page.read_bytes() if code == 404 and not page.is_symlink() else None
        except OSError:
            body = None
        if body is None:
            self.error_message_format = http.server.DEFAULT_ERROR_MESSAGE.replace("</head>", live_reload_tag(build) + "</head>")
            return super().send_error(code, message, explain)
        body = with_live_reload(body, build)  # a page not there yet shows itself once a build makes it
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self):
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def _inside_site(self, local: str) -> bool:
        """Whether a file asked for is in the site folder, once every link on its way is
        followed (not when its name is one the system refuses: too long, or not encodable)."""
        if "\0" in local:
            return False
        root = os.path.realpath(self.directory)
        try:
            return os.path.commonpath([root, os.path.realpath(local)]) == root
        except (OSError, ValueError):
            return False

    def _page_file(self, path: str) -> Path | None:
        """The HTML file a request for a page is answered with, if it is one."""
        local = self.translate_path(path)
        if not self._inside_site(local):
            return None  # send_head answers 404
        local = Path(local)
        try:
            if local.is_dir():
                if not path.endswith("/"):
                    return None  # the base class redirects to the folder
                local = local / "index.html"
            return local if local.suffix == ".html" and local.is_file() and self._inside_site(str(local)) else None
        except OSError:  # a name the system refuses: send_head answers 404
            return None

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _events(self) -> None:
        """A server-sent event stream: the current state now, then each change."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command == "HEAD":
            return
        state = self.state
        try:
            while True:
                with state.changed:
                    event, sent = state.event(), state.stamp()
                self.wfile.write(event)
                self.wfile.flush()
                state.wait_for_change(sent, KEEP_ALIVE_SECONDS)
                self.wfile.write(b": keep-alive\n\n")
        except OSError:  # the page went away
            return

    def log_message(self, format, *args):
        pass


def make_server(port: int, site: Path, state: LiveState, script: bytes, before_serving) -> SiteServer:
    """The server, its socket bound and listening (OSError when the port is taken); it
    answers once serve_forever runs."""
    handler = type("SiteHandler", (Handler,), {"state": state, "script": script, "before_serving": staticmethod(before_serving)})
    return SiteServer(("127.0.0.1", port), functools.partial(handler, directory=str(site)))
