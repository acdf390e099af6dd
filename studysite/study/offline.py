"""Offline: what makes the site installable and readable without a connection.

A build writes, besides the pages:
- a web app manifest per language (<lang>/manifest.webmanifest, named in that language)
  and one at the root for the language chooser; start URL, scope and icons are relative
  to the manifest, so a project site under /repo/ works;
- a list per language (<lang>/offline-pages.json) of that language's pages (and the lists
  of its questions and flashcards that the due counts read), the site's
  assets, the media its texts show (images, audio) and the files its search needs
  (Pagefind's index, not its UI), each with the start of its sha256, for "make this
  language available offline" (so search works offline too);
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
from studysite.content.graph import Edition
from studysite.content.html import SITE_TEXT, ContentHtml
from studysite.languages import text_direction
from studysite.output.theme import DEFAULT_THEME_COLOR

WORKER = "service-worker.js"
WORKER_TEMPLATE = "service-worker.js"
MANIFEST = "manifest.webmanifest"
LIST_NAME = "offline-pages.json"
DIGEST_LENGTH = 16
ICONS = (("icons/icon.svg", "any", "image/svg+xml"), ("icons/icon-192.png", "192x192", "image/png"), ("icons/icon-512.png", "512x512", "image/png"))
BACKGROUND_COLOR = "#fbfbf8"
PASS_THROUGH = (".apkg", WORKER)  # downloads are saved by the browser; the worker updates itself
VISITED_LIMIT = 200  # pages and files kept because a reader opened them, beyond which the oldest go
VISITED_DAYS = 30  # how long such a file is kept after it was last fetched
# Pagefind's own UI, in any part of an index: the search page does not load it
_SEARCH_UI = re.compile(rf"(?:{re.escape(urls.SEARCH_PART_PREFIX)}\d+/)?pagefind-(?:(?:component-|modular-)?ui|highlight)\.")


def page_list_path(language: str) -> str:
    return f"{language}/{LIST_NAME}"


def manifest_path(page_path: str, language: str) -> str:
    """The manifest a page links to: its language's, or the root one for the chooser and 404."""
    return f"{language}/{MANIFEST}" if page_path.startswith(f"{language}/") else MANIFEST


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def default_icons(assets: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """The app's icons of the static files: (path from the site's root, sizes, type)."""
    return [(assets[name], sizes, kind) for name, sizes, kind in ICONS if name in assets]


def manifest(
    title: str,
    description: str,
    language: str,
    icons: list[tuple[str, str, str]],
    at_root: bool,
    short_name: str = "",
    theme_color: str = DEFAULT_THEME_COLOR,
) -> bytes:
    """A web app manifest (icons: (path from the site's root, sizes, type); short_name:
    site.yaml's short_title, if any, shown under the app's icon); every URL in it is
    relative to where it is written."""
    up = "" if at_root else "../"
    listed = [{"src": up + path, "sizes": sizes, "type": kind, "purpose": "any"} for path, sizes, kind in icons]
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
            "theme_color": theme_color,
            "background_color": BACKGROUND_COLOR,
            "icons": listed,
        }
    )


def is_search_file(path: str, language: str) -> bool:
    """Whether a site file is one the language's search page needs (Pagefind's script, its
    web worker, wasm and index), so that a language saved for offline reading can search."""
    prefix = urls.search_index_folder(language) + "/"
    return path.startswith(prefix) and not _SEARCH_UI.match(path[len(prefix) :])


def media_shown(content_html: ContentHtml, edition: Edition) -> set[str]:
    """The paths of the media files a language's pages show: those of the texts its edition
    shows (in the language each is shown in), its site description's and the theme's."""
    shown = {(kind, record_id, text_lang) for kind, field in _EDITION_FIELDS.items() for record_id, text_lang in getattr(edition, field).items()}
    shown.add((*SITE_TEXT, edition.language))
    paths = {media.path for key, files in content_html.media.items() if key in shown for media in files}
    return paths | {media.path for role, media in content_html.theme.items() if role != "app-icon"}


_EDITION_FIELDS = {"questions": "questions", "topics": "topics", "glossary": "terms", "comparisons": "comparisons"}  # content folder -> Edition's field


def page_lists(written: Mapping[str, str], languages: tuple[str, ...], media: Mapping[str, set[str]] | None = None) -> dict[str, bytes]:
    """Per language, its pages, the assets, the media its pages show and its search files,
    with digests: {"pages": [[path, digest], ...], "assets": [...], "media": [...], "search": [...]}."""
    assets = sorted([path, digest[:DIGEST_LENGTH]] for path, digest in written.items() if path.startswith("assets/"))
    lists = {}
    for language in languages:
        pages = sorted(
            [urls.path_of(path), digest[:DIGEST_LENGTH]]
            for path, digest in written.items()
            if path.startswith(f"{language}/") and path.endswith("/index.html") or path in (urls.review_questions(language), urls.flashcard_list(language))
        )
        search = sorted([path, digest[:DIGEST_LENGTH]] for path, digest in written.items() if is_search_file(path, language))
        shown = sorted([path, written[path][:DIGEST_LENGTH]] for path in (media or {}).get(language, ()) if path in written)
        lists[page_list_path(language)] = _json({"assets": assets, "pages": pages, "search": search} | ({"media": shown} if shown else {}))
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
    media: Mapping[str, set[str]] | None = None,
    icons: list[tuple[str, str, str]] | None = None,
    theme_color: str = DEFAULT_THEME_COLOR,
) -> dict[str, bytes]:
    """Every file of the installable, offline site, by path; written after the pages, the
    assets and the search index. media: the paths of the media each language's pages show;
    icons: the app's (default_icons, else the theme's)."""
    default, short = languages[0], short_titles or {}
    icons = icons if icons is not None else default_icons(assets)
    files = {MANIFEST: manifest(titles[default], descriptions.get(default, ""), default, icons, True, short.get(default, ""), theme_color)}
    for language in languages:
        text = (titles[language], descriptions.get(language, ""), language, icons, False, short.get(language, ""), theme_color)
        files[f"{language}/{MANIFEST}"] = manifest(*text)
    lists = page_lists(written, languages, media)
    files.update(lists)
    files[WORKER] = worker_script(environment, lists, languages, precache_paths(languages, assets))
    return files
