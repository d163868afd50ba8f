"""A batch reports every record given exactly once, in order, whatever its neighbours hold.

Once one hostile JSON Lines line (1,000 ``[``) stopped ``verify`` with a traceback, and
every record after it went unreported; a file whose name was not UTF-8 stopped a folder.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import format_jsonl
from tests.support.randomplay import random_hand

HOSTILE = [
    "[" * 1000,
    '{"a":' * 3000,
    '{"rules": "standard", "players": ["Ann", "Bo"], "hands": ' + "9" * 5000 + "}",
    '{"rules": "standard", "players": ["\\ud800", "Bo"], "hands": []}',
    '{"rules": [], "players": {}, "hands": "x"}',
    "\x00\x01junk",
    "not json at all",
    '{"rules": "standard"',
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("seed", range(3))
def test_every_line_of_a_corrupted_batch_is_reported_once_in_order(
    tmp_path: Path, seed: int, jobs: str
) -> None:
    rng = random.Random(seed)
    lines, expected = [], []
    for i in range(300):
        if rng.random() < 0.1:
            lines.append(rng.choice(HOSTILE))
            expected.append("unreadable")
        else:
            lines.append(format_jsonl(random_hand(seed * 1000 + i)))
            expected.append("clean")
    path = tmp_path / "batch.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))
    code, out, _ = run("verify", str(path), "--jsonl", "--jobs", jobs)
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["index"] for r in results] == list(range(len(lines)))
    assert [r["line"] for r in results] == list(range(1, len(lines) + 1))
    assert [r["status"] for r in results] == expected
    assert code == 3


def test_a_file_whose_name_is_not_utf8_is_read_and_named(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"caf\xe9.jsonl"), "w") as handle:
        handle.write(format_jsonl(random_hand(1)) + "\n")
    code, out, err = run("verify", str(tmp_path), "--jsonl")
    assert code == 0, err
    (result,) = [json.loads(line) for line in out.splitlines()]
    assert result["status"] == "clean" and result["source"].endswith("caf\ufffd.jsonl")


def test_csv_has_one_row_per_finding_or_unreadable_record(tmp_path: Path) -> None:
    import csv
    import io

    samples = Path(__file__).resolve().parents[2] / "samples" / "records"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(format_jsonl(random_hand(3)) + "\n" + "[" * 50 + "\n")
    code, out, _ = run("verify", str(samples), str(bad), "--csv")
    assert code == 1
    rows = list(csv.DictReader(io.StringIO(out)))
    _, report, _ = run("verify", str(samples), str(bad), "--json")
    records = json.loads(report)["records"]
    findings = sum(len(r.get("findings", [])) for r in records)
    findings += sum(r["status"] == "unreadable" for r in records)
    assert len(rows) == findings > 50
    assert list(rows[0]) == ["source", "index", "record_line", "line", "column", "pointer", "status",
                             "severity", "code", "message"]
    unreadable = [r for r in rows if r["code"] == "unreadable"]
    assert len(unreadable) == 1 and unreadable[0]["source"] == str(bad) and unreadable[0]["line"] == "2"
    assert all(r["line"] or r["pointer"] for r in rows if r["code"] != "unreadable")


def test_csv_json_and_jsonl_go_one_at_a_time() -> None:
    code, _, err = run("verify", "samples/records/gin.gin", "--csv", "--json")
    assert code == 2 and "one of --json, --jsonl and --csv" in err


def test_results_a_worker_packs_read_back_as_they_were(tmp_path: Path) -> None:
    """What a worker hands back (its results packed) reads back as the results it checked: the
    same values, rows, JSON, hash and repr, whichever process made them."""
    from ginref.batch import verify
    from ginref.batch.results import pack_results, unpack_results

    (tmp_path / "hostile.jsonl").write_text("\n".join([*HOSTILE, format_jsonl(random_hand(5))]) + "\n")
    paths = [str(Path(__file__).parents[2] / "samples" / "records"), str(tmp_path)]
    results = list(verify(paths, jobs=1))
    assert any(r.verdict is None for r in results) and any(r.rows for r in results if r.verdict)
    back = unpack_results(pack_results(results))
    assert back == results
    assert list(verify(paths, jobs=2, shard_bytes=1 << 10)) == results  # checked by workers: equal values
    assert [r.rows for r in back] == [r.rows for r in results]
    assert [hash(r) for r in back] == [hash(r) for r in results]
    assert [r.to_dict() for r in back] == [r.to_dict() for r in results]
    assert [repr(r) for r in back] == [repr(r) for r in results]
    hands = [(h.steps, h.system) for r in results if r.verdict for h in r.verdict.hands]
    assert [(h.steps, h.system) for r in back if r.verdict for h in r.verdict.hands] == hands
