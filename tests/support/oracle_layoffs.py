"""Brute-force oracle for the defender's best response to a knock.

Independent of ``ginref.layoffs`` (and of ``ginref.melds``) on purpose. Cards
are plain ints (``suit * 13 + rank``, clubs/diamonds/hearts/spades, ace = 0),
melds plain tuples of ints. Nothing is clever:

* for every knocker meld, every subset of the defender's cards is tried as
  the cards laid off onto it, and kept when it is layable:

  - a set of three takes exactly its fourth card; a set of four takes nothing;
  - a run takes cards when the run plus the cards is one run of one suit
    (``tests.support.oracle.is_run``: ace low only, unless the system says ace high or
    round the corner); the cards are then layable one at a time from the
    run's ends outwards (chaining);
  - with chaining off, each card must extend the *declared* run by itself
    (directly adjacent to one of its two ends);
  - with a ``chain_limit`` N, each card must join the declared run through at
    most N of the cards (itself included): some N or fewer of them, with it,
    make one run with the declared run;

* every combination of one layable subset per meld, pairwise disjoint, is a
  candidate response; its value is the least deadwood of the cards left
  (``tests.support.oracle.min_deadwood``, a brute force over every meld partition);

* the answer is the least value. ``mode="meld_first"`` instead fixes the
  defender's own spread to one of its least-deadwood partitions and lays off
  only that partition's deadwood (the literal "spread, then lay off leftover
  cards" reading).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product

from tests.support import oracle
from tests.support.oracle import STANDARD, OracleSystem, is_run, is_set

Cards = tuple[int, ...]


def layable(
    meld: Sequence[int], cards: Sequence[int], system: OracleSystem = STANDARD, *, chaining: bool = True,
    chain_limit: int | None = None,
) -> bool:
    """Can ``cards`` (all together) be laid off onto the declared ``meld``?"""
    meld = tuple(sorted(meld))
    cards = tuple(sorted(cards))
    if not cards:
        return True
    if set(meld) & set(cards):
        return False
    if is_set(meld):
        return len(meld) == 3 and len(cards) == 1 and cards[0] % 13 == meld[0] % 13
    if not is_run(meld, system):
        raise ValueError(f"not a meld: {meld}")
    if not is_run(tuple(sorted(meld + cards)), system):
        return False
    if not chaining:
        return all(is_run(tuple(sorted((*meld, c))), system) for c in cards)
    if chain_limit is None:
        return True
    return all(_within(meld, cards, c, chain_limit, system) for c in cards)


def _within(meld: Cards, cards: Cards, card: int, limit: int, system: OracleSystem) -> bool:
    """Some ``limit`` or fewer of ``cards``, ``card`` among them, make one run with ``meld``."""
    others = [c for c in cards if c != card]
    return any(
        is_run(tuple(sorted((*meld, card, *combo))), system)
        for size in range(min(limit, len(cards)))
        for combo in combinations(others, size)
    )


def layable_subsets(
    meld: Sequence[int], defender: Sequence[int], system: OracleSystem = STANDARD, *, chaining: bool = True,
    chain_limit: int | None = None,
) -> list[Cards]:
    """Every subset of ``defender`` layable onto ``meld``, the empty one first.

    Only cards that could possibly join are tried: the meld's rank for a set,
    its suit for a run (any other card fails ``layable`` anyway).
    """
    meld = tuple(sorted(meld))
    if is_set(meld):
        pool = sorted(c for c in defender if c % 13 == meld[0] % 13)
    else:
        pool = sorted(c for c in defender if c // 13 == meld[0] // 13)
    found: list[Cards] = []
    for size in range(len(pool) + 1):
        for combo in combinations(pool, size):
            if layable(meld, combo, system, chaining=chaining, chain_limit=chain_limit):
                found.append(combo)
    return found


def responses(
    knocker_melds: Sequence[Sequence[int]],
    defender: Sequence[int],
    system: OracleSystem = STANDARD,
    *,
    chaining: bool = True,
    chain_limit: int | None = None,
) -> Iterator[tuple[Cards, ...]]:
    """Every way to lay off: one layable subset per knocker meld, pairwise disjoint."""
    per_meld = [layable_subsets(m, defender, system, chaining=chaining, chain_limit=chain_limit)
                for m in knocker_melds]
    for choice in product(*per_meld):
        used: set[int] = set()
        ok = True
        for cards in choice:
            if used & set(cards):
                ok = False
                break
            used |= set(cards)
        if ok:
            yield choice


@lru_cache(maxsize=200_000)
def _min_deadwood(cards: frozenset[int], system: OracleSystem) -> int:
    return oracle.min_deadwood(sorted(cards), system)


def least_deadwood(cards: Sequence[int], system: OracleSystem = STANDARD) -> int:
    return _min_deadwood(frozenset(cards), system)


def points_of(cards: Sequence[int], system: OracleSystem = STANDARD) -> int:
    return sum(oracle.points(c, system) for c in cards)


def best_defence_deadwood(
    knocker_melds: Sequence[Sequence[int]],
    defender: Sequence[int],
    system: OracleSystem = STANDARD,
    *,
    chaining: bool = True,
    chain_limit: int | None = None,
    mode: str = "joint",
    layoffs: bool = True,
) -> int:
    """The least deadwood the defender can reach against the declared ``knocker_melds``."""
    hand = frozenset(defender)
    if not layoffs or not knocker_melds:
        return least_deadwood(tuple(hand), system)
    if mode == "joint":
        best = None
        every = responses(knocker_melds, tuple(hand), system, chaining=chaining, chain_limit=chain_limit)
        for choice in every:
            laid = set().union(*choice) if choice else set()
            value = least_deadwood(tuple(hand - laid), system)
            if best is None or value < best:
                best = value
        assert best is not None
        return best
    if mode != "meld_first":
        raise ValueError(mode)
    best = None
    for deadwood in optimal_deadwoods(tuple(sorted(hand)), system):
        for choice in responses(knocker_melds, deadwood, system, chaining=chaining, chain_limit=chain_limit):
            laid = set().union(*choice) if choice else set()
            value = points_of(tuple(set(deadwood) - laid), system)
            if best is None or value < best:
                best = value
    assert best is not None
    return best


def optimal_deadwoods(hand: Cards, system: OracleSystem = STANDARD) -> set[Cards]:
    """The deadwood left by each least-deadwood partition of ``hand``."""
    every = oracle.partitions(list(hand), system)
    values = [oracle.deadwood_of(list(hand), p, system) for p in every]
    least = min(values)
    found: set[Cards] = set()
    for p, value in zip(every, values, strict=True):
        if value == least:
            melded = frozenset().union(*p)
            found.add(tuple(c for c in hand if c not in melded))
    return found


__all__ = [
    "best_defence_deadwood",
    "layable",
    "layable_subsets",
    "least_deadwood",
    "optimal_deadwoods",
    "points_of",
    "responses",
]
