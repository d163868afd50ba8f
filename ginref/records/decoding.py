"""Decoding raw records: a unit's text to the records it holds, or why it cannot be read.

:func:`decode` turns one :class:`~ginref.records.units.RawRecord` into records (one, or
for a ``.json`` list one per item) by its format's decoder (the registry's,
:mod:`ginref.records.formats`): the ``.gin`` text reader, the JSON form, OpenSpiel's
histories and states, Kaggle episodes, EAAI logs and RLCard move sheets.
:func:`decoded` does it for a stream of units and never raises, so that each record is
reported once. Errors read ``source:line:column: message``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec

from ginref.errors import RecordError, detached
from ginref.records.formats import FORMATS, unit_form
from ginref.records.model import GameRecord, RecordFormat
from ginref.records.names import named
from ginref.records.units import RawRecord

__all__ = ["Decoded", "decode", "decoded", "read_record"]


def decode(raw: RawRecord) -> Iterator[GameRecord | RecordError]:
    """The records a raw unit holds: one, or for a ``.json`` list one per item, their players
    named as the unit's ``names`` say. An error comes :func:`~ginref.errors.detached`: its
    message and place, not the parse's frames."""
    for item in _records_of(raw):
        if isinstance(item, RecordError):
            yield detached(item)
        else:
            yield named(item, raw.names) if raw.names else item


def _records_of(raw: RawRecord) -> Iterable[GameRecord | RecordError]:
    """A unit decoded by its format's decoder (the registry's, :mod:`ginref.records.formats`),
    or by another program's when the unit is one (a Kaggle episode on a line of JSON Lines).
    A plain function, not a generator: every record of a batch passes here."""
    if raw.problem is not None:
        return (raw.problem,)
    format = FORMATS[raw.format]
    if format.sniff_units:
        other = unit_form(raw.text)
        if other is not None:
            format = FORMATS[other]
    try:
        return format.decode(raw)
    except RecordError as exc:
        return (exc,)


class Decoded(msgspec.Struct, frozen=True, gc=False):
    """One record of an input, decoded, or why it cannot be read; where it starts."""

    record: GameRecord | RecordError
    index: int
    line: int


def decoded(raws: Iterable[RawRecord]) -> Iterator[Decoded]:
    """The records of raw units, decoded, in order: what a batch checks. A unit whose
    decoding fails in a way that is a bug of ginref's (it should not happen) is reported as
    an error naming it, so that no record goes missing."""
    for raw in raws:
        count = 0
        try:
            for item in decode(raw):
                yield Decoded(item, raw.index + count, raw.line)
                count += 1
        except Exception as exc:
            bug = f"internal error, please report it: {type(exc).__name__}: {exc}"[:300]
            yield Decoded(RecordError(bug, raw.source, raw.line), raw.index + count, raw.line)


def read_record(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record from text in either form (JSON if it starts with ``{``); raises ``RecordError``."""
    form: RecordFormat = "jsonl" if text.lstrip().startswith("{") else "gin"
    items = list(decode(RawRecord(form, source, index, first_line, text)))
    if isinstance(items[0], RecordError):
        raise items[0]
    return items[0]
