"""Timing hygiene shared by the benchmark parts.

In-process timings: ``time.perf_counter``, the garbage collector off while a
timed loop runs, a warm-up pass that also calibrates how many passes make one
measurement long enough to read, then rounds that interleave the contestants
(A, B, C, A, B, C, ...) so that a noisy neighbour slows them all alike. The
figure reported is the median round.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import resource
import statistics
import subprocess
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any


@contextlib.contextmanager
def gc_disabled() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def pinned_to_one_core() -> Iterator[int | None]:
    """Pin this process to its lowest allowed CPU; yield it (None where the OS cannot pin)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    cpu = min(allowed)
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, allowed)


def time_passes(fn: Callable[[Any], object], args: Sequence[Any], passes: int) -> float:
    """Seconds to call ``fn`` on every item of ``args``, ``passes`` times over, GC off."""
    with gc_disabled():
        start = time.perf_counter()
        for _ in range(passes):
            deque(map(fn, args), maxlen=0)  # the leanest Python loop: no list is built
        return time.perf_counter() - start


@dataclass
class Contestant:
    """One function timed over one batch of prepared inputs."""

    name: str
    fn: Callable[[Any], int]
    args: Sequence[Any]
    passes: int = 1
    seconds: list[float] = field(default_factory=list)
    """one entry per timed round, each covering ``passes`` passes"""

    def answers(self) -> list[int]:
        return list(map(self.fn, self.args))

    def calibrate(self, min_seconds: float) -> None:
        """Warm up, then choose enough passes per round to last ``min_seconds``."""
        elapsed = time_passes(self.fn, self.args, 1)
        self.passes = max(1, math.ceil(min_seconds / elapsed)) if elapsed > 0 else 1000


def interleaved(contestants: Sequence[Contestant], rounds: int, min_seconds: float) -> None:
    """Calibrate every contestant, then time them in turn, ``rounds`` times."""
    for contestant in contestants:
        contestant.calibrate(min_seconds)
    for _ in range(rounds):
        for contestant in contestants:
            contestant.seconds.append(time_passes(contestant.fn, contestant.args, contestant.passes))


@dataclass(frozen=True)
class Command:
    """A command line to time as a subprocess, with its standard input."""

    name: str
    argv: tuple[str, ...]
    stdin: bytes = b""
    env: dict[str, str] | None = None

    def run(self, capture: bool = False) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            self.argv,
            input=self.stdin,
            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=self.env,
            check=False,
        )


@dataclass
class CommandTiming:
    command: Command
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """user+sys seconds of the whole process tree (workers included), one per run"""
    returncodes: set[int] = field(default_factory=set)
    stderr: bytes = b""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def children_cpu() -> float:
    """User+sys seconds of every finished child process and the children they waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_round(timings: Sequence[CommandTiming]) -> None:
    """Run each command once, in turn, adding the wall and CPU time it took to its timing."""
    for timing in timings:
        cpu = children_cpu()
        start = time.perf_counter()
        done = timing.command.run()
        timing.seconds.append(time.perf_counter() - start)
        timing.cpu.append(children_cpu() - cpu)
        timing.returncodes.add(done.returncode)
        if done.returncode and not timing.stderr:
            timing.stderr = done.stderr


def time_together(commands: Sequence[Command]) -> tuple[float, float, set[int]]:
    """Start every command at once and wait for the last: wall seconds, CPU seconds (user+sys of
    them all) and their exit codes. Two ``--jobs 1`` runs on the halves of a file, timed so, are
    what two independent processes of the same work get done on this machine at this moment."""
    cpu = children_cpu()
    start = time.perf_counter()
    running = [
        subprocess.Popen(c.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=c.env)
        for c in commands
    ]
    codes = {process.wait() for process in running}
    return time.perf_counter() - start, children_cpu() - cpu, codes


def time_commands(commands: Sequence[Command], rounds: int) -> list[CommandTiming]:
    """Run each command once untimed (warm caches), then ``rounds`` interleaved timed runs."""
    timings = [CommandTiming(command) for command in commands]
    for timing in timings:
        timing.command.run()
    for _ in range(rounds):
        time_round(timings)
    return timings


def _spin(count: int) -> float:
    """Pure-Python arithmetic, ``count`` steps; returns the seconds it took."""
    start = time.perf_counter()
    total = 0
    for i in range(count):
        total += i
    return time.perf_counter() - start


def parallel_ceiling(workers: int = 2, seconds: float = 0.3, repeats: int = 3) -> float:
    """How many times the pure-Python work of one process ``workers`` processes do here, now.

    The best ``--jobs`` can hope for on this machine: on a shared host two
    "cores" may deliver far less than twice one.
    """
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_spin, [1000] * workers))  # start every worker first
        count = int(1_000_000 * seconds / pool.submit(_spin, 1_000_000).result())
        ratios = []
        for _ in range(repeats):
            start = time.perf_counter()
            pool.submit(_spin, count).result()
            alone = time.perf_counter() - start
            start = time.perf_counter()
            list(pool.map(_spin, [count] * workers))
            together = time.perf_counter() - start
            ratios.append(workers * alone / together)
    return statistics.median(ratios)


def spread(values: list[float]) -> dict[str, float]:
    """The median of timed rounds, with their least and most."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def ratios(slow: list[float], base: list[float]) -> dict[str, float]:
    """How ``slow`` compares with ``base`` over the same interleaved rounds: the ratio of their
    medians, and the median and most of the ratios round by round."""
    per_round = [s / b for s, b in zip(slow, base, strict=True)]
    return {"of_medians": statistics.median(slow) / statistics.median(base),
            "median_per_round": statistics.median(per_round), "max_per_round": max(per_round)}
