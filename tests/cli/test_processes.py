"""ginref as a process: exit codes, closed pipes, full disks, signals, FIFOs and stdin, through real runs.

Every case starts ``python -m ginref`` (so :func:`ginref.cli.main` is what runs) and
looks only at what a shell would see: the exit code, stdout, stderr, the files
left behind and the processes left running. Timeouts below are hang guards (a
case that blocks fails instead of stalling the suite), never timing assertions.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "samples" / "records" / "openspiel" / "games.jsonl"
GOOD = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
HANG_GUARD = 60.0
"""seconds after which a run counts as hung (generous: two shared cores)"""

PIPE_CLOSED, INTERRUPTED, TERMINATED = 141, 130, 143


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "ginref", *args]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GINREF_DEBUG", "GINREF_RULES")}
    env.update(NO_COLOR="1", **extra)
    return env


def ginref(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None, timeout: float = HANG_GUARD
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            command(*args), input=stdin, capture_output=True, cwd=ROOT, env=env or environment(),
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang: `ginref {' '.join(args)[:200]}` still running after {timeout:.0f} s")


def stderr_lines(run: subprocess.CompletedProcess[bytes]) -> list[str]:
    text = run.stderr.decode("utf-8", "replace")
    return text.removesuffix("\n").split("\n") if text else []  # as a terminal shows them: LF only


def json_lines(text: str) -> list[Any]:
    """JSON Lines as the format splits them: at LF only (U+2028, U+0085 may sit inside a value)."""
    return [json.loads(line) for line in text.split("\n") if line]


def assert_quiet_failure(run: subprocess.CompletedProcess[bytes], code: int) -> str:
    """Exit ``code`` with exactly one line on stderr and no traceback; that line."""
    lines = stderr_lines(run)
    assert "Traceback" not in run.stderr.decode("utf-8", "replace"), run.stderr[-2000:]
    assert run.returncode == code, (run.returncode, lines)
    assert len(lines) == 1, lines
    return lines[0]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Big inputs, written once: 24,000 OpenSpiel records and 3,000 hands."""
    folder = tmp_path_factory.mktemp("processes")
    lines = [line for line in GAMES.read_text(encoding="utf-8").split("\n") if line.strip()]
    with open(folder / "big.jsonl", "w", encoding="utf-8") as out:
        for _ in range(24_000 // len(lines)):
            out.write("\n".join(lines) + "\n")
    (folder / "hands.txt").write_text((GOOD + "\n") * 3000, encoding="utf-8")
    return folder


# -- the reader of stdout goes away --------------------------------------------------------


CLOSED_PIPE_CASES = [
    ("verify --jsonl", ["verify", "{big}", "--jsonl", "--jobs", "1"], None),
    ("verify --jobs 2", ["verify", "{big}", "--jsonl", "--jobs", "2"], None),
    ("convert to text", ["convert", "{big}", "--to", "gin"], None),
    ("analyze -", ["analyze", "-", "--json"], "hands.txt"),
]


@pytest.mark.parametrize(("label", "args", "stdin"), CLOSED_PIPE_CASES, ids=[c[0] for c in CLOSED_PIPE_CASES])
def test_closed_pipe_after_the_first_line_exits_141_quietly(
    work: Path, label: str, args: list[str], stdin: str | None
) -> None:
    """``ginref ... | head -1``: exit 141, nothing on stderr, no worker left behind."""
    argv = [arg.format(big=work / "big.jsonl") for arg in args]
    with open(work / stdin if stdin else os.devnull, "rb") as source:
        proc = subprocess.Popen(
            command(*argv), stdin=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=ROOT, env=environment(), start_new_session=True,
        )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert first, err.decode("utf-8", "replace")[-2000:]
    assert (proc.returncode, err.decode("utf-8", "replace")) == (PIPE_CLOSED, "")
    assert wait_for_empty_group(proc.pid) == []


@pytest.mark.parametrize("args", [["rules"], ["analyze", GOOD], ["--help"]], ids=" ".join)
def test_reader_gone_before_the_first_write_exits_141_quietly(args: list[str]) -> None:
    """The pipe is closed before ginref writes a byte (the shutdown flush case)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        run = subprocess.run(
            command(*args), stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, env=environment(),
            timeout=HANG_GUARD,
        )
    finally:
        os.close(write_end)
    assert (run.returncode, run.stderr.decode("utf-8", "replace")) == (PIPE_CLOSED, "")


# -- the disk is full ----------------------------------------------------------------------------


FULL_DISK_CASES = [
    ("rules", ["rules", "standard"], None),
    ("analyze -", ["analyze", "-"], "hands.txt"),
    ("verify --jsonl", ["verify", "{games}", "--jsonl", "--jobs", "1"], None),
    ("convert", ["convert", "{games}", "--to", "gin"], None),
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize(("label", "args", "stdin"), FULL_DISK_CASES, ids=[c[0] for c in FULL_DISK_CASES])
def test_stdout_on_a_full_disk_is_one_line_and_exit_4(
    work: Path, label: str, args: list[str], stdin: str | None
) -> None:
    argv = [arg.format(games=GAMES) for arg in args]
    with open("/dev/full", "wb") as full, open(work / stdin if stdin else os.devnull, "rb") as source:
        run = subprocess.run(
            command(*argv), stdin=source, stdout=full, stderr=subprocess.PIPE, cwd=ROOT,
            env=environment(), timeout=HANG_GUARD,
        )
    line = assert_quiet_failure(run, 4)
    assert "no space left on device" in line
    assert "Exception ignored" not in line


def test_output_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    run = ginref("convert", str(GAMES), "-o", str(tmp_path / "missing-folder" / "out.gin"))
    line = assert_quiet_failure(run, 2)
    assert "missing-folder" in line
    assert not (tmp_path / "missing-folder").exists()


def _limit_file_size(limit: int) -> Any:
    def limit_in_child() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # so a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_in_child


def test_convert_that_fails_mid_way_leaves_the_existing_output_untouched(tmp_path: Path) -> None:
    """Writes past 64 KiB fail (as on a full disk, even for root): out.gin keeps its old content."""
    target = tmp_path / "out.gin"
    target.write_text("# the previous conversion\n", encoding="utf-8")
    run = subprocess.run(
        command("convert", str(GAMES), "-o", str(target)), capture_output=True, cwd=ROOT,
        env=environment(), timeout=HANG_GUARD, preexec_fn=_limit_file_size(1 << 16),
    )
    assert_quiet_failure(run, 4)
    assert target.read_text(encoding="utf-8") == "# the previous conversion\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.gin"], "a temporary file was left behind"


@pytest.mark.parametrize(
    ("how", "code"), [("sigint", INTERRUPTED), ("sigterm", TERMINATED)], ids=["ctrl-c", "sigterm"]
)
def test_convert_stopped_mid_way_leaves_the_existing_output_untouched(
    work: Path, tmp_path: Path, how: str, code: int
) -> None:
    target = tmp_path / "out.gin"
    target.write_text("# the previous conversion\n", encoding="utf-8")
    proc = start(["convert", str(work / "big.jsonl"), "-o", str(target)])
    wait_until(lambda: any(p.name.startswith(".") for p in tmp_path.iterdir()), proc)
    returncode, err = stop(proc, how)
    assert (returncode, "Traceback" in err) == (code, False), err
    assert target.read_text(encoding="utf-8") == "# the previous conversion\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.gin"], "a temporary file was left behind"


# -- Ctrl-C and SIGTERM ------------------------------------------------------------------------


def start(args: Sequence[str], stdin: int | IO[bytes] = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """ginref in a process group of its own (as a shell job is), stderr captured."""
    return subprocess.Popen(
        command(*args), stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
        env=environment(), start_new_session=True,
    )


def stop(proc: subprocess.Popen[bytes], how: str) -> tuple[int, str]:
    """Ctrl-C (SIGINT to the whole group, as a terminal sends it) or SIGTERM to ginref alone."""
    if how == "sigint":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=HANG_GUARD)
    return proc.returncode, err.decode("utf-8", "replace")


def wait_until(ready: Any, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not ready():
        if proc.poll() is not None:
            err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
            pytest.fail(f"ginref ended (exit {proc.returncode}) before it could be stopped: {err[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("ginref never got going")
        time.sleep(0.05)


def processes() -> Iterator[tuple[int, int, int]]:
    """(pid, parent pid, process group) of every process, from /proc."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            yield int(entry.name), int(fields[1]), int(fields[2])


def children(pid: int) -> list[int]:
    return [child for child, parent, _ in processes() if parent == pid]


def wait_for_empty_group(group: int) -> list[int]:
    """The processes still in ``group`` once it has had a few seconds to empty (none, when clean)."""
    deadline = time.monotonic() + 10
    while True:
        left = [pid for pid, _, pgrp in processes() if pgrp == group]
        if not left or time.monotonic() > deadline:
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            return left
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize(
    ("how", "code", "said"),
    [("sigint", INTERRUPTED, "ginref: interrupted"), ("sigterm", TERMINATED, "ginref: terminated")],
    ids=["ctrl-c-to-the-group", "sigterm-to-ginref"],
)
def test_stopping_verify_jobs_2_shuts_the_workers_down(work: Path, how: str, code: int, said: str) -> None:
    proc = start(["verify", str(work / "big.jsonl"), "--jobs", "2"])
    wait_until(lambda: len(children(proc.pid)) >= 2, proc)
    time.sleep(0.5)  # let the workers get into their records
    returncode, err = stop(proc, how)
    assert "Traceback" not in err, err[-2000:]
    assert (returncode, err.strip().splitlines()[-1:]) == (code, [said])
    assert wait_for_empty_group(proc.pid) == [], "worker processes outlived ginref"


@pytest.mark.parametrize(
    ("how", "code", "said"),
    [("sigint", INTERRUPTED, "ginref: interrupted"), ("sigterm", TERMINATED, "ginref: terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_stopping_analyze_while_it_waits_for_stdin(how: str, code: int, said: str) -> None:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        command("analyze", "-", "--json"), stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env=environment(), start_new_session=True,
    )
    os.close(read_end)
    try:
        os.write(write_end, (GOOD + "\n").encode())
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["line"] == 1  # answered, and now waiting for more
        returncode, err = stop(proc, how)
    finally:
        os.close(write_end)
    assert (returncode, err) == (code, said + "\n")


@pytest.mark.parametrize("form", ["gin", "jsonl"])
def test_verify_reports_a_piped_record_before_stdin_ends(form: str) -> None:
    """A log piped in as it is written (``tail -f log | ginref verify -``): each record is
    reported once the next one starts, not when the pipe closes."""
    first, second = (ROOT / "samples" / "records" / f"{name}.{'gin' if form == 'gin' else 'json'}"
                     for name in ("gin", "undercut"))
    texts = [path.read_text() for path in (first, second)]
    if form == "jsonl":
        texts = [json.dumps(json.loads(text)) + "\n" for text in texts]
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(  # stdout unbuffered, so that communicate below reads all that readline left
        command("verify", "-", "--jsonl", "--jobs", "1"), stdin=read_end, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=ROOT, env=environment(), bufsize=0,
    )
    os.close(read_end)
    try:
        os.write(write_end, ("\n".join(texts) + "\n").encode())
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], HANG_GUARD)
        assert ready, "no record reported while stdin stayed open"
        assert json.loads(proc.stdout.readline())["index"] == 0
    finally:
        os.close(write_end)
    rest, _ = proc.communicate(timeout=HANG_GUARD)
    assert [json.loads(line)["index"] for line in rest.splitlines()] == [1]


# -- analyze - : every line answered ---------------------------------------------------------------

G = GOOD.encode()
STDIN_CASES = [
    # label, stdin, lines answered, bad lines as (line, column)
    ("invalid UTF-8 line", G + b"\n\xff\xfe junk\n" + G + b"\n", [1, 3], [(2, 1)]),
    ("invalid UTF-8 mid-line", G + b"\n3C 4C \xc3\x28 5C\n" + G + b"\n", [1, 3], [(2, 7)]),
    ("NUL byte", G + b"\n3C\x004C\n" + G + b"\n", [1, 3], [(2, 3)]),
    ("a 2 MB line", G + b"\n" + b"3C " * 700_000 + b"\n" + G + b"\n", [1, 3], [(2, 1)]),
    ("a 900 KB bad token", G + b"\n" + b"x" * 900_000 + b"\n" + G + b"\n", [1, 3], [(2, 1)]),
    ("BOM on line 1", b"\xef\xbb\xbf" + G + b"\n" + G + b"\n", [1, 2], []),
    ("CRLF line ends", G + b"\r\n\r\n3C 4X\r\n" + G + b"\r\n", [1, 4], [(3, 4)]),
    ("U+2028 inside a line", G + " # a\u2028b\n".encode() + G + b"\n", [1, 2], []),
    ("last line without a line end", b"# hands\n" + G + b"\n" + G, [2, 3], []),
    ("indented bad card", b"   3C 4X\n" + G + b"\n", [2], [(1, 7)]),
    ("wrong count", b"3C 4C\n" + G + b"\n", [2], [(1, 1)]),
]


@pytest.mark.parametrize(
    ("label", "stdin", "answered", "bad"), STDIN_CASES, ids=[case[0] for case in STDIN_CASES]
)
def test_analyze_stdin_json_answers_every_good_line_in_order(
    label: str, stdin: bytes, answered: list[int], bad: list[tuple[int, int]]
) -> None:
    run = ginref("analyze", "-", "--json", stdin=stdin)
    documents = json_lines(run.stdout.decode("utf-8"))
    assert [d["line"] for d in documents] == sorted(answered + [line for line, _ in bad])
    assert [d["line"] for d in documents if "error" not in d] == answered
    assert [(d["line"], d["column"]) for d in documents if "error" in d] == bad
    assert all(d["deadwood_points"] == 25 for d in documents if "error" not in d)
    assert run.returncode == (2 if bad else 0)
    assert "Traceback" not in run.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("label", "stdin", "answered", "bad"), STDIN_CASES, ids=[case[0] for case in STDIN_CASES]
)
def test_analyze_stdin_text_reports_bad_lines_as_stdin_line_column(
    label: str, stdin: bytes, answered: list[int], bad: list[tuple[int, int]]
) -> None:
    run = ginref("analyze", "-", stdin=stdin)
    out = run.stdout.decode("utf-8")
    assert [int(line[5:-1]) for line in out.split("\n") if line.startswith("line ")] == answered
    errors = [line for line in stderr_lines(run) if line.startswith("Error: <stdin>:")]
    assert [tuple(int(n) for n in e.split(":")[2:4]) for e in errors] == bad
    assert all(len(e) < 200 for e in errors), "an error line quotes too much"
    assert run.returncode == (2 if bad else 0)


# -- paths that are not regular files, or not there ------------------------------------------------

PATH_COMMANDS = [
    ("verify", ["verify", "{path}"]),
    ("adjudicate", ["adjudicate", "{path}"]),
    ("convert", ["convert", "{path}", "--to", "gin"]),
    ("game", ["game", "{path}"]),
    ("analyze --rules-file", ["analyze", GOOD, "--rules-file", "{path}"]),
    ("rules --rules-file", ["rules", "--rules-file", "{path}"]),
]


FIFO_CONTENT = {  # what each command reads from the pipe: a record, else this
    "analyze --rules-file": b"gin_bonus = 20\n", "rules --rules-file": b"gin_bonus = 20\n",
    "game": (ROOT / "samples" / "sheets" / "standard-worked.sheet").read_bytes(),
}


@pytest.mark.parametrize(("label", "args"), PATH_COMMANDS, ids=[c[0] for c in PATH_COMMANDS])
def test_a_fifo_is_read_as_a_stream_as_stdin_is(tmp_path: Path, label: str, args: list[str]) -> None:
    """A named pipe was refused ("cannot read a FIFO"); it is read as its writer writes it."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    source = tmp_path / "source"
    source.write_bytes(FIFO_CONTENT.get(label, (ROOT / "samples" / "records" / "gin.gin").read_bytes()))
    with subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(source), str(fifo)]) as writer:
        run = ginref(*(arg.format(path=fifo) for arg in args), timeout=30)
    said = (run.stdout + run.stderr).decode("utf-8", "replace")
    assert writer.returncode == 0 and "Traceback" not in said
    assert run.returncode == 0, said


@pytest.fixture
def socket_path(tmp_path: Path) -> Iterator[Path]:
    import socket

    path = tmp_path / "sock.jsonl"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        listening.listen()
        yield path


@pytest.mark.parametrize(("label", "args"), PATH_COMMANDS, ids=[c[0] for c in PATH_COMMANDS])
def test_a_socket_is_refused_at_once_never_read(socket_path: Path, label: str, args: list[str]) -> None:
    run = ginref(*(arg.format(path=socket_path) for arg in args), timeout=10)
    said = (run.stdout + run.stderr).decode("utf-8", "replace")  # verify reports records on stdout
    assert "Traceback" not in said
    assert run.returncode == 3, said
    assert f"{socket_path}: " in said and "cannot open: no such device or address" in said


@pytest.mark.parametrize("output", ["new.json", "old.json", "out.gin", "/dev/null", "-"])
def test_convert_refuses_a_device_as_its_input_whatever_the_output(tmp_path: Path, output: str) -> None:
    """``convert FIFO -o OUT`` once exited 4 with ``OUT: cannot write: inputFileError``: the
    input's refusal was taken for the output's. It is the input's (exit 3, verify's words),
    and OUT is neither created nor touched; /dev/zero, never ending, is never read."""
    (tmp_path / "old.json").write_text("as it was\n")
    target = output if output in ("-", "/dev/null") else str(tmp_path / output)
    verified = ginref("verify", "/dev/zero", timeout=10)
    line = assert_quiet_failure(ginref("convert", "/dev/zero", "-o", target, timeout=10), 3)
    assert line == "Error: /dev/zero: cannot read a device; give a file or a pipe"
    assert verified.returncode == 3
    assert verified.stdout.decode().startswith("/dev/zero: unreadable: cannot read a device; give")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]
    assert (tmp_path / "old.json").read_text() == "as it was\n"


@pytest.mark.parametrize(("label", "args"), PATH_COMMANDS, ids=[c[0] for c in PATH_COMMANDS])
def test_a_path_that_does_not_exist_is_a_usage_error(tmp_path: Path, label: str, args: list[str]) -> None:
    missing = tmp_path / "no-such-file.gin"
    run = ginref(*(arg.format(path=missing) for arg in args))
    err = run.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert run.returncode == 2, err
    assert "no-such-file.gin" in err.splitlines()[-1]


def test_verify_of_an_empty_folder_says_no_records_were_found(tmp_path: Path) -> None:
    line = assert_quiet_failure(ginref("verify", str(tmp_path)), 3)
    assert "no record" in line.lower() and str(tmp_path) in line


# -- main(): what reaches the top ------------------------------------------------------------------

BROKEN_COMMAND = """
import click, sys
from ginref.cli import cli, main

@cli.command()
def broken():
    \"\"\"Example: a bug.\"\"\"
    raise RuntimeError("boom\\nsecond line " + "x" * 500)

main(sys.argv[1:])
"""


def test_an_unexpected_exception_is_one_line_and_exit_70() -> None:
    run = subprocess.run(
        [sys.executable, "-c", BROKEN_COMMAND, "broken"], capture_output=True, cwd=ROOT,
        env=environment(), timeout=HANG_GUARD,
    )
    line = assert_quiet_failure(run, 70)
    assert line.startswith("ginref: internal error: RuntimeError: boom second line xxx")
    assert line.endswith("(please report it)") and len(line) < 250


def test_ginref_debug_shows_the_traceback() -> None:
    run = subprocess.run(
        [sys.executable, "-c", BROKEN_COMMAND, "broken"], capture_output=True, cwd=ROOT,
        env=environment(GINREF_DEBUG="1"), timeout=HANG_GUARD,
    )
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 1
    assert "Traceback (most recent call last)" in err and "RuntimeError: boom" in err


MAIN_CASES = [
    ("--version", ["--version"], b"", 0, "ginref, version"),
    ("--help", ["--help"], b"", 0, "Usage: ginref"),
    ("unknown command", ["nosuch"], b"", 2, ""),
    ("knock: no", ["knock", GOOD], b"", 1, "no: the least deadwood is 25"),
    ("knock: yes", ["knock", "3C 4C 5C 9D 9S 9H 2D AS AH 6S"], b"", 0, "knock: deadwood 10"),
    ("bad card", ["analyze", "3C 4X"], b"", 2, ""),
    ("analyze - with nothing", ["analyze", "-"], b"", 3, ""),  # no hands on stdin
]


@pytest.mark.parametrize(
    ("label", "args", "stdin", "code", "shown"), MAIN_CASES, ids=[case[0] for case in MAIN_CASES]
)
def test_main_keeps_click_exit_codes(
    label: str, args: list[str], stdin: bytes, code: int, shown: str
) -> None:
    run = ginref(*args, stdin=stdin)
    assert run.returncode == code, run.stderr
    assert shown.lower() in run.stdout.decode("utf-8").lower()
    assert "Traceback" not in run.stderr.decode("utf-8", "replace")


def test_shell_completion_still_answers() -> None:
    run = ginref(env=environment(_GINREF_COMPLETE="bash_source"))
    assert run.returncode == 0
    assert b"complete" in run.stdout and b"ginref" in run.stdout


# -- the same stdin contract in-process, for generated input -------------------------------------

LINE_KINDS = st.one_of(
    st.just(G),
    st.just(b""),
    st.just(b"  # a comment"),
    st.binary(max_size=40).filter(lambda raw: b"\n" not in raw),
    st.text(max_size=40).map(lambda text: text.replace("\n", " ").encode("utf-8", "replace")),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINE_KINDS, max_size=12), st.sampled_from([b"\n", b"\r\n"]), st.booleans())
def test_analyze_stdin_answers_each_line_at_most_once_in_order(
    lines: list[bytes], end: bytes, final_end: bool
) -> None:
    """Whatever the bytes: no exception, one answer or error per line at most, in line order."""
    stdin = end.join(lines) + (end if final_end and lines else b"")
    result = CliRunner().invoke(cli, ["analyze", "-", "--json"], input=stdin, catch_exceptions=False)
    documents = json_lines(result.stdout)
    numbers = [d["line"] for d in documents]
    assert numbers == sorted(set(numbers))
    assert all(1 <= n <= max(len(lines), 1) for n in numbers)
    good = [n for n, raw in enumerate(lines, 1) if raw == G]
    assert [d["line"] for d in documents if "error" not in d and d["line"] in good] == good
    assert all(d["line"] not in good for d in documents if "error" in d)
    assert result.exit_code == (2 if any("error" in d for d in documents) else 0 if documents else 3)


@pytest.mark.parametrize("command", ["verify", "report", "adjudicate", "convert"])
def test_a_fifo_nobody_writes_to_reads_as_empty_not_waited_on_for_ever(tmp_path: Path, command: str) -> None:
    """A pipe with no writer once held the command in its open until killed."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    run = ginref(command, str(fifo), timeout=20)
    said = (run.stdout + run.stderr).decode("utf-8", "replace")
    assert run.returncode == 3 and "Traceback" not in said, said
