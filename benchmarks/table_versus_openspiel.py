"""ginref refereeing live against OpenSpiel's own engine, on the same hands, in one run.

    pip install '.[bench]'
    python benchmarks/table_versus_openspiel.py --games 2000 --rounds 7

OpenSpiel plays ``--games`` seeded hands (``tests/support/openspiel_play.py``, a quarter with
``oklahoma=true``); each is kept as its action history. Both engines then replay every
history as a game loop would: at each decision ``legal_actions()``, then ``apply_action``
(chance outcomes are applied alone). The contenders, interleaved round by round in this
process with the garbage collector off:

- ``pyspiel``: ``pyspiel.load_game("gin_rummy", params)`` (C++ through pybind11);
- ``ginref.openspiel_game(params)``: the same calls on ginref's OpenSpiel-shaped state
  (``ginref.referee.openspiel_state``), which decides legality exactly, knock included,
  and rules on the result with the referee at the end of each hand.

Every figure is CPU time (``time.process_time``): the median round and the range, as
microseconds per decision (``legal_actions`` + ``apply_action``) and per action, and the
ratio of the medians. Before timing, each history is checked to give the same legal
actions in both engines (the knocks OpenSpiel's heuristic misses aside) and the same returns.
Exit status 1 when ginref is slower than pyspiel.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from timing import gc_disabled

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ginref
from ginref.records.openspiel import KNOCK

Hand = tuple[dict[str, Any], list[int]]
"""the game's parameters and the hand's action history"""


def play(games: int, seed: int) -> list[Hand]:
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

    from tests.support.openspiel_play import play_games

    hands = []
    for game, state, _ in play_games(pyspiel, games, seed, random.Random(seed)):
        params = {"oklahoma": bool(game.get_parameters()["oklahoma"])}
        hands.append((params, list(state.history())))
    return hands


def replay(load: Callable[[dict[str, Any]], Any], hands: Sequence[Hand]) -> Callable[[], None]:
    """A round: every history through one engine, ``legal_actions()`` at every decision."""
    games = {str(params): load(params) for params, _ in hands}
    plan = [(games[str(params)], actions) for params, actions in hands]

    def run() -> None:
        for game, actions in plan:
            state = game.new_initial_state()
            for action in actions:
                if not state.is_chance_node():
                    state.legal_actions()
                state.apply_action(action)
            state.returns()
    return run


def check(hands: Sequence[Hand]) -> int:
    """Both engines agree on every history; returns the decisions (player actions) in all."""
    import pyspiel

    decisions = 0
    for params, actions in hands:
        theirs = pyspiel.load_game("gin_rummy", params).new_initial_state()
        ours = ginref.openspiel_game(params).new_initial_state()
        for action in actions:
            if not theirs.is_chance_node():
                decisions += 1
                legal, mine = theirs.legal_actions(), ours.legal_actions()
                assert mine in (legal, sorted([*legal, KNOCK])), (actions, legal, mine)
            theirs.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal() and ours.returns() == theirs.returns(), actions
    return decisions


def _cpu(fn: Callable[[], None]) -> float:
    with gc_disabled():
        start = time.process_time()
        fn()
        return time.process_time() - start


def measure(games: int, seed: int, rounds: int) -> dict[str, Any]:
    import pyspiel

    hands = play(games, seed)
    decisions = check(hands)
    actions = sum(len(a) for _, a in hands)
    contenders = {
        "pyspiel": replay(lambda p: pyspiel.load_game("gin_rummy", p), hands),
        "ginref.openspiel_game": replay(ginref.openspiel_game, hands),
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()  # warm-up
    for _ in range(rounds):
        for name, fn in contenders.items():
            times[name].append(_cpu(fn))
    result: dict[str, Any] = {"games": games, "decisions": decisions, "actions": actions, "rounds": rounds}
    for name, cpus in times.items():
        result[name] = {
            "median_s": statistics.median(cpus), "min_s": min(cpus), "max_s": max(cpus),
            "us_per_decision": statistics.median(cpus) / decisions * 1e6,
            "us_per_action": statistics.median(cpus) / actions * 1e6,
        }
    ratios = [p / g for p, g in zip(times["pyspiel"], times["ginref.openspiel_game"], strict=True)]
    result["speedup"] = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    result = measure(args.games, args.seed, args.rounds)
    print(f"{result['games']} OpenSpiel hands: {result['decisions']:,} decisions, "
          f"{result['actions']:,} actions (chance included); {result['rounds']} rounds, CPU time")
    for name in ("pyspiel", "ginref.openspiel_game"):
        row = result[name]
        print(f"{name:24} {row['median_s']:7.3f} s ({row['min_s']:.3f}-{row['max_s']:.3f})  "
              f"{row['us_per_decision']:6.1f} µs per decision  {row['us_per_action']:6.1f} µs per action")
    speed = result["speedup"]
    print(f"ginref is {speed['median']:.2f}x pyspiel (rounds {speed['min']:.2f}-{speed['max']:.2f}x)")
    return 0 if speed["median"] >= 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
