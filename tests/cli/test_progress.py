"""The progress line of the commands that read a batch (verify, report, convert): on stderr
whenever it is a terminal, erased before anything else is written there, fitted to its width.

Once the bar garbled the terminal when findings were printed
(``verifying [---#---] 11851big.jsonl:11852: ...``) and was missing for ``--jsonl > file``;
then report and convert stayed silent on a terminal, a 40-column terminal wrapped the line,
and the first update read "1 records, 1/s".
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from ginref.records import format_jsonl
from ginref.records.io import Reading, ReadProgress, read_paths
from ginref.render.records import progress_text
from tests.support.randomplay import random_hand
from tests.support.terminal import read_until_closed


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "batch.jsonl"
    lines = [format_jsonl(random_hand(i)) for i in range(40)]
    path.write_text("\n".join(lines * 150) + "\n")  # 6,000 records
    return path


@pytest.fixture(scope="module")
def long_batch(batch: Path) -> Path:
    """24,000 records: well past the line's first update (0.5 s) on a quiet machine too."""
    path = batch.with_name("long.jsonl")
    path.write_text(batch.read_text() * 4)
    return path


def verify_on_a_terminal(
    args: list[str], *, stdout_to_terminal: bool, out: Path, command: str = "verify", columns: int = 80
) -> tuple[bytes, bytes]:
    """Run ``ginref verify`` (or ``command``) with stderr (and maybe stdout) on a pseudo-terminal
    of ``columns``."""
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
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


def test_the_line_shows_on_the_terminal_while_stdout_goes_to_a_file(long_batch: Path, tmp_path: Path) -> None:
    terminal, written = verify_on_a_terminal([str(long_batch), "--jsonl", "--jobs", "1"],
                                             stdout_to_terminal=False, out=tmp_path / "out.jsonl")
    # the rate and the time left join the line after a second: how far this run gets then depends
    # on the machine, so only the line itself is required here (progress_text's tests word the rest)
    assert b"verifying:" in terminal and b"% read" in terminal
    assert b"verifying" not in terminal.rsplit(b"\r", 2)[-1]  # the last line drawn is erased
    assert len(written.splitlines()) == 24000 and b"verifying" not in written


def test_report_shows_its_own_line_and_erases_it(long_batch: Path, tmp_path: Path) -> None:
    terminal, written = verify_on_a_terminal([str(long_batch), "--jobs", "1"], stdout_to_terminal=False,
                                             out=tmp_path / "report.txt", command="report")
    assert b"auditing:" in terminal and b"auditing" not in terminal.rsplit(b"\r", 2)[-1]
    assert written.startswith(b"24,000 records: 24,000 clean")  # thousands as the line gives them
    assert b"auditing" not in written


def screen_lines(terminal: bytes) -> list[str]:
    """The lines a terminal shows after ``terminal`` was written to it: a carriage return
    goes back to the line's start, and what follows is written over what was there."""
    shown = []
    for line in terminal.decode("utf-8", "replace").replace("\r\n", "\n").split("\n"):
        cells: list[str] = []
        column = 0
        for char in line:
            if char == "\r":
                column = 0
                continue
            cells[column:column + 1] = [char]
            column += 1
        shown.append("".join(cells).rstrip())
    return shown


@pytest.fixture(scope="module")
def batch_with_findings(long_batch: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    wrong = (Path(__file__).resolve().parents[2] / "samples" / "records" / "wrong-turn.json").read_text()
    lines = long_batch.read_text().splitlines()
    for at in range(500, len(lines), 4000):
        lines[at] = json.dumps(json.loads(wrong))
    path = tmp_path_factory.mktemp("findings") / "findings.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_line_shows_when_stdout_is_the_terminal_too_and_findings_stay_whole(
    batch_with_findings: Path, tmp_path: Path
) -> None:
    terminal, _ = verify_on_a_terminal([str(batch_with_findings), "--jobs", "1"], stdout_to_terminal=True,
                                       out=tmp_path / "unused")
    assert b"verifying:" in terminal
    argv = [sys.executable, "-m", "ginref", "verify", str(batch_with_findings), "--jobs", "1"]
    piped = subprocess.run(argv, capture_output=True, text=True, timeout=120).stdout
    shown = [line for line in screen_lines(terminal) if line]
    assert shown == [line for line in piped.splitlines() if line]  # each finding whole, the line erased
    assert "with findings    6" in shown


@pytest.mark.parametrize("command", ["report", "verify"])
def test_report_and_verify_erase_the_line_before_writing_to_the_same_terminal(
    command: str, long_batch: Path, tmp_path: Path
) -> None:
    terminal, _ = verify_on_a_terminal([str(long_batch), "--jobs", "1"], stdout_to_terminal=True,
                                       out=tmp_path / "unused", command=command)
    assert (b"auditing:" if command == "report" else b"verifying:") in terminal
    shown = [line for line in screen_lines(terminal) if line]
    if command == "report":
        assert shown[0].startswith("24,000 records:")
    else:
        assert "records          24000" in shown
    assert not any(":" in line and "/s" in line for line in shown)


def test_convert_shows_its_line_while_it_writes_a_file(long_batch: Path, tmp_path: Path) -> None:
    """It once converted 60,000 records in silence."""
    target = tmp_path / "out.gin"
    terminal, _ = verify_on_a_terminal([str(long_batch), "-o", str(target)], stdout_to_terminal=True,
                                       out=tmp_path / "unused", command="convert")
    assert b"converting:" in terminal and b"% read" in terminal
    assert [line for line in screen_lines(terminal) if line] == []  # erased at the end
    assert target.read_text().count("[Rules ") == 24000


def test_convert_to_the_terminal_shows_no_line_over_the_records(batch: Path, tmp_path: Path) -> None:
    terminal, _ = verify_on_a_terminal([str(batch), "--to", "jsonl"], stdout_to_terminal=True,
                                       out=tmp_path / "unused", command="convert")
    assert b"converting:" not in terminal and terminal.count(b"\n") == 6000


def test_the_line_fits_a_narrow_terminal(long_batch: Path, tmp_path: Path) -> None:
    terminal, _ = verify_on_a_terminal([str(long_batch), "--jobs", "1"], stdout_to_terminal=False,
                                       out=tmp_path / "out", columns=40)
    drawn = [part for part in terminal.decode().split("\r") if "verifying:" in part]
    assert drawn and all(len(part.rstrip()) < 40 for part in drawn)


def test_stderr_stays_clean_when_it_is_not_a_terminal(batch: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "ginref", "verify", str(batch), "--jsonl", "--jobs", "1"],
                         capture_output=True, timeout=120)
    assert run.returncode == 0 and run.stderr == b""


def test_read_progress_counts_the_bytes_of_the_files(batch: Path) -> None:
    progress = ReadProgress()
    items = read_paths([str(batch)], Reading(progress=progress))
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
        (0, 0.0, None, "verifying: 0 records"),
        (1, 0.5, None, "verifying: 1 record"),              # no rate from one record: once "1/s"
        (1, 0.5, 0.01, "verifying: 1 record, 1% read"),     # nor a time left from half a second
        (40, 0.9, 0.1, "verifying: 40 records, 10% read"),
        (12_345, 2.0, None, "verifying: 12,345 records, 6,172/s"),
        (5_000, 10.0, 0.25, "verifying: 5,000 records, 500/s, 25% read, about 0:30 left"),
        (5_000, 100.0, 0.5, "verifying: 5,000 records, 50/s, 50% read, about 1:40 left"),
    ],
)
def test_progress_text(records: int, seconds: float, fraction: float | None, text: str) -> None:
    assert progress_text(records, seconds, fraction) == text


@pytest.mark.parametrize(
    ("width", "text"),
    [
        (80, "verifying: 5,000 records, 500/s, 25% read, about 0:30 left"),
        (57, "verifying: 5,000 records, 25% read, about 0:30 left"),   # the rate goes first
        (39, "verifying: 5,000 records, 25% read"),                    # a 40-column terminal
        (25, "verifying: 5,000 records"),
        (12, "verifying: 5"),
    ],
)
def test_progress_text_fits_the_width(width: int, text: str) -> None:
    assert progress_text(5_000, 10.0, 0.25, width=width) == text
