"""A record made wrong in a way one move shows is refused at the ``Table``, at that move, with
the code of ``adjudicate``'s first error: the replay and the table push onto one machine.

Each way of breaking a hand (``tests/support/randomplay.py``'s corruptions that a single move
shows) is applied to random hands under every preset; the hand's events are then pushed onto a
table as their players, and the first refusal must carry the code of the first error the
replay finds, at the same event.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from ginref.errors import GinrefError
from ginref.records import Event, GameRecord, Place, Turn
from ginref.referee import adjudicate
from ginref.referee.table import IllegalMove, Table, moves_of
from ginref.rules import PRESET_NAMES, find_rules
from tests.support.randomplay import corrupt, random_hand

ONE_MOVE = (
    "stock_draw_mismatch",  # a stock draw that is not the top card
    "card_not_in_hand",  # a discard not held
    "knock_over_limit",
    "invalid_meld",
    "illegal_layoff",  # a layoff that does not fit
    "layoff_on_gin",
    "wrong_turn",  # a move out of turn
    "moves_after_end",
    "not_top_discard",
    "same_card_discard",
    "draw_from_empty_stock",
)
"""the ways a record can be wrong that a single move shows, by the code adjudicate gives them"""


def _first_error(record: GameRecord) -> tuple[str, int] | None:
    """adjudicate's first error in hand 0 by the order of play: its code and the index of its
    event (a defence is ruled at the hand's end, so its findings come last in the list)."""
    hand = record.hands[0]
    first: tuple[int, str] | None = None
    for found in adjudicate(record).findings:
        if found.severity != "error" or found.hand != 0:
            continue
        index = _event_at(hand.events, found.place)
        if index >= 0 and (first is None or index < first[0]):
            first = (index, found.code)
    return None if first is None else (first[1], first[0])


def _event_at(events: tuple[Event, ...], place: Place) -> int:
    """The index of the event a finding stands at (a turn, its knock); an event the corruption
    added has no place, and its findings stand at the hand's."""
    for index, event in enumerate(events):
        knock = event.knock if type(event) is Turn else None
        if place in (event.place, knock.place if knock is not None else None):
            return index
    return next((i for i, e in enumerate(events) if e.place == Place()), -1)


def _first_refusal(record: GameRecord) -> tuple[str, int] | None:
    """The first move of hand 0 a table refuses: its code and the index of its event."""
    table = Table.from_record(record, 0)
    for number, event in enumerate(record.hands[0].events):
        try:
            moves = moves_of(event)
        except GinrefError:
            return "not_a_move", number
        for move in moves:
            try:
                table.push(move, event.player)
            except IllegalMove as refused:
                return refused.code, number
    return None


def _broken(seed: int, code: str) -> GameRecord | None:
    rng = random.Random(seed)
    rules = find_rules(PRESET_NAMES[seed % len(PRESET_NAMES)])
    with contextlib.suppress(ValueError):  # this hand cannot be broken that way
        return corrupt(random_hand(seed, rules), rng, rules, only=code)[0]
    return None


@pytest.mark.parametrize("code", ONE_MOVE)
def test_a_record_broken_at_one_move_is_refused_there_with_adjudicates_code(code: str) -> None:
    checked = 0
    for seed in range(400):
        record = _broken(seed * 31 + len(code), code)
        if record is None:
            continue
        expected = _first_error(record)
        assert expected is not None, seed
        assert _first_refusal(record) == expected, seed
        checked += expected[0] == code
        if checked == 3:
            return
    pytest.fail(f"only {checked} hands could be broken by {code}")


@pytest.mark.slow
@pytest.mark.parametrize("code", ONE_MOVE)
def test_many_broken_records_are_refused_where_adjudicate_finds_them(code: str) -> None:
    for seed in range(1000, 1600):
        record = _broken(seed, code)
        if record is not None:
            expected = _first_error(record)
            assert expected is not None
            assert _first_refusal(record) == expected, seed
