"""Write samples/tournament/: a small tournament of generated games between two named agents.

    python tools/tournament.py            # write the sample
    python tools/tournament.py --check    # exit 1 when the files on disk differ

Two agents play standard gin to 100, a game per file, dealing first in turn, legally,
through ``tests.support.randomplay`` (each game from a fixed seed, so the files come out
the same every time). ``keen-bot`` waits for a low knock and lays off all it can;
``lazy-bot`` knocks at once, often keeps a meld back (legal: the referee's advisory
``knock_not_best``) and never lays off when it defends (legal, and costly:
``missed_layoff``). ``ginref report samples/tournament`` shows it.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ginref.records import GameRecord, write_records  # noqa: E402
from tests.support.randomplay import Style, play_game  # noqa: E402

FOLDER = ROOT / "samples" / "tournament"
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
    wanted = texts()
    if "--check" in argv:
        stale = [name for name, text in wanted.items()
                 if not (FOLDER / name).exists() or (FOLDER / name).read_text(encoding="utf-8") != text]
        print("stale: " + ", ".join(stale) if stale else "the tournament sample is up to date")
        return 1 if stale else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, text in wanted.items():
        (FOLDER / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
