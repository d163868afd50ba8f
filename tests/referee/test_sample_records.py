"""samples/records: every record in both forms, round trips, the schema, and its findings.

Each sample states what the referee must find in an ``Expect`` tag (every finding
code, errors and advisories); a sample without one must verify with no findings.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ginref.records import (
    GameRecord,
    format_json,
    format_jsonl,
    format_text,
    from_json_dict,
    read_records,
    read_text,
    to_json_dict,
)
from ginref.referee import adjudicate

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
GIN = sorted(SAMPLES.glob("*.gin"))
NAMES = [path.stem for path in GIN]


def read_one(path: Path) -> GameRecord:
    (item,) = read_records(path)
    assert isinstance(item, GameRecord), item
    return item


def expected_codes(record: GameRecord) -> set[str]:
    return set(dict(record.tags).get("Expect", "").split())


@pytest.fixture(scope="module")
def validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("ginref").joinpath("record.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_there_are_enough_samples_in_both_forms() -> None:
    assert len(GIN) >= 20
    assert sorted(SAMPLES.glob("*.json")) == [path.with_suffix(".json") for path in GIN]


@pytest.mark.parametrize("name", NAMES)
def test_both_forms_are_the_same_record(name: str) -> None:
    text_record = read_one(SAMPLES / f"{name}.gin")
    json_path = SAMPLES / f"{name}.json"
    json_record = read_one(json_path)
    assert text_record == json_record
    assert json_path.read_text(encoding="utf-8") == format_json(text_record)
    canonical = format_text(text_record)
    assert read_text(canonical) == text_record
    assert format_text(read_text(canonical)) == canonical
    assert from_json_dict(to_json_dict(text_record)) == text_record


def test_the_json_lines_file_holds_every_sample() -> None:
    lines = (SAMPLES / "all.jsonl").read_text(encoding="utf-8").splitlines()
    records = list(read_records(SAMPLES / "all.jsonl"))
    assert records == [read_one(path) for path in GIN]
    assert lines == [format_jsonl(record) for record in records]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_samples_fit_the_schema(name: str, validator: Any) -> None:
    data = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, errors[0]


def test_generated_records_fit_the_schema(validator: Any) -> None:
    from ginref.rules import PRESET_NAMES
    from tests.support.randomplay import random_game, random_hand

    for rules in PRESET_NAMES:
        for seed in range(8):
            for record in (random_hand(seed, rules), random_game(seed, rules)) if seed < 2 else (
                random_hand(seed, rules),
            ):
                data = json.loads(format_jsonl(record))
                errors = list(validator.iter_errors(data))
                assert not errors, (rules, seed, errors[0])


def test_the_schema_rejects_what_the_reader_rejects(validator: Any) -> None:
    data = json.loads((SAMPLES / "knock-layoffs.json").read_text(encoding="utf-8"))
    data["hands"][0]["events"][1]["dicard"] = "KS"
    assert not validator.is_valid(data)
    data = json.loads((SAMPLES / "knock-layoffs.json").read_text(encoding="utf-8"))
    data["hands"][0]["upcard"] = "9Z"
    assert not validator.is_valid(data)
    data = json.loads((SAMPLES / "knock-layoffs.json").read_text(encoding="utf-8"))
    data["hands"][0]["events"].append({"type": "turn", "player": "Bo", "source": "none"})
    assert not validator.is_valid(data)


@pytest.mark.parametrize("name", NAMES)
def test_samples_produce_exactly_the_expected_findings(name: str) -> None:
    record = read_one(SAMPLES / f"{name}.gin")
    verdict = adjudicate(record)
    expect = expected_codes(record)
    assert set(verdict.codes) == expect, [str(f) for f in verdict.findings]
    errors = {f.code for f in verdict.findings if f.severity == "error"}
    if name.startswith("wrong-"):
        assert errors == expect
    else:
        assert not errors


def test_clean_samples_cover_every_outcome() -> None:
    outcomes: dict[str, set[str]] = {}
    for path in GIN:
        record = read_one(path)
        if expected_codes(record):
            continue
        for hand in adjudicate(record).hands:
            outcomes.setdefault(hand.outcome, set()).add(f"{record.rules}:{hand.end}")
    assert {"knock", "gin", "big_gin", "undercut", "tie", "void"} <= set(outcomes)
    assert "hoyle:knock" in outcomes["big_gin"]
    assert "openspiel:knock" in outcomes["tie"]
    assert "openspiel:knock" in outcomes["knock"]  # the wall knock
    assert "standard:stock" in outcomes["void"]
