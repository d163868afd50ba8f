"""The referee: replay a record under its rules and rule on every hand and the game.

:func:`adjudicate` is the entry point; findings are data (:class:`Finding`), never
exceptions.
"""

from __future__ import annotations

from ginref.referee.findings import ADVISORY_CODES, Finding, FindingCode, Severity
from ginref.referee.verdict import HandVerdict, Verdict, adjudicate

__all__ = ["ADVISORY_CODES", "Finding", "FindingCode", "HandVerdict", "Severity", "Verdict", "adjudicate"]
