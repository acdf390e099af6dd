"""The build cache: rendered Markdown and the record of the last build, outside the site,
used only when it is the cache's own and safe to lose."""

import json
import os
from pathlib import Path

import markdown
import pytest
from conftest import run_cli

from studysite import cache as build_cache
from studysite.markup import MarkdownConverter

QUESTION_WITH_MARKDOWN = """\
topic: basics
answer: B
nl:
  question: Wat doet een GPU?
  choices: [Niets, Rekenen]
  explanation: Een **GPU** rekent.
fr:
  question: Que fait un GPU ?
  choices: [Rien, Calculer]
  explanation: Un **GPU** calcule.
"""


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file() and p.name != ".studysite"}


def cache_files() -> list[Path]:
    return sorted(Path(os.environ["STUDYSITE_CACHE_DIR"]).glob("site-*.json"))


def build(content: Path, out: Path):
    result = run_cli("build", "--content", content, "--out", out, "--no-search")
    assert result.status == 0, result.err
    return result


def test_the_cache_lives_in_studysite_cache_dir_and_not_in_the_site(make_content, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "my-cache"))
    build(make_content(), tmp_path / "site")
    names = sorted(p.name for p in (tmp_path / "my-cache").iterdir())  # the site's cache and its compiled templates
    assert [name.split("-")[0] for name in names] == ["site", "templates"]
    assert names[0].endswith(".json") and (tmp_path / "my-cache" / names[1]).is_dir()
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
    first = MarkdownConverter(cache=cache).block("Een **GPU** rekent.")
    again = MarkdownConverter(cache=cache).block("Een **GPU** rekent.")
    assert first == again == "<p>Een <strong>GPU</strong> rekent.</p>"
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


def test_a_corrupt_cache_is_ignored_and_replaced(make_content, tmp_path):
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "clean")
    for path in cache_files():
        path.write_bytes(b"\x00{not json")
    build(content, tmp_path / "site")
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")
    assert all(json.loads(p.read_text(encoding="utf-8"))["format"] == build_cache.FORMAT for p in cache_files())


def test_a_cache_written_by_other_code_is_never_trusted(make_content, tmp_path):
    content = make_content(**{"questions/gpu-role.yaml": QUESTION_WITH_MARKDOWN})
    build(content, tmp_path / "clean")
    (path,) = cache_files()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["markdown"] = {key: "<p>POISONED</p>" for key in data["markdown"]}
    data["builds"] = {}
    for stamp in ("another version", data["stamp"]):  # foreign, then our own edited without its checksum
        data["stamp"] = stamp
        path.write_text(json.dumps(data), encoding="utf-8")
        out = tmp_path / f"site-{len(stamp)}"
        build(content, out)
        assert site_files(out) == site_files(tmp_path / "clean")
    assert b"POISONED" not in (tmp_path / "clean/nl/questions/gpu-role/index.html").read_bytes()


def test_an_unwritable_cache_folder_does_not_fail_the_build(make_content, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(blocker / "cache"))
    build(make_content(), tmp_path / "site")
    assert (tmp_path / "site/nl/index.html").is_file()
