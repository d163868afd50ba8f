"""EAAI framework verbose logs: 300 seeded games of its SimpleGinRummyPlayer (tests/data/eaai,
made by tools/eaai/Driver.java), every hand read and every recorded score ginref's under the
``eaai`` rules; the first-fit layoffs named; every line kind; a bad line spoils one game."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import GameRecord, read_records
from ginref.records.eaai import decode_log
from ginref.records.names import tournament_players
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


def _first_hand_line(lines: list[str]) -> int:
    return next(i for i, t in enumerate(lines) if re.match(r"Player \d has \[.*\] with \d+ deadwood\.$", t))


def test_the_per_turn_hand_lines_show_the_cards_the_moves_leave() -> None:
    lines = _lines()
    at = _first_hand_line(lines)
    line = lines[at]
    lines[at] = line.replace("[[", "[[2C, ", 1) if "[[" in line else line.replace("[", "[2C, ", 1)
    wrong = r"hand shown here is not the cards the moves leave it|names 2C twice"
    with pytest.raises(RecordError, match=wrong) as info:
        decode_log("\n".join(lines))
    assert info.value.line == at + 1


def test_a_wrong_per_turn_deadwood_is_a_finding_not_an_unreadable_game(tmp_path: Path) -> None:
    """The hand line's deadwood is the framework's claim: read, and the referee finds it wrong
    (deadwood_misdeclared, at the turn), in the log and in its .gin and JSON forms."""
    lines = _lines()
    at = _first_hand_line(lines)
    said = int(re.search(r"with (\d+) deadwood", lines[at])[1])  # type: ignore[index]
    lines[at] = lines[at].replace(f"with {said} deadwood", f"with {said + 1} deadwood")
    record = decode_log("\n".join(lines))
    turn = next(e for e in record.hands[0].events if getattr(e, "least_deadwood", None) == said + 1)
    verdict = adjudicate(record)
    assert [f.code for f in verdict.errors] == ["deadwood_misdeclared"]
    found = verdict.errors[0]
    assert found.place == turn.place and found.player == turn.player  # type: ignore[union-attr]
    assert re.fullmatch(rf"Player \d's hand after this turn is said to hold {said + 1} deadwood; at best it "
                        rf"holds {said} \(.*\)", found.message)
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    for form in ("gin", "json"):
        out = tmp_path / f"game.{form}"
        assert CliRunner().invoke(cli, ["convert", str(path), "-o", str(out)]).exit_code == 0
        again = list(read_records(out))
        assert again == [record]
        assert [f.code for f in adjudicate(again[0]).errors] == ["deadwood_misdeclared"]  # type: ignore[arg-type]


def test_a_hand_line_out_of_its_place_is_unreadable() -> None:
    lines = _lines()
    at = _first_hand_line(lines)
    lines.insert(at + 1, lines[at])
    with pytest.raises(RecordError, match="not after a discard of its own") as info:
        decode_log("\n".join(lines))
    assert info.value.line == at + 2


@pytest.mark.parametrize("line", [
    "Player 1 has [AD] with 1 deadwood.",
    "Player 1 has [[AD, 2D, 3D]] with 0 deadwood.",
])
def test_a_hand_line_of_a_player_not_dealt_is_unreadable_there(tmp_path: Path, line: str) -> None:
    """Only player 0 is dealt: a line about player 1's hand names its place, never a crash."""
    path = tmp_path / "short.log"
    path.write_text(f"Player 0 is dealt [AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, TC].\n{line}\n")
    items = list(read_records(path))
    assert len(items) == 1 and isinstance(items[0], RecordError)
    assert str(items[0]) == f"{path}:2:1: Player 1 has not been dealt in this hand"
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 3 and "internal error" not in result.output


def _tournament(folder: Path, names: list[str]) -> None:
    for name, game in zip(names, FIRST_FIT.read_text().split(" wins.\n")[:3], strict=True):
        (folder / name).write_text(game + " wins.\n")


def test_tournament_file_names_name_the_agents_and_standings_rank_them(tmp_path: Path) -> None:
    """``M-XvY-gameG.txt``: X played Player 0, Y Player 1. The three games were won by Player 1,
    Player 1 and Player 0: with the seats swapped in the second, Simple won two and Keen one."""
    _tournament(tmp_path, ["1-SimplevKeen-game1.txt", "1-KeenvSimple-game2.txt", "2-SimplevKeen-game1.txt"])
    records = list(read_records(tmp_path / "1-KeenvSimple-game2.txt"))
    assert isinstance(records[0], GameRecord)
    assert records[0].players == ("Keen", "Simple") and dict(records[0].tags)["Winner"] == "Simple"
    result = CliRunner().invoke(cli, ["report", str(tmp_path), "--standings", "--json"])
    assert result.exit_code == 0, result.output
    standings = json.loads(result.output)["standings"]
    assert [(p["player"], p["games"], p["wins"]) for p in standings] == [("Simple", 3, 2), ("Keen", 3, 1)]


@pytest.mark.parametrize(("name", "agents"), [
    ("1-SimplevKeen-game1.txt", ("Simple", "Keen")),
    ("logs/12-my_botvvermouth-game40.txt.gz", ("my_bot", "vermouth")),
    ("3-0v1-game2.txt", ("0", "1")),
    ("1-SimplevSimple-game1.txt", None),
    ("SimplevKeen.txt", None),
    ("1-SimplevKeen-game1.log", None),
])
def test_tournament_players(name: str, agents: tuple[str, str] | None) -> None:
    assert tournament_players(name) == agents


def test_least_deadwood_reads_alike_by_every_tier() -> None:
    """The claim in .gin (the first tier and the grammar) and in JSON (the wire fast path and the
    checked path): the same records, place for place where the tiers give places."""
    from ginref.records import format_jsonl, format_text
    from ginref.records import jsonform as form
    from ginref.records.text import read_text, read_text_by_grammar

    for record in list(read_records(FIRST_FIT))[:2]:
        assert isinstance(record, GameRecord)
        text = format_text(record)
        assert " least_deadwood " in text
        assert read_text(text) == read_text_by_grammar(text) == record
        line = format_jsonl(record).strip()
        assert '"least_deadwood":' in line
        fast = form._fast_records(form._WIRE_DECODER, line, "twins", 5, 3)
        assert fast is not None
        slow = form._checked(form.load_json(line, "twins", 3), "twins", 5, 3)
        assert list(fast) == [slow] == [record] and repr(list(fast)) == repr([slow])
