"""Template code: the compiled templates of each language, kept between builds in a folder
of the cache through Jinja's public BytecodeCache interface."""

from __future__ import annotations

from pathlib import Path

import jinja2

from studysite.incremental.checked_files import read_checked, write_checked


class TemplateCodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in a folder of the build cache, so that a build compiles only
    the templates that changed. Each file holds its code with the sha256 of it
    (checked_files.py), checked before the code is run: a damaged file (a
    flipped byte would run as other code, or stop a process on an unknown opcode), a file
    of another format or one that cannot be read is ignored, and the template compiled
    again and its file written anew. A folder that cannot be written is no error."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.code"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        checked = read_checked(self.path(bucket))
        if checked is not None:
            bucket.bytecode_from_string(bytes(checked[1]))

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        write_checked(self.path(bucket), lambda file: file.write(bucket.bytecode_to_string()))
