"""Edge cases of the hand ruling that the rulings table does not reach."""

from __future__ import annotations

import pytest

from ginref.cards import card_name, mask_of
from ginref.errors import RulingError
from ginref.notation import parse_cards, parse_melds
from ginref.rules import find_rules
from ginref.scoring import Outcome, score_hand, settle

KNOCKER_ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
DEFENDER = "6C 9C 5S JS JC JD 4S AS 8D TD"  # [JC JD JS] + 6+9+5+4+1+8+10 = 43


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


@pytest.mark.parametrize(
    ("rules", "outcome", "points", "discard"),
    [
        ("standard", Outcome.GIN, 43 + 20, "QH"),  # must discard: the run spares its top card
        ("hoyle", Outcome.BIG_GIN, 43 + 31, None),  # big gin: no discard
    ],
)
def test_eleven_declared_cards(rules: str, outcome: Outcome, points: int, discard: str | None) -> None:
    melds = [mask_of(m) for m in parse_melds(f"[{KNOCKER_ALL_HEARTS}]")]
    ruling = score_hand(mask(KNOCKER_ALL_HEARTS), mask(DEFENDER), find_rules(rules), melds=melds)
    assert (ruling.outcome, ruling.points) == (outcome, points)
    assert (card_name(ruling.discard) if ruling.discard is not None else None) == discard


@pytest.mark.parametrize(
    ("policy", "outcome", "winner", "points"),
    [
        ("undercut", Outcome.UNDERCUT, "defender", 10),
        ("no_score", Outcome.TIE, None, 0),
        ("knocker", Outcome.KNOCK, "knocker", 0),
    ],
)
def test_settle_tie_policies(policy: str, outcome: Outcome, winner: str | None, points: int) -> None:
    from ginref.rules import with_overrides

    settlement = settle("knock", 7, 7, with_overrides(find_rules("standard"), {"tie_policy": policy}))
    assert (settlement.outcome, settlement.winner, settlement.points) == (outcome, winner, points)


def test_settle_rejects_impossible_counts() -> None:
    with pytest.raises(RulingError, match="gin means no deadwood"):
        settle("gin", 3, 10)
    with pytest.raises(RulingError, match="big gin is not a rule"):
        settle("big_gin", 0, 10)
    with pytest.raises(RulingError, match="negative"):
        settle("knock", -1, 10)


def test_spade_upcard_doubles_the_hand_with_its_bonus() -> None:
    oklahoma = find_rules("oklahoma")
    settlement = settle("knock", 8, 5, oklahoma, multiplier=oklahoma.multiplier(parse_cards("9S")[0]))
    assert (settlement.outcome, settlement.points) == (Outcome.UNDERCUT, (3 + 10) * 2)


def test_declared_layoffs_respect_chaining_and_ownership() -> None:
    from ginref.layoffs import defence_as_declared
    from ginref.melds import STANDARD_SYSTEM, Meld

    run = [Meld(mask("4H 5H 6H"))]
    defender = mask("3H 7H 8H 2C 2D 9S KD QC JS AC")
    seven, eight, three = (parse_cards(c)[0] for c in ("7H", "8H", "3H"))
    laid = [(seven, 0), (eight, 0), (three, 0)]
    chained, problems = defence_as_declared(defender, [], laid, run, STANDARD_SYSTEM)
    assert not problems and chained.laid_off == mask("3H 7H 8H")
    unchained, problems = defence_as_declared(defender, [], laid, run, STANDARD_SYSTEM, chaining=False)
    assert unchained.laid_off == mask("3H 7H")  # 8H only touches the 7H laid before it
    assert problems == ["8H does not fit [4H 5H 6H]"]
    _, problems = defence_as_declared(defender, [], [(parse_cards("3D")[0], 0)], run, STANDARD_SYSTEM)
    assert problems == ["3D is not the defender's to lay off"]
