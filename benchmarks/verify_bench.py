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
``--jobs 2`` can gain on the machine as it is at the time. Each round also
starts two ``--jobs 1`` runs at once, one on each half of the records
(``timing.time_together``): ginref's own ceiling, two independent processes of
the same work with the same memory traffic, which a batch of two workers and a
parent that cuts and merges can at best equal.
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
from timing import Command, CommandTiming, parallel_ceiling, time_round, time_together

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
    """Write ``count`` records into ``folder``, once per format, and each format's two halves
    beside it (:func:`halves`); return each whole file by format."""
    records = list(_records(count, seed))
    paths: dict[str, Path] = {}
    for fmt, name in FORMATS:
        paths[fmt] = folder / name
        _write(records, paths[fmt], fmt)
        first, second = halves(paths[fmt])
        _write(records[: count // 2], first, fmt)
        _write(records[count // 2 :], second, fmt)
    return paths


def _write(records: list[Any], path: Path, fmt: RecordFormat) -> None:
    from ginref.records import write_records

    with path.open("w", encoding="utf-8") as stream:
        errors = list(write_records(records, stream, fmt))
    if errors:
        raise RuntimeError(f"write_records refused {len(errors)} records: {errors[0]}")


def halves(path: Path) -> tuple[Path, Path]:
    """The files that hold the first and the second half of ``path``'s records."""
    return path.with_name(f"half1.{path.name}"), path.with_name(f"half2.{path.name}")


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


def _time(
    commands: list[Command], together: dict[str, list[Command]], rounds: int
) -> tuple[list[CommandTiming], dict[str, list[tuple[float, float]]], list[float], set[int]]:
    """Rounds of the command lines in turn, each round after a measure of the machine ceiling
    and followed by each format's halves at once; the halves' wall and CPU seconds by format,
    the ceilings, and the halves' exit codes."""
    timings = [CommandTiming(command) for command in commands]
    at_once: dict[str, list[tuple[float, float]]] = {fmt: [] for fmt in together}
    ceilings = []
    codes: set[int] = set()
    for _ in range(rounds):
        ceilings.append(parallel_ceiling(max(JOBS)))
        time_round(timings)
        for fmt, pair in together.items():
            wall, cpu, done = time_together(pair)
            at_once[fmt].append((wall, cpu))
            codes |= done
    ceilings.append(parallel_ceiling(max(JOBS)))
    return timings, at_once, ceilings, codes


def _speedup(one: CommandTiming, two: list[float]) -> float:
    """``--jobs 1``'s wall time over another's (``--jobs 2``, or the halves at once): the median
    of the per-round ratios (each round runs them back to back)."""
    return statistics.median(a / b for a, b in zip(one.seconds, two, strict=True))


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
        together = {
            f: [Command(f"verify {half.name}", _argv(half, 1), env=child_env()) for half in halves(paths[f])]
            for f, _ in FORMATS
        }
        progress(f"timing ginref verify, {rounds} runs each of {len(commands)} command lines and the halves")
        timings, at_once, ceilings, codes = _time(commands, together, rounds)
        parent = {fmt: parent_cpu_per_record(paths[fmt], max(JOBS)) for fmt, _ in FORMATS}
        sizes = {fmt: paths[fmt].stat().st_size for fmt, _ in FORMATS}
    by_line = dict(zip(lines, timings, strict=True))
    problems += [f"{t.command.name} exited {sorted(t.returncodes)}" for t in timings if t.returncodes - {0}]
    if codes - {0}:
        problems.append(f"verify of the halves exited {sorted(codes)}")
    return {
        "generator": "tests.support.randomplay.random_hand",
        "runs": [_run(f, j, count, sizes[f], by_line[(f, j)]) for f, j in lines],
        "speedup": {fmt: _speedup(by_line[(fmt, 1)], by_line[(fmt, 2)].seconds) for fmt, _ in FORMATS},
        "halves_at_once": {fmt: [wall for wall, _ in runs] for fmt, runs in at_once.items()},
        "halves_cpu_seconds": {fmt: [cpu for _, cpu in runs] for fmt, runs in at_once.items()},
        "halves_speedup": {
            fmt: _speedup(by_line[(fmt, 1)], [wall for wall, _ in at_once[fmt]]) for fmt, _ in FORMATS
        },
        "parallel_ceiling": ceilings,
        "parent_us_per_record": parent,
        "problems": problems,
    }
