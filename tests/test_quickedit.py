"""Quick edits (serve): an edit of records' text is applied to the model kept from the last
build, writes just the pages that show it, exactly as a build would write them, and leaves
the folder for the next build to trust; any other edit is left to a build."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import ROOT, STUDY_CONTENT

from studysite import pipeline, urls
from studysite.incremental.cache import open_cache
from studysite.output.write import PENDING, read_manifest
from studysite.serve.file_replacer import FileReplacer
from studysite.serve.quick_edit import LiveSite


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name != ".studysite"}


def build(content: Path, out: Path) -> pipeline.BuildResult:
    return pipeline.build(pipeline.Options(content_dir=content, out_dir=out, search=False), open_cache(content))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, path
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def sample(tmp_path) -> tuple[Path, Path, LiveSite]:
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    return content, site, LiveSite(build(content, site).site)


TEXT_EDITS = [
    ("questions/gpu-programming/kv-cache.yaml", "Waarom gebruikt", "Waarvoor gebruikt", "nl/questions/kv-cache/"),
    ("questions/gpu-programming/kv-cache.yaml", "answer: B", "answer: C", "nl/questions/kv-cache/"),
    ("glossary/gpu.yaml", "  definition: Grafische processor", "  definition: Een grafische processor", "nl/glossary/gpu/"),
    ("topics/gpu-programming.yaml", "  title: GPU-programmering", "  title: Programmeren van GPU's", "nl/topics/gpu-programming/"),
    ("comparisons/parallelism-strategies.yaml", "  title: Data-", "  title: Overzicht van data-", "nl/comparisons/parallelism-strategies/"),
]


def test_text_edits_write_just_the_pages_that_show_them_as_a_build_writes_them(sample, tmp_path):
    content, site, live = sample
    for name, old, new, own_page in TEXT_EDITS:
        edit(content / name, old, new)
        written = live.edit([content / name])
        assert written and written[0] == urls.file_for(own_page), name  # the record's own page first
        clean = files_of(build(content, tmp_path / "clean").site.options.out_dir)
        shutil.rmtree(tmp_path / "clean")
        assert {path: files_of(site)[path] for path in written} == {path: clean[path] for path in written}, name
        assert len(written) < 40, name  # not every page
    assert "nl/questions/kv-cache/index.html" in (site / PENDING).read_text(encoding="utf-8").splitlines()
    build(content, site)  # takes the files the quick edits replaced as they are
    assert not (site / PENDING).exists()
    assert files_of(site) == files_of(build(content, tmp_path / "clean").site.options.out_dir)


SHAPE_EDITS = {
    "a new order": ("questions/gpu-role.yaml", "topic: basics\n", "topic: basics\norder: 2\n"),
    "another topic": ("questions/gpu-role.yaml", "topic: basics\n", "topic: other\n"),
    "a new alias": ("glossary/gpu.yaml", "nl: {term: GPU,", "nl: {term: GPU, aliases: [grafische kaart],"),
    "a language less": ("questions/gpu-role.yaml", "fr:\n  question: Que fait un GPU ?", "xx:\n  question: Que fait un GPU ?"),
    "a term found anew": ("questions/gpu-role.yaml", "parallel.", "parallel, anders dan een CPU."),
    "a new problem": ("questions/gpu-role.yaml", "parallel.", "parallel. ![](chip.png)"),
    "a YAML error": ("questions/gpu-role.yaml", "answer: B", "answer: [B"),
    "another id": ("questions/gpu-role.yaml", "topic: basics\n", "id: gpu-task\ntopic: basics\n"),
}


@pytest.mark.parametrize("change", SHAPE_EDITS.values(), ids=SHAPE_EDITS.keys())
def test_edits_that_change_more_than_text_are_left_to_a_build(make_content, tmp_path, change):
    other_topic = "nl: {title: Ander}\nfr: {title: Autre}\n"
    cpu = "nl: {term: CPU, definition: Processor.}\nfr: {term: CPU, definition: Processeur.}\n"
    content = make_content(**{"topics/other.yaml": other_topic, "glossary/cpu.yaml": cpu})
    site = tmp_path / "site"
    live = LiveSite(build(content, site).site)
    before = files_of(site)
    name, old, new = change
    edit(content / name, old, new)
    assert live.edit([content / name]) is None
    assert files_of(site) == before


def test_new_and_removed_files_are_left_to_a_build_and_hidden_files_change_nothing(make_content, tmp_path):
    content = make_content()
    site = tmp_path / "site"
    live = LiveSite(build(content, site).site)
    (content / "questions/new.yaml").write_text("topic: basics\nanswer: A\nnl: {question: Nieuw?, choices: [Ja, Nee], explanation: Ja.}\n")
    assert live.edit([content / "questions/new.yaml"]) is None
    (content / "questions/new.yaml").unlink()
    (content / "glossary/gpu.yaml").unlink()
    assert live.edit([content / "glossary/gpu.yaml"]) is None
    (content / "questions/.gpu-role.yaml.swp").write_bytes(b"\0")
    assert live.edit([content / "questions/.gpu-role.yaml.swp"]) == []
    assert live.edit([tmp_path / "elsewhere.yaml"]) is None
    (content / "questions/notes.yml").write_text("x: 1\n")
    assert live.edit([content / "questions/notes.yml"]) is None, "a build warns of it"
    (content / "questions/folder").mkdir()
    assert live.edit([content / "questions/folder"]) is None, "a folder made or moved in"
    assert live.edit([content / "glossary"]) is None, "a folder of records gone (moved away)"


def test_an_editor_saving_through_a_copy_keeps_the_quick_path(sample):
    """`sed -i`, Emacs and "safe write" editors write a copy (or a backup) and rename it: the
    copy's events come with the record's."""
    content, site, live = sample
    question = content / "questions/gpu-programming/kv-cache.yaml"
    copy = question.with_name("sedX1b2c3")
    copy.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    backup = question.with_name("kv-cache.yaml~")
    backup.write_bytes(question.read_bytes())
    copy.replace(question)
    written = live.edit([copy, question, backup])
    assert written is not None and "nl/questions/kv-cache/index.html" in written
    assert "Waarvoor gebruikt" in (site / "nl/questions/kv-cache/index.html").read_text(encoding="utf-8")


def test_files_quick_edits_replaced_are_not_trusted_by_the_next_build(make_content, tmp_path):
    content = make_content()
    site = tmp_path / "site"
    result = build(content, site)
    page = "nl/questions/gpu-role/index.html"
    writer = FileReplacer(site, dict(result.site.files), dict(result.site.inputs), set())
    writer.write(page, b"not what a build makes", "a key")  # and serve stops before any build
    manifest = read_manifest(site)
    assert manifest.files[page] == hashlib.sha256(b"not what a build makes").hexdigest() and page not in manifest.inputs
    build(content, site)
    assert files_of(site) == files_of(build(content, tmp_path / "clean").site.options.out_dir)
    assert not (site / PENDING).exists()


# Run as a child: a quick edit's write into the site given as argv[1], where no file may
# grow (RLIMIT_FSIZE 0, as a full disk refuses every write); prints the error it met.
FULL_DISK_WRITE = """
import resource, signal, sys
from pathlib import Path
from studysite.output.write import read_manifest
from studysite.serve.file_replacer import FileReplacer

site = Path(sys.argv[1])
manifest = read_manifest(site)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
try:
    FileReplacer(site, manifest.files, manifest.inputs, set()).write("nl/questions/gpu-role/index.html", b"edited", "a key")
except OSError as error:
    print(error.strerror)
"""


def test_a_quick_edit_on_a_full_disk_leaves_the_folder_as_it_was(make_content, tmp_path):
    """Neither an empty pending list nor a half-written page is left in the site."""
    site = tmp_path / "site"
    build(make_content(), site)
    before = files_of(site)
    child = subprocess.run([sys.executable, "-c", FULL_DISK_WRITE, str(site)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert child.returncode == 0 and child.stdout.strip() == "File too large", child.stderr
    assert files_of(site) == before and not (site / PENDING).exists()


def test_the_next_build_makes_the_search_index_of_a_language_quick_edits_changed(tmp_path):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    options = pipeline.Options(content_dir=content, out_dir=site)
    live = LiveSite(pipeline.build(options).site)
    kept = (site / "pagefind/fr/pagefind-entry.json").stat().st_ino
    edit(content / "questions/gpu-programming/kv-cache.yaml", "Waarom gebruikt", "Waarvoor gebruikt")
    assert live.edit([content / "questions/gpu-programming/kv-cache.yaml"])
    pipeline.build(options)
    assert (site / "pagefind/fr/pagefind-entry.json").stat().st_ino == kept
    assert files_of(site) == files_of(pipeline.build(replace(options, out_dir=tmp_path / "clean")).site.options.out_dir)


def test_the_review_page_is_written_again_when_a_title_it_lists_changed_and_only_then(sample):
    content, site, live = sample
    question = content / "questions/gpu-programming/kv-cache.yaml"
    edit(question, "  explanation: |\n    Bij het genereren", "  explanation: |\n    Tijdens het genereren")
    assert "nl/review/index.html" not in live.edit([question])  # the titles it lists are as they were
    edit(question, "Waarom gebruikt", "Waarvoor gebruikt")
    assert "nl/review/index.html" in live.edit([question])
    assert "Waarvoor gebruikt" in (site / "nl/review/index.html").read_text(encoding="utf-8")
