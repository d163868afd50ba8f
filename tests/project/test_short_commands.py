"""A command parses its arguments, makes one library call and renders: its module has no
function over :data:`MOST_LINES` lines (docstring and signature included). The modules held
to it are listed; another joins once its commands are cut down as ``report``'s were."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "ginref" / "cli"
MOST_LINES = 60
HELD = ("report.py",)


def long_functions(source: str, most: int = MOST_LINES) -> list[tuple[str, int]]:
    """(name, lines) of each function of ``source`` longer than ``most`` lines."""
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > most]


def test_the_count_takes_the_whole_function() -> None:
    source = "def f(\n    a: int,\n) -> None:\n    '''Doc.'''\n    return None\n"
    assert long_functions(source, 4) == [("f", 5)]
    assert long_functions(source, 5) == []


@pytest.mark.parametrize("name", HELD)
def test_no_function_of_a_held_command_module_is_long(name: str) -> None:
    assert long_functions((CLI / name).read_text(encoding="utf-8")) == []
