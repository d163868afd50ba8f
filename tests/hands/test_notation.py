"""Card notation: every accepted spelling, every rejection with its column, round trips."""

from __future__ import annotations

from collections.abc import Iterator

import pyparsing as pp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.cards import CardSet
from ginref.errors import DuplicateCardError, HandSizeError, NotationError
from ginref.grammar import (
    CardSyntaxError,
    _parse_cards_grammar,
    card_error_expr,
    card_expr,
    card_list_expr,
    meld_list_expr,
    notation_error,
)
from ginref.notation import (
    CARD_NAMES,
    CARD_TOKENS,
    SEPARATORS,
    SPELLINGS,
    format_cards,
    format_melds,
    hand_mask,
    parse_card,
    parse_cards,
    parse_hand,
    parse_melds,
)

# An independent statement of the spellings (the spellings docs/record-format.md gives), used to
# build expectations and random inputs.
RANK_FORMS = [["A", "a"], *[[str(n)] for n in range(2, 10)], ["T", "t", "10"],
              ["J", "j"], ["Q", "q"], ["K", "k"]]
VS = ["", "\ufe0e", "\ufe0f"]
SUIT_FORMS = [
    [letter, letter.lower()] + [glyph + vs for glyph in glyphs for vs in VS]
    for letter, glyphs in (("C", "♣♧"), ("D", "♦♢"), ("H", "♥♡"), ("S", "♠♤"))
]
# U+1F0A1.. spades, U+1F0B1.. hearts, U+1F0C1.. diamonds, U+1F0D1.. clubs;
# nibble 1..E = A 2..10 J (knight) Q K.
CODEPOINT_RANKS = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 0xA: 9, 0xB: 10,
                   0xD: 11, 0xE: 12}
CODEPOINT_FORMS: list[list[str]] = [[] for _ in range(52)]
for _base, _suit in ((0x1F0A0, 3), (0x1F0B0, 2), (0x1F0C0, 1), (0x1F0D0, 0)):
    for _nibble, _rank in CODEPOINT_RANKS.items():
        CODEPOINT_FORMS[_suit * 13 + _rank] += [chr(_base + _nibble) + vs for vs in VS]

JOKERS = "jokers are not used in gin rummy"
KNIGHTS = "knights are not used in gin rummy"
NAMES = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def c(name: str) -> int:
    return NAMES.index(name)


def cs(names: str) -> list[int]:
    return [c(n) for n in names.split()]


def all_spellings() -> dict[str, int]:
    out = {}
    for card in range(52):
        rank, suit = card % 13, card // 13
        for r in RANK_FORMS[rank]:
            for s in SUIT_FORMS[suit]:
                out[r + s] = out[s + r] = card
        for p in CODEPOINT_FORMS[card]:
            out[p] = card
    return out


# --- single cards ------------------------------------------------------------

CARDS = [
    ("AS", "AS"), ("as", "AS"), ("aS", "AS"), ("As", "AS"), ("SA", "AS"), ("sa", "AS"),
    ("10H", "TH"), ("10h", "TH"), ("TH", "TH"), ("th", "TH"), ("tH", "TH"), ("Th", "TH"),
    ("H10", "TH"), ("h10", "TH"), ("HT", "TH"), ("ht", "TH"),
    ("7♣", "7C"), ("♣7", "7C"), ("7♧", "7C"), ("♧7", "7C"),
    ("7♣\ufe0e", "7C"), ("7♣\ufe0f", "7C"), ("♣\ufe0f7", "7C"), ("♧\ufe0e7", "7C"),
    ("Q♦", "QD"), ("♦q", "QD"), ("♢Q", "QD"), ("Q♢\ufe0f", "QD"), ("♦\ufe0e10", "TD"),
    ("K♥", "KH"), ("♡k", "KH"), ("♥\ufe0fK", "KH"), ("3♥\ufe0f", "3H"),
    ("2♠", "2S"), ("♤2", "2S"), ("♠\ufe0e2", "2S"), ("J♤\ufe0f", "JS"),
    ("\U0001f0a1", "AS"), ("\U0001f0aa", "TS"), ("\U0001f0ab", "JS"), ("\U0001f0ad", "QS"),
    ("\U0001f0ae", "KS"), ("\U0001f0b1", "AH"), ("\U0001f0c5", "5D"), ("\U0001f0d1", "AC"),
    ("\U0001f0dd", "QC"), ("\U0001f0de", "KC"), ("\U0001f0a1\ufe0f", "AS"),
    (" 9d ", "9D"), ("9d,", "9D"),
]


@pytest.mark.parametrize(("text", "name"), CARDS)
def test_parse_card(text: str, name: str) -> None:
    assert parse_card(text) == c(name)


@pytest.mark.parametrize(("text", "name"), CARDS)
def test_card_expr(text: str, name: str) -> None:
    assert card_expr.parse_string(text, parse_all=True).as_list() == [c(name)]


def test_spelling_table_is_exactly_the_documented_forms() -> None:
    assert all_spellings() == SPELLINGS


def test_every_spelling_parses_through_the_grammar() -> None:
    for text, card in all_spellings().items():
        assert card_expr.parse_string(text, parse_all=True).as_list() == [card], text
        assert _parse_cards_grammar(text) == [card], text


def test_separators_are_every_unicode_space_and_comma() -> None:
    spaces = {ch for ch in map(chr, range(0x110000)) if ch.isspace()}
    assert set(SEPARATORS) == spaces | {","}
    assert len(SEPARATORS) == len(set(SEPARATORS))


CARD_ERRORS = [
    ("", 1, "", "expected a card at column 1"),
    ("4X", 1, "4X", "unknown card '4X' at column 1"),
    ("3C 4C", 4, "4C", "unexpected '4C' at column 4: expected a single card"),
    ("3C4C", 3, "4C", "unexpected '4C' at column 3: expected a single card"),
    ("JK", 1, "JK", "joker 'JK' at column 1: jokers are not used in gin rummy"),
    ("1S", 1, "1S", "unknown card '1S' at column 1: write the ace as 'A' ('AS')"),
    ("\U0001f0bc", 1, "\U0001f0bc",
     "knight '\U0001f0bc' at column 1: knights are not used in gin rummy"),
]


@pytest.mark.parametrize(("text", "column", "token", "message"), CARD_ERRORS)
def test_parse_card_errors(text: str, column: int, token: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert (str(info.value), info.value.column, info.value.token) == (message, column, token)


# --- card lists --------------------------------------------------------------

CARD_LISTS = [
    ("3C 4C 5C 9D 9S 9H KH 2D 6S 7S", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"),
    ("3c 4c 5c 9d 9s 9h kh 2d 6s 7s", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"),
    ("3C4C5C", "3C 4C 5C"),
    ("♣6♣7♣8", "6C 7C 8C"),
    ("♣6♣7♣8♣9♣10", "6C 7C 8C 9C TC"),
    ("10c10d10h", "TC TD TH"),
    ("S10S9", "TS 9S"),
    ("AS2S3S", "AS 2S 3S"),
    ("3♥\ufe0f4♥\ufe0e5♥", "3H 4H 5H"),
    ("♥\ufe0f8♦\ufe0f8", "8H 8D"),
    ("3C,4C,5C", "3C 4C 5C"),
    ("3C, 4C ,5C", "3C 4C 5C"),
    ("3C,,4C,", "3C 4C"),
    (",3C", "3C"),
    (" 3C\t4C\n5C \r\n", "3C 4C 5C"),
    ("AS\u00a0KS\u30002C", "AS KS 2C"),
    ("8♥ 8♦ 8♠", "8H 8D 8S"),
    ("♥8 ♠8 ♦8", "8H 8S 8D"),
    ("♡8 ♤8 ♢8 ♧8", "8H 8S 8D 8C"),
    ("AS h10 ♣7 7♦ \U0001f0ae", "AS TH 7C 7D KS"),
    ("\U0001f0a1\U0001f0a2\U0001f0a3", "AS 2S 3S"),
    ("KS AS", "KS AS"),
    ("", ""),
    ("   ", ""),
    (",", ""),
]


@pytest.mark.parametrize(("text", "names"), CARD_LISTS)
def test_parse_cards(text: str, names: str) -> None:
    assert parse_cards(text) == cs(names)
    assert _parse_cards_grammar(text) == cs(names)


LIST_ERRORS = [
    ("3C 4X", 4, "4X", "unknown card '4X' at column 4"),
    ("3C4X", 3, "4X", "unknown card '4X' at column 3"),
    ("4X5C", 1, "4X", "unknown card '4X' at column 1"),
    ("3C\t4X", 4, "4X", "unknown card '4X' at column 4"),
    ("3C,4X", 4, "4X", "unknown card '4X' at column 4"),
    ("3C\n4X", 1, "4X", "unknown card '4X' at line 2, column 1"),
    ("♣6♣X♣8", 3, "♣X", "unknown card '♣X' at column 3"),
    ("3C 4C5", 6, "5", "unknown card '5' at column 6"),
    ("stock", 1, "stock", "unknown card 'stock' at column 1"),
    ("ASXS", 1, "ASXS", "unknown card 'ASXS' at column 1"),
    ("KH*", 3, "*", "unknown card '*' at column 3"),
    ("3C [4C]", 4, "[", "unexpected '[' at column 4"),
    ("3C 4C]", 6, "]", "unexpected ']' at column 6"),
    ("0S", 1, "0S", "unknown card '0S' at column 1"),
    ("11S", 1, "11S", "unknown card '11S' at column 1"),
    ("T", 1, "T", "unknown card 'T' at column 1"),
    ("10", 1, "10", "unknown card '10' at column 1"),
    ("S", 1, "S", "unknown card 'S' at column 1"),
    ("XX", 1, "XX", "unknown card 'XX' at column 1"),
    ("??", 1, "??", "unknown card '??' at column 1"),
    ("\U0001f0a0", 1, "\U0001f0a0", "unknown card '\U0001f0a0' at column 1"),  # card back
    ("\U0001f0af", 1, "\U0001f0af", "unknown card '\\U0001f0af' at column 1"),  # unassigned: !r
    ("\U0001f0e1", 1, "\U0001f0e1", "unknown card '\U0001f0e1' at column 1"),  # trump
    # jokers
    ("3C JK", 4, "JK", "joker 'JK' at column 4: jokers are not used in gin rummy"),
    ("jk", 1, "jk", "joker 'jk' at column 1: jokers are not used in gin rummy"),
    ("JKR", 1, "JKR", "joker 'JKR' at column 1: jokers are not used in gin rummy"),
    ("Joker", 1, "Joker", "joker 'Joker' at column 1: jokers are not used in gin rummy"),
    ("QH jk3c", 4, "jk", "joker 'jk' at column 4: jokers are not used in gin rummy"),
    ("\U0001f0cf", 1, "\U0001f0cf", f"joker '\U0001f0cf' at column 1: {JOKERS}"),
    ("\U0001f0cf\ufe0f", 1, "\U0001f0cf\ufe0f",
     "joker '\U0001f0cf\ufe0f' at column 1: jokers are not used in gin rummy"),
    ("\U0001f0bf", 1, "\U0001f0bf", f"joker '\U0001f0bf' at column 1: {JOKERS}"),
    ("AS \U0001f0df", 4, "\U0001f0df",
     "joker '\U0001f0df' at column 4: jokers are not used in gin rummy"),
    # knights
    ("\U0001f0ac", 1, "\U0001f0ac", f"knight '\U0001f0ac' at column 1: {KNIGHTS}"),
    ("\U0001f0bc", 1, "\U0001f0bc", f"knight '\U0001f0bc' at column 1: {KNIGHTS}"),
    ("\U0001f0cc", 1, "\U0001f0cc", f"knight '\U0001f0cc' at column 1: {KNIGHTS}"),
    ("AS\U0001f0dc", 3, "\U0001f0dc",
     "knight '\U0001f0dc' at column 3: knights are not used in gin rummy"),
    # the ace written as 1
    ("1S", 1, "1S", "unknown card '1S' at column 1: write the ace as 'A' ('AS')"),
    ("AS 1h", 4, "1h", "unknown card '1h' at column 4: write the ace as 'A' ('Ah')"),
    ("AS1H", 3, "1H", "unknown card '1H' at column 3: write the ace as 'A' ('AH')"),
    ("s1", 1, "s1", "unknown card 's1' at column 1: write the ace as 'A' ('sA')"),
    ("1♠", 1, "1♠", "unknown card '1♠' at column 1: write the ace as 'A' ('A♠')"),
    ("♤\ufe0f1", 1, "♤\ufe0f1",
     "unknown card '♤\ufe0f1' at column 1: write the ace as 'A' ('♤\ufe0fA')"),
]


@pytest.mark.parametrize(("text", "column", "token", "message"), LIST_ERRORS)
def test_parse_cards_errors(text: str, column: int, token: str, message: str) -> None:
    for parse in (parse_cards, _parse_cards_grammar):
        with pytest.raises(NotationError) as info:
            parse(text)
        assert type(info.value) is NotationError
        assert (str(info.value), info.value.column, info.value.token) == (message, column, token)


DUPLICATES = [
    ("3C 4C 5C 9D 9D", 13, "9D"),
    ("3C 4C 5C 9D 9S 9D", 16, "9D"),
    ("9d 9D", 4, "9D"),
    ("9D ♦9", 4, "♦9"),
    ("3C3C", 3, "3C"),
    ("\U0001f0a1 AS", 3, "AS"),
    ("AS,as", 4, "as"),
    ("10h TH", 5, "TH"),
    ("AS\nKS AS", 4, "AS"),
]


@pytest.mark.parametrize(("text", "column", "token"), DUPLICATES)
def test_duplicate_cards(text: str, column: int, token: str) -> None:
    for parse in (parse_cards, _parse_cards_grammar):
        with pytest.raises(DuplicateCardError) as info:
            parse(text)
        where = f"column {column}" if "\n" not in text else f"line 2, column {column}"
        assert str(info.value) == f"duplicate card {token!r} at {where}"
        assert (info.value.column, info.value.token) == (column, token)


def test_first_problem_wins() -> None:
    with pytest.raises(DuplicateCardError, match=r"at column 4$"):
        parse_cards("3C 3C 4X")
    with pytest.raises(NotationError, match=r"^unknown card '4X' at column 4$"):
        parse_cards("3C 4X 3C")


# --- hands -------------------------------------------------------------------


def test_parse_hand() -> None:
    hand = parse_hand("3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    assert hand == CardSet.of(cs("3C 4C 5C 9D 9S 9H KH 2D 6S 7S"))
    assert len(parse_hand("3C4C5C9D9S9HKH2D6S7S,AS")) == 11


@pytest.mark.parametrize(
    ("text", "sizes", "message"),
    [
        ("3C 4C 5C 9D 9S 9H KH 2D 6S", (10, 11), "expected 10 or 11 cards, got 9"),
        ("3C 4C 5C 9D 9S 9H KH 2D 6S 7S AS", (10,), "expected 10 cards, got 11"),
        ("", (1,), "expected 1 card, got 0"),
        ("3C 4C", (9, 10, 11), "expected 9, 10 or 11 cards, got 2"),
    ],
)
def test_parse_hand_size(text: str, sizes: tuple[int, ...], message: str) -> None:
    with pytest.raises(HandSizeError) as info:
        parse_hand(text, sizes)
    assert str(info.value) == message


def test_parse_hand_reports_notation_before_size() -> None:
    with pytest.raises(DuplicateCardError, match=r"^duplicate card '3C' at column 4$"):
        parse_hand("3C 3C")


# --- melds -------------------------------------------------------------------

MELDS = [
    ("", []),
    (" \n ", []),
    ("[3C 4C 5C] [9D 9S 9H]", ["3C 4C 5C", "9D 9S 9H"]),
    ("[3C,4C,5C],[9D,9S,9H]", ["3C 4C 5C", "9D 9S 9H"]),
    ("[3C4C5C][9d9s9h]", ["3C 4C 5C", "9D 9S 9H"]),
    ("[ ♣3 ♣4 ♣5 ]", ["3C 4C 5C"]),
    ("\n[3C 4C 5C]\n[\U0001f0a1 \U0001f0b1 AD]\n", ["3C 4C 5C", "AS AH AD"]),
    ("[]", [""]),
    ("[3C]", ["3C"]),
    ("[KS AS 2S]", ["KS AS 2S"]),
]


@pytest.mark.parametrize(("text", "melds"), MELDS)
def test_parse_melds(text: str, melds: list[str]) -> None:
    assert parse_melds(text) == [cs(m) for m in melds]


MELD_ERRORS = [
    ("[3C 4C 5C", 1, "[", "unclosed '[' at column 1"),
    ("[3C 4C 5C] [9D", 12, "[", "unclosed '[' at column 12"),
    ("[3C 4C 5C] \n [9D", 2, "[", "unclosed '[' at line 2, column 2"),
    ("[3C 4C [5C]", 8, "[", "unexpected '[' at column 8: the meld at column 1 is not closed"),
    ("[3C 4C 5C]]", 11, "]", "unmatched ']' at column 11"),
    ("]", 1, "]", "unmatched ']' at column 1"),
    ("[3C] 4C]", 6, "4C", "unexpected card '4C' at column 6: put each meld in brackets"),
    ("3C 4C 5C", 1, "3C", "unexpected card '3C' at column 1: put each meld in brackets"),
    ("[3C 4X]", 5, "4X", "unknown card '4X' at column 5"),
    ("[3C] X", 6, "X", "unknown card 'X' at column 6"),
    ("[3C][JK]", 6, "JK", "joker 'JK' at column 6: jokers are not used in gin rummy"),
    ("[1S 2S 3S]", 2, "1S", "unknown card '1S' at column 2: write the ace as 'A' ('AS')"),
]


@pytest.mark.parametrize(("text", "column", "token", "message"), MELD_ERRORS)
def test_parse_melds_errors(text: str, column: int, token: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_melds(text)
    assert type(info.value) is NotationError
    assert (str(info.value), info.value.column, info.value.token) == (message, column, token)


@pytest.mark.parametrize(
    ("text", "column", "token"),
    [("[3C 4C 5C] [5C 6C 7C]", 13, "5C"), ("[3C 3c]", 5, "3c"), ("[9D][][♦9]", 8, "♦9")],
)
def test_parse_melds_duplicates(text: str, column: int, token: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        parse_melds(text)
    assert str(info.value) == f"duplicate card {token!r} at column {column}"
    assert (info.value.column, info.value.token) == (column, token)


# --- formatting --------------------------------------------------------------

FORMATS = [
    ("3C 4C TD", {}, "3C 4C TD"),
    ("3C 4C TD", {"ten": "10"}, "3C 4C 10D"),
    ("3C 4C TD", {"glyphs": True}, "3♣ 4♣ T♦"),
    ("3C 4C TD", {"glyphs": True, "ten": "10"}, "3♣ 4♣ 10♦"),
    ("7S AC KH JD", {}, "7S AC KH JD"),
    ("AH QS", {"glyphs": True}, "A♥ Q♠"),
    ("", {}, ""),
]


@pytest.mark.parametrize(("names", "kwargs", "expected"), FORMATS)
def test_format_cards(names: str, kwargs: dict[str, object], expected: str) -> None:
    assert format_cards(iter(cs(names)), **kwargs) == expected  # type: ignore[arg-type]


def test_format_melds() -> None:
    melds = [cs("3C 4C 5C"), cs("9D 9H 9S")]
    assert format_melds(melds) == "[3C 4C 5C] [9D 9H 9S]"
    assert format_melds(melds, glyphs=True, ten="10") == "[3♣ 4♣ 5♣] [9♦ 9♥ 9♠]"
    assert format_melds([cs("9D 9S 9H")]) == "[9D 9S 9H]"
    assert format_melds([cs("8S 9S TS")], ten="10") == "[8S 9S 10S]"
    assert format_melds([]) == ""
    assert format_melds([[]]) == "[]"
    assert format_melds(iter([iter(cs("AS"))])) == "[AS]"


@pytest.mark.parametrize("glyphs", [False, True])
@pytest.mark.parametrize("ten", ["T", "10"])
def test_format_round_trip_whole_deck(glyphs: bool, ten: str) -> None:
    deck = list(range(52))
    assert parse_cards(format_cards(deck, glyphs=glyphs, ten=ten)) == deck
    melds = [deck[:3], deck[3:4], [], deck[4:]]
    assert parse_melds(format_melds(melds, glyphs=glyphs, ten=ten)) == melds


@pytest.mark.parametrize(
    ("cards", "ten", "message"),
    [([52], "T", "not a card: 52"), ([-1], "T", "not a card: -1"),
     ([0], "t", "ten must be 'T' or '10', not 't'")],
)
def test_format_rejects(cards: list[int], ten: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        format_cards(cards, ten=ten)
    assert str(info.value) == message


# --- reusable elements -------------------------------------------------------


def test_elements_are_named() -> None:
    names = [str(e) for e in (card_expr, card_list_expr, meld_list_expr, card_error_expr)]
    assert names == ["card", "cards", "melds", "card"]


def test_elements_compose() -> None:
    line = (
        pp.Keyword("north") + pp.Suppress(":") + card_list_expr + pp.Keyword("discard") + card_expr
    )
    assert line.parse_string("north: 3C 4c ♣5 discard KD", parse_all=True).as_list() == [
        "north", *cs("3C 4C 5C"), "discard", c("KD")
    ]
    # A card never ends inside a word, so keywords survive next to card lists.
    stock = card_list_expr + pp.Keyword("stock") + card_expr
    assert stock.parse_string("AS stock 10D", parse_all=True).as_list() == [
        c("AS"), "stock", c("TD")
    ]
    knock = card_expr + pp.Literal("*")
    assert knock.parse_string("KH*", parse_all=True).as_list() == [c("KH"), "*"]
    melds = pp.Keyword("melds") + meld_list_expr + pp.Keyword("dead") + card_list_expr
    result = melds.parse_string("melds [3C 4C 5C] [9D 9S 9H] dead 2D", parse_all=True)
    assert result.as_list() == ["melds", cs("3C 4C 5C"), cs("9D 9S 9H"), "dead", c("2D")]


def test_card_error_expr_and_notation_error() -> None:
    discard = (pp.Keyword("discard") + (card_expr | card_error_expr)).parse_with_tabs()
    with pytest.raises(CardSyntaxError) as info:
        discard.parse_string("discard JK", parse_all=True)
    error = notation_error(info.value)
    assert (str(error), error.column, error.token) == (
        "joker 'JK' at column 9: jokers are not used in gin rummy", 9, "JK"
    )
    with pytest.raises(pp.ParseException) as plain:
        (pp.Keyword("discard") + card_expr).parse_string("discard 4X", parse_all=True)
    error = notation_error(plain.value)
    assert (str(error), error.column) == ("unknown card '4X' at column 9", 9)


def test_duplicate_in_composed_grammar() -> None:
    with pytest.raises(CardSyntaxError) as info:
        (pp.Keyword("south") + card_list_expr).parse_string("south 2S 3S 2s")
    error = notation_error(info.value)
    assert type(error) is DuplicateCardError
    assert (str(error), error.column) == ("duplicate card '2s' at column 13", 13)


@pytest.fixture()
def packrat() -> Iterator[None]:
    """pyparsing's packrat cache on, as matplotlib turns it on for the whole process."""
    was = pp.ParserElement._packratEnabled
    pp.ParserElement.enable_packrat()
    yield
    if not was:
        pp.ParserElement.disable_memoization()


@pytest.mark.usefixtures("packrat")
@pytest.mark.parametrize(("text", "message"), [
    ("3C 4X", "unknown card '4X' at column 4"),
    ("3C 4C 5C 9D 9D", "duplicate card '9D' at column 13"),
    ("3C JK", "joker 'JK' at column 4: jokers are not used in gin rummy"),
])
def test_card_errors_keep_their_details_under_the_packrat_cache(text: str, message: str) -> None:
    for _ in range(2):  # the second parse is answered from the cache, with a copy of the error
        with pytest.raises(NotationError) as info:
            parse_cards(text)
        assert str(info.value) == message


# --- properties --------------------------------------------------------------

Written = tuple[list[int], list[str], list[str]]  # cards, their spellings, separators
SEPARATOR_CHOICES = [" ", ",", ", ", " ,", "\t", "\n", "", "\u00a0", ",,", "  "]


@st.composite
def spelled(draw: st.DrawFn, card: int) -> str:
    rank, suit = card % 13, card // 13
    style = draw(st.sampled_from(["rank-first", "suit-first", "codepoint"]))
    if style == "codepoint":
        return draw(st.sampled_from(CODEPOINT_FORMS[card]))
    r = draw(st.sampled_from(RANK_FORMS[rank]))
    s = draw(st.sampled_from(SUIT_FORMS[suit]))
    return r + s if style == "rank-first" else s + r


@st.composite
def written_cards(draw: st.DrawFn) -> Written:
    cards = draw(st.lists(st.integers(0, 51), unique=True, max_size=52))
    tokens = [draw(spelled(card)) for card in cards]
    seps = [draw(st.sampled_from(SEPARATOR_CHOICES)) for _ in range(len(cards) + 1)]
    return cards, tokens, seps


@given(written_cards())
def test_any_spelling_parses_back(written: Written) -> None:
    cards, tokens, seps = written
    text = seps[0] + "".join(token + sep for token, sep in zip(tokens, seps[1:], strict=True))
    assert parse_cards(text) == cards
    assert _parse_cards_grammar(text) == cards
    assert CardSet.of(parse_cards(text)) == CardSet.of(cards)


@given(written_cards(), st.data())
def test_melds_parse_back(written: Written, data: st.DataObject) -> None:
    cards, tokens, seps = written
    cuts = sorted(data.draw(st.lists(st.integers(0, len(cards)), max_size=5)))
    bounds = [0, *cuts, len(cards)]
    groups = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    text = " , ".join(
        "[" + seps[lo] + "".join(tokens[k] + seps[k + 1] for k in range(lo, hi)) + "]"
        for lo, hi in groups
    )
    assert parse_melds(text) == [cards[lo:hi] for lo, hi in groups]


@given(st.lists(st.integers(0, 51), unique=True), st.booleans(), st.sampled_from(["T", "10"]))
def test_format_parses_back(cards: list[int], glyphs: bool, ten: str) -> None:
    assert parse_cards(format_cards(cards, glyphs=glyphs, ten=ten)) == cards


@given(written_cards(), st.data())
def test_bad_token_column(written: Written, data: st.DataObject) -> None:
    _, tokens, _ = written
    at = data.draw(st.integers(0, len(tokens)))
    bad = data.draw(st.sampled_from(["4X", "ZZ", "1C", "JK", "\U0001f0cc", "?"]))
    tokens = [*tokens[:at], bad, *tokens[at:]]
    column = 1 + sum(len(token) + 1 for token in tokens[:at])
    with pytest.raises(NotationError) as info:
        parse_cards(" ".join(tokens))
    assert type(info.value) is NotationError
    assert (info.value.column, info.value.token) == (column, bad)
    assert f"{bad!r} at column {column}" in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=12, unique=True), st.data())
def test_plain_mask_agrees_with_the_grammar(cards: list[int], data: st.DataObject) -> None:
    """The grammar-free quick path reads plain spellings exactly as the grammar does."""
    from ginref.cards import card_name, mask_of
    from ginref.notation import plain_mask

    words = []
    for card in cards:
        rank, suit = card_name(card)
        rank = data.draw(st.sampled_from(["T", "10", "t"])) if rank == "T" else rank
        word = data.draw(st.sampled_from([rank + suit, suit + rank]))
        words.append(data.draw(st.sampled_from([word, word.lower()])))
    text = data.draw(st.sampled_from([" ", ", ", ","])).join(words)
    assert plain_mask(text) == mask_of(parse_cards(text))


@pytest.mark.parametrize("text", ["3C 3C", "3C 4X", "♣3 4C", "3C4C", "JK 2C", "1S 2S", "3\u017f"])
def test_plain_mask_leaves_everything_else_to_the_grammar(text: str) -> None:
    from ginref.notation import plain_mask

    assert plain_mask(text) is None


def test_card_tokens_are_exactly_the_letter_spellings_rank_first() -> None:
    expected = {
        rank + suit: NAMES.index(ranks[0] + suits[0])
        for ranks in RANK_FORMS
        for suits in SUIT_FORMS
        for rank in ranks
        for suit in suits[:2]
    }
    assert dict(CARD_TOKENS) == expected
    assert tuple(NAMES) == CARD_NAMES


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 52) - 1))
def test_card_set_repr_pastes_back(mask: int) -> None:
    cards = CardSet(mask)
    assert eval(repr(cards), {"CardSet": CardSet}) == cards


@pytest.mark.parametrize(
    ("text", "error"),
    [("3c", NotationError), ("3C  4C", NotationError), (" 3C", NotationError),
     ("3C 3C", DuplicateCardError), ("10C", NotationError)],
)
def test_card_set_parse_reads_only_canonical_text(text: str, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        CardSet.parse(text)
    assert type(info.value) is error
    assert "ginref.notation.parse_cards" in str(info.value)


HAND_MASKS = [
    (0, 0),
    ((1 << 52) - 1, (1 << 52) - 1),
    (CardSet.of([0, 13]), 1 | 1 << 13),
    ("3C 4c, 10h", 1 << 2 | 1 << 3 | 1 << 35),
    ("♣3♣4", 1 << 2 | 1 << 3),
    ([2, "4C"], 1 << 2 | 1 << 3),
    ((c for c in (0, 51)), 1 | 1 << 51),
    (frozenset({5}), 1 << 5),
]


@pytest.mark.parametrize(("hand", "mask"), HAND_MASKS)
def test_hand_mask(hand: object, mask: int) -> None:
    assert hand_mask(hand) == mask  # type: ignore[arg-type]


HAND_MASK_ERRORS = [
    (1 << 52, NotationError, "0 to 2**52 - 1"),
    (-1, NotationError, "0 to 2**52 - 1"),
    pytest.param(10**5000, NotationError, "about 5001 digits", id="5001-digit-int"),
    (True, NotationError, "not bool"),
    (None, NotationError, "not NoneType"),
    (3.0, NotationError, "not float"),
    (b"3C", NotationError, "not bytes"),
    ("3C 3C", DuplicateCardError, "duplicate card '3C'"),
    ([2, "3C"], DuplicateCardError, "duplicate card '3C' at item 2"),
    ([52], NotationError, "item 1 is not a card"),
    ([False], NotationError, "item 1 is not a card"),
    ([1.0], NotationError, "item 1 is not a card"),
    (["4X"], NotationError, "item 1: unknown card '4X'"),
    (iter(range(10**9)), NotationError, "item 53 is not a card"),
]


@pytest.mark.parametrize(("hand", "error", "message"), HAND_MASK_ERRORS)
def test_hand_mask_errors(hand: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        hand_mask(hand)  # type: ignore[arg-type]
    assert type(info.value) is error
    assert message in str(info.value)


# --- the reader and the grammar agree ----------------------------------------

_PIECES = ["3C", "4c", "10h", "S10", "♣7", "7♣\ufe0f", "\U0001f0a1", "1S", "JK", "\U0001f0ac",
           "X", "x", "stock", "[", "]", " ", ",", "\n", "\t", "\u00a0", "9", "♦", "\ufe0f",
           "AS", "as", "KD", "Q"]


def _outcome(parse: object, text: str) -> object:
    try:
        return parse(text)  # type: ignore[operator]
    except NotationError as exc:
        return (type(exc), str(exc), exc.column, exc.token)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_the_reader_and_the_grammar_agree(text: str) -> None:
    """``parse_*`` read without pyparsing; ``ginref.grammar`` must say exactly the same."""
    from ginref.grammar import _parse_card_grammar, _parse_melds_grammar

    assert _outcome(parse_card, text) == _outcome(_parse_card_grammar, text)
    assert _outcome(parse_cards, text) == _outcome(_parse_cards_grammar, text)
    assert _outcome(parse_melds, text) == _outcome(_parse_melds_grammar, text)


def test_importing_notation_does_not_load_pyparsing() -> None:
    import subprocess
    import sys

    code = "import sys, ginref.notation; print('pyparsing' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- the card lists other programs print (EAAI logs, RLCard sheets) ---------------------------


@pytest.mark.parametrize(("text", "cards"), [
    ("[8S, KS, 2C]", "8S KS 2C"),
    ("['8S', 'KS']", "8S KS"),
    ("[ ]", ""),
    ("[TD]", "TD"),
])
def test_a_card_list_other_programs_print(text: str, cards: str) -> None:
    from ginref.notation import read_card_list

    assert list(read_card_list(text, "log.txt", 4, 9)) == (parse_cards(cards) if cards else [])


@pytest.mark.parametrize(("text", "message"), [
    ("[8S, 8S]", "log.txt:4:9: the list names 8S twice"),
    ("[10S]", "log.txt:4:9: '10S' is not a card"),
    ("[8s]", "log.txt:4:9: '8s' is not a card"),
])
def test_a_bad_card_list_is_one_error_at_its_place(text: str, message: str) -> None:
    from ginref.errors import RecordError
    from ginref.notation import read_card_list

    with pytest.raises(RecordError) as info:
        read_card_list(text, "log.txt", 4, 9)
    assert str(info.value) == message


def test_meld_lists_other_programs_print() -> None:
    from ginref.cards import mask_of
    from ginref.notation import read_meld_lists

    melds = read_meld_lists("[[AC, 2C, 3C], [], [8D, 9D, TD]]", "", 1, 1)
    assert melds == (mask_of(parse_cards("AC 2C 3C")), mask_of(parse_cards("8D 9D TD")))
