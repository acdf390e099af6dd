"""Import: questions from a CSV/TSV, GIFT or Moodle XML file into YAML records.

Two phases, as a build: every question of the file is made into the YAML text of its
record and read back against the schema with the site's languages, together with the
site's other records (ids, topics and terms are checked across files); each problem is
told where the imported file gave the field. Only when there is none are the files
written, each whole. An existing record is replaced only with --update, and then only in
what the file says: its language's block and the record fields the format carries.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from urllib.parse import quote

import yaml

from studysite.content.fields import Text, texts_of
from studysite.content.readers import ID_PATTERN
from studysite.content.records import Content
from studysite.content.schema import QUESTIONS, TOPICS
from studysite.content.validate import Reading, content_of, read_record
from studysite.diagnostics import ContentError, Diagnostic, Report, Severity, did_you_mean, plural
from studysite.exchange import csv_import, gift, moodle
from studysite.exchange.drafts import Draft, TopicDraft, merged, slug, unique_ids, with_id, with_topic
from studysite.exchange.moodle import PLUGINFILE
from studysite.exchange.yaml_layout import Lines, record_text, updated_text
from studysite.fileio import read_bytes, shown_path, write_whole
from studysite.incremental.readings import read_content_files
from studysite.options import available_cpus
from studysite.workers import map_in_forks

FORMATS = ("csv", "gift", "moodle")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^\s$](?:[^$]*[^\s\\$])?\$(?!\d)")  # as text/texmath.py finds math


class UsageError(Exception):
    """The command was given something it cannot work with (exit status 2)."""


@dataclass(frozen=True)
class ImportOptions:
    file: Path
    content_dir: Path = Path("content")
    topic: str = ""
    language: str = ""
    update: bool = False


@dataclass(frozen=True)
class Output:
    """A record file to write: its path under the content folder, kind, text, and the
    draft it comes from (a question's, or a topic's)."""

    path: str
    kind: str
    lines: Lines | None  # None: a new question's, written by check_outputs (in forked workers, for many)
    source: Draft | TopicDraft
    updated: bool = False
    data: bytes | None = None  # a file that is no record (an image): its bytes
    with_id: bool = False  # a new question's file says its id (one that is no slug, for the schema to tell)


@dataclass(frozen=True)
class ImportResult:
    outputs: tuple[Output, ...]
    report: Report
    untranslated: Mapping[str, int] = field(default_factory=dict)  # language -> records without its text

    def summary(self, file: str, content_dir: Path) -> str:
        questions = [o for o in self.outputs if o.kind == "questions"]
        updated = sum(o.updated for o in questions)
        topics = sum(o.kind == "topics" for o in self.outputs)
        parts = [f"Imported {plural(len(questions), 'question')} ({len(questions) - updated} new, {updated} updated)"]
        if topics:
            parts.append(f" and {plural(topics, 'new topic')}")
        parts.append(f" from {file} into {shown_path(content_dir)}.")
        for language, count in self.untranslated.items():
            parts.append(f" {plural(count, 'record')} {'has' if count == 1 else 'have'} no '{language}' text yet.")
        return "".join(parts)


def format_of(path: Path, data: bytes) -> str:
    """csv, gift or moodle: by the file's extension, else by its first characters."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix == ".xml":
        return "moodle"
    if suffix == ".gift":
        return "gift"
    start = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<"):
        return "moodle"
    first_line = start.split(b"\n", 1)[0]
    return "csv" if b"\t" in first_line and b"{" not in start else "gift"


def import_file(options: ImportOptions) -> ImportResult:
    """Read, check and write; raises ContentError (nothing written) or UsageError."""
    result = plan_import(options)
    write_outputs(options.content_dir, result.outputs)
    return result


def plan_import(options: ImportOptions) -> ImportResult:
    """Every file the import would write, checked; raises ContentError when anything is wrong."""
    site_report = Report()
    site, readings = read_content_files(options.content_dir, site_report)
    if site is None:
        raise ContentError(site_report.sorted())
    try:
        data = read_bytes(options.file)
    except OSError as error:
        raise UsageError(f"cannot read {options.file}: {error.strerror}") from None
    kind = format_of(options.file, data)
    language = _file_language(options, kind, site.languages)
    topics = {r.parsed.id: r for r in readings if r.kind == "topics" and r.parsed is not None}
    if options.topic and options.topic not in topics:
        raise UsageError(f"--topic '{options.topic}' names no topic of the site; {did_you_mean(options.topic, topics) or 'topics are the files in topics/'}")
    report = Report(source_root=Path.cwd())
    shown = str(options.file)
    drafts = _read_drafts(kind, data, shown, language, report, bool(options.topic))
    report.raise_if_errors()
    questions = {r.parsed.id: r for r in readings if r.kind == "questions" and r.parsed is not None}
    drafts = _with_ids(drafts, questions, report)
    drafts, new_topics = _with_topics(drafts, topics, language, options, questions, report)
    drafts = [_in_site_order(draft, site.languages) for draft in drafts]
    outputs = [_topic_output(topic) for topic in new_topics] + [output for d in drafts for output in _question_outputs(d, questions, options, report)]
    report.raise_if_errors()
    outputs, untranslated = check_outputs(site.languages, readings, outputs, report, site)
    report.raise_if_errors()
    return ImportResult(tuple(outputs), report, untranslated)


def _file_language(options: ImportOptions, kind: str, languages: tuple[str, ...]) -> str:
    if kind == "csv":
        if options.language:
            raise UsageError("--lang is for GIFT and Moodle XML files: a CSV file names the language of each column ('nl.question')")
        return ""
    language = options.language or languages[0]
    if language not in languages:
        raise UsageError(f"--lang '{language}' is not one of the site's languages ({', '.join(languages)})")
    return language


def _read_drafts(kind: str, data: bytes, shown: str, language: str, report: Report, topic_given: bool) -> list[Draft]:
    if kind == "csv":
        return csv_import.read_csv(data, shown, QUESTIONS, report, topic_given)
    reader = gift.read_gift if kind == "gift" else moodle.read_moodle
    return reader(data, shown, language, report)


def _with_ids(drafts: list[Draft], existing: Mapping[str, Reading], report: Report) -> list[Draft]:
    """Each draft with its id: the one the file gives, else one made of its name or stem,
    unique in the file. An id the file gives twice is an error at its second place."""
    given: dict[str, Draft] = {}
    for draft in drafts:
        record_id = draft.record.get("id")
        if isinstance(record_id, str):
            if record_id in given:
                first = given[record_id].place("id")
                report.error(
                    draft.place("id"), "id.duplicate", f"the id '{record_id}' is also given at {first}", "give each question its own id", source=_source(draft)
                )
            given.setdefault(record_id, draft)
    unnamed = [draft for draft in drafts if "id" not in draft.record]
    made = iter(unique_ids((draft.name for draft in unnamed), taken=given))
    return [draft if "id" in draft.record else with_id(draft, next(made)) for draft in drafts]


def _with_topics(
    drafts: list[Draft], topics: Mapping[str, Reading], language: str, options: ImportOptions, questions: Mapping[str, Reading], report: Report
) -> tuple[list[Draft], list[TopicDraft]]:
    """Each draft with its topic: its category's (an existing topic of that id or title,
    else a new one), else --topic; an updated record may keep its own."""
    titles = {_folded(str(r.parsed.blocks[language].values.get("title", ""))): topic_id for topic_id, r in topics.items() if language in r.parsed.blocks}
    new: dict[str, TopicDraft] = {}
    placed = []
    for draft in drafts:
        if "topic" in draft.record:
            placed.append(draft)
        elif draft.category:
            topic_id = _topic_of(draft, topics, titles, new, language)
            placed.append(with_topic(draft, topic_id))
        elif options.topic:
            placed.append(with_topic(draft, options.topic))
        elif draft.record.get("id") in questions and options.update:
            placed.append(draft)
        else:
            report.error(draft.where, "topic.missing", "the question has no category and no topic", "give its topic with --topic ID", source=_source(draft))
    return placed, list(new.values())


def _topic_of(draft: Draft, topics: Mapping[str, Reading], titles: Mapping[str, str], new: dict[str, TopicDraft], language: str) -> str:
    for candidate in (draft.category_id, titles.get(_folded(draft.category)), draft.category):
        if candidate and candidate in topics:
            return candidate
    topic_id = slug(draft.category) or "imported"
    if topic_id not in topics:
        new.setdefault(topic_id, TopicDraft(topic_id, language, draft.category, draft.where))
    return topic_id


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def _in_site_order(draft: Draft, languages: tuple[str, ...]) -> Draft:
    """A draft with its blocks in the order of the site's languages (others after them)."""
    order = sorted(draft.blocks, key=lambda language: (languages.index(language) if language in languages else len(languages), language))
    return replace(draft, blocks={language: draft.blocks[language] for language in order})


def _source(draft: Draft | TopicDraft) -> str | None:
    """The source line a diagnostic shows: read from the file (None), except for a cell of a
    spreadsheet, whose row may span lines ("")."""
    return "" if isinstance(draft.where, csv_import.CellLocation) else None


def _topic_output(topic: TopicDraft) -> Output:
    variant = TOPICS.variant(TOPICS.default_variant)
    lines = record_text(variant.record, variant.block, {}, {topic.language: {"title": topic.title}})
    return Output(f"topics/{topic.id}.yaml", "topics", lines, topic)


def _question_outputs(draft: Draft, existing: Mapping[str, Reading], options: ImportOptions, report: Report) -> list[Output]:
    """The record file of a question (new, or the existing one updated) and the images it embeds."""
    record_id = str(draft.record["id"])
    reading = existing.get(record_id)
    if reading is None:
        folder = slug(str(draft.record.get("topic", ""))) or "imported"
        named = ID_PATTERN.fullmatch(record_id) is not None  # else the file says its id, for the schema to tell what is wrong with it
        path = f"questions/{folder}/{record_id if named else slug(record_id) or 'question'}.yaml"
        if (options.content_dir / path).exists():
            report.error(
                draft.place("id"),
                "id.taken",
                f"the file {path} exists already (its record has another id)",
                "give this question another id",
                source=_source(draft),
            )
        draft, media = _with_media(draft, path, options.content_dir, report)
        return [Output(path, "questions", None, draft, with_id=not named), *media]
    if not options.update:
        languages = " and ".join(draft.blocks) or "its"
        report.error(
            draft.place("id"),
            "id.exists",
            f"question '{record_id}' exists already ({reading.path})",
            f"give --update to replace its {languages} text, or give this one another id",
            source=_source(draft),
        )
        return []
    draft, media = _with_media(draft, reading.path, options.content_dir, report)
    return [Output(reading.path, "questions", _updated(draft, reading, options.content_dir), draft, updated=True), *media]


def _with_media(draft: Draft, record_path: str, content_dir: Path, report: Report) -> tuple[Draft, list[Output]]:
    """A draft whose texts name its embedded images (@@PLUGINFILE@@/path) by files under
    content/: the same file where the content has it already (at that path from the content
    folder, or from the record's folder), else a new file beside the record."""
    if not draft.media:
        return draft, []
    folder = PurePosixPath(record_path).parent
    sources, outputs = {}, []
    for path, data in draft.media.items():
        beside, at_root = content_dir / folder / path, content_dir / path
        if at_root.is_file() and at_root.read_bytes() == data:
            sources[path] = "/" + path
        elif not beside.exists() or beside.is_file() and beside.read_bytes() == data:
            sources[path] = path
            if not beside.exists():
                outputs.append(Output(f"{folder}/{path}", "media", Lines(()), draft, data=data))
        else:
            report.error(
                draft.where,
                "media.taken",
                f"the image {folder}/{path} exists already, with other content",
                "rename the image in the file, or the one in the content folder",
                source=_source(draft),
            )

    def text(value):
        if isinstance(value, str):
            for path, source in sources.items():
                value = value.replace(PLUGINFILE + path, source).replace(PLUGINFILE + quote(path), source)
            return value
        return [text(item) for item in value] if isinstance(value, list | tuple) else value

    blocks = {language: {name: text(value) for name, value in block.items()} for language, block in draft.blocks.items()}
    return replace(draft, blocks=blocks), outputs


def _updated(draft: Draft, reading: Reading, content_dir: Path) -> Lines:
    """An existing record's file with what the draft says in place of what it had."""
    old = read_bytes(content_dir / reading.path).decode("utf-8").removeprefix("\ufeff")
    node = yaml.compose(old, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    loaded = yaml.safe_load(old) or {}
    type_name = str(draft.record.get("type", loaded.get("type", "single")))
    variant = QUESTIONS.variants.get(type_name, QUESTIONS.variant("single"))
    values = {name: value for name, value in draft.record.items() if name != "id" or "id" in loaded}
    removed = {name for name in draft.carried if "." not in name and name not in draft.record}
    blocks = {language: merged(loaded.get(language) or {}, block, draft.carried, f"{language}.") for language, block in draft.blocks.items()}
    return updated_text(old, node, (variant.record, variant.block), values, removed, blocks)


def check_outputs(languages: tuple[str, ...], readings: list[Reading], outputs: list[Output], report: Report, site) -> tuple[list[Output], dict[str, int]]:
    """The outputs written (those of new questions) and read back against the schema, with
    the site's other records; each problem told at the place in the imported file that gave
    the field. Returns the outputs and, per language, how many records have no text in it
    (a warning the build gives each)."""
    records = [o for o in outputs if o.data is None]
    done = map_in_forks(functools.partial(_written_and_read, languages), [(o.path, o.kind, o.lines, o.source, o.with_id) for o in records], available_cpus())
    made = {o.path: replace(o, lines=lines) for o, (lines, _) in zip(records, done, strict=True)}
    outputs = [made.get(o.path, o) if o.data is None else o for o in outputs]
    new = [reading for _, reading in done]
    written = {o.path for o in outputs}
    checked = Report()
    content = content_of(site, [r for r in readings if r.path not in written] + new, checked)
    by_path = {o.path: o for o in outputs}
    untranslated: Counter = Counter()
    for d in checked.diagnostics:
        output = by_path.get(d.location.path)
        if output is None:
            continue
        if d.code == "translation.missing" and d.severity is Severity.WARNING:
            untranslated[d.message.rsplit("'", 2)[-2]] += 1
            continue
        _tell(report, d, output)
    if content is not None:
        _check_texts(content, outputs, report)
    return outputs, dict(sorted(untranslated.items()))


def _written_and_read(languages: tuple[str, ...], item: tuple) -> tuple[Lines, Reading]:
    """A record's lines (a new question's written here) and their reading against the schema."""
    path, kind, lines, source, with_id = item
    if lines is None:
        variant = QUESTIONS.variants.get(str(source.record.get("type", "single")), QUESTIONS.variant("single"))
        lines = record_text(variant.record, variant.block, source.record, source.blocks, with_id=with_id)
    return lines, read_record(path, kind, lines.text.encode("utf-8"), languages)


def _tell(report: Report, d: Diagnostic, output: Output) -> None:
    path = output.lines.fields().get(d.location.line, "")
    missing = re.search(r"has no '([a-z_]+)'", d.message) if d.code == "field.missing" else None
    if missing:  # told at the record or its block: where the file would give the field
        path = f"{path.split('.')[0]}.{missing.group(1)}" if path else missing.group(1)
    source = output.source
    where = source.place(path) if isinstance(source, Draft) else source.where
    message = d.message if path or not output.updated else f"{d.message} (in {output.path})"
    (report.error if d.severity is Severity.ERROR else report.warning)(where, d.code, message, d.hint, source=_source(source))


def _check_texts(content: Content, outputs: list[Output], report: Report) -> None:
    """What the schema does not see: an accepted answer (plain text a reader types) that
    holds HTML or math. (TeX that cannot be converted is the build's to tell: converting
    every formula here would take most of an import's time.)"""
    for output in outputs:
        if output.kind != "questions" or output.data is not None or not isinstance(output.source, Draft):
            continue
        question = content.questions.get(str(output.source.record["id"]))
        for language in output.source.blocks if question is not None else ():
            text = question.texts.get(language)
            if text is None:
                continue
            for path, f, value in texts_of(QUESTIONS.block_table(question), text):
                problem = _text_problem(f.text, value)
                if problem:
                    report.error(output.source.place(f"{language}.{path}"), *problem, source=_source(output.source))


def _text_problem(text_format: Text | None, value: str) -> tuple[str, str, str] | None:
    if text_format is not Text.PLAIN:
        return None
    if _TAG.search(value):
        return "text.html", f"'{value}' holds HTML: an accepted answer is plain text that a reader types", "write it as a reader would type it, without tags"
    if _MATH.search(value):
        return "text.math", f"'{value}' holds math: an accepted answer is plain text that a reader types", "write it as a reader would type it, e.g. x^2"
    return None


def write_outputs(content_dir: Path, outputs: tuple[Output, ...]) -> None:
    """Each file written whole (fileio.write_whole): topics first, then questions."""
    folders: set[Path] = set()
    for output in outputs:
        target = content_dir / output.path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        data = output.data if output.data is not None else output.lines.text.encode("utf-8")
        write_whole(target, lambda file, data=data: file.write(data))
