"""Round the corner (P19): runs wrap from king to ace, an unmatched ace counts 15.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_60,
    K_RTC,
    K_RTC_GIN,
    K_RTC_MELDS,
    K_TEN,
    Ruling,
    check_ruling,
)

RULINGS = [
    # Q-K-A and K-A-2 are runs. JH goes below [QH KH AH]; 3C above [KC AC 2C].
    # Defender keeps [9C 9D 9S] [4S 5S 6S]; left AD 15 (unmatched ace) + TD 10
    # = 25. Knocker 3S = 3. 25 - 3 = 22.
    pytest.param(
        Ruling(
            K_RTC,
            "JH 3C AD 9S 9C 9D 4S 5S 6S TD",
            "knock",
            "knocker",
            22,
            3,
            25,
            ("JH", "3C"),
            rules="round_the_corner",
            melds=K_RTC_MELDS,
            onto={"JH": "[QH KH AH]", "3C": "[KC AC 2C]"},
        ),
        id="rtc-QKA-KA2-layoffs",
    ),
    # Without wraparound (ace high or low only) K-A-2 is not a run, so the
    # declared spread is illegal; Q-K-A still is a run.
    pytest.param(
        Ruling(
            K_RTC,
            "JH 3C AD 9S 9C 9D 4S 5S 6S TD",
            "illegal_knock",
            None,
            0,
            None,
            None,
            None,
            rules="round_the_corner",
            overrides={"wraparound": "false"},
            melds=K_RTC_MELDS,
        ),
        id="rtc-no-wraparound-KA2-not-a-run",
    ),
    # ... and undeclared: [QH KH AH] [5D 6D 7D] + KC 10 + AC 15 + 2C 2 + 3S 3 = 30.
    pytest.param(
        Ruling(
            K_RTC,
            "JH 3C AD 9S 9C 9D 4S 5S 6S TD",
            "illegal_knock",
            None,
            0,
            30,
            None,
            None,
            rules="round_the_corner",
            overrides={"wraparound": "false"},
        ),
        id="rtc-no-wraparound-found",
    ),
    # An unmatched ace counts 15: K_TEN + AH has deadwood 15 > 10, illegal
    # (the same hand knocks with 1 under standard).
    pytest.param(
        Ruling(
            K_TEN + " AH",
            D_60.replace("AH", "AD"),
            "illegal_knock",
            None,
            0,
            15,
            None,
            None,
            rules="round_the_corner",
        ),
        id="rtc-unmatched-ace-15",
    ),
    pytest.param(
        Ruling(K_TEN + " AH", D_60.replace("AH", "AD"), "knock", "knocker", 59, 1, 60, ()),
        id="standard-same-ace-1",
    ),
    # Layoffs onto gin are allowed; JH onto [QH KH AH] brings the defender to 0,
    # which cancels the gin: nobody scores.
    pytest.param(
        Ruling(
            K_RTC_GIN, "JH 9C 9H 9S 4S 5S 6S 2H 3H 4H", "tie", None, 0, 0, 0, None, rules="round_the_corner"
        ),
        id="rtc-layoff-onto-gin-cancels",
    ),
    # JH, then 2H and 3H (Q-K-A-2-3 wraps) onto [QH KH AH]; TD 10 stays.
    # Gin 10 + 20 = 30.
    pytest.param(
        Ruling(
            K_RTC_GIN,
            "JH 9C 9H 9S 4S 5S 6S 2H 3H TD",
            "gin",
            "knocker",
            30,
            0,
            10,
            ("JH", "2H", "3H"),
            rules="round_the_corner",
        ),
        id="rtc-layoff-onto-gin-not-zero",
    ),
    # The gin spread decides the layoffs: [7C 7D 7H] [7S 8S 9S TS] lets 6S in
    # (defender to 0: no score); [7C 7D 7H 7S] [8S 9S TS] does not: gin
    # 6 + 20 = 26. Declared, each binds; undeclared, ginref must choose the
    # second for the knocker.
    pytest.param(
        Ruling(
            "7C 7D 7H 7S 8S 9S TS 2D 3D 4D",
            "JH QH KH 2C 3C 4C 9C 9D 9H 6S",
            "gin",
            "knocker",
            26,
            0,
            6,
            (),
            rules="round_the_corner",
            melds="[7C 7D 7H 7S] [8S 9S TS] [2D 3D 4D]",
        ),
        id="rtc-gin-declared-set-of-four",
    ),
    pytest.param(
        Ruling(
            "7C 7D 7H 7S 8S 9S TS 2D 3D 4D",
            "JH QH KH 2C 3C 4C 9C 9D 9H 6S",
            "tie",
            None,
            0,
            0,
            0,
            ("6S",),
            rules="round_the_corner",
            melds="[7C 7D 7H] [7S 8S 9S TS] [2D 3D 4D]",
        ),
        id="rtc-gin-declared-long-run",
    ),
    pytest.param(
        Ruling(
            "7C 7D 7H 7S 8S 9S TS 2D 3D 4D",
            "JH QH KH 2C 3C 4C 9C 9D 9H 6S",
            "gin",
            "knocker",
            26,
            0,
            6,
            (),
            rules="round_the_corner",
        ),
        id="rtc-gin-declaration-found",
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
