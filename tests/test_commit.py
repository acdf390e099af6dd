"""The commit: a build killed at any file operation of its commit leaves the previous site or
the new one, byte for byte, and the next build makes good whatever it left beside them."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from studysite import pipeline
from studysite.output import commit
from studysite.output.commit import spare_folder

# Run as a child process: the command line, with each file operation of the commit counted,
# and the process killed (SIGKILL) just before the one numbered by argv[1] (one past the last:
# just after the commit); with "fail:N", that operation fails as on a full disk; with
# "SIGTERM:N" or "SIGINT:N", the process gets that signal there and the operation goes on.
# It prints how many operations the commit made.
KILLER = """
import errno, os, signal, sys
from studysite.cli import main
from studysite.output import commit, write

action, _, number = sys.argv[1].rpartition(":")
stop_at, count, counting = int(number), [0], [False]

def stop():
    if action == "fail":
        raise OSError(errno.ENOSPC, "No space left on device")
    os.kill(os.getpid(), getattr(signal, action or "SIGKILL"))

def counted(operation):
    def call(*args, **kwargs):
        if counting[0]:
            count[0] += 1
            if count[0] == stop_at:
                stop()
        return operation(*args, **kwargs)
    return call

for name in ("rename", "replace", "link", "unlink", "rmdir", "mkdir", "open", "utime"):
    setattr(os, name, counted(getattr(os, name)))
real_renameat2 = commit.renameat2
commit.renameat2 = lambda: counted(real_renameat2())
real_commit = write.SiteWriter.commit

def commit_counted(self):
    counting[0] = True
    real_commit(self)
    counting[0] = False
    if count[0] + 1 == stop_at and action != "fail":
        stop()
    print(f"operations: {count[0]}", file=sys.stderr)

write.SiteWriter.commit = commit_counted
if stop_at < 0:  # while the pages are written, before the commit
    real_write = write.SiteWriter.write
    def write_then_stop(self, *args, **kwargs):
        if len(self.written) == -stop_at:
            stop()
        return real_write(self, *args, **kwargs)
    write.SiteWriter.write = write_then_stop
sys.exit(main(sys.argv[2:]))
"""

QUESTION = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Rekenen]
  explanation: {explanation}
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un GPU calcule en parallèle.
"""
SITE = """\
languages: [nl, fr]
base_url: https://example.org/study/
nl: {{title: {title}}}
fr: {{title: Étude}}
"""


@pytest.fixture(autouse=True)
def own_cache_folders(tmp_path, monkeypatch):
    """Each build names its cache folder (build()); the variable is put back after the test."""
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def edit(content: Path, version: int) -> None:
    """Each version changes a question's text and the Dutch title (every Dutch page)."""
    (content / "questions/gpu-role.yaml").write_text(QUESTION.format(explanation=f"Versie {version}."), encoding="utf-8")
    (content / "site.yaml").write_text(SITE.format(title=f"Studie {version}"), encoding="utf-8")


def build(content: Path, out: Path, cache: Path) -> None:
    os.environ["STUDYSITE_CACHE_DIR"] = str(cache)
    result = run_cli("build", "--content", content, "--out", out, "--no-search", "--jobs", "1")
    assert result.status == 0, result.err


def build_killed_at(number: int | str, content: Path, out: Path, cache: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", KILLER, str(number), "build", "--content", str(content), "--out", str(out), "--no-search", "--jobs", "1"]
    return subprocess.run(command, cwd=ROOT, env={**os.environ, "STUDYSITE_CACHE_DIR": str(cache)}, capture_output=True, text=True, timeout=120)


def copy_state(source: Path, target: Path) -> None:
    """The folder of a site, its spare, its lock and record file and its cache, as they are."""
    shutil.copytree(source, target, symlinks=True)


def commit_to_stop(content: Path, tmp_path: Path, builds_before: int) -> tuple[Path, Path, dict, dict, int]:
    """The content, the folder holding the site (and its spare, lock and cache) after
    builds_before builds, the files of that site and of a clean build of the next version
    (now in content), and how many file operations the next build's commit makes."""
    start = tmp_path / "start"
    for version in range(builds_before):
        edit(content, version)
        build(content, start / "site", start / "cache")
    edit(content, builds_before)
    build(content, tmp_path / "clean/site", tmp_path / "clean/cache")
    old, new = tree(start / "site"), tree(tmp_path / "clean/site")
    assert old != new
    probe = tmp_path / "probe"
    copy_state(start, probe)
    finished = build_killed_at(0, content, probe / "site", probe / "cache")
    assert finished.returncode == 0 and tree(probe / "site") == new, finished.stderr
    operations = int(finished.stderr.rsplit("operations: ", 1)[1].split()[0])
    assert operations >= 5
    return content, start, old, new, operations


def sample(operations: int, count: int) -> list[int]:
    """About count operation numbers spread over 1 to operations, both included."""
    return sorted({1, 2, *range(1, operations + 1, max(1, operations // count)), operations})


@pytest.mark.parametrize("builds_before", [1, 2], ids=["whole-folder", "spare"])
def test_a_build_killed_at_any_operation_of_its_commit_leaves_one_site_whole(make_content, tmp_path, monkeypatch, builds_before):
    """builds_before 1: the commit makes the whole folder (no spare yet); 2: it brings the
    spare up to date. Every operation is a kill point when there are few, else a sample
    that spans them, the first and the last included."""
    content, start, old, new, operations = commit_to_stop(make_content(), tmp_path, builds_before)
    for number in sample(operations, 6) + [operations + 1]:
        run = tmp_path / f"kill-{number}"
        copy_state(start, run)
        killed = build_killed_at(number, content, run / "site", run / "cache")
        assert killed.returncode == -9, (number, killed.stderr)
        left = tree(run / "site")
        assert left in (old, new), f"killed before operation {number} of {operations}: a mix of the two builds"
        assert ".studysite-pending" not in left
        build(content, run / "site", run / "cache")
        assert tree(run / "site") == new, f"the build after a kill before operation {number}"
        assert sorted(p.name for p in run.iterdir()) == sorted([".site.studysite-lock", spare_folder(run / "site").name, "cache", "site"])


def test_without_the_exchange_the_output_is_set_aside_and_put_back_after_a_stop_between_the_renames(make_content, tmp_path, monkeypatch):
    """Where renameat2 is missing: two renames, the output set aside between them; a build
    stopped there leaves no output folder, and the next build puts the previous one back
    before it builds."""
    monkeypatch.setattr(commit, "renameat2", lambda: None)
    content, site, cache = make_content(), tmp_path / "site", tmp_path / "cache"
    for version in (0, 1):
        edit(content, version)
        build(content, site, cache)
    assert tree(spare_folder(site))[".studysite"] != tree(site)[".studysite"]
    before = tree(site)
    renames, real_rename = [], os.rename

    def stop_at_the_second(source, target):
        renames.append(target)
        if len(renames) == 2:
            raise KeyboardInterrupt  # as a kill between the two
        real_rename(source, target)

    edit(content, 2)
    monkeypatch.setattr(commit.os, "rename", stop_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        pipeline.build(pipeline.Options(content_dir=content, out_dir=site, search=False, jobs=1))
    monkeypatch.setattr(commit.os, "rename", real_rename)
    assert not site.exists() and tree(renames[0]) == before
    build(content, site, cache)
    build(content, tmp_path / "clean/site", tmp_path / "clean/cache")
    assert tree(site) == tree(tmp_path / "clean/site")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".site.studysite-lock", ".site.studysite-spare", "cache", "clean", "content", "site"])


@pytest.mark.parametrize("builds_before", [1, 2], ids=["whole-folder", "spare"])
def test_a_commit_that_fails_at_any_operation_says_which_site_is_in_place(make_content, tmp_path, builds_before):
    """A full disk (or any refusal) at any file operation of the commit: exit 3 and the
    previous site as it was, or, past the exchange, the new site and success."""
    content, start, old, new, operations = commit_to_stop(make_content(), tmp_path, builds_before)
    for number in sample(operations, 4):
        run = tmp_path / f"fail-{number}"
        copy_state(start, run)
        failed = build_killed_at(f"fail:{number}", content, run / "site", run / "cache")
        left = tree(run / "site")
        assert "Traceback" not in failed.stderr
        if failed.returncode == 0:
            assert left == new, number
        else:
            assert failed.returncode == 3 and "No space left on device" in failed.stderr and "the previous site is unchanged" in failed.stderr, failed.stderr
            assert left == old, f"failed at operation {number} of {operations}"
        build(content, run / "site", run / "cache")
        assert tree(run / "site") == new


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_a_signal_during_the_commit_lets_it_finish_and_says_the_new_site_is_in_place(make_content, tmp_path, signal_name):
    """Before the commit, the build stops and says the previous site is unchanged; from its
    first operation on, the commit ends, and the build says the new site is in place."""
    content, start, old, new, operations = commit_to_stop(make_content(), tmp_path, 2)
    for number in [-3, *sample(operations, 2), operations + 1]:
        run = tmp_path / f"{signal_name}-{number}"
        copy_state(start, run)
        stopped = build_killed_at(f"{signal_name}:{number}", content, run / "site", run / "cache")
        assert stopped.returncode == 130 and "Traceback" not in stopped.stderr, stopped.stderr
        if number < 0:
            assert "Interrupted; the previous site is unchanged." in stopped.stderr and tree(run / "site") == old
        else:
            assert f"Interrupted ({signal_name}) after the new site was in place" in stopped.stderr and tree(run / "site") == new
