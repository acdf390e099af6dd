"""The build cache: rendered Markdown and the record of the last build, outside the site,
used only when it is the cache's own and safe to lose."""

import os
from pathlib import Path

import markdown
import pytest
from conftest import run_cli

from studysite.incremental import cache as build_cache
from studysite.incremental import checked_files, inputs
from studysite.text.markup import MarkdownConverter

QUESTION_WITH_MARKDOWN = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Rekenen]
  explanation: Een **GPU** rekent (`nvidia-smi`).
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un **GPU** calcule (`nvidia-smi`).
"""


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file() and p.name != ".studysite"}


def cache_files() -> list[Path]:
    return sorted(Path(os.environ["STUDYSITE_CACHE_DIR"]).glob("site-*.pickle"))


def build(content: Path, out: Path):
    result = run_cli("build", "--content", content, "--out", out, "--no-search")
    assert result.status == 0, result.err
    return result


def test_the_cache_lives_in_studysite_cache_dir_and_not_in_the_site(make_content, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "my-cache"))
    build(make_content(), tmp_path / "site")
    # the record of its builds, its decks' note memos, its kept model, its readings, its cache and its compiled templates
    names = sorted(p.name for p in (tmp_path / "my-cache").iterdir() if p.suffix != ".lock")  # and the lock of the cache (output/lock.py)
    assert [name.split("-")[0] for name in names] == ["builds", "deck", "deck", "model", "readings", "site", "templates"]
    assert [name.split("-")[-1] for name in names[1:3]] == ["fr.pickle", "nl.pickle"]
    assert all(name.endswith(".pickle") for name in names[:6]) and (tmp_path / "my-cache" / names[6]).is_dir()
    assert not [p for p in (tmp_path / "site").rglob("*") if "cache" in p.name]


def test_the_cache_folder_defaults_to_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("STUDYSITE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert build_cache.cache_folder() == tmp_path / "studysite"


def test_markdown_is_converted_once_and_then_read_from_the_cache(monkeypatch):
    calls = []
    original = markdown.Markdown.convert
    monkeypatch.setattr(markdown.Markdown, "convert", lambda self, text: calls.append(text) or original(self, text))
    cache = build_cache.BuildCache(stamp="x")
    first = MarkdownConverter(memo=cache.memo("markdown")).block("Een **GPU** rekent (`nvidia-smi`).")  # code: beyond plainmarkdown's subset
    again = MarkdownConverter(memo=cache.memo("markdown")).block("Een **GPU** rekent (`nvidia-smi`).")
    assert first == again == "<p>Een <strong>GPU</strong> rekent (<code>nvidia-smi</code>).</p>"
    assert len(calls) == 1


def test_a_rebuild_with_nothing_changed_reports_the_same_and_writes_nothing(make_content, tmp_path):
    content = make_content(
        **{"questions/untranslated.yaml": "topic: basics\nanswer: A\nnl: {question: Alleen Nederlands?, choices: [Ja, Nee], explanation: Ja.}\n"}
    )
    first = build(content, tmp_path / "site")
    again = build(content, tmp_path / "site")
    assert "warning" in first.err and again.err == first.err
    assert "(0 files changed" in again.out
    (tmp_path / "site/nl/index.html").unlink()  # an output that is no longer as written is rebuilt
    build(content, tmp_path / "site")
    assert (tmp_path / "site/nl/index.html").is_file()


def test_the_record_of_builds_is_written_once_the_output_is_in_place_and_stands_alone(make_content, tmp_path):
    """The cache is saved aside while the pages are rendered; the record that says the
    output is as built is a file of its own, written after the output: without it (or
    with what a stopped save left) the next build builds again and ends the same."""
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "site")
    folder = Path(os.environ["STUDYSITE_CACHE_DIR"])
    (builds,) = folder.glob("builds-*.pickle")
    assert str((tmp_path / "site").resolve()) in build_cache.open_cache(content).builds
    assert "(0 files changed" in build(content, tmp_path / "site").out
    builds.unlink()
    (cache_files()[0].parent / f"{cache_files()[0].name}.999999999.tmp").write_bytes(b"half a cache")  # a save stopped midway
    assert build_cache.open_cache(content).builds == {}
    again = build(content, tmp_path / "site")
    assert "(0 files changed" in again.out and builds.is_file()  # built again, the same bytes
    assert not list(folder.glob("*.tmp")) and "(0 files changed" in build(content, tmp_path / "site").out


def test_a_corrupt_cache_is_ignored_and_replaced(make_content, tmp_path):
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "clean")
    for path in Path(os.environ["STUDYSITE_CACHE_DIR"]).glob("*.pickle"):  # the cache and the kept model
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])  # cut short, as a full disk leaves it
    build(content, tmp_path / "site")
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")
    assert all(p.read_bytes().startswith(checked_files.FORMAT) for p in cache_files())
    assert build_cache.open_cache(content).markdown  # replaced by one that is used


def test_a_cache_written_by_other_code_is_never_trusted(make_content, tmp_path):
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "clean")
    (path,) = cache_files()
    cache = build_cache.open_cache(content)
    assert cache.markdown and cache.all_readings()
    cache.markdown = {key: "<p>POISONED</p>" for key in cache.markdown}
    cache.builds = {}
    ours = cache.stamp
    cache.stamp = "another version"  # foreign: its checksum holds, its stamp is not ours
    cache.save()
    build(content, tmp_path / "foreign")
    cache.stamp = ours  # our own, edited without its checksum
    cache.save()
    data = path.read_bytes()
    path.write_bytes(data[:-1] + (b"1" if data.endswith(b"0") else b"0"))
    build(content, tmp_path / "edited")
    for out in ("foreign", "edited"):
        assert site_files(tmp_path / out) == site_files(tmp_path / "clean")
    assert b"POISONED" not in (tmp_path / "clean/nl/questions/gpu-role/index.html").read_bytes()


def test_a_rebuild_after_an_edit_leaves_the_readings_as_they_were_and_a_foreign_readings_file_is_not_taken(make_content, tmp_path):
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "site")
    (readings,) = Path(os.environ["STUDYSITE_CACHE_DIR"]).glob("readings-*.pickle")
    before = (readings.stat().st_mtime_ns, readings.read_bytes())
    question = content / "questions/gpu-role.yaml"
    question.write_text(QUESTION_WITH_MARKDOWN.replace("Een **GPU** rekent", "Een **GPU** rekent snel"), encoding="utf-8")
    build(content, tmp_path / "site")  # the kept model, with the edited file read again
    assert "rekent snel" in (tmp_path / "site/nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert (readings.stat().st_mtime_ns, readings.read_bytes()) == before
    cache = build_cache.open_cache(content)
    assert cache.all_readings()
    cache.stamp = "another version"
    cache.save()  # the readings, stamped by other code
    assert build_cache.open_cache(content).all_readings() == {}


class Payload:
    """What a hostile cache file could hold: an object whose unpickling runs a command."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_cache_file_that_would_run_code_is_refused_unrun(make_content, tmp_path):
    content = make_content()
    build(content, tmp_path / "clean")
    cache = build_cache.open_cache(content)
    marker = tmp_path / "ran"
    cache.history = {"x": Payload(marker)}
    cache.save()  # a valid checksum and our stamp: only the unpickler stands in the way
    assert build_cache.open_cache(content).markdown == {}
    build(content, tmp_path / "site")
    assert not marker.exists()
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")


def test_an_unwritable_cache_folder_does_not_fail_the_build(make_content, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(blocker / "cache"))
    build(make_content(), tmp_path / "site")
    assert (tmp_path / "site/nl/index.html").is_file()


def test_a_file_whose_times_size_and_inode_are_as_they_were_is_not_read_again(tmp_path, monkeypatch):
    folder = tmp_path / "content"
    (folder / "questions").mkdir(parents=True)
    for name in ("a.yaml", "questions/b.yaml"):
        (folder / name).write_text(f"{name}: 1\n", encoding="utf-8")
    first = inputs.read_inputs([folder], "", "stamp")
    assert first.signatures == {}  # just written: their times have not settled
    monkeypatch.setattr(inputs, "SETTLED_NS", -1)
    first = inputs.read_inputs([folder], "", "stamp")
    assert sorted(first.signatures) == [str(folder / "a.yaml"), str(folder / "questions/b.yaml")]
    read = []
    original = inputs.read_bytes
    monkeypatch.setattr(inputs, "read_bytes", lambda path, *limit, **given: read.append(os.path.basename(path)) or original(path, *limit, **given))
    again = inputs.read_inputs([folder], "", "stamp", first.signatures)
    assert read == [] and again.digest == first.digest and again.listed == first.listed
    times = os.stat(folder / "a.yaml")
    (folder / "a.yaml").write_text("a.yaml: 2\n", encoding="utf-8")  # the same size, its modification time put back
    os.utime(folder / "a.yaml", ns=(times.st_atime_ns, times.st_mtime_ns))
    edited = inputs.read_inputs([folder], "", "stamp", first.signatures)
    assert read == ["a.yaml"] and edited.digest != first.digest  # its change time tells


def test_a_temporary_cache_file_is_removed_only_when_its_writer_is_gone(tmp_path):
    cache = tmp_path / "site-x.pickle"
    running, gone = tmp_path / f"site-x.pickle.{os.getpid()}.tmp", tmp_path / "site-x.pickle.999999999.tmp"
    for path in (running, gone):
        path.write_bytes(b"being written")
    build_cache.remove_temporary_files(cache)
    assert running.is_file() and not gone.exists()  # a build of the same content beside this one is left to finish
