"""verify's progress line (and report's, the same): on a terminal's stderr only while stdout
goes elsewhere.

Once the bar garbled the terminal when findings were printed
(``verifying [---#---] 11851big.jsonl:11852: ...``) and was missing for ``--jsonl > file``.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from ginref.records import format_jsonl
from ginref.records.io import ReadProgress, read_paths
from ginref.render import progress_text
from tests.support.randomplay import random_hand
from tests.support.terminal import read_until_closed


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "batch.jsonl"
    lines = [format_jsonl(random_hand(i)) for i in range(40)]
    path.write_text("\n".join(lines * 150) + "\n")  # 6,000 records: a second or more of work
    return path


def verify_on_a_terminal(
    args: list[str], *, stdout_to_terminal: bool, out: Path, command: str = "verify"
) -> tuple[bytes, bytes]:
    """Run ``ginref verify`` (or ``command``) with stderr (and maybe stdout) on a pseudo-terminal."""
    master, slave = pty.openpty()
    with open(out, "wb") as file:
        process = subprocess.Popen(
            [sys.executable, "-m", "ginref", command, *args],
            stdout=slave if stdout_to_terminal else file, stderr=slave, stdin=subprocess.DEVNULL,
        )
        os.close(slave)
        seen = read_until_closed(master)
        process.wait(timeout=120)
    os.close(master)
    return seen, out.read_bytes()


def test_the_line_shows_on_the_terminal_while_stdout_goes_to_a_file(batch: Path, tmp_path: Path) -> None:
    terminal, written = verify_on_a_terminal([str(batch), "--jsonl", "--jobs", "1"],
                                             stdout_to_terminal=False, out=tmp_path / "out.jsonl")
    assert b"verifying:" in terminal and b"/s" in terminal and b"read, about" in terminal
    assert b"verifying" not in terminal.rsplit(b"\r", 2)[-1]  # the last line drawn is erased
    assert len(written.splitlines()) == 6000 and b"verifying" not in written


def test_report_shows_its_own_line_and_erases_it(batch: Path, tmp_path: Path) -> None:
    terminal, written = verify_on_a_terminal([str(batch), "--jobs", "1"], stdout_to_terminal=False,
                                             out=tmp_path / "report.txt", command="report")
    assert b"auditing:" in terminal and b"auditing" not in terminal.rsplit(b"\r", 2)[-1]
    assert written.startswith(b"6000 records: 6000 clean") and b"auditing" not in written


def test_no_line_when_stdout_is_the_terminal(batch: Path, tmp_path: Path) -> None:
    terminal, _ = verify_on_a_terminal([str(batch), "--jobs", "1"], stdout_to_terminal=True,
                                       out=tmp_path / "unused")
    assert b"verifying:" not in terminal and b"records" in terminal


def test_stderr_stays_clean_when_it_is_not_a_terminal(batch: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "ginref", "verify", str(batch), "--jsonl", "--jobs", "1"],
                         capture_output=True, timeout=120)
    assert run.returncode == 0 and run.stderr == b""


def test_read_progress_counts_the_bytes_of_the_files(batch: Path) -> None:
    progress = ReadProgress()
    items = read_paths([str(batch)], progress=progress)
    assert progress.fraction is None or progress.fraction == 0
    first = next(items)
    assert progress.total == batch.stat().st_size and 0 < progress.read < progress.total
    for _ in items:
        pass
    assert progress.read == progress.total and progress.fraction == 1.0
    assert first is not None


@pytest.mark.parametrize(
    ("records", "seconds", "fraction", "text"),
    [
        (0, 0.0, None, "verifying: 0 records, 0/s"),
        (12_345, 2.0, None, "verifying: 12,345 records, 6,172/s"),
        (5_000, 10.0, 0.25, "verifying: 5,000 records, 500/s, 25% read, about 0:30 left"),
        (5_000, 100.0, 0.5, "verifying: 5,000 records, 50/s, 50% read, about 1:40 left"),
    ],
)
def test_progress_text(records: int, seconds: float, fraction: float | None, text: str) -> None:
    assert progress_text(records, seconds, fraction) == text
