"""The referee: replay a record under its rules and rule on every hand and the game.

:func:`adjudicate` is the entry point; findings are data (:class:`Finding`), never
exceptions. :class:`Table` plays a hand live, move by move, under the same rules.
"""

from __future__ import annotations

from ginref.referee.findings import ADVISORY_CODES, Finding, FindingCode, Severity
from ginref.referee.table import IllegalMove, Move, Phase, Table, View
from ginref.referee.verdict import HandVerdict, Verdict, adjudicate

__all__ = [
    "ADVISORY_CODES", "Finding", "FindingCode", "HandVerdict", "IllegalMove", "Move", "Phase", "Severity",
    "Table", "Verdict", "View", "adjudicate",
]
