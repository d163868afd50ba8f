"""The only way any command reads or writes records: paths, folders and stdin.

Reading goes in two steps, so that a batch can split the work: :func:`raw_records`
cuts a stream into :class:`RawRecord` units (a ``.jsonl`` line, one ``.json``
document, one text record) without decoding them, and :func:`decode` turns a unit
into records. :func:`read_records` does both. For a batch over many cores,
:func:`shards` cuts files into byte ranges of whole records without decoding them, and
each worker reads its own with :func:`read_shard`. Every command uses these, so the same
bytes give the same records, the same errors and the same positions everywhere.

- One suffix table (:data:`SUFFIXES`); anything else, and stdin, is sniffed
  (:func:`sniff_format`). Inputs from other programs are recognised by content, here
  only (:func:`unit_form`): a Kaggle gin rummy episode, OpenSpiel's
  ``SerializeGameAndState`` text, and OpenSpiel action histories (a line that is a JSON
  array of ints, or ``history=p:a,...``); ``format`` forces a form (``--from``).
- One line limit (:data:`MAX_LINE` bytes) and one document limit (:data:`MAX_JSON`);
  a longer line is one unreadable record, read past without being stored.
- Bytes, not text: a line that is not UTF-8 (or holds a NUL byte) spoils only its
  own record. Line 1 may start with a BOM; line ends may be CRLF.
- Errors read ``source:line:column: message``; standard input is ``<stdin>``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, NamedTuple, cast

import msgspec

from ginref.errors import InputFileError, RecordError, detached
from ginref.files import (
    Line,
    Paths,
    TextRun,
    compression,
    decompressed,
    head_bytes,
    is_pipe,
    is_url,
    numbered_lines,
    numbered_runs,
    open_any,
    path_list,
    shown_path,
    url_files,
    wide_text,
)
from ginref.records.eaai import decode_log, log_boundary, looks_like_log
from ginref.records.jsonform import (
    decode_json_document,
    decode_json_text,
    format_jsonl,
    load_json,
    pretty_json,
)
from ginref.records.kaggle import EPISODE_NAME, decode_episode, looks_like_episode
from ginref.records.model import GameRecord, InputForm, RecordFormat, UnitForm
from ginref.records.openspiel import (
    SERIALIZED_HEADER,
    GameParams,
    decode_history,
    format_history,
    params_for,
    parse_game_string,
    parse_history_line,
    parse_serialized,
)
from ginref.records.rlcard import decode_sheet, looks_like_sheet, sheet_boundary
from ginref.records.text import (
    CONTENT_LINE_RE,
    GAME_TAG_LINE_RE,
    format_text,
    is_blank_line,
    is_game_tag_line,
    read_text,
)

if TYPE_CHECKING:
    from ginref.rules import Rules

__all__ = [
    "MAX_JSON",
    "MAX_LINE",
    "MAX_RECORD",
    "MIN_SHARD",
    "SHARD_BYTES",
    "STDIN",
    "SUFFIXES",
    "InputFile",
    "RawRecord",
    "ReadProgress",
    "Shard",
    "SkippedFile",
    "StreamedFile",
    "convert_records",
    "count_shard",
    "decode",
    "input_files",
    "raw_records",
    "read_file",
    "read_paths",
    "read_record",
    "read_records",
    "read_shard",
    "record_format",
    "shards",
    "sniff_format",
    "unit_form",
    "write_records",
]

SUFFIXES: dict[str, UnitForm] = {".gin": "gin", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
"""File name endings and the record form each means; folders are searched for these."""
COMPRESSED_SUFFIXES = frozenset({".gz", ".bz2", ".xz"})
"""Endings of compressed files, which a folder walk reads too (``logs.jsonl.gz``, ``game.gz``):
the ending under them gives the form. Compression itself is told by content, never by name."""
MAX_LINE = 1 << 22
"""Longest line read (bytes, 4 MiB); a longer one is an unreadable record."""
MAX_JSON = 1 << 26
"""Largest ``.json`` document read whole (bytes, 64 MiB)."""
MAX_RECORD = 1 << 24
"""Largest text record (characters, 16 MiB); a longer one is unreadable and read past."""
STDIN = "<stdin>"
"""How standard input is named in every message."""

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


class InputFile(msgspec.Struct, frozen=True):
    """A file to read: ``path`` as given to ``open`` (``-`` for stdin), ``source`` as shown."""

    path: str
    source: str
    format: UnitForm | None
    """from the suffix; None: sniffed"""


class SkippedFile(msgspec.Struct, frozen=True):
    """A file in a folder whose name is not a record file's (``.txt``, ``.log``, ...)."""

    source: str


class StreamedFile(msgspec.Struct, frozen=True):
    """A file a batch cannot cut into shards, to read in one process as stdin is read:
    ``why`` names what it is (a pipe, compressed) for a note, empty when nothing needs
    saying (a file read as one error: UTF-16, or not the form given)."""

    file: InputFile
    why: str = ""


def record_format(name: str) -> UnitForm | None:
    """The record form a file name's ending implies, if any."""
    return SUFFIXES.get(os.path.splitext(name)[1].lower())


def _reading_form(name: str) -> UnitForm | None:
    """:func:`record_format` of the name under a compressed file's ending (``x.jsonl.gz``)."""
    stem, ending = os.path.splitext(name)
    return record_format(stem if ending.lower() in COMPRESSED_SUFFIXES else name)


def _read_in_folder(name: str) -> bool:
    """Whether a folder walk reads a file: a record file's ending, under a compressed file's
    ending or not, or a compressed file's ending alone (``game.gz``, sniffed)."""
    stem, ending = os.path.splitext(name)
    if ending.lower() in COMPRESSED_SUFFIXES:
        return record_format(stem) is not None or not os.path.splitext(os.path.basename(stem))[1]
    return record_format(name) is not None


def input_files(paths: Paths) -> Iterator[InputFile | SkippedFile | InputFileError]:
    """Each file the paths name, in order: folders are walked (sorted, links not followed)
    for record files; other files in folders are reported as skipped."""
    for path in path_list(paths):
        if path == "-":
            yield InputFile("-", STDIN, None)
        elif is_url(path):
            yield from _url_inputs(path)
        elif os.path.isdir(path):
            yield from _walk(path)
        elif not os.path.lexists(path):
            where = shown_path(path)
            yield InputFileError(f"{where}: no such file or folder", where, missing=True)
        else:
            yield InputFile(path, shown_path(path), _reading_form(path))


def _url_inputs(url: str) -> Iterator[InputFile | SkippedFile | InputFileError]:
    """An fsspec URL: one file, or a folder's files (:func:`ginref.files.url_files`)."""
    try:
        found = url_files(url)
    except InputFileError as exc:
        yield exc
        return
    if found is None:
        yield InputFile(url, shown_path(url), _reading_form(url))
        return
    for path in found:
        shown = shown_path(path)
        yield InputFile(path, shown, _reading_form(path)) if _read_in_folder(path) else SkippedFile(shown)


def _walk(folder: str) -> Iterator[InputFile | SkippedFile]:
    found: list[str] = []

    def ignore(error: OSError) -> None:
        found.append(error.filename or folder)

    for root, dirs, files in os.walk(folder, onerror=ignore):
        dirs.sort()
        for name in sorted(files):
            found.append(os.path.join(root, name))
    for path in sorted(found):
        shown = shown_path(path)
        readable = _read_in_folder(path) or _is_log(path)
        yield InputFile(path, shown, _reading_form(path)) if readable else SkippedFile(shown)


def _is_log(path: str) -> bool:
    """Whether a file in a folder is another program's log (EAAI, RLCard), by its first line."""
    try:
        with open_any(path) as handle:
            first = handle.readline(256)
    except (OSError, InputFileError):
        return False
    return _log_form(first.decode("utf-8", "replace").lstrip("\ufeff")) is not None


# -- lines --------------------------------------------------------------------------------------


def _lines(stream: IO[bytes] | IO[str], first: int = 1) -> Iterator[Line]:
    return numbered_lines(stream, MAX_LINE, "records", first=first)


def _line_items(stream: IO[bytes] | IO[str], form: UnitForm, first: int = 1) -> Iterator[Line | TextRun]:
    """The lines of a stream from line ``first``: a byte stream of text records in runs
    (:func:`~ginref.files.numbered_runs`), anything else line by line (for JSON Lines, runs
    measured no faster: docs/verify-speed.md)."""
    if form == "gin" and isinstance(stream, (io.BufferedIOBase, _Window)):
        return numbered_runs(cast("IO[bytes]", stream), MAX_LINE, "records", first=first)
    return _lines(stream, first)


_HISTORY_START_RE = re.compile(r"\s*(?:\[\s*-?\d|history=)")
_SPACE_RE = re.compile(r"\s*")


def unit_form(text: str) -> UnitForm | None:
    """What a line or document from another program is, by its content; None: a record form.

    A line that is a JSON array of ints (``[38, 18, ...]``) or starts ``history=`` is an
    OpenSpiel history; ``[Meta]`` or OpenSpiel's header comment starts a serialised state;
    JSON with ``"name": "open_spiel_gin_rummy"`` near its top is a Kaggle episode.
    """
    start = _SPACE_RE.match(text).end() if text[:1].isspace() else 0  # type: ignore[union-attr]
    first = text[start : start + 1]
    if first == "{":  # a record or an episode: the cheap test first, every line of a batch comes here
        if text.find(EPISODE_NAME, start, start + 4096) < 0:
            return None
        return "kaggle" if looks_like_episode(text[start:]) else None
    if _HISTORY_START_RE.match(text, start):
        return "openspiel"
    if text.startswith((SERIALIZED_HEADER, "[Meta]"), start):
        return "openspiel_state"
    return _log_form(text[start:])


def _log_form(line: str) -> UnitForm | None:
    """An EAAI framework log or an RLCard move sheet, by its first line."""
    if looks_like_log(line):
        return "eaai"
    if looks_like_sheet(line):
        return "rlcard"
    return None


_LOGS = {"eaai": (log_boundary, decode_log), "rlcard": (sheet_boundary, decode_sheet)}
"""the forms of one game after another in lines: where a game starts or ends, and its decoder"""


def sniff_format(first_line: str) -> UnitForm:
    """The form of records whose first non-blank line is ``first_line``.

    Another program's form is recognised first (:func:`unit_form`). ``[`` opens one JSON
    document (a list) unless a tag name follows it (``[Rules``: text); ``{`` is JSON Lines
    when the line closes its object (``}``) and one JSON document otherwise (pretty JSON);
    anything else is text.
    """
    stripped = first_line.strip()
    other = unit_form(stripped)
    if other is not None:
        return "jsonl" if other == "kaggle" else other
    if stripped.startswith("["):
        return "json" if stripped[1:].lstrip()[:1] in ("{", "]", "") else "gin"
    if stripped.startswith("{"):
        return "jsonl" if stripped.endswith("}") else "json"
    return "gin"


def _sniffed(stream: IO[bytes] | IO[str]) -> tuple[UnitForm, list[Line]]:
    """The form of a stream by its first line that is not blank, and the lines read to find it:
    the stream is left just past them."""
    seen: list[Line] = []
    for item in _lines(stream):
        seen.append(item)
        if item[1].strip() or item[2] is not None:
            return sniff_format(item[1]), seen
    return "gin", seen


_FORM_NAMES: dict[UnitForm, str] = {
    "gin": "ginref text records", "json": "a JSON document", "jsonl": "JSON Lines records",
    "openspiel": "OpenSpiel action histories", "openspiel_state": "an OpenSpiel serialised state",
    "kaggle": "a Kaggle episode", "eaai": "an EAAI framework log", "rlcard": "RLCard move sheets",
}
_READS: dict[UnitForm, frozenset[UnitForm]] = {
    "gin": frozenset({"gin"}),
    "jsonl": frozenset({"jsonl", "openspiel"}),
    "json": frozenset({"json", "jsonl", "kaggle"}),
    "openspiel": frozenset({"openspiel", "openspiel_state"}),
    "kaggle": frozenset({"kaggle", "json", "jsonl"}),
}
"""what the content of a stream read in a form given may look like (:func:`_looks_like`)"""
_LOOK_AHEAD = 4096
"""characters read past the first line of a JSON document to tell a Kaggle episode"""


def _looks_like(seen: list[Line], stream: IO[bytes] | IO[str]) -> tuple[UnitForm, str] | None:
    """What a stream whose lines so far are ``seen`` plainly is, and its name, on positive
    evidence only: a game tag line (after ``#`` comments), a whole JSON object on a line, a
    JSON document's opening line (a Kaggle episode when its name comes within a few lines),
    another program's line. None when its first line says nothing for sure (a damaged
    record, say). The lines read on to tell are added to ``seen``."""
    first = _first_content(seen, stream)
    other = unit_form(first)
    if other is not None:
        return ("jsonl", "Kaggle episodes, one a line") if other == "kaggle" else (other, _FORM_NAMES[other])
    if is_game_tag_line(first):
        return "gin", _FORM_NAMES["gin"]
    if first.startswith("{") and first.endswith("}"):
        return "jsonl", _FORM_NAMES["jsonl"]
    if first not in ("{", "[") and not (first.startswith("[") and first[1:].lstrip()[:1] == "{"):
        return None
    _read_ahead(seen, stream, lambda text: EPISODE_NAME in text)
    head = "\n".join(text for _, text, _ in seen)
    return ("kaggle", _FORM_NAMES["kaggle"]) if looks_like_episode(head) else ("json", _FORM_NAMES["json"])


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
    for line in _lines(stream, seen[-1][0] + 1 if seen else 1):
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
    if looks is None or looks[0] in _READS.get(format, frozenset({format})):
        return None
    line = next((number for number, text, _ in seen if text.strip()), 1)
    return RecordError(f"this looks like {looks[1]}, not {_FORM_NAMES[format]} (the form it is read as: "
                       f"{format}); read it as what it is", source, line, 1)


# -- cutting a stream into raw records ----------------------------------------------------------


def raw_records(
    stream: IO[bytes] | IO[str], source: str, format: UnitForm | None = None, *, game: str = "",
    named: UnitForm | None = None,
) -> Iterator[RawRecord]:
    """The raw records of a stream, in order: in ``format`` (``--from``), else the form its
    name implies (``named``), else sniffed (``openspiel`` sniffs between history lines and a
    serialised state). ``game`` goes with history lines.

    A compressed byte stream (gzip, bzip2, xz) is read through its decompressor. A stream
    that cannot be read as records at all is one unreadable raw record saying why: UTF-16
    text, or content that plainly is not the ``format`` given (where every line would be an
    error of its own; a wrong name only spoils what it cannot read)."""
    stream, kind = decompressed(stream, source)
    units = _raw_units(stream, source, format, game, named)
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
    stream: IO[bytes] | IO[str], source: str, format: UnitForm | None, game: str, named: UnitForm | None
) -> Iterator[RawRecord]:
    resolved = _resolved(stream, format, source, named)
    if resolved.problem is not None:
        yield RawRecord(resolved.form, source, 0, resolved.problem.line, problem=resolved.problem)
        return
    yield from _units(resolved.lines, source, resolved.form, game)


class _Resolved(NamedTuple):
    """A stream's form, its lines from the first, and the problem that makes it one error."""

    form: UnitForm
    lines: Iterator[Line | TextRun]
    problem: RecordError | None = None


def _resolved(
    stream: IO[bytes] | IO[str], format: UnitForm | None, source: str = "", named: UnitForm | None = None
) -> _Resolved:
    """The form of a stream, ``format`` else ``named`` else sniffed (``openspiel``: history
    lines or a state), and its lines from the first; a stream of UTF-16 text, or plainly not
    in the ``format`` given, is its problem."""
    given = format or named
    wide = wide_text(head_bytes(stream))
    if wide is not None:
        return _Resolved(given or "gin", iter(()), RecordError(wide, source, 1, 1))
    sniffed, seen = _sniffed(stream)
    problem = _not_read_as(format, seen, stream, source) if format is not None else None
    form = "openspiel_state" if given == "openspiel" and sniffed == "openspiel_state" else given or sniffed
    return _Resolved(form, itertools.chain(seen, _line_items(stream, form, seen[-1][0] + 1 if seen else 1)),
                     problem)


def _units(
    lines: Iterable[Line | TextRun], source: str, format: UnitForm, game: str, index: int = 0
) -> Iterator[RawRecord]:
    """The raw records of a form's lines (runs of lines come only for text)."""
    if format == "gin":
        yield from _text_units(lines, source, index)
    elif format in ("jsonl", "openspiel"):
        yield from _jsonl_units(cast("Iterable[Line]", lines), source, format, game, index)
    elif format in _LOGS:
        yield from _log_units(cast("Iterable[Line]", lines), source, format, index)
    else:
        yield from _json_units(cast("Iterable[Line]", lines), source, format)


def _log_units(lines: Iterable[Line], source: str, form: UnitForm, index: int = 0) -> Iterator[RawRecord]:
    """The games of a log: each from its first line that is not blank to the line that ends it
    (or the line before one that starts the next)."""
    boundary = _LOGS[form][0]
    chunk: _TextChunk | None = None
    for number, text, problem in lines:
        cut = boundary(text) if problem is None else None
        if cut == "start" and chunk is not None:
            yield msgspec.structs.replace(chunk.unit(), format=form)
            chunk, index = None, index + 1
        if chunk is None:
            if problem is None and not text.strip():
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


class _TextSplitter:
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


def _text_starts(lines: Iterable[Line], started: bool = False) -> Iterator[tuple[bool, Line]]:
    """Each line of text records, and whether it starts one (:meth:`_TextSplitter.starts`)."""
    splitter = _TextSplitter("", started=started)
    for line in lines:
        yield bool(splitter.starts(line[1], line[2])), line


def _text_units(lines: Iterable[Line | TextRun], source: str, index: int = 0) -> Iterator[RawRecord]:
    """Text records, each from its start to the next (:class:`_TextSplitter`)."""
    splitter = _TextSplitter(source, index)
    for item in lines:
        yield from splitter.run(item.first, item.text) if isinstance(item, TextRun) else splitter.line(item)
    yield from splitter.close()


# -- decoding -----------------------------------------------------------------------------------


def decode(raw: RawRecord) -> Iterator[GameRecord | RecordError]:
    """The records a raw unit holds: one, or for a ``.json`` list one per item. An error
    comes :func:`~ginref.errors.detached`: its message and place, not the parse's frames."""
    for item in _decode(raw):
        yield detached(item) if isinstance(item, RecordError) else item


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
    elif form in _LOGS:
        try:
            yield _LOGS[form][1](raw.text, raw.source, raw.line, raw.index)
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


@contextlib.contextmanager
def _opened(input: str | os.PathLike[str] | IO[bytes] | IO[str]) -> Iterator[IO[bytes] | IO[str]]:
    if isinstance(input, (str, os.PathLike)):
        with open_any(input) as handle:
            yield handle
        return
    buffer = getattr(input, "buffer", None)
    # bytes where we can, so that bad UTF-8 is one bad record rather than an exception
    yield buffer if buffer is not None and hasattr(buffer, "readline") else input


def _source_name(input: object, source: str | None) -> str:
    if source:
        return source
    if isinstance(input, (str, os.PathLike)):
        return shown_path(os.fspath(input))
    name = getattr(input, "name", "")
    return STDIN if name in ("<stdin>", 0) else str(name or "<stream>")


def read_records(
    input: str | os.PathLike[str] | IO[bytes] | IO[str],
    *,
    source: str | None = None,
    format: InputForm | None = None,
    game: str = "",
) -> Iterator[GameRecord | RecordError]:
    """Every record of ``input`` (a path, or a byte or text stream), in order.

    Returns an iterator of items: a ``GameRecord``, or the ``RecordError`` that says why
    that record cannot be read (it never stops at a bad record). ``source`` names the input
    in messages (default: the path, or the stream's name). The form is ``format``, else the
    ending of the path (or of ``source``), else sniffed (see :func:`sniff_format`); ``game``
    gives OpenSpiel histories their parameters (``gin_rummy(knock_card=9)``). Lines are read
    one at a time, so memory stays flat however large the input. A path that cannot be
    opened raises :class:`~ginref.errors.InputFileError`; nothing else is raised for any bytes.
    """
    name = _source_name(input, source)
    with _opened(input) as stream:
        for raw in raw_records(stream, name, format, game=game, named=_reading_form(name)):
            yield from decode(raw)


class ReadProgress:
    """How far :func:`read_paths` (or :func:`convert_records`) has read, for a progress
    display: bytes read of the files named, and their total size (files only: stdin's size
    is not known); ``convert_records`` also counts the records."""

    __slots__ = ("read", "records", "total")

    def __init__(self) -> None:
        self.read = 0
        self.total = 0
        self.records = 0

    @property
    def fraction(self) -> float | None:
        """The part read, 0 to 1; None when the size is unknown."""
        return min(self.read / self.total, 1.0) if self.total else None


def _size(path: str) -> int:
    try:
        if is_url(path):
            with open_any(path) as handle:
                return handle.seek(0, os.SEEK_END)
        return os.stat(path).st_size
    except OSError:
        return 0


def _listed(
    paths: Sequence[str], progress: ReadProgress | None
) -> Iterable[InputFile | SkippedFile | InputFileError]:
    """The files the paths name; with ``progress``, listed first so that their total size is known."""
    items: Iterable[InputFile | SkippedFile | InputFileError] = input_files(paths)
    if progress is not None:
        items = list(items)
        progress.total = sum(_size(i.path) for i in items if isinstance(i, InputFile) and i.path != "-")
    return items


def read_paths(
    paths: Paths, stdin: IO[bytes] | None = None, *, format: InputForm | None = None, game: str = "",
    progress: ReadProgress | None = None,
) -> Iterator[RawRecord | SkippedFile | InputFileError]:
    """The raw records of every file the paths name (``-``: ``stdin``), in order; a file that
    cannot be opened is its ``InputFileError``, a non-record file in a folder a ``SkippedFile``.
    With ``progress``, the files are listed first so that their total size is known."""
    for item in _listed(path_list(paths), progress):
        if not isinstance(item, InputFile):
            yield item
            continue
        if item.path == "-":
            if stdin is not None:
                yield from raw_records(stdin, STDIN, format, game=game)
            continue
        yield from read_file(item, format=format, game=game, progress=progress)


def read_file(
    item: InputFile, *, format: InputForm | None = None, game: str = "", progress: ReadProgress | None = None
) -> Iterator[RawRecord | InputFileError]:
    """The raw records of one file (not stdin), as :func:`read_paths` reads it; a file that
    cannot be opened, or whose reading fails (damaged compressed data), ends in its
    ``InputFileError``. With ``progress``, its ``read`` goes up by the bytes read."""
    try:
        handle = open_any(item.path)
    except InputFileError as exc:
        yield exc
        return
    with handle:
        try:
            raws = raw_records(handle, item.source, format, game=game, named=item.format)
            yield from _counted(raws, handle, progress)
        except OSError as exc:
            yield InputFileError(f"{item.source}: cannot read: {exc.strerror or exc}", item.source)


def _counted(
    raws: Iterator[RawRecord], handle: IO[bytes], progress: ReadProgress | None
) -> Iterator[RawRecord]:
    """``raws``, adding to ``progress`` the bytes of the file read as they go (a pipe's
    cannot be told: its records are counted, not its bytes)."""
    if progress is None or not handle.seekable():
        yield from raws
        return
    done = 0
    for raw in raws:
        now = handle.tell()
        progress.read += now - done
        done = now
        yield raw


# -- shards: runs of whole records that a worker reads by itself ----------------------------------

SHARD_BYTES = 4 << 20
"""Bytes a shard covers at least (the rest of the record it ends in is added). Each shard is
two tasks (a count and a check), and each task costs the main process a fixed amount: big
shards keep that cost small against the records' (docs/verify-speed.md has the figures)."""
MIN_SHARD = 1 << 16
"""Fewest bytes a shard is cut to when a file is cut into ``parts``."""
_WHOLE = frozenset({"json", "openspiel_state", "kaggle", "eaai", "rlcard"})
"""forms read as one document, or (logs) never cut: a file of them is one shard"""


class Shard(msgspec.Struct, frozen=True):
    """Bytes ``start`` to ``stop`` of a file: whole lines, and for text whole records.

    ``line`` and ``index`` are those of its first line and record. They are known when
    the shard is cut only for a file's first shard (1 and 0); for a later one they are 0
    until the shards before it are counted (:func:`count_shard`) and it is placed with
    ``msgspec.structs.replace``. Small and picklable: what a worker is handed.
    """

    path: str
    source: str
    format: UnitForm
    start: int
    stop: int
    line: int = 0
    index: int = 0
    game: str = ""


def _window(handle: IO[bytes], stop: int) -> IO[bytes]:
    return cast("IO[bytes]", _Window(handle, stop))


class _Window:
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


def read_shard(shard: Shard) -> Iterator[RawRecord]:
    """The raw records of a placed shard, numbered as reading the whole file numbers them.

    Raises :class:`InputFileError` when the file cannot be opened, ``OSError`` when reading fails.
    """
    if not shard.line:
        raise ValueError("a shard is read once placed: its first line and index are known")
    with open_any(shard.path) as handle:
        handle.seek(shard.start)
        lines = _line_items(_window(handle, shard.stop), shard.format, shard.line)
        yield from _units(lines, shard.source, shard.format, shard.game, shard.index)


def read_shard_records(shard: Shard) -> Iterator[Decoded]:
    """The records of a placed shard, decoded (:func:`read_shard`, :func:`decoded`).

    Raises :class:`InputFileError` when the file cannot be opened, ``OSError`` when reading fails.
    """
    return decoded(read_shard(shard))


def count_shard(shard: Shard) -> tuple[int, int]:
    """(lines, records) in a shard, placed or not: where the next shard starts. Only the starts
    are found, in runs of lines where they are plain text: no record's text is built."""
    if shard.format in _WHOLE:  # one document, never cut (so never counted in a batch)
        return _counted_units(shard)
    lines = records = 0
    with open_any(shard.path) as handle:
        handle.seek(shard.start)
        if shard.format == "jsonl":
            opened = _opened_lines(handle, shard.stop - shard.start)
            if opened is not None:
                return opened, opened
            handle.seek(shard.start)
        first = 1 if shard.start == 0 else 2  # line 1 alone may hold a BOM
        starts = _TextSplitter(shard.source).count if shard.format == "gin" else _line_records
        for item in numbered_runs(_window(handle, shard.stop), MAX_LINE, "records", first=first):
            lines += item.line_count if isinstance(item, TextRun) else 1
            records += starts(item)
    return lines, records


_COUNT_BLOCK = 1 << 16
"""Bytes :func:`_opened_lines` reads at a time, into one buffer: small enough to be reused,
where a fresh megabyte costs its page faults each time."""


def _opened_lines(handle: IO[bytes], size: int) -> int | None:
    """How many lines ``size`` bytes of JSON Lines hold when every one opens an object (its
    first byte ``{``), so is one record, read as :func:`_line_records` reads it; None as
    soon as a line does not (a blank one, a BOM), which that count then reads. The fast twin
    of :func:`count_shard`'s reading (``tests/batch/test_shards.py`` holds them to one count):
    line ends found by ``find`` (memchr), no line decoded, one small buffer."""
    readinto = getattr(handle, "readinto", None)
    if readinto is None:
        return None
    buffer = bytearray(min(size, _COUNT_BLOCK))
    view, find = memoryview(buffer), buffer.find
    lines, line_start = 0, True  # whether the next byte starts a line
    while size > 0 and (got := readinto(view[: min(size, len(buffer))])):
        size -= got
        start = 0
        if line_start and buffer[0] != 0x7B:
            return None
        while (end := find(b"\n", start, got)) >= 0:
            lines, start = lines + 1, end + 1
            if start < got and buffer[start] != 0x7B:
                return None
        line_start = start == got
    return lines + (not line_start)


def _counted_units(shard: Shard) -> tuple[int, int]:
    """(lines, raw records) of a shard, read as :func:`read_shard` reads it."""
    with open_any(shard.path) as handle:
        handle.seek(shard.start)
        items = list(_lines(_window(handle, shard.stop), 1 if shard.start == 0 else 2))
    return len(items), sum(1 for _ in _units(items, shard.source, shard.format, shard.game))


_BLANK_LINE_RE = re.compile(r"\n[^\S\n]*(?=\n)")
"""In lines each opened by a ``"\n"`` (and the last closed by one), the ``"\n"`` of each blank line"""


def _line_records(item: Line | TextRun) -> int:
    """How many records a line or a run holds in a form of one record a line: every line but
    a blank one (a line that cannot be read is a record, unreadable), as :func:`_jsonl_units` reads."""
    if isinstance(item, TextRun):
        return item.line_count - len(_BLANK_LINE_RE.findall("\n" + item.text + "\n"))
    _, text, problem = item
    return 1 if problem is not None or text.strip() else 0


def shards(
    paths: Sequence[str], *, format: InputForm | None = None, game: str = "", size: int = SHARD_BYTES,
    parts: int = 1, progress: ReadProgress | None = None,
) -> Iterator[Shard | StreamedFile | InputFile | SkippedFile | InputFileError]:
    """The shards of every file the paths name, in order, each about ``size`` bytes (smaller,
    down to :data:`MIN_SHARD`, to cut a file into ``parts``; near a file's end, at most
    ``2 / parts`` of what is left); a file whose records are one document is one shard.
    Standard input cannot be cut by bytes: it is passed on as its :class:`InputFile` (read it
    with :func:`raw_records`); nor can a pipe or a compressed file, nor need a file that is
    one error (UTF-16, not the form given): each is passed on as a :class:`StreamedFile`
    (read it with :func:`read_file`).

    Only a few lines near each cut are read; with ``progress``, its total is set as in
    :func:`read_paths` (the caller advances ``read`` as shards are done).
    """
    for item in _listed(paths, progress):
        if not isinstance(item, InputFile) or item.path == "-":
            yield item
            continue
        if not is_url(item.path) and is_pipe(item.path):  # looked at without opening: that would read it
            yield StreamedFile(item, "a pipe")
            continue
        each = max(1, min(size, max(MIN_SHARD, _size(item.path) // max(1, parts))))
        try:
            yield from _file_shards(item, format, game, each, parts)
        except InputFileError as exc:
            yield exc
        except OSError as exc:
            yield InputFileError(f"{item.source}: cannot read: {exc.strerror or exc}", item.source)


def _file_shards(
    item: InputFile, format: UnitForm | None, game: str, size: int, parts: int
) -> Iterator[Shard | StreamedFile]:
    with open_any(item.path) as handle:
        kind = compression(head_bytes(handle))
        if kind is not None:
            yield StreamedFile(item, f"{kind}-compressed")
            return
        form, _, problem = _resolved(handle, format, item.source, item.format)
        if problem is not None:  # one error: the main process reads it
            yield StreamedFile(item)
            return
        end = handle.seek(0, os.SEEK_END)
        start, line = 0, 1
        while start < end:
            each = _tapered(size, end - start, parts)
            stop = end if form in _WHOLE else _next_cut(handle, form, start + each, end)
            yield Shard(item.path, item.source, form, start, stop, line, 0, game)
            start, line = stop, 0


def _tapered(size: int, left: int, parts: int) -> int:
    """A shard's size with ``left`` bytes of its file to go: the last shards shrink, down to
    an eighth of ``size``, so that the workers of a batch run out of work together instead
    of one finishing a whole shard alone."""
    if parts < 2:
        return size
    return max(1, min(size, max(MIN_SHARD, size // 8, left * 2 // parts)))


def _next_cut(handle: IO[bytes], form: UnitForm, at: int, end: int) -> int:
    """The first record start at or after byte ``at`` (after the line it falls in); ``end`` if none."""
    if at >= end:
        return end
    handle.seek(at - 1)  # from the byte before: a cut that falls on a line start stays there
    while (data := handle.readline(MAX_LINE)) and not data.endswith(b"\n"):
        pass
    start = min(handle.tell(), end)
    if form != "gin":
        return start
    # a game tag after a hand line starts a record whatever came before, so the cut can be found here
    for starts, _ in _text_starts(_lines(_window(handle, end), 2), started=True):
        if starts:
            return start
        start = handle.tell()
    return end


def read_record(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record from text in either form (JSON if it starts with ``{``); raises ``RecordError``."""
    form: RecordFormat = "jsonl" if text.lstrip().startswith("{") else "gin"
    items = list(decode(RawRecord(form, source, index, first_line, text)))
    if isinstance(items[0], RecordError):
        raise items[0]
    return items[0]


# -- writing ------------------------------------------------------------------------------------


def write_records(
    items: Iterable[GameRecord | RecordError], stream: IO[str], format: RecordFormat, *,
    on_note: Callable[[str], None] | None = None,
) -> Iterator[RecordError]:
    """Write each record to ``stream`` in ``format``; pass each ``RecordError`` on to the caller.

    Text records are separated by a blank line; ``json`` writes one record as an object and
    several as a list; ``jsonl`` writes one record per line, ``openspiel`` one action history
    per line (a record OpenSpiel cannot express is passed on as a ``RecordError``). A history
    cannot say its game's parameters: ``on_note`` is told, once for each game written that
    is not OpenSpiel's default, the game string to read the histories back with.
    """
    if format == "json":
        yield from _write_json(items, stream)
        return
    first = True
    games: set[str] = set()
    for item in items:
        if isinstance(item, RecordError):
            yield item
            continue
        if format == "openspiel":
            try:
                stream.write(format_history(item) + "\n")
            except RecordError as exc:
                yield detached(exc)
                continue
            _note_game(item, games, on_note)
        elif format == "jsonl":
            stream.write(format_jsonl(item) + "\n")
        else:
            stream.write(("" if first else "\n") + format_text(item))
        first = False


def _note_game(record: GameRecord, games: set[str], on_note: Callable[[str], None] | None) -> None:
    """Tell ``on_note`` the game string of a history just written, the first time it is not
    OpenSpiel's default game (which a history line cannot say)."""
    if on_note is None:
        return
    game = params_for(record).short_game_string()
    if game != "gin_rummy()" and game not in games:
        games.add(game)
        on_note(f"an OpenSpiel history does not say its game: read these back with --game '{game}'")


def _write_json(items: Iterable[GameRecord | RecordError], stream: IO[str]) -> Iterator[RecordError]:
    held: GameRecord | None = None
    count = 0
    for item in items:
        if isinstance(item, RecordError):
            yield item
            continue
        count += 1
        if held is None:
            held = item
            continue
        if count == 2:
            stream.write("[\n" + pretty_json(held, 2))
        stream.write(",\n" + pretty_json(item, 2))
    if count == 1 and held is not None:
        stream.write(pretty_json(held, 0) + "\n")
    elif count >= 2:
        stream.write("\n]\n")


def convert_records(
    input: str | os.PathLike[str] | IO[bytes] | IO[str],
    output: IO[str],
    *,
    to: RecordFormat | None = None,
    source: str | None = None,
    format: InputForm | None = None,
    game: str = "",
    rules: Rules | None = None,
    on_note: Callable[[str], None] | None = None,
    progress: ReadProgress | None = None,
) -> Iterator[RecordError]:
    """Read every record of ``input`` and write it to ``output`` in ``to``; yield each
    ``RecordError`` met (the record is skipped, the rest are converted). ``on_note`` hears
    what the output cannot carry (:func:`write_records`).

    ``to`` defaults to the other form: JSON Lines from text, text from JSON. ``rules``
    replaces the rules each record names (its claims are kept as recorded). ``progress``
    counts the records read and the bytes, as they are read.
    """
    name = _source_name(input, source)
    with _opened(input) as stream:
        resolved = _resolved(decompressed(stream, name)[0], format, name, _reading_form(name))
        if resolved.problem is not None:
            yield resolved.problem
            return
        found = resolved.form
        target: RecordFormat = to or ("gin" if found != "gin" else "jsonl")
        records = (record for raw in _units(resolved.lines, name, found, game) for record in decode(raw))
        if rules is not None:
            records = (_reruled(item, rules) for item in records)
        if progress is not None:
            records = _counted_reading(records, stream, progress, input)
        yield from write_records(records, output, target, on_note=on_note)


def _counted_reading(
    records: Iterable[GameRecord | RecordError], stream: IO[bytes] | IO[str], progress: ReadProgress,
    input: object,
) -> Generator[GameRecord | RecordError, None, None]:
    """``records`` as they come, each counted in ``progress`` with where ``stream`` is."""
    if isinstance(input, (str, os.PathLike)):
        progress.total = _size(os.fspath(input))
    seekable = progress.total > 0 and stream.seekable()
    for item in records:
        progress.records += 1
        if seekable:
            progress.read = stream.tell()
        yield item


def _reruled(item: GameRecord | RecordError, rules: Rules) -> GameRecord | RecordError:
    if isinstance(item, RecordError):
        return item
    return msgspec.structs.replace(item, rules=rules.name, overrides=rules.overrides)
