"""rendering.py: how the pages to render are shared out among the processes."""

from __future__ import annotations

from studysite.rendering import Render, batches_of
from studysite.viewtypes import Page


def todo(count: int) -> list[Render]:
    """Pages of which two in three belong to one of seven work groups."""
    return [Render(Page(f"nl/p{n}/", "question.html", "nl", "", lambda: None, work_group=f"nl/t{n % 7}" if n % 3 else ""), "", None) for n in range(count)]


def test_batches_hold_every_page_once_each_work_group_whole_and_the_largest_come_first():
    for most in (4096, 10, 8):
        batches = batches_of(todo(500), most)
        paths = [item.page.path for batch in batches for item in batch]
        assert sorted(paths) == sorted(item.page.path for item in todo(500))
        assert len(batches) <= most and [len(b) for b in batches] == sorted((len(b) for b in batches), reverse=True)
        for group in {item.page.work_group for item in todo(500)} - {""}:
            assert sum(any(item.page.work_group == group for item in batch) for batch in batches) == 1
    assert max(len(batch) for batch in batches_of(todo(500)) if not batch[0].page.work_group) <= 16  # pages of no group: small batches
