"""Rendering: every page through its template into the site writer, shared out among
forked processes; a page whose key did not change is carried over unrendered."""

from __future__ import annotations

import gc
import os
import pickle
from collections.abc import Callable
from pathlib import Path

import jinja2

from . import urls
from .diagnostics import ContentError, Diagnostic, Location, Severity
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
    gc.freeze()  # keep the collector off the shared objects, so forked workers copy fewer pages
    try:
        shares = share_out(pages, jobs)
        workers = [_fork_worker(writer, renderer, shares[index], keys) for index in range(1, jobs)]
    finally:
        gc.unfreeze()
    failure: BaseException | None = None
    try:
        render_pages(writer, renderer, shares[0], 1, keys, progress, jobs)  # the workers keep the same pace
    except BaseException as error:  # collect the workers before passing it on
        failure = error
    for pid, reader in workers:
        with os.fdopen(reader, "rb") as stream:
            data = stream.read()
        os.waitpid(pid, 0)
        outcome = pickle.loads(data) if data else RuntimeError("a render worker stopped without a result")
        if isinstance(outcome, BaseException):
            failure = failure or outcome
        else:
            writer.merge(*outcome)
    if failure is not None:
        raise failure


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


def _fork_worker(writer: SiteWriter, renderer: Renderer, share: list[Page], keys: PageKeys) -> tuple[int, int]:
    reader, sender = os.pipe()
    pid = os.fork()
    if pid:
        os.close(sender)
        return pid, reader
    os.close(reader)
    status = 1
    try:
        before = set(writer.written)
        changed = writer.changed
        try:
            render_pages(writer, renderer, share, 1, keys)
            written = {p: d for p, d in writer.written.items() if p not in before}
            outcome: object = (written, {p: writer.inputs[p] for p in written if p in writer.inputs}, writer.changed - changed)
        except (ContentError, OSError) as error:
            outcome = error
        except Exception as error:  # sent back as text: the parent says what went wrong
            outcome = RuntimeError(f"a render worker failed: {type(error).__name__}: {error}")
        with os.fdopen(sender, "wb") as stream:
            pickle.dump(outcome, stream)
        status = 0
    finally:
        os._exit(status)


def render_page(renderer: Renderer, page: Page, context: dict) -> str:
    try:
        return renderer.render(page, context)
    except jinja2.TemplateSyntaxError as error:
        where = Location(shown_path(Path(error.filename)) if error.filename else str(error.name), error.lineno, 1)
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
    except jinja2.TemplateError as error:
        where = Location(f"templates/{page.template}")
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
