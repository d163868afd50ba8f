"""Shards cover a file exactly: every record once, in order, with the whole file's numbering.

A batch over many cores hands each worker a byte range (:func:`ginref.batch.shards.shards`);
what the workers read together must be what one reader of the whole file reads, whatever
the lines hold and wherever the cuts fall.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref.batch.shards import MIN_SHARD, Shard, StreamedFile, count_shard, read_shard, shards
from ginref.records import format_jsonl, format_text
from ginref.records.io import RawRecord, Reading, raw_records, read_file, record_format
from ginref.render.records import result_json_line
from tests.support.randomplay import random_hand

GOOD = [random_hand(seed) for seed in range(4)]
HOSTILE = [
    b"", b"   ", b"\r", b"\xef\xbb\xbf", b"\xef\xbb\xbf{}", b"\x00junk", b"caf\xe9", b"\xed\xa0\x80",
    b"[" * 300, b"# a comment", b"[Rules \"standard\"]", b"[Hand \"2\"]", b"Ann pass", b"\x1c",
    b"\xe3\x80\x80", b'{"rules": "standard"', b"[Event \"x\"]", b"x" * 200,
]
PIECES = [format_jsonl(r).encode() for r in GOOD] + [
    line.encode() for r in GOOD for line in format_text(r).splitlines()
] + HOSTILE


def seen(raw: RawRecord) -> tuple[object, ...]:
    """A raw record as a value (errors compare by identity)."""
    problem = raw.problem and (raw.problem.message, raw.problem.line, raw.problem.column)
    return raw.format, raw.source, raw.index, raw.line, raw.text, problem, raw.game


def whole(path: Path, form: str | None) -> list[RawRecord]:
    with path.open("rb") as handle:
        return list(raw_records(handle, str(path), form, named=record_format(str(path))))  # type: ignore[arg-type]


def sharded(path: Path, form: str | None, size: int, parts: int = 1) -> list[RawRecord]:
    """Cut, count and place the shards as a batch does, then read each alone (as ``read_paths``,
    the suffix gives the form unless one is forced)."""
    found: list[RawRecord] = []
    line = index = 0
    for shard in shards([str(path)], format=form, size=size, parts=parts):  # type: ignore[arg-type]
        if isinstance(shard, StreamedFile):  # one error (not the form given): read whole, as a batch does
            read = read_file(shard.file, Reading(format=form))  # type: ignore[arg-type]
            found.extend(raw for raw in read if isinstance(raw, RawRecord))
            continue
        assert isinstance(shard, Shard)
        if shard.line:
            line, index = shard.line, shard.index
        placed = msgspec.structs.replace(shard, line=line, index=index)
        found.extend(read_shard(placed))
        lines, records = count_shard(shard)
        line, index = line + lines, index + records
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.sampled_from(PIECES), max_size=40),
    ends=st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=40, max_size=40),
    last_end=st.booleans(),
    suffix=st.sampled_from([".jsonl", ".gin", ".json", ""]),
    size=st.sampled_from([1, 7, 64, 500, 4096, 1 << 20]),
    parts=st.sampled_from([1, 2, 8]),
)
def test_shards_read_what_one_reader_reads(
    pieces: list[bytes], ends: list[bytes], last_end: bool, suffix: str, size: int, parts: int
) -> None:
    data = b"".join(piece + end for piece, end in zip(pieces, ends, strict=False))
    if not last_end:
        data = data.removesuffix(b"\r\n").removesuffix(b"\n")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"records{suffix}"
        path.write_bytes(data)
        form = None if suffix in ("", ".json") else suffix.removeprefix(".")
        assert list(map(seen, sharded(path, form, size, parts))) == list(map(seen, whole(path, form)))


@pytest.mark.parametrize(("suffix", "parts"), [(".jsonl", 4), (".jsonl", 8), (".gin", 8), (".gin", 4)])
def test_a_files_last_shards_shrink_so_the_workers_finish_together(
    tmp_path: Path, suffix: str, parts: int
) -> None:
    """Before, every shard was ``size`` bytes and one worker could finish the last one alone
    (0.3 s on 16,000 records); now the tail is cut finer, at a bounded cost in shards."""
    records = [random_hand(300 + i) for i in range(40)]
    size = 8 * MIN_SHARD
    path = tmp_path / f"records{suffix}"
    if suffix == ".gin":
        text = "\n\n".join(map(format_text, records))
        path.write_text("\n\n".join([text] * (6 * size // len(text))))
    else:
        text = "".join(format_jsonl(r) + "\n" for r in records)
        path.write_text(text * (6 * size // len(text)))
    cuts = [s for s in shards([str(path)], size=size, parts=parts) if isinstance(s, Shard)]
    widths = [s.stop - s.start for s in cuts]
    longest = max(len(format_jsonl(r).encode()) for r in records) + 2
    first = widths[0]  # size, or less when that cuts the file into ``parts``
    assert widths[-2] < first and widths[-1] <= max(MIN_SHARD, first // 8) + longest
    assert len(cuts) <= path.stat().st_size // size + 2 * parts
    assert list(map(seen, sharded(path, None, size, parts))) == list(map(seen, whole(path, None)))


def test_verify_over_shards_reports_what_one_process_reports(tmp_path: Path) -> None:
    """Small shards, several files and stdin between them: the same results, in the same order."""
    import io
    import random

    from ginref.batch import verify

    rng = random.Random(5)
    jsonl = [format_jsonl(random_hand(100 + i)).encode() if rng.random() < 0.8 else rng.choice(HOSTILE)
             for i in range(60)]
    (tmp_path / "a.jsonl").write_bytes(b"\r\n".join(jsonl) + b"\n")
    (tmp_path / "b.gin").write_text("\n\n".join(format_text(random_hand(200 + i)) for i in range(12)))
    (tmp_path / "c.gin").write_bytes(b"\xff\n" + b"\n".join(HOSTILE))
    stdin = b"\n".join(jsonl[:20])
    paths = [str(tmp_path / "a.jsonl"), "-", str(tmp_path), str(tmp_path / "missing.jsonl")]

    def results(jobs: int) -> list[tuple[object, ...]]:
        return [(r.source, r.index, r.line, r.status, r.codes, result_json_line(r), r.rows)
                for r in verify(paths, jobs=jobs, stdin=io.BytesIO(stdin), chunk=7, shard_bytes=700)]

    serial = results(1)
    assert len(serial) > 100 and {"clean", "unreadable"} <= {r[3] for r in serial}
    assert results(2) == serial


_HEAD = '[Rules "standard"]\n[Players "Ann" "Bo"]\n'
_HAND = '[Dealer "Ann"]\nAnn pass\nBo draw 7C discard 7C\n'
CUTS = {
    "records back to back": _HEAD + _HAND + _HEAD + _HAND + _HEAD + _HAND,
    "comments and blank runs between records": (
        "# a log\n\n\n" + _HEAD + _HAND + "\n\n  \n# [Rules \"x\"] in a comment\n\n" + _HEAD + "\n"
        + _HAND + "   # after a turn\n\n\n"
    ),
    "a game tag in a hand's comment, and one in the hands": (
        _HEAD + _HAND + "# [Event \"no\"]\n" + _HAND + '[Event "yes"]\n' + _HEAD + _HAND
    ),
    "CRLF line ends": (_HEAD + _HAND + "\n" + _HEAD + _HAND).replace("\n", "\r\n"),
    "no line end after the last line": _HEAD + _HAND + _HEAD + _HAND.rstrip("\n"),
    "one record longer than any shard": _HEAD + _HAND * 40 + _HEAD + _HAND,
    "hand tags only after the first record": _HEAD + _HAND + '[Hand "2"]\n' + _HAND + _HEAD + _HAND,
}
"""Text files where a cut falls in every kind of place: a batch cuts them at every byte offset."""


@pytest.mark.parametrize("name", CUTS)
def test_a_text_file_cut_at_any_byte_reads_as_one_reader_reads_it(name: str, tmp_path: Path) -> None:
    """A cut moves on to the first record start at or after the line it falls in; the records
    the workers read then are those of the whole file, with their lines and indexes."""
    path = tmp_path / "records.gin"
    path.write_bytes(CUTS[name].encode())
    expected = list(map(seen, whole(path, None)))
    assert len(expected) >= 2
    for size in range(1, path.stat().st_size + 1):
        assert list(map(seen, sharded(path, None, size))) == expected, f"cut every {size} bytes"


JSONL_CUTS = {
    "blank and white space lines": b'{"a": 1}\n\n  \n\xe3\x80\x80\n{"b": 2}\n\x1c\n{"c": 3}\n',
    "CRLF and no end on the last line": b'{"a": 1}\r\n\r\n{"b": 2}\r\n{"c": 3}',
    "lines that are not text": b'{"a": 1}\n\xff\xfe\n\x00\n{"b": 2}\n\xef\xbb\xbf{"c": 3}\n',
}
"""JSON Lines files whose records a shard's count finds in runs of lines, not one by one."""


@pytest.mark.parametrize("name", JSONL_CUTS)
def test_a_json_lines_file_cut_at_any_byte_counts_as_it_reads(name: str, tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(JSONL_CUTS[name])
    expected = list(map(seen, whole(path, None)))
    for size in range(1, path.stat().st_size + 1):
        assert list(map(seen, sharded(path, None, size))) == expected, f"cut every {size} bytes"


OBJECT_LINES = [format_jsonl(r).encode() for r in GOOD[:2]] + [
    b"{", b"{}", b"{\xff}", b"{\x00}", b"{" + b"x" * 70_000,
    b"", b" ", b"\xe3\x80\x80", b"\xef\xbb\xbf{}", b"[1]",
]
"""Lines of JSON Lines, most opening an object (which a shard's count takes in bulk), a few
not: the count then reads them one by one."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.sampled_from(OBJECT_LINES[:5]) | st.sampled_from(OBJECT_LINES), max_size=30),
    ends=st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=30, max_size=30),
    last_end=st.booleans(),
    size=st.sampled_from([1, 7, 64, 500, 1 << 16, 1 << 20]),
)
def test_a_json_lines_shard_counted_in_bulk_counts_as_read_line_by_line(
    pieces: list[bytes], ends: list[bytes], last_end: bool, size: int
) -> None:
    data = b"".join(piece + end for piece, end in zip(pieces, ends, strict=False))
    if not last_end:
        data = data.removesuffix(b"\r\n").removesuffix(b"\n")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.jsonl"
        path.write_bytes(data)
        assert list(map(seen, sharded(path, "jsonl", size))) == list(map(seen, whole(path, "jsonl")))
        for shard in shards([str(path)], size=size):
            assert isinstance(shard, Shard)
            # history lines are counted line by line, as JSON Lines are when not in bulk
            assert count_shard(shard) == count_shard(msgspec.structs.replace(shard, format="openspiel"))
