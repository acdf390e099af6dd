"""The image files a text's HTML shows, for a bank to embed.

An image in content text is `![alt](cell.svg)`: its path is relative to the record's own
file, or absolute under content/ (`/media/cell.svg`). Its <img src> is resolved to that
file when the file is there, inside the content folder; anything else (a URL, a file that
is not there, a path that leaves the folder) is skipped: the bank keeps the src as it is.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit


def image_files(sources: Iterable[str], record_path: str, content_dir: Path) -> dict[str, Path]:
    """src -> the file under content_dir, for each source that names one."""
    root = content_dir.resolve()
    found = {}
    for source in sources:
        parts = urlsplit(html.unescape(source))
        if parts.scheme or parts.netloc or not parts.path:
            continue
        relative = PurePosixPath(unquote(parts.path))
        within = relative.relative_to("/") if relative.is_absolute() else PurePosixPath(record_path).parent / relative
        candidate = (root / within).resolve()
        if candidate.is_relative_to(root) and candidate.is_file():
            found[source] = candidate
    return found
