"""``ginref game``: the sample sheets' exact totals, JSON, the chart, exit codes and error lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli

SHEETS = Path(__file__).resolve().parents[2] / "samples" / "sheets"
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["game", *args], input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def sheet(name: str) -> str:
    return str(SHEETS / name)


@pytest.mark.parametrize(
    ("name", "hand_totals", "final_totals", "over", "winner"),
    [
        ("standard-worked.sheet", {"Ann": 123, "Bo": 53}, {"Ann": 323, "Bo": 93}, True, "Ann"),
        ("tallynight.sheet", {"Ana": 47, "Ben": 71}, {"Ana": 47, "Ben": 71}, False, None),
    ],
)
def test_json_totals_of_the_samples(
    name: str, hand_totals: dict[str, int], final_totals: dict[str, int], over: bool, winner: str | None
) -> None:
    code, out, err = run(sheet(name), "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["hand_totals"] == hand_totals
    assert document["final_totals"] == final_totals
    assert (document["game_over"], document["winner"]) == (over, winner)
    assert document["errors"] == []
    assert document["source"] == sheet(name)


def test_json_running_totals_and_dealers() -> None:
    code, out, _ = run(sheet("standard-worked.sheet"), "--json")
    assert code == 0
    hands = json.loads(out)["hands"]
    assert [h["totals"]["Ann"] for h in hands] == [9, 22, 22, 41, 41, 73, 123]
    assert [h["totals"]["Bo"] for h in hands] == [0, 0, 42, 42, 53, 53, 53]
    assert [h["next_dealer"] for h in hands] == ["Ann", "Ann", "Bo", "Ann", "Bo", "Ann", "Ann"]
    assert [h["points"] for h in hands] == [9, 13, 42, 19, 11, 32, 50]


def test_text_shows_hands_bonuses_and_result() -> None:
    code, out, err = run(sheet("standard-worked.sheet"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["hand", "winner", "outcome", "points", "Ann", "Bo", "next", "dealer"]
    assert lines[2].split() == ["1", "Ann", "knock", "9", "9", "0", "Ann"]
    assert lines[8].split() == ["7", "Ann", "gin", "50", "123", "53", "Ann"]
    rows = {line.split("  ")[0]: line.split() for line in lines}
    assert rows["game bonus"] == ["game", "bonus", "100"]
    assert "100 (5 boxes x 20)" in out and "40 (2 boxes x 20)" in out
    assert rows["final"] == ["final", "323", "93"]
    assert "Ann wins the game: Ann 323, Bo 93, margin 230" in out


def test_text_of_an_unfinished_game() -> None:
    code, out, _ = run(sheet("tallynight.sheet"))
    assert code == 0
    assert "game not over (target 100): Ana 47, Ben 71; Ben leads by 24" in out
    assert "rules: hoyle" in out


def test_hollywood_sample() -> None:
    code, out, err = run(sheet("hollywood.sheet"), "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert [g["final_totals"] for g in document["games"]] == [
        {"Ann": 365, "Bo": 0}, {"Ann": 261, "Bo": 137}, {"Ann": 109, "Bo": 295},
    ]
    assert document["match_totals"] == {"Ann": 735, "Bo": 432}
    assert (document["match_over"], document["winner"], document["margin"]) == (True, "Ann", 303)
    code, out, _ = run(sheet("hollywood.sheet"))
    assert "Ann wins the match: Ann 735, Bo 432, margin 303" in out
    assert "105-0*" in out


def test_hollywood_flag_scores_any_sheet_as_three_games() -> None:
    code, out, _ = run(sheet("standard-worked.sheet"), "--hollywood", "--json")
    assert code == 0
    assert len(json.loads(out)["games"]) == 3


def test_chart_draws_every_hand() -> None:
    code, out, _ = run(sheet("standard-worked.sheet"), "--chart")
    assert code == 0
    chart = out[out.index("race (| = 100, full bar = 123)"):].splitlines()
    bars = [line for line in chart[2:] if line.strip()]
    assert len(bars) == 14  # 7 hands x 2 players
    assert bars[-2].split() == ["7", "Ann", "#" * 40, "123"]
    assert bars[-1].split() == ["Bo", "#" * 17, "|", "53"]  # 53 of 123 on 40 columns


def test_chart_with_json_is_the_chart_as_data() -> None:
    code, out, _ = run(sheet("tallynight.sheet"), "--chart", "--json")
    assert code == 0
    document = json.loads(out)
    chart = document["chart"]
    assert (chart["target"], chart["top"]) == (100, 100)
    assert [row["totals"] for row in chart["games"][0]] == [h["totals"] for h in document["hands"]]
    assert "chart" not in json.loads(run(sheet("tallynight.sheet"), "--json")[1])


def test_a_sheets_rules_line_wins_unless_overridden(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(sheet("tallynight.sheet"), "--rules", "standard", "--json")
    assert json.loads(out)["rules"] == "hoyle"  # the sheet says rules: tallynight
    monkeypatch.setenv("GINREF_RULES", "standard")
    code, out, _ = run(sheet("tallynight.sheet"), "--json")
    assert json.loads(out)["rules"] == "hoyle"
    bare = run("-", "--players", "Ann,Bo", "--json", stdin="Ann gin 20\n")[1]  # a sheet naming no rules
    assert json.loads(bare)["rules"] == "standard"
    monkeypatch.delenv("GINREF_RULES")
    code, out, _ = run(sheet("tallynight.sheet"), "--rules", "standard", "--override-rules", "--json")
    document = json.loads(out)
    # gin 18 + 20 and undercut 3 + 10 under standard
    assert document["hand_totals"] == {"Ana": 47, "Ben": 51}
    assert document["rules"] == "standard"
    code, out, _ = run(sheet("tallynight.sheet"), "--set", "undercut_bonus=10", "--json")
    assert code == 0
    assert json.loads(out)["rules"] == "hoyle + undercut_bonus=10"


def test_stdin_and_players_option() -> None:
    code, out, err = run("-", "--players", "Ann,Bo", "--json", stdin="Ann knock 6 15\nBo gin 22\n")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["source"] == "<stdin>"
    assert document["hand_totals"] == {"Ann": 9, "Bo": 42}


BAD = "players: Ann Bo\nAnn knock 6 15\nCy wins 3\nBo gin 22\nAnn knock 5\nAnn big_gin 30\n"


def test_bad_line_is_one_error_line_and_exit_3() -> None:
    code, out, err = run("-", stdin=BAD)
    assert code == 3
    assert out == ""
    assert err.splitlines() == ["Error: <stdin>:3:1: unknown player 'Cy'; the players are 'Ann' and 'Bo'"]


def test_keep_going_reports_every_bad_line_and_exits_3() -> None:
    code, out, err = run("-", "--keep-going", stdin=BAD)
    assert code == 3
    assert err.splitlines() == [
        "Error: <stdin>:3:1: unknown player 'Cy'; the players are 'Ann' and 'Bo'",
        "Error: <stdin>:5:12: expected defender's deadwood, found end of line",
        "Error: <stdin>:6:5: big gin is not a rule in standard: score the sheet under rules that have it "
        "('rules: hoyle', --rules hoyle) or add it (--set big_gin_bonus=31)",
    ]
    assert "Ann 9, Bo 42" in out
    code, out, err = run("-", "--keep-going", "--json", stdin=BAD)
    assert code == 3
    document = json.loads(out)
    assert document["hand_totals"] == {"Ann": 9, "Bo": 42}
    assert [(e["line"], e["column"]) for e in document["errors"]] == [(3, 1), (5, 12), (6, 5)]


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (["missing.sheet"], None, 2, "Error: no such file or folder: 'missing.sheet'"),  # missing: usage
        (["-"], "Ann knock 6 15\n", 3, "Error: <stdin>:1:1: no players: add a 'players: NAME NAME' line"),
        (["-", "--keep-going"], "Ann knock 6 15\n", 3, "Error: <stdin>:1:1: no players"),
        (["-", "--players", "Ann"], "", 2, "Error: --players: expected two names separated by a comma"),
        (["-", "--players", "Ann Lee,Bo"], "", 2, "Error: 'Ann Lee' cannot be a player name"),
        (["-", "--set", "gin_bonuss=1"], "", 2, "Error: unknown rule knob 'gin_bonuss'"),
        (["-", "--rules", "hollywod"], "", 2, "Invalid value for '--rules'"),
        (["-", "--rules", "openspiel", "--hollywood"], "players: A B\nA wins 3\n", 2,
         "Error: Hollywood scoring needs a game target above 0"),
    ],
)
def test_error_exit_codes(args: list[str], stdin: str | None, code: int, message: str) -> None:
    exit_code, out, err = run(*args, stdin=stdin)
    assert exit_code == code
    assert message in err
    assert out == ""
