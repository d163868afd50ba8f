"""Colour: --color/--no-color beside NO_COLOR, and every escape code made by click.style."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cards import CardSet
from ginref.cli import cli
from ginref.render.tables import CardStyle

HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
RED = "\x1b[31m"


@pytest.mark.parametrize(
    ("flags", "terminal", "env", "coloured"),
    [
        ([], False, {}, False),                                 # piped: plain
        (["--glyphs"], True, {}, True),                         # a terminal and glyphs: red suits
        (["--glyphs"], True, {"NO_COLOR": "1"}, False),         # NO_COLOR wins over the terminal
        (["--no-color", "--glyphs"], True, {}, False),
        (["--color"], False, {}, True),                         # forced, even piped and with letters
        (["--color"], False, {"NO_COLOR": "1"}, True),          # the flag wins over NO_COLOR
    ],
)
def test_colour_follows_flag_then_no_color_then_terminal(
    flags: list[str], terminal: bool, env: dict[str, str], coloured: bool
) -> None:
    group = [f for f in flags if f in ("--color", "--no-color")]
    command = [f for f in flags if f not in group]
    result = CliRunner().invoke(cli, [*group, "analyze", *command, HAND], color=terminal, env=env)
    assert result.exit_code == 0
    assert (RED in result.stdout) is coloured
    assert ("\x1b[" in result.stdout) is coloured


@pytest.mark.parametrize(
    ("args", "terminal", "env", "coloured"),
    [
        (["--color=always", "analyze", HAND], False, {}, True),       # as ls, grep and git take it
        (["--color", "always", "analyze", HAND], False, {}, True),    # once "No such command 'always'"
        (["--color", "never", "analyze", "--glyphs", HAND], True, {}, False),
        (["--color=never", "analyze", "--glyphs", HAND], True, {}, False),
        (["--color=auto", "analyze", "--glyphs", HAND], True, {}, True),
        (["--color", "auto", "analyze", "--glyphs", HAND], True, {"NO_COLOR": "1"}, False),
        (["--color=auto", "analyze", HAND], False, {}, False),
        (["analyze", "--color=always", HAND], False, {}, True),       # after the command too
        (["analyze", HAND, "--color", "always"], False, {}, True),
        (["analyze", "--color", HAND], False, {}, True),              # alone: always, as before
        (["analyze", "--glyphs", HAND, "--color=never"], True, {}, False),
        (["analyze", "--glyphs", "--no-color", HAND], True, {}, False),
        (["knock", "--color", "always", *HAND.split(), "AC"], False, {}, True),
    ],
)
def test_color_takes_when_as_other_tools_do(
    args: list[str], terminal: bool, env: dict[str, str], coloured: bool
) -> None:
    result = CliRunner().invoke(cli, args, color=terminal, env=env)
    assert result.exit_code in (0, 1), result.output
    assert ("\x1b[" in result.stdout) is coloured


@pytest.mark.parametrize("args", [["--color=sometimes", "analyze", HAND], ["analyze", HAND, "--color=yes"]])
def test_a_bad_when_is_a_usage_error_that_lists_the_choices(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: Invalid value for '--color': ")
    assert "is not one of 'always', 'never', 'auto'." in result.stderr
    assert "Traceback" not in result.output


def test_the_help_says_when() -> None:
    text = CliRunner().invoke(cli, ["--help"], terminal_width=80).stdout
    assert "--color [=WHEN]" in text or "--color[=WHEN]" in text
    assert "never" in text and "auto" in text and "--no-color" in text


def test_only_red_cards_are_painted_and_by_the_given_function() -> None:
    calls: list[tuple[str, str]] = []

    def paint(text: str, colour: str) -> str:
        calls.append((text, colour))
        return f"<{text}>"

    style = CardStyle(paint=paint)
    assert style.mask(CardSet.parse("3C 9D KH 7S").mask) == "3C <9D> <KH> 7S"
    assert calls == [("9D", "red"), ("KH", "red")]
    assert CardStyle().mask(CardSet.parse("9D KH").mask) == "9D KH"


def test_render_writes_no_escape_codes_of_its_own() -> None:
    for path in (Path(__file__).resolve().parents[2] / "ginref" / "render").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "\\x1b" not in source and "\x1b" not in source, path.name
