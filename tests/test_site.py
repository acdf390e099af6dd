"""The sample content built as a user would: every page there, every link resolving."""

import html
import json
import os
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import BASE_PATH, ROOT, STUDY_CONTENT, run_cli
from sitecheck import crawl, file_of, html_files, parse_page, url_of

ORIGIN = "https://example.org"
LANGUAGES = ("nl", "fr")


def served_in_place(site: Path, file: Path) -> bool:
    """404.html and the offline pages stand in for other addresses: no canonical, sitemap or inbound link."""
    return bool(re.fullmatch(r"404\.html|[^/]+/offline/index\.html", file.relative_to(site).as_posix()))


def ids(kind: str) -> list[str]:
    return sorted(p.stem for p in (STUDY_CONTENT / kind).rglob("*.yaml"))


def test_every_page_of_the_spec_exists(sample_site: Path):
    expected = ["index.html", "404.html", "sitemap.xml", "robots.txt", ".nojekyll"]
    for lang in LANGUAGES:
        expected += [f"{lang}/index.html", f"{lang}/glossary/index.html", f"{lang}/search/index.html", f"{lang}/status/index.html"]
        expected += [f"{lang}/topics/{t}/index.html" for t in ids("topics")]
        expected += [f"{lang}/practice/{t}/index.html" for t in ids("topics")]
        expected += [f"{lang}/questions/{q}/index.html" for q in ids("questions")]
        expected += [f"{lang}/glossary/{t}/index.html" for t in ids("glossary")]
        expected += [f"{lang}/comparisons/{c}/index.html" for c in ids("comparisons")]
    missing = [path for path in expected if not (sample_site / path).is_file()]
    assert missing == []
    assert len(ids("questions")) >= 16 and len(ids("glossary")) >= 12


def test_the_due_count_reads_the_list_of_the_languages_questions(sample_site: Path):
    """The study scripts count as due only the questions the site has: their ids, listed
    next to the review page, at the path every page's study strings name."""
    for lang in LANGUAGES:
        listed = json.loads((sample_site / lang / "review/questions.json").read_text(encoding="utf-8"))
        assert sorted(listed) == ids("questions")
        page = (sample_site / lang / "questions" / listed[0] / "index.html").read_text(encoding="utf-8")
        strings = json.loads(re.search(r'<script type="application/json" id="study-strings">(.*?)</script>', page, re.S).group(1))
        assert strings["questions"] == f"{lang}/review/questions.json"


def test_every_internal_link_resolves_and_no_page_is_an_orphan(sample_site: Path):
    result = crawl(sample_site, BASE_PATH, ORIGIN)
    assert result.broken == []
    orphans = [p.relative_to(sample_site).as_posix() for p in html_files(sample_site) if p not in result.reached and not served_in_place(sample_site, p)]
    assert orphans == []


def test_not_found_page_links_absolutely_under_the_base_path(sample_site: Path):
    page = parse_page(sample_site / "404.html")
    local = [url for _, url in page.links if not url.startswith("#")]
    assert local and all(url.startswith(BASE_PATH) for url in local), local
    assert all(file_of(sample_site, url.split("#")[0], BASE_PATH) for url in local)


def test_hreflang_canonical_and_switcher_point_to_the_same_page(sample_site: Path):
    for file in html_files(sample_site):
        if served_in_place(sample_site, file):
            continue
        page = parse_page(file)
        url = ORIGIN + url_of(sample_site, file, BASE_PATH)
        assert page.lang in LANGUAGES, f"{file.relative_to(sample_site)}: <html lang> is {page.lang!r}"
        assert page.canonical == url, file
        if file.parent == sample_site:  # the language chooser has no language versions
            assert page.alternates == {"x-default": url}
            continue
        assert page.alternates[page.lang] == url, file
        assert set(page.alternates) == {*LANGUAGES, "x-default"}, file
        assert page.alternates["x-default"] == page.alternates["nl"]
        for lang in LANGUAGES:
            assert page.alternates[lang] == url.replace(f"{BASE_PATH}{page.lang}/", f"{BASE_PATH}{lang}/", 1)
        other = [lang for lang in LANGUAGES if lang != page.lang]
        assert [lang for lang, _ in page.switcher] == other, file
        for lang, href in page.switcher:
            target = (file.parent / href).resolve() / "index.html"
            assert target == sample_site / lang / file.parent.relative_to(sample_site / page.lang) / "index.html"


def test_sitemap_lists_exactly_the_built_pages_with_alternates(sample_site: Path):
    namespaces = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ElementTree.parse(sample_site / "sitemap.xml").getroot()
    listed = {url.find("s:loc", namespaces).text for url in root.findall("s:url", namespaces)}
    built = {ORIGIN + url_of(sample_site, f, BASE_PATH) for f in html_files(sample_site) if not served_in_place(sample_site, f)}
    assert listed == built
    home = next(u for u in root.findall("s:url", namespaces) if u.find("s:loc", namespaces).text == f"{ORIGIN}{BASE_PATH}nl/")
    assert {link.get("hreflang") for link in home.findall("x:link", namespaces)} == {*LANGUAGES, "x-default"}
    assert f"Sitemap: {ORIGIN}{BASE_PATH}sitemap.xml" in (sample_site / "robots.txt").read_text()


def text_of(path: Path) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))))


def test_question_page_matches_the_seed(sample_site: Path):
    html = (sample_site / "nl/questions/data-parallelism/index.html").read_text(encoding="utf-8")
    assert re.search(r"<details class=\"reveal\">\s*<summary[^>]*><span class=\"when-closed\">Antwoord en toelichting tonen</span>", html)
    text = text_of(sample_site / "nl/questions/data-parallelism/index.html")
    assert "Antwoord: A. Elke GPU heeft een kopie van het hele model" in text
    assert "Dit onderwerp oefenen" in text and "Naar de onderwerppagina" in text
    assert "Meer vragen over AI-hardware en softwarestack" in text and "Vergelijkingen bij dit onderwerp" in text
    more = re.search(r'<ol class="more-questions">(.*?)</ol>', html, re.S).group(1)
    assert more.count("<li>") == 5
    assert '<a class="term" href="../../glossary/data-parallelism/">dataparallellisme</a>' in html


def test_term_page_matches_the_seed(sample_site: Path):
    text = text_of(sample_site / "fr/glossary/data-parallelism/index.html")
    assert "Nom japonais : データ並列" in text
    assert "« Parallélisme de données » apparaît dans 3 questions d'entraînement réparties sur 2 thèmes" in text
    assert "Pile matérielle et logicielle de l'IA" in text and "Programmation GPU" in text
    assert "Naam in het Japans: データ並列" in text_of(sample_site / "nl/glossary/data-parallelism/index.html")
    assert "‘Adam’ komt voor in 2 oefenvragen over AI-hardware en softwarestack." in text_of(sample_site / "nl/glossary/adam/index.html")
    singular = text_of(sample_site / "fr/glossary/pruning/index.html")
    assert "apparaît dans 1 question d'entraînement du thème Pile matérielle et logicielle de l'IA." in singular


def test_glossary_is_in_alphabetical_order_with_accents_folded(sample_site: Path):
    html = (sample_site / "fr/glossary/index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="letter-\d+-heading">(.)</h2>', html)
    assert headings == sorted(headings)
    e_section = html.split(">E</h2>")[1].split("</section>")[0]
    assert "Élagage (pruning)" in e_section


def test_pages_show_the_languages_by_their_own_names(sample_site: Path):
    html = (sample_site / "nl/index.html").read_text(encoding="utf-8")
    assert 'lang="fr">Français</a>' in html and '<span class="language-name" lang="nl">Nederlands</span>' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_lists_topics_with_question_counts(sample_site: Path, lang):
    text = text_of(sample_site / f"{lang}/index.html")
    assert ("14 vragen" if lang == "nl" else "14 questions") in text


def test_each_topic_on_the_home_page_offers_its_practice(sample_site: Path):
    html = (sample_site / "nl/index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)" aria-describedby="topic-([a-z0-9-]+)">Dit onderwerp oefenen</a>', html)
    assert sorted(topic for _, topic in links) == ["ai-hardware-stack", "gpu-programming"]
    assert all(href == f"../nl/practice/{topic}/" and f'<h3 id="topic-{topic}">' in html for href, topic in links), links


def test_rebuild_writes_only_what_changed_and_is_deterministic(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert run_cli("build", "--content", STUDY_CONTENT, "--out", first).status == 0
    assert run_cli("build", "--content", STUDY_CONTENT, "--out", second, "--jobs", "2").status == 0
    files_a = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    files_b = {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    assert files_a == files_b
    again = run_cli("build", "--content", STUDY_CONTENT, "--out", first)
    assert "(0 files changed)" in again.out


def test_site_built_for_the_root_of_a_custom_domain_links_correctly(tmp_path: Path):
    site = tmp_path / "site"
    assert run_cli("build", "--content", STUDY_CONTENT, "--out", site, "--base-url", "https://study.example.org", "--no-search").status == 0
    assert crawl(site, "/", "https://study.example.org").broken == []
    page = parse_page(site / "fr/glossary/gpu/index.html")
    assert page.canonical == "https://study.example.org/fr/glossary/gpu/"
    assert all(url.startswith("/") for _, url in parse_page(site / "404.html").links if not url.startswith("#"))


def test_incremental_rebuilds_equal_a_clean_build(tmp_path: Path):
    """Pages whose inputs did not change are carried over unrendered; after edits to content,
    templates, catalogs and styles the result must equal a build from scratch."""
    import shutil

    shutil.copytree(STUDY_CONTENT, tmp_path / "src" / "content")
    for name in ("templates", "static", "locales"):
        shutil.copytree(ROOT / name, tmp_path / "src" / name)
    src, site = tmp_path / "src", tmp_path / "site"

    def build(out: Path, *extra: str) -> str:
        result = run_cli("build", "--content", src / "content", "--out", out, "--no-search", *extra)
        assert result.status == 0, result.err
        return result.out

    def same_as_clean_build() -> None:
        clean = tmp_path / "clean"
        shutil.rmtree(clean, ignore_errors=True)
        build(clean)
        files = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file() and p.name != ".studysite"}
        assert files == {p.relative_to(clean): p.read_bytes() for p in clean.rglob("*") if p.is_file() and p.name != ".studysite"}

    build(site)
    assert "(0 files changed)" in build(site)
    question = src / "content/questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    changed = int(re.search(r"\((\d+) files changed\)", build(site)).group(1))
    assert 0 < changed < 20  # the question, its topic, practice and term pages, the questions that list it
    same_as_clean_build()
    term = src / "content/glossary/warp.yaml"
    term.write_text(term.read_text(encoding="utf-8").replace("term: Warp\n  aliases: [warps]", "term: Warpje\n  aliases: [warps]", 1), encoding="utf-8")
    build(site, "--jobs", "2")
    same_as_clean_build()
    # Record pages are keyed by their sources: edits that change only what other records
    # show of them (a name, an alias, a title, an order, a new term) must reach them too.
    edits = [
        ("content/glossary/gpu.yaml", "  term: GPU\n", "  term: GPU\n  aliases: [GPU's, grafische processor]\n"),
        ("content/topics/gpu-programming.yaml", "  title: GPU-programmering", "  title: Programmeren van GPU's"),
        ("content/questions/ai-hardware-stack/all-reduce.yaml", "order: 11", "order: 1"),
        ("content/glossary/gpu.yaml", "  definition: Grafische processor", "  definition: Een grafische processor"),
    ]
    for name, old, new in edits:
        path = src / name
        assert old in path.read_text(encoding="utf-8"), name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        build(site)
        same_as_clean_build()
    (src / "content/glossary/thread.yaml").write_text("nl: {term: threads, definition: Uitvoeringsdraden.}\n", encoding="utf-8")
    build(site)
    same_as_clean_build()
    po = src / "locales/nl/LC_MESSAGES/messages.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Woordenlijst"', 'msgstr "Begrippenlijst"'), encoding="utf-8")
    (src / "templates/macros.html").write_text(
        (src / "templates/macros.html").read_text(encoding="utf-8").replace('class="choices"', 'class="choices answers"'), encoding="utf-8"
    )
    (src / "static/style.css").write_text((src / "static/style.css").read_text(encoding="utf-8") + "\n/* edited */\n", encoding="utf-8")
    build(site)
    same_as_clean_build()
    question.unlink()  # its pages go, and their folders with them
    build(site)
    same_as_clean_build()
    assert not (site / "nl/questions/kv-cache").exists()
    shutil.rmtree(os.environ["STUDYSITE_CACHE_DIR"])  # the cache is safe to delete
    question.write_text("topic: gpu-programming\nanswer: A\nnl: {question: Opnieuw?, choices: [Ja, Nee], explanation: '*Ja*.'}\n", encoding="utf-8")
    build(site)
    same_as_clean_build()


def test_incremental_builds_with_search_equal_a_clean_build(tmp_path: Path):
    """The search index of a language whose pages did not change is kept; one whose pages
    changed is made again from the old and new pages: both equal a build from scratch."""
    import shutil

    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    site, clean = tmp_path / "site", tmp_path / "clean"
    assert run_cli("build", "--content", tmp_path / "content", "--out", site).status == 0
    kept = (site / "pagefind/fr/pagefind-entry.json").stat().st_ino
    question = tmp_path / "content/questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    assert run_cli("build", "--content", tmp_path / "content", "--out", site).status == 0
    assert run_cli("build", "--content", tmp_path / "content", "--out", clean).status == 0
    assert (site / "pagefind/fr/pagefind-entry.json").stat().st_ino == kept
    files = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file() and p.name != ".studysite"}
    assert files == {p.relative_to(clean): p.read_bytes() for p in clean.rglob("*") if p.is_file() and p.name != ".studysite"}
    indexed = {p.relative_to(site).as_posix() for p in site.glob("pagefind/nl/fragment/*")}
    assert len(indexed) == sum(1 for p in site.glob("nl/*/*/index.html") if p.parts[-3] in ("questions", "glossary", "topics", "comparisons"))
