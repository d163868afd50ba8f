"""The referee: replay a record under its rules and rule on every hand and the game.

:func:`adjudicate` is the entry point; findings are data (:class:`Finding`), never
exceptions. :class:`Table` plays a hand live, move by move, under the same rules (loaded on
first use, so that a batch that only verifies never imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginref.referee.findings import ADVISORY_CODES, Finding, FindingCode, Severity
from ginref.referee.verdict import HandVerdict, Verdict, adjudicate

if TYPE_CHECKING:
    from ginref.referee.table import Deal, IllegalMove, Move, Phase, Table, View

__all__ = [
    "ADVISORY_CODES", "Deal", "Finding", "FindingCode", "HandVerdict", "IllegalMove", "Move", "Phase",
    "Severity", "Table", "Verdict", "View", "adjudicate",
]

_TABLE_NAMES = frozenset({"Deal", "IllegalMove", "Move", "Phase", "Table", "View"})


def __getattr__(name: str) -> Any:
    if name in _TABLE_NAMES:
        import ginref.referee.table as table

        return getattr(table, name)
    raise AttributeError(f"module 'ginref.referee' has no attribute {name!r}")
