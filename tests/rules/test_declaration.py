"""The knocker's declaration decides the layoffs (VARIANTS 4): the spread declared binds,
and withholding a meld can pay.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_FIVES,
    D_FIVES2,
    D_WITHHOLD,
    FIVES_A,
    FIVES_B,
    K_FIVES,
    K_WITHHOLD,
    Ruling,
    check_ruling,
)

RULINGS = [
    # Declared B binds: [3H 4H 5H] takes 2H and 6H (5S has no set to go on).
    # Defender 52 - 2 - 6 = 44; knocker 5C 5D = 10 (exactly the limit, legal:
    # S3 "You can knock with exactly 10"). 44 - 10 = 34.
    pytest.param(
        Ruling(K_FIVES, D_FIVES, "knock", "knocker", 34, 10, 44, ("2H", "6H"), melds=FIVES_B),
        id="declared-run-binds",
    ),
    # Declared A binds: [5C 5D 5H] takes 5S (4th card); 2H/6H find no run.
    # Defender 52 - 5 = 47; knocker 3H 4H = 7. 47 - 7 = 40.
    pytest.param(
        Ruling(
            K_FIVES, D_FIVES, "knock", "knocker", 40, 7, 47, ("5S",), melds=FIVES_A, onto={"5S": "[5C 5D 5H]"}
        ),
        id="declared-set-binds",
    ),
    # No --melds: ginref picks the declaration best for the knocker: A (40)
    # beats B (34).
    pytest.param(
        Ruling(K_FIVES, D_FIVES, "knock", "knocker", 40, 7, 47, ("5S",)), id="declaration-found-set"
    ),
    # Against D_FIVES2 only 5S fits anything. A: 49 - 5 = 44, 44 - 7 = 37.
    # B: nothing fits [3H 4H 5H] (no 2H/6H): 49 - 10 = 39. ginref should pick
    # B even though it shows more deadwood: 39.
    pytest.param(
        Ruling(K_FIVES, D_FIVES2, "knock", "knocker", 39, 10, 49, ()),
        id="declaration-found-more-deadwood-scores-more",
    ),
    # knocker_must_meld_max (Pagat "as far as possible"): only least-deadwood
    # spreads, so A: 37.
    pytest.param(
        Ruling(
            K_FIVES,
            D_FIVES2,
            "knock",
            "knocker",
            37,
            7,
            44,
            ("5S",),
            overrides={"knocker_must_meld_max": "true"},
        ),
        id="must-meld-max-found",
    ),
    # Withholding a meld is allowed by default (VARIANTS 10 #11): declared
    # without [AC 2C 3C], deadwood 8; 4C 5C then fit nothing. Defender 51.
    # 51 - 8 = 43.
    pytest.param(
        Ruling(K_WITHHOLD, D_WITHHOLD, "knock", "knocker", 43, 8, 51, (), melds="[JS QS KS] [7D 8D 9D]"),
        id="withheld-meld-allowed",
    ),
    # ... and ginref, choosing for the knocker, prefers it: the full spread
    # (deadwood 2H = 2) lets 4C, 5C go: 51 - 9 = 42, 42 - 2 = 40 < 43.
    pytest.param(Ruling(K_WITHHOLD, D_WITHHOLD, "knock", "knocker", 43, 8, 51, ()), id="withheld-meld-found"),
    # With knocker_must_meld_max the withheld spread (8 > least 2) is illegal.
    pytest.param(
        Ruling(
            K_WITHHOLD,
            D_WITHHOLD,
            "illegal_knock",
            None,
            0,
            8,
            None,
            None,
            melds="[JS QS KS] [7D 8D 9D]",
            overrides={"knocker_must_meld_max": "true"},
        ),
        id="must-meld-max-rejects-withheld",
    ),
    # ... and chooses the full spread: 4C, 5C onto [AC 2C 3C]: 42 - 2 = 40.
    pytest.param(
        Ruling(
            K_WITHHOLD,
            D_WITHHOLD,
            "knock",
            "knocker",
            40,
            2,
            42,
            ("4C", "5C"),
            overrides={"knocker_must_meld_max": "true"},
        ),
        id="must-meld-max-full-spread",
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
