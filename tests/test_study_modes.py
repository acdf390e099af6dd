"""The study modes of issue 48 in a real browser, on a 375x667 phone and a 1280x800 desktop:
flashcards by keyboard (turned, graded, read out, scheduled apart from the questions) and
their due count on the dashboard and the review page; the exam, quiet until handed in, with
every question type, resumed after a reload, and its clock (page.clock, never a wait); the
review page's history and a review session's score in view; a practice question that fits a
phone, and the keys' panel in view; axe on the new pages; the pages without JavaScript.

The new pages' words are not translated yet in every catalog: these tests find things by
their data- attributes, and read words only where a catalog already had them."""

import re
import time

import pytest
from conftest import BrowserPage, recording_errors, start_clock, with_timeouts
from test_accessibility import violations
from test_question_types import RIGHT
from test_question_types import stored as stored_types
from test_study import DAY_MS, KEY, put, stored

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


@pytest.fixture
def visit(browser, request):
    """Open a page (a URL) in a fresh context of this size, with the console errors and
    failed requests recorded (and the test's noon clock, when it asks for one)."""
    contexts = []

    def open_(url: str, viewport=PHONE, scheme: str = "light", javascript: bool = True) -> BrowserPage:
        context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True, java_script_enabled=javascript, has_touch=viewport is PHONE)
        contexts.append(context)
        with_timeouts(context)
        start_clock(context, request)
        page = context.new_page()
        found = recording_errors(page)
        page.goto(url)
        return BrowserPage(page, found)

    yield open_
    for context in contexts:
        context.close()


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


def focused(page, selector: str) -> bool:
    return page.evaluate(f"document.activeElement.matches({selector!r})")


def card_record(cards: dict) -> dict:
    return {"format": "studysite-progress", "version": 3, "attempts": {}, "cards": {"attempts": cards, "schedule": {}}}


# -- flashcards ---------------------------------------------------------------------------


@VIEWPORTS
def test_flashcards_turn_with_space_grade_with_keys_and_are_scheduled_apart(visit, site_url, viewport):
    opened = visit(site_url + "nl/flashcards/", viewport)
    page = opened.page
    front, back, say = page.locator("[data-face=front]"), page.locator("[data-face=back]"), page.locator("[data-announce]")
    expect(front.locator(".face-text")).to_have_text("Adam")  # the glossary's first term
    assert say.get_attribute("role") == "status" and "Adam" in say.inner_text(), "the side shown is read out"
    assert back.is_hidden()
    page.keyboard.press("Space")
    expect(back).to_be_visible()
    assert back.inner_text().count("Optimizer die per gewicht") == 1, "the definition on the back"
    assert back.locator("[lang=ja]").inner_text() == "Adam", "and the name in term_language"
    assert "Optimizer die per gewicht" in say.inner_text()
    assert focused(page, "[data-grade='3']"), "Good has the focus, as in Anki"
    for grade in range(1, 5):
        button = page.locator(f"[data-grade='{grade}']")
        assert button.get_attribute("aria-keyshortcuts") == str(grade) and in_view(page, button)
    page.keyboard.press("1")  # Again: back at the end of this round
    expect(front.locator(".face-text")).to_have_text("AI-compiler")
    assert focused(page, "[data-flip]"), "the focus on Show the answer for the next card"
    page.keyboard.press("Space")  # the focused button's own Space
    page.keyboard.press("Space")  # on Good
    expect(front.locator(".face-text")).to_have_text("All-reduce")
    page.wait_for_function("(key) => Object.keys(JSON.parse(localStorage.getItem(key)).cards.schedule).length === 2", arg=KEY)
    record = stored(page)
    assert {key: [r["grade"] for r in reviews] for key, reviews in record["cards"]["attempts"].items()} == {"adam:term": [1], "ai-compiler:term": [3]}
    assert record["attempts"] == {} and record["schedule"] == {}, "a card is no question"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "nothing wider than the window"
    page.locator("[data-direction][value=definition]").check()
    expect(front).to_contain_text("Optimizer die per gewicht")  # definition first: Adam's card of that side is new
    assert page.locator("[data-direction][value=name]").count() == 1
    assert opened.errors == []


def test_flashcards_due_count_on_the_dashboard_and_the_review_page(visit, site_url, noon):
    opened = visit(site_url + "nl/")
    page = opened.page
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    past = noon - 10 * DAY_MS  # graded Good 10 days ago: due again by now
    put(page, card_record({"gpu:term": [{"grade": 3, "time": past}], "gpu:name": [{"grade": 3, "time": past}], "removed-term:term": [{"grade": 3, "time": past}]}))
    page.reload()
    expect(page.locator("[data-due-cards]")).to_have_text("2")  # not the term the site no longer has
    assert page.locator("[data-due-count]").inner_text() == "0", "the questions' count is apart"
    page.goto(site_url + "nl/review/")
    expect(page.locator("[data-due-cards]")).to_have_text("2")
    assert page.locator("[data-list-section] a[href$='/flashcards/']").is_visible()
    assert opened.errors == []


def test_without_javascript_flashcards_are_reveals_and_the_exam_leads_to_practice(visit, site_url):
    page = visit(site_url + "nl/flashcards/", javascript=False).page
    entries = page.locator("details.card-entry")
    assert entries.count() == 20 and page.locator("[data-flashcards]").is_hidden()
    entry = entries.first
    assert entry.locator("summary").inner_text() == "Adam" and not entry.locator("[data-side=definition]").is_visible()
    entry.locator("summary").click()
    assert entry.locator("[data-side=definition]").is_visible() and entry.locator("[data-side=name]").inner_text() == "Adam"
    page.emulate_media(media="print")
    assert entries.nth(1).locator("[data-side=definition]").is_visible(), "printed, every card shows its back"
    page.goto(site_url + "nl/exam/")
    assert page.locator("[data-exam]").is_hidden()
    links = page.locator("main a[href*='/practice/']")
    assert links.count() == 2 and links.first.is_visible()


# -- the exam -----------------------------------------------------------------------------


def answer_shown_item(page) -> str:
    """Answer the question in view rightly, by its type; its type."""
    item = page.locator("[data-exam-items] [data-item]:visible")
    kind = item.locator(".question").get_attribute("data-type")
    RIGHT[kind](page, item)
    return kind


def test_an_exam_of_every_type_is_quiet_until_handed_in_and_resumes_after_a_reload(visit, types_url):
    opened = visit(types_url + "en/exam/")
    page = opened.page
    assert page.locator("[data-count]").input_value() == "7", "20 by default, as many as there are"
    assert page.locator("[data-minutes]").input_value() == "30"
    page.get_by_role("button", name="Start the exam").click()
    expect(page.locator("[data-timer]")).to_have_text(re.compile(r"^Time left: (30:00|29:\d\d)$"))
    assert in_view(page, page.locator("[data-timer]"))
    kinds = []
    for step in range(7):
        item = page.locator("[data-exam-items] [data-item]:visible")
        expect(item.locator("[data-item-heading]")).to_have_text(f"Question {step + 1} of 7")  # the questions arrive after the start
        assert focused(page, "[data-item-heading]")
        kinds.append(answer_shown_item(page))
        expect(item.locator("[data-result]")).to_have_text("Answer kept. Whether it is right shows when you hand in the exam.")
        assert item.locator(".reveal").is_hidden() and item.locator(".mark:not(.quiet-mark):visible").count() == 0, kinds[-1]
        assert focused(page, "[data-next]")
        if step == 0:  # taken back, and given again
            item.get_by_role("button", name="Change my answer").click()
            expect(page.locator("[data-answered]")).to_have_text("Answered: 0 of 7")
            RIGHT[kinds[-1]](page, item)
        if step < 6:
            page.keyboard.press("n")
    assert sorted(kinds) == sorted(["single", "multiple", "true-false", "typed", "numeric", "order", "match"])
    expect(page.locator("[data-answered]")).to_have_text("Answered: 7 of 7")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "nothing wider than the phone"
    assert stored_types(page)["attempts"] == {}, "nothing counts before it is handed in"
    page.reload()
    expect(page.locator("[data-exam-items] .question.is-answered")).to_have_count(7)  # every answer given again
    assert page.locator("[data-answered]").inner_text() == "Answered: 7 of 7" and page.locator(".reveal:visible").count() == 0
    assert page.locator(".quiet-mark").count() == 4, "single, true-false and the two picks of multiple say which was chosen"
    page.get_by_role("button", name="Hand in").click()
    expect(page.locator("[data-score]")).to_have_text("You got 100% right: 7 of 7.")
    assert [row.inner_text().split("\t") for row in page.locator("[data-topic-scores] tr").all()] == [["Basics", "7 of 7", "100%"]]
    assert focused(page, "[data-results-heading]") and in_view(page, page.locator("[data-results-heading]"))
    assert page.locator("[data-missed]").is_hidden()
    page.wait_for_function("(key) => Object.keys(JSON.parse(localStorage.getItem(key)).schedule).length === 7", arg="studysite:/types/")
    record = stored_types(page)
    assert all(len(tries) == 1 and tries[0]["correct"] for tries in record["attempts"].values()) and len(record["attempts"]) == 7
    assert len(record["exams"]) == 1 and "ended" in record["exams"][0]
    expect(page.locator("[data-history-list] li")).to_have_count(1)
    assert opened.errors == []


def test_the_exam_clock_runs_from_the_start_through_a_reload_and_hands_in_when_time_is_up(visit, types_url):
    opened = visit(types_url + "en/exam/", DESKTOP)
    page = opened.page
    page.clock.install(time=time.time())
    page.reload()
    page.locator("[data-count]").fill("2")
    page.locator("[data-minutes]").fill("2")
    page.get_by_role("button", name="Start the exam").click()
    say = page.locator("[data-clock-say]")
    expect(say).to_have_text("The exam has started. Time: 2 minutes.")
    assert page.locator("[data-timer]").get_attribute("role") == "timer"
    answer_shown_item(page)
    page.clock.fast_forward("01:01")
    expect(say).to_have_text("1 minute left.")
    under_a_minute = re.compile(r"^Time left: 0:[1-5]\d$")  # the page's clock runs on as the test does, however slowly
    expect(page.locator("[data-timer]")).to_have_text(under_a_minute)
    started = stored_types(page)["exams"][0]["started"]
    page.reload()  # the time runs on from the start
    expect(page.locator("[data-exam-items] .question.is-answered")).to_have_count(1)
    expect(page.locator("[data-timer]")).to_have_text(under_a_minute)
    page.clock.fast_forward("01:00")
    expect(page.locator("[data-results-note]")).to_have_text("Time is up: your answers were handed in.")
    assert page.locator("[data-score]").inner_text() == "You got 50% right: 1 of 2."
    assert page.locator("[data-missed-list] a").inner_text().endswith("(not answered)")
    assert focused(page, "[data-results-heading]") and in_view(page, page.locator("[data-results-heading]"))
    exam = stored_types(page)["exams"][0]
    assert exam["ended"] == started + 2 * 60 * 1000, "handed in when its time ran out"
    assert len(stored_types(page)["attempts"]) == 1
    assert opened.errors == []


# -- the review page, practice, what opens --------------------------------------------------


def test_the_history_counts_each_day_and_a_sessions_score_opens_in_view(visit, site_url, noon):
    opened = visit(site_url + "nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    attempt = lambda correct, days_ago: {"choice": 0, "correct": correct, "time": noon - days_ago * DAY_MS}  # noqa: E731
    history = {
        "all-reduce": [attempt(True, 3), attempt(True, 0)],  # answered again, right
        "kv-cache": [attempt(False, 1), attempt(False, 0)],  # answered again, wrong: due
        "data-parallelism": [attempt(True, 1)],
    }
    put(page, {"format": "studysite-progress", "version": 3, "attempts": history})
    page.reload()
    section = page.locator("[data-history]")
    expect(section.locator("[data-history-answers]")).to_have_text("5")
    assert [section.locator(f"[data-history-{name}]").inner_text() for name in ("accuracy", "reviews", "retention")] == ["60%", "2", "50%"]
    chart = section.locator("[data-history-chart]")
    assert chart.locator("svg").get_attribute("aria-hidden") == "true"
    assert chart.locator("rect:not(.part)").count() == 30 and chart.locator("rect.part").count() == 3
    days = chart.locator("[data-chart-text] li").all_inner_texts()
    assert len(days) == 30 and [re.findall(r"\d+", text)[-2:] for text in days[-4:]] == [["1", "1"], ["0", "0"], ["1", "2"], ["1", "2"]]
    expect(page.locator("[data-list] a")).to_have_count(1)  # kv-cache, wrong
    page.locator("[data-start-review]").click()
    for _ in range(1):
        item = page.locator("[data-session-items] [data-item]:visible")
        item.locator(".choice-button").first.click()
        item.locator("[data-next]").click()
    heading = page.locator("[data-end-heading]")
    expect(heading).to_be_visible()
    assert focused(page, "[data-end-heading]") and in_view(page, heading), "the score where the student is"
    assert opened.errors == []


@VIEWPORTS
def test_a_practice_question_fits_the_window_and_its_answer_shows_next_and_the_explanation(visit, site_url, viewport):
    opened = visit(site_url + "nl/practice/ai-hardware-stack/", viewport)
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    item = page.locator("[data-item]:visible")
    assert in_view(page, item.locator(".choices li").last), "the first question's choices without a scroll"
    for _ in range(2):
        page.locator("[data-item]:visible .choice-button").first.click()
        page.locator("[data-item]:visible [data-next]").click()
    item = page.locator("[data-item]:visible")
    assert item.get_attribute("data-question") == "training-memory"  # a typical question: a stem and 4 choices
    label = page.locator("[data-progress-label]")
    assert label.inner_text() == "Vraag 3 van 14" and in_view(page, label)
    assert page.get_by_text("Vraag 3 van 14", exact=True).evaluate_all("all => all.filter(e => e.getBoundingClientRect().width > 1).length") == 1, "shown once"
    for part in (item.locator(".stem"), *item.locator(".choices li").all()):
        assert in_view(page, part), "the whole question, under the progress"
    answer = int(item.locator(".reveal [data-answer]").get_attribute("data-answer"))
    item.locator(".choice-button").nth((answer + 1) % 4).click()
    explanation = item.locator(".explanation > :first-child")
    expect(explanation).to_be_visible()
    for part in (item.locator("[data-result]"), item.locator("[data-next]")):
        assert in_view(page, part), part
    assert explanation.bounding_box()["y"] + 48 <= page.viewport_size["height"], "two lines of the explanation at least"
    page.keyboard.press("?")
    panel = page.locator("[data-keys-panel]")
    expect(panel).to_be_visible()
    assert in_view(page, panel) and focused(page, "[data-keys-panel]"), "the keys' panel opens where it is seen"
    page.keyboard.press("?")
    expect(panel).to_be_hidden()
    assert focused(page, "[data-keys-toggle]")
    assert opened.errors == []


# -- accessibility --------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_flashcards_and_the_exam_have_no_accessibility_violations(visit, site_url, scheme):
    page = visit(site_url + "nl/flashcards/", scheme=scheme).page
    page.locator("[data-flip]").click()
    expect(page.locator("[data-grades]")).to_be_visible()
    assert violations(page) == []
    page.goto(site_url + "nl/exam/")
    page.locator("[data-count]").fill("2")
    page.locator("[data-start-exam]").click()
    page.locator("[data-exam-items] [data-item]:visible .choice-button").first.click()
    expect(page.locator("[data-exam-items] [data-item]:visible [data-change]")).to_be_visible()
    assert violations(page) == []
    page.locator("[data-hand-in]").click()
    page.locator("[data-hand-in-anyway]").click()
    expect(page.locator("section[data-results]")).to_be_visible()
    assert violations(page) == []
