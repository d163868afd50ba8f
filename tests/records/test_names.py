"""Who played: --players and --names name the agents behind a research log's seats, in every
command that reads records, in this process and in workers; report --standings then ranks
the agents, not the seats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import GameRecord, read_records
from ginref.records.names import Naming, named, parse_names, renamed
from ginref.referee import adjudicate

ROOT = Path(__file__).resolve().parents[2]
EAAI = ROOT / "samples" / "research" / "eaai-games.txt"
SHEETS = ROOT / "samples" / "research" / "rlcard-sheets.txt"
GREEDY = ROOT / "tests" / "data" / "rlcard" / "greedy-200.txt"


def _records(path: Path) -> list[GameRecord]:
    items = list(read_records(path))
    assert all(isinstance(i, GameRecord) for i in items)
    return items  # type: ignore[return-value]


def test_a_renamed_record_is_ruled_the_same_under_other_names() -> None:
    """Every move, claim, total and the Winner tag follow the players; the verdict is the same
    verdict, its findings the same codes at the same places."""
    for record in _records(EAAI):
        other = renamed(record, {"Player 0": "simple", "Player 1": "keen"})
        assert other.players == ("simple", "keen")
        assert "Player 0" not in repr(other) and "Player 1" not in repr(other)
        before, after = adjudicate(record), adjudicate(other)
        assert [(f.code, f.place) for f in before.findings] == [(f.code, f.place) for f in after.findings]
        assert [h.outcome for h in before.hands] == [h.outcome for h in after.hands]
        assert after.winner == {"Player 0": "simple", "Player 1": "keen"}[before.winner or ""]
        assert dict(other.tags)["Winner"] == after.winner


def test_naming_seats_then_a_map() -> None:
    record = _records(SHEETS)[0]
    assert named(record, Naming()) is record
    assert named(record, Naming(("nora", "sam"))).players == ("nora", "sam")
    assert named(record, Naming(names=(("S", "sam"),))).players == ("N", "sam")
    assert named(record, Naming(("nora", "sam"), (("sam", "Samuel"),))).players == ("nora", "Samuel")


def test_a_names_file() -> None:
    text = "# who played\nPlayer 0 = simple-bot\n\n  Player 1=keen bot   # the new one\n"
    assert parse_names(text) == (("Player 0", "simple-bot"), ("Player 1", "keen bot"))
    for bad, line in (("Player 0 simple\n", 1), ("# x\nA = b\nA = c\n", 3), ("= b\n", 1)):
        with pytest.raises(RecordError) as info:
            parse_names(bad, "names.txt")
        assert info.value.line == line


def test_players_name_the_seats_in_verify_convert_and_adjudicate(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(SHEETS), "--players", "nora", "sam", "--jsonl"])
    assert result.exit_code == 0, result.output
    assert {tuple(json.loads(line)["players"]) for line in result.output.splitlines()} == {("nora", "sam")}
    out = tmp_path / "hands.gin"
    result = CliRunner().invoke(cli, ["convert", str(SHEETS), "--players", "nora", "sam", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert '[Players "nora" "sam"]' in out.read_text() or "[Players nora sam]" in out.read_text()
    result = CliRunner().invoke(cli, ["adjudicate", str(SHEETS), "--players", "nora", "sam", "--json"])
    assert result.exit_code == 0, result.output
    assert {tuple(v["players"]) for v in json.loads(result.output)} == {("nora", "sam")}


def test_names_travel_to_the_workers() -> None:
    """Two files, two workers: each shard carries the names."""
    args = ["verify", str(GREEDY), str(SHEETS), "--players", "nora", "sam", "--jobs", "2", "--jsonl"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == 204 and {tuple(line["players"]) for line in lines} == {("nora", "sam")}


def test_standings_rank_the_agents_of_a_names_map(tmp_path: Path) -> None:
    """Three games, the agents in other seats in the second file: the map names each file's seats."""
    games = EAAI.read_text().split(" wins.\n")[:3]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "games.txt").write_text(games[0] + " wins.\n" + games[2] + " wins.\n")
    (tmp_path / "b" / "games.txt").write_text(games[1] + " wins.\n")
    map_a, map_b = tmp_path / "a.names", tmp_path / "b.names"
    map_a.write_text("Player 0 = simple\nPlayer 1 = keen\n")
    map_b.write_text("Player 0 = keen\nPlayer 1 = simple\n")
    wins: dict[str, int] = {}
    for folder, names in (("a", map_a), ("b", map_b)):
        args = ["report", str(tmp_path / folder), "--names", str(names), "--standings", "--json"]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        for row in json.loads(result.output)["standings"]:
            wins[row["player"]] = wins.get(row["player"], 0) + row["wins"]
    assert wins == {"simple": 2, "keen": 1}  # games won by Player 1, Player 1 and Player 0


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "A", "A"], "the two players need different names"),
    (["--players", "A"], "'--players' requires 2 arguments"),
    (["--names", "missing.names"], "does not exist"),
])
def test_bad_names_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["verify", str(SHEETS), *args])
    assert result.exit_code == 2 and message in result.output


def test_a_bad_names_file_names_its_line(tmp_path: Path) -> None:
    names = tmp_path / "x.names"
    names.write_text("A = b\nnonsense\n")
    result = CliRunner().invoke(cli, ["verify", str(SHEETS), "--names", str(names)])
    assert result.exit_code == 2
    assert f"{names}:2:1: a names line is 'old name = new name'" in result.output
