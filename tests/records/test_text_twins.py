"""The text reader's first tier against the grammar it stands beside.

``read_text`` reads a line as the formatter writes it (a tag, a turn, a knock, a defence, a pass,
a claim) in one match, and a line it has read before from its one memo; ``read_text_by_grammar``
sends every line to the grammar. Whatever the first tier reads, the grammar must read the same:
the record with every place, or the same error at the same line and column.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.errors import RecordError
from ginref.notation import CARD_NAMES
from ginref.records import format_text, read_text
from ginref.records import text as text_module
from ginref.records.lexicon import RecordToken
from ginref.records.text import _PLAIN_LINES, _plain_cards, _TextReader, read_text_by_grammar
from ginref.rules import PRESET_NAMES
from tests.support.randomplay import random_game, random_hand

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"


def read_whole(text: str, read: object = read_text) -> str:
    """The record read from ``text`` with every field and place (equality leaves places out),
    or its error with line and column."""
    try:
        return repr(read(text, source="x", first_line=3))  # type: ignore[operator]
    except RecordError as exc:
        return f"{exc} @ {exc.line}:{exc.column}"


def assert_read_alike(text: str) -> None:
    """``text`` read as it comes and again (its lines remembered by then) is what the grammar
    alone reads."""
    expected = read_whole(text, read_text_by_grammar)
    assert [read_whole(text), read_whole(text)] == [expected] * 2, text


def games(seed: int) -> list[str]:
    out = []
    for i, name in enumerate(PRESET_NAMES):
        out.append(format_text(random_hand(seed * 100 + i, name)))
        out.append(format_text(random_game(seed * 100 + i, name, max_hands=3)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_tiers_agree_on_games_under_every_rule_set(seed: int) -> None:
    for text in games(seed):
        assert_read_alike(text)


def test_they_agree_on_the_samples() -> None:
    texts = [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.rglob("*.gin"))]
    assert len(texts) > 3
    for text in texts:
        assert_read_alike(text)


HAND_TAGS = [
    '[Hand "1"]', '[Hand "007"]', '[Hand "0"]', '[Hand "1234567890123456"]', '[Hand "x"]', '[Hand "1" "2"]',
    '[Dealer "Ann"]', '[Dealer "Bo"]', '[Dealer "A#n"]', '[Dealer "Ann" "Bo"]', '[Dealer "Cy"]',
    '[Deal "Ann" "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"]', '[Deal "Bo" "AD 2D 3D 4D 5D 6D 7D 8D 9D TD"]',
    '[Deal "Bo" "AD 2D 3D 4D 5D 6D 7D 8D 9D"]', '[Deal "Ann" "AC AC 3C"]', '[Deal "Ann" "ac 10C 3C"]',
    '[Deal "Ann" "AC  2C"]', '[Deal "Ann" "AC 2C "]', '[Deal "Ann" "AC XX"]', '[Deal "Ann"]',
    '[Deal "Ann" "AC" "2C"]', '[Deal "Ann" "AC\xa02C"]', '[Deal "é" "JS"]', '[Deal "" "AC"]',
    '[Upcard "JC"]', '[Upcard "JC QC"]', '[Upcard "J"]', '[Upcard "JC" "QC"]', '[Upcard "jc"]',
    '[Stock "KC QC JD"]', '[Stock "KC"]', '[Stock "KC KC"]', '[Stock "KC  QC"]', '[Stock "KC" "QC"]',
]
OTHER_LINES = [
    '[Rules "standard"]', '[Players "Ann" "Bo"]', '[Event "x"]', "", "# a comment",
    "Ann take JC discard TC", "Bo draw KC discard 9D", "Ann pass", "Bo pass", "result void",
    "score Ann 0 Bo 0", "next_dealer Ann", "final Ann 0 Bo 0", "result knock Ann 12", "result gin Bo",
    "result tie", "score Ann 25 Bo 0", "score Ann 1", "score Ann 1 Ann 2", "next_dealer Bo", "next_dealer",
    "result undercut Bo 30", " result tie", "\tscore Ann 0 Bo 0", "result tie # c", "final Ann 10 Bo 0",
    "result knock pass 3", "score pass 1 Bo 2", "next_dealer final", "result knock Ann -4", "score Ann +3",
    "result win Ann", "result unfinished forfeit Ann", '[Players "Ann" "Bo" "Cy"]', '[Rules]',
    "[Set \"a=b\"]", '[Rules "a\\"b"]', '[rules "standard"]', '[Event "x" ]', '[Event  "x"]', "score",
    "final", "Ann take JC", "Ann discard TC", "Ann knock", "Ann gin [AC 2C 3C]",
]
_EDITS = st.sampled_from(["", " ", "\t", " # c", "\r", "x", '"', "\\"])
LINE = st.one_of(
    st.sampled_from(HAND_TAGS),
    st.sampled_from(OTHER_LINES),
    st.tuples(st.sampled_from(HAND_TAGS), _EDITS, _EDITS).map(lambda p: p[1] + p[0] + p[2]),
    st.tuples(st.sampled_from(HAND_TAGS), st.integers(0, 40), _EDITS).map(
        lambda p: p[0][: p[1]] + p[2] + p[0][p[1] + 1 :]
    ),
)
"""Hand tag lines as written and changed every way, among the other lines of a record"""


HEAD = '[Rules "standard"]\n[Players "Ann" "Bo"]\n'
DEALT = HEAD + '[Dealer "Bo"]\n[Deal "Ann" "AC 2C"]\n'
TAG_ORDERS = [
    # each plain tag line where it reads and where it is an error: the checked path decides those
    DEALT + '[Deal "Bo" "3C"]\n[Upcard "JC"]\n[Stock "KC QC"]\nAnn pass\n',
    DEALT + 'Ann pass\n[Deal "Bo" "3C"]\n',
    DEALT + 'Ann pass\n[Stock "3C"]\n',
    DEALT + 'Ann pass\n[Upcard "3C"]\n',
    DEALT + 'Ann pass\n[Dealer "Ann"]\n[Upcard "3C"]\n',
    DEALT + 'result void\n[Upcard "3C"]\n',
    DEALT + 'result void\n[Dealer "Ann"]\n',
    DEALT + 'result void\nfinal Ann 0 Bo 0\n[Dealer "Ann"]\n',
    DEALT + 'result void\nfinal Ann 0 Bo 0\n[Stock "3C"]\n',
    DEALT + 'result void\nfinal Ann 0 Bo 0\n[Hand "2"]\n',
    DEALT + 'result void\nscore Ann 0 Bo 0\nnext_dealer Ann\n[Dealer "Ann"]\nresult void\nscore Ann 0 Bo 0\n',
    DEALT + 'result void\nresult void\n',
    DEALT + 'score Ann 0 Bo 0\nscore Ann 0 Bo 0\n',
    DEALT + 'next_dealer Ann\nnext_dealer Ann\n',
    DEALT + 'result void\nfinal Ann 0 Bo 0\nresult void\n',
    DEALT + 'result void\nfinal Ann 0 Bo 0\nscore Ann 0 Bo 0\n',
    HEAD + 'result void\n[Dealer "Bo"]\n',
    'score Ann 0 Bo 0\n' + HEAD,
    DEALT + 'result void # why\nscore Ann 0 Bo 0\t\nnext_dealer\tAnn\n',
    DEALT + '[Deal "Ann" "3C"]\n',
    DEALT + '[Upcard "3C"]\n[Upcard "4C"]\n',
    DEALT + '[Stock "3C"]\n[Stock "4C"]\n',
    DEALT + '[Dealer "Ann"]\n[Deal "Ann" "3C"]\n',
    HEAD + '[Hand "1"]\nAnn pass\n[Dealer "Bo"]\n',
    HEAD + '[Hand "1"]\n[Hand "2"]\n[Dealer "Bo"]\n',
    HEAD + '[Upcard "3C"]\n[Stock "4C"]\n[Deal "Ann" "5C"]\n[Dealer "Bo"]\n[Dealer "Ann"]\n',
    '[Dealer "Bo"]\n[Deal "Ann" "AC 2C"]\n' + HEAD,
    '[Stock "4C"]\n' + HEAD,
    '\n# only a comment\n[Hand "1"]\n' + HEAD,
]


@pytest.mark.parametrize("text", TAG_ORDERS)
def test_they_agree_wherever_a_tag_or_claim_stands(text: str) -> None:
    assert_read_alike(text)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, max_size=14), st.sampled_from(["", HEAD, DEALT]))
def test_they_agree_on_any_order_of_lines(lines: list[str], head: str) -> None:
    assert_read_alike(head + "\n".join(lines) + "\n")


def test_the_first_tier_reads_every_line_the_formatter_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without this the comparisons here would compare the grammar with itself."""
    def no_grammar(self: _TextReader, kind: str, text: str) -> None:
        raise AssertionError(f"the grammar read {text!r}")

    monkeypatch.setattr(_TextReader, "parse", no_grammar)
    for seed in range(3):
        for text in games(seed):
            read_text(text)
            read_text(text)


def test_the_memo_stays_bounded_whatever_the_lines() -> None:
    _PLAIN_LINES.clear()
    for points in range(text_module._PLAIN_LINES_MAX + 50):
        read_text(DEALT + f"Ann draw ?? discard TC\nresult knock Ann {points}\nscore Ann {points} Bo 0\n")
        assert len(_PLAIN_LINES) <= text_module._PLAIN_LINES_MAX


def spread_lines() -> list[str]:
    """Knock and defence lines of random games, the lines whose melds the fast path reads."""
    lines = [
        line for text in games(0) + games(1) for line in text.splitlines()
        if not line.startswith("result")
        and any(f" {word} " in line for word in ("knock", "gin", "big_gin", "defend"))
    ]
    assert len(lines) > 20
    return lines


SPREADS = spread_lines()
_SPREAD_PIECES = st.sampled_from(
    ["[", "]", " ", "\t", "  ", "3D", "10d", "3D]", "[3D", ">", "2", "deadwood", ""]
)
SPREAD_LINE = st.tuples(st.sampled_from(SPREADS), st.lists(st.tuples(st.integers(0, 80), _SPREAD_PIECES,
                                                                      st.integers(0, 2)), max_size=3))
"""A knock or defence line with up to three cuts, each taking 0 to 2 characters out and putting a piece in"""


def reader_on_line_4() -> _TextReader:
    """A reader past a record's first lines, where an event line may stand."""
    reader = _TextReader("x", 0)
    reader.line = 4
    return reader


def edited(line: str, edits: list[tuple[int, str, int]]) -> str:
    for at, piece, cut in edits:
        line = line[:at] + piece + line[at + cut :]
    return line


@settings(max_examples=1500, deadline=None)
@given(SPREAD_LINE)
def test_a_spread_the_first_tier_reads_is_the_grammars(case: tuple[str, list[tuple[int, str, int]]]) -> None:
    line = edited(*case)
    reader = reader_on_line_4()
    fast = reader.plain_event(line)
    if fast is not None:
        assert repr(fast) == repr(reader.parsed_event(line)), line


@pytest.mark.parametrize("line", SPREADS)
def test_one_match_reads_a_spread_as_the_grammar(line: str) -> None:
    reader = reader_on_line_4()
    assert repr(reader.plain_event(line)) == repr(reader.parsed_event(line))


CARD_PIECES = st.sampled_from(["TC", "3S", "AD", "KH", "tc", "10C", "T", "C", " ", "  ", "\t", "X", "\xa0"])


@settings(max_examples=500, deadline=None)
@given(st.lists(CARD_PIECES, max_size=12).map("".join))
def test_plain_cards_read_as_the_tag_reader_reads_them(text: str) -> None:
    plain = _plain_cards(text)
    if plain is not None:
        assert plain == _TextReader("x", 0).cards(RecordToken(0, text))


def test_plain_cards_take_every_card_and_nothing_unusual() -> None:
    assert _plain_cards(" ".join(CARD_NAMES)) == tuple(range(52))
    assert _plain_cards("KS KS") == (51, 51)  # the referee reports a repeat
    for text in ["", "TC ", " TC", "TC  3S", "tc", "10C", "TC\t3S", "TX", "T"]:
        assert _plain_cards(text) is None, text


def test_every_space_of_a_spread_counts() -> None:
    """Each space of a knock or defence taken out, doubled or made a tab: the first tier leaves
    the line to the grammar, or reads it as the grammar does."""
    reader = reader_on_line_4()
    left = 0
    for line in SPREADS[:30]:
        for at in (i for i, ch in enumerate(line) if ch == " "):
            for space in ("", "  ", "\t"):
                variant = line[:at] + space + line[at + 1 :]
                fast = reader.plain_event(variant)
                if fast is None:
                    left += 1
                else:
                    assert repr(fast) == repr(reader.parsed_event(variant)), variant
    assert left > 100


def turn_lines() -> list[str]:
    """The draw and discard lines of random games, the lines ``plain_turn`` reads."""
    lines = [
        line for text in games(0) + games(1) for line in text.splitlines()
        if " discard " in line and line.split()[1] in ("draw", "take") and len(line.split()) == 5
    ]
    assert len(lines) > 20
    return lines


TURNS = [*turn_lines(), "Ann take ?? discard TC", "Bo draw ?? discard 9D", "Ann draw JC discard JC"]
_TURN_PIECES = st.sampled_from(
    [" ", "\t", "  ", "3D", "10d", "??", "?", "x", '"', "#", "discard", "draw", "take", "result", "final",
     "score", "pass", "knock", "\xa0", "é", "-", "'", "\r", ""]
)
TURN_LINE = st.tuples(st.sampled_from(TURNS), st.lists(st.tuples(st.integers(0, 30), _TURN_PIECES,
                                                                 st.integers(0, 3)), max_size=3))
"""A draw and discard line with up to three cuts, each taking 0 to 3 characters out and putting a piece in"""


@settings(max_examples=1500, deadline=None)
@given(TURN_LINE)
def test_a_turn_the_one_match_reads_is_the_grammars(case: tuple[str, list[tuple[int, str, int]]]) -> None:
    line = edited(*case)
    reader = reader_on_line_4()
    fast = reader.plain_event(line)
    if fast is not None:
        assert repr(fast) == repr(reader.parsed_event(line)), line


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(TURN_LINE.map(lambda case: edited(*case)), LINE), max_size=10),
       st.sampled_from(["", HEAD, DEALT, DEALT + "result void\n"]))
def test_turns_read_alike_wherever_they_stand(lines: list[str], head: str) -> None:
    assert_read_alike(head + "\n".join(lines) + "\n")


def test_turns_are_read_in_one_match() -> None:
    """Every draw and discard of the games (else the comparisons above compare the checked path
    with itself), and a line the format takes otherwise is left to it."""
    reader = reader_on_line_4()
    assert all(reader.plain_event(line) is not None for line in TURNS)
    for line in ["Ann  take JC discard TC", "Ann take JC discard TC ", " Ann take JC discard TC",
                 "Ann take JC\tdiscard TC", '"Ann" take JC discard TC', "result take JC discard TC",
                 "Ann take JC discard TC # c", "Ann take 10C discard TC", "pass take JC discard TC"]:
        assert reader.plain_event(line) is None, line
