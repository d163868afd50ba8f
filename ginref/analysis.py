"""Hand analysis: best arrangement, knock and gin checks, and discard options.

A 10-card hand is what a player shows after discarding; an 11-card hand is
what they hold after the draw, so every discard is weighed.
"""

from __future__ import annotations

from functools import cached_property
from typing import TypeAlias

import msgspec

from ginref.cards import Card, Mask, card_name, mask_names, scan
from ginref.errors import HandSizeError
from ginref.melds import (
    Arrangement,
    Hand,
    MeldSystem,
    as_mask,
    best_arrangement,
    best_discard,
    min_deadwood,
    optimal_arrangements,
)
from ginref.notation import card_or_none
from ginref.rules import STANDARD, Rules


class DiscardOption(msgspec.Struct, frozen=True):
    """What the hand is worth after discarding ``discard``."""

    discard: Card
    arrangement: Arrangement
    can_knock: bool
    gin: bool
    legal: bool = True
    """False for the upcard just taken, where the same-card discard rule forbids it"""

    def to_dict(self) -> dict[str, object]:
        return {
            "discard": card_name(self.discard),
            **arrangement_dict(self.arrangement),
            "can_knock": self.can_knock,
            "gin": self.gin,
            "legal": self.legal,
        }


class HandAnalysis(msgspec.Struct, frozen=True, dict=True):  # dict: ``discards`` is a cached_property
    """The referee's reading of one hand under one rule set."""

    cards: Mask
    rules: Rules
    knock_limit: int
    arrangement: Arrangement
    """best arrangement (for 11 cards: of the 10 left after ``best_discard``)"""
    can_knock: bool
    gin: bool
    arrangements: tuple[Arrangement, ...] = ()
    """every optimal arrangement, when asked for (``all_arrangements=True``)"""
    upcard: Card | None = None
    best_discard: Card | None = None
    big_gin: bool = False
    notes: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.cards.bit_count()

    @cached_property
    def discards(self) -> tuple[DiscardOption, ...]:
        """What each discard of an 11-card hand leaves, in card order (none for 10): built when first read."""
        if self.size != 11:
            return ()
        return discard_options(self.cards, self.rules, self.knock_limit, self.upcard)

    def __repr__(self) -> str:
        """The call that gives this reading back: ``analyze('3C 4C ...', find_rules('standard'))``."""
        upcard = "" if self.upcard is None else f", upcard=parse_card({card_name(self.upcard)!r})"
        every = ", all_arrangements=True" if self.arrangements else ""
        return f"analyze({' '.join(mask_names(self.cards))!r}, {self.rules!r}{upcard}{every})"

    def to_dict(self) -> dict[str, object]:
        result: dict[str, object] = {
            "cards": mask_names(self.cards),
            **arrangement_dict(self.arrangement),
            "can_knock": self.can_knock,
            "gin": self.gin,
            "knock_limit": self.knock_limit,
        }
        if self.size == 11:
            result["best_discard"] = card_name(self.best_discard) if self.best_discard is not None else None
            result["big_gin"] = self.big_gin
            result["discards"] = [option.to_dict() for option in self.discards]
        if self.arrangements:
            result["arrangements"] = [arrangement_dict(a) for a in self.arrangements]
        result["upcard"] = card_name(self.upcard) if self.upcard is not None else None
        result["notes"] = list(self.notes)
        result["rules"] = self.rules.label
        return result


def arrangement_dict(arrangement: Arrangement) -> dict[str, object]:
    return {
        "melds": [meld.names() for meld in arrangement.melds],
        "deadwood": mask_names(arrangement.deadwood),
        "deadwood_points": arrangement.deadwood_points,
    }


def knock_limit(rules: Rules, upcard: Card | None) -> tuple[int, tuple[str, ...]]:
    """The knock limit for this deal, with a note when Oklahoma lacks its upcard."""
    if rules.oklahoma != "off" and upcard is None:
        return rules.knock_limit, (
            f"oklahoma rules but no upcard given: knock limit {rules.knock_limit} assumed",
        )
    return rules.knock_limit_for(upcard), ()


def analyze(
    hand: Hand,
    rules: Rules = STANDARD,
    *,
    upcard: Card | str | None = None,
    all_arrangements: bool = False,
) -> HandAnalysis:
    """Analyze a 10-card hand, or an 11-card hand after the draw.

    The best arrangement costs about one :func:`~ginref.melds.min_deadwood` (eleven for
    11 cards, to find the discard); every optimal arrangement is found only when asked,
    and each discard's arrangement only when ``discards`` is read.

    ``hand`` is anything :func:`~ginref.notation.hand_mask` takes; ``rules`` the rule set
    (its knock limit, aces, big gin); ``upcard`` the first upcard (0 to 51 or card text),
    which sets the Oklahoma knock limit; ``all_arrangements`` also lists every optimal
    arrangement. Returns a :class:`HandAnalysis`. Raises :class:`~ginref.errors.NotationError`
    for bad cards (or an upcard that is not a card) and :class:`~ginref.errors.HandSizeError`
    for a hand of another size.
    """
    cards = as_mask(hand)
    size = cards.bit_count()
    if size != 10 and size != 11:
        raise HandSizeError(f"expected 10 or 11 cards, got {size}")
    first_upcard = None if upcard is None else card_or_none(upcard, "upcard")
    recent = _reading(rules)
    system = recent[1]
    limit, notes = recent[2] if first_upcard is None else knock_limit(rules, first_upcard)
    kept, discard, big_gin = cards, None, False
    if size == 11:
        forbidden = _forbidden_discard(cards, rules, first_upcard)
        if forbidden is not None:
            notes = (*notes, f"the upcard {card_name(forbidden)} was taken, so it may not be discarded")
        discard = _best_discard(cards, system, forbidden)
        kept = cards & ~(1 << discard)
    best = best_arrangement(kept, system)
    points = best.deadwood_points
    # Big gin always leaves gin: a meld of four or more cards has two that can go (one not the upcard).
    if discard is not None and points == 0 and rules.big_gin_bonus is not None:
        big_gin = min_deadwood(cards, system) == 0
    every = tuple(optimal_arrangements(kept, system)) if all_arrangements else ()
    return HandAnalysis(
        cards, rules, limit, best, points <= limit, points == 0, every, first_upcard, discard, big_gin, notes
    )


_Reading: TypeAlias = tuple[Rules, MeldSystem, tuple[int, tuple[str, ...]]]
"""A rule set, its meld system, and its knock limit (with notes) when no upcard is known."""


def _reading(rules: Rules) -> _Reading:
    """The reading of ``rules``: the last one kept, found by identity, else made and kept."""
    global _recent_reading
    recent = _recent_reading
    if recent[0] is not rules:
        recent = _recent_reading = (rules, MeldSystem.from_rules(rules), knock_limit(rules, None))
    return recent


_recent_reading: _Reading = (STANDARD, MeldSystem.from_rules(STANDARD), knock_limit(STANDARD, None))
"""The last rule set analyzed, found by identity: a rule set's hash costs more than its reading."""


def system_for(rules: Rules) -> MeldSystem:
    """``MeldSystem.from_rules``, kept for the last rule set asked (found by identity)."""
    return _reading(rules)[1]


def _forbidden_discard(cards: Mask, rules: Rules, upcard: Card | None) -> Card | None:
    """The upcard, when it was taken into an 11-card hand and the same-card rule forbids its discard."""
    if upcard is None or cards.bit_count() != 11 or not cards >> upcard & 1:
        return None
    banned = rules.banned_discard(upcard)
    return None if banned < 0 else banned


def _best_discard(cards: Mask, system: MeldSystem, forbidden: Card | None) -> Card:
    """The lowest legal discard that leaves the least deadwood."""
    if forbidden is None:
        return best_discard(cards, system)
    legal = (c for c in scan(cards) if c != forbidden)
    return min(legal, key=lambda c: (min_deadwood(cards & ~(1 << c), system), c))


def discard_options(cards: Mask, rules: Rules, limit: int, upcard: Card | None) -> tuple[DiscardOption, ...]:
    """Every discard of an 11-card hand with the best arrangement of the ten it leaves."""
    system = system_for(rules)
    forbidden = _forbidden_discard(cards, rules, upcard)
    options = []
    for discard in scan(cards):
        arrangement = best_arrangement(cards & ~(1 << discard), system)
        points = arrangement.deadwood_points
        legal = discard != forbidden
        options.append(
            DiscardOption(discard, arrangement, legal and points <= limit, legal and points == 0, legal)
        )
    return tuple(options)
