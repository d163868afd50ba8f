"""A bad value says what was expected and where: the token typed, a hint, a caret under the input."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.errors import NotationError, UnknownRulesError
from ginref.notation import parse_card, parse_cards, parse_melds
from ginref.rules import ALIASES, find_rules

runner = CliRunner()
REST = "4C 5C 9D 9S 9H KH 2D 6S"


@pytest.mark.parametrize(
    ("text", "column", "token", "message"),
    [
        ("7SS " + REST, 1, "7SS", "unknown card '7SS' at column 1: a card is one rank and one suit"),
        ("3C 7SS", 4, "7SS", "unknown card '7SS' at column 4: a card is one rank and one suit"),
        ("3 C " + REST, 1, "3", "unknown card '3' at column 1: rank and suit go together, as in '3C'"),
        ("7 spades " + REST, 1, "7", "unknown card '7' at column 1: rank and suit go together, as in '7S'"),
        ("10 hearts", 1, "10", "unknown card '10' at column 1: rank and suit go together, as in 'TH'"),
        ("7spades", 1, "7spades",
         "unknown card '7spades' at column 1: rank and suit go together, as in '7S'"),
        ("3C 4C5", 6, "5", "unknown card '5' at column 6"),  # a run of cards cut short: no guess
        ("stock", 1, "stock", "unknown card 'stock' at column 1"),
    ],
)
def test_card_errors_name_the_token_typed_and_hint(text: str, column: int, token: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert (str(info.value), info.value.column, info.value.token) == (message, column, token)


def test_a_single_card_names_the_word_typed() -> None:
    with pytest.raises(NotationError) as info:
        parse_card("7SS")
    assert str(info.value) == "unknown card '7SS' at column 1: a card is one rank and one suit"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(4H 5H 6H)", "unexpected '(' at column 1: melds go in square brackets: '[4H 5H 6H]'"),
        ("[QC QD QS] {4H 5H 6H}", "unexpected '{' at column 12: melds go in square brackets: '[4H 5H 6H]'"),
    ],
)
def test_melds_in_other_brackets_hint_at_square_ones(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_melds(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (["analyze", "3C 4C 5C 9D 9S 9H KH 2D 6S 7X"], [
            "Error: unknown card '7X' at column 28",
            "  3C 4C 5C 9D 9S 9H KH 2D 6S 7X",
            "                             ^",
        ]),
        (["analyze", "3C", "4C", "7SS"], [
            "Error: unknown card '7SS' at column 7: a card is one rank and one suit",
            "  3C 4C 7SS",
            "        ^",
        ]),
        (["layoffs", "--melds", "(4H 5H 6H)", "7H 8H 3H QH 2C 2D 2S 9S KD AC"], [
            "Error: --melds: unexpected '(' at column 1: melds go in square brackets: '[4H 5H 6H]'",
            "  (4H 5H 6H)",
            "  ^",
        ]),
        (["score", "--knocker", "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D",
          "--defender", "6C 9C 5S JH JC JD 4H AH 8D 8D"], [
            "Error: --defender: duplicate card '8D' at column 28",
            "  6C 9C 5S JH JC JD 4H AH 8D 8D",
            "                             ^",
        ]),
    ],
)
def test_command_line_cards_get_a_caret_under_the_input(args: list[str], lines: list[str]) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == lines


def test_a_bad_upcard_is_pointed_at_too() -> None:
    result = runner.invoke(cli, ["analyze", "--upcard", "7SS", "3C"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-3:] == [
        "Error: Invalid value for '--upcard': unknown card '7SS' at column 1: "
        "a card is one rank and one suit",
        "  7SS",
        "  ^",
    ]


def test_a_caret_in_a_long_line_stays_under_its_column() -> None:
    text = " ".join(["3C"] * 5) + " " + "x" * 200
    from ginref.render.tables import pointer

    shown, caret = pointer(text, 16).split("\n")
    assert len(shown) <= 80
    assert shown[caret.index("^")] == "x"


CHOICES = "`ginref rules` lists every rule set and its aliases"
SEE_ALL = " (`ginref rules` lists every rule set and its aliases)"


@pytest.mark.parametrize(
    ("name", "after"),
    [("hollyw00d", "did you mean 'hollywood'?" + SEE_ALL),
     ("tallynite", "did you mean 'tallynight'?" + SEE_ALL), ("zzz", CHOICES), ("", CHOICES)],
)
def test_unknown_rules_has_one_wording_with_aliases_or_a_suggestion(name: str, after: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        find_rules(name)
    message = str(info.value)
    assert message == f"unknown rules {name!r}; {after}"
    for args in (["rules", name], ["analyze", "--rules", name, "3C"], ["game", "-", "--rules", name]):
        result = runner.invoke(cli, args, input="")
        assert result.exit_code == 2
        assert message in result.stderr


def test_an_unknown_rules_name_too_long_to_show_whole_points_at_the_list() -> None:
    with pytest.raises(UnknownRulesError) as info:
        find_rules("carinfinitydlahoma")
    assert str(info.value) == ("unknown rules 'carinfinitydlaho'... (cut; 18 characters); "
                               "`ginref rules` lists every rule set and its aliases")


@pytest.mark.parametrize("name", ["hollyw00d", "zzz", "", "gin rummy", "carinfinitydlahoma", "x" * 50])
def test_every_unknown_rules_message_points_to_ginref_rules_which_lists_the_aliases(name: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        find_rules(name)
    assert "`ginref rules` lists" in str(info.value)
    listing = runner.invoke(cli, ["rules"])
    assert listing.exit_code == 0
    for alias, preset in ALIASES.items():
        assert any(line.startswith(f"{preset} ") and alias in line.replace(",", " ").split()
                   for line in listing.stdout.splitlines())
