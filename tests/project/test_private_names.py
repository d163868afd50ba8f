"""No module of ginref reaches into another's private names: what a module shares it names
without a leading underscore, so that its privates can change without breaking a caller."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ginref"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for each private name of a ginref module that ``source`` imports
    (``from ginref.x import _y``) or reads off a ginref name it imported (``x._y``)."""
    tree = ast.parse(source)
    imported: set[str] = set()
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "ginref":
            for alias in node.names:
                if _private(alias.name):
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "ginref":
                    imported.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in imported):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return sorted(found)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from ginref.audit import _inputs, report", [(1, "ginref.audit._inputs")]),
        ("from ginref.records import jsonform\njsonform._WIRE_DECODER.decode(b'')",
         [(2, "jsonform._WIRE_DECODER")]),
        ("import ginref.batch.run as run\nrun._here", [(2, "run._here")]),
        ("from ginref.audit import report\nfrom ginref import __version__\nself._rows = {}", []),
        ("from collections import _OrderedDictKeysView", []),  # not ginref's
    ],
)
def test_the_check_finds_what_it_looks_for(source: str, found: list[tuple[int, str]]) -> None:
    assert private_uses(source) == found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_another_modules_private_name(path: Path) -> None:
    assert private_uses(path.read_text(encoding="utf-8")) == []
