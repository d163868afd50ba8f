"""What a batch reports for each record (its verdict, or why it is unreadable) and the
counts over the batch. :func:`check_decoded` adjudicates decoded records and never raises,
so that every record given is reported exactly once.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal

import msgspec

from ginref.errors import InputFileError, RecordError
from ginref.records.decoding import Decoded
from ginref.records.model import GameRecord
from ginref.referee import Verdict, adjudicate
from ginref.referee.findings import Finding, FindingRow, finding_rows
from ginref.rules import Rules

Status = Literal["clean", "findings", "unreadable"]


class _Findings(msgspec.Struct, frozen=True, gc=False):
    """The part of a packed verdict that its rows show: decoding only it skips the hands."""

    findings: tuple[Finding, ...]


Adding = Callable[[GameRecord, Rules | None], tuple[Verdict, Any]]
"""What a consumer of a batch adds to each readable record's result, in this process, where
the record is at hand: it rules on the record itself (so that it may keep what the replay
saw) and gives the verdict with its addition, kept as :attr:`RecordResult.added`; the
audit's knocks weighed (``--advise``), the standings' deals (``--duplicate``)."""


class RecordResult(msgspec.Struct, frozen=True, dict=True, array_like=True):
    """What a batch found for one record: its verdict, or why it could not be read.

    Data only: :mod:`ginref.render.records` words it (finding lines, CSV, the JSON line of
    ``--jsonl``), in the process that reports the batch; ``to_dict`` is its JSON form.
    The verdict is kept packed (``ruling``, msgpack), whichever process checked the record,
    and ``verdict`` decodes it on first use: a batch whose workers hand back their results
    costs the process that reports them only the verdicts it uses (a result checked in this
    process gives back the verdict it was just packed from, undecoded). What a consumer of the
    batch adds to a result (:data:`Adding`) is its one field ``added``.
    """

    source: str
    index: int
    line: int
    status: Status
    codes: tuple[str, ...] = ()
    """finding codes, errors and advisories, in the order found"""
    error_codes: tuple[str, ...] = ()
    ruling: bytes | None = None
    """the verdict, packed; None: the record is unreadable, and ``error`` says why"""
    error: str = ""
    column: int = 0
    """where the unreadable record went wrong, when known"""
    added: Any = None
    """what the batch's consumer added to the result (:data:`Adding`), in this process; None
    for a plain batch and for an unreadable record: the undercut risks of the knocks
    (:class:`ginref.audit.WeighedKnocks`), how the record was dealt (:class:`ginref.ranking.Dealt`).
    Never in the result's JSON."""

    @functools.cached_property
    def verdict(self) -> Verdict | None:
        """The verdict (None: unreadable), decoded on first use."""
        return None if self.ruling is None else _LAST_PACKED.unpack(self.ruling)

    @property
    def rows(self) -> tuple[FindingRow, ...]:
        """Its findings, or the reason it is unreadable, as rows."""
        if self.ruling is None:
            return (FindingRow(self.line, self.column, "", "error", "unreadable", self.error),)
        return finding_rows(_FINDINGS.decode(self.ruling))  # only its findings: the hands stay packed

    def to_dict(self) -> dict[str, object]:
        document: dict[str, object] = {"source": self.source, "index": self.index, "line": self.line}
        verdict = self.verdict
        if verdict is None:
            if self.column:
                document["column"] = self.column
            document.update(status="unreadable", error=self.error)
        else:
            document["status"] = self.status
            document.update(verdict.to_dict())
        return document


_ENCODE = msgspec.msgpack.Encoder().encode
_VERDICT = msgspec.msgpack.Decoder(Verdict)


class _LastPacked:
    """The verdict this process packed last, kept beside its bytes, so that a result checked
    here gives its verdict back without decoding it: the batch's consumer reads each result
    as it comes, the one just packed. One entry, and keyed by the bytes object itself (not
    its value): any result whose ``ruling`` *is* those bytes was packed from that verdict."""

    __slots__ = ("packed", "verdict")

    def __init__(self) -> None:
        self.packed: bytes | None = None
        self.verdict: Verdict | None = None

    def pack(self, verdict: Verdict) -> bytes:
        self.packed, self.verdict = _ENCODE(verdict), verdict
        return self.packed

    def unpack(self, packed: bytes) -> Verdict:
        verdict = self.verdict
        if packed is self.packed and verdict is not None:
            return verdict
        return _VERDICT.decode(packed)


_LAST_PACKED = _LastPacked()
_FINDINGS = msgspec.msgpack.Decoder(_Findings)
_RESULTS = msgspec.msgpack.Decoder(list[RecordResult])


def pack_results(results: list[RecordResult]) -> bytes:
    """Results as a worker hands them back over its pipe: msgpack, a few hundred bytes each,
    which :func:`unpack_results` reads without decoding a verdict."""
    return _ENCODE(results)


def unpack_results(packed: bytes) -> list[RecordResult]:
    return _RESULTS.decode(packed)


class BatchSummary(msgspec.Struct):
    """Counts over a batch; ``exit_code`` follows the documented convention."""

    records: int = 0
    clean: int = 0
    with_findings: int = 0
    unreadable: int = 0
    advisories: int = 0
    by_code: Counter[str] = msgspec.field(default_factory=Counter)
    sources: set[str] = msgspec.field(default_factory=set)
    """the sources results came from: one per file, however many records"""

    def add(self, result: RecordResult) -> None:
        self.records += 1
        self.sources.add(result.source)
        if result.status == "clean":
            self.clean += 1
        elif result.status == "findings":
            self.with_findings += 1
        else:
            self.unreadable += 1
        if len(result.codes) > len(result.error_codes):
            self.advisories += 1
        if result.codes:
            self.by_code.update(result.codes)

    @property
    def exit_code(self) -> int:
        """The run's exit code: 0 all clean, 1 any record with findings (wins), 3 any unreadable record."""
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


def unreadable(source: str, index: int, line: int, message: str, column: int = 0) -> RecordResult:
    return RecordResult(source, index, line, "unreadable", error=message, column=column)


def from_record_error(error: RecordError, index: int) -> RecordResult:
    return unreadable(error.source, index, error.line, error.message, error.column)


def from_file_error(error: InputFileError) -> RecordResult:
    return unreadable(error.path, 0, 0, error.message.removeprefix(f"{error.path}: "))


# -- checking one record ------------------------------------------------------------------


def check_record(
    record: GameRecord, line: int, rules: Rules | None = None, adding: Adding | None = None
) -> RecordResult:
    """Adjudicate one decoded record that starts on ``line``; with ``adding``, ruled by it and
    its addition kept (a consumer's failure is a bug: the record is then ruled plainly)."""
    added = None
    if adding is None:
        verdict = adjudicate(record, rules)
    else:
        verdict, added = _ruled_adding(record, rules, adding)
    findings = verdict.findings
    codes = verdict.codes if findings else ()
    errors = tuple([f.code for f in findings if f.severity == "error"]) if findings else ()
    status: Status = "findings" if errors else "clean"
    packed = _LAST_PACKED.pack(verdict)
    return RecordResult(record.source, record.index, line, status, codes, errors, packed, added=added)


def _ruled_adding(record: GameRecord, rules: Rules | None, adding: Adding) -> tuple[Verdict, Any]:
    try:
        return adding(record, rules)
    except Exception:  # a bug of the consumer's: the batch's own check rules on the record
        return adjudicate(record, rules), None


def check_decoded(
    items: Iterable[Decoded], rules: Rules | None = None, adding: Adding | None = None
) -> Iterator[RecordResult]:
    """Adjudicate decoded records in order (with ``adding``, see :func:`check_record`); never
    raises for any input."""
    return (checked(item, rules, adding) for item in items)


def checked(item: Decoded, rules: Rules | None = None, adding: Adding | None = None) -> RecordResult:
    """One decoded record's result. A failure that is a bug of ginref's (it should not exist)
    is still reported, as an unreadable record naming it, so that no record of the batch goes
    missing."""
    record = item.record
    if isinstance(record, RecordError):
        return from_record_error(record, item.index)
    try:
        return check_record(record, item.line, rules, adding)
    except Exception as exc:
        return unreadable(record.source, item.index, item.line,
                          f"internal error, please report it: {type(exc).__name__}: {exc}"[:300])
