"""workers.py: work shared out among forked processes gives what one process would, and a
child's failure reaches the parent."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from studysite.diagnostics import ContentError, Diagnostic, Location, Severity
from studysite.workers import BACKGROUND_NICENESS, WORTH_A_FORK, Aside, Tasks, map_in_forks, share_out_work


def test_a_map_in_forks_equals_the_map_in_order(tmp_path):
    import time

    def square(n: int) -> tuple[int, int]:
        started = tmp_path / str(os.getpid())
        if not started.exists():  # each process's first item waits until all three have begun
            started.touch()
            deadline = time.monotonic() + 60  # a loaded machine may start a fork late
            while len(list(tmp_path.iterdir())) < 3 and time.monotonic() < deadline:
                time.sleep(0.001)
        return n * n, os.getpid()

    items = list(range(WORTH_A_FORK * 3 + 1))
    mapped = map_in_forks(square, items, 3)
    assert [value for value, _ in mapped] == [n * n for n in items]
    assert len({pid for _, pid in mapped}) == 3  # three processes did it


def test_a_map_in_forks_with_more_processes_than_items_still_maps():
    items = list(range(WORTH_A_FORK))
    assert map_in_forks(lambda n: n + 1, items, 8) == [n + 1 for n in items]


def wait_until(condition, seconds: float = 60) -> None:
    """Poll until condition() holds (a loaded machine may start a fork late), or fail."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.001)


def test_a_map_in_forks_leaves_more_runs_to_the_quicker_process(tmp_path):
    """The child's first run lasts until the parent has done more than half of them: with a
    share fixed in advance, the parent could never get there."""
    parent = os.getpid()
    items = list(range(WORTH_A_FORK * 4))

    def runs_in_the_parent() -> int:
        return sum(1 for path in tmp_path.iterdir() if path.name.startswith("parent-"))

    def slow_in_a_child(n: int) -> int:
        if os.getpid() != parent:
            wait_until(lambda: runs_in_the_parent() > len(items) // 2)
        else:
            (tmp_path / f"parent-{n}").touch()
        return os.getpid()

    pids = map_in_forks(slow_in_a_child, items, 2)
    assert pids.count(parent) > len(pids) // 2 and len(set(pids)) == 2


def test_tasks_are_each_taken_once_by_whichever_process_asks_first(tmp_path):
    """The slow process takes one task, then waits until the quick one has taken most of the
    others: nobody waits for a fixed share."""

    def taken_by_quick() -> int:
        return sum(1 for path in tmp_path.iterdir() if path.name.startswith("quick-"))

    def quick() -> list[int]:
        wait_until((tmp_path / "slow-began").exists)  # the slow one runs in a fork, which a loaded machine may start late
        taken = []
        for number in tasks:
            taken.append(number)
            (tmp_path / f"quick-{number}").touch()
        return taken

    def slow() -> list[int]:
        taken = []
        for number in tasks:
            taken.append(number)
            if len(taken) == 1:
                (tmp_path / "slow-began").touch()
                wait_until(lambda: taken_by_quick() > 40)
        return taken

    tasks = Tasks(60)
    quick_taken, slow_taken = share_out_work([quick, slow])
    assert sorted(quick_taken + slow_taken) == list(range(60)) and len(quick_taken) > len(slow_taken) > 0
    assert list(Tasks(0)) == []


def test_a_failing_child_is_raised_in_the_parent_once_all_have_ended():
    def child_fails():
        raise ValueError("bad item")

    with pytest.raises(RuntimeError, match="ValueError: bad item"):
        share_out_work([lambda: 1, child_fails])
    problem = ContentError([Diagnostic(Severity.ERROR, Location("templates/x.html"), "template.error", "template error")])

    def child_reports():
        raise problem

    with pytest.raises(ContentError) as raised:  # a content error comes back whole, with its diagnostics
        share_out_work([lambda: 1, child_reports])
    assert raised.value.diagnostics == problem.diagnostics


def test_work_set_aside_runs_while_the_parent_goes_on():
    parent = os.getpid()
    with Aside([lambda: os.getpid(), lambda: 2], jobs=2) as aside:
        pids_meanwhile = os.getpid()
        child_pid, two = aside.results()
    assert pids_meanwhile == parent and child_pid != parent and two == 2
    with Aside([lambda: os.getpid()], jobs=1) as aside:  # one job: done here, when asked for
        assert aside.results() == [parent]


def test_work_set_aside_in_the_background_yields_the_processor_and_the_parent_keeps_its_priority():
    parent = os.nice(0)
    with Aside([lambda: os.nice(0)], jobs=2, background=True) as background, Aside([lambda: os.nice(0)], jobs=2) as foreground:
        assert background.results() == [min(19, parent + BACKGROUND_NICENESS)] and foreground.results() == [parent]
    assert os.nice(0) == parent


def test_work_set_aside_and_never_taken_is_stopped_and_reaped():
    import time

    with pytest.raises(KeyError), Aside([lambda: time.sleep(60)], jobs=2):
        started = time.monotonic()
        raise KeyError("the build failed meanwhile")
    assert multiprocessing.active_children() == []  # stopped and reaped: no process is left behind
    assert time.monotonic() - started < 5


def test_an_interrupt_while_waiting_for_work_aside_stops_every_child():
    """Ctrl-C or SIGTERM (which the CLI turns into KeyboardInterrupt) reaching the build
    alone, while it waits for its children: none is left running, holding the build's
    locks and writing into its temporary folder."""
    import signal
    import time

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        aside = Aside([lambda: time.sleep(60), lambda: time.sleep(60)], jobs=2)
        assert len(multiprocessing.active_children()) == 2
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            aside.results()  # outside a with block: results() itself stops them
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert multiprocessing.active_children() == []


def test_forking_keeps_a_frozen_model_frozen_and_freezes_nothing_else_for_good():
    import gc

    assert gc.get_freeze_count() == 0
    with Aside([lambda: 1], jobs=2) as aside:
        aside.results()
    assert gc.get_freeze_count() == 0  # frozen only while forking
    model = [[n] for n in range(1000)]
    gc.freeze()  # as CollectorSpared does once the model is made
    try:
        with Aside([lambda: len(model)], jobs=2) as aside:
            assert aside.results() == [1000]
        assert gc.get_freeze_count() >= 1000  # still out of the collector's scans
    finally:
        gc.unfreeze()


def test_a_build_leaves_the_collector_as_it_found_it_whether_it_succeeds_or_fails(make_content, tmp_path):
    import gc

    from studysite import pipeline

    content = make_content()
    pipeline.build(pipeline.Options(content_dir=content, out_dir=tmp_path / "site", search=False, jobs=2))
    assert gc.isenabled() and gc.get_freeze_count() == 0
    (content / "questions/broken.yaml").write_text("topic: [unclosed\n", encoding="utf-8")
    with pytest.raises(ContentError):
        pipeline.build(pipeline.Options(content_dir=content, out_dir=tmp_path / "site", search=False, jobs=2))
    assert gc.isenabled() and gc.get_freeze_count() == 0
