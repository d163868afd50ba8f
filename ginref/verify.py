"""Batch verification: many records, checked in parallel, reported in input order.

The main process only cuts the input into raw records (:mod:`ginref.records.io`:
a JSON Lines line, a JSON document, one text record); worker processes decode,
adjudicate and serialise them, so the work scales with ``jobs``. At most a few
chunks are in flight at once, so memory stays flat however large the input. An
unreadable record becomes a result of its own: nothing stops the batch, nothing
is lost, and every record given is reported exactly once, in order.
"""

from __future__ import annotations

import collections
import json
import os
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Literal, NamedTuple

from ginref.errors import InputFileError, RecordError
from ginref.records.io import RawRecord, ReadProgress, SkippedFile, decode, read_paths
from ginref.records.model import GameRecord, InputForm
from ginref.rules import Rules

if TYPE_CHECKING:
    from ginref.referee import Verdict

Status = Literal["clean", "findings", "unreadable"]
CHUNK = 128
"""raw records a worker takes at a time: big enough to amortise the hand-off"""


class FindingRow(NamedTuple):
    """One finding of a record, or why it is unreadable (``code`` ``unreadable``): where it
    stands (a line and column, or a JSON pointer into the record) and what it says."""

    line: int
    column: int
    pointer: str
    severity: str
    code: str
    message: str


def finding_rows(verdict: Verdict) -> tuple[FindingRow, ...]:
    return tuple(
        FindingRow(f.place.line, f.place.column, f.place.pointer, f.severity, f.code, f.message)
        for f in verdict.findings
    )


@dataclass(frozen=True, slots=True)
class RecordResult:
    """The outcome for one record, with its JSON form already rendered."""

    source: str
    index: int
    line: int
    status: Status
    codes: tuple[str, ...]
    """finding codes, errors and advisories, in the order found"""
    error_codes: tuple[str, ...]
    json: str
    """the record's result as one line of JSON"""
    rows: tuple[FindingRow, ...] = ()
    """its findings (or the reason it is unreadable) as data: :mod:`ginref.render` words them"""


@dataclass
class Summary:
    """Counts over a batch; ``exit_code`` follows the documented convention."""

    records: int = 0
    clean: int = 0
    with_findings: int = 0
    unreadable: int = 0
    advisories: int = 0
    by_code: Counter[str] = field(default_factory=Counter)

    def add(self, result: RecordResult) -> None:
        self.records += 1
        if result.status == "clean":
            self.clean += 1
        elif result.status == "findings":
            self.with_findings += 1
        else:
            self.unreadable += 1
        if len(result.codes) > len(result.error_codes):
            self.advisories += 1
        self.by_code.update(result.codes)

    @property
    def exit_code(self) -> int:
        """0 all clean, 1 any record with findings (wins), 3 any unreadable record."""
        if self.with_findings:
            return 1
        if self.unreadable:
            return 3
        return 0

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records,
            "clean": self.clean,
            "with_findings": self.with_findings,
            "unreadable": self.unreadable,
            "with_advisories": self.advisories,
            "by_code": dict(sorted(self.by_code.items())),
        }


# -- unreadable records ---------------------------------------------------------------------


def _unreadable(source: str, index: int, line: int, message: str, column: int = 0) -> RecordResult:
    document: dict[str, object] = {"source": source, "index": index, "line": line}
    if column:
        document["column"] = column
    document.update(status="unreadable", error=message)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    row = FindingRow(line, column, "", "error", "unreadable", message)
    return RecordResult(source, index, line, "unreadable", (), (), text, (row,))


def _from_error(error: RecordError, index: int) -> RecordResult:
    return _unreadable(error.source, index, error.line, error.message, error.column)


# -- checking one record ------------------------------------------------------------------


def check_record(
    record: GameRecord, line: int, rules: Rules | None = None, *, want_json: bool = True
) -> RecordResult:
    """Adjudicate one decoded record; without ``want_json`` its JSON is not rendered
    (text reports need only the status and the finding lines)."""
    from ginref.referee import adjudicate

    verdict = adjudicate(record, rules)
    errors = tuple(f.code for f in verdict.findings if f.severity == "error")
    status: Status = "findings" if errors else "clean"
    text = ""
    if want_json:
        document: dict[str, object] = {
            "source": record.source, "index": record.index, "line": line, "status": status,
        }
        document.update(verdict.to_dict())
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    codes = tuple(f.code for f in verdict.findings)
    return RecordResult(record.source, record.index, line, status, codes, errors, text, finding_rows(verdict))


def check_raw(raw: RawRecord, rules: Rules | None = None, *, want_json: bool = True) -> list[RecordResult]:
    """Decode and adjudicate the records of one raw unit; never raises for any input.

    A failure that is a bug of ginref's (it should not exist) is still reported, as an
    unreadable record naming it, so that no record of the batch goes missing.
    """
    out: list[RecordResult] = []
    try:
        for offset, item in enumerate(decode(raw)):
            if isinstance(item, RecordError):
                out.append(_from_error(item, raw.index + offset))
            else:
                out.append(check_record(item, raw.line, rules, want_json=want_json))
    except Exception as exc:
        out.append(_unreadable(raw.source, raw.index + len(out), raw.line,
                               f"internal error, please report it: {type(exc).__name__}: {exc}"[:300]))
    return out


_RULES: Rules | None = None
_WANT_JSON = True


def _set_worker(rules: Rules | None, want_json: bool) -> None:
    """Worker set-up: the batch's options, and Ctrl-C left to the main process."""
    global _RULES, _WANT_JSON
    _RULES = rules
    _WANT_JSON = want_json
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_chunk(chunk: list[RawRecord]) -> list[RecordResult]:
    return [result for raw in chunk for result in check_raw(raw, _RULES, want_json=_WANT_JSON)]


# -- the batch ----------------------------------------------------------------------------


Item = RawRecord | SkippedFile | InputFileError


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def verify(
    paths: Sequence[str],
    rules: Rules | None = None,
    *,
    jobs: int | None = None,
    stdin: IO[bytes] | None = None,
    chunk: int = CHUNK,
    want_json: bool = True,
    on_skip: Callable[[str], None] | None = None,
    format: InputForm | None = None,
    game: str = "",
    progress: ReadProgress | None = None,
) -> Iterator[RecordResult]:
    """Verify every record under ``paths``, yielding one result per record in input order.

    ``rules`` overrides each record's own rule set when given. With ``jobs`` above 1,
    records are checked in that many worker processes. A file in a folder that is not a
    record file is passed to ``on_skip``; a path that cannot be read is an unreadable result.
    ``format`` forces the input form and ``game`` gives OpenSpiel histories their parameters
    (:func:`ginref.records.read_paths`), which keeps ``progress`` at the bytes it has read.
    """
    stream = _raws(read_paths(paths, stdin, format=format, game=game, progress=progress), on_skip)
    jobs = jobs or default_jobs()
    if jobs <= 1:
        for item in stream:
            if isinstance(item, RecordResult):
                yield item
            else:
                yield from check_raw(item, rules, want_json=want_json)
        return
    yield from _parallel(stream, rules, jobs, chunk, want_json)


def _raws(items: Iterable[Item], on_skip: Callable[[str], None] | None) -> Iterator[RawRecord | RecordResult]:
    for item in items:
        if isinstance(item, SkippedFile):
            if on_skip is not None:
                on_skip(item.source)
        elif isinstance(item, InputFileError):
            yield _unreadable(item.path, 0, 0, item.message.removeprefix(f"{item.path}: "))
        else:
            yield item


def _batches(
    stream: Iterable[RawRecord | RecordResult], size: int
) -> Iterator[list[RawRecord] | RecordResult]:
    """Group raw records into chunks; a ready-made result (an unreadable file) passes alone."""
    batch: list[RawRecord] = []
    for item in stream:
        if isinstance(item, RecordResult):
            if batch:
                yield batch
                batch = []
            yield item
            continue
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _parallel(
    stream: Iterable[RawRecord | RecordResult], rules: Rules | None, jobs: int, chunk: int, want_json: bool
) -> Iterator[RecordResult]:
    window = jobs * 3
    _warm_up()
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_set_worker, initargs=(rules, want_json))
    pending: collections.deque[Future[list[RecordResult]] | RecordResult] = collections.deque()
    try:
        for item in _batches(stream, chunk):
            pending.append(item if isinstance(item, RecordResult) else pool.submit(_check_chunk, item))
            while len(pending) >= window:
                yield from _resolve(pending.popleft())
        while pending:
            yield from _resolve(pending.popleft())
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the workers now (Ctrl-C, a closed pipe, the caller stopped early): none is left behind."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


def _warm_up() -> None:
    """Load the checking code and meld tables before the workers start.

    Where workers are forked (Linux), they inherit all of it instead of each
    importing and building it again.
    """
    from ginref import melds, referee  # noqa: F401

    melds.min_deadwood_after_discard((1 << 11) - 1)


def _resolve(item: Future[list[RecordResult]] | RecordResult) -> Iterator[RecordResult]:
    if isinstance(item, RecordResult):
        yield item
    else:
        yield from item.result()


def adjudicate_records(
    paths: Sequence[str], rules: Rules | None = None, *, stdin: IO[bytes] | None = None,
    format: InputForm | None = None, game: str = "",
) -> Iterator[tuple[GameRecord, int, Verdict] | RecordResult]:
    """In-process adjudication that keeps each :class:`Verdict` (for ``ginref adjudicate``):
    each record with its line, or the unreadable result in its place."""
    from ginref.referee import adjudicate

    for item in _raws(read_paths(paths, stdin, format=format, game=game), None):
        if isinstance(item, RecordResult):
            yield item
            continue
        for offset, record in enumerate(decode(item)):
            if isinstance(record, RecordError):
                yield _from_error(record, item.index + offset)
            else:
                yield record, item.line, adjudicate(record, rules)
