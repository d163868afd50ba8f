"""``ginref report`` against ``ginref verify`` on the same games: the report may cost at most 1.2x.

    python benchmarks/report_bench.py                       # 10,000 games, 5 rounds, --jobs 2
    python benchmarks/report_bench.py --games 500 --rounds 1 --keep /tmp/games.jsonl

The games are whole standard games from ``tests.support.randomplay.random_game`` (seeded,
legal, their claims filled in from the truth, so every one verifies clean; their random
styles leave advisories such as ``missed_layoff`` and ``knock_not_best``), generated once
in two processes into JSON Lines. One captured ``--json`` run of each command checks that
both read every game; then ``verify`` and ``report`` take turns, round after round, their
text to /dev/null, start-up included: wall time, and CPU time of the whole process tree
(user+sys of every process that ended, workers included). Each figure is the median
round, with the range; the ratio is report's median over verify's, and the median of the
per-round ratios. Then, in process, what the report adds in the main process: the
microseconds of :class:`ginref.audit.Audit` per game, over results already made.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # the game generator is a test tool (tests/support)

import verify_dask  # noqa: E402
from commands import child_env, ginref_argv  # noqa: E402
from report import TARGET_REPORT_RATIO  # noqa: E402
from timing import Command, CommandTiming, ratios, spread, time_round  # noqa: E402

TARGET_RATIO = TARGET_REPORT_RATIO
"""report's CPU (and wall) over verify's on the same games: at most this"""


def generate(count: int, seed: int, path: Path) -> None:
    """``count`` games as JSON Lines, made in two processes (a game takes about 10 ms)."""
    verify_dask.generate(count, seed, path, maker="random_game", step=500)


def _argv(command: str, path: Path, jobs: int, *extra: str) -> tuple[str, ...]:
    return (*ginref_argv(), command, str(path), "--jobs", str(jobs), *extra)


def check(path: Path, count: int, jobs: int) -> list[str]:
    """Both commands read every game, and the report's hands are verify's (warms the caches)."""
    problems = []
    runs = {}
    for command in ("verify", "report"):
        done = subprocess.run(_argv(command, path, jobs, "--json"), capture_output=True, env=child_env(),
                              check=False)
        try:
            runs[command] = json.loads(done.stdout)
        except ValueError:
            problems.append(f"{command} --json gave no JSON (exit {done.returncode})")
            continue
        if done.returncode:
            problems.append(f"{command} exited {done.returncode}")
    if len(runs) == 2:
        summary, report = runs["verify"]["summary"], runs["report"]
        if summary["records"] != count or report["summary"] != summary or report["games"] != count:
            problems.append(f"verify read {summary}, report {report['summary']}, for {count} games")
        hands = sum(len(r["hands"]) for r in runs["verify"]["records"])
        if hands != report["hands"]:
            problems.append(f"verify ruled {hands} hands, report counted {report['hands']}")
    return problems


_AUDIT = """
import resource, sys, time
from ginref.batch import verify
from ginref.audit import Audit

results = list(verify([sys.argv[1]], jobs=int(sys.argv[2])))
best = None
for _ in range(5):
    start = time.process_time()
    audit = Audit()
    for result in results:
        audit.add(result)
    audit.report()
    spent = time.process_time() - start
    best = spent if best is None else min(best, spent)
print(len(results), best)
"""


def audit_us_per_game(path: Path, jobs: int) -> float:
    """Microseconds of the main process's CPU that adding up one game's result costs (the best
    of five passes over results already made): all the report adds to verify's main process."""
    done = subprocess.run([sys.executable, "-c", _AUDIT, str(path), str(jobs)], capture_output=True,
                          env=child_env(), check=True)
    count, seconds = done.stdout.split()
    return float(seconds) / int(count) * 1e6


def measure(count: int, seed: int, rounds: int, progress: Callable[[str], None], *, jobs: int = 2,
            keep: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ginref-report-") as folder:
        path = keep or Path(folder) / "games.jsonl"
        if not path.exists() or path.read_bytes().count(b"\n") != count:
            progress(f"generating {count:,} games with tests.support.randomplay.random_game")
            generate(count, seed, path)
        problems = check(path, count, jobs)
        timings = [CommandTiming(Command(command, _argv(command, path, jobs), env=child_env()))
                   for command in ("verify", "report")]
        for done in range(rounds):
            progress(f"round {done + 1} of {rounds}: verify, report (--jobs {jobs})")
            time_round(timings)
        problems += [f"{t.command.name} exited {sorted(t.returncodes)}"
                     for t in timings if t.returncodes - {0}]
        verify, report = timings
        cpu = ratios(report.cpu, verify.cpu)
        wall = ratios(report.seconds, verify.seconds)
        progress("the report's own cost in the main process (in process)")
        return {
            "games": count, "bytes": path.stat().st_size, "rounds": rounds, "jobs": jobs,
            "lines": {t.command.name: {"wall": spread(t.seconds), "cpu": spread(t.cpu),
                                       "seconds": t.seconds, "cpu_seconds": t.cpu} for t in timings},
            "cpu_ratio": cpu, "wall_ratio": wall, "target": TARGET_RATIO,
            "passed": cpu["of_medians"] <= TARGET_RATIO and wall["of_medians"] <= TARGET_RATIO,
            "audit_us_per_game": audit_us_per_game(path, jobs),
            "problems": problems,
        }


def table(result: dict[str, Any]) -> str:
    rows = [f"{result['games']:,} games, {result['bytes'] / 2**20:.0f} MiB of JSON Lines, --jobs "
            f"{result['jobs']}, {result['rounds']} rounds (median, min-max)"]
    for name, line in result["lines"].items():
        wall, cpu = line["wall"], line["cpu"]
        rows.append(f"  {name:<7} wall {wall['median']:6.2f} s ({wall['min']:.2f}-{wall['max']:.2f})   "
                    f"cpu {cpu['median']:6.2f} s ({cpu['min']:.2f}-{cpu['max']:.2f})")
    for what in ("cpu", "wall"):
        ratio = result[f"{what}_ratio"]
        rows.append(f"  report / verify, {what}: {ratio['of_medians']:.3f} of the medians, "
                    f"{ratio['median_per_round']:.3f} per round (max {ratio['max_per_round']:.3f})")
    rows.append(f"  the report's adding up in the main process: {result['audit_us_per_game']:.1f} us a game")
    verdict = "met" if result["passed"] else "MISSED"
    rows.append(f"  target: report at most {result['target']}x verify: {verdict}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep the games in this file (reused when it has them)")
    parser.add_argument("--output", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)

    def progress(message: str) -> None:
        print(f"... {message}", file=sys.stderr, flush=True)

    result = measure(args.games, args.seed, args.rounds, progress, jobs=args.jobs, keep=args.keep)
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    for problem in result["problems"]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if result["problems"] or not result["passed"] else 0


if __name__ == "__main__":
    sys.exit(main())
