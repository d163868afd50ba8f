"""How ginref writes JSON text, in its three layouts: one line (each record of a JSON Lines
file, each result of a batch, each line of a streaming command), an indented document (a
command's ``--json``), and the readable layout of ``.json`` record files.

Every JSON text ginref writes comes from here; what a value's JSON form holds is its owner's
business (``to_dict()``, :func:`ginref.records.to_json_dict`).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

__all__ = ["json_line", "readable_json", "to_json"]

_LINE_ENCODER = msgspec.json.Encoder()


def json_line(value: object) -> str:
    """``value`` on one line, as ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``
    writes it, in a fraction of the time (msgspec).

    What msgspec will not encode (a lone surrogate, a key that is not text or a number) goes
    to ``json.dumps``; a property test in ``tests/records/test_json_twins.py`` holds the two to the
    same text.
    """
    try:
        return _LINE_ENCODER.encode(value).decode()
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):  # UnicodeEncodeError is a ValueError
        import json  # here: a text command's start-up does not pay for the json module

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_json(document: object, *, compact: bool = False) -> str:
    """One JSON document: indented by two, or on one line for streams (JSON Lines)."""
    if compact:
        return json_line(document)
    import json

    return json.dumps(document, indent=2, ensure_ascii=False)


def readable_json(value: object, *, indent: int = 0, width: int = 100) -> str:
    """``value`` as readable JSON starting in a line indented by ``indent`` (the first line
    not indented): nested, but lists of plain values and anything that fits within ``width``
    kept on one line."""
    import json

    return _readable(value, indent, width, 0, json.dumps)


def _readable(value: object, indent: int, width: int, lead: int, dumps: Callable[..., str]) -> str:
    """JSON for ``value`` starting ``lead`` characters into a line indented by ``indent``."""
    flat = dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = dumps(k, ensure_ascii=False) + ": "
            items.append(inner + key + _readable(v, indent + 2, width, len(key) + 1, dumps))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        return flat
    items = [inner + _readable(v, indent + 2, width, 1, dumps) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
