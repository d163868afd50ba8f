"""The shards of a batch: runs of whole records, as byte ranges of a file, that a worker reads by itself.

:func:`shards` cuts the files a batch reads into :class:`Shard` byte ranges, reading only a
few lines near each cut; :func:`count_shard` counts a shard's lines and records (finding
only where records start), so that the next one can be placed at its first line and record
index; :func:`read_shard_records` reads a placed shard's records, decoded, numbered as
reading the whole file numbers them. The cutting is :mod:`ginref.records.units`', so a
shard gives the records a reader of the whole file gives.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from typing import IO

import msgspec

from ginref.errors import InputFileError
from ginref.files import Line, TextRun, compression, head_bytes, is_pipe, is_url, numbered_runs, open_any
from ginref.records.decoding import Decoded, decoded
from ginref.records.formats import FORMATS
from ginref.records.io import InputFile, ReadProgress, SkippedFile, file_size, listed_files
from ginref.records.model import InputForm, UnitForm
from ginref.records.names import Naming
from ginref.records.units import (
    MAX_LINE,
    RawRecord,
    TextSplitter,
    cut_units,
    line_items,
    record_lines,
    resolve_stream,
    text_starts,
    window,
)

__all__ = [
    "MIN_SHARD", "SHARD_BYTES", "Shard", "StreamedFile", "count_shard", "read_shard", "read_shard_records",
    "shards",
]

SHARD_BYTES = 4 << 20
"""Bytes a shard covers at least (the rest of the record it ends in is added). Each shard is
two tasks (a count and a check), and each task costs the main process a fixed amount: big
shards keep that cost small against the records' (docs/verify-speed.md has the figures)."""
MIN_SHARD = 1 << 16
"""Fewest bytes a shard is cut to when a file is cut into ``parts``."""


class StreamedFile(msgspec.Struct, frozen=True):
    """A file a batch cannot cut into shards, to read in one process as stdin is read:
    ``why`` names what it is (a pipe, compressed) for a note, empty when nothing needs
    saying (a file read as one error: UTF-16, or not the form given)."""

    file: InputFile
    why: str = ""


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
    names: Naming | None = None


def read_shard(shard: Shard) -> Iterator[RawRecord]:
    """The raw records of a placed shard, numbered as reading the whole file numbers them.

    Raises :class:`InputFileError` when the file cannot be opened, ``OSError`` when reading fails.
    """
    if not shard.line:
        raise ValueError("a shard is read once placed: its first line and index are known")
    with open_any(shard.path) as handle:
        handle.seek(shard.start)
        lines = line_items(window(handle, shard.stop), shard.format, shard.line)
        yield from cut_units(lines, shard.source, shard.format, shard.game, shard.index, shard.names)


def read_shard_records(shard: Shard) -> Iterator[Decoded]:
    """The records of a placed shard, decoded (:func:`read_shard`, :func:`~ginref.records.decoding.decoded`).

    Raises :class:`InputFileError` when the file cannot be opened, ``OSError`` when reading fails.
    """
    return decoded(read_shard(shard))


def count_shard(shard: Shard) -> tuple[int, int]:
    """(lines, records) in a shard, placed or not: where the next shard starts. Only the starts
    are found, in runs of lines where they are plain text: no record's text is built."""
    format = FORMATS[shard.format]
    if format.whole:  # one document, or a log: never cut (so never counted in a batch)
        return _counted_units(shard)
    lines = records = 0
    with open_any(shard.path) as handle:
        handle.seek(shard.start)
        if format.boundary == "line":
            opened = _opened_lines(handle, shard.stop - shard.start)
            if opened is not None:
                return opened, opened
            handle.seek(shard.start)
        first = 1 if shard.start == 0 else 2  # line 1 alone may hold a BOM
        starts = TextSplitter(shard.source).count if format.boundary == "text" else _line_records
        for item in numbered_runs(window(handle, shard.stop), MAX_LINE, "records", first=first):
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
        items = list(record_lines(window(handle, shard.stop), 1 if shard.start == 0 else 2))
    return len(items), sum(1 for _ in cut_units(items, shard.source, shard.format, shard.game))


_BLANK_LINE_RE = re.compile(r"\n[^\S\n]*(?=\n)")
"""In lines each opened by a ``"\n"`` (and the last closed by one), the ``"\n"`` of each blank line"""


def _line_records(item: Line | TextRun) -> int:
    """How many records a line or a run holds in a form of one record a line: every line but
    a blank one (a line that cannot be read is a record, unreadable), as
    :mod:`ginref.records.units` cuts them."""
    if isinstance(item, TextRun):
        return item.line_count - len(_BLANK_LINE_RE.findall("\n" + item.text + "\n"))
    _, text, problem = item
    return 1 if problem is not None or text.strip() else 0


def shards(
    paths: Sequence[str], *, format: InputForm | None = None, game: str = "", size: int = SHARD_BYTES,
    parts: int = 1, progress: ReadProgress | None = None, names: Naming | None = None,
) -> Iterator[Shard | StreamedFile | InputFile | SkippedFile | InputFileError]:
    """The shards of every file the paths name, in order, each about ``size`` bytes (smaller,
    down to :data:`MIN_SHARD`, to cut a file into ``parts``; near a file's end, at most
    ``2 / parts`` of what is left); a file of a format read whole (one document, a log) is one shard.
    Standard input cannot be cut by bytes: it is passed on as its
    :class:`~ginref.records.io.InputFile` (read it with :func:`~ginref.records.units.raw_records`);
    nor can a pipe or a compressed file, nor need a file that is one error (UTF-16, not the form
    given): each is passed on as a :class:`StreamedFile` (read it with
    :func:`~ginref.records.io.read_file`).

    Only a few lines near each cut are read; with ``progress``, its total is set as in
    :func:`~ginref.records.io.read_paths` (the caller advances ``read`` as shards are done).
    """
    for item in listed_files(paths, progress):
        if not isinstance(item, InputFile) or item.path == "-":
            yield item
            continue
        if not is_url(item.path) and is_pipe(item.path):  # looked at without opening: that would read it
            yield StreamedFile(item, "a pipe")
            continue
        each = max(1, min(size, max(MIN_SHARD, file_size(item.path) // max(1, parts))))
        try:
            yield from _file_shards(item, format, game, each, parts, names)
        except InputFileError as exc:
            yield exc
        except OSError as exc:
            yield InputFileError(f"{item.source}: cannot read: {exc.strerror or exc}", item.source)


def _file_shards(
    item: InputFile, format: UnitForm | None, game: str, size: int, parts: int, names: Naming | None = None
) -> Iterator[Shard | StreamedFile]:
    with open_any(item.path) as handle:
        kind = compression(head_bytes(handle))
        if kind is not None:
            yield StreamedFile(item, f"{kind}-compressed")
            return
        form, _, problem = resolve_stream(handle, format, item.source, item.format)
        if problem is not None:  # one error: the main process reads it
            yield StreamedFile(item)
            return
        end = handle.seek(0, os.SEEK_END)
        start, line = 0, 1
        while start < end:
            each = _tapered(size, end - start, parts)
            stop = end if FORMATS[form].whole else _next_cut(handle, form, start + each, end)
            yield Shard(item.path, item.source, form, start, stop, line, 0, game, names)
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
    if FORMATS[form].boundary != "text":  # one record a line
        return start
    # a game tag after a hand line starts a record whatever came before, so the cut can be found here
    for starts, _ in text_starts(record_lines(window(handle, end), 2), started=True):
        if starts:
            return start
        start = handle.tell()
    return end
