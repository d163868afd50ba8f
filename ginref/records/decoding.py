"""Decoding raw records: a unit's text to the records it holds, or why it cannot be read.

:func:`decode` turns one :class:`~ginref.records.units.RawRecord` into records (one, or
for a ``.json`` list one per item) by its form: the ``.gin`` text reader, the JSON form,
OpenSpiel's histories and states, Kaggle episodes, EAAI logs and RLCard move sheets.
:func:`decoded` does it for a stream of units and never raises, so that each record is
reported once. Errors read ``source:line:column: message``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

import msgspec

from ginref.errors import RecordError, detached
from ginref.records.eaai import decode_log
from ginref.records.jsonform import decode_json_document, decode_json_text, load_json
from ginref.records.kaggle import decode_episode
from ginref.records.model import GameRecord, RecordFormat, UnitForm
from ginref.records.names import named
from ginref.records.openspiel import (
    GameParams,
    decode_history,
    parse_game_string,
    parse_history_line,
    parse_serialized,
)
from ginref.records.rlcard import decode_sheet
from ginref.records.text import read_text
from ginref.records.units import RawRecord, unit_form

__all__ = ["Decoded", "decode", "decoded", "read_record"]

_LOG_DECODERS = {"eaai": decode_log, "rlcard": decode_sheet}
"""the decoder of each form of one game after another in lines"""


def decode(raw: RawRecord) -> Iterator[GameRecord | RecordError]:
    """The records a raw unit holds: one, or for a ``.json`` list one per item, their players
    named as the unit's ``names`` say. An error comes :func:`~ginref.errors.detached`: its
    message and place, not the parse's frames."""
    for item in _decode(raw):
        if isinstance(item, RecordError):
            yield detached(item)
        else:
            yield named(item, raw.names) if raw.names else item


def _decode(raw: RawRecord) -> Iterator[GameRecord | RecordError]:
    form = raw.format
    if form in ("json", "jsonl") and raw.problem is None:
        form = unit_form(raw.text) or form
    if raw.problem is not None:
        yield raw.problem
    elif form in ("openspiel", "openspiel_state", "kaggle"):
        try:
            yield _decode_other(raw, form)
        except RecordError as exc:
            yield exc
    elif form in _LOG_DECODERS:
        try:
            yield _LOG_DECODERS[form](raw.text, raw.source, raw.line, raw.index)
        except RecordError as exc:
            yield exc
    elif raw.format == "gin":
        try:
            yield read_text(raw.text, source=raw.source, first_line=raw.line, index=raw.index)
        except RecordError as exc:
            yield exc
    elif raw.format == "jsonl":
        yield decode_json_text(raw.text, source=raw.source, index=raw.index, line=raw.line)
    else:
        yield from decode_json_document(raw.text, source=raw.source, line=raw.line)


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


def _decode_other(raw: RawRecord, form: UnitForm) -> GameRecord:
    """An OpenSpiel history line or serialised state, or a Kaggle episode, as a record."""
    if form == "kaggle":
        data = load_json(raw.text, raw.source, raw.line, document=True)
        return decode_episode(data, raw.source, raw.line, raw.index)
    if form == "openspiel_state":
        params, history = parse_serialized(raw.text, raw.source, raw.line)
    else:
        params = _game(raw.game, raw.source, raw.line)
        history = parse_history_line(raw.text, raw.source, raw.line)
    return decode_history(history, params, source=raw.source, index=raw.index)


@functools.lru_cache(maxsize=16)
def _game(text: str, source: str, line: int) -> GameParams:
    return parse_game_string(text, source, line) if text else GameParams()


def read_record(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record from text in either form (JSON if it starts with ``{``); raises ``RecordError``."""
    form: RecordFormat = "jsonl" if text.lstrip().startswith("{") else "gin"
    items = list(decode(RawRecord(form, source, index, first_line, text)))
    if isinstance(items[0], RecordError):
        raise items[0]
    return items[0]
