"""Markup: Markdown renders, untrusted HTML is neutralised, the everyday subset skips the parser."""

import random
import re

import markdown
import pytest
from conftest import STUDY_CONTENT, png, run_cli

from studysite import pipeline
from studysite.diagnostics import Report
from studysite.incremental.cache import BuildCache
from studysite.incremental.texts import MISSES_DONE_HERE, RECORDS_WORTH_SHARING
from studysite.text import plain_markdown
from studysite.text.markup import MarkdownConverter, excerpt, plain_text


@pytest.fixture
def markup():
    return MarkdownConverter()


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(1)">',
        "[click](javascript:alert(1))",
        '<a href="data:text/html,<script>alert(1)</script>">x</a>',
        '<iframe src="https://evil.example"></iframe>',
        "<style>body{display:none}</style>",
        '<svg onload="alert(1)"></svg>',
        '<p style="background:url(javascript:alert(1))">x</p>',
        "<form action=https://evil.example><input></form>",
    ],
)
def test_hostile_html_is_neutralised(markup, hostile):
    for rendered in (markup.block(hostile), markup.inline(hostile)):
        lowered = rendered.lower()
        for needle in ("<script", "onerror", "onload", "javascript:", "data:", "<iframe", "<style", "style=", "<svg", "<form", "<input"):
            assert needle not in lowered, rendered


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("![x](javascript:alert(1))", "x"),
        ('Tekst ![een "plaatje"](data:image/png;base64,AAAA) hier.', "Tekst een &quot;plaatje&quot; hier."),
        ('<img src="javascript:alert(1)">', ""),
    ],
)
def test_an_image_whose_source_is_not_allowed_is_its_alt_text(markup, text, html):
    """An <img> without src is not valid HTML."""
    assert markup.inline(text) == html


def test_external_links_get_noopener(markup):
    assert markup.inline("[docs](https://example.org)") == '<a href="https://example.org" rel="noopener noreferrer">docs</a>'


def test_inline_has_no_block_elements(markup):
    assert markup.inline("1. not a list") == "1. not a list"
    assert markup.inline("# not a heading *but em*") == "# not a heading <em>but em</em>"
    assert markup.inline("- item") == "- item"
    assert markup.inline("**bold** and `code`") == "<strong>bold</strong> and <code>code</code>"


def test_block_markdown(markup):
    assert markup.block("One *two*.\n\n- a\n- b") == "<p>One <em>two</em>.</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>"


@pytest.mark.parametrize(
    "text",
    [
        "Plain text.",
        "Two paragraphs.\n\nThe second one, with 2(N−1)/N and 7 × 10⁹.",
        "Line one\nline two of the same paragraph.",
        'Quotes "like" this and l\'élision, 100 % sûr ; deux-points : oui.',
        "データ並列では勾配を平均する。",
    ],
)
def test_plain_text_shortcut_matches_markdown(markup, text):
    expected = markdown.Markdown(extensions=["fenced_code", "tables"]).convert(text)
    assert markup.block(text) == expected


# Random texts for comparing plainmarkdown with Python-Markdown: paragraphs and lists of
# words, some with * or ** around them; a noisy text also holds what the subset leaves to the parser.
_WORDS = ["de", "klem", "été", "日本", "a", "7", "x (y)", "l'a", "1.", "—", '"q"', "%", "\xa0?"]
_NOISE = ["*", "**", " *", "* ", "  ", "\t", "\n ", " \n", "\u202f", "+ ", "-", "\n- ", "_", "!", "\n", "\n\n", "x", "'s"]


def _random_text(rng) -> str:
    noisy = rng.random() < 0.25

    def piece():
        words = " ".join(rng.choice(_WORDS[: None if noisy else 7]) for _ in range(rng.randint(1, 3)))
        wrap = rng.choice(["", "", "", "*", "**", "*", "**"] + (["***", "**x *"] if noisy else []))
        closing = "* y**" if wrap == "**x *" else wrap
        text = rng.choice(["", "", "", "("]) + wrap + words + closing + rng.choice(["", "", ".", ",", ")", ":", "?"])
        return text + rng.choice(_NOISE) if noisy and rng.random() < 0.2 else text

    def block():
        lines = [" ".join(piece() for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 3))]
        markers = rng.choice([[""] * 3, ["- "] * 3, ["1. ", "2. ", "3. "], ["1. ", "1. ", "7. "]])
        return "\n".join(marker + text for marker, text in zip(markers, lines, strict=False))

    return "\n\n".join(block() for _ in range(rng.randint(1, 3)))


def _python_markdown(text: str, kind: str) -> str:
    converted = markdown.Markdown(extensions=["fenced_code", "tables"]).convert(text)
    return converted[3:-4] if kind == "inline" and converted.startswith("<p>") and converted.endswith("</p>") else converted


def test_the_subset_converted_without_the_parser_comes_out_as_python_markdown_makes_it():
    """plainmarkdown's HTML is Python-Markdown's for every random text it takes; it takes
    texts with lists and emphasis, and leaves the others to the parser."""
    rng = random.Random(20261201)
    taken = {"<em>": 0, "<strong>": 0, "<ul>": 0, "<ol>": 0}
    left = 0
    for _ in range(3000):
        text = _random_text(rng)
        for kind, given in (("block", text), ("inline", " ".join(text.split()))):
            converted = getattr(plain_markdown, kind)(given)
            if converted is None:
                left += 1
                continue
            assert converted == _python_markdown(given, kind), given
            taken.update({tag: count + (tag in converted) for tag, count in taken.items()})
    assert min(taken.values()) > 200 and left > 1000, (taken, left)


@pytest.mark.parametrize(
    "text",
    ["*a*b", "a*b*", "** a**", "**a **", "*a **b** c*", "- a\n\n- b", "- a\n-", "2. a\n3. b", "a\n- b", "\ta", "a  \nb", "**a**_b_"],
)
def test_the_subset_leaves_what_it_does_not_know_to_the_parser(text):
    assert plain_markdown.block(text) is None


def test_plain_text_and_excerpt():
    assert plain_text("<p>A &amp; <em>B</em></p>") == "A & B"
    assert excerpt("one two three four", 12) == "one two…"
    assert excerpt("short", 12) == "short"


# -- math -----------------------------------------------------------------------------


def test_inline_and_display_math_become_mathml(markup):
    inline = markup.inline("Energie $E = mc^2$ telt")
    assert inline.startswith('Energie <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline" alttext="E = mc^2">')
    assert "<msup><mi>c</mi><mn>2</mn></msup>" in inline and inline.endswith("</math> telt")
    block = markup.block("Som:\n\n$$\\sum_{i=1}^n x_i$$\n")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"' in block and "<munderover>" in block


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("costs $5 and $10", "costs $5 and $10"),
        ("$5/$6 per stuk", "$5/$6 per stuk"),
        ("a literal \\$ sign and \\$x\\$", "a literal $ sign and $x$"),
        ("$ x$ is not math", "$ x$ is not math"),
        ("code `$x$` stays", "code <code>$x$</code> stays"),
    ],
)
def test_dollars_that_are_not_math_stay_text(markup, text, shown):
    assert markup.inline(text) == shown
    assert "<math" not in markup.block(text)


def test_math_is_escaped_and_plain_text_reads_its_tex(markup):
    html = markup.inline("$a<b$ en $\\text{<script>alert(1)</script>}$")
    assert "<script" not in html and "<mo>&lt;</mo>" in html and "&lt;script&gt;" in html
    assert plain_text(markup.inline("zie $x_1$")) == "zie x_1"
    assert "<mn>2</mn><mi>x</mi>" in markup.inline("dus $2x$ en $5")


def test_terms_in_math_are_not_linked(markup):
    from studysite.text.linking import TermMatcher

    html = markup.inline("$\\text{GPU}$ en GPU")
    linked = TermMatcher.build({"gpu": ("GPU",)}).link(html, lambda t: t)
    assert linked.count("<a ") == 1 and linked.endswith('en <a class="term" href="gpu">GPU</a>')


def tags_holding_math(rendered: str) -> list[str]:
    """The tags with a math element inside (in an attribute), as an HTML parser would see them begin."""
    return [tag for tag in re.findall(r"<[^>]*>", rendered) if "<math" in tag[1:]]


@pytest.mark.parametrize(
    ("text", "rendered"),
    [
        ('[de formule](https://example.org "$x^2$")', '<a href="https://example.org" title="x^2" rel="noopener noreferrer">de formule</a>'),
        ("![$E=mc^2$](https://example.org/e.png)", '<img alt="E=mc^2" src="https://example.org/e.png">'),
        ("[x](https://e.com/$a$)", '<a href="https://e.com/a" rel="noopener noreferrer">x</a>'),
        ('<abbr title="$y$">y</abbr>', '<abbr title="y">y</abbr>'),
    ],
)
def test_math_in_an_attribute_is_its_tex_as_text(markup, text, rendered):
    """MathML in an attribute's value would break the tag open: the value holds the TeX."""
    for converted, expected in ((markup.inline(text), rendered), (markup.block(text), f"<p>{rendered}</p>")):
        assert converted == expected
        assert tags_holding_math(converted) == []


def test_math_in_an_attribute_is_escaped_and_sanitised(markup):
    """The TeX put back in a tag is escaped (percent-encoded in a URL), the math in the text
    stays MathML, and the sanitiser judges the URL the TeX makes."""
    both = markup.inline('$x^2$ en [y](https://e.org "$a<b$") en ![$\\frac{a}{b} > \\text{"c"}$](e.png)')
    assert both.startswith('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline" alttext="x^2">') and both.count("<math") == 1
    assert ' title="a&lt;b" ' in both and ' alt="\\frac{a}{b} &gt; \\text{&quot;c&quot;}" ' in both and tags_holding_math(both) == []
    url = markup.inline("[x](https://e.com/$\\alpha^{2}$)")
    assert url == '<a href="https://e.com/%5Calpha%5E%7B2%7D" rel="noopener noreferrer">x</a>'
    assert markup.inline("[x]($javascript:alert(1)$)") == "x"
    assert markup.block('<a href="$javascript:alert(1)$">x</a> <abbr title="$y$ \\$5">y $z$</abbr>').startswith('<p>x <abbr title="y $5">y <math ')


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        ("\\frac{a", "'{' is never closed"),
        ("\\frac{a}", "fraction is incomplete"),
        ("\\foo{x}", "unknown command '\\foo'"),
        ("x^", "missing super script"),
        ("a}", "closes no '{'"),
    ],
)
def test_tex_that_cannot_be_converted_is_a_located_error(make_content, tex, reason):
    question = f"topic: basics\nanswer: A\nnl:\n  question: Vraag\n  choices: [a, b]\n  explanation: |\n    Eerst tekst.\n    Dan ${tex}$ hier.\nfr: {{question: Q, choices: [a, b], explanation: E}}\n"
    result = run_cli("check", "--content", make_content(**{"questions/gpu-role.yaml": question}))
    assert result.status == 1
    assert f"questions/gpu-role.yaml:8:10: error: cannot convert the math '{tex}'" in result.err and reason in result.err


# -- valid HTML whatever the content says -------------------------------------------


def test_link_without_target_becomes_its_text(markup):
    assert markup.inline("[click](javascript:alert(1)) en [ok](https://a.example)") == 'click en <a href="https://a.example" rel="noopener noreferrer">ok</a>'
    assert markup.block("<a name=x>anker</a>") == "<p>anker</p>"


def test_image_without_alt_text_is_a_located_error(make_content):
    assert MarkdownConverter().inline('<img src="x.png" onerror="alert(1)">') == '<img alt="" src="x.png">'
    assert MarkdownConverter().inline("![Een GPU](gpu.png)") == '<img alt="Een GPU" src="gpu.png">'
    topic = "nl: {title: Basis, description: 'Zie ![](chip.svg)'}\nfr: {title: Bases}\n"
    content = make_content(**{"topics/basics.yaml": topic})
    (content / "topics/chip.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"/>')
    result = run_cli("check", "--content", content)
    assert result.status == 1
    assert "topics/basics.yaml:1:38: error: image without alt text [markup.image-alt]" in result.err
    assert "  hint: say what it shows, in the text's language: ![what it shows](chip.svg)" in result.err


def test_hostile_text_builds_to_valid_html(tmp_path, make_content):
    from test_validity import validate

    hostile = "'<img src=/x.png alt=x onerror=alert(1)> [click](javascript:alert(1)) <a name=y>anker</a> $\\\\frac{a}{b}$ costs $5 ![p](/p.png)'"
    question = f"topic: basics\nanswer: A\nnl: {{question: {hostile}, choices: [{hostile}, b], explanation: {hostile}}}\nfr: {{question: Q, choices: [a, b], explanation: E}}\n"
    topic = f"nl: {{title: Basis, description: {hostile}}}\nfr: {{title: Bases}}\n"
    site, content = tmp_path / "site", make_content(**{"questions/gpu-role.yaml": question, "topics/basics.yaml": topic})
    for name in ("x.png", "p.png"):
        (content / name).write_bytes(png())
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 0, result.err
    assert "<math" in (site / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert validate(site) == []


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_math_renders_in_chromium_without_accessibility_violations(open_page, scheme):
    from test_accessibility import violations

    page = open_page("nl/questions/memory-7b-fp32-adam/", width=375, color_scheme=scheme, bypass_csp=True).page
    page.locator(".reveal > summary").click()
    display = page.locator('.explanation math[display="block"]')
    box = display.bounding_box()
    assert box["width"] > 100 and box["x"] + box["width"] <= 375  # laid out as MathML, inside the phone's width
    base, exponent = display.locator("msup > mn").nth(0).bounding_box(), display.locator("msup > mn").nth(1).bounding_box()
    assert exponent["y"] < base["y"] and exponent["height"] < base["height"]  # the exponent is raised and smaller
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert violations(page) == []


MARKDOWN_SAMPLES = [
    "a  \nhard break",
    "a\t\nhard break after a tab",
    "some `code` and \\*escaped\\*",
    "[a link](https://example.org) and [ref][r]\n\n[r]: https://example.org",
    "![an image](https://example.org/x.png) and <b>html</b>",
    "<https://example.org> and <someone@example.org>",
    "&amp; &#33; &copy; and a_b_c with *em*, **strong** and __strong__",
    "1. one\n2. two\n\n- three\n- four",
    "| a | b |\n|---|---|\n| *1* | `2` |",
    "```\ncode *x* [y]\n```",
    "    indented <x> & y",
]


def test_parsers_without_unmatchable_patterns_give_the_same_html():
    """The renderer leaves out the inline patterns a text cannot match; every text of the
    sample site and the samples above still come out exactly as Python-Markdown makes them."""
    import yaml

    texts = list(MARKDOWN_SAMPLES)

    def strings(value):
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict | list):
            for item in value.values() if isinstance(value, dict) else value:
                strings(item)

    for path in STUDY_CONTENT.rglob("*.yaml"):
        strings(yaml.safe_load(path.read_text(encoding="utf-8")))
    full = markdown.Markdown(extensions=["fenced_code", "tables"])
    renderer = MarkdownConverter()
    assert [renderer._convert(text) for text in texts] == [full.reset().convert(text) for text in texts]
    assert len(renderer._parsers) > 3  # the samples did need parsers of different shapes


@pytest.mark.parametrize("new_texts", [1, MISSES_DONE_HERE + 5, RECORDS_WORTH_SHARING + 5])
def test_a_problem_is_told_once_whether_few_texts_or_many_are_new(make_content, new_texts):
    """A few new texts are converted here; more go to forked processes after a first pass
    that stops (what it told is not told twice), and so do the records of a large site,
    each process a share of them: the HTML and the problems are those of one process."""
    questions = {
        f"questions/q{n:03}.yaml": f"topic: basics\nanswer: A\nnl: {{question: Vraag *{n}*?, choices: [Ja, Nee], explanation: 'Zie ![{n}](/far.svg)'}}\n"
        for n in range(new_texts)
    }
    content = make_content(**questions)
    (content / "far.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><image href="https://example.org/x.png"/></svg>')
    cache = BuildCache(stamp="test")
    for _ in range(2):  # with the cache empty, then full
        report = Report()
        loaded = pipeline.load(pipeline.Options(content_dir=content, jobs=2), report, cache)
        assert [d.code for d in report.diagnostics].count("media.svg-external") == new_texts  # a warning, in each text that shows it
        assert loaded.content_html.questions[("q000", "nl")].question == "Vraag <em>0</em>?"
    assert len(cache.markdown) == new_texts  # each explanation went through the parser once, in whichever process
    alone = Report()
    assert pipeline.load(pipeline.Options(content_dir=content, jobs=1), alone).content_html == loaded.content_html
    assert alone.sorted() == report.sorted()
