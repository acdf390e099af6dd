"""Progress: one line on a terminal while a long build renders its pages."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

PROGRESS_AFTER = 2.0  # seconds


class Progress:
    """One line of progress on a terminal, once a build has taken PROGRESS_AFTER seconds;
    nothing when the output is not a terminal (CI logs, pipes) or CI is set."""

    def __init__(self, what: str, total: int, started: float, stream: TextIO | None = None):
        self.what, self.total, self.started = what, total, started
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"
        self._shown = 0.0

    def show(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.started < PROGRESS_AFTER or now - self._shown < 0.1:
            return
        self._shown = now
        self.stream.write(f"\r{self.what}: {min(done, self.total)}/{self.total}\x1b[K")
        self.stream.flush()

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
