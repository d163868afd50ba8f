"""Cards as ints and card sets as immutable 52-bit masks.

A card is ``suit * 13 + rank`` with suits in the order C, D, H, S and ranks
A=0 .. K=12. Suit-major order makes a run a contiguous run of bits and a set
a stride-13 pattern, so every meld is a precomputed int.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from ginref.errors import DuplicateCardError, NotationError

Card = int
Mask = int

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
SUIT_GLYPHS = "♣♦♥♠"
FULL_DECK: Mask = (1 << 52) - 1

CARD_POINTS: tuple[int, ...] = tuple(min(rank + 1, 10) for _ in SUITS for rank in range(13))
"""Deadwood value of each card: ace 1, pips at face value, pictures 10."""


def card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def rank_of(c: Card) -> int:
    return c % 13


def suit_of(c: Card) -> int:
    return c // 13


def card_name(c: Card) -> str:
    """Canonical name, rank then suit letter, ``T`` for ten: ``"TC"``.

    ``c`` is a card, 0 to 51. Returns its name. Not checked, as a hot path: a card past
    51 raises ``IndexError`` and a negative one is misnamed (``parse_card`` checks text).
    """
    return RANKS[c % 13] + SUITS[c // 13]


def card_label(c: Card, *, glyphs: bool = False) -> str:
    """Name for people: ``10`` for ten, optionally a suit glyph."""
    rank = "10" if c % 13 == 9 else RANKS[c % 13]
    return rank + (SUIT_GLYPHS[c // 13] if glyphs else SUITS[c // 13])


def card_points(c: Card) -> int:
    return CARD_POINTS[c]


_CANONICAL: dict[str, Card] = {card_name(c): c for c in range(52)}


def _not_canonical(number: int, word: str, duplicate: bool) -> NotationError:
    problem = "repeats a card" if duplicate else "is not a canonical card name"
    error_type = DuplicateCardError if duplicate else NotationError
    return error_type(
        f"CardSet.parse: word {number} {problem}; it reads only canonical text such as"
        " '3C 4C TD' (ginref.notation.parse_cards reads every spelling)",
        0,
        word[:80],
    )


def mask_of(cards: Iterable[Card]) -> Mask:
    """The 52-bit mask of ``cards`` (ints 0 to 51; a repeat counts once).

    Returns the mask. Not checked, as a hot path: a negative card raises ``ValueError``
    (:func:`~ginref.notation.hand_mask` checks every card).
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def scan(mask: Mask) -> Iterator[Card]:
    """Cards of ``mask``, lowest first (canonical order: clubs A..K, then D, H, S)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_points(mask: Mask) -> int:
    return sum(CARD_POINTS[c] for c in scan(mask))


def mask_names(mask: Mask) -> list[str]:
    return [card_name(c) for c in scan(mask)]


def sort_key(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


class CardSet(msgspec.Struct, frozen=True):
    """An immutable set of cards, stored as a 52-bit mask."""

    mask: Mask = 0

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardSet:
        return cls(mask_of(cards))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """The cards of canonical text, as ``str`` and ``repr`` write it: ``"3C 4C TD"``.

        Other spellings (``10h``, glyphs, commas) are :func:`ginref.notation.parse_cards`'s.
        """
        if type(text) is not str:
            raise NotationError(f"CardSet.parse takes text, not {type(text).__name__}")
        mask = 0
        for number, word in enumerate(text.split(" ") if text else (), 1):
            c = _CANONICAL.get(word)
            if c is None or mask >> c & 1:
                raise _not_canonical(number, word, c is not None)
            mask |= 1 << c
        return cls(mask)

    def __iter__(self) -> Iterator[Card]:
        return scan(self.mask)

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 52 and bool(self.mask >> c & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    @property
    def points(self) -> int:
        return mask_points(self.mask)

    def names(self) -> list[str]:
        return mask_names(self.mask)

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

