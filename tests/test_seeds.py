"""Seed parity: each seed page (the captured pages the product recreates, in
../shared/seeds/) is read part by part, and the generated page must show every part in
the seed's order. Skipped when the seeds are not next to the repository."""

import html
import os
import re
from pathlib import Path

import pytest
from conftest import ROOT

SEED_FOLDERS = [Path(os.environ.get("STUDYSITE_SEEDS", ROOT.parent / "shared" / "seeds")), ROOT.parent.parent / "shared" / "seeds"]
SEEDS = next((folder for folder in SEED_FOLDERS if folder.is_dir()), None)
PAGES = {
    "000_3ae4f90b1a366ba0.txt": "nl/questions/data-parallelism/index.html",
    "001_8e7931f684527fb0.txt": "fr/glossary/data-parallelism/index.html",
    "002_da20d0d730b8babb.txt": "nl/questions/structured-sparsity/index.html",
    "003_fa40e9fb930c8fe6.txt": "nl/questions/embedding-lookups/index.html",
}
LIST_SPAN = 800  # a seed line the capture ran together (a list of terms) must lie within this many characters


def squeeze(text: str) -> str:
    """Text without white space and with one kind of apostrophe: captures differ in both."""
    return re.sub(r"\s+", "", text).replace("’", "'")


def seed_parts(text: str) -> list[str]:
    """A seed's parts: its lines, without list numbers, split after each '…' (the capture
    runs a cut stem and the next excerpt together)."""
    parts = []
    for line in text.splitlines():
        line = re.sub(r"^\s*\d+\.\s+", "", line).strip()
        parts.extend(piece for piece in re.split(r"(?<=…)", line) if piece.strip())
    return parts


def page_text(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    body = page[page.index("<body") :]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def find_in_order(page: str, parts: list[str]) -> list[str]:
    """The parts not found after the previous one. A part that is not found whole may be a
    list the capture ran together: then each of its words must follow, close together."""
    missing = []
    position = 0
    for part in parts:
        found = page.find(squeeze(part), position)
        if found >= 0:
            position = found + len(squeeze(part))
            continue
        start, cursor = position, position
        for word in part.split():
            cursor = page.find(squeeze(word), cursor)
            if cursor < 0 or cursor - start > LIST_SPAN:
                missing.append(part)
                break
            cursor += len(squeeze(word))
        else:
            position = cursor
    return missing


@pytest.mark.skipif(SEEDS is None, reason="the seed pages (../shared/seeds/) are not next to the repository")
@pytest.mark.parametrize("seed", sorted(PAGES))
def test_generated_page_shows_the_seed_parts_in_order(sample_site: Path, seed: str):
    parts = seed_parts((SEEDS / seed).read_text(encoding="utf-8"))
    assert len(parts) >= 8
    missing = find_in_order(squeeze(page_text(sample_site / PAGES[seed])), parts)
    assert missing == [], f"{PAGES[seed]} lacks, or shows out of the seed's order: {missing}"


def test_the_check_fails_on_a_page_out_of_order():
    parts = ["Eerste deel", "Tweede deel", "GPU All-reduce Adam"]
    assert find_in_order(squeeze("Eerste deel ... Tweede deel ... GPU, All-reduce en Adam"), parts) == []
    assert find_in_order(squeeze("Tweede deel ... Eerste deel ... GPU All-reduce Adam"), parts) == ["Tweede deel"]
    assert find_in_order(squeeze("Eerste deel Tweede deel Adam GPU All-reduce"), parts) == ["GPU All-reduce Adam"]
