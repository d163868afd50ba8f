"""The knock limit (S0: 10 or less; S3: exactly 10 is legal) and illegal knocks.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from tests.rules.rulings import (
    D_60,
    D_67,
    K_BIG,
    K_TEN,
    K_TEN_MELDS,
    Ruling,
    check_ruling,
)

RULINGS = [
    # K_TEN + TH: deadwood 10, legal. 60 - 10 = 50.
    pytest.param(
        Ruling(K_TEN + " TH", D_60, "knock", "knocker", 50, 10, 60, (), melds=K_TEN_MELDS),
        id="knock-exactly-10",
    ),
    # [2C 3C 4C 5C] [7D 8D 9D] + 2S 4H 5S: least deadwood 2 + 4 + 5 = 11 > 10.
    pytest.param(
        Ruling(
            "2C 3C 4C 5C 7D 8D 9D 2S 4H 5S",
            D_60.replace("2S", "8S"),
            "illegal_knock",
            None,
            0,
            None,
            None,
            None,
        ),
        id="knock-11-illegal",
    ),
    pytest.param(
        Ruling(
            "2C 3C 4C 5C 7D 8D 9D 2S 4H 5S",
            D_60.replace("2S", "8S"),
            "illegal_knock",
            None,
            0,
            11,
            None,
            None,
            melds="[2C 3C 4C 5C] [7D 8D 9D]",
        ),
        id="knock-11-illegal-declared",
    ),
    # 11 cards that cannot knock: the best discard is KH, leaving 2S 4H 5S = 11
    # > 10. The ruling should show that spread (deadwood 11, discard KH), the
    # one its reason ("least deadwood is 11") speaks of.
    pytest.param(
        Ruling(
            "2C 3C 4C 5C 7D 8D 9D 2S 4H 5S KH",
            "AH 3H 5H 9H JH KC 8S 4S 6S QD",
            "illegal_knock",
            None,
            0,
            11,
            None,
            None,
            discard="KH",
        ),
        id="knock-11-illegal-eleven-cards",
    ),
    # hoyle, 11 cards, the spread declared leaves 7H out: 7H is the discard and
    # the hand is plain gin, not big gin: 67 + 25 = 92.
    pytest.param(
        Ruling(
            K_BIG,
            D_67,
            "gin",
            "knocker",
            92,
            0,
            67,
            (),
            rules="hoyle",
            melds="[4H 5H 6H] [9C 9D 9S] [2D 3D 4D 5D]",
            discard="7H",
        ),
        id="hoyle-eleven-declared-ten-is-gin",
    ),
    # An 11-card knocker: ginref finds the discard. [2C 3C 4C] [7D 8D 9D]
    # [JS QS KS] + 3H KH: discard KH, deadwood 3. Defender 5H 5 + 9H 9 + JH 10 +
    # KC 10 + 2S 2 + 4S 4 + 6S 6 + QD 10 + 8C 8 + TC 10 = 74. 74 - 3 = 71.
    pytest.param(
        Ruling(
            K_TEN + " 3H KH", "5H 9H JH KC 2S 4S 6S QD 8C TC", "knock", "knocker", 71, 3, 74, (), discard="KH"
        ),
        id="eleven-cards-discard-found",
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)
