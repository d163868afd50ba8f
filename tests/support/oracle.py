"""Brute-force oracle: every partition of a hand into melds, nothing clever.

Independent of ginref.melds on purpose: its own notion of a run, its own
enumeration, its own canonical form. The engine must agree with it exactly.
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import NamedTuple


class OracleSystem(NamedTuple):
    ace_high: bool = False
    wraparound: bool = False
    ace_points: int = 1


STANDARD = OracleSystem()


def points(card: int, system: OracleSystem = STANDARD) -> int:
    rank = card % 13
    return system.ace_points if rank == 0 else min(rank + 1, 10)


def is_run(cards: tuple[int, ...], system: OracleSystem = STANDARD) -> bool:
    """Three or more cards of one suit in sequence, checked by walking ranks."""
    if len(cards) < 3 or len({c // 13 for c in cards}) != 1:
        return False
    ranks = sorted(c % 13 for c in cards)
    if len(set(ranks)) != len(ranks):
        return False
    if all(b - a == 1 for a, b in pairwise(ranks)):
        return True
    if system.ace_high and ranks[0] == 0:
        high = sorted(r if r else 13 for r in ranks)
        if all(b - a == 1 for a, b in pairwise(high)):
            return True
    if system.wraparound:
        rank_set = set(ranks)
        for start in range(13):
            if {(start + i) % 13 for i in range(len(ranks))} == rank_set:
                return True
    return False


def is_set(cards: tuple[int, ...]) -> bool:
    return 3 <= len(cards) <= 4 and len({c % 13 for c in cards}) == 1


def all_melds(hand: list[int], system: OracleSystem = STANDARD) -> list[frozenset[int]]:
    melds = []
    for size in range(3, len(hand) + 1):
        for combo in combinations(sorted(hand), size):
            if is_set(combo) or is_run(combo, system):
                melds.append(frozenset(combo))
    return melds


def partitions(hand: list[int], system: OracleSystem = STANDARD) -> list[tuple[frozenset[int], ...]]:
    """Every collection of pairwise disjoint melds from ``hand`` (the empty one included)."""
    melds = all_melds(hand, system)
    result: list[tuple[frozenset[int], ...]] = []

    def walk(start: int, used: frozenset[int], chosen: tuple[frozenset[int], ...]) -> None:
        result.append(chosen)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], (*chosen, melds[i]))

    walk(0, frozenset(), ())
    return result


def deadwood_of(hand: list[int], chosen: tuple[frozenset[int], ...], system: OracleSystem) -> int:
    melded = frozenset().union(*chosen)
    return sum(points(c, system) for c in hand if c not in melded)


def min_deadwood(hand: list[int], system: OracleSystem = STANDARD) -> int:
    return min(deadwood_of(hand, p, system) for p in partitions(hand, system))


def canonical(chosen: tuple[frozenset[int], ...], system: OracleSystem) -> frozenset[frozenset[int]]:
    """Merge runs whose union is one run: [3H 4H 5H] [6H 7H 8H] is [3H..8H]."""
    melds = [set(m) for m in chosen]
    merged = True
    while merged:
        merged = False
        for i, j in combinations(range(len(melds)), 2):
            union = tuple(sorted(melds[i] | melds[j]))
            if not is_set(tuple(melds[i])) and not is_set(tuple(melds[j])) and is_run(union, system):
                melds[i] |= melds.pop(j)
                merged = True
                break
    return frozenset(frozenset(m) for m in melds)


def optimal_partitions(hand: list[int], system: OracleSystem = STANDARD) -> set[frozenset[frozenset[int]]]:
    every = partitions(hand, system)
    best = min(deadwood_of(hand, p, system) for p in every)
    return {canonical(p, system) for p in every if deadwood_of(hand, p, system) == best}
