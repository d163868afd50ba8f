"""Batch verification: many records, checked in parallel, reported in input order.

:func:`verify` is the one way through a batch: paths read as one
:class:`~ginref.records.io.Reading` says (or records, or a batch's results under way),
checked in this process, on worker processes or elsewhere (:class:`Elsewhere`: a Dask
cluster), each record's :class:`~ginref.batch.RecordResult` yielded in input order; what a
consumer adds to a result (:data:`~ginref.batch.results.Adding`) is checked here, where the
records are. The audit and the standings are tallies of its results (:func:`tally`).

With ``jobs`` above 1 the main process only cuts files into shards
(:func:`ginref.batch.shards.shards`: byte ranges of whole records, found by reading
a few lines near each cut); each worker reads its own shard, decodes, adjudicates
and serialises its records, and hands back small results. A shard is checked once
the shards before it in its file are counted (by the workers too), so that its
records carry the whole file's line numbers and indexes. Standard input cannot be
cut by bytes: the main process cuts it into raw records and ships them in chunks
(:class:`~ginref.batch.tasks.Chunk`).
At most a few shards are in flight at once, so memory stays flat however large the
input. An unreadable record becomes a result of its own: nothing stops the batch,
nothing is lost, and every record given is reported exactly once, in order; a task that
fails reports its records as unreadable, saying why.

:func:`run_batch` drives any :class:`Runner` with the same tasks
(:func:`~ginref.batch.tasks.check_task_packed`, :func:`~ginref.batch.tasks.shard_extent`,
:func:`~ginref.batch.tasks.record_starts`): worker processes forked
here (:mod:`ginref.batch.workers`), a Dask cluster in :mod:`ginref.batch.cluster`.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import gc
import itertools
import os
from collections.abc import Callable, Collection, Generator, Iterable, Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar, cast

import msgspec
from msgspec.structs import replace

from ginref.batch.results import (
    Adding,
    RecordResult,
    check_decoded,
    checked,
    from_file_error,
    unpack_results,
    unreadable,
)
from ginref.batch.shards import SHARD_BYTES, Shard, StreamedFile, shards
from ginref.batch.tasks import (
    Chunk,
    Task,
    check_task_in_worker,
    check_task_packed,
    record_starts,
    set_worker,
    shard_extent,
)
from ginref.batch.workers import Submitted, Workers
from ginref.errors import InputFileError, tidy_message
from ginref.files import Paths, path_list
from ginref.records.io import (
    PLAIN,
    Decoded,
    InputFile,
    RawRecord,
    Reading,
    ReadProgress,
    input_files,
    read_file,
    read_paths,
    read_stdin,
    reading_of,
)
from ginref.records.model import GameRecord
from ginref.rules import Rules

CHUNK = 128
"""raw records of stdin a worker takes at a time: big enough to amortise the hand-off"""

Inputs = Paths | Iterable[GameRecord] | Iterable[RecordResult]
"""What a batch takes: paths (:data:`ginref.files.Paths`: files, folders, URLs, ``-``),
:class:`~ginref.records.GameRecord` values, or the results of a batch under way."""


# -- the batch ----------------------------------------------------------------------------


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def verify(
    paths: Inputs,
    rules: Rules | None = None,
    *,
    jobs: int | None = None,
    reading: Reading | None = None,
    adding: Adding | None = None,
    on: Elsewhere | None = None,
    chunk: int | None = None,
    shard_bytes: int | None = None,
    **fields: Any,
) -> Generator[RecordResult, None, None]:
    """Verify every record of ``paths``, yielding one result per record in input order: the
    one batch iterator, which the audit and the standings count.

    ``paths`` is one path or many: one or many files, folders (walked for record files), fsspec URLs
    (:func:`ginref.files.is_url`) or ``-`` for the ``reading``'s ``stdin``; or
    :class:`~ginref.records.GameRecord` values, checked in this process; or the
    :class:`RecordResult` values of a batch under way, passed on as they come (closing this
    closes them: a batch stops its workers). ``rules`` overrides each record's own rule set
    when given. ``reading`` (:class:`~ginref.records.io.Reading`) says how paths are read: the
    form forced, OpenSpiel's game, the players' names, stdin, the progress kept, who hears of a
    skipped file (``on_skip``) or of a file read in this process (``on_note``); its ``fields`` may
    be given as keywords instead (``format="jsonl"``), which build one.

    Where the records are checked: with ``on`` (a Dask cluster,
    :class:`ginref.batch.cluster.OnDask`), there; with ``jobs`` above 1 (default: the cores),
    in that many worker processes, each reading shards of about ``shard_bytes`` (stdin: chunks
    of ``chunk`` records); else here. A batch of one shard or chunk is checked here, where
    starting workers would cost more than the work, and so is every batch where processes
    cannot be forked (Windows), and every batch ``adding`` to its results (:data:`Adding`),
    which needs the records at hand. A file that workers cannot share out (a pipe, a
    compressed file) is read in this process, as stdin is.

    Returns a generator of :class:`RecordResult`; it never raises for bad input: a path or
    record that cannot be read is an unreadable result of its own. Raises ``TypeError`` for
    inputs that mix paths, records and results, and for ``reading`` given with its fields.
    """
    return _verified(paths, rules, jobs, reading_of(reading, fields), adding, on, chunk, shard_bytes)


def _verified(
    paths: Inputs, rules: Rules | None, jobs: int | None, how: Reading, adding: Adding | None,
    on: Elsewhere | None, chunk: int | None, shard_bytes: int | None,
) -> Generator[RecordResult, None, None]:
    files, records, given = _sorted_inputs(paths)
    if given is not None:
        yield from given
        return
    if not files:
        yield from check_decoded(records, rules, adding)
        return
    if on is not None:
        yield from _elsewhere(files, rules, how, on, chunk, shard_bytes)
        return
    jobs = jobs or default_jobs()
    if jobs <= 1 or adding is not None or not hasattr(os, "fork"):  # workers are forked (POSIX)
        yield from _here(files, rules, how, adding)
        return
    work = batch_work(files, how, chunk=chunk or CHUNK, shard_bytes=shard_bytes or SHARD_BYTES,
                      parts=jobs * 4)
    first, lone = _up_to_second_task(work)
    if lone:  # workers would cost more than the one task: it runs here, the same way
        yield from run_batch(first, _InlineRunner(rules), in_flight=1, ahead=0, progress=how.progress)
        return
    yield from _parallel(itertools.chain(first, work), rules, jobs, how.progress)


def _here(paths: Sequence[str], rules: Rules | None, reading: Reading, adding: Adding | None
          ) -> Iterator[RecordResult]:
    """Every record under ``paths`` read (:func:`~ginref.records.io.read_paths`, decoded) and
    checked in this process, in input order: a file that cannot be read is its unreadable
    result, and each file a folder walk skipped is told to ``reading.on_skip``."""
    on_skip = reading.on_skip
    for item in read_paths(paths, reading):
        if isinstance(item, Decoded):
            yield checked(item, rules, adding)
        elif isinstance(item, InputFileError):
            yield from_file_error(item)
        elif on_skip is not None:
            on_skip(item.source)


class Elsewhere(Protocol):
    """Somewhere other than this machine's forked workers that runs a batch's tasks: a Dask
    cluster (:class:`ginref.batch.cluster.OnDask`). It starts the tasks (:meth:`runner`), says
    how many threads it has now, how many tasks may be under way (``in_flight``; None: twice
    its threads) and the size of its tasks."""

    shard_bytes: int
    chunk: int
    in_flight: int | None

    def runner(self, rules: Rules | None) -> Runner: ...

    def threads(self) -> int: ...


def _elsewhere(paths: Sequence[str], rules: Rules | None, reading: Reading, on: Elsewhere,
               chunk: int | None, shard_bytes: int | None) -> Iterator[RecordResult]:
    """The batch's tasks run ``on`` other workers, a bounded number under way."""
    threads = on.threads()
    window = on.in_flight or 2 * threads
    work = batch_work(paths, reading, chunk=chunk or on.chunk, shard_bytes=shard_bytes or on.shard_bytes,
                      parts=2 * threads)
    yield from run_batch(work, on.runner(rules), in_flight=window, ahead=window, progress=reading.progress)


def _sorted_inputs(given: Inputs) -> tuple[list[str], Iterator[Decoded], Iterator[RecordResult] | None]:
    """Paths (as strings), the records given as decoded items (lazily), or the results given."""
    if isinstance(given, str | os.PathLike | bytes | bytearray | memoryview):
        return path_list(given), iter(()), None
    items: Iterator[object] = iter(given)
    first = next(items, None)
    if first is None or isinstance(first, RecordResult):  # nothing given: no records, no results
        return [], iter(()), _as_results(itertools.chain(() if first is None else (first,), items), given)
    if isinstance(first, GameRecord):
        return [], _as_decoded(itertools.chain((first,), items)), None
    paths = [first]
    for path in items:
        if isinstance(path, GameRecord | RecordResult):
            raise TypeError(f"a batch takes paths or records, not a mix: {type(path).__name__}")
        paths.append(path)
    return path_list(cast(Paths, paths)), iter(()), None


def _as_decoded(records: Iterable[object]) -> Iterator[Decoded]:
    for record in records:
        if not isinstance(record, GameRecord):
            raise TypeError(f"a batch takes paths or records, not {type(record).__name__}")
        yield Decoded(record, record.index, record.place.line)


def _as_results(results: Iterable[object], given: object) -> Generator[RecordResult, None, None]:
    """The results given, each checked; closing this closes them (a batch stops its workers)."""
    try:
        for result in results:
            if not isinstance(result, RecordResult):
                raise TypeError(f"a batch takes results, not a mix: {type(result).__name__}")
            yield result
    finally:
        close = getattr(given, "close", None)
        if close is not None:
            close()


class Tally(Protocol):
    """What counts a batch's results, one at a time, in input order: the audit, the standings,
    :class:`BatchSummary`."""

    def add(self, result: RecordResult) -> None: ...


def tally(results: Iterable[RecordResult], tallies: Sequence[Tally],
          on_result: Callable[[RecordResult], None] | None = None) -> None:
    """Each result added to each of ``tallies``, then passed to ``on_result``; results that can
    be closed are closed at the end, or on an exception (a closed batch stops its workers)."""
    adds = [t.add for t in tallies] + ([] if on_result is None else [on_result])
    try:
        for result in results:
            for add in adds:
                add(result)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def _up_to_second_task(work: Iterator[Work]) -> tuple[list[Work], bool]:
    """The work up to and with its second task (a shard or a chunk), and whether it has
    no second one."""
    first: list[Work] = []
    tasks = 0
    for item in work:
        first.append(item)
        tasks += not isinstance(item, RecordResult)
        if tasks == 2:
            return first, False
    return first, True


def _chunks(stream: Iterable[RawRecord | RecordResult], size: int) -> Iterator[Chunk | RecordResult]:
    """Group raw records into chunks; a ready-made result (an unreadable file) passes alone."""
    raws: list[RawRecord] = []
    for item in stream:
        if isinstance(item, RecordResult):
            if raws:
                yield Chunk(raws)
                raws = []
            yield item
            continue
        raws.append(item)
        if len(raws) >= size:
            yield Chunk(raws)
            raws = []
    if raws:
        yield Chunk(raws)


Work = Task | RecordResult
"""what the main process hands on, in input order: a task (a shard, a chunk of raw records read
here) or a ready result"""


def batch_work(
    paths: Sequence[str], reading: Reading = PLAIN, *, chunk: int = CHUNK, shard_bytes: int = SHARD_BYTES,
    parts: int = 1,
) -> Iterator[Work]:
    """The work of a batch in input order: the files' shards (:func:`ginref.batch.shards.shards`),
    with standard input and the files that cannot be cut by bytes (a pipe, a compressed
    file: ``reading.on_note`` is told once, at the end, whatever their number) read here and
    cut into chunks of raw records."""
    streamed: list[StreamedFile] = []
    for item in shards(paths, format=reading.format, game=reading.game, size=shard_bytes, parts=parts,
                       progress=reading.progress, names=reading.names):
        if isinstance(item, Shard):
            yield item
        elif isinstance(item, StreamedFile):
            if item.why:
                streamed.append(item)
            raws = read_file(item.file, replace(reading, progress=None))
            yield from _chunks((from_file_error(r) if isinstance(r, InputFileError) else r for r in raws),
                                chunk)
        elif isinstance(item, InputFile):
            yield from _chunks(read_stdin(reading), chunk)
        elif isinstance(item, InputFileError):
            yield from_file_error(item)
        elif reading.on_skip is not None:
            reading.on_skip(item.source)
    if streamed and reading.on_note is not None:
        reading.on_note(_streamed_note(streamed))


def _streamed_note(streamed: Sequence[StreamedFile]) -> str:
    """One note for the files read in one process (not one a file: a folder of 500 .gz files)."""
    first = streamed[0]
    if len(streamed) == 1:
        return f"{first.file.source} is {first.why}: read in one process, not shared out in shards"
    kinds = sorted({item.why for item in streamed})
    return (f"{len(streamed):,} files are {' or '.join(kinds)} ({first.file.source} the first): each read "
            "in one process, not shared out in shards")


T_co = TypeVar("T_co", covariant=True)


class Waitable(Protocol[T_co]):
    """A task under way: a :class:`~ginref.batch.workers.Submitted` or a ``distributed.Future``."""

    def result(self) -> T_co: ...


class Runner(Protocol):
    """Where the tasks of a batch run: the batch's worker processes, a Dask cluster, or this
    process for a batch of one task. Each method starts the task of its name
    (:func:`~ginref.batch.tasks.shard_extent`, :func:`~ginref.batch.tasks.check_task_packed`,
    :func:`~ginref.batch.tasks.record_starts`)."""

    def count(self, shard: Shard) -> Waitable[tuple[int, int]]: ...

    def check(self, task: Task) -> Waitable[bytes]: ...

    def starts(self, shard: Shard) -> Waitable[list[tuple[int, int]]]: ...


class _Started(msgspec.Struct, frozen=True):
    """A piece of work under way: its future (its results, packed), the bytes of input it
    covers, and what to report for its records if it fails."""

    done: Waitable[bytes]
    size: int
    lost: Callable[[str], list[RecordResult]]


Pending = _Started | RecordResult


class _Counted:
    """A shard, and the count of its lines and records once the file is known to go on past it."""

    __slots__ = ("counted", "shard")

    def __init__(self, shard: Shard) -> None:
        self.shard = shard
        self.counted: Waitable[tuple[int, int]] | None = None

    def extent(self) -> tuple[int, int]:
        """Its count; counted here if its task failed or never ran (reading lines decodes nothing)."""
        if self.counted is not None:
            with contextlib.suppress(Exception):
                return self.counted.result()
        return shard_extent(self.shard)


class _Placer:
    """Starts each shard's check once the shards before it in its file are counted, so that
    it starts at the right line and record index. A shard is counted when the next one of its
    file comes (a file of one shard needs no count), a few shards before that one is placed."""

    def __init__(self, runner: Runner, ahead: int) -> None:
        self.runner, self.ahead = runner, ahead
        self.queue: collections.deque[_Counted] = collections.deque()
        self.came: _Counted | None = None
        self.placed: _Counted | None = None
        self.line, self.index = 1, 0

    def add(self, shard: Shard) -> Iterator[Pending]:
        if not shard.line and self.came is not None:
            self.came.counted = self.runner.count(self.came.shard)
        self.came = _Counted(shard)
        self.queue.append(self.came)
        if len(self.queue) > self.ahead:
            yield self._place()

    def flush(self) -> Iterator[Pending]:
        while self.queue:
            yield self._place()

    def _place(self) -> Pending:
        item = self.queue.popleft()
        if item.shard.line:  # a file's first shard
            self.line, self.index = item.shard.line, item.shard.index
        elif self.placed is not None:  # past the shard before it
            lines, records = self.placed.extent()
            self.line, self.index = self.line + lines, self.index + records
        self.placed = item
        shard = replace(item.shard, line=self.line, index=self.index)
        lost = functools.partial(_lost_shard, self.runner, shard, item)
        return _Started(self.runner.check(shard), shard.stop - shard.start, lost)


def _lost_shard(runner: Runner, shard: Shard, item: _Counted, reason: str) -> list[RecordResult]:
    """A failed shard's records, each unreadable with the reason, found by reading it again;
    failing that, as many as it counts, at its first line."""
    try:
        starts = runner.starts(shard).result()
    except Exception:
        starts = [(shard.index + k, shard.line) for k in range(item.extent()[1])]
    return [unreadable(shard.source, index, line, reason) for index, line in starts]


def _lost_chunk(chunk: Chunk, reason: str) -> list[RecordResult]:
    return [unreadable(raw.source, raw.index, raw.line, reason) for raw in chunk.raws]


def _submitted(work: Iterable[Work], runner: Runner, ahead: int) -> Iterator[Pending]:
    """Every piece of work started (or passed through), in input order."""
    placer = _Placer(runner, ahead)
    for item in work:
        if isinstance(item, Shard):
            yield from placer.add(item)
            continue
        yield from placer.flush()
        if isinstance(item, RecordResult):
            yield item
        else:
            yield _Started(runner.check(item), item.size, functools.partial(_lost_chunk, item))
    yield from placer.flush()


def run_batch(
    work: Iterable[Work], runner: Runner, *, in_flight: int, ahead: int, progress: ReadProgress | None = None
) -> Iterator[RecordResult]:
    """The results of ``work`` in input order, with at most ``in_flight`` tasks under way and
    counts ``ahead`` shards in advance, so memory stays flat. A task that fails (a worker lost
    for good, a bug) gives its records as unreadable results saying why: none goes missing."""
    pending: collections.deque[Pending] = collections.deque()
    for item in _submitted(work, runner, ahead):
        pending.append(item)
        while len(pending) >= in_flight:
            yield from _resolve(pending.popleft(), progress)
    while pending:
        yield from _resolve(pending.popleft(), progress)


class _WorkerRunner:
    """Runs each task in the batch's worker processes (:mod:`ginref.batch.workers`)."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    def count(self, shard: Shard) -> Submitted[tuple[int, int]]:
        return self.workers.submit(shard_extent, shard)

    def check(self, task: Task) -> Submitted[bytes]:
        return self.workers.submit(check_task_in_worker, task)

    def starts(self, shard: Shard) -> Submitted[list[tuple[int, int]]]:
        return self.workers.submit(record_starts, shard)


T = TypeVar("T")


class _Done(Generic[T]):
    """A task run at once: its value, or the exception it raised, as a future gives them."""

    __slots__ = ("_error", "_value")

    def __init__(self, task: Callable[..., T], *args: object) -> None:
        self._error: Exception | None = None
        try:
            self._value: T | None = task(*args)
        except Exception as exc:
            self._value, self._error = None, exc

    def result(self) -> T:
        if self._error is not None:
            raise self._error
        return cast(T, self._value)


class _InlineRunner:
    """Runs each task in this process as it is started."""

    def __init__(self, rules: Rules | None) -> None:
        self.rules = rules

    def count(self, shard: Shard) -> _Done[tuple[int, int]]:
        return _Done(shard_extent, shard)

    def check(self, task: Task) -> _Done[bytes]:
        return _Done(check_task_packed, task, self.rules)

    def starts(self, shard: Shard) -> _Done[list[tuple[int, int]]]:
        return _Done(record_starts, shard)


def _parallel(
    work: Iterable[Work], rules: Rules | None, jobs: int, progress: ReadProgress | None
) -> Iterator[RecordResult]:
    _warm_up()
    # What is loaded by now lives as long as the batch: garbage collection need not walk it
    # again and again, here or in the workers that inherit it (nor write to its pages there).
    # A caller's own freeze (``ginref``'s main has one) is left as it is, and so is its heap.
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        workers = Workers(jobs, functools.partial(set_worker, rules))
        try:
            yield from run_batch(work, _WorkerRunner(workers), in_flight=jobs * 3, ahead=jobs * 2,
                                 progress=progress)
        except BaseException:
            workers.stop()
            raise
        workers.close()
    finally:
        if freezing:
            gc.unfreeze()


def _warm_up() -> None:
    """Load the checking code and meld tables before the workers start.

    Where workers are forked (Linux), they inherit all of it instead of each
    importing and building it again.
    """
    from ginref import melds, referee  # noqa: F401

    melds.min_deadwood_after_discard((1 << 11) - 1)


def task_failure(exc: BaseException) -> str:
    """Why a task's records are unreadable, on one line."""
    return tidy_message(f"not checked: the task that read it failed: {type(exc).__name__}: "
                        + " ".join(str(exc).split()))


def _resolve(item: Pending, progress: ReadProgress | None) -> Iterator[RecordResult]:
    if isinstance(item, RecordResult):
        yield item
        return
    try:
        results = unpack_results(item.done.result())
    except Exception as exc:
        results = item.lost(task_failure(exc))
    if progress is not None:
        progress.read += item.size
    yield from results


def inputs_without_records(paths: Sequence[str], seen: Collection[str]) -> list[tuple[str, str]]:
    """Each file the paths name (folders walked) that gave no result, with why: so that every
    file a batch reads is in its report or in this list. ``seen`` are the results' sources."""
    files = input_files([path for path in paths if path != "-"])
    return [(item.source, _why_no_record(item.path)) for item in files
            if isinstance(item, InputFile) and item.source not in seen]


def _why_no_record(path: str) -> str:
    try:
        size = os.stat(path).st_size
    except (OSError, ValueError):  # a URL, or gone since
        return "nothing in it reads as a record"
    return "it is empty" if size == 0 else "it has only blank lines, comments or an empty list"
