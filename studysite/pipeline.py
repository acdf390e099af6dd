"""The build in two phases: load() reads and checks everything and plans every page;
build() renders the pages and writes them. A failed first phase writes nothing."""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import time
from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import anki, contentpo, offline, search, urls
from .diagnostics import ContentError, Diagnostic, Location, Report, Severity
from .graph import Graph, build_graph
from .i18n import load_layered_translations, shown_path
from .load import load_documents
from .markup import RenderedText, plain_text, render_content
from .model import Content
from .render import Renderer, SiteInfo, make_environment
from .siteconfig import normalize_base_url
from .status import LanguageStatus, translation_status
from .validate import validate_content
from .views import Page, ViewBuilder
from .write import SiteWriter, check_output_folder

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Options:
    content_dir: Path = Path("content")
    out_dir: Path = Path("site")
    base_url: str = ""
    strict: bool = False
    search: bool = True
    jobs: int = 1
    live_reload: bool = False

    @property
    def site_root(self) -> Path:
        """The folder holding the site's content/ and, optionally, its own templates/, static/, locales/."""
        return self.content_dir.resolve().parent

    @property
    def source_folders(self) -> list[Path]:
        """Every folder a build reads: the content and the layered resources."""
        return [self.content_dir, *(folder for name in ("templates", "static", "locales") for folder in self.layered(name))]

    def layered(self, name: str) -> list[Path]:
        """A resource folder of the site, then Studysite's own: the first that has a file wins."""
        folders = [self.site_root / name, PACKAGE_ROOT / name]
        unique = []
        for folder in folders:
            if folder.is_dir() and folder.resolve() not in [f.resolve() for f in unique]:
                unique.append(folder)
        return unique


@dataclass(frozen=True)
class LoadedSite:
    content: Content
    rendered: RenderedText
    graph: Graph
    pages: list[Page]
    report: Report
    statuses: list[LanguageStatus]


@dataclass(frozen=True)
class BuildResult:
    pages: int
    changed: int  # files written anew; the others were carried over unchanged
    languages: int
    seconds: float
    report: Report


def load(options: Options, report: Report) -> LoadedSite:
    """Phase one: read, validate and cross-reference the content; plan every page."""
    documents = load_documents(options.content_dir, report)
    base_url = normalize_base_url(options.base_url) if options.base_url else ""
    po_catalogs = contentpo.read_content_catalogs(options.site_root / "locales", report)
    content = validate_content(documents, report, base_url, frozenset(contentpo.supplied(po_catalogs)))
    report.raise_if_errors()
    assert content is not None  # a missing or broken site.yaml is an error
    content, coverage = contentpo.apply_translations(content, contentpo.site_catalogs(po_catalogs, content.site.languages, report), report)
    report.raise_if_errors()
    statuses = translation_status(documents, content, options.content_dir, options.layered("templates"), options.layered("locales"), coverage)
    del documents  # the YAML nodes are the largest thing held; the records have all they said
    rendered = render_content(content, report)
    graph = build_graph(content, rendered)
    pages = ViewBuilder(content, rendered, graph, statuses).pages()
    check_unique_paths(pages, report)
    report.raise_if_errors()
    return LoadedSite(content, rendered, graph, pages, report, statuses)


def check_unique_paths(pages: list[Page], report: Report) -> None:
    seen: dict[str, Page] = {}
    for page in pages:
        path = urls.file_for(page.path)
        if path in seen:
            report.error(Location(page.sources[0] if page.sources else path), "url.collision", f"two pages would be written to '{path}'")
        seen[path] = page


MODULE_FOLDERS = ("js", "vendor")  # ES modules import each other by relative URL: one fingerprint per folder


def collect_assets(options: Options) -> dict[str, tuple[str, bytes]]:
    """Static files by name -> (fingerprinted path, bytes); a site's own file wins.

    A file is fingerprinted by its bytes ("style.css" -> "assets/style.<hash>.css"); the
    files of a module folder by the whole folder ("js/main.js" -> "assets/js.<hash>/main.js"),
    so that the modules' relative imports still meet."""
    files: dict[str, bytes] = {}
    for folder in reversed(options.layered("static")):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                files[path.relative_to(folder).as_posix()] = path.read_bytes()
    assets: dict[str, tuple[str, bytes]] = {}
    for name, data in files.items():
        stem, dot, suffix = name.rpartition(".")
        fingerprint = hashlib.sha256(data).hexdigest()[:10]
        assets[name] = (f"assets/{stem}.{fingerprint}.{suffix}" if dot else f"assets/{name}.{fingerprint}", data)
    for folder in MODULE_FOLDERS:
        members = sorted(name for name in files if name.startswith(folder + "/"))
        digest = hashlib.sha256()
        for name in members:
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
        for name in members:
            assets[name] = (f"assets/{folder}.{digest.hexdigest()[:10]}/{name[len(folder) + 1 :]}", files[name])
    return assets


def build(options: Options) -> BuildResult:
    """Both phases; the output changes only when the whole build succeeded."""
    started = time.perf_counter()
    previous = check_output_folder(options.out_dir, options.source_folders)
    report = Report(strict=options.strict)
    loaded = load(options, report)
    content = loaded.content
    site = content.site
    assets = collect_assets(options)
    renderer = make_renderer(options, content, report, assets)
    report.raise_if_errors()
    inputs_key = render_inputs_key(options, renderer)
    with SiteWriter(options.out_dir, previous) as writer:
        render_pages(writer, renderer, loaded.pages, options.jobs, inputs_key)
        for path, data in assets.values():
            writer.write(path, data)
        anki.write_decks(writer, anki.DeckSource(content, loaded.rendered, anki.file_times(options.content_dir)), loaded.graph, renderer.environments)
        for name, sitemap in renderer.render_sitemap(loaded.pages).items():
            writer.write(name, sitemap.encode("utf-8"))
        writer.write("robots.txt", f"User-agent: *\nAllow: /\nSitemap: {site.base_url}sitemap.xml\n".encode())
        writer.write(".nojekyll", b"")
        write_offline_files(writer, loaded, renderer)
        if options.search:
            search.index_site(writer.temp_dir, site.languages)
            writer.record_extra_files()
        writer.commit()
    return BuildResult(len(loaded.pages), writer.changed, len(site.languages), time.perf_counter() - started, report)


def write_offline_files(writer: SiteWriter, loaded: LoadedSite, renderer: Renderer) -> None:
    """Manifests, page lists and the service worker, made from what was written so far."""
    site = renderer.site
    descriptions = {lang: plain_text(html) for lang, html in loaded.rendered.site.items()}
    titles = {lang: site.titles.get(lang) or site.titles.get(site.languages[0], "Studysite") for lang in site.languages}
    environment = renderer.environments[site.languages[0]]
    for path, data in offline.offline_files(environment, writer.written, titles, descriptions, site.assets, site.languages).items():
        writer.write(path, data)


def render_inputs_key(options: Options, renderer: Renderer) -> str:
    """A digest of everything besides its view model that a page's bytes depend on: the
    templates, the UI catalogs, the site-wide data and Studysite's own code."""
    digest = hashlib.sha256(repr(renderer.site).encode())
    code = sorted((PACKAGE_ROOT / "studysite").glob("*.py"))
    resources = [path for name in ("templates", "locales") for folder in options.layered(name) for path in sorted(folder.rglob("*"))]
    for path in [*code, *resources]:
        if path.is_file():
            digest.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def page_key(inputs_key: str, page: Page, context: dict) -> str:
    """What a page is made from; an equal key means an equal page."""
    versions = (sorted(page.alternates.items()), sorted(page.fallbacks), page.x_default)
    described = (page.path, page.template, page.language, page.title, versions, page.in_sitemap, context)
    return hashlib.sha256(f"{inputs_key}{described!r}".encode()).hexdigest()


def render_pages(writer: SiteWriter, renderer: Renderer, pages: list[Page], jobs: int, inputs_key: str) -> None:
    """Render and write every page whose inputs changed since the previous build; the others
    are carried over. With jobs > 1, forked workers each take a share.

    Page paths were checked unique in phase one, so workers write side by side into the
    temporary folder and send back what they wrote; the first failure stops the build."""
    if jobs <= 1 or not hasattr(os, "fork"):
        for page in pages:
            context = page.context()
            path, key = urls.file_for(page.path), page_key(inputs_key, page, context)
            if not writer.reuse(path, key):
                writer.write(path, render_page(renderer, page, context).encode("utf-8"), key)
        return
    gc.freeze()  # keep the collector off the shared objects, so forked workers copy fewer pages
    try:
        workers = [_fork_worker(writer, renderer, pages[index::jobs], inputs_key) for index in range(1, jobs)]
    finally:
        gc.unfreeze()
    failure: BaseException | None = None
    try:
        render_pages(writer, renderer, pages[0::jobs], 1, inputs_key)
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


def _fork_worker(writer: SiteWriter, renderer: Renderer, share: list[Page], inputs_key: str) -> tuple[int, int]:
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
            render_pages(writer, renderer, share, 1, inputs_key)
            written = {p: d for p, d in writer.written.items() if p not in before}
            outcome: object = (written, {p: writer.inputs[p] for p in written if p in writer.inputs}, writer.changed - changed)
        except (ContentError, OSError) as error:
            outcome = error
        with os.fdopen(sender, "wb") as stream:
            pickle.dump(outcome, stream)
        status = 0
    finally:
        os._exit(status)


def make_renderer(options: Options, content: Content, report: Report, assets: dict) -> Renderer:
    template_dirs = options.layered("templates")
    environments = {}
    for language in content.site.languages:
        translations = load_site_translations(options, language, report)
        environments[language] = make_environment(template_dirs, translations, language)
    titles = {lang: text.title for lang, text in content.site.texts.items()}
    info = SiteInfo(content.site.base_url, content.site.languages, titles, {name: path for name, (path, _) in assets.items()}, options.live_reload)
    return Renderer(environments, info)


def load_site_translations(options: Options, language: str, report: Report):
    """The site's own catalog of the language over Studysite's shipped one, message by message."""
    folders = options.layered("locales") or [options.site_root / "locales"]
    return load_layered_translations(folders, language, report)


def render_page(renderer: Renderer, page: Page, context: dict) -> str:
    try:
        return renderer.render(page, context)
    except jinja2.TemplateSyntaxError as error:
        where = Location(shown_path(Path(error.filename)) if error.filename else str(error.name), error.lineno, 1)
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
    except jinja2.TemplateError as error:
        where = Location(f"templates/{page.template}")
        raise ContentError([Diagnostic(Severity.ERROR, where, "template.error", f"template error: {error}")]) from None
