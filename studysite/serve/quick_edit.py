"""Quick edits: how serve shows an edit of content files within milliseconds.

Most edits change the text of records and nothing that shapes the site: the same records
in the same files, with the same ids, topics, order, term lists, term names and languages,
the same terms found in their text, and no new problem. Every page then keeps its sources
(incremental/page_sources.py), so such an edit is applied to the model of the previous build record by record:
the edited files are read again, their text converted, and only the pages whose sources
include an edited record are rendered again (the records' own pages first), with the keys
a full build would give them. Any other edit gets a full build. A full build also follows
every quick edit, once the edits pause, for what lists every page's bytes (the offline
page lists) and what only a build works out (the translation status).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable
from pathlib import Path

from studysite import urls
from studysite.diagnostics import Report
from studysite.incremental.kept_model import Edited, read_again, with_texts_again
from studysite.incremental.page_keys import PageKeys, digests_after_edit, pages_to_render
from studysite.incremental.page_sources import PageSources
from studysite.incremental.replanning import graph_after_edit
from studysite.pages.builder import ViewBuilder
from studysite.pages.view_models import Page
from studysite.pipeline import BuiltSite
from studysite.render.batch import render_page
from studysite.serve.file_replacer import FileReplacer


class LiveSite:
    """The model of the last build, which serve keeps and edits record by record."""

    def __init__(self, built: BuiltSite):
        self.built = built
        self.pages_by_source: dict[str, list[Page]] = {}
        for page in built.loaded.pages:
            for source in built.loaded.shown.of(page):
                self.pages_by_source.setdefault(source, []).append(page)
        self.records_by_file = built.loaded.content.records_by_file()
        self.pending: set[str] = set()  # the files replaced since the build (write.PENDING)
        self.known_problems = {(d.location.path, d.code, d.message) for d in built.loaded.report.diagnostics}

    def edit(self, changed: Iterable[Path]) -> list[str] | None:
        """Apply an edit of these files, when it is a quick one: write the pages it changed
        and return their paths (none when only files a build ignores changed); None, with
        nothing written, when it needs a full build."""
        content_dir = self.built.options.content_dir.resolve()
        relative = sorted({_relative(path, content_dir) for path in changed})
        if any(path is None for path in relative):
            return None
        edited = [self._read(path) for path in relative if not _ignored(path, content_dir, self.records_by_file)]
        if any(item is None for item in edited):
            return None
        if not edited:
            return []
        return self._apply(edited)  # type: ignore[arg-type]

    def _read(self, path: str) -> Edited | None:
        """The record of an edited file, when it can be applied quickly."""
        kind_and_id = self.records_by_file.get(path)
        if kind_and_id is None:
            return None
        loaded = self.built.loaded
        report = Report(strict=self.built.options.strict, source_root=self.built.options.content_dir)
        edited = read_again(self.built.options.content_dir, path, *kind_and_id, loaded.content, loaded.catalogs, loaded.supplied, report)
        return edited if edited is not None and self._no_new_problems(report) else None

    def _no_new_problems(self, report: Report) -> bool:
        return not report.errors and all((d.location.path, d.code, d.message) in self.known_problems for d in report.diagnostics)

    def _apply(self, edited: list[Edited]) -> list[str] | None:
        built, loaded = self.built, self.built.loaded
        report = Report(strict=built.options.strict, source_root=built.options.content_dir)
        texts = with_texts_again(loaded.content, loaded.content_html, loaded.graph, edited, report)
        if texts is None or not self._no_new_problems(report):
            return None
        content, content_html, changes = texts
        if content_html.published_media().keys() != loaded.content_html.published_media().keys():
            return None  # a build publishes the media files the pages now show
        sources = digests_after_edit(loaded.content, content, loaded.graph, [(item.kind, item.record) for item in edited], built.keys.sources)
        graph = graph_after_edit(loaded.graph, frozenset(changes.get("questions", ())))
        views, shown = ViewBuilder(content, content_html, graph, loaded.statuses), PageSources(content, graph)
        keys = dataclasses.replace(built.keys, sources={**built.keys.sources, **sources}, shows=shown.of, known={})
        writer = FileReplacer(built.options.out_dir, built.files, built.inputs, self.pending)
        for page in self._pages_showing(sources):  # each written at once: the first is the one being looked at
            self._render(views.page_again(page), keys, writer)
        loaded = dataclasses.replace(loaded, content=content, content_html=content_html, graph=graph, views=views, shown=shown)
        self.built = dataclasses.replace(built, loaded=loaded, keys=keys, files=writer.files, inputs=writer.inputs)
        return writer.written

    def _render(self, page: Page, keys: PageKeys, writer: FileReplacer) -> None:
        """Render and write a page, unless its key says it is as it was."""
        for item in pages_to_render([page], keys, lambda path, key: writer.inputs.get(path) == key):
            context = item.context if item.context is not None else page.context()
            writer.write(urls.file_for(page.path), render_page(self.built.renderer, page, context).encode("utf-8"), item.key)

    def _pages_showing(self, sources: dict[str, str]) -> list[Page]:
        """The pages that show an edited record (their sources say so): the records' own
        pages first; the pages that list many records (practice, review...) last."""
        pages = {id(page): page for source in sources for page in self.pages_by_source.get(source, ())}
        first = self.built.loaded.shown.of
        return sorted(pages.values(), key=lambda page: (first(page)[0] not in sources, not page.record or page.template == "practice.html"))


def _relative(path: Path, content_dir: Path) -> str | None:
    """A changed file's path in the content folder, or None when it is outside."""
    try:
        return Path(path).resolve().relative_to(content_dir).as_posix()
    except ValueError:
        return None


def _ignored(path: str, content_dir: Path, record_files: Collection[str]) -> bool:
    """Whether a build ignores a changed path of the content folder: a hidden one (an
    editor's), or a file that is not YAML, there or gone (a backup, or the copy an editor
    saves and renames over the file: Emacs, `sed -i`, "safe write"); not a folder, nor
    one that held records."""
    if any(part.startswith(".") for part in path.split("/")):
        return True
    if path.endswith((".yaml", ".yml")):
        return False
    full = content_dir / path
    if full.is_dir():
        return False
    if full.exists():
        return True
    inside = path + "/"
    return not any(record.startswith(inside) for record in record_files)
