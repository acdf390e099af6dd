"""renderer.py and render/environment.py: what the templates write, and how; the compiled
templates kept in the build cache."""

from __future__ import annotations

import re

import jinja2
import pytest
from babel.support import NullTranslations
from markupsafe import Markup

from studysite.render.environment import make_environment


class Shown:
    def __html__(self) -> str:
        return "<b>shown</b>"


VALUES = ["plain", "<script>alert('x') & \"y\"</script>", "", Markup("<em>safe</em>"), 42, 1.5, None, Shown(), ("a", "<b>")]


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
    """{{ x.attr }} is the attribute, else a dict's key, else an undefined (an error)."""
    environment, jinjas = make_environment([], NullTranslations(), "nl"), jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    values = {"o": Holder(name=name, inner=Holder(name=name)), "d": {"name": name, "inner": {"name": name}}}
    assert environment.from_string(ATTRIBUTES).render(**values) == jinjas.from_string(ATTRIBUTES).render(**values)
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


def site_files(site) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in site.rglob("*") if path.is_file() and path.name != ".studysite"}


def with_a_letter_flipped(data: bytes) -> bytes:
    """The data with the middle letter of its longest run of ASCII letters in the other case:
    a word of a template's text, or a name its code looks up."""
    runs = [(len(match.group()), match.start()) for match in re.finditer(rb"[A-Za-z]{4,}", data)] or [(2, len(data) // 2 - 1)]
    length, start = max(runs)
    at = start + length // 2
    return data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :]


def with_the_middle_byte_flipped(data: bytes) -> bytes:
    at = len(data) // 2
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


@pytest.mark.parametrize("flip", [with_a_letter_flipped, with_the_middle_byte_flipped])
def test_a_damaged_compiled_template_is_ignored_and_rewritten(make_content, tmp_path, monkeypatch, flip):
    """A flipped byte in any compiled template of the build cache changes no page and stops
    no process: the file fails its checksum, the template is compiled again and its file
    written anew."""
    from conftest import run_cli

    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))
    content = make_content()
    assert run_cli("build", "--content", content, "--out", tmp_path / "clean", "--no-search").status == 0
    compiled = sorted(path for path in (tmp_path / "cache").glob("templates/*/*") if path.is_file())
    assert len(compiled) >= 20  # every template, in both languages
    damaged = {path: flip(path.read_bytes()) for path in compiled}
    for path, data in damaged.items():
        path.write_bytes(data)
    result = run_cli("build", "--content", content, "--out", tmp_path / "again", "--no-search")
    assert result.status == 0 and "Traceback" not in result.err, result.err
    assert site_files(tmp_path / "again") == site_files(tmp_path / "clean")
    assert all(path.read_bytes() != data for path, data in damaged.items())  # written anew


def test_compiled_templates_are_shared_by_sites_of_the_same_templates_and_the_least_used_go(make_content, tmp_path, monkeypatch):
    """A second site of Studysite's own templates uses the code the first compiled; beyond
    the folders used last, the others are removed."""
    import os
    import shutil

    from conftest import run_cli

    from studysite.incremental.cache import KEPT_TEMPLATE_CODE

    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))
    root, first = tmp_path / "cache/templates", make_content()
    assert run_cli("build", "--content", first, "--out", tmp_path / "first", "--no-search").status == 0
    used = {folder.name: sorted(p.name for p in folder.iterdir()) for folder in root.iterdir()}
    assert len(used) == 2 and all(len(files) >= 20 for files in used.values())  # nl and fr
    second = shutil.copytree(first, tmp_path / "second-content")
    assert run_cli("build", "--content", second, "--out", tmp_path / "second", "--no-search").status == 0
    assert {folder.name: sorted(p.name for p in folder.iterdir()) for folder in root.iterdir()} == used  # nothing compiled anew
    for age in range(KEPT_TEMPLATE_CODE):
        (root / f"other-{age}").mkdir()
        os.utime(root / f"other-{age}", (1_000_000 - age, 1_000_000 - age))
    assert run_cli("build", "--content", second, "--out", tmp_path / "third", "--no-search").status == 0
    kept = {folder.name for folder in root.iterdir()}
    assert kept == set(used) | {f"other-{age}" for age in range(KEPT_TEMPLATE_CODE - 2)}


TRANS_BLOCKS = (
    "{% trans %}Menu{% endtrans %}|{% trans 'verb' %}Menu{% endtrans %}|{% trans 'verb' who=who %}Hello {{ who }}{% endtrans %}"
    "|{% trans n=count() %}Hello {{ n }}{% endtrans %}|{% trans notrimmed %}  Menu  {% endtrans %}|{% trans %}100%{% endtrans %}"
    "|{% trans n=count() %}{{ n }} menu{% pluralize %}{{ n }} menus{% endtrans %}|{{ _('Menu') }}"
)


def test_trans_blocks_compile_to_what_jinjas_gettext_gives_them():
    """{% trans %} blocks, with a context, a variable's call, notrimmed, a % of their own
    and plural forms, read as Jinja's own i18n extension makes them; those without plural
    forms call no gettext when rendered."""
    from babel.support import Translations

    class Dutch(Translations):
        def gettext(self, message):
            return {"Menu": "Menu (nl)", "Hello %(who)s": "Hallo %(who)s", "Hello %(n)s": "Hallo %(n)s", "100%%": "100%% (nl)"}.get(message, message)

        def pgettext(self, context, message):
            return f"{context}: {self.gettext(message)}"

        ugettext = gettext

    environment = make_environment([], Dutch(), "nl")
    jinjas = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"], undefined=jinja2.StrictUndefined)
    jinjas.policies["ext.i18n.trimmed"] = True
    jinjas.install_gettext_translations(Dutch(), newstyle=True)
    values = {"who": "<b>&", "count": lambda: 2}
    assert environment.from_string(TRANS_BLOCKS).render(values) == jinjas.from_string(TRANS_BLOCKS).render(values)
    assert "verb: Hallo &lt;b&gt;&amp;" in environment.from_string(TRANS_BLOCKS).render(values)
    compiled = environment.compile(TRANS_BLOCKS.rsplit("|", 2)[0], raw=True)
    assert "gettext" not in compiled and "Hallo " in compiled


def test_the_header_title_is_whole_up_to_60_characters_else_cut_after_a_word():
    from studysite.render.renderer import header_title

    sixty = "Basiskennis van kunstmatige intelligentie en machinaal leren"
    assert len(sixty) == 60 and header_title(sixty) == sixty
    assert header_title(sixty + " voor beginners") == "Basiskennis van kunstmatige intelligentie en machinaal…"  # 60 with the ellipsis
    assert header_title("Les bases de l'apprentissage automatique et de l'intelligence artificielle") == "Les bases de l'apprentissage automatique et de…"
    assert header_title("Künstliche Intelligenz und maschinelles Lernen, Grundlagen: eine Einführung") == "Künstliche Intelligenz und maschinelles Lernen…"  # no comma before the ellipsis
    assert header_title("x" * 80) == "x" * 59 + "…"  # one word longer than the header: cut where it must be
    assert all(len(header_title(title)) <= 60 for title in (sixty * 2, "a " * 50, "é" * 61))
