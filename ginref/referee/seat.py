"""The trust boundary: what a seat may be told when its move is refused.

A table's referee explains a refusal with everything it knows ("Bo discarded 4D, which is
in Ann's hand"), which is right for the operator and for a record's findings, and wrong for
a player: a seat that may probe with illegal moves for free would learn where the hidden
cards are. So a refusal has two wordings. The referee's (``IllegalMove.message``) stays the
operator's; the seat's (``IllegalMove.seat_message``) is made here from what that seat knows
and nothing else: the code of the refusal, the move it sent, its own :class:`View` and the
rules. No wording here ever reads the referee's message or the table itself, so none can
name a card hidden from the seat (``tests/referee/test_seat_answers.py`` deals twin tables
that differ only in such cards and asks both the same things).

:meth:`ginref.Table.push_as_seat` is the one door for a seat's move: it refuses what a seat
may not send at all (a player who is not seated, a draw that names the stock's card), and
every refusal carries its seat wording. ``ginref table`` sends every seat's move through it;
a Python server should too.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from ginref.cards import Card, CardSet, Mask, card_name, mask_points, scan
from ginref.melds import MeldSystem, is_meld

__all__ = ["LEGAL_HINT", "seat_wording"]


class Move(Protocol):
    """What a wording reads of the move a seat sent (:class:`ginref.referee.table.Move`)."""

    @property
    def kind(self) -> str: ...
    @property
    def card(self) -> Card | None: ...
    @property
    def melds(self) -> tuple[Mask, ...]: ...
    @property
    def onto(self) -> int: ...


class View(Protocol):
    """What a wording reads of the seat's own view (:class:`ginref.referee.table.View`)."""

    @property
    def phase(self) -> Enum: ...
    @property
    def to_move(self) -> str | None: ...
    @property
    def hand(self) -> CardSet: ...
    @property
    def pile(self) -> tuple[Card, ...]: ...
    @property
    def melds(self) -> tuple[CardSet, ...]: ...

LEGAL_HINT = "ask 'legal' for the moves you may make"
"""what every seat wording ends with: where to find a move that will be taken"""

_PHASE_ASK = {
    "upcard": "take or pass the upcard",
    "draw": "draw from the stock or take the top discard",
    "discard": "discard a card or knock",
    "wall": "take the last discard to knock, or pass",
    "defence": "lay off onto the knocker's melds, then finish",
    "over": "nothing: the hand is over",
}


def _cards(mask: Mask) -> str:
    return " ".join(card_name(c) for c in scan(mask))


def _named(move: Move) -> Mask:
    """Every card the move names (its card and its melds)."""
    named = 0 if move.card is None or not 0 <= move.card < 52 else 1 << move.card
    for meld in move.melds:
        named |= meld
    return named


def _now(view: View) -> str:
    return f"now you may {_PHASE_ASK[str(view.phase.value)]}"


def _not_held(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    missing = _named(move) & ~view.hand.mask
    if missing:
        first = next(scan(missing))
        return f"{card_name(first)} is not in your hand"
    return "a card it names is not in your hand"


def _same_card(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    card = card_name(move.card) if move.card is not None else "the card"
    return f"{card} is the card you just took from the pile: it may not be thrown back (no_same_card_discard)"


def _over_limit(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    kept = view.hand.mask & ~(0 if move.card is None else 1 << move.card)
    melded = 0
    for meld in move.melds:
        melded |= meld
    left = mask_points(kept & ~melded)
    return f"your deadwood would be {left}, over the knock limit of {knock_limit}"


def _bad_meld(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    for meld in move.melds:
        if meld and not is_meld(meld, system):
            return f"[{_cards(meld)}] is not a meld"
    return "the melds declared are not melds of your cards, each card once"


def _layoff(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    if not view.melds:
        return "nobody has knocked: there is nothing to lay off onto"
    if not 0 <= move.onto < len(view.melds):
        return f"there is no meld {move.onto + 1}: the knocker declared {len(view.melds)}"
    card = card_name(move.card) if move.card is not None else "that card"
    return f"{card} does not fit meld {move.onto + 1} as the rules lay off"


def _top(move: Move, view: View, system: MeldSystem, knock_limit: int) -> str:
    if not view.pile:
        return "the discard pile is empty"
    return f"take takes the top of the pile, {card_name(view.pile[-1])}: send 'take'"


def _fixed(text: str) -> Callable[[Move, View, MeldSystem, int], str]:
    return lambda move, view, system, knock_limit: text


_WORDING: dict[str, Callable[[Move, View, MeldSystem, int], str]] = {
    "card_not_in_hand": _not_held,
    "same_card_discard": _same_card,
    "knock_over_limit": _over_limit,
    "invalid_meld": _bad_meld,
    "deadwood_misdeclared": _bad_meld,
    "illegal_layoff": _layoff,
    "not_top_discard": _top,
    "stock_draw_mismatch": _fixed("a draw names no card, for no player sees it first: send 'draw'"),
    "bad_card": _fixed("a draw names no card, for no player sees it first: send 'draw'"),
    "draw_from_empty_stock": _fixed("the stock is at its floor: no more draws"),
    "stock_exhausted": _fixed("at the wall the last discard may be taken only to knock"),
    "knock_not_max": _fixed("a knock must meld as much as the cards allow (knocker_must_meld_max)"),
    "big_gin_not_recognised": _fixed("these rules score no big gin"),
    "layoff_on_gin": _fixed("no card may be laid off onto this hand"),
    "defence_without_knock": _fixed("nobody has knocked: lay-offs and finish come after a knock"),
    "moves_after_end": _fixed("the hand is over"),
    "duplicate_card": _fixed("the move names a card twice"),
}


def seat_wording(code: str, move: Move, view: View, knock_limit: int, system: MeldSystem) -> str:
    """Why ``move`` was refused, for the seat that sent it: made from the refusal's ``code``,
    the move, the seat's own ``view``, the hand's ``knock_limit`` (public: the rules, or the
    upcard) and the meld ``system``, so that it names no card hidden from that seat."""
    if code == "wrong_turn":
        reason = "it is not your turn" if view.to_move is not None else "the hand is over"
    else:
        wording = _WORDING.get(code)
        reason = wording(move, view, system, knock_limit) if wording is not None else _now(view)
    return f"'{_move_text(move)}' refused: {reason}; {LEGAL_HINT}"


def _move_text(move: Move) -> str:
    try:
        return str(move)
    except (ValueError, TypeError, IndexError):  # a hand-built Move with a field out of range
        return move.kind
