"""Worker processes of a batch: forked from this one, each fed one task at a time over its own
pipe, so that nothing but ``os``, ``select`` and ``pickle`` is needed to start them.

Forked workers inherit what this process has loaded (the checking code, the meld tables),
so a task is a function and its arguments, pickled, and its reply the value or the exception,
pickled. A worker that dies fails only the task it held (:class:`WorkerLost`); the batch
reports that task's records as unreadable, and the other workers go on. No worker outlives
:meth:`Workers.close` or :meth:`Workers.stop`.
"""

from __future__ import annotations

import collections
import os
import pickle
import select
import signal
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

_HEADER = 8
"""bytes of the length before each message"""
_READ = 1 << 20
"""bytes read from a pipe at a time"""

_LIVE: set[int] = set()
"""the process ids of workers started and not yet reaped, in this process"""


class WorkerLost(Exception):
    """The worker running a task ended before it replied."""


def live_workers() -> frozenset[int]:
    """The process ids of the workers this process started and has not reaped (none between batches)."""
    return frozenset(_LIVE)


class Submitted(Generic[T]):
    """A task handed to the workers: :meth:`result` waits for its value, or raises what it raised."""

    __slots__ = ("_done", "_error", "_value", "_workers")

    def __init__(self, workers: Workers) -> None:
        self._workers = workers
        self._done = False
        self._value: T | None = None
        self._error: BaseException | None = None

    def result(self) -> T:
        while not self._done:
            self._workers.wait()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def settle(self, value: object, error: BaseException | None) -> None:
        self._value, self._error, self._done = value, error, True  # type: ignore[assignment]


class _Worker:
    __slots__ = ("pid", "replies", "task", "tasks")

    def __init__(self, pid: int, tasks: int, replies: int) -> None:
        self.pid, self.tasks, self.replies = pid, tasks, replies
        self.task: Submitted[object] | None = None


class Workers:
    """``jobs`` forked workers, each running ``setup`` first and ``teardown`` (if any) when
    its pipe closes (:meth:`close`); tasks wait here until one is free. Used from one thread,
    the one that made it."""

    def __init__(self, jobs: int, setup: Callable[[], None],
                 teardown: Callable[[], None] | None = None) -> None:
        self._idle: collections.deque[_Worker] = collections.deque()
        self._busy: dict[int, _Worker] = {}  # by the descriptor its replies come on
        self._waiting: collections.deque[tuple[Submitted[object], bytes]] = collections.deque()
        try:
            for _ in range(jobs):
                self._idle.append(self._fork(setup, teardown))
        except BaseException:
            self.stop()
            raise

    def _fork(self, setup: Callable[[], None], teardown: Callable[[], None] | None) -> _Worker:
        task_read, task_write = os.pipe()
        reply_read, reply_write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for end in (task_read, task_write, reply_read, reply_write):
                os.close(end)
            raise
        if pid == 0:  # the worker: it never returns into the caller's frames
            code = 1
            try:
                for end in (*self._ends(), task_write, reply_read):  # none may be held here
                    os.close(end)
                _serve(task_read, reply_write, setup, teardown)
                code = 0
            finally:
                os._exit(code)
        _LIVE.add(pid)
        os.close(task_read)
        os.close(reply_write)
        return _Worker(pid, task_write, reply_read)

    def _workers(self) -> list[_Worker]:
        return [*self._idle, *self._busy.values()]

    def _ends(self) -> list[int]:
        """This process's ends of the workers' pipes (a task end is -1 once closed)."""
        return [end for worker in self._workers() for end in (worker.tasks, worker.replies) if end >= 0]

    def submit(self, fn: Callable[..., T], *args: object) -> Submitted[T]:
        task: Submitted[T] = Submitted(self)
        try:
            message = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a task that cannot be sent fails as a task, not the batch
            task.settle(None, exc)
            return task
        self._waiting.append((task, message))  # type: ignore[arg-type]
        self._hand_out()
        return task

    def wait(self) -> None:
        """Take the replies that are ready (waiting for one), and hand out the tasks waiting."""
        if not self._busy:
            self._hand_out()
            if not self._busy:  # every worker lost: what waits cannot run
                while self._waiting:
                    self._waiting.popleft()[0].settle(None, WorkerLost("no worker is left to run it"))
                return
        poller = select.poll()  # not select(): a descriptor past 1,023 is fine here
        for end in self._busy:
            poller.register(end, select.POLLIN)
        for end, _ in poller.poll():
            self._take_reply(self._busy[end])
        self._hand_out()

    def _hand_out(self) -> None:
        while self._waiting and self._idle:
            worker = self._idle.popleft()
            task, message = self._waiting.popleft()
            try:
                _write_message(worker.tasks, message)
            except OSError:  # the worker is gone: the task waits for another
                self._waiting.appendleft((task, message))
                self._reap(worker)
                continue
            worker.task = task
            self._busy[worker.replies] = worker

    def _take_reply(self, worker: _Worker) -> None:
        """Read a busy worker's reply; until it is read the worker stays busy, so that a signal
        arriving meanwhile still finds it for :meth:`stop`."""
        message = _read_message(worker.replies)
        del self._busy[worker.replies]
        task, worker.task = worker.task, None
        assert task is not None
        if message is None:
            status = self._reap(worker)
            task.settle(None, WorkerLost(f"the worker process ended ({_ending(status)})"))
            return
        self._idle.append(worker)
        try:
            ok, value = pickle.loads(message)
        except Exception as exc:  # a value that cannot be built here (an exception whose args cannot)
            task.settle(None, RuntimeError(f"the worker's reply cannot be read: {type(exc).__name__}: {exc}"))
            return
        task.settle(value if ok else None, None if ok else value)

    def _reap(self, worker: _Worker) -> int:
        """Close a worker's pipes and wait for its end; it is in neither list by now."""
        for end in (worker.tasks, worker.replies):
            os.close(end)
        _, status = os.waitpid(worker.pid, 0)
        _LIVE.discard(worker.pid)
        return status

    def close(self) -> None:
        """End the workers once the tasks they hold are done (a task still waiting for a
        worker fails): each worker then sees its pipe close and exits."""
        while self._waiting:
            self._waiting.popleft()[0].settle(None, WorkerLost("the workers were closed"))
        while self._busy:  # a reply nobody reads would hold its worker in its write
            self.wait()
        for worker in self._idle:
            os.close(worker.tasks)
            worker.tasks = -1
        self._end_all()

    def stop(self, signum: int = signal.SIGKILL) -> None:
        """End the workers now (Ctrl-C, a closed pipe, the caller stopped early), by the signal
        ``signum``: a worker whose ``setup`` handles SIGTERM may tidy up before it exits."""
        for worker in self._workers():
            os.kill(worker.pid, signum)
        self._end_all()

    def _end_all(self) -> None:
        for worker in self._workers():
            os.waitpid(worker.pid, 0)
            _LIVE.discard(worker.pid)
        for end in self._ends():
            os.close(end)
        self._idle.clear()
        self._busy.clear()


def _serve(tasks: int, replies: int, setup: Callable[[], None], teardown: Callable[[], None] | None) -> None:
    """A worker's life: set up, then run each task that comes until the pipe closes, then
    tear down."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    setup()
    while (message := _read_message(tasks)) is not None:
        fn, args = pickle.loads(message)
        try:
            reply: tuple[bool, object] = (True, fn(*args))
        except Exception as exc:
            reply = (False, exc)
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an exception that does not pickle: said in words
            data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        _write_message(replies, data)
    if teardown is not None:
        teardown()


def _write_message(end: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(_HEADER, "little") + data)
    while view:
        view = view[os.write(end, view) :]


def _read_message(end: int) -> bytes | None:
    """The next whole message on ``end``; None once the other end closes, even mid-message."""
    header = _read_exactly(end, _HEADER)
    if header is None:
        return None
    return _read_exactly(end, int.from_bytes(header, "little"))


def _read_exactly(end: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(end, min(left, _READ))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _ending(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"
