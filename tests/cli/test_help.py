"""What a new user reads first: the list of commands, the first example of each, the README's table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def help_text(*command: str) -> str:
    result = CliRunner().invoke(cli, [*command, "--help"], terminal_width=80)
    assert result.exit_code == 0
    return result.stdout


def command_summaries() -> dict[str, str]:
    listed = help_text().split("\nCommands:\n", 1)[1]
    return dict(re.findall(r"^  (\S+) +(.+)$", listed, flags=re.M))


def test_every_command_is_listed_with_a_whole_first_sentence() -> None:
    """The list once read "for a 10- or..." and "1 if not, 2...": sentences cut mid-phrase."""
    summaries = command_summaries()
    assert sorted(summaries) == sorted(cli.list_commands(click.Context(cli)))
    for name, summary in summaries.items():
        assert not summary.endswith("..."), name
        assert summary.endswith((".", "?")), name


def examples(*command: str) -> list[str]:
    """The command lines under ``Examples:`` in the help, continuation lines joined."""
    block = help_text(*command).split("Examples:\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("command", "wanted"),
    [((), "knock"), (("knock",), ""), (("score",), ""), (("advise",), "--at"), (("analyze",), "")],
)
def test_the_first_example_succeeds(command: tuple[str, ...], wanted: str) -> None:
    """Run in a real shell as a user pastes it; ``knock``'s and ``advise --at``'s once said no (exit 1)."""
    first = next(line for line in examples(*command) if wanted in line)
    shell = f'ginref() {{ "{sys.executable}" -m ginref "$@"; }}\n{first}'
    done = subprocess.run(["bash", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (first, done.stdout[-300:], done.stderr)


def test_the_readme_table_names_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## What it does", 1)[1].split("\n\n", 2)[1]
    named = set(re.findall(r"^\| `ginref (\w+)", table, flags=re.M))
    assert named == set(cli.list_commands(click.Context(cli)))
