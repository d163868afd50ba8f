"""Opening what the user names: files and pipes, read and written safely.

Every command that reads a path (records, score sheets, rules files) opens it
here, so a socket or device is refused at once instead of hanging the run, a
FIFO (``mkfifo``, ``<(zcat logs.gz)``) is read as a stream, as stdin is, and
every failure is a :class:`~ginref.errors.InputFileError` with one line of
text. A gzip, bzip2 or xz stream is recognised by its first bytes and read
through its decompressor a block at a time (:func:`decompressed`). A URL
(``s3://bucket/logs``, ``file:///data``, ``memory://x``) is opened through ``fsspec``
(the ``dask`` extra), imported only when a URL is given. Output goes
through :func:`atomic_output`: the file appears whole or not at all, and an existing
file is left untouched when writing fails.
"""

from __future__ import annotations

import bz2
import codecs
import contextlib
import gzip
import io
import lzma
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple, cast

from ginref.errors import InputFileError, OutputFileError

__all__ = [
    "MAX_TEXT_FILE",
    "RUN_BYTES",
    "Line",
    "PathArg",
    "Paths",
    "TextRun",
    "atomic_output",
    "compression",
    "decompressed",
    "describe_os_error",
    "head_bytes",
    "is_pipe",
    "is_url",
    "lone_surrogate",
    "numbered_lines",
    "numbered_runs",
    "open_any",
    "open_input",
    "open_url",
    "path_list",
    "read_text_file",
    "read_text_stream",
    "surrogate_problem",
    "url_files",
    "wide_text",
]

PathArg = str | os.PathLike[str]
Paths = PathArg | Iterable[PathArg]
"""What a library call that reads paths takes: one path, or any number of them."""


def path_list(paths: Paths) -> list[str]:
    """The paths given, as strings: one ``str`` or ``os.PathLike`` is one path, never a
    sequence of one-character paths (``"/"`` would walk the whole disk)."""
    if isinstance(paths, str | os.PathLike):
        return [_path_text(paths)]
    if isinstance(paths, bytes | bytearray | memoryview):
        raise TypeError("a path is a str or os.PathLike, not bytes")
    return [_path_text(path) for path in paths]


def _path_text(path: object) -> str:
    if isinstance(path, str | os.PathLike):
        text = os.fspath(path)
        if isinstance(text, str):
            return text
    raise TypeError(f"a path is a str or os.PathLike, not {type(path).__name__}")


MAX_TEXT_FILE = 1 << 26
"""Largest score sheet or rules file read whole (bytes): 64 MiB."""


def describe_os_error(exc: OSError) -> str:
    """``exc`` as a lowercase phrase without the path: ``no such file or directory``."""
    reason = exc.strerror or exc.__class__.__name__
    return reason[:1].lower() + reason[1:]


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> int:
    """Where ``text`` holds a lone surrogate (index), else -1: a ``str`` can carry one,
    UTF-8 cannot, so a record holding one could not be written out and read back."""
    if text.isascii():
        return -1
    found = _SURROGATE_RE.search(text)
    return -1 if found is None else found.start()


def surrogate_problem(text: str, at: int) -> str:
    """The wording for the lone surrogate at ``text[at]``."""
    return f"a lone surrogate (U+{ord(text[at]):04X}) is not a character; text must be UTF-8"


def shown_path(path: str) -> str:
    """The path as it may be printed (bytes that are not UTF-8 kept visible, not raised)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


READ_BUFFER = 1 << 16
"""bytes read from a file at a time: a batch reads megabytes, and each read is a system call"""


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def open_input(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open ``path`` for reading bytes: a regular file, or a FIFO read as a stream, as stdin
    is (its writer given :data:`FIFO_WRITER_WAIT` seconds to come; with none, it reads as
    empty); anything else (a folder, a socket, a device) is refused without blocking.

    Raises :class:`InputFileError` (``missing`` set when the path does not exist).
    """
    where = shown_path(os.fspath(path))
    # opened without blocking, to look first: a FIFO with no writer would hold the open for ever
    fd = _open_fd(path, where, os.O_RDONLY | _CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode):
            os.set_blocking(fd, True)
            _await_writer(fd)
        elif not stat.S_ISREG(mode):
            raise InputFileError(f"{where}: cannot read {_kind(mode)}; give a file or a pipe", where)
        return os.fdopen(fd, "rb", buffering=READ_BUFFER)
    except BaseException:
        os.close(fd)
        raise


FIFO_WRITER_WAIT = 2.0
"""seconds a FIFO is given to bring a writer (one started beside ginref may open it a moment
later): after that, a FIFO that has none reads as empty instead of waiting for ever"""


def _await_writer(fd: int) -> None:
    """Wait up to :data:`FIFO_WRITER_WAIT` for a FIFO's first data or its writer's end. A
    blocking read then waits for a writer that is there, and finds the end at once where none
    is (one that is late, never came, or came and went)."""
    import select

    if not hasattr(select, "poll"):  # pragma: no cover - not on Linux
        return
    waiting = select.poll()
    waiting.register(fd, select.POLLIN | select.POLLHUP)
    waiting.poll(int(FIFO_WRITER_WAIT * 1000))


def _open_fd(path: str | os.PathLike[str], where: str, flags: int) -> int:
    try:
        return os.open(path, flags)
    except FileNotFoundError:
        raise InputFileError(f"{where}: no such file", where, missing=True) from None
    except OSError as exc:
        raise InputFileError(f"{where}: cannot open: {describe_os_error(exc)}", where) from None


def is_pipe(path: str) -> bool:
    """Whether ``path`` is a FIFO (a named pipe, ``<(command)``): known without opening it,
    since opening a pipe to look would wait for its writer, and reading would take its data."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


# -- compressed streams ----------------------------------------------------------------------

_MAGIC: tuple[tuple[bytes, str], ...] = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"))
_BZIP2_BLOCKS = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")
"""after ``BZh`` and a level digit: a first block, or the end of an empty stream"""
HEAD_BYTES = 10
"""bytes :func:`head_bytes` looks at: enough for every magic number here"""


def compression(head: bytes) -> str | None:
    """The compression a stream's first bytes name (``gzip``, ``bzip2``, ``xz``), else None."""
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    if head[:3] == b"BZh" and head[3:4] in b"123456789" and head[3:4] and head[4:10] in _BZIP2_BLOCKS:
        return "bzip2"
    return None


def head_bytes(stream: IO[bytes] | IO[str], size: int = HEAD_BYTES) -> bytes:
    """The first ``size`` bytes still to come from ``stream``, left unread; ``b""`` for a text
    stream, or one that can neither peek nor seek. A failure to read is raised, not hidden."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        head = peek(size)
    else:
        try:
            at = stream.tell() if stream.seekable() else None
        except (OSError, ValueError, AttributeError):  # a stream that has only what it is read with
            return b""
        if at is None:
            return b""
        head = stream.read(size)
        stream.seek(at)
    return bytes(head[:size]) if isinstance(head, (bytes, bytearray, memoryview)) else b""


def decompressed(stream: IO[bytes] | IO[str], where: str) -> tuple[IO[bytes] | IO[str], str | None]:
    """``stream`` decompressed when its first bytes say it is compressed (and the name of the
    compression), else ``stream`` as it is. Decompression runs a block at a time, so a
    small file that inflates to gigabytes is read in bounded memory like any other; damaged
    data raises ``OSError`` naming it when reading reaches it."""
    kind = compression(head_bytes(stream))
    if kind is None:
        return stream, None
    raw = cast("IO[bytes]", stream)
    inner: IO[bytes]
    if kind == "gzip":
        inner = cast("IO[bytes]", gzip.GzipFile(fileobj=raw))
    else:  # closed with the stream returned (_Inflating.close)
        inner = cast("IO[bytes]", bz2.BZ2File(raw) if kind == "bzip2" else lzma.LZMAFile(raw))  # noqa: SIM115
    return io.BufferedReader(_Inflating(inner, kind, where), READ_BUFFER), kind


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
              (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def wide_text(head: bytes, what: str = "records") -> str | None:
    """The problem of text that starts with a UTF-16 or UTF-32 byte order mark (``head``: its
    first bytes), named; None for any other start."""
    for bom, name in _WIDE_BOMS:
        if head.startswith(bom):
            return (f"{name} text (it starts with a {name} byte order mark); {what} are UTF-8 text: "
                    f"convert it, e.g. iconv -f {name} -t UTF-8")
    return None


class _Inflating(io.RawIOBase):
    """A decompressor's output as a raw stream whose every failure is an ``OSError`` saying
    what is wrong (``EOFError``, ``zlib.error``, ``lzma.LZMAError`` otherwise escape)."""

    def __init__(self, inner: IO[bytes], kind: str, where: str) -> None:
        super().__init__()
        self.inner, self.kind, self.where = inner, kind, where

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self.inner.read(len(buffer))
        except Exception as exc:  # each decompressor has its own errors; none may escape
            reason = " ".join(str(exc).split())[:100] or type(exc).__name__
            raise OSError(f"damaged {self.kind} data: {reason[:1].lower() + reason[1:]}") from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.inner.close()
        super().close()


_URL_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a file through ``fsspec`` (``scheme://...``) rather than the local disk."""
    return isinstance(path, str) and _URL_RE.match(path) is not None


def _url_fs(url: str) -> tuple[Any, str]:
    """The fsspec file system of ``url`` and the path inside it; raises ``InputFileError``."""
    where = shown_path(url)
    try:
        import fsspec  # the dask extra: imported only when a URL is given
    except ImportError:
        raise InputFileError(f"{where}: cannot read a URL without fsspec; pip install 'ginref[dask]'",
                             where) from None
    try:
        return fsspec.core.url_to_fs(url)  # type: ignore[no-any-return]
    except Exception as exc:  # an unknown protocol, a missing backend, a bad URL: any library's error
        raise InputFileError(f"{where}: cannot open: {_reason(exc)}", where) from None


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())[:120] or type(exc).__name__
    return text[:1].lower() + text[1:]


def open_url(url: str) -> IO[bytes]:
    """Open an fsspec URL for reading bytes (seekable, as a shard needs); raises ``InputFileError``."""
    fs, path = _url_fs(url)
    where = shown_path(url)
    try:
        handle = fs.open(path, "rb")
        if "memory" in fs.protocol:  # one shared file object (one position) for every opener: a view each
            handle = io.BytesIO(handle.getvalue())  # the bytes are shared, not copied
        return handle  # type: ignore[no-any-return]
    except FileNotFoundError:
        raise InputFileError(f"{where}: no such file", where, missing=True) from None
    except IsADirectoryError:
        raise InputFileError(f"{where}: cannot read a folder; give a file", where) from None
    except Exception as exc:
        raise InputFileError(f"{where}: cannot open: {_reason(exc)}", where) from None


def url_files(url: str) -> list[str] | None:
    """The files under an fsspec URL that is a folder, as URLs, sorted; None when it is not one.

    Raises ``InputFileError`` when it does not exist or cannot be listed.
    """
    fs, path = _url_fs(url)
    where = shown_path(url)
    try:
        if not fs.isdir(path):
            if not fs.exists(path):
                raise InputFileError(f"{where}: no such file or folder", where, missing=True)
            return None
        return sorted(fs.unstrip_protocol(found) for found in fs.find(path))
    except InputFileError:
        raise
    except Exception as exc:
        raise InputFileError(f"{where}: cannot list: {_reason(exc)}", where) from None


def open_any(path: str | os.PathLike[str]) -> IO[bytes]:
    """:func:`open_url` for a URL, else :func:`open_input`."""
    return open_url(path) if isinstance(path, str) and is_url(path) else open_input(path)


Line = tuple[int, str, "tuple[int, str] | None"]
"""(line number, text without its line end, (column, problem) when its bytes are not text)"""


def numbered_lines(
    stream: IO[bytes] | IO[str], limit: int, what: str = "records", *, first: int = 1
) -> Iterator[Line]:
    """The lines of a stream, numbered from ``first``, never holding more than ``limit`` bytes.

    Only LF ends a line (CRLF too; U+2028 is text inside a line), so line numbers match
    what an editor shows; line 1 may start with a BOM. A line whose bytes are not UTF-8
    text (or hold a NUL) carries its problem and column instead of its text, and one
    longer than ``limit`` is skipped unread: either spoils only its own line.
    """
    readline = stream.readline
    number = first - 1
    while raw := readline(limit):
        number += 1
        if len(raw) >= limit and raw[-1:] not in ("\n", b"\n"):
            while raw and raw[-1:] not in ("\n", b"\n"):
                raw = readline(limit)
            yield _too_long(number, limit)
            continue
        yield _line(raw, number, what)


def _too_long(number: int, limit: int) -> Line:
    return number, "", (1, f"line longer than {limit} bytes")


def _line(raw: bytes | str, number: int, what: str) -> Line:
    if isinstance(raw, str):
        text = raw.removesuffix("\n").removesuffix("\r")
        text = text.removeprefix("\ufeff") if number == 1 else text
        at = lone_surrogate(text)
        return (number, text, None) if at < 0 else (number, "", (at + 1, surrogate_problem(text, at)))
    raw = raw.removesuffix(b"\n").removesuffix(b"\r")
    if number == 1:
        raw = raw.removeprefix(codecs.BOM_UTF8)
        wide = wide_text(raw, what)
        if wide is not None:
            return number, "", (1, wide)
    nul = raw.find(b"\x00")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not 0 <= nul < exc.start:
            column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            return number, "", (column, f"invalid UTF-8 (byte 0x{raw[exc.start]:02x}); {what} are UTF-8 text")
    else:
        if nul < 0:
            return number, text, None
    return number, "", (len(raw[:nul].decode("utf-8")) + 1, f"a NUL byte; {what} are text")


RUN_BYTES = 1 << 20
"""Bytes :func:`numbered_runs` reads at a time."""


class TextRun(NamedTuple):
    """Lines ``first`` on of a stream, every one plain text: what :func:`numbered_lines` gives
    them as, read and decoded at once, and kept joined (``text``: the lines with ``"\n"``
    between them, no line end after the last), so that a reader can search and cut the run
    without splitting it into ``line_count`` strings first."""

    first: int
    text: str
    line_count: int

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def numbered_runs(
    stream: IO[bytes], limit: int, what: str = "records", *, first: int = 1, size: int = RUN_BYTES
) -> Iterator[TextRun | Line]:
    """:func:`numbered_lines` of a byte stream, at speed: about ``size`` bytes of whole lines
    at a time come as one :class:`TextRun` when they are all UTF-8 text without a NUL; any
    other run, line by line as :func:`numbered_lines` gives it. A stream with ``read1`` (a
    pipe) is read as its bytes come. Memory stays under about ``size + limit`` bytes.

    The twin of :func:`numbered_lines`: ``tests/records/test_line_runs.py`` holds them to the same lines.
    """
    read = getattr(stream, "read1", None) or stream.read
    number = first
    for run in _runs(read, size, limit):
        if run is None:
            yield _too_long(number, limit)
            number += 1
            continue
        text = _plain(run, number == 1) if len(run) < limit else None
        if text is not None:
            line_count = text.count("\n") + 1
            yield TextRun(number, text, line_count)
            number += line_count
            continue
        for line in numbered_lines(io.BytesIO(run), limit, what, first=number):
            yield line
            number += 1


def _runs(read: Callable[[int], bytes], size: int, limit: int) -> Iterator[bytes | None]:
    """The bytes ``read`` gives, cut after their last line end; None for a line of ``limit``
    bytes or more that has not ended, which is then skipped through its line end unread."""
    held: list[bytes] = []  # the start of a line not yet ended
    count, skipping = 0, False
    while data := read(size):
        if skipping:
            end = data.find(b"\n")
            if end < 0:
                continue
            data, skipping = data[end + 1 :], False
        cut = data.rfind(b"\n") + 1
        if cut:
            yield b"".join((*held, data[:cut])) if held else data[:cut]
            held, count = [], 0
            data = data[cut:]
        if data:
            held.append(data)
            count += len(data)
            if count >= limit:
                yield None
                held, count, skipping = [], 0, True
    if held:
        yield b"".join(held)


def _plain(run: bytes, line_one: bool) -> str | None:
    """The lines of ``run`` as :func:`_line` reads them, joined by ``"\n"``, when all are
    text; None otherwise."""
    if b"\x00" in run:
        return None
    try:
        text = run.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if line_one:
        text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        return text[:-1] if run.endswith(b"\n") else text.removesuffix("\r")
    return text[:-1] if run.endswith(b"\n") else text


def read_text_file(path: str | os.PathLike[str], *, limit: int = MAX_TEXT_FILE) -> str:
    """The whole of a small UTF-8 text file (a sheet, a rules file); raises ``InputFileError``."""
    with open_input(path) as handle:
        return read_text_stream(handle, shown_path(os.fspath(path)), limit=limit)


def read_text_stream(stream: IO[bytes], where: str, *, limit: int = MAX_TEXT_FILE) -> str:
    """All of a byte stream as UTF-8 text, at most ``limit`` bytes; raises ``InputFileError``
    naming ``where`` (and the line and column of a byte that is not text)."""
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise InputFileError(f"{where}: cannot read: {describe_os_error(exc)}", where) from None
    if len(data) > limit:
        raise InputFileError(f"{where}: larger than {limit} bytes", where)
    wide = wide_text(data, "score sheets and rules files")
    if wide is not None:
        raise InputFileError(f"{where}: {wide}", where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFileError(
            f"{where}:{line}:{column}: invalid UTF-8 (byte 0x{data[exc.start]:02x}); "
            "the file must be UTF-8 text",
            where,
        ) from None


def _mode_for(target: str) -> int:
    """The permissions ``target`` gets: its own if it exists, else what any new file gets under
    the umask (a temporary file is made private, 0600, which a report or a converted record is not)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text stream whose content replaces ``path`` only if the block completes.

    A path that exists and is not a regular file (``/dev/null``, a FIFO) is written
    in place. Any failure raises :class:`OutputFileError` and leaves ``path`` as it was.
    """
    target = os.fspath(path)
    where = shown_path(target)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    except OSError as exc:
        raise OutputFileError(f"{where}: cannot write: {describe_os_error(exc)}", where) from None
    if not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise OutputFileError(f"{where}: cannot write: it is a folder", where)
        try:
            with open(target, "w", encoding=encoding) as direct:
                yield direct
        except OSError as exc:
            raise OutputFileError(f"{where}: cannot write: {describe_os_error(exc)}", where) from None
        return
    import tempfile  # here: with shutil it slows every command's start-up; only writing a file needs it

    folder = os.path.dirname(target) or "."
    try:
        fd, temp = tempfile.mkstemp(prefix=".ginref-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise OutputFileError(f"{where}: cannot write: the folder {shown_path(folder)!r} does not exist",
                              where) from None
    except OSError as exc:
        raise OutputFileError(f"{where}: cannot write: {describe_os_error(exc)}", where) from None
    try:
        with os.fdopen(fd, "w", encoding=encoding) as out:
            yield out
        os.chmod(temp, _mode_for(target))
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise OutputFileError(f"{where}: cannot write: {describe_os_error(exc)}", where) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
