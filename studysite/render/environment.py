"""Templating: the Jinja2 environment of each language, made quick for thousands of pages.

Templates are looked up in the site's own templates/ first, then in Studysite's. Each
environment autoescapes, fails on undefined names and has the language's gettext
catalog installed (new-style gettext, so %-formatting is escaped too). {% trans %} blocks
are translated when a template is compiled; {{ value }}, attribute lookups and the calls
pages make most are written into the compiled code, or taken by shorter ways than
Jinja's own (each says what it does as Jinja would).
"""

from __future__ import annotations

import contextlib
import functools
import re
import types
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from babel.numbers import format_decimal
from babel.support import NullTranslations
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.ext import InternationalizationExtension
from jinja2.runtime import Context, Macro
from jinja2.utils import missing
from markupsafe import Markup, escape

try:
    from markupsafe import _escape_inner as escaped_text  # the str escape() wraps in Markup; the compiled templates call it
except ImportError:  # another release of markupsafe: its public escape, as str

    def escaped_text(text: str) -> str:
        return str(escape(text))


from studysite.languages import parse_locale


class TranslatedAtCompileTime(InternationalizationExtension):
    """{% trans %} blocks translated once, when a template is compiled, not on every render.

    Each language has its own environment, so a block without plural forms compiles to its
    translation: constant text, with its variables written between the pieces as {{ value }}
    writes them (escaped, as new-style gettext's % puts them in, and a tenth as costly); a
    translation that uses a variable twice, or not at all, or another % format, compiles to
    the format string and %, as Jinja does. Plural blocks still call ngettext when rendered."""

    def _make_node(self, singular, plural, context, variables, plural_expr, vars_referenced, num_called_num):
        translations = getattr(self.environment, "compile_translations", None)
        if translations is None or plural_expr is not None:
            return super()._make_node(singular, plural, context, variables, plural_expr, vars_referenced, num_called_num)
        translated = translations.pgettext(context, singular) if context is not None else translations.gettext(singular)
        if not variables:
            return nodes.Output([nodes.TemplateData(str(Markup(translated) % {}))])
        pieces = interpolated(translated, variables)
        if pieces is not None:
            return nodes.Output(pieces)
        pairs = [nodes.Pair(nodes.Const(key), value) for key, value in variables.items()]
        return nodes.Output([nodes.Mod(nodes.MarkSafeIfAutoescape(nodes.Const(translated)), nodes.Dict(pairs))])


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


def plural_gettext(translations: NullTranslations) -> Callable[..., str]:
    """Jinja's new-style ngettext (num, the count, unless given; the translation formatted
    with the variables, each escaped when autoescaping), taking the evaluation context
    alone: PageContext.call passes it straight on, where Jinja's takes the whole context,
    and a page's plural messages formatted as placeholders() found them, where Markup's %
    escapes by a helper object for each variable (together a sixth as costly)."""

    @jinja2.pass_eval_context
    def ngettext(eval_ctx: nodes.EvalContext, singular: str, plural: str, number: int, **variables: Any) -> str:
        variables.setdefault("num", number)
        translated = translations.ngettext(singular, plural, number)
        return formatted(translated, variables) if eval_ctx.autoescape else translated % variables

    return ngettext


def formatted(translated: str, variables: Mapping[str, Any]) -> Markup:
    """Markup(translated) % variables: the same text, each variable escaped as {{ value }} is."""
    parts = placeholders(translated)
    if parts is None:
        return Markup(translated) % variables
    pieces, end = parts
    return Markup("".join([piece for text, name in pieces for piece in (text, output_text(variables[name]))]) + end)


@functools.lru_cache(maxsize=1024)
def placeholders(translated: str) -> tuple[tuple[tuple[str, str], ...], str] | None:
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
    return tuple(pieces), "".join(text) + translated[at:]


def output_text(value: object) -> str:
    """What {{ value }} writes into an autoescaped page: markupsafe.escape's text, without
    the Markup object it makes of each value (a fifth of a page's rendering, and the page
    is joined into one str at once anyway)."""
    if type(value) is str:
        return escaped_text(value)
    if type(value) is Markup:
        return value
    if hasattr(value, "__html__"):
        return value.__html__()
    return escaped_text(str(value))


class OutputTextGenerator(CodeGenerator):
    """Jinja's code generator, with {{ value }} in autoescaped output written as
    output_text writes it: the same text, made sooner, the test of its type in the
    template's own code (Markup as it is, a str escaped, anything else by output_text).
    Everywhere else (filters, {% trans %}, a macro's or a {% set %} block's Markup result)
    escaping is Jinja's own."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        if _writes_text_itself(frame, finalize):
            self.write("(_text if (_type := type(_text := ")
        else:  # Jinja's own, which also opens the call of an environment's finalize
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node, frame, finalize) -> None:
        if _writes_text_itself(frame, finalize):
            self.write(")) is Markup else escaped_text(_text) if _type is str else environment.output_text(_text))")
        else:
            super()._output_child_post(node, frame, finalize)

    def visit_Template(self, node, frame=None) -> None:
        self.writeline("from studysite.render.environment import escaped_text")
        super().visit_Template(node, frame)

    @optimizeconst
    def visit_Getattr(self, node, frame) -> None:
        """{{ item.path }} as Python's getattr(item, "path"), in the template's own code;
        Jinja's environment.getattr, a call in Python for each of a page's hundred or so
        lookups, only when the object has no such attribute (a dict's key: Jinja's item
        lookup, then its undefined)."""
        if self.environment.is_async:
            super().visit_Getattr(node, frame)
            return
        self.write("(_attribute if (_attribute := getattr(")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r}, missing)) is not missing else environment.getattr(")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r}))")


def _writes_text_itself(frame, finalize) -> bool:
    """Whether a {{ value }} is written by OutputTextGenerator's code: autoescaped output
    known to be so when compiled, with no finalize of the environment's."""
    return frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None


_PLAIN_CALLABLES = (types.FunctionType, types.MethodType)  # href, part, asset...: they take no context
_CALL_VARIABLES = frozenset({"_block_vars", "_loop_vars"})  # what a compiled call passes a context, for pass_context
_PASSES_EVAL_CONTEXT = jinja2.pass_eval_context(lambda: None).jinja_pass_arg  # the mark of Jinja's public decorator


class PageContext(Context):
    """Jinja's context, with a shorter way into the calls a page makes most: a macro given
    positional arguments alone (m.link(topic)) and a Python function that takes no
    context (href(path)). Jinja's Context.call and Macro.__call__ work out at every call,
    in Python, what else the callee might take; this does then what they would do. A
    question page renders in 74 us instead of 93; every other call is Jinja's."""

    def call(__self, __obj, *args, **kwargs):  # Jinja's names: a template may pass a keyword "self" or "obj"
        macro = type(__obj) is Macro and kwargs.keys() <= _CALL_VARIABLES and is_plain_macro(__obj, args)  # the type first: most calls are no macro's
        if not macro and type(__obj) not in _PLAIN_CALLABLES:
            return super().call(__obj, *args, **kwargs)
        passed = getattr(__obj, "jinja_pass_arg", None)
        if passed is _PASSES_EVAL_CONTEXT:  # as Jinja's call passes it (ngettext: plural_gettext)
            args = (__self.eval_ctx, *args)
        elif passed is not None:
            return super().call(__obj, *args, **kwargs)
        try:
            if macro:
                return call_macro(__obj, args, __self.eval_ctx.autoescape)
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja says it
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration exception")


def call_macro(macro: Macro, args: tuple, autoescape: bool = True) -> str:
    """A macro of positional arguments alone called as Jinja's Macro.__call__ would, without
    working out what else it might take (PageContext.call checks that it takes nothing else)."""
    html = macro._func(*args, *(missing,) * (macro._argument_count - len(args)))  # an argument left out takes its default
    return Markup(html) if autoescape else html


def is_plain_macro(value: object, args: tuple) -> bool:
    """Whether a value is a macro that call_macro may call with these arguments: one of
    positional arguments alone, with no caller, in an environment that is not async."""
    return (
        type(value) is Macro
        and len(args) <= value._argument_count
        and not (value.caller or value.explicit_caller or value.catch_kwargs or value.catch_varargs or value._environment.is_async)
    )


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
    environment.globals["ngettext"] = plural_gettext(translations)
    environment.extend(compile_translations=translations)
    environment.filters["number"] = number_formatter(language)
    return environment


def number_formatter(language: str) -> Callable[[float], str]:
    """A number as the language writes it; each number formatted once (pages count the
    same few numbers over and over, and Babel's formatting is slow)."""
    locale = parse_locale(language)
    return functools.lru_cache(maxsize=4096)(lambda number: format_decimal(number, locale=locale))
