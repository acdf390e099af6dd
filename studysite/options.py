"""A build's options, and the folders they name: the content, the output, and the layered
resource folders (the site's own templates/, static/ and locales/ over Studysite's)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from studysite.shipped import shipped_folder


@dataclass(frozen=True)
class Options:
    content_dir: Path = Path("content")
    out_dir: Path = Path("site")
    base_url: str = ""
    strict: bool = False
    search: bool = True
    jobs: int = 0  # 0: as many as the CPUs this process may use
    live_reload: bool = False
    preview: bool = False  # serve's quick rebuild: pages only; decks, search index and sitemaps are kept as they were

    @property
    def processes(self) -> int:
        """How many processes the build shares its work among: --jobs, or the CPUs it may use."""
        return self.jobs or available_cpus()

    @property
    def site_root(self) -> Path:
        """The folder holding the site's content/ and, optionally, its own templates/, static/, locales/."""
        return self.content_dir.resolve().parent

    @property
    def source_folders(self) -> list[Path]:
        """Every folder a build reads: the content and the layered resources."""
        return [self.content_dir, *(folder for name in ("templates", "static", "locales") for folder in self.layered(name))]

    @property
    def protected_folders(self) -> list[Path]:
        """The folders no output may overlap: those a build reads, and the site's resource
        folders not made yet (an output there would be read as one once made)."""
        return [*self.source_folders, *(self.site_root / name for name in ("templates", "static", "locales"))]

    @property
    def locale_folders(self) -> list[Path]:
        """The locales/ folders of the UI catalogs: the site's own (where `i18n init` writes,
        and a missing catalog is reported, whether or not it exists yet), then Studysite's."""
        own = self.site_root / "locales"
        return [own, *(folder for folder in self.layered("locales") if folder.resolve() != own.resolve())]

    def layered(self, name: str) -> list[Path]:
        """A resource folder of the site, then Studysite's own: the first that has a file wins."""
        folders = [self.site_root / name, shipped_folder(name)]
        unique = []
        for folder in folders:
            if folder.is_dir() and folder.resolve() not in [f.resolve() for f in unique]:
                unique.append(folder)
        return unique


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_settings(options: Options) -> str:
    """The options that change a build's output, and SOURCE_DATE_EPOCH (the decks' note times)."""
    settings = (str(options.content_dir.resolve()), options.base_url, options.strict, options.search, options.live_reload, options.preview)
    return repr((*settings, os.environ.get("SOURCE_DATE_EPOCH", "")))
