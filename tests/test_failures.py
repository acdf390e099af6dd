"""What the command line says when the environment fails (exit 3) or Studysite has a bug
(exit 4), in the build's own process or in a worker: one sentence, never a traceback."""

import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from conftest import run_cli

from studysite.incremental.decks import Decks
from studysite.render import site_files
from studysite.study import apkg


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_folder_for_the_decks_database_exits_3_saying_so(make_content, tmp_path, monkeypatch, jobs):
    """SQLite says its database is full (here: a page limit, as a full disk under the build
    cache does), in a worker process or not, and the message names the folder."""
    real_connect = sqlite3.connect

    def full(*args, **kwargs):
        connection = real_connect(*args, **kwargs)
        connection.execute("PRAGMA max_page_count = 1")
        return connection

    monkeypatch.setattr(sqlite3, "connect", full)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", jobs)
    assert result.status == 3, result.err
    assert re.fullmatch(r"error: database or disk is full \(SQLite, making an Anki deck in '.+\.scratch' \(STUDYSITE_CACHE_DIR chooses another\)\); the previous site is unchanged\.\n", result.err)
    assert not (tmp_path / "site").exists()


def in_a_process_aside(monkeypatch, broken) -> None:
    """The decks' process aside broken there; the build's own process makes decks as before."""
    build, made_here = os.getpid(), Decks._make_taken
    monkeypatch.setattr(Decks, "_make_taken", lambda self: made_here(self) if os.getpid() == build else broken(self))


def test_a_worker_killed_by_the_system_exits_3_saying_so(make_content, tmp_path, monkeypatch):
    in_a_process_aside(monkeypatch, lambda self: os.kill(os.getpid(), signal.SIGKILL))
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", "2")
    assert result.status == 3 and result.err.startswith("error: a worker process was stopped by SIGKILL, perhaps because the system ran short"), result.err


def crash_report_of(err: str) -> str:
    """The one line a bug is told in, and the file it names."""
    found = re.fullmatch(r"error: internal error \(a bug in Studysite: .+\); the details are in (\S+), please report it; the previous site is unchanged\.\n", err)
    assert found, err
    return Path(found[1]).read_text(encoding="utf-8")


def test_a_bug_exits_4_with_one_sentence_and_the_details_in_a_file(make_content, tmp_path, monkeypatch):
    def broken(*stage_inputs):
        return 1 / 0

    monkeypatch.setattr(site_files, "write_question_lists", broken)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search")
    assert result.status == 4 and "ZeroDivisionError: division by zero" in result.err
    details = crash_report_of(result.err)
    assert details.startswith("Traceback (most recent call last):") and "in broken" in details


def test_a_bug_in_a_worker_process_exits_4_with_the_workers_traceback_in_the_file(make_content, tmp_path, monkeypatch):
    def broken(self):
        return {}["no such key"]

    in_a_process_aside(monkeypatch, broken)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", "2")
    assert result.status == 4 and "KeyError: 'no such key'" in result.err
    details = crash_report_of(result.err)
    assert details.startswith("In a worker process:\nTraceback (most recent call last):") and "in broken" in details


def test_a_build_that_fails_while_a_deck_is_made_aside_leaves_nothing_behind(make_content, tmp_path, monkeypatch):
    """The process making the decks is killed when the build fails: what it had begun in its
    scratch folder is removed by the build, and nothing is left in the temporary folder."""
    temporary, cache, begun = tmp_path / "temp", tmp_path / "cache", tmp_path / "deck-begun"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(cache))

    aside, settle, holding = Decks._make_taken, apkg.settle_notes, []

    def taken_aside(decks):  # the decks' process aside alone: the render queue's decks are made as ever
        holding.append(True)
        return aside(decks)

    def deck_held(database, notes):  # in the process aside, its collection written: held there until killed
        if not holding:
            return settle(database, notes)
        begun.touch()
        threading.Event().wait()

    def broken_once_the_deck_is_begun(decks, writer):  # in the build, before it takes the decks
        deadline = time.monotonic() + 60
        while not begun.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(cache.rglob("decks-*.scratch/*/collection.anki2")), "the deck's collection is in the build's scratch folder"
        return 1 / 0

    monkeypatch.setattr(Decks, "_make_taken", taken_aside)
    monkeypatch.setattr(apkg, "settle_notes", deck_held)
    monkeypatch.setattr(Decks, "write", broken_once_the_deck_is_begun)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", "2")
    assert result.status == 4 and "ZeroDivisionError" in result.err, result.err
    assert begun.exists() and list(temporary.iterdir()) == [] and list(cache.glob("*.scratch")) == []


def test_a_build_removes_the_scratch_folder_a_build_killed_outright_left(make_content, tmp_path, monkeypatch):
    """A build killed with SIGKILL cannot remove its scratch folder: the next build does, and
    leaves alone that of a build still running."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(cache))
    ended = subprocess.Popen(["true"])
    ended.wait()
    left, running = cache / f"decks-{ended.pid}-abc.scratch", cache / f"decks-{os.getppid()}-def.scratch"
    for folder in (left, running):
        (folder / "studysite-deck-x").mkdir(parents=True)
        (folder / "studysite-deck-x" / "collection.anki2").write_bytes(b"begun")
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search")
    assert result.status == 0, result.err
    assert not left.exists() and (running / "studysite-deck-x" / "collection.anki2").exists()
    assert sorted(p.name for p in cache.glob("*.scratch")) == [running.name], "the build's own is removed as it ends"
