"""The state of one hand: its cards, its stage, and the findings made so far.

:class:`HandState` holds the fields by name; :mod:`ginref.referee.knock` adds the knock and
the defence, and :mod:`ginref.referee.hand` the deal and the moves (:class:`~ginref.referee.hand.Hand`,
the one machine). :class:`Snapshot` saves and restores the fields a move changes.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from typing import TypeVar

import msgspec

from ginref.cards import Card, Mask, card_name, scan
from ginref.melds import (
    MeldSystem,
)
from ginref.notation import excerpt
from ginref.records.model import Defence, HandRecord, Pass, Place, Turn
from ginref.referee.findings import Finding, FindingCode, finding
from ginref.rules import Rules
from ginref.scoring import Ending, Step

# -- one hand ---------------------------------------------------------------------------

class Phase(str, enum.Enum):
    """Where play stands: what the player to move must do. The one vocabulary of the table,
    the line protocol and ``Unfinished.phase`` (the value is the word); :func:`phase_of`
    reads it off the machine's :class:`Stage`."""

    UPCARD = "upcard"
    """take or pass the first upcard"""
    DRAW = "draw"
    """draw from the stock, or take the top discard"""
    DISCARD = "discard"
    """discard, or knock (after taking the last discard at the wall: knock only)"""
    WALL = "wall"
    """the stock is at its floor: take the last discard (to knock, unless ``take_or_dead``), or pass"""
    DEFENCE = "defence"
    """the defender lays off, then finishes"""
    OVER = "over"

    def __str__(self) -> str:
        return self.value


class Stage(enum.IntEnum):
    """The machine's stages of a hand, finer than :class:`Phase`: the upcard ritual, the forced
    stock draw after two passes, the eleven-card opening, normal play, the wall (the stock at
    its floor), knocked, over. Kept as plain ints; :func:`phase_of` says what each means to
    the player to move."""

    RITUAL = 0
    FORCED = 1
    ELEVEN = 2
    NORMAL = 3
    WALL = 4
    KNOCKED = 5
    OVER = 6


RITUAL, FORCED, ELEVEN, NORMAL, WALL, KNOCKED, OVER = (int(stage) for stage in Stage)
"""the stages as plain ints, which the replay keeps and compares: CPython specialises a compare of
two ints, not of an IntEnum (0.6% of a JSON Lines record's instructions)"""
FIRST_PHASE = {"ritual": RITUAL, "none": NORMAL, "eleven_card": ELEVEN}


class Flow(enum.Enum):
    """What a step tells the replay: go on; stop and rule on what was seen; abandon the hand
    (its cards can no longer be followed: the outcome stays ``unresolved``)."""

    GO = "go"
    STOP = "stop"
    ABANDON = "abandon"


GO, STOP, ABANDON = Flow


WALL_ENDS = frozenset({"wall", "stock"})
"""how a hand's ``end`` reads when the stock ran down to its floor with no knock (the replay
sets ``wall`` for a pass at the wall, ``stock`` for the last stock card drawn)"""


class Unfinished(msgspec.Struct, frozen=True):
    """A hand that stopped before its end, as its record claims, and where play stood.

    ``phase`` is what ``to_move`` had to do next: ``upcard`` (take or pass the first
    upcard), ``draw``, ``discard``, ``wall`` (knock or pass on the last discard) or
    ``defence`` (lay off and meld after a knock).
    """

    reason: str
    stopped_by: str | None
    to_move: str | None
    phase: str

    def to_dict(self) -> dict[str, object]:
        return {"reason": self.reason, "stopped_by": self.stopped_by, "to_move": self.to_move,
                "phase": self.phase}


_STAGE_PHASES = (Phase.UPCARD, Phase.DRAW, Phase.DISCARD, Phase.DRAW, Phase.WALL, Phase.DEFENCE, Phase.OVER)
"""the :class:`Phase` of each :class:`Stage` at the start of a turn, by the stage's int"""


def phase_of(stage: int, drawn: bool = False) -> Phase:
    """The :class:`Phase` of a hand at ``stage``; ``drawn``: the mover has drawn and owes the
    turn's discard or knock. The one reading of where play stands."""
    if drawn and stage < KNOCKED:
        return Phase.DISCARD
    return _STAGE_PHASES[stage]


class HandRuling:
    """What the replay of one hand found out (filled in as it goes, then read by the verdict)."""

    __slots__ = (
        "dealer",
        "defence_recorded",
        "defender_cards",
        "defender_deadwood",
        "defender_spread",
        "end",
        "held_at_end",
        "knock_limit",
        "knocker",
        "knocker_deadwood",
        "knocker_melds",
        "layoffs",
        "multiplier",
        "outcome",
        "points",
        "steps",
        "stock_left",
        "unfinished",
        "winner",
    )

    def __init__(self, dealer: str | None) -> None:
        self.dealer = dealer
        self.outcome = "unresolved"
        self.end = "error"
        self.winner: str | None = None
        self.points = 0
        self.knocker: str | None = None
        self.knocker_deadwood: int | None = None
        self.defender_deadwood: int | None = None
        self.knocker_melds: tuple[Mask, ...] = ()
        self.defender_spread: tuple[Mask, ...] | None = None
        self.defender_cards: Mask = 0
        self.layoffs: tuple[tuple[Card, Mask], ...] = ()
        self.defence_recorded = False
        self.multiplier = 1
        self.knock_limit = 10
        self.stock_left = 31
        self.held_at_end: tuple[Mask, Mask] | None = None
        """each seat's cards when the replay finished (its claims, such as RLCard's payoffs, are
        checked against them); None when the hand could not be replayed to its end"""
        self.steps: tuple[Step, ...] = ()
        self.unfinished: Unfinished | None = None

    def copy(self) -> HandRuling:
        twin = HandRuling.__new__(HandRuling)
        for name in HandRuling.__slots__:
            setattr(twin, name, getattr(self, name))
        return twin


def card_names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in scan(mask))


def card_count(mask: Mask) -> int:
    return bin(mask).count("1")


def is_card(c: object) -> bool:
    return type(c) is int and 0 <= c < 52


BIT_OF = [1 << c for c in range(52)].__getitem__
"""a card's bit by indexing (a list's, which CPython calls faster than a tuple's); never changed"""


def fast_mask(cards: Sequence[object]) -> int:
    """The mask of ``cards`` if they are distinct valid cards, else -1 (look closer).

    A sum of card bits has as many bits set as there are cards exactly when no card
    repeats (a repeat carries), so one pass decides both; indexing the bits refuses
    anything but an int below 52, and ``min`` a negative one.
    """
    try:
        mask: int = sum(map(BIT_OF, cards))  # type: ignore[arg-type]
    except (IndexError, TypeError):
        return -1
    if mask.bit_count() != len(cards) or (cards and min(cards) < 0):  # type: ignore[type-var, operator]
        return -1
    return mask


def card_text(c: object) -> str:
    return card_name(c) if is_card(c) else repr(c)  # type: ignore[arg-type]



def _movers(events: Sequence[Pass | Turn | Defence]) -> dict[Place, str | None]:
    """Who moved at each place an event (or a turn's knock) stands at; None where two players did."""
    movers: dict[Place, str | None] = {}
    for ev in events:
        who, at = ev.player, ev.place
        if (at.line or at.pointer) and movers.setdefault(at, who) != who:
            movers[at] = None
        if isinstance(ev, Turn) and ev.knock is not None:
            at = ev.knock.place
            if (at.line or at.pointer) and movers.setdefault(at, who) != who:
                movers[at] = None
    return movers


_State = TypeVar("_State", bound="HandState")


class HandState:
    """One hand's cards, phase and findings, as the moves leave them.

    Every field is a slot (CPython reads a slot as fast as it reads anything; an instance
    dict with more keys than its class shares, as a hand's would be, is read key by key),
    set in ``__init__``; what a field means is said there.
    """

    __slots__ = (
        "declared_index", "defence", "drawn", "draws", "end", "ending", "expected", "findings", "finished",
        "from_pile", "hand", "held", "index", "knock_place", "knocker", "knocker_dw", "laid", "melds",
        "mover", "movers", "non_dealer", "passes", "phase", "pile", "players", "repeat", "result", "rules",
        "stock", "stock_left", "stock_pos", "system", "taken", "turns", "unknown", "unseen", "wall_take",
    )

    FIXED = ("hand", "index", "players", "rules", "system", "non_dealer", "movers")
    """the fields no move changes (``movers`` is a cache of the record's places)"""

    def __init__(
        self, hand: HandRecord, index: int, players: tuple[str, str], rules: Rules,
        system: MeldSystem, findings: list[Finding],
    ) -> None:
        self.hand = hand
        self.index = index
        self.players = players
        self.rules = rules
        self.system = system
        self.findings = findings
        dealt = hand.dealer in players
        self.result = result = HandRuling(hand.dealer if dealt else None)
        self.held = [0, 0]
        self.unknown = [0, 0]
        self.pile: list[Card] = []
        self.knock_place = hand.place
        self.phase = FIRST_PHASE[rules.first_turn]
        self.non_dealer = 1 - players.index(hand.dealer) if dealt else 1
        self.expected = self.non_dealer
        # the cards: those no player is known to hold, and the stock's order where known
        self.unseen = 0
        self.stock: Sequence[Card] | None = None
        self.stock_pos = 0
        self.stock_left = 31
        # the knock, as checked by check_knock() for defend()
        self.ending: Ending = "knock"
        self.melds: tuple[Mask, ...] = ()
        self.declared_index: tuple[int, ...] = ()
        self.knocker_dw = 0
        self.knocker = -1
        self.defence: Defence | None = None
        # the play
        self.passes = 0
        self.draws = 0
        """discard draws counted for max_discard_draws"""
        self.repeat = False
        self.turns = 0
        self.taken = -1
        """the card just taken from the discard pile, -1 after a stock draw"""
        self.drawn = False
        """``mover`` has drawn and owes the turn's discard or knock"""
        self.mover = -1
        """who drew last: the seat whose discard or knock is due while ``drawn``"""
        self.wall_take = False
        """a live table's take of the last discard at the wall, which only a knock may follow"""
        self.finished = False
        """the defence is made: the hand is over"""
        self.laid: tuple[tuple[Card, int], ...] = ()
        """a live table's layoffs so far: (card, the knocker's meld, 0-based)"""
        self.from_pile = 0
        """every card taken from the discard pile this hand: a seat holds the ones it took and
        has not discarded since (``from_pile & held[seat]``: a pile card comes back to a hand
        only so)"""
        self.end = ""
        self.movers: dict[Place, str | None] | None = None
        """who moved at each event's place, built at the hand's first finding"""
        upcard = hand.upcard if is_card(hand.upcard) else None
        result.knock_limit = rules.knock_limit_for(upcard)
        result.multiplier = rules.multiplier(upcard)

    def clone(self: _State) -> _State:
        """An independent state equal to this one, its findings list copied."""
        twin = self.__class__.__new__(self.__class__)
        for name in HandState.FIXED:
            setattr(twin, name, getattr(self, name))
        twin.findings = list(self.findings)
        Snapshot(self).restore(twin)
        return twin

    # -- findings -----------------------------------------------------------------

    def add(self, code: FindingCode, message: str, place: Place | None = None, points: int = 0,
            knobs: tuple[str, ...] = ()) -> None:
        """Record a finding at ``place`` (an event's), else at the hand; ``points`` given away;
        ``knobs``: the rule knobs that decided it."""
        if place is None or not (place.line or place.pointer):
            place = self.hand.place
        self.findings.append(finding(code, message, place, self.index, self.mover_at(place), points, knobs))

    def stranger(self, name: object) -> str:
        """A name the record gives that is not a player's, quoted short, and who the players are."""
        return f"{excerpt(name)} is not one of the players {self.players[0]} and {self.players[1]}"

    def mover_at(self, place: Place) -> str | None:
        """The player whose event (a turn, its knock, a pass, a defence) stands at ``place``;
        None at the hand's own place, at no event, or where two players' events share it."""
        if self.movers is None:
            self.movers = _movers(self.hand.events)
        return None if place == self.hand.place else self.movers.get(place)

    def where(self, c: Card) -> str:
        """Where card ``c`` is known to be, for messages (``"in Bo's hand"``)."""
        bit = 1 << c
        for p in (0, 1):
            if self.held[p] & bit:
                return f"in {self.players[p]}'s hand"
        if c in self.pile:
            return "on the discard pile"
        if self.stock is not None and c in self.stock[self.stock_pos:]:
            return "still in the stock"
        return ""

    def take_from_hand(self, p: int, c: Card) -> bool:
        """Remove ``c`` from player ``p``'s hand, drawing on its unseen cards if need be."""
        bit = 1 << c
        if self.held[p] & bit:
            self.held[p] ^= bit
            return True
        if self.unknown[p] and self.unseen & bit:
            self.unknown[p] -= 1
            self.unseen ^= bit
            return True
        return False

    def reveal(self, p: int, mask: Mask) -> Mask:
        """Make the cards of ``mask`` known in ``p``'s hand where its unseen cards allow;
        return the cards of ``mask`` that ``p`` cannot hold."""
        extra = mask & ~self.held[p]
        if not extra:
            return 0
        possible = extra & self.unseen
        missing = extra & ~self.unseen
        n = card_count(possible)
        if n > self.unknown[p]:
            # more cards than unseen slots: none of them can be vouched for
            return extra
        self.unknown[p] -= n
        self.unseen &= ~possible
        self.held[p] |= possible
        return missing

    def not_a_card(self, what: str, value: object, place: Place) -> Flow:
        """Report a value that is not a card (``what`` did it); the hand cannot go on."""
        self.add(FindingCode.BAD_CARD, f"{what} {excerpt(value)}, which is not a card", place)
        return ABANDON

    def not_held(self, p: int, verb: str, c: Card, place: Place) -> None:
        name = self.players[p]
        where = self.where(c)
        tail = f"which is {where}" if where and not where.startswith(f"in {name}'s") else (
            f"which is not in {name}'s hand"
        )
        self.add(FindingCode.CARD_NOT_IN_HAND, f"{name} {verb} {card_name(c)}, {tail}", place)



class Snapshot:
    """The fields of a hand's state that a move changes, saved by name (as python-chess's
    ``_BoardState``): the table takes one before each move, and :meth:`restore` puts the
    state back exactly on a refused move or a :meth:`~ginref.referee.table.Table.pop`.

    The ruling (``result``) is kept by reference: the moves that write it (a knock, a layoff,
    the finish) give the state a copy first, so the saved one stays as it was.
    """

    SCALARS = (
        "unseen", "stock", "stock_pos", "ending", "melds", "declared_index", "knocker_dw", "passes",
        "draws", "repeat", "turns", "stock_left", "taken", "end", "knocker", "defence",
        "knock_place", "phase", "expected", "result", "drawn", "mover", "wall_take", "finished", "laid",
        "from_pile",
    )
    """the fields held as immutable values (or, for ``result``, by reference)"""
    __slots__ = ("findings", "held", "pile", "scalars", "unknown")
    _read = operator.attrgetter(*SCALARS)
    """the scalars' values in :data:`SCALARS` order, read in one call (a push takes a snapshot)"""

    def __init__(self, state: HandState) -> None:
        self.scalars: tuple[object, ...] = Snapshot._read(state)
        self.held = tuple(state.held)
        self.unknown = tuple(state.unknown)
        self.pile = tuple(state.pile)
        self.findings = len(state.findings)

    def restore(self, state: HandState) -> None:
        """Put ``state`` back as it was when this snapshot was taken (its findings list too)."""
        for name, value in zip(Snapshot.SCALARS, self.scalars, strict=True):
            setattr(state, name, value)
        state.held = list(self.held)
        state.unknown = list(self.unknown)
        state.pile = list(self.pile)
        del state.findings[self.findings:]


class PlainSnapshot:
    """The fields a plain move of normal play changes (a stock draw, a take, a discard: the
    hand's fast path, ``Hand.quick_draw``, ``quick_take``, ``quick_discard``), saved by name:
    what a live table keeps to take such a move back, lighter than a :class:`Snapshot`. The
    table's pop test restores every field after every move, these included."""

    SCALARS = (
        "unseen", "stock_pos", "stock_left", "taken", "turns", "draws", "repeat", "from_pile", "mover",
        "drawn", "expected", "phase", "end",
    )
    __slots__ = ("held", "pile", "scalars")
    _read = operator.attrgetter(*SCALARS)

    def __init__(self, state: HandState) -> None:
        self.scalars: tuple[object, ...] = PlainSnapshot._read(state)
        self.held = tuple(state.held)
        self.pile = tuple(state.pile)

    def restore(self, state: HandState) -> None:
        """Put ``state`` back as it was before the plain move."""
        for name, value in zip(PlainSnapshot.SCALARS, self.scalars, strict=True):
            setattr(state, name, value)
        state.held = list(self.held)
        state.pile = list(self.pile)
