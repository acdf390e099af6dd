"""The one line of progress a long build shows on a terminal, and nowhere else."""

import io
import time

from studysite.progress import PROGRESS_AFTER, Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_build_shows_one_line_on_a_terminal_and_clears_it(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    progress = Progress("Rendering pages", 200, time.perf_counter() - PROGRESS_AFTER - 1, stream)
    progress.show(50)
    progress.clear()
    assert stream.getvalue() == "\rRendering pages: 50/200\x1b[K\r\x1b[K"
    assert "\n" not in stream.getvalue()


def test_nothing_is_shown_early_in_ci_or_in_a_pipe(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    early, pipe = Terminal(), io.StringIO()
    Progress("Rendering pages", 10, time.perf_counter(), early).show(5)
    Progress("Rendering pages", 10, time.perf_counter() - 60, pipe).show(5)
    monkeypatch.setenv("CI", "true")
    ci = Terminal()
    Progress("Rendering pages", 10, time.perf_counter() - 60, ci).show(5)
    assert early.getvalue() == pipe.getvalue() == ci.getvalue() == ""
