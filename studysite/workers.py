"""Workers: pure work shared out among processes forked from the build (multiprocessing's
fork context), which see the build's data as it is; and the cycle collector kept off that
data (CollectorSpared).

A forked child starts with the parent's memory, so only the results travel (pickled,
through a pipe). Whatever else a child changes is lost with it: map_in_forks takes pure
functions; share_out_work's works return all they did (the render workers, what they wrote).
Where the platform cannot fork, everything is done in this process."""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from studysite.diagnostics import ContentError
from studysite.failures import worker_outcome

Item = TypeVar("Item")
Result = TypeVar("Result")

FORK = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
WORTH_A_FORK = 64  # fewer items are done in this process: a fork costs more than they do
RUNS_A_PROCESS = 16  # runs of items a map_in_forks makes for each process: the last taken are short
BACKGROUND_NICENESS = 10  # a background child's: it takes a core the build's own chain of work leaves free


def can_fork(jobs: int) -> bool:
    """Whether work may be shared out among jobs processes."""
    return jobs > 1 and FORK is not None


def map_in_forks(function: Callable[[Item], Result], items: Sequence[Item], jobs: int, worth_a_fork: int = WORTH_A_FORK) -> list[Result]:
    """[function(item) for item in items], with jobs processes taking runs of items, each
    as it is free; in this process alone when there are fewer items than worth_a_fork.

    A child pickles each run's results as soon as it has them, so that the pickling, too,
    slows the child's taking of runs and this process takes more: a child that pickled all
    at its end, with its share fixed in advance, kept this process waiting."""
    if not can_fork(jobs) or len(items) < worth_a_fork:
        return [function(item) for item in items]
    size = -(-len(items) // (jobs * RUNS_A_PROCESS))
    runs = [items[start : start + size] for start in range(0, len(items), size)]
    tasks = Tasks(len(runs))
    done = share_out_work([functools.partial(_map_runs, function, runs, tasks, pickled=number > 0) for number in range(jobs)])
    mapped: list[list[Result]] = [[] for _ in runs]
    for share in done:
        for number, results in share:
            mapped[number] = pickle.loads(results) if isinstance(results, bytes) else results
    return [result for results in mapped for result in results]


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
    cost, and processes aside take a core now and then). The next number is a counter in
    shared memory, made before the processes fork."""

    def __init__(self, count: int):
        self.count = count
        self._next = FORK.Value("q", 0) if FORK is not None else None

    def __iter__(self) -> Iterator[int]:
        """The numbers this process takes, until none is left."""
        if self._next is None:
            yield from range(self.count)
            return
        while (number := self._take()) is not None:
            yield number

    def _take(self) -> int | None:
        with self._next.get_lock():
            number = self._next.value
            if number >= self.count:
                return None
            self._next.value = number + 1
            return number

    def drain(self) -> None:
        """Take every number left, so that the other processes stop after the one they have."""
        if self._next is not None:
            with self._next.get_lock():
                self._next.value = self.count


def share_out_work(works: Sequence[Callable[[], Result]]) -> list[Result]:
    """Each work's result, the first done here and the others in forked children, at once.

    A child's ContentError or OSError comes back as it is, any other failure as its text;
    the first failure is raised once every child has ended."""
    with Aside(works[1:]) as aside:
        first = works[0]()
        return [first, *aside.results()]


class Aside:
    """Works started in forked children now, their results taken later: the parent goes on
    with other work meanwhile. With one job (or no fork), results() does the works itself.
    background: the children yield the processor to the build's other processes (the
    decks and the saved cache, which nothing waits for until the end, should not slow the
    model and the pages, which everything else waits for), and collect no cycles.

    Leaving the with block without taking the results, or an interrupt (Ctrl-C, SIGTERM)
    while starting them or waiting for them, stops the children that still run and waits
    for them: none outlives the build, holding its locks or writing into its folder."""

    def __init__(self, works: Sequence[Callable[[], Result]], jobs: int = 2, background: bool = False):
        self._works = list(works)
        self._children: list[tuple[multiprocessing.process.BaseProcess, multiprocessing.connection.Connection]] = []
        if can_fork(jobs) and self._works:
            frozen = gc.get_freeze_count()  # the build's model, frozen already (CollectorSpared): it stays so
            gc.freeze()  # keep the collector off the shared objects, so children copy fewer pages
            try:
                for work in self._works:
                    self._children.append(_start(work, background))
            except BaseException:
                self.stop()
                raise
            finally:
                if not frozen:
                    gc.unfreeze()

    def __enter__(self) -> Aside:
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop the children that still run, and wait for them. Killed, not asked: a child's
        own signal handlers (the CLI's) must not run."""
        while self._children:
            process, reader = self._children.pop()
            reader.close()
            process.kill()
            process.join()

    def results(self) -> list:
        """Each work's result, in order, once every child has ended; the first failure raised.
        A child is let go only once its outcome is in."""
        if not self._children:
            return [work() for work in self._works]
        results, failure = [], None
        try:
            while self._children:
                process, reader = self._children[0]
                try:
                    outcome = reader.recv()
                except EOFError:
                    outcome = _NO_RESULT
                reader.close()
                process.join()
                if outcome is _NO_RESULT:
                    outcome = _stopped(process.exitcode)
                self._children.pop(0)
                if isinstance(outcome, BaseException):
                    failure = failure or outcome
                results.append(outcome)
        except BaseException:
            self.stop()
            raise
        if failure is not None:
            raise failure
        return results


_NO_RESULT = object()  # what a worker process that ended without sending one gave


def _stopped(exitcode: int | None) -> Exception:
    """Why a worker process ended without a result: killed by a signal (the environment's
    doing: the system short of memory kills with SIGKILL), or for no reason it could tell."""
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.valid_signals() else f"signal {-exitcode}"
        return OSError(0, f"a worker process was stopped by {name}, perhaps because the system ran short of memory")
    return RuntimeError(f"a worker process ended (status {exitcode}) without a result")


def _start(work: Callable[[], object], background: bool):
    """A forked child doing the work, and the end of the pipe its outcome comes back through."""
    reader, sender = FORK.Pipe(duplex=False)
    process = FORK.Process(target=_do, args=(work, sender, background))
    process.start()
    sender.close()
    return process, reader


def _do(work: Callable[[], object], sender, background: bool) -> None:
    """In the child: the work's outcome (its result, or the failure) sent to the parent. The
    parent alone answers Ctrl-C and SIGTERM (the CLI's handler, inherited, would raise here
    too): it stops its children."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if background:
        with contextlib.suppress(OSError):
            os.nice(BACKGROUND_NICENESS)
        gc.disable()  # it ends soon, and makes no garbage of cycles: keeping the model made 130 collections, a fifth of its time
    try:
        outcome: object = work()
    except (ContentError, OSError) as error:
        outcome = error
    except Exception as error:  # Studysite's own failures as they are; the environment's as OSError; a bug with its traceback
        outcome = error if type(error).__module__.startswith("studysite.") else worker_outcome(error)
    try:
        sender.send(outcome)
    except Exception as error:  # a result or a failure that does not pickle
        sender.send(worker_outcome(error))
    sender.close()


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
