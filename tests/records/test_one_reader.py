"""verify, adjudicate and convert read the same bytes the same way.

Each command reads through ``ginref.records.io``; these cases pin what that buys: the
same records, the same verdicts, the same error text at the same line and column,
from a file or from stdin, in every record form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import format_json, format_jsonl, read_text

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
GOOD = read_text((SAMPLES / "knock-layoffs.gin").read_text())
WRONG = read_text((SAMPLES / "wrong-turn.gin").read_text())
GOOD_LINE, WRONG_LINE = format_jsonl(GOOD), format_jsonl(WRONG)

CASES = {
    "a .gin text of two records": ("gin", (SAMPLES / "knock-layoffs.gin").read_text()
                                   + "\n" + (SAMPLES / "wrong-turn.gin").read_text()),
    "a .gin record with a bad card": ("gin", '[Rules "standard"]\n[Players "Ann" "Bo"]\n[Dealer "Bo"]\n'
                                      '[Deal "Ann" "3C 4X"]\n'),
    "JSON Lines with a bad line": ("jsonl", "\n".join([GOOD_LINE, '{"rules": "standard", "players": [1',
                                                       WRONG_LINE, '{"rules": []}']) + "\n"),
    "a pretty JSON record": ("json", format_json(GOOD)),
    "a JSON list with a bad item": ("json", "[\n" + ",\n".join([GOOD_LINE, '{"rules": "standard"}',
                                                               WRONG_LINE]) + "\n]\n"),
    "bad JSON": ("json", '{"rules": "standard",\n  "players": ["Ann" "Bo"]}\n'),
}
SUFFIX = {"gin": ".gin", "json": ".json", "jsonl": ".jsonl"}
WHERE = re.compile(r"^(?P<source>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?:unreadable: )?(?P<message>.*)$")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def errors_in(text: str, *, marker: str = "") -> list[tuple[str, int, int, str]]:
    """(source, line, column, message) of each error line holding ``marker``."""
    found = []
    for raw in text.splitlines():
        if marker not in raw:
            continue
        match = WHERE.match(raw.removeprefix("Error: "))
        assert match is not None, raw
        found.append((match["source"], int(match["line"]), int(match["column"] or 0), match["message"]))
    return found


def through_each_command(path: str, stdin: str | None) -> dict[str, object]:
    _, verify_out, _ = run("verify", path, "--jsonl", "--jobs", "1", stdin=stdin)
    verify_results = [json.loads(line) for line in verify_out.splitlines()]
    _, verify_text, _ = run("verify", path, "--jobs", "1", stdin=stdin)
    _, adjudicate_out, adjudicate_err = run("adjudicate", path, "--json", stdin=stdin)
    _, convert_out, convert_err = run("convert", path, "--to", "jsonl", stdin=stdin)
    return {
        "verify": verify_results,
        "verify_errors": errors_in(verify_text, marker=": unreadable: "),
        "adjudicate": json.loads(adjudicate_out),
        "adjudicate_errors": errors_in(adjudicate_err),
        "convert_errors": errors_in(convert_err),
        "converted": len(convert_out.splitlines()),
    }


@pytest.mark.parametrize("case", list(CASES))
def test_every_command_reads_the_same_bytes_the_same_way(case: str, tmp_path: Path) -> None:
    form, text = CASES[case]
    path = tmp_path / f"input{SUFFIX[form]}"
    path.write_text(text)
    from_file = through_each_command(str(path), None)
    from_stdin = through_each_command("-", text)
    for seen in (from_file, from_stdin):
        verify_results = seen["verify"]
        assert isinstance(verify_results, list)
        unreadable = [r for r in verify_results if r["status"] == "unreadable"]
        readable = [r for r in verify_results if r["status"] != "unreadable"]
        # the same errors, word for word and place for place, from all three commands
        assert seen["verify_errors"] == seen["adjudicate_errors"] == seen["convert_errors"]
        assert len(seen["verify_errors"]) == len(unreadable)  # type: ignore[arg-type]
        # the same records: verify's verdicts are adjudicate's, and convert wrote each one
        assert [r["status"] for r in verify_results] == [
            "unreadable" if "error" in r else ("clean" if r["clean"] else "findings")
            for r in seen["adjudicate"]  # type: ignore[attr-defined]
        ]
        assert seen["converted"] == len(readable)
    # stdin reads like the file, named <stdin>
    assert [r["status"] for r in from_stdin["verify"]] == [r["status"] for r in from_file["verify"]]  # type: ignore[attr-defined]
    file_errors = [(line, column, message) for _, line, column, message in from_file["verify_errors"]]  # type: ignore[attr-defined]
    stdin_errors = from_stdin["verify_errors"]
    assert [(line, column, message) for _, line, column, message in stdin_errors] == file_errors  # type: ignore[attr-defined]
    assert all(source == "<stdin>" for source, *_ in stdin_errors)  # type: ignore[attr-defined]


def test_a_json_list_written_by_convert_verifies(tmp_path: Path) -> None:
    """``convert a.jsonl -o both.json`` writes a JSON list: every command reads it back."""
    source = tmp_path / "a.jsonl"
    source.write_text(GOOD_LINE + "\n" + WRONG_LINE + "\n")
    assert run("convert", str(source), "-o", str(tmp_path / "both.json"))[0] == 0
    code, out, _ = run("verify", str(tmp_path / "both.json"), "--jsonl")
    assert code == 1 and [json.loads(line)["status"] for line in out.splitlines()] == ["clean", "findings"]
    code, out, _ = run("adjudicate", str(tmp_path / "both.json"), "--json")
    assert code == 1 and len(json.loads(out)) == 2


def test_pretty_json_on_stdin_is_one_record() -> None:
    code, pretty, _ = run("convert", str(SAMPLES / "knock-layoffs.gin"), "--to", "json")
    assert code == 0 and pretty.count("\n") > 10
    code, out, _ = run("verify", "-", "--json", stdin=pretty)
    assert code == 0
    assert json.loads(out)["summary"]["records"] == 1


def test_a_folder_reads_ndjson_and_names_what_it_skips(tmp_path: Path) -> None:
    (tmp_path / "games.ndjson").write_text(GOOD_LINE + "\n")
    (tmp_path / "notes.txt").write_text("not records")
    code, out, err = run("verify", str(tmp_path), "--jsonl")
    assert code == 0 and len(out.splitlines()) == 1
    assert "skipped 1 file(s)" in err and "notes.txt" in err


def test_a_folder_with_no_records_never_looks_clean(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not records")
    code, _, err = run("verify", str(tmp_path))
    assert code == 3
    assert "no records found" in err
