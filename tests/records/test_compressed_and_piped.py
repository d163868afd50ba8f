"""Compressed and piped logs: gzip, bzip2 and xz by content, FIFOs and ``<(zcat ...)`` as streams.

``ginref verify logs.jsonl.gz`` once said "invalid UTF-8 (byte 0x8b)", ``<(zcat ...)`` was
refused as a FIFO, and a folder of ``.gz`` files was skipped. Every record is still
reported once, in order, whatever the compression, the number of jobs or the way in.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import shutil
import subprocess
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from ginref.batch import verify
from ginref.errors import RecordError
from ginref.records import read_records
from tests.cli.test_processes import command, environment

ROOT = Path(__file__).resolve().parents[2]
ALL = ROOT / "samples" / "records" / "all.jsonl"
TOURNAMENT = sorted((ROOT / "samples" / "tournament").glob("*.gin"))
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress,
}
ENDINGS = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz"}


def outcomes(paths: list[str], jobs: int = 1, **options: object) -> list[tuple[str, int, int, str]]:
    """What a batch says of each record, its source named by file name only."""
    return [(Path(r.source).name.split(".")[0], r.index, r.line, r.status)
            for r in verify(paths, jobs=jobs, shard_bytes=4096, **options)]  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def plain() -> list[tuple[str, int, int, str]]:
    return outcomes([str(ALL)])


@pytest.mark.parametrize("kind", COMPRESSORS)
@pytest.mark.parametrize("name", ["all.jsonl{ending}", "all.jsonl", "all"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_compressed_file_is_read_by_its_content(
    tmp_path: Path, plain: list[tuple[str, int, int, str]], kind: str, name: str, jobs: int
) -> None:
    path = tmp_path / name.format(ending=ENDINGS[kind])
    path.write_bytes(COMPRESSORS[kind](ALL.read_bytes()))
    notes: list[str] = []
    assert outcomes([str(path)], jobs, on_note=notes.append) == plain
    assert notes == ([f"{path} is {kind}-compressed: read in one process, not shared out in shards"]
                     if jobs > 1 else [])


def test_a_folder_of_compressed_files_is_read_not_skipped(tmp_path: Path) -> None:
    for i, path in enumerate(TOURNAMENT):
        data = path.read_bytes()
        target = tmp_path / (path.name + ".gz" if i % 3 else path.stem + ".gz")  # game-01.gz: sniffed
        target.write_bytes(gzip.compress(data) if i % 2 else bz2.compress(data))
    (tmp_path / "notes.txt.gz").write_bytes(gzip.compress(b"not records\n"))
    skipped: list[str] = []
    compressed = outcomes([str(tmp_path)], on_skip=skipped.append)
    assert compressed == outcomes([str(p) for p in TOURNAMENT])
    assert skipped == [str(tmp_path / "notes.txt.gz")]


def test_compressed_standard_input_is_read(plain: list[tuple[str, int, int, str]]) -> None:
    stream = io.BufferedReader(io.BytesIO(gzip.compress(ALL.read_bytes())))  # type: ignore[arg-type]
    said = [(r.index, r.line, r.status) for r in verify(["-"], stdin=stream, jobs=1)]
    assert said == [(index, line, status) for _, index, line, status in plain]


def test_damaged_compressed_data_is_one_error_after_the_records_before_it(tmp_path: Path) -> None:
    data = gzip.compress(ALL.read_bytes() * 40)  # past the first block read
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) * 2 // 3])
    results = list(verify([str(path)], jobs=1))
    assert len(results) > 100 and all(r.verdict is not None for r in results[:-1])
    assert [r.index for r in results] == list(range(len(results)))
    last = results[-1]
    assert last.verdict is None and last.error.startswith("damaged gzip data: compressed file ended")
    assert last.line == results[-2].line + 1


def test_damaged_compressed_data_is_never_raised_by_read_records() -> None:
    data = lzma.compress(ALL.read_bytes() * 3)
    items = list(read_records(io.BytesIO(data[:-30])))
    assert all(not isinstance(i, RecordError) for i in items[:-1]) and isinstance(items[-1], RecordError)
    assert "damaged xz data" in str(items[-1])


def test_a_decompression_bomb_is_read_in_bounded_memory() -> None:
    """100 MB of one endless line inflated from 100 KB: read a block at a time, one line
    too long, never the whole held."""
    bomb = gzip.compress(b"x" * (100 << 20), compresslevel=9)
    assert len(bomb) < 200_000
    tracemalloc.start()
    try:
        items = list(read_records(io.BytesIO(bomb), source="bomb.gz"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(items) == 1 and isinstance(items[0], RecordError) and "longer than" in str(items[0])
    assert peak < 24 << 20, f"peak {peak / 1e6:.0f} MB"


# -- pipes: real processes -------------------------------------------------------------------------


def bash(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    ginref = " ".join(command())
    return subprocess.run(["bash", "-c", script.replace("ginref", ginref), "bash", *args],
                          capture_output=True, text=True, cwd=ROOT, env=environment(), timeout=120)


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    path = tmp_path / "logs.jsonl.gz"
    path.write_bytes(gzip.compress(ALL.read_bytes()))
    return path


@pytest.mark.skipif(shutil.which("zcat") is None, reason="needs zcat")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_process_substitution_is_read_as_a_stream(logs: Path, jobs: str) -> None:
    piped = bash('ginref verify --jsonl --jobs "$2" <(zcat "$1")', str(logs), jobs)
    direct = bash('ginref verify --jsonl --jobs "$2" "$1"', str(ALL), jobs)
    assert "Traceback" not in piped.stderr
    assert piped.returncode == direct.returncode, piped.stderr
    strip = [line.split('"source"')[0] for line in piped.stdout.splitlines()]
    assert strip == [line.split('"source"')[0] for line in direct.stdout.splitlines()]
    assert len(strip) == len(ALL.read_text().splitlines())
    notes = [line for line in piped.stderr.splitlines() if line.startswith("note:")]
    assert notes == ([] if jobs == "1" else [notes[0]])
    if jobs == "2":
        assert "is a pipe: read in one process" in notes[0]


def test_a_named_pipe_of_compressed_records_is_read(tmp_path: Path, logs: Path) -> None:
    fifo = tmp_path / "pipe"
    result = bash('mkfifo "$1"; cat "$2" > "$1" & ginref verify "$1" --jobs 2; status=$?; wait; exit $status',
                  str(fifo), str(logs))
    direct = bash('ginref verify "$1"', str(ALL))
    assert "Traceback" not in result.stderr and result.returncode == direct.returncode
    assert result.stdout.replace(str(fifo), "X") == direct.stdout.replace(str(ALL), "X")


def test_gzip_on_standard_input_through_a_real_pipe(logs: Path) -> None:
    piped = bash('ginref verify - --jobs 2 < "$1"', str(logs))
    direct = bash('ginref verify "$1"', str(ALL))
    assert piped.stdout.replace("<stdin>", "X") == direct.stdout.replace(str(ALL), "X")


def test_many_compressed_files_make_one_note(tmp_path: Path) -> None:
    """Issue 43: one note about compressed input, not one per file."""
    for i, path in enumerate(TOURNAMENT):
        data = path.read_bytes()
        (tmp_path / (path.name + (".gz" if i % 2 else ".bz2"))).write_bytes(
            gzip.compress(data) if i % 2 else bz2.compress(data))
    notes: list[str] = []
    assert outcomes([str(tmp_path)], 2, on_note=notes.append) == outcomes([str(p) for p in TOURNAMENT])
    assert notes == [f"{len(TOURNAMENT)} files are bzip2-compressed or gzip-compressed "
                     f"({tmp_path / (TOURNAMENT[0].name + '.bz2')} the first): each read in one process, "
                     "not shared out in shards"]
