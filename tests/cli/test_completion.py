"""Shell completion: rule names for `ginref rules NAME` and --rules, knobs for --set, files for SHEET."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from ginref.cli import cli
from ginref.rules import KNOB_NAMES, RULE_NAMES


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    shell = ShellComplete(cli, {}, "ginref", "_GINREF_COMPLETE")
    return [(item.type, item.value) for item in shell.get_completions(args, incomplete)]


@pytest.mark.parametrize(
    ("args", "incomplete", "values"),
    [
        (["rules"], "hol", ["hollywood"]),
        (["rules"], "HO", ["hollywood", "hoyle"]),
        (["rules"], "t", ["tallynight", "tournament"]),
        (["analyze", "--rules"], "ok", ["oklahoma"]),
        (["game", "--rules"], "st", ["standard", "straight"]),
        (["knock", "--set"], "gin_b", ["gin_bonus="]),
        (["rules", "standard", "--set"], "tie_policy=", ["tie_policy=knocker", "tie_policy=no_score",
                                                       "tie_policy=undercut"]),
        (["score", "--set"], "layoff_on_gin=t", ["layoff_on_gin=true"]),
        (["score", "--set"], "gin_bonus=", []),      # a number: nothing to list
        (["score", "--set"], "nosuch=", []),
    ],
)
def test_names_complete(args: list[str], incomplete: str, values: list[str]) -> None:
    assert complete(args, incomplete) == [("plain", v) for v in values]


def test_every_rule_name_and_knob_completes_from_nothing() -> None:
    assert [v for _, v in complete(["rules"], "")] == list(RULE_NAMES)
    assert [v for _, v in complete(["analyze", "--set"], "")] == [f"{k}=" for k in KNOB_NAMES]


@pytest.mark.parametrize(
    "args",
    [["game"], ["game", "--rules-file"], ["convert"], ["convert", "x.gin", "-o"]],
)
def test_paths_complete_as_files(args: list[str]) -> None:
    assert complete(args, "sam") == [("file", "sam")]


def test_the_installed_program_answers_bash() -> None:
    env = {**os.environ, "_GINREF_COMPLETE": "bash_complete", "COMP_WORDS": "ginref rules hol",
           "COMP_CWORD": "2"}
    done = subprocess.run([sys.executable, "-m", "ginref"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["plain,hollywood"]


@pytest.mark.parametrize("command", ["verify", "adjudicate"])
def test_record_arguments_complete_files(command: str, tmp_path: Path) -> None:
    from click.shell_completion import ShellComplete

    (tmp_path / "games.jsonl").write_text("")
    completion = ShellComplete(cli, {}, "ginref", "_GINREF_COMPLETE")
    items = completion.get_completions([command], str(tmp_path / "ga"))
    assert [item.type for item in items] == ["file"]
