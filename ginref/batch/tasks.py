"""The tasks of a batch: what a worker process, this process or a Dask worker runs.

Each takes a shard (a byte range of whole records) or a chunk of raw records and gives back
its results, data only (the process that reports the batch renders them); none raises for
any input (a file that fails to read ends its shard with that error). A batch's runner
starts the packed twins (:func:`packed_shard`, :func:`packed_chunk`): the same results as a
few hundred bytes each (:func:`~ginref.batch.results.pack_results`), which the process that
reports them reads without decoding a verdict it does not show.
"""

from __future__ import annotations

import gc

from ginref.batch.results import RecordResult, check_decoded, from_file_error, pack_results, unreadable
from ginref.batch.shards import Shard, count_shard, read_shard, read_shard_records
from ginref.errors import InputFileError
from ginref.records.io import RawRecord, decoded
from ginref.rules import Rules


def check_shard(shard: Shard, rules: Rules | None = None) -> list[RecordResult]:
    """A placed shard's records, read and checked; a file that fails to read ends it with that error."""
    out: list[RecordResult] = []
    try:
        out.extend(check_decoded(read_shard_records(shard), rules))
    except InputFileError as exc:
        out.append(from_file_error(exc))
    except OSError as exc:
        out.append(unreadable(shard.source, 0, 0, f"cannot read: {exc.strerror or exc}"))
    return out


def check_chunk(chunk: list[RawRecord], rules: Rules | None = None) -> list[RecordResult]:
    """Raw records the main process read (stdin), checked."""
    return list(check_decoded(decoded(chunk), rules))


def packed_shard(shard: Shard, rules: Rules | None = None) -> bytes:
    return pack_results(check_shard(shard, rules))


def packed_chunk(chunk: list[RawRecord], rules: Rules | None = None) -> bytes:
    return pack_results(check_chunk(chunk, rules))


def shard_extent(shard: Shard) -> tuple[int, int]:
    """:func:`~ginref.records.io.count_shard`, or none for a file that fails to read (its check says why)."""
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


def worker_check_chunk(chunk: list[RawRecord]) -> bytes:
    return packed_chunk(chunk, _RULES)


def worker_check_shard(shard: Shard) -> bytes:
    return packed_shard(shard, _RULES)
