"""The view types every page's model is made of (Page, Link, Text), and the small text
helpers the view builders share: dictionary order, index letters, meta descriptions."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from .markup import excerpt, plain_text


@dataclass(frozen=True)
class Page:
    """A page to render: where it goes, with which template, from which records."""

    path: str
    template: str
    language: str
    title: str
    context: Callable[[], Mapping[str, Any]]  # built when the page is rendered, to keep memory flat
    alternates: Mapping[str, str] = field(default_factory=dict)  # language -> path
    sources: tuple[str, ...] = ()  # "kind/id" of every record whose text it shows, and the names that link it (keys.py)
    in_sitemap: bool = True
    x_default: str | None = None  # the x-default alternate; the default language's version if None
    description: str = ""  # the meta description: the record's own text, else the site's description
    fallbacks: frozenset[str] = frozenset()  # languages whose version shows another language's text
    keyed_by_sources: bool = False  # its view model reads nothing but its sources and the site
    work_group: str = ""  # pages that share work (a topic's questions and its practice page) are rendered by one process


@dataclass(frozen=True)
class Link:
    path: str
    label: str
    lang: str = ""  # set when the label is in another language than the page
    dir: str = ""  # set when that language is written in the other direction


@dataclass(frozen=True)
class Text:
    """Content shown on a page, with the language it is written in when that differs."""

    html: Markup
    lang: str = ""
    dir: str = ""  # set when that language is written in the other direction


def description(fragment: str) -> str:
    """A meta description from a record's HTML text: its plain text, cut near 160 characters."""
    return excerpt(plain_text(fragment), 160)


def sort_key(label: str) -> tuple[str, str]:
    """Dictionary order that folds accents and case: "Élagage" sorts with "elagage"."""
    decomposed = unicodedata.normalize("NFKD", label)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return folded, label


def index_letter(label: str) -> str:
    """The A-Z heading a label files under; digits and symbols file under '#'."""
    first = sort_key(label)[0][:1].upper()
    return first if first.isalpha() else "#"
