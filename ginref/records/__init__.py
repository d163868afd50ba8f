"""Recorded hands and games: the model, the ``.gin`` text form, the JSON form, and reading.

Every command reads records through :mod:`ginref.records.io`; the names most callers
need are here. Every form records are read from is a :class:`Format` in :data:`FORMATS`
(:mod:`ginref.records.formats`).
"""

from __future__ import annotations

from ginref.errors import RecordError
from ginref.records.form import Format
from ginref.records.formats import FORMATS, find_format, register_format
from ginref.records.io import (
    MAX_JSON,
    MAX_LINE,
    STDIN,
    SUFFIXES,
    RawRecord,
    Reading,
    convert_records,
    decode,
    raw_records,
    read_paths,
    read_record,
    read_records,
    record_format,
    sniff_format,
    write_records,
)
from ginref.records.jsonencode import format_json, format_jsonl, to_json_dict
from ginref.records.jsonform import JsonRecordError, decode_json_document, decode_json_text, from_json_dict
from ginref.records.model import (
    NOWHERE,
    ClaimedOutcome,
    ClaimedResult,
    Defence,
    Ending,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    RecordFormat,
    Source,
    Turn,
)
from ginref.records.names import Naming, renamed
from ginref.records.text import format_text, read_text

__all__ = [
    "FORMATS",
    "MAX_JSON",
    "MAX_LINE",
    "NOWHERE",
    "STDIN",
    "SUFFIXES",
    "ClaimedOutcome",
    "ClaimedResult",
    "Defence",
    "Ending",
    "Event",
    "Format",
    "GameRecord",
    "HandRecord",
    "JsonRecordError",
    "Knock",
    "Naming",
    "Pass",
    "Place",
    "RawRecord",
    "Reading",
    "RecordError",
    "RecordFormat",
    "Source",
    "Turn",
    "convert_records",
    "decode",
    "decode_json_document",
    "decode_json_text",
    "find_format",
    "format_json",
    "format_jsonl",
    "format_text",
    "from_json_dict",
    "raw_records",
    "read_paths",
    "read_record",
    "read_records",
    "read_text",
    "record_format",
    "register_format",
    "renamed",
    "sniff_format",
    "to_json_dict",
    "write_records",
]
