"""The shared hands and the check of the ruling tables in ``tests/rules/``.

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

from ginref.cards import mask_of, scan
from ginref.melds import MeldSystem, is_meld
from ginref.notation import parse_card, parse_cards, parse_hand, parse_melds
from ginref.rules import Rules, find_rules, with_overrides
from ginref.scoring import Outcome, score_hand


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




def check_invariants(result, defender_mask: int, rules: Rules) -> None:
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



def check_ruling(case: Ruling) -> None:
    """Score the case's hands and hold every stated figure to the library's ruling."""
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
        check_invariants(result, defender, rules)
    assert result.explanation and all(isinstance(s, str) for s in result.explanation)

