"""A file that cannot be read as records at all is one error that says what it is.

``verify kaggle-episode.json --from openspiel`` once printed 839 "unreadable" lines, one
a line of the file; a UTF-16 file was "invalid UTF-8 (byte 0xff)" and then a NUL byte on
every line. Each is now one unreadable record naming what the file looks like, read by
one process or by many alike. And ``convert --to openspiel`` says the game it drops.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.batch import verify
from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import read_records

ROOT = Path(__file__).resolve().parents[2]
RESEARCH = ROOT / "samples" / "research"
RECORDS = ROOT / "samples" / "records"

WRONG_FORMS = [  # (file, --from, what it looks like, what it is not)
    (RESEARCH / "kaggle-episode.json", "openspiel", "a Kaggle episode", "OpenSpiel action histories"),
    (RESEARCH / "kaggle-episode.json", "jsonl", "a Kaggle episode", "JSON Lines records"),
    (RESEARCH / "kaggle-episode.json", "gin", "a Kaggle episode", "ginref text records"),
    (RECORDS / "gin.gin", "jsonl", "ginref text records", "JSON Lines records"),
    (RECORDS / "gin.gin", "openspiel", "ginref text records", "OpenSpiel action histories"),
    (RECORDS / "gin.gin", "json", "ginref text records", "a JSON document"),
    (RECORDS / "gin.gin", "kaggle", "ginref text records", "a Kaggle episode"),
    (RECORDS / "all.jsonl", "gin", "JSON Lines records", "ginref text records"),
    (RECORDS / "all.jsonl", "openspiel", "JSON Lines records", "OpenSpiel action histories"),
    (RECORDS / "gin.json", "openspiel", "a JSON document", "OpenSpiel action histories"),
    (RECORDS / "gin.json", "jsonl", "a JSON document", "JSON Lines records"),
    (RESEARCH / "openspiel-histories.txt", "gin", "OpenSpiel action histories", "ginref text records"),
    (RESEARCH / "openspiel-histories.txt", "json", "OpenSpiel action histories", "a JSON document"),
    (RESEARCH / "openspiel-histories.txt", "kaggle", "OpenSpiel action histories", "a Kaggle episode"),
    (RESEARCH / "openspiel-state.txt", "jsonl", "an OpenSpiel serialised state", "JSON Lines records"),
    (RESEARCH / "openspiel-state.txt", "gin", "an OpenSpiel serialised state", "ginref text records"),
]


@pytest.mark.parametrize(("path", "form", "looks", "not_"), WRONG_FORMS,
                         ids=[f"{p.name}-as-{f}" for p, f, _, _ in WRONG_FORMS])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_wrong_from_is_said_once_naming_what_the_file_looks_like(
    path: Path, form: str, looks: str, not_: str, jobs: str
) -> None:
    run = CliRunner().invoke(cli, ["verify", str(path), "--from", form, "--jobs", jobs])
    unreadable = [line for line in run.output.splitlines() if ": unreadable: " in line]
    assert unreadable == [f"{path}:{_first_line(path)}:1: unreadable: this looks like {looks}, not {not_} "
                          f"(the form it is read as: {form}); read it as what it is"]
    assert run.exit_code == 3


def _first_line(path: Path) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip())


RIGHT_FORMS = [
    (RESEARCH / "kaggle-episode.json", "kaggle"), (RESEARCH / "kaggle-episode.json", "json"),
    (RESEARCH / "openspiel-histories.txt", "openspiel"), (RESEARCH / "openspiel-state.txt", "openspiel"),
    (RECORDS / "all.jsonl", "jsonl"), (RECORDS / "gin.gin", "gin"), (RECORDS / "gin.json", "json"),
    (RECORDS / "openspiel" / "games.jsonl", "jsonl"),
]


@pytest.mark.parametrize(("path", "form"), RIGHT_FORMS, ids=[f"{p.name}-as-{f}" for p, f in RIGHT_FORMS])
def test_the_right_from_still_reads_every_record(path: Path, form: str) -> None:
    forced = [(r.index, r.line, r.status) for r in verify([str(path)], format=form, jobs=1)]  # type: ignore[arg-type]
    sniffed = [(r.index, r.line, r.status) for r in verify([str(path)], jobs=1)]
    assert forced == sniffed and "unreadable" not in {status for _, _, status in forced}


def test_a_damaged_first_line_under_a_suffix_spoils_only_itself(tmp_path: Path) -> None:
    """A name is weaker than ``--from``: a .jsonl file whose first line is a text tag is still
    read line by line, so the good records after it are not lost."""
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b'[Rules "standard"]\n' + (RECORDS / "all.jsonl").read_bytes())
    results = list(verify([str(path)], jobs=1))
    assert results[0].status == "unreadable" and len(results) > 10
    assert all(r.status != "unreadable" for r in results[1:])


# -- UTF-16 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("name", ["gin.gin", "all.jsonl"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_utf16_file_is_one_error_that_names_it(tmp_path: Path, encoding: str, name: str, jobs: int) -> None:
    text = (RECORDS / name).read_text()
    path = tmp_path / name
    path.write_bytes(("\ufeff" + text).encode(encoding) if encoding.endswith("be") else text.encode(encoding))
    results = list(verify([str(path)], jobs=jobs))
    wide = "UTF-32" if "32" in encoding else "UTF-16"
    assert [(r.status, r.line, r.error) for r in results] == [(
        "unreadable", 1, f"{wide} text (it starts with a {wide} byte order mark); records are UTF-8 text: "
                         f"convert it, e.g. iconv -f {wide} -t UTF-8")]


def test_utf16_on_standard_input_is_named() -> None:
    items = list(read_records(io.BytesIO((RECORDS / "gin.gin").read_text().encode("utf-16"))))
    assert len(items) == 1 and isinstance(items[0], RecordError) and "UTF-16 text" in str(items[0])


def test_a_utf16_hand_line_is_named() -> None:
    run = CliRunner().invoke(cli, ["analyze", "-"], input="3C 4C 5C 9D 9S 9H KH 2D 6S 7S\n".encode("utf-16"))
    assert run.output.startswith("Error: <stdin>:1:1: UTF-16 text (it starts with a UTF-16 byte order mark)")


# -- what convert --to openspiel cannot carry --------------------------------------------------


def test_convert_to_openspiel_says_the_game_it_cannot_write() -> None:
    run = CliRunner().invoke(cli, ["convert", str(RESEARCH / "openspiel-state.txt"), "--to", "openspiel"])
    assert run.exit_code == 0
    assert run.stderr == ("note: an OpenSpiel history does not say its game: read these back with "
                          "--game 'gin_rummy(oklahoma=True)'\n")
    back = CliRunner().invoke(cli, ["verify", "-", "--game", "gin_rummy(oklahoma=True)"], input=run.stdout)
    assert back.exit_code == 0, back.output


def test_convert_of_default_games_to_openspiel_says_nothing() -> None:
    run = CliRunner().invoke(cli, ["convert", str(RESEARCH / "openspiel-histories.txt"), "--to", "openspiel"])
    assert run.exit_code == 0 and run.stderr == ""
