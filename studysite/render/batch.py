"""Rendering: pages through their templates into the site writer, and the sitemaps.
incremental/rendering.py shares a build's pages out among forked processes."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jinja2

from studysite import urls
from studysite.diagnostics import ContentError, Diagnostic, Location, Severity
from studysite.fileio import shown_path
from studysite.output.write import SiteWriter
from studysite.pages.view_models import Page, View
from studysite.render.renderer import Renderer

SITEMAP_FILE = re.compile(r"sitemap(-\d+)?\.xml")  # the sitemap, or one of the parts a large site splits it into


def write_sitemaps(writer: SiteWriter, renderer: Renderer, pages: list[Page]) -> None:
    """The sitemap files; the previous sitemap.xml when it listed the same (and was alone)."""
    entries = renderer.sitemap_entries(pages)
    digest = hashlib.sha256(renderer.made_from.encode())
    for entry in entries:  # one by one: the repr of them all is as large as the sitemap
        digest.update(repr(entry).encode())
    key = digest.hexdigest()
    alone = not any(SITEMAP_FILE.fullmatch(path) for path in writer.previous.files if path != urls.SITEMAP)
    if alone and writer.reuse(urls.SITEMAP, key):
        return
    for name, sitemap in renderer.render_sitemap(entries).items():
        writer.write(name, sitemap, key)


@dataclass(frozen=True)
class Render:
    """A page to render, with the key the writer records it by."""

    page: Page
    key: str = ""
    context: View | None = None  # made already, or to be made


def render_here(writer: SiteWriter, renderer: Renderer, todo: list[Render], progress: Callable[[int], None] | None = None, carried: int = 0) -> None:
    """Render these pages here; progress is told the pages done of all (carried over, or rendered)."""
    for done, item in enumerate(todo, 1):
        context = item.context if item.context is not None else item.page.context()
        writer.write(urls.file_for(item.page.path), render_page(renderer, item.page, context).encode("utf-8"), item.key)
        if progress is not None:
            progress(carried + done)


def render_page(renderer: Renderer, page: Page, context: dict) -> str:
    try:
        return renderer.render(page, context)
    except jinja2.TemplateSyntaxError as error:
        where = Location(shown_path(Path(error.filename)) if error.filename else str(error.name), error.lineno, 1)
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
    except jinja2.TemplateError as error:
        where = Location(f"templates/{page.template}")
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
