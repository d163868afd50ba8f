"""Oklahoma (VARIANTS 4, 8; P3): the upcard sets the knock limit, a spade doubles the hand.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_60,
    D_74,
    D_UC5,
    K_GIN,
    K_TEN,
    K_UC,
    Ruling,
    check_ruling,
)

RULINGS = [
    # Upcard 7C: limit 7. Knocker 7H = 7, legal: 60 - 7 = 53.
    pytest.param(
        Ruling(
            K_TEN + " 7H",
            D_60.replace("AH", "AD"),
            "knock",
            "knocker",
            53,
            7,
            60,
            (),
            rules="oklahoma",
            upcard="7C",
        ),
        id="oklahoma-7-knock-7",
    ),
    # Upcard 7C: knocker 8H = 8 > 7, illegal.
    pytest.param(
        Ruling(K_TEN + " 8H", D_60, "illegal_knock", None, 0, 8, None, None, rules="oklahoma", upcard="7C"),
        id="oklahoma-7-knock-8-illegal",
    ),
    # Picture upcard QC counts 10: knocker TH = 10, legal: 60 - 10 = 50.
    pytest.param(
        Ruling(K_TEN + " TH", D_60, "knock", "knocker", 50, 10, 60, (), rules="oklahoma", upcard="QC"),
        id="oklahoma-picture-limit-10",
    ),
    # Ace upcard, oklahoma = gin_only (Bicycle P3): a knock with AD = 1 is illegal.
    pytest.param(
        Ruling(K_TEN + " AD", D_60, "illegal_knock", None, 0, 1, None, None, rules="oklahoma", upcard="AC"),
        id="oklahoma-ace-gin-only-knock-illegal",
    ),
    # ... but gin is fine: 74 + 20 = 94 (AC is not a spade: no doubling).
    pytest.param(
        Ruling(K_GIN, D_74, "gin", "knocker", 94, 0, 74, (), rules="oklahoma", upcard="AC"),
        id="oklahoma-ace-gin-only-gin",
    ),
    # oklahoma = one (Pagat as read by C4, P6): limit 1: AD = 1 knocks.
    # Defender D_60 with 2H for AH: 60 - 1 + 2 = 61. 61 - 1 = 60.
    pytest.param(
        Ruling(
            K_TEN + " AD",
            D_60.replace("AH", "2H"),
            "knock",
            "knocker",
            60,
            1,
            61,
            (),
            rules="oklahoma",
            overrides={"oklahoma": "one"},
            upcard="AC",
        ),
        id="oklahoma-ace-one-knock-1",
    ),
    # ... and 2H = 2 > 1 is illegal.
    pytest.param(
        Ruling(
            K_TEN + " 2H",
            D_60,
            "illegal_knock",
            None,
            0,
            2,
            None,
            None,
            rules="oklahoma",
            overrides={"oklahoma": "one"},
            upcard="AC",
        ),
        id="oklahoma-ace-one-knock-2-illegal",
    ),
    # Spade upcard doubles the hand (P3, P7; VARIANTS 10 #12): 7S, limit 7,
    # knock (60 - 7) x 2 = 106.
    pytest.param(
        Ruling(K_TEN + " 7H", D_60, "knock", "knocker", 106, 7, 60, (), rules="oklahoma", upcard="7S"),
        id="oklahoma-spade-doubles-knock",
    ),
    # Spade upcard, gin bonus doubled too: (74 + 20) x 2 = 188.
    pytest.param(
        Ruling(K_GIN, D_74, "gin", "knocker", 188, 0, 74, (), rules="oklahoma", upcard="7S"),
        id="oklahoma-spade-doubles-gin",
    ),
    # Spade upcard 9S (limit 9, knocker 8 legal), undercut bonus doubled too:
    # (8 - 5 + 10) x 2 = 26.
    pytest.param(
        Ruling(K_UC, D_UC5, "undercut", "defender", 26, 8, 5, ("TS",), rules="oklahoma", upcard="9S"),
        id="oklahoma-spade-doubles-undercut",
    ),
    # spade_double = false: the 7S upcard only sets the limit: 60 - 7 = 53.
    pytest.param(
        Ruling(
            K_TEN + " 7H",
            D_60,
            "knock",
            "knocker",
            53,
            7,
            60,
            (),
            rules="oklahoma",
            overrides={"spade_double": "false"},
            upcard="7S",
        ),
        id="oklahoma-spade-double-off",
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
