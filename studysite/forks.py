"""Forks: pure work shared out among processes that see the build's data as it is.

A forked child starts with the parent's memory, so only the results travel (pickled,
through a pipe). The work must be a pure function of its item: whatever else a child
changes is lost with it."""

from __future__ import annotations

import gc
import os
import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

WORTH_A_FORK = 64  # fewer items are done in this process: a fork costs more than they do


def map_in_forks(function: Callable[[Item], Result], items: Sequence[Item], jobs: int) -> list[Result]:
    """[function(item) for item in items], with jobs processes each taking every jobs-th item."""
    if jobs <= 1 or len(items) < WORTH_A_FORK or not hasattr(os, "fork"):
        return [function(item) for item in items]
    gc.freeze()  # keep the collector off the shared objects, so children copy fewer pages
    try:
        children = [_fork(function, items[index::jobs]) for index in range(1, jobs)]
    finally:
        gc.unfreeze()
    shares: list[list[Result] | None] = [None] * jobs
    failure: BaseException | None = None
    try:
        shares[0] = [function(item) for item in items[0::jobs]]
    except BaseException as error:  # collect the children before passing it on
        failure = error
    for index, (pid, reader) in enumerate(children, 1):
        with os.fdopen(reader, "rb") as stream:
            data = stream.read()
        os.waitpid(pid, 0)
        outcome = pickle.loads(data) if data else RuntimeError("a worker process stopped without a result")
        if isinstance(outcome, BaseException):
            failure = failure or outcome
        else:
            shares[index] = outcome
    if failure is not None:
        raise failure
    results: list[Result] = [None] * len(items)  # type: ignore[list-item]
    for index, share in enumerate(shares):
        results[index::jobs] = share
    return results


def _fork(function: Callable, share: Sequence) -> tuple[int, int]:
    reader, sender = os.pipe()
    pid = os.fork()
    if pid:
        os.close(sender)
        return pid, reader
    os.close(reader)
    status = 1
    try:
        try:
            outcome: object = [function(item) for item in share]
        except Exception as error:  # sent back as text: the parent says what went wrong
            outcome = RuntimeError(f"a worker process failed: {type(error).__name__}: {error}")
        with os.fdopen(sender, "wb") as stream:
            pickle.dump(outcome, stream)
        status = 0
    finally:
        os._exit(status)
