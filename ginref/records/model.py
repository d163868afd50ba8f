"""Recorded hands and games: the data model shared by the readers, writers and the referee.

A record is a :class:`GameRecord`: the rule set, the two players and one or
more :class:`HandRecord` (a single hand is a game of one). Each hand holds its
deal and its events in the order played, plus anything the record *claims*
(result, running score, next dealer), which the adjudicator recomputes and
compares rather than trusts. Every element carries a :class:`Place` so a
finding can point at the line and column (text) or JSON pointer (JSON). Places,
``source`` and ``index`` say where a record was read from, not what it says, so
equality ignores them: a record read from text equals the same record read
from JSON.

Cards are ints and melds 52-bit masks, as everywhere in ginref.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

import msgspec

from ginref.cards import Card, Mask
from ginref.rules import MAX_NUMBER

__all__ = [
    "ENDINGS",
    "GAME_TAGS",
    "HAND_TAGS",
    "KNOWN_TAGS",
    "MAX_NUMBER",
    "NOWHERE",
    "OUTCOMES",
    "SOURCES",
    "UNFINISHED_REASONS",
    "ClaimedOutcome",
    "ClaimedResult",
    "Defence",
    "Ending",
    "Event",
    "GameRecord",
    "HandRecord",
    "InputForm",
    "Knock",
    "Pass",
    "Place",
    "RecordFormat",
    "Source",
    "Turn",
    "UnitForm",
]

RecordFormat = Literal["gin", "json", "jsonl", "openspiel"]
"""The forms records are written in: ``.gin`` text, one ``.json`` document (a record or a list),
``.jsonl`` lines, and OpenSpiel action histories (one JSON array of action ids a line)."""
InputForm = Literal["gin", "json", "jsonl", "openspiel", "kaggle", "eaai", "rlcard"]
"""The forms records are read from (``--from``): the record forms, OpenSpiel histories or
``SerializeGameAndState`` text, Kaggle episodes, EAAI framework logs, RLCard move sheets."""
UnitForm = Literal["gin", "json", "jsonl", "openspiel", "openspiel_state", "kaggle", "eaai", "rlcard"]
"""What one raw unit holds: a record form, an OpenSpiel history line, an OpenSpiel serialised
state, a Kaggle episode, one game of an EAAI log or of an RLCard move sheet."""
Source = Literal["stock", "discard", "none"]
"""Where a turn's card came from; ``none`` for the eleven-card opening discard."""
Ending = Literal["knock", "gin", "big_gin"]
ClaimedOutcome = Literal[
    "knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock", "win", "draw", "unfinished"
]
"""A hand's outcome; ``win`` (a winner, points not claimed) and ``draw`` are what sources that only
know who won say (Kaggle's rewards); ``unfinished`` is a hand that stopped before its end."""


class Place(msgspec.Struct, frozen=True, gc=False):
    """Where an element stands in its source: line and column, or a JSON pointer."""

    line: int = 0
    column: int = 0
    pointer: str = ""

    def __str__(self) -> str:
        if self.pointer:
            return self.pointer
        if self.line and self.column:
            return f"line {self.line}, column {self.column}"
        return f"line {self.line}" if self.line else ""

    def to_dict(self) -> dict[str, object]:
        if self.pointer:
            return {"pointer": self.pointer}
        return {"line": self.line, "column": self.column}


NOWHERE = Place()


class _Placed(msgspec.Struct, frozen=True, gc=False):
    """A record or part of one: immutable, and equal to another whatever their places.

    msgspec Structs rather than dataclasses because a batch builds one per move, and a Struct
    is made several times faster (docs/verify-speed.md has the figures).
    """

    uncompared: ClassVar[frozenset[str]] = frozenset({"place"})
    """the fields equality and hashes leave out: where the element stands, not what it says"""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return _facts(self) == _facts(other)

    def __hash__(self) -> int:
        return hash(_facts(self))


def compared_fields(element: _Placed) -> tuple[str, ...]:
    """The fields that make two elements equal, in order."""
    return tuple(name for name in element.__struct_fields__ if name not in element.uncompared)


def _facts(element: _Placed) -> tuple[object, ...]:
    return tuple(getattr(element, name) for name in compared_fields(element))


class Pass(_Placed, frozen=True, gc=False):
    """A player declines: the upcard on the first turn, or the last discard at the wall."""

    player: str
    place: Place = NOWHERE


class Knock(_Placed, frozen=True, gc=False):
    """The end of a knocker's turn: face-down discard (none for big gin) and declared spread."""

    ending: Ending
    discard: Card | None
    melds: tuple[Mask, ...]
    """in the order declared; layoffs name them by index"""
    deadwood: int | None = None
    """deadwood points the knocker announced, if recorded"""
    place: Place = NOWHERE


class Turn(_Placed, frozen=True, gc=False):
    """One turn: a draw and a discard, or a draw and a knock."""

    player: str
    source: Source
    card: Card | None
    """the card drawn; None when not recorded (an unseen stock card)"""
    discard: Card | None = None
    """None when the turn ends in ``knock`` (whose discard is face down)"""
    knock: Knock | None = None
    place: Place = NOWHERE
    least_deadwood: int | None = None
    """the least deadwood the record says the mover's ten cards hold after the turn (the EAAI
    framework's per-turn report), a claim the referee checks; None when not recorded"""


class Defence(_Placed, frozen=True, gc=False):
    """The defender's spread after a knock, as recorded: own melds, layoffs in order, announced
    deadwood (what the layoff search finds instead is :class:`ginref.layoffs.DefenderResponse`).

    ``layoffs`` are ``(card, index)`` with ``index`` 0-based into the knocker's
    declared melds; a chain lays its cards in order onto the same index.
    """

    player: str
    melds: tuple[Mask, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    deadwood: int | None = None
    place: Place = NOWHERE


Event = Pass | Turn | Defence


class ClaimedResult(_Placed, frozen=True, gc=False):
    """What the record says the hand came to.

    ``unfinished`` (like PGN's ``*`` result with its Termination tag) claims that the hand
    stopped before its end for ``reason``, through ``stopped_by`` when one player stopped
    it (forfeited, timed out): the moves made must be legal, and nothing more is claimed.
    """

    outcome: ClaimedOutcome
    winner: str | None = None
    points: int = 0
    place: Place = NOWHERE
    reason: str | None = None
    """why an unfinished hand stopped: one of :data:`UNFINISHED_REASONS`"""
    stopped_by: str | None = None


class HandRecord(_Placed, frozen=True, gc=False):
    """One hand: the deal, the events in order, and what the record claims."""

    dealer: str
    deal: tuple[tuple[str, tuple[Card, ...]], ...]
    """each player's dealt cards, in the players' order"""
    upcard: Card | None
    events: tuple[Event, ...] = ()
    stock: tuple[Card, ...] | None = None
    """the stock from the top, after the upcard, when known"""
    result: ClaimedResult | None = None
    score_after: tuple[tuple[str, int], ...] | None = None
    """claimed running totals (hand points, no bonuses) after this hand"""
    next_dealer: str | None = None
    number: int | None = None
    place: Place = NOWHERE

    def dealt(self, player: str) -> tuple[Card, ...]:
        for name, cards in self.deal:
            if name == player:
                return cards
        return ()


class GameRecord(_Placed, frozen=True, gc=False):
    """A record: rule set, players, hands in order, and claimed end-of-game totals."""

    uncompared: ClassVar[frozenset[str]] = frozenset({"source", "index", "place"})

    players: tuple[str, str]
    hands: tuple[HandRecord, ...]
    rules: str = "standard"
    overrides: tuple[tuple[str, str], ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    """free tags kept for round trips (event, date, site, ...)"""
    final_totals: tuple[tuple[str, int], ...] | None = None
    """claimed totals after end-of-game bonuses"""
    source: str = ""
    index: int = 0
    """0-based position of the record in its source (a .jsonl line, a game in a .gin file)"""
    place: Place = NOWHERE



# -- the vocabulary both forms share ----------------------------------------------------------

GAME_TAGS = ("Rules", "Set", "Players")
HAND_TAGS = ("Hand", "Dealer", "Deal", "Upcard", "Stock")
KNOWN_TAGS = {name.lower(): name for name in (*GAME_TAGS, *HAND_TAGS)}
"""The tags the format defines, by lowercase name; any other tag is a free tag."""
HAND_TAG_KEYS = frozenset(name.lower() for name in HAND_TAGS)
TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
KNOB_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
ENDINGS = frozenset({"knock", "gin", "big_gin"})
OUTCOMES = frozenset({"knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock", "win", "draw",
                      "unfinished"})
UNFINISHED_REASONS = ("forfeit", "timeout", "illegal_move", "error", "stopped")
"""Why a hand stopped: a player forfeited, ran out of time, sent an illegal move, the program
failed, or the log was cut on purpose."""
SOURCES = frozenset({"stock", "discard", "none"})

