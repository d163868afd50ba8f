"""OpenSpiel gin_rummy's action vocabulary, written once.

The history decoder (:mod:`ginref.records.openspiel`) and the live adapter
(:mod:`ginref.referee.openspiel_state`) both speak it: the action ids, the card and meld ids,
OpenSpiel's phases and their names, :func:`action_name`, and the reassignment of cards laid off
(:func:`layoff_assignments`), which OpenSpiel leaves implicit.

Action ids: 0-51 cards (``suit * 13 + rank``, OpenSpiel's suits s c d h), 52 draw the upcard,
53 draw from the stock, 54 pass, 55 knock, 56-240 the 185 melds of :data:`MELDS`. Player 0
moves first; player 1 deals; chance is -1, the end -4.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ginref.cards import Card, Mask, card_name, mask_of, scan

__all__ = [
    "CHANCE", "DRAW_STOCK", "DRAW_UPCARD", "KNOCK", "MELDS", "MELD_BASE", "MELD_IDS", "NUM_ACTIONS", "PASS",
    "PHASE_DEAL", "PHASE_DISCARD", "PHASE_DRAW", "PHASE_FIRST_UPCARD", "PHASE_KNOCK", "PHASE_LAYOFF",
    "PHASE_NAMES", "PHASE_OVER", "PHASE_WALL", "PHASE_WORDS", "PLAYERS", "TERMINAL", "action_name",
    "assign_layoffs", "card_from_openspiel", "card_to_openspiel", "fits", "layoff_assignments",
]

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
CHANCE = -1
"""pyspiel's ``kChancePlayerId``"""
TERMINAL = -4
"""pyspiel's ``kTerminalPlayerId``"""
PLAYERS = ("P0", "P1")

(PHASE_DEAL, PHASE_FIRST_UPCARD, PHASE_DRAW, PHASE_DISCARD, PHASE_KNOCK, PHASE_LAYOFF, PHASE_WALL,
 PHASE_OVER) = range(8)
"""OpenSpiel's phases, in its order"""
PHASE_NAMES = ("Deal", "FirstUpcard", "Draw", "Discard", "Knock", "Layoff", "Wall", "GameOver")
"""OpenSpiel's names of its phases (``GinRummyState::kPhaseString``), by phase"""
PHASE_WORDS = ("deal", "first upcard", "draw", "discard", "knock", "layoff", "wall", "game over")
"""the phases as a message says them"""

_TO_GINREF_SUIT = (3, 0, 1, 2)
"""OpenSpiel suits s c d h (0..3); ginref suits C D H S (0..3)"""
_TO_OPENSPIEL_SUIT = (1, 2, 3, 0)


def card_from_openspiel(action: int) -> Card:
    """An OpenSpiel card (0..51, suits s c d h) as a ginref card."""
    return _TO_GINREF_SUIT[action // 13] * 13 + action % 13


def card_to_openspiel(c: Card) -> int:
    return _TO_OPENSPIEL_SUIT[c // 13] * 13 + c % 13


def _build_melds() -> tuple[Mask, ...]:
    """OpenSpiel's 185 melds in meld-id order (``GinRummyUtils::MeldToInt``): 65 sets by
    rank (the four threes by the OpenSpiel suit left out, then the four), then runs of
    3, 4 and 5 by OpenSpiel suit and lowest rank."""
    melds: list[Mask] = []
    for rank in range(13):
        cards = [card_from_openspiel(s * 13 + rank) for s in range(4)]
        melds.extend(mask_of(c for s, c in enumerate(cards) if s != out) for out in range(4))
        melds.append(mask_of(cards))
    for size in (3, 4, 5):
        for suit in range(4):
            for low in range(14 - size):
                melds.append(mask_of(card_from_openspiel(suit * 13 + r) for r in range(low, low + size)))
    return tuple(melds)


MELDS: tuple[Mask, ...] = _build_melds()
"""Meld id -> the meld's ginref cards; action ``MELD_BASE + id`` lays it."""
MELD_IDS: dict[Mask, int] = {mask: i for i, mask in enumerate(MELDS)}
NUM_ACTIONS = MELD_BASE + len(MELDS)
"""241: pyspiel's ``num_distinct_actions``"""
_SPECIAL_NAMES = {DRAW_UPCARD: "draw upcard", DRAW_STOCK: "draw stock", PASS: "pass", KNOCK: "knock"}


def action_name(action: int) -> str:
    """``7H``, ``draw upcard``, ``draw stock``, ``pass``, ``knock`` or ``meld 7H 8H 9H``."""
    if action < 52:
        return card_name(card_from_openspiel(action))
    if action >= MELD_BASE:
        return "meld " + " ".join(card_name(c) for c in scan(MELDS[action - MELD_BASE]))
    return _SPECIAL_NAMES[action]


# -- layoffs -----------------------------------------------------------------------------------


def fits(meld: Mask, c: Card) -> bool:
    """Does ``c`` extend ``meld`` as it stands, as OpenSpiel's ``AllLayoffs`` allows: the
    fourth card of a set of three, or the card at either end of a run?"""
    if meld >> c & 1:
        return False
    cards = list(scan(meld))
    if len({x % 13 for x in cards}) == 1:
        return len(cards) == 3 and c % 13 == cards[0] % 13
    below = c == cards[0] - 1 and c % 13 != 12
    above = c == cards[-1] + 1 and c % 13 != 0
    return c // 13 == cards[0] // 13 and (below or above)


def layoff_assignments(melds: Sequence[Mask], cards: Sequence[Card]) -> Iterator[list[int]]:
    """Each way to put the laid-off ``cards``, in order, onto the knocker's ``melds``: for
    each card the meld it extends, every later card still fitting (8H fits 8C 8D 8S and
    5H 6H 7H; a following 9H needs it on the run). OpenSpiel counts a card laid off when it
    fits any meld and never says which; a referee must choose, and may need to move an
    earlier card to make room for a later one.

    Depth first over the cards, at most one branch per meld per card; a card fits at most
    two melds (one set, one run), so there are few."""
    current = list(melds)
    chosen: list[int] = []
    options: list[list[int]] = []
    while True:
        i = len(chosen)
        if i == len(cards):
            yield list(chosen)
            if not chosen:
                return
            m = chosen.pop()
            current[m] &= ~(1 << cards[len(chosen)])
            continue
        if len(options) == i:
            options.append([m for m, meld in enumerate(current) if fits(meld, cards[i])])
        if options[i]:
            m = options[i].pop(0)
            chosen.append(m)
            current[m] |= 1 << cards[i]
            continue
        options.pop()
        if not chosen:
            return
        m = chosen.pop()
        current[m] &= ~(1 << cards[len(chosen)])


def assign_layoffs(melds: Sequence[Mask], cards: Sequence[Card]) -> list[int] | None:
    """The first of :func:`layoff_assignments`, or None when the cards cannot all be laid off."""
    return next(layoff_assignments(melds, cards), None)
