"""Serve: build, serve the site on 127.0.0.1, rebuild when a source changes and reload.

Pages built for serving carry a data-live-reload attribute; the site's script then asks
/__reload for the build number once a second and reloads the page when it changes.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from . import pipeline
from .diagnostics import ContentError, Report

RELOAD_PATH = "/__reload"
POLL_SECONDS = 0.5


def source_state(options: pipeline.Options) -> dict[Path, float]:
    """Modification times of every file a build reads."""
    return {p: p.stat().st_mtime for folder in options.source_folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()}


class _Handler(http.server.SimpleHTTPRequestHandler):
    build_number = [0]

    def do_GET(self):
        if self.path == RELOAD_PATH:
            body = str(self.build_number[0]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format, *args):
        pass


def _rebuild(options: pipeline.Options) -> bool:
    try:
        result = pipeline.build(options)
    except ContentError as error:
        report = Report(diagnostics=list(error.diagnostics))
        for diagnostic in report.sorted():
            print(diagnostic.format(), file=sys.stderr)
        print(f"Build failed: {report.summary()}. Still serving the previous site.", file=sys.stderr)
        return False
    print(f"Built {result.pages} pages in {result.seconds:.1f} s ({result.changed} files changed).")
    return True


def serve(options: pipeline.Options, port: int) -> int:
    options = replace(options, base_url=f"http://127.0.0.1:{port}/", live_reload=True)
    if not _rebuild(options):
        return 1
    handler = type("Handler", (_Handler,), {"build_number": [1]})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(options.out_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"Serving {options.out_dir} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
    state = source_state(options)
    try:
        while True:
            time.sleep(POLL_SECONDS)
            current = source_state(options)
            if current != state:
                state = current
                if _rebuild(options):
                    handler.build_number[0] += 1
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        server.shutdown()
    return 0
