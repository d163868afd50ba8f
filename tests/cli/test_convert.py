"""`ginref convert`: text <-> JSON without loss, stdin/stdout, unreadable records (exit 3)."""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import GameRecord, format_jsonl, read_records, read_text

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"
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
    assert code == 0 and out.startswith('[Event "the worked knock"]\n')


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


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    yield
    os.umask(old)


@pytest.mark.usefixtures("umask_027")
def test_a_new_output_file_gets_the_umask_permissions_not_a_temporary_files(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    code, _, err = run("convert", str(KNOCK), "-o", str(out))
    assert (code, err) == (0, "")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


@pytest.mark.usefixtures("umask_027")
def test_a_replaced_output_file_keeps_its_permissions(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o604)
    code, _, err = run("convert", str(KNOCK), "-o", str(out))
    assert (code, err) == (0, "") and out.read_text(encoding="utf-8") != "old"
    assert stat.S_IMODE(out.stat().st_mode) == 0o604


def test_unknown_option_is_a_usage_error() -> None:
    code, _, err = run("convert", str(KNOCK), "--to", "xml")
    assert code == 2 and "'xml' is not one of" in err


# -- --to openspiel of a record under other rules (issue 25) ------------------------------------

TIE_OPENSPIEL = SAMPLES / "tie-openspiel.gin"


def test_other_rules_are_refused_with_a_whole_sentence_and_exit_2() -> None:
    """Once exit 3 (unreadable) and a message cut with "...": the record reads well; what
    cannot be done is the request. The sentence names the knob, both values and the way on."""
    code, out, err = run("convert", str(KNOCK), "--to", "openspiel")
    assert (code, out) == (2, "")
    assert err == (f"{KNOCK}:7: OpenSpiel plays tie_policy=no_score where the record's standard rules have "
                   "undercut (and 10 more); re-rule it with --override-rules --rules openspiel\n")


def test_override_rules_writes_the_moves_for_openspiel_to_replay() -> None:
    """The way on that the refusal names: the history OpenSpiel replays to Ann's knock, 21."""
    reruled = ("--override-rules", "--rules", "openspiel")
    code, history, err = run("convert", str(KNOCK), "--to", "openspiel", *reruled)
    assert (code, err) == (0, "")
    (record,) = records(history, "x.txt")
    assert (record.rules, record.overrides) == ("openspiel", ())
    claim = record.hands[0].result
    assert claim is not None and (claim.outcome, claim.winner, claim.points) == ("knock", "P0", 21)  # P0: Ann
    assert run("verify", "-", input=history)[0] == 0


def test_override_rules_re_rules_every_form() -> None:
    code, text, _ = run("convert", str(KNOCK), "--to", "gin", "--override-rules", "--rules", "hoyle",
                        "--set", "gin_bonus=30")
    (record,) = records(text, "x.gin")
    assert code == 0 and (record.rules, record.overrides) == ("hoyle", (("gin_bonus", "30"),))
    assert record.hands == read_text(KNOCK.read_text(encoding="utf-8")).hands


def test_rules_without_override_rules_change_nothing() -> None:
    code, _, err = run("convert", str(KNOCK), "--to", "openspiel", "--rules", "openspiel")
    assert code == 2 and err.startswith("note: each record is ruled under the rules it names")


@pytest.mark.parametrize(("extra", "code"), [
    ("", 2),  # only a record OpenSpiel cannot express: 2
    ('[Rules "standard"]\n[Players "Ann" "Bo"]\n[Dealer "Bo"]\n[Deal "Ann" "3C 4X"]\n', 3),  # unreadable wins
])
def test_the_expressible_records_are_written_and_the_exit_code_says_why_not_all(
    tmp_path: Path, extra: str, code: int
) -> None:
    source = tmp_path / "mixed.gin"
    source.write_text("\n".join(p.read_text(encoding="utf-8") for p in (TIE_OPENSPIEL, KNOCK)) + "\n" + extra)
    out = tmp_path / "out.txt"
    got, _, err = run("convert", str(source), "--to", "openspiel", "-o", str(out))
    assert got == code and len(err.splitlines()) == 1 + bool(extra)
    assert out.read_text() == run("convert", str(TIE_OPENSPIEL), "--to", "openspiel")[1]
