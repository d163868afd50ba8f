"""The public library calls, as a user makes them, against OpenSpiel's Python-visible equivalents.

    python benchmarks/library_calls.py            # every class, 2,000 hands, 7 rounds
    python benchmarks/library_calls.py --hands 300 --rounds 3 --json out.json

``benchmarks/deadwood.py`` times the search on masks built before the clock
starts; this times what a user's code pays: ``ginref.min_deadwood(cards)`` and
``ginref.analyze(cards)`` given a list of card names, a text, a ``CardSet``, a
list of card ints or a mask, conversion included. OpenSpiel gets its own card
ints (suits s c d h, built before the clock starts: its cheapest form) and, as
the same-input contest, its own card strings through ``card_strings_to_card_ints``.

Calls compared, per hand class (``hands.py``):

* ``min_deadwood``: OpenSpiel's ``min_deadwood`` on the same cards. On 11 cards
  OpenSpiel's is a heuristic (best 11-card meld group, then drop its highest
  deadwood card), ginref's keeps every card; ``min_deadwood_after_discard``
  (exact, best discard) is timed beside both.
* ``analyze`` (the best arrangement): OpenSpiel's ``best_meld_group``; for 11
  cards, the exact OpenSpiel equivalent (``min_deadwood`` of each 10 kept, then
  ``best_meld_group`` of the best) and the single heuristic call.

Every contestant's answer is checked against ginref's on the mask first.
Timing: CPU time of this process (``time.process_time``), GC off, each
contestant calibrated to ``--min-seconds`` a round, rounds interleaved (A, B,
C, A, B, C ...); a figure is the median round, the spread the lowest and
highest round; a ratio is the median of the per-round ratios (OpenSpiel's time
over ginref's: above 1, ginref is faster).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hands import HandClass, hand_classes
from peers import available_peers, openspiel_card

import ginref
from ginref.cards import CardSet, card_name, mask_of

OPENSPIEL = "open-spiel ints"
"""The anchor: OpenSpiel on its own card ints, its cheapest call."""


@dataclass
class Timed:
    """One call timed over one batch of inputs; ``seconds`` holds CPU seconds per round."""

    name: str
    fn: Callable[[Any], object]
    args: Sequence[Any]
    checked: bool = True
    """whether its answers must equal ginref's on the mask (OpenSpiel's heuristics and groups need not)"""
    passes: int = 1
    seconds: list[float] = field(default_factory=list)

    def run(self) -> float:
        fn, args = self.fn, self.args
        gc.disable()
        try:
            start = time.process_time()
            for _ in range(self.passes):
                deque(map(fn, args), maxlen=0)
            return time.process_time() - start
        finally:
            gc.enable()

    def calibrate(self, min_seconds: float) -> None:
        elapsed = self.run()
        self.passes = max(1, math.ceil(min_seconds / elapsed)) if elapsed > 0 else 1000

    def micros(self) -> list[float]:
        """Microseconds per call, one figure per round."""
        return [s / (self.passes * len(self.args)) * 1e6 for s in self.seconds]


def interleave(contestants: Sequence[Timed], rounds: int, min_seconds: float) -> None:
    for contestant in contestants:
        contestant.calibrate(min_seconds)
    for _ in range(rounds):
        for contestant in contestants:
            contestant.seconds.append(contestant.run())


# ------------------------------------------------------------------ the inputs


@dataclass(frozen=True)
class Inputs:
    """One class's hands in every form a user may hold them."""

    masks: list[int]
    names: list[list[str]]
    texts: list[str]
    cardsets: list[CardSet]
    ints: list[list[int]]
    openspiel: list[list[int]]
    openspiel_names: list[list[str]]


def inputs(hand_class: HandClass, utils: Any) -> Inputs:
    hands = hand_class.hands
    names = [[card_name(c) for c in hand] for hand in hands]
    openspiel = [[openspiel_card(c) for c in hand] for hand in hands]
    return Inputs(
        masks=[mask_of(hand) for hand in hands],
        names=names,
        texts=[" ".join(hand) for hand in names],
        cardsets=[CardSet.of(hand) for hand in hands],
        ints=[list(hand) for hand in hands],
        openspiel=openspiel,
        openspiel_names=[utils.card_ints_to_card_strings(hand) for hand in openspiel],
    )


def _ginref_forms(call: Callable[[Any], object], given: Inputs) -> list[Timed]:
    return [
        Timed("ginref names", call, given.names),
        Timed("ginref text", call, given.texts),
        Timed("ginref CardSet", call, given.cardsets),
        Timed("ginref ints", call, given.ints),
        Timed("ginref mask", call, given.masks),
    ]


# ------------------------------------------------------------- OpenSpiel's calls


def _openspiel_calls(utils: Any) -> dict[str, Callable[[Any], object]]:
    least = utils.min_deadwood
    best_group = utils.best_meld_group
    to_ints = utils.card_strings_to_card_ints

    def least_after_discard(hand: list[int]) -> int:
        return min(least(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    def best_after_discard(hand: list[int]) -> object:
        kept = min((hand[:i] + hand[i + 1 :] for i in range(len(hand))), key=least)
        return best_group(kept)

    return {
        "min_deadwood": least,
        "min_deadwood names": lambda names: least(to_ints(names)),
        "min_deadwood after discard": least_after_discard,
        "best_meld_group": best_group,
        "best_meld_group names": lambda names: best_group(to_ints(names)),
        "best_meld_group after discard": best_after_discard,
    }


# ------------------------------------------------------------------- the contests


@dataclass(frozen=True)
class Contest:
    """One library call on one class: its contestants, and the answer each must give."""

    call: str
    hand_class: HandClass
    contestants: list[Timed]


def contests(hand_class: HandClass, utils: Any) -> list[Contest]:
    given = inputs(hand_class, utils)
    peer = _openspiel_calls(utils)
    eleven = hand_class.size == 11
    found = [
        Contest("min_deadwood", hand_class, [
            Timed(OPENSPIEL, peer["min_deadwood"], given.openspiel, checked=not eleven),
            Timed("open-spiel names", peer["min_deadwood names"], given.openspiel_names, checked=not eleven),
            *_ginref_forms(ginref.min_deadwood, given),
        ]),
        Contest("analyze", hand_class, [
            Timed(OPENSPIEL, peer["best_meld_group after discard" if eleven else "best_meld_group"],
                  given.openspiel, checked=False),
            *([Timed("open-spiel heuristic", peer["best_meld_group"], given.openspiel, checked=False)]
              if eleven else []),
            Timed("open-spiel names", peer["best_meld_group names"], given.openspiel_names, checked=False),
            *_ginref_forms(ginref.analyze, given),
        ]),
    ]
    if eleven:
        found.insert(1, Contest("min_deadwood_after_discard", hand_class, [
            Timed(OPENSPIEL, peer["min_deadwood after discard"], given.openspiel),
            Timed("open-spiel heuristic", peer["min_deadwood"], given.openspiel, checked=False),
            *_ginref_forms(ginref.min_deadwood_after_discard, given),
        ]))
    return found


def check(contest: Contest) -> list[str]:
    """Each ginref form answers as the mask does; OpenSpiel's exact calls agree on deadwood."""
    problems = []
    by_name = {c.name: c for c in contest.contestants}
    mask = by_name["ginref mask"]
    truth = list(map(mask.fn, mask.args))
    for contestant in contest.contestants:
        if not contestant.checked:
            continue
        got, want = list(map(contestant.fn, contestant.args)), truth
        if contest.call == "analyze":
            got, want = [repr(a.to_dict()) for a in got], [repr(a.to_dict()) for a in truth]  # type: ignore[attr-defined]
        wrong = sum(a != b for a, b in zip(got, want, strict=True))
        if wrong:
            problems.append(f"{contest.call} {contest.hand_class.name}: {contestant.name} differs on {wrong}")
    return problems


# ------------------------------------------------------------------ the figures


def summary(contest: Contest) -> dict[str, Any]:
    anchor = next(c for c in contest.contestants if c.name == OPENSPIEL)
    rows = []
    for contestant in contest.contestants:
        micros = contestant.micros()
        ratios = [a / b for a, b in zip(anchor.micros(), micros, strict=True)]
        rows.append({
            "name": contestant.name,
            "micros": statistics.median(micros),
            "micros_low": min(micros),
            "micros_high": max(micros),
            "vs_openspiel": statistics.median(ratios),
            "vs_openspiel_low": min(ratios),
            "vs_openspiel_high": max(ratios),
        })
    return {"call": contest.call, "class": contest.hand_class.name, "hands": len(anchor.args), "rows": rows}


def table(results: Sequence[dict[str, Any]]) -> str:
    lines = [
        f"{'call':<27} {'class':<13} {'contestant':<21} {'µs/call':>8} {'(low-high)':>15} "
        f"{'vs OpenSpiel':>12} {'(low-high)':>13}",
    ]
    for result in results:
        for row in result["rows"]:
            lines.append(
                f"{result['call']:<27} {result['class']:<13} {row['name']:<21} {row['micros']:>8.2f} "
                f"({row['micros_low']:>6.2f}-{row['micros_high']:<6.2f}) {row['vs_openspiel']:>11.2f}x "
                f"({row['vs_openspiel_low']:>4.2f}-{row['vs_openspiel_high']:<4.2f})"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per class (2000)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (7)")
    parser.add_argument("--min-seconds", type=float, default=0.05, help="CPU s a contestant a round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--classes", nargs="*", help="only these hand classes")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if not available_peers()["open-spiel"]:
        print("open-spiel is not installed (pip install '.[bench]')", file=sys.stderr)
        return 2
    import pyspiel  # type: ignore[import-not-found]

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    results, problems = [], []
    for hand_class in hand_classes(args.hands, args.seed):
        if args.classes and hand_class.name not in args.classes:
            continue
        for contest in contests(hand_class, utils):
            print(f"... {contest.call}: {hand_class.name}", file=sys.stderr, flush=True)
            problems += check(contest)
            interleave(contest.contestants, args.rounds, args.min_seconds)
            results.append(summary(contest))
    print(table(results))
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({"argv": sys.argv, "results": results}, indent=2) + "\n", "utf-8")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
