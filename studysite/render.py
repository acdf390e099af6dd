"""Render: pages through Jinja2 templates, one environment per language.

Templates are looked up in the site's own templates/ first, then in Studysite's. Each
environment autoescapes, fails on undefined names and has the language's gettext
catalog installed (new-style gettext, so %-formatting is escaped too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2
from babel.support import NullTranslations

from . import offline, search, urls
from .i18n import autonym, format_number, language_name, text_direction
from .views import Page

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' https:; object-src 'none'; base-uri 'none'; form-action 'self'"
)


def make_environment(template_dirs: list[Path], translations: NullTranslations, language: str) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.policies["ext.i18n.trimmed"] = True
    environment.install_gettext_translations(translations, newstyle=True)
    environment.filters["number"] = lambda n: format_number(n, language)
    return environment


@dataclass(frozen=True)
class SiteInfo:
    """What every page shows of the site: titles, languages, assets."""

    base_url: str
    languages: tuple[str, ...]
    titles: Mapping[str, str]
    assets: Mapping[str, str]  # static file name -> fingerprinted path
    live_reload: bool = False  # set by `serve`: pages reload when the site is rebuilt


def hreflang_alternates(page: Page, languages: tuple[str, ...]) -> list[tuple[str, str]]:
    """(hreflang, path) for every language version of a page, itself included, then x-default."""
    alternates = [(lang, page.alternates[lang]) for lang in languages if lang in page.alternates]
    x_default = page.x_default if page.x_default is not None else page.alternates.get(languages[0])
    if x_default is not None:
        alternates.append(("x-default", x_default))
    return alternates


class Renderer:
    def __init__(self, environments: Mapping[str, jinja2.Environment], site: SiteInfo):
        self.environments = environments
        self.site = site

    def render(self, page: Page, context: Mapping) -> str:
        """A page's HTML from its view model (page.context(), made once by the caller)."""
        environment = self.environments[page.language]
        template = environment.get_template(page.template)
        return template.render(**self.page_context(page), **context)

    def page_context(self, page: Page) -> dict:
        site = self.site
        links = urls.Links(site.base_url, page.path)
        default = site.languages[0]
        alternates = [(code, links.absolute(path)) for code, path in hreflang_alternates(page, site.languages)]
        switcher = [
            {"lang": lang, "name": autonym(lang), "path": page.alternates[lang], "current": lang == page.language}
            for lang in site.languages
            if lang in page.alternates
        ]
        return {
            "page": page,
            "lang": page.language,
            "dir": text_direction(page.language),
            "href": links.href,
            "canonical": links.absolute(page.path) if page.in_sitemap else "",
            "alternates": alternates,
            "switcher": switcher,
            "site_title": site.titles.get(page.language) or site.titles.get(default, ""),
            "home": urls.home(page.language),
            "glossary_path": urls.glossary(page.language),
            "search_path": urls.search(page.language),
            "search_index": search.index_folder(page.language) + "/pagefind.js",
            "status_path": urls.status(page.language),
            "review_path": urls.review(page.language),
            "downloads_path": urls.downloads(page.language),
            "manifest_path": offline.manifest_path(page.path, page.language),
            "service_worker_path": offline.WORKER,
            "asset": lambda name: links.href(site.assets[name]),
            "language_name": lambda code: language_name(code, page.language),
            "csp": CONTENT_SECURITY_POLICY,
            "live_reload": site.live_reload,
        }

    def render_sitemap(self, pages: list[Page]) -> str:
        environment = self.environments[self.site.languages[0]]
        entries = [
            {
                "loc": self.site.base_url + page.path,
                "alternates": [(code, self.site.base_url + path) for code, path in hreflang_alternates(page, self.site.languages)],
            }
            for page in pages
            if page.in_sitemap
        ]
        return environment.get_template("sitemap.xml").render(entries=entries)
