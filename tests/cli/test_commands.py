"""The command line for analyze, knock and rules: output, exit codes, every error path."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from ginref.cli import cli

runner = CliRunner()


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args), input=stdin, env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", cli.list_commands(click.Context(cli)))
def test_every_command_has_help_with_an_example(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "Example" in out, f"`ginref {command} --help` shows no example"


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and "ginref" in out


# -- analyze -----------------------------------------------------------------------


def test_analyze_text() -> None:
    code, out, _ = run("analyze", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    assert code == 0
    assert "[3C 4C 5C] [9D 9H 9S]" in out
    assert "2D KH 6S 7S = 25" in out
    assert "no (limit 10)" in out


def test_analyze_accepts_several_arguments() -> None:
    _, joined, _ = run("analyze", "--json", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    _, separate, _ = run("analyze", "--json", *["3C", "4C", "5C", "9D", "9S", "9H", "KH", "2D", "6S", "7S"])
    assert joined == separate


def test_analyze_json_ten_cards() -> None:
    code, out, _ = run("analyze", "--json", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    data = json.loads(out)
    assert code == 0
    assert data["cards"] == ["3C", "4C", "5C", "2D", "9D", "9H", "KH", "6S", "7S", "9S"]
    assert data["melds"] == [["3C", "4C", "5C"], ["9D", "9H", "9S"]]
    assert data["deadwood"] == ["2D", "KH", "6S", "7S"]
    assert (data["deadwood_points"], data["can_knock"], data["gin"], data["knock_limit"]) == (
        25,
        False,
        False,
        10,
    )
    assert data["rules"] == "standard"


def test_analyze_json_eleven_cards() -> None:
    _, out, _ = run("analyze", "--json", "5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C")
    data = json.loads(out)
    assert data["best_discard"] == "6S"
    assert (data["deadwood_points"], data["can_knock"], data["gin"], data["big_gin"]) == (
        10,
        True,
        False,
        False,
    )
    assert len(data["discards"]) == 11
    by_card = {d["discard"]: d for d in data["discards"]}
    assert by_card["6S"]["deadwood_points"] == 10 and by_card["6S"]["can_knock"]
    assert by_card["5S"]["deadwood_points"] == 11 and not by_card["5S"]["can_knock"]
    assert set(by_card["5S"]) >= {"discard", "melds", "deadwood", "deadwood_points", "can_knock", "gin"}


def test_big_gin_only_where_the_rules_recognise_it() -> None:
    hand = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    standard = json.loads(run("analyze", "--json", hand)[1])
    hoyle = json.loads(run("analyze", "--json", "--rules", "hoyle", hand)[1])
    assert standard["big_gin"] is False and standard["gin"] is True
    assert hoyle["big_gin"] is True


def test_analyze_all_lists_every_optimal_arrangement() -> None:
    _, out, _ = run("analyze", "--json", "--all", "AS 2S 3S 4S AH AD 2D 3D 4D AC")
    data = json.loads(out)
    assert len(data["arrangements"]) == 3
    assert all(a["deadwood_points"] == 0 for a in data["arrangements"])


def test_analyze_stdin_answers_every_line_and_keeps_going() -> None:
    stdin = "# a comment\n3C 4C 5C 9D 9S 9H KH 2D 6S 7S\n3C 4X\n\n9C 9D 9H 9S 2H 3H 4H JC QC KC\n"
    code, out, err = run("analyze", "-", "--json", stdin=stdin)
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["line"] for line in lines] == [2, 3, 5]
    assert lines[0]["deadwood_points"] == 25
    assert lines[1]["error"] == "unknown card '4X' at column 4"
    assert lines[2]["gin"] is True
    assert code == 2
    assert "1 bad hand" in err


def test_analyze_oklahoma_upcard_sets_the_limit() -> None:
    hand = "3C 4C 5C 6D 7D 8D 9H 9S 9C 5S"  # deadwood 5
    seven = json.loads(run("analyze", "--json", "--rules", "oklahoma", "--upcard", "7S", hand)[1])
    four = json.loads(run("analyze", "--json", "--rules", "oklahoma", "--upcard", "4S", hand)[1])
    ace = json.loads(run("analyze", "--json", "--rules", "oklahoma", "--upcard", "AD", hand)[1])
    assert (seven["knock_limit"], seven["can_knock"]) == (7, True)
    assert (four["knock_limit"], four["can_knock"]) == (4, False)
    assert (ace["knock_limit"], ace["can_knock"]) == (0, False)


def test_oklahoma_without_upcard_says_what_it_assumed() -> None:
    _, out, _ = run("analyze", "--rules", "oklahoma", "3C 4C 5C 6D 7D 8D 9H 9S 9C 5S")
    assert "no upcard given" in out


def test_set_and_rules_file(tmp_path: pytest.TempPathFactory) -> None:
    table = tmp_path / "table.toml"  # type: ignore[operator]
    table.write_text('base = "standard"\nknock_limit = 5\n')
    hand = "3C 4C 5C 6D 7D 8D 9H 9S 9C 8S"  # deadwood 8
    assert json.loads(run("analyze", "--json", hand)[1])["can_knock"] is True
    assert json.loads(run("analyze", "--json", "--set", "knock_limit=5", hand)[1])["can_knock"] is False
    data = json.loads(run("analyze", "--json", "--rules-file", str(table), hand)[1])
    assert (data["knock_limit"], data["rules"]) == (5, "standard + knock_limit=5")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", "3C 4X 5C"], "unknown card '4X' at column 4"),
        (["analyze", "3C 4C 5C 9D 9S 9H KH 2D 6S 3C"], "duplicate card '3C' at column 28"),
        (["analyze", "3C 4C 5C 9D 9S 9H KH 2D 6S"], "expected 10 or 11 cards, got 9"),
        (["analyze", "3C 4C 5C 9D 9S 9H KH 2D 6S JK"], "jokers are not used in gin rummy"),
        (["analyze", "1S 4C 5C 9D 9S 9H KH 2D 6S 7S"], "write the ace as 'A'"),
        (["knock", "3C 4X 5C"], "unknown card '4X' at column 4"),
        (["analyze", "--set", "gin_bonuss=25", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], "did you mean 'gin_bonus'"),
        (["analyze", "--set", "tie_policy=maybe", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], "bad value 'maybe'"),
        (["analyze", "--set", "nonsense", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], "="),
        (["analyze", "--upcard", "ZZ", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], "unknown card 'ZZ'"),
        (["analyze", "--rules", "hollywod", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], "hollywod"),
        (["rules", "nosuch"], "unknown rules 'nosuch'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, _out, err = run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    error_lines = [line for line in err.splitlines() if line.startswith("Error")]
    assert len(error_lines) == 1


# -- knock -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "code", "says"),
    [
        ("3C 4C 5C 6D 7D 8D 9H 9S 9C KD", 0, "knock: deadwood 10 is within the limit 10"),
        ("3C 4C 5C 6C 9H 9S 9C 4S 6H AD", 1, "no: the least deadwood is 11"),
        ("9C 9D 9H 9S 2H 3H 4H JC QC KC", 0, "gin"),
        ("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C", 0, "discard 6S face down"),
        ("AS 2S 3S 4S AH AD 2D 3D 4D AC 4C", 0, "gin: discard 4C"),
    ],
)
def test_knock_exit_codes(hand: str, code: int, says: str) -> None:
    exit_code, out, _ = run("knock", hand)
    assert exit_code == code
    assert says in out


def test_knock_straight_gin_only() -> None:
    code, out, _ = run("knock", "--rules", "straight", "3C 4C 5C 6D 7D 8D 9H 9S 9C AD")
    assert code == 1 and "only gin" in out


def test_knock_taken_upcard_may_not_be_discarded() -> None:
    # Discarding the 5S would knock with 10, but 5S is the upcard just taken.
    hand = "5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C"
    code, out, _ = run("knock", "--json", "--upcard", "6S", hand)
    data = json.loads(out)
    assert data["best_discard"] != "6S"
    assert code == 1
    openspiel = json.loads(run("knock", "--json", "--rules", "openspiel", "--upcard", "6S", hand)[1])
    assert openspiel["best_discard"] == "6S" and openspiel["can_knock"]


# -- rules -------------------------------------------------------------------------


def test_rules_lists_presets_with_aliases() -> None:
    code, out, _ = run("rules")
    assert code == 0
    for name in ("standard", "hoyle", "tallynight", "cardhearth", "oklahoma", "straight", "openspiel"):
        assert name in out


def test_rules_shows_every_knob() -> None:
    data = json.loads(run("rules", "oklahoma", "--json")[1])
    assert (data["oklahoma"], data["spade_double"], data["game_target"]) == ("gin_only", True, 150)
    alias = json.loads(run("rules", "tallynight", "--json")[1])
    assert (alias["name"], alias["gin_bonus"], alias["big_gin_bonus"]) == ("hoyle", 25, 31)
    table = run("rules", "standard")[1]
    assert "knock_limit" in table and "tie_policy" in table


# -- output hygiene ----------------------------------------------------------------


def test_glyphs_and_no_ansi_when_piped() -> None:
    _, out, _ = run("analyze", "--glyphs", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    assert "♣" in out and "♥" in out
    assert "\x1b[" not in out


def test_no_color_env_strips_colour_even_on_color_runner() -> None:
    result = CliRunner().invoke(
        cli, ["analyze", "--glyphs", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], color=True, env={"NO_COLOR": "1"}
    )
    assert "\x1b[" not in result.stdout
    coloured = CliRunner().invoke(cli, ["analyze", "--glyphs", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"], color=True)
    assert "\x1b[31m" in coloured.stdout


def test_json_mode_prints_only_json() -> None:
    code, out, err = run("analyze", "--json", "--rules", "oklahoma", "3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    assert (code, err) == (0, "")
    assert json.loads(out)["deadwood_points"] == 25


def test_an_empty_rule_set_name_is_refused_not_standard() -> None:
    result = CliRunner().invoke(cli, ["rules", ""])
    assert result.exit_code == 2
    assert "unknown rules ''" in result.stderr
