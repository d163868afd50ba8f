"""Python bots for ``py:`` (tests/match/test_protocol.py): a function and a class."""

from __future__ import annotations

from collections.abc import Sequence

from ginref.referee.table import Move, View


def first_legal(view: View, legal: Sequence[Move]) -> str:
    """The first legal move, as words."""
    return str(legal[0])


class Last:
    """The last legal move; made with the rules and a seed, as the arena makes a class."""

    def __init__(self, rules: object, seed: int) -> None:
        self.seed = seed

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[-1]


class Plain:
    """A class made with nothing: the first legal move."""

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[0]
