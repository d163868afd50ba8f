"""Undercuts and ties (S0 "Undercut"; VARIANTS 6: what equal counts mean under each rule set).

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_MELDED,
    D_UC5,
    D_UC8,
    K_GIN,
    K_UC,
    Ruling,
    check_ruling,
)

RULINGS = [
    # Knocker 8H = 8; defender lays TS onto [JS QS KS], left 5 < 8:
    # 8 - 5 + 10 = 13 to the defender (the S0 worked example's hand 2).
    pytest.param(Ruling(K_UC, D_UC5, "undercut", "defender", 13, 8, 5, ("TS",)), id="undercut-lower"),
    # Equal (8 = 8) is an undercut under standard: 0 + 10 = 10.
    pytest.param(
        Ruling(K_UC, D_UC8, "undercut", "defender", 10, 8, 8, ("TS",)), id="undercut-equal-standard"
    ),
    # hoyle: tie goes to the defender too (S3), 0 + 25 = 25.
    pytest.param(
        Ruling(K_UC, D_UC8, "undercut", "defender", 25, 8, 8, ("TS",), rules="hoyle"), id="tie-hoyle-undercut"
    ),
    # openspiel: tie_policy no_score: nobody scores.
    pytest.param(
        Ruling(K_UC, D_UC8, "tie", None, 0, 8, 8, ("TS",), rules="openspiel"), id="tie-openspiel-no-score"
    ),
    # tie_policy = knocker (ginplayeronline, P16): knocker wins by 0.
    pytest.param(
        Ruling(K_UC, D_UC8, "knock", "knocker", 0, 8, 8, ("TS",), overrides={"tie_policy": "knocker"}),
        id="tie-knocker-policy",
    ),
    # hoyle undercut bonus 25: 8 - 5 + 25 = 28 (the S3 example's hand 3).
    pytest.param(
        Ruling(K_UC, D_UC5, "undercut", "defender", 28, 8, 5, ("TS",), rules="hoyle"), id="undercut-hoyle-25"
    ),
    # hoyle gin bonus 25: 0 + 25.
    pytest.param(Ruling(K_GIN, D_MELDED, "gin", "knocker", 25, 0, 0, (), rules="hoyle"), id="gin-hoyle-25"),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
