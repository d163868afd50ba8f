"""Every command's --json output validates against the JSON Schema the package ships for it."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginref.cli import cli

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "samples" / "sheets"
_spec = importlib.util.spec_from_file_location("schemas_tool", ROOT / "tools" / "schemas.py")
assert _spec is not None and _spec.loader is not None
schemas_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(schemas_tool)

HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
K, D = "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D", "6C 9C 5S JH JC JD 4H AH 8D TD"
LAYOFF = ["layoffs", "--melds", "[4H 5H 6H] [QC QD QS]", "7H 8H 3H QH 2C 2D 2S 9S KD AC"]


def schema(name: str) -> Any:
    """A schema as the installed package ships it (package data, not the source tree)."""
    text = resources.files("ginref").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def output(args: list[str], stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code in (0, 1, 3), result.output
    return result.stdout


CASES = [
    ("analysis", ["analyze", "--json", HAND]),
    ("analysis", ["analyze", "--json", "--all", "5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C"]),
    ("analysis", ["analyze", "--json", "--rules", "oklahoma", "--upcard", "7S", HAND]),
    ("analysis", ["knock", "--json", HAND]),
    ("analysis", ["knock", "--json", "--rules", "hoyle", "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D 2H"]),
    ("score", ["score", "--json", "--knocker", K, "--defender", D]),
    ("score", ["score", "--json", "--knocker", K, "--defender", D, "--names", "Ann", "Bo"]),
    ("score", ["score", "--json", "--knocker", K, "--defender", D, "--melds", "[4H 5H 6H] [QC QD QS]"]),
    ("score", ["score", "--json", "--rules", "hoyle", "--knocker", "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D 2H",
               "--defender", D]),
    ("layoffs", [*LAYOFF, "--json"]),
    ("rules", ["rules", "oklahoma", "--json"]),
    ("rules", ["rules", "standard", "--set", "big_gin_bonus=31", "--json"]),
    ("rules-list", ["rules", "--json"]),
    ("rules-fit", ["rules", "--fit", str(ROOT / "samples" / "research" / "eaai-games.txt"), "--json"]),
    ("game", ["game", str(SHEETS / "standard-worked.sheet"), "--json"]),
    ("game", ["game", str(SHEETS / "tallynight.sheet"), "--json", "--chart"]),
    ("game", ["game", str(SHEETS / "hollywood.sheet"), "--json", "--chart"]),
]


@pytest.mark.parametrize(("name", "args"), CASES,
                         ids=lambda v: " ".join(v)[:50] if isinstance(v, list) else v)
def test_json_output_validates(name: str, args: list[str]) -> None:
    jsonschema.validate(json.loads(output(args)), schema(name))


def test_game_with_bad_lines_validates() -> None:
    sheet = "players: Ann Bo\nAnn knock 6 15\nCy wins 3\n"
    document = json.loads(output(["game", "-", "--json", "--keep-going"], stdin=sheet))
    assert document["errors"]
    jsonschema.validate(document, schema("game"))


def test_every_line_of_an_analyze_stream_validates() -> None:
    stdin = f"{HAND}\n3C 4C 7X\n{HAND} 8S\n"
    lines = CliRunner().invoke(cli, ["analyze", "-", "--json"], input=stdin).stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        jsonschema.validate(json.loads(line), schema("analysis-line"))


@pytest.mark.parametrize(
    ("name", "document"),
    [
        ("analysis", {"cards": ["3C"], "rules": "standard"}),
        ("score", {"outcome": "knock"}),
        ("game", {"players": ["Ann", "Bo"]}),
        ("rules", {"name": "standard"}),
    ],
)
def test_the_schemas_refuse_what_ginref_never_writes(name: str, document: object) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema(name))


@pytest.mark.parametrize("name", sorted(schemas_tool.texts()))
def test_each_schema_is_valid_and_up_to_date(name: str) -> None:
    shipped = resources.files("ginref").joinpath("schemas", name).read_text(encoding="utf-8")
    assert shipped == schemas_tool.texts()[name], "stale: run python tools/schemas.py"
    jsonschema.Draft202012Validator.check_schema(json.loads(shipped))
