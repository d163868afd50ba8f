"""A player's position in a recorded hand, from what that player could have seen.

:func:`position_at` finds the turn on a line of a ``.gin`` record, plays the
hand up to it at a :class:`ginref.referee.table.Table` (so every earlier move is
checked by the one set of rules), and reads off the mover's view after the draw
(:meth:`~ginref.referee.table.Table.view`): the 11 cards held, the discard pile
(seen, out of play), the cards the opponent took from the pile and has not thrown
since, the stock left, the first upcard and the card just taken. The opponent's
other cards stay unknown, even though the record shows the deal.

:func:`knock_positions` takes the same reading (:meth:`Position.of` a player's view of the one
machine, :class:`~ginref.referee.hand.Hand`) during :func:`~ginref.referee.adjudicate`'s own
replay, at each hand's first knock, so that ``report --advise`` replays a knocked hand once; a
test holds it to :func:`position_in` on generated and corrupted games.
"""

from __future__ import annotations

from typing import IO, NoReturn

import msgspec

from ginref.cards import Card, Mask, mask_of
from ginref.errors import GinrefError, RecordError, RulingError
from ginref.notation import excerpt
from ginref.records import Event, GameRecord, Turn, read_records
from ginref.referee.hand import Hand
from ginref.referee.moves import View
from ginref.referee.table import IllegalMove, Move, NotADeal, Table, moves_of
from ginref.referee.verdict import Verdict, adjudicate, adjudicate_replayed
from ginref.rules import Rules, record_rules

__all__ = ["Position", "knock_positions", "position_at", "position_in"]


class Position(msgspec.Struct, frozen=True):
    """What the player to move knows: the arguments :func:`ginref.advise` takes."""

    player: str
    hand: Mask
    """the 11 cards held after the draw"""
    seen: Mask
    """the discard pile"""
    opponent_has: Mask
    stock: int
    upcard: Card | None
    taken: Card | None
    """the card just taken from the discard pile, if the draw was from there"""
    rules: Rules

    @classmethod
    def of(cls, view: View, rules: Rules) -> Position:
        """The position a player's :class:`View` shows after its draw: the one reading of a
        position, for a live table's and for a record's replay."""
        return cls(view.player, view.hand.mask, mask_of(view.pile), view.opponent_took.mask, view.stock,
                   view.upcard, view.taken, rules)


def position_at(
    source: str, line: int, rules: Rules | None = None, *, stdin: IO[bytes] | None = None
) -> Position:
    """The position of the player whose turn is on ``line`` of the record ``source`` (``-``: stdin).

    ``rules`` default to the record's own. Raises :class:`RulingError` when the
    line holds no turn or the hand cannot be followed up to it, and a
    :class:`RecordError` for a record that cannot be read there or an input with no record.
    """
    stream: str | IO[bytes] = stdin if stdin is not None and source == "-" else source
    shown = "<stdin>" if source == "-" else source
    read = 0
    for record in read_records(stream, source=shown):
        read += 1
        if isinstance(record, RecordError):
            if record.line == line:
                raise record
            continue
        for index, hand in enumerate(record.hands):
            for number, event in enumerate(hand.events):
                if event.place.line == line:
                    if not isinstance(event, Turn):
                        raise RulingError(f"line {line} is not a turn: advice is given at a draw")
                    return position_in(record, index, number, rules)
    if not read:
        raise RecordError("no record found: nothing to advise on", shown)
    raise RulingError(f"no turn on line {line} of {source} (--at needs a .gin text record)")


def position_in(record: GameRecord, hand: int, event: int, rules: Rules | None = None) -> Position:
    """The position of the player whose turn is event ``event`` of hand ``hand`` of ``record``
    (0-based), after its draw: any record form, where :func:`position_at` needs a line.

    Raises :class:`RulingError` when that event is not a turn or the hand cannot be followed
    up to it.
    """
    if not (0 <= hand < len(record.hands) and 0 <= event < len(record.hands[hand].events)):
        raise RulingError(f"the record has no event {event + 1} in hand {hand + 1}")
    if not isinstance(record.hands[hand].events[event], Turn):
        raise RulingError(f"event {event + 1} of hand {hand + 1} is not a turn: advice is given at a draw")
    # advice under rules other than those the record names would mislead: a problem with them refuses it
    return _replay_to(record, hand, event, rules or record_rules(record.rules, record.overrides).required())


def _replay_to(record: GameRecord, index: int, number: int, rules: Rules) -> Position:
    hand = record.hands[index]
    turn = hand.events[number]
    assert isinstance(turn, Turn)
    try:
        table = Table.from_record(record, index, rules)
    except NotADeal as exc:
        if exc.finding is None:
            raise
        _refuse(exc.finding.message, exc.finding.place.line)
    if table.findings:
        _refuse(table.findings[0].message, table.findings[0].place.line)
    if turn.player not in record.players:
        raise RulingError(f"{excerpt(turn.player)} is not one of the players")
    for event in hand.events[:number]:
        _push(table, event, event)
        if isinstance(event, Turn) and event.knock is not None and event.player != turn.player:
            raise RulingError(f"{event.player} has already knocked")
    if table.view(turn.player).unknown:
        raise RulingError(f"the record does not show all of {turn.player}'s cards")
    drawn = _moves_of(turn, turn)[:1] if turn.source != "none" else []
    for move in drawn:
        _push(table, move, turn)
    view = table.view(turn.player)
    if not drawn or view.unknown:
        raise RulingError(f"the record does not show the card {turn.player} drew")
    return Position.of(view, rules)


def _push(table: Table, what: Event | Move, event: Event) -> None:
    """Play ``what`` (an event's moves, or one move) for ``event``'s player, as the replay rules."""
    for move in _moves_of(what, event):
        try:
            table.push(move, event.player)
        except IllegalMove as exc:
            _refuse(exc.message, event.place.line)


def _moves_of(what: Event | Move, event: Event) -> list[Move]:
    """The moves of ``what``; a value in ``event`` that is no card or meld cannot be followed."""
    try:
        return moves_of(what)
    except GinrefError as exc:
        _refuse(str(exc), event.place.line)


def _refuse(message: str, line: int) -> NoReturn:
    where = f"line {line}: " if line else ""
    raise RulingError(f"the hand cannot be followed to this turn: {where}{message}")


# -- positions read off adjudicate's own replay ---------------------------------------------


def knock_positions(record: GameRecord, rules: Rules | None = None) -> tuple[Verdict, dict[int, Position]]:
    """:func:`~ginref.referee.adjudicate` on ``record``, and from the same replay the knocker's
    position at the first knock of each hand that :func:`position_in` could follow there, by
    hand index: what :func:`position_in` gives for that turn (one replay, not two)."""
    positions: dict[int, Position] = {}
    if rules is None:
        named = record_rules(record.rules, record.overrides)
        if named.problems:  # position_in refuses such a record: no position to read
            return adjudicate(record), positions

    def at_knock(machine: Hand, turn: Turn) -> None:
        p = machine.mover
        if (machine.knocker < 0 and machine.index not in positions and turn.source != "none"
                and not machine.unknown[p] and not any(f.severity == "error" for f in machine.findings)):
            positions[machine.index] = Position.of(machine.view(p), machine.rules)

    return adjudicate_replayed(record, rules, at_knock), positions
