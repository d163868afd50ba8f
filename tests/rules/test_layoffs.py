"""Layoffs onto the knocker's melds (S0 "Layoffs"; VARIANTS 5: chaining yes), and the
defender's best response to a declared spread.

Each case is worked out by hand from the rules documents; see :mod:`tests.rules.rulings`
for the shared hands, their arithmetic and the citation tags.
"""

from __future__ import annotations

import pytest

from ginref.cards import mask_of
from ginref.errors import GinrefError
from ginref.layoffs import layoff_report
from ginref.notation import parse_cards, parse_hand, parse_melds
from ginref.rules import find_rules
from tests.rules.rulings import (
    D_BREAK,
    FILL6,
    K_BREAK,
    K_BREAK_MELDS,
    K_RUN,
    K_RUN_MELDS,
    Ruling,
    check_ruling,
    rules_of,
)

RULINGS = [
    # 7H extends [4H 5H 6H] upward, then 8H extends [4H..7H]. No other card
    # fits. Defender: 53 (FILL6) + 3S 3 + AC 1 = 57; knocker 5C = 5.
    # Knock: 57 - 5 = 52 to the knocker (S0 table, "difference in deadwood").
    pytest.param(
        Ruling(
            K_RUN,
            "7H 8H 3S AC " + FILL6,
            "knock",
            "knocker",
            52,
            5,
            57,
            ("7H", "8H"),
            melds=K_RUN_MELDS,
            onto={"7H": "[4H 5H 6H]", "8H": "[4H 5H 6H]"},
        ),
        id="chain-up-7H-then-8H",
    ),
    # 3H extends [4H 5H 6H] downward, then 2H below it. 57 - 5 = 52.
    pytest.param(
        Ruling(
            K_RUN,
            "3H 2H 3S AC " + FILL6,
            "knock",
            "knocker",
            52,
            5,
            57,
            ("3H", "2H"),
            melds=K_RUN_MELDS,
            onto={"3H": "[4H 5H 6H]", "2H": "[4H 5H 6H]"},
        ),
        id="chain-down-3H-then-2H",
    ),
    # Both ends at once: 3H, 2H below and 7H, 8H above -> deadwood FILL6 = 53.
    # 53 - 5 = 48.
    pytest.param(
        Ruling(
            K_RUN,
            "2H 3H 7H 8H " + FILL6,
            "knock",
            "knocker",
            48,
            5,
            53,
            ("2H", "3H", "7H", "8H"),
            melds=K_RUN_MELDS,
        ),
        id="chain-both-ends",
    ),
    # Fourth card of a set: 9H onto [9C 9D 9S]. Defender: 53 + 3S 3 + AC 1 +
    # QD 10 = 67. 67 - 5 = 62.
    pytest.param(
        Ruling(
            K_RUN,
            "9H 3S AC QD " + FILL6,
            "knock",
            "knocker",
            62,
            5,
            67,
            ("9H",),
            melds=K_RUN_MELDS,
            onto={"9H": "[9C 9D 9S]"},
        ),
        id="set-fourth-card",
    ),
    # 7H fits the set [7C 7D 7S] or the run [4H 5H 6H]. Onto the run, 8H can
    # follow; onto the set, 8H is stuck (8 more). Least deadwood: both onto the
    # run, leaving KD 10 + KH 10 + JS 10 + 9S 9 + QC 10 + TD 10 + AD 1 + 2S 2 = 62.
    # Knocker [7C 7D 7S] [4H 5H 6H] [2C 3C 4C] + 3S = 3. 62 - 3 = 59.
    pytest.param(
        Ruling(
            "7C 7D 7S 4H 5H 6H 2C 3C 4C 3S",
            "7H 8H KD KH JS 9S QC TD AD 2S",
            "knock",
            "knocker",
            59,
            3,
            62,
            ("7H", "8H"),
            melds="[7C 7D 7S] [4H 5H 6H] [2C 3C 4C]",
            onto={"7H": "[4H 5H 6H]", "8H": "[4H 5H 6H]"},
        ),
        id="set-or-run-goes-where-it-helps",
    ),
    # Joint optimum (VARIANTS 10 #9, OpenSpiel test 1): the defender breaks its
    # own [8C 8D 8H 8S], lays 8H then 9H onto [5H 6H 7H] and keeps [8C 8D 8S].
    # Left: 38. Knocker AD = 1. 38 - 1 = 37.
    pytest.param(
        Ruling(K_BREAK, D_BREAK, "knock", "knocker", 37, 1, 38, ("8H", "9H"), melds=K_BREAK_MELDS),
        id="joint-breaks-own-meld",
    ),
    # meld_first: the defender keeps its least-deadwood spread [8C 8D 8H 8S]
    # (deadwood 9H + 38 = 47) and may lay off only leftovers; 9H needs 8H first,
    # so nothing goes. 47 - 1 = 46.
    pytest.param(
        Ruling(
            K_BREAK,
            D_BREAK,
            "knock",
            "knocker",
            46,
            1,
            47,
            (),
            melds=K_BREAK_MELDS,
            overrides={"defender_layoff_mode": "meld_first"},
        ),
        id="meld-first-keeps-own-meld",
    ),
    # layoff_chaining = false: only cards adjacent to the declared run: 7H yes,
    # 8H no. 57 + 8 = 65; 65 - 5 = 60.
    pytest.param(
        Ruling(
            K_RUN,
            "7H 8H 3S AC " + FILL6,
            "knock",
            "knocker",
            60,
            5,
            65,
            ("7H",),
            melds=K_RUN_MELDS,
            overrides={"layoff_chaining": "false"},
        ),
        id="chaining-off-one-step",
    ),
    # Chaining off, both ends: 3H and 7H are adjacent to [4H 5H 6H], 2H and 8H
    # are not. 53 + 2 + 8 = 63; 63 - 5 = 58.
    pytest.param(
        Ruling(
            K_RUN,
            "2H 3H 7H 8H " + FILL6,
            "knock",
            "knocker",
            58,
            5,
            63,
            ("3H", "7H"),
            melds=K_RUN_MELDS,
            overrides={"layoff_chaining": "false"},
        ),
        id="chaining-off-both-ends",
    ),
]


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    check_ruling(case)


# ---- layoff_report: the defender's best response to a declared spread --------

LAYOFF_CASES = [
    # The CLI help example. [4H 5H 6H] takes 3H below and 7H, 8H above; QH is
    # the 4th queen; [2C 2D 2S] is the defender's own meld. Left AC 1 + KD 10 +
    # 9S 9 = 20.
    pytest.param(
        "[4H 5H 6H] [QC QD QS]",
        "7H 8H 3H QH 2C 2D 2S 9S KD AC",
        "standard",
        {},
        ("3H", "7H", "8H", "QH"),
        20,
        True,
        id="help-example",
    ),
    # Chaining off: 8H is not adjacent to [4H 5H 6H]; 20 + 8 = 28.
    pytest.param(
        "[4H 5H 6H] [QC QD QS]",
        "7H 8H 3H QH 2C 2D 2S 9S KD AC",
        "standard",
        {"layoff_chaining": "false"},
        ("3H", "7H", "QH"),
        28,
        True,
        id="help-chaining-off",
    ),
    # A ten-card spread is gin: no layoffs (S0 "Gin"). Own meld [2C 2D 2S];
    # 7H 7 + 8H 8 + 3H 3 + QH 10 + 9S 9 + KD 10 + AC 1 = 48.
    pytest.param(
        "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C]",
        "7H 8H 3H QH 2C 2D 2S 9S KD AC",
        "standard",
        {},
        (),
        48,
        False,
        id="gin-spread",
    ),
    # The same spread under round-the-corner (P19): layoffs onto gin allowed:
    # 3H, 7H, 8H, QH go; left 9S 9 + KD 10 + AC 15 (unmatched ace) = 34.
    pytest.param(
        "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C]",
        "7H 8H 3H QH 2C 2D 2S 9S KD AC",
        "round_the_corner",
        {},
        ("3H", "7H", "8H", "QH"),
        34,
        True,
        id="gin-spread-rtc",
    ),
    # Big gin (11 cards) under hoyle: no layoffs (S3). 48 as above.
    pytest.param(
        "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C 9C]",
        "7H 8H 3H QH 2C 2D 2S 9S KD AC",
        "hoyle",
        {},
        (),
        48,
        False,
        id="big-gin-spread",
    ),
    # A card that fits the set or the run: 7H onto [4H 5H 6H] so 8H can follow.
    # Left: KD 10 + AC 1 + 2S 2 + 9S 9 + JC 10 + TD 10 + 3C 3 + 5D 5 = 50.
    pytest.param(
        "[4H 5H 6H] [7C 7D 7S]",
        "7H 8H KD AC 2S 9S JC TD 3C 5D",
        "standard",
        {},
        ("7H", "8H"),
        50,
        True,
        id="set-or-run",
    ),
]


@pytest.mark.parametrize(
    ("spread", "defender", "rules_name", "overrides", "laid", "deadwood", "allowed"), LAYOFF_CASES
)
def test_layoff_report(
    spread: str,
    defender: str,
    rules_name: str,
    overrides: dict[str, str],
    laid: tuple[str, ...],
    deadwood: int,
    allowed: bool,
) -> None:
    rules = rules_of(rules_name, overrides)
    melds = [mask_of(m) for m in parse_melds(spread)]
    report = layoff_report(parse_hand(defender, (10,)).mask, melds, rules)
    data = report.to_dict()
    assert report.layoffs_allowed is allowed
    assert {entry["card"] for entry in data["layoffs"]} == set(laid)
    assert data["deadwood_points"] == report.defence.deadwood_points == deadwood
    if not allowed:
        assert data["candidates"] == [] and data["layoffs"] == []
    # every laid-off card is listed among the candidates for the meld it went onto
    candidates = {entry["card"]: entry["onto"] for entry in data["candidates"]}
    for entry in data["layoffs"]:
        assert entry["onto"] in candidates[entry["card"]]


def test_layoff_report_candidates_include_chained_cards() -> None:
    report = layoff_report(
        parse_hand("7H 8H 3H QH 2C 2D 2S 9S KD AC", (10,)).mask,
        [mask_of(m) for m in parse_melds("[4H 5H 6H] [QC QD QS]")],
        find_rules("standard"),
    )
    by_card = {entry["card"]: entry["onto"] for entry in report.to_dict()["candidates"]}
    assert by_card == {
        "3H": [["4H", "5H", "6H"]],
        "7H": [["4H", "5H", "6H"]],
        "8H": [["4H", "5H", "6H"]],
        "QH": [["QC", "QD", "QS"]],
    }


def test_layoff_report_rejects_a_bad_spread() -> None:
    defender = parse_hand("7H 8H 3H QH 2C 2D 2S 9S KD AC", (10,)).mask
    with pytest.raises(GinrefError):
        layoff_report(defender, [mask_of(parse_cards("4H 5H 7H"))], find_rules("standard"))
    with pytest.raises(GinrefError):  # a knocker card in the defender's hand
        layoff_report(defender, [mask_of(parse_cards("6H 7H 8H"))], find_rules("standard"))
