"""The docstring examples of the library run, as ``pytest --doctest-modules ginref/`` runs them:
every module whose docstrings hold an example, and at least the ones the docs point to."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ginref"
MODULES = sorted(
    ".".join(("ginref", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
    for p in PACKAGE.rglob("*.py") if ">>>" in p.read_text(encoding="utf-8")
)


def test_the_modules_the_docs_point_to_have_examples() -> None:
    assert {"ginref.referee.table", "ginref.referee.moves", "ginref.referee.deal"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
