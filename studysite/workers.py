"""Forks: pure work shared out among processes that see the build's data as it is; and the
cycle collector kept off that data (CollectorSpared).

A forked child starts with the parent's memory, so only the results travel (pickled,
through a pipe). Whatever else a child changes is lost with it: map_in_forks takes pure
functions; share_out_work's works return all they did (the render workers, what they wrote)."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from studysite.diagnostics import ContentError

Item = TypeVar("Item")
Result = TypeVar("Result")

WORTH_A_FORK = 64  # fewer items are done in this process: a fork costs more than they do


def map_in_forks(function: Callable[[Item], Result], items: Sequence[Item], jobs: int, worth_a_fork: int = WORTH_A_FORK) -> list[Result]:
    """[function(item) for item in items], with jobs processes taking runs of items, each
    as it is free; in this process alone when there are fewer items than worth_a_fork.

    A child pickles each run's results as soon as it has them, so that the pickling, too,
    slows the child's taking of runs and this process takes more: a child that pickled all
    at its end, with its share fixed in advance, kept this process waiting."""
    if jobs <= 1 or len(items) < worth_a_fork or not hasattr(os, "fork"):
        return [function(item) for item in items]
    size = -(-len(items) // min(jobs * RUNS_A_PROCESS, Tasks.MOST))
    runs = [items[start : start + size] for start in range(0, len(items), size)]
    try:
        tasks = Tasks(len(runs))
    except OSError:  # no queue for the children: this process does it all
        return [function(item) for item in items]
    with tasks:
        done = share_out_work([functools.partial(_map_runs, function, runs, tasks, pickled=number > 0) for number in range(jobs)])
    mapped: list[list[Result]] = [[] for _ in runs]
    for share in done:
        for number, results in share:
            mapped[number] = pickle.loads(results) if isinstance(results, bytes) else results
    return [result for results in mapped for result in results]


RUNS_A_PROCESS = 16  # runs of items a map_in_forks makes for each process: the last taken are short


def _map_runs(function: Callable[[Item], Result], runs: Sequence[Sequence[Item]], tasks: Tasks, pickled: bool) -> list[tuple[int, list[Result] | bytes]]:
    """The runs this process takes, each with its results; pickled by a child, as it goes."""
    done: list[tuple[int, list[Result] | bytes]] = []
    for number in tasks:
        results = [function(item) for item in runs[number]]
        done.append((number, pickle.dumps(results, pickle.HIGHEST_PROTOCOL) if pickled else results))
    return done


class Tasks:
    """The numbers 0 to count - 1, each taken once by whichever process asks first: a share
    fixed in advance leaves one process idle while another still works (pages differ in
    cost, and processes aside take a core now and then). The numbers wait in a pipe made
    before the processes fork; each read takes one whole number, as a pipe's reads do not
    interleave, and its writing end is closed at once, so an empty pipe reads as its end."""

    SIZE = 4  # bytes a number
    MOST = 1024  # numbers in all: their 4 KiB fit in any pipe's buffer (one page, the least Linux gives a pipe)

    def __init__(self, count: int):
        """OSError when the pipe cannot hold them all (its writer would wait for a reader)."""
        if not 0 <= count <= self.MOST:
            raise ValueError(f"between 0 and {self.MOST} tasks, not {count}")
        numbers = b"".join(number.to_bytes(self.SIZE, "little") for number in range(count))
        self._reader, writer = os.pipe()
        try:
            os.set_blocking(writer, False)
            if numbers and os.write(writer, numbers) != len(numbers):
                raise OSError("a pipe too small for the tasks")
        except OSError:
            os.close(self._reader)
            raise
        finally:
            os.close(writer)

    def __enter__(self) -> Tasks:
        return self

    def __exit__(self, *exc_info) -> None:
        os.close(self._reader)

    def __iter__(self) -> Iterator[int]:
        """The numbers this process takes, until none is left."""
        while len(data := os.read(self._reader, self.SIZE)) == self.SIZE:
            yield int.from_bytes(data, "little")

    def drain(self) -> None:
        """Take every number left, so that the other processes stop after the one they have."""
        for _ in self:
            pass


def share_out_work(works: Sequence[Callable[[], Result]]) -> list[Result]:
    """Each work's result, the first done here and the others in forked children, at once.

    A child's ContentError or OSError comes back as it is, any other failure as its text;
    the first failure is raised once every child has ended."""
    with Aside(works[1:]) as aside:
        first = works[0]()
        return [first, *aside.results()]


BACKGROUND_NICENESS = 10  # a background child's: it takes a core the build's own chain of work leaves free


class Aside:
    """Works started in forked children now, their results taken later: the parent goes on
    with other work meanwhile. With one job (or no fork), results() does the works itself.
    background: the children yield the processor to the build's other processes (the
    decks and the saved cache, which nothing waits for until the end, should not slow the
    model and the pages, which everything else waits for), and collect no cycles.

    Leaving the with block without taking the results stops the children and waits for them."""

    def __init__(self, works: Sequence[Callable[[], Result]], jobs: int = 2, background: bool = False):
        self._works = list(works)
        self._children: list[tuple[int, int]] = []
        if jobs > 1 and hasattr(os, "fork") and self._works:
            frozen = gc.get_freeze_count()  # the build's model, frozen already (CollectorSpared): it stays so
            gc.freeze()  # keep the collector off the shared objects, so children copy fewer pages
            try:
                self._children = [_fork(work, background) for work in self._works]
            finally:
                if not frozen:
                    gc.unfreeze()

    def __enter__(self) -> Aside:
        return self

    def __exit__(self, *exc_info) -> None:
        for pid, reader in self._children:
            os.close(reader)
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
        self._children = []

    def results(self) -> list:
        """Each work's result, in order, once every child has ended; the first failure raised."""
        if not self._children:
            return [work() for work in self._works]
        children, self._children = self._children, []
        results, failure = [], None
        for pid, reader in children:
            with os.fdopen(reader, "rb") as stream:
                data = stream.read()
            os.waitpid(pid, 0)
            outcome = pickle.loads(data) if data else RuntimeError("a worker process stopped without a result")
            if isinstance(outcome, BaseException):
                failure = failure or outcome
            results.append(outcome)
        if failure is not None:
            raise failure
        return results


def _fork(work: Callable[[], object], background: bool = False) -> tuple[int, int]:
    reader, sender = os.pipe()
    pid = os.fork()
    if pid:
        os.close(sender)
        return pid, reader
    os.close(reader)
    status = 1
    try:
        if background:
            with contextlib.suppress(OSError):
                os.nice(BACKGROUND_NICENESS)
            gc.disable()  # it ends soon, and makes no garbage of cycles: keeping the model made 130 collections, a fifth of its time
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


class CollectorSpared:
    """Python's cycle collector kept off the build's model, whose objects live until the
    build ends: each full collection went through all of them again (a fifth of a rebuild's
    time at 5,000 questions, and a third of rendering's). It is held off while phase one
    makes the model; then the model is frozen out of its scans (model_made), and it goes on
    collecting the garbage of rendering, for memory. Both are undone when the build ends."""

    def __enter__(self) -> CollectorSpared:
        self.enabled = gc.isenabled()
        gc.disable()
        return self

    def model_made(self) -> None:
        gc.freeze()
        if self.enabled:
            gc.enable()

    def __exit__(self, *exc_info) -> None:
        gc.unfreeze()
        if self.enabled:
            gc.enable()
