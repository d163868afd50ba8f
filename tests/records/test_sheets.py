"""Score sheets accept what players write: the natural forms, and what is expected when a form is not one."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.game import HandEntry as E
from ginref.sheets import parse_sheet, read_sheet

runner = CliRunner()


@pytest.mark.parametrize(
    ("players", "line", "entry"),
    [
        ("Maria, Tom", "Maria knock 4 22", E("Maria", 18, "knock", "Maria")),
        ("Maria,Tom", "Maria knocks 4 22", E("Maria", 18, "knock", "Maria")),
        ("Maria & Tom", "Maria knocked 4 22", E("Maria", 18, "knock", "Maria")),
        ("Maria and Tom", "Maria KNOCKS 4 - 22", E("Maria", 18, "knock", "Maria")),
        ("Maria vs Tom", "Maria knock 4-22", E("Maria", 18, "knock", "Maria")),
        ("Maria Tom", "Maria knock 4 / 22", E("Maria", 18, "knock", "Maria")),
        ("Maria Tom", "Maria knock 4 to 22", E("Maria", 18, "knock", "Maria")),
        # the one who undercut: the knocker's count is the higher, in either order
        ("Maria Tom", "Tom undercut 7 5", E("Tom", 12, "undercut", "Maria")),
        ("Maria Tom", "Tom undercuts 5 7", E("Tom", 12, "undercut", "Maria")),
        ("Maria Tom", "Tom undercut 6 6", E("Tom", 10, "undercut", "Maria")),   # a tie undercuts in standard
        ("Maria Tom", "Tom gins 14", E("Tom", 34, "gin", "Tom")),
        ("Maria Tom", "Tom won 25", E("Tom", 25, "knock", "Tom")),
        ("Maria Tom", "Tom win 25 undercut", E("Tom", 25, "undercut", "Maria")),
        ("And Tom", "And knock 5 6", E("And", 1, "knock", "And")),               # a name, not a separator
    ],
)
def test_natural_forms_read_as_the_canonical_ones(players: str, line: str, entry: E) -> None:
    sheet = parse_sheet(f"players: {players}\n{line}\n")
    assert sheet.entries == (entry,)
    assert sheet.players is not None and entry.winner in sheet.players


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("Maria knock 4 -22", 15, "deadwood cannot be negative: '-22'"),  # "4 -22" stays a negative count
        ("Maria knockx 4 22", 7, "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found 'knockx'"),
        ("Maria knock 4 - ", 17, "expected defender's deadwood, found end of line"),
        ("Tom undercut 9 9", 5, "9 against 9 is not an undercut in standard + tie_policy=no_score "
         "(tie_policy = no_score): write 'Maria knock 9 9'"),
        ("Maria big gin 20", 7, "big gin is not a rule in standard: score the sheet under rules that have it "
         "('rules: hoyle', --rules hoyle) or add it (--set big_gin_bonus=31)"),
    ],
)
def test_forms_that_are_not_say_what_is_expected(line: str, column: int, message: str) -> None:
    overrides = {"tie_policy": "no_score"} if "9 9" in line else None
    with pytest.raises(RecordError) as info:
        parse_sheet(f"players: Maria Tom\n{line}\n", overrides=overrides)
    assert (info.value.line, info.value.column) == (2, column)
    assert info.value.message.startswith(message)
    assert "immediately followed" not in info.value.message


def test_no_pyparsing_wording_for_a_word_run_on() -> None:
    _, errors = read_sheet("players: Ann Bo\nAnn knockz 4 22\nAnn ginx 3\n", keep_going=True)
    assert [e.message for e in errors] == [
        "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found 'knockz'; did you mean 'knock'?",
        "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found 'ginx'; did you mean 'gin'?",
    ]


def test_big_gin_under_keep_going_tallies_the_other_hands() -> None:
    sheet = "players: Maria, Tom\nMaria knocks 4 22\nTom big gin 20\nTom undercut 7 5\n"
    result = runner.invoke(cli, ["game", "-", "--keep-going", "--json"], input=sheet)
    assert result.exit_code == 3
    assert "--set big_gin_bonus=31" in result.stderr
    assert json.loads(result.stdout)["hand_totals"] == {"Maria": 18, "Tom": 12}
    fixed = runner.invoke(cli, ["game", "-", "--rules", "hoyle", "--json"], input=sheet)
    assert fixed.exit_code == 0
    assert json.loads(fixed.stdout)["hands_won"] == {"Maria": 1, "Tom": 2}


@pytest.mark.parametrize(
    ("sheet", "line"),
    [
        ("players: Ann Bo\nAnn wins 60\nAnn wins 45\n", "next game: Ann deals"),       # winner deals
        ("players: Ann Bo\nrules: hollywood\n" + "Ann wins 100\n" * 3, "next match: Ann deals"),
    ],
)
def test_a_finished_game_says_who_deals_next(sheet: str, line: str) -> None:
    result = runner.invoke(cli, ["game", "-"], input=sheet)
    assert result.exit_code == 0
    assert line in result.stdout.splitlines()
    document = json.loads(runner.invoke(cli, ["game", "-", "--json"], input=sheet).stdout)
    assert line == f"next {line.split()[1]} {document['next_dealer']} deals"
