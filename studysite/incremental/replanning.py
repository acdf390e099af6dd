"""Pages planned again after an edit: a build whose model was kept (kept_model.py) takes the
pages planned from it as they were but for those that show an edit, and serve plans anew the
pages an edit shows on (serve/quick_edit.py). pages/ plans every page as if the build were
cold; this decides which of its plans to take again."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from functools import partial

from studysite.content.graph import Graph
from studysite.pages.builder import ViewBuilder
from studysite.pages.view_models import Page, View


def pages_again(
    views: ViewBuilder, kept: tuple[Page, ...], edited: frozenset[str], shows: Callable[[Page], tuple[str, ...]]
) -> tuple[list[Page], frozenset[int]]:
    """Every page, from the pages planned by the build whose model views' content came from
    (with no view model), and the positions of those planned anew: a record page that shows
    no edited source (shows: page_sources.PageSources.of) is as it was, its view model made
    when it is rendered; the record pages that show an edit and the site's and languages'
    own pages are planned anew."""
    own = {page.path: page for page in views.own_pages()}
    pages, anew = [], []
    for index, page in enumerate(kept):
        again = own.get(page.path)
        if again is None and edited.isdisjoint(shows(page)):
            pages.append(replace(page, context=partial(_view_again, views, page)))
        else:
            pages.append(again or views.page_again(page))
            anew.append(index)
    return pages, frozenset(anew)


def _view_again(views: ViewBuilder, page: Page) -> View:
    return views.page_again(page).context()


def graph_after_edit(graph: Graph, questions: Collection[str]) -> Graph:
    """The graph of a site after an edit that kept it as it was but for the edited questions'
    texts, whose terms are found anew when their pages are planned (where the terms are
    named, but in those texts)."""
    return replace(graph, mentions={key: found for key, found in graph.mentions.items() if key[0] not in questions})
