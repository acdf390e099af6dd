"""The file replacer of serve's quick edits: pages written straight into the built folder,
each in one step, between two builds."""

from __future__ import annotations

import os
from pathlib import Path

from studysite.fileio import write_new_file, write_whole
from studysite.output.manifest import PARTIAL_SUFFIX, PENDING, OutputError, digest


class FileReplacer:
    """Writes pages straight into a built folder (serve's quick edits), each in one step.
    The manifest is left as the last build wrote it: each file replaced is listed as
    pending first, and the next build takes it as it is then (read_manifest)."""

    def __init__(self, out_dir: Path, files: dict[str, str], inputs: dict[str, str], pending: set[str]):
        self.out_dir = out_dir
        self.root = os.path.realpath(out_dir)
        self.files, self.inputs = dict(files), dict(inputs)
        self.pending = pending  # the files listed as pending already
        self.written: list[str] = []

    def write(self, path: str, data: bytes, key: str) -> None:
        """A page and the key it was made from; written only when its bytes changed. Not
        through a link on its way (OutputError: a build then says where it is). The pending
        list and the page are each written whole or not at all (a full disk leaves them as
        they were)."""
        self.inputs[path] = key
        new = digest(data)
        if self.files.get(path) == new:
            return
        folder = os.path.dirname(path)
        if os.path.realpath(self.out_dir / folder) != (os.path.join(self.root, folder) if folder else self.root):
            raise OutputError(f"refusing to write '{path}': a link on its way leads elsewhere")
        if path not in self.pending:
            listed = sorted(self.pending | {path})
            text = "".join(f"{line}\n" for line in listed).encode()
            write_whole(self.out_dir / PENDING, lambda file: file.write(text), self.out_dir / (PENDING + PARTIAL_SUFFIX))
            self.pending.add(path)
        target = self.out_dir / path
        partial = target.with_name(target.name + PARTIAL_SUFFIX)
        try:
            write_new_file(os.fspath(partial), data)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        self.files[path] = new
        self.written.append(path)
