"""The referee on hand-built records: one minimal record per finding code, and clean
records of every way a hand can end, each with the exact points.

The deal used throughout (standard rules unless a case says otherwise; Bo deals,
so Ann decides first on the upcard KH):

- Ann: 3C 4C 5C 6S 7S 8S 9D 9S 9C 2D, i.e. [3C 4C 5C] [6S 7S 8S] [9D 9S 9C] + 2D = 2.
- Bo: 6C JH JC JD 4H AH 8D KS 5S TC. Against Ann's spread Bo melds [JH JC JD], lays
  off 6C onto [3C 4C 5C] and 5S onto [6S 7S 8S], and keeps 4H AH 8D KS TC = 33.

So Ann's knock with 2 scores 33 - 2 = 31. Every expected number below is worked
out by hand in the comment next to it, never taken from ginref.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from ginref.cards import card_name, mask_of
from ginref.notation import parse_cards
from ginref.records import (
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Turn,
    read_text,
)
from ginref.referee import ADVISORY_CODES, FindingCode, HandVerdict, Verdict, adjudicate
from ginref.rules import PRESETS, find_rules, with_overrides

A, B = "Ann", "Bo"
SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
ANN = "3C 4C 5C 6S 7S 8S 9D 9S 9C 2D"
BO = "6C JH JC JD 4H AH 8D KS 5S TC"
SPREAD = ("3C 4C 5C", "6S 7S 8S", "9D 9S 9C")
FIRST_EVENT_LINE = 10


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def card(text: str) -> int:
    return parse_cards(text)[0]


def meld(text: str) -> int:
    return mask_of(parse_cards(text))


def line(n: int) -> int:
    """The line of the n-th event (1-based)."""
    return FIRST_EVENT_LINE + n - 1


# -- event shorthands -------------------------------------------------------------------


def P(who: str) -> Pass:
    return Pass(who)


def S(who: str, drawn: str | None, discard: str) -> Turn:
    """A stock draw (``None``: unseen) and a discard."""
    return Turn(who, "stock", card(drawn) if drawn else None, card(discard))


def U(who: str, taken: str | None, discard: str | None) -> Turn:
    """A draw from the discard pile (the upcard, or the top discard) and a discard."""
    return Turn(who, "discard", card(taken) if taken else None, card(discard) if discard else None)


def K(
    who: str, source: str, drawn: str | None, discard: str | None, melds: Sequence[str] = SPREAD,
    *, ending: str = "knock", deadwood: int | None = None,
) -> Turn:
    knock = Knock(ending, card(discard) if discard else None,  # type: ignore[arg-type]
                  tuple(meld(m) for m in melds), deadwood)
    return Turn(who, source, card(drawn) if drawn else None, knock=knock)  # type: ignore[arg-type]


def D(who: str, melds: Sequence[str] = (), layoffs: Sequence[tuple[str, int]] = (),
      deadwood: int | None = None) -> Defence:
    return Defence(who, tuple(meld(m) for m in melds),
                   tuple((card(c), at) for c, at in layoffs), deadwood)


def claim(outcome: str, winner: str | None = None, points: int = 0) -> ClaimedResult:
    return ClaimedResult(outcome, winner, points, Place(line=90, column=1))  # type: ignore[arg-type]


def hand(
    events: Sequence[Event], result: ClaimedResult | None = None, *,
    ann: str = ANN, bo: str = BO, up: str | None = "KH", dealer: str = B,
    stock: Sequence[str] | None = None, score_after: tuple[tuple[str, int], ...] | None = None,
    next_dealer: str | None = None, line_no: int = 2,
) -> HandRecord:
    placed = tuple(
        msgspec.structs.replace(ev, place=Place(line=line(i), column=1)) for i, ev in enumerate(events, 1)
    )
    return HandRecord(
        dealer=dealer,
        deal=((A, cards(ann)), (B, cards(bo))),
        upcard=card(up) if up else None,
        events=placed,
        stock=tuple(card(c) for c in stock) if stock is not None else None,
        result=result,
        score_after=score_after,
        next_dealer=next_dealer,
        place=Place(line=line_no, column=1),
    )


def game(*hands: HandRecord, rules: str = "standard", overrides: dict[str, str] | None = None,
         final: tuple[tuple[str, int], ...] | None = None) -> GameRecord:
    return GameRecord(
        players=(A, B), hands=hands, rules=rules,
        overrides=tuple(sorted((overrides or {}).items())), final_totals=final,
        place=Place(line=1, column=1),
    )


def rest_of_deck(*used: str, first: Sequence[str] = ()) -> list[str]:
    """The cards not in ``used``, ``first`` on top, then the rest in canonical order."""
    taken = set(cards(" ".join(used))) | set(cards(" ".join(first)))
    return list(first) + [card_name(c) for c in range(52) if c not in taken]


STOCK = rest_of_deck(ANN, BO, "KH", first=("TD", "QD"))
KNOCK = K(A, "stock", "TD", "TD", deadwood=2)
BASE = [P(A), P(B), KNOCK]
WON = claim("knock", A, 31)


def findings(verdict: Verdict) -> list[tuple[str, str, int]]:
    return [(f.code, f.severity, f.place.line) for f in verdict.findings]


def only(verdict: Verdict) -> HandVerdict:
    assert len(verdict.hands) == 1
    return verdict.hands[0]


# -- one record per finding code --------------------------------------------------------

REC = 1  # the record's line
HAND = 2  # the hand's line
RESULT = 90  # the claimed result's line

CASES: list[tuple[str, GameRecord, list[tuple[str, str, int]]]] = [
    ("unknown_rules", game(hand(BASE, WON), rules="tallyho"), [("unknown_rules", "error", REC)]),
    ("unknown_rules: bad override",
     game(hand(BASE, WON), overrides={"gin_bonus": "lots"}), [("unknown_rules", "error", REC)]),
    ("unknown_player: an event", game(hand([P("Cy"), P(B), KNOCK], WON)),
     [("unknown_player", "error", line(1))]),
    ("unknown_player: the dealer", game(hand(BASE, WON, dealer="Cy")),
     [("unknown_player", "error", HAND)]),
    ("bad_card", game(hand([P(A), P(B), Turn(A, "stock", card("TD"), 60)], claim("void"))),
     [("bad_card", "error", line(3))]),
    # Ann's 2D is not shown; her knock discard reveals it, so the hand still resolves
    ("deal_incomplete", game(hand([P(A), P(B), K(A, "stock", "TD", "2D", deadwood=10)],
                                  claim("knock", A, 23), ann="3C 4C 5C 6S 7S 8S 9D 9S 9C")),
     [("deal_incomplete", "error", HAND)]),
    ("deal_incomplete: no upcard", game(hand(BASE, WON, up=None)),
     [("deal_incomplete", "error", HAND)]),
    ("deal_incomplete: short stock", game(hand(BASE, WON, stock=STOCK[:30])),
     [("deal_incomplete", "error", HAND)]),
    ("duplicate_card: upcard dealt", game(hand(BASE, WON, bo="6C JH JC JD 4H AH 8D KS 5S KH")),
     [("duplicate_card", "error", HAND)]),
    ("duplicate_card: stock draw of Bo's card",
     game(hand([P(A), P(B), K(A, "stock", "JH", "JH", deadwood=2)], WON)),
     [("duplicate_card", "error", line(3))]),
    ("wrong_turn", game(hand([P(B), P(A), KNOCK], WON)), [("wrong_turn", "error", line(1))]),
    ("upcard_ritual: stock draw before the passes", game(hand([KNOCK], WON)),
     [("upcard_ritual", "error", line(1))]),
    # both passed, yet Ann takes KH: she keeps KH and discards 2D face down, 10 deadwood: 33 - 10
    ("upcard_ritual: upcard taken after both passed",
     game(hand([P(A), P(B), K(A, "discard", "KH", "2D", deadwood=10)], claim("knock", A, 23))),
     [("upcard_ritual", "error", line(3))]),
    ("illegal_pass",
     game(hand([P(A), P(B), S(A, "TD", "TD"), P(B), K(A, "stock", "QD", "QD", deadwood=2)], WON)),
     [("illegal_pass", "error", line(4))]),
    ("no_draw", game(hand([P(A), P(B), Turn(A, "none", None, card("2D")), KNOCK], WON)),
     [("no_draw", "error", line(3))]),
    ("stock_draw_mismatch",
     game(hand([P(A), P(B), K(A, "stock", "QD", "QD", deadwood=2)], WON, stock=STOCK)),
     [("stock_draw_mismatch", "error", line(3))]),
    # TD goes onto KH; Bo digs out KH from under it and throws KS: Bo's hand is as before
    ("not_top_discard",
     game(hand([P(A), P(B), S(A, "TD", "TD"), U(B, "KH", "KS"), K(A, "stock", "QD", "QD")], WON)),
     [("not_top_discard", "error", line(4))]),
    ("not_top_discard: a card not on the pile",
     game(hand([P(A), P(B), S(A, "TD", "TD"), U(B, "QD", "KS"), K(A, "stock", "QS", "QS")], WON)),
     [("not_top_discard", "error", line(4))]),
    ("card_not_in_hand: discard", game(hand([P(A), P(B), S(A, "TD", "JH"), KNOCK], WON)),
     [("card_not_in_hand", "error", line(3))]),
    ("card_not_in_hand: meld",
     game(hand([P(A), P(B), K(A, "stock", "TD", "TD", (*SPREAD[:2], "9D 9S 9H"))], WON)),
     [("card_not_in_hand", "error", line(3))]),
    ("missing_discard", game(hand([P(A), P(B), Turn(A, "stock", card("TD")), P(B)], WON)),
     [("missing_discard", "error", line(3))]),
    # Ann takes KH, throws it straight back; Bo draws and throws QD; Ann knocks on TD
    ("same_card_discard",
     game(hand([U(A, "KH", "KH"), S(B, "QD", "QD"), KNOCK], WON)),
     [("same_card_discard", "error", line(1))]),
    ("same_card_discard: face-down knock discard",
     game(hand([K(A, "discard", "KH", "KH", deadwood=2)], WON)),
     [("same_card_discard", "error", line(1))]),
    ("moves_after_end", game(hand([*BASE, S(B, "QD", "QD")], WON)),
     [("moves_after_end", "error", line(4))]),
    ("incomplete_hand", game(hand([P(A), P(B)], WON)), [("incomplete_hand", "error", line(2))]),
    ("incomplete_hand: no events", game(hand([], None)), [("incomplete_hand", "error", HAND)]),
    ("defence_without_knock", game(hand([P(A), D(B), P(B), KNOCK], WON)),
     [("defence_without_knock", "error", line(2))]),
    # Ann withholds [9D 9S 9C]: 27 + 2 = 29 deadwood, over 10: an illegal knock, no score
    ("knock_over_limit",
     game(hand([P(A), P(B), K(A, "stock", "TD", "TD", SPREAD[:2])], claim("illegal_knock"))),
     [("knock_over_limit", "error", line(3))]),
    ("invalid_meld",
     game(hand([P(A), P(B), K(A, "stock", "TD", "TD", ("3C 4C 5C 6S", "7S 8S 9S", "9D 9C 2D"))],
               claim("illegal_knock"))),
     [("invalid_meld", "error", line(3)), ("invalid_meld", "error", line(3)),
      ("knock_over_limit", "error", line(3))]),
    ("deadwood_misdeclared: knocker",
     game(hand([P(A), P(B), K(A, "stock", "TD", "TD", deadwood=3)], WON)),
     [("deadwood_misdeclared", "error", line(3))]),
    ("deadwood_misdeclared: gin with deadwood",
     game(hand([P(A), P(B), K(A, "stock", "TD", "TD", ending="gin")], WON)),
     [("deadwood_misdeclared", "error", line(3))]),
    ("deadwood_misdeclared: defender",
     game(hand([*BASE, D(B, ["JH JC JD"], [("6C", 0), ("5S", 1)], 30)], WON)),
     [("deadwood_misdeclared", "error", line(4))]),
    # TC fits neither [3C 4C 5C] nor anything else: it stays deadwood, 33 as before
    ("illegal_layoff",
     game(hand([*BASE, D(B, ["JH JC JD"], [("6C", 0), ("5S", 1), ("TC", 0)])], WON)),
     [("illegal_layoff", "error", line(4))]),
    ("illegal_layoff: onto a meld not declared",
     game(hand([*BASE, D(B, ["JH JC JD"], [("6C", 0), ("5S", 1), ("TC", 7)])], WON)),
     [("illegal_layoff", "error", line(4))]),
    ("wrong_result", game(hand(BASE, claim("undercut", B, 31))), [("wrong_result", "error", RESULT)]),
    ("wrong_result: void claimed", game(hand(BASE, claim("void"))), [("wrong_result", "error", RESULT)]),
    ("wrong_score", game(hand(BASE, claim("knock", A, 30))), [("wrong_score", "error", RESULT)]),
    ("wrong_score: running totals", game(hand(BASE, WON, score_after=((A, 31), (B, 1)))),
     [("wrong_score", "error", HAND)]),
    ("wrong_score: final totals", game(hand(BASE, WON), final=((A, 131), (B, 0))),
     [("wrong_score", "error", REC)]),
    ("wrong_dealer: claimed next dealer", game(hand(BASE, WON, next_dealer=B)),
     [("wrong_dealer", "error", HAND)]),
    # no layoffs declared: 6C and 5S count, 33 + 11 = 44, and that is what is scored
    ("missed_layoff", game(hand([*BASE, D(B, ["JH JC JD"])], claim("knock", A, 42))),
     [("missed_layoff", "advisory", line(4))]),
    ("cards_unknown",
     game(hand([P(A), P(B), K(A, "stock", None, "2D")], WON)),
     [("cards_unknown", "advisory", line(3))]),
    ("void_unverified", game(hand([P(A), P(B), S(A, "TD", "TD")], claim("void"))),
     [("void_unverified", "advisory", line(3))]),
]


@pytest.mark.parametrize(("record", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_finding(record: GameRecord, expected: list[tuple[str, str, int]]) -> None:
    verdict = adjudicate(record)
    assert findings(verdict) == expected
    errors = [code for code, severity, _ in expected if severity == "error"]
    assert verdict.clean is not errors
    assert verdict.has_findings


def test_every_code_has_a_case() -> None:
    covered = {code for _, _, expected in CASES for code, _, _ in expected}
    covered |= {code for code, _ in EXTRA_CODES}
    assert covered == {code.value for code in FindingCode}


EXTRA_CODES = [
    # codes whose cases need rule overrides or long records; tested below
    ("knock_not_max", "test_withheld_meld"),
    ("knock_not_best", "test_withheld_meld"),
    ("knock_is_gin", "test_gin_outcomes"),
    ("big_gin_not_recognised", "test_big_gin"),
    ("layoff_on_gin", "test_gin_outcomes"),
    ("stock_exhausted", "test_stock_end"),
    ("draw_from_empty_stock", "test_wall"),
    ("first_fit_layoff", "tests/records/test_eaai.py::test_the_first_fit_layoffs_are_named"),
]


def test_docstring_table_lists_every_code_with_its_severity() -> None:
    import ginref.referee.findings as module

    assert module.__doc__ is not None
    table = {}
    for row in module.__doc__.splitlines():
        parts = row.split()
        if len(parts) >= 2 and parts[1] in ("error", "advisory"):
            table[parts[0]] = parts[1]
    assert table == {
        code.value: ("advisory" if code.value in ADVISORY_CODES else "error") for code in FindingCode
    }
    assert {"missed_layoff", "first_fit_layoff", "knock_not_best", "knock_is_gin", "cards_unknown",
            "void_unverified"} == (
        ADVISORY_CODES
    )


def test_replay_stops_where_the_cards_cannot_be_followed() -> None:
    # Bo takes TD off the pile; Ann then claims to take TD from the pile as well: it is in
    # Bo's hand, not on the pile, so nothing after can be trusted and the hand is unresolved
    events = [P(A), P(B), S(A, "TD", "TD"), U(B, "TD", "KS"), U(A, "TD", "2D"),
              S(B, "QD", "QD"), K(A, "stock", "QS", "QS", deadwood=10)]
    verdict = adjudicate(game(hand(events, claim("knock", A, 23))))
    assert findings(verdict) == [("not_top_discard", "error", line(5))]
    assert only(verdict).outcome == "unresolved" and only(verdict).end == "error"
    # the claim carries the game on
    assert verdict.hand_totals == ((A, 23), (B, 0))


# -- messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(("record", "message"), [
    (game(hand([P(A), P(B), S(A, "TD", "JH"), KNOCK], WON)), "Ann discarded JH, which is in Bo's hand"),
    (game(hand([P(A), P(B), S(A, "TD", "QD"), KNOCK], WON)), "Ann discarded QD, which is not in Ann's hand"),
    (game(hand([P(A), P(B), K(A, "stock", "QD", "QD", deadwood=2)], WON, stock=STOCK)),
     "Ann drew QD from the stock, but the next stock card is TD"),
    (game(hand([P(A), P(B), K(A, "stock", "TD", "TD", SPREAD[:2])], claim("illegal_knock"))),
     "Ann knocked with 29 deadwood (9C 2D 9D 9S), but the knock limit is 10"),
    (game(hand([*BASE, D(B, ["JH JC JD"])], claim("knock", A, 42))),
     "Bo left 44 deadwood but could have left 33 by laying off 6C onto [3C 4C 5C], "
     "5S onto [6S 7S 8S] and melding [JC JD JH]"),
    (game(hand([U(A, "KH", "KH"), S(B, "QD", "QD"), KNOCK], WON)),
     "Ann discarded KH, the card just taken from the discard pile"),
])
def test_messages(record: GameRecord, message: str) -> None:
    (finding,) = adjudicate(record).findings
    assert finding.message == message
    assert finding.message == finding.message.rstrip(".") and "\n" not in finding.message


# -- clean records of every outcome, with the points ------------------------------------


def ruling(verdict: Verdict) -> tuple[str, str | None, int]:
    h = only(verdict)
    return h.outcome, h.winner, h.points


def test_knock_as_recorded_and_worked_out() -> None:
    recorded = D(B, ["JH JC JD"], [("6C", 0), ("5S", 1)], 33)
    for events in (BASE, [*BASE, recorded]):
        verdict = adjudicate(game(hand(events, WON, score_after=((A, 31), (B, 0)), next_dealer=A)))
        assert verdict.findings == ()
        h = only(verdict)
        assert ruling(verdict) == ("knock", A, 31)
        assert (h.knocker, h.knocker_deadwood, h.defender_deadwood) == (A, 2, 33)
        assert h.layoffs == ((card("6C"), meld("3C 4C 5C")), (card("5S"), meld("6S 7S 8S")))
        assert h.defender_melds == (meld("JH JC JD"),)
        assert h.defence_recorded is (len(events) == 4)
        assert (h.next_dealer, h.stock_left, h.knock_limit, h.multiplier) == (A, 30, 10, 1)
        assert verdict.hand_totals == ((A, 31), (B, 0)) and not verdict.game_over


def test_unrecorded_defence_uses_the_best_response() -> None:
    # Bo also holds 4S: 5S then 4S chain onto [6S 7S 8S]; the referee finds the chain
    bo = "6C JH JC JD 4H AH 8D KS 5S 4S"  # 4H AH 8D KS = 23 left; 23 - 2 = 21
    verdict = adjudicate(game(hand(BASE, claim("knock", A, 21), bo=bo)))
    assert verdict.findings == ()
    assert only(verdict).defender_deadwood == 23
    assert {c for c, _ in only(verdict).layoffs} == {card("6C"), card("5S"), card("4S")}


def test_chained_layoffs_follow_layoff_chaining() -> None:
    bo = "6C JH JC JD 4H AH 8D KS 5S 4S"
    defence = D(B, ["JH JC JD"], [("6C", 0), ("5S", 1), ("4S", 1)])
    chained = adjudicate(game(hand([*BASE, defence], claim("knock", A, 21), bo=bo)))
    assert chained.findings == () and ruling(chained) == ("knock", A, 21)
    # without chaining 4S does not touch [6S 7S 8S]: it stays deadwood, 23 + 4 = 27, 25 points
    unchained = adjudicate(game(hand([*BASE, defence], claim("knock", A, 25), bo=bo),
                                overrides={"layoff_chaining": "false"}))
    assert findings(unchained) == [("illegal_layoff", "error", line(4))]
    assert ruling(unchained) == ("knock", A, 25)


def test_explicit_empty_defence_counts_every_card() -> None:
    # 6+10+10+10+4+1+8+10+5+10 = 74 deadwood; 74 - 2 = 72
    verdict = adjudicate(game(hand([*BASE, D(B)], claim("knock", A, 72))))
    assert findings(verdict) == [("missed_layoff", "advisory", line(4))]
    assert verdict.clean and ruling(verdict) == ("knock", A, 72)
    assert only(verdict).defender_deadwood == 74 and only(verdict).layoffs == ()


# Bo for undercuts: [JH JC JD] [4H 5H 6H], 2C onto [3C 4C 5C], 5S onto [6S 7S 8S], left 2H 8D = 10
BO_TIE = "JH JC JD 4H 5H 6H 2C 5S 2H 8D"
ANN_TEN = "3C 4C 5C 6S 7S 8S 9D 9S 9C TD"  # knocks with TD = 10


@pytest.mark.parametrize(("rules", "overrides", "expected"), [
    ("standard", {}, ("undercut", B, 10)),  # 0 + 10 undercut bonus
    ("hoyle", {}, ("undercut", B, 25)),  # 0 + 25
    ("standard", {"tie_policy": "no_score"}, ("tie", None, 0)),
    ("standard", {"tie_policy": "knocker"}, ("knock", A, 0)),
    ("openspiel", {}, ("tie", None, 0)),  # OpenSpiel: a tie scores nothing
])
def test_ties(rules: str, overrides: dict[str, str], expected: tuple[str, str | None, int]) -> None:
    record = game(hand([P(A), P(B), K(A, "stock", "QD", "QD", deadwood=10)], claim(*expected),
                       ann=ANN_TEN, bo=BO_TIE), rules=rules, overrides=overrides)
    verdict = adjudicate(record)
    assert verdict.findings == ()
    assert ruling(verdict) == expected
    assert (only(verdict).knocker_deadwood, only(verdict).defender_deadwood) == (10, 10)


def test_undercut() -> None:
    # Bo keeps AH 8D = 9 against Ann's 10: 1 + 10 undercut bonus to Bo (1 + 25 in hoyle)
    bo = "JH JC JD 4H 5H 6H 2C 5S AH 8D"
    for rules, points in (("standard", 11), ("hoyle", 26)):
        record = game(hand([P(A), P(B), K(A, "stock", "QD", "QD")], claim("undercut", B, points),
                           ann=ANN_TEN, bo=bo, next_dealer=B), rules=rules)
        verdict = adjudicate(record)
        assert verdict.findings == ()
        assert ruling(verdict) == ("undercut", B, points)
        assert only(verdict).next_dealer == B  # the winner deals


GIN = K(A, "stock", "9H", "2D", ("3C 4C 5C", "6S 7S 8S", "9D 9S 9C 9H"), ending="gin")


def test_gin_outcomes() -> None:
    # Bo cannot lay off on gin: [JH JC JD] and 6C 4H AH 8D KS 5S TC = 44; 44 + 20 gin bonus
    verdict = adjudicate(game(hand([P(A), P(B), GIN], claim("gin", A, 64))))
    assert verdict.findings == () and ruling(verdict) == ("gin", A, 64)
    assert only(verdict).layoffs == ()
    hoyle = adjudicate(game(hand([P(A), P(B), GIN], claim("gin", A, 69)), rules="hoyle"))
    assert hoyle.findings == () and ruling(hoyle) == ("gin", A, 69)  # 44 + 25
    # a layoff onto gin is refused and the card stays deadwood
    onto = adjudicate(game(hand([P(A), P(B), GIN, D(B, ["JH JC JD"], [("6C", 0)])],
                                claim("gin", A, 64))))
    assert findings(onto) == [("layoff_on_gin", "error", line(4))]
    assert ruling(onto) == ("gin", A, 64)
    # declared as a knock: still gin (advisory)
    as_knock = msgspec.structs.replace(GIN, knock=msgspec.structs.replace(GIN.knock, ending="knock"))  # type: ignore[arg-type]
    plain = adjudicate(game(hand([P(A), P(B), as_knock], claim("gin", A, 64))))
    assert findings(plain) == [("knock_is_gin", "advisory", line(3))]
    assert ruling(plain) == ("gin", A, 64)
    # round-the-corner lets the defender lay off onto gin
    rtc = adjudicate(game(hand([P(A), P(B), GIN, D(B, ["JH JC JD"], [("6C", 0), ("5S", 1)])],
                               claim("gin", A, 53)), rules="round_the_corner"))
    # 6C and 5S laid off: 4H AH 8D KS TC = 4 + 15 (an unmatched ace counts 15) + 8 + 10 + 10 = 47;
    # 47 + 20 gin bonus = 67, but the claim says 53
    assert findings(rtc) == [("wrong_score", "error", RESULT)]
    assert ruling(rtc) == ("gin", A, 67)


BIG_GIN = K(A, "stock", "7C", None, ("3C 4C 5C 6C 7C", "6S 7S 8S", "9D 9S 9C"), ending="big_gin")
ANN_BIG = "3C 4C 5C 6C 6S 7S 8S 9D 9S 9C"
BO_BIG = "QD JH JC JD 4H AH 8D KS 5S TC"  # [JH JC JD] + QD 4H AH 8D KS 5S TC = 48


def test_big_gin() -> None:
    hoyle = adjudicate(game(hand([P(A), P(B), BIG_GIN], claim("big_gin", A, 79), ann=ANN_BIG, bo=BO_BIG),
                            rules="hoyle"))
    assert hoyle.findings == () and ruling(hoyle) == ("big_gin", A, 79)  # 48 + 31
    standard = adjudicate(game(hand([P(A), P(B), BIG_GIN], claim("gin", A, 68), ann=ANN_BIG, bo=BO_BIG)))
    assert findings(standard) == [("big_gin_not_recognised", "error", line(3))]
    assert ruling(standard) == ("gin", A, 68)  # ruled as gin: 48 + 20


def test_withheld_meld() -> None:
    # Ann: [AC 2C 3C] [6S 7S 8S] [9D 9S 9C] + 2D; she withholds [AC 2C 3C]: 1+2+3+2 = 8 deadwood
    ann = "AC 2C 3C 6S 7S 8S 9D 9S 9C 2D"
    bo = "6C JH JC JD 4H AH 8D KS 5S TC"  # 5S onto [6S 7S 8S]; 6C 4H AH 8D KS TC = 39 left
    knock = K(A, "stock", "TD", "TD", ("6S 7S 8S", "9D 9S 9C"), deadwood=8)
    verdict = adjudicate(game(hand([P(A), P(B), knock], claim("knock", A, 31), ann=ann, bo=bo)))
    assert findings(verdict) == [("knock_not_best", "advisory", line(3))]
    assert ruling(verdict) == ("knock", A, 31)
    strict = adjudicate(game(hand([P(A), P(B), knock], claim("illegal_knock"), ann=ann, bo=bo),
                             overrides={"knocker_must_meld_max": "true"}))
    assert findings(strict) == [("knock_not_max", "error", line(3))]
    assert ruling(strict) == ("illegal_knock", None, 0)


@pytest.mark.parametrize(("up", "expected", "codes"), [
    ("2H", ("knock", A, 31), []),  # limit 2: Ann's 2 is fine
    ("3S", ("knock", A, 62), []),  # limit 3, spade: 31 x 2
    ("AS", ("illegal_knock", None, 0), [("knock_over_limit", "error", line(3))]),  # ace: gin only
    ("AH", ("illegal_knock", None, 0), [("knock_over_limit", "error", line(3))]),
])
def test_oklahoma_limit_from_the_first_upcard(
    up: str, expected: tuple[str, str | None, int], codes: list[tuple[str, str, int]]
) -> None:
    bo = BO if up != "AH" else "6C JH JC JD 4H AD 8D KS 5S TC"  # AD counts 1 like AH
    verdict = adjudicate(game(hand(BASE, claim(*expected), up=up, bo=bo), rules="oklahoma"))
    assert findings(verdict) == codes
    assert ruling(verdict) == expected
    assert only(verdict).knock_limit == {"2H": 2, "3S": 3, "AS": 0, "AH": 0}[up]


def test_oklahoma_limit_holds_when_the_upcard_is_taken() -> None:
    # Ann takes 2H, keeps it and discards 2D: [..] + 2H = 2, within the upcard's limit of 2
    events = [K(A, "discard", "2H", "2D", deadwood=2)]
    verdict = adjudicate(game(hand(events, claim("knock", A, 31), up="2H"), rules="oklahoma"))
    assert verdict.findings == () and ruling(verdict) == ("knock", A, 31)


def test_first_turn_variants() -> None:
    # cardhearth: no ritual; Ann simply draws
    none = adjudicate(game(hand([KNOCK], claim("knock", A, 31)), rules="cardhearth"))
    assert none.findings == () and ruling(none) == ("knock", A, 31)
    passed = adjudicate(game(hand([P(A), KNOCK], claim("knock", A, 31)), rules="cardhearth"))
    assert findings(passed) == [("upcard_ritual", "error", line(1)), ("wrong_turn", "error", line(2))]
    # eleven cards: Ann opens by discarding QD, Bo plays, Ann knocks
    eleven = {"first_turn": "eleven_card"}
    events = [Turn(A, "none", None, card("QD")), S(B, "TD", "TD"), K(A, "stock", "QS", "QS", deadwood=2)]
    ok = adjudicate(game(hand(events, WON, ann=ANN + " QD", up=None), overrides=eleven))
    assert ok.findings == () and ruling(ok) == ("knock", A, 31)
    drew = adjudicate(game(hand([S(A, "TD", "QD")], WON, ann=ANN + " QD", up=None), overrides=eleven))
    assert findings(drew) == [("upcard_ritual", "error", line(1))]
    dealt_ten = adjudicate(game(hand(events, WON, up=None), overrides=eleven))
    assert findings(dealt_ten)[0] == ("deal_incomplete", "error", HAND)


# -- the end of the stock ---------------------------------------------------------------


def marathon(stock: Sequence[str], draws: int = 29) -> list[Event]:
    """Both pass the upcard, then each in turn draws from the stock and discards that card."""
    events: list[Event] = [P(A), P(B)]
    for k in range(draws):
        events.append(S(A if k % 2 == 0 else B, stock[k], stock[k]))
    return events


def test_stock_end() -> None:
    # 29 draws leave 2 cards: Ann drew the 29th and discarded without knocking: void
    events = marathon(STOCK)
    verdict = adjudicate(game(hand(events, claim("void"), stock=STOCK, next_dealer=B)))
    assert verdict.findings == ()
    assert ruling(verdict) == ("void", None, 0)
    assert (only(verdict).end, only(verdict).stock_left, only(verdict).next_dealer) == ("stock", 2, B)
    passes = adjudicate(game(hand(events, claim("void"), next_dealer=A),
                             overrides={"void_hand_dealer": "passes"}))
    assert passes.findings == () and only(passes).next_dealer == A
    later = adjudicate(game(hand([*events, S(B, STOCK[29], STOCK[29])], claim("void"))))
    assert findings(later) == [("stock_exhausted", "error", line(len(events) + 1))]
    assert ruling(later) == ("void", None, 0)


BO_WALL = "JH JC JD 4H 5H 6H 2C 5S 2H 8D"
WALL_STOCK = rest_of_deck(ANN, BO_WALL, "KH", first=())
WALL_STOCK.remove("3H")
WALL_STOCK.insert(28, "3H")


def test_wall() -> None:
    events = marathon(WALL_STOCK)  # Ann's last discard is 3H, with 2 cards left in the stock
    # OpenSpiel: Bo takes 3H only to knock: [JH JC JD] [2H..6H], 2C 5S = 7 after discarding 8D;
    # Ann keeps 2D = 2 (nothing to lay off), so Ann undercuts: 5 + 25 = 30
    knock = K(B, "discard", "3H", "8D", ("JH JC JD", "2H 3H 4H 5H 6H"), deadwood=7)
    verdict = adjudicate(game(hand([*events, knock], claim("undercut", A, 30), bo=BO_WALL,
                                   stock=WALL_STOCK), rules="openspiel"))
    assert verdict.findings == ()
    assert ruling(verdict) == ("undercut", A, 30)
    assert verdict.game_over and verdict.winner == A  # OpenSpiel plays one hand
    passed = adjudicate(game(hand([*events, P(B)], claim("void"), bo=BO_WALL), rules="openspiel"))
    assert passed.findings == () and only(passed).end == "wall"
    taken = adjudicate(game(hand([*events, U(B, "3H", "8D")], claim("void"), bo=BO_WALL),
                            rules="openspiel"))
    assert findings(taken) == [("stock_exhausted", "error", line(len(events) + 1))]
    drawn = adjudicate(game(hand([*events, S(B, WALL_STOCK[29], "8D")], claim("void"), bo=BO_WALL),
                            rules="openspiel"))
    assert findings(drawn) == [("draw_from_empty_stock", "error", line(len(events) + 1))]
    # the standard rules have no wall: the same knock comes after the end of the hand
    standard = adjudicate(game(hand([*events, knock], claim("void"), bo=BO_WALL)))
    assert findings(standard) == [("stock_exhausted", "error", line(len(events) + 1))]


def shuttle(count: int, last_discard: bool = False) -> list[Event]:
    """Ann draws TD and throws it; then each in turn takes the top discard and throws
    another of the three shuttling cards (TD, Bo's 8D, Ann's 2D), never the one taken."""
    events: list[Event] = [P(A), P(B), S(A, "TD", "TD")]
    holds = {A: {"2D"}, B: {"8D"}}
    top = "TD"
    who = B
    for n in range(1, count + 1):
        holds[who].add(top)
        throw = next(c for c in sorted(holds[who]) if c != top)
        if n == count and not last_discard:
            events.append(U(who, top, None))
            break
        holds[who].remove(throw)
        events.append(U(who, top, throw))
        top = throw
        who = A if who == B else B
    return events


def test_fiftieth_discard_draw() -> None:
    events = shuttle(50)
    verdict = adjudicate(game(hand(events, claim("void")), rules="openspiel"))
    assert verdict.findings == ()
    assert ruling(verdict) == ("void", None, 0) and only(verdict).end == "max_discard_draws"
    too_late = adjudicate(game(hand(shuttle(50, last_discard=True), claim("void")), rules="openspiel"))
    assert findings(too_late) == [("moves_after_end", "error", line(len(events)))]
    # 49 draws do not end it: the record stops with the hand still on
    short = adjudicate(game(hand(shuttle(49, last_discard=True), claim("void")), rules="openspiel"))
    assert findings(short) == [("void_unverified", "advisory", line(52))]
    # the standard rules have no cap
    standard = adjudicate(game(hand([*shuttle(60, last_discard=True), S(B, "QD", "QD")], claim("void"))))
    assert findings(standard) == [("void_unverified", "advisory", line(64))]


def test_repeat_discard_draw() -> None:
    # Ann throws 2D; Bo takes it and throws it back; Ann does the same: a draw (OpenSpiel)
    events = [P(A), P(B), S(A, "TD", "2D"), U(B, "2D", "2D"), U(A, "2D", "2D")]
    verdict = adjudicate(game(hand(events, claim("void")), rules="openspiel"))
    assert verdict.findings == ()
    assert ruling(verdict) == ("void", None, 0) and only(verdict).end == "repeat_discard_draw"
    # the first-turn upcard counts too
    upcard = adjudicate(game(hand([U(A, "KH", "KH"), U(B, "KH", "KH")], claim("void")), rules="openspiel"))
    assert upcard.findings == () and only(upcard).end == "repeat_discard_draw"
    # broken by a different discard in between: play goes on
    broken = [P(A), P(B), S(A, "TD", "2D"), U(B, "2D", "2D"), U(A, "2D", "TD"), U(B, "TD", "TD")]
    assert findings(adjudicate(game(hand(broken, claim("void")), rules="openspiel"))) == [
        ("void_unverified", "advisory", line(6))
    ]
    # after the end, a further event is reported
    after = adjudicate(game(hand([*events, S(B, "QD", "QD")], claim("void")), rules="openspiel"))
    assert findings(after) == [("moves_after_end", "error", line(6))]


# -- games ------------------------------------------------------------------------------


def second_hand(dealer: str = A, **kwargs: object) -> HandRecord:
    """Ann deals and knocks on her first turn: Bo passes, Ann passes, Bo draws QD and throws it."""
    events = [P(B), P(A), S(B, "QD", "QD"), K(A, "stock", "TD", "TD", deadwood=2)]
    return hand(events, claim("knock", A, 31), dealer=dealer, line_no=40, **kwargs)  # type: ignore[arg-type]


def test_game_to_the_target() -> None:
    # target 40: Ann 31 then 62: game over; 62 + 100 game + 100 shutout (Bo won nothing)
    # + 2 boxes x 20 = 302 for Ann, 0 for Bo
    target = {"game_target": "40"}
    first = hand(BASE, WON, score_after=((A, 31), (B, 0)), next_dealer=A)
    second = second_hand(score_after=((A, 62), (B, 0)), next_dealer=A)
    verdict = adjudicate(game(first, second, overrides=target, final=((A, 302), (B, 0))))
    assert verdict.findings == ()
    assert verdict.game_over and verdict.winner == A
    assert verdict.hand_totals == ((A, 62), (B, 0)) and verdict.final_totals == ((A, 302), (B, 0))
    assert [h.totals_after for h in verdict.hands] == [((A, 31), (B, 0)), ((A, 62), (B, 0))]
    # a third hand comes after the end
    extra = msgspec.structs.replace(second_hand(), place=Place(line=70, column=1))
    over = adjudicate(game(first, second, extra, overrides=target, final=((A, 302), (B, 0))))
    assert findings(over) == [("moves_after_end", "error", 70)]
    assert len(over.hands) == 2
    # the final totals are checked
    wrong = adjudicate(game(first, second, overrides=target, final=((A, 202), (B, 0))))
    assert findings(wrong) == [("wrong_score", "error", REC)]


def test_next_hand_dealer() -> None:
    # Ann won hand 1, so Ann deals hand 2; a hand 2 dealt by Bo is reported on hand 2
    first = hand(BASE, WON)
    wrong = hand(BASE, WON, line_no=40)
    verdict = adjudicate(game(first, wrong))
    assert findings(verdict) == [("wrong_dealer", "error", 40)]
    assert [f.hand for f in verdict.findings] == [1]
    alternate = adjudicate(game(first, wrong, overrides={"next_dealer": "alternate"}))
    assert findings(alternate) == [("wrong_dealer", "error", 40)]
    loser = adjudicate(game(first, wrong, overrides={"next_dealer": "loser"}))
    assert loser.findings == ()


def test_single_hand_rules_end_the_game() -> None:
    # OpenSpiel is one hand: gin 25 -> a knock still scores the difference
    verdict = adjudicate(game(hand(BASE, WON), hand(BASE, WON, line_no=40), rules="openspiel"))
    assert findings(verdict) == [("moves_after_end", "error", 40)]
    assert verdict.game_over and verdict.winner == A and verdict.final_totals == ((A, 31), (B, 0))


# -- the verdict as data ----------------------------------------------------------------


def test_to_dict_is_json_ready() -> None:
    verdict = adjudicate(game(hand([*BASE, D(B, ["JH JC JD"])], claim("knock", A, 30))))
    data = verdict.to_dict()
    text = json.dumps(data)
    assert json.loads(text) == data
    assert data["clean"] is False and data["rules"] == "standard"
    assert [f["code"] for f in data["findings"]] == ["missed_layoff", "wrong_score"]  # type: ignore[index]
    first = data["findings"][0]  # type: ignore[index]
    assert first == {
        "code": "missed_layoff", "severity": "advisory", "message": first["message"],
        "place": {"line": line(4), "column": 1}, "hand": 0,
    }
    h = data["hands"][0]  # type: ignore[index]
    assert h["knocker_melds"] == [["3C", "4C", "5C"], ["6S", "7S", "8S"], ["9C", "9D", "9S"]]
    assert h["outcome"] == "knock" and h["points"] == 42 and h["defender_melds"] == [["JC", "JD", "JH"]]


def test_verdicts_are_values_that_paste_back_and_compare_on_the_ruling() -> None:
    """A hand's ruling compares (and hashes) without how it was worked out (``steps``) or the
    meld system it was read with, and ``repr`` leaves the system out: as when it was a dataclass."""
    from ginref import scoring
    from ginref.melds import STANDARD_SYSTEM, MeldSystem

    verdict = adjudicate(game(hand([*BASE, D(B, ["JH JC JD"])], claim("knock", A, 30))))
    ruled = verdict.hands[0]
    assert ruled.steps
    other = msgspec.structs.replace(ruled, steps=(), system=MeldSystem.from_rules(find_rules("hollywood")))
    assert ruled == other and hash(ruled) == hash(other)
    assert not ruled != other  # noqa: SIM202 (!= is a method of its own)
    assert ruled != msgspec.structs.replace(ruled, points=ruled.points + 1)
    assert "system" not in repr(ruled)
    names = {**vars(scoring), "HandVerdict": HandVerdict}
    pasted = eval(repr(ruled), names)
    assert pasted == ruled and pasted.steps == ruled.steps and pasted.system is STANDARD_SYSTEM
    again = msgspec.structs.replace(verdict)
    assert again == verdict and hash(again) == hash(verdict)
    for value, name in ((ruled, "points"), (verdict, "winner")):
        with pytest.raises(AttributeError):
            setattr(value, name, None)


def test_explicit_rules_override_the_record() -> None:
    record = game(hand([P(A), P(B), GIN], claim("gin", A, 69)))
    assert findings(adjudicate(record)) == [("wrong_score", "error", RESULT)]
    assert adjudicate(record, PRESETS["hoyle"]).findings == ()
    assert adjudicate(record, with_overrides(find_rules("standard"), {"gin_bonus": 25})).findings == ()


def test_never_raises_on_nonsense() -> None:
    nonsense = [
        game(hand([Turn(A, "stock", -3, -4)], WON)),
        game(hand([Turn(A, "discard", "KH", "x")], WON)),  # type: ignore[arg-type]
        game(hand([P(A), P(B), Turn(A, "stock", 99, 98)], WON)),
        game(hand([P(A), P(B), K(A, "stock", "TD", "TD", ())], WON, up="QC")),
        game(hand(BASE, WON, stock=["TD"] * 31)),
        GameRecord(players=(A, A), hands=()),
        GameRecord(players=(A, B), hands=()),
    ]
    for record in nonsense:
        verdict = adjudicate(record)
        assert isinstance(verdict, Verdict)


def test_next_dealer_under_loser_deals_is_known_even_when_the_dealer_is_not() -> None:
    """The referee asks game.next_dealer: with the dealer unknown, the loser of the hand
    still deals next under "loser deals" (the referee's own copy used to say nobody)."""
    text = SAMPLES.joinpath("wrong-dealer.gin").read_text().replace('[Dealer "Bo"]', '[Dealer "Cy"]')
    text = text.replace('[Rules "standard"]', '[Rules "standard"]\n[Set "next_dealer=loser"]')
    verdict = adjudicate(read_text(text))
    assert "unknown_player" in verdict.codes
    assert verdict.hands[0].dealer is None
    assert verdict.hands[0].winner is None and verdict.hands[0].outcome == "unresolved"
    assert verdict.hands[0].next_dealer == "Bo"  # Ann won by the claim that carries the game on


# -- a megabyte of name -----------------------------------------------------------------------

LONG_NAME = "Z" * 1_000_000
WORKED = SAMPLES.joinpath("knock-layoffs.gin").read_text()
LONG_NAMED = {
    "the players": ('[Players "Ann" "Bo"]', f'[Players "{LONG_NAME}" "Bo"]', ["unknown_player"]),
    "the dealer": ('[Dealer "Bo"]', f'[Dealer "{LONG_NAME}"]', ["unknown_player"]),
    "dealt to": ('[Deal "Bo"', f'[Deal "{LONG_NAME}"', ["unknown_player"]),
    "a turn's player": ("Bo draw TD", f"{LONG_NAME} draw TD", ["unknown_player"]),
    "the knocker": ("Ann draw 8S knock", f"{LONG_NAME} draw 8S knock", ["unknown_player"]),
    "the defender": ("Bo defend", f"{LONG_NAME} defend", ["unknown_player"]),
    "the claimed winner": ("result knock Ann 21", f"result knock {LONG_NAME} 21", ["wrong_result"]),
    "a total's name": ("score Ann 21", f"score {LONG_NAME} 21", ["wrong_score"]),
    "the next dealer": ("next_dealer Ann", f"next_dealer {LONG_NAME}", ["wrong_dealer"]),
    "3,000 totals": ("score Ann 21 Bo 0", "score Ann 21 Bo 0 " + " ".join(f"X{i} {i}" for i in range(3000)),
                     ["wrong_score"]),
}


@pytest.mark.parametrize("case", LONG_NAMED)
def test_a_megabyte_of_name_anywhere_gets_one_short_line(case: str) -> None:
    """Every message quotes a name that is not a player's cut short, and a player's name has at
    most ``MAX_NAME`` characters: a record cannot make a ruling's message as long as itself."""
    old, new, codes = LONG_NAMED[case]
    assert WORKED.count(old) == 1
    verdict = adjudicate(read_text(WORKED.replace(old, new)))
    assert list(verdict.codes) == codes
    for found in verdict.findings:
        assert len(found.message) < 400 and found.message.isprintable(), found.message[:400]


# layoff_chain_limit: at most N cards laid off beyond each end of a run (openspiel: 2). Bo
# holds 6C 7C 8C beyond [3C 4C 5C]: all three laid leave 4H AH 8D KS = 23, 23 - 2 = 21; with
# 8C refused it stays deadwood, 23 + 8 = 31, 29 points, and melding [6C 7C 8C] would leave 23
CHAIN_BO = "6C 7C 8C JH JC JD 4H AH 8D KS"
# with 8C in [8C 8D 8H], 6C 7C are two beyond the end: AH KS = 11 left, 11 - 2 = 9
TWO_BO = "6C 7C 8C 8D 8H JH JC JD AH KS"
CHAIN_LIMIT = [
    # (rules, overrides, Bo, Bo's melds, layoffs onto [3C 4C 5C], points, findings)
    ("standard", None, CHAIN_BO, ["JH JC JD"], "6C 7C 8C", 21, []),
    ("standard", {"layoff_chain_limit": "2"}, CHAIN_BO, ["JH JC JD"], "6C 7C 8C", 29,
     [("illegal_layoff", "error", line(4)), ("missed_layoff", "advisory", line(4))]),
    ("openspiel", None, CHAIN_BO, ["JH JC JD"], "6C 7C 8C", 29,
     [("illegal_layoff", "error", line(4)), ("missed_layoff", "advisory", line(4))]),
    ("openspiel", None, TWO_BO, ["8C 8D 8H", "JH JC JD"], "6C 7C", 9, []),
    ("standard", {"layoff_chain_limit": "2"}, TWO_BO, ["8C 8D 8H", "JH JC JD"], "6C 7C", 9, []),
    # cap 1: 7C is the second card beyond the end and stays deadwood, 11 + 7 = 18, 16 points,
    # which is the least these rules allow (no missed_layoff)
    ("standard", {"layoff_chain_limit": "1"}, TWO_BO, ["8C 8D 8H", "JH JC JD"], "6C 7C", 16,
     [("illegal_layoff", "error", line(4))]),
]


@pytest.mark.parametrize(("rules", "overrides", "bo", "melds", "laid", "points", "found"), CHAIN_LIMIT)
def test_declared_layoffs_follow_layoff_chain_limit(
    rules: str, overrides: dict[str, str] | None, bo: str, melds: list[str], laid: str, points: int,
    found: list[tuple[str, str, int]],
) -> None:
    defence = D(B, melds, [(c, 0) for c in laid.split()])
    verdict = adjudicate(game(hand([*BASE, defence], claim("knock", A, points), bo=bo),
                              rules=rules, overrides=overrides))
    assert findings(verdict) == found
    assert ruling(verdict) == ("knock", A, points)
    refused = [f.message for f in verdict.findings if f.code == "illegal_layoff"]
    assert all("at most" in message and "beyond a run's end" in message for message in refused)


# -- a finding names the rule knobs that decided it, as data --------------------------------------

KNOB_SAMPLES = [
    ("wrong-draw-from-empty-stock.gin", "draw_from_empty_stock", ("stock_floor",)),
    ("wrong-knock-over-limit.gin", "knock_over_limit", ("knock_limit",)),
    ("wrong-layoff-on-gin.gin", "layoff_on_gin", ("layoff_on_gin",)),
    ("wrong-same-card-discard.gin", "same_card_discard", ("no_same_card_discard",)),
    ("wrong-stock-exhausted.gin", "stock_exhausted", ("stock_end",)),
    ("wrong-upcard-ritual.gin", "upcard_ritual", ("first_turn",)),
    ("wrong-card-not-in-hand.gin", "card_not_in_hand", ()),  # a rule of every game
    ("wrong-turn.gin", "wrong_turn", ()),
]
"""sample records, the finding each shows, and the knobs that decided it"""


@pytest.mark.parametrize(("sample", "code", "knobs"), KNOB_SAMPLES)
def test_a_finding_names_the_knobs_that_decided_it(sample: str, code: str, knobs: tuple[str, ...]) -> None:
    from ginref.records import read_records

    (record,) = read_records(f"samples/records/{sample}")
    assert isinstance(record, GameRecord)
    found = {f.knobs for f in adjudicate(record).findings if f.code == code}
    assert found == {knobs}


@pytest.mark.parametrize(("sample", "code", "knobs"), KNOB_SAMPLES)
def test_verify_json_cites_the_knobs_of_each_finding(sample: str, code: str, knobs: tuple[str, ...]) -> None:
    """``verify --json`` names the knobs where a rule set decided the finding, and leaves the
    key out for a rule of every game."""
    import json

    from click.testing import CliRunner

    from ginref.cli.app import cli

    result = CliRunner().invoke(cli, ["verify", f"samples/records/{sample}", "--json"])
    (document,) = json.loads(result.output)["records"]
    cited = {tuple(f.get("knobs", ())) for f in document["findings"] if f["code"] == code}
    assert cited == {knobs}
