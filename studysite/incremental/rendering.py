"""The pages of a build rendered: in this process when few are to do (a process aside
doing the work alongside), else shared out among forked processes in batches that each
take whole work groups; and the templates compiled ahead for a build that renders every
page. render/batch.py renders a page as if every build were cold."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from studysite.content.records import Content
from studysite.output.write import Manifest, SiteWriter
from studysite.pages.view_models import Page
from studysite.render.batch import Render, render_here
from studysite.render.renderer import Renderer
from studysite.workers import WORTH_A_FORK, Aside, Tasks, can_fork, share_out_work


def render_pages(
    writer: SiteWriter,
    renderer: Renderer,
    todo: list[Render],
    carried: int,
    jobs: int,
    group_of: Callable[[Page], str],
    progress: Callable[[int], None] | None = None,
    alongside: Sequence[Callable[[SiteWriter], None]] = (),
) -> None:
    """Render and write the pages to do (the other `carried` pages of the site are carried
    over as they were), and do the other work alongside: each is given the writer, for
    the files it writes (the sitemaps) or none (the kept model saved). With jobs > 1 and
    many pages to render, forked workers take that work first, then, with this process,
    batches of pages (each work group whole: group_of, work_group's) in turn, each as it is
    free (a fork for the work alone would copy every page of memory that it or the build
    touches: at 5,000 questions, 40,000 pages while saving the model). The work alongside
    is left to the workers: what it leaves in memory (a language's deck, 57 MiB at 20,000
    questions in three languages) ends with them, where this process, which lives on to the
    search index and the commit, would hold it to the end. With few pages, they are rendered here while a process aside
    takes the work.

    Page paths were checked unique in phase one, so workers write side by side into the
    temporary folder and send back what they wrote; the first failure stops the build."""
    if not can_fork(jobs) or len(todo) < WORTH_A_FORK:
        in_groups = [item for batch in batches_of(todo, group_of) for item in batch]
        _render_alone(writer, renderer, in_groups, alongside, progress, carried, jobs)
        return
    renderer.load_templates(item.page for item in todo)
    batches = [functools.partial(render_here, renderer=renderer, todo=batch) for batch in batches_of(todo, group_of)]
    page_queue, alongside_queue = (batches, Tasks(len(batches))), (alongside, Tasks(len(alongside)))
    workers = [functools.partial(_take_works, writer, [alongside_queue, page_queue]) for _ in range(jobs - 1)]
    mine = functools.partial(_take_works, writer, [page_queue], progress, carried, jobs)  # the workers keep about the same pace
    for outcome in share_out_work([mine, *workers])[1:]:
        writer.merge(*outcome)


def templates_compiled_ahead(renderer: Renderer, pages: list[Page], previous: Manifest) -> list[Callable[[], None]]:
    """For a build into a folder with no site yet, which renders every page: the compiling
    of their templates, to be done aside while the page keys are worked out, the code kept
    in the templates' code cache, where this process then loads it from before the render
    workers fork (at 5,000 questions it took the half second in which the build had
    nothing else to do but work out the keys). Any other build compiles as it goes."""
    if previous.files or not renderer.keeps_code():
        return []
    return [functools.partial(renderer.load_templates, pages)]


def _render_alone(
    writer: SiteWriter,
    renderer: Renderer,
    todo: list[Render],
    alongside: Sequence[Callable[[SiteWriter], None]],
    progress: Callable[[int], None] | None,
    carried: int,
    jobs: int,
) -> None:
    """The pages rendered here while a process aside takes the work alongside, in turn
    with this process once the pages are done (with one job, this process does it all);
    what the process aside wrote is then taken into the writer."""
    tasks = Tasks(len(alongside))
    with Aside([functools.partial(_take_works, writer, [(alongside, tasks)])] if alongside else [], jobs, background=True) as aside:
        render_here(writer, renderer, todo, progress, carried)
        _take_works(writer, [(alongside, tasks)])
        outcomes = aside.results()
    for outcome in outcomes:
        writer.merge(*outcome)


BATCH = 16  # pages of no work group taken at once: few enough to even out the processes' ends


def work_group(content: Content, page: Page) -> str:
    """The name of the pages that share work, made once by the process that renders them
    all, one after the other (pages/record_parts.py's PlaceMemo keeps one group's): a
    topic's page, its questions' and its practice page (the worksheet and practice show the
    questions' linked text as their pages do); a language's term pages (which read the same
    questions' sentences). Empty for a page of no group."""
    if page.template in ("topic.html", "practice.html"):
        return f"{page.language}/{page.record}"
    if page.template == "question.html":
        return f"{page.language}/{content.questions[page.record].topic}"
    if page.template == "term.html":
        return f"{page.language}:glossary"  # no topic's group: ids hold no colon
    return ""


def batches_of(todo: list[Render], group_of: Callable[[Page], str]) -> list[list[Render]]:
    """The pages in batches for the workers to take, each work group (group_of) whole in one
    batch, the largest batches first, so that the last ones taken are small."""
    groups: dict[str, list[Render]] = {}
    alone: list[Render] = []
    for item in todo:
        group = group_of(item.page)
        if group:
            groups.setdefault(group, []).append(item)
        else:
            alone.append(item)
    batches = [*groups.values(), *(alone[start : start + BATCH] for start in range(0, len(alone), BATCH))]
    return sorted(batches, key=len, reverse=True)


def _take_works(
    writer: SiteWriter,
    queues: Sequence[tuple[Sequence[Callable[[SiteWriter], None]], Tasks]],
    progress: Callable[[int], None] | None = None,
    carried: int = 0,
    scale: int = 1,
) -> tuple[dict, dict, int]:
    """The works this process takes from each queue in turn (its works, and the numbers
    the processes take of them), done into the writer's temporary folder; what they
    wrote, to go to the parent's writer (a forked worker's writer is its own copy). progress
    is told, after each work, the pages done of all: carried over, or made here and, at the
    same pace, by the other workers."""
    before, changed = set(writer.written), writer.changed
    for works, tasks in queues:
        try:
            for number in tasks:
                works[number](writer)
                if progress is not None:
                    progress(carried + (len(writer.written) - len(before)) * scale)
        except BaseException:
            for _, every in queues:
                every.drain()  # the build fails: the other workers stop after the work they have
            raise
    written = {p: d for p, d in writer.written.items() if p not in before}
    return written, {p: writer.inputs[p] for p in written if p in writer.inputs}, writer.changed - changed
