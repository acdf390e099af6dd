"""The kept model (kept_model.py): a build takes the previous build's model when only the text of
record files changed, reads just those files, and writes what a build from scratch writes;
any other change, or a model file it cannot trust, has everything read again."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from conftest import STUDY_CONTENT
from test_quickedit import SHAPE_EDITS, TEXT_EDITS, edit, files_of

from studysite import pipeline
from studysite.diagnostics import ContentError
from studysite.incremental import kept_model
from studysite.incremental.cache import open_cache
from studysite.incremental.checked_files import save_checked


@pytest.fixture
def whole_reads(monkeypatch) -> list[Path]:
    """The output folders of the builds that read the content whole (pipeline.read_model)."""
    reads, read_model = [], pipeline.read_model

    def counted(options, *args, **kwargs):
        reads.append(options.out_dir)
        return read_model(options, *args, **kwargs)

    monkeypatch.setattr(pipeline, "read_model", counted)
    return reads


def build(content: Path, out: Path, **options) -> pipeline.BuildResult:
    return pipeline.build(pipeline.Options(content_dir=content, out_dir=out, search=False, **options))


def clean_build(content: Path, out: Path, monkeypatch) -> dict[str, bytes]:
    """The files of a build with a cache of its own, empty."""
    with monkeypatch.context() as patch:
        patch.setenv("STUDYSITE_CACHE_DIR", str(out.parent / f"{out.name}-cache"))
        build(content, out)
    return files_of(out)


def test_text_edits_read_just_the_edited_files_and_build_what_a_clean_build_does(tmp_path, monkeypatch, whole_reads):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    build(content, site)
    converted = len(open_cache(content).markdown)
    _, model = kept_model.load_checked(kept_model.model_path(content), kept_model._allowed)
    assert model.graph.languages and not model.graph.mentions  # where the terms were found is not kept: edited text is linked anew
    base = kept_model.model_path(content).read_bytes()
    for index, (name, old, new, _) in enumerate(TEXT_EDITS):
        edit(content / name, old, new)
        if index == 2:  # two files at once
            edit(content / TEXT_EDITS[0][0], "Waarvoor gebruikt", "Waartoe gebruikt")
        build(content, site)
        assert whole_reads.count(site) == 1, name  # the kept model, brought up to date
        assert files_of(site) == clean_build(content, tmp_path / f"clean-{index}", monkeypatch), name
        assert kept_model.model_path(content).read_bytes() == base and kept_model.edits_path(content).exists()  # the edits kept beside the model
    assert len(open_cache(content).markdown) >= converted  # kept for the next build that reads everything


@pytest.mark.parametrize("change", SHAPE_EDITS.values(), ids=SHAPE_EDITS.keys())
def test_edits_that_change_more_than_text_have_everything_read_again(make_content, tmp_path, monkeypatch, whole_reads, change):
    other_topic = "nl: {title: Ander}\nfr: {title: Autre}\n"
    cpu = "nl: {term: CPU, definition: Processor.}\nfr: {term: CPU, definition: Processeur.}\n"
    content = make_content(**{"topics/other.yaml": other_topic, "glossary/cpu.yaml": cpu})
    site = tmp_path / "site"
    build(content, site)
    name, old, new = change
    edit(content / name, old, new)
    try:
        build(content, site)
    except ContentError:
        assert whole_reads == [site, site]  # the error was found by reading everything
        return
    assert whole_reads == [site, site]
    assert files_of(site) == clean_build(content, tmp_path / "clean", monkeypatch)


def test_files_added_or_removed_a_template_or_a_setting_changed_have_everything_read_again(make_content, tmp_path, whole_reads):
    content = make_content()
    site = tmp_path / "site"
    build(content, site)
    (content / "questions/new.yaml").write_text("topic: basics\nanswer: A\nnl: {question: Nieuw?, choices: [Ja, Nee], explanation: Ja.}\n")
    build(content, site)
    (content / "questions/new.yaml").unlink()
    build(content, site)
    (content.parent / "templates").mkdir()
    (content.parent / "templates/extra.html").write_text("<p>x</p>")
    build(content, site)
    build(content, site, base_url="https://example.org/")
    assert whole_reads == [site] * 5
    build(content, tmp_path / "elsewhere", base_url="https://example.org/")  # nothing changed but the output folder
    assert whole_reads == [site] * 5


def test_a_file_with_a_problem_is_not_edited_into_a_kept_model(make_content, tmp_path, whole_reads):
    content = make_content()
    site = tmp_path / "site"
    (content / "questions/chip.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><image href="https://example.org/x.png"/></svg>')
    edit(content / "questions/gpu-role.yaml", "parallel.", "parallel. ![chip](chip.svg)")  # a warning: the SVG refers to another file
    build(content, site)
    edit(content / "questions/gpu-role.yaml", "parallel.", "parallel, snel.")
    result = build(content, site)
    assert whole_reads == [site, site] and result.report.warnings


class Payload:
    """What a hostile model file could hold: an object whose unpickling runs a command."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_model_file_that_would_run_code_is_refused_unrun(make_content, tmp_path, whole_reads):
    content = make_content()
    build(content, tmp_path / "clean")
    path = kept_model.model_path(content)
    made_from = next(kept_model.load_checked(path, kept_model._allowed))
    marker = tmp_path / "ran"
    save_checked(path, made_from, Payload(marker))  # its digest holds: only the unpickler stands in the way
    edit(content / "questions/gpu-role.yaml", "parallel.", "parallel, snel.")
    build(content, tmp_path / "site")
    assert not marker.exists() and whole_reads == [tmp_path / "clean", tmp_path / "site"]
    assert files_of(tmp_path / "site") == files_of(build(content, tmp_path / "again").site.options.out_dir)


def test_pages_kept_with_the_model_are_planned_again_when_they_must_be_rendered(tmp_path, monkeypatch, whole_reads):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    build(content, site)
    (site / "nl/questions/kv-cache/index.html").unlink()  # gone from the output: the build makes it again
    build(content, site)
    assert whole_reads == [site]
    assert files_of(site) == clean_build(content, tmp_path / "clean", monkeypatch)


def test_a_model_with_more_files_edited_than_a_quick_read_takes_is_kept_whole(tmp_path, monkeypatch, whole_reads):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    monkeypatch.setattr(kept_model, "QUICK_FILES", 1)
    build(content, site)
    base = kept_model.model_path(content).read_bytes()
    edit(content / "glossary/gpu.yaml", "  definition: Grafische processor", "  definition: Een grafische processor")
    build(content, site)
    assert kept_model.model_path(content).read_bytes() == base and kept_model.edits_path(content).exists()
    edit(content / "questions/gpu-programming/kv-cache.yaml", "Waarom gebruikt", "Waarvoor gebruikt")
    build(content, site)  # one file changed since the last build, two since the model file: kept whole again
    assert kept_model.model_path(content).read_bytes() != base and not kept_model.edits_path(content).exists()
    edit(content / "questions/gpu-programming/kv-cache.yaml", "Waarvoor gebruikt", "Waartoe gebruikt")
    build(content, site)
    assert whole_reads == [site]
    assert files_of(site) == clean_build(content, tmp_path / "clean", monkeypatch)


@pytest.mark.parametrize("spoil", ["corrupt", "another base"])
def test_an_edits_file_that_is_not_whole_or_names_another_model_is_ignored(tmp_path, monkeypatch, whole_reads, spoil):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    build(content, site)
    edit(content / "glossary/gpu.yaml", "  definition: Grafische processor", "  definition: Een grafische processor")
    build(content, site)
    edits = kept_model.edits_path(content)
    if spoil == "corrupt":
        edits.write_bytes(edits.read_bytes()[:-10])
    else:
        made_from, model_edits = kept_model.load_checked(edits, kept_model._allowed)
        spoiled = dataclasses.replace(model_edits.html, terms=dict.fromkeys(model_edits.html.terms, "<p>Spoiled</p>"))
        save_checked(edits, made_from, dataclasses.replace(model_edits, base="0" * 64, html=spoiled))  # taken, its text would show
    edit(content / "questions/gpu-programming/kv-cache.yaml", "Waarom gebruikt", "Waarvoor gebruikt")
    build(content, site)  # both files read again into the model file's model
    assert whole_reads == [site]
    assert files_of(site) == clean_build(content, tmp_path / "clean", monkeypatch)


def test_a_rebuild_keeps_the_review_page_unless_a_title_it_lists_changed(tmp_path, monkeypatch, whole_reads):
    content, site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(STUDY_CONTENT, content)
    build(content, site)
    review, question = site / "nl/review/index.html", content / "questions/gpu-programming/kv-cache.yaml"
    written = review.stat().st_ino
    edit(question, "  explanation: |\n    Bij het genereren", "  explanation: |\n    Tijdens het genereren")
    build(content, site)
    assert review.stat().st_ino == written  # carried over: its key, from the titles, is as it was
    edit(question, "Waarom gebruikt", "Waarvoor gebruikt")
    build(content, site)
    assert whole_reads.count(site) == 1 and "Waarvoor gebruikt" in review.read_text(encoding="utf-8")
    assert files_of(site) == clean_build(content, tmp_path / "clean", monkeypatch)
