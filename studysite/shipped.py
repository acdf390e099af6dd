"""Where Studysite's own templates/, static/ and locales/ are: in an installed package, or in
the checkout it is run from.

The repository keeps them at its top level (beside studysite/), where authors and
translators find them; a wheel carries the same folders as package data under
studysite/resources/ (pyproject.toml maps them there). A site's own folders of the same
names are layered over these, file by file (options.Options.layered)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
RESOURCES = ("templates", "static", "locales")


def shipped_folder(name: str) -> Path:
    """Studysite's own folder of this name (one of RESOURCES): the installed package's
    copy when there is one, else the checkout's top-level folder."""
    installed = PACKAGE / "resources" / name
    return installed if installed.is_dir() else PACKAGE.parent / name
