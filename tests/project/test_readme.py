"""The README's transcripts are real: every `$ ginref ...` block is run and compared."""

from __future__ import annotations

import doctest
import importlib.util
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def transcripts() -> list[tuple[str, str]]:
    cases = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        command = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    cases.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            cases.append((command, "\n".join(output)))
    return cases


@pytest.mark.parametrize(("command", "expected"), transcripts(), ids=lambda v: v[:40])
def test_readme_transcript(command: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    words = shlex.split(command)
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = (ROOT / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at]
    assert words[0] == "ginref"
    result = CliRunner().invoke(cli, words[1:], input=stdin, catch_exceptions=False)
    if expected.endswith("\n..."):  # a transcript that shows how the output starts
        head = expected.removesuffix("...")
        assert result.stdout.startswith(head) and len(result.stdout) > len(head)
        return
    assert result.stdout.rstrip("\n") == expected.rstrip("\n")


def test_readme_has_transcripts() -> None:
    assert len(transcripts()) >= 4


EXTRAS = ("pyspiel", "open_spiel", "shimmy", "pettingzoo")
"""modules of the extras (openspiel, pettingzoo) that some README examples use"""


def _runnable(block: str) -> bool:
    """A block runs unless it uses an extra's module that is not installed (``pip install '.[test]'``
    alone must pass; CI installs the extras and runs every block)."""
    return all(importlib.util.find_spec(name) is not None for name in EXTRAS if name in block)


def test_readme_python_examples() -> None:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README, flags=re.S) if _runnable(b)]
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
