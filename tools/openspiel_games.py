"""Play OpenSpiel gin_rummy hands and check ginref's OpenSpiel reader against them.

Runs only where ``pyspiel`` is installed (``pip install '.[openspiel]'``)::

    python tools/openspiel_games.py --games 5000 --seed 2026
    python tools/openspiel_games.py --games 10000 --seed 2026 --sample samples/records/openspiel/games.jsonl

This tool only plays: the seeded policies and the check live in
``tests/support/openspiel_play.py``, the conversion in ``ginref.records.openspiel``
(history -> record) and ``ginref.records.io`` (every input form). Each game must import
from ``state.history()`` and from ``SerializeGameAndState`` alike, verify with no error,
score exactly ``state.returns()``, and replay in OpenSpiel from ``--to openspiel`` to
the same returns. The counts by ending are printed.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ginref.records import GameRecord, write_records
from ginref.records.io import RawRecord, decode
from tests.support.openspiel_play import check_game, play_games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", type=Path, help="write up to --sample-size clean games here (JSON Lines)")
    parser.add_argument("--sample-size", type=int, default=200)
    args = parser.parse_args(argv)
    kinds: collections.Counter[str] = collections.Counter()
    bad = 0
    kept: dict[str, list[GameRecord]] = collections.defaultdict(list)
    played = play_games(pyspiel, args.games, args.seed, random.Random(args.seed))
    for i, (game, state, label) in enumerate(played):
        kind, problems = check_game(pyspiel, game, state)
        kinds[kind] += 1
        if problems:
            bad += 1
            if bad <= 20:
                print(f"game {i} ({label}, {kind}):", *problems, sep="\n  ", file=sys.stderr)
        elif args.sample:
            kept[kind].append(_record(game, state))
    if args.sample:
        _write_sample(args.sample, kept, args.sample_size, random.Random(args.seed))
    print(f"{args.games} games (seed {args.seed}): {args.games - bad} clean with returns and round trips "
          f"equal, {bad} with disagreements")
    print("endings:", json.dumps(dict(kinds.most_common())))
    return 1 if bad else 0


def _record(game: object, state: object) -> GameRecord:
    text = str(list(state.history()))  # type: ignore[attr-defined]
    params = game.get_parameters()  # type: ignore[attr-defined]
    game_text = "gin_rummy(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
    (record,) = decode(RawRecord("openspiel", "<openspiel>", 0, 1, text, game=game_text))
    assert isinstance(record, GameRecord)
    return record


def _write_sample(path: Path, kept: dict[str, list[GameRecord]], size: int, rng: random.Random) -> None:
    """About ``size`` games spread over the endings, rare ones kept whole."""
    chosen: list[GameRecord] = []
    kinds = sorted(kept, key=lambda k: len(kept[k]))
    for n, kind in enumerate(kinds):
        share = (size - len(chosen)) // (len(kinds) - n)
        chosen.extend(rng.sample(kept[kind], min(share, len(kept[kind]))))
    with path.open("w", encoding="utf-8") as stream:
        list(write_records(chosen, stream, "jsonl"))


if __name__ == "__main__":
    sys.exit(main())
