"""What a build does beside its stages so that it ends sooner (pipeline.build calls the stages
in turn and this around them): the cycle collector kept off the model (CollectorSpared), the
renderer and the decks begun as soon as the texts are converted (EarlyStart), the previous
site's spare checked in a process aside, the build cache saved aside while the pages are
planned, and the templates compiled aside while the page keys are worked out. Leaving the
with block stops whatever still runs aside."""

from __future__ import annotations

import contextlib
import functools

from studysite.content.html import ContentHtml
from studysite.content.records import Content
from studysite.diagnostics import Report
from studysite.incremental import kept_model
from studysite.incremental.cache import BuildCache
from studysite.incremental.decks import Decks
from studysite.incremental.early_start import EarlyStart
from studysite.incremental.inputs import Inputs
from studysite.incremental.kept_model import Model
from studysite.incremental.page_keys import PageKeys, inputs_key
from studysite.incremental.page_sources import PageSources
from studysite.incremental.rendering import templates_compiled_ahead
from studysite.options import Options
from studysite.output.commit import check_spare
from studysite.output.write import Manifest
from studysite.pages.view_models import Page
from studysite.render.renderer import Renderer
from studysite.workers import Aside, CollectorSpared


class Alongside:
    """Entered when a build begins; start() once the previous output and the assets are
    known. Each method says at which point of the build it is called."""

    def __init__(self, options: Options, cache: BuildCache):
        self.options, self.cache = options, cache
        self._stack = contextlib.ExitStack()
        self._collector = CollectorSpared()
        self._early: EarlyStart | None = None
        self._spare: Aside | None = None
        self._saving: Aside | None = None

    def __enter__(self) -> Alongside:
        self._stack.enter_context(self._collector)
        return self

    def __exit__(self, *exc_info) -> None:
        self._stack.__exit__(*exc_info)

    def start(self, previous: Manifest, report: Report, assets: dict, inputs: Inputs) -> None:
        """Before the content is read: the early start waits for the texts; the spare (a copy
        of the previous site's records, needed at the commit) is checked aside at once."""
        self._early = self._stack.enter_context(EarlyStart(self.options, previous, report, assets, inputs.signatures, self.cache.stamp))
        check = functools.partial(check_spare, self.options.out_dir, previous.records, previous)
        self._spare = self._stack.enter_context(Aside([check], self.options.processes))

    def texts_ready(self, content: Content, content_html: ContentHtml) -> None:
        """Told the records and their HTML by read_site, before the graph is made."""
        self._early_start.begin(content, content_html)

    def model_read(self) -> None:
        """Once the model is read and checked: the cache saved aside while the pages are planned."""
        self._saving = self._stack.enter_context(Aside([self.cache.save], self.options.processes, background=True))

    def pages_planned(self) -> None:
        """Once the pages are planned: the model, which lives until the build ends, frozen out
        of the collector's scans."""
        self._collector.model_made()

    def page_keys(self, model: Model, pages: list[Page], shown: PageSources, media: list[str], previous: Manifest) -> PageKeys:
        """The page keys (kept_model.page_keys), while the templates are compiled aside when
        every page will be rendered (templates_compiled_ahead)."""
        renderer = self.renderer
        with Aside(templates_compiled_ahead(renderer, pages, previous), self.options.processes) as compiling:
            keys = kept_model.page_keys(model, inputs_key(renderer.made_from, (renderer.site, model.content.site, media)), pages, shown.of)
            compiling.results()
        return keys

    def spare(self) -> Manifest | None:
        """The previous site's spare, checked: for the commit."""
        assert self._spare is not None, "started"
        return self._spare.results()[0]

    def cache_saved(self) -> None:
        """At the end: the cache's saving waited for, its failure raised."""
        if self._saving is not None:
            self._saving.results()

    @property
    def _early_start(self) -> EarlyStart:
        assert self._early is not None, "started"
        return self._early

    @property
    def renderer(self) -> Renderer:
        return self._early_start.renderer

    @property
    def assets(self) -> dict:
        return self._early_start.assets

    @property
    def decks(self) -> Decks | None:
        return self._early_start.decks
