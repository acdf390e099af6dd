"""Lock: one build at a time into an output folder, and on a build cache.

A build holds an exclusive lock (flock) on a file beside its output folder
(`.site.studysite-lock` for `site/`: never inside it, where it would be a file Studysite
did not write, and named so that it is no one else's), made only once the folder is one
Studysite may write (output/write.py check_destination), and on one
beside its cache file, from before it looks at the previous output until its own is in
place. Another build of the same folder, or with the same cache, waits for it and says so;
after STUDYSITE_LOCK_TIMEOUT seconds (default 600) it gives up (BuildBusy, exit status 3).
The lock files stay (the output's also records what its last build left: write.py):
removing one while another build waits on it would let two builds each lock a file of
their own. The system frees a lock when its process ends, however it ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from studysite.output.record import NotAFile, lock_file, open_lock_file
from studysite.output.write import OutputError, check_destination

DEFAULT_TIMEOUT = 600.0
POLL_SECONDS = 0.05


class BuildBusy(Exception):
    """Another build held the output folder or the cache for longer than the timeout."""


def lock_timeout() -> float:
    try:
        return max(0.0, float(os.environ.get("STUDYSITE_LOCK_TIMEOUT", DEFAULT_TIMEOUT)))
    except ValueError:
        return DEFAULT_TIMEOUT


@contextlib.contextmanager
def build_lock(out_dir: Path, cache_lock: Path, protected: Sequence[Path] = (), timeout: float | None = None) -> Iterator[None]:
    """Hold the output folder and the cache (its lock file, cache_lock), in that order (so
    two builds never each hold what the other waits for); OutputError first, with no lock
    file made, if Studysite may not write the output folder."""
    check_destination(out_dir, list(protected))
    timeout = lock_timeout() if timeout is None else timeout
    name = f"{out_dir.as_posix().rstrip('/')}/"
    with _held(lock_file(out_dir), f"another build of {name}", timeout, required=True):
        with _held(cache_lock, "another build with the same cache", timeout, required=False):
            yield


@contextlib.contextmanager
def _held(path: Path, holder: str, timeout: float, required: bool) -> Iterator[None]:
    """An exclusive lock on path, never taken through a link (record.open_lock_file).
    required: a lock file that cannot be made is an OSError (the output folder's parent: the
    build could not write there either), or OutputError where a link or a special file has
    its name; else the build goes on without it (a cache folder that cannot be written is
    not used)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = open_lock_file(path)
    except NotAFile as error:
        if required:
            raise OutputError(
                f"'{path}' is {'a symbolic link' if path.is_symlink() else 'not a regular file'}: Studysite locks the output folder and records what"
                " it wrote in a file of that name, and never writes through a link or into a special file; remove it, or choose another --out"
            ) from error
        yield
        return
    except OSError:
        if required:
            raise
        yield
        return
    try:
        _wait_for(descriptor, holder, timeout)
        yield
    finally:
        os.close(descriptor)  # which releases the lock


def _wait_for(descriptor: int, holder: str, timeout: float) -> None:
    deadline, told = time.monotonic() + timeout, False
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if time.monotonic() >= deadline:
            raise BuildBusy(f"{holder} has not finished after {timeout:g} s; try again once it has (STUDYSITE_LOCK_TIMEOUT sets how long to wait)")
        if not told:
            print(f"Waiting for {holder} to finish...", file=sys.stderr, flush=True)
            told = True
        time.sleep(POLL_SECONDS)
