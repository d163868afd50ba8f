"""`ginref convert`: text <-> JSON without loss, stdin/stdout, unreadable records (exit 3)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import GameRecord, format_jsonl, read_records, read_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "records"
KNOCK = SAMPLES / "knock-layoffs.gin"


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def records(text: str, source: str) -> list[GameRecord]:
    items = list(read_records(io.BytesIO(text.encode("utf-8")), source=source))
    assert all(isinstance(i, GameRecord) for i in items), items
    return items  # type: ignore[return-value]


def test_help() -> None:
    code, out, _ = run("convert", "--help")
    assert code == 0 and "INPUT|-" in out and "--to [gin|json|jsonl|openspiel]" in out


def test_text_to_json_and_back(tmp_path: Path) -> None:
    original = read_text(KNOCK.read_text(encoding="utf-8"))
    out = tmp_path / "hand.json"
    code, stdout, stderr = run("convert", str(KNOCK), "-o", str(out))
    assert (code, stdout, stderr) == (0, "", "")
    assert out.read_text(encoding="utf-8") == (SAMPLES / "knock-layoffs.json").read_text(encoding="utf-8")
    back = tmp_path / "back.gin"
    assert run("convert", str(out), "-o", str(back))[0] == 0
    (record,) = read_records(back)
    assert record == original


def test_default_output_is_the_other_form_on_stdout() -> None:
    code, out, _ = run("convert", str(KNOCK))
    assert code == 0
    assert json.loads(out) == json.loads(format_jsonl(read_text(KNOCK.read_text(encoding="utf-8"))))
    assert out.count("\n") == 1
    code, out, _ = run("convert", str(SAMPLES / "knock-layoffs.json"))
    assert code == 0 and out.startswith('[Event "NOTATION.md worked hand"]\n')


@pytest.mark.parametrize("to", ["gin", "json", "jsonl"])
def test_stdin_is_sniffed(to: str) -> None:
    text = KNOCK.read_text(encoding="utf-8")
    code, out, _ = run("convert", "-", "--to", to, input=text)
    assert code == 0
    (record,) = records(out, f"out.{to}")
    assert record == read_text(text)
    code, again, _ = run("convert", "-", "--to", to, input=format_jsonl(record) + "\n")
    assert code == 0 and again == out


def test_many_records_to_one_json_list_and_back(tmp_path: Path) -> None:
    every = SAMPLES / "all.jsonl"
    as_json = tmp_path / "all.json"
    assert run("convert", str(every), "-o", str(as_json))[0] == 0
    data = json.loads(as_json.read_text(encoding="utf-8"))
    assert isinstance(data, list) and len(data) == len(every.read_text().splitlines())
    as_text = tmp_path / "all.gin"
    assert run("convert", str(as_json), "-o", str(as_text))[0] == 0
    again = tmp_path / "again.jsonl"
    assert run("convert", str(as_text), "-o", str(again))[0] == 0
    assert again.read_text(encoding="utf-8") == every.read_text(encoding="utf-8")


def test_unreadable_records_are_reported_and_the_rest_converted(tmp_path: Path) -> None:
    good = KNOCK.read_text(encoding="utf-8")
    bad = good.replace("Bo draw TD discard KS", "Bo draw TX discard KS")
    source = tmp_path / "mixed.gin"
    source.write_bytes((good + bad + good + '[Rules "x"]\n').encode() + b"\xff junk\n")
    out = tmp_path / "mixed.jsonl"
    code, stdout, stderr = run("convert", str(source), "-o", str(out))
    assert code == 3 and stdout == ""
    bad_line = len(good.splitlines()) + bad.splitlines().index("Bo draw TX discard KS") + 1
    lines = stderr.splitlines()
    assert lines[0] == f"{source}:{bad_line}:9: unknown card 'TX'"
    junk_line = 3 * len(good.splitlines()) + 2
    assert lines[1] == f"{source}:{junk_line}:1: invalid UTF-8 (byte 0xff); records are UTF-8 text"
    assert len(lines) == 2
    converted = out.read_text(encoding="utf-8").splitlines()
    assert len(converted) == 2 and converted[0] == converted[1]


def test_bad_json_line_names_its_place(tmp_path: Path) -> None:
    line = format_jsonl(read_text(KNOCK.read_text(encoding="utf-8")))
    source = tmp_path / "bad.jsonl"
    source.write_text(line + "\n" + line.replace('"9H"', '"9Z"', 1) + "\n", encoding="utf-8")
    code, out, err = run("convert", str(source), "--to", "gin")
    column = line.index('"9H"') + 1
    assert code == 3
    assert err == f"{source}:2:{column}: /hands/0/upcard: unknown card '9Z'\n"
    assert out.count("[Rules") == 1


def test_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    path = tmp_path / "x.gin"
    path.write_text(KNOCK.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run("convert", str(path), "-o", str(path))
    assert code == 2 and "overwrite" in err


def test_unknown_option_is_a_usage_error() -> None:
    code, _, err = run("convert", str(KNOCK), "--to", "xml")
    assert code == 2 and "'xml' is not one of" in err
