"""Race charts: one scale across a Hollywood match, CSV sheets, and --plot drawing a real file."""

from __future__ import annotations

import csv
import io
import json
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.render.games import race_top
from ginref.sheets import parse_sheet

SHEETS = Path(__file__).resolve().parents[2] / "samples" / "sheets"
HOLLYWOOD = str(SHEETS / "hollywood.sheet")
WORKED = str(SHEETS / "standard-worked.sheet")
runner = CliRunner()


def game(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["game", *args])
    return result.exit_code, result.stdout, result.stderr


def bar(line: str) -> int:
    return line.count("#")


def test_every_hollywood_game_is_drawn_on_one_scale() -> None:
    code, out, _ = game(HOLLYWOOD, "--chart")
    assert code == 0
    titles = [line for line in out.splitlines() if line.startswith("game ") and "full bar" in line]
    assert titles == [f"game {i} (| = 100, full bar = 115)" for i in (1, 2, 3)]
    rows = {(line.split()[0] if line.split()[0].isdigit() else "", line.split()[-1]): line
            for line in out[out.index("game 1 (|"):].splitlines() if "#" in line}
    # Ann's 105 in game 1 and Bo's 115 in game 3 share the 40-column scale: 105/115 of it
    assert bar(rows[("3", "105")]) == round(105 * 40 / 115)
    assert bar(rows[("10", "69")]) == round(69 * 40 / 115)
    assert race_top(parse_sheet(Path(HOLLYWOOD).read_text(encoding="utf-8")).score()) == 115


def test_csv_of_a_game_is_one_row_per_hand_with_running_totals() -> None:
    code, out, _ = game(WORKED, "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["Ann"] for r in rows] == ["9", "22", "22", "41", "41", "73", "123"]
    assert rows[2] == {"hand": "3", "winner": "Bo", "outcome": "gin", "points": "42", "multiplier": "1",
                       "Ann": "22", "Bo": "42", "next_dealer": "Bo"}
    document = json.loads(game(WORKED, "--json")[1])
    assert [int(r["Bo"]) for r in rows] == [h["totals"]["Bo"] for h in document["hands"]]


def test_csv_of_a_hollywood_match_has_each_games_totals() -> None:
    code, out, _ = game(HOLLYWOOD, "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 10
    assert (rows[2]["game1 Ann"], rows[2]["closed"], rows[9]["game3 Bo"]) == ("105", "1", "115")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--json", "--csv"], "give --json or --csv, not both"),
        (["--csv", "--chart"], "--chart draws the race as text"),
        (["--plot", "race.txt"], "--plot: cannot draw a .txt file: name a .svg, .png or .pdf file"),
        (["--plot", "race"], "--plot: cannot draw a file without an ending"),
    ],
)
def test_output_options_that_do_not_go_together(args: list[str], message: str) -> None:
    code, out, err = game(WORKED, *args)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize(
    "command",
    [["game", WORKED], ["report", str(SHEETS.parent / "tournament")],
     ["report", str(SHEETS.parent / "tournament"), "--advise", "--samples", "1"]],
)
@pytest.mark.parametrize("folder", ["no/such/dir", "a-file"])
def test_a_plot_into_no_folder_is_refused_before_any_work_as_o_is(
    command: list[str], folder: str, tmp_path: Path
) -> None:
    """It once ran the whole batch, printed it, and then exited 4."""
    (tmp_path / "a-file").write_text("")
    target = tmp_path / folder / "race.svg"
    result = runner.invoke(cli, [*command, "--plot", str(target)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"Error: --plot: the folder of {str(target)!r} does not exist\n"
    assert not target.parent.is_dir()


def test_o_and_plot_say_the_same_of_a_missing_folder(tmp_path: Path) -> None:
    target = str(tmp_path / "nope" / "x.gin")
    record = str(SHEETS.parent / "records" / "knock-layoffs.json")
    result = runner.invoke(cli, ["convert", record, "-o", target])
    assert (result.exit_code, result.stderr) == (2, f"Error: -o: the folder of {target!r} does not exist\n")


def test_plot_svg_is_well_formed_xml(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "race.svg"
    code, out, _ = game(HOLLYWOOD, "--plot", str(target))
    assert code == 0 and "Ann wins the match" in out
    root = ET.parse(target).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert target.read_text(encoding="utf-8").count("game ") >= 3  # one panel per game
    again = tmp_path / "again.svg"
    game(HOLLYWOOD, "--plot", str(again))
    assert again.read_bytes() == target.read_bytes()  # no date inside: the same sheet, the same file


def test_plot_png_has_its_signature_and_size(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "race.png"
    code, _, _ = game(WORKED, "--json", "--plot", str(target))
    assert code == 0
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (640, 400)


def test_plot_without_matplotlib_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    code, out, err = game(WORKED, "--plot", str(tmp_path / "race.svg"))
    assert code == 2 and out == ""  # refused before any output
    assert "plotting needs matplotlib: pip install 'ginref[plot]'" in err
    assert not (tmp_path / "race.svg").exists()


def test_the_report_plot_gives_each_series_its_own_colour_and_its_keys_stay_apart() -> None:
    """Issue: the two keys shared colours for different things and ran together."""
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from ginref.audit import report
    from ginref.plot import _report_figure

    figure = _report_figure(report(Path(__file__).resolve().parents[2] / "samples" / "tournament", jobs=1))
    FigureCanvasAgg(figure).draw()
    legends = [ax.get_legend() for ax in figure.axes]
    colours = [tuple(handle.get_facecolor()) for legend in legends for handle in legend.legend_handles]
    assert len(colours) == 5 and len(set(colours)) == 5
    renderer = figure.canvas.get_renderer()
    boxes = [legend.get_window_extent(renderer) for legend in legends]
    assert not boxes[0].overlaps(boxes[1])


@pytest.mark.parametrize(("by", "keys"), [
    ("player", ["points won", "points lost"]),
    ("game", ["points won"]),  # a game's row holds both players: it loses no points
    ("rules", ["points won"]),
])
def test_the_report_plot_keys_only_the_points_its_rows_have(by: str, keys: list[str]) -> None:
    pytest.importorskip("matplotlib")
    from ginref.audit import report
    from ginref.plot import _report_figure

    done = report(Path(__file__).resolve().parents[2] / "samples" / "tournament", by=by, jobs=1)
    figure = _report_figure(done)
    assert [text.get_text() for text in figure.axes[0].get_legend().get_texts()] == keys
