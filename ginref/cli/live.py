"""The command that keeps a table for a game server: ``table``."""

from __future__ import annotations

import sys

import click


@click.command("table")
@click.option("--max-line", type=click.IntRange(64, 16 * 1024 * 1024), default=65_536, show_default=True,
              help="Longest request line in bytes; a longer one is answered line_too_long and skipped.")
def table(max_line: int) -> None:
    """Referee a table live, over JSON Lines.

    One request per line on standard input, one answer per line on standard output
    (docs/live.md lists the requests). A bad line is answered with an error object and the
    session goes on; it ends with the input (exit 0).

    \b
    Examples:
      ginref table < samples/table/session.jsonl
      printf '{"op": "new", "seed": 7}\\n{"op": "legal"}\\n' | ginref table
      requests, one a line, as a server writes them:
        {"op": "new", "players": ["Ann", "Bo"], "seed": 7}
        {"op": "move", "player": "Bo", "move": "pass"}
        {"op": "view", "player": "Ann"}
        {"op": "record", "format": "gin"}
    """
    from ginref.referee.protocol import serve

    serve(sys.stdin.buffer, sys.stdout, max_line)
