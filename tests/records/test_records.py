"""Record formats: the .gin line grammar, JSON, round trips and the lenient readers."""

from __future__ import annotations

import io
import itertools
import json
import string
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref.cards import mask_of
from ginref.errors import RecordError
from ginref.notation import CARD_NAMES, parse_cards
from ginref.records import (
    ClaimedResult,
    Defence,
    GameRecord,
    HandRecord,
    JsonRecordError,
    Knock,
    Pass,
    Place,
    Turn,
    decode_json_text,
    format_json,
    format_jsonl,
    format_text,
    from_json_dict,
    raw_records,
    read_record,
    read_records,
    read_text,
    to_json_dict,
)
from ginref.records.lexicon import RecordToken
from ginref.records.text import _PLAIN_LINES, _PLAIN_LINES_MAX, _TextReader, read_text_by_grammar
from ginref.records.text_grammar import (
    claim_line_expr,
    event_line_expr,
    parse_line,
    record_line_expr,
    tag_line_expr,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
KNOCK = (SAMPLES / "knock-layoffs.gin").read_text(encoding="utf-8")


def c(name: str) -> int:
    (card,) = parse_cards(name)
    return card


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def event(line: str) -> object:
    """The event a line reads as, inside a minimal record."""
    record = read_text(f'[Rules "standard"]\n[Players "Ann" "Bo"]\n[Dealer "Bo"]\n{line}\n')
    (only,) = record.hands[0].events
    return only


def error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_text(text, source="t.gin")
    return info.value


HEAD = '[Rules "standard"]\n[Players "Ann" "Bo"]\n[Dealer "Bo"]\n'

# -- the line grammar ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Ann pass", Pass("Ann")),
        ("Ann draw 8S discard KH", Turn("Ann", "stock", c("8S"), c("KH"))),
        ("Ann draw ?? discard KH", Turn("Ann", "stock", None, c("KH"))),
        ("Ann take 9H discard QC", Turn("Ann", "discard", c("9H"), c("QC"))),
        ("Ann take ?? discard QC", Turn("Ann", "discard", None, c("QC"))),
        ("Ann draw 8S", Turn("Ann", "stock", c("8S"))),
        ("Ann discard QC", Turn("Ann", "none", None, c("QC"))),
        (
            "Ann draw 8S knock KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S] deadwood 2",
            Turn("Ann", "stock", c("8S"), knock=Knock(
                "knock", c("KH"), (m("3C 4C 5C"), m("9D 9H 9S"), m("6S 7S 8S")), 2)),
        ),
        (
            "Bo draw 5H gin 9D [2H 3H 4H 5H] [7C 7D 7S] [JS QS KS]",
            Turn("Bo", "stock", c("5H"), knock=Knock(
                "gin", c("9D"), (m("2H 3H 4H 5H"), m("7C 7D 7S"), m("JS QS KS")))),
        ),
        (
            "Ann draw 5S big_gin [4C 5C 6C 7C] [8D 8H 8S] [2S 3S 4S 5S]",
            Turn("Ann", "stock", c("5S"), knock=Knock(
                "big_gin", None, (m("4C 5C 6C 7C"), m("8D 8H 8S"), m("2S 3S 4S 5S")))),
        ),
        ("Ann knock", Turn("Ann", "none", None, knock=Knock("knock", None, ()))),
        (
            "Ann draw 3C discard 4C knock 5C [] deadwood 0",
            Turn("Ann", "stock", c("3C"), c("4C"), Knock("knock", c("5C"), (0,), 0)),
        ),
        (
            "Bo defend [JC JD JH] 6C>1 9C>2 5S>3 deadwood 23",
            Defence("Bo", (m("JC JD JH"),), ((c("6C"), 0), (c("9C"), 1), (c("5S"), 2)), 23),
        ),
        ("Bo defend 7H>1 8H>1", Defence("Bo", (), ((c("7H"), 0), (c("8H"), 0)))),
        ("Bo defend", Defence("Bo")),
        ("Bo defend deadwood 57", Defence("Bo", deadwood=57)),
        # other spellings go through the grammar and mean the same
        ("Ann draw 10s discard kh", Turn("Ann", "stock", c("TS"), c("KH"))),
        ("Ann draw 8♠ discard K♥", Turn("Ann", "stock", c("8S"), c("KH"))),
        ("Bo defend [JC,JD,JH] 6C > 1", Defence("Bo", (m("JC JD JH"),), ((c("6C"), 0),))),
        ('"Ann Lee" pass', Pass("Ann Lee")),
        ('"pass" pass', Pass("pass")),
        ('"Zoë \\"Z\\"" draw ?? discard 2C', Turn('Zoë "Z"', "stock", None, c("2C"))),
        ("   Ann pass   # a comment", Pass("Ann")),
        ("\tAnn\tpass", Pass("Ann")),
    ],
)
def test_event_lines(line: str, expected: object) -> None:
    assert event(line) == expected


def test_places_count_real_characters() -> None:
    text = HEAD + "\tAnn draw 8S knock KH [3C 4C 5C]\nBo defend\n"
    events = read_text(text).hands[0].events
    turn = events[0]
    assert isinstance(turn, Turn) and turn.knock is not None
    assert turn.place == Place(4, 2)
    assert turn.knock.place == Place(4, 14)
    assert events[1].place == Place(5, 1)


def test_claim_lines() -> None:
    text = HEAD + "Ann pass\nresult knock Ann 21\nscore Ann 21 Bo 0\nnext_dealer Ann\n\nfinal Ann 1 Bo -2\n"
    record = read_text(text)
    hand = record.hands[0]
    assert hand.result == ClaimedResult("knock", "Ann", 21)
    assert hand.result.place == Place(5, 1)
    assert hand.score_after == (("Ann", 21), ("Bo", 0))
    assert hand.next_dealer == "Ann"
    assert record.final_totals == (("Ann", 1), ("Bo", -2))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("result void", ClaimedResult("void")),
        ("result tie", ClaimedResult("tie")),
        ("result tie 5", ClaimedResult("tie", None, 5)),
        ("result illegal_knock", ClaimedResult("illegal_knock")),
        ("result undercut Bo 25", ClaimedResult("undercut", "Bo", 25)),
        ("result gin Bo", ClaimedResult("gin", "Bo", 0)),
        ('result knock "Bo Lee" 3', ClaimedResult("knock", "Bo Lee", 3)),
        ('result knock "21" 3', ClaimedResult("knock", "21", 3)),
    ],
)
def test_result_lines(line: str, expected: ClaimedResult) -> None:
    assert read_text(HEAD + line + "\n").hands[0].result == expected


def test_tags() -> None:
    text = (
        '[Event "Club \\"night\\" # 3"]  # a comment after a tag\n'
        '[Rules "hoyle"]\n[Set "gin_bonus=30"]\n[Set " undercut_bonus = 20 "]\n'
        '[Players "Ann Lee" "Bo"]\n[Hand "7"]\n[Dealer "Bo"]\n'
        '[Deal "Ann Lee" "3C 3C 10h"]\n[Deal "Bo" ""]\n[Upcard "9H"]\n[Stock "AS 2S"]\n'
    )
    record = read_text(text)
    assert record.tags == (("Event", 'Club "night" # 3'),)
    assert record.rules == "hoyle"
    assert record.overrides == (("gin_bonus", "30"), ("undercut_bonus", "20"))
    assert record.players == ("Ann Lee", "Bo")
    hand = record.hands[0]
    assert (hand.number, hand.dealer, hand.upcard) == (7, "Bo", c("9H"))
    assert hand.deal == (("Ann Lee", (c("3C"), c("3C"), c("TH"))), ("Bo", ()))
    assert hand.stock == (c("AS"), c("2S"))
    assert hand.place == Place(6, 1)
    assert record.place == Place(1, 1)


def test_grammar_expressions_stand_alone() -> None:
    tag = tag_line_expr.parse_string('[Deal "Ann" "3C 4C"]')
    assert tag["tag"].text == "Deal" and [v.text for v in tag["values"]] == ["Ann", "3C 4C"]
    assert event_line_expr.parse_string("Bo defend 7H>1")["layoffs"].as_list() == [[c("7H"), 1]]
    assert claim_line_expr.parse_string("score Ann 3")["totals"][0][1] == 3
    assert record_line_expr.parse_string("next_dealer Ann")["name"].text == "Ann"


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (HEAD + "Ann draw TX discard KS\n", 4, 10, "unknown card 'TX'"),
        (HEAD + "Ann drew TD discard KS\n", 4, 5, "expected 'pass', 'draw', 'take', 'discard', 'knock'"),
        (HEAD + "Ann draw 8S discard\n", 4, 20, "expected a card"),
        (HEAD + "Ann draw 1S discard KS\n", 4, 10, "unknown card '1S': write the ace as 'A' ('AS')"),
        (HEAD + "Ann draw JK discard KS\n", 4, 10, "joker 'JK': jokers are not used in gin rummy"),
        (HEAD + "Ann gin [3C 3C 4C]\n", 4, 13, "duplicate card '3C'"),
        (HEAD + "Ann gin [3C 4C\n", 4, 9, "unclosed '['"),
        (HEAD + "Bo defend [JC JD JH] 6C>1 6X>2\n", 4, 27, "unknown card '6X'"),
        (HEAD + "Bo defend 6C\n", 4, 13, "expected '>'"),
        (HEAD + "Bo defend 6C>0\n", 4, 14, "expected meld number (the knocker's melds count from 1)"),
        (HEAD + "Ann draw 3C discard 4C extra\n", 4, 24, "expected end of line, found 'extra'"),
        (HEAD + '"Ann pass\n', 4, 1, "unterminated quoted text"),
        (HEAD + '"An\\q" pass\n', 4, 4, "bad escape '\\\\q' in quoted text"),
        # fuzz, seed 31: a name no UTF-8 file can hold (the pair \\ud83c\\udca1 is one character)
        (HEAD + 'score "\\ud800" 1\n', 4, 7, "a \\u escape of half a surrogate pair is not a character"),
        (HEAD + "result knocked Ann 21\n", 4, 8, "expected an outcome (knock, gin"),
        (HEAD + "score Ann 21 Bo\n", 4, 16, "expected number at the end of the line"),
        (HEAD + "score Ann 21 Ann 3\n", 4, 14, "Ann is named twice"),
        (HEAD + "Ann pass\nresult void\nresult void\n", 6, 1, "the hand has two 'result' lines"),
        (HEAD + "result void\nAnn pass\n", 5, 1, "an event after the hand's claims"),
        (HEAD + "Ann pass\n[Upcard \"2C\"]\n", 5, 1, "[Upcard] after the hand's events"),
        (HEAD + "Ann pass\n[Rules \"hoyle\"]\n", 5, 1, "[Rules] is a game tag, but the hands have begun"),
        ('[Rules "standard"]\n[Players "Ann"]\n[Dealer "Bo"]\n', 2, 9, "[Players] takes 2 values, got 1"),
        ('[Rules standard]\n', 1, 8, "expected quoted text or ']', found 'standard]'"),
        ('[Rules "a"]\n[Rules "b"]\n', 2, 1, "the record has two [Rules] tags"),
        ('[Rules "a"]\n[Set "gin_bonus"]\n', 2, 6, "bad rule override 'gin_bonus'; expected knob=value"),
        (HEAD.replace('[Dealer "Bo"]', '[Hand "one"]'), 3, 7, "[Hand] needs a hand number, got 'one'"),
        (HEAD + '[Deal "Ann" "3C 9X"]\n', 4, 17, "unknown card '9X'"),
        (HEAD + '[Upcard "9H 2C"]\n', 4, 9, "[Upcard] takes one card, got 2"),
        (HEAD + '[Deal "Ann" "3C"]\n[Deal "Ann" "4C"]\n', 5, 1, "the hand deals to Ann twice"),
        (HEAD + "Ann pass\n\nfinal Ann 3\nBo pass\n", 7, 1, "nothing but a new record may follow"),
        ('[Players "Ann" "Bo"]\n[Dealer "Bo"]\n', 1, 1, "the record has no [Rules] tag"),
        ('[Rules "standard"]\n[Dealer "Bo"]\n', 1, 1, "the record has no [Players] tag"),
        ('[Rules "standard"]\n[Players "Ann" "Bo"]\n', 1, 1, "the record has no hands"),
        ('[Rules "standard"]\n[Players "Ann" "Bo"]\n[Hand "1"]\nAnn pass\n', 3, 1, "hand 1 has no [Dealer]"),
        ('[Rules "standard"]\n[Players "Ann" "Bo"]\nAnn pass\n', 3, 1, "an event before the hand's tags"),
        ("# nothing\n\n", 2, 0, "no record"),
    ],
)
def test_errors_have_line_and_column(text: str, line: int, column: int, message: str) -> None:
    exc = error(text)
    assert (exc.source, exc.line, exc.column) == ("t.gin", line, column)
    assert exc.message.startswith(message), exc.message
    assert str(exc).startswith(f"t.gin:{line}:{column}: " if column else f"t.gin:{line}: ")


def test_first_line_offsets_line_numbers() -> None:
    with pytest.raises(RecordError) as info:
        read_text(HEAD + "Ann drew 8S\n", source="f", first_line=10)
    assert info.value.line == 13


def test_a_new_hand_starts_at_hand_or_dealer() -> None:
    text = (
        HEAD + "Ann pass\nresult void\n"
        '[Dealer "Bo"]\nBo pass\n'
        '[Hand "3"]\n[Dealer "Ann"]\n[Dealer "Bo"]\n'
    )
    record = read_text(text)
    assert [(h.number, h.dealer, len(h.events)) for h in record.hands] == [
        (None, "Bo", 1), (None, "Bo", 1), (3, "Ann", 0), (None, "Bo", 0),
    ]


TAG_LINES = [
    '[Rules "openspiel"]',
    '\x1f[Rules "openspiel"]',
    '\xa0[Rules "openspiel"]',
    '[Rules "open\xa0spiel"]',
    '  [Players "P0" "P1"]  ',
    '[Deal\t"P0"\t"5C 3S 2C 6D AC 9H TH KH JH 7S"]',
    '[Hand "1"]',
    '[Empty]',
    '[Odd "a" "b" "c"]',
    '[Odd "a" "b" "c" "d" ""]',
    '[Spaced "a"   ]',
    '[Quoted "a \\" b"]',
    '[Bad "a""b"]',
    '[1st "a"]',
    '[Rules "open',
]


def grammar_tag(text: str) -> tuple[object, list[object]] | None:
    try:
        res = parse_line("tag", text, "x", 1)
    except RecordError:
        return None
    return res["tag"], list(res["values"])


_TAG_PIECES = ['[', ']', '"', ' ', '\t', '\\', 'a', 'Z', '0', '_', '\x00', '\x1f', '#', 'é', 'Rules', '"P0"']
_GAP = st.sampled_from(["", " ", "\t", "  ", " \t"])
_VALUE_PIECES = ["a", "5C", " ", "é", "P0", "=", "a", "5C 3S", "\\", '"', "\x1f"]
_VALUE = st.lists(st.sampled_from(_VALUE_PIECES), max_size=4).map(lambda v: '"' + "".join(v) + '"')
TAG_TEXT = st.one_of(
    st.lists(st.sampled_from(_TAG_PIECES), max_size=14).map("".join),
    st.tuples(
        _GAP, st.sampled_from(["Rules", "Deal", "z0_", "R", "", "0a", "é"]),
        st.lists(st.tuples(_GAP, _VALUE).map("".join), max_size=4).map("".join), _GAP, _GAP,
    ).map(lambda p: f"{p[0]}[{p[1]}{p[2]}{p[3]}]{p[4]}"),
)
"""Text near a tag line: any pieces of one, and tags of 0 to 4 values spaced and quoted every way"""


def plain_tag(text: str) -> tuple[object, list[object]] | None:
    plain = _TextReader.plain_tag(text)
    return None if plain is None else (plain.name, list(plain.values))


@pytest.mark.parametrize("line", TAG_LINES)
def test_the_one_match_tag_reads_as_the_grammar(line: str) -> None:
    plain = plain_tag(line)
    assert plain is None or plain == grammar_tag(line)


def test_the_one_match_tag_reads_the_tags_as_written() -> None:
    assert plain_tag('[Rules "openspiel"]') == (RecordToken(1, "Rules"), [RecordToken(7, "openspiel")])
    assert plain_tag('[Players "P0" "P1"]') == (
        RecordToken(1, "Players"), [RecordToken(9, "P0"), RecordToken(14, "P1")])
    assert plain_tag('[Odd "a" "b" "c"]') is None  # the grammar says how many values it takes


@settings(max_examples=600, deadline=None)
@given(TAG_TEXT)
def test_the_one_match_tag_reads_as_the_grammar_on_any_text(line: str) -> None:
    plain = plain_tag(line)
    assert plain is None or plain == grammar_tag(line)


ODD_SPACE_BASE = (
    '[Rules "standard"]\n[Players "Ann" "Bo"]\n[Dealer "Bo"]\n[Deal "Ann" "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"]\n'
    '[Deal "Bo" "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"]\n[Upcard "JC"]\n'
)
ODD_SPACE_LINES = [
    # a line of the seventh, where the message points
    ("Ann\xa0take JC discard TC", "7:4: expected 'pass', 'draw'"),
    ("\x1fAnn take JC discard TC", "7:1: expected player name"),
    ("Ann take JC discard TC\x0b", "7:23: expected end of line"),
    ("result knock\u3000Ann 3", "7:13: expected end of line"),
    ('"Ann"\xa0take JC discard TC', "7:6: expected 'pass', 'draw'"),
    ('"A\\"n\xa0n" take JC\u2003discard TC', "7:17: expected end of line"),
    ('[Dealer\xa0"Bo"]', "7:8: expected quoted text or ']'"),
    ('[Upcard "JC"]\x85', "7:14: expected end of line"),
    ('\x1f[Event "x"]', "7:1: expected '['"),
]


@pytest.mark.parametrize(("line", "message"), ODD_SPACE_LINES)
def test_only_spaces_and_tabs_separate_words(line: str, message: str) -> None:
    """A bare name or a quoted one, the line reads the same: words are parted by spaces and tabs only
    (a reader that split on any white space once let quoting a name change a verdict)."""
    with pytest.raises(RecordError) as error:
        read_text(ODD_SPACE_BASE + line + "\n")
    assert message in str(error.value)


def test_tabs_and_white_space_in_quotes_and_comments_are_read() -> None:
    record = read_text('[Note "a\xa0b"]\n' + ODD_SPACE_BASE + "Ann\ttake JC discard TC # \xa0\n\xa0\n")
    assert dict(record.tags)["Note"] == "a\xa0b" and len(record.hands[0].events) == 1


TURN = "Ann take JC discard TC"
REPEATED_LINE_TEXTS = [
    # a plain turn line or a short tag line read once is remembered by its text; wherever it comes
    # again, it must read as if read for the first time: its own line and column, and the errors
    # of where it stands
    ODD_SPACE_BASE + f"{TURN}\n  {TURN}\n\t{TURN}\n{TURN} # again\n{TURN}\n",
    ODD_SPACE_BASE + f"{TURN}\nresult void\n{TURN}\n",
    f"{TURN}\n" + ODD_SPACE_BASE,
    ODD_SPACE_BASE + f"{TURN}\nresult void\nfinal Ann 0 Bo 0\n{TURN}\n",
    ODD_SPACE_BASE + f"{TURN}\n[Dealer \"Ann\"]\n{TURN}\n",
    ODD_SPACE_BASE + "Ann\ttake JC\tdiscard TC\nAnn\ttake JC\tdiscard TC\n",
    ODD_SPACE_BASE.replace('"Ann"', '"Al"', 1) + f"{TURN}\n",
    ODD_SPACE_BASE + f'{TURN}\n  [Dealer "Bo"]\n[Dealer "Bo"] # again\n[Upcard "JC"]\n{TURN}\n',
    '  [Rules "standard"]\n[Rules "standard"]\n',
    '[Players "Ann"]\n',
    '[Players "Ann" "Bo" "Cy"]\n',
    '[Players "Ann" "Bo"] #\n[Hand "1"]\n[Players "Ann" "Bo"] #\n',
    ODD_SPACE_BASE.replace("[Dealer", '[Hand "7"]\n[Dealer', 1) + '[Hand "7"]\n[Hand "x"]\n',
    ODD_SPACE_BASE + f'{TURN}\nresult void\nfinal Ann 0 Bo 0\n[Upcard "JC"]\n',
]


def read_afresh(text: str, read: Callable[[str], GameRecord] = read_text) -> object:
    """What reading ``text`` gives, with every event's place (equality leaves places out)."""
    try:
        record = read(text)
    except RecordError as exc:
        return str(exc)
    return [(repr(event), event.place) for hand in record.hands for event in hand.events]


def unremembered(texts: list[str]) -> list[object]:
    """What reading each text gives by the grammar alone, nothing remembered: the reference."""
    _PLAIN_LINES.clear()
    return [read_afresh(text, read_text_by_grammar) for text in texts]


def test_a_remembered_turn_or_tag_line_reads_as_a_new_one() -> None:
    expected = unremembered(REPEATED_LINE_TEXTS)
    assert [read_afresh(text) for text in REPEATED_LINE_TEXTS] == expected
    assert TURN in _PLAIN_LINES and '[Players "Ann" "Bo"]' in _PLAIN_LINES
    assert [read_afresh(text) for text in reversed(REPEATED_LINE_TEXTS)] == expected[::-1]


def test_remembered_turn_lines_read_as_new_ones_in_random_games() -> None:
    from tests.support.randomplay import random_hand

    texts = [format_text(random_hand(seed, rules)) for seed in range(40) for rules in ("standard", "hoyle")]
    texts += [path.read_text() for path in sorted(SAMPLES.rglob("*.gin"))]
    expected = unremembered(texts)
    assert [read_afresh(text) for text in texts] == expected
    assert len(_PLAIN_LINES) > 1000
    assert [read_afresh(text) for text in texts] == expected


def test_the_remembered_turn_lines_are_bounded() -> None:
    _PLAIN_LINES.clear()
    names = [f"P{k}" for k in range(_PLAIN_LINES_MAX // 2000 + 2)]
    base = ODD_SPACE_BASE.replace('"Ann" "Bo"', '"X" "Y"')
    most = 0
    for name in names:  # any turns at all: the reader reads them, the referee judges them
        lines = [f"{name} take {a} discard {b}" for a in CARD_NAMES for b in CARD_NAMES[:40]]
        assert len(read_afresh(base + "\n".join(lines) + "\n")) == len(lines)  # type: ignore[arg-type]
        most = max(most, len(_PLAIN_LINES))
        assert len(_PLAIN_LINES) <= _PLAIN_LINES_MAX
    assert most > _PLAIN_LINES_MAX - 2080


# -- round trips ---------------------------------------------------------------------------------


def test_text_round_trip_of_the_worked_hand() -> None:
    record = read_text(KNOCK)
    text = format_text(record)
    assert read_text(text) == record
    assert format_text(read_text(text)) == text
    assert text.splitlines()[:3] == ['[Event "the worked knock"]', '[Rules "standard"]',
                                     '[Players "Ann" "Bo"]']


def test_json_round_trip_and_equality_with_text() -> None:
    record = read_text(KNOCK)
    data = to_json_dict(record)
    assert data["hands"][0]["events"][3] == {  # type: ignore[index]
        "type": "defence", "player": "Bo", "melds": [["JC", "JD", "JH"]],
        "layoffs": [{"card": "6C", "onto": 0}, {"card": "9C", "onto": 1}, {"card": "5S", "onto": 2}],
        "deadwood": 23,
    }
    back = from_json_dict(json.loads(json.dumps(data)))
    assert back == record
    assert to_json_dict(back) == data
    assert from_json_dict(json.loads(format_json(record))) == record
    assert from_json_dict(json.loads(format_jsonl(record))) == record
    assert "\n" not in format_jsonl(record)


def test_equality_ignores_places_and_source() -> None:
    a = read_text(KNOCK, source="a.gin")
    b = from_json_dict(to_json_dict(a), source="b.jsonl", index=4, line=9)
    assert a == b and hash(a) == hash(b)
    assert (a.place, b.place) == (Place(7, 1), Place(9, 0))
    assert b.hands[0].events[2].place.pointer == "/hands/0/events/2"
    assert b.hands[0].events[2].knock.place.pointer == "/hands/0/events/2/knock"  # type: ignore[union-attr]
    assert b.hands[0].result.place.pointer == "/hands/0/result"  # type: ignore[union-attr]


def test_json_accepts_other_card_spellings_and_writes_canonical_ones() -> None:
    data = to_json_dict(read_text(KNOCK))
    hand = data["hands"][0]  # type: ignore[index]
    hand["upcard"] = "9h"
    hand["events"][1]["card"] = "10D"
    hand["events"][1]["discard"] = "ks"
    record = from_json_dict(data)
    assert record == read_text(KNOCK)
    assert to_json_dict(record)["hands"][0]["events"][1]["card"] == "TD"  # type: ignore[index]


def test_json_overrides_accept_numbers_and_booleans() -> None:
    data = to_json_dict(read_text(KNOCK))
    data["overrides"] = {"gin_bonus": 25, "layoff_on_gin": True, "tie_policy": " no_score "}
    record = from_json_dict(data)
    assert record.overrides == (("gin_bonus", "25"), ("layoff_on_gin", "true"), ("tie_policy", "no_score"))
    assert read_text(format_text(record)) == record


@pytest.mark.parametrize(
    ("change", "pointer", "message"),
    [
        (lambda d: d.pop("rules"), "", "missing key 'rules'"),
        (lambda d: d.update(rule="x"), "/rule", "unknown key 'rule'"),
        (lambda d: d.update(players=["Ann"]), "/players", "expected a list of the two players' names"),
        (lambda d: d.update(hands=[]), "/hands", "expected a list of one or more hands"),
        (lambda d: d["hands"][0].pop("dealer"), "/hands/0", "missing key 'dealer'"),
        (lambda d: d["hands"][0].update(upcard="XX"), "/hands/0/upcard", "unknown card 'XX'"),
        (lambda d: d["hands"][0]["deal"]["Ann"].__setitem__(2, 7), "/hands/0/deal/Ann/2",
         'expected a card such as "TC", got a number'),
        (lambda d: d["hands"][0]["events"][1].update(discard="ZZ"), "/hands/0/events/1/discard",
         "unknown card 'ZZ'"),
        (lambda d: d["hands"][0]["events"][1].update(card=["TD"]), "/hands/0/events/1/card",
         'expected a card such as "TC", got a list'),
        (lambda d: d["hands"][0]["events"][1].update(dicard="KS"), "/hands/0/events/1/dicard",
         "unknown key 'dicard'"),
        (lambda d: d["hands"][0]["events"][1].update(source="pile"), "/hands/0/events/1/source",
         "expected 'stock', 'discard' or 'none', got 'pile'"),
        (lambda d: d["hands"][0]["events"][1].pop("source"), "/hands/0/events/1", "missing key 'source'"),
        # a misspelt key in place of a known one is named, never read as that key left out
        (lambda d: d["hands"][0]["events"][1].update(crad=d["hands"][0]["events"][1].pop("card")),
         "/hands/0/events/1/crad", "unknown key 'crad'"),
        (lambda d: d["hands"][0]["events"][1].update(sorce=d["hands"][0]["events"][1].pop("source")),
         "/hands/0/events/1/sorce", "unknown key 'sorce'"),
        (lambda d: d["hands"][0]["deal"].update(Ann={}), "/hands/0/deal/Ann",
         "expected a list of cards, got an object"),
        (lambda d: d["hands"][0]["deal"].update(Ann=""), "/hands/0/deal/Ann",
         "expected a list of cards, got text"),
        (lambda d: d["hands"][0]["events"][3].update(layoffs=tuple(d["hands"][0]["events"][3]["layoffs"])),
         "/hands/0/events/3/layoffs", "expected a list of layoffs, got tuple"),
        (lambda d: d["hands"][0]["events"][1].update(type="move"), "/hands/0/events/1/type",
         "expected 'turn', 'pass' or 'defence', got 'move'"),
        (lambda d: d["hands"][0]["events"][1].update(player=3), "/hands/0/events/1/player",
         "expected the player's name, got a number"),
        (lambda d: d["hands"][0]["events"][2]["knock"].update(ending="rummy"),
         "/hands/0/events/2/knock/ending", "expected 'knock', 'gin' or 'big_gin', got 'rummy'"),
        (lambda d: d["hands"][0]["events"][2]["knock"]["melds"][1].append("9D"),
         "/hands/0/events/2/knock/melds/1/3", "duplicate card '9D' in a meld"),
        (lambda d: d["hands"][0]["events"][2]["knock"].update(deadwood=-1),
         "/hands/0/events/2/knock/deadwood", "expected a whole number >= 0, got a number"),
        (lambda d: d["hands"][0]["events"][3]["layoffs"][1].update(onto=True),
         "/hands/0/events/3/layoffs/1/onto", "expected a whole number >= 0, got true"),
        (lambda d: d["hands"][0]["events"][3]["layoffs"][1].pop("onto"),
         "/hands/0/events/3/layoffs/1", "missing key 'onto'"),
        (lambda d: d["hands"][0]["result"].update(outcome="victory"), "/hands/0/result/outcome",
         "expected one of big_gin, draw, gin, illegal_knock, knock, tie, undercut, unfinished, void, win, "
         "got 'victory'"),
        (lambda d: d["hands"][0]["score_after"].update(Bo="0"), "/hands/0/score_after/Bo",
         "expected a whole number, got text"),
        (lambda d: d.update(tags={"Rules": "x"}), "/tags/Rules", "'Rules' is not a free tag"),
        (lambda d: d.update(tags={"a b": "x"}), "/tags/a b", "bad tag name 'a b'"),
        (lambda d: d.update(overrides={"gin bonus": 1}), "/overrides/gin bonus", "bad rule knob name"),
        (lambda d: d["hands"][0]["events"].append({"type": "turn", "player": "Bo", "source": "none"}),
         "/hands/0/events/4", "a turn needs a draw, a discard or a knock"),
        (lambda d: d["hands"][0]["events"].append({"type": "turn", "player": "Bo", "source": "none",
                                                   "card": "2C", "discard": "3C"}),
         "/hands/0/events/4/card", "a turn with no draw (source 'none') draws no card"),
    ],
)
def test_json_errors_name_the_pointer(change: object, pointer: str, message: str) -> None:
    data = json.loads(json.dumps(to_json_dict(read_text(KNOCK))))
    change(data)  # type: ignore[operator]
    with pytest.raises(JsonRecordError) as info:
        from_json_dict(data, source="r.jsonl", line=3)
    exc = info.value
    assert exc.pointer == pointer
    assert exc.message.startswith(f"{pointer}: {message}" if pointer else message)
    assert (exc.source, exc.line) == ("r.jsonl", 3)
    if json.loads(json.dumps(data)) == data:  # the same text says the same, by either path
        line = decode_json_text(json.dumps(data), source="r.jsonl", line=3)
        assert isinstance(line, JsonRecordError) and (line.message, line.pointer) == (exc.message, pointer)


def test_json_reader_locates_the_bad_element() -> None:
    record = read_text(KNOCK)
    good = format_jsonl(record)
    bad = good.replace('"discard":"KS"', '"discard":"KX"')
    stream = io.BytesIO((good + "\n" + bad + "\n").encode())
    items = list(read_records(stream, source="s.jsonl"))
    assert items[0] == record
    exc = items[1]
    assert isinstance(exc, JsonRecordError)
    assert (exc.line, exc.column) == (2, bad.index('"KX"') + 1)
    assert exc.pointer == "/hands/0/events/1/discard"
    pretty = format_json(record).replace('"discard": "KS"', '"discard": "KX"')
    (exc,) = read_records(io.BytesIO(pretty.encode()), source="p.json")
    assert isinstance(exc, JsonRecordError)
    lines = pretty.splitlines()
    row = next(i for i, text in enumerate(lines) if '"KX"' in text)
    assert (exc.line, exc.column) == (row + 1, lines[row].index('"KX"') + 1)


def test_formatters_reject_what_no_record_can_say() -> None:
    record = read_text(KNOCK)
    hand = record.hands[0]
    bad = HandRecord(hand.dealer, hand.deal, 99)
    with pytest.raises(ValueError, match="not a card"):
        format_text(GameRecord(record.players, (bad,)))
    with pytest.raises(ValueError, match="not a card"):
        to_json_dict(GameRecord(record.players, (bad,)))
    twice = GameRecord(record.players, (hand,), tags=(("Event", "a"), ("Event", "b")))
    with pytest.raises(ValueError, match="twice"):
        to_json_dict(twice)
    empty = HandRecord("Bo", (), None, (Turn("Ann", "none", None),))
    with pytest.raises(ValueError, match="no draw, discard or knock"):
        format_text(GameRecord(record.players, (empty,)))


# -- the lenient reader ------------------------------------------------------------------------

GOOD = KNOCK
SECOND = (SAMPLES / "gin.gin").read_text(encoding="utf-8")


def test_records_in_one_file_are_split_at_game_tags() -> None:
    text = GOOD + SECOND + "\n" + GOOD
    items = list(read_records(io.BytesIO(text.encode()), source="three.gin"))
    assert [type(i) for i in items] == [GameRecord] * 3
    assert [i.index for i in items] == [0, 1, 2]  # type: ignore[union-attr]
    assert items[1] == read_text(SECOND)
    assert items[1].place.line == len(GOOD.splitlines()) + 5  # type: ignore[union-attr]


def test_a_bad_record_in_the_middle_does_not_stop_the_others() -> None:
    bad = SECOND.replace("Ann draw 3C discard TH", "Ann draw 3C dscard TH")
    text = GOOD + bad + GOOD
    items = list(read_records(io.BytesIO(text.encode()), source="mixed.gin"))
    assert [type(i) for i in items] == [GameRecord, RecordError, GameRecord]
    exc = items[1]
    assert isinstance(exc, RecordError)
    line = len(GOOD.splitlines()) + bad.splitlines().index("Ann draw 3C dscard TH") + 1
    assert (exc.source, exc.line, exc.column) == ("mixed.gin", line, 13)
    assert items[2] == items[0]


def test_truncated_text_file() -> None:
    text = GOOD + GOOD
    cut = text[: text.rindex("[3C 4C 5C]") + 4]
    items = list(read_records(io.BytesIO(cut.encode()), source="cut.gin"))
    assert isinstance(items[0], GameRecord)
    assert isinstance(items[1], RecordError) and items[1].message == "unclosed '['"
    assert items[1].line == len(cut.splitlines())


def test_truncated_json_lines_file() -> None:
    line = format_jsonl(read_text(GOOD))
    cut = line.index('"dealer"') + 4  # inside a string
    data = (line + "\n" + line[:cut]).encode()
    items = list(read_records(io.BytesIO(data), source="cut.jsonl"))
    assert isinstance(items[0], GameRecord)
    exc = items[1]
    assert isinstance(exc, RecordError) and exc.message.startswith("bad JSON: unterminated string")
    assert (exc.line, exc.column) == (2, line.rindex('"', 0, cut) + 1)


def test_invalid_utf8_is_one_bad_record() -> None:
    raw = (GOOD + SECOND + GOOD).encode()
    at = raw.index(b"Ann draw 3C discard TH")
    raw = raw[: at + 9] + b"\xff" + raw[at + 10 :]
    items = list(read_records(io.BytesIO(raw), source="bytes.gin"))
    assert [type(i) for i in items] == [GameRecord, RecordError, GameRecord]
    assert items[1].message.startswith("invalid UTF-8 (byte 0xff)")  # type: ignore[union-attr]
    assert items[1].column == 10  # type: ignore[union-attr]
    jsonl = (format_jsonl(read_text(GOOD)) + "\n").encode()
    items = list(read_records(io.BytesIO(jsonl + b'{"rules": "\xc3"}\n' + jsonl), source="b.jsonl"))
    assert [type(i) for i in items] == [GameRecord, RecordError, GameRecord]
    assert (items[1].line, items[1].column) == (2, 12)  # type: ignore[union-attr]


def test_binary_junk_between_records() -> None:
    junk = bytes(range(256)) * 3 + b"\n\x00\x01\x02 junk \x89PNG\r\n"
    raw = GOOD.encode() + junk + SECOND.encode()
    items = list(read_records(io.BytesIO(raw), source="junk.gin"))
    assert isinstance(items[0], RecordError)  # the junk ran into the first record's lines
    assert items[0].line == len(GOOD.splitlines()) + 1
    assert items[-1] == read_text(SECOND)
    only_junk = list(read_records(io.BytesIO(junk), source="junk.gin"))
    assert len(only_junk) == 1 and isinstance(only_junk[0], RecordError)


def test_each_record_yields_exactly_one_item() -> None:
    lines = format_jsonl(read_text(GOOD))
    payload = "\n".join([lines, "", "{", "[1, 2]", '{"rules": 1}', lines, "   "]) + "\n"
    items = list(read_records(io.StringIO(payload), source="x.jsonl"))
    assert [type(i).__name__ for i in items] == [
        "GameRecord", "RecordError", "RecordError", "JsonRecordError", "GameRecord",
    ]  # "[1, 2]" is an OpenSpiel history (one that stops in the deal), not a JSON record
    assert [getattr(i, "index", None) for i in items[::4]] == [0, 4]


def test_a_long_line_is_skipped_without_holding_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginref.records.units as units

    monkeypatch.setattr(units, "MAX_LINE", 64)
    line = format_jsonl(read_text(GOOD))
    items = list(read_records(io.BytesIO((line + "\n" + "x" * 500 + "\n").encode()), source="l.jsonl"))
    assert [type(i).__name__ for i in items] == ["RecordError", "RecordError"]
    assert "longer than 64" in items[1].message  # type: ignore[union-attr]
    text = HEAD + "Ann pass\n# " + "x" * 100 + "\nBo pass\n"  # even a comment may not hide it
    (item,) = read_records(io.BytesIO(text.encode()), source="l.gin")
    assert isinstance(item, RecordError) and "longer than 64" in item.message
    assert item.line == 5


class CountingStream(io.RawIOBase):
    """An endless stream of JSON Lines that counts what has been read from it."""

    def __init__(self, line: bytes) -> None:
        self.line = line
        self.lines_read = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> bytes:
        self.lines_read += 1
        return self.line


def test_reading_streams_records_one_at_a_time() -> None:
    stream = CountingStream((format_jsonl(read_text(GOOD)) + "\n").encode())
    reader = read_records(stream, source="endless.jsonl")  # type: ignore[arg-type]
    assert isinstance(reader, Iterator)
    assert stream.lines_read == 0
    first = list(itertools.islice(reader, 3))
    assert all(isinstance(r, GameRecord) for r in first)
    assert stream.lines_read == 3


def test_text_records_stream_too() -> None:
    record_lines = GOOD.encode().splitlines(keepends=True)

    class Endless(io.RawIOBase):
        def __init__(self) -> None:
            self.lines = itertools.cycle(record_lines)
            self.lines_read = 0

        def readable(self) -> bool:
            return True

        def readline(self, size: int | None = -1) -> bytes:
            self.lines_read += 1
            return next(self.lines)

    stream = Endless()
    items = list(itertools.islice(read_records(stream, source="endless.gin"), 2))  # type: ignore[arg-type]
    assert items[0] == items[1] == read_text(GOOD)
    assert stream.lines_read < 3 * len(record_lines)


def test_memory_stays_flat_over_junk_and_many_records() -> None:
    import tracemalloc

    good = GOOD.encode().splitlines(keepends=True)
    jsonl = (format_jsonl(read_text(GOOD)) + "\n").encode()

    class Lines(io.RawIOBase):
        def __init__(self, lines: Iterator[bytes]) -> None:
            self.lines = lines

        def readable(self) -> bool:
            return True

        def readline(self, size: int | None = -1) -> bytes:
            return next(self.lines, b"")

    junk = itertools.chain(good, itertools.repeat(b"\x00junk " * 20 + b"\n", 50_000), good)
    tracemalloc.start()
    try:
        items = [type(i).__name__ for i in read_records(Lines(junk), source="junk.gin")]  # type: ignore[arg-type]
        assert items == ["RecordError", "GameRecord"]
        _, peak = tracemalloc.get_traced_memory()
        assert peak < 2_000_000, peak
        tracemalloc.reset_peak()
        count = sum(1 for _ in read_records(Lines(itertools.repeat(jsonl, 5_000)), source="x.jsonl"))  # type: ignore[arg-type]
        assert count == 5_000
        _, peak = tracemalloc.get_traced_memory()
        assert peak < 2_000_000, peak
    finally:
        tracemalloc.stop()


def test_sniffing_standard_input_and_paths(tmp_path: Path) -> None:
    record = read_text(GOOD)
    assert list(read_records(io.BytesIO(GOOD.encode()))) == [record]
    assert list(read_records(io.BytesIO((format_jsonl(record) + "\n").encode()))) == [record]
    assert list(read_records(io.BytesIO(format_json(record).encode()))) == [record]
    listed = "[\n" + format_json(record) + "," + format_json(record) + "]"
    assert list(read_records(io.BytesIO(listed.encode()))) == [record, record]
    path = tmp_path / "hand.txt.json"
    path.write_text(format_json(record), encoding="utf-8")
    (item,) = read_records(path)
    assert item == record and item.source == str(path)  # type: ignore[union-attr]
    assert list(read_records(io.StringIO(GOOD), source="given")) == [record]
    assert list(read_records(io.BytesIO(b"\xef\xbb\xbf" + GOOD.encode()), source="bom.gin")) == [record]
    assert list(read_records(io.BytesIO(GOOD.replace("\n", "\r\n").encode()), source="crlf.gin")) == [record]


def test_read_record_reads_either_form() -> None:
    record = read_text(GOOD)
    assert read_record(GOOD) == record
    assert read_record(format_json(record)) == record
    with pytest.raises(RecordError, match="bad JSON"):
        read_record("{")


def test_raw_records_cut_text_where_records_start() -> None:
    text = GOOD + SECOND
    units = list(raw_records(io.BytesIO(text.encode()), "two.gin", "gin"))
    assert [unit.line for unit in units] == [7, len(GOOD.splitlines()) + 5]
    assert units[1].problem is None
    assert read_record(units[1].text, first_line=units[1].line) == read_text(SECOND)


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(["standard", "hoyle", "openspiel", "oklahoma", "cardhearth"]))
def test_random_games_round_trip(seed: int, rules: str) -> None:
    from tests.support.randomplay import random_game, random_hand

    for record in (random_hand(seed, rules), random_game(seed % 50, rules)):
        text = format_text(record)
        assert read_text(text) == record
        assert format_text(read_text(text)) == text
        data = json.loads(format_jsonl(record))
        assert from_json_dict(data) == record
        assert to_json_dict(from_json_dict(data)) == data


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=8)
cards = st.integers(0, 51)
melds = st.sets(cards, max_size=5).map(mask_of)
places = st.just(Place())
turns = st.builds(
    Turn,
    player=names,
    source=st.sampled_from(["stock", "discard"]),
    card=st.none() | cards,
    discard=st.none() | cards,
    knock=st.none() | st.builds(
        Knock,
        ending=st.sampled_from(["knock", "gin", "big_gin"]),
        discard=st.none() | cards,
        melds=st.tuples(melds, melds) | st.tuples(),
        deadwood=st.none() | st.integers(0, 200),
    ),
)
opening = st.builds(Turn, player=names, source=st.just("none"), card=st.none(), discard=cards)
events = st.lists(
    turns | opening | st.builds(Pass, player=names) | st.builds(
        Defence, player=names, melds=st.lists(melds, max_size=3).map(tuple),
        layoffs=st.lists(st.tuples(cards, st.integers(0, 5)), max_size=3).map(tuple),
        deadwood=st.none() | st.integers(0, 200),
    ),
    max_size=6,
).map(tuple)


def totals(players: tuple[str, str]) -> st.SearchStrategy[tuple[tuple[str, int], ...] | None]:
    return st.none() | st.just(()) | st.tuples(
        st.tuples(st.just(players[0]), st.integers(-500, 500)),
        st.tuples(st.just(players[1]), st.integers(-500, 500)),
    )


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    players = draw(st.tuples(names, names))
    hands = []
    for _ in range(draw(st.integers(1, 3))):
        deal_names = draw(st.lists(names, max_size=2, unique=True))
        hands.append(HandRecord(
            dealer=draw(names),
            deal=tuple((name, tuple(draw(st.lists(cards, max_size=11)))) for name in deal_names),
            upcard=draw(st.none() | cards),
            events=draw(events),
            stock=draw(st.none() | st.lists(cards, max_size=31).map(tuple)),
            result=draw(st.none() | st.builds(
                ClaimedResult,
                outcome=st.sampled_from(
                    ["knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock"]
                ),
                winner=st.none() | names, points=st.integers(-50, 200))),
            score_after=draw(totals(players) if players[0] != players[1] else st.none()),
            next_dealer=draw(st.none() | names),
            number=draw(st.none() | st.integers(0, 99)),
        ))
    tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(
        lambda t: t.lower() not in {"rules", "set", "players", "hand", "dealer", "deal", "upcard", "stock"}
    )
    tags = draw(st.dictionaries(tag_names, names, max_size=3))
    knob = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
    value = st.text(string.ascii_letters + string.digits + "_=- ", max_size=6).map(str.strip)
    overrides = draw(st.dictionaries(knob, value, max_size=2))
    return GameRecord(
        players=players,
        hands=tuple(hands),
        rules=draw(names.filter(lambda n: n.strip() == n and n != "")),
        overrides=tuple(overrides.items()),
        tags=tuple(tags.items()),
        final_totals=draw(totals(players) if players[0] != players[1] else st.none()),
    )


@settings(max_examples=200, deadline=None)
@given(records())
def test_any_record_round_trips_through_both_forms(record: GameRecord) -> None:
    text = format_text(record)
    assert read_text(text) == record, text
    data = to_json_dict(record)
    assert from_json_dict(json.loads(json.dumps(data))) == record
    assert from_json_dict(json.loads(format_jsonl(record))) == record


def test_plain_records_are_read_without_loading_pyparsing() -> None:
    """Every sample, text and JSON, takes the fast paths: a batch of them never pays for the
    grammar; a line only the grammar reads (an escaped quote) loads it, and reads right."""
    import subprocess
    import sys

    escaped = KNOCK.replace('[Event "the worked knock"]', '[Event "the \\"worked\\" hand"]')
    code = (
        "import sys; from ginref.batch import verify; from ginref.records import read_text;"
        f" results = list(verify([{str(SAMPLES)!r}], jobs=1));"
        " print(len(results), 'pyparsing' in sys.modules);"
        f" record = read_text({escaped!r});"
        " print(dict(record.tags)['Event'], 'pyparsing' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    plain, grammar = out.stdout.splitlines()
    assert int(plain.split()[0]) > 60
    assert plain.split()[1] == "False"
    assert grammar == 'the "worked" hand True'
