"""Interrupts: how a command answers Ctrl-C and SIGTERM.

Until a build begins to put its new site in place, either raises KeyboardInterrupt where the
program is: the build stops, and the previous site is as it was. From the moment the commit
begins (around_commit, the guard a build is given), a signal is only noted: the commit ends
as it would, the command runs to its end, and then exits 130 saying that the new site is in
place. So what the command says is what happened, whenever the signal came."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupts:
    def __init__(self) -> None:
        self.holding = False  # a build's commit has begun: signals are noted, not raised
        self.noted: int | None = None  # the signal that came meanwhile
        self.committed = False  # the build's new site is in place

    def __call__(self, signum: int, frame: object) -> None:
        if self.holding:
            self.noted = signum
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def answering(self) -> Iterator[Interrupts]:
        """This object answers both signals (in the main thread) until the block ends."""
        previous = {number: signal.signal(number, self) for number in SIGNALS}
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    @contextlib.contextmanager
    def around_commit(self, built: object) -> Iterator[None]:
        """A build's commit (pipeline.CommitGuard): signals held from its start; committed
        once it is done. A commit that fails lets go of them (and a signal that came
        meanwhile then stops the command: the previous site is in place)."""
        self.holding = True
        try:
            yield
        except BaseException:
            self.holding = False
            if self.noted is not None:
                raise KeyboardInterrupt from None
            raise
        self.committed = True
