"""Templating: the Jinja2 environment of each language, through Jinja's public API alone.

Templates are looked up in the site's own templates/ first, then in Studysite's. Each
environment autoescapes, fails on undefined names and has the language's gettext
catalog installed by Jinja's i18n extension (new-style gettext, so %-formatting is
escaped too). {% trans %} blocks without plural forms are translated when a template is
compiled (TranslatedAtCompileTime). A build hands each environment the cache of its
compiled templates (incremental/template_code.py).
"""

from __future__ import annotations

import functools
import os
import random
import re
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
from babel.lists import format_list
from babel.numbers import format_decimal, get_decimal_symbol
from babel.support import NullTranslations
from jinja2 import nodes
from jinja2.ext import InternationalizationExtension
from jinja2.loaders import split_template_path
from markupsafe import Markup

from studysite.content.records import answer_letter
from studysite.content.schema import QUESTION_TYPES
from studysite.diagnostics import ContentError, Diagnostic, Location, Severity
from studysite.fileio import MAX_TEXT, FileRefused, read_bytes, shown_path
from studysite.languages import parse_locale


class TranslatedAtCompileTime(InternationalizationExtension):
    """Jinja's i18n extension, with {% trans %} blocks translated once, when a template is
    compiled, not on every render (each language has its own environment).

    Jinja's extension parses a block into a call of new-style gettext (or pgettext); a
    block without plural forms becomes here the text that call would give: its
    translation, constant, with its variables written between the pieces as {{ value }}
    writes them (escaped, as new-style gettext's % puts them in). A translation that uses
    a variable twice, or not at all, or another % format, becomes the format string and
    %, as Jinja's old-style gettext does. Plural blocks, and any node of another shape,
    are left to Jinja's gettext calls when rendered."""

    def parse(self, parser: jinja2.parser.Parser) -> nodes.Node | list[nodes.Node]:
        parsed = super().parse(parser)
        translations = getattr(self.environment, "compile_translations", None)
        if translations is None:
            return parsed
        if isinstance(parsed, list):  # a variable's call, assigned first
            return [translated_now(node, translations) for node in parsed]
        return translated_now(parsed, translations)


def translated_now(node: nodes.Node, translations: NullTranslations) -> nodes.Node:
    """A {% trans %} block's gettext or pgettext call as the output it gives; any other node
    as it is."""
    call = node.nodes[0] if isinstance(node, nodes.Output) and len(node.nodes) == 1 else None
    if not (isinstance(call, nodes.Call) and isinstance(call.node, nodes.Name) and call.dyn_args is None and call.dyn_kwargs is None):
        return node
    if not all(isinstance(arg, nodes.Const) and isinstance(arg.value, str) for arg in call.args):
        return node
    messages = [arg.value for arg in call.args]
    if call.node.name == "gettext" and len(messages) == 1:
        translated = translations.gettext(*messages)
    elif call.node.name == "pgettext" and len(messages) == 2:
        translated = translations.pgettext(*messages)
    else:
        return node
    variables = {keyword.key: keyword.value for keyword in call.kwargs}
    output = nodes.Output(translated_output(translated, variables))
    return output.set_lineno(node.lineno)


def translated_output(translated: str, variables: Mapping[str, nodes.Expr]) -> list[nodes.Node]:
    """What new-style gettext makes of a translation and its variables, as output nodes."""
    if not variables:
        return [nodes.TemplateData(str(Markup(translated) % {}))]
    pieces = interpolated(translated, variables)
    if pieces is not None:
        return pieces
    pairs = [nodes.Pair(nodes.Const(key), value) for key, value in variables.items()]
    return [nodes.Mod(nodes.MarkSafeIfAutoescape(nodes.Const(translated)), nodes.Dict(pairs))]


_FORMAT = re.compile(r"%(?:\((\w+)\)s|%)?")  # a placeholder %(name)s, an escaped %%, or a % of another format


def interpolated(translated: str, variables: Mapping[str, nodes.Expr]) -> list[nodes.Node] | None:
    """A translation's text and its %(name)s placeholders as output nodes: the text between
    them constant, each placeholder its variable's expression. None unless every variable
    is put in once and no other % format is used."""
    parts = placeholders(translated)
    if parts is None:
        return None
    pieces, end = parts
    names = [name for _, name in pieces]
    if len(set(names)) != len(names) or set(names) != variables.keys():
        return None
    output = [node for text, name in pieces for node in (nodes.TemplateData(text), variables[name])]
    return [piece for piece in [*output, nodes.TemplateData(end)] if not (isinstance(piece, nodes.TemplateData) and not piece.data)]


def placeholders(translated: str) -> tuple[list[tuple[str, str]], str] | None:
    """A translation as (text, name) pairs, each text followed by the %(name)s placeholder
    of a variable, and the text after the last; None when it holds any other % format."""
    pieces, text, at = [], [], 0
    for match in _FORMAT.finditer(translated):
        text.append(translated[at : match.start()])
        at = match.end()
        if match.group() == "%%":
            text.append("%")
        elif match.group(1) is None:
            return None
        else:
            pieces.append(("".join(text), match.group(1)))
            text = []
    return pieces, "".join(text) + translated[at:]


class TemplateRefused(ContentError):
    """A template file a build will not read (fileio.FileRefused), as a located error."""

    def __init__(self, filename: str, error: FileRefused):
        super().__init__([Diagnostic(Severity.ERROR, Location(shown_path(Path(filename)), 1, 1), error.code, error.strerror, error.hint)])


class SiteTemplateLoader(jinja2.FileSystemLoader):
    """Jinja's loader of the template folders, each file read as a build reads every file of
    the site's folders (fileio.read_bytes): a regular file of at most fileio.MAX_TEXT, never
    through a link out of its folder; else TemplateRefused."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for folder in self.searchpath:
            filename = os.path.join(folder, *pieces)
            if not os.path.lexists(filename) or os.path.isdir(filename):
                continue
            try:
                data = read_bytes(filename, MAX_TEXT, within=folder)
            except FileRefused as error:
                raise TemplateRefused(filename, error) from None
            except FileNotFoundError:  # a link to nothing: as no file
                continue
            return data.decode(self.encoding), os.path.normpath(filename), lambda: True  # one build, one set of templates
        raise jinja2.TemplateNotFound(template)


class PageEnvironment(jinja2.Environment):
    """An environment whose templates see its globals as a dict of their own: every render
    copies a template's globals into the page's context, and a ChainMap of them is copied
    key by key in Python. (Jinja's ChainMap lets globals added after a template was loaded
    reach it; a build adds none.)"""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> dict[str, Any]:
        return {**self.globals, **(d or {})}


def make_environment(
    template_dirs: list[Path], translations: NullTranslations, language: str, code_cache: jinja2.BytecodeCache | None = None
) -> jinja2.Environment:
    """The language's environment; code_cache keeps the compiled code of the templates as
    translated by this catalog between builds (incremental/template_code.py)."""
    environment = PageEnvironment(
        bytecode_cache=code_cache,
        loader=SiteTemplateLoader([str(d) for d in template_dirs]),
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
    locale = parse_locale(language)
    environment.filters["decimal"] = lambda number: format_decimal(number, locale=locale, decimal_quantization=False)
    environment.filters["word_list"] = lambda words: format_list([str(word) for word in words], locale=locale)
    environment.filters["letter"] = answer_letter
    environment.globals["decimal_symbol"] = lambda: get_decimal_symbol(locale)
    environment.globals["shuffled"] = shuffled
    environment.globals["question_types"] = tuple(QUESTION_TYPES)  # each has its template part, questions/<type>.html
    return environment


def shuffled(items: Sequence, seed: str) -> list[tuple[int, object]]:
    """The items with their places, in an order of their own that depends on the seed alone
    (a question's id): the same for every reader of every build, never the items' own order
    (when there are two or more)."""
    order = list(range(len(items)))
    random.Random(f"studysite:{seed}").shuffle(order)
    if len(order) > 1 and order == sorted(order):
        order = order[1:] + order[:1]
    return [(index, items[index]) for index in order]


def number_formatter(language: str) -> Callable[[float], str]:
    """A number as the language writes it; each number formatted once (pages count the
    same few numbers over and over, and Babel's formatting is slow)."""
    locale = parse_locale(language)
    return functools.lru_cache(maxsize=4096)(lambda number: format_decimal(number, locale=locale))
