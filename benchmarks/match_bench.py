"""``ginref match`` speed: hands per second, the referee's and the arena's microseconds per
move, and the CPU time each process spends per hand, for two bundled bots in this process and
over the bot protocol, at --concurrency 1 and 2.

    python benchmarks/match_bench.py --pairs 1000 --protocol-pairs 300 --rounds 5

Each mode plays ``greedy`` against ``random`` on the same seeded duplicate deals (one hand a
sample), into a scratch run folder, as ``ginref match`` does:

- ``in-process``: the bundled bots called in the process that plays the pair;
- ``protocol``: each bot a subprocess speaking the bot protocol (``ginref bot greedy``,
  ``ginref bot random``), started once per worker.

The runs are interleaved: each round plays every mode at --concurrency 1 and 2 (in turn
first), so that a change in the machine's load falls on both. Figures are medians over the
rounds with their spread (lowest-highest):

- hands per second: the wall time of the whole run, worker and bot start-up included;
- the speed-up of --concurrency 2 over 1, round by round, which the issue asks to be at least
  1.7x; the run exits 1 when its median is below that;
- CPU µs per hand: this process's (at --concurrency 1 it plays the pairs; at 2 it only hands
  them out and writes the folder) and its children's (the workers and the bot subprocesses);
- the ceiling: the speed-up the CPU time allows on two free cores, 2 x (all CPU per hand at 1)
  / (all CPU per hand at 2), for the in-process mode, whose runs are CPU-bound;
- other load: the cores the rest of the machine kept busy meanwhile (from /proc/stat, Linux
  only). Two cores shared with other work cannot give a 2x speed-up: read the speed-up with it.

The referee's µs per move is the table's ``legal_moves``, ``view`` and ``push_as_seat`` for each
bot's move; the arena's is each game's wall time less its bots' answer times, over its moves
(the referee, the messages, the policies, the records; for the protocol, the pipe too).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ginref.arena.match import MatchSpec, PairResult, run_match

GOAL = 1.7


def _machine_busy() -> float | None:
    """The machine's busy CPU seconds so far (all cores), or None where /proc/stat is not."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return None
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # less idle and iowait


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(bots: tuple[str, str], pairs: int, concurrency: int) -> dict[str, float]:
    games: list[PairResult] = []
    with tempfile.TemporaryDirectory() as scratch:
        spec = MatchSpec(bots=bots, pairs=pairs, seed=2026, concurrency=concurrency)
        busy, parent, children = _machine_busy(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run_match(spec, str(Path(scratch) / "run"), on_pair=lambda result, _: games.append(result))
        wall = time.perf_counter() - start
        parent = _cpu(resource.RUSAGE_SELF) - parent
        children = _cpu(resource.RUSAGE_CHILDREN) - children  # the workers, and the bots they reaped
        busy_after = _machine_busy()
    hands = sum(g.hands for pair in games for g in pair.games)
    moves = sum(len(g.move_times) for pair in games for g in pair.games)
    arena = sum(g.wall - sum(s for _, s in g.seconds) for pair in games for g in pair.games)
    referee = sum(g.referee for pair in games for g in pair.games)
    other = 0.0 if busy is None or busy_after is None else (busy_after - busy - parent - children) / wall
    return {"hands": hands, "seconds": wall, "hands_per_second": hands / wall,
            "arena_us_per_move": arena / moves * 1e6, "referee_us_per_move": referee / moves * 1e6,
            "parent_us_per_hand": parent / hands * 1e6, "children_us_per_hand": children / hands * 1e6,
            "other_cores": max(0.0, other)}


def spread(values: list[float], form: str) -> str:
    """The median, with the lowest and highest."""
    return f"{statistics.median(values):{form}} ({min(values):{form}}-{max(values):{form}})"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1000, help="pairs in this process")
    parser.add_argument("--protocol-pairs", type=int, default=300, help="pairs over the protocol")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of interleaved runs")
    args = parser.parse_args(argv)
    command = f"{sys.executable} -m ginref bot"
    modes = {
        "in-process": (("greedy", "random"), args.pairs),
        "protocol": ((f"greedy=cmd:{command} greedy", f"random=cmd:{command} random"), args.protocol_pairs),
    }
    runs: dict[tuple[str, int], list[dict[str, float]]] = {(m, c): [] for m in modes for c in (1, 2)}
    ratios: dict[str, list[float]] = {m: [] for m in modes}
    for round_ in range(args.rounds):
        for name, (bots, pairs) in modes.items():
            order = (1, 2) if round_ % 2 == 0 else (2, 1)
            figures = {c: measure(bots, pairs, c) for c in order}
            for c in order:
                runs[name, c].append(figures[c])
            ratios[name].append(figures[2]["hands_per_second"] / figures[1]["hands_per_second"])
            print(f"round {round_ + 1} {name:<10}: {figures[1]['hands_per_second']:7.1f} and "
                  f"{figures[2]['hands_per_second']:7.1f} hands/s, {ratios[name][-1]:.2f}x, other load "
                  f"{figures[1]['other_cores']:.2f} and {figures[2]['other_cores']:.2f} cores", flush=True)
    print()
    print(f"{'mode':<10} {'conc':>4} {'hands':>6} {'hands/s':>22} {'referee us/move':>16} "
          f"{'arena us/move':>14} {'parent us/hand':>15} {'children us/hand':>17} {'other load':>11}")
    for (name, concurrency), figures in runs.items():
        def median(key: str, figures: list[dict[str, float]] = figures) -> float:
            return statistics.median(f[key] for f in figures)

        print(f"{name:<10} {concurrency:>4} {median('hands'):>6.0f} "
              f"{spread([f['hands_per_second'] for f in figures], '.1f'):>22} "
              f"{median('referee_us_per_move'):>16.1f} {median('arena_us_per_move'):>14.1f} "
              f"{median('parent_us_per_hand'):>15.0f} {median('children_us_per_hand'):>17.0f} "
              f"{median('other_cores'):>11.2f}")
    print()
    worst = float("inf")
    for name in modes:
        ratio = statistics.median(ratios[name])
        worst = min(worst, ratio)
        line = f"{name:<10} --concurrency 2 over 1: {spread(ratios[name], '.2f')}x"
        if name == "in-process":
            one, two = runs[name, 1], runs[name, 2]
            cpu_one = statistics.median(f["parent_us_per_hand"] + f["children_us_per_hand"] for f in one)
            cpu_two = statistics.median(f["parent_us_per_hand"] + f["children_us_per_hand"] for f in two)
            parent = statistics.median(f["parent_us_per_hand"] for f in two)
            line += (f"; CPU per hand {cpu_one:.0f} µs at 1, {cpu_two:.0f} µs at 2 of which this process "
                     f"{parent:.0f} µs ({parent / cpu_two:.0%}): ceiling on two free cores "
                     f"{2 * cpu_one / cpu_two:.2f}x")
        print(line)
    print(f"median speed-up at worst {worst:.2f}x (goal {GOAL}x)")
    return 0 if worst >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
