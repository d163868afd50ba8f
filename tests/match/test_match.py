"""A seeded match between bundled bots: reproducible byte for byte, mirrored when the bots
are named the other way round, every record ruled clean, the SPRT stopping early, the same
folder at any concurrency, and a run interrupted by Ctrl-C resumed to the same records."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.arena.match import MatchSpec, SprtSpec, run_match
from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def play(tmp_path: Path, name: str, *bots: str, pairs: int = 200, **options: object) -> Path:
    out = tmp_path / name
    run_match(MatchSpec(bots=bots, pairs=pairs, seed=2026, **options), str(out))  # type: ignore[arg-type]
    return out


def test_a_seeded_run_is_repeated_byte_for_byte_and_mirrored(tmp_path: Path) -> None:
    one, two = play(tmp_path, "one", "greedy", "random"), play(tmp_path, "two", "greedy", "random")
    for name in ("records.jsonl", "games.csv"):
        assert (one / name).read_bytes() == (two / name).read_bytes()
    swapped = play(tmp_path, "swapped", "random", "greedy")
    records = (one / "records.jsonl").read_text().splitlines()
    mirrored = (swapped / "records.jsonl").read_text().splitlines()
    assert len(records) == 400
    for pair in range(200):  # each pair's two legs, the other way round
        assert records[2 * pair] == mirrored[2 * pair + 1]
        assert records[2 * pair + 1] == mirrored[2 * pair]
    result = CliRunner().invoke(cli, ["verify", str(one / "records.jsonl")])
    assert result.exit_code == 0, result.output
    assert "clean            400" in result.output


def test_every_record_is_ruled_clean(tmp_path: Path) -> None:
    out = play(tmp_path, "run", "greedy", "simple", pairs=30, unit="game")
    result = CliRunner().invoke(cli, ["verify", str(out / "records.jsonl")])
    assert result.exit_code == 0, result.output
    assert "clean            60" in result.output


def test_greedy_beats_random_by_sprt_in_far_fewer_than_200_pairs(tmp_path: Path) -> None:
    summary = run_match(MatchSpec(bots=("greedy", "random"), pairs=200, seed=2026,
                                  sprt=SprtSpec(elo0=0, elo1=20)))
    assert summary.sprt is not None and summary.sprt["decision"] == "H1"
    assert summary.pairs_played < 50


def test_concurrency_writes_the_same_folder(tmp_path: Path) -> None:
    serial = play(tmp_path, "serial", "greedy", "simple", pairs=20)
    parallel = play(tmp_path, "parallel", "greedy", "simple", pairs=20, concurrency=2)
    for name in ("records.jsonl", "games.csv"):
        assert (serial / name).read_bytes() == (parallel / name).read_bytes()


def test_workers_stopped_early_leave_no_bot_running_and_write_the_serial_folder(tmp_path: Path) -> None:
    """Subprocess bots in two workers, stopped by the SPRT while pairs are still being played:
    the folder is the serial run's, and every bot process has ended (the workers stop theirs)."""
    marker = f"ginref-test-{os.getpid()}-{time.monotonic_ns()}"
    plain = f"plain=cmd:{sys.executable} {Path(__file__).with_name('misbehave.py')} good {marker}"
    sprt = SprtSpec(elo0=0, elo1=20)
    serial = play(tmp_path, "serial", "greedy", plain, pairs=200, sprt=sprt)
    parallel = play(tmp_path, "parallel", "greedy", plain, pairs=200, sprt=sprt, concurrency=2)
    done = json.loads((parallel / "run.json").read_text())["pairs_done"]
    assert 0 < done < 200
    for name in ("records.jsonl", "games.csv"):
        assert (serial / name).read_bytes() == (parallel / name).read_bytes()
    assert len(list((parallel / "stderr").glob("plain.*.log"))) == 2  # one bot a worker
    deadline = time.monotonic() + 10
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(marker)


def _running(marker: str) -> list[str]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(entry.name)
        except OSError:
            pass
    return found


def test_a_round_robin_plays_every_pairing(tmp_path: Path) -> None:
    summary = run_match(MatchSpec(bots=("greedy", "simple", "random"), pairs=3, seed=1))
    assert [(t.first, t.second) for t in summary.tallies] == [
        ("greedy", "simple"), ("greedy", "random"), ("simple", "random")]
    assert all(sum(t.pairs) == 3 for t in summary.tallies)
    gauntlet = run_match(MatchSpec(bots=("greedy", "simple", "random"), pairs=2, seed=1, mode="gauntlet"))
    assert [(t.first, t.second) for t in gauntlet.tallies] == [("greedy", "simple"), ("greedy", "random")]


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_ctrl_c_then_resume_gives_the_records_of_a_run_never_stopped(tmp_path: Path,
                                                                     concurrency: str) -> None:
    whole = play(tmp_path, "whole", "greedy", "random", pairs=150, unit="game")
    out = tmp_path / "stopped"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "ginref", "match", "greedy", "random", "--pairs", "150",
               "--seed", "2026", "--unit", "game", "--out", str(out), "--concurrency", concurrency]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if len((out / "progress.jsonl").read_bytes().splitlines()) >= 10:
                break
        except OSError:
            pass
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    assert process.wait(30) != 0
    done = json.loads((out / "run.json").read_text())["pairs_done"]  # written as Ctrl-C stops it
    assert 10 <= done < 150
    resumed = subprocess.run([sys.executable, "-m", "ginref", "match", "--resume", str(out)], env=env,
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    for name in ("records.jsonl", "games.csv"):
        assert (out / name).read_bytes() == (whole / name).read_bytes()


@pytest.mark.parametrize(("args", "words"), [
    (["greedy"], "two bots"),
    (["greedy", "nobot"], "not a bot"),
    (["greedy", "random", "--on-illegal", "sometimes"], "policy"),
    (["greedy", "random", "--sprt", "elo0=0"], "elo1"),
    (["greedy", "random", "simple", "--sprt", "elo0=0", "elo1=5"], "two bots"),
    (["greedy", "random", "--sprt", "elo0=5", "elo1=0"], "elo0 below elo1"),
    (["greedy", "random", "--on-timeout", "retry:2"], "forfeit or random"),
])
def test_bad_usage_is_one_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["match", *args])
    assert result.exit_code == 2
    assert words in result.output


def test_the_bundled_bot_speaks_the_protocol(tmp_path: Path) -> None:
    bot = f"greedy=cmd:{sys.executable} -m ginref bot greedy"
    over_protocol = play(tmp_path, "proto", bot, "random", pairs=5)
    in_process = play(tmp_path, "here", "greedy", "random", pairs=5)
    assert (over_protocol / "records.jsonl").read_text() == (in_process / "records.jsonl").read_text()


def test_a_crash_mid_write_is_cut_and_the_pair_played_again(tmp_path: Path) -> None:
    whole = play(tmp_path, "whole", "greedy", "simple", pairs=20)
    crashed = play(tmp_path, "crashed", "greedy", "simple", pairs=20)
    lines = (crashed / "progress.jsonl").read_bytes().splitlines(keepends=True)
    (crashed / "progress.jsonl").write_bytes(b"".join(lines[:8]) + lines[8][:20])  # a torn line
    with open(crashed / "records.jsonl", "a") as records:
        records.write('{"rules": "standard", "pla')  # a record half written
    code, output = invoke_cli("match", "--resume", str(crashed))
    assert code == 0, output
    assert "greedy vs simple: 20 pairs" in output
    for name in ("records.jsonl", "games.csv"):
        assert (crashed / name).read_bytes() == (whole / name).read_bytes()


def invoke_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output
