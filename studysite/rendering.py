"""Rendering: every page through its template into the site writer, shared out among
forked processes; a page whose key did not change is carried over unrendered."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

import jinja2

from . import urls
from .diagnostics import ContentError, Diagnostic, Location, Severity
from .forks import share_out_work
from .i18n import shown_path
from .keys import PageKeys
from .render import Renderer
from .viewtypes import Page
from .write import SiteWriter


def render_pages(
    writer: SiteWriter, renderer: Renderer, pages: list[Page], jobs: int, keys: PageKeys, progress: Callable[[int], None] | None = None, progress_scale: int = 1
) -> None:
    """Render and write every page whose inputs changed since the previous build; the others
    are carried over. With jobs > 1, forked workers each take a share.

    Page paths were checked unique in phase one, so workers write side by side into the
    temporary folder and send back what they wrote; the first failure stops the build."""
    if jobs <= 1 or not hasattr(os, "fork"):
        for done, page in enumerate(pages, 1):
            context = None if page.keyed_by_sources else page.context()
            path, key = urls.file_for(page.path), keys.of(page, context)
            if not writer.reuse(path, key):
                writer.write(path, render_page(renderer, page, context if context is not None else page.context()).encode("utf-8"), key)
            if progress is not None:
                progress(done * progress_scale)
        return
    shares = share_out(pages, jobs)
    works = [functools.partial(_render_share, writer, renderer, share, keys) for share in shares[1:]]
    mine = functools.partial(render_pages, writer, renderer, shares[0], 1, keys, progress, jobs)  # the workers keep the same pace
    for outcome in share_out_work([mine, *works])[1:]:
        writer.merge(*outcome)


def share_out(pages: list[Page], jobs: int) -> list[list[Page]]:
    """The pages in jobs shares of about the same size, each work group (a topic's questions
    and practice page, which show the same linked text) whole in one share."""
    groups: dict[str, list[Page]] = {}
    for index, page in enumerate(pages):
        groups.setdefault(page.work_group or f"\0{index}", []).append(page)
    shares: list[list[Page]] = [[] for _ in range(jobs)]
    for group in sorted(groups.values(), key=len, reverse=True):  # largest first, each to the smallest share
        min(shares, key=len).extend(group)
    return shares


def _render_share(writer: SiteWriter, renderer: Renderer, share: list[Page], keys: PageKeys) -> tuple[dict, dict, int]:
    """A forked worker's share: rendered into the writer's temporary folder; what it wrote
    goes back to the parent's writer."""
    before, changed = set(writer.written), writer.changed
    render_pages(writer, renderer, share, 1, keys)
    written = {p: d for p, d in writer.written.items() if p not in before}
    return written, {p: writer.inputs[p] for p in written if p in writer.inputs}, writer.changed - changed


def render_page(renderer: Renderer, page: Page, context: dict) -> str:
    try:
        return renderer.render(page, context)
    except jinja2.TemplateSyntaxError as error:
        where = Location(shown_path(Path(error.filename)) if error.filename else str(error.name), error.lineno, 1)
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
    except jinja2.TemplateError as error:
        where = Location(f"templates/{page.template}")
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
