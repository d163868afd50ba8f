"""EAAI framework verbose logs: 300 seeded games of its SimpleGinRummyPlayer (tests/data/eaai,
made by tools/eaai/Driver.java), every hand read and every recorded score ginref's under the
``eaai`` rules; the first-fit layoffs named; every line kind; a bad line spoils one game."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import GameRecord, read_records
from ginref.records.eaai import decode_log
from ginref.referee import adjudicate
from ginref.rules import find_rules

DATA = Path(__file__).resolve().parents[1] / "data" / "eaai"
GAMES, FIRST_FIT = DATA / "simple-300.log.gz", DATA.parents[2] / "samples" / "research" / "eaai-games.txt"


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    with gzip.open(GAMES) as stream:
        items = list(read_records(stream, source="simple-300.log"))
    assert not [i for i in items if isinstance(i, RecordError)]
    return items  # type: ignore[return-value]


def test_every_hand_of_the_300_games_is_read(games: list[GameRecord]) -> None:
    with gzip.open(GAMES, "rt") as stream:
        text = stream.read()
    assert len(games) == 300 == text.count(" wins.\n")
    assert sum(len(g.hands) for g in games) == 3133 == text.count("Player\tScore\n")
    assert {g.rules for g in games} == {"eaai"}


def test_every_recorded_score_is_ginrefs_under_the_eaai_rules(games: list[GameRecord]) -> None:
    found: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for game in games:
        verdict = adjudicate(game)
        assert verdict.clean and verdict.game_over, [str(f) for f in verdict.findings]
        assert verdict.winner == dict(game.tags)["Winner"]
        assert dict(verdict.final_totals) == dict(game.final_totals or ())
        found.update(f.code for f in verdict.findings)
        outcomes.update(hand.outcome for hand in verdict.hands)
    assert found == {"missed_layoff": 44}
    assert outcomes == {"knock": 2949, "undercut": 119, "gin": 62, "void": 3}


NAMED = [(408, "Player 1", 1), (1173, "Player 1", 2), (1971, "Player 1", 6)]
"""where each is named (the defender's melds line), whose defence, and the deadwood it cost"""


def test_the_first_fit_layoffs_are_named() -> None:
    """Three games (seeds 624, 1729, 2708) where the engine laid a card onto the first meld it
    fits and a second card could not follow; the defender's own melds were not at fault."""
    records = list(read_records(FIRST_FIT))
    named = []
    for record in records:
        assert isinstance(record, GameRecord)
        for f in adjudicate(record).findings:
            if f.code == "first_fit_layoff":
                named.append((f.place.line, f.player, f.points))
                assert "first meld it fits" in f.message
    assert named == NAMED


def test_the_preset_is_the_frameworks() -> None:
    """GinRummyUtil: GOAL_SCORE 100, GIN_BONUS 25, UNDERCUT_BONUS 25, MAX_DEADWOOD 10; the
    starter alternates after a scored hand only; a tie is an undercut; no bonuses at the end."""
    rules = find_rules("eaai")
    assert (rules.game_target, rules.gin_bonus, rules.undercut_bonus, rules.knock_limit) == (100, 25, 25, 10)
    assert (rules.next_dealer, rules.void_hand_dealer, rules.tie_policy) == ("alternate", "same", "undercut")
    assert (rules.game_bonus, rules.box_bonus, rules.shutout, rules.big_gin_bonus) == (0, 0, "none", None)
    assert (rules.stock_floor, rules.stock_end, rules.illegal_knock) == (2, "void", "forfeit")


FIRST_GAME = FIRST_FIT.read_text().split(" wins.\n")[0] + " wins.\n"


def _lines() -> list[str]:
    return FIRST_GAME.splitlines()


def test_a_game_reads_as_its_lines_say() -> None:
    record = decode_log(FIRST_GAME, "game.txt")
    hand = record.hands[0]
    assert record.players == ("Player 0", "Player 1")
    assert (hand.dealer, len(hand.events)) == ("Player 0", 8)
    assert dict(record.tags)["Winner"] == "Player 1"
    assert record.final_totals == record.hands[-1].score_after


def _cut_with(line: str) -> str:
    """The first game's first hand to its first discard, then ``line``."""
    lines = _lines()
    first_discard = next(i for i, text in enumerate(lines) if " discards " in text)
    return "\n".join([*lines[:first_discard], line]) + "\n"


@pytest.mark.parametrize("forfeit", [
    "Player 1 discards TC illegally and forfeits.",
    "Player 1 melds [[2S, 3S, 4S]] illegally and forfeits.",
    "Player 1 melds [[AS, 2S, 3S]] with greater than 40 deadwood and forfeits.",
])
def test_a_forfeit_ends_the_game_unfinished(forfeit: str) -> None:
    text = _cut_with(forfeit)
    if "melds" in forfeit:
        text = text.replace(forfeit, "Player 1 discards TC.\n" + forfeit)
    record = decode_log(text)
    claim = record.hands[-1].result
    assert claim is not None and (claim.outcome, claim.reason, claim.stopped_by) == (
        "unfinished", "forfeit", "Player 1")
    assert record.final_totals is None


def test_a_cancelled_hand_is_void_and_keeps_the_starter() -> None:
    with gzip.open(GAMES, "rt") as stream:
        lines = stream.read().splitlines()
    at = next(i for i, t in enumerate(lines) if t.startswith("The draw pile was reduced"))
    start = max(i for i in range(at) if lines[i].startswith("Player 0 is dealt"))
    record = decode_log("\n".join(lines[start:at + 4]))
    claim = record.hands[0].result
    assert claim is not None and claim.outcome == "void"
    assert adjudicate(record).hands[0].outcome == "void"


def test_a_line_that_cannot_be_read_spoils_only_its_game(tmp_path: Path) -> None:
    text = FIRST_FIT.read_text()
    bad = text.replace("Player 1 starts.", "Player 1 starts now.", 1)
    path = tmp_path / "two.log"
    path.write_text(bad)
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["RecordError", "GameRecord", "GameRecord"]
    assert re.search(r"two\.log:3:1: not a line of an EAAI log: 'Player 1 starts now\.'$", str(items[0]))


def test_one_game_a_file_in_a_folder_is_read_by_content(tmp_path: Path) -> None:
    """The tournament software's ``M-XvY-gameG.txt``: found in a folder walk by its first line."""
    for number, game in enumerate(FIRST_FIT.read_text().split(" wins.\n")[:3], 1):
        (tmp_path / f"1-0v1-game{number}.txt").write_text(game + " wins.\n")
    (tmp_path / "notes.txt").write_text("not a log\n")
    result = CliRunner().invoke(cli, ["verify", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "clean            3" in result.output
    assert "notes.txt" in result.output


@pytest.mark.parametrize("form", ["gin", "json"])
def test_convert_loses_nothing(tmp_path: Path, form: str) -> None:
    out = tmp_path / f"games.{form}"
    args = ["convert", str(FIRST_FIT), "--from", "eaai", "--to", form, "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert list(read_records(out)) == list(read_records(FIRST_FIT))


def test_verify_and_report_show_the_first_fit_layoffs() -> None:
    result = CliRunner().invoke(cli, ["verify", str(FIRST_FIT), "--from", "eaai"])
    assert result.exit_code == 0, result.output
    assert re.search(r"first_fit_layoff +3", result.output)
    result = CliRunner().invoke(cli, ["report", str(FIRST_FIT), "--from", "eaai"])
    assert result.exit_code == 0, result.output
    # layoffs missed, the points they cost, and the first-fit ones among them
    assert re.search(r"Player 1 +0 +0 +3 +9 +3 +0", result.output)


@pytest.mark.parametrize(("change", "message"), [
    (lambda line: re.sub(r"with (\d+) deadwood", lambda m: f"with {int(m[1]) + 1} deadwood", line),
     r"hand is said to hold \d+ deadwood; at best it holds \d+"),
    (lambda line: line.replace("[[", "[[2C, ", 1) if "[[" in line else line.replace("[", "[2C, ", 1),
     "hand shown here is not the cards the moves leave it|names 2C twice"),
])
def test_the_per_turn_hand_lines_are_checked(change: object, message: str) -> None:
    assert callable(change)
    lines = _lines()
    at = next(i for i, t in enumerate(lines) if re.match(r"Player \d has \[.*\] with \d+ deadwood\.$", t))
    lines[at] = change(lines[at])
    with pytest.raises(RecordError, match=message) as info:
        decode_log("\n".join(lines))
    assert info.value.line == at + 1
