"""Verify on a Dask cluster: the batch of ``verify --jobs``, its tasks run by ``dask.distributed``.

This process (the client) runs the one batch iterator, :func:`ginref.batch.run.verify`, with
``on=OnDask(client)``: it cuts the files into shards as local ``verify`` does
(:func:`ginref.batch.run.batch_work`; text files too, since here the workers count them) and
hands the shards to :func:`ginref.batch.run.run_batch`, which
counts each shard, places it at its first line and record index, starts its check and
gathers the results in input order, with a bounded number of shards in flight. The
tasks are the functions a local worker process runs (:func:`ginref.batch.tasks.check_task_packed`
and its siblings), so the output is the same, byte for byte. Workers read their shards
themselves, from local paths or fsspec URLs (``s3://...``; a worker must reach the same
path). Dask retries a task whose worker died; a shard that fails anyway is reported as
its records, each unreadable with the reason.

Nothing here imports dask until asked to: ``pip install 'ginref[dask]'``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Generator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ginref.batch.results import RecordResult
from ginref.batch.run import default_jobs, verify
from ginref.batch.tasks import check_task_packed, record_starts, shard_extent
from ginref.errors import ClusterError
from ginref.files import Paths

if TYPE_CHECKING:
    from collections.abc import Callable

    from distributed import Client, Future

    from ginref.batch.shards import Shard
    from ginref.batch.tasks import Task
    from ginref.rules import Rules

__all__ = ["CLUSTER_CHUNK", "CLUSTER_SHARD_BYTES", "LOCAL", "ClusterRun", "OnDask", "connect", "verify_at",
           "verify_on"]

CLUSTER_SHARD_BYTES = 16 << 20
"""Bytes a cluster task covers at least: about 4,000 records, a second or more of checking,
since a scheduler handles a few thousand tasks a second (smaller files are cut finer)."""
CLUSTER_CHUNK = 1024
"""Raw records of standard input sent to the cluster in one task."""
LOCAL = "local"
"""The scheduler address that starts a ``LocalCluster`` on this machine."""


class _DaskRunner:
    """The tasks of :func:`ginref.batch.run.run_batch`, submitted to a Dask client."""

    def __init__(self, client: Client, rules: Rules | None) -> None:
        self.client, self.rules = client, rules

    def count(self, shard: Shard) -> Future[tuple[int, int]]:
        # counts first: each places the next shard's check
        return self.client.submit(shard_extent, shard, pure=False, priority=1)

    def check(self, task: Task) -> Future[bytes]:
        return self.client.submit(check_task_packed, task, self.rules, pure=False)

    def starts(self, shard: Shard) -> Future[list[tuple[int, int]]]:
        return self.client.submit(record_starts, shard, pure=False, priority=1)


class OnDask:
    """The cluster of a Dask ``client``, where :func:`ginref.batch.verify` runs a batch given
    ``on=OnDask(client)``: tasks of about ``shard_bytes`` (stdin: ``chunk`` records), at most
    ``in_flight`` under way (None: twice the cluster's threads), so this process's memory stays
    flat."""

    def __init__(self, client: Client, *, shard_bytes: int = CLUSTER_SHARD_BYTES, chunk: int = CLUSTER_CHUNK,
                 in_flight: int | None = None) -> None:
        self.client, self.shard_bytes, self.chunk, self.in_flight = client, shard_bytes, chunk, in_flight

    def runner(self, rules: Rules | None) -> _DaskRunner:
        return _DaskRunner(self.client, rules)

    def threads(self) -> int:
        """The cluster's worker threads now (at least 1: workers may join later)."""
        nthreads: Callable[[], dict[str, int]] = self.client.nthreads  # untyped in distributed
        return max(1, sum(nthreads().values()))


def verify_on(
    client: Client, paths: Paths, rules: Rules | None = None, *, shard_bytes: int = CLUSTER_SHARD_BYTES,
    chunk: int = CLUSTER_CHUNK, in_flight: int | None = None, **reading: Any,
) -> Generator[RecordResult, None, None]:
    """Verify every record under ``paths`` on the cluster of ``client``: one result per record,
    in input order, the same as :func:`ginref.batch.verify` gives; ``verify(paths, rules,
    on=OnDask(client, ...))`` spelt short.

    ``paths`` are local paths, folders or fsspec URLs that the workers can read (``-``:
    ``stdin``, read here and sent in chunks of ``chunk`` records). Shards cover about
    ``shard_bytes``; at most ``in_flight`` are checked at once (default: twice the cluster's
    threads). ``reading`` is ``verify``'s: ``reading=`` a :class:`~ginref.records.io.Reading`,
    or its fields as keywords.
    """
    on = OnDask(client, shard_bytes=shard_bytes, chunk=chunk, in_flight=in_flight)
    return verify(paths, rules, on=on, **reading)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("running on a dask cluster needs dask: pip install 'ginref[dask]'") from None
    return distributed


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:160] or type(exc).__name__
    return text[:1].lower() + text[1:]


@contextlib.contextmanager
def connect(address: str, *, workers: int | None = None, timeout: float | None = None) -> Iterator[Client]:
    """A client of the Dask scheduler at ``address`` (``tcp://host:8786``), closed on leaving;
    :data:`LOCAL` starts a ``LocalCluster`` of ``workers`` processes (default: the cores) of
    one thread each, and stops it on leaving. ``timeout``: seconds to reach the scheduler
    (default: dask's ``distributed.comm.timeouts.connect``).

    Raises :class:`~ginref.errors.ClusterError` when dask is not installed or the
    scheduler cannot be reached.
    """
    distributed = _distributed()
    if address == LOCAL:
        local = distributed.LocalCluster(
            n_workers=workers or default_jobs(), threads_per_worker=1, processes=True, host="127.0.0.1",
            silence_logs=logging.ERROR, dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its HTTP server: any free port
        )
        with local, distributed.Client(local) as client:
            yield client
        return
    try:
        client = distributed.Client(address, timeout=timeout) if timeout else distributed.Client(address)
    except (OSError, ValueError, TypeError) as exc:  # refused, timed out, not an address
        raise ClusterError(f"cannot reach the dask scheduler at {address!r}: {_reason(exc)}") from None
    with client:
        yield client


class ClusterRun(Iterator[RecordResult]):
    """The results of :func:`verify_at`; closing it (or leaving ``with``) closes the client,
    and a local cluster with it."""

    def __init__(self, results: Generator[RecordResult, None, None], stack: contextlib.ExitStack) -> None:
        self._results, self._stack = results, stack

    def __next__(self) -> RecordResult:
        return next(self._results)

    def close(self) -> None:
        try:
            self._results.close()
        finally:
            self._stack.close()

    def __enter__(self) -> ClusterRun:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def verify_at(
    address: str, paths: Paths, rules: Rules | None = None, *, workers: int | None = None,
    timeout: float | None = None, **options: Any,
) -> ClusterRun:
    """:func:`verify_on` on the cluster at ``address`` (:func:`connect`), reached now, so
    that a scheduler that cannot be reached raises :class:`~ginref.errors.ClusterError`
    before any result; ``options`` are :func:`verify_on`'s."""
    stack = contextlib.ExitStack()
    client = stack.enter_context(connect(address, workers=workers, timeout=timeout))
    try:
        return ClusterRun(verify_on(client, paths, rules, **options), stack)
    except BaseException:
        stack.close()
        raise
