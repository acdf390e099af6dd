"""Paper: a topic page prints as a worksheet (static/print.css), without its header, menus,
footer and buttons: its questions with their choices, then the answers."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
CONTROLS = ("header", "footer", "nav", "button", ".button", "summary", "input", "select")


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP])
def test_a_topic_page_prints_as_a_worksheet_with_the_answers_at_the_end(browser, site_url, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(site_url + "nl/topics/gpu-programming/")
    stems = page.locator(".question-list li a").all_inner_texts()
    worksheet = page.locator(".worksheet")
    assert worksheet.is_hidden()  # on screen, the links to the questions
    page.emulate_media(media="print")
    assert worksheet.is_visible() and page.locator(".question-list").is_hidden()
    assert [page.locator(f"{selector}:visible").count() for selector in CONTROLS] == [0] * len(CONTROLS)
    questions, answers = page.locator(".worksheet-questions > li"), page.locator(".worksheet-answers > li")
    assert questions.locator(".stem").all_inner_texts() == stems and len(stems) == 7
    assert all(count == 3 for count in questions.evaluate_all("items => items.map((li) => li.querySelectorAll('.choices li').length)"))
    assert [text.split(".")[0] for text in answers.all_inner_texts()] == ["Antwoord: B", "Antwoord: B", "Antwoord: C", "Antwoord: B", "Antwoord: A", "Antwoord: A", "Antwoord: C"]
    last_question, first_answer = questions.last.bounding_box(), answers.first.bounding_box()
    assert first_answer["y"] > last_question["y"] + last_question["height"]  # the answers come after every question
    assert page.pdf().startswith(b"%PDF")
    context.close()


def test_the_worksheet_holds_every_question_type_with_its_parts_and_answer(tmp_path: Path):
    shutil.copytree(ROOT / "tests/sites/types/content", tmp_path / "content")
    assert run_cli("build", "--content", tmp_path / "content", "--out", tmp_path / "site", "--no-search").status == 0
    html = (tmp_path / "site/en/topics/basics/index.html").read_text(encoding="utf-8")
    worksheet = html[html.index('<section class="worksheet"') :]
    questions, answers = worksheet.split('class="worksheet-answers"')
    kinds = re.findall(r'<li data-type="([a-z-]+)">', questions)
    assert sorted(kinds) == ["match", "multiple", "numeric", "order", "single", "true-false", "typed"]
    for part in ('class="choices', 'class="match"', 'class="numeric"', 'class="order-items"', 'class="blank"'):
        assert part in questions, part
    assert answers.count("<li>") >= len(kinds) and "Answer" in answers and "6" in answers
