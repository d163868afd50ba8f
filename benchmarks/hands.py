"""Seeded hand classes for the least-deadwood benchmark.

Cards are ginref card ints (``suit * 13 + rank``, suits C D H S). Every class
draws from its own ``random.Random`` seeded with the run's seed and the class
name, so a class holds the same hands whatever else the run measures.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from peers import hand_text, naive_min_deadwood

Hand = tuple[int, ...]
DECK: Hand = tuple(range(52))
KNOCK_LIMIT = 10


@dataclass(frozen=True)
class HandClass:
    """A named, seeded batch of hands of one size."""

    name: str
    size: int
    description: str
    hands: tuple[Hand, ...]


def _rng(seed: int, name: str) -> random.Random:
    # str seeds hash with SHA-512: stable across runs and PYTHONHASHSEED
    return random.Random(f"ginref-bench:{seed}:{name}")


def random_hands(count: int, size: int, rng: random.Random) -> list[Hand]:
    """Hands dealt from a full shuffled deck."""
    return [tuple(rng.sample(DECK, size)) for _ in range(count)]


def dense_hands(count: int, size: int, ranks: int, rng: random.Random) -> list[Hand]:
    """Hands dealt from the ``4 * ranks`` cards of ``ranks`` adjacent ranks (window placed at random)."""
    hands = []
    for _ in range(count):
        low = rng.randrange(14 - ranks)
        pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + ranks)]
        hands.append(tuple(rng.sample(pool, size)))
    return hands


def _meld_pool() -> list[frozenset[int]]:
    """Runs of 3 to 5 cards and sets of 3 or 4: the building blocks of a knockable hand."""
    melds = [
        frozenset(suit * 13 + rank for rank in range(low, low + length))
        for suit in range(4)
        for length in (3, 4, 5)
        for low in range(14 - length)
    ]
    for rank in range(13):
        four = frozenset(suit * 13 + rank for suit in range(4))
        melds.append(four)
        melds.extend(four - {card} for card in four)
    return melds


_MELDS = _meld_pool()


def _candidate(rng: random.Random) -> Hand:
    """A few disjoint melds (6 to 8 cards, or just over) topped up with random cards."""
    held: set[int] = set()
    target = rng.choice((6, 7, 8))
    while len(held) < target:
        meld = rng.choice(_MELDS)
        if meld & held or len(held) + len(meld) > 10:
            if len(held) + 3 > 10:
                break
            continue
        held |= meld
    rest = [card for card in DECK if card not in held]
    hand = [*held, *rng.sample(rest, 10 - len(held))]
    rng.shuffle(hand)
    return tuple(hand)


def knockable_hands(count: int, rng: random.Random, oracle: Callable[[Sequence[int]], int]) -> list[Hand]:
    """10-card hands of least deadwood 0..10, as many of each value (``oracle`` decides).

    Few random deals can knock (about 1 in 1,500), so candidates are built from
    melds and accepted while their deadwood value's quota is open.
    """
    quota = [count // (KNOCK_LIMIT + 1) + (value < count % (KNOCK_LIMIT + 1)) for value in range(11)]
    hands: list[Hand] = []
    while len(hands) < count:
        hand = _candidate(rng)
        deadwood = oracle(hand)
        if deadwood <= KNOCK_LIMIT and quota[deadwood]:
            quota[deadwood] -= 1
            hands.append(hand)
    return hands


def hand_classes(count: int, seed: int) -> list[HandClass]:
    """The benchmark's hand classes, ``count`` hands each."""
    deal = functools.partial
    specs: list[tuple[str, int, str, Callable[[random.Random], list[Hand]]]] = [
        ("random-10", 10, "10 cards from a full deck", deal(random_hands, count, 10)),
        ("random-11", 11, "11 cards from a full deck, best discard", deal(random_hands, count, 11)),
        (
            "knockable-10",
            10,
            "10 cards, least deadwood 0..10 in equal shares",
            deal(knockable_hands, count, oracle=naive_min_deadwood),
        ),
    ]
    for ranks in (5, 4):
        for size in (10, 11):
            text = f"{size} of the {4 * ranks} cards of {ranks} adjacent ranks"
            specs.append((f"dense{ranks}-{size}", size, text, deal(dense_hands, count, size, ranks)))
    return [HandClass(name, size, text, tuple(make(_rng(seed, name)))) for name, size, text, make in specs]


def analyze_hands(count: int, seed: int) -> list[Hand]:
    """Random 10-card hands for ``ginref analyze -``."""
    return random_hands(count, 10, _rng(seed, "analyze"))


def hand_lines(hands: Sequence[Hand]) -> str:
    """Hands as text, one per line: the input of ``ginref analyze -``."""
    return "".join(hand_text(hand) + "\n" for hand in hands)
