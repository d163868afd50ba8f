"""The package's shape: imports go one way, and each outside library has one home.

Every ``ginref`` module has a layer; a module may import only modules of lower
layers (inside a package, its earlier modules), at the top of the file or inside a
function alike, so no import cycle can exist, hidden or not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ginref"

LAYERS: dict[str, float] = {
    "errors": 0, "jsonwrite": 0.2, "files": 0.5, "stats": 0.6,
    "cards": 1,
    "notation": 2, "grammar": 2.5,
    "rules": 3,
    "melds": 4,
    "layoffs": 5,
    "scoring": 6, "analysis": 6.5,
    "game": 7, "sheets": 7.5,
    "records.model": 7, "records.form": 7.01, "records.lexicon": 7.05, "records.text_grammar": 7.1,
    "records.jsonplace": 7.15,
    "records.text": 7.2, "records.jsonform": 7.2, "records.jsonencode": 7.21, "records.names": 7.25,
    "records.openspiel_actions": 7.25, "records.openspiel": 7.3, "records.eaai": 7.32, "records.rlcard": 7.33,
    "records.kaggle": 7.35, "records.formats": 7.36,
    "records.units": 7.37, "records.decoding": 7.38, "records.io": 7.4, "records": 7.6,
    "referee.findings": 8, "referee.rules_of_play": 8.05, "referee.state": 8.1, "referee.moves": 8.12,
    "referee.deal": 8.13, "referee.knock": 8.15, "referee.hand": 8.18, "referee.replay": 8.2,
    "referee.verdict": 8.4, "referee.seat": 8.42, "referee.table": 8.45, "referee.openspiel_view": 8.46,
    "referee.openspiel_state": 8.47,
    "spiel": 8.48, "openspiel": 8.49,
    "referee.position": 8.5,
    "referee.protocol": 8.55,
    "referee": 8.6,
    "batch.shards": 8.9,
    "batch.results": 9, "batch.tasks": 9.02, "batch.workers": 9.03, "batch.run": 9.04, "batch.cluster": 9.06,
    "batch": 9.08,
    "advice": 9.4, "audit": 9.45, "rulefit": 9.47, "ranking": 9.5,
    "arena.bots": 9.6, "arena.players": 9.62, "arena.botproto": 9.64, "arena.check": 9.65,
    "arena.spielbot": 9.655, "arena.match": 9.66,
    "arena": 9.7,
    "render": 10, "render.tables": 10.05, "render.hands": 10.1, "render.games": 10.1, "render.records": 10.1,
    "render.advice": 10.1, "render.report": 10.1, "render.match": 10.15, "render.html": 10.2, "plot": 10.5,
    "cli.exits": 11, "cli.importing": 11, "cli.options": 11.05, "cli.output": 11.05,
    "cli.hands": 11.1, "cli.games": 11.1, "cli.records": 11.1, "cli.live": 11.1, "cli.match": 11.1,
    "cli.report": 11.15,
    "cli.completing": 11.15,
    "cli.app": 11.2, "cli.process": 11.3, "cli": 11.4, "__init__": 11, "__main__": 12,
}
"""cards -> notation -> melds -> layoffs -> scoring -> game/sheets/records -> referee -> batch;
render and cli are the faces."""

ONLY_IN = {
    "click": {"cli.exits", "cli.options", "cli.output", "cli.hands", "cli.games", "cli.records", "cli.report",
              "cli.completing", "cli.live", "cli.match",
              "cli.app", "cli.process"},
    "tabulate": {"render.tables"},
    "matplotlib": {"plot"},
    "pyparsing": {"grammar", "records.text_grammar", "sheets"},
    "fsspec": {"files"},
    # the typed JSON decoder, and the base of the value types (Structs: docs/verify-speed.md)
    "msgspec": {
        "jsonwrite", "cards", "notation", "rules", "melds", "layoffs", "scoring", "game", "sheets",
        "analysis", "advice", "render.tables",
        "records.model", "records.form", "records.jsonform", "records.lexicon", "records.openspiel",
        "records.kaggle",
        "records.names", "records.eaai", "records.units", "records.decoding", "records.io", "rulefit",
        "referee.findings", "referee.state", "referee.moves", "referee.deal", "referee.knock", "referee.hand",
        "referee.replay", "referee.verdict", "referee.table", "referee.position", "referee.protocol",
        "batch.shards", "batch.results", "batch.tasks", "batch.run", "audit", "ranking", "stats",
        "arena.players", "arena.check", "arena.match",
    },
    "pyspiel": {"spiel"},
    "numpy": {"spiel", "stats"},
    "dask": {"batch.cluster"},
    "scipy": {"stats"},
    "distributed": {"batch.cluster"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, wherever the import statement stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "ginref":
                found.update(f"ginref.{alias.name}" for alias in node.names)
    return found


def test_every_module_has_a_layer() -> None:
    assert set(MODULES) == set(LAYERS), "give each new module a layer in LAYERS"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_go_one_way(name: str) -> None:
    if name in ("__init__", "__main__"):
        return
    for imported in imports(MODULES[name]):
        if not imported.startswith("ginref."):
            continue
        target = imported.removeprefix("ginref.")
        while target not in LAYERS and "." in target:
            target = target.rsplit(".", 1)[0]
        assert LAYERS[target] < LAYERS[name], f"ginref.{name} imports ginref.{target}, a layer above it"


@pytest.mark.parametrize(("library", "homes"), list(ONLY_IN.items()))
def test_each_outside_library_has_its_home(library: str, homes: set[str]) -> None:
    users = {name for name, path in MODULES.items()
             if any(i == library or i.startswith(library + ".") for i in imports(path))}
    assert users <= homes, f"{library} imported by {sorted(users - homes)}"


def test_the_install_ships_every_subpackage() -> None:
    """A package the install leaves out works from a checkout and breaks a real install."""
    import fnmatch
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {"ginref" + "".join("." + p for p in path.parent.relative_to(PACKAGE).parts)
                for path in PACKAGE.rglob("__init__.py")}
    assert all(any(fnmatch.fnmatch(name, pattern) for pattern in include) for name in packages)


def test_the_install_ships_every_data_file() -> None:
    """The meld tables, schemas and py.typed are read at run time: each must match a
    package-data pattern, or a real install would lack it (the tables would be recomputed,
    a schema would be missing)."""
    import fnmatch

    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["ginref"]
    data = [path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts]
    assert "standard_tables.bin" in data
    assert [name for name in data if not any(fnmatch.fnmatch(name, p) for p in patterns)] == []
