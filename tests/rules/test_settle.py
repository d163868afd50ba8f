"""Settling a hand from its counts: the score sheet arithmetic of the rules documents
(S0 and S3 worked examples), ties and big gin under each rule set."""

from __future__ import annotations

import pytest

from ginref.errors import GinrefError
from ginref.rules import find_rules
from ginref.scoring import Outcome, settle

SETTLE_CASES = [
    # S0 worked example, hands 1-7.
    pytest.param("knock", 6, 15, "standard", 1, "knock", "knocker", 9, id="S0-hand1-15-6"),
    pytest.param("knock", 8, 5, "standard", 1, "undercut", "defender", 13, id="S0-hand2-undercut"),
    pytest.param("gin", 0, 22, "standard", 1, "gin", "knocker", 42, id="S0-hand3-gin"),
    pytest.param("knock", 2, 21, "standard", 1, "knock", "knocker", 19, id="S0-hand4"),
    pytest.param("knock", 7, 18, "standard", 1, "knock", "knocker", 11, id="S0-hand5"),
    pytest.param("knock", 3, 35, "standard", 1, "knock", "knocker", 32, id="S0-hand6"),
    pytest.param("gin", 0, 30, "standard", 1, "gin", "knocker", 50, id="S0-hand7-gin"),
    # S3 example: 21 - 6 = 15; gin 18 + 25 = 43; undercut 8 - 5 + 25 = 28; 34 - 2 = 32.
    pytest.param("knock", 6, 21, "hoyle", 1, "knock", "knocker", 15, id="S3-hand1"),
    pytest.param("gin", 0, 18, "hoyle", 1, "gin", "knocker", 43, id="S3-hand2-gin"),
    pytest.param("knock", 8, 5, "hoyle", 1, "undercut", "defender", 28, id="S3-hand3-undercut"),
    pytest.param("knock", 2, 34, "hoyle", 1, "knock", "knocker", 32, id="S3-hand4"),
    # Big gin (S3): deadwood + 31.
    pytest.param("big_gin", 0, 12, "hoyle", 1, "big_gin", "knocker", 43, id="S3-big-gin"),
    # Equal counts: undercut (S0), no score (openspiel), doubled undercut (oklahoma spade).
    pytest.param("knock", 7, 7, "standard", 1, "undercut", "defender", 10, id="tie-standard"),
    pytest.param("knock", 7, 7, "openspiel", 1, "tie", None, 0, id="tie-openspiel"),
    pytest.param("knock", 7, 7, "oklahoma", 2, "undercut", "defender", 20, id="tie-spade-doubled"),
    pytest.param("gin", 0, 0, "standard", 1, "gin", "knocker", 20, id="gin-vs-zero"),
    pytest.param("gin", 0, 0, "round_the_corner", 1, "tie", None, 0, id="rtc-gin-cancelled"),
]


@pytest.mark.parametrize(
    ("ending", "k", "d", "rules_name", "multiplier", "outcome", "winner", "points"), SETTLE_CASES
)
def test_settle(
    ending: str,
    k: int,
    d: int,
    rules_name: str,
    multiplier: int,
    outcome: str,
    winner: str | None,
    points: int,
) -> None:
    result = settle(ending, k, d, find_rules(rules_name), multiplier=multiplier)  # type: ignore[arg-type]
    assert (result.outcome, result.winner, result.points) == (Outcome(outcome), winner, points)
    assert result.steps


def test_settle_big_gin_not_a_rule_in_standard() -> None:
    with pytest.raises(GinrefError):
        settle("big_gin", 0, 12, find_rules("standard"))
