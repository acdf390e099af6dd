"""The installable, offline site: manifests, page lists and the service worker; then, in
Chromium, the worker keeping visited pages, saving a whole language, showing the offline
page and following a new build."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest
from conftest import BASE_PATH, LOADING_MS, STUDY_CONTENT, QuietServer, _QuietHandler, run_cli, with_timeouts
from sitecheck import parse_page

ORIGIN = "https://example.org"


def read_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_manifests_are_localized_with_start_url_and_scope_under_the_base_path(sample_site: Path):
    for lang, name in (("nl", "AI-studiegids"), ("fr", "Guide d'étude de l'IA")):
        manifest = read_json(sample_site / lang / "manifest.webmanifest")
        at = f"{ORIGIN}{BASE_PATH}{lang}/manifest.webmanifest"
        assert (manifest["name"], manifest["lang"]) == (name, lang)
        assert urljoin(at, manifest["start_url"]) == f"{ORIGIN}{BASE_PATH}{lang}/"
        assert urljoin(at, manifest["scope"]) == f"{ORIGIN}{BASE_PATH}"
        icons = {(icon["type"], icon["sizes"]) for icon in manifest["icons"]}
        assert icons == {("image/svg+xml", "any"), ("image/png", "192x192"), ("image/png", "512x512")}
        for icon in manifest["icons"]:
            assert (sample_site / urljoin(f"{lang}/", icon["src"])).is_file()
        page = (sample_site / lang / "questions/kv-cache/index.html").read_text(encoding="utf-8")
        assert f'<link rel="manifest" href="../../../{lang}/manifest.webmanifest">' in page
    root = read_json(sample_site / "manifest.webmanifest")
    assert (root["start_url"], root["scope"], root["lang"]) == ("./", "./", "nl")


def test_png_icons_have_their_declared_sizes(sample_site: Path):
    for size in (192, 512):
        (icon,) = (sample_site / "assets/icons").glob(f"icon-{size}.*.png")
        data = icon.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (size, size)


def test_page_lists_hold_every_page_of_the_language_with_its_digest(sample_site: Path):
    for lang in ("nl", "fr"):
        listed = read_json(sample_site / lang / "offline-pages.json")
        pages = dict(listed["pages"])
        built = {p.parent.relative_to(sample_site).as_posix() + "/" for p in (sample_site / lang).rglob("index.html")}
        assert set(pages) == built | {f"{lang}/review/questions.json", f"{lang}/flashcards/cards.json"}, "and the lists of questions and cards the due counts read"
        for path, digest in [*listed["pages"], *listed["assets"]]:
            file = sample_site / (path + "index.html" if path.endswith("/") else path)
            assert hashlib.sha256(file.read_bytes()).hexdigest().startswith(digest)
        assert any(path.endswith(".css") for path, _ in listed["assets"])
        search = dict(listed["search"])
        built = {p.relative_to(sample_site).as_posix() for p in (sample_site / "pagefind" / lang).rglob("*") if p.is_file()}
        assert {f"pagefind/{lang}/pagefind.js", f"pagefind/{lang}/pagefind-entry.json", f"pagefind/{lang}/pagefind-worker.js"} <= set(search)
        assert any(path.endswith(".pf_meta") for path in search) and any("/fragment/" in path for path in search)
        assert set(search) <= built and not any("-ui." in path or "highlight" in path for path in search)  # the index, not Pagefind's UI
        for path, digest in search.items():
            assert hashlib.sha256((sample_site / path).read_bytes()).hexdigest().startswith(digest)


def test_the_worker_bounds_what_it_keeps_of_visited_pages(sample_site: Path):
    worker = (sample_site / "service-worker.js").read_text(encoding="utf-8")
    assert '"visitedLimit": 200' in worker and '"visitedDays": 30' in worker


def test_short_titles_name_the_installed_app(sample_site: Path):
    assert read_json(sample_site / "fr/manifest.webmanifest")["short_name"] == "Guide IA"
    assert read_json(sample_site / "manifest.webmanifest")["short_name"] == "AI-gids"


def test_the_worker_sits_at_the_root_and_offline_pages_link_relatively(sample_site: Path):
    worker = (sample_site / "service-worker.js").read_text(encoding="utf-8")
    assert '"version": "' in worker and '"nl/offline/"' in worker
    page = (sample_site / "nl/questions/kv-cache/index.html").read_text(encoding="utf-8")
    assert 'data-service-worker="../../../service-worker.js"' in page
    offline = parse_page(sample_site / "nl/offline/index.html")
    local = [url for _, url in offline.links if not url.startswith("#")]
    assert local and all(url.startswith("../../") for url in local)  # the worker makes them absolute where it runs
    sitemap = (sample_site / "sitemap.xml").read_text(encoding="utf-8")
    assert "/offline/" not in sitemap


def worker_version(site: Path) -> str:
    return re.search(r'"version": "(\w+)"', (site / "service-worker.js").read_text(encoding="utf-8")).group(1)


def test_the_worker_version_follows_the_pages(tmp_path: Path):
    shutil.copytree(STUDY_CONTENT, tmp_path / "content")
    site = tmp_path / "site"

    def build() -> str:
        assert run_cli("build", "--content", tmp_path / "content", "--out", site, "--no-search").status == 0
        return worker_version(site)

    first = build()
    assert build() == first
    question = tmp_path / "content/questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    assert build() != first


# -- in the browser ----------------------------------------------------------------------------


class ServedBuild:
    """A copy of the sample content, built for the base path and served under served_at
    (the base path unless said otherwise), with or without its search index; rebuildable."""

    def __init__(self, root: Path, served_at: str = BASE_PATH, search: bool = False):
        self.content = root / "content"
        self.site = root / "served" / served_at.strip("/")
        self.search = search
        shutil.copytree(STUDY_CONTENT, self.content)
        self.build()
        handler = functools.partial(_QuietHandler, directory=str(self.site.parent))
        self.server = QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{served_at}"

    def build(self) -> None:
        search = [] if self.search else ["--no-search"]
        result = run_cli("build", "--content", self.content, "--out", self.site, "--base-url", f"{ORIGIN}{BASE_PATH}", *search)
        assert result.status == 0, result.err

    def set_worker(self, name: str, value) -> None:
        """Change a setting of the built service worker (a limit a test can reach)."""
        worker = self.site / "service-worker.js"
        text, count = re.subn(rf'"{name}": [\d.]+', f'"{name}": {value}', worker.read_text(encoding="utf-8"))
        assert count == 1
        worker.write_text(text, encoding="utf-8")


@pytest.fixture
def serve(tmp_path):
    """Make a ServedBuild (once per test) with the given options."""
    builds = []

    def make(**options) -> ServedBuild:
        builds.append(ServedBuild(tmp_path, **options))
        return builds[-1]

    yield make
    for build in builds:
        build.server.shutdown()


@pytest.fixture
def served(serve):
    return serve()


@pytest.fixture
def context(browser):
    context = browser.new_context(service_workers="allow")
    with_timeouts(context)
    yield context
    context.close()


CACHED = """async (url) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(url)) return true;
  }
  return false;
}"""


def wait_until_controlled(page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)", timeout=LOADING_MS)  # once installed: its precache fetched


def wait_for(page, script: str, arg=None, seconds: float = 30) -> None:  # a worker installing on a loaded machine takes seconds
    """Poll an async page function until it returns true (wait_for_function does not await)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script}"
        page.wait_for_timeout(100)


def wait_until_kept(page, url: str) -> None:
    wait_for(page, CACHED, url)


@pytest.mark.browser
def test_the_worker_controls_the_page_after_a_reload(context, served):
    page = context.new_page()
    page.goto(served.url + "nl/")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == served.url
    page.reload()
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")


@pytest.mark.browser
def test_a_visited_page_reloads_offline_with_its_styles(context, served):
    page = context.new_page()
    page.goto(served.url + "nl/questions/kv-cache/")  # the first visit: not yet controlled
    wait_until_controlled(page)
    wait_until_kept(page, served.url + "nl/questions/kv-cache/")
    page.goto(served.url + "nl/glossary/")  # a later visit, through the worker
    wait_until_kept(page, served.url + "nl/glossary/")
    context.set_offline(True)
    for path, text in (("nl/questions/kv-cache/", "KV-cache"), ("nl/glossary/", "Woordenlijst")):
        page.goto(served.url + path)
        assert text in page.locator("main").inner_text()
        assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") != "inline"


def unstored_page_offline(context, url: str):
    """A page of the French home's site opened offline without having been visited: the
    worker answers with its offline page (kept when the home page was)."""
    page = context.new_page()
    page.goto(url + "fr/")
    wait_until_controlled(page)
    wait_until_kept(page, url + "fr/offline/")
    context.set_offline(True)
    page.goto(url + "fr/questions/kv-cache/")
    assert page.locator("h1").inner_text() == "Vous êtes hors ligne"
    return page


@pytest.mark.browser
def test_an_unstored_page_offline_shows_the_localized_offline_page(context, served):
    page = unstored_page_offline(context, served.url)
    assert page.locator("html").get_attribute("lang") == "fr"
    page.locator("main a", has_text="Accueil").click()  # the home page was visited
    assert page.url == served.url + "fr/"


@pytest.mark.browser
def test_after_saving_dutch_an_unvisited_dutch_page_opens_offline(context, served):
    page = context.new_page()
    page.goto(served.url + "nl/downloads/")
    status = page.locator("[data-offline-status]")
    page.get_by_role("button", name="Nederlands offline beschikbaar maken").click()
    page.wait_for_function("() => document.querySelector('[data-offline-status]').textContent.startsWith('Klaar')", timeout=30000)
    listed = read_json(served.site / "nl/offline-pages.json")
    assert f"{len(listed['pages']) + len(listed['assets'])} bestanden" in status.inner_text()
    context.set_offline(True)
    page.goto(served.url + "nl/glossary/warp/")
    assert page.locator("h1").inner_text() == "Warp"
    page.goto(served.url + "fr/glossary/warp/")  # French was not saved
    assert page.locator("h1").inner_text() == "Vous êtes hors ligne"


@pytest.mark.browser
def test_a_rebuild_shows_the_new_text_and_drops_the_old_caches(context, served):
    page = context.new_page()
    url = served.url + "nl/questions/kv-cache/"
    page.goto(url)
    wait_until_controlled(page)
    wait_until_kept(page, url)
    old_version = worker_version(served.site)
    question = served.content / "questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    served.build()
    assert worker_version(served.site) != old_version
    page.goto(url)
    assert "Waarvoor gebruikt" in page.locator("h1").inner_text()
    new_cache = f"studysite {served.url} {worker_version(served.site)}"
    wait_for(page, "(name) => caches.keys().then((names) => names.length === 1 && names[0] === name)", new_cache)
    context.set_offline(True)
    page.reload()
    assert "Waarvoor gebruikt" in page.locator("h1").inner_text()


@pytest.mark.browser
def test_a_rebuild_refreshes_the_changed_pages_of_a_saved_language(context, served):
    page = context.new_page()
    page.goto(served.url + "nl/downloads/")
    page.get_by_role("button", name="Nederlands offline beschikbaar maken").click()
    page.wait_for_function("() => document.querySelector('[data-offline-status]').textContent.startsWith('Klaar')", timeout=30000)
    question = served.content / "questions/gpu-programming/kv-cache.yaml"
    question.write_text(question.read_text(encoding="utf-8").replace("Waarom gebruikt", "Waarvoor gebruikt"), encoding="utf-8")
    served.build()
    page.goto(served.url + "nl/glossary/")  # any visit finds the new worker
    new_cache = f"studysite {served.url} {worker_version(served.site)}"
    wait_for(page, "(name) => caches.keys().then((names) => names.length === 1 && names[0] === name)", new_cache, seconds=30)
    context.set_offline(True)
    page.goto(served.url + "nl/questions/kv-cache/")  # not visited since the rebuild
    assert "Waarvoor gebruikt" in page.locator("h1").inner_text()
    page.goto(served.url + "nl/glossary/warp/")  # unchanged, carried over
    assert page.locator("h1").inner_text() == "Warp"


SAVE_DUTCH = "Nederlands offline beschikbaar maken"
KEPT_PATHS = """async (scope) => {
  const name = (await caches.keys()).find((n) => n.startsWith("studysite " + scope));
  const keys = await (await caches.open(name)).keys();
  return keys.map((request) => request.url.slice(scope.length));
}"""


def save_dutch(page, served) -> None:
    page.goto(served.url + "nl/downloads/")
    page.get_by_role("button", name=SAVE_DUTCH).click()
    page.wait_for_function("() => document.querySelector('[data-offline-status]').textContent.startsWith('Klaar')", timeout=30000)


def visit(page, url: str) -> None:
    page.goto(url)
    wait_until_kept(page, url)


@pytest.mark.browser
def test_the_offline_page_keeps_its_styles_and_links_when_served_under_another_path(context, serve):
    served = serve(served_at="/elsewhere/")  # built for /repo/
    page = unstored_page_offline(context, served.url)
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header .bar')).display") == "flex"
    links = page.locator("a[href]:not([href^='#'])").evaluate_all("links => links.map(a => new URL(a.href).pathname)")
    assert links and all(link.startswith("/elsewhere/") for link in links), links
    page.locator("main a", has_text="Accueil").click()
    assert page.url == served.url + "fr/"


@pytest.mark.browser
def test_a_language_saved_for_offline_reading_searches_offline(context, serve):
    served = serve(search=True)
    page = context.new_page()
    save_dutch(page, served)
    listed = read_json(served.site / "nl/offline-pages.json")
    assert f"{len(listed['pages']) + len(listed['assets']) + len(listed['search'])} bestanden" in page.locator("[data-offline-status]").inner_text()
    context.set_offline(True)
    page.goto(served.url + "nl/search/?q=systolic")
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)
    links = page.locator(".search-results li a").evaluate_all("links => links.map(a => a.pathname)")
    assert any(link.endswith("/nl/questions/systolic-array/") for link in links), links
    page.locator("#search-query").fill("warp")
    page.wait_for_function("() => [...document.querySelectorAll('.search-results a')].some((a) => a.pathname.endsWith('/nl/glossary/warp/'))")


@pytest.mark.browser
def test_a_visited_search_page_offline_says_search_needs_a_connection(context, serve):
    served = serve(search=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(served.url + "fr/search/?q=systolique")  # the first visit: the page asks to keep itself and its files
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)
    wait_until_controlled(page)
    wait_until_kept(page, served.url + "fr/search/")
    assert not [path for path in page.evaluate(KEPT_PATHS, served.url) if path.startswith("pagefind/")]  # French was not saved
    context.set_offline(True)
    page.reload()
    status = page.locator(".search-status")
    page.wait_for_function("() => document.querySelector('.search-status').textContent !== ''")
    assert status.inner_text().startswith("La recherche a besoin d’une connexion.")
    assert page.locator(".search-results li").count() == 0 and errors == []


@pytest.mark.browser
def test_a_search_begun_online_says_so_when_the_connection_goes(context, serve):
    served = serve(search=True)
    page = context.new_page()
    page.goto(served.url + "nl/")
    wait_until_controlled(page)
    page.goto(served.url + "nl/search/?q=systolic")
    page.wait_for_selector(".search-results li a", timeout=LOADING_MS)
    assert not [path for path in page.evaluate(KEPT_PATHS, served.url) if path.startswith("pagefind/")]  # Dutch was not saved
    context.set_offline(True)
    page.locator("#search-query").fill("warp")  # its results' texts were never fetched, nor kept
    page.wait_for_function("() => document.querySelector('.search-status').textContent.startsWith('Zoeken heeft een verbinding nodig')")
    assert page.locator(".search-results li").count() == 0


@pytest.mark.browser
def test_visited_pages_beyond_the_limit_go_oldest_first_and_saved_ones_stay(context, serve):
    served = serve()
    served.set_worker("visitedLimit", 3)
    page = context.new_page()
    page.goto(served.url + "fr/")
    wait_until_controlled(page)
    save_dutch(page, served)
    visited = ["fr/glossary/", "fr/glossary/warp/", "fr/questions/kv-cache/", "fr/topics/ai-hardware-stack/", "fr/comparisons/parallelism-strategies/"]
    for path in visited:
        visit(page, served.url + path)
    french = "(await eval(script)(scope)).filter((p) => p.startsWith('fr/') && p !== 'fr/offline/')"
    wait_for(page, f"async ([script, scope]) => {french}.length <= 3", [KEPT_PATHS, served.url])
    kept = set(page.evaluate(KEPT_PATHS, served.url))
    french = {path for path in kept if path.startswith("fr/") and path != "fr/offline/"}
    assert visited[-1] in french and visited[0] not in french and "fr/" not in french
    listed = read_json(served.site / "nl/offline-pages.json")
    assert {path for path, _ in listed["pages"]} <= kept  # what the reader saved is never evicted
    context.set_offline(True)
    page.goto(served.url + visited[0])
    assert page.locator("h1").inner_text() == "Vous êtes hors ligne"
    page.goto(served.url + visited[-1])
    assert page.locator("h1").inner_text() != "Vous êtes hors ligne"


AGE_KEPT = """async ([url, days]) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const kept = await cache.match(url);
    if (!kept) continue;
    const headers = new Headers(kept.headers);
    headers.set("x-studysite-kept", String(Date.now() - days * 86400000));
    await cache.put(url, new Response(await kept.blob(), { status: kept.status, headers }));
  }
}"""


def age_kept(page, url: str, days: float) -> None:
    """Make a kept file look as if it had been fetched days ago: the time the worker keeps
    beside it, which its age is counted from."""
    page.evaluate(AGE_KEPT, [url, days])


@pytest.mark.browser
def test_visited_pages_expire_and_saved_ones_do_not(context, serve):
    served = serve()
    page = context.new_page()
    save_dutch(page, served)
    visit(page, served.url + "fr/glossary/")
    age_kept(page, served.url + "fr/glossary/", 31)  # visitedDays: 30
    age_kept(page, served.url + "nl/glossary/warp/", 31)  # saved with Dutch: never evicted, however old
    visit(page, served.url + "fr/")  # a file kept: the worker trims what is past its time
    wait_for(page, f"async (url) => !(await ({CACHED})(url))", served.url + "fr/glossary/")
    context.set_offline(True)
    page.goto(served.url + "fr/glossary/")
    assert page.locator("h1").inner_text() == "Vous êtes hors ligne"
    page.goto(served.url + "nl/glossary/warp/")
    assert page.locator("h1").inner_text() == "Warp"


SIZE_IN_WORDS = """([bytes, lang]) => {
  const [unit, amount] = bytes >= 1e6 ? ["megabyte", bytes / 1e6] : ["kilobyte", Math.round(bytes / 1e3)];
  return new Intl.NumberFormat(lang, {style: "unit", unit, maximumFractionDigits: 1}).format(amount);
}"""


def listed_bytes(site: Path, lang: str) -> int:
    """The bytes of every file of a language's page list, the list included: what saving it keeps."""
    listed = read_json(site / lang / "offline-pages.json")
    files = [site / (path + "index.html" if path.endswith("/") else path) for path, _ in [*listed["pages"], *listed["assets"]]]
    return sum(file.stat().st_size for file in [*files, site / lang / "offline-pages.json"])


@pytest.mark.browser
@pytest.mark.parametrize("viewport,scheme", [({"width": 375, "height": 667}, "light"), ({"width": 1280, "height": 800}, "dark")])
def test_a_saved_language_says_so_with_its_size_after_a_reload_and_can_be_removed(browser, serve, viewport, scheme):
    from test_accessibility import violations

    expect = pytest.importorskip("playwright.sync_api").expect
    served = serve()
    context = with_timeouts(browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True, service_workers="allow"))
    page = context.new_page()
    page.goto(served.url + "nl/glossary/")
    wait_until_controlled(page)
    visit(page, served.url + "nl/glossary/")  # visited: kept by the visited pages' rules whatever is saved
    save_dutch(page, served)
    size = page.evaluate(SIZE_IN_WORDS, [listed_bytes(served.site, "nl"), "nl"])
    saved, save, remove = page.locator("[data-offline-saved]"), page.get_by_role("button", name=SAVE_DUTCH), page.locator("[data-offline-remove]")
    expect(saved).to_have_text(re.compile(rf"\bNederlands .*\({re.escape(size)}\)\.$"))
    assert page.evaluate("document.activeElement.matches('[data-offline-saved]')")  # where the pressed button was
    page.reload()  # the worker says what is saved
    expect(saved).to_have_text(re.compile(rf"\({re.escape(size)}\)"))
    assert remove.is_visible() and save.is_hidden()
    assert violations(page) == []
    remove.click()
    expect(save).to_be_visible()
    assert saved.is_hidden() and remove.is_hidden() and page.evaluate("document.activeElement.matches('[data-offline-save-button]')")
    assert re.search(r"\bNederlands\b", page.locator("[data-offline-status]").inner_text())
    kept = set(page.evaluate(KEPT_PATHS, served.url))
    assert "nl/glossary/" in kept and "nl/glossary/warp/" not in kept and "nl/offline-pages.json" not in kept, sorted(kept)
    assert "nl/offline/" in kept  # the offline page stays for every page
    page.reload()
    expect(save).to_be_visible()
    assert saved.is_hidden()
    context.set_offline(True)
    page.goto(served.url + "nl/glossary/warp/")
    assert page.locator("h1").inner_text() == "Je bent offline"
    page.goto(served.url + "nl/glossary/")
    assert page.locator("h1").inner_text() == "Woordenlijst"
    context.close()
