"""verify's and adjudicate's JSON validate against the schemas the package ships.

Every record form and every kind of result: clean, with findings, unreadable, and
the imported games (OpenSpiel, Kaggle) with unfinished hands.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import format_jsonl
from tests.support.randomplay import random_hand

jsonschema = pytest.importorskip("jsonschema")

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"


def schema(name: str) -> Any:
    text = resources.files("ginref").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1, 3), result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("schemas")
    lines = [format_jsonl(random_hand(i)) for i in range(5)] + ["[" * 40, '{"rules": []}', "\x00"]
    (folder / "mixed.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_verify_report_validates(batch: Path) -> None:
    document = json.loads(run("verify", str(SAMPLES), str(batch), "--json"))
    assert {r["status"] for r in document["records"]} == {"clean", "findings", "unreadable"}
    jsonschema.validate(document, schema("verify"))


def test_each_verify_jsonl_line_validates_as_a_record_of_the_report(batch: Path) -> None:
    lines = run("verify", str(SAMPLES), str(batch), "--jsonl").splitlines()
    assert len(lines) > 300
    jsonschema.validate({"records": [json.loads(line) for line in lines], "summary": json.loads(
        run("verify", str(batch), "--json"))["summary"]}, schema("verify"))


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.gin"))[:40])
def test_adjudicate_validates(name: str) -> None:
    jsonschema.validate(json.loads(run("adjudicate", str(SAMPLES / name), "--json")), schema("adjudicate"))


def test_adjudicate_of_unreadable_records_validates(batch: Path) -> None:
    document = json.loads(run("adjudicate", str(batch / "mixed.jsonl"), "--json"))
    assert len(document) == 8
    jsonschema.validate(document, schema("adjudicate"))


@pytest.mark.parametrize("args", [
    ["3C 4C 5C 9D 9H 9S 6S 7S 8S 2D KH", "--opponent-has", "6C 5S", "--samples", "500"],
    ["3C 4C 5C 9D 9H 9S 6S 7S KD 2D"],  # no knock: an empty list and the reason
    [str(SAMPLES / "knock-layoffs.gin"), "--at", "18", "--samples", "300"],
])
def test_advise_validates(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["advise", *args, "--json"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.stderr
    jsonschema.validate(json.loads(result.stdout), schema("advise"))
