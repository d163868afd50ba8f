"""``ginref match``'s options through click's CliRunner: the compliance run, a deal file,
the referee's defence, the page, the JSON summary, disqualification; ``ginref bot``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ginref.arena.match import MatchSpec, run_match
from ginref.cards import card_name
from ginref.cli import cli

SCRIPT = Path(__file__).with_name("misbehave.py")


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_check_passes_a_bundled_bot() -> None:
    code, output = invoke("match", "--check", f"{sys.executable} -m ginref bot simple")
    assert code == 0, output
    assert output.splitlines()[0] == "ok    handshake: ready as 'simple'"
    assert "all 6 steps passed" in output


def test_check_names_what_a_bot_got_wrong() -> None:
    code, output = invoke("match", "--check", f"{sys.executable} {SCRIPT} illegal")
    assert code == 1
    assert "FAIL  move 2 of the hand (discard): 'discard " in output
    assert "(card_not_in_hand)" in output and "1 of 6 steps failed" in output
    code, output = invoke("match", "--check", f"{sys.executable} {SCRIPT} crash_start")
    assert code == 1 and output.startswith("FAIL  handshake: crash")


def test_a_deal_file_gives_the_deals(tmp_path: Path) -> None:
    deck = " ".join(card_name(c) for c in range(52))
    deals = tmp_path / "deals.txt"
    deals.write_text(f"# two deals\n7\n{deck}\n")
    code, output = invoke("match", "greedy", "simple", "--pairs", "2", "--deals", str(deals), "--out",
                          str(tmp_path / "run"))
    assert code == 0, output
    records = [json.loads(line) for line in (tmp_path / "run" / "records.jsonl").read_text().splitlines()]
    assert records[2]["hands"][0]["deal"]["greedy"][:3] == ["AC", "2C", "3C"]
    deals.write_text("7\nAC 2C\n")
    code, output = invoke("match", "greedy", "simple", "--deals", str(deals))
    assert code == 2 and "deals.txt:2: not a deal" in output


def test_auto_defence_leaves_no_missed_layoff(tmp_path: Path) -> None:
    code, output = invoke("match", "greedy", "random", "--pairs", "30", "--auto-defence", "best",
                          "--out", str(tmp_path / "run"))
    assert code == 0, output
    code, output = invoke("verify", str(tmp_path / "run" / "records.jsonl"))
    assert code == 0 and "with advisories  0" in output


def test_html_json_and_standings(tmp_path: Path) -> None:
    page = tmp_path / "match.html"
    code, output = invoke("match", "greedy", "simple", "--pairs", "5", "--html", str(page))
    assert code == 0, output
    assert "standings: 10 games" in output and "duplicate deals: 5 pairs" in output
    assert page.read_text().startswith("<!DOCTYPE html>")
    code, output = invoke("match", "greedy", "simple", "--pairs", "5", "--json")
    document = json.loads(output)
    assert document["pairs_played"] == 5 and sum(document["tallies"][0]["pairs"]) == 5


def test_a_bot_that_keeps_failing_is_disqualified(tmp_path: Path) -> None:
    bad = f"bad=cmd:{sys.executable} {SCRIPT} unknown_word"
    summary = run_match(MatchSpec(bots=(bad, "greedy"), pairs=20, seed=1))
    assert summary.stopped is not None and "bad is disqualified" in summary.stopped
    assert summary.pairs_played == 5  # ten games, every one failed


def test_the_bot_command_answers_the_protocol() -> None:
    lines = [{"type": "hello", "protocol": 1}, {"type": "ping", "id": 9}, {"type": "quit"}]
    code, output = invoke_input(["bot", "random"], "".join(json.dumps(m) + "\n" for m in lines))
    assert code == 0
    assert [json.loads(line) for line in output.splitlines()] == [
        {"type": "ready", "name": "random", "protocol": 1, "options": {}}, {"id": 9, "type": "pong"}]


def invoke_input(args: list[str], text: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, input=text)
    return result.exit_code, result.output


def test_the_rules_are_given_as_every_command_takes_them(tmp_path: Path) -> None:
    """--rules, --set and --rules-file (the shared option): the records name the rule set and
    its changed knobs, a protocol bot is told them as `ginref table`'s `new` takes them, every
    record is ruled clean under them, and --resume keeps them."""
    log = tmp_path / "messages.jsonl"
    out = tmp_path / "run"
    logged = f"logged=cmd:{sys.executable} {SCRIPT} log {log}"
    code, output = invoke("match", "greedy", logged, "--pairs", "3", "--rules", "oklahoma",
                          "--set", "gin_bonus=25", "--set", "undercut_bonus=15", "--out", str(out))
    assert code == 0, output
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert {(r["rules"], tuple(sorted(r["overrides"].items()))) for r in records} == {
        ("oklahoma", (("gin_bonus", "25"), ("undercut_bonus", "15")))}
    told = [json.loads(line) for line in log.read_text().splitlines()]
    games = [m for m in told if m["type"] == "new_game"]
    assert len(games) == 6
    assert {(m["rules"], tuple(sorted(m["set"].items()))) for m in games} == {
        ("oklahoma", (("gin_bonus", "25"), ("undercut_bonus", "15")))}
    code, output = invoke("verify", str(out / "records.jsonl"))
    assert code == 0 and "clean            6" in output, output

    rules_file = tmp_path / "house.toml"
    rules_file.write_text('base = "hoyle"\ngin_bonus = 30\n')
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    for folder, pairs in ((whole, "6"), (stopped, "6")):
        code, output = invoke("match", "greedy", "simple", "--pairs", pairs, "--rules-file", str(rules_file),
                              "--out", str(folder))
        assert code == 0, output
    spec = json.loads((stopped / "run.json").read_text())["spec"]
    assert (spec["rules"], spec["rule_overrides"]) == ("hoyle", [["gin_bonus", "30"]])
    progress = (stopped / "progress.jsonl").read_text().splitlines()
    (stopped / "progress.jsonl").write_text("\n".join(progress[:2]) + "\n")  # as if stopped after two pairs
    code, output = invoke("match", "--resume", str(stopped))
    assert code == 0, output
    assert (stopped / "records.jsonl").read_bytes() == (whole / "records.jsonl").read_bytes()
    first = json.loads((whole / "records.jsonl").read_text().splitlines()[0])
    assert (first["rules"], first["overrides"]) == ("hoyle", {"gin_bonus": "30"})


def test_bad_rules_are_refused_as_every_command_refuses_them(tmp_path: Path) -> None:
    code, output = invoke("match", "greedy", "random", "--set", "gin_bonus=x")
    assert code == 2 and "bad value 'x' for gin_bonus" in output
    code, output = invoke("match", "greedy", "random", "--rules", "nosuch")
    assert code == 2 and "unknown rules" in output
    broken = tmp_path / "broken.toml"
    broken.write_text("gin_bonus = [\n")
    code, output = invoke("match", "greedy", "random", "--rules-file", str(broken))
    assert code == 3, output


def test_without_numpy_a_match_plays_and_says_why_its_figures_are_missing(monkeypatch: Any) -> None:
    """numpy is an extra: the match is played and reported, the standings left out, each
    block saying why; a page of standings cannot be made, and that is said before any game."""
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy raises ImportError
    code, output = invoke("match", "greedy", "simple", "--pairs", "2")
    assert code == 0, output
    assert "Elo     not estimated:" in output and "standings:" not in output
    code, output = invoke("match", "greedy", "simple", "--pairs", "2", "--html", "page.html")
    assert code == 2
    assert output.strip().endswith("--html: the standings need numpy: pip install 'ginref[stats]'")
