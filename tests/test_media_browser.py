"""Media and the theme in Chromium: a page with an image, audio, a logo and an accent colour
has no axe violation in the light and the dark scheme, and its images load, also in a
review session that shows the question on another page."""

import functools
import json
import threading
import time

import pytest
from conftest import QuietServer, _QuietHandler, pages_of, png, run_cli
from test_accessibility import violations
from test_media import MP3, QUESTION, SVG
from test_theme import LOGO

pytestmark = pytest.mark.browser

SITE = """\
languages: [nl, fr]
base_url: https://example.org/repo/
theme:
  accent: "#0b6e4f"
  logo: media/logo.svg
  favicon: media/icon.png
nl: {title: Studie, description: 'Welkom, met ![het logo](media/logo.svg).'}
fr: {title: Étude}
"""
TERM = """\
nl: {term: GPU, definition: 'Grafische processor, zie [de vraag](question:gpu-role).', audio: ../media/gpu.mp3}
fr: {term: GPU, definition: Processeur graphique.}
"""


@pytest.fixture(scope="module")
def media_url(tmp_path_factory):
    from conftest import minimal_files, write_files

    root = tmp_path_factory.mktemp("media-site")
    content = write_files(root / "content", minimal_files(**{"site.yaml": SITE, "questions/gpu-role.yaml": QUESTION, "glossary/gpu.yaml": TERM}))
    (content / "questions/cell.svg").write_text(SVG, encoding="utf-8")
    (content / "questions/question.mp3").write_bytes(MP3)
    (content / "media").mkdir()
    (content / "media/nucleus.png").write_bytes(png(40, 30))
    (content / "media/gpu.mp3").write_bytes(MP3)
    (content / "media/logo.svg").write_text(LOGO, encoding="utf-8")
    (content / "media/icon.png").write_bytes(png(512, 512, "#0b6e4f"))
    result = run_cli("build", "--content", content, "--out", root / "served/repo", "--no-search")
    assert result.status == 0, result.err
    server = QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root / "served")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/repo/"
    server.shutdown()


@pytest.fixture
def open_media_page(browser, media_url):
    with pages_of(browser, media_url, viewport={"width": 375, "height": 800}) as open_:
        yield open_


def images_loaded(page, selector: str = "img") -> list[tuple[str, int]]:
    """Each image of the page (or those the selector finds) with its natural width, once every one has loaded or failed."""
    page.wait_for_function("() => [...document.images].every((image) => image.complete)")
    return page.eval_on_selector_all(selector, "images => images.map((image) => [image.getAttribute('src'), image.naturalWidth])")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["nl/questions/gpu-role/", "nl/glossary/gpu/", "nl/"])
def test_a_page_with_media_and_the_theme_has_no_violations_and_its_images_load(open_media_page, path, scheme):
    opened = open_media_page(path, scheme)  # under the pages' CSP
    page = opened.page
    loaded = images_loaded(page)
    assert loaded and all(width > 0 for _, width in loaded), loaded
    accent = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()")
    assert accent == ("#0b6e4f" if scheme == "light" else "#4a947d")  # the theme's stylesheet, which the CSP allows
    assert opened.errors == []
    checked = open_media_page(path, scheme, bypass_csp=True).page  # axe is injected as an inline script
    if checked.locator(".reveal > summary").count():
        checked.locator(".reveal > summary").first.click()
    images_loaded(checked)
    assert violations(checked) == []


def test_the_audio_control_is_named_and_reached_by_keyboard(open_media_page):
    page = open_media_page("nl/glossary/gpu/").page
    audio = page.locator("audio")
    assert audio.get_attribute("aria-label") == "Uitspraak" and audio.get_attribute("preload") == "none"
    assert page.evaluate("document.querySelector('audio').controls")
    audio.focus()
    assert page.evaluate("document.activeElement.tagName") == "AUDIO"


def test_a_review_session_shows_the_questions_images_from_its_own_page(open_media_page):
    opened = open_media_page("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    past = int(time.time() * 1000) - 3 * 24 * 3600 * 1000
    record = {"format": "studysite-progress", "version": 1, "attempts": {"gpu-role": [{"choice": 0, "correct": False, "time": past}]}, "settings": {"shuffle": False}, "schedule": {}}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", ["studysite:/repo/", json.dumps(record)])
    page.reload()
    page.wait_for_selector("[data-list] li")
    page.locator("[data-start-review]").click()
    page.wait_for_selector("[data-session-items] [data-item]:visible img")
    loaded = images_loaded(page, "[data-session-items] img")
    assert len(loaded) == 2 and all(width > 0 and src.startswith("http://127.0.0.1:") for src, width in loaded), loaded
    audio = page.locator("[data-session-items] audio").get_attribute("src")
    assert audio.startswith("http://127.0.0.1:") and "/repo/media/question." in audio
    assert opened.errors == []
