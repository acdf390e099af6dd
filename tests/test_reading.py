"""Reading the site on a phone and a desktop: the header (its search, a title that fits),
the search page, comparison tables and term pages; in Chromium where CSS or JavaScript acts."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import LOADING_MS, QuietServer, _QuietHandler, minimal_files, next_frame, run_cli, with_timeouts, write_files
from test_accessibility import violations

PHONE = {"width": 375, "height": 667}
SHORT_TITLES = {"nl": ("AI-studiegids", "AI-gids"), "fr": ("Guide d'étude de l'IA", "Guide IA")}
HEADER_PAGES = ("{lang}/", "{lang}/questions/data-parallelism/", "{lang}/glossary/data-parallelism/", "{lang}/search/", "{lang}/offline/")


@pytest.fixture
def new_page(browser, site_url):
    """A page in a fresh browser context (a viewport, JavaScript on or off) at a site path."""
    contexts = []

    def open_(path: str, viewport: dict | None = None, javascript: bool = True):
        context = browser.new_context(viewport=viewport or {"width": 1200, "height": 900}, java_script_enabled=javascript)
        with_timeouts(context)
        contexts.append(context)
        page = context.new_page()
        page.goto(site_url + path)
        return page

    yield open_
    for context in contexts:
        context.close()


# -- the header ---------------------------------------------------------------------------


@pytest.mark.browser
def test_every_page_has_the_header_search_form_to_its_language_search_page(new_page, site_url):
    for lang in ("nl", "fr"):
        for path in ("", "glossary/", "comparisons/parallelism-strategies/"):
            page = new_page(f"{lang}/{path}", javascript=False)
            form = page.locator("header form[role=search]")
            assert form.get_attribute("method") == "get"
            assert form.evaluate("(f) => f.action") == f"{site_url}{lang}/search/"
            field = form.locator("input[type=search]")
            assert field.get_attribute("name") == "q"
            assert form.locator(f"label[for={field.get_attribute('id')}]").inner_text()


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1200])
def test_the_header_search_works_without_javascript(new_page, site_url, width):
    page = new_page("fr/glossary/", {"width": width, "height": 667}, javascript=False)
    field = page.locator("#header-search-query")
    if not field.is_visible():  # a phone: the compact control opens it, a <details> needing no script
        page.locator(".header-search > summary").click()
    field.fill("systolique")
    field.press("Enter")
    page.wait_for_url("**/fr/search/?q=*")
    assert urlsplit(page.url).path.endswith("/repo/fr/search/")
    assert parse_qs(urlsplit(page.url).query) == {"q": ["systolique"]}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["nl", "fr"])
def test_the_header_is_one_line_at_375_px_with_the_title_whole(new_page, lang):
    full, short = SHORT_TITLES[lang]
    for path in HEADER_PAGES:
        page = new_page(path.format(lang=lang), PHONE)
        boxes = page.evaluate(
            """() => [".site-title", ".header-search > summary", ".disclosure:not(.header-search) > summary"].map((s) => {
                 const r = document.querySelectorAll(s)[0].getBoundingClientRect();
                 return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
               })"""
        )
        title, *controls = boxes
        assert all(box["bottom"] <= 62 for box in boxes), (path, boxes)  # one line in a bar of about 3.25rem
        assert title["right"] <= min(box["left"] for box in controls), (path, boxes)
        assert max(box["right"] for box in controls) <= 375 - 15, (path, boxes)
        link = page.locator(".site-title")
        assert page.locator(".title-short").is_visible() and page.locator(".title-short").inner_text() == short
        assert page.locator(".title-long").bounding_box()["width"] <= 1  # there for screen readers alone
        assert page.evaluate("(a) => getComputedStyle(a).overflow === 'visible' && a.getBoundingClientRect().height < 30", link.element_handle())
        assert page.get_by_role("link", name=full, exact=True).count() == 1  # its name is still the whole title


@pytest.mark.browser
def test_the_full_title_shows_on_a_desktop(new_page):
    page = new_page("fr/glossary/")
    assert page.locator(".site-title").inner_text() == "Guide d'étude de l'IA"
    assert page.locator("#header-search-query").is_visible()  # the field itself sits in the bar


@pytest.mark.browser
def test_on_a_phone_the_header_search_opens_with_its_field_focused(new_page):
    page = new_page("nl/questions/data-parallelism/", PHONE)
    assert not page.locator("#header-search-query").is_visible()
    page.get_by_role("group").filter(has=page.locator(".search-icon")).locator("summary").click()
    field = page.locator("#header-search-query")
    assert field.is_visible()
    page.wait_for_function("() => document.activeElement.id === 'header-search-query'")  # on the toggle event, a task after the click
    box = field.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["width"] > 200
    page.keyboard.type("systolic")
    page.keyboard.press("Enter")
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    assert page.locator("#search-query").input_value() == "systolic"


LONG_TITLES = {  # 60 characters, shown whole; longer ones, cut after a word
    "nl": "Basiskennis van kunstmatige intelligentie en machinaal leren",
    "fr": "Les bases de l'apprentissage automatique et de l'intelligence artificielle",
    "de": "Grundlagen der künstlichen Intelligenz und des maschinellen Lernens",
}
# Each line of the title the header shows, by the tops of its characters' boxes.
TITLE_LINES = """(link) => {
  const shown = [...link.querySelectorAll("[aria-hidden=true]")].find((span) => span.getClientRects().length) || link;
  const lines = new Map();
  for (const walker = document.createTreeWalker(shown, NodeFilter.SHOW_TEXT); walker.nextNode(); ) {
    const text = walker.currentNode;
    for (let i = 0; i < text.data.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const box = [...range.getClientRects()].find((rect) => rect.width > 0);
      if (box) lines.set(Math.round(box.top), (lines.get(Math.round(box.top)) || "") + text.data[i]);
    }
  }
  return [...lines.values()].map((line) => line.trim());
}"""


@pytest.fixture(scope="module")
def long_titles_url(tmp_path_factory):
    """A site in nl, fr and de without short titles, whose titles are 60 characters or more, served."""
    import functools
    import threading

    root = tmp_path_factory.mktemp("long-titles")
    site_yaml = "languages: [nl, fr, de]\nbase_url: https://example.org/repo/\n" + "".join(f"{lang}: {{title: \"{title}\"}}\n" for lang, title in LONG_TITLES.items())
    content = write_files(root / "content", minimal_files(**{"site.yaml": site_yaml}))
    assert run_cli("build", "--content", content, "--out", root / "repo", "--no-search").status == 0
    server = QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/repo/"
    server.shutdown()


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 375, 1280])
def test_a_long_title_fits_the_header_in_lines_of_whole_words(browser, long_titles_url, width):
    """SPEC 5, every page: a title of up to 60 characters wraps at its spaces and is shown
    whole; a longer one is cut after a word, with an ellipsis; on a phone it takes two lines
    at most, and the header stays at most 100 px tall."""
    context = browser.new_context(viewport={"width": width, "height": 667 if width < 400 else 800})
    page = context.new_page()
    for lang, title in LONG_TITLES.items():
        page.goto(f"{long_titles_url}{lang}/glossary/")
        lines = page.locator(".site-title").evaluate(TITLE_LINES)
        words = title.split()
        shown = " ".join(lines).removesuffix("…").split()
        assert all(word in words for line in lines for word in line.removesuffix("…").split()), (lang, lines)
        assert shown == words[: len(shown)] and (shown == words) == (len(title) <= 60), (lang, lines)
        assert len(lines) <= (2 if width < 400 else 3) and page.locator(".site-header").bounding_box()["height"] <= 100, (lang, lines)
        assert page.get_by_role("link", name=title, exact=True).count() == 1  # its name is the whole title
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


# -- the menu's due count, and what links to the comparisons ----------------------------


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_the_due_count_shows_on_the_menu_control_and_the_review_link_only_when_something_is_due(browser, site_url, viewport):
    from test_study import DAY_MS, put, record_with

    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(site_url + "nl/")
    page.wait_for_selector("[data-dashboard-body]:not([hidden])")
    summary = page.locator("details:has(.menu) > summary")
    assert page.locator("[data-due-count]").inner_text() == "0" and page.locator("[data-due-link]").is_hidden()  # no "0 Herhalen"
    assert summary.locator("[data-menu-badge]").is_hidden()
    put(page, record_with({"all-reduce": [{"choice": 0, "correct": False, "time": int(time.time() * 1000) - 2 * DAY_MS}]}))
    page.reload()
    badge = summary.locator("[data-menu-badge]")
    badge.locator("[aria-hidden=true]").filter(has_text="1").wait_for()  # once the page has planned the attempt: due yesterday
    assert badge.is_visible() and "(Vandaag te herhalen: 1)" in summary.text_content()  # in words for screen readers
    assert page.locator("[data-due-link]").is_visible()
    assert summary.bounding_box()["y"] + summary.bounding_box()["height"] <= 62  # still one line in the bar
    context.close()


def test_the_home_page_and_the_glossary_link_to_every_comparison(sample_site):
    for lang in ("nl", "fr"):
        for page in ("index.html", "glossary/index.html"):
            html = (sample_site / lang / page).read_text(encoding="utf-8")
            for comparison in ("parallelism-strategies", "memory-compute-tradeoffs"):
                assert re.search(rf'<a href="[./]*{lang}/comparisons/{comparison}/"', html), (lang, page, comparison)


# -- the header's search as you type --------------------------------------------------------

@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_the_header_field_searches_as_you_type_and_its_results_work_by_keyboard(open_page, viewport):
    opened = open_page("fr/glossary/", width=viewport["width"])
    page = opened.page
    page.set_viewport_size(viewport)
    field = page.locator("#header-search-query")
    if not field.is_visible():  # a phone: the compact control opens it
        page.locator(".header-search > summary").click()
    field.press_sequentially("systol", delay=40)  # no Enter
    results = page.locator("[data-header-list] a")
    page.wait_for_selector("[data-header-list][aria-busy=false] a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    found = {a["path"]: a["kind"] for a in results.evaluate_all("links => links.map(a => ({path: a.pathname, kind: a.querySelector('.result-kind')?.textContent}))")}
    term, question = found.get("/repo/fr/glossary/systolic-array/"), found.get("/repo/fr/questions/systolic-array/")
    assert term and question and term != question, found  # each says its kind in words
    assert "systol" in page.locator("[data-header-status]").inner_text()
    list_box, field_box = page.locator("[data-header-list]").bounding_box(), field.bounding_box()
    assert list_box["y"] >= field_box["y"] + field_box["height"] and list_box["x"] + list_box["width"] <= viewport["width"]  # under the field, on screen
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement === document.querySelector('[data-header-list] a')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "header-search-query"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")  # closes the list, gives the focus back to the field
    assert page.evaluate("document.activeElement.id") == "header-search-query" and not results.first.is_visible()
    assert field.is_visible()  # the phone's search panel is still open: one Escape, one thing closed
    field.press("ArrowDown")  # the results come back, and Enter opens the one in focus
    target = page.evaluate("document.activeElement.href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)
    kind = page.locator("main").get_attribute("data-pagefind-meta")  # the page's own metadata gave the result's kind
    assert kind == "kind:" + found[urlsplit(target).path].removeprefix(", ")
    assert opened.errors == []


@pytest.mark.browser
def test_the_search_page_shifts_nothing_while_its_results_come_on_a_phone(browser, site_url):
    """The results of the address's query fill in under a line kept for the status, with the
    footer out of view: a cumulative layout shift under 0.1 (it was 0.151)."""
    from test_study_app import CLS_OBSERVER

    context = browser.new_context(viewport=PHONE)
    context.add_init_script(CLS_OBSERVER)
    page = context.new_page()
    page.goto(site_url + "nl/search/?q=gpu")
    page.wait_for_selector(".search-results[aria-busy=false] li a", timeout=LOADING_MS)
    next_frame(page)
    assert page.evaluate("window.__cls") < 0.1
    said = page.locator(".search-results li").evaluate_all("items => items.map((li) => li.querySelector('.result-kind')?.textContent)")
    assert all(said) and len(set(said)) >= 3, said  # each result says its kind: questions, the term, the topic
    assert page.locator(".site-header").bounding_box()["height"] <= 100
    context.close()


# -- the search page ----------------------------------------------------------------------


@pytest.mark.browser
def test_results_appear_as_you_type(open_page):
    opened = open_page("nl/search/")
    page = opened.page
    page.locator("#search-query").press_sequentially("systol", delay=40)  # no Enter
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    links = page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")
    assert any(re.search(r"/nl/(questions|glossary)/systolic-array/$", href) for href in links), links
    assert parse_qs(urlsplit(page.url).query) == {"q": ["systol"]}
    page.locator("#search-query").fill("")
    page.wait_for_function("() => document.querySelectorAll('.search-results li').length === 0")
    assert opened.errors == []


@pytest.mark.browser
def test_typing_faster_than_the_search_loads_shows_the_last_query(open_page):
    """Every keystroke starts a search while Pagefind is still loading; whatever order they
    finish in, the results on the page are those of the text in the field."""
    opened = open_page("nl/search/")
    page = opened.page
    page.locator("#search-query").evaluate(
        """field => { for (const end of [1, 2, 3, 4, 5, 6]) {
                field.value = "systol".slice(0, end); field.dispatchEvent(new Event("input")); } }"""
    )
    page.wait_for_selector(".search-results[aria-busy=false] li a", timeout=LOADING_MS)  # the latest query's results: none runs after it
    assert "systol" in page.locator(".search-status").inner_text()
    links = page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")
    assert any(re.search(r"/nl/(questions|glossary)/systolic-array/$", href) for href in links), links
    assert opened.errors == []


@pytest.mark.browser
def test_the_search_page_reads_its_query_from_the_address(open_page):
    page = open_page("fr/search/?q=systolique").page
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    assert page.locator("#search-query").input_value() == "systolique"
    assert "systolique" in page.locator(".search-status").inner_text()


# -- comparison tables --------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("lang,hint", [("nl", "Schuif de tabel opzij"), ("fr", "Faites défiler le tableau")])
def test_a_comparison_on_a_phone_keeps_its_row_labels_and_says_it_scrolls(new_page, lang, hint):
    page = new_page(f"{lang}/comparisons/parallelism-strategies/", PHONE)
    assert page.locator(".scroll-hint").is_visible() and hint in page.locator(".scroll-hint").inner_text()
    region = page.locator(".table-scroll")
    assert page.evaluate("(r) => r.scrollWidth > r.clientWidth", region.element_handle())
    label = page.locator("tbody th").first
    before = label.bounding_box()
    assert before["x"] >= 0 and before["width"] < 160  # the labels take under half the width
    region.evaluate("(r) => { r.scrollLeft = r.scrollWidth; }")
    next_frame(page)
    after = label.bounding_box()
    assert abs(after["x"] - before["x"]) < 1  # sticky: the labels stay while the columns scroll
    assert page.evaluate("(r) => r.scrollLeft > 0", region.element_handle())
    last = page.locator("tbody tr").first.locator("td").last.bounding_box()
    assert last["x"] >= after["x"] + after["width"] - 1 and last["x"] + last["width"] <= 375  # the last column shows beside them
    # the labels hide the columns that pass under them: they have a background of their own
    assert page.evaluate("(th) => getComputedStyle(th).backgroundColor !== 'rgba(0, 0, 0, 0)'", label.element_handle())


@pytest.mark.browser
def test_a_comparison_on_a_desktop_has_no_scroll_hint(new_page):
    page = new_page("fr/comparisons/parallelism-strategies/")
    assert not page.locator(".scroll-hint").is_visible()
    assert page.evaluate("(r) => r.scrollWidth <= r.clientWidth", page.locator(".table-scroll").element_handle())


@pytest.mark.browser
def test_a_comparison_scrolls_with_the_keyboard(new_page):
    page = new_page("fr/comparisons/parallelism-strategies/", PHONE)
    page.locator(".table-scroll").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('.table-scroll').scrollLeft > 0")


# -- term pages ---------------------------------------------------------------------------


@pytest.mark.browser
def test_a_term_page_shows_its_key_question_with_its_choices_and_lists_it_once(new_page):
    page = new_page("fr/glossary/data-parallelism/", javascript=False)
    key = page.locator(".key-question a")
    order = page.evaluate(
        """() => {
             const p = document.querySelector(".key-question");
             return [p.nextElementSibling.matches("ol.choices"), p.nextElementSibling.nextElementSibling.matches("details.reveal")];
           }"""
    )
    assert order == [True, True]  # the choices come before the reveal
    assert page.locator(".key-question + ol.choices .letter").all_inner_texts() == ["A", "B", "C"]
    listed = page.locator(".usages li > a").evaluate_all("links => links.map(a => a.href)")
    assert key.evaluate("(a) => a.href") not in listed
    assert len(listed) == 2  # the sentence counts 3 questions: the key question and these
    assert "3 questions" in page.locator(".usage").inner_text()


KEY_QUESTION = re.compile(r'<p class="key-question"><a href="([^"]+)"')
USAGES = re.compile(r'<ul class="usages">(.*?)</ul>', re.DOTALL)
LINK = re.compile(r'<a href="([^"]+)"')


def test_no_term_page_lists_its_key_question_again(sample_site):
    checked = 0
    for page in sorted((sample_site / "nl/glossary").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        key = KEY_QUESTION.search(html)
        listed = USAGES.search(html)
        if key and listed:
            assert key.group(1) not in LINK.findall(listed.group(1)), page.parent.name
            checked += 1
    assert checked > 5  # the terms with a key question and others


@pytest.mark.browser
def test_a_term_page_reveals_the_answer_after_its_choices(new_page):
    page = new_page("nl/glossary/data-parallelism/", PHONE)
    choices = page.locator(".key-question + ol.choices li")
    assert choices.count() == 3 and choices.first.is_visible()
    answer = page.locator(".reveal .answer")
    assert not answer.is_visible()
    page.locator(".reveal summary").click()
    assert answer.inner_text().startswith("Antwoord: A.")


# -- accessibility of what only shows on a phone or after typing --------------------------


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_phone_search_and_a_phone_comparison_pass_axe(open_page, scheme):
    page = open_page("fr/comparisons/parallelism-strategies/", width=375, color_scheme=scheme, bypass_csp=True).page
    page.locator(".header-search > summary").click()
    page.locator("#header-search-query").press_sequentially("gpu")
    page.wait_for_selector("[data-header-list][aria-busy=false] a", timeout=LOADING_MS)  # its results open under it
    assert violations(page) == []


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_results_pass_axe(open_page, scheme):
    page = open_page("nl/search/?q=gpu", color_scheme=scheme, bypass_csp=True).page
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)  # Pagefind loads its WebAssembly first
    assert violations(page) == []
