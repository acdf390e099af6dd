"""axe-core finds no WCAG 2.2 AA violation on any page type, light or dark, in both languages."""

import json
import shutil
from urllib.parse import urljoin

import pytest
from conftest import ROOT
from test_browser import ALL_PAGES, path_of

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def violations(page, url: str = "") -> list[str]:
    """What axe finds on the page as it is now. url: where the page's own origin serves
    axe.min.js, so that it loads under the page's Content-Security-Policy; without one it is
    put in the page, which needs a context that bypasses the CSP."""
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run 'npm ci' (scripts/test does)")
    if page.evaluate("typeof axe") == "undefined":
        page.add_script_tag(url=url) if url else page.add_script_tag(path=str(AXE))
    result = page.evaluate("async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})", RULES)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {json.dumps([n['target'] for n in v['nodes']][:3])}" for v in result["violations"]]


@pytest.fixture(scope="module")
def axe_url(sample_site, site_url):
    """axe.min.js served from the sample site's own origin (beside the base path), so that a
    page keeps its Content-Security-Policy while axe runs in it."""
    shutil.copyfile(AXE, sample_site.parent / "axe.min.js")
    return urljoin(site_url, "/axe.min.js")


@pytest.mark.parametrize("kind,lang", ALL_PAGES)
def test_every_kind_of_page_loads_cleanly_fits_a_phone_and_has_no_accessibility_violation(open_page, axe_url, kind, lang):
    """One load of each kind of page, under its CSP: no console error or failed request,
    axe finds nothing on a desktop in the light scheme nor on a 375 px phone in the dark one,
    and nothing is wider than the phone."""
    opened = open_page(path_of(kind, lang))
    page = opened.page
    page.wait_for_load_state("networkidle")
    if kind == "question":
        page.locator(".reveal > summary").click()
    assert violations(page, axe_url) == [], "light, 1200 px"
    page.set_viewport_size({"width": 375, "height": 800})
    page.emulate_media(color_scheme="dark")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{kind}: content is {widths[0]} px wide in a {widths[1]} px viewport"
    assert violations(page, axe_url) == [], "dark, 375 px"
    assert opened.errors == []


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
