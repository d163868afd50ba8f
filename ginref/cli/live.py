"""The command that keeps a table for a game server: ``table``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ginref.cli.options import rules_argument

if TYPE_CHECKING:
    from ginref.rules import Rules

HINT = ('ginref table: reading JSON requests, one a line (try {"op": "new", "seed": 7}); '
        "Ctrl-D ends; `ginref table --help` lists them")


@click.command("table")
@click.option("--max-line", type=click.IntRange(64, 16 * 1024 * 1024), default=65_536, show_default=True,
              help="Longest request line in bytes; a longer one is answered line_too_long and skipped.")
@rules_argument
def table(max_line: int, rules: Rules) -> None:
    """Referee a table live, over JSON Lines.

    One request per line on standard input, one answer per line on standard output
    (docs/live.md is the reference; every answer validates against the JSON Schema
    ginref/schemas/table.schema.json in the installed package). A bad line is answered with
    an error object and the session goes on; it ends with the input (exit 0). --rules,
    --set and GINREF_RULES give the rules of a `new` that names none.

    \b
    Requests ("op"; any request may carry an "id", echoed, and a "player"):
      new        the operator deals: players, rules, set, dealer, and seed, deck,
                 or hands with upcard and stock (none: a seed, reported)
      next_hand  the operator deals the game's next hand: seed, deck or hands
      pop        the operator takes the last move back
      legal      the moves the player to move may make
      move       "move": its words (draw, take, pass, discard 7H, knock ..., 6C>1, finish)
      view       what "player" (or, for the operator, "seat") may know
      record     the game so far ("format": json or gin); a seat's once the hand is over
    A request with no "player" is the operator's; one with a seated "player" speaks
    for that seat, and its answers, refusals included, hold only what that seat may know.

    \b
    Examples:
      ginref table < samples/table/session.jsonl
      printf '{"op": "new", "seed": 7}\\n{"op": "legal"}\\n' | ginref table --rules oklahoma
      requests, one a line, as a server writes them:
        {"op": "new", "players": ["Ann", "Bo"], "seed": 7}
        {"op": "move", "player": "Bo", "move": "pass"}
        {"op": "view", "player": "Ann"}
        {"op": "record", "format": "gin"}
    """
    from ginref.referee.protocol import ended_note, serve

    if sys.stdin.isatty():
        click.echo(HINT, err=True)
    session = serve(sys.stdin.buffer, sys.stdout, max_line, rules)
    note = ended_note(session)
    if note is not None:
        click.echo(f"note: {note}", err=True)
