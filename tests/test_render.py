"""renderer.py and render/environment.py: what the templates write, and how."""

from __future__ import annotations

import jinja2
import pytest
from babel.support import NullTranslations
from markupsafe import Markup, escape

from studysite.render.environment import make_environment, output_text


class Shown:
    def __html__(self) -> str:
        return "<b>shown</b>"

    def __repr__(self) -> str:  # the test's id: the same in every process that collects it
        return "Shown()"


VALUES = ["plain", "<script>alert('x') & \"y\"</script>", "", Markup("<em>safe</em>"), 42, 1.5, None, Shown(), ("a", "<b>")]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_output_text_is_the_text_markupsafe_escapes(value):
    assert output_text(value) == str(escape(value))


def test_templates_escape_every_value_as_jinja_does_in_output_macros_and_blocks():
    environment = make_environment([], NullTranslations(), "nl")
    source = (
        "{% macro em(x) %}<em>{{ x }}</em>{% endmacro %}"
        "{{ value }}|{{ em(value) }}|{% set block %}{{ value }}{% endset %}{{ block }}|"
        "{{ value|upper }}|{% autoescape false %}{{ value }}{% endautoescape %}"
    )
    plain = jinja2.Environment(autoescape=True).from_string(source)
    for value in VALUES:
        assert environment.from_string(source).render(value=value) == plain.render(value=value)
    assert "output_text" in environment.compile("{{ value }}", raw=True)
    with pytest.raises(jinja2.UndefinedError):  # an unknown name still fails the page
        environment.from_string("{{ nothing }}").render()


class Holder:
    def __init__(self, **values):
        self.__dict__.update(values)


ATTRIBUTES = (
    "{{ o.name }}|{{ o.inner.name }}|{{ d.name }}|{{ d.inner.name }}|{{ d.items()|list|length }}|{{ o.name.upper() }}"
    "{% for item in [o, d] %}{{ item.name }}{% if item.inner.name %}+{% endif %}{% endfor %}"
    "{% macro show(x) %}{{ x.name }}{% endmacro %}{{ show(o) }}{{ show(d) }}|{{ (o if o.name else d).inner.name }}"
)


@pytest.mark.parametrize("name", ["<b>&</b>", Markup("<i>safe</i>"), ""], ids=repr)
def test_attribute_lookups_give_what_jinjas_give(name):
    """{{ x.attr }} is Python's getattr in the compiled code, Jinja's item lookup for a
    dict's key, and an undefined (an error) for neither, as Jinja does."""
    environment, jinjas = make_environment([], NullTranslations(), "nl"), jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    values = {"o": Holder(name=name, inner=Holder(name=name)), "d": {"name": name, "inner": {"name": name}}}
    assert environment.from_string(ATTRIBUTES).render(**values) == jinjas.from_string(ATTRIBUTES).render(**values)
    assert "environment.getattr(" in environment.compile("{{ o.name }}", raw=True)  # only where getattr found nothing
    for missing in ("{{ o.nothing }}", "{{ d.nothing }}", "{{ o.nothing.name }}"):
        with pytest.raises(jinja2.UndefinedError):
            environment.from_string(missing).render(**values)


def test_a_sites_own_macros_may_read_the_pages_values(make_content, tmp_path):
    """Studysite's macros read only what depends on a page's language and place, and are made
    once for those; a site's own macros.html that reads a page's values gets them."""
    from conftest import ROOT, run_cli

    content = make_content()
    macros = (ROOT / "templates/macros.html").read_text(encoding="utf-8")
    own = macros.replace('<a href="{{ root }}{{ item.path }}"', '<a data-on="{{ page.path }}" href="{{ root }}{{ item.path }}"', 1)
    assert own != macros
    (content.parent / "templates").mkdir()
    (content.parent / "templates/macros.html").write_text(own, encoding="utf-8")
    result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 0, result.err
    page = next((tmp_path / "site/nl/questions").glob("*/index.html"))
    assert f'data-on="nl/questions/{page.parent.name}/"' in page.read_text(encoding="utf-8")  # the breadcrumb's link, made by m.link


def test_an_environment_that_finalizes_values_still_compiles_and_escapes():
    environment = make_environment([], NullTranslations(), "nl")
    environment.finalize = lambda value: "" if value is None else value
    assert environment.from_string("{{ a }}|{{ b }}").render(a="<i>", b=None) == "&lt;i&gt;|"


MACRO_CALLS = (
    "{% macro pair(a, b='-', c=none) %}[{{ a }}{{ b }}{{ c }}]{% endmacro %}"
    "{% macro rest() %}({{ varargs|join(',') }}{{ kwargs|dictsort }}){% endmacro %}"
    "{% macro framed(x) %}<{{ x }}:{{ caller() }}>{% endmacro %}"
    "{% macro own(caller=none) %}{{ caller }}{% endmacro %}"
    "{{ pair(v) }}{{ pair(v, v) }}{{ pair(v, c=v) }}{{ pair(a=v) }}"
    "{{ rest(1, v) }}{{ rest(k=v) }}{% call framed(v) %}in {{ v }}{% endcall %}"
    "{{ own(v) }}{% for item in [v] %}{{ pair(item, loop.index) }}{{ loop.cycle(1, 2) }}{% endfor %}"
    "{% set block %}{{ pair(v) }}{% endset %}{{ block }}{{ pair(v)|length }}"
    "{{ plain(v) }}{{ plain(v, end=v) }}{{ method(v) }}{{ with_context(v) }}{{ with_eval_context(v) }}{{ with_environment(v) }}"
)


class Shouter:
    def shout(self, text):
        return f"{text}!"


CALLABLES = {
    "plain": lambda text, end="": f"<{text}{end}>",
    "method": Shouter().shout,
    "with_context": jinja2.pass_context(lambda context, text: f"{context['v'] == text}"),
    "with_eval_context": jinja2.pass_eval_context(lambda eval_context, text: f"{eval_context.autoescape}{text}"),
    "with_environment": jinja2.pass_environment(lambda environment, text: f"{environment.autoescape}{text}"),
}


@pytest.mark.parametrize("value", ["<b>&</b>", Markup("<i>safe</i>")], ids=repr)
def test_macros_and_functions_are_called_as_jinja_calls_them(value):
    """PageContext's way into a macro called with positional arguments only, or into a
    function that takes no context, gives what Jinja's own gives, in every other kind of
    call too: defaults, keywords, varargs, caller, pass_context and its kin."""
    environment, jinjas = make_environment([], NullTranslations(), "nl"), make_environment([], NullTranslations(), "nl")
    jinjas.context_class = jinja2.runtime.Context
    assert environment.from_string(MACRO_CALLS).render(v=value, **CALLABLES) == jinjas.from_string(MACRO_CALLS).render(v=value, **CALLABLES)
    assert "[" + str(escape(value)) + "-None]" in environment.from_string(MACRO_CALLS).render(v=value, **CALLABLES)
    with pytest.raises(TypeError):  # too many arguments still fail
        environment.from_string("{% macro one(a) %}{{ a }}{% endmacro %}{{ one(1, 2) }}").render()


def test_a_function_that_stops_iteration_gives_undefined_as_in_jinja():
    def stop():
        raise StopIteration

    for context_class in (None, jinja2.runtime.Context):
        environment = make_environment([], NullTranslations(), "nl")
        environment.context_class = context_class or environment.context_class
        with pytest.raises(jinja2.UndefinedError, match="StopIteration"):
            environment.from_string("{{ stop() }}").render(stop=stop)


def test_once_makes_a_macros_html_once_for_the_same_arguments():
    """once(macro, *args) gives what the macro gives, calling it once for each macro and
    arguments; one that takes more arguments than it names is called as Jinja calls it."""
    from studysite.render import renderer

    environment = make_environment([], NullTranslations(), "nl")
    calls = []
    environment.globals["count"] = lambda value: calls.append(value) or ""
    module = environment.from_string(
        "{% macro em(x, y='!') %}{{ count(x) }}<em>{{ x }}{{ y }}</em>{% endmacro %}{% macro boxed(x) %}{{ count(x) }}[{{ x }}{{ varargs|join }}]{% endmacro %}"
    ).make_module()
    once = renderer.made_once()
    page = environment.from_string("{{ once(m.em, a) }}{{ once(m.em, a) }}{{ once(m.em, b) }}{{ once(m.boxed, a, b) }}{{ once(m.em, a, '?') }}")
    assert page.render(m=module, once=once, a="<a>", b="b") == "<em>&lt;a&gt;!</em>" * 2 + "<em>b!</em>[&lt;a&gt;b]<em>&lt;a&gt;?</em>"
    assert calls == ["<a>", "b", "<a>", "<a>"]
    assert page.render(m=module, once=once, a="<a>", b="b") and calls == ["<a>", "b", "<a>", "<a>"]  # all kept from the first page
    for number in range(renderer.ONCE_KEPT):  # then as many others: the first are forgotten, not kept without end
        once(module.em, number)
    assert once(module.em, "<a>") == "<em>&lt;a&gt;!</em>" and calls[-1] == "<a>"
    assert once(module.em, ["<l>"]) == once(module.em, ["<l>"]) == "<em>[&#39;&lt;l&gt;&#39;]!</em>" and calls[-2:] == [["<l>"]] * 2  # no key: made each time
