"""Gin (S0 "Gin": no layoffs onto gin; S1: gin is never undercut) and big gin.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_67,
    D_74,
    D_MELDED,
    K_BIG,
    K_BIG_MELDS,
    K_GIN,
    Ruling,
    check_ruling,
)

RULINGS = [
    # Gin: 7H, 9H, 6D would fit but no layoffs onto gin. 74 + 20 = 94.
    pytest.param(Ruling(K_GIN, D_74, "gin", "knocker", 94, 0, 74, ()), id="no-layoffs-onto-gin"),
    # Same with the spread declared.
    pytest.param(
        Ruling(K_GIN, D_74, "gin", "knocker", 94, 0, 74, (), melds="[4H 5H 6H] [9C 9D 9S] [2D 3D 4D 5D]"),
        id="no-layoffs-onto-declared-gin",
    ),
    # Gin vs a fully melded defender: 0 + 20 = 20 to the knocker, no undercut.
    pytest.param(Ruling(K_GIN, D_MELDED, "gin", "knocker", 20, 0, 0, ()), id="gin-vs-zero-deadwood"),
    # Big gin under hoyle (S3): all 11 melded, no discard: 67 + 31 = 98.
    pytest.param(
        Ruling(K_BIG, D_67, "big_gin", "knocker", 98, 0, 67, (), rules="hoyle", discard="none"),
        id="big-gin-hoyle",
    ),
    pytest.param(
        Ruling(
            K_BIG, D_67, "big_gin", "knocker", 98, 0, 67, (), rules="hoyle", melds=K_BIG_MELDS, discard="none"
        ),
        id="big-gin-hoyle-declared",
    ),
    # Standard has no big gin (VARIANTS 4: "the player must discard; an 11-card
    # meld set always contains a 4+ meld, so plain gin stays available"):
    # discard an end of a 4-card meld, gin: 67 + 20 = 87.
    pytest.param(Ruling(K_BIG, D_67, "gin", "knocker", 87, 0, 67, ()), id="no-big-gin-standard"),
    pytest.param(
        Ruling(K_BIG, D_67, "gin", "knocker", 87, 0, 67, (), melds=K_BIG_MELDS),
        id="no-big-gin-standard-declared",
    ),
    # CardHearth plays no big gin either (S4: "always pays the flat 25"): 67 + 25.
    pytest.param(
        Ruling(K_BIG, D_67, "gin", "knocker", 92, 0, 67, (), rules="cardhearth"), id="no-big-gin-cardhearth"
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
