"""The tasks of a batch: what a worker process, this process or a Dask worker runs.

A task is one of two kinds of work (:data:`Task`): a :class:`~ginref.batch.shards.Shard`, a
byte range of whole records that the task reads itself, or a :class:`Chunk`, raw records the
main process read (standard input, a pipe, a compressed file) for the task to decode.
:func:`check_task` checks a task's records and gives their results, data only (the process
that reports the batch renders them); :func:`check_task_packed` gives the same packed
(:func:`~ginref.batch.results.pack_results`), which is what a runner starts, and
:func:`check_task_in_worker` the same with the batch's rules, set once per worker. None
raises for any input: a file that fails to read ends its shard with that error.
"""

from __future__ import annotations

import gc

import msgspec

from ginref.batch.results import RecordResult, check_decoded, from_file_error, pack_results, unreadable
from ginref.batch.shards import Shard, count_shard, read_shard, read_shard_records
from ginref.errors import InputFileError
from ginref.records.io import RawRecord, decoded
from ginref.rules import Rules


class Chunk(msgspec.Struct, frozen=True):
    """Raw records the main process read, in input order, for a task to decode and check."""

    raws: list[RawRecord]

    @property
    def size(self) -> int:
        """Its bytes, near enough (for the progress line)."""
        return sum(len(raw.text) + 1 for raw in self.raws)


Task = Shard | Chunk
"""What one check of a batch covers: a shard it reads, or a chunk read for it."""


def check_task(task: Task, rules: Rules | None = None) -> list[RecordResult]:
    """The results of a task's records: a placed shard read, or a chunk decoded, and checked."""
    if isinstance(task, Chunk):
        return list(check_decoded(decoded(task.raws), rules))
    out: list[RecordResult] = []
    try:
        out.extend(check_decoded(read_shard_records(task), rules))
    except InputFileError as exc:
        out.append(from_file_error(exc))
    except OSError as exc:
        out.append(unreadable(task.source, 0, 0, f"cannot read: {exc.strerror or exc}"))
    return out


def check_task_packed(task: Task, rules: Rules | None = None) -> bytes:
    """:func:`check_task`'s results packed, as a runner hands them back."""
    return pack_results(check_task(task, rules))


def shard_extent(shard: Shard) -> tuple[int, int]:
    """:func:`~ginref.batch.shards.count_shard`, or none for a file that fails to read (its check
    says why)."""
    try:
        return count_shard(shard)
    except (InputFileError, OSError):
        return 0, 0


def record_starts(shard: Shard) -> list[tuple[int, int]]:
    """(index, line) of each record unit of a placed shard, read, not decoded: what a shard
    whose check failed is reported as."""
    return [(raw.index, raw.line) for raw in read_shard(shard)]


_RULES: Rules | None = None


def set_worker(rules: Rules | None) -> None:
    """Worker set-up: the batch's rules (signals are :mod:`ginref.batch.workers`' concern).
    What the worker inherited (modules, tables) is frozen out of garbage collection, which
    would otherwise walk all of it again each time the results of a shard pile up."""
    global _RULES
    _RULES = rules
    gc.freeze()


def check_task_in_worker(task: Task) -> bytes:
    """:func:`check_task_packed` with the rules :func:`set_worker` gave this worker."""
    return check_task_packed(task, _RULES)
