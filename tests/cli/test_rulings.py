"""``ginref layoffs`` and ``ginref score`` on the command line (click's CliRunner).

Every ruling exits 0, an illegal knock included (the issue: "--melds ... must be
legal: valid melds from the knocker's cards, deadwood within the knock limit;
otherwise the ruling is an illegal knock, said clearly"). Input that cannot be
ruled on (a bad card, a duplicate card, a wrong card count, unreadable --melds,
a spread given to ``layoffs`` that is not made of melds) exits 2 with a
one-line ``Error: ...`` and no traceback.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result

from ginref.cli import cli

# The hands of tests/rules/rulings.py (see the arithmetic there).
K_RUN = "4H 5H 6H 9C 9D 9S 2D 3D 4D 5C"
K_RUN_MELDS = "[4H 5H 6H] [9C 9D 9S] [2D 3D 4D]"
D_CHAIN = "7H 8H 3S AC KC KH JS 6C 7D TC"  # 7H, 8H go onto [4H 5H 6H]; 57 left
K_UC = "2C 3C 4C 7D 8D 9D JS QS KS 8H"  # deadwood 8
D_UC8 = "4H 5H 6H TC JC QC TS AD 2H 5S"  # TS laid off, 8 left: a tie
D_UC5 = "4H 5H 6H TC JC QC TS AD 2H 2S"  # TS laid off, 5 left: undercut
K_BIG = "4H 5H 6H 7H 9C 9D 9S 2D 3D 4D 5D"
K_BIG_MELDS = "[4H 5H 6H 7H] [9C 9D 9S] [2D 3D 4D 5D]"
D_67 = "KC QS JC 8S 3C AC TS 2H 6S 7C"
LAYOFF_MELDS = "[4H 5H 6H] [QC QD QS]"
LAYOFF_HAND = "7H 8H 3H QH 2C 2D 2S 9S KD AC"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def ok_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    return json.loads(result.stdout)


def assert_input_error(result: Result, *fragments: str) -> None:
    """Exit 2, one line on stderr starting ``Error:``, no traceback, nothing on stdout.

    Bad card notation may add the input and a caret under the column the message names.
    """
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.rstrip("\n").splitlines()
    assert len(lines) in (1, 3) and lines[0].startswith("Error: "), result.stderr
    if len(lines) == 3:
        column = int(re.search(r"at column (\d+)", lines[0]).group(1))  # type: ignore[union-attr]
        assert lines[2] == " " * (column + 1) + "^", result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert result.stdout == ""


def score(knocker: str, defender: str, *extra: str) -> list[str]:
    return ["score", "--knocker", knocker, "--defender", defender, *extra]


def check_score_document(doc: dict) -> None:
    assert set(doc) >= {"outcome", "winner", "points", "knocker", "defender", "explanation", "rules"}
    assert set(doc["knocker"]) >= {"melds", "deadwood", "deadwood_points", "discard"}
    assert set(doc["defender"]) >= {"melds", "layoffs", "deadwood", "deadwood_points"}
    assert isinstance(doc["explanation"], list) and doc["explanation"]
    assert all(isinstance(line, str) for line in doc["explanation"])
    assert isinstance(doc["points"], int) and isinstance(doc["rules"], str)
    for layoff in doc["defender"]["layoffs"]:
        assert set(layoff) == {"card", "onto"}
        assert isinstance(layoff["card"], str) and isinstance(layoff["onto"], list)
    for meld in doc["knocker"]["melds"] + doc["defender"]["melds"]:
        assert all(isinstance(card, str) and len(card) == 2 for card in meld)


# ---- score: JSON ------------------------------------------------------------------------

SCORE_JSON = [
    # (args, outcome, winner, points, knocker deadwood, defender deadwood, laid-off cards)
    pytest.param(
        score(K_RUN, D_CHAIN, "--melds", K_RUN_MELDS),
        "knock",
        "knocker",
        52,
        5,
        57,
        {"7H", "8H"},
        id="chain-declared",
    ),
    pytest.param(score(K_RUN, D_CHAIN), "knock", "knocker", 52, 5, 57, {"7H", "8H"}, id="chain-found"),
    pytest.param(score(K_UC, D_UC5), "undercut", "defender", 13, 8, 5, {"TS"}, id="undercut"),
    pytest.param(score(K_UC, D_UC8), "undercut", "defender", 10, 8, 8, {"TS"}, id="tie-standard"),
    pytest.param(
        score(K_UC, D_UC8, "--rules", "openspiel"), "tie", None, 0, 8, 8, {"TS"}, id="tie-openspiel"
    ),
    pytest.param(
        score(K_UC, D_UC8, "--set", "tie_policy=knocker"),
        "knock",
        "knocker",
        0,
        8,
        8,
        {"TS"},
        id="tie-set-knocker",
    ),
    pytest.param(
        score(K_UC, D_UC5, "--rules", "hoyle"), "undercut", "defender", 28, 8, 5, {"TS"}, id="undercut-hoyle"
    ),
    # spade upcard 9S under oklahoma: limit 9, (8 - 5 + 10) x 2
    pytest.param(
        score(K_UC, D_UC5, "--rules", "oklahoma", "--upcard", "9S"),
        "undercut",
        "defender",
        26,
        8,
        5,
        {"TS"},
        id="oklahoma-spade-undercut",
    ),
    # upcard 7C under oklahoma: limit 7 < 8
    pytest.param(
        score(K_UC, D_UC5, "--rules", "oklahoma", "--upcard", "7C"),
        "illegal_knock",
        None,
        0,
        None,
        None,
        set(),
        id="oklahoma-limit-7-illegal",
    ),
    pytest.param(
        score(K_BIG, D_67, "--rules", "hoyle"), "big_gin", "knocker", 98, 0, 67, set(), id="big-gin-hoyle"
    ),
    pytest.param(score(K_BIG, D_67), "gin", "knocker", 87, 0, 67, set(), id="eleven-gin-standard"),
    # straight gin: a knock with 8 is illegal
    pytest.param(
        score(K_UC, D_UC5, "--rules", "straight"),
        "illegal_knock",
        None,
        0,
        None,
        None,
        set(),
        id="straight-knock-illegal",
    ),
]


@pytest.mark.parametrize(("args", "outcome", "winner", "points", "k_dead", "d_dead", "laid"), SCORE_JSON)
def test_score_json(
    args: list[str],
    outcome: str,
    winner: str | None,
    points: int,
    k_dead: int | None,
    d_dead: int | None,
    laid: set[str],
) -> None:
    doc = ok_json(*args)
    check_score_document(doc)
    assert (doc["outcome"], doc["winner"], doc["points"]) == (outcome, winner, points)
    if k_dead is not None:
        assert doc["knocker"]["deadwood_points"] == k_dead
    if d_dead is not None:
        assert doc["defender"]["deadwood_points"] == d_dead
    assert {layoff["card"] for layoff in doc["defender"]["layoffs"]} == laid
    if outcome == "illegal_knock":
        assert doc["reason"]
        assert any("illegal knock" in line for line in doc["explanation"])


def test_score_json_layoff_onto_names_the_declared_meld() -> None:
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", K_RUN_MELDS))
    assert doc["defender"]["layoffs"] == [
        {"card": "7H", "onto": ["4H", "5H", "6H"]},
        {"card": "8H", "onto": ["4H", "5H", "6H"]},
    ]
    assert sorted(doc["knocker"]["melds"]) == sorted(
        [["4H", "5H", "6H"], ["9C", "9D", "9S"], ["2D", "3D", "4D"]]
    )
    assert doc["knocker"]["deadwood"] == ["5C"]
    assert doc["knocker"]["discard"] is None
    assert doc["rules"] == "standard"


def test_score_json_eleven_cards_names_the_discard() -> None:
    doc = ok_json(*score("2C 3C 4C 7D 8D 9D JS QS KS 3H KH", "5H 9H JH KC 2S 4S 6S QD 8C TC"))
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("knock", "knocker", 71)
    assert doc["knocker"]["discard"] == "KH"
    assert doc["knocker"]["deadwood"] == ["3H"]


def test_score_json_rules_label_shows_overrides() -> None:
    doc = ok_json(*score(K_UC, D_UC8, "--set", "tie_policy=knocker"))
    assert doc["rules"] == "standard + tie_policy=knocker"


# ---- score: declared melds that are not legal (an illegal knock, exit 0) ------------


def test_score_melds_not_held_is_an_illegal_knock() -> None:
    # QC QD QS belong to nobody here; the ruling is an illegal knock, said clearly.
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H] [QC QD QS]"))
    check_score_document(doc)
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("illegal_knock", None, 0)
    assert "not in the knocker's hand" in doc["reason"]
    assert "QC" in doc["reason"]
    assert doc["defender"]["layoffs"] == []


def test_score_melds_with_a_defender_card_is_an_illegal_knock() -> None:
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H 7H]"))
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("illegal_knock", None, 0)
    assert "7H" in doc["reason"]


def test_score_invalid_meld_is_an_illegal_knock() -> None:
    # [5C 9C 9D] is made of the knocker's cards but is not a meld.
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H] [9C 9D 5C]"))
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("illegal_knock", None, 0)
    assert "not a meld" in doc["reason"]


def test_score_declared_deadwood_over_limit_is_an_illegal_knock() -> None:
    # declaring only [4H 5H 6H] leaves 9C 9D 9S 2D 3D 4D 5C = 41 > 10
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H]"))
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("illegal_knock", None, 0)
    assert doc["knocker"]["deadwood_points"] == 41
    assert "41" in doc["reason"] and "10" in doc["reason"]


@pytest.mark.parametrize("melds", ["[4H 5H 6H] [9C 9D 5C]", "[4H 5H 6H 7H]", "[4H 5H 6H] [QC QD QS]"])
def test_score_illegal_declaration_reports_a_consistent_spread(melds: str) -> None:
    # Whatever the knocker's JSON lists for an illegal declaration, a card cannot
    # be both in one of its melds and in its deadwood.
    doc = ok_json(*score(K_RUN, D_CHAIN, "--melds", melds))
    in_melds = {card for meld in doc["knocker"]["melds"] for card in meld}
    assert not in_melds & set(doc["knocker"]["deadwood"]), doc["knocker"]


def test_score_declared_eleven_card_gin_standard() -> None:
    # Standard has no big gin: the knocker discards an end of a 4-card meld and
    # goes gin (VARIANTS 4): 67 + 20 = 87, exit 0.
    doc = ok_json(*score(K_BIG, D_67, "--melds", K_BIG_MELDS))
    assert (doc["outcome"], doc["winner"], doc["points"]) == ("gin", "knocker", 87)
    assert doc["knocker"]["discard"] is not None


# ---- score: text --------------------------------------------------------------------


def test_score_text_knock() -> None:
    result = run(*score(K_RUN, D_CHAIN, "--melds", K_RUN_MELDS))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "knock: 52 to the knocker"
    assert "7H onto [4H 5H 6H]" in result.stdout and "8H onto [4H 5H 6H]" in result.stdout
    assert "= 57" in result.stdout and "5C = 5" in result.stdout
    assert "57 - 5 = 52" in result.stdout
    assert lines[-1] == "rules: standard"


def test_score_text_illegal_knock_says_so() -> None:
    result = run(*score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H] [QC QD QS]"))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "illegal_knock: no score"
    assert "illegal knock" in result.stdout and "not in the knocker's hand" in result.stdout


def test_score_text_tie_no_score() -> None:
    result = run(*score(K_UC, D_UC8, "--rules", "openspiel"))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "tie: no score"


def test_score_text_undercut() -> None:
    result = run(*score(K_UC, D_UC5))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "undercut: 13 to the defender"
    assert "3 + 10 undercut bonus = 13" in result.stdout


# ---- layoffs ------------------------------------------------------------------------


def test_layoffs_json() -> None:
    doc = ok_json("layoffs", "--melds", LAYOFF_MELDS, *LAYOFF_HAND.split())
    assert set(doc) >= {"melds", "layoffs", "deadwood", "deadwood_points"}
    assert doc["melds"] == [["2C", "2D", "2S"]]
    assert sorted((x["card"], tuple(x["onto"])) for x in doc["layoffs"]) == [
        ("3H", ("4H", "5H", "6H")),
        ("7H", ("4H", "5H", "6H")),
        ("8H", ("4H", "5H", "6H")),
        ("QH", ("QC", "QD", "QS")),
    ]
    for layoff in doc["layoffs"]:
        assert set(layoff) == {"card", "onto"}
    assert sorted(doc["deadwood"]) == ["9S", "AC", "KD"]
    assert doc["deadwood_points"] == 20


def test_layoffs_json_one_quoted_hand() -> None:
    doc = ok_json("layoffs", "--melds", LAYOFF_MELDS, LAYOFF_HAND)
    assert doc["deadwood_points"] == 20


def test_layoffs_json_chaining_off() -> None:
    doc = ok_json("layoffs", "--melds", LAYOFF_MELDS, LAYOFF_HAND, "--set", "layoff_chaining=false")
    assert {x["card"] for x in doc["layoffs"]} == {"3H", "7H", "QH"}
    assert doc["deadwood_points"] == 28


def test_layoffs_json_meld_first_vs_joint() -> None:
    args = ("layoffs", "--melds", "[5H 6H 7H] [2S 3S 4S] [KC KD KS]", "8C 8D 8H 8S 9H QD JH 2D 6C TD")
    joint = ok_json(*args)
    assert joint["deadwood_points"] == 38
    assert {x["card"] for x in joint["layoffs"]} == {"8H", "9H"}
    first = ok_json(*args, "--set", "defender_layoff_mode=meld_first")
    assert first["deadwood_points"] == 47 and first["layoffs"] == []


def test_layoffs_json_gin_spread_takes_nothing() -> None:
    doc = ok_json("layoffs", "--melds", "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C]", LAYOFF_HAND)
    assert doc["layoffs"] == [] and doc["deadwood_points"] == 48
    rtc = ok_json(
        "layoffs",
        "--melds",
        "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C]",
        LAYOFF_HAND,
        "--rules",
        "round_the_corner",
    )
    assert {x["card"] for x in rtc["layoffs"]} == {"3H", "7H", "8H", "QH"}
    assert rtc["deadwood_points"] == 34


def test_layoffs_text() -> None:
    result = run("layoffs", "--melds", LAYOFF_MELDS, LAYOFF_HAND)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "best response:" in out
    assert "3H onto [4H 5H 6H]" in out and "QH onto [QC QD QS]" in out
    assert "AC KD 9S = 20" in out
    gin = run("layoffs", "--melds", "[4H 5H 6H] [QC QD QS] [5C 6C 7C 8C]", LAYOFF_HAND)
    assert gin.exit_code == 0 and "no layoffs onto gin" in gin.stdout


# ---- bad input: exit 2, one line, no traceback ------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        pytest.param(
            score("4H 5H 6H 9C 9D 9S 2D 3D 4D ZZ", D_CHAIN), ("--knocker", "ZZ"), id="score-bad-knocker-card"
        ),
        pytest.param(
            score(K_RUN, "7H 8H 3S AC KC KH JS 6C 7D 1S"), ("--defender", "1S"), id="score-bad-defender-card"
        ),
        pytest.param(
            score(K_RUN, "7H 8H 3S AC KC KH JS 6C 7D 4H"), ("4H", "both"), id="score-card-in-both-hands"
        ),
        pytest.param(
            score(K_RUN, "7H 8H 3S AC KC KH JS 6C 7D 7D"), ("duplicate", "7D"), id="score-duplicate-in-a-hand"
        ),
        pytest.param(
            score("4H 5H 6H 9C 9D 9S 2D 3D 4D", D_CHAIN), ("--knocker", "9"), id="score-knocker-9-cards"
        ),
        pytest.param(score(K_RUN + " KD QD", D_CHAIN), ("--knocker", "12"), id="score-knocker-12-cards"),
        pytest.param(
            score(K_RUN, "7H 8H 3S AC KC KH JS 6C 7D TC QC"),
            ("--defender", "11"),
            id="score-defender-11-cards",
        ),
        pytest.param(score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H"), ("--melds",), id="score-melds-unclosed"),
        pytest.param(
            score(K_RUN, D_CHAIN, "--melds", "[4H 5H XX]"), ("--melds", "XX"), id="score-melds-bad-card"
        ),
        pytest.param(
            score(K_RUN, D_CHAIN, "--melds", "4H 5H 6H"), ("--melds",), id="score-melds-without-brackets"
        ),
        pytest.param(
            score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H] [6H 7H 8H]"),
            ("--melds", "6H"),
            id="score-melds-card-twice",
        ),
        pytest.param(
            score(K_RUN, D_CHAIN, "--set", "tie_policy=sometimes"), ("tie_policy",), id="score-bad-knob-value"
        ),
        pytest.param(
            ["layoffs", "--melds", LAYOFF_MELDS, "7H 8H 3H QH 2C 2D 2S 9S KD XX"],
            ("XX",),
            id="layoffs-bad-card",
        ),
        pytest.param(
            ["layoffs", "--melds", LAYOFF_MELDS, "7H 8H 3H QH 2C 2D 2S 9S KD"],
            ("10", "9"),
            id="layoffs-9-cards",
        ),
        pytest.param(
            ["layoffs", "--melds", LAYOFF_MELDS, "7H 8H 3H QH 2C 2D 2S 9S KD AC AD"],
            ("10", "11"),
            id="layoffs-11-cards",
        ),
        pytest.param(
            ["layoffs", "--melds", "[4H 5H 7H]", LAYOFF_HAND], ("not a meld",), id="layoffs-invalid-meld"
        ),
        pytest.param(
            ["layoffs", "--melds", "[4H 5H 6H] [4C 4D]", LAYOFF_HAND],
            ("not a meld",),
            id="layoffs-two-card-meld",
        ),
        pytest.param(
            ["layoffs", "--melds", "[6H 7H 8H]", LAYOFF_HAND],
            ("7H",),
            id="layoffs-meld-card-in-defender-hand",
        ),
        pytest.param(
            ["layoffs", "--melds", "[4H 5H 6H", LAYOFF_HAND], ("--melds",), id="layoffs-melds-unclosed"
        ),
        pytest.param(
            ["layoffs", "--melds", LAYOFF_MELDS, "7H 8H 3H QH 2C 2D 2S 9S KD 7H"],
            ("duplicate", "7H"),
            id="layoffs-duplicate-card",
        ),
    ],
)
def test_bad_input_exits_2(args: list[str], fragments: tuple[str, ...]) -> None:
    assert_input_error(run(*args), *fragments)
    assert_input_error(run(*args, "--json"), *fragments)


@pytest.mark.parametrize(
    "args",
    [
        score(K_RUN, D_CHAIN),
        score(K_RUN, D_CHAIN, "--melds", "[4H 5H 6H] [QC QD QS]"),
        score(K_UC, D_UC8, "--rules", "openspiel"),
        score("2C 3C 4C 5C 7D 8D 9D 2S 4H 5S", "AH 3H 5H 9H JH KC 8S 4S 6S QD"),
        score(K_BIG, D_67, "--rules", "hoyle"),
        ["layoffs", "--melds", LAYOFF_MELDS, LAYOFF_HAND],
    ],
)
def test_every_ruling_exits_0_in_text_and_json(args: list[str]) -> None:
    for extra in ((), ("--json",), ("--glyphs",)):
        result = run(*args, *extra)
        assert result.exit_code == 0, result.output
        assert result.exception is None
        assert result.stderr == ""


def test_adjudicate_explain_shows_each_settlement_step_with_its_knobs() -> None:
    from pathlib import Path

    tie = Path(__file__).resolve().parents[2] / "samples" / "records" / "tie-standard.gin"
    result = CliRunner().invoke(cli, ["adjudicate", str(tie), "--explain"], catch_exceptions=False)
    assert "hand 1, how it was settled:" in result.stdout
    assert "tie_policy = undercut" in result.stdout and "undercut_bonus = 10" in result.stdout
    plain = CliRunner().invoke(cli, ["adjudicate", str(tie)], catch_exceptions=False)
    assert "how it was settled" not in plain.stdout
