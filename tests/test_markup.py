"""Markup: Markdown renders, untrusted HTML is neutralised, plain text skips the parser."""

import markdown
import pytest

from studysite.markup import MarkdownRenderer, excerpt, plain_text


@pytest.fixture
def markup():
    return MarkdownRenderer()


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


def test_plain_text_and_excerpt():
    assert plain_text("<p>A &amp; <em>B</em></p>") == "A & B"
    assert excerpt("one two three four", 12) == "one two…"
    assert excerpt("short", 12) == "short"
