"""Play seeded RLCard gin rummy hands and write their move sheets: the test fixtures and a sample.

    python tools/rlcard_games.py                 # rewrite tests/data/rlcard/ and the sample
    python tools/rlcard_games.py --check         # exit 1 when a written file differs

Needs ``rlcard`` (the ``bench`` extra). Each hand is RLCard's ``game.round.move_sheet``, one
move's ``str()`` a line, then ``payoffs=[N's, S's]`` (RLCard's rewards, as
:mod:`ginref.records.rlcard` reads them). Hand ``i`` of a file is played by a fresh
``rlcard.make("gin-rummy", config={"seed": FIRST + i})`` game, its players a greedy policy
seeded the same way (below), so that the sheets show knocks, gins, undercuts, dead hands and
draws of the last discard at the wall. The same files come out for the same seeds.

``printed-300.txt.gz`` holds 300 more hands as a script prints them around the sheets: a
``#`` comment above the run and above each hand, a blank line after each, and the payoffs
in the three forms ``print`` gives them, in turn: ``print("payoffs", payoffs)`` of RLCard's
list (``payoffs [0.2, -0.38]``), of a numpy array (``payoffs [ 0.2  -0.38]``, as
``env.run`` returns them) and ``f"payoffs={payoffs}"``.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "rlcard" / "greedy-200.txt"
SAMPLE = ROOT / "samples" / "research" / "rlcard-sheets.txt"
PRINTED = ROOT / "tests" / "data" / "rlcard" / "printed-300.txt.gz"
PRINTED_SEEDS = range(3000, 3300)
FIRST_SEED = 2026
HANDS = 200
SAMPLE_SEEDS = (2026, 2028, 2029, 2033)
"""seeds of the sample's hands: a gin, a dead hand, a knock, an undercut"""


def _deadwood(hand: list[Any]) -> int:
    from rlcard.games.gin_rummy.utils import melding, utils

    clusters = melding.get_best_meld_clusters(hand=hand)
    return int(utils.get_deadwood_count(hand, clusters[0] if clusters else []))


def _choose(game: Any, rng: Any, knock_rate: float) -> Any:
    """A greedy player: gin when it can, knock at ``knock_rate`` when it can, take the discard when it
    lowers its deadwood (at the wall, one time in three), discard to the least deadwood."""
    from rlcard.games.gin_rummy.utils.action_event import (
        DeclareDeadHandAction,
        DiscardAction,
        DrawCardAction,
        GinAction,
        KnockAction,
        PickUpDiscardAction,
    )

    legal = game.judge.get_legal_actions()
    kinds = {type(a) for a in legal}
    if len(legal) == 1 or GinAction in kinds:
        return legal[0]
    if knock_rate == 0:  # a random player that never knocks: its hands reach the wall
        unforced = [a for a in legal if not isinstance(a, KnockAction)]
        return unforced[int(rng.integers(len(unforced)))]
    hand = list(game.get_current_player().hand)
    if PickUpDiscardAction in kinds:
        top = game.round.dealer.discard_pile[-1]
        pick = next(a for a in legal if isinstance(a, PickUpDiscardAction))
        if DeclareDeadHandAction in kinds:
            dead = next(a for a in legal if isinstance(a, DeclareDeadHandAction))
            return pick if rng.random() < 1 / 3 else dead
        best_now = _deadwood(hand)
        with_top = min(_deadwood([c for c in [*hand, top] if c != x]) for x in hand)
        if with_top < best_now:
            return pick
        return next(a for a in legal if isinstance(a, DrawCardAction))
    knocks = [a for a in legal if isinstance(a, KnockAction)]
    if knocks and rng.random() < knock_rate:
        return knocks[int(rng.integers(len(knocks)))]
    discards = [a for a in legal if isinstance(a, DiscardAction)]
    scored = [(_deadwood([c for c in hand if c != a.card]), i) for i, a in enumerate(discards)]
    least = min(s for s, _ in scored)
    ties = [i for s, i in scored if s == least]
    return discards[ties[int(rng.integers(len(ties)))]]


def play(seed: int) -> list[str]:
    """One hand's move sheet and payoffs, as lines."""
    sheet, payoffs = played(seed)
    return [*sheet, f"payoffs=[{payoffs[0]!r}, {payoffs[1]!r}]"]


def played(seed: int) -> tuple[list[str], list[Any]]:
    """One hand's move sheet, a move a line, and RLCard's payoffs (its list, N's first)."""
    import numpy as np
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    game = env.game
    game.init_game()
    rng = np.random.default_rng(seed)
    knock_rate = 0.0 if seed % 4 == 0 else 0.3  # every fourth hand random, never knocking
    while not game.is_over():
        game.step(_choose(game, rng, knock_rate))
    payoffs = game.judge.scorer.get_payoffs(game=game)
    return [str(move) for move in game.round.move_sheet], list(payoffs)


def printed(seeds: range) -> bytes:
    """The hands of ``seeds`` as a script prints them (the module's docstring), gzipped with
    no time stamp, so that the same bytes come out every time."""
    import numpy as np

    out = ["# RLCard gin-rummy hands, greedy players (tools/rlcard_games.py)", ""]
    for number, seed in enumerate(seeds):
        sheet, payoffs = played(seed)
        out += [f"# hand {number + 1}, seed {seed}", *sheet]
        if number % 3 == 0:
            out.append(f"payoffs {payoffs}")
        elif number % 3 == 1:
            out.append(f"payoffs {np.array(payoffs)}")
        else:
            out.append(f"payoffs={payoffs}")
        out.append("")
    return gzip.compress("\n".join(out).encode(), mtime=0)


def sheets(seeds: range | tuple[int, ...]) -> str:
    return "".join("\n".join(play(seed)) + "\n" for seed in seeds)


def _text(data: bytes) -> bytes:
    """What a file holds, compressed or not: another zlib may compress the same text otherwise."""
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing")
    args = parser.parse_args(argv)
    wanted = {FIXTURES: sheets(range(FIRST_SEED, FIRST_SEED + HANDS)).encode(),
              SAMPLE: sheets(SAMPLE_SEEDS).encode(), PRINTED: printed(PRINTED_SEEDS)}
    stale = [path for path, data in wanted.items()
             if not path.exists() or _text(path.read_bytes()) != _text(data)]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} differs from what the tool writes", file=sys.stderr)
        return 1 if stale else 0
    for path, data in wanted.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
