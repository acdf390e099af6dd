"""Offline: what makes the site installable and readable without a connection.

A build writes, besides the pages:
- a web app manifest per language (<lang>/manifest.webmanifest, named in that language)
  and one at the root for the language chooser; start URL, scope and icons are relative
  to the manifest, so a project site under /repo/ works;
- a list per language (<lang>/offline-pages.json) of that language's pages (and the list
  of its questions that the due count reads), the site's
  assets and the files its search needs (Pagefind's index, not its UI), each with the start
  of its sha256, for "make this language available offline" (so search works offline too);
- the service worker (service-worker.js at the root, so that its scope is the whole site).
  Its cache is named after a digest of those lists: any changed page makes a new worker,
  which carries over the cached files whose digest did not change and deletes old caches.
  Pages kept because they were visited are bounded (VISITED_LIMIT, oldest first, and
  VISITED_DAYS); what a reader saved with "make available offline" is never evicted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

import jinja2

from studysite import urls
from studysite.languages import text_direction

WORKER = "service-worker.js"
WORKER_TEMPLATE = "service-worker.js"
MANIFEST = "manifest.webmanifest"
LIST_NAME = "offline-pages.json"
DIGEST_LENGTH = 16
ICONS = (("icons/icon.svg", "any", "image/svg+xml"), ("icons/icon-192.png", "192x192", "image/png"), ("icons/icon-512.png", "512x512", "image/png"))
THEME_COLOR = "#1f5fa8"
BACKGROUND_COLOR = "#fbfbf8"
PASS_THROUGH = (".apkg", WORKER)  # downloads are saved by the browser; the worker updates itself
VISITED_LIMIT = 200  # pages and files kept because a reader opened them, beyond which the oldest go
VISITED_DAYS = 30  # how long such a file is kept after it was last fetched
_SEARCH_UI = re.compile(r"pagefind-(?:(?:component-|modular-)?ui|highlight)\.")  # Pagefind's own UI: the search page does not load it


def page_list_path(language: str) -> str:
    return f"{language}/{LIST_NAME}"


def manifest_path(page_path: str, language: str) -> str:
    """The manifest a page links to: its language's, or the root one for the chooser and 404."""
    return f"{language}/{MANIFEST}" if page_path.startswith(f"{language}/") else MANIFEST


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def manifest(title: str, description: str, language: str, assets: Mapping[str, str], at_root: bool, short_name: str = "") -> bytes:
    """A web app manifest (short_name: site.yaml's short_title, if any, shown under the app's
    icon); every URL in it is relative to where it is written."""
    up = "" if at_root else "../"
    icons = [{"src": up + assets[name], "sizes": sizes, "type": kind, "purpose": "any"} for name, sizes, kind in ICONS if name in assets]
    return _json(
        {
            "name": title,
            "short_name": short_name or title,
            "description": description,
            "lang": language,
            "dir": text_direction(language),
            "id": up or "./",
            "start_url": "./",
            "scope": up or "./",
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": icons,
        }
    )


def is_search_file(path: str, language: str) -> bool:
    """Whether a site file is one the language's search page needs (Pagefind's script, its
    web worker, wasm and index), so that a language saved for offline reading can search."""
    prefix = urls.search_index_folder(language) + "/"
    return path.startswith(prefix) and not _SEARCH_UI.match(path[len(prefix) :])


def page_lists(written: Mapping[str, str], languages: tuple[str, ...]) -> dict[str, bytes]:
    """Per language, its pages, the assets and its search files, with digests:
    {"pages": [[path, digest], ...], "assets": [...], "search": [...]}."""
    assets = sorted([path, digest[:DIGEST_LENGTH]] for path, digest in written.items() if path.startswith("assets/"))
    lists = {}
    for language in languages:
        pages = sorted(
            [urls.path_of(path), digest[:DIGEST_LENGTH]]
            for path, digest in written.items()
            if path.startswith(f"{language}/") and path.endswith("/index.html") or path == urls.review_questions(language)
        )
        search = sorted([path, digest[:DIGEST_LENGTH]] for path, digest in written.items() if is_search_file(path, language))
        lists[page_list_path(language)] = _json({"assets": assets, "pages": pages, "search": search})
    return lists


def worker_script(environment: jinja2.Environment, lists: Mapping[str, bytes], languages: tuple[str, ...], precache: list[str]) -> bytes:
    """The service worker; its version is a digest of the page lists and what it stores first."""
    digest = hashlib.sha256()
    for path, data in sorted(lists.items()):
        digest.update(path.encode() + b"\0" + data)
    digest.update(_json(precache))
    config = {
        "version": digest.hexdigest()[:DIGEST_LENGTH],
        "languages": list(languages),
        "lists": {language: page_list_path(language) for language in languages},
        "offline": {language: urls.offline(language) for language in languages},
        "precache": precache,
        "assets": "assets/",
        "passThrough": list(PASS_THROUGH),
        "search": urls.SEARCH_INDEX_FOLDER + "/",
        "visitedLimit": VISITED_LIMIT,
        "visitedDays": VISITED_DAYS,
    }
    return environment.get_template(WORKER_TEMPLATE).render(config=config).encode("utf-8")


def precache_paths(languages: tuple[str, ...], assets: Mapping[str, str]) -> list[str]:
    """Stored when the worker installs: the offline pages and the assets they use (not the app icons)."""
    return [*(urls.offline(language) for language in languages), *sorted(path for name, path in assets.items() if not name.startswith("icons/"))]


def offline_files(
    environment: jinja2.Environment,
    written: Mapping[str, str],
    titles: Mapping[str, str],
    descriptions: Mapping[str, str],
    assets: Mapping[str, str],
    languages: tuple[str, ...],
    short_titles: Mapping[str, str] | None = None,
) -> dict[str, bytes]:
    """Every file of the installable, offline site, by path; written after the pages, the
    assets and the search index."""
    default, short = languages[0], short_titles or {}
    files = {MANIFEST: manifest(titles[default], descriptions.get(default, ""), default, assets, True, short.get(default, ""))}
    for language in languages:
        files[f"{language}/{MANIFEST}"] = manifest(titles[language], descriptions.get(language, ""), language, assets, False, short.get(language, ""))
    lists = page_lists(written, languages)
    files.update(lists)
    files[WORKER] = worker_script(environment, lists, languages, precache_paths(languages, assets))
    return files
