"""What the command line says when the environment fails (exit 3) or Studysite has a bug
(exit 4), in the build's own process or in a worker: one sentence, never a traceback."""

import os
import re
import signal
import sqlite3
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
def test_a_full_temporary_folder_for_the_decks_database_exits_3_saying_so(make_content, tmp_path, monkeypatch, jobs):
    """SQLite says its database is full (here: a page limit, as a full TMPDIR does), in a
    worker process or not."""
    real_connect = sqlite3.connect

    def full(*args, **kwargs):
        connection = real_connect(*args, **kwargs)
        connection.execute("PRAGMA max_page_count = 1")
        return connection

    monkeypatch.setattr(sqlite3, "connect", full)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", jobs)
    assert result.status == 3, result.err
    assert re.fullmatch(r"error: database or disk is full \(SQLite, making an Anki deck in the temporary folder '.+' \(TMPDIR chooses another\)\); the previous site is unchanged\.\n", result.err)
    assert not (tmp_path / "site").exists()


def test_a_worker_killed_by_the_system_exits_3_saying_so(make_content, tmp_path, monkeypatch):
    monkeypatch.setattr(Decks, "_make_each", lambda self, previous, share: os.kill(os.getpid(), signal.SIGKILL))
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
    def broken(self, previous, share):
        return {}["no such key"]

    monkeypatch.setattr(Decks, "_make_each", broken)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", "2")
    assert result.status == 4 and "KeyError: 'no such key'" in result.err
    details = crash_report_of(result.err)
    assert details.startswith("In a worker process:\nTraceback (most recent call last):") and "in broken" in details


def test_a_build_that_fails_while_a_deck_is_made_aside_leaves_nothing_in_the_temporary_folder(make_content, tmp_path, monkeypatch):
    """The process making the decks is killed when the build fails: what it had begun in the
    temporary folder is removed by the build."""
    temporary, begun = tmp_path / "temp", tmp_path / "deck-begun"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))

    def deck_held(database, notes):  # in the process aside, its collection written: held there until killed
        begun.touch()
        threading.Event().wait()

    def broken_once_the_deck_is_begun(decks, writer):  # in the build, before it takes the decks
        deadline = time.monotonic() + 60
        while not begun.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(temporary.rglob("collection.anki2")), "the deck's collection is in the temporary folder"
        return 1 / 0

    monkeypatch.setattr(apkg, "settle_notes", deck_held)
    monkeypatch.setattr(Decks, "write", broken_once_the_deck_is_begun)
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search", "--jobs", "2")
    assert result.status == 4 and "ZeroDivisionError" in result.err, result.err
    assert begun.exists() and [p.name for p in temporary.iterdir() if p.name.startswith("studysite-deck")] == []
