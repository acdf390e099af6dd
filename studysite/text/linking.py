"""Linking: find glossary term names in content HTML and link them to their term pages.

Matching ignores case, takes whole words in alphabetic scripts ("Rappelons" is not
"Rappel"; "l'attention" holds "attention") and substrings in Chinese and Japanese, where
words are not separated by spaces. Text inside links, code and math is never linked, nor
the inside of a tag or of a character reference ("amp" in "R&amp;D", "123" in "&#123;").
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_TAG = re.compile(r"<[^>]*>")
_SKIPPED_TAGS = ("a", "code", "pre", "math")
_SKIPPED_START = re.compile(r"<[/\s]*(?:a|code|pre|math)[\s>]", re.IGNORECASE)  # a first look: is there any?
_NUMERIC_REFERENCE_START = frozenset("0123456789x")  # what follows "&#" in a numeric reference (&#123; &#x1f;), lower-cased


def _trie_pattern(names: list[str]) -> str:
    """One regular expression for many names, factored by common prefixes.

    Python's re tries the branches of an alternation one by one; a prefix tree lets it
    reject all but the few branches that start with the character at hand."""
    trie: dict = {}
    for name in names:
        node = trie
        for token in _name_tokens(name):
            node = node.setdefault(token, {})
        node[""] = {}
    return _emit(trie)


def _compiled(names: list[str], frame: str) -> re.Pattern:
    """The pattern of the names, in frame. Names that nest hundreds deep (each a prefix of the
    next: "a", "a b", "a b c"...) make a prefix tree too deep for re's parser: they are one
    alternation, longest first, which finds the same."""
    try:
        return re.compile(frame.format(_trie_pattern(names)))
    except RecursionError:
        tokens = sorted(("".join(_name_tokens(name)) for name in names), key=len, reverse=True)
        flat = "|".join("".join(_token_pattern(char, at == 0) for at, char in enumerate(text)) for text in tokens)
        return re.compile(frame.format(f"(?:{flat})"))


def _name_tokens(name: str):
    """The characters of a name as HTML text, lower-cased; a run of white space is one token."""
    text = html.escape(" ".join(name.split()), quote=False).lower()
    return (" " if char == " " else char for char in text)


def _token_pattern(token: str, first: bool) -> str:
    """The pattern of a token of a name. A name's first character that could follow the
    "&#" of a numeric reference (a digit, or x) is not taken right after one: "123" is no
    name in "&#123;", nor "x1f" in "&#x1f;". The check follows the character, so re still
    passes over the branch at once where the character is another."""
    if token == " ":
        return r"\s+"
    if first and token in _NUMERIC_REFERENCE_START:
        return f"{re.escape(token)}(?<!&#{re.escape(token)})"
    return re.escape(token)


def _emit(root: dict) -> str:
    """The pattern of a prefix tree, each node's made after its children's: iteratively, so
    that a name of any length (a node per character) is one pattern."""
    made: dict[int, str] = {}
    stack = [(root, False)]
    while stack:
        node, children_made = stack.pop()
        if not children_made:
            stack.append((node, True))
            stack.extend((child, False) for token, child in node.items() if token)
            continue
        branches = [_token_pattern(token, node is root) + made.pop(id(child)) for token, child in sorted(node.items()) if token]
        made[id(node)] = _alternation(branches, "" in node)
    return made[id(root)]


def _alternation(branches: list[str], ends_here: bool) -> str:
    """A node's pattern: its branches, optional when a name ends at the node (greedy: a longer name first)."""
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if ends_here:
        return f"(?:{body})?" if len(branches) == 1 else body + "?"
    return body


@dataclass(frozen=True)
class TermMatcher:
    """Finds the names of one language's terms; names maps a name (casefolded) to a term id.

    Names in alphabetic scripts and names in Chinese or Japanese are two patterns, scanned
    for apart and their matches merged as one alternation of them would find them (see
    _matches): Python's re cannot skip ahead through an alternation whose first branch
    starts with a lookbehind, and tried the second branch at every character."""

    patterns: tuple[re.Pattern, ...]  # of the names lower-cased; words first: at the same place, a word's name wins
    names: Mapping[str, str]

    @classmethod
    def build(cls, names_by_term: Mapping[str, tuple[str, ...]]) -> TermMatcher:
        names: dict[str, str] = {}
        for term_id, term_names in names_by_term.items():
            for name in term_names:
                names.setdefault(_key("".join(_name_tokens(name))), term_id)
        every_name = sorted({name for term_names in names_by_term.values() for name in term_names})
        words = [n for n in every_name if not _CJK.search(n)]
        cjk = [n for n in every_name if _CJK.search(n)]
        patterns = []
        if words:  # alphabetic scripts: whole words only, and none inside a character reference (after its "&": see _token_pattern)
            patterns.append(_compiled(words, r"(?<![\w&]){}(?!\w)"))
        if cjk:  # Chinese and Japanese: anywhere, as words are not separated
            patterns.append(_compiled(cjk, "{}"))
        return cls(tuple(patterns), names)

    def term_at(self, match: re.Match) -> str:
        return self.names[_key(match.group(0))]

    def find(self, fragment: str) -> set[str]:
        """Ids of the terms named in the linkable text of an HTML fragment."""
        return {term_id for _, _, term_id in self.first_mentions(fragment)}

    def link(self, fragment: str, href: Callable[[str], str], skip: str = "") -> str:
        """The fragment with the first mention of each term (other than skip) linked."""
        return with_links(fragment, self.first_mentions(fragment), href, skip)

    def first_mentions(self, fragment: str) -> tuple[Mention, ...]:
        """Where each term is first named in the linkable text of an HTML fragment, in order."""
        seen: set[str] = set()
        mentions = []
        for match in self._linkable_matches(fragment):
            term_id = self.term_at(match)
            if term_id not in seen:
                seen.add(term_id)
                mentions.append((match.start(), match.end(), term_id))
        return tuple(mentions)

    def _linkable_matches(self, fragment: str) -> Iterator[re.Match]:
        """The names in the fragment's linkable text: the fragment is scanned whole, and a
        match in a tag, or inside a, code, pre or math, is passed over. A name holds no "<"
        or ">" (it is matched as escaped HTML), so no match spans a tag. Character
        references are passed over by the pattern itself (see build), at no cost per match.
        The matches are found in the fragment lower-cased (at the same places: see _lower)."""
        skipped = _skipped_stretches(fragment) if _SKIPPED_START.search(fragment) else []
        for match in self._matches(_lower(fragment)):
            start = match.start()
            if fragment.rfind("<", 0, start) > fragment.rfind(">", 0, start):
                continue  # in a tag
            if skipped and any(begin <= start < end for begin, end in skipped):
                continue
            yield match

    def _matches(self, text: str) -> Iterator[re.Match]:
        """The names in text, left to right, as the alternation of the patterns would find
        them: the leftmost match of either from where the last one ended, the first
        pattern's at the same place."""
        upcoming = [(pattern, pattern.search(text)) for pattern in self.patterns]
        while upcoming := [(pattern, m) for pattern, m in upcoming if m]:
            if len(upcoming) == 1:  # one pattern left with names to find (a text with no Chinese or Japanese, or one script's names alone): one scan
                pattern, match = upcoming[0]
                yield match
                yield from pattern.finditer(text, match.end())
                return
            match = min((m for _, m in upcoming), key=re.Match.start)  # min keeps the first of equals
            yield match
            upcoming = [(pattern, m if m.start() >= match.end() else pattern.search(text, match.end())) for pattern, m in upcoming]


Mention = tuple[int, int, str]  # where a term is named in a fragment (start, end) and its id


def with_links(fragment: str, mentions: tuple[Mention, ...], href: Callable[[str], str], skip: str = "") -> str:
    """The fragment with these first mentions of terms (but skip's) linked to href(term id)."""
    parts, done = [], 0
    for start, end, term_id in mentions:
        if term_id != skip:
            parts += (fragment[done:start], f'<a class="term" href="{href(term_id)}">{fragment[start:end]}</a>')
            done = end
    return "".join(parts) + fragment[done:]


# Keeps fragments apart while they are linked as one text: NUL (refused in content text),
# else the first private-use character that none of the fragments holds.
_SEPARATORS = "\x00" + "".join(map(chr, range(0xE000, 0xF900)))


def separator_for(fragments: tuple[str, ...]) -> str | None:
    """A character none of the fragments holds, to join them by (None: they hold them all)."""
    text = "".join(fragments)
    return next((c for c in _SEPARATORS if c not in text), None)


def _lower(text: str) -> str:
    """The text lower-cased, each character in its place: the few whose lower case is longer
    ("İ") are left as they are. Matching lower-cased names in it takes half the time of
    matching with re.IGNORECASE."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else "".join(c if len(c.lower()) > 1 else c.lower() for c in text)


def _key(name: str) -> str:
    return " ".join(name.split()).lower()


def _skipped_stretches(fragment: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of the fragment inside a, code, pre or math."""
    stretches: list[tuple[int, int]] = []
    depth = start = 0
    for tag in _TAG.finditer(fragment):
        text = tag.group(0)
        name = text[1:].lstrip("/").split(None, 1)[0].rstrip(">").lower() if len(text) > 2 else ""
        if name not in _SKIPPED_TAGS:
            continue
        before = depth
        depth += -1 if text.startswith("</") else 1
        if before == 0:
            start = tag.start()
        elif depth == 0:
            stretches.append((start, tag.end()))
    if depth != 0:  # left open: skipped to the end
        stretches.append((start, len(fragment)))
    return stretches
