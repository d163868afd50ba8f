"""The command line, timed as subprocesses: ``ginref analyze -`` throughput and start-up.

Every command runs with the interpreter that runs the benchmark: the
``ginref`` console script next to ``sys.executable`` when there is one, else
``sys.executable -m ginref``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hands import Hand, hand_lines
from timing import Command, CommandTiming, time_commands

from ginref.cards import mask_of
from ginref.melds import min_deadwood

STARTUP_HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"


def ginref_argv() -> tuple[str, ...]:
    script = Path(sys.executable).parent / "ginref"
    if script.is_file() and os.access(script, os.X_OK):
        return (str(script),)
    return (sys.executable, "-m", "ginref")


def child_env() -> dict[str, str]:
    """The environment minus anything that would change ginref's answers or output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GINREF_")}
    env["NO_COLOR"] = "1"
    return env


@dataclass(frozen=True)
class Throughput:
    name: str
    items: int
    seconds: list[float]
    median: float
    rate: float
    problems: list[str]


@dataclass(frozen=True)
class Startup:
    ginref_seconds: list[float]
    click_seconds: list[float]
    ginref_median: float
    click_median: float
    ratio: float
    ginref_command: str
    click_command: str
    problems: list[str]


def _check_analyze_json(output: bytes, hands: Sequence[Hand]) -> list[str]:
    """Every line answered, with the library's least deadwood."""
    lines = output.decode().splitlines()
    if len(lines) != len(hands):
        return [f"analyze --json printed {len(lines)} lines for {len(hands)} hands"]
    wrong = 0
    for line, hand in zip(lines, hands, strict=True):
        if json.loads(line).get("deadwood_points") != min_deadwood(mask_of(hand)):
            wrong += 1
    return [f"analyze --json disagrees with ginref.melds on {wrong} hands"] if wrong else []


def _check_analyze_text(output: bytes, hands: Sequence[Hand]) -> list[str]:
    """One ``line N:`` block per hand."""
    blocks = sum(
        1 for line in output.decode().splitlines() if line.startswith("line ") and line.endswith(":")
    )
    if blocks != len(hands):
        return [f"analyze printed {blocks} answers for {len(hands)} hands"]
    return []


def _problems(timing: CommandTiming) -> list[str]:
    if timing.returncodes - {0}:
        tail = timing.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return [f"{timing.command.name} exited {sorted(timing.returncodes)}: {tail[0]}"]
    return []


def analyze_throughput(hands: Sequence[Hand], rounds: int) -> list[Throughput]:
    """``ginref analyze -`` over ``hands`` piped as text lines, text and ``--json``, interleaved."""
    stdin = hand_lines(hands).encode()
    env = child_env()
    argv = (*ginref_argv(), "analyze", "-")
    commands = [
        Command("analyze - (text)", argv, stdin, env),
        Command("analyze - --json", (*argv, "--json"), stdin, env),
    ]
    checks = [
        _check_analyze_text(commands[0].run(capture=True).stdout, hands),
        _check_analyze_json(commands[1].run(capture=True).stdout, hands),
    ]
    results = []
    for timing, check in zip(time_commands(commands, rounds), checks, strict=True):
        median = timing.median
        problems = check + _problems(timing)
        results.append(
            Throughput(timing.command.name, len(hands), timing.seconds, median, len(hands) / median, problems)
        )
    return results


def startup(rounds: int) -> Startup:
    """``ginref analyze HAND --json`` against ``python -c "import click"``, interleaved."""
    env = child_env()
    mine = Command("analyze HAND --json", (*ginref_argv(), "analyze", STARTUP_HAND, "--json"), env=env)
    click = Command("import click", (sys.executable, "-c", "import click"), env=env)
    ours, theirs = time_commands([mine, click], rounds)
    problems = _problems(ours) + _problems(theirs)
    return Startup(
        ours.seconds,
        theirs.seconds,
        ours.median,
        theirs.median,
        ours.median / theirs.median,
        " ".join(mine.argv),
        " ".join(click.argv),
        problems,
    )
