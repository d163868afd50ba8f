"""Batch verification and adjudication from the command line and the library."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.audit import report
from ginref.batch import BatchSummary, verify
from ginref.batch.shards import SHARD_BYTES, Shard
from ginref.batch.tasks import Task, check_task_in_worker
from ginref.batch.workers import live_workers
from ginref.cli import cli
from ginref.records import format_text, to_json_dict
from ginref.records.io import input_files, read_paths
from ginref.rules import find_rules
from tests.support.randomplay import random_hand

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
CLEAN = SAMPLES / "knock-layoffs.gin"
WRONG = SAMPLES / "wrong-card-not-in-hand.gin"


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def jsonl_records(count: int, rules: str = "standard", seed: int = 0) -> list[str]:
    return [
        json.dumps(to_json_dict(random_hand(seed + i, find_rules(rules))), separators=(",", ":"))
        for i in range(count)
    ]


@pytest.fixture()
def batch(tmp_path: Path) -> Path:
    """Good records in both formats plus one unreadable record of each kind."""
    lines = jsonl_records(6)
    lines.insert(3, '{"rules": "standard", "players": ["Ann"')  # truncated JSON
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "hand.gin").write_text(format_text(random_hand(99, find_rules("standard"))))
    (tmp_path / "nested" / "latin1.gin").write_bytes(b'[Rules "standard"]\n[Event "caf\xe9"]\n')
    (tmp_path / "junk.gin").write_bytes(b"\x00\x01\x02binary\xff")
    (tmp_path / "notes.txt").write_text("not a record, skipped by extension")
    return tmp_path


def test_samples_verify_with_their_expected_findings() -> None:
    code, out, _ = run("verify", str(SAMPLES), "--json")
    report = json.loads(out)
    summary = report["summary"]
    assert code == 1
    assert summary["records"] == len(report["records"]) > 40
    assert summary["unreadable"] == 0
    assert summary["clean"] + summary["with_findings"] == summary["records"]
    clean_files = {Path(r["source"]).name for r in report["records"] if r["status"] == "clean"}
    assert "knock-layoffs.gin" in clean_files and "wrong-turn.gin" not in clean_files


def test_text_report_names_place_code_and_message() -> None:
    code, out, _ = run("verify", str(WRONG))
    assert code == 1
    assert f"{WRONG}:12:1: error card_not_in_hand: Bo discarded QS" in out
    assert "with findings    1" in out


def test_clean_record_exits_0() -> None:
    code, out, _ = run("verify", str(CLEAN))
    assert code == 0
    assert "clean            1" in out


def test_text_summary_counts_the_records_with_advisories_as_json_does() -> None:
    """Records with advisories only are clean; the text once hid how many there were."""
    research = SAMPLES.parent / "research"
    paths = [str(research / name) for name in ("openspiel-histories.txt", "openspiel-state.txt",
                                                "kaggle-episode.json")]
    summary = json.loads(run("verify", *paths, "--json")[1])["summary"]
    code, out, _ = run("verify", *paths)
    assert code == 0 and summary["with_advisories"] == 2
    assert "\nclean            10\n" in out and "\nwith advisories  2\n" in out


def test_unreadable_records_never_stop_the_rest(batch: Path) -> None:
    code, out, _ = run("verify", str(batch), "--jsonl", "--jobs", "1")
    results = [json.loads(line) for line in out.splitlines()]
    by_status = {status: [r for r in results if r["status"] == status] for status in ("clean", "unreadable")}
    assert len(results) == 6 + 1 + 1 + 1 + 1  # every record, readable or not, is reported once
    assert len(by_status["clean"]) == 7
    reasons = " | ".join(r["error"] for r in by_status["unreadable"])
    assert "invalid UTF-8" in reasons and "NUL byte" in reasons and "bad JSON" in reasons
    truncated = next(r for r in by_status["unreadable"] if r["source"].endswith("games.jsonl"))
    assert truncated["line"] == 4
    assert code == 3


def test_findings_win_over_unreadable(batch: Path) -> None:
    code, _, _ = run("verify", str(batch), str(WRONG))
    assert code == 1


def test_missing_file_is_a_usage_error_not_a_crash(tmp_path: Path) -> None:
    code, out, err = run("verify", str(tmp_path / "nope.jsonl"), str(SAMPLES))
    assert code == 2 and not out  # found before any work starts
    assert "no such file or folder" in err and "nope.jsonl" in err


def test_parallel_gives_the_same_results_in_the_same_order(batch: Path) -> None:
    serial = run("verify", str(batch), str(SAMPLES), "--jsonl", "--jobs", "1")[1]
    parallel = run("verify", str(batch), str(SAMPLES), "--jsonl", "--jobs", "2")[1]
    assert serial == parallel
    assert len(serial.splitlines()) > 50


def test_library_parallel_equals_serial_with_small_chunks() -> None:
    paths = [str(SAMPLES)]
    serial = [(r.source, r.index, r.status, r.codes) for r in verify(paths, jobs=1)]
    parallel = [(r.source, r.index, r.status, r.codes) for r in verify(paths, jobs=2, chunk=3)]
    assert serial == parallel


@pytest.mark.parametrize("frozen_before", [False, True])
def test_a_parallel_batch_leaves_the_callers_garbage_collector_as_it_found_it(frozen_before: bool) -> None:
    """The batch freezes its heap for the workers (gc.freeze) only when nothing is frozen: a
    caller's own freeze, and what it left unfrozen, stay as they were."""
    import gc

    assert gc.get_freeze_count() == 0
    if frozen_before:
        gc.freeze()
    before = gc.get_freeze_count()
    try:
        results = [r.status for r in verify([str(SAMPLES)], jobs=2, chunk=3, shard_bytes=1 << 12)]
        assert len(results) > 20
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()


def test_a_parallel_batch_stopped_early_leaves_no_thread_and_no_worker() -> None:
    """Stopping (Ctrl-C, a closed pipe, a caller that reads one result) ends every worker
    and leaves no thread behind (the process pool once left its manager thread ending while
    Python exited, and now and then a traceback, EBADF, came after "ginref: terminated")."""
    import threading

    before = set(threading.enumerate())
    results = verify([str(SAMPLES)], jobs=2, chunk=1)
    next(results)
    workers = live_workers()
    assert len(workers) == 2
    results.close()
    assert [t.name for t in threading.enumerate() if t not in before] == []
    assert not live_workers() and not _running(workers)


def _running(pids: frozenset[int]) -> list[int]:
    """Which of ``pids`` is still a process, even a zombie (none once reaped)."""
    return [pid for pid in pids if Path(f"/proc/{pid}").exists()]


def _die_at_start(task: Task) -> bytes:
    """A worker's check that kills its own process on the file's first shard."""
    if isinstance(task, Shard) and task.start == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return check_task_in_worker(task)


def test_a_worker_killed_mid_batch_loses_only_its_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The killed worker's records are unreadable, saying so; the other worker checks the rest,
    every record is reported once, and no process is left."""
    import ginref.batch.run

    (tmp_path / "many.jsonl").write_text("\n".join(jsonl_records(60)) + "\n")
    paths = [str(tmp_path / "many.jsonl")]
    monkeypatch.setattr(ginref.batch.run, "check_task_in_worker", _die_at_start)
    batch = verify(paths, jobs=2, shard_bytes=1 << 12)
    results = [next(batch)]
    workers = live_workers()
    results += batch
    expected = list(verify(paths, jobs=1))
    assert [(r.index, r.line) for r in results] == [(r.index, r.line) for r in expected]
    lost = [r for r in results if r.status == "unreadable"]
    assert 0 < len(lost) < len(results) and lost[0].index == 0
    why = ("not checked: the task that read it failed: "
           "WorkerLost: the worker process ended (killed by signal 9)")
    assert {r.rows[0].message for r in lost} == {why}
    assert [r for r in results if r.status != "unreadable"] == expected[len(lost):]
    assert workers and not live_workers() and not _running(workers)


def _outcomes(results: object) -> list[tuple[str, int, int, str, tuple[str, ...]]]:
    return [(r.source, r.index, r.line, r.status, r.codes) for r in results]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("inputs", "shard_bytes", "workers"),
    [
        pytest.param(("one.jsonl",), SHARD_BYTES, False, id="one file of one shard"),
        pytest.param(("one.jsonl", "missing.gin"), SHARD_BYTES, False, id="one shard and a missing file"),
        pytest.param(("one.jsonl", "two.gin"), SHARD_BYTES, True, id="two files"),
        pytest.param(("one.jsonl",), 1, True, id="one file cut in shards"),
    ],
)
def test_a_batch_of_one_task_runs_without_workers_and_gives_the_same_results(
    tmp_path: Path, inputs: tuple[str, ...], shard_bytes: int, workers: bool
) -> None:
    (tmp_path / "one.jsonl").write_text("\n".join(jsonl_records(5)) + "\n")
    (tmp_path / "two.gin").write_text(format_text(random_hand(7, find_rules("standard"))))
    paths = [str(tmp_path / name) for name in inputs]
    results = verify(paths, jobs=2, shard_bytes=shard_bytes)
    first = next(results)
    assert bool(live_workers()) is workers
    assert _outcomes([first, *results]) == _outcomes(verify(paths, jobs=1))


def test_a_failing_task_of_a_batch_of_one_reports_its_records_as_the_workers_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ginref.batch.run

    (tmp_path / "one.jsonl").write_text("\n".join(jsonl_records(3)) + "\n")

    def broken(*_: object) -> bytes:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(ginref.batch.run, "check_task_packed", broken)
    results = list(verify([str(tmp_path / "one.jsonl")], jobs=2))
    assert [(r.index, r.line, r.status) for r in results] == [(0, 1, "unreadable"), (1, 2, "unreadable"),
                                                              (2, 3, "unreadable")]
    reason = "not checked: the task that read it failed: RuntimeError: a bug over two lines"
    assert [r.rows[0].message for r in results] == [reason] * 3


def test_stdin_json_lines_and_text() -> None:
    lines = jsonl_records(3, "openspiel")
    code, out, _ = run("verify", "-", "--rules", "openspiel", "--jsonl", stdin="\n".join(lines) + "\n")
    assert code == 0 and len(out.splitlines()) == 3
    code, out, _ = run("verify", "-", stdin=CLEAN.read_text())
    assert code == 0 and "records          1" in out


def test_fail_fast_stops_at_the_first_problem() -> None:
    code, out, _ = run("verify", str(SAMPLES), "--jsonl", "--fail-fast", "--jobs", "1")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert results[-1]["status"] == "findings"
    assert all(r["status"] == "clean" for r in results[:-1])


def test_json_and_jsonl_together_is_a_usage_error() -> None:
    code, _, err = run("verify", str(CLEAN), "--json", "--jsonl")
    assert code == 2 and "one of --json, --jsonl and --csv" in err


def test_summary_exit_codes() -> None:
    summary = BatchSummary()
    assert summary.exit_code == 0
    summary.unreadable = 1
    assert summary.exit_code == 3
    summary.with_findings = 1
    assert summary.exit_code == 1


# -- adjudicate ----------------------------------------------------------------------


def test_adjudicate_clean_record_shows_the_ruling() -> None:
    code, out, _ = run("adjudicate", str(CLEAN))
    assert code == 0
    assert "clean" in out and "knock" in out and "Ann" in out


def test_adjudicate_json_and_findings() -> None:
    code, out, _ = run("adjudicate", str(WRONG), "--json")
    verdicts = json.loads(out)
    assert code == 1
    codes = [f["code"] for f in verdicts[0]["findings"]]
    assert "card_not_in_hand" in codes


def test_a_records_own_rules_win_unless_overridden() -> None:
    tie = SAMPLES / "tie-standard.gin"  # equal deadwood: an undercut under standard
    standard = json.loads(run("adjudicate", str(tie), "--json")[1])[0]
    assert standard["hands"][0]["outcome"] == "undercut"
    _, out, err = run("adjudicate", str(tie), "--json", "--rules", "openspiel")
    assert json.loads(out)[0]["hands"][0]["outcome"] == "undercut"  # [Rules "standard"] wins
    assert "--override-rules" in err
    _, out, err = run("adjudicate", str(tie), "--json", "--rules", "openspiel", "--override-rules")
    assert json.loads(out)[0]["hands"][0]["outcome"] == "tie" and not err


@pytest.mark.parametrize("command", ["verify", "adjudicate"])
def test_ginref_rules_never_re_rules_a_record(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """GINREF_RULES once overrode every record's own [Rules]: samples/records fell from 239 clean to 64."""
    monkeypatch.setenv("GINREF_RULES", "hoyle")
    tie = str(SAMPLES / "tie-standard.gin")
    _, out, err = run(command, tie, "--json")
    document = json.loads(out)
    verdict = document["records"][0] if command == "verify" else document[0]
    assert verdict["rules"] == "standard" and verdict["hands"][0]["outcome"] == "undercut"
    assert err == ""  # the environment gives defaults quietly


def test_ginref_rules_gives_way_to_a_rules_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINREF_RULES", "hoyle")
    table = tmp_path / "table.toml"
    table.write_text('base = "openspiel"\n')
    tie = str(SAMPLES / "tie-standard.gin")
    code, out, err = run("adjudicate", tie, "--json", "--rules-file", str(table), "--override-rules")
    assert code == 1 and err == ""  # once "give --rules or --rules-file, not both"
    assert json.loads(out)[0]["hands"][0]["outcome"] == "tie"  # the record claims an undercut


def test_adjudicate_unreadable_exits_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gin"
    bad.write_text(
        '[Rules "standard"]\n[Players "Ann" "Bo"]\n[Hand "1"]\n[Dealer "Bo"]\n[Deal "Ann" "3C 4X"]\n'
    )
    code, _, err = run("adjudicate", str(bad))
    assert code == 3
    assert "4X" in err and "bad.gin:5:17:" in err
    assert "Traceback" not in err


def test_a_bad_line_spoils_only_its_own_record(tmp_path: Path) -> None:
    """Invalid UTF-8 or binary junk mid-file: that record is unreadable, the rest go on."""
    good = jsonl_records(4)
    (tmp_path / "mixed.jsonl").write_bytes(
        "\n".join(good[:2]).encode()
        + b'\n{"rules": "caf\xe9"}\n\x00\x00junk\n'
        + "\n".join(good[2:]).encode()
        + b"\n"
    )
    first, second = (format_text(random_hand(seed, find_rules("standard"))) for seed in (7, 8))
    (tmp_path / "mixed.gin").write_bytes(first.encode() + b"\n# caf\xe9\n\n" + second.encode())
    code, out, _ = run("verify", str(tmp_path), "--jsonl", "--jobs", "1")
    results = [json.loads(line) for line in out.splitlines()]
    statuses = [(Path(r["source"]).name, r["index"], r["status"]) for r in results]
    assert statuses == [
        ("mixed.gin", 0, "unreadable"),  # the comment with a bad byte belongs to the first record
        ("mixed.gin", 1, "clean"),
        ("mixed.jsonl", 0, "clean"),
        ("mixed.jsonl", 1, "clean"),
        ("mixed.jsonl", 2, "unreadable"),
        ("mixed.jsonl", 3, "unreadable"),
        ("mixed.jsonl", 4, "clean"),
        ("mixed.jsonl", 5, "clean"),
    ]
    assert "invalid UTF-8" in results[4]["error"] and (results[4]["line"], results[4]["column"]) == (3, 15)
    assert "NUL byte" in results[5]["error"] and (results[5]["line"], results[5]["column"]) == (4, 1)
    assert code == 3


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_file_a_walk_reads_is_in_the_report_or_named_with_why_it_held_no_record(
    tmp_path: Path, jobs: str
) -> None:
    (tmp_path / "a-empty.json").write_text("")
    (tmp_path / "b-list.json").write_text("[]\n")
    (tmp_path / "c-blank.jsonl").write_text("\n\n")
    (tmp_path / "d-comments.gin").write_text("# nothing here\n")
    (tmp_path / "e-good.gin").write_text(CLEAN.read_text())
    code, out, err = run("verify", str(tmp_path), "--jsonl", "--jobs", jobs)
    assert code == 0
    assert [json.loads(line)["source"] for line in out.splitlines()] == [str(tmp_path / "e-good.gin")]
    nothing = "it has only blank lines, comments or an empty list"
    assert err.splitlines() == [
        f"note: {tmp_path / 'a-empty.json'} holds no record: it is empty",
        *(f"note: {tmp_path / name} holds no record: {nothing}"
          for name in ("b-list.json", "c-blank.jsonl", "d-comments.gin")),
    ]


def test_adjudicate_names_a_file_of_its_folder_that_held_no_record(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "good.gin").write_text(CLEAN.read_text())
    code, _, err = run("adjudicate", str(tmp_path))
    assert code == 0
    assert err == f"note: {tmp_path / 'empty.json'} holds no record: it is empty\n"


ONE_PATH_CALLS = {
    "verify": lambda path: [r.source for r in verify(path, jobs=1)],
    "verify with workers": lambda path: [r.source for r in verify(path, jobs=2)],
    "read_paths": lambda path: [getattr(getattr(item, "record", item), "source", None)
                                for item in read_paths(path)],
    "input_files": lambda path: [item.source for item in input_files(path)],
    "report": lambda path: [f"{report(path, jobs=1).records} record"],
}


@pytest.mark.parametrize("call", ONE_PATH_CALLS.values(), ids=ONE_PATH_CALLS.keys())
@pytest.mark.parametrize("as_path", [str, Path], ids=["str", "Path"])
def test_one_path_is_one_path_not_its_characters(
    call: Callable[[object], list[object]], as_path: Callable[[str], object], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``verify("g.gin")`` once read "g", ".", "g", "i", "n": the "." walked the whole folder."""
    (tmp_path / "g.gin").write_bytes(Path(SAMPLES, "gin.gin").read_bytes())
    (tmp_path / "other.gin").write_bytes(Path(SAMPLES, "undercut.gin").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert call(as_path("g.gin")) in (["g.gin"], ["1 record"])


@pytest.mark.parametrize("given", [b"g.gin", [b"g.gin"], [3]], ids=["bytes", "bytes in a list", "int"])
def test_a_path_that_is_not_text_is_a_type_error(given: object) -> None:
    with pytest.raises(TypeError, match=r"a path is a str or os\.PathLike"):
        list(verify(given, jobs=1))  # type: ignore[arg-type]
