"""The site configuration: content/site.yaml read into a SiteConfig."""

from __future__ import annotations

import math

import yaml

from studysite import colors, urls
from studysite.content.fields import mentions
from studysite.content.load import Document
from studysite.content.node_reader import NULL_TAG, NodeReader
from studysite.content.records import SiteConfig, SiteText, Theme
from studysite.diagnostics import Report, did_you_mean
from studysite.languages import language_problem

SITE_KEYS = ("languages", "term_language", "base_url", "fallback", "theme")
SITE_BLOCK_KEYS = ("title", "short_title", "description")
THEME_KEYS = ("accent", "logo", "favicon")
FALLBACKS = ("notice", "skip")


def read_site_config(document: Document, report: Report, base_url_override: str) -> SiteConfig | None:
    reader = NodeReader(document.path, report)
    entries = reader.mapping(document.node, "site.yaml")
    if entries is None:
        return None
    values: dict = {}
    texts: dict[str, SiteText] = {}
    blocks: set[str] = set()  # the languages with a block, with or without a title
    for key, key_node, value_node in entries:
        if key == "languages":
            values[key] = _language_list(reader, value_node)
        elif key == "term_language":
            values[key] = _term_language(reader, value_node)
        elif key == "base_url":
            values[key] = _base_url(reader, value_node)
        elif key == "fallback":
            value = reader.text(value_node, key)
            if value and value not in FALLBACKS:
                reader.error(value_node, "value.choice", f"fallback must be 'notice' or 'skip', not '{value}'", did_you_mean(value, FALLBACKS))
            values[key] = value
        elif key == "theme":
            values[key] = _theme(reader, value_node)
        elif isinstance(value_node, yaml.MappingNode):
            if problem := language_problem(key):
                message, canonical = problem
                reader.error(key_node, "language.invalid", message, did_you_mean(key, SITE_KEYS) or (f"write '{canonical}'" if canonical else ""))
                continue
            block = reader.block(value_node, key, SITE_BLOCK_KEYS)
            blocks.add(key)
            if "title" in block:
                texts[key] = SiteText(block["title"], block.get("description", ""), _short_title(reader, block))
            elif not mentions(value_node, "title"):  # set, but not a text: reported already
                reader.error(value_node, "field.missing", f"the '{key}' block of site.yaml has no 'title'", f"add 'title: ...' to the '{key}' block")
        else:
            reader.error(key_node, "key.unknown", f"unknown key '{key}' in site.yaml", did_you_mean(key, SITE_KEYS))
    languages = values.get("languages")
    if not languages:
        if "languages" not in values:
            reader.error(document.node, "field.missing", "site.yaml has no 'languages'", "add 'languages: [nl, fr]'; the first is the default")
        return None
    _check_titles(reader, document, languages, blocks)
    base_url = base_url_override or values.get("base_url") or "/"
    return SiteConfig(
        languages=tuple(languages),
        base_url=urls.normalize_base_url(base_url),
        fallback=values.get("fallback") or "notice",
        term_language=values.get("term_language") or "",
        texts=texts,
        theme=values.get("theme") or Theme(),
    )


def _check_titles(reader: NodeReader, document: Document, languages: list[str], blocks: set[str]) -> None:
    """A language without a block has no title. For the default language that is an error:
    its title is every page's title, and the other languages' when they have none. For
    another language it is a warning: its pages show the default language's title."""
    default = languages[0]
    if default not in blocks:
        reader.error(
            _listed(document, default),
            "field.missing",
            f"the default language '{default}' has no title in site.yaml",
            f"add a block '{default}: {{title: ...}}' to site.yaml: every page's title comes from the default language's",
        )
    for code in languages[1:]:
        if code not in blocks:
            reader.report.warning(reader.where(document.node), "translation.missing", f"site.yaml has no '{code}' title", f"add '{code}: {{title: ...}}'")


def _listed(document: Document, code: str) -> yaml.Node:
    """Where the 'languages' list names a language: the list's item, else the whole file."""
    lists = [value for key, value in document.node.value if getattr(key, "value", None) == "languages" and isinstance(value, yaml.SequenceNode)]
    return next((item for item in (lists[0].value if lists else ()) if getattr(item, "value", None) == code), document.node)


def _short_title(reader: NodeReader, block: dict) -> str:
    """A language's short_title, if any: one no shorter than its title would not help."""
    short = block.get("short_title", "")
    if short and len(short) >= len(block["title"]):
        reader.error(
            block["@short_title"], "value.long", f"short_title '{short}' is not shorter than the title '{block['title']}'", "shorten it, or leave it out"
        )
        return ""
    return short


def _theme(reader: NodeReader, node: yaml.Node) -> Theme:
    """The site's look: its accent colour (checked for contrast here), logo and favicon (their
    files are found and checked with the content's media, content/media.py)."""
    block = reader.block(node, "theme", THEME_KEYS, {"accent": lambda value, _: _accent(reader, value)})
    where = {key: reader.where(block["@" + key]) for key in ("logo", "favicon") if key in block}
    return Theme(block.get("accent", ""), block.get("logo", ""), block.get("favicon", ""), where)


def _accent(reader: NodeReader, node: yaml.Node) -> str | None:
    """A #rrggbb colour that reaches WCAG AA's contrast on the light background (colors.py)."""
    if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
        reader.error(node, "type.text", "'accent' has no colour", 'quote it, as in accent: "#0b6e4f": an unquoted # starts a comment')
        return None
    value = reader.text(node, "accent")
    if value is None:
        return None
    if not colors.HEX_COLOUR.fullmatch(value):
        reader.error(node, "value.colour", f"accent must be a colour written #rrggbb, not '{value}'", 'for example accent: "#0b6e4f" (quoted)')
        return None
    value = value.lower()
    ratio = colors.least_contrast(value, colors.LIGHT_BACKGROUNDS)
    if ratio < colors.MIN_CONTRAST:
        shown = math.floor(ratio * 100) / 100
        reader.error(
            node,
            "theme.contrast",
            f"accent '{value}' has a contrast of {shown}:1 on the light background; links and buttons need {colors.MIN_CONTRAST}:1 (WCAG AA)",
            f"a darker colour of the same hue passes: accent: \"{colors.darker_passing(value)}\"",
        )
        return None
    return value


def _term_language(reader: NodeReader, node: yaml.Node) -> str | None:
    code = reader.text(node, "term_language")
    if code and (problem := language_problem(code)):
        message, canonical = problem
        reader.error(node, "language.invalid", message, f"write '{canonical}'" if canonical else "use a code such as 'ja', 'nl' or 'pt-BR'")
    return code


def _base_url(reader: NodeReader, node: yaml.Node) -> str | None:
    url = reader.text(node, "base_url")
    if url and not urls.is_base_url(url):
        reader.error(
            node,
            "value.url",
            f"base_url must be an absolute http(s) URL, not '{url}'",
            "for example https://user.github.io/repo/ (no query, fragment or quotes)",
        )
        return None
    return url


def _language_list(reader: NodeReader, node: yaml.Node) -> list[str] | None:
    items = reader.text_list(node, "languages")
    if items is None:
        return None
    if not items:
        reader.error(node, "value.empty", "'languages' is empty", "list at least one language; the first is the default")
        return None
    codes = []
    for code, item in items:
        if problem := language_problem(code):
            message, canonical = problem
            hint = f"write '{canonical}', here and as the key of its blocks" if canonical else "use a code such as 'nl', 'fr' or 'pt-BR'"
            reader.error(item, "language.invalid", message, hint)
        elif code in codes:
            reader.error(item, "language.duplicate", f"language '{code}' is listed twice")
        else:
            codes.append(code)
    return codes or None  # the valid ones, so that records are still checked against them
