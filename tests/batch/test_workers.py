"""The batch's worker processes (ginref.batch.workers): a task's value or exception comes back
as it was, a worker lost fails only its task, and no worker outlives the pool."""

from __future__ import annotations

import functools
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginref.batch.workers import WorkerLost, Workers, _read_message, live_workers


def _square(n: int) -> int:
    return n * n


def _fail(message: str) -> None:
    raise ValueError(message)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _pid() -> int:
    return os.getpid()


def _nothing() -> None:
    pass


@pytest.fixture
def workers() -> Iterator[Workers]:
    pool = Workers(2, _nothing)
    yield pool
    pool.stop()
    assert not live_workers()


def test_values_and_exceptions_come_back_as_they_were(workers: Workers) -> None:
    tasks = [workers.submit(_square, n) for n in range(20)]
    failing = workers.submit(_fail, "a bug")
    assert [task.result() for task in tasks] == [n * n for n in range(20)]
    with pytest.raises(ValueError, match=r"^a bug$"):
        failing.result()


def _refuse() -> None:
    raise TypeError("cannot be built here")


class _Unloadable:
    """A value that pickles but cannot be unpickled (an exception whose arguments cannot
    build it again is one, unless a library such as tblib has taught pickle otherwise)."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return _refuse, ()


def _unloadable() -> _Unloadable:
    return _Unloadable()


def test_a_reply_that_cannot_be_unpickled_fails_its_task_only(workers: Workers) -> None:
    odd = workers.submit(_unloadable)
    with pytest.raises(RuntimeError, match="reply cannot be read: TypeError: cannot be built here"):
        odd.result()
    assert workers.submit(_square, 5).result() == 25


def test_tasks_run_in_other_processes_and_spread_over_them(workers: Workers) -> None:
    pids = {task.result() for task in [workers.submit(_pid) for _ in range(40)]}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_a_lost_worker_fails_only_its_task(workers: Workers) -> None:
    lost = workers.submit(_die)
    after = [workers.submit(_square, n) for n in range(5)]
    with pytest.raises(WorkerLost, match=r"killed by signal 9"):
        lost.result()
    assert [task.result() for task in after] == [0, 1, 4, 9, 16]
    assert len(live_workers()) == 1


def test_with_every_worker_lost_what_waits_fails_and_nothing_hangs() -> None:
    pool = Workers(1, _nothing)
    lost, waiting = pool.submit(_die), pool.submit(_square, 3)
    with pytest.raises(WorkerLost):
        lost.result()
    with pytest.raises(WorkerLost, match="no worker is left"):
        waiting.result()
    pool.close()
    assert not live_workers()


def test_a_task_that_cannot_be_sent_fails_as_a_task(workers: Workers) -> None:
    unsendable = workers.submit(_square, threading.Lock())
    with pytest.raises(TypeError):
        unsendable.result()
    assert workers.submit(_square, 4).result() == 16


def test_close_waits_for_the_workers_to_end() -> None:
    pool = Workers(2, _nothing)
    assert pool.submit(_square, 2).result() == 4
    pool.close()
    assert not live_workers()


def _megabyte() -> bytes:
    return bytes(1 << 20)


def test_close_ends_the_workers_with_tasks_left_unread() -> None:
    """A reply bigger than a pipe holds, that nobody asked for, would keep its worker in its
    write for ever; a task still waiting for a worker fails instead of running."""
    pool = Workers(1, _nothing)
    running, waiting = pool.submit(_megabyte), pool.submit(_square, 2)
    pool.close()
    assert not live_workers()
    assert running.result() == bytes(1 << 20)
    with pytest.raises(WorkerLost, match="closed"):
        waiting.result()


def test_half_a_message_then_the_end_is_no_message() -> None:
    """A worker killed while it writes its reply leaves part of it: reading stops at the end of
    the pipe (the process pool that came before once waited there for ever)."""
    read_end, write_end = os.pipe()
    os.write(write_end, (1000).to_bytes(8, "little") + b"half")
    os.close(write_end)
    try:
        assert _read_message(read_end) is None
    finally:
        os.close(read_end)


def _note_to(path: str, word: str) -> None:
    with open(path, "a", encoding="utf-8") as note:
        note.write(f"{word} {os.getpid()}\n")


def _tidy_on_sigterm(path: str) -> None:
    """A worker's setup that tidies up when it is asked to stop (SIGTERM), as the arena's does."""

    def tidy(signum: int, frame: object) -> None:
        _note_to(path, "stopped")
        os._exit(0)

    signal.signal(signal.SIGTERM, tidy)


def test_each_worker_tears_down_at_close_and_tidies_up_when_stopped_by_sigterm(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    closed = Workers(2, _nothing, functools.partial(_note_to, str(notes), "closed"))
    used = {closed.submit(_pid).result() for _ in range(8)}
    closed.close()
    assert not live_workers()
    words = notes.read_text().split()
    assert words[::2] == ["closed", "closed"] and used <= {int(pid) for pid in words[1::2]}

    notes.unlink()
    stopped = Workers(2, functools.partial(_tidy_on_sigterm, str(notes)))
    used = {stopped.submit(_pid).result() for _ in range(8)}
    stopped.stop(signal.SIGTERM)
    assert not live_workers()
    words = notes.read_text().split()
    assert words[::2] == ["stopped", "stopped"] and used <= {int(pid) for pid in words[1::2]}
