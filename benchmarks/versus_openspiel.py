"""ginref verify against OpenSpiel's own engine replaying the same hands, in one run.

    pip install '.[bench]'
    python benchmarks/versus_openspiel.py --games 2000 --rounds 5

OpenSpiel plays ``--games`` seeded hands (``tests/support/openspiel_play.py``); each
is kept as its action history and as a ginref record (JSON Lines and ``.gin``). The
contenders, interleaved round by round:

- OpenSpiel: ``new_initial_state`` and ``apply_action`` over each history, from
  Python, in this process (its engine checks every action's legality as it goes);
- ``ginref verify FILE --jobs 1`` and ``--jobs 2`` on the JSON Lines and ``.gin``
  files, as a user runs it: a whole process, start-up included, CPU time of the
  whole process tree;
- ``ginref.batch.verify`` from Python on the JSON Lines file, in this process;
- the floor of any referee in pure Python, in this process: ginref's own decoder of a JSON
  Lines line into its wire Structs (msgspec, in C: no record model, no check), and a loop
  that moves each event's cards between the hands and the pile, checking nothing; and
  the exact searches a referee cannot skip, on each knock of the same hands: the
  knocker's least deadwood (``min_deadwood``), the defender's (``least_defence``) and
  the settlement (``settle``), their inputs taken from ginref's replay before the clock
  starts. The sum is what a record costs a pure-Python referee before it checks a
  single move or writes a result.

Every figure is hands per CPU-second (user+sys) beside hands per wall-second,
the median round with the range; the ratio to OpenSpiel is of CPU time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from commands import child_env, ginref_argv
from timing import Command, CommandTiming, gc_disabled, time_round

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ginref.records import GameRecord, RawRecord, decode, write_records


def _play(games: int, seed: int) -> tuple[list[tuple[Any, list[int]]], list[GameRecord]]:
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

    from tests.support.openspiel_play import play_games

    histories, records = [], []
    for game, state, _ in play_games(pyspiel, games, seed, random.Random(seed)):
        actions = list(state.history())
        histories.append((game, actions))
        params = game.get_parameters()
        text = "gin_rummy(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
        (record,) = decode(RawRecord("openspiel", "<openspiel>", 0, 1, str(actions), game=text))
        assert isinstance(record, GameRecord), record
        records.append(record)
    return histories, records


def _replay_openspiel(histories: list[tuple[Any, list[int]]]) -> None:
    for game, actions in histories:
        state = game.new_initial_state()
        for action in actions:
            state.apply_action(action)
        assert state.is_terminal()


def _verify_in_process(path: Path) -> Callable[[], None]:
    from ginref.batch import verify

    def run() -> None:
        for result in verify([str(path)], jobs=1):
            assert result.status != "unreadable", result
    return run


def _floor(path: Path) -> dict[str, Callable[[], None]]:
    """The two halves of the pure-Python floor (the module's docstring) on the JSON Lines file."""
    from ginref.notation import CARD_TOKENS
    from ginref.records import jsonform

    lines = path.read_bytes().splitlines()
    decode = jsonform._WIRE_DECODER.decode  # the decoder verify itself uses
    decoded = [decode(line) for line in lines]
    bit = {token: 1 << c for token, c in CARD_TOKENS.items()}
    turn = jsonform._WireTurn

    def decode_only() -> None:
        for line in lines:
            decode(line)

    def move_cards() -> None:
        for record in decoded:
            first = record.players[0]
            for hand in record.hands:
                held, pile = [0, 0], []
                for ev in hand.events:
                    if type(ev) is turn:
                        p = 0 if ev.player == first else 1
                        if ev.card is not None:
                            held[p] |= bit[ev.card]
                        if ev.discard is not None:
                            held[p] ^= bit[ev.discard]
                            pile.append(ev.discard)
    return {FLOOR_DECODE: decode_only, FLOOR_MOVES: move_cards, FLOOR_SEARCHES: _searches(path)}


def _searches(path: Path) -> Callable[[], None]:
    from ginref.layoffs import least_defence
    from ginref.melds import MeldSystem, min_deadwood
    from ginref.records import read_records
    from ginref.referee.hand import Hand
    from ginref.referee.replay import replay_hand
    from ginref.rules import find_rules
    from ginref.scoring import settle

    knocks = []
    for record in read_records(str(path)):
        assert isinstance(record, GameRecord), record
        rules = find_rules(record.rules)
        system = MeldSystem.from_rules(rules)
        for i, hand in enumerate(record.hands):
            knocked: list[Hand] = []  # the hand as the replay leaves it, seen at its knock
            replay_hand(hand, i, record.players, rules, system, [], lambda m, _, seen=knocked: seen.append(m))
            if not knocked:
                continue
            replay = knocked[0]
            p = replay.knocker
            if p >= 0 and replay.ending:
                knocks.append((replay.held[p], replay.held[1 - p], replay.melds, rules, system,
                               replay.ending, replay.knocker_dw))

    def run() -> None:
        for knocker, defender, melds, rules, system, ending, knocker_dw in knocks:
            min_deadwood(knocker, system)
            settle(ending, knocker_dw, least_defence(defender, melds, rules, system)[0], rules)
    return run


FLOOR_DECODE = "floor: msgspec decode alone"
FLOOR_MOVES = "floor: moving the cards alone"
FLOOR_SEARCHES = "floor: the exact searches alone"
FLOOR = (FLOOR_DECODE, FLOOR_MOVES, FLOOR_SEARCHES)


def _cpu_round(fn: Callable[[], None]) -> tuple[float, float]:
    with gc_disabled():
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - wall, time.process_time() - cpu


def _line(name: str, walls: list[float], cpus: list[float], games: int, anchor: float | None) -> str:
    cpu = statistics.median(cpus)
    ratio = f"  {anchor / cpu:5.1f}x OpenSpiel" if anchor else ""
    return (f"{name:32} {games / cpu:8,.0f} hands/CPU-s ({games / max(cpus):,.0f}-{games / min(cpus):,.0f})"
            f"  {games / statistics.median(walls):8,.0f} hands/s{ratio}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    histories, records = _play(args.games, args.seed)
    actions = sum(len(a) for _, a in histories)
    print(f"{args.games} OpenSpiel hands, {actions / args.games:.1f} actions each")
    with tempfile.TemporaryDirectory(prefix="ginref-versus-openspiel-") as folder:
        paths = {fmt: Path(folder) / f"games.{fmt}" for fmt in ("jsonl", "gin")}
        for fmt, path in paths.items():
            with path.open("w", encoding="utf-8") as stream:
                assert not list(write_records(records, stream, fmt))
        in_process = {"OpenSpiel replay (in process)": lambda: _replay_openspiel(histories),
                      "ginref verify() (in process)": _verify_in_process(paths["jsonl"]),
                      **_floor(paths["jsonl"])}
        timings = [CommandTiming(Command(f"ginref verify {fmt} --jobs {jobs}",
                                         (*ginref_argv(), "verify", str(path), "--jobs", str(jobs)),
                                         env=child_env()))
                   for fmt, path in paths.items() for jobs in (1, 2)]
        measured: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in in_process}
        for fn in in_process.values():
            fn()  # warm-up
        for _ in range(args.rounds):
            for name, fn in in_process.items():
                wall, cpu = _cpu_round(fn)
                measured[name][0].append(wall)
                measured[name][1].append(cpu)
            time_round(timings)
    for timing in timings:
        measured[timing.command.name] = (timing.seconds, timing.cpu)
    anchor = statistics.median(measured["OpenSpiel replay (in process)"][1])
    for name, (walls, cpus) in measured.items():
        print(_line(name, walls, cpus, args.games, None if name.startswith("OpenSpiel") else anchor))
    floor = [sum(parts) for parts in zip(*(measured[name][1] for name in FLOOR), strict=True)]
    print(f"{'floor: the three together':32} {args.games / statistics.median(floor):8,.0f} hands/CPU-s "
          f"({args.games / max(floor):,.0f}-{args.games / min(floor):,.0f}) in the same rounds, "
          f"{anchor / statistics.median(floor):.1f}x OpenSpiel")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
