"""Every step of a ruling cites the knobs it applied and their values; --names names the players."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from ginref.cli import cli
from ginref.rules import KNOB_NAMES, PRESET_NAMES, find_rules, with_overrides
from ginref.scoring import Ending, settle

runner = CliRunner()
K_UC = "2C 3C 4C 7D 8D 9D JS QS KS 8H"   # deadwood 8
D_UC5 = "4H 5H 6H TC JC QC TS AD 2H 2S"  # 5 after laying off TS: an undercut


@pytest.mark.parametrize(
    ("rules", "overrides", "ending", "k", "d", "cited"),
    [
        ("standard", {}, "knock", 8, 5, {"undercut_bonus": "10"}),
        ("hoyle", {}, "knock", 8, 5, {"undercut_bonus": "25"}),
        ("standard", {}, "knock", 6, 6, {"tie_policy": "undercut", "undercut_bonus": "10"}),
        ("openspiel", {}, "knock", 6, 6, {"tie_policy": "no_score"}),
        ("standard", {"tie_policy": "knocker"}, "knock", 6, 6, {"tie_policy": "knocker"}),
        ("standard", {}, "knock", 3, 20, {}),                              # a plain knock applies no knob
        ("standard", {}, "gin", 0, 14, {"gin_bonus": "20"}),
        ("hoyle", {}, "big_gin", 0, 14, {"big_gin_bonus": "31"}),
        ("round_the_corner", {}, "gin", 0, 0, {"layoff_on_gin": "true"}),  # laid off to 0: cancelled
    ],
)
def test_the_settlement_cites_its_knobs(
    rules: str, overrides: dict[str, object], ending: Ending, k: int, d: int, cited: dict[str, str]
) -> None:
    ruled = with_overrides(find_rules(rules), overrides) if overrides else find_rules(rules)
    step = settle(ending, k, d, ruled).steps[0]
    assert dict(step.knobs) == cited
    if cited:
        assert step.text().endswith(f"({step.cited()})")


def test_spade_doubling_is_cited() -> None:
    steps = settle("knock", 3, 20, find_rules("oklahoma"), multiplier=2).steps
    assert dict(steps[-1].knobs) == {"spade_double": "true"}


@given(
    rules=st.sampled_from(PRESET_NAMES),
    ending=st.sampled_from(["knock", "gin", "big_gin"]),
    k=st.integers(0, 60),
    d=st.integers(0, 120),
)
def test_cited_values_are_the_rules_values(rules: str, ending: Ending, k: int, d: int) -> None:
    ruled = find_rules(rules)
    if (ending == "big_gin" and ruled.big_gin_bonus is None) or (ending != "knock" and k):
        return
    values = ruled.to_dict()
    for step in settle(ending, k, d, ruled, multiplier=2).steps:
        for knob, value in step.knobs:
            assert knob in KNOB_NAMES
            assert value == str(values[knob]).lower()


def test_the_text_ruling_cites_knobs_and_the_rule_set() -> None:
    result = runner.invoke(cli, ["score", "--knocker", K_UC, "--defender", D_UC5, "--rules", "hoyle"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "3 + 25 undercut bonus = 28 to the defender (undercut_bonus = 25)" in text
    assert "within the knock limit 10 (knock_limit = 10)" in text
    assert result.stdout.splitlines()[-1] == "rules: hoyle"


def test_json_keeps_the_explanation_and_adds_the_knobs_as_data() -> None:
    result = runner.invoke(cli, ["score", "--knocker", K_UC, "--defender", D_UC5, "--json"])
    document = json.loads(result.stdout)
    assert [step["text"] for step in document["steps"]] == [
        line.split(". ", 1)[1] for line in document["explanation"]
    ]
    assert document["steps"][-1]["knobs"] == {"undercut_bonus": "10"}
    assert "players" not in document


def test_names_name_the_players() -> None:
    args = ["score", "--knocker", K_UC, "--defender", D_UC5, "--names", "Ann", "Bo"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "undercut: 13 to Bo"
    assert lines[2].startswith("Ann (knocker)") and lines[4].startswith("Bo (defender)")
    assert "the knocker" not in result.stdout and "the defender" not in result.stdout
    assert "undercut: Bo's 5 is not more than Ann's 8;" in result.stdout
    document = json.loads(runner.invoke(cli, [*args, "--json"]).stdout)
    assert document["players"] == {"knocker": "Ann", "defender": "Bo"}
    same = runner.invoke(cli, [*args[:-2], "Ann", "Ann"])
    assert same.exit_code == 2 and "--names: expected two different names" in same.stderr
