"""What a gin_rummy player sees: OpenSpiel's observation tensor and ginref's observation string.

:class:`~ginref.referee.openspiel_state.OpenSpielState` plays; this module shows. :class:`Seen`
is OpenSpiel's own bookkeeping of what its observation tensor shows (each hand as OpenSpiel
holds it, the upcard, the buried discards, the melds laid), updated by the state after the
table has ruled on each move; :func:`observation_tensor` and :func:`observation_string` read
nothing else, so both are functions of what the observer has seen. The tensor is pyspiel's
entry for entry (:data:`TENSOR_PIECES`); the string is ginref's own (docs/live.md).

Card masks here are by OpenSpiel's card ids (suits s c d h, ranks A..K); :func:`to_ginref`
moves them to ginref's cards.
"""

from __future__ import annotations

from ginref.cards import Mask, card_name, scan
from ginref.records.openspiel_actions import CHANCE, MELD_BASE, MELDS, card_from_openspiel, card_to_openspiel

__all__ = ["OPENSPIEL_MELDS", "TENSOR_PIECES", "TENSOR_SIZE", "Seen", "cards_of", "observation_string",
           "observation_tensor", "os_names", "to_ginref"]

TENSOR_SIZE = 644
"""pyspiel gin_rummy's observation tensor: the observer (2), the observer's hand (2 x 52), the
player to move (2), the knock card (10), the upcard (52), the discard pile (52), the stock size
(52), the melds each player laid (2 x 185)"""
TENSOR_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("player", (2,)), ("private_hand", (2, 52)), ("current_player", (2,)), ("knock_card", (10,)),
    ("upcard", (52,)), ("discard_pile", (52,)), ("stock_size", (52,)), ("layed_melds", (2, 185)))


OPENSPIEL_MELDS = tuple(sum(1 << card_to_openspiel(c) for c in scan(meld)) for meld in MELDS)
"""each meld id's cards by OpenSpiel's card ids"""


class Seen:
    """OpenSpiel's own bookkeeping of what its observation tensor shows, by OpenSpiel card ids:
    each hand as OpenSpiel holds it (melds, layoffs and the knock's discard leave it), the
    upcard (-1: none; a stock draw buries it), the buried discards, the meld ids each player
    laid, and the player who moved last. Plays no rule: the table has decided the move."""

    __slots__ = ("big_gin", "hands", "knocker", "laid_off", "last", "melds", "pile", "took", "upcard")

    def __init__(self) -> None:
        self.hands = [0, 0]
        self.took = [0, 0]
        """the cards each player took from the pile and still holds (everyone saw them)"""
        self.upcard = -1
        self.pile = 0
        self.melds: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.laid_off = 0
        self.last = CHANCE
        self.knocker = -1
        self.big_gin = False
        """a knock without a discard (big gin) was laid"""

    def copy(self) -> Seen:
        copy = Seen.__new__(Seen)
        copy.hands, copy.took, copy.upcard, copy.pile, copy.melds, copy.laid_off, copy.last = (
            self.hands[:], self.took[:], self.upcard, self.pile, self.melds, self.laid_off, self.last)
        copy.knocker, copy.big_gin = self.knocker, self.big_gin
        return copy

    def give(self, player: int, card: int) -> None:
        """``card`` leaves ``player``'s hand, face up."""
        self.hands[player] &= ~(1 << card)
        self.took[player] &= ~(1 << card)

    def bury(self) -> None:
        if self.upcard >= 0:
            self.pile |= 1 << self.upcard
        self.upcard = -1

    def take(self, player: int, *, from_pile: bool = False) -> None:
        self.hands[player] |= 1 << self.upcard
        if from_pile:
            self.took[player] |= 1 << self.upcard
        self.upcard = -1

    def lay(self, action: int) -> None:
        meld = action - MELD_BASE
        who = self.last
        self.hands[who] &= ~OPENSPIEL_MELDS[meld]
        self.took[who] &= ~OPENSPIEL_MELDS[meld]
        self.melds = (*self.melds[:who], (*self.melds[who], meld), *self.melds[who + 1:])  # type: ignore[assignment]


_B0, _B1, _B2, _B3, _B4, _B5, _B6 = (
    tuple(tuple(8 * k + b for b in range(8) if byte >> b & 1) for byte in range(256)) for k in range(7))
"""the bits set in each byte of a 52-bit mask, by byte"""


def cards_of(cards: Mask) -> list[int]:
    """The bits of a 52-bit mask, ascending: seven byte look-ups."""
    return [*_B0[cards & 255], *_B1[cards >> 8 & 255], *_B2[cards >> 16 & 255], *_B3[cards >> 24 & 255],
            *_B4[cards >> 32 & 255], *_B5[cards >> 40 & 255], *_B6[cards >> 48 & 255]]


_BYTE_FLOATS = tuple(tuple(float(b >> i & 1) for i in range(8)) for b in range(256))
"""each byte as eight floats, its low bit first"""
_ZEROS_2, _ZEROS_52, _ZEROS_185 = (0.0,) * 2, (0.0,) * 52, (0.0,) * 185
_ONE_HOT_2 = ((1.0, 0.0), (0.0, 1.0))
_ONE_HOT_52 = tuple(tuple(float(i == j) for i in range(52)) for j in range(52))
_ONES_10 = tuple((1.0,) * n + (0.0,) * (10 - n) for n in range(11))
_ONES_52 = tuple((1.0,) * n + (0.0,) * (52 - n) for n in range(53))


def _floats(cards: Mask) -> tuple[float, ...]:
    """A 52-bit mask as 52 floats (1.0 for each card), from seven byte look-ups."""
    table = _BYTE_FLOATS
    return (*table[cards & 255], *table[cards >> 8 & 255], *table[cards >> 16 & 255],
            *table[cards >> 24 & 255], *table[cards >> 32 & 255], *table[cards >> 40 & 255],
            *table[cards >> 48 & 15][:4])


def _laid(melds: tuple[int, ...]) -> list[float]:
    """The meld ids laid, as 185 floats."""
    laid = list(_ZEROS_185)
    for meld in melds:
        laid[meld] = 1.0
    return laid


OS_NAMES = tuple(card_name(card_from_openspiel(a)) for a in range(52))
"""each OpenSpiel card id's name"""


def to_ginref(cards: Mask) -> Mask:
    """OpenSpiel card ids as a mask of ginref's cards: each suit's 13 bits moved to its place."""
    return ((cards & 8191) << 39 | (cards >> 13 & 8191) | (cards >> 26 & 8191) << 13
            | (cards >> 39 & 8191) << 26)  # OpenSpiel's s c d h are ginref's suits 3 0 1 2


_NAMES = tuple(card_name(c) for c in range(52))


def os_names(cards: Mask) -> str:
    """OpenSpiel card ids as names in ginref's canonical order; ``-`` for none."""
    if not cards:
        return "-"
    return " ".join([_NAMES[c] for c in cards_of(to_ginref(cards))])



def observation_tensor(seen: Seen, player: int, turn: int, limit: int, stock: int) -> list[float]:
    """pyspiel gin_rummy's observation tensor for ``player`` (:data:`TENSOR_PIECES`): ``turn``
    the player shown to move (-1: none), ``limit`` the knock card, ``stock`` the stock's size.
    Pieces joined: each card mask's 52 entries from byte look-ups."""
    hand = _floats(seen.hands[player])
    melds = seen.melds
    return [
        *_ONE_HOT_2[player], *(hand if player == 0 else _ZEROS_52), *(_ZEROS_52 if player == 0 else hand),
        *(_ONE_HOT_2[turn] if turn >= 0 else _ZEROS_2), *_ONES_10[min(10, limit)],
        *(_ONE_HOT_52[seen.upcard] if seen.upcard >= 0 else _ZEROS_52), *_floats(seen.pile),
        *_ONES_52[stock], *(_laid(melds[0]) if melds[0] else _ZEROS_185),
        *(_laid(melds[1]) if melds[1] else _ZEROS_185),
    ]


def observation_string(seen: Seen, player: int, phase: str, limit: int, stock: int, *, over: bool) -> str:
    """What ``player`` knows, as text: the ``phase``, the knock ``limit``, its hand, the upcard,
    the discard pile below it, the ``stock``'s size, the cards the opponent took from the pile
    and still holds, the melds each player has laid and the cards laid off; once the hand is
    ``over``, what is left in the opponent's hand."""
    lines = [f"Player: {player}", f"Phase: {phase}", f"Knock limit: {limit}",
             f"Hand: {os_names(seen.hands[player])}",
             f"Upcard: {OS_NAMES[seen.upcard] if seen.upcard >= 0 else '-'}",
             f"Discard pile: {os_names(seen.pile)}", f"Stock: {stock}",
             f"Opponent took: {os_names(seen.took[1 - player])}"]
    for who in (0, 1):
        if seen.melds[who]:
            melds = " ".join(f"[{os_names(OPENSPIEL_MELDS[m])}]" for m in seen.melds[who])
            lines.append(f"Player {who} melds: {melds}")
    if seen.laid_off:
        lines.append(f"Laid off: {os_names(seen.laid_off)}")
    if over:
        lines.append(f"Opponent's hand: {os_names(seen.hands[1 - player])}")
    return "\n".join(lines)
