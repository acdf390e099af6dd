"""The records' texts converted for a build: content/html.py's convert_texts, with the HTML
of the texts converted before found in the memo (the build cache), in this process while
few texts are new, else in shares by forked processes, one share of each kind of record
each; what the shares told and put in their memo is taken back here, so that the HTML
and the problems are those of one process. Then the graph, its term finding shared out too."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from studysite.content.graph import Graph, build_graph
from studysite.content.html import ContentHtml, convert_texts
from studysite.content.records import KINDS, Content
from studysite.diagnostics import Report
from studysite.memo import Memo, Recorded, replay
from studysite.workers import can_fork, map_in_forks, share_out_work

MISSES_DONE_HERE = 64  # a rebuild's few new texts are converted in this process; more, by forked processes
RECORDS_WORTH_SHARING = 500  # a site of fewer records has them converted in this process, unless many texts are new


class TooManyMisses(Exception):
    """More texts than a MissLimited memo allows are not in it."""


class MissLimited:
    """A memo that lets so many keys be missing from it, then raises TooManyMisses."""

    def __init__(self, memo: Memo, misses_allowed: int) -> None:
        self.memo, self.misses_allowed = memo, misses_allowed

    def get(self, key: str) -> object | None:
        found = self.memo.get(key)
        if found is None:
            if not self.misses_allowed:
                raise TooManyMisses
            self.misses_allowed -= 1
        return found

    def put(self, key: str, value: object) -> None:
        self.memo.put(key, value)


def convert_build_texts(content: Content, report: Report, memo: Memo, jobs: int) -> ContentHtml:
    """convert_texts for a build of jobs processes: in this process when it cannot fork, or
    for a site of fewer than RECORDS_WORTH_SHARING records of which no more than
    MISSES_DONE_HERE texts are new; else in jobs shares."""
    if not can_fork(jobs):
        return convert_texts(content, report, memo)
    if content.count() < RECORDS_WORTH_SHARING:
        told = len(report.diagnostics)
        try:
            return convert_texts(content, report, MissLimited(memo, MISSES_DONE_HERE))
        except TooManyMisses:
            del report.diagnostics[told:]  # told again by the shares
    return _convert_in_shares(content, report, memo, jobs)


def _convert_in_shares(content: Content, report: Report, memo: Memo, jobs: int) -> ContentHtml:
    """The texts converted by jobs processes, each a share of every kind of record, in
    content order; what each told and did with its memo comes back with its HTML."""
    targets = {kind: content.records(kind).keys() for kind in KINDS}  # a link may name any record, not only its share's
    done = share_out_work(
        [
            functools.partial(_convert_share, share, report.strict, report.source_root, memo, number == 0, targets)
            for number, share in enumerate(_shares(content, jobs))
        ]
    )
    for _, told, news in done:
        report.diagnostics.extend(told)
        replay(memo, news)
    parts = [html for html, _, _ in done]
    return ContentHtml(
        questions={key: html for part in parts for key, html in part.questions.items()},
        topics={key: html for part in parts for key, html in part.topics.items()},
        terms={key: html for part in parts for key, html in part.terms.items()},
        comparisons={key: html for part in parts for key, html in part.comparisons.items()},
        site=parts[0].site,
        media={key: files for part in parts for key, files in part.media.items()},
        audio={key: media for part in parts for key, media in part.audio.items()},
        theme=parts[0].theme,
    )


def _shares(content: Content, count: int) -> list[Content]:
    """The content in count parts of about the same size, each with a run of each kind of record."""

    def part(records: Mapping[str, object], number: int) -> dict:
        items, size = list(records.items()), -(-len(records) // count)
        return dict(items[number * size : (number + 1) * size])

    return [Content.of_kinds(content.site, {kind: part(content.records(kind), number) for kind in KINDS}) for number in range(count)]


def _convert_share(content: Content, strict: bool, source_root: Path | None, memo: Memo, with_site: bool, targets):
    """A share's HTML (with the site's description and theme in the first), what it told,
    and its use of the memo (in a forked process, whose memo is its own copy)."""
    report, recorded = Report(strict=strict, source_root=source_root), Recorded(memo)
    html = convert_texts(content, report, recorded, targets=targets, with_site=with_site)
    return html, report.diagnostics, recorded.news()


def build_graph_in_forks(content: Content, content_html: ContentHtml, memo: Memo, jobs: int) -> Graph:
    """content/graph.py's build_graph, the texts not in the memo looked through for terms by
    forked processes (workers.map_in_forks: in this one when few are)."""
    return build_graph(content, content_html, memo, functools.partial(map_in_forks, jobs=jobs))
