"""What a record format is: the one description each format module exports.

A :class:`Format` says everything the reading machinery needs to know of a form of
records, so that the cutting (:mod:`ginref.records.units`), the decoding
(:mod:`ginref.records.decoding`), the shards of a batch (:mod:`ginref.batch.shards`) and
the CLI's ``--from`` name no format themselves: they ask the registry
(:mod:`ginref.records.formats`). Each format module holds its own (``text.FORMAT``,
``jsonform.JSONL_FORMAT``, ``eaai.FORMAT`` ...), beside the reader it describes.

A stream's format is looked up once, to cut it; each unit's once more, to decode it (one
dict lookup, where a chain of comparisons of its form's name stood).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, Protocol

import msgspec

from ginref.errors import RecordError
from ginref.records.model import GameRecord

__all__ = ["Boundary", "Cut", "Format", "Unit", "is_comment"]

Boundary = Callable[[str], Literal["start", "end"] | None]
"""Where a game of a log starts or ends, by one of its lines: ``start`` for a line that opens
one (the line before ends the game before it), ``end`` for its last line, None otherwise."""
Cut = Literal["text", "line", "document"] | Boundary
"""How a stream is cut into units: ``text`` records (a game tag after a record's hands starts
the next), one unit a ``line``, the whole stream one ``document``, or games one after another
told by a :data:`Boundary` (a log: blank and ``#`` comment lines around games are passed over)."""


class Unit(Protocol):
    """The undecoded text of one unit and where it stands (a :class:`~ginref.records.units.RawRecord`)."""

    @property
    def text(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def game(self) -> str: ...


Decoder = Callable[[Unit], Iterable[GameRecord | RecordError]]
"""The records a unit holds (one, or a ``.json`` list's items), or the errors in their place;
it may raise :class:`RecordError` when called, for a unit that is one error (an iterator it
returns yields its errors instead of raising them)."""


class Format(msgspec.Struct, frozen=True):
    """A form of records: how a stream of it is told, cut and decoded."""

    name: str
    """What ``--from`` calls it, and a unit's ``format``"""
    label: str
    """What messages call a stream of it: ``JSON Lines records``, ``an EAAI framework log``"""
    boundary: Cut
    decode: Decoder
    sniff: Callable[[str, int], bool] | None = None
    """Whether a line or document (from offset ``start``, its first character not a space) is one
    of these, by content: another program's form. None: one of ginref's own, told by its shape."""
    opens: str = ""
    """The characters a unit that :attr:`sniff` recognises may start with: only those are tried"""
    suffixes: tuple[str, ...] = ()
    """File name endings that imply this form (``.jsonl``); a folder walk reads them"""
    reads: tuple[str, ...] = ()
    """The other forms a stream read as this (``--from``) may plainly look like and still be read"""
    variant_of: str = ""
    """The form whose name reads this one too (an OpenSpiel state is read by ``--from openspiel``):
    not offered by ``--from`` itself"""
    in_lines: str = ""
    """Set: a stream that opens with a whole one on its first line is JSON Lines of them, named
    so in messages (``Kaggle episodes, one a line``)"""
    sniff_units: bool = False
    """Each unit is sniffed again as it is decoded: it may be another program's (a JSON Lines
    line an OpenSpiel history, a Kaggle episode)"""

    @property
    def whole(self) -> bool:
        """Whether a stream of it is read whole: one document, or a log never cut into shards."""
        return self.boundary not in ("text", "line")


def is_comment(line: str) -> bool:
    """A ``#`` comment line, which a log (EAAI's or an RLCard sheet) may hold anywhere, as it
    may hold blank lines: what people print around one."""
    return line.lstrip().startswith("#")
