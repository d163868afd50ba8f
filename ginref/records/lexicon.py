"""The words of the text form (``.gin``) that its reader and its grammar share.

The keywords, the patterns of a bare name and of quoted text, and the token both
produce: the reader's fast path without pyparsing, :mod:`ginref.records.text_grammar`
with it.
"""

from __future__ import annotations

import msgspec

__all__ = [
    "RECORD_KEYWORDS", "RECORD_NAME_RE", "RECORD_OUTCOMES", "RECORD_STRING_RE", "RECORD_WORD_RE",
    "RecordToken",
]


class RecordToken(msgspec.Struct, frozen=True, gc=False):
    """A keyword, name or tag value of a record line and where it starts (0-based). A
    Struct, made several times faster than a frozen dataclass: a record makes about 30."""

    loc: int
    text: str


RECORD_KEYWORDS = (
    "pass", "draw", "take", "discard", "knock", "gin", "big_gin", "defend", "deadwood", "least_deadwood",
    "result", "score", "final", "next_dealer", "undercut", "tie", "void", "illegal_knock",
)
RECORD_OUTCOMES = ("knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock", "win", "draw")
RECORD_WORD_RE = r"[^\W\d]\w*(?:['.-]\w+)*"
"""A word that is a player name needing no quotes unless it is one of :data:`RECORD_KEYWORDS`"""
RECORD_NAME_RE = rf"(?!(?:{'|'.join(RECORD_KEYWORDS)})(?!['.-]?\w)){RECORD_WORD_RE}"
"""A player name that needs no quotes; the formatter quotes every other name."""
RECORD_STRING_RE = r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
"""A JSON string literal, the quoted text of tag values and unusual names."""
