"""Write samples/tournament/: a small tournament of generated games between two named agents.

    python tools/tournament.py            # write the sample
    python tools/tournament.py --check    # exit 1 when the files on disk differ

Two agents play standard gin to 100, a game per file, dealing first in turn, legally,
through ``tests.support.randomplay`` (each game from a fixed seed, so the files come out
the same every time). ``keen-bot`` waits for a low knock and lays off all it can;
``lazy-bot`` knocks at once, often keeps a meld back (legal: the referee's advisory
``knock_not_best``) and never lays off when it defends (legal, and costly:
``missed_layoff``). ``ginref report samples/tournament`` shows it.

    python tools/tournament.py --duplicate          # write samples/duplicate/deals.gin
    python tools/tournament.py --duplicate --deals 500 --out league.jsonl

The duplicate mode plays each deal twice with the seats swapped: the same shuffle, so the
dealer's ten cards, the other's, the upcard and the stock are the same in both games, and
each agent holds in one game the cards the other held in the other. Each game is one hand
(a one-hand record is a one-hand game). ``ginref report samples/duplicate --duplicate``
pairs them and shows the points each agent won over each pair, the luck of the cards taken
out.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ginref import game  # noqa: E402
from ginref.records import GameRecord, write_records  # noqa: E402
from tests.support.randomplay import Style, play_game, play_hand  # noqa: E402

FOLDER = ROOT / "samples" / "tournament"
DUPLICATE = ROOT / "samples" / "duplicate" / "deals.gin"
DEALS = 12
"""deals of the duplicate sample, each played twice"""
AGENTS = ("keen-bot", "lazy-bot")
GAMES = 8
SEED = 2027
KEEN = Style(discard_draw=0.3, knock=0.4, withhold=0.0, same_card=0.0, record_defence=1.0, skip_layoffs=0.0)
"""waits for a low knock or gin, lays off all it can"""
LAZY = Style(discard_draw=0.3, knock=1.0, withhold=0.7, same_card=0.0, record_defence=1.0, skip_layoffs=1.0)
"""knocks at once, often keeping a meld back; never lays off"""


def games() -> list[GameRecord]:
    """The tournament's games, in order."""
    from msgspec.structs import replace

    played = []
    for number in range(1, GAMES + 1):
        rng = random.Random(SEED * 100 + number)
        first = AGENTS[(number - 1) % 2]
        record = play_game(rng, "standard", AGENTS, first_dealer=first,
                           styles={AGENTS[0]: KEEN, AGENTS[1]: LAZY})
        tags = (("Event", "ginref sample tournament"), ("Round", str(number)))
        played.append(replace(record, tags=tags))
    return played


def duplicate_games(deals: int = DEALS, seed: int = SEED) -> list[GameRecord]:
    """Each deal played twice, the seats swapped: one-hand games, the twins side by side."""
    from msgspec.structs import replace

    from ginref.rules import find_rules

    played = []
    rules = find_rules("standard")
    styles = {AGENTS[0]: KEEN, AGENTS[1]: LAZY}
    for deal in range(1, deals + 1):
        for dealer in (AGENTS[(deal - 1) % 2], AGENTS[deal % 2]):
            rng = random.Random(seed * 1000 + deal)  # the same shuffle for both games of the deal
            hand, entry = play_hand(rng, rules, dealer, AGENTS, style=KEEN, styles=styles, number=1)
            scored = game.tally(AGENTS, [entry], rules, dealer)
            hand = replace(hand, score_after=tuple(scored.hands[0].totals.items()),
                           next_dealer=scored.hands[0].next_dealer)
            seat = "ab"[dealer != AGENTS[(deal - 1) % 2]]
            tags = (("Event", "ginref sample duplicate"), ("Round", f"{deal}{seat}"))
            played.append(GameRecord(AGENTS, (hand,), rules="standard", tags=tags))
    return played


def records_text(records: list[GameRecord], form: str = "gin") -> str:
    stream = io.StringIO()
    errors = list(write_records(records, stream, form))
    if errors:
        raise RuntimeError(f"a game cannot be written: {errors[0]}")
    return stream.getvalue()


def texts() -> dict[str, str]:
    """Each file's name and text."""
    out = {}
    for number, record in enumerate(games(), 1):
        stream = io.StringIO()
        errors = list(write_records([record], stream, "gin"))
        if errors:
            raise RuntimeError(f"game {number} cannot be written: {errors[0]}")
        out[f"game-{number:02d}.gin"] = stream.getvalue()
    return out


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a sample on disk differs")
    parser.add_argument("--duplicate", action="store_true", help="write duplicate pairs instead")
    parser.add_argument("--deals", type=int, default=DEALS, help="with --duplicate: deals, each played twice")
    parser.add_argument("--out", type=Path, help="with --duplicate: the file (.gin or .jsonl) to write")
    args = parser.parse_args(argv)
    wanted = {FOLDER / name: text for name, text in texts().items()}
    wanted[DUPLICATE] = records_text(duplicate_games())
    if args.check:
        stale = [str(path.relative_to(ROOT)) for path, text in wanted.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != text]
        print("stale: " + ", ".join(stale) if stale else "the tournament samples are up to date")
        return 1 if stale else 0
    if args.duplicate:
        out = args.out or DUPLICATE
        form = "jsonl" if out.suffix == ".jsonl" else "gin"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(records_text(duplicate_games(args.deals), form), encoding="utf-8")
        return 0
    for path, text in wanted.items():
        if path != DUPLICATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
