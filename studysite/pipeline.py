"""The build in two phases: load() reads and checks everything and plans every page;
build() renders the pages and writes them. A failed first phase writes nothing. What lets a
build skip work, share it among processes or begin it early comes from incremental/ and
wraps the stages called here."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from studysite import urls
from studysite.content.graph import Graph
from studysite.content.html import ContentHtml
from studysite.content.media import media_bytes
from studysite.content.records import Content
from studysite.content.validate import content_of
from studysite.diagnostics import Location, Report
from studysite.i18n import content_po
from studysite.i18n.status import TranslationStatus, record_blocks, report_interface_gaps
from studysite.i18n.ui_catalogs import check_catalogs
from studysite.incremental import kept_model
from studysite.incremental.alongside import Alongside
from studysite.incremental.cache import BuildCache, memo_of, open_cache, remember_build, status_memos, unchanged_build
from studysite.incremental.decks import Decks
from studysite.incremental.inputs import Inputs, read_inputs
from studysite.incremental.kept_model import Model
from studysite.incremental.page_keys import PageKeys, pages_to_render, source_digests
from studysite.incremental.page_sources import PageSources
from studysite.incremental.preview import keep_made_after_the_pages
from studysite.incremental.readings import read_content_files
from studysite.incremental.rendering import render_pages, work_group
from studysite.incremental.replanning import pages_again
from studysite.incremental.texts import build_graph_in_forks, convert_build_texts
from studysite.options import Options, build_settings
from studysite.output import search
from studysite.output.assets import collect_assets
from studysite.output.write import SiteWriter, check_output_folder
from studysite.pages.builder import ViewBuilder
from studysite.pages.links import check_page_links
from studysite.pages.view_models import Page
from studysite.progress import Progress
from studysite.render import site_files
from studysite.render.batch import write_sitemaps
from studysite.render.renderer import Renderer


@dataclass(frozen=True)
class LoadedSite:
    content: Content
    content_html: ContentHtml
    graph: Graph
    pages: list[Page]
    report: Report
    statuses: TranslationStatus  # worked out when first asked for
    catalogs: Mapping[str, content_po.ContentCatalog]  # the content.po of each site language but the default
    supplied: frozenset[tuple[str, str, str]]  # (kind, id, language) of what content.po translates
    views: ViewBuilder  # what planned the pages, and makes their view models
    shown: PageSources  # what each page shows
    planned_anew: frozenset[int] | None = None  # the positions of the pages planned anew from a kept model's (kept_model.py); None: all were


@dataclass(frozen=True)
class BuiltSite:
    """What a build made, for serve to apply edits to (serve/quick_edit.py): the model, the
    renderer, the page keys and the output's manifest."""

    options: Options
    loaded: LoadedSite
    renderer: Renderer
    keys: PageKeys
    files: Mapping[str, str]  # path -> sha256 of every file written
    inputs: Mapping[str, str]  # path -> key of every page rendered


@dataclass(frozen=True)
class BuildResult:
    pages: int
    changed: int  # files written anew; the others were carried over unchanged
    languages: int
    seconds: float
    report: Report
    site: BuiltSite | None = None  # None when nothing had changed and nothing was loaded
    changed_files: frozenset[str] = frozenset()


class Superseded(Exception):
    """A newer edit came while a build ran: its output would be stale, so it is not committed."""


# Called with what a build made, around its commit: it may raise Superseded (serve holds
# its output lock there and checks that no edit came since the build began).
CommitGuard = Callable[[BuiltSite], AbstractContextManager]


@dataclass(frozen=True)
class ReadSite:
    """Phase one before the pages are planned: the model (the content, its HTML and its
    graph; kept_model.py) and the translation status."""

    model: Model
    statuses: TranslationStatus

    @property
    def content(self) -> Content:
        return self.model.content

    @property
    def content_html(self) -> ContentHtml:
        return self.model.content_html

    @property
    def graph(self) -> Graph:
        return self.model.graph


def load(options: Options, report: Report, cache: BuildCache | None = None, inputs: Inputs | None = None) -> LoadedSite:
    """Phase one: read, validate and cross-reference the content; plan every page. inputs:
    the files read already, with their digests (a file whose reading the cache has is not read again)."""
    return plan_pages(read_site(options, report, cache, inputs), report)


TextsReady = Callable[[Content, ContentHtml], None]  # told the records and their HTML before the graph is made


def read_site(
    options: Options, report: Report, cache: BuildCache | None = None, inputs: Inputs | None = None, texts_ready: TextsReady | None = None
) -> ReadSite:
    """Phase one up to the pages: read, validate and cross-reference the content; or, given
    the build cache and the inputs, bring the previous build's model up to date, when it can be."""
    model = None
    if cache is not None and inputs is not None:
        model = kept_model.model_after_edits(options.content_dir, model_settings(options, cache), inputs, report, cache)
        if model is not None and texts_ready is not None:
            texts_ready(model.content, model.content_html)
    if model is None:
        model = read_model(options, report, cache, inputs, texts_ready)
    locales, coverage = options.layered("locales"), model.coverage
    statuses = TranslationStatus(model.blocks, model.content, options.content_dir, options.layered("templates"), locales, coverage, status_memos(cache))
    report_interface_gaps(statuses, options.site_root / "locales", report)
    return ReadSite(model, statuses)


def model_settings(options: Options, cache: BuildCache) -> str:
    """What a build's model depends on besides its input files: its settings and the code."""
    return f"{build_settings(options)}\0{cache.stamp}"


def read_model(options: Options, report: Report, cache: BuildCache | None = None, inputs: Inputs | None = None, texts_ready: TextsReady | None = None) -> Model:
    """Every content file read, validated and cross-referenced; their text converted."""
    base_url = urls.normalize_base_url(options.base_url) if options.base_url else ""
    jobs = options.processes
    listed = inputs.listed.get(options.content_dir) if inputs is not None else None
    site, readings = read_content_files(options.content_dir, report, base_url, cache, listed, jobs)
    if site is not None:  # the UI catalogs' mistakes told with the content's
        check_catalogs(options.locale_folders, site.languages, report)
    po_catalogs = content_po.read_content_catalogs(options.site_root / "locales", report)
    supplied = frozenset(content_po.supplied(po_catalogs))
    content = content_of(site, readings, report, supplied)
    report.raise_if_errors()
    assert content is not None  # a missing or broken site.yaml is an error
    catalogs = content_po.site_catalogs(po_catalogs, content.site.languages, report)
    content, coverage = content_po.apply_translations(content, catalogs, report)
    report.raise_if_errors()
    content_html = convert_build_texts(content, report, memo_of(cache, "markdown"), jobs)
    if texts_ready is not None:
        texts_ready(content, content_html)
    graph = build_graph_in_forks(content, content_html, memo_of(cache, "found"), jobs)
    blocks, sources = record_blocks(readings, content), source_digests(content, graph)
    return Model(content, content_html, graph, blocks, coverage, catalogs, supplied, tuple(report.diagnostics), sources)


def plan_pages(read: ReadSite, report: Report) -> LoadedSite:
    """Phase one's end: every page planned, and their paths checked unique."""
    views, shown = ViewBuilder(read.content, read.content_html, read.graph, read.statuses), PageSources(read.content, read.graph)
    pages, anew = pages_again(views, read.model.pages, read.model.edited, shown.of) if read.model.pages else (views.pages(), None)
    check_unique_paths(pages, report, shown.of)
    report.raise_if_errors()
    check_page_links(read.content, read.content_html, pages, report)
    model = read.model
    return LoadedSite(read.content, read.content_html, read.graph, pages, report, read.statuses, model.catalogs, model.supplied, views, shown, anew)


def check_unique_paths(pages: list[Page], report: Report, shows: Callable[[Page], tuple[str, ...]]) -> None:
    """Two pages for one file is an error, told at the record the second page shows (shows:
    PageSources.of), else at the file."""
    seen: dict[str, Page] = {}
    for page in pages:
        path = urls.file_for(page.path)
        if path in seen:
            shown = shows(page)
            report.error(Location(shown[0] if shown else path), "url.collision", f"two pages would be written to '{path}'")
        seen[path] = page


def build(options: Options, cache: BuildCache | None = None, guard: CommitGuard | None = None) -> BuildResult:
    """Both phases; the output changes only when the whole build succeeded. A build whose
    inputs and output are as the cache saw them after the previous build does nothing.
    What is done beside the stages to end sooner comes from incremental/alongside.py."""
    started = time.perf_counter()
    cache = cache if cache is not None else open_cache(options.content_dir)
    with Alongside(options, cache) as alongside:
        inputs = read_inputs(options.source_folders, build_settings(options), cache.stamp, cache.signatures)
        cache.signatures = inputs.signatures
        unchanged = unchanged_build(cache, options.out_dir, inputs.digest)
        if unchanged is not None:
            return BuildResult(unchanged["pages"], 0, unchanged["languages"], time.perf_counter() - started, unchanged["report"])
        previous = check_output_folder(options.out_dir, options.protected_folders)
        report = Report(strict=options.strict)
        alongside.start(previous, report, collect_assets(options.layered("static"), report), inputs)
        read = read_site(options, report, cache, inputs, alongside.texts_ready)
        report.raise_if_errors()
        read.statuses.all()  # for the status pages: worked out once, before render workers fork (and kept in the cache)
        alongside.model_read()
        loaded = plan_pages(read, report)
        alongside.pages_planned()
        media = sorted(loaded.content_html.published_media())  # their names change with their bytes: a page shows the new name
        page_keys = alongside.page_keys(read.model, loaded.pages, loaded.shown, media, previous)
        keep = functools.partial(
            kept_model.keep, options.content_dir, model_settings(options, cache), inputs, read.model, loaded.pages, page_keys, loaded.planned_anew
        )
        with SiteWriter(options.out_dir, previous, in_place=True, spare=alongside.spare()) as writer:
            write_site(writer, options, loaded, alongside.renderer, page_keys, alongside.assets, started, alongside.decks, keep)
            built = BuiltSite(options, loaded, alongside.renderer, page_keys, writer.written, writer.inputs)  # the writer is done with them
            with guard(built) if guard is not None else nullcontext():
                writer.commit()
            remember_build(cache, options.out_dir, inputs.digest, len(loaded.pages), len(loaded.content.site.languages), report)
        alongside.cache_saved()
    changed = frozenset(path for path in {*writer.written, *previous.files} if writer.written.get(path) != previous.files.get(path))
    return BuildResult(len(loaded.pages), writer.changed, len(loaded.content.site.languages), time.perf_counter() - started, report, built, changed)


def write_site(
    writer: SiteWriter,
    options: Options,
    loaded: LoadedSite,
    renderer: Renderer,
    page_keys: PageKeys,
    assets: dict,
    started: float,
    decks: Decks | None,
    keep: Callable[[], None],
) -> None:
    """Every file of the site into the writer: the pages whose keys changed, the assets, the
    decks and sitemaps (a preview keeps the previous ones), the search index and the offline
    files; and keep() done while the pages are rendered (the model saved for the next build)."""
    content, previous = loaded.content, writer.previous
    progress = Progress("Rendering pages", len(loaded.pages), started)
    made_aside = [] if decks is None else [decks.write_taken, functools.partial(write_sitemaps, renderer=renderer, pages=loaded.pages)]
    todo = pages_to_render(loaded.pages, page_keys, writer.reuse)
    alongside = [*made_aside, lambda _writer: keep()]  # keep() writes nothing of the site
    group_of = functools.partial(work_group, content)
    render_pages(writer, renderer, todo, len(loaded.pages) - len(todo), options.processes, group_of, progress.show, alongside)
    progress.clear()
    for path, data in assets.values():
        writer.write(path, data)
    for path, media in loaded.content_html.published_media().items():
        writer.write(path, media_bytes(options.content_dir, media.source))
    if decks is None:
        keep_made_after_the_pages(writer, previous)
    else:
        decks.write(writer)
    site_files.write_robots(writer, content)
    site_files.write_question_lists(writer, loaded.graph, content)
    if options.search and not options.preview:
        search.index_site(writer, options.out_dir, previous, content.site.languages, options.processes)
    site_files.write_offline_files(writer, loaded.content_html, loaded.graph, renderer)  # its page lists name the search index's files
