"""One output, one spelling of ten: text shows ``10``, JSON shows ``T``.

A ruling's steps are data (``scoring.Step``: words with the cards kept as cards), so
the renderer spells every card of one output the same way; once ``ginref score``
showed ``10D`` in its table and ``TD`` in its steps.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.scoring import Cards, Step, numbered, score_hand

TEN_AS_T = re.compile(r"(?<![\w\[])T[CDHS]\b")
TEN_AS_10 = re.compile(r"\b10[CDHS]\b")

SCORES = [
    ["--knocker", "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D", "--defender", "6C 9C 5S JH JC JD 4H AH 8D TD"],
    ["--knocker", "3H 4H 5H 5C 5D 9S TS JS QS KS", "--defender", "5S KC KH QC QD 9C 8D 2C 6C 4S"],
    ["--knocker", "TC TD TH 2S 3S 4S 5H 6H 7H AC", "--defender", "TS JS QS 9H 8H KD QD 2C 3C 4C",
     "--rules", "oklahoma", "--upcard", "TH"],
]


@pytest.mark.parametrize("args", SCORES)
def test_score_text_spells_ten_one_way(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["score", *args], catch_exceptions=False)
    assert result.exit_code == 0
    assert TEN_AS_10.search(result.stdout), result.stdout  # the case has a ten to show
    assert not TEN_AS_T.search(result.stdout), result.stdout


@pytest.mark.parametrize("args", SCORES)
def test_score_json_spells_ten_one_way(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["score", *args, "--json"], catch_exceptions=False)
    document = json.loads(result.stdout)
    text = json.dumps(document)
    assert TEN_AS_T.search(text) and not TEN_AS_10.search(text)


def test_steps_keep_cards_as_cards() -> None:
    ruling = score_hand("3C 4C 5C 9D 9S 9H 6S 7S 8S 2D", "6C 9C 5S JH JC JD 4H AH 8D TD")
    cards = [w for step in ruling.steps for w in step.words if isinstance(w, Cards)]
    assert any(22 in group for c in cards for group in c.groups)  # TD is card 22, kept as an int
    assert ruling.explanation == numbered(ruling.steps)
    assert "TD" in ruling.explanation[1]
    assert "10D" in numbered(ruling.steps, lambda c: "10D" if c == 22 else "x")[1]


def test_a_step_spells_its_cards_as_asked() -> None:
    step = Step(("lays off ", Cards(((22,),)), " onto ", Cards(((19, 20, 21),), bracketed=True)))
    assert str(step) == "lays off TD onto [7D 8D 9D]"
    assert step.text(lambda c: "10D" if c == 22 else "x") == "lays off 10D onto [x x x]"
