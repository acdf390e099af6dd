"""Failures: what the command line says when something other than the content fails.

The environment (a file system that refuses, a full disk, SQLite's database in the temporary
folder, memory, a worker process killed) is exit status 3, with a sentence that says what;
anything else is a bug in Studysite, exit status 4: one sentence, and the traceback in a file
whose path it gives. Failures in worker processes come back as they are when they are the
environment's (workers.py), else with the worker's traceback (WorkerFailure)."""

from __future__ import annotations

import datetime
import errno
import os
import tempfile
import traceback
from pathlib import Path

# SQLite's result codes that tell of the environment, and the errno each stands for.
SQLITE_ENVIRONMENT = {3: errno.EACCES, 5: errno.EBUSY, 6: errno.EBUSY, 7: errno.ENOMEM, 8: errno.EROFS, 10: errno.EIO, 13: errno.ENOSPC, 14: errno.EACCES, 22: errno.EFBIG}


class WorkerFailure(RuntimeError):
    """A bug met in a worker process, with that process's traceback (details)."""

    def __init__(self, message: str, details: str):
        super().__init__(message)
        self.details = details

    def __reduce__(self):  # sent through a pipe: both parts
        return (WorkerFailure, (str(self), self.details))


def as_environment_error(error: BaseException) -> OSError | None:
    """The failure as an OSError when it is the environment's, else None."""
    if isinstance(error, OSError):
        return error
    if isinstance(error, MemoryError):
        return OSError(errno.ENOMEM, "there is not enough memory")
    code = getattr(error, "sqlite_errorcode", None)
    if type(error).__module__ == "sqlite3" and isinstance(code, int) and code & 0xFF in SQLITE_ENVIRONMENT:
        folder, setting = deck_folder(error)
        where = f"SQLite, making an Anki deck in '{folder}' ({setting} chooses another)"
        return OSError(SQLITE_ENVIRONMENT[code & 0xFF], f"{error} ({where})")
    return None


def deck_folder(error: BaseException) -> tuple[str, str]:
    """The folder a deck's SQLite error was met in (apkg.write_package notes it), and what
    chooses it: the build cache's scratch folder, else the system's temporary folder."""
    folder, temporary = getattr(error, "deck_folder", None) or tempfile.gettempdir(), Path(tempfile.gettempdir())
    setting = "TMPDIR" if temporary in (Path(folder), Path(folder).parent) else "STUDYSITE_CACHE_DIR"
    return folder, setting


def worker_outcome(error: Exception) -> Exception:
    """What a worker process sends back for a failure: the environment's as an OSError, a
    bug with its traceback."""
    found = as_environment_error(error)
    if found is not None:
        return found
    return WorkerFailure(f"{type(error).__name__}: {error}", "".join(traceback.format_exception(error)))


def crash_report(error: BaseException, folders: list[Path]) -> Path | None:
    """The traceback of a bug written to a new file in the first of the folders that takes
    it; None when none does."""
    details = "".join(traceback.format_exception(error))
    if isinstance(error, WorkerFailure):
        details = f"In a worker process:\n{error.details}\nIn the build:\n{details}"
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    for folder in [*folders, Path(tempfile.gettempdir())]:
        path = folder / f"studysite-crash-{stamp}-{os.getpid()}.txt"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(path, "x", encoding="utf-8") as file:
                file.write(details)
        except OSError:
            continue
        return path
    return None


def internal_error_message(error: BaseException, report: Path | None) -> str:
    """One sentence for a bug, naming the file with the details."""
    what = str(error) if isinstance(error, WorkerFailure) else f"{type(error).__name__}: {error}"
    where = f"the details are in {report}" if report is not None else "its details could not be written to any folder"
    return f"internal error (a bug in Studysite: {what}); {where}, please report it"
