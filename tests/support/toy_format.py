"""A made-up record format, all of it in this one module: what adding a format takes.

A toy record is a JSON Lines record behind ``toy:`` on its line. The module says how such a
line is told (:func:`_sniff`), cut (one a line) and decoded (:func:`_decode`), in one
:class:`~ginref.records.form.Format`; registering it (``register_format(FORMAT)``, the one
line) is all ginref needs to read it: ``--from toy``, sniffing, shards.
"""

from __future__ import annotations

from ginref.errors import RecordError
from ginref.records.form import Format, Unit
from ginref.records.jsonform import decode_json_text
from ginref.records.model import GameRecord

PREFIX = "toy:"


def _decode(unit: Unit) -> tuple[GameRecord | RecordError]:
    text = unit.text.strip()
    if not text.startswith(PREFIX):
        raise RecordError(f"a toy record starts {PREFIX!r}", unit.source, unit.line, 1)
    return (decode_json_text(text[len(PREFIX):], source=unit.source, index=unit.index, line=unit.line),)


def _sniff(text: str, start: int) -> bool:
    return text.startswith(PREFIX, start)


FORMAT = Format("toy", "toy records", "line", _decode, _sniff, opens=PREFIX[0], suffixes=(".toy",))
