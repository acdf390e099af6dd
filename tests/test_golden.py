"""Golden pages: a few built pages checked in whole, so any change to them is seen in review.

Regenerate them after an intended change with:
    STUDYSITE_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

import os
import re

import pytest
from conftest import ROOT, run_cli

GOLDEN = ROOT / "tests" / "golden"
VARIETY = ROOT / "tests" / "sites" / "variety" / "content"
PAGES = [
    "de/questions/cache-line/index.html",  # Markdown table, code and an external link
    "en/questions/register/index.html",  # untranslated: German text with a notice
    "ar/questions/clock/index.html",  # right to left, English UI
    "en/glossary/cache/index.html",  # term page with the Japanese name
    "de/comparisons/cache-vs-register/index.html",
    "de/practice/computing/index.html",
]
UPDATE = os.environ.get("STUDYSITE_UPDATE_GOLDEN") == "1"


def normalise(html: str) -> str:
    """Asset fingerprints change with every stylesheet edit; they are tested elsewhere."""
    return re.sub(r"(assets/[\w-]+)\.[0-9a-f]{10}([./])", r"\1.HASH\2", html)


@pytest.fixture(scope="module")
def variety_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("golden") / "site"
    assert run_cli("build", "--content", VARIETY, "--out", site, "--no-search").status == 0
    return site


@pytest.mark.parametrize("page", PAGES)
def test_page_matches_its_golden_copy(variety_site, page):
    built = normalise((variety_site / page).read_text(encoding="utf-8"))
    golden = GOLDEN / page.replace("/index.html", ".html").replace("/", "--")
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(built, encoding="utf-8")
    assert golden.is_file(), f"no golden copy of {page}; regenerate with STUDYSITE_UPDATE_GOLDEN=1"
    assert built == golden.read_text(encoding="utf-8")
