"""Adapters to the least-deadwood searches of two peer libraries, for benchmarks.

The peers are optional and imported lazily, so a benchmark that uses this module
runs (and reports them as missing) when they are not installed:

* OpenSpiel (PyPI ``open-spiel``, module ``pyspiel``): C++ behind pybind11,
  ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(hand)``.
* RLCard (PyPI ``rlcard``): pure Python, ``rlcard.games.gin_rummy.utils.melding``.

Hands come in as ginref card ints: ``suit * 13 + rank``, suits C D H S = 0..3,
ranks A=0 .. K=12. Each peer numbers cards ``suit * 13 + rank`` with A=0 as well,
only the suit order differs (OpenSpiel ``s c d h``, RLCard ``S H D C``).
``prepare`` converts a hand once, outside any timed loop; the ``*_min_deadwood_*``
functions take the result.

The least deadwood of an 11-card hand (just drawn) is defined here as the minimum,
over each of the 11 discards, of the least deadwood of the 10 cards kept.
OpenSpiel's own 11-card ``min_deadwood`` is a heuristic (best 11-card meld group,
then drop its highest deadwood card) that overstates it on some hands; it is
exposed as ``openspiel_min_deadwood_11_heuristic`` next to the exact form.

``naive_min_deadwood`` is a small exhaustive search used to check the adapters:
``python benchmarks/peers.py`` checks both peers on random hands and times them.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.metadata
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARD_POINTS: tuple[int, ...] = tuple(min(rank + 1, 10) for _ in SUITS for rank in range(13))

# ginref suit index (C D H S) -> peer suit index.
_OPENSPIEL_SUIT = (1, 2, 3, 0)  # OpenSpiel: s c d h
_RLCARD_SUIT = (3, 2, 1, 0)  # RLCard: S H D C

_DISTRIBUTIONS = {"open-spiel": "pyspiel", "rlcard": "rlcard.games.gin_rummy.utils.melding"}


# --------------------------------------------------------------------------- peers


def available_peers() -> dict[str, str | None]:
    """Each peer's installed version, or None where it cannot be imported."""
    return dict(_available_peers())


@functools.cache
def _available_peers() -> tuple[tuple[str, str | None], ...]:
    found: dict[str, str | None] = {}
    for dist, module in _DISTRIBUTIONS.items():
        try:
            importlib.import_module(module)
            found[dist] = importlib.metadata.version(dist)
        except Exception:  # ImportError, or a broken install failing at import
            found[dist] = None
    return tuple(found.items())


@functools.cache
def _openspiel_utils() -> Any:
    import pyspiel  # type: ignore[import-not-found]

    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # num_ranks, num_suits, hand_size


@functools.cache
def _rlcard() -> tuple[Any, Any]:
    from rlcard.games.gin_rummy.utils import (  # type: ignore[import-not-found]
        melding,
        utils,
    )

    return melding, utils


def openspiel_card(card: int) -> int:
    return _OPENSPIEL_SUIT[card // 13] * 13 + card % 13


def rlcard_card_id(card: int) -> int:
    return _RLCARD_SUIT[card // 13] * 13 + card % 13


@dataclass(frozen=True)
class Prepared:
    """One hand in each available peer's own form."""

    cards: tuple[int, ...]
    openspiel: list[int] | None  # OpenSpiel card ints
    rlcard: list[Any] | None  # rlcard.games.base.Card objects


def prepare(cards: Sequence[int], peers: Sequence[str] | None = None) -> Prepared:
    """Build the peer-native hands for ``peers`` ("open-spiel", "rlcard"); default: installed."""
    if len(cards) not in (10, 11):
        raise ValueError(f"the adapters take 10 or 11 cards, got {len(cards)}")
    if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"not a hand of distinct cards: {list(cards)}")
    if peers is None:
        peers = [name for name, version in available_peers().items() if version]
    wanted = set(peers)
    os_hand = [openspiel_card(c) for c in cards] if "open-spiel" in wanted else None
    rl_hand: list[Any] | None = None
    if "rlcard" in wanted:
        _, rl_utils = _rlcard()
        rl_hand = [rl_utils.get_card(rlcard_card_id(c)) for c in cards]
    return Prepared(tuple(cards), os_hand, rl_hand)


def _missing(peer: str) -> ValueError:
    return ValueError(f"hand was not prepared for {peer}")


# The timed functions below do no checking beyond None: ``prepare`` checked the cards,
# and a peer given a hand of the wrong size fails or answers for that size.


def openspiel_min_deadwood_10(prepared: Prepared) -> int:
    """OpenSpiel's exact least deadwood of a 10-card hand."""
    if prepared.openspiel is None:
        raise _missing("open-spiel")
    result: int = _openspiel_utils().min_deadwood(prepared.openspiel)
    return result


def openspiel_min_deadwood_11_heuristic(prepared: Prepared) -> int:
    """OpenSpiel's own 11-card ``min_deadwood``: can overstate the least deadwood."""
    if prepared.openspiel is None:
        raise _missing("open-spiel")
    result: int = _openspiel_utils().min_deadwood(prepared.openspiel)
    return result


def openspiel_min_deadwood_11_exact(prepared: Prepared) -> int:
    """Minimum over the 11 discards of OpenSpiel's 10-card least deadwood."""
    hand = prepared.openspiel
    if hand is None:
        raise _missing("open-spiel")
    min_deadwood = _openspiel_utils().min_deadwood
    result: int = min(min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))
    return result


def _rlcard_10(hand: list[Any]) -> int:
    melding, rl_utils = _rlcard()
    clusters = melding.get_best_meld_clusters(hand)  # raises unless 10 cards
    if not clusters:  # no meld at all: every card is deadwood
        return sum(int(rl_utils.get_deadwood_value(c)) for c in hand)
    return int(rl_utils.get_deadwood_count(hand, clusters[0]))


def rlcard_min_deadwood_10(prepared: Prepared) -> int:
    """RLCard's least deadwood of a 10-card hand (exhaustive over up to 3 melds)."""
    if prepared.rlcard is None:
        raise _missing("rlcard")
    return _rlcard_10(prepared.rlcard)


def rlcard_min_deadwood_11(prepared: Prepared) -> int:
    """Minimum over the 11 discards of RLCard's 10-card least deadwood."""
    hand = prepared.rlcard
    if hand is None:
        raise _missing("rlcard")
    return min(_rlcard_10(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))


# ----------------------------------------------------------- lean forms for timing


@dataclass(frozen=True)
class PeerSearch:
    """A peer's least-deadwood search in its leanest call form, for a timed loop.

    ``convert`` turns ginref cards into the peer's own hand once, outside the
    loop; ``search`` is what the loop calls: the peer's function itself where it
    takes that hand as is, else the smallest wrapper that can.
    """

    name: str
    peer: str
    size: int
    exact: bool
    convert: Callable[[Sequence[int]], Any]
    search: Callable[[Any], int]


def _openspiel_hand(cards: Sequence[int]) -> list[int]:
    return [openspiel_card(c) for c in cards]


def _rlcard_hand(cards: Sequence[int]) -> list[Any]:
    _, rl_utils = _rlcard()
    return [rl_utils.get_card(rlcard_card_id(c)) for c in cards]


def _openspiel_exact_11() -> Callable[[list[int]], int]:
    min_deadwood = _openspiel_utils().min_deadwood

    def exact(hand: list[int]) -> int:
        least: int = min(min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11))
        return least

    return exact


def _rlcard_searches() -> tuple[Callable[[list[Any]], int], Callable[[list[Any]], int]]:
    melding, rl_utils = _rlcard()
    best_clusters = melding.get_best_meld_clusters
    deadwood_count = rl_utils.get_deadwood_count
    card_value = rl_utils.get_deadwood_value

    def ten(hand: list[Any]) -> int:
        clusters = best_clusters(hand)
        if not clusters:
            return sum(int(card_value(c)) for c in hand)
        return int(deadwood_count(hand, clusters[0]))

    def eleven(hand: list[Any]) -> int:
        return min(ten(hand[:i] + hand[i + 1 :]) for i in range(11))

    return ten, eleven


def peer_searches(size: int) -> list[PeerSearch]:
    """The installed peers' searches for ``size``-card hands (10, or 11 with the best discard)."""
    versions = available_peers()
    found: list[PeerSearch] = []
    if versions["open-spiel"]:
        native = _openspiel_utils().min_deadwood
        if size == 10:
            found.append(PeerSearch("open-spiel", "open-spiel", 10, True, _openspiel_hand, native))
        else:
            exact = _openspiel_exact_11()
            found.append(PeerSearch("open-spiel exact", "open-spiel", 11, True, _openspiel_hand, exact))
            found.append(PeerSearch("open-spiel heuristic", "open-spiel", 11, False, _openspiel_hand, native))
    if versions["rlcard"]:
        ten, eleven = _rlcard_searches()
        search = ten if size == 10 else eleven
        found.append(PeerSearch("rlcard", "rlcard", size, True, _rlcard_hand, search))
    return found


# --------------------------------------------------------------- reference search


def _melds(cards: Sequence[int]) -> list[int]:
    """Every meld in ``cards`` as a bit mask: runs of 3+ (ace low, no wrap), sets of 3 or 4."""
    held = 0
    for c in cards:
        held |= 1 << c
    melds: list[int] = []
    for suit in range(4):
        for low in range(13):
            run = 0
            for rank in range(low, 13):
                bit = 1 << (suit * 13 + rank)
                if not held & bit:
                    break
                run |= bit
                if rank - low >= 2:
                    melds.append(run)
    for rank in range(13):
        same = [1 << (suit * 13 + rank) for suit in range(4) if held >> (suit * 13 + rank) & 1]
        if len(same) >= 3:
            melds.append(sum(same))
        if len(same) == 4:
            melds.extend(sum(same) - bit for bit in same)
    return melds


def _mask_points(mask: int) -> int:
    return sum(CARD_POINTS[c] for c in range(52) if mask >> c & 1)


def naive_min_deadwood(cards: Sequence[int]) -> int:
    """Least deadwood with every card kept: DFS over all sets of disjoint melds."""
    melds = [(m, _mask_points(m)) for m in _melds(cards)]

    def best_melded(start: int, used: int) -> int:
        best = 0
        for j in range(start, len(melds)):
            mask, points = melds[j]
            if not mask & used:
                best = max(best, points + best_melded(j + 1, used | mask))
        return best

    return sum(CARD_POINTS[c] for c in cards) - best_melded(0, 0)


def naive_min_deadwood_11(cards: Sequence[int]) -> int:
    """Least deadwood after the best discard from an 11-card hand."""
    if len(cards) != 11:
        raise ValueError(f"takes 11 cards, got {len(cards)}")
    return min(naive_min_deadwood([*cards[:i], *cards[i + 1 :]]) for i in range(11))


# ------------------------------------------------------------- self-check and timing


def parse_hand(text: str) -> list[int]:
    """``"AS 2S TD"`` -> ginref card ints."""
    return [SUITS.index(t[1].upper()) * 13 + RANKS.index(t[0].upper()) for t in text.split()]


def hand_text(cards: Sequence[int]) -> str:
    return " ".join(RANKS[c % 13] + SUITS[c // 13] for c in cards)


def random_hands(count: int, size: int, seed: int, ranks: int = 13) -> list[list[int]]:
    """Random hands; ``ranks`` < 13 deals from A.. only, for meld-dense hands."""
    rng = random.Random(seed)
    deck = [s * 13 + r for s in range(4) for r in range(ranks)]
    return [rng.sample(deck, size) for _ in range(count)]


PrepFn = Callable[[Prepared], int]
HandFn = Callable[[Sequence[int]], int]


def _adapters(versions: dict[str, str | None]) -> dict[int, dict[str, PrepFn]]:
    by_size: dict[int, dict[str, PrepFn]] = {10: {}, 11: {}}
    if versions["open-spiel"]:
        by_size[10]["openspiel_min_deadwood_10"] = openspiel_min_deadwood_10
        by_size[11]["openspiel_min_deadwood_11_heuristic"] = openspiel_min_deadwood_11_heuristic
        by_size[11]["openspiel_min_deadwood_11_exact"] = openspiel_min_deadwood_11_exact
    if versions["rlcard"]:
        by_size[10]["rlcard_min_deadwood_10"] = rlcard_min_deadwood_10
        by_size[11]["rlcard_min_deadwood_11"] = rlcard_min_deadwood_11
    return by_size


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>10,.0f} hands/s" if seconds > 0 else "       inf hands/s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=2000, help="hands per check (2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    versions = available_peers()
    print("peers:", ", ".join(f"{k} {v or 'not installed'}" for k, v in versions.items()))
    adapters = _adapters(versions)
    peers = [p for p, v in versions.items() if v]

    print("\nknown hands (truth = naive search):")
    for text in ("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C", "AS 2S 3S 4S AH AD 2D 3D 4D AC 4C"):
        cards = parse_hand(text)
        prep = prepare(cards, peers)
        answers = "".join(f", {name}={fn(prep)}" for name, fn in adapters[11].items())
        print(f"  {text}: truth={naive_min_deadwood_11(cards)}{answers}")

    bad = 0
    for label, ranks in (("uniform", 13), ("dense A-6", 6)):
        for size in (10, 11):
            hands = random_hands(args.hands, size, args.seed + size, ranks)
            naive: HandFn = naive_min_deadwood if size == 10 else naive_min_deadwood_11
            start = time.perf_counter()
            truth = [naive(h) for h in hands]
            elapsed = time.perf_counter() - start
            print(f"\n{label}, {size} cards, {len(hands)} hands:")
            print(f"  {'naive':<38}{_rate(len(hands), elapsed)}")
            prepared = [prepare(h, peers) for h in hands]
            for name, fn in adapters[size].items():
                start = time.perf_counter()
                got = [fn(p) for p in prepared]
                elapsed = time.perf_counter() - start
                wrong = [i for i, (g, t) in enumerate(zip(got, truth, strict=True)) if g != t]
                print(f"  {name:<38}{_rate(len(hands), elapsed)}   disagreements: {len(wrong)}")
                for i in wrong[:3]:
                    print(f"      {hand_text(hands[i])}: got {got[i]}, truth {truth[i]}")
                if "heuristic" not in name:
                    bad += len(wrong)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
