"""Hand analysis: best arrangement, knock and gin checks, and discard options.

A 10-card hand is what a player shows after discarding; an 11-card hand is
what they hold after the draw, so every discard is weighed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginref.cards import Card, Mask, card_name, mask_names, scan
from ginref.errors import HandSizeError
from ginref.melds import Arrangement, Hand, MeldSystem, min_deadwood, optimal_arrangements
from ginref.notation import hand_mask
from ginref.rules import STANDARD, Rules


@dataclass(frozen=True, slots=True)
class DiscardOption:
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


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The referee's reading of one hand under one rule set."""

    cards: Mask
    rules: Rules
    knock_limit: int
    arrangement: Arrangement
    """best arrangement (for 11 cards: of the 10 left after ``best_discard``)"""
    can_knock: bool
    gin: bool
    arrangements: tuple[Arrangement, ...] = ()
    """every optimal arrangement, when asked for"""
    upcard: Card | None = None
    best_discard: Card | None = None
    big_gin: bool = False
    discards: tuple[DiscardOption, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return bin(self.cards).count("1")

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
    upcard: Card | None = None,
    all_arrangements: bool = False,
) -> HandAnalysis:
    """Analyze a 10-card hand, or an 11-card hand after the draw.

    ``hand`` is anything :func:`~ginref.notation.hand_mask` takes; ``rules`` the rule set
    (its knock limit, aces, big gin); ``upcard`` the first upcard, which sets the Oklahoma
    knock limit; ``all_arrangements`` also lists every optimal arrangement. Returns a
    :class:`HandAnalysis`. Raises :class:`~ginref.errors.NotationError` for bad cards and
    :class:`~ginref.errors.HandSizeError` for a hand of another size.
    """
    cards = hand_mask(hand)
    size = cards.bit_count()
    if size not in (10, 11):
        raise HandSizeError(f"expected 10 or 11 cards, got {size}")
    system = MeldSystem.from_rules(rules)
    limit, notes = knock_limit(rules, upcard)
    if size == 10:
        every = optimal_arrangements(cards, system)
        best = every[0]
        return HandAnalysis(
            cards=cards,
            rules=rules,
            knock_limit=limit,
            arrangement=best,
            can_knock=best.deadwood_points <= limit,
            gin=best.deadwood_points == 0,
            arrangements=tuple(every) if all_arrangements else (),
            upcard=upcard,
            notes=notes,
        )
    return _analyze_draw(cards, rules, system, limit, notes, upcard, all_arrangements)


def _analyze_draw(
    cards: Mask,
    rules: Rules,
    system: MeldSystem,
    limit: int,
    notes: tuple[str, ...],
    upcard: Card | None,
    all_arrangements: bool,
) -> HandAnalysis:
    taken_upcard = upcard is not None and bool(cards >> upcard & 1) and rules.no_same_card_discard
    if taken_upcard:
        assert upcard is not None
        notes = (*notes, f"the upcard {card_name(upcard)} was taken, so it may not be discarded")
    options = []
    for discard in scan(cards):
        arrangement = optimal_arrangements(cards & ~(1 << discard), system)[0]
        points = arrangement.deadwood_points
        legal = not (taken_upcard and discard == upcard)
        options.append(
            DiscardOption(discard, arrangement, legal and points <= limit, legal and points == 0, legal)
        )
    legal_options = [o for o in options if o.legal]
    chosen = min(legal_options, key=lambda o: (o.arrangement.deadwood_points, o.discard))
    big_gin = rules.big_gin_bonus is not None and min_deadwood(cards, system) == 0
    every: tuple[Arrangement, ...] = ()
    if all_arrangements:
        every = tuple(optimal_arrangements(cards & ~(1 << chosen.discard), system))
    return HandAnalysis(
        cards=cards,
        rules=rules,
        knock_limit=limit,
        arrangement=chosen.arrangement,
        can_knock=chosen.can_knock,
        gin=chosen.gin,
        arrangements=every,
        upcard=upcard,
        best_discard=chosen.discard,
        big_gin=big_gin,
        discards=tuple(options),
        notes=notes,
    )
