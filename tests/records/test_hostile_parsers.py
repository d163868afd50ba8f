"""Hostile input to the card, rules and score-sheet readers: each returns or raises a GinrefError.

Every row here broke once: a traceback (ValueError past Python's 4,300-digit limit,
RecursionError, TypeError), a message that quoted a megabyte, or a reader that was
quadratic (a 16,000-character token took 9.6 s; the big inputs below never finished).
No row times anything: the big ones simply did not end before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.errors import DuplicateCardError, GinrefError, NotationError, RecordError, UnknownRulesError
from ginref.notation import EXCERPT_LIMIT, hand_mask, parse_card, parse_cards, parse_hand, parse_melds

CARD_READERS: list[Callable[[str], object]] = [parse_card, parse_cards, parse_hand, parse_melds, hand_mask]

# --- card notation -----------------------------------------------------------

HOSTILE_TEXT = [
    pytest.param("\ud800", id="lone-surrogate"),
    pytest.param("3C \udcff 4C", id="surrogate-escape-byte"),
    pytest.param("3C\x004C", id="nul"),
    pytest.param("\ufeff3C 4C", id="bom"),
    pytest.param("3C\r\n4C\r\n", id="crlf"),
    pytest.param("3C\u20284C", id="line-separator"),
    pytest.param("3\u0421 4C", id="cyrillic-es"),
    pytest.param("\uff13\uff23", id="fullwidth"),
    pytest.param("3\u017f", id="long-s-uppercases-to-S"),
    pytest.param("[" * 10_000, id="10000-open-brackets"),
    pytest.param("]" * 10_000, id="10000-close-brackets"),
    pytest.param("[" * 10_000 + "]" * 10_000, id="nested-brackets"),
    pytest.param("3C " * 350_000, id="1MB-of-one-card"),
    pytest.param("[3C]" * 250_000, id="1MB-of-melds"),
    pytest.param("x" * 1_000_000, id="1MB-word"),
    pytest.param("3C" * 100_000 + "X", id="200k-cards-run-together-then-junk"),
    pytest.param("A" + "3C" * 10_000 + "X", id="the-20000-character-token"),
    pytest.param("[" + "3C" * 100_000, id="unclosed-200k-meld"),
    pytest.param("9" * 5000, id="5000-digits"),
]


@pytest.mark.parametrize("text", HOSTILE_TEXT)
@pytest.mark.parametrize("read", CARD_READERS, ids=lambda f: f.__name__)
def test_card_readers_answer_or_raise_a_ginref_error(read: Callable[[str], object], text: str) -> None:
    try:
        read(text)
    except GinrefError as exc:
        message = str(exc)
        assert "\n" not in message
        assert len(message) < 3 * EXCERPT_LIMIT + 100


LONG_TOKENS = [
    ("x" * 16_000, "unknown card 'x", 16_000),
    ("3C" * 8_000 + "X", "unexpected '3C3C", 15_999),  # parse_card: one card, then the rest
    ("C3" * 25_000 + "?", "unexpected 'C3C3", 49_999),
]


@pytest.mark.parametrize(("text", "start", "length"), LONG_TOKENS)
def test_long_tokens_are_quoted_cut(text: str, start: str, length: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    message = str(info.value)
    assert message.startswith(start)
    assert f"(cut; {length} characters)" in message
    assert len(message) < EXCERPT_LIMIT + 100


def test_a_long_bad_token_keeps_its_column_and_whole_token() -> None:
    token = "4X" * 30_000
    with pytest.raises(NotationError) as info:
        parse_cards("3C " + token + " 5C")
    assert (info.value.column, info.value.token) == (4, token)


def test_a_long_list_reports_its_first_repeat() -> None:
    """More than 52 cards must repeat one: the first repeat is reported, as the grammar does."""
    from ginref.grammar import _parse_cards_grammar

    deck = " ".join(r + s for s in "CDHS" for r in "A23456789TJQK")
    text = deck + " 7H" + " 8H" * 1000 + " 4X"
    for read in (parse_cards, _parse_cards_grammar):
        with pytest.raises(DuplicateCardError) as info:
            read(text)
        assert str(info.value) == f"duplicate card '7H' at column {len(deck) + 2}"


@pytest.mark.parametrize("hand", [None, 3.5, b"3C 4C", object(), ["3C", None], [[1]], {3.0}])
def test_wrong_types_are_notation_errors(hand: object) -> None:
    with pytest.raises(NotationError):
        hand_mask(hand)  # type: ignore[arg-type]


@pytest.mark.parametrize("read", [parse_card, parse_cards, parse_hand, parse_melds], ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", [None, 3, b"3C", ["3C"]])
def test_readers_refuse_what_is_not_text(read: Callable[[object], object], value: object) -> None:
    with pytest.raises(NotationError, match="must be text"):
        read(value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_any_text_gives_cards_or_a_notation_error(text: str) -> None:
    for read in CARD_READERS:
        try:
            read(text)
        except GinrefError as exc:
            assert "\n" not in str(exc)


# --- rules: names, knobs, values, files --------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize(
    ("override", "knob"),
    [
        ("gin_bonus=" + BIG, "gin_bonus"),
        ("gin_bonus=-" + BIG, "gin_bonus"),
        ("big_gin_bonus=" + BIG, "big_gin_bonus"),
        ("game_target=1000000000000000", "game_target"),
        ("hollywood_columns=" + BIG, "hollywood_columns"),
        ("tie_policy=" + "x" * 100_000, "tie_policy"),
    ],
)
def test_overrides_with_numbers_of_any_length(override: str, knob: str) -> None:
    from ginref.rules import STANDARD, parse_override, with_overrides

    with pytest.raises(UnknownRulesError) as info:
        with_overrides(STANDARD, dict([parse_override(override)]))
    message = str(info.value)
    assert message.startswith("bad value ") and f" for {knob}; " in message
    assert ("(cut; " in message) == (len(override) > 100)
    assert len(message) < 300


@pytest.mark.parametrize(
    "value",
    [10**5000, -(10**5000), 10**15, float("inf"), [[[[1]]]], {"a": 1}],
    ids=["huge", "huge-negative", "10**15", "inf", "nested-list", "dict"],
)
def test_typed_knob_values_of_any_size(value: object) -> None:
    from ginref.rules import STANDARD, Rules, with_overrides

    with pytest.raises(UnknownRulesError, match=r"^bad value .* for gin_bonus; "):
        with_overrides(STANDARD, {"gin_bonus": value})
    with pytest.raises(UnknownRulesError, match=r"^bad value .* for gin_bonus; "):
        Rules(name="mine", gin_bonus=value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name", ["", " ", "\x00", "\ud800", "standard\x00", "x" * 1_000_000, None, 5, ["standard"]]
)
def test_find_rules_refuses_odd_names(name: object) -> None:
    from ginref.rules import find_rules

    with pytest.raises(UnknownRulesError) as info:
        find_rules(name)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    "overrides",
    [{None: 1}, {5: 1}, {"x" * 1_000_000: 1}, {"": 1}, {"\ud800": 1}, [("gin_bonus", 1)], "gin_bonus=1",
     None],
)
def test_odd_knob_lookups(overrides: object) -> None:
    from ginref.rules import STANDARD, with_overrides

    with pytest.raises(UnknownRulesError) as info:
        with_overrides(STANDARD, overrides)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("text", [None, 5, b"gin_bonus=1", "=" + BIG, "x" * 1_000_000])
def test_parse_override_refuses_odd_text(text: object) -> None:
    from ginref.rules import parse_override

    with pytest.raises(UnknownRulesError) as info:
        parse_override(text)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300


RULES_FILES = [
    pytest.param("gin_bonus = " + BIG + "\n", ":1: a number too long", id="5000-digit-int"),
    pytest.param("# house\n\n[rules]\nknock_limit = " + BIG + "\n", ":4: a number too long", id="in-a-table"),
    pytest.param("gin_bonus = 0x" + "f" * 5000 + "\n", ":1: bad value a number of about", id="huge-hex"),
    pytest.param("x = " + "[" * 500 + "]" * 500 + "\n", ":1: values nested too deeply", id="nested-500"),
    pytest.param("a = 1\nx = " + "[" * 2000 + "]" * 2000 + "\n", ":2: values nested too deeply",
                 id="nested-2000"),
    pytest.param("x = " + "{a = " * 400 + "1" + "}" * 400 + "\n", ":1: values nested too deeply",
                 id="inline-tables-400"),
    pytest.param('tie_policy = "' + "x" * 1_000_000 + '"\n', ":1: bad value 'xxxx", id="1MB-value"),
    pytest.param('"' + "k" * 100_000 + '" = 1\n', ":1: unknown rule knob 'kkk", id="100k-key"),
    pytest.param('base = "' + "b" * 100_000 + '"\n', ":1: unknown rules 'bbb", id="100k-base"),
    pytest.param("base = [" + "1, " * 10_000 + "]\n", ":1: bad value [1, 1", id="long-list-base"),
    pytest.param('gin_bonus = "\\ud800"\n', ":1:", id="surrogate-escape"),
]


@pytest.mark.parametrize(("text", "message"), RULES_FILES)
def test_rules_files_of_any_shape(text: str, message: str, tmp_path: Path) -> None:
    from ginref.rules import load_rules_file

    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UnknownRulesError) as info:
        load_rules_file(path)
    shown = str(info.value)
    assert shown.startswith(f"{path}{message}")
    assert "\n" not in shown and len(shown) < len(str(path)) + 300


@pytest.mark.parametrize(("data", "match"), [
    (b"gin_bonus = 25 # caf\xe9\n", "invalid UTF-8"),
    (b"\xff\xfe", "UTF-16 text .*iconv -f UTF-16"),
    ("gin_bonus = 25\n".encode("utf-16"), "UTF-16 text"),
    (b"\xed\xa0\x80 = 1\n", "invalid UTF-8"),
])
def test_rules_files_that_are_not_utf8(data: bytes, match: str, tmp_path: Path) -> None:
    from ginref.rules import load_rules_file

    path = tmp_path / "house.toml"
    path.write_bytes(data)
    with pytest.raises(GinrefError, match=match):
        load_rules_file(path)


# --- score sheets ------------------------------------------------------------

SHEET_LINES = [
    pytest.param(f"Ann gin {BIG}", 2, 9, "deadwood '9999", id="gin-5000-digits"),
    pytest.param(f"Ann knock 4 {BIG}", 2, 13, "deadwood '9999", id="knock-5000-digits"),
    pytest.param(f"Ann knock {BIG} 4", 2, 11, "deadwood '9999", id="knocker-5000-digits"),
    pytest.param(f"Ann wins {BIG}", 2, 10, "points '9999", id="wins-5000-digits"),
    pytest.param(f"Ann wins -{BIG}", 2, 10, "points '-9999", id="negative-5000-digits"),
    pytest.param("Ann knock 1 999999999999999 spade", 2, 1, "hand 1: points must be", id="points-past-max"),
    pytest.param("Ann knock 5 \u0663", 2, 13, "expected defender's deadwood, found '\u0663'",
                 id="arabic-indic-digit"),
    pytest.param("Ann knock 5 \ud800", 2, 13, "expected defender's deadwood, found '\\ud800'",
                 id="lone-surrogate"),
    pytest.param("Ann\x00 knock 5 10", 2, 4,
                 "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found '\\x00'",
                 id="nul"),
    pytest.param("Ann " + "x" * 1_000_000, 2, 5,
                 "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found 'xxx",
                 id="1MB-word"),
    pytest.param("x" * 100_000 + ": y", 2, 1, "unknown header 'xxx", id="100k-header"),
    pytest.param("Ann knock 5 10 upcard " + "3C" * 50_000, 2, 25, "unexpected '3C': expected a single card",
                 id="100k-upcard"),
    pytest.param("[" * 10_000, 2, 1, "expected 'players:', 'rules:', 'dealer:', 'void' or a player name",
                 id="10000-brackets"),
    pytest.param("dealer: " + "D" * 1000, 2, 9, "unknown dealer 'DDD", id="1000-character-dealer"),
]


@pytest.mark.parametrize(("line", "number", "column", "start"), SHEET_LINES)
def test_sheet_lines_of_any_shape(line: str, number: int, column: int, start: str) -> None:
    from ginref.sheets import read_sheet

    oklahoma = "spade" in line or "upcard" in line
    text = "players: Ann Bo\nrules: oklahoma\n" if oklahoma else "players: Ann Bo\n"
    number += text.count("\n") - 1
    for keep_going in (False, True):
        try:
            _, errors = read_sheet(text + line + "\nBo gin 5\n", keep_going=keep_going)
        except RecordError as exc:
            errors = [exc]
        assert (errors[0].line, errors[0].column) == (number, column)
        assert errors[0].message.startswith(start)
        assert "\n" not in str(errors[0]) and len(errors[0].message) < 300


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("players: " + "A" * 1_000_000 + " Bo\n", id="1MB-name"),
        pytest.param("players: Ann \ud800\n", id="surrogate-name"),
        pytest.param("players: Ann Bo # " + "x" * 1_000_000 + "\nAnn gin 5\n", id="1MB-comment"),
        pytest.param("\ufeffplayers: Ann Bo\r\nAnn knock 5 10\r\n", id="bom-and-crlf"),
        pytest.param("players: Ann Bo\u2028Ann knock 5 10\n", id="line-separator"),
        pytest.param("\x00" * 10_000, id="10000-nuls"),
        pytest.param("players: Ann Bo\n" + "\n" * 100_000, id="100000-empty-lines"),
    ],
)
def test_sheets_of_any_shape_read_or_report(text: str) -> None:
    from ginref.sheets import read_sheet

    sheet, errors = read_sheet(text, keep_going=True)
    for error in errors:
        assert "\n" not in str(error) and len(error.message) < 300
    try:
        sheet.score()
    except GinrefError as exc:
        assert "\n" not in str(exc)


def test_sheet_lines_are_split_at_newlines_only() -> None:
    """U+2028 and the other characters str.splitlines() breaks at are spaces inside a line, so
    line numbers are the record reader's and editors'; the grammar skips every space."""
    from ginref.sheets import read_sheet

    sheet, errors = read_sheet("players: Ann Bo\x0c\nAnn\u2028gin 5\x85\nBo\u3000gin 5\n# \u2029\nBo gin x\n",
                               keep_going=True)
    assert [(h.line, h.entry.winner, h.entry.points) for h in sheet.hands] == [(2, "Ann", 25), (3, "Bo", 25)]
    assert [(e.line, e.column, e.message) for e in errors] == [
        (5, 8, "expected opponent's deadwood, found 'x'")
    ]


def test_a_long_sheet_is_scored_once_per_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader used to re-tally every hand so far at each new line: 4,000 lines took 14 s."""
    import ginref.game
    import ginref.sheets
    from ginref.sheets import read_sheet

    calls = {"add": 0}
    real_add = ginref.game.Scorer.add

    def counted_add(self: ginref.game.Scorer, entry: ginref.game.HandEntry) -> bool:
        calls["add"] += 1
        return real_add(self, entry)

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the reader re-tallied the sheet")

    monkeypatch.setattr(ginref.game.Scorer, "add", counted_add)
    monkeypatch.setattr(ginref.sheets, "tally", refused)
    monkeypatch.setattr(ginref.sheets, "hollywood", refused)
    sheet, errors = read_sheet("players: Ann Bo\n" + "void\n" * 4000 + "Ann gin 100\nBo gin 5\n",
                               keep_going=True)
    assert (len(sheet.hands), calls["add"]) == (4001, 4001)
    assert [(e.line, e.column, e.message) for e in errors] == [
        (4003, 1, "hand 4002 comes after the end of the game (hand 4001, line 4002)")
    ]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": ("A" * 1000, "Bo")}, "at most 80 characters"),
        ({"players": (None, "Bo")}, "two player names"),
        ({"players": "AnnBo"}, "two player names"),
        ({"overrides": {"gin_bonus": BIG}}, "bad value '9999"),
        ({"rules": "standard"}, "rules must be a Rules value"),
    ],
)
def test_sheet_reader_options_of_any_shape(kwargs: dict[str, object], error: str) -> None:
    from ginref.sheets import read_sheet

    with pytest.raises(GinrefError, match=error):
        read_sheet("players: Ann Bo\nAnn gin 5\n", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, b"players: Ann Bo\n", 5])
def test_a_sheet_is_text(text: object) -> None:
    from ginref.sheets import read_sheet

    with pytest.raises(RecordError, match="a score sheet is text"):
        read_sheet(text)  # type: ignore[arg-type]
