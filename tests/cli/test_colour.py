"""Colour: --color/--no-color beside NO_COLOR, and every escape code made by click.style."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cards import CardSet
from ginref.cli import cli
from ginref.render import CardStyle

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
    source = (Path(__file__).resolve().parents[2] / "ginref" / "render.py").read_text(encoding="utf-8")
    assert "\\x1b" not in source and "\x1b" not in source
