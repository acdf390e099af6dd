"""output/search.py: the search indexes, made by Pagefind, several languages at once."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import STUDY_CONTENT, run_cli

from studysite.output import search


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def made_by_pagefind(folder: Path) -> dict[str, bytes]:
    """A built site's index files, without the list of parts that the build writes beside them."""
    return {path: data for path, data in files(folder).items() if path.rpartition("/")[2] != search.PARTS_FILE}


def test_languages_indexed_at_once_give_the_indexes_made_one_after_the_other(sample_site: Path, tmp_path: Path):
    def indexes(folder: Path) -> list[search.LanguageIndex]:
        return [search.LanguageIndex(language, sample_site, folder / language) for language in ("nl", "fr")]

    search.index_languages(indexes(tmp_path / "apart"), jobs=1)
    search.index_languages(indexes(tmp_path / "together"), jobs=2)
    assert files(tmp_path / "apart") == files(tmp_path / "together") == made_by_pagefind(sample_site / "pagefind")
    assert (sample_site / "pagefind/nl" / search.PARTS_FILE).read_text() == "[]"  # one part: the index alone


def test_pages_in_parts_are_as_few_runs_as_hold_them_of_sizes_as_even_as_can_be():
    pages = [(f"nl/questions/q{n:02}/index.html", Path("site")) for n in range(23)]
    parts = search.in_parts(pages, 10)
    assert [len(part) for part in parts] == [8, 8, 7]
    assert [page for part in parts for page in part] == pages  # in order, each once
    assert search.in_parts(pages, 23) == [pages] and search.in_parts(pages[:1], 10) == [pages[:1]]
    assert [len(part) for part in search.in_parts(pages, 1)] == [1] * 23


def test_a_language_of_more_pages_than_a_part_holds_is_indexed_in_parts_that_hold_each_page_once(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(search, "PAGES_PER_PART", 10)
    result = run_cli("build", "--content", STUDY_CONTENT, "--out", tmp_path / "site", "--jobs", "2")
    assert result.status == 0, result.err
    site = tmp_path / "site"
    for language in ("nl", "fr"):
        indexed = sorted(p.relative_to(site).as_posix() for p in site.glob(f"{language}/*/*/index.html") if search.is_indexed(p.relative_to(site).as_posix()))
        folder = site / "pagefind" / language
        others = json.loads((folder / search.PARTS_FILE).read_text())
        folders = [folder, *(folder / other for other in others)]
        assert others == [f"part-{n}/" for n in range(2, len(folders) + 1)] and len(folders) == -(-len(indexed) // 10)
        sizes = [len(list((part / "fragment").iterdir())) for part in folders]  # a fragment a page
        assert sizes == [len(part) for part in search.in_parts([(p, site) for p in indexed], 10)]
        assert all((part / search.ENTRY_FILE).is_file() for part in folders)
        offline = {path for path, _ in json.loads((site / language / "offline-pages.json").read_text())["search"]}
        parts_files = {path for path in offline if "/part-" in path}
        assert f"pagefind/{language}/part-2/{search.ENTRY_FILE}" in parts_files  # saved for offline reading: its index
        assert not any("pagefind-ui" in path or "pagefind-highlight" in path for path in offline)  # not Pagefind's UI, of any part


def test_a_failed_index_is_told_once_the_others_are_made(sample_site: Path, tmp_path: Path):
    (tmp_path / "empty").mkdir()
    failing = search.LanguageIndex("nl", tmp_path / "empty", tmp_path / "out/nl")
    working = search.LanguageIndex("fr", sample_site, tmp_path / "out/fr")
    with pytest.raises(search.SearchIndexError, match="Pagefind could not index the site: "):
        search.index_languages([failing, working], jobs=2)
    assert (tmp_path / "out/fr" / search.ENTRY_FILE).is_file()


@pytest.mark.parametrize(("language", "build"), [("nl", "pagefind"), ("fr-BE", "pagefind"), ("ja", "pagefind_extended"), ("zh-Hant", "pagefind_extended")])
def test_each_language_is_indexed_by_the_pagefind_build_it_needs(language, build):
    """The extended build, which segments Japanese and Chinese, runs for those alone: the
    standard one makes the same index of the others, sooner."""
    assert Path(search.pagefind_command(language)[0]).name == build


def test_a_missing_pagefind_build_leaves_the_other_or_the_pagefind_package():
    assert Path(search.pagefind_command("ja", ("no_such_package", search.STANDARD))[0]).name == "pagefind"
    assert search.pagefind_command("nl", ("no_such_package",))[1:] == ["-m", "pagefind"]


def test_the_standard_build_indexes_a_language_as_the_extended_one(sample_site: Path, tmp_path: Path, monkeypatch):
    made, choose = {}, search.pagefind_command
    for package in (search.STANDARD, search.EXTENDED):
        monkeypatch.setattr(search, "pagefind_command", lambda language, chosen=package: choose(language, (chosen,)))
        search.index_languages([search.LanguageIndex("fr", sample_site, tmp_path / package)])
        made[package] = files(tmp_path / package)
    assert made[search.STANDARD] == made[search.EXTENDED] == made_by_pagefind(sample_site / "pagefind/fr")


def test_reading_pages_from_the_indexed_element_makes_the_index_read_from_html(sample_site: Path, tmp_path: Path, monkeypatch):
    """ROOT_SELECTOR spares Pagefind the head and the header, and sending it only the indexed
    part of each page spares it reading them: neither changes anything it indexes."""
    made, chosen, sent = {}, search.ROOT_SELECTOR, search.indexed_part
    for root, part in ((chosen, "part"), (chosen, "whole"), ("html", "whole")):  # html: Pagefind's own default
        monkeypatch.setattr(search, "ROOT_SELECTOR", root)
        monkeypatch.setattr(search, "indexed_part", sent if part == "part" else lambda page: page)
        folder = tmp_path / f"{root}-{part}"
        search.index_languages([search.LanguageIndex(language, sample_site, folder / language) for language in ("nl", "fr")], jobs=2)
        made[folder.name] = files(folder)
    assert made[f"{chosen}-part"] == made[f"{chosen}-whole"] == made["html-whole"] == made_by_pagefind(sample_site / "pagefind")


PAGE = b"""<!DOCTYPE html>
<html lang="nl" dir="ltr">
<head><title>Vraag</title></head>
<body><header><nav>menu</nav></header>
<main id="main" data-pagefind-body data-pagefind-meta="kind:Vraag">
<h1>Vraag</h1>
</main>
<footer>voet</footer>
</body>
</html>
"""


def test_pagefind_is_sent_the_html_tag_and_the_main_element_of_a_page():
    assert search.indexed_part(PAGE) == (
        b'<html lang="nl" dir="ltr"><body><main id="main" data-pagefind-body data-pagefind-meta="kind:Vraag">\n<h1>Vraag</h1>\n</main></body></html>'
    )


@pytest.mark.parametrize(
    "page",
    [
        PAGE.replace(b"<main id=\"main\" data-pagefind-body", b"<main id=\"main\"").replace(b"<h1>", b"<h1 data-pagefind-body>"),  # indexed elsewhere
        PAGE.replace(b"<footer>", b"<footer data-pagefind-body>"),  # more than one indexed element
        PAGE.replace(b"<footer>voet</footer>", b"<main>voet</main>"),  # more than one main
        PAGE.replace(b"<html lang", b"<htm lang"),  # no html tag
    ],
)
def test_a_page_made_otherwise_is_sent_whole(page):
    assert search.indexed_part(page) == page


def indexed_texts(index: Path) -> dict[str, str]:
    """What Pagefind keeps of each page it indexed (the text a result's excerpt is cut from), by URL."""
    fragments = (json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd")) for path in index.glob("fragment/*.pf_fragment"))
    return {fragment["url"]: fragment["content"] for fragment in fragments}


def test_the_reveal_is_indexed_by_its_answer_and_explanation_not_by_the_words_of_its_control(sample_site: Path):
    texts = indexed_texts(sample_site / "pagefind/nl")
    questions = {url: text for url, text in texts.items() if "/nl/questions/" in url}
    assert questions and all("Antwoord:" in text for text in questions.values())
    assert not [url for url, text in texts.items() if "toelichting tonen" in text or "toelichting verbergen" in text]


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="needs a tmpfs at /dev/shm")
def test_the_index_is_the_same_on_every_file_system(tmp_path: Path):
    """tmpfs lists a folder newest first, ext4 in the order of its names' hashes: Pagefind
    is given the pages in the order of their paths, so the index does not follow either."""
    with tempfile.TemporaryDirectory(dir="/dev/shm") as memory:
        made = {}
        for name, folder in (("disk", tmp_path), ("memory", Path(memory))):
            result = run_cli("build", "--content", STUDY_CONTENT, "--out", folder / "site", "--jobs", "2")
            assert result.status == 0, result.err
            made[name] = files(folder / "site")
    assert any(path.endswith(".pf_meta") for path in made["disk"])
    assert made["disk"] == made["memory"]  # the index, and the whole site with it


def pagefind_stopped_by(signal_name: str):
    """A Pagefind that the system stops with a signal as it starts (as SIGXFSZ stops a
    process over its file-size limit, or SIGKILL one out of memory)."""
    return lambda language: ["sh", "-c", f"kill -s {signal_name} $$"]


def test_pagefind_stopped_by_a_signal_is_a_fault_of_the_system_named(sample_site: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(search, "pagefind_command", pagefind_stopped_by("XFSZ"))
    with pytest.raises(search.SearchToolError, match=r"stopped by SIGXFSZ \(File size limit exceeded\)"):
        search.index_languages([search.LanguageIndex("nl", sample_site, tmp_path / "nl")])


def test_a_build_whose_pagefind_is_stopped_by_a_signal_exits_3(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(search, "pagefind_command", pagefind_stopped_by("KILL"))
    result = run_cli("build", "--content", STUDY_CONTENT, "--out", tmp_path / "site")
    assert result.status == 3
    assert "stopped by SIGKILL" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "site").exists()


def test_a_build_over_its_file_size_limit_exits_3(tmp_path: Path):
    """The build's files (the assets, the index's, a deck's database) are refused by the
    limit (EFBIG; Python ignores SIGXFSZ) as a full disk would: whichever is first, it is
    told in a sentence, without a traceback."""
    limit = "import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000)); from studysite.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", limit, "build", "--content", str(STUDY_CONTENT), "--out", str(tmp_path / "site")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    told = ("error: File too large;", "error: disk I/O error (SQLite, making an Anki deck in ")
    assert result.stderr.startswith(told) and "Traceback" not in result.stderr, result.stderr


def test_an_answer_pagefind_did_not_make_is_an_index_error_not_a_traceback(sample_site: Path, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setattr(search, "pagefind_command", lambda language: ["sh", "-c", "printf 'not base64!,'; sleep 30"])
    started = time.monotonic()
    with pytest.raises(search.SearchIndexError, match="an answer that could not be read"):
        search.index_languages([search.LanguageIndex("nl", sample_site, tmp_path / "nl")])
    assert time.monotonic() - started < 20 and "Traceback" not in capsys.readouterr().err


def test_a_language_with_no_record_shown_has_no_index_and_the_build_goes_on(make_content, tmp_path: Path):
    """fallback: skip, and a language added before any record is translated into it."""
    site_yaml = "languages: [nl, fr, de]\nfallback: skip\nbase_url: https://example.org/study/\nnl: {title: Studie}\nfr: {title: Étude}\nde: {title: Studium}\n"
    result = run_cli("build", "--content", make_content(**{"site.yaml": site_yaml}), "--out", tmp_path / "site")
    assert result.status == 0, result.err
    assert sorted(p.name for p in (tmp_path / "site/pagefind").iterdir()) == ["fr", "nl"]
    assert (tmp_path / "site/de/search/index.html").is_file(), "its search page says there is no index (js/search.js)"
