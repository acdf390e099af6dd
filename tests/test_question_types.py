"""Every question type in a real browser, on a site of one question of each type
(tests/sites/types/, English and Arabic), at 375 px: on its own page, answered wrong (order
and match by keyboard alone) and told in words what each part was, with nothing moving as
the controls appear and axe finding nothing; in practice, each answered right, axe in the
dark scheme, and the page's weight with every type's module; in a review session, with the
keys' help of the question in view; honest grading; order and match mirrored in Arabic."""

import gzip
import json
from urllib.parse import urlparse

import pytest
from conftest import pages_of
from test_accessibility import violations
from test_browser import focus_by_tab
from test_study_app import PAGE_WEIGHT, PHONE

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

KEY = "studysite:/types/"
DAY_MS = 24 * 3600 * 1000
# The layout shifts so far of anything in the question (the links' state labels below it are markers.js's).
MOVED_IN_QUESTION = """() => {
  const observer = new PerformanceObserver(() => {});
  observer.observe({ type: "layout-shift", buffered: true }); // the shifts so far, queued at once
  const shifts = observer.takeRecords();
  observer.disconnect();
  return shifts.flatMap((shift) => shift.sources.map((source) => source.node))
    .filter((node) => node && node.nodeType === 1 && node.closest(".question")).map((node) => node.outerHTML.slice(0, 80));
}"""
TYPES = {"single": "pick-one", "multiple": "pick-all", "true-false": "gpu-mouse", "typed": "gcd", "numeric": "gravity", "order": "steps", "match": "pairs"}


@pytest.fixture
def open_types(browser, types_url):
    """Open a page of the types site on a phone, console errors and failed requests recorded
    (axe is added to the page: bypass_csp)."""
    with pages_of(browser, types_url, viewport=PHONE, bypass_csp=True, has_touch=True) as open_:
        yield open_


def stored(page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem({KEY!r})") or "null")


def attempts(page, question: str) -> list[dict]:
    return (stored(page) or {"attempts": {}})["attempts"].get(question, [])


def result_of(scope):
    return scope.locator("[data-result]")


def place_by_keys(page, scope, name: str, step: int):
    """Tab to an item's Move button and move it by the arrow keys alone."""
    button = "Move up" if step < 0 else "Move down"
    focus_by_tab(page, f"[data-order] .move[aria-label={button + ': ' + name!r}]:not(:disabled)")
    for _ in range(abs(step)):
        page.keyboard.press("ArrowUp" if step < 0 else "ArrowDown")


def put_in_order(scope):
    """Each item moved up by its button until it is in its place (the buttons, by pointer)."""
    items = scope.locator("[data-order] > li")
    for place in range(items.count()):
        item = scope.locator(f"[data-order] > li[data-position='{place}']")
        while item.evaluate("li => Array.prototype.indexOf.call(li.parentElement.children, li)") > place:
            item.locator(".move[data-step='-1']").click()


def check(scope):
    scope.get_by_role("button", name="Check").click()


def write(scope, text: str):
    field = scope.get_by_label("Your answer")
    field.fill(text)
    field.press("Enter")


def pick_all_right(page, scope):
    for index in (0, 2):
        scope.locator(".choice-button").nth(index).click()
    check(scope)


def order_right(page, scope):
    put_in_order(scope)
    check(scope)


def match_right(page, scope):
    for index in range(3):
        scope.locator("select").nth(index).select_option(str(index))
    check(scope)


# What answers each type rightly, given its question's scope (by pointer; by keys on its own page).
RIGHT = {
    "single": lambda page, scope: scope.locator(".choices li").nth(1).locator("button").click(),
    "multiple": pick_all_right,
    "true-false": lambda page, scope: scope.get_by_role("button", name="False").click(),
    "typed": lambda page, scope: write(scope, " SIX "),
    "numeric": lambda page, scope: write(scope, "9,8"),
    "order": order_right,
    "match": match_right,
}


def answer_pick_all_wrong_by_keys(page, scope):
    page.keyboard.press("Enter")
    expect(result_of(scope)).to_have_text("Choose at least one answer, then check.")
    assert attempts(page, "pick-all") == [], "nothing picked is no answer"
    page.keyboard.press("1")
    page.keyboard.press("b")
    expect(scope.locator(".choice-button").nth(1)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")


def answer_typed_wrong(page, scope):
    write(scope, "")
    expect(result_of(scope)).to_have_text("Type your answer first.")
    write(scope, "seven")


def answer_numeric_wrong(page, scope):
    write(scope, "ten")
    expect(result_of(scope)).to_have_text("Write a number, such as 12.5.")
    assert attempts(page, "gravity") == [], "no number is no answer"
    write(scope, "9,7")


def answer_order_wrong_by_keys(page, scope):
    place_by_keys(page, scope, "Forward pass", -1)  # shown: Backward pass, Loss, Forward pass, Update
    expect(scope.locator("[role=status]:not([data-result])")).to_have_text("Forward pass: place 2 of 4")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Move up: Forward pass", "the focus moves with the item"
    focus_by_tab(page, "[data-check-line] button")
    page.keyboard.press("Enter")


def answer_match_wrong_by_keys(page, scope):
    focus_by_tab(page, "select")
    page.keyboard.press("ArrowDown")  # GPU: A. sends packets
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # SSD: B. stores data; NIC left without a pair
    focus_by_tab(page, "[data-check-line] button")
    page.keyboard.press("Enter")


# type: (answer wrong, the result, {choice or part: its words}, what is kept)
WRONG = {
    "single": (
        lambda page, scope: scope.locator(".choices li").first.tap(),
        "Not right. The answer is B.",
        {0: ["Your answer: wrong", "Disks store files."], 1: ["The right answer"]},
        {"choice": 0},
    ),
    "multiple": (
        answer_pick_all_wrong_by_keys,
        "Not right. The answer is A and C. Missed: C. Picked but not right: B.",
        {0: ["Your answer: right"], 1: ["Your answer: wrong", "A mouse points."], 2: ["A right answer you missed"]},
        {"given": [0, 1]},
    ),
    "true-false": (
        lambda page, scope: page.keyboard.press("1"),
        "Not right. The answer is False.",
        {0: ["Your answer: wrong"], 1: ["The right answer"]},
        {"choice": 0},
    ),
    "typed": (answer_typed_wrong, "Not accepted. The answer is 6.", {}, {"given": "seven"}),
    "numeric": (answer_numeric_wrong, "Not right. The answer is 9.81 m/s².", {}, {"given": "9,7"}),
    "order": (
        answer_order_wrong_by_keys,
        "Not right. Out of place: Backward pass, Forward pass, and Loss.",
        {0: ["Out of place: its place is 3"], 1: ["Out of place: its place is 1"], 3: ["In its place"]},
        {"given": [2, 0, 1, 3]},
    ),
    "match": (
        answer_match_wrong_by_keys,
        "Not right. Wrong pairs: GPU – sends packets and NIC – ?.",
        {0: ["Wrong: its pair is computes in parallel"], 1: ["Your answer: right"], 2: ["Wrong: its pair is sends packets"]},
        {"given": [2, 1, -1]},
    ),
}
PARTS = {"single": ".choices > li", "multiple": ".choices > li", "true-false": ".choices > li", "order": "[data-order] > li", "match": "[data-left]"}


@pytest.mark.parametrize("kind", list(TYPES))
def test_each_type_on_its_page_answered_wrong_says_what_each_part_was(open_types, kind):
    opened = open_types(f"en/questions/{TYPES[kind]}/")
    page = opened.page
    page.wait_for_load_state("networkidle")
    assert page.evaluate(MOVED_IN_QUESTION) == [], "nothing in the question moves as the type's controls appear"
    scope = page.locator("article.question")
    answer, said, parts, kept = WRONG[kind]
    answer(page, scope)
    expect(result_of(scope)).to_have_text(said)
    assert scope.locator("details.reveal").evaluate("d => d.open"), "the reveal opens after the answer"
    for index, words in parts.items():
        expect(scope.locator(PARTS[kind]).nth(index).locator("[data-mark]")).to_have_text(words)
    page.wait_for_function("([key, id]) => (JSON.parse(localStorage.getItem(key)) || {attempts: {}}).attempts[id]", arg=[KEY, TYPES[kind]])
    [attempt] = attempts(page, TYPES[kind])
    assert {k: v for k, v in attempt.items() if k != "time"} == {"correct": False, **kept}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "nothing overflows a phone"
    assert violations(page) == []
    assert opened.errors == []


def test_practice_answers_every_type_rightly_and_weighs_little(open_types, types_site):
    """In the dark, each type answered right (numeric after a look at the answer: a miss),
    axe after each; the page with every type's module and the scheduler, answered by
    pointer, stays within the pages' weight."""
    opened = open_types("en/practice/basics/", scheme="dark")
    page = opened.page
    loaded: set[str] = set()
    page.on("response", lambda response: loaded.add(urlparse(response.url).path))
    page.reload()  # all it loads, from the start
    page.wait_for_selector(".practice.is-running")
    for kind in TYPES:
        item = page.locator("[data-item]:visible")
        assert item.get_attribute("data-question") == TYPES[kind]
        expect(item.locator(".question")).to_have_attribute("data-type", kind)
        if kind == "numeric":
            item.locator(".reveal > summary").click()
        RIGHT[kind](page, item)
        expect(item.locator("[data-result]")).to_contain_text("Right!")
        if kind == "numeric":
            expect(item.locator("[data-result]")).to_have_text("Right! The answer is 9.81 m/s². Counted as a miss: the answer was shown first.")
        assert violations(page) == [], kind
        item.locator("[data-next]").click()
    expect(page.locator("[data-score]")).to_have_text("You got 86% right: 6 of 7.")
    expect(page.locator("[data-missed-list] a")).to_have_text(["How large is g, in m/s²?"])
    page.wait_for_function("(key) => Object.keys(JSON.parse(localStorage.getItem(key)).schedule).length === 7", arg=KEY)
    kept = stored(page)["attempts"]
    assert [kept[q][0]["correct"] for q in TYPES.values()] == [True, True, True, True, False, True, True]
    assert kept["gravity"][0]["shown"] is True and kept["gcd"][0]["given"] == "SIX"
    assert {path.rsplit("/", 1)[-1] for path in loaded if "/questions/" in path} >= {"single.js", "multiple.js", "order.js", "match.js", "field.js"}
    weight = sum(
        len(gzip.compress((types_site / path.removeprefix("/types/")).joinpath(*([] if "." in path.rsplit("/", 1)[-1] else ["index.html"])).read_bytes(), 9))
        for path in loaded
    )
    assert any("ts-fsrs" in path for path in loaded) and weight < PAGE_WEIGHT, f"{weight} bytes gzipped: {sorted(loaded)}"
    assert opened.errors == []


def test_a_review_session_brings_every_type_with_the_keys_of_each(open_types, types_url):
    opened = open_types("en/")
    page = opened.page
    page.wait_for_load_state("networkidle")
    past = int(page.evaluate("Date.now()")) - 3 * DAY_MS
    record = {"format": "studysite-progress", "version": 3, "attempts": {q: [{"correct": False, "time": past}] for q in TYPES.values()}}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(record)])
    page.goto(types_url + "en/review/")
    page.get_by_role("button", name="Start the review session").click()
    help_rows = page.locator("[data-keys-panel] > div:visible dd")
    for kind in TYPES:
        item = page.locator("[data-session-items] [data-item]:visible")
        expect(item.locator(".question")).to_have_attribute("data-type", kind)
        if kind in ("multiple", "order"):  # the keys' help: the rows of the question in view, and those of every question
            page.keyboard.press("?")
            expect(help_rows.first).to_have_text("Select or clear a choice" if kind == "multiple" else "On an item's Move button: move the item")
            assert "Choose an answer" not in help_rows.all_inner_texts() and "Next question" in help_rows.all_inner_texts()
            page.keyboard.press("?")
        RIGHT[kind](page, item)
        expect(item.locator("[data-result]")).to_contain_text("Right!")
        item.locator("[data-next]").click()
    expect(page.locator("[data-end] [data-score]")).to_have_text("You got 100% right: 7 of 7.")
    assert all(len(stored(page)["attempts"][q]) == 2 for q in TYPES.values())
    assert opened.errors == []


def test_an_answer_given_after_the_reveal_was_opened_counts_as_a_miss(open_types):
    opened = open_types("en/questions/pick-one/")
    page = opened.page
    page.keyboard.press("r")  # keys.js, loaded on this first key, opens the answer
    expect(page.locator(".explanation")).to_be_visible()
    page.keyboard.press("r")
    expect(page.locator(".explanation")).to_be_hidden()
    page.locator(".choices li").nth(1).locator("button").click()  # the answer it showed
    expect(page.locator("[data-result]")).to_have_text("Right! The answer is B. Counted as a miss: the answer was shown first.")
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key)) || {schedule: {}}).schedule['pick-one']", arg=KEY)
    record = stored(page)
    [attempt] = record["attempts"]["pick-one"]
    assert (attempt["choice"], attempt["correct"], attempt["shown"]) == (1, False, True)
    assert record["schedule"]["pick-one"]["due"] - attempt["time"] <= DAY_MS, "scheduled as Again: tomorrow"
    page.reload()
    expect(page.locator("[data-own-state]")).to_have_text("Your last answer to this question was wrong.")
    assert opened.errors == []


@pytest.mark.parametrize("kind", ["order", "match"])
def test_order_and_match_are_mirrored_right_to_left_and_work_by_keys(open_types, kind):
    opened = open_types(f"ar/questions/{TYPES[kind]}/")
    page = opened.page
    assert page.evaluate("document.documentElement.dir") == "rtl"
    if kind == "order":
        first = page.locator("[data-order] > li").first
        expect(first.locator(".moves")).to_be_visible()
        text, moves = first.locator(".item-text").bounding_box(), first.locator(".moves").bounding_box()
        assert moves["x"] + moves["width"] <= text["x"], "the buttons on the left, where the line ends"
        was = first.get_attribute("data-position")
        focus_by_tab(page, ".move:not(:disabled)")
        page.keyboard.press("ArrowDown")
        expect(page.locator("[data-order] > li").nth(1)).to_have_attribute("data-position", was or "")
    else:
        left = page.locator("[data-left]").first
        expect(left.locator("select")).to_be_visible()
        label, select = left.locator("label").bounding_box(), left.locator("select").bounding_box()
        assert select["x"] + select["width"] <= label["x"], "the item on the right, its list to its left"
        focus_by_tab(page, "select")
        page.keyboard.press("ArrowDown")
    focus_by_tab(page, "[data-check-line] button")
    page.keyboard.press("Enter")
    expect(page.locator("[data-result]")).not_to_have_text("")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert opened.errors == []
