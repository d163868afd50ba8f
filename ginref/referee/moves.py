"""A move at the table, and its one text form: :meth:`Move.parse` reads it, ``str(move)``
writes it, ``repr(move)`` pastes back (``Move.parse('discard 7H')``).

The words are the ``.gin`` record's, one move at a time::

    move    = "pass"
            | ("take" | "draw") [card | "??"]      # "draw stock", "draw pile" (a take), "take pile"
            | "discard" card
            | ("knock" | "gin") card {meld}        # the card discarded face down
            | "big_gin" {meld}
            | card ">" meld_number                  # a layoff onto the knocker's meld, from 1
            | ("finish" | "defend") ({meld} | "[]") # "[]": no meld shown
    meld    = "[" card {card} "]"

Keywords are read in any case; cards in any spelling :func:`ginref.notation.parse_card` reads.
:func:`moves_of` turns a record's event into its moves; :class:`View` is what a player may
know; :class:`IllegalMove` is a move the rules refuse.

>>> Move.parse("discard 7H")
Move.parse('discard 7H')
>>> str(Move.knock("KH", [CardSet.parse("3C 4C 5C").mask]))
'knock KH [3C 4C 5C]'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

import msgspec

from ginref.cards import Card, CardSet, Mask, card_name, mask_of, scan
from ginref.errors import GinrefError, NotationError, RulingError, tidy_message
from ginref.notation import excerpt, parse_card, parse_cards
from ginref.records.model import Defence, Event, Pass, Turn
from ginref.referee.state import Phase
from ginref.scoring import Ending

__all__ = ["MAX_MOVE_TEXT", "MOVE_KINDS", "IllegalMove", "Move", "MoveKind", "View", "moves_of"]

MoveKind = Literal["take", "pass", "draw", "discard", "knock", "layoff", "finish"]
MOVE_KINDS: tuple[MoveKind, ...] = ("take", "pass", "draw", "discard", "knock", "layoff", "finish")
"""The kinds of move, in the order :meth:`Table.legal_moves` lists them."""
KIND_ORDER = {kind: i for i, kind in enumerate(MOVE_KINDS)}
ENDINGS: dict[str, tuple[str | None, ...]] = {kind: (None,) for kind in MOVE_KINDS}
ENDINGS["knock"] = (None, "knock", "gin", "big_gin")
_ENDING_ORDER = {"big_gin": 0, "gin": 1, "knock": 2}
PLAIN_KINDS = frozenset({"take", "pass", "draw", "discard"})
"""the kinds of move with no ending, no melds and nothing bare to check"""


class Move(msgspec.Struct, frozen=True):
    """One move. ``card``: the card discarded, laid off, or discarded face down with a knock
    (None for big gin), or the card a draw names (None: whatever it is). ``melds``: the
    knocker's declaration, or the defender's own melds at ``finish`` (empty: the referee
    arranges them, unless ``bare``: no meld shown, every card left is deadwood).
    ``ending``: ``knock``, ``gin`` or ``big_gin``. ``onto``: the knocker's meld a layoff
    goes onto, 0-based. Build with the class methods; ``str`` gives the text
    :meth:`Table.push` reads back.
    """

    kind: MoveKind
    card: Card | None = None
    melds: tuple[Mask, ...] = ()
    ending: Ending | None = None
    onto: int = -1
    bare: bool = False

    def __post_init__(self) -> None:
        card = self.card
        if self.kind == "knock" and self.onto == -1 and self.bare is False and type(self.melds) is tuple and (
                type(card) is int and 0 <= card < 52 and self.ending in _CARD_ENDINGS):
            for meld in self.melds:  # the knocks the table lists, made many times a move: checked at once
                if type(meld) is not int or not 0 < meld < _NO_MELD:
                    break
            else:
                return
        problem = _move_problem(self)
        if problem:
            raise NotationError(f"not a move: {problem}")

    @classmethod
    def take(cls, card: Card | str | None = None) -> Move:
        """Take the top of the pile (the upcard, or the last discard); ``card`` checks what it is."""
        return cls("take", _card_or_none(card))

    @classmethod
    def pass_(cls) -> Move:
        """Pass the first upcard, or the last discard at the wall."""
        return PASS

    @classmethod
    def draw(cls, card: Card | str | None = None) -> Move:
        """Draw from the stock; ``card``, when given, must be the stock's top card."""
        return cls("draw", _card_or_none(card))

    @classmethod
    def discard(cls, card: Card | str) -> Move:
        """Discard ``card`` (a card or its name, ``"7H"``) face up, ending the turn."""
        return cls("discard", as_card(card))

    @classmethod
    def knock(cls, card: Card | str | None, melds: Iterable[Mask | CardSet],
              ending: Ending = "knock") -> Move:
        """A knock (gin, big gin) discarding ``card`` face down (None: big gin) and declaring ``melds``."""
        return cls("knock", _card_or_none(card), _masks(melds), ending)

    @classmethod
    def layoff(cls, card: Card | str, onto: int) -> Move:
        """Lay ``card`` off onto the knocker's meld ``onto`` (0-based, as declared)."""
        return cls("layoff", as_card(card), onto=onto)

    @classmethod
    def finish(cls, melds: Iterable[Mask | CardSet] = (), *, bare: bool = False) -> Move:
        """End the defence showing ``melds`` (none: the least-deadwood arrangement of the rest,
        or with ``bare`` no meld at all: text ``finish []``)."""
        shown = _masks(melds)
        return cls("finish", None, shown, bare=bare and not shown)

    @property
    def sort_key(self) -> tuple[int, ...]:
        """The canonical order of :meth:`Table.legal_moves`: kind, card, ending, meld."""
        card = -1 if self.card is None else self.card
        return (KIND_ORDER[self.kind], card, _ENDING_ORDER.get(self.ending or "", 0), self.onto,
                *self.melds)

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from its text (the module's grammar); raises :class:`NotationError` naming
        the column. ``Move.parse(str(move)) == move`` for every move."""
        return _parse(text)

    def __str__(self) -> str:
        return " ".join(_move_words(self))

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _cards_text(mask: Mask) -> str:
    return "[" + " ".join(card_name(c) for c in scan(mask)) + "]"


def _move_words(move: Move) -> list[str]:
    kind, card = move.kind, move.card
    named = [] if card is None else [card_name(card)]
    if kind == "layoff":
        return [f"{card_name(card or 0)}>{move.onto + 1}"]
    if kind == "knock":
        return [move.ending or "knock", *named, *map(_cards_text, move.melds)]
    if kind == "finish":
        return ["finish", *map(_cards_text, move.melds)] if not move.bare else ["finish", "[]"]
    return [kind, *named]


_CARD_KINDS = frozenset({"take", "draw", "discard", "knock", "layoff"})
"""the kinds of move that may name a card"""
_NO_MELD = 1 << 52
_CARD_ENDINGS = frozenset({"knock", "gin"})
"""the endings of a knock that discards a card face down"""


def _is_card_value(value: object) -> bool:
    return type(value) is int and 0 <= value < 52


def _move_problem(move: Move) -> str:
    """What makes ``move`` no move at all (a field its kind does not have, a value of the
    wrong type), or "" when it is one; whether the rules allow it is :meth:`Table.push`'s."""
    kind = move.kind
    if kind not in KIND_ORDER:
        return f"unknown kind {excerpt(kind)}; choose from: {', '.join(MOVE_KINDS)}"
    card = move.card
    if card is not None and not _is_card_value(card):
        return f"{excerpt(card)} is not a card (an int 0..51)"
    if card is not None and kind not in _CARD_KINDS:
        return f"a {kind} names no card"
    if card is None and kind in ("discard", "layoff"):
        return f"a {kind} names its card"
    if move.ending not in ENDINGS[kind]:
        return f"a {kind} has no ending {excerpt(move.ending)}"
    if type(move.melds) is not tuple or (move.melds and kind not in ("knock", "finish")):
        return f"a {kind} declares no melds"
    for meld in move.melds:
        if type(meld) is not int or not 0 < meld < _NO_MELD:
            return f"{excerpt(meld)} is not a set of cards (a 52-bit mask)"
    if type(move.onto) is not int or (kind == "layoff") != (move.onto >= 0) or move.onto < -1:
        if kind == "layoff":
            return f"a layoff goes onto a meld numbered from 0; {excerpt(move.onto)} is not one"
        return f"a {kind} goes onto no meld"
    if type(move.bare) is not bool or (move.bare and (kind != "finish" or move.melds)):
        return "only a finish with no melds may be bare"
    return ""


def _card_or_none(value: Card | str | None) -> Card | None:
    return None if value is None else as_card(value)


def _masks(melds: Iterable[Mask | CardSet]) -> tuple[Mask, ...]:
    return tuple(m.mask if isinstance(m, CardSet) else m for m in melds)


TAKE, PASS, DRAW, FINISH = Move("take"), Move("pass"), Move("draw"), Move("finish")
_DISCARD_MOVES = tuple(Move("discard", c) for c in range(52))
_DRAW_MOVES = tuple(Move("draw", c) for c in range(52))
"""the moves :meth:`Table.legal_moves` lists most, made once (a Move is immutable)"""


def _by_byte(made: tuple[Move, ...]) -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """``made`` (a move per card) for each set of eight cards (one byte of a mask), in card order."""
    return tuple(
        tuple(tuple(made[c] for c in range(8 * i, min(8 * i + 8, 52)) if bits >> (c - 8 * i) & 1)
              for bits in range(256))
        for i in range(7))


_DISCARDS_BY_BYTE = _by_byte(_DISCARD_MOVES)
"""the discards of a hand's cards, eight cards at a time"""
_DRAWS_BY_BYTE = _by_byte(_DRAW_MOVES)
"""the draws naming each card a stock dealt at the draw may deal, eight cards at a time"""


def _moves_by_byte(chunks: tuple[tuple[tuple[Move, ...], ...], ...], cards: Mask) -> list[Move]:
    moves: list[Move] = []
    for chunk in chunks:
        if cards & 255:
            moves += chunk[cards & 255]
        cards >>= 8
    return moves


def discard_moves(hand: Mask) -> list[Move]:
    """A discard of each card of ``hand``, in card order."""
    return _moves_by_byte(_DISCARDS_BY_BYTE, hand)


def draw_moves(unseen: Mask) -> list[Move]:
    """A draw naming each card of ``unseen``, in card order."""
    return _moves_by_byte(_DRAWS_BY_BYTE, unseen)


class View(msgspec.Struct, frozen=True):
    """What ``player`` may know: its own hand, the discard pile (bottom to top), the cards the
    opponent took from the pile and still holds, how many cards each holds, the stock's size,
    the first upcard, and after a knock the declared melds and the layoffs so far.

    ``unknown`` counts cards in ``hand`` that a record never showed (0 at a dealt table);
    ``taken`` is the card this player has just taken from the pile, when that was the last move.
    """

    player: str
    phase: Phase
    to_move: str | None
    hand: CardSet
    pile: tuple[Card, ...]
    opponent_took: CardSet
    opponent_cards: int
    stock: int
    upcard: Card | None
    taken: Card | None = None
    unknown: int = 0
    knocker: str | None = None
    melds: tuple[CardSet, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()


class IllegalMove(GinrefError, ValueError):
    """A move the rules forbid: ``code`` is the finding the replay makes of it, ``knobs`` the
    rule knobs that decided it (the finding's, as data), ``rule`` the first of them with its
    value (``"no_same_card_discard=true"``; None for a rule of every game), ``place`` the hand
    and move (``"hand 1, move 7"``). The table is left as it was."""

    def __init__(self, message: str, code: str, place: str, rule: str | None = None,
                 move: Move | None = None, knobs: tuple[str, ...] = (), *,
                 seat_message: str | None = None) -> None:
        super().__init__(tidy_message(f"{place}: {code}" + (f" ({rule})" if rule else "") + f": {message}"))
        self.message = message
        self.code = code
        self.place = place
        self.rule = rule
        self.move = move
        self.knobs = knobs
        self.seat_message = seat_message if seat_message is not None else f"'{code}' refused"
        """the refusal as the seat that moved may be told it (:mod:`ginref.referee.seat`):
        ``message`` is the referee's, for the operator, and may name hidden cards"""


def as_card(value: Card | str) -> Card:
    """A card given as an int 0..51 or as its name (``"7H"``, ``"10h"``)."""
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is not int or not 0 <= value < 52:
        raise RulingError(f"{excerpt(value)} is not a card")
    return value


# -- move text ---------------------------------------------------------------------------------

MAX_MOVE_TEXT = 1000
"""the longest move text read (a knock declaring every card is under 200 characters)"""
_TOKEN = re.compile(r"\[[^\[\]]*\]|[^\s\[\]]+|[\[\]]")
"""a bracketed meld, a word, or a stray bracket"""
_LAYOFF = re.compile(r"(?P<card>[^>]+)>(?P<onto>[0-9]{1,3})")
_DRAW_SOURCES = {"stock": "draw", "pile": "take", "??": None}


class _Words:
    """A move's text cut into words, each with its 1-based column."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]

    def fail(self, message: str, column: int = 0, token: str = "") -> NotationError:
        where = f" at column {column}" if column else ""
        return NotationError(f"not a move: {message}{where}", column, token)

    def card(self, word: str, column: int) -> Card:
        try:
            return parse_card(word)
        except NotationError:
            raise self.fail(f"unknown card {excerpt(word)}", column, word) from None

    def melds(self, words: list[tuple[str, int]]) -> tuple[Mask, ...]:
        melds = []
        for word, column in words:
            if not (word.startswith("[") and word.endswith("]")) or word == "[]":
                raise self.fail(f"expected a meld: its cards in brackets, not {excerpt(word)}",
                                column, word)
            try:
                melds.append(mask_of(parse_cards(word[1:-1])))
            except NotationError as exc:
                why = str(exc) if len(str(exc)) <= 80 else str(exc)[:77] + "..."
                raise self.fail(f"bad meld {excerpt(word, 40)}: {why}", column, word) from None
        return tuple(melds)


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise NotationError(f"a move's text is a string, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"a move's text is at most {MAX_MOVE_TEXT} characters, not {len(text)}")
    words = _Words(text)
    if "\n" in text or "\r" in text:
        raise words.fail("a move is one line")
    if not words.words:
        raise words.fail("the text is empty")
    (first, column), rest = words.words[0], words.words[1:]
    keyword = first.lower()
    if keyword == "pass":
        _nothing_after(words, rest)
        return PASS
    if keyword in ("take", "draw"):
        return _draw(words, keyword, rest)
    if keyword == "discard":
        if len(rest) != 1:
            raise words.fail("a discard names one card: discard CARD", column)
        return Move.discard(words.card(*rest[0]))
    if keyword in ("knock", "gin"):
        if not rest or rest[0][0].startswith("["):
            raise words.fail(f"a {keyword} names the card discarded face down, then its melds: "
                             f"{keyword} CARD [MELD]",
                             column)
        return Move.knock(words.card(*rest[0]), words.melds(rest[1:]), keyword)  # type: ignore[arg-type]
    if keyword == "big_gin":
        return Move.knock(None, words.melds(rest), "big_gin")
    if keyword in ("finish", "defend"):
        if len(rest) == 1 and rest[0][0] == "[]":
            return Move.finish(bare=True)
        return Move.finish(words.melds(rest))
    layoff = _LAYOFF.fullmatch(first)
    if layoff is not None:
        _nothing_after(words, rest)
        onto = int(layoff.group("onto"))
        if onto < 1:
            raise words.fail("melds are numbered from 1: CARD>1 lays a card off on the first", column, first)
        return Move.layoff(words.card(layoff.group("card"), column), onto - 1)
    raise words.fail(f"unknown move {excerpt(first, 40)}; choose from: take, pass, draw, discard, knock, "
                     "gin, big_gin, finish, or a layoff CARD>MELD", column, first)


def _draw(words: _Words, keyword: str, rest: list[tuple[str, int]]) -> Move:
    """``take``/``draw``, with the card it names, ``??`` or where it draws from."""
    card: Card | None = None
    if rest:
        word, column = rest[0]
        _nothing_after(words, rest[1:])
        if word.lower() in _DRAW_SOURCES:
            if keyword == "take" and word.lower() == "stock":
                raise words.fail("a take is from the pile; draw from the stock", column, word)
            keyword = _DRAW_SOURCES[word.lower()] or keyword
        else:
            card = words.card(word, column)
    return Move.take(card) if keyword == "take" else Move.draw(card)


def _nothing_after(words: _Words, rest: list[tuple[str, int]]) -> None:
    if rest:
        word, column = rest[0]
        raise words.fail(f"one move at a time: unexpected {excerpt(word)}", column, word)


def moves_of(event: Event | Move) -> list[Move]:
    """A record's event as the table's moves, in order (a turn is its draw, then its discard
    or knock; a defence its layoffs, then the finish with its melds; a move is itself)."""
    if type(event) is Move:
        return [event]
    if type(event) is Pass:
        return [Move.pass_()]
    if type(event) is Defence:
        return [*(Move.layoff(c, at) for c, at in event.layoffs), Move.finish(event.melds, bare=True)]
    assert type(event) is Turn
    moves = []
    if event.source != "none":
        moves.append(Move.take(event.card) if event.source == "discard" else Move.draw(event.card))
    if event.knock is not None:
        knock = event.knock
        moves.append(Move.knock(knock.discard if knock.discard is not None else event.discard,
                                knock.melds, knock.ending))
    elif event.discard is not None:
        moves.append(Move.discard(event.discard))
    return moves
