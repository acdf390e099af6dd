"""The built site in a real browser (headless Chromium): what JavaScript and CSS do."""

import re

import pytest

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


def focus_by_tab(page, selector: str, limit: int = 40) -> None:
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
    """Answer every question of a practice page: the first right or wrong, the others wrong."""
    items = page.locator(".practice-item")
    count = items.count()
    for index in range(count):
        item = items.nth(index)
        assert item.is_visible() and all(not items.nth(i).is_visible() for i in range(count) if i != index)
        answer = int(item.get_attribute("data-answer"))
        choose = answer if (index == 0 and right_first) else (answer + 1) % item.locator("input").count()
        assert not item.locator(".explanation").is_visible()
        item.locator("input").nth(choose).check()
        item.locator("button.check").click()
        feedback = item.locator(".feedback")
        if choose == answer:
            assert feedback.inner_text() == "Goed!" and "correct" in feedback.get_attribute("class")
        else:
            letter = "ABCDEF"[answer]
            assert feedback.inner_text() == f"Niet goed. Het antwoord is {letter}."
            assert "is-wrong" in item.locator(".choice").nth(choose).get_attribute("class")
        assert "is-correct" in item.locator(".choice").nth(answer).get_attribute("class")
        assert item.locator(".explanation").is_visible()
        item.locator("button.next").click()
    return count


def test_practice_scores_right_and_wrong_answers(open_page):
    page = open_page("nl/practice/gpu-programming/").page
    count = answer_all(page, right_first=True)
    assert count == 7
    assert page.locator(".score").inner_text() == "Je hebt 1 van 7 vragen goed beantwoord."
    page.get_by_role("button", name="Opnieuw beginnen").click()
    assert page.locator(".practice-item").first.is_visible()
    answer_all(page, right_first=False)
    assert page.locator(".score").inner_text() == "Je hebt 0 van 7 vragen goed beantwoord."


def test_practice_works_with_the_keyboard_alone(open_page):
    page = open_page("fr/practice/gpu-programming/").page
    first = page.locator(".practice-item").first
    answer = int(first.get_attribute("data-answer"))
    focus_by_tab(page, "input[type=radio]")
    for _ in range(answer):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    assert first.locator("input").nth(answer).is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('check')")
    page.keyboard.press("Enter")
    assert first.locator(".feedback").inner_text() == "Bonne réponse !"
    assert page.evaluate("document.activeElement.classList.contains('next')")
    page.keyboard.press("Enter")
    second = page.locator(".practice-item").nth(1)
    assert second.is_visible()
    assert page.evaluate("document.activeElement.id") == second.locator("h2").get_attribute("id")


@pytest.mark.parametrize("kind,lang", ALL_PAGES)
def test_no_console_errors_or_failed_requests(open_page, kind, lang):
    opened = open_page(path_of(kind, lang))
    opened.page.wait_for_load_state("networkidle")
    assert opened.errors == []


@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_nothing_overflows_on_a_phone(open_page, kind):
    page = open_page(path_of(kind, "fr"), width=375).page
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{kind}: content is {widths[0]} px wide in a {widths[1]} px viewport"


def test_search_finds_a_term_under_the_content_security_policy(open_page):
    opened = open_page("nl/search/")
    page = opened.page
    page.fill("#search-query", "systolic")
    page.keyboard.press("Enter")
    page.wait_for_selector(".search-results li a")
    links = page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")
    assert any(re.search(r"/repo/nl/(questions|glossary)/systolic-array/$", href) for href in links), links
    assert opened.errors == []
