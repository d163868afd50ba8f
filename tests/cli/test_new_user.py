"""What a new user trips over, one case each, as a referee would read them: a command given
what another command reads, a word misspelt on a score sheet, an output name ginref does not
know, a file that is not there."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SHEET = str(ROOT / "samples" / "sheets" / "standard-worked.sheet")
RECORD = str(ROOT / "samples" / "records" / "knock-layoffs.gin")
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", [["knock"], ["layoffs", "--melds", "[4H 5H 6H]"]])
def test_one_hand_commands_given_stdin_point_at_analyze(command: list[str]) -> None:
    """It once said "unknown card '-'"."""
    code, out, err = run(*command, "-", stdin="3C 4C 5C 9D 9S 9H 2D AS AH 3S\n")
    assert (code, out) == (2, "")
    assert "`ginref analyze -` reads many hands from stdin, one a line" in err
    assert "unknown card" not in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Bo knok 8 5", "found 'knok'; did you mean 'knock'?\n"),
        ("Bo gn 22", "found 'gn'; did you mean 'gin'?\n"),
        ("Bo undercutt 7 5", "found 'undercutt'; did you mean 'undercut'?\n"),
        ("Bo zzz 8 5", "found 'zzz'\n"),                      # nothing near: no guess
    ],
)
def test_a_misspelt_sheet_word_gets_a_suggestion(line: str, said: str) -> None:
    code, _, err = run("game", "-", stdin=f"players: Ann Bo\n{line}\n")
    assert code == 3
    assert err.startswith("Error: <stdin>:2:4: expected ") and err.endswith(said)


@pytest.mark.parametrize("record", ["knock-layoffs.gin", "knock-layoffs.json", "all.jsonl"])
def test_game_given_a_record_points_at_adjudicate(record: str) -> None:
    path = str(ROOT / "samples" / "records" / record)
    code, out, err = run("game", path)
    assert (code, out) == (3, "")
    hint = f"hint: {path} looks like a game record: `ginref adjudicate {path}` rules on it"
    assert err.splitlines()[-1] == hint


def test_adjudicate_given_a_sheet_points_at_game() -> None:
    code, _, err = run("adjudicate", SHEET)
    assert code == 3
    assert err.splitlines()[-1] == f"hint: {SHEET} looks like a score sheet: `ginref game {SHEET}` scores it"


def test_a_sheet_or_record_read_right_gets_no_hint() -> None:
    assert "hint" not in run("game", SHEET)[2] + run("adjudicate", RECORD)[2]
    code, _, err = run("game", "-", stdin="players: Ann Bo\nBo knok 8 5\n")
    assert code == 3 and "hint" not in err  # a sheet with a bad line is still a sheet


def test_analyze_stdin_names_the_column_once() -> None:
    """It once said "<stdin>:2:28: unknown card '7X' at column 28"."""
    code, _, err = run("analyze", "-", stdin="3C 4C 5C 9D 9S 9H KH 2D 6S 7S\n3C 4C 5C 9D 9S 9H KH 2D 6S 7X\n")
    assert code == 2
    assert "Error: <stdin>:2:28: unknown card '7X'\n" in err and "column" not in err


@pytest.mark.parametrize("name", ["out.txt", "out", "out.gin.bak"])
def test_convert_refuses_an_output_name_it_does_not_know(name: str, tmp_path: Path) -> None:
    """``-o out.txt`` once wrote JSON Lines without a word."""
    target = tmp_path / name
    code, out, err = run("convert", RECORD, "-o", str(target))
    assert (code, out) == (2, "")
    assert f"-o: cannot tell the form from {str(target)!r}" in err and "--to" in err
    assert not target.exists()


def test_convert_writes_any_name_when_told_the_form(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    assert run("convert", RECORD, "-o", str(target), "--to", "jsonl")[0] == 0
    assert target.read_text().startswith('{"rules":"standard"')


@pytest.mark.parametrize("command", [["game"], ["verify"], ["adjudicate"], ["report"], ["convert"]])
def test_a_missing_path_has_one_wording(command: list[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.txt")
    code, out, err = run(*command, missing)
    assert (code, out) == (2, "")
    assert err == f"Error: no such file or folder: {missing!r}\n"
