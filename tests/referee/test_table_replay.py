"""The table and the batch are one referee: a record's moves played at a ``Table`` are accepted
exactly when ``adjudicate`` finds them clean, refused with the code it reports, and ruled as it
rules them.

``adjudicate`` runs the replay over whole events (with its quick path for plain turns); the table
feeds the same steps one move at a time. These tests play generated, corrupted and OpenSpiel
records both ways.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from ginref.records import Defence, GameRecord, read_records
from ginref.referee import adjudicate
from ginref.referee.table import IllegalMove, Phase, Table, moves_of
from ginref.rules import PRESET_NAMES, find_rules
from tests.support.randomplay import corrupt, random_game, random_hand

OPENSPIEL = "samples/records/openspiel/games.jsonl"
RULED = ("outcome", "end", "winner", "points", "knocker", "knocker_deadwood", "defender_deadwood",
         "knocker_melds", "layoffs", "multiplier", "knock_limit", "stock_left")


def _played(record: GameRecord, index: int) -> tuple[Table, IllegalMove | None]:
    """Hand ``index`` of ``record`` played at a table up to its first refused move."""
    table = Table.from_record(record, index)
    for event in record.hands[index].events:
        for move in moves_of(event):
            try:
                table.push(move, event.player)
            except IllegalMove as refused:
                return table, refused
    return table, None


def _same_ruling(record: GameRecord) -> None:
    verdict = adjudicate(record)
    for index, hand in enumerate(verdict.hands):
        table, refused = _played(record, index)
        assert refused is None, (index, refused)
        defended = any(type(e) is Defence for e in record.hands[index].events)
        if table.phase is Phase.DEFENCE and not defended:
            continue  # the referee works out the best defence; the table waits for the defender's
        if hand.outcome == "unfinished":
            assert not table.is_over()
            continue
        ruled = table.outcome()
        assert ruled is not None, (index, table.phase)
        assert {f: getattr(ruled, f) for f in RULED} == {f: getattr(hand, f) for f in RULED}


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_clean_records_play_at_the_table_and_are_ruled_the_same(rules: str) -> None:
    for seed in range(6):
        _same_ruling(random_hand(seed, find_rules(rules)))
    _same_ruling(random_game(3, find_rules(rules), max_hands=3))


def test_openspiel_games_play_at_the_table_and_are_ruled_the_same() -> None:
    records = [r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord)]
    for record in records[:40]:
        _same_ruling(record)


def _refused_as_reported(seed: int, rules: str) -> bool:
    """A corrupted record: the first move the table refuses carries an error code the batch
    reports for that hand. False when the corruption is no move's (a claim, a score)."""
    record, _ = corrupt(random_hand(seed, find_rules(rules)), random.Random(seed))
    verdict = adjudicate(record)
    errors = {f.code for f in verdict.findings if f.severity == "error" and f.hand == 0}
    try:
        _, refused = _played(record, 0)
    except Exception:  # a deal the table cannot be set to: the batch reports it too
        assert errors & {"deal_incomplete", "duplicate_card", "bad_card", "unknown_player"}
        return True
    if refused is None:
        return False
    assert refused.code in errors, (rules, seed, refused, errors)
    return True


@pytest.mark.parametrize("rules", ["standard", "openspiel", "hoyle", "oklahoma"])
def test_a_corrupted_move_is_refused_with_the_code_the_batch_reports(rules: str) -> None:
    refused = 0
    for seed in range(40):
        with contextlib.suppress(ValueError):  # no corruption applies
            refused += _refused_as_reported(seed, rules)
    assert refused >= 15
