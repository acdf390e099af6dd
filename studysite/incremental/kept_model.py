"""Kept model: phase one's result, kept from one build for the next.

Reading, checking, converting and cross-referencing every record takes a rebuild about 2 s
at 5,000 questions, though an edit mostly changes the text of a record or two. So each
build keeps its model (the records, their HTML, the graph, each record's language blocks
and what reading reported) in a file beside the build cache. The next build takes it
back when its settings, the code and every input but the record files are as they were,
and the record files changed as serve's quick edits may (serve/quick_edit.py): the same records
with the same ids, shape and terms found in their text, no file added or removed, and
neither the file nor its edit with a problem to report. It then reads and converts just
those files; in any other case it reads everything again.

The file is a pickle, checked by its digest and made only of plain data and the model's
own classes (MODEL_MODULES), as the build cache is (incremental/cache.py). It is written by a process
aside while the build goes on. A build that took the model keeps the file as it is and
writes beside it just what its own model has that the file's has not (ModelEdits: the
records of the files edited since, named to the file by its digest); the next build
takes the two together. A build that read everything, or that finds more than QUICK_FILES
files edited since the model file was written, writes the whole model again. A build
that takes the model keeps every cache entry, used or not, for the next build that reads
everything.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import importlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from studysite.content.fields import kind_in_folder, placement
from studysite.content.graph import Graph, terms_named
from studysite.content.html import ContentHtml, convert_texts
from studysite.content.load import is_record_file, read_file_bytes
from studysite.content.records import FIELD_OF_KIND, KINDS, Content, Record
from studysite.content.validate import read_record, record_alone
from studysite.diagnostics import Diagnostic, Report
from studysite.i18n import content_po
from studysite.i18n.content_po import ContentCatalog, Coverage
from studysite.i18n.status import RecordBlocks
from studysite.incremental.cache import ALLOWED, BuildCache, cache_folder, memo_of, site_name
from studysite.incremental.checked_files import checked_values, load_checked, read_checked, remove_temporary_files, save_checked
from studysite.incremental.inputs import Inputs
from studysite.incremental.page_keys import PageKeys, digests_after_edit
from studysite.pages.view_models import Page

QUICK_FILES = 64  # more record files changed than this: everything is read again

# The modules whose dataclasses and enums a kept model is made of, beside plain data.
MODEL_MODULES = (
    "studysite.incremental.kept_model",
    "studysite.content.records",
    "studysite.content.graph",
    "studysite.text.linking",
    "studysite.content.html",
    "studysite.content.media",
    "studysite.i18n.status",
    "studysite.i18n.content_po",
    "studysite.diagnostics",
    "studysite.pages.view_models",
)
MODEL_FUNCTIONS = {("re", "_compile"), ("pathlib", "PosixPath"), ("pathlib", "WindowsPath")}  # a term matcher's pattern; a catalog's path


@dataclasses.dataclass(frozen=True)
class Model:
    """What phase one makes before the pages are planned (pipeline.read_site)."""

    content: Content
    content_html: ContentHtml
    graph: Graph
    blocks: list[RecordBlocks]  # the lines of each record's language blocks (i18n/status.py)
    coverage: Mapping[str, Coverage]  # what content.po translated
    catalogs: Mapping[str, ContentCatalog]
    supplied: frozenset[tuple[str, str, str]]
    diagnostics: tuple[Diagnostic, ...]  # what reading the content reported
    sources: Mapping[str, str]  # a digest of each source a page can name (incremental/page_keys.py)
    pages: tuple[Page, ...] = ()  # the pages planned from it, with no view model (a kept model's)
    edited: frozenset[str] = frozenset()  # the sources edited since they were planned
    keys: Mapping[str, str] = dataclasses.field(default_factory=dict)  # the record pages' keys (incremental/page_keys.py), worked out then
    keys_inputs: str = ""  # with these inputs
    base: KeptBase | None = None  # the model file it was taken from, when it was (never itself kept)


@dataclasses.dataclass(frozen=True)
class MadeFrom:
    """What a kept model was made from; kept before it, so that a model made from other
    settings or files is not unpickled."""

    settings: str  # the build's settings and the code's stamp
    others: str  # a digest of every input file but the record files
    records: Mapping[str, str]  # relative path of each record file -> sha256 of its bytes


@dataclasses.dataclass(frozen=True)
class KeptBase:
    """The model file a build took its model from (its base), and what of it the build
    needs to keep just what its model has that the base has not (ModelEdits)."""

    digest: str  # the base file's sha256
    files: frozenset[str]  # the record files edited since the base was kept
    pages: tuple[Page, ...]
    keys: Mapping[str, str]
    keys_inputs: str


@dataclasses.dataclass(frozen=True)
class ModelEdits:
    """What a model taken from a base and brought up to date has that the base has not: the
    records of the files edited since, and what came of them. Kept in a file of its own
    beside the base (edits_path), which stays as it was: a build after an edit writes a few
    kilobytes where the whole model is some 30 MB at 5,000 questions."""

    base: str  # the base file's sha256
    files: frozenset[str]
    edited: tuple[Edited, ...]  # the record of each of those files, with its language blocks
    html: ContentHtml  # their texts' HTML
    sources: Mapping[str, str]  # their digests (incremental/page_keys.py)
    pages: Mapping[int, Page]  # the planned pages that differ from the base's, by position
    keys: Mapping[str, str]  # the record pages' keys that differ from the base's, or all of them
    keys_whole: bool
    keys_inputs: str


def page_keys(model: Model, inputs: str, pages: list[Page], shows: Callable[[Page], tuple[str, ...]]) -> PageKeys:
    """The page keys, with every record page's worked out: those of a kept model's pages
    that show no edit are taken from it, when its inputs were these."""
    known = model.keys if model.keys_inputs == inputs else {}
    keys = PageKeys(inputs, model.sources, shows, known, model.edited)
    return PageKeys(inputs, model.sources, shows, keys.of_record_pages(pages))


def model_path(content_dir: Path) -> Path:
    return cache_folder() / f"model-{site_name(content_dir)}.pickle"


def edits_path(content_dir: Path) -> Path:
    return cache_folder() / f"model-{site_name(content_dir)}.edits.pickle"


def keep(content_dir: Path, settings: str, inputs: Inputs, model: Model, pages: list[Page], keys: PageKeys, planned_anew: frozenset[int] | None = None) -> None:
    """Save a model and the pages planned from it with their keys, with what it was made
    from (in a process aside: the temporary file of one stopped before its end is removed
    by the next). A model taken from a base with a few files edited since is kept as its
    edits; any other as a new base. planned_anew: the positions of the pages planned anew
    from the model's own (replanning.pages_again); each other page is the model's, as it was."""
    path, edits = model_path(content_dir), edits_path(content_dir)
    remove_temporary_files(path)
    remove_temporary_files(edits)
    records, others = fingerprint(content_dir, inputs)
    made_from = MadeFrom(settings, others, records)
    planned = tuple(
        dataclasses.replace(page, context=None) if planned_anew is None or index in planned_anew else model.pages[index] for index, page in enumerate(pages)
    )
    base = model.base
    if base is not None and len(base.files) <= QUICK_FILES and len(planned) == len(base.pages):
        save_checked(edits, made_from, model_edits(model, base, planned, keys))
        return
    graph = dataclasses.replace(model.graph, mentions={})  # the pages of a later build link their edited texts anew
    model = dataclasses.replace(model, graph=graph, pages=planned, edited=frozenset(), keys=keys.known, keys_inputs=keys.inputs, base=None)
    save_checked(path, made_from, model)
    with contextlib.suppress(OSError):
        edits.unlink(missing_ok=True)  # it names the base replaced: no build would take it


def model_edits(model: Model, base: KeptBase, pages: tuple[Page, ...], keys: PageKeys) -> ModelEdits:
    """What the model and its planned pages have that their base has not."""
    by_file, blocks = model.content.records_by_file(), {b.ref.path: b.blocks for b in model.blocks if b.ref.path in base.files}
    edited = tuple(
        Edited(kind, model.content.records(kind)[record_id], path, blocks[path]) for path in sorted(base.files) for kind, record_id in [by_file[path]]
    )
    ids = {FIELD_OF_KIND[kind]: records.keys() for kind, records in _records_by_kind(edited).items()}
    html, languages = model.content_html, model.content.site.languages
    texts = {attribute: _texts_of(getattr(html, attribute), ids.get(attribute, ()), languages) for attribute in FIELD_OF_KIND.values()}
    names = [*(f"{item.kind}/{item.record.id}" for item in edited), *(f"titles:{language}" for language in model.graph.languages)]
    sources = {name: model.sources[name] for name in names}
    moved = {index: page for index, (page, was) in enumerate(zip(pages, base.pages, strict=True)) if page is not was and page != was}
    keys_whole = keys.inputs != base.keys_inputs or not base.keys.keys() <= keys.known.keys()
    changed_keys = dict(keys.known) if keys_whole else {page: key for page, key in keys.known.items() if base.keys.get(page) != key}
    shown = {(item.kind, item.record.id) for item in edited}
    media = {key: files for key, files in html.media.items() if key[:2] in shown}
    audio = {key: file for key, file in html.audio.items() if key[:2] in shown}
    edited_html = ContentHtml(**texts, site={}, media=media, audio=audio)
    return ModelEdits(base.digest, base.files, edited, edited_html, sources, moved, changed_keys, keys_whole, keys.inputs)


def _texts_of(texts: Mapping[tuple[str, str], object], record_ids: Iterable[str], languages: Iterable[str]) -> dict:
    """The HTML of these records' texts, by (record id, language), looked up one by one."""
    return {key: texts[key] for record_id in record_ids for language in languages if (key := (record_id, language)) in texts}


def _with_kept_edits(model: Model, edits: ModelEdits) -> Model | None:
    """A base model with its kept edits in place; None when they do not fit it."""
    if any(index >= len(model.pages) for index in edits.pages):
        return None
    content, content_html = _with_records(model.content, model.content_html, _records_by_kind(edits.edited), edits.html)
    return dataclasses.replace(
        model,
        content=content,
        content_html=content_html,
        blocks=_with_blocks(model.blocks, edits.edited),
        sources={**model.sources, **edits.sources},
        pages=tuple(edits.pages.get(index, page) for index, page in enumerate(model.pages)),
        keys=edits.keys if edits.keys_whole else {**model.keys, **edits.keys},
        keys_inputs=edits.keys_inputs,
    )


def _with_blocks(blocks: list[RecordBlocks], edited: Iterable[Edited]) -> list[RecordBlocks]:
    """Each record's language blocks, those of the edited files as they are now."""
    by_file = {item.path: item.blocks for item in edited}
    return [dataclasses.replace(b, blocks=by_file[b.ref.path]) if b.ref.path in by_file else b for b in blocks]


def fingerprint(content_dir: Path, inputs: Inputs) -> tuple[dict[str, str], str]:
    """The digest of each record file by its relative path (an unreadable one has none),
    and a digest of every other input file."""
    content = inputs.listed.get(content_dir, {})
    records = {relative: digest for relative, digest in content.items() if is_record_file(relative)}
    others = hashlib.sha256()
    for folder, files in inputs.listed.items():
        others.update(f"{folder}\1".encode())
        for relative, digest in files.items():
            if folder != content_dir or relative not in records:
                others.update(f"{relative}\0{digest}\0".encode())
    return records, others.hexdigest()


def _allowed(module: str, name: str) -> bool:
    if (module, name) in ALLOWED or (module, name) in MODEL_FUNCTIONS:
        return True
    if module not in MODEL_MODULES:
        return False
    value = getattr(importlib.import_module(module), name, None)
    return isinstance(value, type) and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum))


def model_after_edits(content_dir: Path, settings: str, inputs: Inputs, report: Report, cache: BuildCache | None) -> Model | None:
    """The kept model with the record files edited since put in, when it can be (see above);
    the problems it holds go to the report. None: everything is to be read again."""
    checked = read_checked(model_path(content_dir))
    if checked is None:
        return None
    digest, values = checked[0], checked_values(checked[1], _allowed)
    made_from, edits = next(values, None), _kept_edits(content_dir, digest)
    if edits is not None:
        made_from = edits[0]
    if not isinstance(made_from, MadeFrom) or made_from.settings != settings:
        return None
    records, others = fingerprint(content_dir, inputs)
    if others != made_from.others or records.keys() != made_from.records.keys():
        return None
    changed = [path for path, digest in records.items() if digest != made_from.records[path] or not digest]
    model = next(values, None) if len(changed) <= QUICK_FILES else None
    if not isinstance(model, Model) or model.catalogs or model.supplied:
        return None  # content.po translations are left to a whole read: an edit may make them outdated
    base = KeptBase(digest, frozenset(changed), model.pages, model.keys, model.keys_inputs)
    if edits is not None:
        model = _with_kept_edits(model, edits[1])
        base = dataclasses.replace(base, files=base.files | edits[1].files)
    if model is None or any(d.location.path in changed for d in model.diagnostics):
        return None
    model = dataclasses.replace(model, base=base)
    model = model if not changed else _with_edits(content_dir, model, changed, cache)
    if model is not None:
        report.diagnostics.extend(model.diagnostics)
        if cache is not None:
            cache.keep_unused()
    return model


def _kept_edits(content_dir: Path, base: str) -> tuple[MadeFrom, ModelEdits] | None:
    """What the edits file holds, when it builds on this base (its file's sha256)."""
    values = load_checked(edits_path(content_dir), _allowed)
    made_from, edits = next(values, None), next(values, None)
    if isinstance(made_from, MadeFrom) and isinstance(edits, ModelEdits) and edits.base == base:
        return made_from, edits
    return None


def _with_edits(content_dir: Path, model: Model, changed: list[str], cache: BuildCache | None) -> Model | None:
    """The model with these files read again, when none has a problem and the edits keep
    every record's shape and the terms found in its text."""
    by_file = model.content.records_by_file()
    report = Report(source_root=content_dir)
    edited = [
        read_again(content_dir, path, *by_file[path], model.content, model.catalogs, model.supplied, report) if path in by_file else None for path in changed
    ]
    if report.diagnostics or any(item is None for item in edited):
        return None
    texts = with_texts_again(model.content, model.content_html, model.graph, edited, report, cache)  # type: ignore[arg-type]
    if texts is None or report.diagnostics:
        return None
    content, content_html, _ = texts
    blocks = _with_blocks(model.blocks, edited)  # type: ignore[arg-type]
    new_sources = digests_after_edit(model.content, content, model.graph, [(item.kind, item.record) for item in edited], model.sources)  # type: ignore[union-attr]
    edited_sources = model.edited | new_sources.keys()
    return dataclasses.replace(
        model, content=content, content_html=content_html, blocks=blocks, sources={**model.sources, **new_sources}, edited=edited_sources
    )


@dataclasses.dataclass(frozen=True)
class Edited:
    """A record read again from its edited file."""

    kind: str
    record: Record
    path: str  # relative to the content folder
    blocks: dict[str, tuple[int, int]]  # the lines of each language block (i18n/status.py)


def read_again(content_dir: Path, path: str, kind: str, record_id: str, content: Content, catalogs, supplied: frozenset, report: Report) -> Edited | None:
    """The record of an edited file (relative path), when the edit kept its id and placement
    (so every page keeps its sources); its problems go to the report."""
    data = read_file_bytes(content_dir / path, path, report)
    reading = read_record(path, kind, data, content.site.languages) if data is not None else None
    record = record_alone(reading, report, content.site.languages, supplied) if reading is not None else None
    if record is None or record.id != record_id:
        return None
    if catalogs:
        single = _content_of(content, {kind: {record_id: record}})
        record = content_po.apply_translations(single, catalogs, report)[0].records(kind)[record_id]
    schema = kind_in_folder(kind)
    if placement(schema, record) != placement(schema, content.records(kind)[record_id]):
        return None
    return Edited(kind, record, path, dict(reading.blocks))


def with_texts_again(content: Content, content_html: ContentHtml, graph: Graph, edited: list[Edited], report: Report, cache: BuildCache | None = None):
    """(content, content_html, the edited records by kind) with the edited records and their
    text converted anew; None when their text names other terms than the graph has."""
    changes = _records_by_kind(edited)
    targets = {kind: content.records(kind).keys() for kind in KINDS}  # links may name any record, not just the edited ones
    edited_html = convert_texts(_content_of(content, changes), report, memo_of(cache, "markdown"), targets=targets, with_site=False)
    if not _same_terms_found(graph, changes.get("questions", {}), edited_html):
        return None
    return *_with_records(content, content_html, changes, edited_html), changes


def _records_by_kind(edited: Iterable[Edited]) -> dict[str, dict[str, Record]]:
    """The edited records by content folder and id."""
    changes: dict[str, dict[str, Record]] = {}
    for item in edited:
        changes.setdefault(item.kind, {})[item.record.id] = item.record
    return changes


def _with_records(content: Content, html: ContentHtml, changes: dict[str, dict[str, Record]], edited_html: ContentHtml) -> tuple[Content, ContentHtml]:
    """The content and its HTML with these records, and their texts' HTML, in place of what they had."""
    content = dataclasses.replace(content, **{FIELD_OF_KIND[kind]: {**content.records(kind), **records} for kind, records in changes.items()})
    return content, _with_html(html, edited_html, changes, content.site.languages)


def _same_terms_found(graph: Graph, questions: dict[str, Record], edited_html: ContentHtml) -> bool:
    """Whether the terms found in each edited question's text are those the graph has."""
    for lg in graph.languages.values():
        for question_id, question in questions.items():
            text_lang = lg.edition.questions.get(question_id)
            if text_lang is None:
                continue
            found, _ = terms_named(graph.matchers[text_lang], edited_html.question_fragments(question_id, text_lang))
            if (set(question.terms) | found) & lg.edition.terms.keys() != set(lg.terms_by_question[question_id]):
                return False
    return True


def _content_of(content: Content, records: dict[str, dict[str, Record]]) -> Content:
    """A content of the site's configuration and just these records, by kind."""
    return Content.of_kinds(content.site, records)


def _with_html(html: ContentHtml, edited: ContentHtml, changes: dict[str, dict[str, Record]], languages: tuple[str, ...]) -> ContentHtml:
    """The site's HTML with the edited records' texts in place of what they had."""
    replaced = {}
    media, audio = dict(html.media), dict(html.audio)  # by (kind, id, language)
    for kind, records in changes.items():
        attribute = FIELD_OF_KIND[kind]
        texts = dict(getattr(html, attribute))
        for record_id in records:
            for language in languages:
                texts.pop((record_id, language), None)
                media.pop((kind, record_id, language), None)
                audio.pop((kind, record_id, language), None)
        replaced[attribute] = texts | getattr(edited, attribute)
    return dataclasses.replace(html, **replaced, media=media | edited.media, audio=audio | edited.audio)
