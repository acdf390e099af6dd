"""What a build begins as soon as the records' texts are converted, while the graph and the
pages are made: the renderer, whose templates' compiled code is kept between builds
(template_code.py), and the decks, in processes aside (decks.py)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from studysite.content.html import ContentHtml
from studysite.content.records import Content
from studysite.diagnostics import Report
from studysite.i18n.ui_catalogs import load_layered_translations
from studysite.incremental.cache import code_stamp, note_memo, template_code_folders
from studysite.incremental.decks import Decks
from studysite.incremental.inputs import file_times
from studysite.incremental.page_keys import files_digest
from studysite.incremental.template_code import TemplateCodeCache
from studysite.options import Options
from studysite.output.theme import site_look, theme_assets
from studysite.output.write import Manifest
from studysite.pages import record_parts
from studysite.render.environment import make_environment
from studysite.render.renderer import Renderer, SiteInfo
from studysite.study import anki


class EarlyStart:
    """The renderer and the decks, begun when read_site tells begin() the records and their
    HTML; none of the decks for a preview, which keeps the previous ones. Leaving the with
    block stops the decks that were not taken."""

    def __init__(self, options: Options, previous: Manifest, report: Report, assets: dict, seen: Mapping[str, list], stamp: str):
        self.options, self.previous, self.report, self.assets, self.seen, self.stamp = options, previous, report, assets, seen, stamp
        self._renderer: Renderer | None = None
        self.decks: Decks | None = None

    def __enter__(self) -> EarlyStart:
        return self

    def __exit__(self, *exc_info) -> None:
        if self.decks is not None:
            self.decks.__exit__(*exc_info)

    def begin(self, content: Content, content_html: ContentHtml) -> None:
        self.assets = {**self.assets, **theme_assets(content.site.theme, content_html.theme, self.options.content_dir)}
        self._renderer = make_renderer(self.options, content, self.report, self.assets, self.stamp, content_html)
        if not self.options.preview:
            content_dir, made_from = self.options.content_dir, f"{self.stamp}\0{self._renderer.made_from}"
            question_body = functools.partial(record_parts.question_body, content, content_html)
            source = anki.DeckSource(content, content_html, file_times(content_dir, self.seen), question_body, made_from, content_dir)
            self.decks = Decks(self.previous, source, self._renderer.environments, functools.partial(note_memo, content_dir), self.options.processes)

    @property
    def renderer(self) -> Renderer:
        assert self._renderer is not None, "begun by read_site"
        return self._renderer


def make_renderer(options: Options, content: Content, report: Report, assets: dict, stamp: str | None = None, content_html: ContentHtml | None = None) -> Renderer:
    """Every site language's Jinja environment, its UI catalog the site's own over Studysite's
    shipped one, message by message; stamp: the code's (cache.code_stamp); content_html: the
    texts' HTML, with the theme's files (none: Studysite's look)."""
    template_dirs = options.layered("templates")
    resources = [folder for name in ("templates", "locales") for folder in options.layered(name)]
    made_from = files_digest(stamp or code_stamp(), resources)
    code_caches = template_code_folders({lang: f"{lang}-{made_from[:24]}" for lang in content.site.languages})
    environments = {}
    for language in content.site.languages:
        translations = load_layered_translations(options.locale_folders, language, report)
        environments[language] = make_environment(
            template_dirs, translations, language, TemplateCodeCache(code_caches[language]) if language in code_caches else None
        )
    titles = {lang: text.title for lang, text in content.site.texts.items()}
    short_titles = {lang: text.short_title for lang, text in content.site.texts.items() if text.short_title}
    assets_paths = {name: path for name, (path, _) in assets.items()}
    look = site_look(content.site.theme, content_html.theme if content_html is not None else {}, assets_paths)
    info = SiteInfo(content.site.base_url, content.site.languages, titles, assets_paths, options.live_reload, short_titles, look)
    return Renderer(environments, info, made_from)
