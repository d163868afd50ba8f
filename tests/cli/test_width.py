"""Text output fits 80 columns when piped, numbers right-aligned; `ginref rules NAME` says what
each knob means."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.render.games import rules_text
from ginref.rules import KNOB_MEANINGS, KNOB_NAMES, PRESET_NAMES, find_rules

SHEETS = Path(__file__).resolve().parents[2] / "samples" / "sheets"
runner = CliRunner()


def output(*args: str) -> str:
    result = runner.invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        *(["rules", name] for name in PRESET_NAMES),
        ["rules", "tallynight", "--set", "gin_bonus=25"],
        ["game", str(SHEETS / "hollywood.sheet")],
        ["game", str(SHEETS / "hollywood.sheet"), "--chart"],
        ["game", str(SHEETS / "standard-worked.sheet"), "--chart"],
        ["game", str(SHEETS / "tallynight.sheet")],
        ["analyze", "--all", "5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C"],
        ["layoffs", "--melds", "[4H 5H 6H] [QC QD QS]", "7H 8H 3H QH 2C 2D 2S 9S KD AC"],
        ["score", "--knocker", "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D",
         "--defender", "6C 9C 5S JH JC JD 4H AH 8D TD"],
        ["--help"], ["rules", "--help"], ["game", "--help"], ["analyze", "--help"], ["verify", "--help"],
    ],
    ids=lambda args: " ".join(a.rsplit("/", 1)[-1] for a in args)[:40],
)
def test_piped_text_fits_80_columns(args: list[str]) -> None:
    wide = [line for line in output(*args).splitlines() if len(line) > 80]
    assert wide == []


def test_every_knob_has_a_one_line_meaning_shown_by_rules_name() -> None:
    assert list(KNOB_MEANINGS) == list(KNOB_NAMES)
    assert all(0 < len(meaning) <= 80 and "\n" not in meaning for meaning in KNOB_MEANINGS.values())
    table = output("rules", "hoyle")
    assert table.splitlines()[0].startswith("hoyle: North-American")
    row = next(line for line in table.splitlines() if line.startswith("big_gin_bonus"))
    assert row.split()[:2] == ["big_gin_bonus", "31"] and "big gin" in row


def test_a_wide_terminal_gets_one_line_per_knob() -> None:
    text = rules_text(find_rules("standard"), width=160)
    rows = text.split("----\n", 1)[1].splitlines()
    assert len(rows) == len(KNOB_NAMES)


def test_numbers_are_right_aligned_in_game_sheets() -> None:
    lines = output("game", str(SHEETS / "standard-worked.sheet")).splitlines()
    header, rows = lines[0], lines[2:9]
    points_end = header.index("points") + len("points")
    assert [row[:points_end].split()[-1] for row in rows] == ["9", "13", "42", "19", "11", "32", "50"]
    assert {len(row[:points_end].rstrip()) for row in rows} == {points_end}
    hollywood = output("game", str(SHEETS / "hollywood.sheet")).splitlines()
    assert hollywood[0].split() == ["hand", "winner", "outcome", "points", "games", "game", "1", "game", "2",
                                    "game", "3", "deals"]
    assert any(line.endswith("365") for line in hollywood)
