"""The built site in a real browser (headless Chromium): what JavaScript and CSS do."""

import json
import re

import pytest
from conftest import LOADING_MS

pytestmark = pytest.mark.browser

PAGE_TYPES = {
    "chooser": "",
    "home": "{lang}/",
    "topic": "{lang}/topics/ai-hardware-stack/",
    "question": "{lang}/questions/data-parallelism/",
    "glossary": "{lang}/glossary/",
    "term": "{lang}/glossary/data-parallelism/",
    "comparison": "{lang}/comparisons/parallelism-strategies/",
    "practice": "{lang}/practice/gpu-programming/",
    "search": "{lang}/search/",
    "status": "{lang}/status/",
    "downloads": "{lang}/downloads/",
    "offline": "{lang}/offline/",
    "404": "404.html",
}
ALL_PAGES = [(kind, lang) for kind in PAGE_TYPES for lang in ("nl", "fr") if "{lang}" in PAGE_TYPES[kind] or lang == "nl"]


def path_of(kind: str, lang: str) -> str:
    return PAGE_TYPES[kind].format(lang=lang)


def test_explanation_is_hidden_until_the_summary_is_clicked(open_page):
    page = open_page("nl/questions/data-parallelism/").page
    explanation = page.locator(".explanation")
    summary = page.get_by_text("Antwoord en toelichting tonen")
    assert summary.is_visible(), "the reveal control is not visible"
    assert not explanation.is_visible()
    summary.click()
    assert explanation.is_visible()
    assert "all-reduce" in explanation.inner_text()


def focus_by_tab(page, selector: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_reveal_works_with_the_keyboard_alone(open_page):
    page = open_page("fr/questions/structured-sparsity/").page
    assert not page.locator(".explanation").is_visible()
    focus_by_tab(page, ".reveal > summary")
    page.keyboard.press("Enter")
    assert page.locator(".explanation").is_visible()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused summary shows no focus outline"


@pytest.mark.parametrize("path", ["nl/questions/kv-cache/", "nl/topics/gpu-programming/", "nl/glossary/pruning/", "nl/comparisons/memory-compute-tradeoffs/"])
def test_language_switcher_lands_on_the_same_page(open_page, site_url, path):
    page = open_page(path).page
    page.locator("details:has(.switcher) > summary").click()
    page.locator(".switcher a[hreflang=fr]").click()
    page.wait_for_load_state()
    assert page.url == site_url + path.replace("nl/", "fr/", 1)
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.locator("details:has(.switcher) > summary").click()
    page.locator(".switcher a[hreflang=nl]").click()
    page.wait_for_load_state()
    assert page.url == site_url + path


def answer_all(page, right_first: bool):
    """Answer every question of a practice run: the first right or wrong, the others wrong."""
    progress = page.locator("[data-controls] progress")
    count = int(progress.get_attribute("max"))
    for index in range(count):
        item = page.locator("[data-item]:visible")
        assert item.count() == 1
        assert progress.evaluate("p => p.value") == index
        assert page.locator("[data-progress-label]").inner_text() == f"Vraag {index + 1} van {count}"
        assert item.locator("[data-item-heading]").inner_text() == f"Vraag {index + 1} van {count}"
        answer = int(item.locator(".reveal [data-answer]").get_attribute("data-answer"))
        choices = item.locator(".choices li")
        choose = answer if (index == 0 and right_first) else (answer + 1) % choices.count()
        assert not item.locator(".explanation").is_visible()
        choices.nth(choose).locator("button").click()
        result = item.locator("[data-result]")
        letter = "ABCDEF"[answer]
        if choose == answer:
            assert result.inner_text() == f"Goed! Het antwoord is {letter}."
            assert choices.nth(choose).locator(".mark").inner_text().endswith("Jouw antwoord: goed")
        else:
            assert result.inner_text() == f"Niet goed. Het antwoord is {letter}."
            assert choices.nth(choose).locator(".mark").inner_text().endswith("Jouw antwoord: fout")
            assert choices.nth(answer).locator(".mark").inner_text().endswith("Het goede antwoord")
        assert item.locator(".explanation").is_visible()
        assert progress.evaluate("p => p.value") == index + 1
        item.locator("[data-next]").click()
    return count


def test_practice_scores_and_offers_the_missed_questions_again(open_page):
    page = open_page("nl/practice/gpu-programming/").page
    page.wait_for_selector(".practice.is-running")
    count = answer_all(page, right_first=True)
    assert count == 7
    assert page.locator("[data-end] [data-score]").inner_text() == "Je had 14% goed: 1 van 7."
    missed = page.locator("[data-missed-list] a")
    assert missed.count() == 6
    assert all(re.search(r"/repo/nl/questions/[\w-]+/$", href) for href in missed.evaluate_all("links => links.map(a => a.href)"))
    page.get_by_role("button", name="Oefen deze opnieuw").click()
    assert page.locator("[data-controls] progress").get_attribute("max") == "6"
    answer_all(page, right_first=False)
    assert page.locator("[data-end] [data-score]").inner_text() == "Je had 0% goed: 0 van 6."
    page.get_by_role("button", name="Opnieuw beginnen").click()
    assert page.locator("[data-controls] progress").get_attribute("max") == "7"


def test_practice_shuffle_is_remembered(open_page, site_url):
    page = open_page("nl/practice/ai-hardware-stack/").page
    page.wait_for_selector(".practice.is-running")
    order = lambda: page.locator("[data-item]:visible").get_attribute("data-question")  # noqa: E731
    first = order()
    page.get_by_label("Vragen in willekeurige volgorde").check()
    firsts = {order()}
    for _ in range(8):  # a new shuffled run each time it is switched on
        page.get_by_label("Vragen in willekeurige volgorde").uncheck()
        assert order() == first
        page.get_by_label("Vragen in willekeurige volgorde").check()
        firsts.add(order())
    assert len(firsts) > 1, "the order never changed"
    page.goto(site_url + "fr/practice/ai-hardware-stack/")
    page.wait_for_selector(".practice.is-running")
    assert page.get_by_label("Mélanger les questions").is_checked()


def test_switching_the_shuffle_during_a_run_orders_the_rest_and_keeps_the_place(open_page, site_url):
    page = open_page("nl/practice/ai-hardware-stack/").page
    page.wait_for_selector(".practice.is-running")
    shown = lambda: page.locator("[data-item]:visible").get_attribute("data-question")  # noqa: E731
    answered = []
    for _ in range(2):
        item = page.locator("[data-item]:visible")
        answered.append(shown())
        item.locator(".choice-button").first.click()
        item.locator("[data-next]").click()
    page.get_by_label("Vragen in willekeurige volgorde").check()
    assert page.locator("[data-progress-label]").inner_text().startswith("Vraag 3 van 14"), "the place is kept"
    item = page.locator("[data-item]:visible")
    assert shown() not in answered
    item.locator(".choice-button").first.click()
    page.get_by_label("Vragen in willekeurige volgorde").uncheck()  # with the current one answered: it stays
    assert page.locator("[data-item]:visible").locator("[data-result]").inner_text() != ""
    page.reload()
    page.wait_for_selector(".practice.is-running")
    assert page.locator("[data-resume]").is_visible() and "4" in page.locator("[data-resume-text]").inner_text()


def test_practice_works_with_the_keyboard_alone(open_page):
    page = open_page("fr/practice/gpu-programming/").page
    page.wait_for_selector(".practice.is-running")
    first = page.locator("[data-item]:visible")
    first_id = first.get_attribute("data-question")
    answer = int(first.locator(".reveal [data-answer]").get_attribute("data-answer"))
    focus_by_tab(page, "[data-item]:not([hidden]) .choice-button")
    for _ in range(answer):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert first.locator("[data-result]").inner_text().startswith("Bonne réponse !")
    assert page.evaluate("document.activeElement.matches('[data-next]')")
    page.keyboard.press("Enter")
    second = page.locator("[data-item]:visible")
    assert second.get_attribute("data-question") != first_id
    assert page.evaluate("document.activeElement.id") == second.locator("h2").get_attribute("id")


@pytest.mark.parametrize("lang", ["nl", "fr"])
@pytest.mark.parametrize("width", [320, 375])
def test_the_header_shows_the_whole_short_title_beside_its_controls_on_a_phone(open_page, lang, width):
    page = open_page(f"{lang}/", width=width).page
    title, controls = page.locator(".site-title"), page.locator(".header-controls")
    assert title.evaluate("t => t.scrollWidth <= t.clientWidth"), "the short title is cut"
    assert title.bounding_box()["x"] + title.bounding_box()["width"] <= controls.bounding_box()["x"], "the controls cover the title"
    assert controls.bounding_box()["x"] + controls.bounding_box()["width"] <= width, "the controls run off the screen"
    language = page.locator("details:has(.switcher) > summary")
    if width >= 375:  # SPEC: the header's control is the current language's name, on one line on a 375 px phone
        assert language.locator(".language-name").is_visible() and not language.locator(".language-code").is_visible()
    else:  # narrower than most phones: its code, the name for screen readers only
        assert language.locator(".language-code").inner_text() == lang.upper()
        assert language.locator(".language-name").bounding_box()["width"] <= 1
    assert language.locator(".language-code").get_attribute("aria-hidden") == "true"


def test_search_finds_a_term_under_the_content_security_policy(open_page):
    opened = open_page("nl/search/")
    page = opened.page
    page.fill("#search-query", "systolic")
    page.keyboard.press("Enter")
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    links = page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")
    assert any(re.search(r"/repo/nl/(questions|glossary)/systolic-array/$", href) for href in links), links
    assert opened.errors == []


@pytest.fixture(scope="module")
def parted_site(tmp_path_factory):
    """The sample content built with its search index in parts of 10 pages (5 a language), served."""
    import functools
    import threading

    from conftest import STUDY_CONTENT, QuietServer, _QuietHandler, run_cli

    from studysite.output import search

    root = tmp_path_factory.mktemp("parted")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "PAGES_PER_PART", 10)
        result = run_cli("build", "--content", STUDY_CONTENT, "--out", root / "repo", "--base-url", "https://example.org/repo/", "--strict")
    assert result.status == 0, result.err
    server = QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root / "repo", f"http://127.0.0.1:{server.server_address[1]}/repo/"
    server.shutdown()


def found_on_search_page(opened, query: str) -> list[str]:
    """The paths of the pages the search page lists for query, in order, once its results are in."""
    page = opened.page
    page.fill("#search-query", query)
    page.keyboard.press("Enter")
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)
    page.wait_for_function("() => document.querySelector('.search-results').getAttribute('aria-busy') === 'false'", timeout=LOADING_MS)
    return page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")


def test_an_index_in_parts_finds_what_the_whole_index_finds(browser, parted_site, open_page):
    """Merged in the browser, the parts find the pages the whole index finds, from several
    parts, and no more: a part without the word matches its longest beginning instead (as
    Pagefind does for a word no page has), and those stand-ins are left out (search.js)."""
    from conftest import pages_of

    from studysite.output import search

    site, url = parted_site
    indexed = sorted(path.relative_to(site).as_posix() for path in site.glob("nl/*/*/index.html") if search.is_indexed(path.relative_to(site).as_posix()))
    parts = search.in_parts([(path, site) for path in indexed], 10)
    part_of = {f"/repo/{path.removesuffix('index.html')}": number for number, part in enumerate(parts, 1) for path, _ in part}
    assert len(parts) == 5 and json.loads((site / "pagefind/nl" / search.PARTS_FILE).read_text()) == ["part-2/", "part-3/", "part-4/", "part-5/"]
    whole = found_on_search_page(open_page("nl/search/"), "bandbreedte")
    with pages_of(browser, url) as open_parted:
        opened = open_parted("nl/search/")
        parted = found_on_search_page(opened, "bandbreedte")
        assert opened.errors == []
    assert len(whole) >= 3 and sorted(parted) == sorted(whole)
    assert len({part_of[path] for path in whole}) >= 3  # found in several parts, merged
