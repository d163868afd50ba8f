"""Straight gin (VARIANTS 4: knock limit 0): only gin ends a hand.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_60,
    D_74,
    K_GIN,
    K_TEN,
    Ruling,
    check_ruling,
)

RULINGS = [
    pytest.param(
        Ruling(K_TEN + " AD", D_60, "illegal_knock", None, 0, 1, None, None, rules="straight"),
        id="straight-knock-illegal",
    ),
    # Gin allowed, bonus 25: 74 + 25 = 99.
    pytest.param(Ruling(K_GIN, D_74, "gin", "knocker", 99, 0, 74, (), rules="straight"), id="straight-gin"),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
