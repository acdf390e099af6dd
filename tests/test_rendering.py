"""incremental/rendering.py: how the pages to render are shared out among the processes."""

from __future__ import annotations

import functools
import os
import time
from types import SimpleNamespace

import pytest

from studysite.incremental.rendering import _take_works, batches_of, work_group
from studysite.pages.view_models import Page
from studysite.render.batch import Render
from studysite.workers import Tasks, share_out_work


def todo(count: int) -> list[Render]:
    return [Render(Page(f"nl/p{n}/", "question.html", "nl", "", lambda: None, record=f"p{n}"), "", None) for n in range(count)]


def group_of(page: Page) -> str:
    """Two pages in three belong to one of seven work groups."""
    n = int(page.record[1:])
    return f"nl/t{n % 7}" if n % 3 else ""


def test_batches_hold_every_page_once_each_work_group_whole_and_the_largest_come_first():
    batches = batches_of(todo(500), group_of)
    paths = [item.page.path for batch in batches for item in batch]
    assert sorted(paths) == sorted(item.page.path for item in todo(500))
    assert [len(b) for b in batches] == sorted((len(b) for b in batches), reverse=True)
    for group in {group_of(item.page) for item in todo(500)} - {""}:
        assert sum(any(group_of(item.page) == group for item in batch) for batch in batches) == 1
    assert max(len(batch) for batch in batches if not group_of(batch[0].page)) <= 16  # pages of no group: small batches


def test_a_language_s_term_pages_are_rendered_by_one_process_and_a_topic_s_questions_with_its_practice_page():
    """They read the same texts (a term page quotes the sentences of every question using
    the term; a topic's question pages, its practice page and its topic page, whose printed
    worksheet holds them, show its questions), which a process works out once for all the
    pages it renders."""
    from conftest import STUDY_CONTENT

    from studysite import pipeline
    from studysite.diagnostics import Report

    loaded = pipeline.load(pipeline.Options(content_dir=STUDY_CONTENT, search=False), Report())
    pages, group_of = loaded.pages, functools.partial(work_group, loaded.content)
    batches = batches_of([Render(page, "", None) for page in pages], group_of)

    def batches_holding(language: str, template: str = "", group: str = "") -> int:
        def chosen(page) -> bool:
            return page.language == language and (page.template == template if template else group_of(page) == group)

        return sum(any(chosen(item.page) for item in batch) for batch in batches)

    for language in ("nl", "fr"):
        assert batches_holding(language, template="term.html") == 1
        topics = {page.record for page in pages if page.template == "practice.html" and page.language == language}
        for topic in topics:
            assert batches_holding(language, group=f"{language}/{topic}") == 1
        assert {page.template for page in pages if group_of(page) == f"{language}/{min(topics)}"} == {"question.html", "practice.html", "topic.html"}


def test_a_worker_that_fails_takes_what_is_left_so_the_others_stop_soon():
    parent = os.getpid()
    done: list[int] = []

    def work(number: int):
        def do(writer) -> None:
            if os.getpid() != parent:
                raise ValueError("a template error, say")
            done.append(number)
            time.sleep(0.01)

        return do

    def writer():
        return SimpleNamespace(written={}, inputs={}, changed=0)

    works = [work(number) for number in range(200)]
    tasks = Tasks(len(works))
    with pytest.raises(RuntimeError, match="a template error"):
        share_out_work([lambda: _take_works(writer(), [(works, tasks)]), lambda: _take_works(writer(), [(works, tasks)])])
    assert len(done) < 100  # the parent stopped soon after the child failed, not at the end of the queue


def test_work_alongside_is_done_once_by_a_render_worker_or_aside_while_few_pages_are_rendered(tmp_path):
    """The sitemaps and the kept model's saving: taken by a render worker (not this process)
    when workers render, else done by a process aside (or here, with one job); either way once, with
    every page written and what the work wrote taken into the writer."""
    from studysite.incremental.rendering import render_pages
    from studysite.output.write import Manifest, SiteWriter

    class Echo:
        def load_templates(self, pages) -> None:
            pass

        def render(self, page, view) -> str:
            return page.path

    log = tmp_path / "alongside.log"

    def save(writer) -> None:
        with open(log, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")

    def write_sitemap(writer) -> None:
        writer.write("sitemap.xml", b"<urlset/>")

    for count, jobs in ((300, 2), (3, 2), (3, 1)):  # with workers; alone with a process aside; alone
        log.write_text("")
        pages = [Page(f"nl/p{n}/", "question.html", "nl", "", lambda: None) for n in range(count)]
        with SiteWriter(tmp_path / f"site-{count}-{jobs}", Manifest()) as writer:
            render_pages(writer, Echo(), [Render(page) for page in pages], 0, jobs, lambda page: "", alongside=[write_sitemap, save])
            assert len(writer.written) == count + 1 and "sitemap.xml" in writer.written
            assert (writer.temp_dir / "sitemap.xml").read_bytes() == b"<urlset/>"
        assert len(log.read_text().split()) == 1
        if count == 300:  # left to a forked worker: what it holds in memory ends with it
            assert int(log.read_text()) != os.getpid()


def test_a_build_into_an_empty_folder_compiles_its_templates_aside_while_the_page_keys_are_worked_out(tmp_path, monkeypatch):
    """The compiled code, left in the templates' code cache by a process aside, is what
    this process loads: it compiles no page template itself (with one job, it does)."""
    import jinja2
    from conftest import STUDY_CONTENT

    from studysite import pipeline

    parent, original = os.getpid(), jinja2.Environment.compile
    compiled: dict[int, list[str]] = {}

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if os.getpid() == parent:
            compiled[jobs].append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    for jobs in (2, 1):
        compiled[jobs] = []
        monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / f"cache-{jobs}"))
        pipeline.build(pipeline.Options(content_dir=STUDY_CONTENT, out_dir=tmp_path / f"site-{jobs}", search=False, jobs=jobs))
        assert (tmp_path / f"site-{jobs}/nl/questions/kv-cache/index.html").is_file()
    assert not {"question.html", "term.html", "base.html"} & set(compiled[2])
    assert {"question.html", "term.html", "base.html"} <= set(compiled[1])
