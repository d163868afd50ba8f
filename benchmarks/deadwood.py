"""Least deadwood: ginref against the peers and the naive search, hand class by hand class.

ginref is called as a library (``ginref.melds.min_deadwood`` for 10 cards,
``min_deadwood_after_discard`` for 11) on masks built before the clock starts;
each peer gets its own card form, also built before. Every contestant's answers
are compared with ginref's; wherever an exact peer disagrees, the naive search
rules, on top of the naive check of the first ``naive_hands`` hands of each class.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hands import Hand, HandClass
from peers import hand_text, naive_min_deadwood, naive_min_deadwood_11, peer_searches
from timing import Contestant, gc_disabled, interleaved

from ginref.cards import mask_of
from ginref.melds import min_deadwood, min_deadwood_after_discard

GINREF = "ginref"
HEURISTIC_EXAMPLES = 3


@dataclass(frozen=True)
class Dispute:
    """A hand on which a contestant and ginref differ; ``truth`` from the naive search."""

    hand: str
    contestant: str
    theirs: int
    ginref: int
    truth: int


@dataclass
class Entry:
    """One contestant's figures on one class."""

    name: str
    exact: bool
    items: int
    """hands per pass"""
    passes: int
    seconds: list[float]
    interleaved: bool = True
    """timed in the rounds with ginref (the naive search is timed once, apart)"""
    disagreements: int = 0
    """hands where the answer differs from ginref's (all hands, or the naive subset)"""
    checked: int = 0

    @property
    def rate(self) -> float:
        """Hands per second in the median round."""
        median = statistics.median(self.seconds)
        return self.items * self.passes / median if median > 0 else math.inf

    def round_rates(self) -> list[float]:
        return [self.items * self.passes / s if s > 0 else math.inf for s in self.seconds]


@dataclass
class ClassResult:
    hand_class: HandClass
    entries: list[Entry] = field(default_factory=list)
    disputes: list[Dispute] = field(default_factory=list)

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def ginref_ratio(self, other: Entry) -> float:
        """ginref's speed over ``other``'s: the median of the per-round ratios.

        Contestants in one round run back to back, so a ratio taken within a
        round cancels the machine's slower spells; the naive search, timed
        once, is compared by rates.
        """
        mine = self.entry(GINREF)
        if mine is None:
            return math.nan
        if not other.interleaved:
            return mine.rate / other.rate
        pairs = zip(mine.round_rates(), other.round_rates(), strict=True)
        return statistics.median(a / b for a, b in pairs)

    @property
    def naive_disagreements(self) -> int:
        found = self.entry("naive")
        return found.disagreements if found else 0


def _ginref_contestant(hand_class: HandClass) -> Contestant:
    masks = [mask_of(hand) for hand in hand_class.hands]
    fn = min_deadwood if hand_class.size == 10 else min_deadwood_after_discard
    return Contestant(GINREF, fn, masks)


def _naive(size: int) -> Callable[[Sequence[int]], int]:
    return naive_min_deadwood if size == 10 else naive_min_deadwood_11


def _timed_contestants(hand_class: HandClass, with_peers: bool) -> tuple[list[Contestant], dict[str, bool]]:
    contestants = [_ginref_contestant(hand_class)]
    exact = {GINREF: True}
    for search in peer_searches(hand_class.size) if with_peers else []:
        args = [search.convert(hand) for hand in hand_class.hands]
        contestants.append(Contestant(search.name, search.search, args))
        exact[search.name] = search.exact
    return contestants, exact


def _rule(hand: Hand, truth_cache: dict[Hand, int]) -> int:
    if hand not in truth_cache:
        truth_cache[hand] = _naive(len(hand))(hand)
    return truth_cache[hand]


def _compare(
    result: ClassResult,
    answers: dict[str, list[int]],
    exact: dict[str, bool],
    truth: dict[Hand, int],
) -> None:
    """Count each peer's disagreements with ginref; the naive search rules on each.

    It rules on every hand an exact peer disputes, and on a few examples of a
    heuristic's mismatches (which are expected).
    """
    hands = result.hand_class.hands
    mine = answers[GINREF]
    for entry in result.entries:
        if entry.name == GINREF:
            continue
        theirs = answers[entry.name]
        differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
        entry.disagreements, entry.checked = len(differ), len(hands)
        for i in differ if exact[entry.name] else differ[:HEURISTIC_EXAMPLES]:
            truth_value = _rule(hands[i], truth)
            result.disputes.append(Dispute(hand_text(hands[i]), entry.name, theirs[i], mine[i], truth_value))


def _naive_entry(result: ClassResult, mine: list[int], naive_hands: int, truth: dict[Hand, int]) -> Entry:
    """Time the naive search on the first hands; check ginref there and on every hand it ruled on."""
    hands = result.hand_class.hands
    subset = hands[:naive_hands]
    naive = _naive(result.hand_class.size)
    with gc_disabled():
        start = time.perf_counter()
        values = [naive(hand) for hand in subset]
        elapsed = time.perf_counter() - start
    truth.update(zip(subset, values, strict=True))
    position = {hand: i for i, hand in enumerate(hands)}
    wrong = [hand for hand, value in truth.items() if mine[position[hand]] != value]
    for hand in wrong:
        result.disputes.append(
            Dispute(hand_text(hand), "naive", truth[hand], mine[position[hand]], truth[hand])
        )
    return Entry("naive", True, len(subset), 1, [elapsed], False, len(wrong), len(truth))


def bench_class(
    hand_class: HandClass, rounds: int, min_seconds: float, naive_hands: int, with_peers: bool
) -> ClassResult:
    """Time ginref and the peers on one class, interleaved; then check the answers."""
    contestants, exact = _timed_contestants(hand_class, with_peers)
    answers = {c.name: c.answers() for c in contestants}
    interleaved(contestants, rounds, min_seconds)
    result = ClassResult(hand_class)
    result.entries = [Entry(c.name, exact[c.name], len(c.args), c.passes, c.seconds) for c in contestants]
    truth: dict[Hand, int] = {}
    _compare(result, answers, exact, truth)
    result.entries.append(_naive_entry(result, answers[GINREF], naive_hands, truth))
    return result


def bench_all(
    classes: Sequence[HandClass],
    rounds: int,
    min_seconds: float,
    naive_hands: int,
    with_peers: bool,
    progress: Callable[[str], None] = lambda _: None,
) -> list[ClassResult]:
    results = []
    for hand_class in classes:
        progress(f"least deadwood: {hand_class.name} ({len(hand_class.hands)} hands)")
        results.append(bench_class(hand_class, rounds, min_seconds, naive_hands, with_peers))
    return results


def to_dict(result: ClassResult) -> dict[str, Any]:
    """The JSON form: rates in hands/s (median round), ``ginref_ratio`` as in ``ginref_ratio()``."""
    hand_class = result.hand_class
    naive = result.entry("naive")
    return {
        "name": hand_class.name,
        "size": hand_class.size,
        "description": hand_class.description,
        "hands": len(hand_class.hands),
        "naive_checked": naive.checked if naive else 0,
        "naive_disagreements": result.naive_disagreements,
        "contestants": [
            {
                "name": e.name,
                "exact": e.exact,
                "rate": e.rate,
                "ginref_ratio": result.ginref_ratio(e),
                "passes_per_round": e.passes,
                "round_seconds": e.seconds,
                "disagreements": e.disagreements,
                "checked": e.checked,
            }
            for e in result.entries
        ],
        "disputes": [dataclasses.asdict(d) for d in result.disputes],
    }
