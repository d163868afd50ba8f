"""``verify`` on a Dask cluster prints what local ``verify`` prints, and loses no record.

One real ``LocalCluster`` (two worker processes of one thread, loopback only) serves the
module; a threaded one in this process serves what must share its memory (``memory://``
files, a check made to fail). The batch: the samples, and a few thousand generated
records with corruptions and hostile lines mixed in, as JSON Lines and as text.
"""

from __future__ import annotations

import collections
import contextlib
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginref.batch import RecordResult, verify
from ginref.cli import cli
from ginref.files import is_url
from ginref.records import format_jsonl, format_text
from ginref.records.model import GameRecord
from ginref.render.records import result_json_line
from tests.support.randomplay import corrupt, random_hand

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "records"
HOSTILE = ["[" * 1000, '{"a":' * 3000, "\x00\x01junk", "not json at all", '{"rules": "standard"',
           '{"rules": "standard", "players": ["Ann", "Bo"], "hands": ' + "9" * 5000 + "}"]
RECORDS = 1600
BASES = 100
"""distinct generated hands (generating is slow); the batch repeats them, corrupted or not"""


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _mixed(rng: random.Random, bases: list[GameRecord]) -> Iterator[GameRecord | str]:
    """Generated records: most clean, one in six broken in a way a referee finds, one in
    twenty a line that is no record at all."""
    for _ in range(RECORDS):
        roll = rng.random()
        if roll < 0.05:
            yield rng.choice(HOSTILE)
            continue
        record = rng.choice(bases)
        if roll < 0.2:
            with contextlib.suppress(ValueError):  # none applies to this record: it stays clean
                record = corrupt(record, rng)[0]
        yield record


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The samples, JSON Lines and text; then a smaller part of each (for the library's tests)."""
    folder = tmp_path_factory.mktemp("batch")
    rng = random.Random(11)
    bases = [random_hand(11_000 + i) for i in range(BASES)]
    items = list(_mixed(rng, bases))
    lines = [item if isinstance(item, str) else format_jsonl(item) for item in items]
    texts = [format_text(item) for item in items[:300] if not isinstance(item, str)]
    (folder / "mixed.jsonl").write_bytes(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))
    (folder / "mixed.gin").write_text("\n".join(texts), encoding="utf-8")
    part = tmp_path_factory.mktemp("part")
    (part / "part.jsonl").write_bytes(("\n".join(lines[:400]) + "\n").encode("utf-8", "surrogatepass"))
    (part / "part.gin").write_text("\n".join(texts[:100]), encoding="utf-8")
    return [str(SAMPLES), str(folder / "mixed.jsonl"), str(folder / "mixed.gin"),
            str(part / "part.jsonl"), str(part / "part.gin")]


@pytest.fixture(scope="module")
def part(batch: list[str]) -> list[str]:
    return batch[3:]


@pytest.fixture(scope="module")
def distributed() -> Any:
    return pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(distributed: Any) -> Iterator[Any]:
    """``ginref.batch.cluster.connect("local")``: the local cluster of ``--scheduler local``."""
    from ginref.batch.cluster import connect

    with connect("local", workers=2) as connected:
        yield connected


@pytest.fixture
def client(cluster: Any) -> Any:
    cluster.wait_for_workers(2)  # a test before may have killed one
    return cluster


@pytest.fixture(scope="module")
def address(cluster: Any) -> str:
    return str(cluster.scheduler.address)


@pytest.fixture(scope="module")
def threads(distributed: Any) -> Iterator[Any]:
    """A cluster of threads in this process: it sees this process's memory:// files and patches."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None, silence_logs=40) as local, \
            distributed.Client(local) as connected:
        yield connected


_LOCAL: dict[tuple[str, ...], list[RecordResult]] = {}


def local_results(paths: list[str]) -> list[RecordResult]:
    """What local ``verify`` gives (computed once per paths: the results are values)."""
    if tuple(paths) not in _LOCAL:
        _LOCAL[tuple(paths)] = list(verify(paths, jobs=1))
    return _LOCAL[tuple(paths)]


# -- the command line: the same bytes out -------------------------------------------------


@pytest.mark.parametrize("form", [(), ("--json",), ("--jsonl",), ("--csv",)],
                         ids=["text", "json", "jsonl", "csv"])
def test_the_cluster_prints_what_local_verify_prints(
    batch: list[str], address: str, form: tuple[str, ...]
) -> None:
    local = run("verify", *batch[:3], *form, "--jobs", "1")
    remote = run("verify", *batch[:3], *form, "--scheduler", address)
    assert remote == local
    assert local[0] == 1 and local[1]


def test_the_scheduler_address_can_come_from_the_environment(
    part: list[str], address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    assert run("verify", *part, "--jsonl") == run("verify", *part, "--jsonl", "--scheduler", "")


def test_standard_input_goes_to_the_cluster_in_chunks(batch: list[str], address: str) -> None:
    data = Path(batch[1]).read_bytes()
    local = run("verify", "-", "--jsonl", "--jobs", "1", input=data)
    assert run("verify", "-", "--jsonl", "--scheduler", address, input=data) == local


def test_scheduler_local_starts_a_cluster_of_jobs_workers(part: list[str], distributed: Any) -> None:
    assert run("verify", part[1], "--jsonl", "--scheduler", "local", "--jobs", "2") == \
        run("verify", part[1], "--jsonl", "--jobs", "1")


def test_a_scheduler_that_cannot_be_reached_is_one_line_and_exit_69(distributed: Any) -> None:
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, out, err = run("verify", str(SAMPLES), "--scheduler", "tcp://127.0.0.1:1")
    assert (code, out) == (69, "")
    assert err.startswith("Error: cannot reach the dask scheduler at 'tcp://127.0.0.1:1': ")
    assert err.count("\n") == 1


def test_without_dask_the_scheduler_option_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    code, out, err = run("verify", str(SAMPLES), "--scheduler", "local")
    assert (code, out) == (69, "")
    assert err == "Error: running on a dask cluster needs dask: pip install 'ginref[dask]'\n"


def test_plain_verify_and_import_ginref_load_no_dask() -> None:
    code = (
        "import sys, ginref; from ginref.cli.process import _run;"
        f" _run(['verify', {str(SAMPLES / 'gin.gin')!r}]);"
        " print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed', 'fsspec'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


# -- the library: small shards, dead workers, failed tasks ----------------------------------


def test_small_shards_give_the_same_results_in_order(part: list[str], client: Any) -> None:
    from ginref.batch.cluster import verify_on

    assert list(verify_on(client, part, shard_bytes=1 << 15, in_flight=3)) == local_results(part)


def test_one_path_given_as_a_string_is_one_path(part: list[str], client: Any) -> None:
    from ginref.batch.cluster import verify_on

    one = local_results(part[:1])
    assert list(verify_on(client, Path(part[0]))) == list(verify_on(client, part[0])) == one


def test_a_worker_killed_mid_run_loses_no_record(part: list[str], client: Any) -> None:
    from ginref.batch.cluster import verify_on

    results = verify_on(client, part, shard_bytes=1 << 15)
    first = [next(results)]
    pid = next(iter(client.run(os.getpid).values()))
    os.kill(pid, signal.SIGKILL)  # its nanny starts another; the scheduler reruns its tasks
    assert first + list(results) == local_results(part)


def test_a_restarted_cluster_reports_every_record_once_in_order(part: list[str], client: Any) -> None:
    from ginref.batch.cluster import verify_on

    results = verify_on(client, part, shard_bytes=1 << 15)
    seen = [next(results)]
    client.restart()  # every task under way is lost: its records say so
    seen += results
    expected = local_results(part)
    assert [(r.index, r.line) for r in seen] == [(r.index, r.line) for r in expected]
    assert all(r == e or r.rows[0].message.startswith("not checked: ")
               for r, e in zip(seen, expected, strict=True))


def test_memory_urls_read_as_local_files_do(part: list[str], threads: Any) -> None:
    import fsspec

    from ginref.batch.cluster import verify_on

    fs = fsspec.filesystem("memory")
    for path in part:
        fs.pipe(f"/batch/{Path(path).name}", Path(path).read_bytes())
    fs.pipe("/batch/notes.txt", b"not a record file")
    on_cluster = list(verify_on(threads, ["memory://batch"], shard_bytes=1 << 15))
    assert on_cluster == local_results(["memory://batch"])
    folder = str(Path(part[0]).parent)
    assert [result_json_line(r).replace("memory:///batch/", "") for r in on_cluster] == \
        [result_json_line(r).replace(folder + "/", "") for r in local_results([folder])]


def test_a_shard_whose_task_fails_reports_its_records_unreadable(
    part: list[str], threads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ginref.batch.tasks
    from ginref.batch.cluster import verify_on

    check_decoded = ginref.batch.tasks.check_decoded

    def failing(items: Any, *args: Any) -> Iterator[RecordResult]:
        for result in check_decoded(items, *args):
            if result.line == 200:
                raise RuntimeError("a bug\nover two lines")
            yield result

    monkeypatch.setattr(ginref.batch.tasks, "check_decoded", failing)
    seen = list(verify_on(threads, part, shard_bytes=1 << 15))
    monkeypatch.undo()
    expected = local_results(part)
    assert [(r.index, r.line) for r in seen] == [(r.index, r.line) for r in expected]
    lost = [r for r, e in zip(seen, expected, strict=True) if r != e]
    assert 200 in [r.line for r in lost] and len(lost) < len(seen) // 4
    reason = "not checked: the task that read it failed: RuntimeError: a bug over two lines"
    assert {r.rows[0].message for r in lost} == {reason}
    assert all(r.status == "unreadable" and '"status":"unreadable"' in result_json_line(r) for r in lost)


@pytest.mark.parametrize(
    ("path", "url"),
    [("s3://bucket/logs/", True), ("file:///data/a.jsonl", True), ("memory://x", True),
     ("gcs+v2://b/k", True), ("logs/a.jsonl", False), ("./a://b", False), ("C:\\logs", False), ("-", False)],
)
def test_what_counts_as_a_url(path: str, url: bool) -> None:
    assert is_url(path) is url


def test_a_url_of_an_unknown_protocol_is_one_unreadable_record(distributed: Any) -> None:
    code, out, _ = run("verify", "nope://x.jsonl", "--jsonl")
    assert code == 3
    assert out.splitlines() == ['{"source":"nope://x.jsonl","index":0,"line":0,"status":"unreadable",'
                                '"error":"cannot open: protocol not known: nope"}']


def test_the_dask_bag_recipe_in_the_docs_writes_what_verify_gives(
    part: list[str], client: Any, tmp_path: Path
) -> None:
    import re

    page = (ROOT / "docs" / "distributed.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    (recipe,) = [block for block in blocks if "dask.bag" in block]
    setting, code = recipe.split("\n", 1)
    assert setting.startswith("logs, out = ")
    namespace: dict[str, Any] = {"logs": str(Path(part[0]).parent), "out": str(tmp_path)}
    exec(code, namespace)
    parts = sorted(tmp_path.glob("part-*.jsonl"), key=lambda p: int(p.stem.removeprefix("part-")))
    written = [line for path in parts for line in path.read_text(encoding="utf-8").splitlines()]
    expected = local_results([str(Path(part[0]).parent)])
    assert written == [result_json_line(r) for r in expected]
    assert namespace["counts"] == dict(collections.Counter(r.status for r in expected))


# -- the runner, without dask: what a failed task becomes ---------------------------------


class _Ready:
    """A finished future: its value, or the exception it raises."""

    def __init__(self, task: Any, *args: Any) -> None:
        try:
            self.value, self.error = task(*args), None
        except Exception as exc:
            self.value, self.error = None, exc

    def result(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.value


class _Broken:
    """Runs every task here, and breaks the ones named for the shard starting at ``at``."""

    def __init__(self, at: int, broken: set[str]) -> None:
        self.at, self.broken = at, broken

    def _run(self, name: str, task: Any, shard: Any) -> _Ready:
        if name in self.broken and getattr(shard, "start", None) == self.at:
            return _Ready(_raise)
        return _Ready(task, shard)

    def count(self, shard: Any) -> _Ready:
        from ginref.batch.tasks import shard_extent

        return self._run("count", shard_extent, shard)

    def check(self, task: Any) -> _Ready:
        from ginref.batch.tasks import check_task_packed

        return self._run("check", check_task_packed, task)

    def starts(self, shard: Any) -> _Ready:
        from ginref.batch.tasks import record_starts

        return self._run("starts", record_starts, shard)


def _raise() -> None:
    raise ConnectionError("worker lost")


@pytest.mark.parametrize(
    ("broken", "lines_kept"),
    [({"count"}, True), ({"check"}, True), ({"check", "starts"}, False),
     ({"count", "check", "starts"}, False)],
    ids=["count", "check", "check+starts", "all"],
)
def test_a_failed_task_loses_no_record(part: list[str], broken: set[str], lines_kept: bool) -> None:
    from ginref.batch.run import batch_work, run_batch
    from ginref.batch.shards import Shard, shards

    cuts = [s for s in shards(part[:1], size=1 << 15) if isinstance(s, Shard)]
    at = cuts[3].start
    work = batch_work(part[:1], shard_bytes=1 << 15)
    seen = list(run_batch(work, _Broken(at, broken), in_flight=3, ahead=2))
    expected = local_results(part[:1])
    assert [r.index for r in seen] == [r.index for r in expected]
    lost = [(r, e) for r, e in zip(seen, expected, strict=True) if r != e]
    reason = "not checked: the task that read it failed: ConnectionError: worker lost"
    assert ("check" in broken) == bool(lost)
    assert all(r.status == "unreadable" and r.rows[0].message == reason for r, _ in lost)
    if lines_kept:  # read again for where each record starts
        assert all(r.line == e.line for r, e in lost)
    else:  # as many as counted, each at the shard's first line
        assert {r.line for r, _ in lost} == {lost[0][1].line}
