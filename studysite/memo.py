"""Memo: what a stage worked out before, found again by a key of what it was worked out from.

Domain stages (text, content, i18n) take a Memo and read as if every build were cold: they
ask for a key and tell what they worked out; the incremental package decides what is kept
from one build for the next (incremental/cache.py). Without one, nothing is remembered.
Work done in a forked process records its memo's use (Recorded), for the parent's memo to
take the same (replay): the child's memo is its own copy."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Memo(Protocol):
    def get(self, key: str) -> object | None:
        """What was put under key before, or None."""

    def put(self, key: str, value: object) -> None:
        """Remember value under key."""


class NoMemo:
    """Remembers nothing: every build is cold."""

    def get(self, key: str) -> None:
        return None

    def put(self, key: str, value: object) -> None:
        pass


NO_MEMO = NoMemo()


@dataclass
class Recorded:
    """A memo, and the keys asked of it and the values put into it through this."""

    memo: Memo
    asked: list[str] = field(default_factory=list)
    added: dict[str, object] = field(default_factory=dict)

    def get(self, key: str) -> object | None:
        self.asked.append(key)
        return self.memo.get(key)

    def put(self, key: str, value: object) -> None:
        self.added[key] = value
        self.memo.put(key, value)

    def news(self) -> tuple[list[str], dict[str, object]]:
        """What another process's memo needs to take the same: replay(memo, news)."""
        return self.asked, self.added


def replay(memo: Memo, news: tuple[list[str], dict[str, object]]) -> None:
    """The asking and putting recorded in another process, done to this memo."""
    asked, added = news
    for key in asked:
        memo.get(key)
    for key, value in added.items():
        memo.put(key, value)
