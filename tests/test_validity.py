"""Every built page passes the Nu HTML Checker (the W3C validator) with zero errors."""

import shutil
import subprocess

import pytest
from conftest import ROOT, run_cli

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
VARIETY = ROOT / "tests" / "sites" / "variety" / "content"
TYPES = ROOT / "tests" / "sites" / "types" / "content"  # a question of each type


def validate(*paths) -> list[str]:
    """The checker's errors for these folders (every page below them) and pages, in one run."""
    if not VNU.is_file() or not shutil.which("java"):
        pytest.fail("the Nu HTML Checker needs node_modules/vnu-jar (npm ci) and java")
    # The checker runs for seconds, not hours: the quick compiler alone (C1) halves its CPU
    # time; that compiler needs a larger stack than Java's default for the HTML schema.
    process = subprocess.run(["java", "-Xss16m", "-XX:TieredStopAtLevel=1", "-jar", str(VNU), "--errors-only", "--skip-non-html", *map(str, paths)], capture_output=True, text=True)
    return [line for line in process.stderr.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def variety_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("variety") / "site"
    result = run_cli("build", "--content", VARIETY, "--out", site, "--no-search")
    assert result.status == 0, result.err
    return site


def test_sample_site_is_valid_html(sample_site):
    assert validate(sample_site) == []


def test_site_with_fallbacks_rtl_and_rich_markdown_is_valid_html(variety_site, tmp_path):
    types_site = tmp_path / "types"
    result = run_cli("build", "--content", TYPES, "--out", types_site, "--no-search")
    assert result.status == 0, result.err
    assert validate(variety_site, types_site) == []


def test_the_checker_itself_reports_an_invalid_page(tmp_path):
    (tmp_path / "bad.html").write_text("<!DOCTYPE html><html><head><title>x</title></head><body><p><div>x</div></p></body></html>")
    assert validate(tmp_path), "an invalid page passed the checker"
