"""Render: pages through their templates (render/environment.py makes each language's Jinja2
environment), with what every page sees of the site and of its place in it; the sitemaps."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field

import jinja2
from jinja2 import meta
from jinja2.runtime import Macro
from markupsafe import Markup

from studysite import urls
from studysite.languages import autonym, language_name, text_direction
from studysite.output.theme import SiteImage, SiteLook
from studysite.pages.view_models import Page, View
from studysite.study import offline

# The sitemap protocol's limits for one file; a larger site gets sitemap.xml as an index.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024

MACROS = "macros.html"  # the pages' macros, m in every template

SCHEDULER = "vendor/ts-fsrs-5.4.2/index.mjs"  # the static file the study scripts schedule with (ts-fsrs)
HEADER_TITLE_LIMIT = 60  # characters of the site's title the header shows (SPEC 5, "Every page")
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' https:; object-src 'none'; base-uri 'none'; form-action 'self'"
)


@dataclass(frozen=True)
class SiteInfo:
    """What every page shows of the site: titles, languages, assets."""

    base_url: str
    languages: tuple[str, ...]
    titles: Mapping[str, str]
    assets: Mapping[str, str]  # static file name -> fingerprinted path
    live_reload: bool = False  # set by `serve`: the pages it serves register no service worker
    short_titles: Mapping[str, str] = field(default_factory=dict)  # site.yaml's short_title, by language
    look: SiteLook = field(default_factory=SiteLook)

    @property
    def favicon(self) -> SiteImage:
        return self.look.favicon or SiteImage(self.assets.get("favicon.svg", ""), "image/svg+xml")

    def icons(self) -> list[tuple[str, str, str]]:
        """The installed app's icons: (path from the site's root, sizes, type): the theme's, else the static files'."""
        if self.look.icons is not None:
            return list(self.look.icons)
        return offline.default_icons(self.assets)


def header_title(title: str, limit: int = HEADER_TITLE_LIMIT) -> str:
    """The site's title as the header shows it: whole up to limit characters (it wraps at its
    spaces, in two lines on a phone), else cut after its last whole word that fits, with an
    ellipsis, so that no word is cut (a title that is one long word is cut where it must)."""
    if len(title) <= limit:
        return title
    room = title[: limit - 1]  # the ellipsis takes the last character
    cut = room[: room.rfind(" ")] if " " in room.strip() else room
    return cut.rstrip(" ,;:.-–—·") + "…"


def is_part(name: str) -> bool:
    """Whether a template is one of base.html's parts (templates/parts/)."""
    return name.startswith("parts/")


def hreflang_alternates(page: Page, languages: tuple[str, ...]) -> list[tuple[str, str]]:
    """(hreflang, path) for every translation of a page, itself included, then x-default.
    A version showing another language's text (a fallback) is no translation: it is left
    out, and a fallback page itself has no alternates (its canonical is the default's)."""
    if page.language in page.fallbacks:
        return []
    alternates = [(lang, page.alternates[lang]) for lang in languages if lang in page.alternates and lang not in page.fallbacks]
    x_default = page.x_default if page.x_default is not None else page.alternates.get(languages[0])
    if x_default is not None:
        alternates.append(("x-default", x_default))
    return alternates


def canonical_path(page: Page, default_language: str) -> str:
    """Where search engines should index a page: itself, or for a fallback page the page of
    the language its text is in, the default one."""
    return page.alternates.get(default_language, page.path) if page.language in page.fallbacks else page.path


def in_sitemap(page: Page) -> bool:
    return page.in_sitemap and page.language not in page.fallbacks


class Renderer:
    def __init__(self, environments: Mapping[str, jinja2.Environment], site: SiteInfo, made_from: str = ""):
        self.environments = environments
        self.site = site
        self.made_from = made_from  # a digest of the templates, catalogs and code (page_keys.files_digest)
        self._study_strings: dict[str, Markup] = {}
        self._places: dict[tuple[str, str, str], dict] = {}
        self._macros_read: dict[str, set[str]] = {}  # by language: the variables macros.html reads

    def load_templates(self, pages: Iterable[Page]) -> None:
        """Compile (or load from the code cache) the templates these pages and their parts
        use, once: done before the render workers fork, each would compile them all again.
        A template that fails to load is left to the rendering of a page, which tells where."""
        names: dict[str, set[str]] = {}
        for page in pages:
            names.setdefault(page.language, set()).add(page.template)
        for language, templates in names.items():
            environment = self.environments[language]
            for name in sorted({*templates, "base.html", MACROS, "study_strings.html", *environment.list_templates(filter_func=is_part)}):
                with contextlib.suppress(jinja2.TemplateError):
                    environment.get_template(name)

    def keeps_code(self) -> bool:
        """Whether every language's compiled templates are kept in a code cache."""
        return all(environment.bytecode_cache is not None for environment in self.environments.values())

    def render(self, page: Page, view: View) -> str:
        """A page's HTML from its view model (page.context(), made once by the caller): the
        template sees the site's and the page's variables and the view's fields."""
        environment = self.environments[page.language]
        template = environment.get_template(page.template)
        variables = dict(**self.page_context(page), **view.variables())
        if variables["m"] is None:  # a site's own macros that read the page's values: made with them
            variables["m"] = environment.get_template(MACROS).make_module(variables)
        return template.render(variables)

    def render_in(self, page: Page, language: str, name: str, values: Mapping) -> Markup:
        """A part of a page rendered in another language (the 404 page speaks them all)."""
        context = {**self.page_context(page), "lang": language, "dir": text_direction(language), **values}
        context["site_title"] = self.site.titles.get(language) or context["site_title"]
        return Markup(self.environments[language].get_template(name).render(**context))

    def study_strings(self, language: str) -> Markup:
        """The study scripts' words in a language, and the paths from the site's root of the
        scheduler and of the list of the site's questions: the same on every page, rendered once."""
        if language not in self._study_strings:
            template = self.environments[language].get_template("study_strings.html")
            paths = {"scheduler": self.site.assets.get(SCHEDULER, ""), "questions": urls.review_questions(language), "cards": urls.flashcard_list(language)}
            self._study_strings[language] = Markup(template.render(**paths))
        return self._study_strings[language]

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
            **self._place_context(page.language, links, offline.manifest_path(page.path, page.language)),
            "page": page,
            "canonical": links.absolute(canonical_path(page, default)) if page.in_sitemap else "",
            "alternates": alternates,
            "switcher": switcher,  # every version's, the page's own marked current; and the two apart:
            "current_language": next((item for item in switcher if item["current"]), None),
            "other_languages": [item for item in switcher if not item["current"]],
            "render_in": lambda language, name, **values: self.render_in(page, language, name, values),
        }

    def _place_context(self, language: str, links: urls.Links, manifest_path: str) -> dict:
        """What a page's template sees that depends only on its language and its place in
        the site (how far below the root it is): the same for thousands of pages, made once."""
        place = (language, links.root, manifest_path)
        if place not in self._places:
            site = self.site
            context = {
                "lang": language,
                "dir": text_direction(language),
                "href": links.href,
                "root": links.root,  # href(path) is root ~ path, for any path but the root's own ""
                "site_title": site.titles.get(language) or site.titles.get(site.languages[0], ""),
                "site_short_title": site.short_titles.get(language, "") if site.titles.get(language) else "",
                "site_header_title": header_title(site.titles.get(language) or site.titles.get(site.languages[0], "")),
                "home": urls.home(language),
                "glossary_path": urls.glossary(language),
                "search_path": urls.search(language),
                "search_index": urls.search_index(language),
                "status_path": urls.status(language),
                "review_path": urls.review(language),
                "flashcards_path": urls.flashcards(language),
                "exam_path": urls.exam(language),
                "downloads_path": urls.downloads(language),
                "manifest_path": manifest_path,
                "service_worker_path": offline.WORKER,
                "asset": lambda name: links.href(site.assets[name]),
                "language_name": lambda code: language_name(code, language),
                "direction": text_direction,
                "csp": CONTENT_SECURITY_POLICY,
                "favicon": site.favicon,
                "logo": site.look.logo,
                "theme_color": site.look.theme_color,
                "theme_stylesheet": site.look.stylesheet,
                "study_strings": self.study_strings(language),
                "live_reload": site.live_reload,
            }
            parts: dict[str, Markup] = {}

            def part(name: str) -> Markup:
                """A part of the page (templates/parts/) that shows nothing but this context:
                rendered once for all the pages that share it. Its last newline is left to
                the line of base.html that shows it."""
                if name not in parts:
                    parts[name] = Markup(self.environments[language].get_template(name).render(**context).removesuffix("\n"))
                return parts[name]

            self._places[place] = {**context, "part": part, "once": made_once(), "m": self._place_macros(language, context)}
        return self._places[place]

    def _place_macros(self, language: str, context: dict) -> jinja2.runtime.TemplateModule | None:
        """The macros (macros.html, m in every template) made once for a place when, like the
        parts, they read nothing but its values (Studysite's own read root, dir and the
        language functions); else None: a site's own macros that read a page's values are
        made for each page, with all of them (render). "_trans" is a name Jinja's {% trans %}
        assigns itself."""
        environment = self.environments[language]
        if language not in self._macros_read:
            source = environment.loader.get_source(environment, MACROS)[0]
            self._macros_read[language] = meta.find_undeclared_variables(environment.parse(source)) - environment.globals.keys() - {"_trans"}
        return environment.get_template(MACROS).make_module(context) if self._macros_read[language] <= context.keys() else None

    def sitemap_entries(self, pages: list[Page]) -> list[dict]:
        """What the sitemap lists: each page's URL and its versions in other languages."""
        return [
            {
                "loc": urls.absolute(self.site.base_url, page.path),
                "alternates": [(code, urls.absolute(self.site.base_url, path)) for code, path in hreflang_alternates(page, self.site.languages)],
            }
            for page in pages
            if in_sitemap(page)
        ]

    def render_sitemap(self, entries: list[dict], max_urls: int = SITEMAP_MAX_URLS, max_bytes: int = SITEMAP_MAX_BYTES) -> dict[str, bytes]:
        """The sitemap files by name: sitemap.xml alone, or, for more URLs (or bytes) than one
        file may hold, sitemap-1.xml, sitemap-2.xml... and sitemap.xml as their index."""
        environment = self.environments[self.site.languages[0]]
        parts = split_sitemap(environment.get_template("sitemap.xml"), entries, max_urls, max_bytes)
        if len(parts) == 1:
            return {urls.SITEMAP: parts[0]}
        files = {f"sitemap-{number}.xml": part for number, part in enumerate(parts, 1)}
        index = environment.get_template("sitemap-index.xml").render(sitemaps=[urls.absolute(self.site.base_url, name) for name in files])
        return {**files, urls.SITEMAP: index.encode("utf-8")}


ONCE_KEPT = 512  # the macro results once() keeps for a place: many more than a topic's questions


def made_once() -> Callable[..., Markup]:
    """once(macro, *args), for the pages of a place: what the macro makes of these arguments,
    made once for all the pages that show it (the choices and the reveal of a question, on
    its own page and on its topic's practice page, which one process renders one after the
    other; the other terms at the foot of a language's term pages, the same on most). The
    arguments are frozen view models, and the latest ONCE_KEPT results are kept; a macro
    given an argument that cannot be a key (a list) is called each time."""
    made: dict[tuple, Markup] = {}

    def once(macro: Macro, *args: Hashable) -> Markup:
        key = (macro, *args)
        try:
            html = made.get(key)
        except TypeError:  # unhashable
            return macro(*args)
        if html is None:
            if len(made) >= ONCE_KEPT:
                made.clear()
            html = made[key] = macro(*args)
        return html

    return once


def split_sitemap(template: jinja2.Template, entries: list[dict], max_urls: int, max_bytes: int) -> list[bytes]:
    """The entries rendered as few sitemaps as the limits allow, in order: max_urls each,
    and a part larger than max_bytes in UTF-8 is halved until it fits (or is one URL)."""
    chunks = [entries[start : start + max_urls] for start in range(0, len(entries), max_urls)] or [[]]
    parts: list[bytes] = []
    while chunks:
        chunk = chunks.pop(0)
        data = _encoded(template, chunk)
        if len(chunk) > 1 and len(data) > max_bytes:
            chunks[:0] = [chunk[: len(chunk) // 2], chunk[len(chunk) // 2 :]]
        else:
            parts.append(data)
    return parts


def _encoded(template: jinja2.Template, entries: list[dict]) -> bytes:
    """A sitemap's UTF-8, piece by piece: at 50,000 URLs the rendered text and its pieces,
    held at once, would be the build's largest memory."""
    out = io.BytesIO()
    for piece in template.generate(entries=entries):
        out.write(piece.encode("utf-8"))
    return out.getvalue()
