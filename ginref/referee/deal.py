"""How a hand is dealt, as one value: :class:`Deal`.

A deal is a shuffle from a seed, a deck in order, or the hands themselves with the upcard and
the stock (or a stock dealt at the draw, as OpenSpiel's chance deals it). The table, its
:meth:`~ginref.referee.table.Table.next_hand` and the line protocol take one; :meth:`Deal.hand`
lays it out for two players as a record's hand.

>>> Deal.shuffled(7) == Deal.shuffled(7)
True
>>> Deal.from_hands({"Ann": "3C 4C 5C 9D 9S KH 2D 6S 7S QC"}, upcard="9H").upcard
34
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from ginref.cards import Card
from ginref.errors import RulingError
from ginref.records.model import HandRecord
from ginref.referee.moves import as_card
from ginref.rules import Rules

__all__ = ["CardsLike", "Deal", "HandsLike"]

CardsLike = str | Iterable[Card | str]
"""cards as ints 0..51 or names, or one text of names (``"3C 4C 5C"``)"""
HandsLike = Mapping[str, CardsLike] | Sequence[CardsLike]
"""each player's cards: by name, or a pair in the players' order"""


class Deal(msgspec.Struct, frozen=True):
    """One hand's deal: a ``seed`` (None: a fresh shuffle), a ``deck`` from the top, or the
    ``hands`` (``names``: whose, when given by name; else the players' order) with the
    ``upcard`` and the ``stock`` (31 cards from the top), or with ``stock_at_draw`` no stock:
    each draw names the card it deals. Build with the class methods, which read card names."""

    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    names: tuple[str, ...] = ()
    upcard: Card | None = None
    stock: tuple[Card, ...] | None = None
    stock_at_draw: bool = False

    @classmethod
    def shuffled(cls, seed: int | None = None) -> Deal:
        """A shuffle from ``seed`` (None: a new random one each time it is dealt)."""
        if seed is not None and (type(seed) is not int):
            raise RulingError(f"a seed is a whole number, not {seed!r}")
        return cls(seed=seed)

    @classmethod
    def from_deck(cls, deck: CardsLike) -> Deal:
        """The 52 cards from the top: the non-dealer's 10 (11 with the eleven-card deal), the
        dealer's 10, the upcard unless the rules have none, then the 31 of the stock."""
        cards = _cards(deck)
        if len(cards) != 52 or len(set(cards)) != 52:
            raise RulingError(f"a deck is the 52 cards once each; this one has {len(cards)} cards, "
                              f"{len(set(cards))} of them different")
        return cls(deck=cards)

    @classmethod
    def from_hands(cls, hands: HandsLike, upcard: Card | str | None = None, stock: CardsLike | None = None,
                   *, stock_at_draw: bool = False) -> Deal:
        """Each player's cards (by name, or a pair in the players' order), the upcard, and the
        stock from the top; or ``stock_at_draw`` and no stock."""
        if stock_at_draw and stock is not None:
            raise RulingError("a stock dealt at the draw goes with the hands and no stock")
        if isinstance(hands, Mapping):
            names = tuple(str(name) for name in hands)
            cards = tuple(_cards(c) for c in hands.values())
        else:
            if isinstance(hands, str) or len(hands) != 2:
                raise RulingError("the hands are two collections of cards, in the players' order")
            names, cards = (), tuple(_cards(c) for c in hands)
        up = None if upcard is None else as_card(upcard)
        return cls(hands=cards, names=names, upcard=up, stock=None if stock is None else _cards(stock),
                   stock_at_draw=stock_at_draw)

    @classmethod
    def of(cls, *, deck: CardsLike | None = None, hands: HandsLike | None = None,
           upcard: Card | str | None = None, stock: CardsLike | None = None, seed: int | None = None,
           stock_at_draw: bool = False) -> Deal:
        """The deal the table's keywords name, given one way: a deck, the hands, or a seed."""
        if hands is not None:
            if deck is not None or seed is not None:
                raise RulingError("give the deal one way: a deck, the hands, or a seed")
            return cls.from_hands(hands, upcard, stock, stock_at_draw=stock_at_draw)
        if stock_at_draw:
            raise RulingError("a stock dealt at the draw goes with the hands and no stock")
        if upcard is not None or stock is not None:
            raise RulingError("an upcard and a stock go with the hands")
        if deck is not None and seed is not None:
            raise RulingError("give the deal one way: a deck, the hands, or a seed")
        return cls.from_deck(deck) if deck is not None else cls.shuffled(seed)

    def hand(
        self, players: tuple[str, str], dealer: str, rules: Rules, number: int | None = None
    ) -> HandRecord:
        """The deal laid out as a record's hand for ``players``, ``dealer`` dealing (no moves)."""
        if self.hands is not None:
            names = self.names or players
            deal = tuple(zip(names, self.hands, strict=True))
            return HandRecord(dealer, deal, self.upcard, (), self.stock, number=number)
        deck = self.deck if self.deck is not None else _shuffled(self.seed)
        first = 11 if rules.first_turn == "eleven_card" else 10
        non_dealer = players[1 - players.index(dealer)]
        cards = {non_dealer: tuple(deck[:first]), dealer: tuple(deck[first:first + 10])}
        rest = deck[first + 10:]
        upcard = None if first == 11 else rest[0]
        stock = tuple(rest[1:] if first == 10 else rest)
        return HandRecord(dealer, tuple((name, cards[name]) for name in players), upcard, (), stock,
                          number=number)


def _cards(cards: CardsLike) -> tuple[Card, ...]:
    if isinstance(cards, str):
        cards = cards.split()
    return tuple(as_card(c) for c in cards)


def _shuffled(seed: int | None) -> tuple[Card, ...]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return tuple(deck)
