"""The ``ginref`` group: its options, and every command added to it."""

from __future__ import annotations

import os

import click

from ginref.cli.games import game, rules_command
from ginref.cli.hands import advise, analyze, knock, layoffs, score
from ginref.cli.records import adjudicate, convert, verify
from ginref.cli.report import report

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 80}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ginref", prog_name="ginref")
@click.option("--color/--no-color", "color", default=None,
              help="Colour red cards, or never  [default: on a terminal, unless NO_COLOR is set]")
@click.pass_context
def cli(ctx: click.Context, color: bool | None) -> None:
    """ginref: the Gin Rummy referee.

    Exact meld search, knock and gin checks, layoffs, hand and game scoring
    under named rule sets, and verification of recorded hands.

    \b
    Examples:
      ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 7S KC
      ginref rules standard
    """
    if color is not None:
        ctx.color = color
    elif os.environ.get("NO_COLOR"):
        ctx.color = False


for command in (analyze, knock, rules_command, layoffs, score, advise, game, adjudicate, verify, convert):
    cli.add_command(command)
cli.add_command(report)
