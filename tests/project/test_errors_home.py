"""Every public exception lives in ``ginref/errors.py``, or docs/architecture.md names it where it
lives and says why (its ``errors.py`` row)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import ginref
import ginref.errors

ROOT = Path(__file__).resolve().parents[2]


def exceptions_defined() -> dict[str, str]:
    """Every exception class a ginref module defines under a public name: name -> module. A
    module whose extra is not installed is left out (spiel.py needs pyspiel)."""
    found = {}
    for info in pkgutil.walk_packages(ginref.__path__, "ginref."):
        if info.name == "ginref.__main__":  # runs the command line
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for name, value in vars(module).items():
            if (isinstance(value, type) and issubclass(value, BaseException) and not name.startswith("_")
                    and value.__module__ == info.name):
                found[name] = info.name
    return found


def errors_row() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith("| `errors.py` |"))


def test_every_exception_lives_in_errors_or_the_docs_say_where_and_why() -> None:
    row = errors_row()
    elsewhere = {name: module for name, module in exceptions_defined().items() if module != "ginref.errors"}
    assert elsewhere, "the walk found no module"
    for name, module in sorted(elsewhere.items()):
        path = module.removeprefix("ginref.").replace(".", "/") + ".py"
        assert f"`{name}`" in row and f"`{path}`" in row, f"{name} ({path}): not in errors.py nor named"


def test_the_docs_name_no_exception_that_errors_py_does_not_hold_or_that_is_gone() -> None:
    row = errors_row()
    defined = exceptions_defined()
    for name in ("GameError", "StatsError", "PlotError", "MatchError", "IllegalAction"):
        assert f"`{name}`" in row and defined.get(name) == "ginref.errors"
