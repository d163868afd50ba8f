"""The shared layouts of text for people: cards in a style, the tables (tabulate's, a plain
twin that needs no tabulate, a score sheet's, the compact table of a report), wrapped lines
and the width they fit. No game logic lives here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import msgspec

from ginref.cards import Card, Mask, card_label, scan

if TYPE_CHECKING:
    from ginref.melds import Meld


Paint = Callable[[str, str], str]
"""``paint(text, colour)``: text in a named colour ("red"); the command line passes ``click.style``."""


class CardStyle(msgspec.Struct, frozen=True):
    """How text output shows a card: letters or glyphs, coloured or plain.

    Colour comes from ``paint``, given by the caller, so render holds no escape
    codes and the command line's one colour function (click's) decides them.
    """

    glyphs: bool = False
    paint: Paint | None = None

    def card(self, c: Card) -> str:
        label = card_label(c, glyphs=self.glyphs)
        if self.paint is not None and c // 13 in (1, 2):
            return self.paint(label, "red")
        return label

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def mask(self, mask: Mask) -> str:
        return self.cards(scan(mask))

    def meld(self, meld: Meld) -> str:
        return "[" + self.cards(meld.cards) + "]"

    def melds(self, melds: Iterable[Meld]) -> str:
        return " ".join(self.meld(m) for m in melds) or "none"

    def deadwood(self, mask: Mask, points: int) -> str:
        return f"{self.mask(mask)} = {points}" if mask else "none = 0"


_POINTER_WINDOW = 72


def pointer(text: str, column: int, indent: str = "  ") -> str:
    """Two lines: ``text`` (a window of it around ``column``, 1-based) and a caret under that column.

    Control characters show as ``?`` and wide characters take two cells, so the
    caret stays under the character it names.
    """
    if "\n" in text or column < 1:
        return ""
    at = min(column - 1, len(text))
    start = max(0, at - _POINTER_WINDOW // 2)
    window = text[start : start + _POINTER_WINDOW]
    shown = "".join(_cell(c) for c in window)
    lead = ("..." if start else "") + "".join(_cell(c) for c in text[start:at])
    tail = "..." if start + _POINTER_WINDOW < len(text) else ""
    return f"{indent}{'...' if start else ''}{shown}{tail}\n{indent}{' ' * _width(lead)}^"


def _cell(c: str) -> str:
    return "?" if not c.isprintable() and c != " " else c


def _width(text: str) -> int:
    import unicodedata

    return sum(0 if unicodedata.combining(c) or c in "\ufe0e\ufe0f" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


WIDTH = 80
"""Columns text output fits when the caller knows no better (a pipe, a file)."""


def text_table(
    rows: Sequence[Sequence[object]],
    headers: Sequence[str] = (),
    right: Sequence[int] = (),
    wrap: dict[int, int] | None = None,
) -> str:
    """A table; columns ``right`` right-aligned (numbers), ``wrap`` column -> most characters."""
    if not wrap and plain_cells(rows, headers):
        return plain_table(rows, headers, right)
    from tabulate import tabulate

    count = max([len(headers), *(len(row) for row in rows)])
    align = ["right" if i in right else "left" for i in range(count)]
    widths = [None if wrap is None else wrap.get(i) for i in range(count)] if wrap else None
    if wrap:
        rows = [[_unbreakable(str(cell)) for cell in row] for row in rows]
    if headers:
        text = tabulate(rows, headers=list(headers), tablefmt="simple", disable_numparse=True,
                        colalign=align, maxcolwidths=widths)
    else:
        text = tabulate(rows, tablefmt="plain", disable_numparse=True, colalign=align, maxcolwidths=widths)
    return text.replace(_NO_BREAK, " ")


def plain_cells(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> bool:
    """True for a table :func:`plain_table` lays out as tabulate would: rows of one length
    (the headers' too, if any) of non-empty printable ASCII text without edge spaces."""
    if not rows:
        return False
    count = len(headers) if headers else len(rows[0])
    for row in (headers, *rows) if headers else rows:
        if len(row) != count:
            return False
        for cell in row:
            if type(cell) is not str or not cell or not cell.isascii() or not cell.isprintable():
                return False
            if cell[0] == " " or cell[-1] == " ":
                return False
    return True


def plain_table(rows: Sequence[Sequence[object]], headers: Sequence[str], right: Sequence[int]) -> str:
    """tabulate's ``plain`` table (``simple`` with headers) of :func:`plain_cells`, without
    importing it: a one-hand command needs no more, and tabulate costs a third of its start-up."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    if headers:
        widths = [max(w, len(h) + 2) for w, h in zip(widths, headers, strict=True)]

    def line(row: Sequence[str]) -> str:
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()

    lines = [line(row) for row in cells]
    if headers:
        lines[:0] = [line(headers), "  ".join("-" * w for w in widths)]
    return "\n".join(lines)


_NO_BREAK = "\xa0"
_BRACKETED = r"(?:\S+ onto )?\[[^\]]*\]"
"""A meld, or a layoff onto one: compiled when a table wraps (most never do)."""


def _unbreakable(text: str) -> str:
    """``text`` with the spaces inside each ``[meld]`` kept from wrapping (no-break spaces)."""
    return re.sub(_BRACKETED, lambda m: m.group().replace(" ", _NO_BREAK), text)


def wrapped(line: str, width: int, indent: str) -> list[str]:
    """A long line wrapped at ``width``, the rest indented by ``indent``: broken after a
    ``;`` or ``,`` where it can be, so that a clause (``3 + 10 undercut bonus = 13``) and
    a meld stay whole."""
    import textwrap

    lines: list[str] = []
    current = ""
    for clause in re.split(r"(?<=[;,]) ", _unbreakable(line)):
        joined = f"{current} {clause}" if current else (indent if lines else "") + clause
        if len(joined) <= width:
            current = joined
            continue
        lead = indent if lines or current else ""
        if current:
            lines.append(current)
        pieces = textwrap.wrap(lead + clause, width, subsequent_indent=indent, break_on_hyphens=False)
        lines.extend(pieces[:-1])
        current = pieces[-1] if pieces else ""
    lines.append(current)
    return [part.replace(_NO_BREAK, " ") for part in lines]


def score_table(rows: Sequence[Sequence[str]], headers: Sequence[str], right: Sequence[int] = ()) -> str:
    """A score sheet's table: plain text cells, numbers right-aligned, each column as wide as
    its widest cell (tabulate pads headers by two more, which a Hollywood sheet cannot spare)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)]

    def line(cells: Sequence[str]) -> str:
        padded = (cell.rjust(w) if i in right else cell.ljust(w)
                  for i, (cell, w) in enumerate(zip(cells, widths, strict=True)))
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def wrap_room(width: int, *used: int) -> int:
    """What is left of ``width`` for a wrapped column after the others and the column gaps."""
    return max(20, width - sum(used) - 2 * len(used))



def compact_table(rows: Sequence[Sequence[str]], headers: Sequence[str], names: int = 1) -> str:
    """A compact table: headers of two lines over their column, the first ``names`` columns
    left-aligned and the figures right-aligned, each column as wide as its widest line, two
    spaces apart."""
    heads = [head.split("\n", 1) if "\n" in head else ["", head] for head in headers]
    widths = [max(len(cell) for cell in (*heads[i], *(row[i] for row in rows))) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if i < names else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line([h[0] for h in heads]), line([h[1] for h in heads]),
                      line(["-" * w for w in widths]), *(line(row) for row in rows)])


def _fit(name: str, room: int) -> str:
    """A row's name cut in the middle to ``room`` characters, keeping how it starts and ends
    (a path's folder and file, a rule set's preset and its last knob)."""
    if len(name) <= room:
        return name
    tail = (room - 3) // 2
    return name[:room - 3 - tail] + "..." + name[len(name) - tail:]


def fitted_names(names: Sequence[str], room: int | None) -> list[str]:
    """The names cut to ``room`` characters (None: never cut), or as little wider as keeps
    every cut name apart: two names are never cut into the same text."""
    longest = max(map(len, names), default=0)
    if room is None or room >= longest:
        return list(names)
    wanted = len(set(names))
    for width in range(max(room, 5), longest):
        cut = [_fit(name, width) for name in names]
        if len(set(cut)) == wanted:
            return cut
    return list(names)


def column_widths(heads: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width in a :func:`compact_table`: its widest line, header or cell."""
    return [max(len(part) for text in (head, *(row[i] for row in rows)) for part in text.split("\n"))
            for i, head in enumerate(heads)]


def column_runs(names: Sequence[str], heads: Sequence[str], rows: Sequence[Sequence[str]],
                 width: int | None, names_head: str = "") -> list[tuple[int, int]]:
    """The table's figure columns split into runs that fit ``width`` beside the names (headed
    ``names_head``): when a name cannot be cut further without two names reading alike, the
    other columns give way."""
    if width is None or not heads:
        return [(0, len(heads))]
    used = column_widths(heads, rows)
    left = width - max([len(n) for n in names] + [5, len(names_head)])
    runs, start, taken = [], 0, 0
    for i, need in enumerate(used):
        if i > start and taken + need + 2 > left:
            runs.append((start, i))
            start, taken = i, 0
        taken += need + 2
    runs.append((start, len(heads)))
    return runs
