"""The command line, timed as subprocesses: ``ginref analyze -`` throughput and start-up.

Every command runs with the interpreter that runs the benchmark: the
``ginref`` console script next to ``sys.executable`` when there is one, else
``sys.executable -m ginref``.
"""

from __future__ import annotations

import json
import os
import statistics
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
    """The environment minus anything that would change ginref's answers or output, or its
    start-up: with ``PYTHONDONTWRITEBYTECODE`` an editable install never keeps its bytecode,
    and every command would compile ginref from source (0.05 to 0.1 s) where a user's
    installed copy does not."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GINREF_") and k != "PYTHONDONTWRITEBYTECODE"}
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
    """``ginref analyze HAND`` (text and ``--json``) against ``python -c "import click"``, run
    in turn; CPU is user+sys of the process, and each ratio is of the medians, with the range
    of the ratios round by round."""

    ginref_seconds: list[float]
    click_seconds: list[float]
    ginref_median: float
    click_median: float
    ratio: float
    ginref_command: str
    click_command: str
    problems: list[str]
    ginref_cpu: list[float]
    text_cpu: list[float]
    click_cpu: list[float]
    cpu_ratio: float
    """``--json`` against click, CPU: the figure the start-up target judges, beside ``text_cpu_ratio``"""
    text_cpu_ratio: float
    cpu_ratio_range: tuple[float, float]
    text_cpu_ratio_range: tuple[float, float]
    text_command: str
    text_seconds: list[float]


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


def _ratios(ours: list[float], theirs: list[float]) -> tuple[float, tuple[float, float]]:
    """The ratio of the medians, and the least and greatest ratio of one round's runs."""
    rounds = [a / b for a, b in zip(ours, theirs, strict=True) if b > 0]
    return statistics.median(ours) / statistics.median(theirs), (min(rounds), max(rounds))


def startup(rounds: int) -> Startup:
    """``ginref analyze HAND`` and ``ginref analyze HAND --json`` against ``python -c "import
    click"``, interleaved: a one-hand command should cost little more than click's own import."""
    env = child_env()
    argv = (*ginref_argv(), "analyze", STARTUP_HAND)
    mine = Command("analyze HAND --json", (*argv, "--json"), env=env)
    text = Command("analyze HAND", argv, env=env)
    click = Command("import click", (sys.executable, "-c", "import click"), env=env)
    ours, as_text, theirs = time_commands([mine, text, click], rounds)
    problems = _problems(ours) + _problems(as_text) + _problems(theirs)
    cpu_ratio, cpu_range = _ratios(ours.cpu, theirs.cpu)
    text_ratio, text_range = _ratios(as_text.cpu, theirs.cpu)
    return Startup(
        ours.seconds,
        theirs.seconds,
        ours.median,
        theirs.median,
        ours.median / theirs.median,
        " ".join(mine.argv),
        " ".join(click.argv),
        problems,
        ginref_cpu=ours.cpu,
        text_cpu=as_text.cpu,
        click_cpu=theirs.cpu,
        cpu_ratio=cpu_ratio,
        text_cpu_ratio=text_ratio,
        cpu_ratio_range=cpu_range,
        text_cpu_ratio_range=text_range,
        text_command=" ".join(text.argv),
        text_seconds=as_text.seconds,
    )


CLICK_LABEL = 'python -c "import click"'


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.1f} ms ({min(values) * 1000:.1f}-{max(values) * 1000:.1f})"


def startup_lines(result: Startup) -> list[str]:
    """The start-up figures for a console: CPU and wall medians with their ranges, and the ratios."""

    def row(name: str, cpu: list[float], wall: list[float], ratio: str) -> str:
        return f"{name:28} {_spread(cpu):26} {_spread(wall):26} {ratio}"

    def ratio(median: float, spread: tuple[float, float]) -> str:
        return f"{median:.2f}x ({spread[0]:.2f}-{spread[1]:.2f})"

    return [
        f"{'command':28} {'CPU (user+sys)':26} {'wall':26} CPU ratio to click",
        row("ginref analyze HAND", result.text_cpu, result.text_seconds,
            ratio(result.text_cpu_ratio, result.text_cpu_ratio_range)),
        row("ginref analyze HAND --json", result.ginref_cpu, result.ginref_seconds,
            ratio(result.cpu_ratio, result.cpu_ratio_range)),
        row(CLICK_LABEL, result.click_cpu, result.click_seconds, "1x"),
    ]


def main() -> int:
    """``python benchmarks/commands.py [RUNS]``: the start-up figures alone."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    result = startup(runs)
    print(f"start-up, {runs} interleaved runs each, median (range):")
    print("\n".join(startup_lines(result)))
    for problem in result.problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if result.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
