"""Brute-force oracle for ``ginref advise``: every defender hand, every declaration, every response.

Independent of ``ginref.advice``, ``ginref.layoffs`` and ``ginref.scoring``: the
knocker's declarations are every collection of disjoint melds
(``tests.support.oracle.partitions``) within the knock limit; the defender's responses
are every disjoint choice of layable cards (``tests.support.oracle_layoffs.responses``);
the settlement is the arithmetic written out again below. The only engine code
used is the meld primitive ``ginref.melds.min_deadwood`` (itself checked against
``tests.support.oracle`` by brute force), for the deadwood of the cards a response leaves.

Every figure is an exact :class:`~fractions.Fraction` over the defender hands.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ginref.melds import MeldSystem, min_deadwood
from ginref.rules import Rules
from tests.support import oracle
from tests.support.oracle import OracleSystem
from tests.support.oracle_layoffs import responses

Cards = tuple[int, ...]


@dataclass(frozen=True)
class Figures:
    """How one declaration fares: the knocker's chances and expected signed points."""

    p_win: Fraction
    p_undercut: Fraction
    p_tie: Fraction
    expected: Fraction
    deadwood: int
    ending: str

    def key(self) -> tuple[Fraction, Fraction, Fraction, int]:
        """Larger is better: expected points, then wins, then fewer undercuts, less deadwood."""
        return (self.expected, self.p_win, -self.p_undercut, -self.deadwood)


def systems(rules: Rules) -> tuple[OracleSystem, MeldSystem]:
    ace_high = rules.ace == "high_or_low"
    return (
        OracleSystem(ace_high, rules.wraparound, rules.unmatched_ace_value),
        MeldSystem(ace_high, rules.wraparound, rules.unmatched_ace_value),
    )


def knock_limit(rules: Rules, upcard: int | None) -> int:
    if rules.oklahoma == "off" or upcard is None:
        return rules.knock_limit
    if upcard % 13 == 0:
        return 0 if rules.oklahoma == "gin_only" else min(1, rules.knock_limit)
    return min(min(upcard % 13 + 1, 10), rules.knock_limit)


def signed_points(rules: Rules, ending: str, knocker: int, defender: int, multiplier: int) -> tuple[str, int]:
    """``("win" | "undercut" | "tie", points to the knocker, negative when it loses)``."""
    if ending == "big_gin":
        return "win", (defender + (rules.big_gin_bonus or 0)) * multiplier
    if ending == "gin":
        if rules.layoff_on_gin and defender == 0:
            return "tie", 0
        return "win", (defender + rules.gin_bonus) * multiplier
    if knocker < defender:
        return "win", (defender - knocker) * multiplier
    if knocker == defender and rules.tie_policy == "no_score":
        return "tie", 0
    if knocker == defender and rules.tie_policy == "knocker":
        return "win", 0
    return "undercut", -(knocker - defender + rules.undercut_bonus) * multiplier


def defender_hands(pool: Sequence[int], known: Sequence[int]) -> Iterator[Cards]:
    for combo in combinations(sorted(pool), 10 - len(known)):
        yield tuple(sorted((*known, *combo)))


def defence_deadwood(
    defender: Cards, melds: Sequence[Cards], rules: Rules, system: MeldSystem, layoffs: bool
) -> int:
    """The least deadwood over every response: every disjoint choice of layable cards."""
    if not layoffs or not melds:
        return min_deadwood(list(defender), system)
    osys = OracleSystem(system.ace_high, system.wraparound, system.ace_points)
    best = None
    for choice in responses(melds, defender, osys, chaining=rules.layoff_chaining):
        laid = {c for cards in choice for c in cards}
        value = min_deadwood([c for c in defender if c not in laid], system)
        best = value if best is None else min(best, value)
    assert best is not None
    return best


def figures(
    melds: Sequence[Cards],
    deadwood: int,
    ending: str,
    hands: Sequence[Cards],
    rules: Rules,
    multiplier: int,
) -> Figures:
    """Exact figures of one declaration against every hand in ``hands``."""
    _, system = systems(rules)
    layoffs = {"knock": True, "gin": rules.layoff_on_gin, "big_gin": rules.layoff_on_big_gin}[ending]
    counts = {"win": 0, "undercut": 0, "tie": 0}
    total = 0
    for defender in hands:
        left = defence_deadwood(defender, melds, rules, system, layoffs)
        outcome, points = signed_points(rules, ending, deadwood, left, multiplier)
        counts[outcome] += 1
        total += points
    n = len(hands)
    return Figures(
        Fraction(counts["win"], n), Fraction(counts["undercut"], n), Fraction(counts["tie"], n),
        Fraction(total, n), deadwood, ending,
    )


def declarations(hand: Cards, rules: Rules, limit: int) -> Iterator[tuple[tuple[Cards, ...], int]]:
    """Every legal declaration of ten cards: disjoint melds, deadwood within the limit."""
    osys, _ = systems(rules)
    every = oracle.partitions(list(hand), osys)
    least = min(oracle.deadwood_of(list(hand), p, osys) for p in every)
    for chosen in every:
        deadwood = oracle.deadwood_of(list(hand), chosen, osys)
        if deadwood <= limit and (deadwood == least or not rules.knocker_must_meld_max):
            yield tuple(tuple(sorted(m)) for m in chosen), deadwood


def advise(
    hand: Cards,
    pool: Sequence[int],
    known: Sequence[int],
    rules: Rules,
    *,
    upcard: int | None = None,
    taken: int | None = None,
) -> dict[int | None, Figures]:
    """The best declaration's figures for each legal knock, by discard (None: 10 cards or big gin)."""
    limit = knock_limit(rules, upcard)
    multiplier = 2 if rules.spade_double and upcard is not None and upcard // 13 == 3 else 1
    hands = list(defender_hands(pool, known))
    osys, _ = systems(rules)
    options: list[tuple[int | None, Cards]] = [(None, hand)] if len(hand) == 10 else []
    if len(hand) == 11:
        options = [(c, tuple(x for x in hand if x != c)) for c in hand
                   if c != taken or not rules.no_same_card_discard]
    best: dict[int | None, Figures] = {}
    if len(hand) == 11 and rules.big_gin_bonus is not None and oracle.min_deadwood(list(hand), osys) == 0:
        every = oracle.partitions(list(hand), osys)
        spread = next(p for p in every if not oracle.deadwood_of(list(hand), p, osys))
        best[None] = figures(tuple(tuple(sorted(m)) for m in spread), 0, "big_gin", hands, rules, multiplier)
    for discard, ten in options:
        for melds, deadwood in declarations(ten, rules, limit):
            found = figures(melds, deadwood, "gin" if deadwood == 0 else "knock", hands, rules, multiplier)
            if discard not in best or found.key() > best[discard].key():
                best[discard] = found
    return best
