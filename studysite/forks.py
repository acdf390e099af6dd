"""Forks: pure work shared out among processes that see the build's data as it is.

A forked child starts with the parent's memory, so only the results travel (pickled,
through a pipe). Whatever else a child changes is lost with it: map_in_forks takes pure
functions; share_out_work's works return all they did (the render workers, what they wrote)."""

from __future__ import annotations

import functools
import gc
import os
import pickle
from collections.abc import Callable, Sequence
from typing import TypeVar

from .diagnostics import ContentError

Item = TypeVar("Item")
Result = TypeVar("Result")

WORTH_A_FORK = 64  # fewer items are done in this process: a fork costs more than they do


def map_in_forks(function: Callable[[Item], Result], items: Sequence[Item], jobs: int, worth_a_fork: int = WORTH_A_FORK) -> list[Result]:
    """[function(item) for item in items], with jobs processes each taking every jobs-th
    item; in this process alone when there are fewer items than worth_a_fork."""
    if jobs <= 1 or len(items) < worth_a_fork or not hasattr(os, "fork"):
        return [function(item) for item in items]
    shares = [items[index::jobs] for index in range(jobs)]
    done = share_out_work([functools.partial(_map, function, share) for share in shares])
    results: list[Result] = [None] * len(items)  # type: ignore[list-item]
    for index, share in enumerate(done):
        results[index::jobs] = share
    return results


def _map(function: Callable[[Item], Result], share: Sequence[Item]) -> list[Result]:
    return [function(item) for item in share]


def share_out_work(works: Sequence[Callable[[], Result]]) -> list[Result]:
    """Each work's result, the first done here and the others in forked children, at once.

    A child's ContentError or OSError comes back as it is, any other failure as its text;
    the first failure is raised once every child has ended."""
    gc.freeze()  # keep the collector off the shared objects, so children copy fewer pages
    try:
        children = [_fork(work) for work in works[1:]]
    finally:
        gc.unfreeze()
    results: list = [None] * len(works)
    failure: BaseException | None = None
    try:
        results[0] = works[0]()
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
            results[index] = outcome
    if failure is not None:
        raise failure
    return results


def _fork(work: Callable[[], object]) -> tuple[int, int]:
    reader, sender = os.pipe()
    pid = os.fork()
    if pid:
        os.close(sender)
        return pid, reader
    os.close(reader)
    status = 1
    try:
        try:
            outcome: object = work()
        except (ContentError, OSError) as error:
            outcome = error
        except Exception as error:  # sent back as text: the parent says what went wrong
            outcome = RuntimeError(f"a worker process failed: {type(error).__name__}: {error}")
        with os.fdopen(sender, "wb") as stream:
            pickle.dump(outcome, stream)
        status = 0
    finally:
        os._exit(status)
