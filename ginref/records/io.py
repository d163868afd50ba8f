"""The only way any command reads or writes records: paths, folders and stdin.

:func:`read_records` gives the records of one input, :func:`read_paths` those of every file
some paths name (folders walked), :func:`write_records` writes records in a form and
:func:`convert_records` does both. Reading goes in two steps, each in its own module:
:mod:`ginref.records.units` cuts a stream into raw records without decoding them (sniffing
its form when no form is given or implied), and :mod:`ginref.records.decoding` decodes
each. A batch over many cores cuts files into shards of whole records instead
(:mod:`ginref.batch.shards`), from the same pieces. Every command uses these, so the same
bytes give the same records, the same errors and the same positions everywhere.

- The file name endings are the formats' (:func:`~ginref.records.formats.suffix_form`;
  :data:`SUFFIXES` lists ginref's own); anything else, and stdin, is sniffed
  (:func:`~ginref.records.units.sniff_format`); ``format`` forces a form (``--from``).
- Errors read ``source:line:column: message``; standard input is ``<stdin>``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

import msgspec

from ginref.errors import InputFileError, RecordError, detached
from ginref.files import (
    Paths,
    decompressed,
    is_url,
    open_any,
    path_list,
    shown_path,
    url_files,
)
from ginref.records.decoding import Decoded, decode, decoded, read_record
from ginref.records.form import is_comment
from ginref.records.formats import FORMATS, log_form, suffix_form, unit_form
from ginref.records.jsonencode import format_jsonl, pretty_json
from ginref.records.model import GameRecord, InputForm, RecordFormat, UnitForm
from ginref.records.names import Naming
from ginref.records.openspiel import format_history, params_for
from ginref.records.text import format_text
from ginref.records.units import (
    MAX_JSON,
    MAX_LINE,
    MAX_RECORD,
    RawRecord,
    cut_units,
    raw_records,
    resolve_stream,
    sniff_format,
)

if TYPE_CHECKING:
    from ginref.rules import Rules

__all__ = [
    "MAX_JSON",
    "MAX_LINE",
    "MAX_RECORD",
    "STDIN",
    "SUFFIXES",
    "Decoded",
    "InputFile",
    "RawRecord",
    "ReadProgress",
    "Reading",
    "SkippedFile",
    "convert_records",
    "decode",
    "decoded",
    "file_size",
    "input_files",
    "listed_files",
    "raw_records",
    "read_file",
    "read_paths",
    "read_record",
    "read_records",
    "read_stdin",
    "reading_of",
    "record_format",
    "sniff_format",
    "unit_form",
    "write_records",
]

SUFFIXES: dict[str, UnitForm] = {
    suffix: cast("UnitForm", name) for name, format in FORMATS.items() for suffix in format.suffixes
}
"""File name endings and the record form each means, of the formats ginref ships (the
registry's ``suffixes``); folders are searched for these."""
COMPRESSED_SUFFIXES = frozenset({".gz", ".bz2", ".xz"})
"""Endings of compressed files, which a folder walk reads too (``logs.jsonl.gz``, ``game.gz``):
the ending under them gives the form. Compression itself is told by content, never by name."""
STDIN = "<stdin>"
"""How standard input is named in every message."""


class InputFile(msgspec.Struct, frozen=True):
    """A file to read: ``path`` as given to ``open`` (``-`` for stdin), ``source`` as shown."""

    path: str
    source: str
    format: UnitForm | None
    """from the suffix; None: sniffed"""


class SkippedFile(msgspec.Struct, frozen=True):
    """A file in a folder whose name is not a record file's (``.txt``, ``.log``, ...)."""

    source: str


def record_format(name: str) -> UnitForm | None:
    """The record form a file name's ending implies, if any (a format's ``suffixes``)."""
    return suffix_form(name)


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
    """Whether a file in a folder is another program's log (EAAI, RLCard), by its first line
    that is neither blank nor a ``#`` comment (within its first 4 KiB)."""
    try:
        with open_any(path) as handle:
            head = handle.read(4096)
    except (OSError, InputFileError):
        return False
    for line in head.decode("utf-8", "replace").lstrip("\ufeff").split("\n"):
        if line.strip() and not is_comment(line):
            return log_form(line) is not None
    return False


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
    names: Naming | None = None,
) -> Iterator[GameRecord | RecordError]:
    """Every record of ``input`` (a path, or a byte or text stream), in order.

    Returns an iterator of items: a ``GameRecord``, or the ``RecordError`` that says why
    that record cannot be read (it never stops at a bad record). ``source`` names the input
    in messages (default: the path, or the stream's name). The form is ``format``, else the
    ending of the path (or of ``source``), else sniffed (see :func:`sniff_format`); ``game``
    gives OpenSpiel histories their parameters (``gin_rummy(knock_card=9)``) and ``names`` the
    players their names (:class:`~ginref.records.names.Naming`). Lines are read
    one at a time, so memory stays flat however large the input. A path that cannot be
    opened raises :class:`~ginref.errors.InputFileError`; nothing else is raised for any bytes.
    """
    name = _source_name(input, source)
    with _opened(input) as stream:
        for raw in raw_records(stream, name, format, game=game, named=_reading_form(name), names=names):
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


class Reading(msgspec.Struct, frozen=True):
    """How a batch reads its inputs, as one value: what ``-`` reads (``stdin``, a byte
    stream), the form forced (``format``, ``--from``; None: each file's own), the
    parameters of OpenSpiel histories (``game``), the players' names (``names``), the
    bytes read so far (``progress``), and who hears of a file in a folder that is not a
    record file (``on_skip``, given its name) or of files read in one process rather than
    shared out (``on_note``, given one line). Every field may be left out."""

    stdin: IO[bytes] | None = None
    format: InputForm | None = None
    game: str = ""
    names: Naming | None = None
    progress: ReadProgress | None = None
    on_skip: Callable[[str], None] | None = None
    on_note: Callable[[str], None] | None = None


PLAIN = Reading()
"""Files read as they are: each one's own form, no stdin, no names, no one told."""


def reading_of(reading: Reading | None, fields: dict[str, Any]) -> Reading:
    """``reading``, or one made of its ``fields`` given as keywords (``format="jsonl"``), as the
    public batch calls take either; raises ``TypeError`` for both, or for a field it has not."""
    if reading is None:
        return Reading(**fields) if fields else PLAIN
    if fields:
        raise TypeError(f"give reading= or its fields as keywords, not both: {', '.join(sorted(fields))}")
    return reading


def file_size(path: str) -> int:
    try:
        if is_url(path):
            with open_any(path) as handle:
                return handle.seek(0, os.SEEK_END)
        return os.stat(path).st_size
    except OSError:
        return 0


def listed_files(
    paths: Sequence[str], progress: ReadProgress | None
) -> Iterable[InputFile | SkippedFile | InputFileError]:
    """The files the paths name; with ``progress``, listed first so that their total size is known."""
    items: Iterable[InputFile | SkippedFile | InputFileError] = input_files(paths)
    if progress is not None:
        items = list(items)
        progress.total = sum(file_size(i.path) for i in items if isinstance(i, InputFile) and i.path != "-")
    return items


def read_paths(paths: Paths, reading: Reading = PLAIN) -> Iterator[Decoded | SkippedFile | InputFileError]:
    """The records of every file the paths name (``-``: the ``reading``'s ``stdin``), decoded, in
    order, read as ``reading`` says; a file that cannot be opened is its ``InputFileError``, a
    non-record file in a folder a ``SkippedFile`` (``reading.on_skip`` is the batch's to call).
    With a ``reading.progress``, the files are listed first so that their total size is known."""
    for item in listed_files(path_list(paths), reading.progress):
        if not isinstance(item, InputFile):
            yield item
        elif item.path != "-":
            yield from _decoded(read_file(item, reading))
        elif reading.stdin is not None:
            yield from decoded(read_stdin(reading))


def read_stdin(reading: Reading) -> Iterator[RawRecord]:
    """The raw records of ``reading.stdin``, as :func:`read_paths` reads ``-``."""
    if reading.stdin is None:
        return iter(())
    return raw_records(reading.stdin, STDIN, reading.format, game=reading.game, names=reading.names)


def _decoded(items: Iterable[RawRecord | InputFileError]) -> Iterator[Decoded | InputFileError]:
    for item in items:
        if isinstance(item, InputFileError):
            yield item
        else:
            yield from decoded((item,))


def read_file(item: InputFile, reading: Reading = PLAIN) -> Iterator[RawRecord | InputFileError]:
    """The raw records of one file (not stdin), as :func:`read_paths` reads it; a file that
    cannot be opened, or whose reading fails (damaged compressed data), ends in its
    ``InputFileError``. With a ``reading.progress``, its ``read`` goes up by the bytes read."""
    try:
        handle = open_any(item.path)
    except InputFileError as exc:
        yield exc
        return
    with handle:
        try:
            raws = raw_records(handle, item.source, reading.format, game=reading.game, named=item.format,
                               names=reading.names)
            yield from _counted(raws, handle, reading.progress)
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
    names: Naming | None = None,
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
        resolved = resolve_stream(decompressed(stream, name)[0], format, name, _reading_form(name))
        if resolved.problem is not None:
            yield resolved.problem
            return
        found = resolved.form
        target: RecordFormat = to or ("gin" if found != "gin" else "jsonl")
        raws = cut_units(resolved.lines, name, found, game, names=names)
        records = (record for raw in raws for record in decode(raw))
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
        progress.total = file_size(os.fspath(input))
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
