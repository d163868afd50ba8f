"""Rulings worked out by hand from the rules documents, checked against the library.

Every case gives both hands, the rule set and (where it matters) the knocker's
declared spread and the Oklahoma upcard, and states the exact outcome, winner
and points, the knocker's deadwood, the defender's deadwood after layoffs and
the cards laid off. The arithmetic is in the comment above each case; rule
citations use the tags of ``shared/rules/VARIANTS.md`` (S0 = seed 000,
S1 = seed 001, S3 = Tallynight, S4 = CardHearth, P19 = round-the-corner, ...)
and its section numbers.

Card values: A 1 (15 unmatched in round-the-corner), 2-9 pip, T/J/Q/K 10.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ginref.cards import mask_of, scan
from ginref.errors import GinrefError
from ginref.layoffs import layoff_report
from ginref.melds import MeldSystem, is_meld
from ginref.notation import parse_card, parse_cards, parse_hand, parse_melds
from ginref.rules import Rules, find_rules, with_overrides
from ginref.scoring import Outcome, score_hand, settle


@dataclass(frozen=True)
class Ruling:
    knocker: str
    defender: str
    outcome: str
    winner: str | None
    points: int
    knocker_deadwood: int | None
    defender_deadwood: int | None
    laid: tuple[str, ...] | None = ()
    """cards the defender lays off (any order); None = not checked"""
    rules: str = "standard"
    overrides: dict[str, str] = field(default_factory=dict)
    melds: str | None = None
    upcard: str | None = None
    onto: dict[str, str] = field(default_factory=dict)
    """card -> the knocker meld (as written) it must be laid onto"""
    discard: str | None = None
    """the knocker's face-down discard, for 11-card knockers ("none" = big gin)"""


def rules_of(name: str, overrides: dict[str, str]) -> Rules:
    rules = find_rules(name)
    return with_overrides(rules, overrides) if overrides else rules


# Shared hands.
# K_RUN: melds [4H 5H 6H] [9C 9D 9S] [2D 3D 4D], deadwood 5C = 5.
K_RUN = "4H 5H 6H 9C 9D 9S 2D 3D 4D 5C"
K_RUN_MELDS = "[4H 5H 6H] [9C 9D 9S] [2D 3D 4D]"
# Filler for defenders: no meld among them, nothing layable onto K_RUN's spread.
# KC 10 + KH 10 + JS 10 + 6C 6 + 7D 7 + TC 10 = 53
FILL6 = "KC KH JS 6C 7D TC"
# K_TEN: [2C 3C 4C] [7D 8D 9D] [JS QS KS] + one deadwood card.
K_TEN = "2C 3C 4C 7D 8D 9D JS QS KS"
K_TEN_MELDS = "[2C 3C 4C] [7D 8D 9D] [JS QS KS]"
# D_60: no melds and nothing layable onto K_TEN's spread:
# AH 1 + 3H 3 + 5H 5 + 9H 9 + JH 10 + KC 10 + 2S 2 + 4S 4 + 6S 6 + QD 10 = 60
D_60 = "AH 3H 5H 9H JH KC 2S 4S 6S QD"
# K_GIN: gin [4H 5H 6H] [9C 9D 9S] [2D 3D 4D 5D].
K_GIN = "4H 5H 6H 9C 9D 9S 2D 3D 4D 5D"
# D_74: no melds; 7H, 9H and 6D would lay off onto K_GIN's spread if allowed.
# 7H 7 + 9H 9 + 6D 6 + KC 10 + QS 10 + JC 10 + 8S 8 + 3C 3 + AS 1 + TS 10 = 74
D_74 = "7H 9H 6D KC QS JC 8S 3C AS TS"
# D_MELDED: [6C 7C 8C] [JH QH KH] [2S 3S 4S 5S], deadwood 0.
D_MELDED = "6C 7C 8C JH QH KH 2S 3S 4S 5S"
# K_UC: K_TEN + 8H, deadwood 8.  D_UC5 lays TS onto [JS QS KS] (S0 "Layoffs"),
# keeps [4H 5H 6H] [TC JC QC] and is left with AD 1 + 2H 2 + 2S 2 = 5.
K_UC = K_TEN + " 8H"
D_UC5 = "4H 5H 6H TC JC QC TS AD 2H 2S"
# D_UC8: the same but 5S for 2S: AD 1 + 2H 2 + 5S 5 = 8, equal to the knocker.
D_UC8 = "4H 5H 6H TC JC QC TS AD 2H 5S"
# K_FIVES: 5C 5D 5H 3H 4H + [9S TS JS QS KS]. Two legal declarations:
#   A = [5C 5D 5H] [9S..KS], deadwood 3H 4H = 7
#   B = [3H 4H 5H] [9S..KS], deadwood 5C 5D = 10 (exactly the limit)
K_FIVES = "5C 5D 5H 3H 4H 9S TS JS QS KS"
FIVES_A = "[5C 5D 5H] [9S TS JS QS KS]"
FIVES_B = "[3H 4H 5H] [9S TS JS QS KS]"
# D_FIVES: 5S fits A's set; 2H and 6H fit B's run; [8C 8D 8H] own meld.
# Unmelded: 5S 5 + 2H 2 + 6H 6 + KC 10 + QD 10 + JC 10 + 9D 9 = 52
D_FIVES = "5S 2H 6H 8C 8D 8H KC QD JC 9D"
# D_FIVES2: only 5S fits (A's set); nothing fits B.
# Unmelded: 5S 5 + KC 10 + QD 10 + JC 10 + 9D 9 + 2C 2 + 3D 3 = 49
D_FIVES2 = "5S 8C 8D 8H KC QD JC 9D 2C 3D"
# K_WITHHOLD: [AC 2C 3C] [JS QS KS] [7D 8D 9D] + 2H; declaring without the
# clubs run leaves AC 1 + 2C 2 + 3C 3 + 2H 2 = 8 (legal, S0: 10 or less).
K_WITHHOLD = "AC 2C 3C JS QS KS 7D 8D 9D 2H"
# D_WITHHOLD: [6H 6D 6S] own meld; 4C 5C fit a declared [AC 2C 3C].
# Unmelded: 4C 4 + 5C 5 + KH 10 + QH 10 + JD 10 + 9C 9 + 3S 3 = 51
D_WITHHOLD = "4C 5C 6H 6D 6S KH QH JD 9C 3S"
# K_BREAK: [5H 6H 7H] [2S 3S 4S] [KC KD KS] + AD 1.
K_BREAK = "5H 6H 7H 2S 3S 4S KC KD KS AD"
K_BREAK_MELDS = "[5H 6H 7H] [2S 3S 4S] [KC KD KS]"
# D_BREAK: four 8s and 9H; QD 10 + JH 10 + 2D 2 + 6C 6 + TD 10 = 38 never melds.
D_BREAK = "8C 8D 8H 8S 9H QD JH 2D 6C TD"
# K_BIG: 11 cards, all melded: [4H 5H 6H 7H] [9C 9D 9S] [2D 3D 4D 5D].
K_BIG = "4H 5H 6H 7H 9C 9D 9S 2D 3D 4D 5D"
K_BIG_MELDS = "[4H 5H 6H 7H] [9C 9D 9S] [2D 3D 4D 5D]"
# D_67: no melds, nothing layable (and no layoffs onto gin anyway):
# KC 10 + QS 10 + JC 10 + 8S 8 + 3C 3 + AC 1 + TS 10 + 2H 2 + 6S 6 + 7C 7 = 67
D_67 = "KC QS JC 8S 3C AC TS 2H 6S 7C"
# Round the corner (P19): [QH KH AH] [KC AC 2C] [5D 6D 7D] + 3S 3.
K_RTC = "QH KH AH KC AC 2C 5D 6D 7D 3S"
K_RTC_MELDS = "[QH KH AH] [KC AC 2C] [5D 6D 7D]"
K_RTC_GIN = "QH KH AH KC AC 2C 5D 6D 7D 8D"


RULINGS = [
    # ---- layoffs (S0 "Layoffs"; VARIANTS 5: chaining yes) --------------------
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
    # ---- the knocker's declaration decides layoffs (VARIANTS 4) ------------
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
    # ---- gin (S0 "Gin": no layoffs; S1: never undercut) -------------------
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
    # ---- knock limit (S0: 10 or less; S3: exactly 10 is legal) ------------
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
    # ---- undercuts and ties (S0 "Undercut"; VARIANTS 6) -------------------
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
    # ---- Oklahoma (VARIANTS 4, 8; P3) --------------------------------------
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
    # ---- straight gin (VARIANTS 4: knock limit 0) --------------------------
    pytest.param(
        Ruling(K_TEN + " AD", D_60, "illegal_knock", None, 0, 1, None, None, rules="straight"),
        id="straight-knock-illegal",
    ),
    # Gin allowed, bonus 25: 74 + 25 = 99.
    pytest.param(Ruling(K_GIN, D_74, "gin", "knocker", 99, 0, 74, (), rules="straight"), id="straight-gin"),
    # ---- round the corner (P19) --------------------------------------------
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


def _check_invariants(result, defender_mask: int, rules: Rules) -> None:
    """Layoffs are the defender's, disjoint, onto the knocker's melds, in a layable order;
    own melds are real melds; melds + layoffs + deadwood = the defender's ten cards."""
    system = MeldSystem.from_rules(rules)
    defence = result.defence
    laid = 0
    current = {m.mask: m.mask for m in result.knocker.melds}
    for layoff in defence.layoffs:
        assert defender_mask >> layoff.card & 1, "laid off a card the defender does not hold"
        assert not laid >> layoff.card & 1, "a card laid off twice"
        assert layoff.onto.mask in current, "laid off onto a meld the knocker did not declare"
        grown = current[layoff.onto.mask] | 1 << layoff.card
        assert is_meld(grown, system), f"{layoff} does not extend the meld as it stands"
        current[layoff.onto.mask] = grown
        laid |= 1 << layoff.card
    melded = 0
    for meld in defence.arrangement.melds:
        assert is_meld(meld.mask, system)
        assert not meld.mask & melded
        melded |= meld.mask
    dead = defence.arrangement.deadwood
    assert not (melded & laid) and not (melded & dead) and not (laid & dead)
    assert melded | laid | dead == defender_mask
    values = system.tables.rank_points
    assert defence.deadwood_points == sum(values[c % 13] for c in scan(dead))


@pytest.mark.parametrize("case", RULINGS)
def test_ruling(case: Ruling) -> None:
    rules = rules_of(case.rules, case.overrides)
    knocker = parse_hand(case.knocker, (10, 11)).mask
    defender = parse_hand(case.defender, (10,)).mask
    melds = None if case.melds is None else [mask_of(m) for m in parse_melds(case.melds)]
    upcard = None if case.upcard is None else parse_card(case.upcard)
    result = score_hand(knocker, defender, rules, melds=melds, upcard=upcard)
    got = (result.outcome, result.winner, result.points)
    assert got == (Outcome(case.outcome), case.winner, case.points), "\n".join(result.explanation)
    if case.knocker_deadwood is not None:
        assert result.knocker.deadwood_points == case.knocker_deadwood
    if case.defender_deadwood is not None:
        assert result.defence.deadwood_points == case.defender_deadwood
    if case.laid is not None:
        laid = {layoff.to_dict()["card"] for layoff in result.defence.layoffs}
        assert laid == set(case.laid), "\n".join(result.explanation)
    for card_text, meld_text in case.onto.items():
        onto = {layoff.to_dict()["card"]: layoff.onto for layoff in result.defence.layoffs}
        assert onto[card_text].mask == mask_of(parse_cards(meld_text.strip("[]")))
    if case.outcome == "illegal_knock":
        assert result.reason, "an illegal knock must say why"
        assert result.defence.layoffs == ()
    if case.discard == "none":
        assert result.discard is None
    elif case.discard is not None:
        assert result.discard == parse_card(case.discard)
    if bin(knocker).count("1") == 11 and case.discard != "none" and case.outcome != "illegal_knock":
        assert result.discard is not None and knocker >> result.discard & 1
        assert bin(result.knocker.melded | result.knocker.deadwood).count("1") == 10
    if case.melds is not None and case.outcome != "illegal_knock":
        # the spread ruled on is the one declared (less the discard, for an
        # all-melded 11 where big gin is not a rule)
        declared = {m.mask for m in result.knocker.melds}
        spare = 0 if result.discard is None else 1 << result.discard
        assert declared == {m & ~spare for m in melds or []}
    if case.outcome != "illegal_knock":
        _check_invariants(result, defender, rules)
    assert result.explanation and all(isinstance(s, str) for s in result.explanation)


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


# ---- settle: the score sheet arithmetic (S0 and S3 worked examples) ----------

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
