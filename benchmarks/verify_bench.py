"""``ginref verify`` records per second: generated records, JSON Lines and text, ``--jobs 1`` and ``2``.

The records come from ``tests.support.randomplay.random_hand`` (one seeded random
legal hand each, its claims filled in from the truth, so every one verifies
clean) and are written once, by ``ginref.records.write_records``, into a
temporary folder in both formats. One captured ``--json`` run per format
checks that every record was read and found clean; then the four command
lines take turns, and each figure is the median run, start-up included: wall
time, and CPU time (user+sys of the whole process tree, workers included), the
stable figure on a shared machine. The main process's own CPU per record with
``--jobs 2`` (in process, the library call) is what limits N cores.

Before each round and after the last, ``timing.parallel_ceiling`` measures how
much more work two processes of plain Python get done here than one: the most
``--jobs 2`` can gain on the machine as it is at the time.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from commands import child_env, ginref_argv
from timing import Command, CommandTiming, parallel_ceiling, time_round

if TYPE_CHECKING:
    from ginref.records import RecordFormat

# the record generator is a test tool (tests/support), not part of the package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FORMATS: tuple[tuple[RecordFormat, str], ...] = (("jsonl", "records.jsonl"), ("gin", "records.gin"))
JOBS = (1, 2)


def unavailable() -> str | None:
    """Why ``ginref verify`` cannot be measured here, or None."""
    try:
        randomplay = importlib.import_module("tests.support.randomplay")
        record = importlib.import_module("ginref.records")
    except ImportError as exc:
        return f"cannot import the record generator or writer: {exc}"
    wanted = ((randomplay, "random_hand"), (record, "write_records"))
    missing = [name for module, name in wanted if not hasattr(module, name)]
    if missing:
        return f"missing {', '.join(missing)}"
    if Command("verify --help", (*ginref_argv(), "verify", "--help"), env=child_env()).run().returncode:
        return "`ginref verify` is not available"
    return None


def _records(count: int, seed: int) -> Iterator[Any]:
    from tests.support.randomplay import random_hand

    for i in range(count):
        yield random_hand(seed * 1_000_000 + i)


def generate(count: int, seed: int, folder: Path) -> dict[str, Path]:
    """Write ``count`` records into ``folder``, once per format; return each file by format."""
    from ginref.records import write_records

    records = list(_records(count, seed))
    paths: dict[str, Path] = {}
    for fmt, name in FORMATS:
        path = folder / name
        with path.open("w", encoding="utf-8") as stream:
            errors = list(write_records(records, stream, fmt))
        if errors:
            raise RuntimeError(f"write_records refused {len(errors)} records: {errors[0]}")
        paths[fmt] = path
    return paths


def _argv(path: Path, jobs: int, *extra: str) -> tuple[str, ...]:
    return (*ginref_argv(), "verify", str(path), "--jobs", str(jobs), *extra)


def check(path: Path, count: int) -> list[str]:
    """One captured ``--json`` run: every record read, every record clean, exit 0.

    It also warms the file cache for the timed runs.
    """
    done = Command("verify --json", _argv(path, max(JOBS), "--json"), env=child_env()).run(capture=True)
    try:
        summary = json.loads(done.stdout)["summary"]
    except (ValueError, KeyError, TypeError):
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return [f"verify --json on {path.name} gave no summary (exit {done.returncode}): {tail[0]}"]
    problems = []
    if summary.get("records") != count or summary.get("clean") != count:
        problems.append(f"verify on {path.name}: {summary} for {count} clean records")
    if done.returncode:
        problems.append(f"verify on {path.name} exited {done.returncode}")
    return problems


def _time(commands: list[Command], rounds: int) -> tuple[list[CommandTiming], list[float]]:
    """Rounds of the command lines in turn, each round after a measure of the machine ceiling."""
    timings = [CommandTiming(command) for command in commands]
    ceilings = []
    for _ in range(rounds):
        ceilings.append(parallel_ceiling(max(JOBS)))
        time_round(timings)
    ceilings.append(parallel_ceiling(max(JOBS)))
    return timings, ceilings


def _speedup(one: CommandTiming, two: CommandTiming) -> float:
    """``--jobs 2`` over ``--jobs 1``: the median of the per-round ratios (the two run back to back)."""
    return statistics.median(a / b for a, b in zip(one.seconds, two.seconds, strict=True))


def _run(fmt: str, jobs: int, count: int, size: int, timing: CommandTiming) -> dict[str, Any]:
    return {
        "format": fmt,
        "jobs": jobs,
        "records": count,
        "bytes": size,
        "seconds": timing.seconds,
        "median": timing.median,
        "rate": count / timing.median,
        "cpu_seconds": timing.cpu,
        "cpu_rate": count / timing.cpu_median,
    }


_PARENT_CPU = """
import resource, sys
from ginref.batch.run import _warm_up, verify
_warm_up()  # the meld tables: built once per run, not per record
before = resource.getrusage(resource.RUSAGE_SELF)
count = sum(1 for _ in verify([sys.argv[1]], jobs=int(sys.argv[2])))
after = resource.getrusage(resource.RUSAGE_SELF)
print(count, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
"""


def parent_cpu_per_record(path: Path, jobs: int, env: dict[str, str] | None = None) -> float:
    """Microseconds of the main process's own CPU per record, ``verify(jobs=jobs)`` in process
    (imports and meld tables excluded, workers not counted): what limits how many cores a
    batch can use. Starting the workers is included, so only a large batch reads true."""
    argv = (sys.executable, "-c", _PARENT_CPU, str(path), str(jobs))
    done = Command("parent cpu", argv, env=env or child_env()).run(capture=True)
    count, seconds = done.stdout.split()
    return float(seconds) / int(count) * 1e6


def measure(count: int, seed: int, rounds: int, progress: Callable[[str], None]) -> dict[str, Any]:
    reason = unavailable()
    if reason:
        return {"skipped": reason}
    with tempfile.TemporaryDirectory(prefix="ginref-bench-") as folder:
        progress(f"generating {count:,} records with tests.support.randomplay")
        paths = generate(count, seed, Path(folder))
        problems = [problem for fmt, _ in FORMATS for problem in check(paths[fmt], count)]
        lines = [(fmt, jobs) for fmt, _ in FORMATS for jobs in JOBS]
        commands = [Command(f"verify {f} --jobs {j}", _argv(paths[f], j), env=child_env()) for f, j in lines]
        progress(f"timing ginref verify, {rounds} runs each of {len(commands)} command lines")
        timings, ceilings = _time(commands, rounds)
        parent = {fmt: parent_cpu_per_record(paths[fmt], max(JOBS)) for fmt, _ in FORMATS}
        sizes = {fmt: paths[fmt].stat().st_size for fmt, _ in FORMATS}
    by_line = dict(zip(lines, timings, strict=True))
    problems += [f"{t.command.name} exited {sorted(t.returncodes)}" for t in timings if t.returncodes - {0}]
    return {
        "generator": "tests.support.randomplay.random_hand",
        "runs": [_run(f, j, count, sizes[f], by_line[(f, j)]) for f, j in lines],
        "speedup": {fmt: _speedup(by_line[(fmt, 1)], by_line[(fmt, 2)]) for fmt, _ in FORMATS},
        "parallel_ceiling": ceilings,
        "parent_us_per_record": parent,
        "problems": problems,
    }
