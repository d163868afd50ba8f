"""RLCard move sheets: 200 seeded hands written by tools/rlcard_games.py (tests/data/rlcard),
every hand read and clean under the ``rlcard`` rules, payoffs checked by the referee, the deal
rebuilt as RLCard deals it (checked against rlcard itself when it is installed); 300 more as
a script prints them (``#`` lines, blank lines, the payoffs as ``print`` writes them)."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from ginref.cards import card_name
from ginref.cli import cli
from ginref.errors import RecordError
from ginref.notation import read_card_list
from ginref.records import GameRecord, read_records
from ginref.records.rlcard import dealt_from, decode_sheet
from ginref.referee import adjudicate

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "tests" / "data" / "rlcard" / "greedy-200.txt"
SAMPLE = ROOT / "samples" / "research" / "rlcard-sheets.txt"


@pytest.fixture(scope="module")
def hands() -> list[GameRecord]:
    items = list(read_records(SHEETS))
    assert not [i for i in items if isinstance(i, RecordError)]
    return items  # type: ignore[return-value]


def test_every_hand_is_read_and_clean(hands: list[GameRecord]) -> None:
    assert len(hands) == 200 == SHEETS.read_text().count(" deal shuffled_deck=")
    outcomes: Counter[str] = Counter()
    for record in hands:
        verdict = adjudicate(record)
        assert verdict.clean and not verdict.findings, [str(f) for f in verdict.findings]
        outcomes[verdict.hands[0].outcome] += 1
        assert dict(record.tags)["Payoffs"]
    assert outcomes == {"knock": 94, "undercut": 27, "gin": 29, "void": 50}


def test_the_wall_lets_the_last_discard_be_taken(hands: list[GameRecord]) -> None:
    """RLCard's wall: with two stock cards left a player may take the discard and play on."""
    taken_at_wall = 0
    for record in hands:
        verdict = adjudicate(record)
        events = record.hands[0].events
        stock_draws = sum(1 for e in events if getattr(e, "source", None) == "stock")
        if stock_draws == 31 - 2:
            last_stock = max(i for i, e in enumerate(events) if getattr(e, "source", None) == "stock")
            taken_at_wall += any(getattr(e, "source", None) == "discard" for e in events[last_stock + 1:])
        assert verdict.clean
    assert taken_at_wall > 0


def test_the_deal_is_rebuilt_from_the_end_of_the_deck() -> None:
    deck = tuple(range(52))
    eleven, ten, stock = dealt_from(deck)
    assert eleven == tuple(range(51, 40, -1)) and ten == tuple(range(40, 30, -1))
    assert stock == tuple(range(30, -1, -1))


def test_the_deal_is_rlcards() -> None:
    rlcard = pytest.importorskip("rlcard")
    for seed in range(40):
        env = rlcard.make("gin-rummy", config={"seed": seed})
        env.game.init_game()
        game = env.game
        shuffled = ", ".join(str(c) for c in game.round.dealer.shuffled_deck)
        deck = read_card_list(f"[{shuffled}]", "", 1, 1)
        eleven, ten, stock = dealt_from(deck)
        dealer = game.round.dealer_id
        assert [card_name(c) for c in eleven] == [str(c) for c in game.round.players[1 - dealer].hand]
        assert [card_name(c) for c in ten] == [str(c) for c in game.round.players[dealer].hand]
        assert [card_name(c) for c in stock] == [str(c) for c in reversed(game.round.dealer.stock_pile)]


def test_the_fixtures_are_what_the_tool_writes() -> None:
    pytest.importorskip("rlcard")
    import subprocess
    import sys

    run = subprocess.run([sys.executable, str(ROOT / "tools" / "rlcard_games.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr


FIRST = SHEETS.read_text().split("\n")
FIRST_HAND = "\n".join(FIRST[: FIRST.index(next(t for t in FIRST if t.startswith("payoffs="))) + 1])


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("payoffs=[", "payoffs=[0.5, ", 1).replace(", -", " ,-", 1),
     "payoff"),
    (lambda t: t.replace(" deal shuffled_deck=[", " deal shuffled_deck=[2C ", 1), "the list names 2C twice"),
    (lambda t: t.replace("\nS ", "\nS moonwalk ", 1), "not a line of an RLCard move sheet"),
])
def test_a_bad_sheet_is_one_unreadable_record(change: object, message: str) -> None:
    assert callable(change)
    with pytest.raises(RecordError, match=message):
        decode_sheet(change(FIRST_HAND))


@pytest.mark.parametrize(("payoffs", "said"), [
    ("payoffs=[0.5, -0.1]", "N 0.5 and S -0.1"),
    ("payoffs [-0.2, 0.2]", "N -0.2 and S 0.2"),
    ("payoffs [-0.21  1.  ]", "N -0.21 and S 1"),
])
def test_a_wrong_payoff_is_a_finding_not_an_unreadable_sheet(tmp_path: Path, payoffs: str, said: str) -> None:
    """The payoffs are a claim: read as written, compared by the referee (a wrong score, exit 1)."""
    lines = FIRST_HAND.split("\n")
    lines[-1] = payoffs
    record = decode_sheet("\n".join(lines), "x.txt")
    verdict = adjudicate(record)
    assert [(f.code, f.place.line) for f in verdict.findings] == [("wrong_score", 1)]
    assert verdict.findings[0].message == (
        f"the record's payoffs are {said}; RLCard's rewards for this hand are N -0.2 and S 1")
    assert verdict.hands[0].outcome == "gin"
    path = tmp_path / "x.txt"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert "error wrong_score: the record's payoffs are" in result.output
    out = tmp_path / "x.gin"  # the claim goes with the record, and is ruled the same from .gin
    assert CliRunner().invoke(cli, ["convert", str(path), "-o", str(out)]).exit_code == 0
    assert [f.code for f in adjudicate(next(iter(read_records(out)))).findings] == ["wrong_score"]  # type: ignore[arg-type]


def test_payoffs_that_are_not_numbers_are_a_wrong_score() -> None:
    record = decode_sheet(FIRST_HAND)
    tags = tuple((k, "lots none" if k == "Payoffs" else v) for k, v in record.tags)
    verdict = adjudicate(msgspec.structs.replace(record, tags=tags))
    assert [f.message for f in verdict.findings] == [
        "the record's payoffs are 'lots none', which are not two numbers; RLCard's rewards for this hand "
        "are N -0.2 and S 1"]


def test_a_bad_hand_spoils_only_itself(tmp_path: Path) -> None:
    text = SHEETS.read_text().split("\n")
    second = [i for i, t in enumerate(text) if " deal shuffled_deck=" in t][1]
    text[second + 1] = "N jump"
    path = tmp_path / "sheets.txt"
    path.write_text("\n".join(text))
    items = list(read_records(path))
    assert len(items) == 200
    assert isinstance(items[1], RecordError) and items[1].line == second + 2
    assert all(isinstance(i, GameRecord) for i in items[:1] + items[2:])


def test_the_sample_and_convert_lose_nothing(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "hands.gin"
    args = ["convert", str(SAMPLE), "--from", "rlcard", "--to", "gin", "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert list(read_records(out)) == list(read_records(SAMPLE))
    assert [adjudicate(r).hands[0].outcome for r in read_records(out)  # type: ignore[arg-type]
            ] == ["gin", "void", "knock", "undercut"]


def test_a_spoilt_deal_line_is_a_record_of_its_own(tmp_path: Path) -> None:
    text = SHEETS.read_text().split("\n")
    second = [i for i, t in enumerate(text) if " deal shuffled_deck=" in t][1]
    text[second] = text[second].replace("shuffled_deck", "shuffled deck")
    path = tmp_path / "sheets.txt"
    path.write_text("\n".join(text))
    items = list(read_records(path))
    assert [type(i).__name__ for i in items[:3]] == ["GameRecord", "RecordError", "GameRecord"]
    assert len(items) == 200 and items[1].line == second + 1  # type: ignore[union-attr]


PRINTED = ROOT / "tests" / "data" / "rlcard" / "printed-300.txt.gz"


def test_300_printed_hands_read_and_rule_as_rlcard_recorded_them() -> None:
    """``#`` lines and blank lines between the sheets, the payoffs in print's three forms: every
    hand is read, and the referee finds RLCard's payoffs (and everything else) as recorded."""
    items = list(read_records(PRINTED))
    assert not [str(i) for i in items if isinstance(i, RecordError)]
    assert len(items) == 300
    with gzip.open(PRINTED, "rt") as stream:
        text = stream.read()
    payoffs = [line for line in text.splitlines() if line.startswith("payoffs")]
    forms = Counter(re.sub(r"[-0-9.]+", "9", line) for line in payoffs)
    assert sum(forms.values()) == 300 and text.count("\n#") == 300
    assert {"payoffs [9, 9]", "payoffs=[9, 9]"} <= set(forms) and any("  " in form for form in forms)
    outcomes: Counter[str] = Counter()
    for record in items:
        assert isinstance(record, GameRecord)
        verdict = adjudicate(record)
        assert not verdict.findings, [str(f) for f in verdict.findings]
        assert len(dict(record.tags)["Payoffs"].split()) == 2
        outcomes[verdict.hands[0].outcome] += 1
    assert set(outcomes) == {"knock", "undercut", "gin", "void"}


def test_verify_reads_the_printed_hands_from_a_pipe() -> None:
    with gzip.open(PRINTED, "rb") as stream:
        data = stream.read()
    result = CliRunner().invoke(cli, ["verify", "-"], input=data)
    assert result.exit_code == 0, result.output
    assert re.search(r"clean +300", result.output)


def _commented(hand: str) -> str:
    lines = hand.split("\n")
    lines.insert(3, "# a comment inside the sheet")
    return "# seed 2026, greedy players\n\n" + "\n".join(lines) + "\n\n# the end\n"


def test_a_comment_before_a_sheet_does_not_make_it_text(tmp_path: Path) -> None:
    """Sniffed by the first line after the comments, by a name that says nothing, on stdin and
    in a folder walk; the record starts at its deal line."""
    path = tmp_path / "run.txt"
    path.write_text(_commented(FIRST_HAND))
    items = list(read_records(path))
    assert len(items) == 1 and isinstance(items[0], GameRecord), items
    assert items[0].place.line == 3
    assert items[0] == decode_sheet(FIRST_HAND)
    for args, data in ((["verify", "-"], _commented(FIRST_HAND)), (["verify", str(tmp_path)], None)):
        result = CliRunner().invoke(cli, args, input=data)
        assert result.exit_code == 0, result.output
        assert re.search(r"clean +1", result.output)


def test_a_commented_text_record_is_still_text(tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text("# a hand\n" + (ROOT / "samples" / "records" / "knock-layoffs.gin").read_text())
    items = list(read_records(path))
    assert len(items) == 1 and isinstance(items[0], GameRecord) and items[0].rules == "standard"


@pytest.mark.parametrize(("line", "claimed"), [
    ("payoffs=[-0.2, 1]", "-0.2 1"),
    ("payoffs [-0.2, 1]", "-0.2 1"),
    ("payoffs [-0.2  1. ]", "-0.2 1."),
    ("payoffs=[-0.2  1. ]", "-0.2 1."),
    ("payoffs: [-2.e-01, 1.e+00]", "-2.e-01 1.e+00"),
    ("  payoffs [ -0.2 ,1 ]", "-0.2 1"),
])
def test_the_payoffs_as_people_print_them(line: str, claimed: str) -> None:
    lines = FIRST_HAND.split("\n")
    lines[-1] = line
    record = decode_sheet("\n".join(lines))
    assert dict(record.tags)["Payoffs"] == claimed
    assert not adjudicate(record).findings
