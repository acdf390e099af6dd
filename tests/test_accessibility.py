"""axe-core finds no WCAG 2.2 AA violation on any page type, light or dark, in both languages."""

import json

import pytest
from conftest import ROOT
from test_browser import ALL_PAGES, path_of

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def violations(page) -> list[str]:
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run 'npm ci' (scripts/test does)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})", RULES)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {json.dumps([n['target'] for n in v['nodes']][:3])}" for v in result["violations"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind,lang", ALL_PAGES)
def test_page_has_no_accessibility_violations(open_page, kind, lang, scheme):
    page = open_page(path_of(kind, lang), color_scheme=scheme, bypass_csp=True).page
    if kind == "question":
        page.locator(".reveal > summary").click()
    assert violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_practice_feedback_has_no_accessibility_violations(open_page, scheme):
    page = open_page("nl/practice/ai-hardware-stack/", color_scheme=scheme, bypass_csp=True).page
    page.wait_for_selector(".practice.is-running")
    item = page.locator("[data-item]:visible")
    wrong = (int(item.locator(".reveal [data-answer]").get_attribute("data-answer")) + 1) % item.locator(".choices li").count()
    item.locator(".choices li").nth(wrong).locator("button").click()
    assert violations(page) == []


def test_the_check_itself_catches_a_violation(open_page):
    page = open_page("nl/", bypass_csp=True).page
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<p style=\"color:#bbb\">faint</p><img src=\"x.png\">')")
    found = " ".join(violations(page))
    assert "color-contrast" in found and "image-alt" in found


# live-reload.js's event stream, replaced by one the test speaks through (serve is not running)
FAKE_EVENTS = """() => {
  window.EventSource = class {
    constructor() { window.__events = this; this.listeners = {}; }
    addEventListener(type, listener) { this.listeners[type] = listener; }
  };
}"""
PROBLEMS = [
    {"where": "questions/gpu-role.yaml:1:8", "severity": "error", "message": "unknown topic 'basic' [ref.unknown-topic]", "hint": "did you mean 'basics'?"},
    {"where": "glossary/gpu.yaml:3:1", "severity": "warning", "message": "term 'gpu' has no 'fr' text", "hint": ""},
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_serve_error_overlay_is_readable(open_page, scheme):
    """The overlay `serve` shows over a page when a build fails: its file:line, message and
    hint meet WCAG AA contrast over the page's own styles (its code spans had the page's
    light background under the overlay's light text)."""
    page = open_page(path_of("question", "nl"), color_scheme=scheme, bypass_csp=True).page
    page.evaluate(FAKE_EVENTS)
    page.add_script_tag(path=str(ROOT / "static/live-reload.js"))
    page.evaluate("(problems) => window.__events.listeners.failed({data: JSON.stringify(problems)})", PROBLEMS)
    overlay = page.locator("#studysite-build-errors")
    assert "questions/gpu-role.yaml:1:8" in overlay.inner_text()
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run 'npm ci' (scripts/test does)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run('#studysite-build-errors', {runOnly: {type: 'tag', values: ['wcag2aa']}})")
    assert [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in result["violations"]] == []
