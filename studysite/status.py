"""Status: how far each language's translation is, for content and for the UI.

A record is *missing* in a language without a block for it (and no translation in its
content.po), and *outdated* when git says its default-language block changed after the block
in that language did, or when its content.po translation was made from another source text. A UI message is
*missing* when its catalog lacks it or leaves it empty, and *fuzzy* when Babel's update
flagged it because its English text changed.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog

from . import catalogs
from .contentpo import Coverage
from .i18n import SOURCE_LANGUAGE, catalog_path, merge_catalogs, read_catalog
from .load import Document
from .model import Content

UNCOMMITTED = float("inf")


@dataclass(frozen=True)
class RecordRef:
    kind: str
    id: str
    path: str  # relative to the content folder


@dataclass(frozen=True)
class LanguageStatus:
    language: str
    is_default: bool
    records: int
    missing: tuple[RecordRef, ...]
    outdated: tuple[RecordRef, ...]
    ui_messages: int
    ui_missing: tuple[str, ...]
    ui_fuzzy: tuple[str, ...]
    git_checked: bool

    @property
    def translated(self) -> int:
        return self.records - len(self.missing) - len(self.outdated)

    @property
    def ui_translated(self) -> int:
        return self.ui_messages - len(self.ui_missing) - len(self.ui_fuzzy)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.outdated or self.ui_missing or self.ui_fuzzy)


def _blocks(document: Document) -> dict[str, tuple[int, int]]:
    """Language -> (first line, last line), 1-based, of each language block."""
    blocks = {}
    if isinstance(document.node, yaml.MappingNode):
        for key, value in document.node.value:
            if isinstance(value, yaml.MappingNode) and isinstance(key, yaml.ScalarNode):
                blocks[key.value] = (key.start_mark.line + 1, max(value.end_mark.line, key.start_mark.line + 1))
    return blocks


def line_times(path: Path) -> list[float] | None:
    """The commit time of each line of a file (inf for uncommitted lines), or None outside git."""
    try:
        result = subprocess.run(["git", "blame", "--line-porcelain", "--", path.name], cwd=path.parent, capture_output=True, text=True, check=False)
    except OSError:
        return None
    if result.returncode != 0:
        return None
    times, commit, current = [], "", 0.0
    for line in result.stdout.splitlines():
        if line.startswith("\t"):
            times.append(UNCOMMITTED if commit == "0" * 40 else current)
        elif line.startswith("committer-time "):
            current = float(line.split()[1])
        elif len(line) > 40 and line[40] == " " and all(c in "0123456789abcdef" for c in line[:40]):
            commit = line[:40]
    return times


def _newest(times: list[float], span: tuple[int, int]) -> float:
    return max(times[span[0] - 1 : span[1]], default=0.0)


def _git(folder: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=False)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def in_git_work_tree(folder: Path) -> bool:
    return (_git(folder, "rev-parse", "--is-inside-work-tree") or "").strip() == "true"


def files_with_history(content_dir: Path) -> set[str]:
    """Content files (relative paths) whose lines can differ in age: changed by more than
    one commit, or changed since the last. Only these need a blame, which costs a git
    process per file; in a file written in one go every block is as new as the others."""
    log = _git(content_dir, "log", "--format=", "--name-only", "--no-renames", "--relative", "--", ".") or ""
    commits = Counter(line for line in log.splitlines() if line)
    changed = (_git(content_dir, "diff", "--name-only", "--relative", "HEAD", "--", ".") or "").splitlines()
    return {path for path, count in commits.items() if count > 1} | set(changed)


def content_status(documents: list[Document], content: Content, content_dir: Path, coverage: Mapping[str, Coverage] | None = None):
    """Per language: (records, missing, outdated, git_checked). A record without a block in
    a language may be translated by content.po, or outdated there (its place in the PO file)."""
    coverage = coverage or {}
    languages = content.site.languages
    ids = {r.location.path: r.id for kind in (content.topics, content.questions, content.terms, content.comparisons) for r in kind.values()}
    records = [d for d in documents if d.path in ids]
    git_checked = in_git_work_tree(content_dir)
    blame: dict[str, list[float] | None] = {}
    if git_checked:
        candidates = files_with_history(content_dir)
        to_blame = [d.path for d in records if d.path in candidates]
        with ThreadPoolExecutor(max_workers=8) as pool:
            blame = dict(zip(to_blame, pool.map(lambda path: line_times(content_dir / path), to_blame), strict=True))
    default = languages[0]
    result = {}
    for language in languages:
        missing, outdated = [], []
        for document in records:
            ref = RecordRef(document.kind, ids[document.path], document.path)
            blocks = _blocks(document)
            if language not in blocks:
                po = coverage.get(language, Coverage())
                if (ref.kind, ref.id) in po.outdated:
                    outdated.append(RecordRef(ref.kind, ref.id, po.outdated[(ref.kind, ref.id)]))
                elif (ref.kind, ref.id) not in po.translated:
                    missing.append(ref)
                continue
            times = blame.get(document.path)
            if language != default and default in blocks and times:
                if _newest(times, blocks[default]) > _newest(times, blocks[language]):
                    outdated.append(ref)
        result[language] = (len(records), tuple(missing), tuple(outdated), git_checked)
    return result


def ui_status(template: Catalog, locales: list[Path], language: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """(messages, missing, fuzzy) of a language's UI catalog against the templates."""
    ids = sorted(m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id)
    if language.startswith(SOURCE_LANGUAGE):
        return len(ids), (), ()
    paths = [catalog_path(folder, language) for folder in locales if catalog_path(folder, language).is_file()]
    if not paths:
        return len(ids), tuple(ids), ()
    catalog = merge_catalogs([read_catalog(path, language) for path in paths])
    missing, fuzzy = [], []
    for message_id in ids:
        message = catalog.get(message_id)
        if message is None:
            missing.append(message_id)
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            missing.append(message_id)
        elif message.fuzzy:
            fuzzy.append(message_id)
    return len(ids), tuple(missing), tuple(fuzzy)


def translation_status(documents: list[Document], content: Content, content_dir: Path, template_dirs: list[Path], locales: list[Path], coverage=None):
    """The status of every site language; coverage: what content.po translated (contentpo.py)."""
    languages = content.site.languages
    template = catalogs.extract_from(template_dirs)
    by_language = content_status(documents, content, content_dir, coverage)
    statuses = []
    for language in languages:
        records, missing, outdated, git_checked = by_language[language]
        ui_messages, ui_missing, ui_fuzzy = ui_status(template, locales, language)
        statuses.append(LanguageStatus(language, language == languages[0], records, missing, outdated, ui_messages, ui_missing, ui_fuzzy, git_checked))
    return statuses


def format_status(statuses: list[LanguageStatus]) -> str:
    lines = []
    for status in statuses:
        role = " (default)" if status.is_default else ""
        lines.append(
            f"{status.language}{role}: content {status.translated}/{status.records} translated, "
            f"{len(status.missing)} missing, {len(status.outdated)} outdated; "
            f"UI {status.ui_translated}/{status.ui_messages} translated, {len(status.ui_missing)} missing, {len(status.ui_fuzzy)} fuzzy"
        )
        lines += [f"  missing: {ref.kind}/{ref.id} ({ref.path})" for ref in status.missing]
        lines += [f"  outdated: {ref.kind}/{ref.id} ({ref.path}): its {statuses[0].language} text changed after it was translated" for ref in status.outdated]
        lines += [f'  UI missing: "{message}"' for message in status.ui_missing]
        lines += [f'  UI fuzzy: "{message}"' for message in status.ui_fuzzy]
    if statuses and not statuses[0].git_checked:
        lines.append("(outdated records are found with git; the content folder is not in a git work tree)")
    return "\n".join(lines)
