"""A player's position in a recorded hand, from what that player could have seen.

:func:`position_at` finds the turn on a line of a ``.gin`` record, replays the
hand up to it with :class:`ginref.referee.replay.HandReplay` (so every earlier
move is checked by the one set of rules), and reads off the mover's view after
the draw: the 11 cards held, the discard pile (seen, out of play), the cards
the opponent took from the pile and has not thrown since, the stock left, the
first upcard and the card just taken. The opponent's other cards stay unknown,
even though the record shows the deal.
"""

from __future__ import annotations

from typing import IO

import msgspec

from ginref.cards import Card, Mask
from ginref.errors import RecordError, RulingError
from ginref.melds import MeldSystem
from ginref.notation import excerpt
from ginref.records import GameRecord, HandRecord, Turn, read_records
from ginref.referee.findings import Finding
from ginref.referee.replay import HandReplay
from ginref.rules import Rules, record_rules

__all__ = ["Position", "position_at", "position_in"]


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
    return _replay_to(record, hand, event, rules or _record_rules(record))


def _record_rules(record: GameRecord) -> Rules:
    """The record's rules (:func:`ginref.rules.record_rules`); advice under rules other than
    those the record names would mislead, so a problem with them refuses the record."""
    named = record_rules(record.rules, record.overrides)
    if named.problems:
        raise RulingError(f"the record's rules cannot be used: {named.problems[0]}")
    return named.rules


def _replay_to(record: GameRecord, index: int, number: int, rules: Rules) -> Position:
    hand = record.hands[index]
    turn = hand.events[number]
    assert isinstance(turn, Turn)
    findings: list[Finding] = []
    replay = HandReplay(hand, index, record.players, rules, MeldSystem.from_rules(rules), findings)
    if not replay.deal():
        _refuse(findings, hand)
    if turn.player not in record.players:
        raise RulingError(f"{excerpt(turn.player)} is not one of the players")
    mover = record.players.index(turn.player)
    known = _replay_before(replay, hand, number, 1 - mover, findings)
    if replay.unknown[mover]:
        raise RulingError(f"the record does not show all of {turn.player}'s cards")
    return _after_draw(replay, turn, mover, known, rules)


def _replay_before(replay: HandReplay, hand: HandRecord, number: int, opponent: int,
                   findings: list[Finding]) -> Mask:
    """Play the events before the turn; the cards the opponent took from the pile and kept."""
    known = 0
    name = replay.players[opponent]
    for event in hand.events[:number]:
        top = replay.pile[-1] if replay.pile else None
        replay.step(event, False)
        if findings:
            _refuse(findings, hand)
        if not isinstance(event, Turn) or event.player != name:
            continue
        if event.knock is not None:
            raise RulingError(f"{name} has already knocked")
        if event.source == "discard" and top is not None:
            known |= 1 << top
        if event.discard is not None:
            known &= ~(1 << event.discard)
    return known


def _after_draw(replay: HandReplay, turn: Turn, mover: int, known: Mask, rules: Rules) -> Position:
    """The mover's view once the turn's card is drawn."""
    pile = list(replay.pile)
    taken: Card | None = None
    stock = replay.stock_left
    if turn.source == "discard" and pile:
        taken = drawn = pile.pop()
    elif turn.source == "stock" and turn.card is not None:
        drawn, stock = turn.card, stock - 1
    elif turn.source == "stock" and replay.stock is not None:
        drawn, stock = replay.stock[replay.stock_pos], stock - 1
    else:
        raise RulingError(f"the record does not show the card {turn.player} drew")
    seen = 0
    for c in pile:
        seen |= 1 << c
    upcard = replay.hand.upcard
    return Position(turn.player, replay.held[mover] | 1 << drawn, seen, known, stock, upcard, taken, rules)


def _refuse(findings: list[Finding], hand: HandRecord) -> None:
    first = findings[0]
    where = f"line {first.place.line}: " if first.place.line else ""
    raise RulingError(f"the hand cannot be followed to this turn: {where}{first.message}")
