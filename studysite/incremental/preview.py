"""A preview (serve's quick rebuild) makes the pages only: the files that take long to make
and are part of no page (the decks, the search index, the sitemaps) are carried over from the
build before, and made when a reader asks for one (serve/server.py)."""

from __future__ import annotations

from studysite import urls
from studysite.output import search
from studysite.output.write import Manifest, SiteWriter
from studysite.render.batch import SITEMAP_FILE
from studysite.study import anki


def made_after_the_pages(path: str) -> bool:
    """Whether a site file is one a preview keeps as it was: a deck, a search index file or
    a sitemap."""
    return path.endswith(anki.DECK_SUFFIX) or path.startswith(urls.SEARCH_INDEX_FOLDER + "/") or bool(SITEMAP_FILE.fullmatch(path))


def keep_made_after_the_pages(writer: SiteWriter, previous: Manifest) -> None:
    """The previous build's decks, search index and sitemaps, carried over as they are; an
    index whose pages changed is marked behind, so the next build remakes it."""
    behind = search.languages_to_index(writer, previous)
    for path in previous.files:
        if path.startswith(urls.SEARCH_INDEX_FOLDER + "/"):
            writer.carry_over(path, search.INDEX_BEHIND if path.split("/")[1] in behind else "")
        elif made_after_the_pages(path):
            writer.carry_over(path)
