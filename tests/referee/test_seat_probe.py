"""``ginref table``'s trust boundary, probed from outside: tools/seat_probe.py, a client that knows
only the protocol, runs as a real process against a real referee process.

A seat's answers must never tell it a hidden card (the opponent's hand, the stock's order),
whether its request is legal or not; ``new``, ``next_hand`` and ``pop`` are the operator's;
a refusal changes nothing; no line stops the session (docs/live.md, "Probing the trust
boundary"). The probe is first shown to find what tests/support/leaky_referee.py plants (a
hidden card named in a message, or only in its spacing, which the twin deal must see; a view
that shows a stock card; a refusal that takes a move back); then it is run on ginref itself:
a small seeded slice here, 1,000 games under ``-m slow``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / "tools" / "seat_probe.py"
LEAKY = ROOT / "tests" / "support" / "leaky_referee.py"
GINREF = f"{shlex.quote(sys.executable)} -m ginref table"
SUMMARY = re.compile(
    r"seat_probe: (?P<games>\d+) games, (?P<hands>\d+) hands, "
    r"(?P<requests>\d+) requests \((?P<seat>\d+) from seats\), "
    r"(?P<refusals>\d+) refusals, (?P<knocks>\d+) knocks, (?P<layoffs>\d+) layoffs, (?P<twins>\d+) twins "
    r"\((?P<compared>\d+) requests compared, (?P<skipped>\d+) not replayable\), (?P<leaks>\d+) leaks")


def probe(*args: str, command: str = GINREF, timeout: float = 120) -> tuple[int, dict[str, int], str]:
    """The probe's exit status, its summary's counts, and its output."""
    env = {k: v for k, v in os.environ.items() if k not in ("GINREF_DEBUG", "GINREF_RULES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run([sys.executable, str(PROBE), "--command", command, *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=timeout)
    assert not done.stderr, done.stderr[-2000:]
    found = SUMMARY.search(done.stdout)
    assert found, done.stdout[-2000:]
    return done.returncode, {k: int(v) for k, v in found.groupdict().items()}, done.stdout


def leaks(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- the probe finds what it is for --------------------------------------------------------------


def test_the_probe_finds_a_hidden_card_a_refusal_names(tmp_path: Path) -> None:
    found = tmp_path / "leaks.jsonl"
    leaky = f"{shlex.quote(sys.executable)} {shlex.quote(str(LEAKY))} --leak card"
    status, counts, out = probe("--games", "1", "--hands", "1", "--seed", "5", "--no-cases", "--no-twin",
                                "--leaks", str(found), command=leaky)
    assert status == 1 and counts["leaks"] > 0
    planted = [leak for leak in leaks(found) if "the stock ends with" in leak["answer"]]
    assert planted and {leak["kind"] for leak in planted} <= {"hidden_card", "placement", "twin"}
    assert any(leak["kind"] == "hidden_card" for leak in planted), out[-2000:]


def test_the_twin_deal_finds_an_answer_that_only_varies_with_a_hidden_card(tmp_path: Path) -> None:
    found = tmp_path / "leaks.jsonl"
    leaky = f"{shlex.quote(sys.executable)} {shlex.quote(str(LEAKY))} --leak spacing"
    status, counts, out = probe("--games", "2", "--hands", "1", "--seed", "5", "--no-cases",
                                "--leaks", str(found), command=leaky)
    assert status == 1 and counts["twins"] > 0 and counts["compared"] > 0
    spaced = []
    for leak in leaks(found):
        if leak["kind"] == "twin":
            ours, twin = json.loads(leak["answer"]), json.loads(leak["twin"])
            if ours.get("message", "").rstrip() == twin.get("message", "").rstrip() != ours.get("message"):
                spaced.append(leak)
    assert spaced, out[-2000:]


@pytest.mark.parametrize(("leak", "kind"), [("view", "view"), ("undo", "changed")])
def test_the_probe_finds_a_view_that_shows_too_much_and_a_refusal_that_changes_the_table(
        leak: str, kind: str, tmp_path: Path) -> None:
    found = tmp_path / "leaks.jsonl"
    leaky = f"{shlex.quote(sys.executable)} {shlex.quote(str(LEAKY))} --leak {leak}"
    status, counts, out = probe("--games", "1", "--hands", "1", "--seed", "5", "--no-cases", "--no-twin",
                                "--leaks", str(found), command=leaky)
    assert status == 1 and counts["leaks"] > 0
    assert any(row["kind"] == kind for row in leaks(found)), out[-2000:]


# -- ginref's own table --------------------------------------------------------------------------


def test_no_answer_to_a_seat_tells_a_hidden_card() -> None:
    status, counts, out = probe("--games", "4", "--seed", "2026", "--no-cases", "--max-leaks", "20")
    assert counts["games"] == 4 and counts["refusals"] > 300 and counts["compared"] > 500, out
    assert counts["skipped"] == 0, out
    assert (status, counts["leaks"]) == (0, 0), out[-4000:]


def test_deep_nesting_and_a_long_name_leave_the_session_running() -> None:
    """988 nested brackets (once: exit 70, "internal error: RecursionError"), and a player name
    over 80 characters whose hand ends (once: exit 2)."""
    status, counts, out = probe("--games", "0")
    assert (status, counts["leaks"]) == (0, 0), out[-4000:]


@pytest.mark.slow
def test_a_thousand_games_tell_no_seat_a_hidden_card() -> None:
    status, counts, out = probe("--games", "1000", "--hands", "1", "--seed", "1", "--max-leaks", "50",
                                timeout=1800)
    assert counts["games"] == 1000 and counts["skipped"] == 0, out[-4000:]
    assert (status, counts["leaks"]) == (0, 0), out[-4000:]
