"""Reading text in runs is reading it line by line, faster.

``ginref.files.numbered_runs`` reads a byte stream a block at a time and hands on runs of
plain text lines whole; ``numbered_lines`` is the checked reader it stands in for. The text
record splitter takes either (``_TextSplitter.run`` beside ``.line``). These tests hold the
fast readers to the checked ones on hostile bytes, with blocks and line limits small enough
that every line end, long line and BOM falls on a block edge somewhere.
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref.files import Line, TextRun, numbered_lines, numbered_runs
from ginref.records import format_text
from ginref.records.text import CONTENT_LINE_RE, GAME_TAG_LINE_RE, is_blank_line, is_game_tag_line
from ginref.records.units import RawRecord, raw_records, text_units
from tests.support.randomplay import random_hand

TEXT = [line.encode() for seed in range(3) for line in format_text(random_hand(seed)).splitlines()]
ODD = [
    b"", b" ", b"\r", b"\r\r", b"\xef\xbb\xbf", b"\xef\xbb\xbf[Rules \"standard\"]", b"\x00", b"a\x00b",
    b"caf\xe9", b"\xed\xa0\x80", b"\xe2\x80\xa8", b"\xc2\xa0[Event \"x\"]", b"\x1c", b"# note", b"x" * 40,
    b"[Hand \"2\"]", b"\t[Event \"y\"]", "é".encode() * 9,
]


class LinesOnly:
    """A byte stream with nothing but ``readline``: ginref reads it line by line."""

    def __init__(self, data: bytes) -> None:
        self.readline = io.BytesIO(data).readline


class Trickle(io.BufferedIOBase):
    """A pipe that gives at most ``step`` bytes a read, as ``read1`` does."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.at, self.step = data, 0, step

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        size = self.step if size < 0 else min(size, self.step)
        piece = self.data[self.at : self.at + size]
        self.at += len(piece)
        return piece

    read = read1  # type: ignore[assignment]

    def readline(self, size: int | None = -1) -> bytes:
        end = self.data.find(b"\n", self.at) + 1 or len(self.data)
        if size is not None and size >= 0:
            end = min(end, self.at + size)
        line = self.data[self.at : end]
        self.at = end
        return line


def flat(items: list[TextRun | Line]) -> list[Line]:
    lines: list[Line] = []
    for item in items:
        if type(item) is TextRun:
            lines.extend((number, text, None) for number, text in enumerate(item.lines, item.first))
        else:
            lines.append(item)  # type: ignore[arg-type]
    return lines


def joined(pieces: list[bytes], ends: list[bytes], last_end: bool) -> bytes:
    data = b"".join(piece + end for piece, end in zip(pieces, ends, strict=False))
    return data if last_end else data.removesuffix(b"\n").removesuffix(b"\r")


def seen(raw: RawRecord) -> tuple[object, ...]:
    problem = raw.problem and (raw.problem.message, raw.problem.line, raw.problem.column)
    return raw.index, raw.line, raw.text, problem


pieces = st.lists(st.sampled_from(TEXT + ODD), max_size=30)
ends = st.lists(st.sampled_from([b"\n", b"\r\n", b"\n\n"]), min_size=30, max_size=30)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=pieces, ends=ends, last_end=st.booleans(), size=st.integers(1, 90),
       limit=st.sampled_from([1, 2, 5, 17, 41, 64, 1 << 22]), step=st.integers(1, 70),
       first=st.sampled_from([1, 2]))
def test_runs_are_the_lines(
    pieces: list[bytes], ends: list[bytes], last_end: bool, size: int, limit: int, step: int, first: int
) -> None:
    data = joined(pieces, ends, last_end)
    expected = list(numbered_lines(LinesOnly(data), limit, first=first))  # type: ignore[arg-type]
    assert flat(list(numbered_runs(io.BytesIO(data), limit, first=first, size=size))) == expected
    assert flat(list(numbered_runs(Trickle(data, step), limit, first=first, size=size))) == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=pieces, ends=ends, last_end=st.booleans(), size=st.integers(1, 400))
def test_records_cut_from_runs_are_those_cut_from_lines(
    pieces: list[bytes], ends: list[bytes], last_end: bool, size: int
) -> None:
    data = joined(pieces, ends, last_end)
    by_line = text_units(numbered_lines(LinesOnly(data), 64), "s", 3)  # type: ignore[arg-type]
    by_run = text_units(numbered_runs(io.BytesIO(data), 64, size=size), "s", 3)
    assert list(map(seen, by_run)) == list(map(seen, by_line))


MUTATIONS = [b"", b"\n", b"\r\n", b"\xff", b"\x00", b'[Event "z"]\n', b"#", b" ", b"\xef\xbb\xbf"]


@pytest.mark.parametrize("seed", range(40))
def test_a_file_of_mutated_records_reads_the_same_either_way(seed: int) -> None:
    """Seeded byte mutations of whole records, read as ginref reads a file and line by line."""
    rng = random.Random(seed)
    data = bytearray(b"\n\n".join(format_text(random_hand(seed * 7 + k)).encode() for k in range(6)))
    for _ in range(rng.randrange(1, 12)):
        at = rng.randrange(len(data))
        data[at : at + rng.randrange(3)] = rng.choice([*MUTATIONS, bytes([rng.randrange(256)])])
    expected = list(map(seen, raw_records(LinesOnly(bytes(data)), "s", "gin")))  # type: ignore[arg-type]
    assert list(map(seen, raw_records(io.BytesIO(bytes(data)), "s", "gin"))) == expected
    assert list(map(seen, raw_records(io.BytesIO(bytes(data)), "s"))) == expected or not data.strip()


def test_a_line_past_the_limit_is_skipped_without_holding_it() -> None:
    """A 40 MB line with no end is one unreadable line, read a block at a time and dropped."""
    limit = 1 << 16
    stream = Trickle(b"[Event \"a\"]\n" + b"x" * (40 << 20), 1 << 20)
    items = list(numbered_runs(stream, limit, size=1 << 12))
    assert flat(items) == [(1, '[Event "a"]', None), (2, "", (1, f"line longer than {limit} bytes"))]


SPLITS = [
    ("two records, a blank line between", '[Rules "a"]\nP0 pass\n\n[Rules "b"]\nP1 pass\n', 2),
    ("a game tag after a hand tag starts the next record", '[Rules "a"]\n[Hand "1"]\n[Rules "b"]\n', 2),
    ("game tags together are one record's", '[Rules "a"]\n[Players "x" "y"]\n[Event "e"]\n', 1),
    ("an indented hand tag is a hand line", '[Rules "a"]\n  [Hand "1"]\n\t[Event "b"]\n', 2),
    ("a comment is blank", '# header\n[Rules "a"]\nP0 pass\n# [Rules "b"]\n', 1),
    ("text before any tag opens a record", 'P0 pass\n[Rules "a"]\n', 2),
    ("a line that is not text is a hand line", '[Rules "a"]\n\xff\n[Rules "b"]\n', 2),
]


@pytest.mark.parametrize(("text", "records"), [case[1:] for case in SPLITS], ids=[case[0] for case in SPLITS])
def test_where_records_split(text: str, records: int) -> None:
    data = text.encode().replace("\xff".encode(), b"\xff")  # a byte that is not UTF-8
    by_line = list(map(seen, text_units(numbered_lines(LinesOnly(data), 64), "s")))  # type: ignore[arg-type]
    for size in (1, 3, 1 << 20):
        assert list(map(seen, text_units(numbered_runs(io.BytesIO(data), 64, size=size), "s"))) == by_line
    assert len(by_line) == records


TAG_LINES = [
    '[Rules "a"]', '  [Rules "a"]', '\t[ Players "x" "y"]', '\u3000[Event "e"]', '[Hand "1"]', '[hand "1"]',
    '[DEALER "x"]', '[Deal "x" "AC"]', '[Dealer_2 "x"]', '[Deal2 "x"]', '[Dealers]', '[Stockpile "x"]',
    '[Upcard', '[_x "a"]', '[1 "a"]', '[', '[ ', '#[Rules "a"]', ' # x', '', ' ', '\x1c', '\xa0x',
    '[\u212aing "x"]', '[Hand\u212a "x"]', 'P0 pass', '\x0b[Rules "a"]', '[\x85Rules "a"]',
]


@pytest.mark.parametrize("line", TAG_LINES)
def test_the_run_patterns_read_a_line_as_the_line_checks_do(line: str) -> None:
    """The record splitter searches runs of lines joined (``_TextSplitter._run_starts``) with two
    patterns that stand in for :func:`is_game_tag_line` and :func:`is_blank_line`."""
    assert (GAME_TAG_LINE_RE.match("\n" + line) is not None) == is_game_tag_line(line)
    assert (CONTENT_LINE_RE.match("\n" + line) is not None) == (not is_blank_line(line))
    joined = f"\nx\n{line}\ny"
    assert (GAME_TAG_LINE_RE.search(joined, 2, 3 + len(line)) is not None) == is_game_tag_line(line)
    assert (CONTENT_LINE_RE.search(joined, 2, 3 + len(line)) is not None) == (not is_blank_line(line))


LINE_PIECES = [*TAG_LINES, "[", "]", " ", "\t", "\xa0", "#", "Hand", "Rules", "r", "_", "2"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(LINE_PIECES), max_size=6).map("".join))
def test_the_run_patterns_read_any_line_as_the_line_checks_do(line: str) -> None:
    line = line.replace("\n", "")
    assert (GAME_TAG_LINE_RE.match("\n" + line) is not None) == is_game_tag_line(line)
    assert (CONTENT_LINE_RE.match("\n" + line) is not None) == (not is_blank_line(line))
