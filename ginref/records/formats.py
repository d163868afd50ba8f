"""The registry of record formats: every form ginref reads, in one list.

Each format module exports its :class:`~ginref.records.form.Format`; :data:`FORMATS` lists
them, in the order ``--from`` offers them and sniffing tries them, as python-chess lists its
variants. Adding a format is one module and one line here (or :func:`register_format`, for a
plugin's or a test's). :func:`find_format` looks one up by name; :func:`unit_form` tells
another program's line or document by its content, trying only the formats that may start
with its first character.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import cast

from ginref.errors import FormatError
from ginref.records.eaai import FORMAT as EAAI
from ginref.records.form import Format
from ginref.records.jsonform import JSON_FORMAT, JSONL_FORMAT
from ginref.records.kaggle import FORMAT as KAGGLE
from ginref.records.model import UnitForm
from ginref.records.openspiel import HISTORY_FORMAT, STATE_FORMAT
from ginref.records.rlcard import FORMAT as RLCARD
from ginref.records.text import FORMAT as TEXT

__all__ = [
    "FORMATS", "FormatError", "document_form", "find_format", "input_forms", "log_form", "register_format",
    "suffix_form", "unit_form", "unregister_format",
]


FORMATS: dict[str, Format] = {
    format.name: format
    for format in (
        TEXT,
        JSON_FORMAT,
        JSONL_FORMAT,
        HISTORY_FORMAT,
        STATE_FORMAT,
        KAGGLE,
        EAAI,
        RLCARD,
    )
}
"""Every format by name, in order"""


def find_format(name: str) -> Format:
    """The format of that name; raises :class:`FormatError`."""
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"no record format {name!r} (known: {', '.join(FORMATS)})") from None


def input_forms() -> tuple[str, ...]:
    """The names ``--from`` offers: every format but the variants another's name reads."""
    return tuple(name for name, format in FORMATS.items() if not format.variant_of)


_Sniffer = tuple[Callable[[str, int], bool], UnitForm]
"""a format's ``sniff`` and its name"""
_SNIFFED: dict[str, tuple[_Sniffer, ...]] = {}
"""for each first character, the formats whose units may start with it, in order"""
_SNIFFED_ANYWHERE: tuple[_Sniffer, ...] = ()
"""the formats that say no first character: tried for every unit"""
_LOGS: tuple[_Sniffer, ...] = ()
"""the formats of games one after another in lines that sniffing can tell"""
_DOCUMENTS: tuple[_Sniffer, ...] = ()
"""the formats of one JSON document (they open with ``{``) that sniffing can tell"""


def _index() -> None:
    """The tables :func:`unit_form` and :func:`log_form` read, made again from :data:`FORMATS`."""
    global _SNIFFED_ANYWHERE, _LOGS, _DOCUMENTS
    sniffed = [(f, (f.sniff, cast("UnitForm", f.name))) for f in FORMATS.values() if f.sniff is not None]
    _SNIFFED_ANYWHERE = tuple(pair for f, pair in sniffed if not f.opens)
    _SNIFFED.clear()
    for first in sorted({c for f, _ in sniffed for c in f.opens}):
        _SNIFFED[first] = tuple(pair for f, pair in sniffed if first in f.opens or not f.opens)
    _LOGS = tuple(pair for f, pair in sniffed if callable(f.boundary))
    _DOCUMENTS = tuple(pair for f, pair in sniffed if f.boundary == "document" and "{" in f.opens)


def register_format(format: Format) -> None:
    """Add a format to the registry, after the others: ``--from`` offers it, sniffing tries it,
    a file name ending in one of its suffixes implies it. Raises :class:`FormatError` if one
    of that name is registered already."""
    if format.name in FORMATS:
        raise FormatError(f"a record format {format.name!r} is registered already")
    FORMATS[format.name] = format
    _index()


def unregister_format(name: str) -> None:
    """Take a format out of the registry (what :func:`register_format` added)."""
    find_format(name)
    del FORMATS[name]
    _index()


_SPACE_RE = re.compile(r"\s*")


def unit_form(text: str) -> UnitForm | None:
    """What a line or document from another program is, by its content; None: a record form.

    Each format that can tell its own says (its ``sniff``), in the registry's order, of those
    whose units may start with the text's first character that is not a space: a line that
    is a JSON array of ints (``[38, 18, ...]``) or starts ``history=`` is an OpenSpiel history;
    ``[Meta]`` or OpenSpiel's header comment starts a serialised state; JSON with ``"name":
    "open_spiel_gin_rummy"`` near its top is a Kaggle episode; EAAI logs and RLCard sheets by
    their first line.
    """
    start = _SPACE_RE.match(text).end() if text[:1].isspace() else 0  # type: ignore[union-attr]
    for sniff, name in _SNIFFED.get(text[start : start + 1], _SNIFFED_ANYWHERE):  # every unit of a batch
        if sniff(text, start):
            return name
    return None


def log_form(line: str) -> UnitForm | None:
    """A log of games one after another (an EAAI log, RLCard sheets), by its first line."""
    start = _SPACE_RE.match(line).end() if line[:1].isspace() else 0  # type: ignore[union-attr]
    for sniff, name in _LOGS:
        if sniff(line, start):
            return name
    return None


def document_form(text: str) -> UnitForm | None:
    """What a JSON document is by the lines of it read so far, wherever they start: a Kaggle
    episode by its name near the top; None: none of the formats that sniff one says."""
    for sniff, name in _DOCUMENTS:
        if sniff(text, 0):
            return name
    return None


def suffix_form(name: str) -> UnitForm | None:
    """The form a file name's ending implies (``.jsonl``: JSON Lines), if any."""
    ending = os.path.splitext(name)[1].lower()
    for format in FORMATS.values():
        if ending in format.suffixes:
            return cast("UnitForm", format.name)
    return None


_index()
