"""The daily study in a real browser, mostly on a 375x667 phone: the home page's dashboard
and the menu's due badge, answers scheduled wherever they are given, practice that keeps
its place and its feedback in view, the end screen, keyboard shortcuts, the review page
(one list, the session in its place, the chart, the file control, no layout shift), the
question page's next question, stored data of version 1, and each page's weight."""

import gzip
import json
import re
import time
from urllib.parse import urlparse

import pytest
from conftest import next_frame, pages_of
from test_accessibility import violations
from test_browser import focus_by_tab
from test_study import DAY_MS, KEY, answer_index, errors, put, record_with, stored

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

PHONE = {"width": 375, "height": 667}
PRACTICE = "nl/practice/ai-hardware-stack/"
CLS_OBSERVER = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({ type: "layout-shift", buffered: true });
"""


@pytest.fixture
def phone(browser, site_url, request):
    """Open a page (path below the base path) on a phone, in a fresh context with the
    console errors and failed requests recorded."""
    with pages_of(browser, site_url, request, viewport=PHONE, has_touch=True) as open_:
        yield open_


def fail_first_request(page, url_pattern: str) -> list[str]:
    """Drop the connection for the first request to url_pattern only; the list gets its URL."""
    failed = []

    def fail_once(route):
        if failed:
            return route.continue_()
        failed.append(route.request.url)
        route.abort()

    page.context.route(url_pattern, fail_once)
    return failed


def now_ms() -> int:
    return int(time.time() * 1000)


def in_view(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"] + 1  # within a pixel's rounding


def visible_item(page):
    return page.locator("[data-item]:visible")


def tap_choice(page, item, index: int):
    item.locator(".choices li").nth(index).locator("button").tap()


def wait_scheduled(page, question: str, count: int = 1):
    page.wait_for_function(
        "([key, id, count]) => { const r = JSON.parse(localStorage.getItem(key) || 'null'); return r && r.schedule[id] && r.schedule[id].count === count; }",
        arg=[KEY, question, count],
    )


# -- practice -------------------------------------------------------------------------


def test_practice_on_a_phone_keeps_the_marked_choice_the_result_and_next_in_view(phone):
    opened = phone(PRACTICE)
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    for step in range(3):
        item = visible_item(page)
        answer = int(item.locator(".reveal [data-answer]").get_attribute("data-answer"))
        chosen = (answer + 1) % item.locator(".choices li").count()
        item.locator(".choices li").nth(chosen).scroll_into_view_if_needed()
        tap_choice(page, item, chosen)
        next_button = item.locator("[data-next]")
        result = item.locator("[data-result]")
        assert page.evaluate("document.activeElement.matches('[data-next]')")
        for what in (item.locator(".choices li").nth(chosen).locator(".mark").first, result, next_button):  # the choice says what it was
            assert in_view(what), f"step {step}: {what} is off screen"
        gap = next_button.bounding_box()["y"] - (result.bounding_box()["y"] + result.bounding_box()["height"])
        assert 0 <= gap < 40, "Next sits right under the result"
        assert item.locator(".explanation").is_visible(), "the explanation stays open below"
        next_button.tap()
    assert errors(opened) == []


def test_a_double_tap_on_next_does_not_answer_the_question_it_brings(phone):
    opened = phone(PRACTICE)
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    item = visible_item(page)
    tap_choice(page, item, answer_index(page, "[data-item]:visible"))
    box = item.locator("[data-next]").bounding_box()
    page.evaluate("() => { window.clicks = 0; addEventListener('click', () => { window.clicks += 1; }); }")
    # On a phone, a choice of the next question lies where Next was. The taps are dated 100 ms
    # apart, as a double tap is, however long the machine takes to send them.
    touch = page.context.new_cdp_session(page)
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    start = time.time()
    for at in (start, start + 0.1):
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point], "timestamp": at})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.02})
    expect(page.locator("[data-progress-label]")).to_have_text("Vraag 2 van 14")
    page.wait_for_function("() => window.clicks === 2")  # the page has handled both taps' clicks
    next_frame(page)
    assert visible_item(page).locator(".choice-button:disabled").count() == 0, "the second tap answered nothing"
    assert len(stored(page)["attempts"]) == 1
    assert errors(opened) == []


def test_practice_resumes_after_a_reload_and_home_offers_to_continue(phone, site_url):
    opened = phone(PRACTICE)
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    total = page.locator("[data-item]").count()
    for _ in range(4):
        item = visible_item(page)
        tap_choice(page, item, 0)
        item.locator("[data-next]").tap()
    fifth = visible_item(page).get_attribute("data-question")
    page.reload()
    page.wait_for_selector(".practice.is-running")
    assert visible_item(page).get_attribute("data-question") == fifth
    assert page.locator("[data-progress-label]").inner_text() == f"Vraag 5 van {total}"
    resumed = page.locator("[data-resume]")
    assert resumed.is_visible() and f"vraag 5 van {total}" in resumed.inner_text()
    page.goto(site_url + "nl/")
    link = page.locator("[data-continue-link]")
    expect(link).to_be_visible()  # dashboard.js, imported after the page's load
    assert link.inner_text() == f"AI-hardware en softwarestack: vraag 5 van {total}"
    link.tap()
    page.wait_for_selector(".practice.is-running")
    assert visible_item(page).get_attribute("data-question") == fifth
    page.get_by_role("button", name="Opnieuw beginnen").tap()
    assert page.locator("[data-progress-label]").inner_text() == f"Vraag 1 van {total}"
    assert page.evaluate("document.activeElement.matches('[data-item-heading]')"), "focus is not lost with the button"
    assert stored(page)["places"] == {}, "starting again forgets the place"
    assert errors(opened) == []


def test_practice_schedules_again_once_the_scheduler_could_not_be_loaded(phone):
    opened = phone(PRACTICE)
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    failed = fail_first_request(page, "**/ts-fsrs-*/index.mjs")
    answered = []
    for turn in range(2):
        item = visible_item(page)
        answered.append(item.get_attribute("data-question"))
        if turn == 0:
            with page.expect_console_message(lambda message: "not scheduled" in message.text):  # the failed load has come back
                tap_choice(page, item, answer_index(page, "[data-item]:visible"))
        else:
            tap_choice(page, item, answer_index(page, "[data-item]:visible"))
        item.locator("[data-next]").tap()
    assert failed, "the first load of the scheduler failed"
    for question in answered:  # the first one too: it was left unplanned
        wait_scheduled(page, question)


def test_the_end_screen_gives_the_percentage_the_missed_questions_and_the_next_reviews(phone, noon):
    opened = phone("nl/practice/gpu-programming/")
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    total = page.locator("[data-item]").count()
    for index in range(total):
        item = visible_item(page)
        answer = int(item.locator(".reveal [data-answer]").get_attribute("data-answer"))
        tap_choice(page, item, answer if index < 3 else (answer + 1) % item.locator(".choices li").count())
        item.locator("[data-next]").tap()
    end = page.locator("[data-end]")
    assert end.locator("[data-score]").inner_text() == f"Je had 43% goed: 3 van {total}."
    assert end.locator("[data-missed-list] a").count() == total - 3
    upcoming = end.locator("[data-upcoming-list] li")
    upcoming.first.wait_for()
    texts = upcoming.all_inner_texts()
    counts = [int(text.rsplit(": ", 1)[1]) for text in texts]
    assert sum(counts) == total and counts[0] == total - 3, texts  # the missed ones come back first, the next day
    assert re.match(r"^\w+ \d+ \w+: \d+$", texts[0]), texts
    review = end.get_by_role("link", name="Naar je herhalingen")
    assert review.get_attribute("href").endswith("/review/")
    assert errors(opened) == []


# -- scheduling everywhere, the dashboard and the badge ----------------------------------


def test_an_answer_on_a_question_page_is_scheduled_and_counted_as_due(phone, site_url):
    opened = phone("nl/questions/all-reduce/")
    page = opened.page
    page.locator(".choices li").nth((answer_index(page) + 1) % page.locator(".choices li").count()).locator("button").tap()
    wait_scheduled(page, "all-reduce")
    entry = stored(page)["schedule"]["all-reduce"]
    attempt = stored(page)["attempts"]["all-reduce"][0]
    assert entry["due"] - attempt["time"] == DAY_MS, "a wrong answer comes back the next day"
    # Two days later (the attempt moved back), with an attempt an older page never scheduled,
    # and one of a question the site no longer has, which is not counted:
    past = now_ms() - 2 * DAY_MS
    attempts = {q: [{"choice": 0, "correct": False, "time": past}] for q in ("all-reduce", "kv-cache", "removed-question")}
    put(page, record_with(attempts))
    page.goto(site_url + "nl/topics/ai-hardware-stack/")
    item = page.locator(".question-list li", has=page.locator("a[href$='/all-reduce/']"))
    expect_text(item.locator(".state"), "Te herhalen")
    badge = page.locator("[data-due-badge]")
    expect(badge.locator("[aria-hidden=true]")).to_have_text("2")  # once the page has planned the older attempt
    assert badge.locator(".visually-hidden").text_content().strip() == "(Vandaag te herhalen: 2)"
    page.get_by_text("Menu", exact=True).tap()
    assert page.get_by_role("link", name="Herhalen (Vandaag te herhalen: 2)").is_visible()
    assert all(stored(page)["schedule"][q]["due"] == past + DAY_MS for q in ("all-reduce", "kv-cache", "removed-question"))
    page.goto(site_url + "nl/")
    expect(page.locator("[data-due-count]")).to_have_text("2")
    assert errors(opened) == []


def expect_text(locator, text: str):
    """Wait until the element the locator finds now has exactly this text. The locator is
    found again at each try: a refresh replaces the state labels (markers.js), and a handle
    taken before it would keep the old label's text for ever."""
    expect(locator).to_have_text(re.compile(rf"^{re.escape(text)}$"))


def test_a_dashboard_left_open_overnight_follows_the_clock_when_seen_again(phone, site_url, noon):
    opened = phone("nl/questions/all-reduce/")  # at noon: the answer and the home page fall on the same day
    page = opened.page
    tap_choice(page, page, (answer_index(page) + 1) % 3)  # wrong: due the next day
    wait_scheduled(page, "all-reduce")
    page.goto(site_url + "nl/")
    expect_text(page.locator("[data-today]"), "1 van 10")
    page.clock.fast_forward("30:00:00")  # the next day: the tab was in the background
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect_text(page.locator("[data-today]"), "0 van 10")
    expect_text(page.locator("[data-due-count]"), "1")
    assert errors(opened) == []


def test_the_dashboard_counts_today_keeps_the_goal_and_the_streak(phone, site_url, noon):
    opened = phone("nl/")
    page = opened.page
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    assert page.locator("[data-continue]").is_hidden(), "nothing to continue yet"
    today = noon
    attempts = {}
    for days_ago, count in ((0, 2), (1, 3), (2, 3), (4, 3)):
        for i in range(count):
            attempts[f"q{days_ago}-{i}"] = [{"choice": 0, "correct": True, "time": today - days_ago * DAY_MS - i}]
    put(page, record_with(attempts))
    page.reload()
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    assert page.locator("[data-today]").inner_text() == "2 van 10"
    assert page.locator("[data-streak]").inner_text() == "0"
    goal = page.get_by_label("Dagdoel (antwoorden)")
    goal.fill("2")
    goal.press("Enter")
    expect_text(page.locator("[data-streak]"), "1")  # today: the days before keep the goal of 10 they had
    assert page.locator("[data-today]").inner_text() == "2 van 2"
    assert stored(page)["settings"]["goal"] == 2
    assert page.locator("[data-goal-progress]").evaluate("p => [p.value, p.max]") == [2, 2]
    for wrong in ("0", "1000", "2.5", ""):
        goal.fill(wrong)
        goal.press("Enter")
        assert goal.get_attribute("aria-invalid") == "true" and goal.evaluate("g => g.validationMessage") != "", wrong
        assert goal.input_value() == wrong, "what was typed stays, to be corrected"
        assert stored(page)["settings"]["goal"] == 2, "the goal stays as it was"
    goal.fill("2")
    goal.press("Enter")
    assert goal.get_attribute("aria-invalid") == "false"
    card = page.locator(".card", has=page.locator("a[href$='topics/ai-hardware-stack/']"))
    bar = card.locator(".progress-bar")
    assert bar.get_attribute("aria-hidden") == "true" and bar.is_visible()
    page.goto(site_url + "fr/")
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    assert page.locator("[data-today]").inner_text() == "2 sur 2", "the goal is the reader's, in every language"
    assert errors(opened) == []


# -- keyboard ----------------------------------------------------------------------------


# keys.js (main.js loads it on the first key) and the module of the question in view's type
# (question.js loads it on demand): keys.js acts on a key once both are there
KEYS_CAN_ACT = """async () => {
  const main = document.querySelector('script[type="module"][src*="/main.js"]');
  const question = [...document.querySelectorAll('.question[data-question]')].find((q) => !q.closest('[hidden]'));
  const modules = ['keys.js', ...(question ? [`questions/${question.dataset.type}.js`] : [])];
  await Promise.all(modules.map((name) => import(new URL(name, main.src).href).catch(() => {})));
}"""


def press(page, key: str):
    """A key, then what keys.js did with it: the modules it waits for are awaited too, then
    the next frame (by which it has acted)."""
    page.keyboard.press(key)
    page.evaluate(KEYS_CAN_ACT)
    next_frame(page)


def test_keys_work_after_their_script_once_failed_to_load(phone):
    opened = phone("nl/questions/software-stack-order/")
    page = opened.page
    failed = fail_first_request(page, "**/keys.js")
    with page.expect_console_message(lambda message: "studysite keys" in message.text):  # the failed load has come back
        page.keyboard.press("1")
    expect(page.locator("[data-result]")).to_have_text("")
    assert failed, "the first load of keys.js failed"
    page.keyboard.press("1")
    expect(page.locator("[data-result]")).not_to_have_text("")


def test_the_due_count_leaves_out_removed_questions_once_their_list_could_be_had(phone):
    opened = phone("nl/")
    page = opened.page
    offline = [True]  # the list cannot be had until the connection comes back
    page.context.route("**/review/questions.json", lambda route: route.abort() if offline[0] else route.continue_())
    past = now_ms() - 3 * DAY_MS
    put(page, record_with({q: [{"choice": 0, "correct": False, "time": past}] for q in ("all-reduce", "removed-question")}))
    page.reload()
    expect(page.locator("[data-due-count]")).to_have_text("2")  # without the site's list, every due answer counts
    offline[0] = False
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the next refresh asks again
    expect(page.locator("[data-due-count]")).to_have_text("1")


def test_keys_answer_reveal_go_on_and_show_their_help(phone):
    opened = phone(PRACTICE, viewport={"width": 1200, "height": 900})
    page = opened.page
    page.wait_for_selector(".practice.is-running")
    help_button = page.get_by_role("button", name="Sneltoetsen")
    assert help_button.is_visible() and help_button.get_attribute("aria-expanded") == "false"
    page.keyboard.press("?")
    expect(page.locator("[data-keys-panel]")).to_be_visible()
    assert help_button.get_attribute("aria-expanded") == "true"
    assert "Een antwoord kiezen" in page.locator("[data-keys-status]").inner_text(), "the list is read out"
    assert page.locator("[data-keys-status]").get_attribute("role") == "status"
    help_button.click()
    expect(page.locator("[data-keys-panel]")).to_be_hidden()
    page.locator("[data-shuffle]").focus()
    press(page, "1")
    assert not stored(page) or not stored(page)["attempts"], "a key typed in a field is left alone"
    page.locator("[data-item-heading]:visible").focus()
    first = visible_item(page).get_attribute("data-question")
    press(page, "r")
    assert visible_item(page).locator(".explanation").is_visible()
    assert page.locator("[data-keys-status]").inner_text() == "Antwoord getoond"
    press(page, "R")
    assert not visible_item(page).locator(".explanation").is_visible()
    assert page.locator("[data-keys-status]").inner_text() == "Antwoord verborgen"
    press(page, "b")
    assert [a["choice"] for a in stored(page)["attempts"][first]] == [1]
    assert visible_item(page).locator("[data-result]").inner_text() != ""
    press(page, "a")  # answered: no second answer
    assert len(stored(page)["attempts"][first]) == 1
    press(page, "n")
    second = visible_item(page).get_attribute("data-question")
    assert second != first
    assert visible_item(page).locator(".choice-button").first.get_attribute("aria-keyshortcuts") == "1 A"
    press(page, "3")
    assert [a["choice"] for a in stored(page)["attempts"][second]] == [2]
    assert page.evaluate("document.activeElement.matches('[data-next]')")
    press(page, "Enter")  # on Next: the button's own Enter, once
    third = visible_item(page).get_attribute("data-question")
    assert third not in (first, second)
    assert page.evaluate("document.activeElement.matches('[data-item-heading]')")
    press(page, "Enter")  # not answered yet: nothing to go on to
    assert visible_item(page).get_attribute("data-question") == third
    press(page, "1")
    page.locator("[data-item-heading]:visible").focus()
    press(page, "Enter")  # from the heading, Enter goes on
    assert visible_item(page).get_attribute("data-question") != third
    assert errors(opened) == []


def test_a_question_page_offers_the_next_question_in_the_topics_order(phone, site_url, sample_site):
    html = (sample_site / "nl/questions/software-stack-order/index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="button" href="[./]*nl/questions/training-vs-inference/" data-next-question', html), "the next in the topic's order"
    last = (sample_site / "nl/questions/embedding-lookups/index.html").read_text(encoding="utf-8")
    assert 'nl/questions/software-stack-order/" data-next-question' in last, "after the last, the first"
    opened = phone("nl/questions/software-stack-order/")
    page = opened.page
    page.keyboard.press("1")  # the first key loads keys.js, which then answers: wait for it
    expect(page.locator("[data-result]")).not_to_have_text("")
    assert page.get_by_role("link", name="Volgende vraag").is_visible()
    wait_scheduled(page, "software-stack-order")
    page.keyboard.press("Enter")  # the result has the focus: Enter goes on, as N does
    page.wait_for_url("**/training-vs-inference/")
    page.keyboard.press("2")
    expect(page.locator("[data-result]")).not_to_have_text("")
    assert page.evaluate("document.activeElement.matches('[data-result]')"), "the result is read out"
    wait_scheduled(page, "training-vs-inference")
    page.keyboard.press("n")
    page.wait_for_function("() => !location.pathname.endsWith('/training-vs-inference/')")  # a function: CSP forbids eval, which a polled expression needs
    assert errors(opened) == []


# -- the review page ---------------------------------------------------------------------


def review_record(now: int | None = None) -> dict:
    now = now_ms() if now is None else now
    return record_with(
        {
            "all-reduce": [{"choice": 0, "correct": False, "time": now - 3 * DAY_MS}],  # wrong and due
            "kv-cache": [{"choice": 0, "correct": False, "time": now - 1000}],  # wrong, due tomorrow
            "data-parallelism": [{"choice": 0, "correct": True, "time": now - 1000}],  # right, due in days
        }
    )


def test_the_review_page_has_one_list_which_the_session_replaces(phone, site_url):
    opened = phone("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    put(page, review_record())
    page.reload()
    page.wait_for_selector("[data-list] li")
    links = page.locator("[data-list] a").evaluate_all("links => links.map(a => a.pathname.split('/').at(-2))")
    assert links == ["all-reduce", "kv-cache"], "due first, then wrong, each once"
    assert page.locator("h2", has_text="Te herhalen vragen").count() == 1
    page.get_by_role("button", name="Herhaalsessie starten").tap()
    page.wait_for_selector("[data-session-items] [data-item]:visible")
    assert page.locator("[data-list-section]").is_hidden(), "the session takes the list's place"
    assert page.locator("[data-session] h2").bounding_box()["y"] < PHONE["height"]
    for _ in range(2):
        item = visible_item(page)
        tap_choice(page, item, answer_index(page, "[data-session-items] [data-item]:visible"))
        item.locator("[data-next]").tap()
    assert page.locator("[data-end] [data-score]").inner_text() == "Je had 100% goed: 2 van 2."
    assert page.locator("[data-list-section]").is_visible()
    page.wait_for_selector("[data-list-none]:visible")
    page.locator("[data-end] [data-restart]").tap()
    assert page.locator("[data-list-section]").is_hidden(), "a session started from the end screen takes the list's place too"
    assert visible_item(page).count() == 1
    assert errors(opened) == []


def test_an_answer_in_another_tab_shows_at_once(phone, site_url):
    opened = phone("nl/topics/ai-hardware-stack/")
    topic = opened.page
    state = topic.locator(".question-list li", has=topic.locator("a[href$='/all-reduce/']")).locator(".state")
    expect_text(state, "Nog niet geprobeerd")
    other = topic.context.new_page()
    other.goto(site_url + "nl/questions/all-reduce/")
    other.locator(".choices li").nth(answer_index(other)).locator("button").tap()
    expect_text(state, "Goed")
    assert errors(opened) == []


def test_a_review_session_that_cannot_load_says_so_beside_its_button(phone, site_url):
    opened = phone("nl/review/", viewport={"width": 320, "height": 640})
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    put(page, review_record())
    page.reload()
    page.wait_for_selector("[data-list] li")
    page.context.route("**/questions/kv-cache/", lambda route: route.abort())  # the connection dropped
    page.get_by_role("button", name="Herhaalsessie starten").tap()
    said = page.locator("[data-list-section] [role=status]", has_text="kon niet worden geladen")
    expect(said).to_be_visible()
    assert in_view(said), "the student sees why nothing started where they tapped"
    assert page.locator("[data-import-result]").inner_text() == "", "not among the import's results"


def test_the_review_list_drops_a_question_answered_in_another_tab(phone, site_url):
    opened = phone("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    put(page, record_with({"all-reduce": [{"choice": 0, "correct": False, "time": now_ms() - 3 * DAY_MS}]}))
    page.reload()
    page.wait_for_selector("[data-list] li")
    other = page.context.new_page()
    other.goto(site_url + "nl/questions/all-reduce/")
    other.locator(".choices li").nth(answer_index(other)).locator("button").tap()
    wait_scheduled(other, "all-reduce", 2)
    expect(page.locator("[data-list] li")).to_have_count(0)  # it was listed as due, with "Goed" beside it
    expect(page.locator("[data-list-none]")).to_be_visible()
    expect(page.get_by_role("button", name="Herhaalsessie starten")).to_be_hidden()
    assert errors(opened) == []


def test_the_chart_shows_the_coming_days_with_a_text_alternative(phone, noon):
    opened = phone("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    put(page, review_record(noon))
    page.reload()
    page.wait_for_selector("[data-chart] svg")
    svg = page.locator("[data-chart] svg")
    assert svg.get_attribute("aria-hidden") == "true"
    assert svg.locator("rect").count() == 7
    items = page.locator("[data-chart] [data-chart-text] li").all_inner_texts()
    assert len(items) == 7 and all(re.match(r"^\w+ \d+ \w+: \d+$", text) for text in items), items
    assert [int(text.rsplit(": ", 1)[1]) for text in items][:2] == [1, 1], "all-reduce overdue today, kv-cache tomorrow"
    assert svg.locator("text.count").all_text_contents()[:2] == ["1", "1"]
    assert page.locator("[data-chart] figcaption").inner_text() == "Te herhalen in de komende dagen"
    assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [375, 375]
    assert errors(opened) == []


def test_the_import_control_speaks_the_pages_language(phone, tmp_path):
    opened = phone("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    control = page.get_by_label("Een voortgangsbestand importeren…")
    assert control.get_attribute("type") == "file"
    label = page.locator("label[for=import-file]")
    assert label.is_visible() and label.inner_text() == "Een voortgangsbestand importeren…"
    assert page.locator("#import-file").evaluate("i => i.getBoundingClientRect().width <= 1")
    assert "Choose" not in page.locator("main").inner_text()
    focus_by_tab(page, "#import-file")
    assert label.evaluate("l => getComputedStyle(l).outlineStyle") != "none", "the label shows the input's focus"
    progress = tmp_path / "progress.json"
    progress.write_text(json.dumps(review_record()), encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        label.tap()
    chooser.value.set_files(str(progress))
    page.wait_for_selector("[data-list] li")
    assert "Voortgang geïmporteerd" in page.locator("[data-import-result]").inner_text()
    wait_scheduled(page, "all-reduce")
    assert errors(opened) == []


# What the study features fill in on each page, once they have: the list to review, the
# dashboard, the question's own state, practice running, the flashcards' deck, the exam's form.
FILLED_IN = {
    "nl/review/": "[data-list] li",
    "nl/": "[data-dashboard-body]:not([hidden])",
    "nl/questions/data-parallelism/": "[data-own-state]:not([hidden])",
    PRACTICE: ".practice.is-running",
    "nl/flashcards/": "[data-flashcards]:not([hidden])",
    "nl/exam/": "[data-exam]:not([hidden])",
}
FILLED_IN_COUNT = {"nl/review/": 2}
WIDE = {PRACTICE: {"width": 1280, "height": 800}}  # practice's controls above a whole question: the room kept for them shows on a wide screen


@pytest.mark.parametrize("path", list(FILLED_IN))
def test_no_layout_shift_as_the_study_features_fill_in(phone, path):
    opened = phone("nl/questions/kv-cache/", viewport=WIDE.get(path, PHONE))
    page = opened.page
    put(page, review_record())
    page.goto(page.url.replace("nl/questions/kv-cache/", path))
    page.wait_for_load_state("networkidle")
    page.evaluate(CLS_OBSERVER)  # buffered: the shifts since the page started count too
    expect(page.locator(FILLED_IN[path])).to_have_count(FILLED_IN_COUNT.get(path, 1))  # what the study features add is there
    next_frame(page)
    shift = page.evaluate("window.__cls")
    assert shift < 0.1, f"{path}: cumulative layout shift {shift}"


# -- stored data, accessibility, no JavaScript, weight ------------------------------------


def test_a_version_1_record_keeps_its_progress(phone, site_url):
    opened = phone("nl/")
    page = opened.page
    page.wait_for_load_state("networkidle")  # the home page's modules loaded, not cut off by the next page
    old = {
        "format": "studysite-progress",
        "version": 1,
        "attempts": {"all-reduce": [{"choice": 1, "correct": False, "time": now_ms() - 5000}]},
        "settings": {"shuffle": True},
    }
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(old)])
    page.goto(site_url + "nl/questions/kv-cache/")
    page.locator(".choices li").first.locator("button").tap()
    wait_scheduled(page, "kv-cache")
    record = stored(page)
    assert record["version"] == 3
    assert record["attempts"]["all-reduce"] == old["attempts"]["all-reduce"]
    assert record["settings"] == {"shuffle": True, "goal": 10}
    assert "all-reduce" in record["schedule"], "the old answer is scheduled too"
    assert page.locator("[data-storage-notice]").count() == 0
    assert errors(opened) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_new_study_screens_have_no_accessibility_violations(phone, site_url, scheme):
    page = phone("nl/", scheme=scheme, bypass_csp=True).page
    put(page, review_record())
    page.reload()
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    page.get_by_text("Menu", exact=True).tap()
    assert violations(page) == []
    page.goto(site_url + "nl/review/")
    page.wait_for_selector("[data-chart] svg")
    assert violations(page) == []
    page.goto(site_url + "nl/practice/gpu-programming/")
    page.wait_for_selector(".practice.is-running")
    page.keyboard.press("?")
    for _ in range(page.locator("[data-item]").count()):
        item = visible_item(page)
        tap_choice(page, item, 0)
        item.locator("[data-next]").tap()
    page.wait_for_selector("[data-upcoming-list] li")
    assert violations(page) == []


def test_without_javascript_the_dashboard_says_what_it_needs_and_the_next_question_is_a_link(browser, site_url):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(site_url + "nl/")
    dashboard = page.locator("[data-dashboard]")
    assert "JavaScript" in dashboard.inner_text()
    assert page.locator("[data-dashboard-body]").is_hidden() and page.locator("[data-due-badge]").is_hidden()
    page.goto(site_url + "nl/questions/software-stack-order/")
    assert page.get_by_role("link", name="Volgende vraag").is_visible()
    assert page.locator("[data-keys]").is_hidden(), "no shortcuts are offered where none work"
    context.close()


# A returning reader's page with all it loads, the list of the site's questions that the due
# count fetches and the scheduler included: at most 40 KB gzipped.
PAGE_WEIGHT = 40 * 1024


@pytest.mark.parametrize("path", ["nl/", PRACTICE, "nl/review/", "nl/questions/data-parallelism/", "nl/topics/ai-hardware-stack/", "nl/flashcards/", "nl/exam/"])
def test_a_page_with_all_it_loads_stays_under_40_kb_gzipped(phone, sample_site, site_url, path):
    """Every same-origin response of the page while it loads and is answered on (the scheduler
    included), each gzipped: what a reader's first visit costs. The service worker and what it
    stores for later are not the page's."""
    # The record goes in from a page with no script, so that nothing plans its answers before
    # the page under test opens (the review page plans them as it starts).
    opened = phone(
        "robots.txt", init="navigator.serviceWorker && navigator.serviceWorker.register && (navigator.serviceWorker.register = () => new Promise(() => {}));"
    )
    page = opened.page
    put(page, review_record())  # answers never scheduled: every page loads the scheduler
    loaded: set[str] = set()
    page.on("response", lambda r: loaded.add(urlparse(r.url).path))
    with page.expect_response(lambda response: "ts-fsrs" in response.url):
        page.goto(site_url + path)
    page.wait_for_load_state("networkidle")
    if page.locator(".choice-button:visible").count():
        page.locator(".choice-button:visible").first.tap()
        page.wait_for_load_state("networkidle")
    sizes = {}
    for url_path in loaded:
        file = sample_site / url_path.removeprefix("/repo/")
        if file.is_dir():
            file = file / "index.html"
        sizes[url_path] = len(gzip.compress(file.read_bytes(), 9))
    total = sum(sizes.values())
    assert any("ts-fsrs" in p for p in sizes), sizes
    assert total < PAGE_WEIGHT, f"{path}: {total} bytes gzipped: {sorted(sizes.items(), key=lambda kv: -kv[1])}"
