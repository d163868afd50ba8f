"""``ginref verify`` on a Dask cluster against local ``--jobs``: the same records, three ways.

    python benchmarks/verify_dask.py                        # 100,000 records, 3 rounds
    python benchmarks/verify_dask.py --records 5000 --rounds 1 --keep /tmp/records.jsonl

The records are JSON Lines from ``tests.support.randomplay.random_hand`` (seeded random
legal hands, every one clean), generated once in two processes. One captured run each of
``--jobs 2`` and ``--scheduler local --jobs 2`` checks that both print the same bytes and
every record; then ``--jobs 1``, ``--jobs 2`` and ``--scheduler local --jobs 2`` (a
``LocalCluster`` of two worker processes) take turns, ``--jsonl`` to /dev/null, start-up
included: wall time, and CPU time of the whole process tree (user+sys of every process
that ended, Dask's workers and scheduler included). Each figure is the median round, with
the range. Then, in process: the client's own CPU per record and its peak memory at a
tenth of the records and at all of them, which shows whether memory stays flat (for the
local cluster the scheduler and the nannies live in the client's process too: their CPU at
rest, measured for 3 s before the run, is taken off); and how many tasks a second the
scheduler here runs when each does nothing.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # the record generator is a test tool (tests/support)

from commands import child_env, ginref_argv  # noqa: E402
from timing import Command, CommandTiming, time_round  # noqa: E402

LINES = (("--jobs 1", ("--jobs", "1")), ("--jobs 2", ("--jobs", "2")),
         ("--scheduler local (2 workers)", ("--scheduler", "local", "--jobs", "2")))


def unavailable() -> str | None:
    """Why the cluster cannot be measured here, or None."""
    missing = [name for name in ("distributed", "fsspec") if importlib.util.find_spec(name) is None]
    return f"not installed: {', '.join(missing)} (pip install '.[dask]')" if missing else None


def _lines(seeds: range, maker: str = "random_hand") -> list[str]:
    from ginref.records import format_jsonl
    from tests.support import randomplay

    make = getattr(randomplay, maker)
    return [format_jsonl(make(seed)) for seed in seeds]


def generate(count: int, seed: int, path: Path, maker: str = "random_hand", step: int = 2000) -> None:
    """``count`` records as JSON Lines, generated in two processes by ``maker`` of
    ``tests.support.randomplay`` (a random hand takes ~3 ms, a random game ~10 ms)."""
    first = seed * 1_000_000
    parts = [range(first + i, first + min(i + step, count)) for i in range(0, count, step)]
    with ProcessPoolExecutor(2) as pool, path.open("w", encoding="utf-8") as out:
        for lines in pool.map(functools.partial(_lines, maker=maker), parts):
            out.write("\n".join(lines) + "\n")


def _argv(path: Path, extra: Sequence[str]) -> tuple[str, ...]:
    return (*ginref_argv(), "verify", str(path), "--jsonl", *extra)


def check(path: Path, count: int) -> list[str]:
    """The cluster prints what ``--jobs 2`` prints, one clean line per record (and warms caches)."""
    digests, problems = [], []
    for name, extra in LINES[1:]:
        done = subprocess.run(_argv(path, extra), capture_output=True, env=child_env(), check=False)
        lines = done.stdout.count(b"\n")
        if done.returncode or lines != count:
            problems.append(f"verify {name}: exit {done.returncode}, {lines} lines for {count} records")
        digests.append(hashlib.sha256(done.stdout).hexdigest())
    if digests[0] != digests[1]:
        problems.append("verify --scheduler local printed other bytes than verify --jobs 2")
    return problems


_CLIENT = """
import json, resource, sys, time
from ginref.batch.cluster import connect, verify_on
from ginref.batch import verify

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def noop(x):
    return x

def peak_mib():
    # VmHWM: this process's own peak; ru_maxrss would keep the parent's across exec
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if __name__ == "__main__":
    path, mode = sys.argv[1], sys.argv[2]
    out = {}
    if mode == "jobs":
        before = cpu()
        out["records"] = sum(1 for r in verify([path], jobs=2) if r.source)
        out["client_cpu"] = cpu() - before
    else:
        with connect("local", workers=2) as client:
            client.wait_for_workers(2)
            before = cpu()
            time.sleep(3)
            idle = (cpu() - before) / 3  # the scheduler and nannies live here too: their CPU at rest
            before, start = cpu(), time.perf_counter()
            out["records"] = sum(1 for r in verify_on(client, [path]) if r.source)
            out["client_cpu"] = cpu() - before
            out["idle_cpu_per_second"] = idle
            out["client_cpu_above_idle"] = out["client_cpu"] - idle * (time.perf_counter() - start)
            if mode == "tasks":
                futures = [client.submit(noop, i, pure=False) for i in range(100)]
                client.gather(futures)
                start = time.perf_counter()
                futures = [client.submit(noop, i, pure=False) for i in range(2000)]
                client.gather(futures)
                out["tasks_per_second"] = 2000 / (time.perf_counter() - start)
    out["peak_rss_mib"] = peak_mib()
    print(json.dumps(out))
"""


def client_figures(path: Path, mode: str) -> dict[str, Any]:
    """The client process's CPU per record and peak memory, ``jobs`` (verify --jobs 2) or ``dask``."""
    done = subprocess.run([sys.executable, "-c", _CLIENT, str(path), mode], capture_output=True,
                          env=child_env(), check=True)
    figures: dict[str, Any] = json.loads(done.stdout.decode().splitlines()[-1])
    cpu = figures.get("client_cpu_above_idle", figures["client_cpu"])
    figures["client_us_per_record"] = cpu / max(1, figures["records"]) * 1e6
    return figures


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _line(count: int, timing: CommandTiming) -> dict[str, Any]:
    return {
        "command": timing.command.name,
        "seconds": timing.seconds,
        "wall": _spread(timing.seconds),
        "cpu_seconds": timing.cpu,
        "records_per_second": count / timing.median,
        "records_per_cpu_second": count / timing.cpu_median,
    }


def measure(count: int, seed: int, rounds: int, progress: Callable[[str], None], *, memory: bool = True,
            keep: Path | None = None) -> dict[str, Any]:
    reason = unavailable()
    if reason:
        return {"skipped": reason}
    with tempfile.TemporaryDirectory(prefix="ginref-dask-") as folder:
        path = keep or Path(folder) / "records.jsonl"
        if not path.exists() or path.read_bytes().count(b"\n") != count:
            progress(f"generating {count:,} records with tests.support.randomplay")
            generate(count, seed, path)
        problems = check(path, count)
        timings = [CommandTiming(Command(name, _argv(path, extra), env=child_env())) for name, extra in LINES]
        for done in range(rounds):
            progress(f"round {done + 1} of {rounds}: {', '.join(name for name, _ in LINES)}")
            time_round(timings)
        problems += [f"{t.command.name} exited {sorted(t.returncodes)}"
                     for t in timings if t.returncodes - {0}]
        result: dict[str, Any] = {"records": count, "bytes": path.stat().st_size, "rounds": rounds,
                                  "lines": [_line(count, t) for t in timings], "problems": problems}
        if memory:
            result["client"] = _client(path, count, Path(folder), progress)
    return result


def _client(path: Path, count: int, folder: Path, progress: Callable[[str], None]) -> dict[str, Any]:
    tenth = folder / "tenth.jsonl"
    with path.open("rb") as source, tenth.open("wb") as out:
        for _ in range(count // 10):
            out.write(source.readline())
    progress("the client in process: CPU per record and peak memory, a tenth of the records and all")
    return {
        "jobs_2": {"tenth": client_figures(tenth, "jobs"), "all": client_figures(path, "jobs")},
        "dask": {"tenth": client_figures(tenth, "dask"), "all": client_figures(path, "tasks")},
    }


def table(result: dict[str, Any]) -> str:
    rows = [f"{result['records']:,} records, {result['bytes'] / 2**20:.0f} MiB of JSON Lines, "
            f"{result['rounds']} rounds (median, min-max)"]
    for line in result["lines"]:
        wall = line["wall"]
        rows.append(f"  {line['command']:<32} {line['records_per_second']:>7,.0f} records/s "
                    f"({wall['min']:.1f}-{wall['max']:.1f} s)  {line['records_per_cpu_second']:>7,.0f} "
                    "records per CPU-second")
    for name, sizes in result.get("client", {}).items():
        for size, figures in sizes.items():
            tasks, each = figures.get("tasks_per_second"), figures["client_us_per_record"]
            rows.append(f"  client {name:<7} {size:<6} {each:6.1f} us CPU per record, "
                        f"peak {figures['peak_rss_mib']:.0f} MiB"
                        + (f", {tasks:,.0f} no-op tasks/s" if tasks else ""))
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="generate the records into this file, or reuse it")
    parser.add_argument("--output", type=Path, help="write the figures as JSON")
    args = parser.parse_args(argv)
    result = measure(args.records, args.seed, args.rounds, lambda text: print(text, file=sys.stderr),
                     keep=args.keep)
    if "skipped" in result:
        print(f"skipped: {result['skipped']}")
        return 0
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    for problem in result["problems"]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
