"""The ``ginref`` command line: parse arguments, make one library call, render.

- :mod:`~ginref.cli.exits`: exit codes and the errors that carry them
- :mod:`~ginref.cli.options`: shared options and parameter types (a hand, cards, melds, players)
- :mod:`~ginref.cli.output`: stdout, colour, width, the progress line
- :mod:`~ginref.cli.hands`, :mod:`~ginref.cli.games`, :mod:`~ginref.cli.records`: the commands,
  by what they work on
- :mod:`~ginref.cli.app`: the group; :mod:`~ginref.cli.process`: ``main``, signals and pipes
"""

from __future__ import annotations

from ginref.cli.app import cli
from ginref.cli.process import main

__all__ = ["cli", "main"]
