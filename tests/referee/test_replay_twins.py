"""The replay's quick path for a plain legal turn against the checked path it stands beside.

``Hand.quick_turns`` takes runs of the common draw-and-discard without the checks; with it
switched off every event goes through the steps of its phase. Both must give the same
verdict, findings included, on clean games, corrupted ones and every preset.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginref.records import GameRecord, read_records
from ginref.referee import Verdict, adjudicate
from ginref.referee.hand import Hand
from ginref.referee.state import fast_mask
from ginref.rules import PRESET_NAMES, find_rules
from tests.support.randomplay import corrupt, random_game, random_hand

OPENSPIEL = "samples/records/openspiel/games.jsonl"


def checked_only(record: GameRecord, monkeypatch: pytest.MonkeyPatch) -> Verdict:
    with monkeypatch.context() as patch:
        patch.setattr(Hand, "quick_turns", lambda self, events, i: i)
        return adjudicate(record)


def records(seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    out: list[GameRecord] = []
    for i, name in enumerate(PRESET_NAMES):
        rules = find_rules(name)
        out.append(random_hand(seed * 100 + i, rules))
        out.append(random_game(seed * 100 + i, rules, max_hands=4))
        with contextlib.suppress(ValueError):  # no corruption applies to this hand
            out.append(corrupt(random_hand(seed * 100 + 50 + i, rules), rng, rules)[0])
    return out


@pytest.mark.parametrize("seed", range(12))
def test_quick_turn_and_checked_path_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for record in records(seed):
        assert adjudicate(record) == checked_only(record, monkeypatch)


def test_they_agree_on_openspiel_games(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord)][:60]
    assert len(games) == 60
    for record in games:
        assert adjudicate(record) == checked_only(record, monkeypatch)


def test_the_quick_path_is_taken() -> None:
    """Without this the comparison above would compare the checked path with itself."""
    taken = 0
    original = Hand.quick_turns

    def counting(self: Hand, events: object, i: int) -> int:
        nonlocal taken
        after = original(self, events, i)  # type: ignore[arg-type]
        taken += after - i
        return after

    Hand.quick_turns = counting  # type: ignore[method-assign]
    try:
        adjudicate(random_hand(1))
    finally:
        Hand.quick_turns = original  # type: ignore[method-assign]
    assert taken > 5


CARDISH = st.one_of(
    st.integers(-3, 55), st.integers(-110, 110), st.sampled_from([None, "3C", 2.0, 10**30, -53, -52, 52, 53])
)


@given(st.lists(CARDISH, max_size=40))
def test_the_deal_fast_mask_is_the_checked_reading(cards: list[object]) -> None:
    """``fast_mask`` (one sum of card bits) against the deal's card-by-card check: the
    mask of distinct cards 0..51, else -1."""
    valid = all(type(c) is int and 0 <= c < 52 for c in cards) and len(set(cards)) == len(cards)
    expected = sum(1 << c for c in cards) if valid else -1  # type: ignore[operator]
    assert fast_mask(cards) == expected


EAAI = "samples/research/eaai-games.txt"


@pytest.mark.parametrize("seed", range(4))
def test_they_agree_on_claimed_least_deadwood(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """EAAI games claim each turn's least deadwood: as the framework printed it, and with some
    claims made wrong (one in five), both paths find the same findings at the same places."""
    import msgspec

    from ginref.records.model import Turn

    rng = random.Random(seed)
    games = [r for r in read_records(EAAI) if isinstance(r, GameRecord)]
    wrong = 0
    for record in games:
        hands = []
        for hand in record.hands:
            events = []
            for ev in hand.events:
                if type(ev) is Turn and ev.least_deadwood is not None and rng.random() < 0.2:
                    claim = ev.least_deadwood + rng.choice((-1, 1, 7))
                    ev = msgspec.structs.replace(ev, least_deadwood=claim)
                    wrong += 1
                events.append(ev)
            hands.append(msgspec.structs.replace(hand, events=tuple(events)))
        changed = msgspec.structs.replace(record, hands=tuple(hands))
        assert adjudicate(record) == checked_only(record, monkeypatch)
        verdict = adjudicate(changed)
        assert verdict == checked_only(changed, monkeypatch)
        assert verdict.codes.count("deadwood_misdeclared") > 0
    assert wrong > 20
