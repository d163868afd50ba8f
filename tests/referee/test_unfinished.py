"""The unfinished claim (PGN's ``*`` with its Termination) and the win/draw claims.

A record that stops mid-hand and says so is verifiable: the moves made must be legal,
the verdict is ``unfinished`` with the reason, whose turn it was and the phase, and that
is not an error. A record that simply stops still gets ``incomplete_hand``.
"""

from __future__ import annotations

import json

import pytest

from ginref.records import decode_json_text, format_jsonl, format_text, read_text
from ginref.referee import adjudicate

HEAD = """[Rules "openspiel"]
[Players "P0" "P1"]
[Dealer "P1"]
[Deal "P0" "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"]
[Deal "P1" "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"]
[Upcard "KS"]
"""
LOOP = "P0 take KS discard KS\nP1 take KS discard KS\nP0 take KS discard KS\n"
"""both players take the top discard and throw it again: OpenSpiel's repeated move ends the hand"""

UNFINISHED = {
    "a forfeit after a stock draw": ("P0 pass\nP1 pass\nP0 draw QS", "result unfinished forfeit P0",
                                     ("forfeit", "P0", "P0", "discard")),
    "a timeout before the draw": ("P0 pass\nP1 pass\nP0 draw QS discard QS", "result unfinished timeout P1",
                                  ("timeout", "P1", "P1", "draw")),
    "a log cut in the upcard ritual": ("P0 pass", "result unfinished stopped",
                                       ("stopped", None, "P1", "upcard")),
    "an illegal move sent at the first upcard": ("", "result unfinished illegal_move P0",
                                                 ("illegal_move", "P0", "P0", "upcard")),
}


@pytest.mark.parametrize("case", list(UNFINISHED))
def test_an_unfinished_hand_is_clean_with_reason_turn_and_phase(case: str) -> None:
    events, claim, (reason, by, to_move, phase) = UNFINISHED[case]
    verdict = adjudicate(read_text(HEAD + events + "\n" + claim + "\n"))
    assert verdict.clean and verdict.findings == ()
    hand = verdict.hands[0]
    assert (hand.outcome, hand.end, hand.winner, hand.points) == ("unfinished", "unfinished", None, 0)
    assert hand.unfinished is not None
    assert (hand.unfinished.reason, hand.unfinished.stopped_by, hand.unfinished.to_move,
            hand.unfinished.phase) == (reason, by, to_move, phase)
    assert json.loads(json.dumps(hand.to_dict()))["unfinished"]["phase"] == phase


WRONG = {
    "a hand that stops with no claim": ("P0 pass\nP1 pass\nP0 draw QS", "", "incomplete_hand"),
    "a claimed unfinished hand that ended": (LOOP, "result unfinished forfeit P0", "wrong_result"),
    "stopped by a stranger": ("P0 pass", "result unfinished forfeit Zed", "unknown_player"),
    "an illegal move before the stop": ("P1 pass", "result unfinished forfeit P0", "wrong_turn"),
    "a win claimed for a void hand": (LOOP, "result win P0", "wrong_result"),
    "a draw claimed for a knock": ("P0 take KS gin KS [AC 2C 3C] [4C 5C 6C] [7C 8C 9C TC]",
                                   "result draw", "wrong_result"),
}


@pytest.mark.parametrize("case", list(WRONG))
def test_what_an_unfinished_or_win_claim_does_not_excuse(case: str) -> None:
    events, claim, code = WRONG[case]
    verdict = adjudicate(read_text(HEAD + events + "\n" + claim + "\n"))
    assert code in verdict.codes


@pytest.mark.parametrize(("events", "claim"), [
    (LOOP, "result draw"),
    ("P0 take KS gin KS [AC 2C 3C] [4C 5C 6C] [7C 8C 9C TC]", "result win P0"),
])
def test_win_and_draw_claims_check_the_winner_not_points(events: str, claim: str) -> None:
    verdict = adjudicate(read_text(HEAD + events + "\n" + claim + "\n"))
    assert "wrong_result" not in verdict.codes and "wrong_score" not in verdict.codes


@pytest.mark.parametrize("claim", [
    "result unfinished forfeit P1", "result unfinished stopped", "result win P0", "result draw",
])
def test_the_claims_round_trip_in_both_forms(claim: str) -> None:
    record = read_text(HEAD + "P0 pass\n" + claim + "\n")
    assert read_text(format_text(record)) == record
    assert decode_json_text(format_jsonl(record)) == record
    assert claim in format_text(record)


@pytest.mark.parametrize(("line", "message"), [
    ("result unfinished", "expected a reason"),
    ("result unfinished P1", "expected a reason"),
    ("result unfinished forfeit P1 3", "expected end of line"),
])
def test_a_bad_unfinished_line_is_a_placed_error(line: str, message: str) -> None:
    from ginref.errors import RecordError

    with pytest.raises(RecordError, match=message) as caught:
        read_text(HEAD + line + "\n")
    assert caught.value.line == 7


@pytest.mark.parametrize(("result", "message"), [
    ({"outcome": "unfinished"}, "/result: missing key 'reason'"),
    ({"outcome": "unfinished", "reason": "bored"}, "/result/reason: expected one of forfeit"),
    ({"outcome": "knock", "winner": "P0", "points": 3, "reason": "forfeit"}, "only an unfinished result"),
    ({"outcome": "tie", "stopped_by": "P0"}, "only an unfinished result"),
])
def test_bad_unfinished_json_names_the_pointer(result: dict[str, object], message: str) -> None:
    document = json.loads(format_jsonl(read_text(HEAD)))
    document["hands"][0]["result"] = result
    item = decode_json_text(json.dumps(document))
    assert not hasattr(item, "hands")
    assert message in str(item)


def test_the_schema_knows_the_new_claims() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib.resources import files

    schema = json.loads(files("ginref").joinpath("record.schema.json").read_text())
    good = json.loads(format_jsonl(read_text(HEAD + "result unfinished forfeit P1\n")))
    jsonschema.validate(good, schema)
    good["hands"][0]["result"] = {"outcome": "unfinished"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(good, schema)
    good["hands"][0]["result"] = {"outcome": "tie", "reason": "forfeit"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(good, schema)
