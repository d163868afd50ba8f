"""The bot protocol: every line either way validates against ginref/schemas/bot.schema.json
(the documented session and a real match's messages), docs/match.md's transcript is re-run,
the Node.js example plays clean, and Python callables play in process."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginref.arena.match import MatchSpec, run_match
from ginref.cli import cli

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("misbehave.py")
SESSION = ROOT / "samples" / "match" / "session.jsonl"


def validator() -> Any:
    text = resources.files("ginref").joinpath("schemas", "bot.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def test_the_documented_session_and_its_answers_are_valid() -> None:
    check = validator()
    result = CliRunner().invoke(cli, ["bot", "greedy"], input=SESSION.read_text())
    lines = [*SESSION.read_text().splitlines(), *result.stdout.splitlines()]
    assert len(lines) > 15
    for line in lines:
        check.validate(json.loads(line))


def test_every_message_of_a_real_match_is_valid(tmp_path: Path) -> None:
    log = tmp_path / "sent.jsonl"
    spy = f"spy=cmd:{sys.executable} {SCRIPT} log {log}"
    run_match(MatchSpec(bots=(spy, "greedy"), pairs=3, seed=4, unit="game"))
    run_match(MatchSpec(bots=(spy, "greedy"), pairs=1, seed=4, rules="hoyle",  # knobs changed: "set"
                        rule_overrides=(("gin_bonus", "30"),)))
    sent = log.read_text().splitlines()
    kinds = {json.loads(line)["type"] for line in sent}
    assert kinds == {"hello", "new_game", "new_hand", "act", "opponent", "hand_over", "quit"}
    assert any(json.loads(line).get("set") == {"gin_bonus": "30"} for line in sent)
    check = validator()
    for line in sent:
        check.validate(json.loads(line))


def test_the_transcript_in_the_docs_is_real() -> None:
    text = (ROOT / "docs" / "match.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, flags=re.S)
    ran = 0
    for block in blocks:
        command, *expected = block.splitlines()
        words = shlex.split(command.removeprefix("$ "))
        if words[:2] != ["ginref", "bot"]:
            continue
        stdin = (ROOT / words[words.index("<") + 1]).read_text()
        result = CliRunner().invoke(cli, words[1:words.index("<")], input=stdin)
        assert result.stdout.splitlines() == expected
        ran += 1
    assert ran == 1


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_plays_clean(tmp_path: Path) -> None:
    node = f"node=cmd:node {ROOT / 'examples' / 'bot.js'}"
    summary = run_match(MatchSpec(bots=(node, "random"), pairs=5, seed=3), str(tmp_path / "run"))
    assert summary.stopped is None and not summary.tallies[0].failures
    verified = CliRunner().invoke(cli, ["verify", str(tmp_path / "run" / "records.jsonl")])
    assert verified.exit_code == 0


@pytest.mark.parametrize("target", ["tests.match.samplebot:first_legal", "tests.match.samplebot:Last",
                                    "tests.match.samplebot:Plain"])
def test_python_callables_play_in_process(target: str, tmp_path: Path) -> None:
    summary = run_match(MatchSpec(bots=(f"py:{target}", "random"), pairs=4, seed=3), str(tmp_path / "run"))
    assert summary.stopped is None and not summary.tallies[0].failures
    assert sum(summary.tallies[0].pairs) == 4


def test_a_python_bot_that_raises_crashes(tmp_path: Path) -> None:
    summary = run_match(MatchSpec(bots=("py:json:dumps", "random"), pairs=1, seed=3, recover=True))
    assert "crash" in summary.tallies[0].failures["dumps"]
