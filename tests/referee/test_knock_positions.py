"""``knock_positions`` reads each hand's first knock off ``adjudicate``'s own replay; it is the
fast twin of ``position_in``, which plays the hand again at a ``Table``. Both must give the same
position (or both none) at every first knock, and the same verdict as ``adjudicate``, on
generated, corrupted and OpenSpiel records under every preset."""

from __future__ import annotations

import random

import pytest

from ginref.errors import GinrefError
from ginref.records import GameRecord, Turn, read_records
from ginref.referee import adjudicate
from ginref.referee.position import Position, knock_positions, position_in
from ginref.rules import PRESET_NAMES, Rules, find_rules
from tests.support.randomplay import corrupt, random_game, random_hand

OPENSPIEL = "samples/records/openspiel/games.jsonl"


def _checked_twin(record: GameRecord, rules: Rules | None) -> dict[int, Position]:
    """``position_in`` at the first knock of each hand, where it can follow the hand there."""
    found = {}
    for index, hand in enumerate(record.hands):
        knock = next((j for j, ev in enumerate(hand.events) if isinstance(ev, Turn) and ev.knock), None)
        if knock is None:
            continue
        try:
            found[index] = position_in(record, index, knock, rules)
        except GinrefError:
            continue
    return found


def _agree(record: GameRecord, rules: Rules | None = None) -> int:
    verdict, positions = knock_positions(record, rules)
    assert verdict == adjudicate(record, rules)
    twin = _checked_twin(record, rules)
    assert positions == twin
    return len(positions)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_generated_games_give_position_ins_positions(rules: str) -> None:
    ruled = find_rules(rules)
    read = sum(_agree(random_hand(seed, ruled)) for seed in range(12))
    read += _agree(random_game(7, ruled, max_hands=4))
    read += _agree(random_game(8, ruled, max_hands=3, hide_draws=True))
    assert read  # some knock was followed


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_corrupted_games_give_position_ins_positions_or_none(rules: str) -> None:
    ruled = find_rules(rules)
    rng = random.Random(rules)
    tried = 0
    for seed in range(40):
        try:
            broken, _code = corrupt(random_hand(seed, ruled), rng, ruled)
        except ValueError:
            continue
        _agree(broken)
        _agree(broken, find_rules("standard"))
        tried += 1
    assert tried > 20


def test_openspiel_records_give_position_ins_positions() -> None:
    records = [r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord)][:40]
    assert sum(_agree(record) for record in records) > 10
