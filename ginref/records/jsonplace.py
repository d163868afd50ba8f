"""Where a JSON element stands in its text: the line and column a JSON pointer names, and the
nesting bound every JSON form is read under.

The JSON reader (:mod:`ginref.records.jsonform`) names a bad element by its pointer; these
helpers turn the pointer into a place in the text only when an error is reported, so reading
a good record never pays for them.
"""

from __future__ import annotations

import json
import re

from ginref.errors import RecordError

__all__ = [
    "MAX_NESTING",
    "item_starts",
    "line_and_column",
    "nested_error",
    "pointer_key",
    "pointer_offset",
    "shown_pointer",
    "too_deep",
]

MAX_NESTING = 32
"""Deepest nesting of lists and objects a record may have (a record's own is 8). Deeper is
refused by this count, not by where Python's recursion limit happens to be, so the same
text gets the same answer in every process."""

_SPACE_RE = re.compile(r"[ \t\n\r]*")
_STRUCTURE_RE = re.compile(r'[\[\]{}"]')
_STRING_BODY_RE = re.compile(r'(?:[^"\\]|\\.)*"?', re.DOTALL)


def pointer_key(key: str) -> str:
    """``key`` as one part of a JSON pointer (RFC 6901: ``~`` and ``/`` escaped)."""
    return key.replace("~", "~0").replace("/", "~1")


def shown_pointer(pointer: str) -> str:
    """A JSON pointer for a message: each part cut to 30 characters."""
    parts = pointer.split("/")
    return "/".join(p if len(p) <= 30 else p[:27] + "..." for p in parts)


def line_and_column(text: str, line: int, offset: int) -> tuple[int, int]:
    """The line and 1-based column of ``offset`` in ``text``, whose first line is ``line``."""
    return line + text.count("\n", 0, offset), offset - text.rfind("\n", 0, offset)


def too_deep(text: str) -> int | None:
    """Where ``text`` first nests deeper than :data:`MAX_NESTING` (brackets inside strings
    are skipped), or None; one pass, for error paths and whole documents only."""
    depth, i = 0, 0
    while (match := _STRUCTURE_RE.search(text, i)) is not None:
        i = match.end()
        char = match.group()
        if char == '"':
            i = _STRING_BODY_RE.match(text, i).end()  # type: ignore[union-attr]
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return match.start()
        else:
            depth -= 1
    return None


def nested_error(text: str, offset: int, source: str, line: int) -> RecordError:
    """The error for ``text`` nesting too deep at ``offset`` (from :func:`too_deep`)."""
    return RecordError(f"bad JSON: nested more than {MAX_NESTING} deep", source,
                       *line_and_column(text, line, offset))


def pointer_offset(text: str, pointer: str, start: int = 0) -> int | None:
    """Where the element at ``pointer`` starts in the JSON ``text`` (the last of equal keys),
    searching the value that starts at ``start``."""
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        return _SPACE_RE.match(text, i).end()  # type: ignore[union-attr]

    try:
        i = skip(start)
        for part in pointer.split("/")[1:] if pointer else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if text[i] == "{":
                i = skip(i + 1)
                found = None
                while text[i] != "}":
                    key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                    i = skip(skip(i) + 1)
                    if key == part:
                        found = i
                    i = skip(decoder.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = skip(i + 1)
                if found is None:
                    return None
                i = found
            elif text[i] == "[":
                i = skip(i + 1)
                for _ in range(int(part)):
                    i = skip(decoder.raw_decode(text, i)[1])
                    i = skip(i + 1)  # the comma
            else:
                return None
        return i
    except (ValueError, IndexError, RecursionError):
        return None


def item_starts(text: str) -> list[int]:
    """Where each item of the top-level JSON list in ``text`` starts."""
    decoder = json.JSONDecoder()
    starts: list[int] = []
    i = _SPACE_RE.match(text, 0).end() + 1  # type: ignore[union-attr]
    try:
        while True:
            i = _SPACE_RE.match(text, i).end()  # type: ignore[union-attr]
            if text[i] == "]":
                return starts
            starts.append(i)
            i = _SPACE_RE.match(text, decoder.raw_decode(text, i)[1]).end()  # type: ignore[union-attr]
            i += 1  # the comma
    except (ValueError, IndexError, RecursionError):
        return starts
