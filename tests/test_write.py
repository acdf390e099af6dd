"""The writer guards the output: atomic swaps, no foreign files touched, nothing written twice."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, STUDY_CONTENT, run_cli

from studysite.incremental.cache import cache_lock_file
from studysite.output import commit, lock, manifest, record
from studysite.output.lock import build_lock
from studysite.output.record import UNPROVEN, read_records, recorded, write_records
from studysite.output.write import MARKER, PENDING, Manifest, OutputError, SiteWriter, check_output_folder, read_manifest


def build_into(out, files):
    with SiteWriter(out, check_output_folder(out, [])) as writer:
        for path, data in files.items():
            writer.write(path, data)
        writer.commit()
    return writer


def test_first_build_creates_a_marked_folder(tmp_path):
    out = tmp_path / "site"
    build_into(out, {"index.html": b"hello", "a/b/index.html": b"deep"})
    assert (out / "a/b/index.html").read_bytes() == b"deep"
    assert set(read_manifest(out).files) == {"index.html", "a/b/index.html"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "site"]


def test_unchanged_files_are_carried_over_as_hard_links(tmp_path):
    out = tmp_path / "site"
    build_into(out, {"same.html": b"same", "changes.html": b"one"})
    inode = (out / "same.html").stat().st_ino
    writer = build_into(out, {"same.html": b"same", "changes.html": b"two"})
    assert writer.changed == 1
    assert (out / "same.html").stat().st_ino == inode
    assert (out / "changes.html").read_bytes() == b"two"


def test_files_no_longer_built_disappear(tmp_path):
    out = tmp_path / "site"
    build_into(out, {"old.html": b"x", "kept.html": b"y"})
    build_into(out, {"kept.html": b"y"})
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "kept.html"]


@pytest.mark.parametrize("path", ["../escape.html", "/etc/passwd", "a/../../x", MARKER])
def test_never_writes_outside_its_folder(tmp_path, path):
    with SiteWriter(tmp_path / "site", Manifest()) as writer, pytest.raises(OutputError):
        writer.write(path, b"x")
    assert not (tmp_path / "escape.html").exists()


@pytest.mark.parametrize("where", ["manifest", "pending"])
@pytest.mark.parametrize("path", ["../victim.txt", "{tmp}/victim.txt", "a/../../victim.txt", "./x", "a//b"])
def test_a_manifest_that_names_a_file_outside_the_folder_is_not_studysites(tmp_path, where, path):
    """A build deletes the files its manifest lists and it no longer makes: a manifest or
    pending list changed by hand must not lead it to delete anything elsewhere."""
    out, victim = tmp_path / "site", tmp_path / "victim.txt"
    build_into(out, {"index.html": b"x"})
    victim.write_text("mine")
    path = path.format(tmp=tmp_path)
    if where == "manifest":
        manifest = json.loads((out / MARKER).read_text())
        manifest["files"][path] = "0" * 64
        (out / MARKER).write_text(json.dumps(manifest))
    else:
        (out / PENDING).write_text(path + "\n")
    with pytest.raises(OutputError, match="did not write"):
        build_into(out, {"index.html": b"y"})
    assert victim.read_text() == "mine"
    assert (out / "index.html").read_bytes() == b"x", "nothing was changed"


def test_never_writes_the_same_file_twice(tmp_path):
    with SiteWriter(tmp_path / "site", Manifest()) as writer:
        writer.write("index.html", b"a")
        with pytest.raises(OutputError, match="twice"):
            writer.write("index.html", b"b")


def test_an_error_leaves_the_old_site_and_no_temporary_folder(tmp_path):
    out = tmp_path / "site"
    build_into(out, {"index.html": b"old"})
    with pytest.raises(RuntimeError), SiteWriter(out, check_output_folder(out, [])) as writer:
        writer.write("index.html", b"new")
        raise RuntimeError("render failed")
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "site"]


def test_refuses_folders_with_foreign_files(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home/thesis.tex").write_text("years of work")
    with pytest.raises(OutputError, match="did not write"):
        check_output_folder(tmp_path / "home", [])
    out = tmp_path / "site"
    build_into(out, {"index.html": b"x"})
    (out / "CNAME").write_text("example.org")
    with pytest.raises(OutputError, match=r"\(CNAME\)"):
        check_output_folder(out, [])


def test_refuses_overlap_with_protected_folders(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    for out in (content, content / "site", tmp_path):
        with pytest.raises(OutputError, match="overlaps"):
            check_output_folder(out, [content])


def test_stale_temporary_folders_of_interrupted_builds_are_removed(tmp_path):
    out = tmp_path / "site"
    with SiteWriter(out, Manifest()) as writer:
        writer.write("index.html", b"x")
        os.rename(writer.temp_dir, tmp_path / ".site.tmp-99999")  # as a killed build leaves it
        writer.temp_dir.mkdir()
    (tmp_path / ".site.tmp-12345").mkdir()  # not ours: no marker
    build_into(out, {"index.html": b"y"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", ".site.tmp-12345", "site"]


def test_sigterm_during_a_build_leaves_the_previous_site(tmp_path):
    site = tmp_path / "site"
    command = [sys.executable, "build.py", "--content", str(STUDY_CONTENT), "--out", str(site), "--no-search"]
    assert subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    for delay in (0.05, 0.15, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6):
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        assert b"Traceback" not in err
        files = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
        assert files == before or process.returncode == 0  # interrupted, or done before the signal
        assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "site"]


def test_refuses_a_symbolic_link_as_output(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(OutputError, match="symbolic link"):
        check_output_folder(tmp_path / "link", [])


def test_a_rebuild_stopped_while_completing_the_spare_leaves_the_previous_site_and_the_next_makes_good(tmp_path, monkeypatch):
    out = tmp_path / "site"

    def rebuild(version: bytes) -> None:
        with SiteWriter(out, check_output_folder(out, []), in_place=True) as writer:
            for name in ("a.html", "b.html", "c.html"):
                if not writer.reuse(name, f"key-{version.decode()}"):
                    writer.write(name, version, f"key-{version.decode()}")
            writer.commit()

    for version in (b"one", b"two"):  # the second makes the spare, which holds the first
        rebuild(version)
    moved, real_replace = [], os.replace

    def replace_once_then_stop(source, target):
        if moved:
            raise KeyboardInterrupt  # the build is stopped after moving one file into the spare
        moved.append(target)
        real_replace(source, target)

    monkeypatch.setattr(commit.os, "replace", replace_once_then_stop)
    with pytest.raises(KeyboardInterrupt):
        rebuild(b"three")
    monkeypatch.undo()
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a.html", "b.html", "c.html"]
    assert [(out / name).read_bytes() for name in ("a.html", "b.html", "c.html")] == [b"two"] * 3
    spare = tmp_path / ".site.studysite-spare"
    assert (spare / PENDING).is_file() and read_manifest(spare).pending == {"a.html", "b.html", "c.html"}  # taken as they are, keyed by nothing
    rebuild(b"three")
    assert [(out / name).read_bytes() for name in ("a.html", "b.html", "c.html")] == [b"three"] * 3
    assert not (out / PENDING).exists() and set(read_manifest(out).inputs) == {"a.html", "b.html", "c.html"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", ".site.studysite-spare", "site"]


def test_two_builds_into_one_folder_at_once_take_turns(tmp_path):
    """Neither removes the other's temporary folder, and what they leave is a site whose
    every file is in its manifest, which the next build takes up."""
    site = tmp_path / "site"
    command = [sys.executable, "build.py", "--content", str(STUDY_CONTENT), "--out", str(site), "--jobs", "1"]
    environment = {**os.environ, "STUDYSITE_CACHE_DIR": str(tmp_path / "cache")}
    builds = [subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    ended = [build.communicate(timeout=120) for build in builds]
    assert [build.returncode for build in builds] == [0, 0], ended
    manifest = check_output_folder(site, [])  # raises if a file is not in the manifest
    assert any(path.startswith("pagefind/nl/") for path in manifest.files)
    assert set(manifest.files) | {MARKER} == {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    again = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "cache", "site"]


def test_a_build_waits_for_the_one_that_holds_the_folder(make_content, tmp_path, monkeypatch):
    content, site = make_content(), tmp_path / "site"
    monkeypatch.setenv("STUDYSITE_LOCK_TIMEOUT", "30")
    held, waiting, released = threading.Event(), threading.Event(), []

    def told(*args, **kwargs):  # the build says it waits: it found the folder held
        print(*args, **kwargs)
        waiting.set()

    monkeypatch.setattr(lock, "print", told, raising=False)

    def other_build():  # held until the build waits for it (a loaded machine may start the build late), and a moment more
        with build_lock(site, cache_lock_file(content)):
            held.set()
            waiting.wait(30)
            time.sleep(0.2)
            released.append(time.monotonic())

    threading.Thread(target=other_build).start()
    held.wait(10)
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 0 and released and time.monotonic() > released[0]
    assert f"Waiting for another build of {site.as_posix()}/ to finish" in result.err


def test_a_build_that_waits_too_long_for_the_folder_exits_3(make_content, tmp_path, monkeypatch):
    content, site = make_content(), tmp_path / "site"
    monkeypatch.setenv("STUDYSITE_LOCK_TIMEOUT", "0.3")
    with build_lock(site, cache_lock_file(content)):
        result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 3
    assert "another build of" in result.err and "has not finished after 0.3 s" in result.err and "Traceback" not in result.err
    assert not site.exists()


def test_builds_with_one_cache_take_turns(make_content, tmp_path, monkeypatch):
    content = make_content()
    monkeypatch.setenv("STUDYSITE_LOCK_TIMEOUT", "0.3")
    with build_lock(tmp_path / "other-site", cache_lock_file(content)):
        result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 3 and "another build with the same cache" in result.err


def test_files_changed_by_hand_are_written_again_by_the_next_build(tmp_path):
    site = tmp_path / "site"
    assert run_cli("build", "--content", STUDY_CONTENT, "--out", site).status == 0
    changed = [site / "nl/index.html", site / "pagefind/nl/pagefind-entry.json", *site.glob("assets/site.*.js"), *site.glob("nl/downloads/*.apkg")]
    before = {path: path.read_bytes() for path in changed}
    for path in changed:
        with path.open("ab") as file:
            file.write(b"<script>alert(1)</script>")
    again = run_cli("build", "--content", STUDY_CONTENT, "--out", site)
    assert again.status == 0 and "(0 files changed)" not in again.out, again.err
    assert {path: path.read_bytes() for path in changed} == before
    assert "(0 files changed)" in run_cli("build", "--content", STUDY_CONTENT, "--out", site).out
    changed[0].write_bytes(b"changed again, after a rebuild in place recorded it")
    assert re.search(r"\(1 files? changed\)", run_cli("build", "--content", STUDY_CONTENT, "--out", site).out)
    assert changed[0].read_bytes() == before[changed[0]]


def test_a_file_changed_in_place_keeping_its_size_is_written_again(make_content, tmp_path):
    content, site = make_content(), tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    page = site / "nl/index.html"
    before = page.read_bytes()
    time.sleep(0.01)
    with page.open("r+b") as file:  # the same file and size, another byte
        file.seek(len(before) // 2)
        file.write(b"X" if before[len(before) // 2 : len(before) // 2 + 1] != b"X" else b"Y")
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    assert page.read_bytes() == before


def test_a_build_with_nothing_to_do_reads_no_file_of_the_site(make_content, tmp_path, monkeypatch):
    """None but those the record could not vouch for: written within the tick of the file
    system's clock in which the record was taken."""
    content, site = make_content(), tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    records = read_records(site)
    unproven = {path for path, seen in recorded(records, (site / MARKER).read_bytes()).items() if seen[3] == UNPROVEN}
    read, real_digest = [], manifest.file_digest

    def reading(path):
        read.append(path.relative_to(site).as_posix())
        return real_digest(path)

    monkeypatch.setattr(manifest, "file_digest", reading)
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 0 and "(0 files changed)" in result.out
    assert set(read) <= unproven


def keeping_size_times_and_inode(path: Path, data: bytes) -> None:
    """Write into a file as `dd conv=notrunc` does, then put its modification time back as
    `touch -r` does: only its change time tells."""
    before = path.stat()
    with path.open("r+b") as file:
        file.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def test_a_file_changed_keeping_its_size_times_and_inode_is_written_again(tmp_path):
    site = tmp_path / "site"
    assert run_cli("build", "--content", STUDY_CONTENT, "--out", site).status == 0
    changed = [site / "nl/index.html", site / "sitemap.xml", *site.glob("assets/style.*.css"), *site.glob("nl/downloads/*.apkg")]
    assert len(changed) == 4
    before = {path: path.read_bytes() for path in changed}
    for path in changed:
        keeping_size_times_and_inode(path, b"<!-- changed by hand -->")
    again = run_cli("build", "--content", STUDY_CONTENT, "--out", site)
    assert again.status == 0 and "(4 files changed)" in again.out, again.out
    assert {path: path.read_bytes() for path in changed} == before


def test_a_file_of_the_spare_changed_by_hand_is_not_published(make_content, tmp_path):
    """The spare holds the build before the output's, sharing the files that did not change
    with it: one changed by hand there, keeping its size, times and inode, is proven not
    as its manifest says, and never published as it is."""
    content, site = make_content(), tmp_path / "site"
    question = content / "questions/gpu-role.yaml"
    text = question.read_text()
    for version in ("een", "twee", "drie"):
        question.write_text(text.replace("parallel.", f"parallel, {version}."))
        if version == "drie":
            keeping_size_times_and_inode(tmp_path / ".site.studysite-spare/fr/index.html", b"<!-- changed by hand -->")
        assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    assert run_cli("build", "--content", content, "--out", tmp_path / "clean", "--no-search").status == 0
    assert (site / "fr/index.html").read_bytes() == (tmp_path / "clean/fr/index.html").read_bytes()


@pytest.mark.parametrize(("name", "target"), [("etcdir", "/etc"), ("hostname", "/etc/hostname"), ("nl/index.html", "/etc/hostname")])
def test_a_link_in_the_output_folder_is_a_file_it_did_not_write(make_content, tmp_path, name, target):
    content, site = make_content(), tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    link = site / name
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 2 and f"{name} (a link)" in result.err and "Traceback" not in result.err
    assert link.is_symlink()


@pytest.mark.parametrize("kind", ["link", "dangling link", "fifo"])
def test_a_link_or_a_special_file_as_the_lock_file_is_refused_and_never_written_through(make_content, tmp_path, kind):
    """The lock and record file beside the output is a name a repository can commit as a
    link: a build never opens it through one (nor a FIFO, which would block it)."""
    content, site, victim = make_content(), tmp_path / "site", tmp_path / "victim.txt"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    before = {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    lock = tmp_path / ".site.studysite-lock"
    lock.unlink()
    if kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.symlink_to(victim.name)
        if kind == "link":
            victim.write_text("mine")
    (content / "site.yaml").write_text((content / "site.yaml").read_text().replace("Studie", "Studie 2"))
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 2 and f"'{lock}' is" in result.err and "remove it" in result.err and "Traceback" not in result.err
    assert victim.read_text() == "mine" if kind == "link" else not victim.exists()
    assert {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("where", ["site", ".site.studysite-spare"])
def test_a_file_added_to_a_folder_of_the_site_or_the_spare_is_found_even_with_the_folders_times_put_back(make_content, tmp_path, where):
    """A build takes the entries of a folder the record vouches for from the record, asking
    lstat alone: adding an entry sets the folder's change time, which nothing puts back."""
    content, site = make_content(), tmp_path / "site"
    question = content / "questions/gpu-role.yaml"
    for version in ("een", "twee"):
        question.write_text(question.read_text().replace("parallel", f"parallel {version}"))
        assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    folder = tmp_path / where / "nl/glossary/gpu"
    before = folder.stat()
    (folder / "extra.html").write_text("<script>alert(1)</script>")
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    question.write_text(question.read_text().replace("parallel", "parallel drie"))
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 2 and "nl/glossary/gpu/extra.html" in result.err and "did not write" in result.err, result.err


def test_the_record_keeps_every_entry_of_each_folder_and_a_damaged_one_is_no_record(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    entries = {"index.html": (1, 2, 3, 4), "nl/": (5, 6, 7, UNPROVEN), "é\nline.html": (8, 9, 10, 11), "bad-\udcff.txt": (12, 13, 14, 15), "/": (0, 0, 0, 0)}
    write_records(out, {record.manifest_digest(b"manifest"): entries, record.manifest_digest(b"other"): {}})
    kept = read_records(out)
    assert recorded(kept, b"manifest") == entries and recorded(kept, b"other") == {}
    lock = tmp_path / ".site.studysite-lock"
    whole = lock.read_bytes()
    for damaged in (whole[:-3], whole[:30], b"{}", whole.replace(b"[", b"{", 1)):
        lock.write_bytes(damaged)
        assert read_records(out) == {}


def test_a_folder_just_built_is_recorded_packed_as_its_listing_would_be(tmp_path):
    """The commit records the new folder straight into the record file's form (packed_listing),
    without a dict of it: the record read back is what look_through, vouched and as_recorded
    make of the same folder."""
    folder = tmp_path / "new"
    for path in ("index.html", "nl/index.html", "nl/questions/q1/index.html", "é/deep/er/file.json"):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(path)
    listing = record.look_through(folder)
    out = tmp_path / "site"
    out.mkdir()
    for clock in (0, 1 << 62):  # every entry changed within the clock's tick (unproven), or none
        expected = record.as_recorded(record.vouched(listing.files, clock), record.vouched(listing.folders, clock))
        assert len(expected) == 11 and {found[3] == UNPROVEN for found in expected.values()} == {clock == 0}
        write_records(out, {record.manifest_digest(b"manifest"): record.packed_listing(folder, clock), record.manifest_digest(b"before"): {"a.html": (1, 2, 3, 4)}})
        kept = read_records(out)
        assert recorded(kept, b"manifest") == expected and recorded(kept, b"before") == {"a.html": (1, 2, 3, 4)}
