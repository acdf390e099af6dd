"""Study features (SPEC 5a): answering in place, memory shared by the languages, states on
every question list, the review page with FSRS, export, import and reset, bad storage, the
keyboard and pages without JavaScript. The scheduler glue's unit tests run under node."""

import gzip
import json
import re
import shutil
import subprocess
import time

import pytest
from conftest import ROOT
from playwright.sync_api import expect
from test_accessibility import violations
from test_browser import focus_by_tab

KEY = "studysite:/repo/"
QUESTION = "questions/data-parallelism/"
DAY_MS = 24 * 3600 * 1000


def test_scheduler_and_storage_unit_tests_pass_under_node():
    node = shutil.which("node")
    if not node:
        pytest.fail("node is needed for the study modules' unit tests (tests/js/)")
    files = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests/js").glob("*.test.mjs"))
    assert files, "no node tests found"
    # The files named and the TAP reporter asked for: a newer node takes a folder for a module and reports otherwise
    result = subprocess.run([node, "--test", "--test-reporter=tap", *files], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"^# fail 0$", result.stdout, re.M)


def test_the_answer_is_only_inside_the_reveal(sample_site):
    html = (sample_site / "nl" / QUESTION / "index.html").read_text(encoding="utf-8")
    choices = html[html.index('<ol class="choices"') : html.index("</ol>", html.index('<ol class="choices"'))]
    assert "data-correct" not in html and "data-answer" not in choices
    reveal = html[html.index('<details class="reveal">') :]
    assert "data-answer=" in reveal[: reveal.index("</details>")]


def test_a_question_page_stays_under_20_kb_gzipped(sample_site):
    page = sample_site / "nl" / QUESTION / "index.html"
    html = page.read_text(encoding="utf-8")
    files = [page] + [(page.parent / src).resolve() for src in re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', html)]
    modules = [f for f in files if f.parent.name.startswith("js.")]
    while modules:  # follow the static imports of the module scripts
        module = modules.pop()
        for name in re.findall(r'^import .* from "\./([\w.]+)";$', module.read_text(encoding="utf-8"), re.M):
            if (module.parent / name) not in files:
                files.append(module.parent / name)
                modules.append(module.parent / name)
    assert not any("vendor" in str(f) for f in files), "the scheduler loads only where it schedules"
    total = sum(len(gzip.compress(f.read_bytes(), 9)) for f in files)
    assert total < 20 * 1024, f"{total} bytes gzipped: {[f.name for f in files]}"


# -- in the browser ---------------------------------------------------------------


def errors(opened) -> list[str]:
    """Console errors, failed requests and HTTP errors (conftest.recording_errors)."""
    return opened.errors


def answer_index(page, scope="") -> int:
    return int(page.locator(f"{scope} .reveal [data-answer]").first.get_attribute("data-answer"))


def choose(page, index: int, scope=""):
    page.locator(f"{scope} .choices li").nth(index).locator("button").click()


def stored(page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem({KEY!r})") or "null")


def put(page, record: dict):
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(record)])


def record_with(attempts: dict) -> dict:
    return {"format": "studysite-progress", "version": 1, "attempts": attempts, "settings": {"shuffle": False}, "schedule": {}}


@pytest.mark.browser
def test_answer_in_nl_and_see_it_on_fr(open_page, site_url, noon):
    opened = open_page("nl/" + QUESTION)
    page = opened.page
    answer = answer_index(page)
    wrong = (answer + 1) % 3
    assert not page.locator(".explanation").is_visible()
    choose(page, wrong)
    letter = "ABC"[answer]
    assert page.locator("[data-result]").inner_text() == f"Niet goed. Het antwoord is {letter}."
    assert page.locator("[data-result]").get_attribute("role") == "status"
    assert page.locator(".choices li").nth(wrong).locator(".mark").inner_text().endswith("Jouw antwoord: fout")
    assert page.locator(".choices li").nth(answer).locator(".mark").inner_text().endswith("Het goede antwoord")
    assert page.locator(".explanation").is_visible()
    assert page.locator(".reveal > summary").inner_text() == "Antwoord en toelichting verbergen"
    attempts = stored(page)["attempts"]["data-parallelism"]
    assert [(a["choice"], a["correct"]) for a in attempts] == [(wrong, False)]
    page.goto(site_url + "fr/" + QUESTION)
    assert page.locator("[data-own-state]").inner_text() == "Votre dernière réponse à cette question était fausse."
    page.goto(site_url + "fr/topics/ai-hardware-stack/")
    item = page.locator(".question-list li", has=page.locator("a[href$='/data-parallelism/']"))
    assert item.locator(".state").inner_text() == "Fausse"
    assert errors(opened) == []


@pytest.mark.browser
def test_the_topic_page_and_home_show_each_state_and_the_counts(open_page, site_url, noon):
    page = open_page("nl/").page
    page.wait_for_load_state("networkidle")
    now = noon
    put(
        page,
        record_with(
            {
                "data-parallelism": [{"choice": 0, "correct": True, "time": now - 1000}],
                "all-reduce": [{"choice": 2, "correct": False, "time": now - 1000}],
                "tensor-parallelism": [{"choice": 0, "correct": True, "time": now - 20 * DAY_MS}],
            }
        ),
    )
    page.goto(site_url + "nl/review/")  # works out the schedule: tensor-parallelism is due
    page.wait_for_selector("[data-list] li")
    page.goto(site_url + "nl/topics/ai-hardware-stack/")
    states = dict(
        page.locator(".question-list li").evaluate_all(
            "items => items.map(li => [li.querySelector('a').pathname.split('/').at(-2), li.querySelector('.state').textContent])"
        )
    )
    assert states["data-parallelism"] == "Goed"
    assert states["all-reduce"] == "Fout"
    assert states["tensor-parallelism"] == "Te herhalen"
    assert states["systolic-array"] == "Nog niet geprobeerd"
    total = len(states)
    assert page.locator("[data-topic-progress]").inner_text() == f"3 van {total} beantwoord, 2 goed, 1 te herhalen"
    page.goto(site_url + "nl/")
    card = page.locator(".card", has=page.locator("a[href$='topics/ai-hardware-stack/']"))
    assert card.locator("[data-topic-progress]").inner_text() == f"3 van {total} beantwoord, 2 goed, 1 te herhalen"


@pytest.mark.browser
def test_search_results_carry_the_state_of_their_questions(open_page, site_url):
    opened = open_page("nl/")
    page = opened.page
    put(page, record_with({"systolic-array": [{"choice": 0, "correct": False, "time": int(time.time() * 1000)}]}))
    page.goto(site_url + "nl/search/?q=systolic")
    result = page.locator(".search-results li", has=page.locator("a[href$='/nl/questions/systolic-array/']"))
    expect(result.locator(".state")).to_have_text("Fout", timeout=30000)  # once Pagefind has loaded
    glossary = page.locator(".search-results li", has=page.locator("a[href*='/nl/glossary/']")).first
    expect(glossary.locator(".state")).to_have_count(0)  # a term is no question
    assert errors(opened) == []


@pytest.mark.browser
def test_the_review_page_lists_a_mistake(open_page, site_url):
    opened = open_page("fr/questions/all-reduce/")
    page = opened.page
    choose(page, (answer_index(page) + 1) % page.locator(".choices li").count())
    page.goto(site_url + "fr/review/")
    page.wait_for_selector("[data-review]", state="visible")
    mistakes = page.locator("[data-list] a")
    assert mistakes.count() == 1
    assert mistakes.first.evaluate("a => a.pathname") == "/repo/fr/questions/all-reduce/"
    assert page.locator("[data-list-none]").is_hidden()
    assert errors(opened) == []


@pytest.mark.browser
def test_a_review_session_updates_the_schedule(open_page, site_url):
    opened = open_page("nl/")
    page = opened.page
    page.wait_for_load_state("networkidle")
    past = int(time.time() * 1000) - 3 * DAY_MS
    put(page, record_with({"kv-cache": [{"choice": 0, "correct": False, "time": past}]}))
    page.goto(site_url + "nl/review/")
    page.wait_for_selector("[data-list] li")
    assert page.locator("[data-list] a").inner_text().startswith("Waarom")
    before = stored(page)["schedule"]["kv-cache"]
    assert before["due"] <= time.time() * 1000
    page.get_by_role("button", name="Herhaalsessie starten").click()
    page.wait_for_selector("[data-session-items] [data-item]:visible")
    assert page.locator("#review-progress").get_attribute("max") == "1"
    scope = "[data-session-items] [data-item]"
    choose(page, answer_index(page, scope), scope)
    assert page.locator(f"{scope} [data-result]").inner_text().startswith("Goed!")
    page.locator(f"{scope} [data-next]").click()
    assert page.locator("[data-end] [data-score]").inner_text() == "Je had 100% goed: 1 van 1."
    # planned after the answer, not in its click (a function: the pages' CSP forbids the eval a polled expression needs)
    page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).schedule['kv-cache'].count === 2", arg=KEY)
    after = stored(page)["schedule"]["kv-cache"]
    assert after["count"] == 2 and after["due"] > time.time() * 1000 + DAY_MS
    assert page.locator("[data-list-none]").is_visible()
    assert errors(opened) == []


@pytest.mark.browser
def test_export_reset_and_import_restore_the_progress(open_page, site_url, tmp_path):
    opened = open_page("nl/review/")
    page = opened.page
    page.wait_for_selector("[data-review]", state="visible")
    now = int(time.time() * 1000)
    put(page, record_with({"all-reduce": [{"choice": 1, "correct": False, "time": now}], "kv-cache": [{"choice": 0, "correct": True, "time": now}]}))
    page.reload()
    page.wait_for_selector("[data-list] li")
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporteren als bestand").click()
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    assert set(json.loads(exported.read_text())["attempts"]) == {"all-reduce", "kv-cache"}
    page.get_by_role("button", name="Mijn voortgang wissen…").click()
    page.get_by_role("button", name="Annuleren").click()
    assert len(stored(page)["attempts"]) == 2, "cancel keeps everything"
    page.get_by_role("button", name="Mijn voortgang wissen…").click()
    page.get_by_role("button", name="Ja, alles wissen").click()
    assert stored(page)["attempts"] == {}
    assert page.locator("[data-list] li").count() == 0
    page.set_input_files("[data-import]", str(exported))
    page.wait_for_selector("[data-list] li")
    assert "Voortgang geïmporteerd" in page.locator("[data-import-result]").inner_text()
    assert set(stored(page)["attempts"]) == {"all-reduce", "kv-cache"}
    assert errors(opened) == []


@pytest.mark.browser
@pytest.mark.parametrize(
    "content,message",
    [
        ("this is not json", "geen voortgangsbestand"),
        (
            '{"format": "studysite-progress", "version": 1, "attempts": {"not-here": [{"choice": 0, "correct": true, "time": 5}]}}',
            "geen voortgang van deze site",
        ),
        (
            '{"format": "studysite-progress", "version": 1, "attempts": {"__proto__": [{"choice": 0, "correct": true, "time": 5}], "<script>": []}}',
            "bevat geen antwoorden",
        ),
        ('{"format": "studysite-progress", "version": 99, "attempts": {}}', "nieuwere versie"),
    ],
)
def test_a_wrong_foreign_or_hostile_file_is_refused_and_changes_nothing(open_page, tmp_path, content, message):
    page = open_page("nl/review/").page
    page.wait_for_selector("[data-review]", state="visible")
    put(page, record_with({"all-reduce": [{"choice": 1, "correct": False, "time": 1_700_000_000_000}]}))
    page.reload()
    page.wait_for_selector("[data-review]", state="visible")
    before = page.evaluate(f"localStorage.getItem({KEY!r})")
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    page.set_input_files("[data-import]", str(bad))
    page.wait_for_selector("[data-import-result]:not(:empty)")
    assert message in page.locator("[data-import-result]").inner_text()
    assert "Er is niets veranderd." in page.locator("[data-import-result]").inner_text()
    assert page.evaluate(f"localStorage.getItem({KEY!r})") == before


DISABLE_STORAGE = "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('denied', 'SecurityError'); }});"


@pytest.mark.browser
def test_with_storage_disabled_answering_works_and_the_page_says_so_once_and_where_an_answer_is_lost(open_page, site_url):
    opened = open_page("nl/" + QUESTION)
    page = opened.page
    page.wait_for_load_state("networkidle")
    page.context.add_init_script(DISABLE_STORAGE)
    page.reload()
    notice = page.locator("[data-storage-notice]")
    assert notice.count() == 1 and "niets onthouden" in notice.inner_text()
    choose(page, answer_index(page))
    assert page.locator("[data-result]").inner_text().startswith("Goed!")
    page.goto(site_url + "nl/topics/ai-hardware-stack/")
    assert page.locator("[data-storage-notice]").count() == 0, "told once is enough"
    assert page.locator(".question-list .state").count() > 0
    page.goto(site_url + "nl/practice/gpu-programming/")
    assert page.locator("[data-storage-notice]").count() == 0
    page.locator("[data-item]:visible .choices li").first.locator("button").click()
    assert page.locator("[data-item]:visible [data-next]").is_visible()
    assert page.locator("[data-storage-notice]").count() == 1, "an answer not kept is told of where it is given"
    assert errors(opened) == []


@pytest.mark.browser
@pytest.mark.parametrize("garbage", ["{not json", '{"format": "studysite-progress", "version": 1, "attempts": "everything"}', "null", '"text"'])
def test_corrupt_storage_is_set_aside_and_the_page_works(open_page, site_url, garbage):
    opened = open_page("nl/" + QUESTION)
    page = opened.page
    page.wait_for_load_state("networkidle")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, garbage])
    page.reload()
    choose(page, answer_index(page))
    assert page.locator("[data-result]").inner_text().startswith("Goed!")
    assert stored(page)["attempts"]["data-parallelism"][0]["correct"] is True
    if garbage.startswith("{not") or garbage == '"text"' or garbage == "null":
        assert "kon niet worden gelezen" in page.locator("[data-storage-notice]").inner_text()
        kept = page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith({KEY + ':unreadable:'!r})).map(k => localStorage.getItem(k))")
        assert kept == [garbage], "what could not be read is kept aside"
    page.goto(site_url + "nl/review/")
    page.wait_for_selector("[data-review]", state="visible")
    assert errors(opened) == []


@pytest.mark.browser
def test_a_newer_format_is_left_untouched(open_page):
    opened = open_page("nl/" + QUESTION)
    page = opened.page
    newer = json.dumps({"format": "studysite-progress", "version": 7, "attempts": {}, "future": True})
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, newer])
    page.reload()
    choose(page, 0)
    assert "nieuwere versie" in page.locator("[data-storage-notice]").inner_text()
    assert page.evaluate(f"localStorage.getItem({KEY!r})") == newer
    page.goto(page.url.replace(QUESTION, "review/"))  # erasing leaves it too, and says so
    page.get_by_role("button", name="Mijn voortgang wissen…").click()
    page.get_by_role("button", name="Ja, alles wissen").click()
    assert "nieuwere versie" in page.locator("[data-import-result]").inner_text()
    assert page.evaluate(f"localStorage.getItem({KEY!r})") == newer


@pytest.mark.browser
def test_keyboard_only_from_question_to_practice_to_review(open_page, site_url):
    opened = open_page("fr/" + QUESTION)
    page = opened.page
    answer = answer_index(page)
    focus_by_tab(page, ".choice-button")
    for _ in range((answer + 1) % 3):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("[data-result]").inner_text().startswith("Ce n'est pas ça")
    assert page.evaluate("document.activeElement.matches('[data-result]')"), "the result is read out, and Enter goes on from it"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('.reveal > summary')"), "the explanation's reveal comes next"
    page.goto(site_url + "fr/practice/gpu-programming/")
    page.wait_for_selector(".practice.is-running")  # practice.js, imported after the load: no buttons before it
    count = page.locator("[data-item]").count()
    for index in range(count):
        focus_by_tab(page, "[data-item]:not([hidden]) .choice-button")
        page.keyboard.press("Space" if index % 2 else "Enter")
        assert page.evaluate("document.activeElement.matches('[data-next]')")
        page.keyboard.press("Enter")
        if index + 1 < count:
            assert page.evaluate("document.activeElement.matches('[data-item-heading]')")
    assert page.evaluate("document.activeElement.matches('[data-end-heading]')")
    focus_by_tab(page, "[data-missed-list] a, [data-again]")
    page.goto(site_url + "fr/review/")
    page.wait_for_selector("[data-review]", state="visible")  # review.js shows it once it has scheduled: Tab skips it before
    focus_by_tab(page, "[data-export]")
    focus_by_tab(page, "[data-reset]")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "confirm-text"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert stored(page)["attempts"] == {}
    assert errors(opened) == []


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations_after_answering_and_on_review(open_page, site_url, scheme):
    page = open_page("nl/" + QUESTION, color_scheme=scheme, bypass_csp=True).page
    choose(page, (answer_index(page) + 1) % 3)
    assert violations(page) == []
    page.goto(site_url + "nl/topics/ai-hardware-stack/")
    assert violations(page) == []
    page.goto(site_url + "nl/practice/gpu-programming/")
    page.locator("[data-item]:visible .choices li").first.locator("button").click()
    assert violations(page) == []
    page.goto(site_url + "nl/review/")
    page.wait_for_selector("[data-list] li")
    page.get_by_role("button", name="Mijn voortgang wissen…").click()
    assert violations(page) == []


@pytest.mark.browser
def test_nothing_overflows_on_a_phone_after_answering(open_page, site_url):
    page = open_page("fr/" + QUESTION, width=375).page
    choose(page, (answer_index(page) + 1) % 3)
    for path in ["fr/" + QUESTION, "fr/review/", "fr/practice/gpu-programming/", "fr/topics/ai-hardware-stack/"]:
        if path != "fr/" + QUESTION:
            page.goto(site_url + path)
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{path}: {widths}"


@pytest.mark.browser
def test_without_javascript_the_pages_say_what_they_are(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "nl/practice/gpu-programming/")
    intro = page.locator("[data-intro]").inner_text()
    assert "uitklapknop" in intro and "controle" not in intro.lower()
    assert page.locator("[data-item]").count() == 7
    assert all(page.locator("[data-item]").nth(i).is_visible() for i in range(7))
    assert page.locator(".choices button").count() == 0 and page.locator("[data-controls]").is_hidden()
    page.locator("[data-item]").first.locator(".reveal > summary").click()
    assert page.locator("[data-item]").first.locator(".explanation").is_visible()
    page.goto(site_url + "fr/practice/gpu-programming/")
    assert "volet dépliable" in page.locator("[data-intro]").inner_text()
    page.goto(site_url + "nl/" + QUESTION)
    assert page.locator(".choices button").count() == 0
    assert page.locator(".reveal > summary").inner_text() == "Antwoord en toelichting tonen"
    page.goto(site_url + "nl/review/")
    assert "JavaScript" in page.locator("noscript, main").first.inner_text()
    assert page.locator("[data-review]").is_hidden()
    context.close()


def test_practice_pages_link_terms_as_question_pages_do(sample_site):
    html = (sample_site / "nl" / "practice" / "ai-hardware-stack" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="term" href="\.\./\.\./glossary/[\w-]+/"', html) or 'href="../../glossary/' in html


def test_the_pages_give_the_daily_study_what_it_needs(sample_site):
    """The home cards name their topic and practice page, every page's study strings the
    scheduler's path, the practice page its topic; the review page no longer needs its own."""
    home = (sample_site / "nl" / "index.html").read_text(encoding="utf-8")
    assert '<li class="card" data-topic="ai-hardware-stack" data-practice-page="../nl/practice/ai-hardware-stack/">' in home
    strings = json.loads(re.search(r'<script type="application/json" id="study-strings">(.*?)</script>', home).group(1))
    scheduler = sample_site / strings["scheduler"]
    assert strings["scheduler"].startswith("assets/vendor.") and scheduler.is_file()
    assert "{due}" in strings["counts"] and "{count}" in strings["badge"]
    practice = (sample_site / "nl" / "practice" / "gpu-programming" / "index.html").read_text(encoding="utf-8")
    assert 'data-practice data-topic="gpu-programming"' in practice
    review = (sample_site / "nl" / "review" / "index.html").read_text(encoding="utf-8")
    assert "data-scheduler" not in review and "data-scheduler" not in practice
    assert 'class="file-input"' in review and '<label for="import-file" class="button secondary">' in review
