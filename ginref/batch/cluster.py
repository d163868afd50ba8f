"""Verify on a Dask cluster: the batch of ``verify --jobs``, its tasks run by ``dask.distributed``.

This process (the client) cuts the files into shards with the sharding function of
local ``verify`` (:func:`ginref.batch.run.batch_work`; text files too, since here the
workers count them) and hands the shards to :func:`ginref.batch.run.run_batch`, which
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
from typing import IO, TYPE_CHECKING, Any

from ginref.batch.results import RecordResult
from ginref.batch.run import batch_work, default_jobs, run_batch
from ginref.batch.tasks import check_task_packed, record_starts, shard_extent
from ginref.errors import ClusterError
from ginref.files import Paths, path_list

if TYPE_CHECKING:
    from collections.abc import Callable

    from distributed import Client, Future

    from ginref.batch.shards import Shard
    from ginref.batch.tasks import Task
    from ginref.records.io import ReadProgress
    from ginref.records.model import InputForm
    from ginref.records.names import Naming
    from ginref.rules import Rules

__all__ = ["CLUSTER_CHUNK", "CLUSTER_SHARD_BYTES", "LOCAL", "ClusterRun", "connect", "verify_at", "verify_on"]

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


def _threads(client: Client) -> int:
    """The cluster's worker threads now (at least 1: workers may join later)."""
    nthreads: Callable[[], dict[str, int]] = client.nthreads  # untyped in distributed
    return max(1, sum(nthreads().values()))


def verify_on(
    client: Client,
    paths: Paths,
    rules: Rules | None = None,
    *,
    format: InputForm | None = None,
    game: str = "",
    stdin: IO[bytes] | None = None,
    on_skip: Callable[[str], None] | None = None,
    progress: ReadProgress | None = None,
    shard_bytes: int = CLUSTER_SHARD_BYTES,
    chunk: int = CLUSTER_CHUNK,
    in_flight: int | None = None,
    on_note: Callable[[str], None] | None = None,
    names: Naming | None = None,
) -> Generator[RecordResult, None, None]:
    """Verify every record under ``paths`` on the cluster of ``client``: one result per record,
    in input order, the same as :func:`ginref.batch.verify` gives.

    ``paths`` are local paths, folders or fsspec URLs that the workers can read (``-``:
    ``stdin``, read here and sent in chunks of ``chunk`` records). Shards cover about
    ``shard_bytes``; at most ``in_flight`` are checked at once (default: twice the cluster's
    threads), so this process's memory stays flat. The other options are those of ``verify``.
    """
    paths = path_list(paths)
    threads = _threads(client)
    window = in_flight or 2 * threads
    work = batch_work(paths, stdin=stdin, chunk=chunk, format=format, game=game, on_skip=on_skip,
                      shard_bytes=shard_bytes, parts=2 * threads, progress=progress, on_note=on_note,
                      names=names)
    yield from run_batch(work, _DaskRunner(client, rules), in_flight=window, ahead=window,
                         progress=progress)


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
