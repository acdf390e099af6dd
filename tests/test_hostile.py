"""A folder of broken and hostile content (tests/sites/hostile/) goes through check and
build: every diagnostic is exactly as in expected.txt, nothing is written, nothing runs.

After an intended change to the messages, regenerate expected.txt with:
    STUDYSITE_UPDATE_GOLDEN=1 python -m pytest tests/test_hostile.py
"""

import os

from conftest import ROOT, run_cli

HOSTILE = ROOT / "tests" / "sites" / "hostile"


def test_check_reports_every_problem_located(tmp_path):
    result = run_cli("check", "--content", HOSTILE / "content")
    assert result.status == 1 and "Traceback" not in result.err
    expected = HOSTILE / "expected.txt"
    if os.environ.get("STUDYSITE_UPDATE_GOLDEN") == "1":
        expected.write_text(result.err, encoding="utf-8")
    assert result.err == expected.read_text(encoding="utf-8")


def test_build_writes_nothing_and_keeps_the_previous_site(tmp_path, make_content):
    site = tmp_path / "site"
    assert run_cli("build", "--content", make_content(), "--out", site, "--no-search").status == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    result = run_cli("build", "--content", HOSTILE / "content", "--out", site)
    summary = (HOSTILE / "expected.txt").read_text(encoding="utf-8").rstrip().splitlines()[-1]  # "Build failed: N errors, M warnings."
    assert result.status == 1 and result.err.rstrip().endswith(summary)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site", "site.lock"]
