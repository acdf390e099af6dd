"""Keys: what each page is made from, as a digest; an equal key means an equal page.

A rebuild renders only the pages whose key changed. The key of a record page (question,
practice, topic, term, comparison) is made from its sources alone (page_sources.py): the
records it shows and the names its text is linked by, so an edit re-renders the pages that
show what was edited without making any other page's view model; so is the review page, from
its questions' titles. Every other page (home, glossary, status...) is keyed by its whole
view model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from studysite import urls
from studysite.content.graph import Graph
from studysite.content.records import KINDS, Content, Record
from studysite.fileio import files_below, read_bytes
from studysite.incremental.page_sources import keyed_by_sources
from studysite.pages.view_models import Page, View
from studysite.render.batch import Render


def files_digest(code_stamp: str, resource_folders: list[Path]) -> str:
    """A digest of what every page's bytes depend on: Studysite's code and libraries (the
    cache's code_stamp), the templates and the UI catalogs."""
    digest = hashlib.sha256(code_stamp.encode())
    for folder in resource_folders:
        for name in sorted(files_below(folder)):
            digest.update(f"{folder.as_posix()}/{name}".encode() + b"\0" + readable_bytes(folder / name, folder))
    return digest.hexdigest()


def readable_bytes(path: Path, folder: Path) -> bytes:
    """A resource file's bytes; a mark for one a build refuses to read (fileio.read_bytes:
    the stage that reads it says why) or that is gone."""
    try:
        return read_bytes(path, within=folder)
    except OSError:
        return b"\0unreadable"


def inputs_key(files: str, site: object) -> str:
    """Everything but its own data that any page depends on: those files and the site-wide data."""
    return hashlib.sha256(f"{files}{site!r}".encode()).hexdigest()


def source_digests(content: Content, graph: Graph) -> dict[str, str]:
    """A digest per source a page can name: "kind/id" for each record (its text in every
    language included), "terms:<lang>" for the term names that link text written in lang,
    "glossary:<lang>" for the names the glossary of lang lists."""
    digests = {}
    for kind in KINDS:
        for record_id, record in content.records(kind).items():
            digests[f"{kind}/{record_id}"] = source_digest(record)
    for language, matcher in graph.matchers.items():
        digests[f"terms:{language}"] = source_digest(sorted(matcher.names.items()))
    for language, lg in graph.languages.items():
        digests[f"glossary:{language}"] = source_digest([(t, content.terms[t].texts[text_lang].term, text_lang) for t, text_lang in lg.edition.terms.items()])
    return digests | title_digests(content, graph)


def title_digests(content: Content, graph: Graph) -> dict[str, str]:
    """A digest per language ("titles:<lang>") of the questions its edition shows, with the
    stems their titles are made from (the review page lists them all); made again after an edit."""
    return {
        f"titles:{language}": source_digest([(q, text_lang, content.questions[q].texts[text_lang].question) for q, text_lang in lg.edition.questions.items()])
        for language, lg in graph.languages.items()
    }


def digests_after_edit(previous: Content, content: Content, graph: Graph, edited: Iterable[tuple[str, Record]], before: Mapping[str, str]) -> dict[str, str]:
    """The digests an edit that kept the graph as it was gives anew: each edited record's
    (kind, record), and, when it changed a question's stem, those of the titles it changed
    (previous: the content before the edit; before: the digests until then)."""
    edited = list(edited)
    digests = {f"{kind}/{record.id}": source_digest(record) for kind, record in edited}
    if not any(kind == "questions" and _stems(record) != _stems(previous.questions[record.id]) for kind, record in edited):
        return digests
    return digests | {name: digest for name, digest in title_digests(content, graph).items() if before.get(name) != digest}


def _stems(question: Record) -> dict[str, str]:
    return {language: text.question for language, text in question.texts.items()}


def source_digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()


@dataclass(frozen=True)
class PageKeys:
    inputs: str
    sources: Mapping[str, str]
    shows: Callable[[Page], tuple[str, ...]]  # a page's sources (page_sources.PageSources.of)
    known: Mapping[str, str] = field(default_factory=dict)  # path -> key of record pages worked out before, with these inputs
    edited: frozenset[str] = frozenset()  # sources edited since then: a record page that names one is keyed anew

    def of(self, page: Page, context: View | None) -> str:
        """The page's key: from its sources when it is keyed by them, else from context."""
        keyed = keyed_by_sources(page)
        shown = self.shows(page) if keyed else ()
        if keyed and page.path in self.known and self.edited.isdisjoint(shown):
            return self.known[page.path]
        versions = (sorted(page.alternates.items()), sorted(page.fallbacks), page.x_default)
        described = (page.path, page.template, page.language, page.title, page.description, versions, page.in_sitemap)
        if keyed:  # each source's name, then each one's digest (or "-"): joined, not repr'd, for speed
            get = self.sources.get
            made_of = "\0".join(shown) + "\1" + "".join([get(source) or "-" for source in shown])
        else:
            made_of = repr(context)
        return hashlib.sha256(f"{self.inputs}{described!r}{made_of}".encode()).hexdigest()

    def of_record_pages(self, pages: list[Page]) -> dict[str, str]:
        """path -> key of every page keyed by its sources (a record page)."""
        return {page.path: self.of(page, None) for page in pages if keyed_by_sources(page)}


def pages_to_render(pages: list[Page], keys: PageKeys, reuse: Callable[[str, str], bool]) -> list[Render]:
    """The pages whose key changed, each with its key (and its view model, when the key was
    made from it); reuse(path, key) carries each other one over (the writer's)."""
    todo = []
    for page in pages:
        context = None if keyed_by_sources(page) else page.context()
        path, key = urls.file_for(page.path), keys.of(page, context)
        if not reuse(path, key):
            todo.append(Render(page, key, context))
    return todo
