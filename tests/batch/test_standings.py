"""``ginref report --standings``: who is stronger, by how much and how sure.

The games, wins and draws are checked against the verdicts a referee reads, the command
line through ``CliRunner``; the numerics (the fit, the bootstrap, the intervals) in
``test_standings_stats.py``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import random
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.batch import verify
from ginref.cli import cli
from ginref.ranking import StandingsTally, deal_key, game_score, standings
from ginref.records import read_records

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "records"
TOURNAMENT = ROOT / "samples" / "tournament"
DUPLICATE = ROOT / "samples" / "duplicate"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# -- games as a referee reads them ---------------------------------------------------------


def verdict_of(path: Path) -> Any:
    [result] = list(verify([str(path)], jobs=1))
    return result.verdict


@pytest.mark.parametrize(("sample", "score"), [
    ("gin.gin", None),               # the one hand's winner wins the one-hand game
    ("undercut.gin", None),
    ("tie-standard.gin", None),
    ("void.gin", 0.5),               # a hand without a winner: a draw
    ("game-three-hands.gin", None),  # a whole game: its winner by the game totals
])
def test_a_record_is_a_game_won_by_its_totals(sample: str, score: float | None) -> None:
    verdict = verdict_of(SAMPLES / sample)
    first, second = verdict.players
    totals = dict(verdict.final_totals)
    expected = score if score is not None else (1.0 if totals[first] > totals[second] else 0.0)
    assert game_score(verdict) == expected


def test_the_tournament_counts_its_eight_games() -> None:
    done = standings(TOURNAMENT, rounds=50)
    rows = {row.player: row for row in done.standings}
    assert (rows["lazy-bot"].wins, rows["lazy-bot"].losses, rows["lazy-bot"].draws) == (5, 3, 0)
    assert (rows["keen-bot"].wins, rows["keen-bot"].losses) == (3, 5)
    assert [row.player for row in done.standings] == ["lazy-bot", "keen-bot"]  # best rating first
    assert done.few_games == ("lazy-bot", "keen-bot")
    assert done.not_yet_separable == (("lazy-bot", "keen-bot"),)  # 5-3 says almost nothing
    head = {(h.player, h.opponent): h for h in done.head_to_head}
    assert head["lazy-bot", "keen-bot"].points_for == head["keen-bot", "lazy-bot"].points_against == 633


def test_draws_count_half() -> None:
    tally = StandingsTally()
    for result in verify([str(SAMPLES / "void.gin"), str(SAMPLES / "gin.gin")], jobs=1):
        tally.add(result)
    done = tally.standings(0)
    for row in done.standings:
        assert row.draws == 1 and row.games == 2
        assert row.win_rate == (row.wins + 0.5) / 2


# -- the bootstrap (its numerics: tests/batch/test_standings_stats.py) -----------------------


def test_the_same_seed_gives_the_same_standings_and_another_seed_others() -> None:
    a, b = standings(TOURNAMENT, seed=3), standings(TOURNAMENT, seed=3)
    c = standings(TOURNAMENT, seed=4)
    assert a.to_dict() == b.to_dict()
    assert a.standings[0].rating_ci95 != c.standings[0].rating_ci95
    assert a.standings[0].rating == c.standings[0].rating


def test_the_interval_narrows_with_more_games_and_holds_the_rating() -> None:
    few = standings(TOURNAMENT, rounds=300)
    many_records = [r for path in sorted(TOURNAMENT.iterdir()) for r in read_records(path)] * 16
    many = standings(many_records, rounds=300)
    for small, big in zip(few.standings, many.standings, strict=True):
        assert big.rating_ci95[0] <= big.rating <= big.rating_ci95[1]
        assert big.rating_ci95[1] - big.rating_ci95[0] < small.rating_ci95[1] - small.rating_ci95[0]


# -- duplicate deals -----------------------------------------------------------------------


def test_duplicate_pairs_are_found_and_their_points_cancel_the_deal() -> None:
    records = list(read_records(DUPLICATE / "deals.gin"))
    keys = [deal_key(r) for r in records]
    assert all(k is not None for k in keys)
    for first, second in zip(keys[::2], keys[1::2], strict=True):
        assert first is not None and second is not None
        assert first[1] == second[1] and first[0] != second[0]  # the same cards seat by seat, dealers swapped
    done = standings(DUPLICATE, duplicate=True)
    assert done.duplicate is not None and done.unpaired == 0
    rows = {d.player: d for d in done.duplicate}
    assert rows["keen-bot"].pairs == rows["lazy-bot"].pairs == len(records) // 2
    assert rows["keen-bot"].points == -rows["lazy-bot"].points


def test_a_game_without_its_twin_is_unpaired() -> None:
    records = list(read_records(DUPLICATE / "deals.gin"))[:5]
    done = standings(records, duplicate=True)
    assert done.unpaired == 1 and done.duplicate is not None
    assert {d.pairs for d in done.duplicate} == {2}


# -- the command line ----------------------------------------------------------------------


def test_the_text_ranks_and_says_what_it_cannot_tell() -> None:
    code, out, _ = run("report", str(TOURNAMENT), "--standings")
    assert code == 0
    table = out.split("\n\n")[1].splitlines()
    assert table[3].startswith("lazy-bot") and table[4].startswith("keen-bot")
    assert "not yet separable" in out and "few games" in out
    assert "game and box bonuses are left out" in out
    audit = out.split("points are hand points")[1]
    assert audit.index("lazy-bot") < audit.index("keen-bot")  # the audit in the standings' order


def test_on_an_80_column_terminal_the_standings_fit_and_names_stay_apart(tmp_path: Path) -> None:
    from ginref.render.report import standings_text
    from tests.cli.test_html import league

    for source in (TOURNAMENT, league(tmp_path, 12, 100)):
        done = standings(source, rounds=10)
        text = standings_text(done, 80)
        assert max(len(line) for line in text.splitlines()) <= 80
        first = text.split("\n\n")[1].splitlines()[3:]
        assert len({line.split("  ")[0] for line in first}) == len(done.standings)
        assert all(row.player in standings_text(done, None) for row in done.standings)


def test_the_json_has_the_issue_fields_and_validates() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    code, out, _ = run("report", str(TOURNAMENT), "--standings", "--json", "--rounds", "50", "--seed", "9")
    assert code == 0
    document = json.loads(out)
    schema = json.loads(resources.files("ginref").joinpath("schemas", "standings.schema.json").read_text())
    jsonschema.validate(document, schema)
    assert list(document["standings"][0]) == [
        "player", "games", "wins", "losses", "draws", "win_rate", "win_rate_ci95", "rating", "rating_ci95",
        "net_points_per_hand", "net_points_per_hand_ci95"]
    assert list(document["head_to_head"][0]) == [
        "player", "opponent", "games", "wins", "losses", "draws", "points_for", "points_against"]
    assert document["method"]["bootstrap_rounds"] == 50 and document["method"]["seed"] == 9
    assert run("report", str(TOURNAMENT), "--standings", "--json", "--rounds", "50", "--seed", "9")[1] == out


def test_duplicate_json_validates() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = json.loads(run("report", str(DUPLICATE), "--duplicate", "--json")[1])
    schema = json.loads(resources.files("ginref").joinpath("schemas", "standings.schema.json").read_text())
    jsonschema.validate(document, schema)
    assert document["duplicate"]["unpaired"] == 0


def test_the_csv_has_a_row_per_player_best_first() -> None:
    code, out, _ = run("report", str(TOURNAMENT), "--standings", "--csv", "--rounds", "20")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [row["player"] for row in rows] == ["lazy-bot", "keen-bot"]
    assert float(rows[0]["rating_low"]) <= float(rows[0]["rating"]) <= float(rows[0]["rating_high"])
    assert rows[0]["few_games"] == "yes"


@pytest.mark.parametrize("args", [
    ["--rounds", "10"],
    ["--seed", "4"],
    ["--duplicate", "--advise"],
    ["--standings", "--rounds", "-1"],
    ["--standings", "--html", "/no/such/folder/x.html"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    code, _, err = run("report", str(TOURNAMENT), *args)
    assert code == 2 and "Traceback" not in err


def test_rows_come_by_name_without_standings() -> None:
    code, out, _ = run("report", str(SAMPLES / "openspiel"), "--csv")
    assert code in (0, 1)
    names = [row["player"] for row in csv.DictReader(io.StringIO(out))]
    assert names == sorted(names, key=lambda name: (name.casefold(), name))


@given(st.integers(0, 2**20), st.booleans())
@settings(max_examples=40, deadline=None)
def test_broken_games_count_once_each_and_never_break_the_standings(seed: int, duplicate: bool) -> None:
    from tests.support.randomplay import corrupt, random_game, random_hand

    rng = random.Random(seed)
    records = []
    for k in range(6):
        record = random_hand(seed + k) if k % 2 else random_game(seed + k, "standard", max_hands=3)
        if rng.random() < 0.5:
            with contextlib.suppress(ValueError):
                record, _ = corrupt(record, rng)
        records.append(record)
    done = standings(records, rounds=20, seed=seed, duplicate=duplicate)
    assert done.games == len(records)
    assert sum(row.games for row in done.standings) == 2 * len(records)
    for row in done.standings:
        assert row.wins + row.losses + row.draws == row.games
        assert row.rating_ci95[0] <= row.rating_ci95[1] and 0 <= row.win_rate <= 1


def test_the_duplicate_sample_is_what_its_tool_writes() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("tournament", ROOT / "tools" / "tournament.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert (DUPLICATE / "deals.gin").read_text(encoding="utf-8") == tool.records_text(tool.duplicate_games())


# -- issue 43: what the text says -----------------------------------------------------------


def test_the_head_to_head_fits_60_columns_and_sorts_names_by_casefold(tmp_path: Path) -> None:
    from ginref.render.report import standings_text
    from tests.cli.test_html import CASES, league

    done = standings(league(tmp_path, games=120, names=CASES), rounds=10)
    text = standings_text(done, 60)
    part = text.split("head to head", 1)[1]
    assert max(len(line) for line in text.splitlines()) <= 60
    players = [line.split()[0] for line in part.splitlines() if line.split() and line.split()[0] in CASES]
    assert players == sorted(players, key=str.casefold) and players[0] == "amy"
    assert "W-L-D" in part and all(head in part for head in ("games", "for", "against"))


def test_each_interval_has_its_own_heading() -> None:
    from ginref.render.report import STANDINGS_HEADERS

    intervals = [head for head in STANDINGS_HEADERS if "interval" in head]
    assert len(intervals) == 3 and len({head.split("\n")[0] for head in intervals}) == 3


def test_one_game_is_too_small_a_sample_for_an_interval(tmp_path: Path) -> None:
    (tmp_path / "game-01.gin").write_bytes((TOURNAMENT / "game-01.gin").read_bytes())
    code, out, _ = run("report", str(tmp_path), "--standings")
    assert code == 0 and "1631" in out and "1631-1631" not in out
    assert "sample too small for a rating interval" in out and "not yet separable" not in out
    code, out, _ = run("report", str(TOURNAMENT), "--standings", "--rounds", "0")
    assert "no bootstrap (--rounds 0), so no interval" in out and "1542-1542" not in out
    assert "sample too small" not in out  # no bootstrap claims no interval


def test_wins_by_totals_and_games_won_to_the_end_are_two_labels(tmp_path: Path) -> None:
    """A one-hand record is a game the standings count won, but not one played to its end."""
    from tests.cli.test_html import league

    source = str(league(tmp_path, 2, 6))
    document = json.loads(run("report", source, "--standings", "--json")[1])
    assert [row["wins"] for row in document["standings"]] == [2, 2]
    assert [row["games_won"] for row in document["rows"]] == [0, 0]
    code, out, _ = run("report", source, "--standings")
    standings_part, audit_part = out.split("records: ", 1)
    assert code == 0 and "by totals" in standings_part and "to the end" in audit_part
    assert "wins by totals: the game's winner, or the player ahead where the record ends" in out
    assert "games won to the end: games played out to their end (the target) and won" in " ".join(out.split())


# -- without numpy ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--standings"], ["--duplicate", "--html", "-"]])
def test_without_numpy_the_standings_name_the_extra(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """numpy is the ``stats`` extra: a report that ranks fails at once, in one line (exit 2)."""
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy raises ImportError
    code, out, err = run("report", str(TOURNAMENT), "--jobs", "1", *args)
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1].endswith("the standings need numpy: pip install 'ginref[stats]'")
    assert len(err.strip().splitlines()) == 1


def test_without_numpy_a_report_that_does_not_rank_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    code, out, _ = run("report", str(TOURNAMENT), "--jobs", "1")
    assert code == 0 and "lazy-bot" in out
