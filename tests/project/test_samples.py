"""samples/hands.txt doubles as an acceptance suite: each comment states the ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginref.analysis import analyze
from ginref.cards import card_name
from ginref.errors import GinrefError
from ginref.notation import parse_hand

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def sample_hands() -> list[tuple[int, str, str]]:
    cases = []
    for number, line in enumerate((SAMPLES / "hands.txt").read_text(encoding="utf-8").splitlines(), 1):
        hand, _, comment = line.partition("#")
        if hand.strip():
            cases.append((number, hand.strip(), comment.strip()))
    return cases


@pytest.mark.parametrize(("number", "hand", "expect"), sample_hands(), ids=lambda v: str(v)[:30])
def test_sample_hand(number: int, hand: str, expect: str) -> None:
    bad = re.match(r"bad: (.*)", expect)
    if bad:
        with pytest.raises(GinrefError, match=re.escape(bad.group(1))):
            parse_hand(hand)
        return
    result = analyze(parse_hand(hand).mask)
    stated = re.match(r"deadwood (\d+)(?: after discard (\w+))?; (no knock|knock|gin)", expect)
    assert stated, f"line {number}: comment does not state a ruling"
    assert result.arrangement.deadwood_points == int(stated.group(1))
    if stated.group(2):
        assert result.best_discard is not None and card_name(result.best_discard) == stated.group(2)
    assert result.can_knock == (stated.group(3) != "no knock")
    assert result.gin == (stated.group(3) == "gin")


def test_samples_cover_both_hand_sizes() -> None:
    sizes = {len(parse_hand(hand)) for _, hand, expect in sample_hands() if not expect.startswith("bad")}
    assert sizes == {10, 11}
