"""Status: how far each language's translation is, for content and for the UI.

A record is *missing* in a language without a block for it (and no translation in its
content.po), and *outdated* when git says its default-language block changed after the block
in that language did, or when its content.po translation was made from another source text. A UI message is
*missing* when its catalog lacks it or leaves it empty, and *fuzzy* when Babel's update
flagged it because its English text changed.

The git work (a blame of each content file whose lines can differ in age) is done only
when a status is asked for: by a status page being rendered, or by `build.py status`.
What it found is kept in the build cache, per file, keyed by the commit checked out and
the bytes of a file changed since, so the next build blames only the files edited since.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from studysite.content.records import Content
from studysite.content.validate import Reading
from studysite.diagnostics import Location, Report
from studysite.fileio import files_below, read_bytes, shown_path
from studysite.i18n import catalogs
from studysite.i18n.content_po import Coverage
from studysite.i18n.ui_catalogs import SOURCE_LANGUAGE, catalog_path, catalogs_of, merge_catalogs, read_catalog
from studysite.memo import NO_MEMO, Memo
from studysite.shipped import shipped_folder

UNCOMMITTED = float("inf")
CONTEXT_SEPARATOR = "\x04"  # between a msgctxt and its msgid, as gettext joins them in a compiled catalog


@dataclass(frozen=True, slots=True)
class RecordRef:
    kind: str
    id: str
    path: str  # relative to the content folder


@dataclass(frozen=True, slots=True)
class RecordBlocks:
    """A record, and the first and last line of each language block in its file."""

    ref: RecordRef
    blocks: Mapping[str, tuple[int, int]]


@dataclass(frozen=True)
class UiMessage:
    """A UI message as a catalog keys it: by its msgid and its msgctxt (pgettext), since the
    same English word can be translated apart in another context ("Question" as a kind of page)."""

    id: str
    context: str | None = None

    def __str__(self) -> str:
        return f"{self.id} ({self.context})" if self.context else self.id


@dataclass(frozen=True)
class LanguageStatus:
    language: str
    is_default: bool
    records: int
    missing: tuple[RecordRef, ...]
    outdated: tuple[RecordRef, ...]
    ui_messages: int
    ui_missing: tuple[UiMessage, ...]
    ui_fuzzy: tuple[UiMessage, ...]
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


def revised_files(content_dir: Path) -> list[str]:
    """Content files (relative paths) changed by more than one commit: their lines can differ in age."""
    log = _git(content_dir, "log", "--format=", "--name-only", "--no-renames", "--relative", "--", ".") or ""
    commits = Counter(line for line in log.splitlines() if line)
    return sorted(path for path, count in commits.items() if count > 1)


def changed_files(content_dir: Path) -> set[str]:
    """Content files (relative paths) changed since the last commit."""
    return set((_git(content_dir, "diff", "--name-only", "--relative", "HEAD", "--", ".") or "").splitlines())


def outdated_in_file(times: list[float], blocks: Mapping[str, tuple[int, int]], default: str) -> list[str]:
    """The languages whose block in a file is older than the default language's block."""
    if default not in blocks:
        return []
    source = _newest(times, blocks[default])
    return sorted(language for language, span in blocks.items() if language != default and source > _newest(times, span))


def file_key(head: str, default: str, path: Path, changed: bool) -> str:
    """What a file's blame depends on: the commit checked out, and the bytes of a file changed since."""
    try:
        data = hashlib.sha256(read_bytes(path)).hexdigest() if changed else ""
    except OSError:
        data = "gone"
    return hashlib.sha256(f"{head}\0{default}\0{data}".encode()).hexdigest()[:32]


GIT_HISTORY = "git"  # the memo's key of what git said


@dataclass(frozen=True)
class StatusMemos:
    """What the status remembers between runs: the translations' age by git, and the templates' messages."""

    history: Memo = NO_MEMO
    ui_messages: Memo = NO_MEMO


def outdated_by_git(records: list[RecordBlocks], default: str, content_dir: Path, memo: Memo = NO_MEMO) -> dict[str, list[str]]:
    """File -> the languages whose block git says is older than the default language's.

    Only files whose lines can differ in age are blamed (a git process each): those changed
    by more than one commit or since the last. What a blame found is kept in the cache by
    file_key in the memo, so a build at the same commit blames only the files edited since."""
    head = (_git(content_dir, "rev-parse", "HEAD") or "").strip()
    stored = memo.get(GIT_HISTORY)
    stored = stored if isinstance(stored, dict) else {}
    revised = stored.get("revised") if head and stored.get("head") == head else None
    if not (isinstance(revised, list) and all(isinstance(path, str) for path in revised)):
        revised = revised_files(content_dir)
    changed = changed_files(content_dir)
    may_differ = changed | set(revised)
    candidates = {r.ref.path: r.blocks for r in records if r.ref.path in may_differ}
    keys = {path: file_key(head, default, content_dir / path, path in changed) for path in candidates}
    known = stored.get("files") if isinstance(stored.get("files"), dict) else {}
    found = {path: entry["outdated"] for path, entry in known.items() if path in keys and _valid_entry(entry, keys[path])}
    to_blame = [path for path in candidates if path not in found]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for path, times in zip(to_blame, pool.map(lambda path: line_times(content_dir / path), to_blame), strict=True):
            if times is not None:  # a blame that failed is tried again next time
                found[path] = outdated_in_file(times, candidates[path], default)
    memo.put(GIT_HISTORY, {"head": head, "revised": revised, "files": {path: {"key": keys[path], "outdated": found[path]} for path in found}})
    return found


def _valid_entry(entry: object, key: str) -> bool:
    if not isinstance(entry, dict) or entry.get("key") != key:
        return False
    outdated = entry.get("outdated")
    return isinstance(outdated, list) and all(isinstance(language, str) for language in outdated)


def content_status(records: list[RecordBlocks], language: str, coverage: Coverage, outdated: Mapping[str, list[str]]):
    """(missing, outdated) records of a language. A record without a block in the language
    may be translated by content.po, or outdated there (its place in the PO file)."""
    missing, old = [], []
    for record in records:
        ref = record.ref
        if language not in record.blocks:
            if (ref.kind, ref.id) in coverage.outdated:
                old.append(RecordRef(ref.kind, ref.id, coverage.outdated[(ref.kind, ref.id)]))
            elif (ref.kind, ref.id) not in coverage.translated:
                missing.append(ref)
        elif language in outdated.get(ref.path, ()):
            old.append(ref)
    return tuple(missing), tuple(old)


def template_message_ids(template_dirs: list[Path], memo: Memo = NO_MEMO) -> list[UiMessage]:
    """The UI messages of the templates (a plural by its singular), kept in the memo (as
    text: a message in a context as its context, CONTEXT_SEPARATOR, its msgid) by a digest
    of the template files. Studysite's own templates are not parsed: their messages are the
    shipped template catalog's (locales/messages.pot, which tests/test_catalogs.py holds
    equal to them), so that a first build, as on a fresh CI machine, need not extract them."""
    shipped = shipped_folder("templates").resolve()
    own = [folder for folder in template_dirs if folder.resolve() != shipped]
    with_shipped = len(own) < len(template_dirs)
    digest = hashlib.sha256()
    for folder in own:
        for name in sorted(files_below(folder)):
            try:
                data = read_bytes(folder / name, within=folder)
            except OSError:  # refused (said where the templates are read), or gone
                data = b"\0unreadable"
            digest.update(f"{folder.as_posix()}/{name}".encode() + b"\0" + data)
    if with_shipped:
        digest.update(b"\0shipped\0" + catalogs.SHIPPED_TEMPLATE.read_bytes())
    key = digest.hexdigest()
    known = memo.get(key)
    if known is None:
        messages = list(catalogs.extract_from(own)) if own else []
        if with_shipped:
            messages += list(catalogs.shipped_messages())
        known = sorted({_message_key(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in messages if m.id})
        memo.put(key, known)
    return [_ui_message(message_key) for message_key in known]


def _message_key(message_id: str, context: str | None) -> str:
    return f"{context}{CONTEXT_SEPARATOR}{message_id}" if context else message_id


def _ui_message(message_key: str) -> UiMessage:
    context, _, message_id = message_key.rpartition(CONTEXT_SEPARATOR)
    return UiMessage(message_id, context or None)


def ui_status(ids: list[UiMessage], locales: list[Path], language: str) -> tuple[int, tuple[UiMessage, ...], tuple[UiMessage, ...]]:
    """(messages, missing, fuzzy) of a language's UI catalog against the templates' messages."""
    if language.startswith(SOURCE_LANGUAGE):
        return len(ids), (), ()
    paths = catalogs_of(locales, language)
    if not paths:
        return len(ids), tuple(ids), ()
    catalog = merge_catalogs([read_catalog(path, code) for path, code in paths])
    missing, fuzzy = [], []
    for wanted in ids:
        message = catalog.get(wanted.id, context=wanted.context)
        if message is None:
            missing.append(wanted)
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            missing.append(wanted)
        elif message.fuzzy:
            fuzzy.append(wanted)
    return len(ids), tuple(missing), tuple(fuzzy)


def record_blocks(readings: list[Reading], content: Content) -> list[RecordBlocks]:
    """Each record's language blocks: the little a status needs of the readings."""
    by_file = content.records_by_file()
    return [RecordBlocks(RecordRef(r.kind, by_file[r.path][1], r.path), r.blocks) for r in readings if r.path in by_file]


class TranslationStatus:
    """The status of every site language, worked out when first asked for and then kept.

    Made while a site is loaded, from the little it needs of the readings (each record's
    language blocks); the git work and the reading of catalogs wait until a status page is
    rendered or `build.py status` asks, so checking the content runs no git."""

    def __init__(
        self,
        records: list[RecordBlocks],
        content: Content,
        content_dir: Path,
        template_dirs: list[Path],
        locales: list[Path],
        coverage: Mapping[str, Coverage] | None = None,
        memos: StatusMemos | None = None,
    ):
        self.records = records
        self.languages = content.site.languages
        self.content_dir, self.template_dirs, self.locales = content_dir, template_dirs, locales
        self.coverage = coverage or {}  # what content.po translated (i18n/content_po.py)
        self.memos = memos or StatusMemos()  # where the git work and the templates' messages are kept between runs
        self._statuses: dict[str, LanguageStatus] | None = None
        self._ui: dict[str, tuple[int, tuple[UiMessage, ...], tuple[UiMessage, ...]]] = {}

    def ui_of(self, language: str) -> tuple[int, tuple[UiMessage, ...], tuple[UiMessage, ...]]:
        """(messages, missing, fuzzy) of a language's interface, worked out once: without
        the git work that the content's status needs, so a check can ask for it."""
        if language not in self._ui:
            self._ui[language] = ui_status(template_message_ids(self.template_dirs, self.memos.ui_messages), self.locales, language)
        return self._ui[language]

    def of(self, language: str) -> LanguageStatus:
        return self._work_out()[language]

    def all(self) -> list[LanguageStatus]:
        return list(self._work_out().values())

    def _work_out(self) -> dict[str, LanguageStatus]:
        if self._statuses is None:
            default = self.languages[0]
            git_checked = in_git_work_tree(self.content_dir)
            outdated = outdated_by_git(self.records, default, self.content_dir, self.memos.history) if git_checked else {}
            self._statuses = {}
            for language in self.languages:
                missing, old = content_status(self.records, language, self.coverage.get(language, Coverage()), outdated)
                ui = self.ui_of(language)
                self._statuses[language] = LanguageStatus(language, language == default, len(self.records), missing, old, *ui, git_checked)
        return self._statuses


def report_interface_gaps(status: TranslationStatus, own_locales: Path, report: Report) -> None:
    """One warning per site language whose interface has messages its catalogs leave
    untranslated or fuzzy (its pages show them in English), with their count: a gap like a
    record not yet translated, which a deploy publishes. A language without any catalog has
    its own warning (i18n.catalog-missing, ui_catalogs.py)."""
    for language in status.languages:
        if language.startswith(SOURCE_LANGUAGE) or not catalogs_of(status.locales, language):
            continue
        total, missing, fuzzy = status.ui_of(language)
        if missing or fuzzy:
            report.warning(
                Location(shown_path(catalog_path(own_locales, language))),
                "i18n.ui-incomplete",
                f"{len(missing) + len(fuzzy)} of {total} interface messages are not translated into '{language}' "
                f"({len(missing)} missing, {len(fuzzy)} fuzzy): its pages show them in English",
                f"run 'python build.py status' to list them, and translate them in this file ('i18n update {language}' adds the missing ones)",
            )


def shown_message(message: UiMessage) -> str:
    """A message as `status` lists it: its msgid quoted, then its context if it has one."""
    return f'"{message.id}" (context: {message.context})' if message.context else f'"{message.id}"'


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
        lines += [f"  UI missing: {shown_message(message)}" for message in status.ui_missing]
        lines += [f"  UI fuzzy: {shown_message(message)}" for message in status.ui_fuzzy]
    if statuses and not statuses[0].git_checked:
        lines.append("(outdated records are found with git; the content folder is not in a git work tree)")
    return "\n".join(lines)
