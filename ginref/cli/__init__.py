"""The ``ginref`` command line: parse arguments, make one library call, render.

- :mod:`~ginref.cli.exits`: exit codes and the errors that carry them
- :mod:`~ginref.cli.options`: shared options and parameter types (a hand, cards, melds, players)
- :mod:`~ginref.cli.output`: stdout, colour, width, the progress line
- :mod:`~ginref.cli.hands`, :mod:`~ginref.cli.games`, :mod:`~ginref.cli.records`: the commands,
  by what they work on
- :mod:`~ginref.cli.app`: the group; :mod:`~ginref.cli.process`: ``main``, signals and pipes
- :mod:`~ginref.cli.completing`: bash completion that survives bash splitting words at ``=``
- :mod:`~ginref.cli.importing`: the modules loaded with the garbage collector paused

``cli`` (the click group) and ``main`` (the program) load the rest as they are first used.
"""

from __future__ import annotations

from ginref.cli.importing import keep_for_good, loading

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING``: typing is imported in :func:`main`'s paused load, with click"""

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NoReturn

    from ginref.cli.app import cli

__all__ = ["cli", "main"]


def main(args: Sequence[str] | None = None) -> NoReturn:
    """The ``ginref`` program (:func:`ginref.cli.process.main`), in a process of its own."""
    keep_for_good()
    with loading():
        from ginref.cli.process import main as run
    run(args)


def __getattr__(name: str) -> object:
    if name != "cli":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with loading():
        from ginref.cli.app import cli
    globals()["cli"] = cli
    return cli
