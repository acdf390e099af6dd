"""Site links: a Markdown link to another record (`[allele](glossary:allele)`,
`question:ID`, `topic:ID`, `comparison:ID`) made the relative link to that record's page in
the language of the page that shows it, and an image's local file made its published
copy's path, from where a text is shown (urls.TextPlace).

The sanitiser (nh3) keeps these schemes (markup.URL_SCHEMES); the converter resolves them
after it, on every build, so that a link to a record removed since is told even when the
text's HTML comes from the cache.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from studysite import urls
from studysite.diagnostics import did_you_mean

# scheme -> (content folder, noun): the folder names the page, the noun the diagnostic ([ref.unknown-term])
SCHEMES = {"glossary": ("glossary", "term"), "question": ("questions", "question"), "topic": ("topics", "topic"), "comparison": ("comparisons", "comparison")}

Targets = Mapping[str, Collection[str]]  # content folder -> the ids of its records


@dataclass(frozen=True)
class UnknownTarget:
    """A link to a record that does not exist."""

    code: str
    message: str
    hint: str


def scheme_of(href: str) -> str:
    """The site scheme an href starts with ("glossary"...), or ""."""
    scheme, colon, _ = href.partition(":")
    return scheme.lower() if colon and scheme.lower() in SCHEMES else ""


def record_href(href: str, targets: Targets, place: urls.TextPlace) -> str | UnknownTarget:
    """The relative link a site link (scheme_of(href) is one) becomes where the text is shown,
    with its #fragment kept; the problem when its record does not exist."""
    scheme, _, rest = href.partition(":")
    record_id, hash_sign, fragment = rest.partition("#")
    folder, noun = SCHEMES[scheme.lower()]
    known = targets.get(folder, ())
    if record_id not in known:
        hint = did_you_mean(record_id, known) or f"{noun}s are the files in {folder}/, named by their ids"
        return UnknownTarget(f"ref.unknown-{noun}", f"link to an unknown {noun} '{record_id}'", hint)
    return place.record(folder, record_id) + hash_sign + fragment
