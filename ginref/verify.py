"""Batch verification: many records, checked in parallel, reported in input order.

The main process only splits the input into raw record units (a JSON Lines
line, a JSON file, one text record); worker processes decode, adjudicate and
serialise them, so the work scales with ``jobs``. At most a few chunks are in
flight at once, so memory stays flat however large the input. An unreadable
record becomes a result of its own: nothing stops the batch, nothing is lost.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal

from ginref.errors import RecordError
from ginref.rules import Rules

if TYPE_CHECKING:
    from ginref.adjudicate import Verdict
    from ginref.record import GameRecord

Kind = Literal["gin", "json", "jsonl"]
Status = Literal["clean", "findings", "unreadable"]
RECORD_SUFFIXES = {".gin": "gin", ".json": "json", ".jsonl": "jsonl"}
CHUNK = 128
"""records a worker takes at a time: big enough to amortise the hand-off"""


@dataclass(frozen=True, slots=True)
class Unit:
    """One raw record: where it came from and its undecoded text."""

    kind: Kind
    source: str
    index: int
    line: int
    text: str


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
    lines: tuple[str, ...] = ()
    """findings (or the reason it is unreadable) as lines for people"""


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


# -- finding the records ----------------------------------------------------------------


def record_files(paths: Sequence[str]) -> Iterator[tuple[str, Kind | None]]:
    """Each input file with its format; folders are walked for .gin/.json/.jsonl, sorted."""
    for path_text in paths:
        if path_text == "-":
            yield "-", None
            continue
        path = Path(path_text)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                kind = RECORD_SUFFIXES.get(child.suffix.lower())
                if kind is not None:
                    yield str(child), kind  # type: ignore[misc]
        else:
            yield str(path), RECORD_SUFFIXES.get(path.suffix.lower())  # type: ignore[misc]


def units(paths: Sequence[str], stdin: IO[bytes] | None = None) -> Iterator[Unit | RecordResult]:
    """Every raw record of every input, streamed; a file that cannot be read is a result."""
    from ginref.record import split_text_records

    for source, kind in record_files(paths):
        try:
            handle: IO[bytes] = stdin if source == "-" and stdin is not None else open(source, "rb")  # noqa: SIM115
        except OSError as exc:
            yield _unreadable(source, 0, 0, f"cannot open: {exc.strerror or exc}")
            continue
        try:
            lines = _decoded_lines(handle)
            if kind is None:
                kind, lines = _sniff(lines)
            if kind == "jsonl":
                index = 0
                for number, text, problem in lines:
                    if problem is None and not text.strip():
                        continue
                    if problem is not None:
                        yield _unreadable(source, index, number, problem)
                    else:
                        yield Unit("jsonl", source, index, number, text.rstrip("\r\n"))
                    index += 1
            elif kind == "json":
                numbered = list(lines)
                problem = next((p for _, _, p in numbered if p is not None), None)
                if problem is not None:
                    yield _unreadable(source, 0, 1, problem)
                else:
                    yield Unit("json", source, 0, 1, "".join(text for _, text, _ in numbered))
            else:
                for index, (number, text, problem) in enumerate(split_text_records(lines)):
                    if problem is not None:
                        yield _unreadable(source, index, number, problem)
                    else:
                        yield Unit("gin", source, index, number, text)
        except OSError as exc:
            yield _unreadable(source, 0, 0, f"cannot read: {exc.strerror or exc}")
        finally:
            if handle is not stdin:
                handle.close()


Line = tuple[int, str, "str | None"]


def _decoded_lines(handle: IO[bytes]) -> Iterator[Line]:
    """Lines as text, numbered from 1, each with the problem that makes it unreadable.

    A line that is not UTF-8 text (or holds NUL bytes) spoils only the record it
    belongs to; the reading goes on.
    """
    for number, raw in enumerate(handle, 1):
        if b"\x00" in raw:
            yield number, "", f"binary data (NUL byte) at line {number}"
            continue
        try:
            yield number, raw.decode("utf-8"), None
        except UnicodeDecodeError as exc:
            yield number, "", f"invalid UTF-8 at line {number}, byte {exc.start + 1}"


def _sniff(lines: Iterator[Line]) -> tuple[Kind, Iterator[Line]]:
    """Standard input: JSON Lines when the first non-blank character is ``{``, else text."""
    seen: list[Line] = []
    kind: Kind = "gin"
    for item in lines:
        seen.append(item)
        stripped = item[1].strip()
        if stripped:
            kind = "jsonl" if stripped.startswith("{") else "gin"
            break

    def replay() -> Iterator[Line]:
        yield from seen
        yield from lines

    return kind, replay()


def _unreadable(source: str, index: int, line: int, message: str, column: int = 0) -> RecordResult:
    document: dict[str, object] = {"source": source, "index": index, "line": line}
    if column:
        document["column"] = column
    document.update(status="unreadable", error=message)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    where = ":".join(str(part) for part in (source, line, column) if part)
    return RecordResult(source, index, line, "unreadable", (), (), text, (f"{where}: unreadable: {message}",))


# -- checking one record ------------------------------------------------------------------

_RULES: Rules | None = None
_WANT_JSON = True


def _set_worker(rules: Rules | None, want_json: bool) -> None:
    global _RULES, _WANT_JSON
    _RULES = rules
    _WANT_JSON = want_json


def decode_unit(unit: Unit) -> GameRecord | RecordResult:
    """The record a raw unit holds, or an unreadable result saying why."""
    from ginref.record import from_json_dict, read_record

    try:
        if unit.kind == "gin":
            return read_record(unit.text, source=unit.source, first_line=unit.line, index=unit.index)
        try:
            data = json.loads(unit.text)
        except json.JSONDecodeError as exc:
            line = unit.line + exc.lineno - 1
            return _unreadable(
                unit.source, unit.index, line, f"bad JSON at line {line}, column {exc.colno}: {exc.msg}"
            )
        return from_json_dict(data, source=unit.source, index=unit.index, line=unit.line)
    except RecordError as exc:
        return _unreadable(unit.source, unit.index, exc.line or unit.line, exc.message, exc.column)


def finding_lines(unit_source: str, unit_line: int, verdict: Verdict) -> tuple[str, ...]:
    """Findings as ``source:line:column: severity code: message`` lines, for people."""
    lines = []
    for finding in verdict.findings:
        place = finding.place
        if place.pointer:
            where = f"{unit_source}:{unit_line}: {place.pointer}"
        elif place.line:
            where = (
                f"{unit_source}:{place.line}:{place.column}"
                if place.column
                else f"{unit_source}:{place.line}"
            )
        else:
            where = f"{unit_source}:{unit_line}"
        lines.append(f"{where}: {finding.severity} {finding.code}: {finding.message}")
    return tuple(lines)


def check_unit(unit: Unit, rules: Rules | None = None, *, want_json: bool = True) -> RecordResult:
    """Decode and adjudicate one raw record; never raises for a bad record.

    Without ``want_json`` the per-record JSON is not rendered (text reports
    need only the status and the finding lines).
    """
    from ginref.adjudicate import adjudicate

    record = decode_unit(unit)
    if isinstance(record, RecordResult):
        return record
    verdict = adjudicate(record, rules)
    errors = tuple(f.code for f in verdict.findings if f.severity == "error")
    status: Status = "findings" if errors else "clean"
    text = ""
    if want_json:
        document: dict[str, object] = {
            "source": unit.source,
            "index": unit.index,
            "line": unit.line,
            "status": status,
        }
        document.update(verdict.to_dict())
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return RecordResult(
        unit.source,
        unit.index,
        unit.line,
        status,
        tuple(f.code for f in verdict.findings),
        errors,
        text,
        finding_lines(unit.source, unit.line, verdict) if verdict.findings else (),
    )


def _check_chunk(chunk: list[Unit]) -> list[RecordResult]:
    return [check_unit(unit, _RULES, want_json=_WANT_JSON) for unit in chunk]


# -- the batch ----------------------------------------------------------------------------


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
) -> Iterator[RecordResult]:
    """Verify every record under ``paths``, yielding results in input order.

    ``rules`` overrides each record's own rule set when given. With ``jobs``
    above 1, records are checked in that many worker processes.
    """
    stream = units(paths, stdin)
    jobs = jobs or default_jobs()
    if jobs <= 1:
        for item in stream:
            yield item if isinstance(item, RecordResult) else check_unit(item, rules, want_json=want_json)
        return
    yield from _parallel(stream, rules, jobs, chunk, want_json)


def _batches(stream: Iterable[Unit | RecordResult], size: int) -> Iterator[list[Unit] | RecordResult]:
    """Group units into chunks; a ready-made result (an unreadable file) passes through alone."""
    batch: list[Unit] = []
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
    stream: Iterable[Unit | RecordResult], rules: Rules | None, jobs: int, chunk: int, want_json: bool
) -> Iterator[RecordResult]:
    window = jobs * 3
    _warm_up()
    with ProcessPoolExecutor(max_workers=jobs, initializer=_set_worker, initargs=(rules, want_json)) as pool:
        pending: list[Future[list[RecordResult]] | RecordResult] = []
        submit: Callable[[list[Unit]], Future[list[RecordResult]]] = lambda batch: pool.submit(  # noqa: E731
            _check_chunk, batch
        )
        for item in _batches(stream, chunk):
            pending.append(item if isinstance(item, RecordResult) else submit(item))
            while len(pending) >= window:
                yield from _resolve(pending.pop(0))
        while pending:
            yield from _resolve(pending.pop(0))


def _warm_up() -> None:
    """Load the checking code and meld tables before the workers start.

    Where workers are forked (Linux), they inherit all of it instead of each
    importing and building it again.
    """
    from ginref import adjudicate, melds, record  # noqa: F401

    melds.min_deadwood_after_discard((1 << 11) - 1)


def _resolve(item: Future[list[RecordResult]] | RecordResult) -> Iterator[RecordResult]:
    if isinstance(item, RecordResult):
        yield item
    else:
        yield from item.result()


def adjudicate_units(
    paths: Sequence[str], rules: Rules | None = None, *, stdin: IO[bytes] | None = None
) -> Iterator[tuple[Unit, Verdict] | RecordResult]:
    """In-process adjudication that keeps each :class:`Verdict` (for ``ginref adjudicate``)."""
    from ginref.adjudicate import adjudicate

    for unit in units(paths, stdin):
        if isinstance(unit, RecordResult):
            yield unit
            continue
        record = decode_unit(unit)
        if isinstance(record, RecordResult):
            yield record
        else:
            yield unit, adjudicate(record, rules)
