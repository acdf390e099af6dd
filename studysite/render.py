"""Render: pages through Jinja2 templates, one environment per language.

Templates are looked up in the site's own templates/ first, then in Studysite's. Each
environment autoescapes, fails on undefined names and has the language's gettext
catalog installed (new-style gettext, so %-formatting is escaped too).
"""

from __future__ import annotations

import contextlib
import functools
import io
import types
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from babel.numbers import format_decimal
from babel.support import NullTranslations
from jinja2 import meta, nodes
from jinja2.compiler import CodeGenerator
from jinja2.ext import InternationalizationExtension
from jinja2.runtime import Context, Macro
from jinja2.utils import missing
from markupsafe import Markup, escape

try:
    from markupsafe import _escape_inner as _escaped_str  # the str escape() wraps in Markup
except ImportError:  # another release of markupsafe: its public escape, as str

    def _escaped_str(text: str) -> str:
        return str(escape(text))


from . import offline, urls
from .i18n import autonym, language_name, parse_locale, text_direction
from .viewtypes import Page, View

# The sitemap protocol's limits for one file; a larger site gets sitemap.xml as an index.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024

MACROS = "macros.html"  # the pages' macros, m in every template

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' https:; object-src 'none'; base-uri 'none'; form-action 'self'"
)


class TranslatedAtCompileTime(InternationalizationExtension):
    """{% trans %} blocks translated once, when a template is compiled, not on every render.

    Each language has its own environment, so a block without plural forms compiles to its
    translation: constant text, or a constant format string that its variables are put into
    (escaped, as new-style gettext does). Plural blocks still call ngettext when rendered."""

    def _make_node(self, singular, plural, context, variables, plural_expr, vars_referenced, num_called_num):
        translations = getattr(self.environment, "compile_translations", None)
        if translations is None or plural_expr is not None:
            return super()._make_node(singular, plural, context, variables, plural_expr, vars_referenced, num_called_num)
        translated = translations.pgettext(context, singular) if context is not None else translations.gettext(singular)
        if not variables:
            return nodes.Output([nodes.TemplateData(str(Markup(translated) % {}))])
        pairs = [nodes.Pair(nodes.Const(key), value) for key, value in variables.items()]
        return nodes.Output([nodes.Mod(nodes.MarkSafeIfAutoescape(nodes.Const(translated)), nodes.Dict(pairs))])


def output_text(value: object) -> str:
    """What {{ value }} writes into an autoescaped page: markupsafe.escape's text, without
    the Markup object it makes of each value (a fifth of a page's rendering, and the page
    is joined into one str at once anyway)."""
    if type(value) is str:
        return _escaped_str(value)
    if type(value) is Markup:
        return value
    if hasattr(value, "__html__"):
        return value.__html__()
    return _escaped_str(str(value))


class OutputTextGenerator(CodeGenerator):
    """Jinja's code generator, with {{ value }} in autoescaped output written by
    output_text: the same text, made sooner. Everywhere else (filters, {% trans %}, a macro's
    or a {% set %} block's Markup result) escaping is Jinja's own."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.output_text(")
        else:  # Jinja's own, which also opens the call of an environment's finalize
            super()._output_child_pre(node, frame, finalize)


_PLAIN_CALLABLES = (types.FunctionType, types.MethodType)  # href, part, asset...: they take no context
_CALL_VARIABLES = frozenset({"_block_vars", "_loop_vars"})  # what a compiled call passes a context, for pass_context


class PageContext(Context):
    """Jinja's context, with a shorter way into the calls a page makes most: a macro given
    positional arguments alone (m.link(topic)) and a Python function that takes no
    context (href(path)). Jinja's Context.call and Macro.__call__ work out at every call,
    in Python, what else the callee might take; this does then what they would do. A
    question page renders in 74 us instead of 93; every other call is Jinja's."""

    def call(__self, __obj, *args, **kwargs):  # Jinja's names: a template may pass a keyword "self" or "obj"
        macro = (
            type(__obj) is Macro
            and kwargs.keys() <= _CALL_VARIABLES
            and len(args) <= __obj._argument_count
            and not (__obj.caller or __obj.explicit_caller or __obj.catch_kwargs or __obj.catch_varargs or __self.environment.is_async)
        )
        if not macro and (type(__obj) not in _PLAIN_CALLABLES or hasattr(__obj, "jinja_pass_arg")):
            return super().call(__obj, *args, **kwargs)
        try:
            if macro:
                html = __obj._func(*args, *(missing,) * (__obj._argument_count - len(args)))  # an argument left out takes its default
                return Markup(html) if __self.eval_ctx.autoescape else html
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja says it
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration exception")


class PageEnvironment(jinja2.Environment):
    """An environment whose templates write {{ value }} with output_text, and see its
    globals as a dict of their own: every render copies a template's globals into the page's
    context, and a ChainMap of them is copied key by key in Python. (Jinja's ChainMap lets
    globals added after a template was loaded reach it; a build adds none.)"""

    code_generator_class = OutputTextGenerator
    context_class = PageContext
    output_text = staticmethod(output_text)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> dict[str, Any]:
        return {**self.globals, **(d or {})}


class TemplateCodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept in a folder of the build cache, so that a build compiles only
    the templates that changed. A folder that cannot be read or written is no error."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def make_environment(template_dirs: list[Path], translations: NullTranslations, language: str, code_cache: Path | None = None) -> jinja2.Environment:
    """The language's environment; code_cache, a folder only this language's templates as
    translated by this catalog use, keeps their compiled code between builds."""
    environment = PageEnvironment(
        bytecode_cache=TemplateCodeCache(str(code_cache)) if code_cache else None,
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=[TranslatedAtCompileTime],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # one build, one set of templates: no stat() on every lookup
    )
    environment.policies["ext.i18n.trimmed"] = True
    environment.install_gettext_translations(translations, newstyle=True)
    environment.extend(compile_translations=translations)
    environment.filters["number"] = number_formatter(language)
    return environment


def number_formatter(language: str) -> Callable[[float], str]:
    """A number as the language writes it; each number formatted once (pages count the
    same few numbers over and over, and Babel's formatting is slow)."""
    locale = parse_locale(language)
    return functools.lru_cache(maxsize=4096)(lambda number: format_decimal(number, locale=locale))


@dataclass(frozen=True)
class SiteInfo:
    """What every page shows of the site: titles, languages, assets."""

    base_url: str
    languages: tuple[str, ...]
    titles: Mapping[str, str]
    assets: Mapping[str, str]  # static file name -> fingerprinted path
    live_reload: bool = False  # set by `serve`: the pages it serves register no service worker


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
        self.made_from = made_from  # a digest of the templates, catalogs and code (keys.files_digest)
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
        """The study scripts' words in a language: the same on every page, rendered once."""
        if language not in self._study_strings:
            self._study_strings[language] = Markup(self.environments[language].get_template("study_strings.html").render())
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
            "switcher": switcher,
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
                "home": urls.home(language),
                "glossary_path": urls.glossary(language),
                "search_path": urls.search(language),
                "search_index": urls.search_index(language),
                "status_path": urls.status(language),
                "review_path": urls.review(language),
                "downloads_path": urls.downloads(language),
                "manifest_path": manifest_path,
                "service_worker_path": offline.WORKER,
                "asset": lambda name: links.href(site.assets[name]),
                "language_name": lambda code: language_name(code, language),
                "direction": text_direction,
                "csp": CONTENT_SECURITY_POLICY,
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

            self._places[place] = {**context, "part": part, "m": self._place_macros(language, context)}
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
