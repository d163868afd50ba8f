"""Cutting a stream into raw records: one record's undecoded text each, and what the stream is.

:func:`raw_records` cuts a stream into :class:`RawRecord` units (a ``.jsonl`` line, one
``.json`` document, one text record, one game of a log) without decoding them
(:mod:`ginref.records.decoding` does that). The form is the one given, else the one a name
implies, else sniffed from the content (:func:`sniff_format`); inputs from other programs
are recognised by content, by the sniffing of each format of the registry
(:mod:`ginref.records.formats`): a Kaggle gin rummy episode, OpenSpiel's
``SerializeGameAndState`` text, OpenSpiel action histories (a line that is a JSON array of
ints, or ``history=p:a,...``), EAAI logs and RLCard move sheets. How a form is cut into
units is its format's ``boundary``.

- One line limit (:data:`MAX_LINE` bytes) and one document limit (:data:`MAX_JSON`);
  a longer line is one unreadable record, read past without being stored.
- Bytes, not text: a line that is not UTF-8 (or holds a NUL byte) spoils only its
  own record. Line 1 may start with a BOM; line ends may be CRLF.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import IO, NamedTuple, cast

import msgspec

from ginref.errors import RecordError
from ginref.files import (
    Line,
    TextRun,
    decompressed,
    head_bytes,
    numbered_lines,
    numbered_runs,
    wide_text,
)
from ginref.records.form import Boundary, is_comment
from ginref.records.formats import FORMATS, document_form, log_form, unit_form
from ginref.records.model import UnitForm
from ginref.records.names import Naming
from ginref.records.text import (
    CONTENT_LINE_RE,
    GAME_TAG_LINE_RE,
    is_blank_line,
    is_game_tag_line,
)

__all__ = [
    "MAX_JSON",
    "MAX_LINE",
    "MAX_RECORD",
    "RawRecord",
    "Resolved",
    "TextSplitter",
    "cut_units",
    "line_items",
    "raw_records",
    "record_lines",
    "resolve_stream",
    "sniff_format",
    "text_starts",
    "text_units",
    "window",
]

MAX_LINE = 1 << 22
"""Longest line read (bytes, 4 MiB); a longer one is an unreadable record."""
MAX_JSON = 1 << 26
"""Largest ``.json`` document read whole (bytes, 64 MiB)."""
MAX_RECORD = 1 << 24
"""Largest text record (characters, 16 MiB); a longer one is unreadable and read past."""


class RawRecord(msgspec.Struct, frozen=True):
    """One record's undecoded text and where it starts; ``problem`` when it cannot be read."""

    format: UnitForm
    source: str
    index: int
    line: int
    text: str = ""
    problem: RecordError | None = None
    game: str = ""
    """OpenSpiel's game string for a history line (``--game``); empty: OpenSpiel's defaults"""
    names: Naming | None = None
    """how to name the players of the records it holds (``--players``, ``--names``)"""


def window(handle: IO[bytes], stop: int) -> IO[bytes]:
    return cast("IO[bytes]", Window(handle, stop))


class Window:
    """A byte stream read only up to ``stop``."""

    def __init__(self, handle: IO[bytes], stop: int) -> None:
        self.handle, self.left = handle, stop - handle.tell()

    def readline(self, limit: int) -> bytes:
        data = self.handle.readline(min(limit, self.left)) if self.left > 0 else b""
        self.left -= len(data)
        return data

    def read(self, size: int) -> bytes:
        data = self.handle.read(min(size, self.left)) if self.left > 0 else b""
        self.left -= len(data)
        return data



# -- lines --------------------------------------------------------------------------------------


def record_lines(stream: IO[bytes] | IO[str], first: int = 1) -> Iterator[Line]:
    return numbered_lines(stream, MAX_LINE, "records", first=first)


def line_items(stream: IO[bytes] | IO[str], form: UnitForm, first: int = 1) -> Iterator[Line | TextRun]:
    """The lines of a stream from line ``first``: a byte stream of text records in runs
    (:func:`~ginref.files.numbered_runs`), anything else line by line (for JSON Lines, runs
    measured no faster: docs/verify-speed.md)."""
    if FORMATS[form].boundary == "text" and isinstance(stream, (io.BufferedIOBase, Window)):
        return numbered_runs(cast("IO[bytes]", stream), MAX_LINE, "records", first=first)
    return record_lines(stream, first)


def sniff_format(first_line: str) -> UnitForm:
    """The form of records whose first non-blank line is ``first_line``.

    Another program's form is recognised first (:func:`~ginref.records.formats.unit_form`; a
    whole Kaggle episode on the line opens JSON Lines of them). ``[`` opens one JSON
    document (a list) unless a tag name follows it (``[Rules``: text); ``{`` is JSON Lines
    when the line closes its object (``}``) and one JSON document otherwise (pretty JSON);
    anything else is text.
    """
    stripped = first_line.strip()
    other = unit_form(stripped)
    if other is not None:
        return "jsonl" if FORMATS[other].in_lines else other
    if stripped.startswith("["):
        return "json" if stripped[1:].lstrip()[:1] in ("{", "]", "") else "gin"
    if stripped.startswith("{"):
        return "jsonl" if stripped.endswith("}") else "json"
    return "gin"


def _sniffed(stream: IO[bytes] | IO[str]) -> tuple[UnitForm, list[Line]]:
    """The form of a stream by its first line that is not blank, and the lines read to find it:
    the stream is left just past them. A ``#`` comment first is text's, unless the first line
    after the comments (within :data:`_LOOK_AHEAD`) starts a log: an EAAI log or RLCard sheets
    with comments printed above them."""
    seen: list[Line] = []
    for item in record_lines(stream):
        seen.append(item)
        if item[1].strip() or item[2] is not None:
            form = sniff_format(item[1])
            if item[2] is None and is_comment(item[1]):
                form = log_form(_first_content(seen, stream)) or form
            return form, seen
    return "gin", seen


_LOOK_AHEAD = 4096
"""characters read past the first line of a JSON document to tell a Kaggle episode"""


def _looks_like(seen: list[Line], stream: IO[bytes] | IO[str]) -> tuple[UnitForm, str] | None:
    """What a stream whose lines so far are ``seen`` plainly is, and its name, on positive
    evidence only: a game tag line (after ``#`` comments), a whole JSON object on a line, a
    JSON document's opening line (a Kaggle episode when its name comes within a few lines:
    :func:`~ginref.records.formats.document_form`),
    another program's line. None when its first line says nothing for sure (a damaged
    record, say). The lines read on to tell are added to ``seen``."""
    first = _first_content(seen, stream)
    other = unit_form(first)
    if other is not None:
        found = FORMATS[other]
        return ("jsonl", found.in_lines) if found.in_lines else (other, found.label)
    if is_game_tag_line(first):
        return "gin", FORMATS["gin"].label
    if first.startswith("{") and first.endswith("}"):
        return "jsonl", FORMATS["jsonl"].label
    if first not in ("{", "[") and not (first.startswith("[") and first[1:].lstrip()[:1] == "{"):
        return None
    _read_ahead(seen, stream, lambda text: document_form(text) is not None)
    form = document_form("\n".join(text for _, text, _ in seen)) or "json"
    return form, FORMATS[form].label


def _first_content(seen: list[Line], stream: IO[bytes] | IO[str]) -> str:
    """The first line that is not blank nor a ``#`` comment, stripped, read on within
    :data:`_LOOK_AHEAD` characters; "" when none is found or a line cannot be read."""
    def content(text: str) -> bool:
        stripped = text.strip()
        return bool(stripped) and not stripped.startswith("#")

    if not any(content(text) or problem for _, text, problem in seen):
        _read_ahead(seen, stream, lambda text: content(text))
    for _, text, problem in seen:
        if problem is not None:
            return ""
        if content(text):
            return text.strip()
    return ""


def _read_ahead(seen: list[Line], stream: IO[bytes] | IO[str], enough: Callable[[str], bool]) -> None:
    """Lines after ``seen`` added to it, up to one ``enough`` holds for (or one that cannot be
    read), at most about :data:`_LOOK_AHEAD` characters of them."""
    size = 0
    for line in record_lines(stream, seen[-1][0] + 1 if seen else 1):
        seen.append(line)
        size += len(line[1]) + 1
        if line[2] is not None or enough(line[1]) or size > _LOOK_AHEAD:
            return


def _not_read_as(
    format: UnitForm, seen: list[Line], stream: IO[bytes] | IO[str], source: str
) -> RecordError | None:
    """The one error for a stream given a form (``--from``) that it plainly is not: read
    as that form, every line of it would be an error of its own."""
    looks = _looks_like(seen, stream)
    given = FORMATS[format]
    if looks is None or looks[0] in (format, *given.reads) or FORMATS[looks[0]].variant_of == format:
        return None
    line = next((number for number, text, _ in seen if text.strip()), 1)
    return RecordError(f"this looks like {looks[1]}, not {given.label} (the form it is read as: "
                       f"{format}); read it as what it is", source, line, 1)


# -- cutting a stream into raw records ----------------------------------------------------------


def raw_records(
    stream: IO[bytes] | IO[str], source: str, format: UnitForm | None = None, *, game: str = "",
    named: UnitForm | None = None, names: Naming | None = None,
) -> Iterator[RawRecord]:
    """The raw records of a stream, in order: in ``format`` (``--from``), else the form its
    name implies (``named``), else sniffed (``openspiel`` sniffs between history lines and a
    serialised state). ``game`` goes with history lines, ``names`` with every record.

    A compressed byte stream (gzip, bzip2, xz) is read through its decompressor. A stream
    that cannot be read as records at all is one unreadable raw record saying why: UTF-16
    text, or content that plainly is not the ``format`` given (where every line would be an
    error of its own; a wrong name only spoils what it cannot read)."""
    stream, kind = decompressed(stream, source)
    units = _raw_units(stream, source, format, game, named, names)
    if kind is None:
        yield from units
        return
    last = RawRecord("gin", source, -1, 0)
    try:
        for last in units:
            yield last
    except OSError as exc:  # damaged compressed data, after the records before it
        form = last.format if last.index >= 0 else format or named or "gin"
        error = RecordError(str(exc), source, last.line + 1 if last.index >= 0 else 1, 1)
        yield RawRecord(form, source, last.index + 1, error.line, problem=error)


def _raw_units(
    stream: IO[bytes] | IO[str], source: str, format: UnitForm | None, game: str, named: UnitForm | None,
    names: Naming | None = None,
) -> Iterator[RawRecord]:
    resolved = resolve_stream(stream, format, source, named)
    if resolved.problem is not None:
        yield RawRecord(resolved.form, source, 0, resolved.problem.line, problem=resolved.problem)
        return
    yield from cut_units(resolved.lines, source, resolved.form, game, names=names)


class Resolved(NamedTuple):
    """A stream's form, its lines from the first, and the problem that makes it one error."""

    form: UnitForm
    lines: Iterator[Line | TextRun]
    problem: RecordError | None = None


def resolve_stream(
    stream: IO[bytes] | IO[str], format: UnitForm | None, source: str = "", named: UnitForm | None = None
) -> Resolved:
    """The form of a stream, ``format`` else ``named`` else sniffed (``openspiel``: history
    lines or a state), and its lines from the first; a stream of UTF-16 text, or plainly not
    in the ``format`` given, is its problem."""
    given = format or named
    wide = wide_text(head_bytes(stream))
    if wide is not None:
        return Resolved(given or "gin", iter(()), RecordError(wide, source, 1, 1))
    sniffed, seen = _sniffed(stream)
    problem = _not_read_as(format, seen, stream, source) if format is not None else None
    form = sniffed if given and FORMATS[sniffed].variant_of == given else given or sniffed
    return Resolved(form, itertools.chain(seen, line_items(stream, form, seen[-1][0] + 1 if seen else 1)),
                     problem)


def cut_units(
    lines: Iterable[Line | TextRun], source: str, format: UnitForm, game: str, index: int = 0,
    names: Naming | None = None,
) -> Iterator[RawRecord]:
    """The raw records of a form's lines (runs of lines come only for text), each with ``names``,
    cut as its format's ``boundary`` says."""
    boundary = FORMATS[format].boundary
    if names:
        for raw in cut_units(lines, source, format, game, index):
            yield msgspec.structs.replace(raw, names=names)
    elif boundary == "text":
        yield from text_units(lines, source, index)
    elif boundary == "line":
        yield from _jsonl_units(cast("Iterable[Line]", lines), source, format, game, index)
    elif boundary == "document":
        yield from _json_units(cast("Iterable[Line]", lines), source, format)
    else:
        yield from _log_units(cast("Iterable[Line]", lines), source, format, boundary, index)


def _log_units(
    lines: Iterable[Line], source: str, form: UnitForm, boundary: Boundary, index: int = 0
) -> Iterator[RawRecord]:
    """The games of a log: each from its first line that is neither blank nor a ``#`` comment
    to the line that ends it (or the line before one that starts the next), as ``boundary`` tells."""
    chunk: _TextChunk | None = None
    for number, text, problem in lines:
        cut = boundary(text) if problem is None else None
        if cut == "start" and chunk is not None:
            yield msgspec.structs.replace(chunk.unit(), format=form)
            chunk, index = None, index + 1
        if chunk is None:
            if problem is None and (not text.strip() or is_comment(text)):
                continue
            chunk = _TextChunk(source, index, number)
        chunk.add(number, text, problem)
        if cut == "end":
            yield msgspec.structs.replace(chunk.unit(), format=form)
            chunk, index = None, index + 1
    if chunk is not None:
        yield msgspec.structs.replace(chunk.unit(), format=form)


def _problem(source: str, number: int, problem: tuple[int, str]) -> RecordError:
    return RecordError(problem[1], source, number, problem[0])


def _jsonl_units(
    lines: Iterable[Line], source: str, form: UnitForm = "jsonl", game: str = "", index: int = 0
) -> Iterator[RawRecord]:
    for number, text, problem in lines:
        if problem is not None:
            yield RawRecord(form, source, index, number, problem=_problem(source, number, problem))
        elif not text.strip():
            continue
        else:
            yield RawRecord(form, source, index, number, text, game=game)
        index += 1


def _json_units(lines: Iterable[Line], source: str, form: UnitForm = "json") -> Iterator[RawRecord]:
    parts: list[str] = []
    size = 0
    first = 0
    for number, text, problem in lines:
        first = first or number
        if problem is not None:
            yield RawRecord(form, source, 0, first, problem=_problem(source, number, problem))
            return
        size += len(text) + 1
        if size > MAX_JSON:
            error = RecordError(f"JSON document larger than {MAX_JSON} bytes", source, number, 1)
            yield RawRecord(form, source, 0, first, problem=error)
            return
        parts.append(text)
    text = "\n".join(parts)
    if text.strip():
        yield RawRecord(form, source, 0, first, text)


class _TextChunk:
    """The lines of one text record as they are read; past ``MAX_RECORD`` only the problem is kept."""

    def __init__(self, source: str, index: int, number: int) -> None:
        self.source, self.index, self.first = source, index, number
        self.parts: list[str] = []
        self.size = 0
        self.problem: RecordError | None = None

    def add(self, number: int, text: str, problem: tuple[int, str] | None) -> None:
        if self.problem is not None:
            return
        if problem is not None:
            self.problem = _problem(self.source, number, problem)
        elif self.size + len(text) + 1 > MAX_RECORD:
            self.problem = RecordError(f"record longer than {MAX_RECORD} characters", self.source, number, 1)
        else:
            self.parts.append(text)
            self.size += len(text) + 1
            return
        self.parts = []

    def extend(self, first: int, lines: str) -> None:
        """Lines ``first`` on, all text, joined by ``"\n"``: :meth:`add` for each, at once where they fit."""
        size = self.size + len(lines) + 1
        if self.problem is None and size <= MAX_RECORD:
            self.parts.append(lines)
            self.size = size
            return
        for number, text in enumerate(lines.split("\n"), first):
            self.add(number, text, None)

    def unit(self) -> RawRecord:
        if self.problem is not None:
            return RawRecord("gin", self.source, self.index, self.first, problem=self.problem)
        return RawRecord("gin", self.source, self.index, self.first, "\n".join(self.parts))


class TextSplitter:
    """Cuts a stream's lines into text records: a record runs from its start (the first line
    that is not blank, then a game tag after a record's hand lines) to the next start.

    :meth:`line` takes one line of any kind; :meth:`run` takes a run of text lines at speed
    and is its twin (``tests/records/test_line_runs.py`` holds them to the same records).
    ``started``: the lines begin inside some record.
    """

    __slots__ = ("chunk", "in_hands", "index", "source", "started")

    def __init__(self, source: str, index: int = 0, started: bool = False) -> None:
        self.source, self.index = source, index
        self.chunk: _TextChunk | None = None
        self.started, self.in_hands = started, False

    def starts(self, text: str, problem: object) -> bool | None:
        """Whether a line starts a record (None: a blank line, which never does)."""
        if problem is None and is_blank_line(text):
            return None
        game_tag = problem is None and is_game_tag_line(text)
        start = not self.started or (game_tag and self.in_hands)
        self.started, self.in_hands = True, (self.in_hands and not start) or not game_tag
        return start

    def line(self, line: Line) -> list[RawRecord]:
        """The record a line ends (it starts the next), if any."""
        number, text, problem = line
        done = self._open(number) if self.starts(text, problem) else []
        if self.chunk is not None:
            self.chunk.add(number, text, problem)
        return done

    def run(self, first: int, text: str) -> list[RawRecord]:
        """The records ended by text lines ``first`` on (a :class:`~ginref.files.TextRun`),
        each line read as :meth:`starts` reads it; each record's lines are cut from the run whole."""
        done: list[RawRecord] = []
        joined = "\n" + text
        begun = begun_line = 0  # the lines not yet handed on: from the one the "\n" at ``begun`` opens
        for line, at in self._run_starts(joined):
            if self.chunk is not None and line > begun_line:
                self.chunk.extend(first + begun_line, joined[begun + 1 : at])
            done.extend(self._open(first + line))
            begun, begun_line = at, line
        if self.chunk is not None:
            self.chunk.extend(first + begun_line, joined[begun + 1 :])
        return done

    def _run_starts(self, joined: str) -> list[tuple[int, int]]:
        """Where records start in a run of lines joined, each opened by a ``"\n"``: the first
        line that is not blank, then each game tag line with a line of the hands (neither blank
        nor a game tag) since the last start; as (line of the run, offset of its ``"\n"``).
        The lines are searched in C; only the game tag lines are visited here."""
        found: list[tuple[int, int]] = []
        pos = line = 0  # where to search on, and the index of the next line opened from there
        in_hands = self.in_hands
        if not self.started:
            first = CONTENT_LINE_RE.search(joined)
            if first is None:
                return found
            line = joined.count("\n", 0, first.start())
            found.append((line, first.start()))
            self.started, in_hands = True, GAME_TAG_LINE_RE.match(joined, first.start()) is None
            pos, line = first.start() + 1, line + 1
        for tag in GAME_TAG_LINE_RE.finditer(joined, pos):
            start = tag.start()
            if not in_hands and CONTENT_LINE_RE.search(joined, pos, start) is not None:
                in_hands = True
            line += joined.count("\n", pos, start)
            if in_hands:
                found.append((line, start))
                in_hands = False
            pos, line = start + 1, line + 1
        self.in_hands = in_hands or CONTENT_LINE_RE.search(joined, pos) is not None
        return found

    def count(self, item: Line | TextRun) -> int:
        """How many records a line or a run starts, keeping none of them (a shard's count)."""
        if isinstance(item, TextRun):
            return len(self._run_starts("\n" + item.text))
        return 1 if self.starts(item[1], item[2]) else 0

    def _open(self, number: int) -> list[RawRecord]:
        ended = self.chunk
        self.chunk = _TextChunk(self.source, self.index if ended is None else ended.index + 1, number)
        return [] if ended is None else [ended.unit()]

    def close(self) -> list[RawRecord]:
        """The last record, once the lines are done."""
        ended, self.chunk = self.chunk, None
        return [] if ended is None else [ended.unit()]


def text_starts(lines: Iterable[Line], started: bool = False) -> Iterator[tuple[bool, Line]]:
    """Each line of text records, and whether it starts one (:meth:`TextSplitter.starts`)."""
    splitter = TextSplitter("", started=started)
    for line in lines:
        yield bool(splitter.starts(line[1], line[2])), line


def text_units(lines: Iterable[Line | TextRun], source: str, index: int = 0) -> Iterator[RawRecord]:
    """Text records, each from its start to the next (:class:`TextSplitter`)."""
    splitter = TextSplitter(source, index)
    for item in lines:
        yield from splitter.run(item.first, item.text) if isinstance(item, TextRun) else splitter.line(item)
    yield from splitter.close()
