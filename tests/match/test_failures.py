"""Scripted misbehaving bots, run as real subprocesses, end as the named failure under each
policy; without --recover a dead bot stops the run (exit 1), with it the match finishes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.arena.match import MatchSpec, run_match
from ginref.cli import cli

SCRIPT = Path(__file__).with_name("misbehave.py")


def bot(mode: str) -> str:
    return f"bad=cmd:{sys.executable} {SCRIPT} {mode}"


def run(mode: str, tmp_path: Path, **options: object) -> tuple[object, dict[str, int]]:
    spec = MatchSpec(bots=(bot(mode), "greedy"), pairs=1, seed=5, handshake_time=1.0, stall_after=0.5,
                     **options)  # type: ignore[arg-type]
    summary = run_match(spec, str(tmp_path / "run"))
    tally = summary.tallies[0]
    return summary, tally.failures.get("bad", {})


CASES = [
    # mode, the failure kind, options
    ("no_handshake", "no_handshake", {}),
    ("stderr_only", "no_handshake", {}),
    ("crash_start", "crash", {}),
    ("crash_mid", "crash", {}),
    ("stall", "stall", {}),
    ("deaf", "stall", {}),
    ("slow_move", "move_timeout", {"move_time": 0.2, "margin": 0.05}),
    ("slow_game", "game_timeout", {"game_time": 0.5, "margin": 0.05}),
    ("illegal", "illegal_move", {}),
    ("unknown_word", "bad_move", {}),
    ("not_json", "bad_json", {}),
    ("oversized", "line_too_long", {}),
    ("wrong_id", "wrong_id", {}),
]


@pytest.mark.parametrize(("mode", "kind", "options"), CASES)
def test_each_misbehaviour_is_named_and_forfeits(mode: str, kind: str, options: dict[str, object],
                                                 tmp_path: Path) -> None:
    summary, failures = run(mode, tmp_path, recover=True, **options)
    assert kind in failures
    games = (tmp_path / "run" / "games.csv").read_text().splitlines()[1:]
    assert len(games) == 2 and games[0].split(",")[10] == "bad"  # the first game is forfeited
    assert summary.stopped is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["no_handshake", "crash_start", "crash_mid", "stall"])
def test_a_dead_bot_stops_the_run_without_recover(mode: str, tmp_path: Path) -> None:
    summary, _failures = run(mode, tmp_path)
    assert summary.stopped is not None  # type: ignore[attr-defined]
    assert summary.pairs_played == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(("mode", "options"), [
    ("illegal", {"on_illegal": "random"}),
    ("unknown_word", {"on_illegal": "random"}),
    ("slow_move", {"move_time": 0.2, "on_timeout": "random"}),
])
def test_the_random_policy_plays_on(mode: str, options: dict[str, object], tmp_path: Path) -> None:
    _summary, failures = run(mode, tmp_path, **options)
    rows = (tmp_path / "run" / "games.csv").read_text().splitlines()[1:]
    assert failures and all(row.split(",")[10] == "" for row in rows)  # no forfeit


@pytest.mark.parametrize("policy", ["random", "retry:1"])
@pytest.mark.parametrize(("mode", "kind"), [
    ("not_json", "bad_json"), ("oversized", "line_too_long"), ("wrong_id", "wrong_id")])
def test_a_broken_answer_is_named_and_met_by_the_policy(mode: str, kind: str, policy: str,
                                                        tmp_path: Path) -> None:
    summary, failures = run(mode, tmp_path, on_illegal=policy)
    assert failures == {kind: 1}  # the bot breaks the protocol once, at its second move
    rows = (tmp_path / "run" / "games.csv").read_text().splitlines()[1:]
    assert all(row.split(",")[10] == "" for row in rows)  # no forfeit: a random move, or the bot's retry
    assert summary.stopped is None  # type: ignore[attr-defined]


def test_retry_tells_the_refusal_and_asks_again(tmp_path: Path) -> None:
    _, failures = run("illegal", tmp_path, on_illegal="retry:2")
    assert failures["illegal_move"] == 3 * 2  # the first try and two retries, in each game


def test_stderr_is_kept(tmp_path: Path) -> None:
    run("stderr_only", tmp_path, recover=True)
    assert "ready, I think" in (tmp_path / "run" / "stderr" / "bad.log").read_text()


def test_the_command_exits_1_when_a_bot_dies_and_finishes_with_recover(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["match", bot("crash_mid"), "random", "--pairs", "2"]
    stopped = runner.invoke(cli, [*args, "--out", str(tmp_path / "a")])
    assert stopped.exit_code == 1, stopped.output
    assert "stopped:" in stopped.output
    finished = runner.invoke(cli, [*args, "--out", str(tmp_path / "b"), "--recover"])
    assert finished.exit_code == 0, finished.output
    assert "crash 4" in finished.output


def test_a_swapped_run_mirrors_under_the_random_policy(tmp_path: Path) -> None:
    def records(*bots: str) -> list[str]:
        out = tmp_path / "-".join(b[:3] for b in bots)
        run_match(MatchSpec(bots=bots, pairs=3, seed=9, on_illegal="random"), str(out))
        return (out / "records.jsonl").read_text().splitlines()

    one, other = records(bot("illegal"), "greedy"), records("greedy", bot("illegal"))
    assert one == [other[i ^ 1] for i in range(len(other))]


def test_a_bot_that_stops_reading_cannot_hang_the_arena() -> None:
    from ginref.arena.botproto import Subprocess
    from ginref.arena.players import BotFailure
    from ginref.rules import STANDARD

    deaf = Subprocess("deaf", f"{sys.executable} {SCRIPT} deaf", stall_after=0.5)
    try:
        deaf.new_game(("deaf", "other"), "deaf", 1, STANDARD)
        with pytest.raises(BotFailure) as failed:
            for _ in range(100):  # far more than a pipe holds
                deaf.told({"type": "opponent", "player": "other", "move": "x" * 10_000})
        assert failed.value.kind == "stall"
    finally:
        deaf.close()


@pytest.mark.parametrize("mode", ["crash_mid", "illegal", "slow_move"])
def test_forfeited_games_are_records_verify_rules_clean(mode: str, tmp_path: Path) -> None:
    run(mode, tmp_path, recover=True, move_time=0.2)
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "run" / "records.jsonl")])
    assert result.exit_code == 0, result.output
    assert "clean            2" in result.output
