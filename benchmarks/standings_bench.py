"""``ginref report --standings`` against ``ginref report`` on the same games: at most 1.2x.

    python benchmarks/standings_bench.py                  # 100,000 games, 3 rounds, --jobs 2
    python benchmarks/standings_bench.py --games 2000 --rounds 1 --keep /tmp/league.jsonl
    python benchmarks/standings_bench.py --against /path/to/main   # this tree's --standings against main's

The games are whole standard games from ``tests.support.randomplay.random_game`` (seeded,
legal, every one verifies clean), ``--distinct`` of them generated in two processes, then
written over and over to make ``--games`` lines, the two seats of each line renamed after
the pairs of eight agents in turn (so every pair meets, in both seats, and the ratings
differ by chance alone). One ``--json`` run of each command checks that both count every
game and that the standings do; then ``report`` and ``report --standings`` (its default
bootstrap rounds) take turns, round after round, text to /dev/null, start-up included:
wall time, and CPU time of the whole process tree (workers included). Each figure is the
median round, with the range; the ratio is the standings' median over the report's, and
the median and largest of the per-round ratios. Then, in process, what the standings add
in the main process: microseconds a game to count, and the seconds of the fit and the
bootstrap.

``--against TREE`` times ``report --standings`` of this tree against that of another
checkout (its ``ginref`` package first on ``PYTHONPATH``) instead of against ``report``: the
two take turns, round after round, the first of a round the second of the next, and the
ratio is this tree's CPU median over the other's
(target: at most 1.0, within the rounds' spread); the in-process figures are given for both.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
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
from report import TARGET_STANDINGS_RATIO  # noqa: E402
from timing import Command, CommandTiming, ratios, spread, time_round  # noqa: E402

AGENTS = tuple(f"agent-{letter}" for letter in "abcdefgh")
SEATS = tuple(itertools.permutations(AGENTS, 2))


def generate(count: int, distinct: int, seed: int, path: Path) -> None:
    """``count`` lines of JSON Lines from ``distinct`` generated games, seats renamed in turn."""
    base = path.with_suffix(".distinct.jsonl")
    verify_dask.generate(distinct, seed, base, maker="random_game", step=500)
    lines = base.read_text(encoding="utf-8").splitlines()
    base.unlink()
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            first, second = SEATS[i % len(SEATS)]
            line = lines[i % len(lines)].replace('"Ann"', '"\0A"').replace('"Bo"', '"\0B"')
            out.write(line.replace('"\0A"', f'"{first}"').replace('"\0B"', f'"{second}"') + "\n")


def _env(tree: Path | None = None) -> dict[str, str]:
    """The children's environment, with ``tree``'s ginref first on the path when given."""
    env = child_env()
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _argv(path: Path, jobs: int, *extra: str) -> tuple[str, ...]:
    return (*ginref_argv(), "report", str(path), "--jobs", str(jobs), *extra)


def check(path: Path, count: int, jobs: int) -> list[str]:
    """Both lines count every game; the standings count every game too (warms the caches)."""
    problems = []
    runs = {}
    for name, extra in (("report", ()), ("standings", ("--standings",))):
        done = subprocess.run(_argv(path, jobs, "--json", *extra), capture_output=True, env=child_env(),
                              check=False)
        try:
            runs[name] = json.loads(done.stdout)
        except ValueError:
            problems.append(f"report --json {' '.join(extra)} gave no JSON (exit {done.returncode})")
            continue
        if done.returncode:
            problems.append(f"{name} exited {done.returncode}")
    if len(runs) == 2:
        if runs["report"]["games"] != count or runs["standings"]["games"] != count:
            problems.append(f"report counted {runs['report']['games']} games of {count}")
        ranked = runs["standings"]
        if ranked["method"]["games"] != count or len(ranked["standings"]) != len(AGENTS):
            problems.append(f"the standings ranked {ranked['method']['games']} games, "
                            f"{len(ranked['standings'])} players")
    return problems


_IN_PROCESS = """
import sys, time
from ginref.batch import verify
from ginref.ranking import StandingsTally

results = list(verify([sys.argv[1]], jobs=int(sys.argv[2])))
count = best = None
for _ in range(3):
    start = time.process_time()
    tally = StandingsTally()
    for result in results:
        tally.add(result)
    spent = time.process_time() - start
    best = spent if best is None else min(best, spent)
start = time.process_time()
tally.standings(0)  # the first: with the imports it needs (numpy, where the numerics use it)
imports = time.process_time() - start
fit = whole = None
for _ in range(3):
    start = time.process_time()
    tally.standings(0)
    spent = time.process_time() - start
    fit = spent if fit is None else min(fit, spent)
    start = time.process_time()
    tally.standings()
    spent = time.process_time() - start
    whole = spent if whole is None else min(whole, spent)
print(len(results), best, fit, whole - fit, imports - fit)
"""


def in_process(path: Path, jobs: int, tree: Path | None = None) -> dict[str, float]:
    """What the standings cost the main process: per game counted (best of three passes over
    results already made), the fit alone, and the bootstrap of the default rounds (best of
    three each), and what the first call costs more (the imports it makes); with ``tree``, of
    that checkout's ginref."""
    done = subprocess.run([sys.executable, "-c", _IN_PROCESS, str(path), str(jobs)], capture_output=True,
                          env=_env(tree), check=True)
    count, adding, fit, bootstrap, imports = done.stdout.split()
    return {"us_per_game": float(adding) / int(count) * 1e6, "fit_seconds": float(fit),
            "bootstrap_seconds": float(bootstrap), "first_call_more_seconds": float(imports)}


def measure(count: int, seed: int, rounds: int, progress: Callable[[str], None], *, jobs: int = 2,
            distinct: int = 20_000, keep: Path | None = None, against: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ginref-standings-") as folder:
        path = keep or Path(folder) / "league.jsonl"
        if not path.exists() or path.read_bytes().count(b"\n") != count:
            progress(f"generating {min(count, distinct):,} games, written as {count:,}")
            generate(count, min(count, distinct), seed, path)
        if against is not None:
            return _against(path, count, rounds, jobs, against, progress, [])
        problems = check(path, count, jobs)
        timings = [CommandTiming(Command(name, _argv(path, jobs, *extra), env=child_env()))
                   for name, extra in (("report", ()), ("report --standings", ("--standings",)))]
        for done in range(rounds):
            progress(f"round {done + 1} of {rounds}: report, report --standings (--jobs {jobs})")
            time_round(timings)
        problems += [f"{t.command.name} exited {sorted(t.returncodes)}"
                     for t in timings if t.returncodes - {0}]
        report, standings = timings
        cpu = ratios(standings.cpu, report.cpu)
        progress("the standings' own cost in the main process (in process)")
        try:
            own = in_process(path, jobs)
        except subprocess.CalledProcessError as exc:
            figures = ("us_per_game", "fit_seconds", "bootstrap_seconds", "first_call_more_seconds")
            own = dict.fromkeys(figures, float("nan"))
            problems.append(f"the in-process measure failed: {exc.stderr.decode(errors='replace')[-300:]}")
        return {
            "games": count, "distinct": min(count, distinct), "players": len(AGENTS),
            "bytes": path.stat().st_size, "rounds": rounds, "jobs": jobs,
            "lines": {t.command.name: {"wall": spread(t.seconds), "cpu": spread(t.cpu),
                                       "seconds": t.seconds, "cpu_seconds": t.cpu} for t in timings},
            "cpu_ratio": cpu, "wall_ratio": ratios(standings.seconds, report.seconds),
            "target": TARGET_STANDINGS_RATIO, "passed": cpu["of_medians"] <= TARGET_STANDINGS_RATIO,
            "in_process": own,
            "problems": problems,
        }


def _against(path: Path, count: int, rounds: int, jobs: int, tree: Path, progress: Callable[[str], None],
             problems: list[str]) -> dict[str, Any]:
    """``report --standings`` of this tree and of ``tree``, in turns; the CPU ratio of the two. A
    first run of each, its output kept, checks that both give the same standings (and warms the
    caches); the in-process figures read the first 10,000 games (the fit and the bootstrap cost
    the same whatever the games, and counting a game costs the same in both)."""
    here = Path(__file__).resolve().parent.parent
    timings = [CommandTiming(Command(f"report --standings ({where})", _argv(path, jobs, "--standings"),
                                     env=_env(folder)))
               for where, folder in (("this tree", here), (str(tree), tree))]
    outputs = {t.command.name: t.command.run(capture=True).stdout for t in timings}
    if len(set(outputs.values())) != 1:
        problems.append("the two trees' standings differ")
    for done in range(rounds):  # the order turns each round: a load that grows or fades favours neither
        order = timings if done % 2 == 0 else timings[::-1]
        progress(f"round {done + 1} of {rounds}: --standings here and in {tree}, in turn (--jobs {jobs})")
        time_round(order)
    problems += [f"{t.command.name} exited {sorted(t.returncodes)}" for t in timings if t.returncodes - {0}]
    mine, theirs = timings
    cpu = ratios(mine.cpu, theirs.cpu)
    progress("the standings' own cost in the main process, in each tree (in process, 10,000 games)")
    part = path.with_suffix(".part.jsonl")
    with path.open("rb") as games, part.open("wb") as out:
        out.writelines(itertools.islice(games, 10_000))
    own = {"this tree": in_process(part, jobs, here), str(tree): in_process(part, jobs, tree)}
    part.unlink()
    return {
        "games": count, "players": len(AGENTS), "bytes": path.stat().st_size, "rounds": rounds, "jobs": jobs,
        "against": str(tree),
        "lines": {t.command.name: {"wall": spread(t.seconds), "cpu": spread(t.cpu),
                                   "seconds": t.seconds, "cpu_seconds": t.cpu} for t in timings},
        "cpu_ratio": cpu, "wall_ratio": ratios(mine.seconds, theirs.seconds),
        "in_process": own,
        "same_output": len(set(outputs.values())) == 1, "problems": problems,
    }


def against_table(result: dict[str, Any]) -> str:
    rows = [f"{result['games']:,} games ({result['players']} players), {result['bytes'] / 2**20:,.0f} MiB "
            f"of JSON Lines, --jobs {result['jobs']}, {result['rounds']} rounds (median, min-max)"]
    for name, line in result["lines"].items():
        wall, cpu = line["wall"], line["cpu"]
        rows.append(f"  {name:<40} wall {wall['median']:7.2f} s ({wall['min']:.2f}-{wall['max']:.2f})   "
                    f"cpu {cpu['median']:7.2f} s ({cpu['min']:.2f}-{cpu['max']:.2f})")
    ratio = result["cpu_ratio"]
    rows.append(f"  this tree / {result['against']}, cpu: {ratio['of_medians']:.3f} of the medians, "
                f"{ratio['median_per_round']:.3f} per round (max {ratio['max_per_round']:.3f})")
    for where, own in result["in_process"].items():
        rows.append(f"  in process, {where}: {own['us_per_game']:.1f} us a game,"
                    f" fit {own['fit_seconds']:.4f} s, bootstrap {own['bootstrap_seconds']:.4f} s,"
                    f" the first call {own['first_call_more_seconds']:.4f} s more")
    rows.append(f"  the same standings from both: {'yes' if result['same_output'] else 'NO'}")
    return "\n".join(rows)


def table(result: dict[str, Any]) -> str:
    rows = [f"{result['games']:,} games ({result['distinct']:,} distinct, {result['players']} players), "
            f"{result['bytes'] / 2**20:,.0f} MiB of JSON Lines, --jobs {result['jobs']}, "
            f"{result['rounds']} rounds (median, min-max)"]
    for name, line in result["lines"].items():
        wall, cpu = line["wall"], line["cpu"]
        rows.append(f"  {name:<18} wall {wall['median']:7.2f} s ({wall['min']:.2f}-{wall['max']:.2f})   "
                    f"cpu {cpu['median']:7.2f} s ({cpu['min']:.2f}-{cpu['max']:.2f})")
    for what in ("cpu", "wall"):
        ratio = result[f"{what}_ratio"]
        rows.append(f"  --standings / plain, {what}: {ratio['of_medians']:.3f} of the medians, "
                    f"{ratio['median_per_round']:.3f} per round (max {ratio['max_per_round']:.3f})")
    own = result["in_process"]
    rows.append(f"  the standings in the main process: {own['us_per_game']:.1f} us a game, fit "
                f"{own['fit_seconds']:.3f} s, bootstrap {own['bootstrap_seconds']:.3f} s")
    verdict = "met" if result["passed"] else "MISSED"
    rows.append(f"  target: --standings at most {result['target']}x the report's CPU: {verdict}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=20_000, help="games generated (the rest repeat them)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep the games in this file (reused when it has them)")
    parser.add_argument("--output", type=Path, help="write the figures here as JSON")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="time --standings against this checkout's (not against report)")
    args = parser.parse_args(argv)

    def progress(message: str) -> None:
        print(f"... {message}", file=sys.stderr, flush=True)

    result = measure(args.games, args.seed, args.rounds, progress, jobs=args.jobs, distinct=args.distinct,
                     keep=args.keep, against=args.against)
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.against is not None:
        print(against_table(result))
        return 1 if result["problems"] else 0
    print(table(result))
    for problem in result["problems"]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if result["problems"] or not result["passed"] else 0


if __name__ == "__main__":
    sys.exit(main())
