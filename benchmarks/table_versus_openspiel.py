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
  (``ginref.referee.openspiel_state``), a ``Table`` underneath: every action is mapped to
  the table's moves and the legal actions come from the table's, knock included;
- ``ginref.Table``: the same hands as the table's moves (a knock with its melds is one move,
  a draw from the stock one move), ``legal_moves()`` then ``push(move)`` at every move, and
  ``outcome()`` at the end: the per-move figure is ``push`` plus ``legal_moves``.

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

TABLE = "ginref.Table"
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


def table_moves(hands: Sequence[Hand]) -> list[tuple[Any, list[Any]]]:
    """Each hand as a record (``ginref.records.openspiel``) and the table's moves of its events."""
    from ginref.records.openspiel import GameParams, History, decode_history
    from ginref.referee.table import moves_of

    plans = []
    for params, actions in hands:
        record = decode_history(History(tuple(actions), None, ()), GameParams(**params))
        plans.append((record, [m for event in record.hands[0].events for m in moves_of(event)]))
    return plans


def table_replay(plans: Sequence[tuple[Any, list[Any]]]) -> Callable[[], None]:
    """A round: every hand at a table, ``legal_moves()`` then ``push`` at every move."""
    from ginref.referee.table import Table

    def run() -> None:
        for record, moves in plans:
            table = Table.from_record(record)
            for move in moves:
                table.legal_moves()
                table.push(move)
            assert table.outcome() is not None
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
    plans = table_moves(hands)
    contenders = {
        "pyspiel": replay(lambda p: pyspiel.load_game("gin_rummy", p), hands),
        "ginref.openspiel_game": replay(ginref.openspiel_game, hands),
        TABLE: table_replay(plans),
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()  # warm-up
    for _ in range(rounds):
        for name, fn in contenders.items():
            times[name].append(_cpu(fn))
    moves = sum(len(m) for _, m in plans)
    result: dict[str, Any] = {"games": games, "decisions": decisions, "actions": actions, "rounds": rounds,
                              "table_moves": moves}
    for name, cpus in times.items():
        result[name] = {
            "median_s": statistics.median(cpus), "min_s": min(cpus), "max_s": max(cpus),
            "us_per_decision": statistics.median(cpus) / decisions * 1e6,
            "us_per_action": statistics.median(cpus) / actions * 1e6,
        }
    result[TABLE]["us_per_move"] = statistics.median(times[TABLE]) / moves * 1e6
    for name in ("ginref.openspiel_game", TABLE):
        ratios = [p / g for p, g in zip(times["pyspiel"], times[name], strict=True)]
        result[name]["speedup"] = {"median": statistics.median(ratios), "min": min(ratios),
                                   "max": max(ratios)}
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
    for name in ("pyspiel", "ginref.openspiel_game", TABLE):
        row = result[name]
        speed = row.get("speedup")
        ratio = f"  {speed['median']:.2f}x pyspiel ({speed['min']:.2f}-{speed['max']:.2f}x)" if speed else ""
        print(f"{name:22} {row['median_s']:7.3f} s ({row['min_s']:.3f}-{row['max_s']:.3f})  "
              f"{row['us_per_decision']:6.1f} µs per decision{ratio}")
    print(f"ginref.Table: {result['table_moves']:,} moves, push + legal_moves "
          f"{result[TABLE]['us_per_move']:.1f} µs per move")
    slowest = min(result[name]["speedup"]["median"] for name in ("ginref.openspiel_game", TABLE))
    return 0 if slowest >= 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
