"""``ginref.advise`` on one core: the sampled mid-game answer, and how far exact enumeration reaches.

    python benchmarks/advise_bench.py          # both parts, printed as JSON
    python benchmarks/run.py                   # the same figures under "advise"

The mid-game position has 20 unseen cards (the opponent's 10 and a stock of 10)
and a knocker with two or more ways to knock, whose melds the unseen cards can
touch (they lean toward its ranks and suits, so layoffs and undercuts happen).
Figures are CPU seconds (``time.process_time``), the process pinned to one core,
the garbage collector off, the median of a few runs. Exact enumeration is timed at
growing numbers of unseen cards (none known) until a run passes ``EXACT_BUDGET``.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from timing import gc_disabled, pinned_to_one_core

from ginref.advice import MAX_EXACT, advise
from ginref.cards import mask_names
from ginref.melds import min_deadwood, min_deadwood_after_discard

SAMPLES = 20_000
TARGET_SECONDS = 2.0
EXACT_BUDGET = 10.0


@dataclass(frozen=True)
class Position:
    hand: int
    known: int
    seen: int


def mid_game(seed: int, unseen: int = 20, known: int = 0, limit: int = 10) -> Position:
    """An 11-card hand with at least two discards that knock; the unseen cards lean toward
    those that touch it."""
    rng = random.Random(seed)
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        hand, rest = deck[:11], deck[11:]
        full = sum(1 << c for c in hand)
        knocks = sum(min_deadwood(full & ~(1 << c)) <= limit for c in hand)
        if knocks >= 2 and min_deadwood_after_discard(full) >= 4:
            break
    near = {c for c in rest for h in hand if c % 13 == h % 13 or (c // 13 == h // 13 and abs(c - h) <= 2)}
    rest.sort(key=lambda c: rng.random() ** (1 / (4 if c in near else 1)), reverse=True)
    mask = lambda cards: sum(1 << c for c in cards)  # noqa: E731
    return Position(mask(hand), mask(rest[:known]), mask(rest[unseen:]))


def cpu_seconds(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        with gc_disabled():
            start = time.process_time()
            call()
            times.append(time.process_time() - start)
    return statistics.median(times)


def sampled(seed: int, runs: int) -> dict[str, Any]:
    position = mid_game(seed)
    answer = advise(position.hand, seen=position.seen, opponent_has=position.known,
                    samples=SAMPLES, method="sampled")
    seconds = cpu_seconds(lambda: advise(position.hand, seen=position.seen, opponent_has=position.known,
                                         samples=SAMPLES, method="sampled"), runs)
    best = answer.options[0]
    return {
        "hand": mask_names(position.hand),
        "opponent_has": mask_names(position.known),
        "unseen": answer.unseen,
        "stock": answer.stock,
        "samples": SAMPLES,
        "options": len(answer.options),
        "best": best.to_dict(),
        "cpu_seconds": round(seconds, 3),
        "target_seconds": TARGET_SECONDS,
        "passed": seconds < TARGET_SECONDS,
    }


def exact_reach(seed: int, smoke: bool) -> dict[str, Any]:
    """Exact enumeration at 15, 16, ... unseen cards until one run takes longer than the budget."""
    rows = []
    for unseen in range(15, 15 + (3 if smoke else 12)):
        if math.comb(unseen, 10) > MAX_EXACT:
            break
        position = mid_game(seed, unseen, known=0)
        seconds = cpu_seconds(lambda p=position: advise(p.hand, seen=p.seen, method="exact"), 1)
        hands = math.comb(unseen, 10)
        rows.append({"unseen": unseen, "hands": hands, "cpu_seconds": round(seconds, 3),
                     "hands_per_second": round(hands / seconds) if seconds else None})
        if seconds > EXACT_BUDGET:
            break
    within = [row for row in rows if row["cpu_seconds"] <= EXACT_BUDGET]
    return {"budget_seconds": EXACT_BUDGET, "max_exact": MAX_EXACT, "runs": rows,
            "largest_within_budget": within[-1] if within else None}


def measure(seed: int = 1, smoke: bool = False, progress: Callable[[str], None] = print) -> dict[str, Any]:
    with pinned_to_one_core():
        progress(f"advise: {SAMPLES:,} samples of a 20-unseen, 10-stock position")
        result = {"sampled": sampled(seed, 1 if smoke else 3)}
        progress("advise: exact enumeration, growing")
        result["exact"] = exact_reach(seed, smoke)
    return result


if __name__ == "__main__":
    print(json.dumps(measure(smoke="--smoke" in sys.argv,
                             progress=lambda m: print(m, file=sys.stderr)), indent=2))
