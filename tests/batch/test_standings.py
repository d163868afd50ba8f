"""``ginref report --standings``: who is stronger, by how much and how sure.

The Bradley-Terry fit is checked three ways: its own likelihood equations hold at the
answer, Newton's method and the MM iteration of the library agree, and scipy's optimiser
(an independent method) finds the same maximum. The bootstrap's sampler is checked against
the binomial law's moments; the intervals against values worked by hand; the games, wins
and draws against the verdicts a referee reads; the command line through ``CliRunner``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.batch import verify
from ginref.cli import cli
from ginref.ranking import (
    StandingsTally,
    binomial,
    deal_key,
    elo,
    fit_mm,
    fit_newton,
    game_score,
    multinomial,
    standings,
    wilson,
)
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


# -- the intervals -------------------------------------------------------------------------


@pytest.mark.parametrize(("score", "n", "low", "high"), [
    (5, 10, 0.236593, 0.763407),   # worked from the Wilson formula with z = 1.959964
    (0, 10, 0.0, 0.277533),
    (10, 10, 0.722467, 1.0),
    (62.5, 100, 0.527146, 0.713606),
])
def test_wilson_interval(score: float, n: int, low: float, high: float) -> None:
    got = wilson(score, n)
    assert got[0] == pytest.approx(low, abs=1e-5) and got[1] == pytest.approx(high, abs=1e-5)


@given(st.integers(0, 400), st.integers(1, 400))
def test_the_wilson_interval_holds_the_rate(wins: int, n: int) -> None:
    wins = min(wins, n)
    low, high = wilson(wins, n)
    assert 0 <= low <= wins / n <= high <= 1


# -- the fit -------------------------------------------------------------------------------

pairs_strategy = st.integers(2, 7).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 30), st.integers(0, 60)),
    min_size=1, max_size=15)))


Drawn = tuple[int, list[tuple[int, int, int, int]]]
Pairs = list[tuple[int, int, float, float]]


def _pairs(drawn: Drawn) -> tuple[int, Pairs]:
    n, raw = drawn
    return n, [(i, j, float(games), min(half, 2 * games) / 2) for i, j, games, half in raw if i != j]


def likelihood_gradient(n: int, pairs: Pairs, theta: list[float]) -> list[float]:
    grad = [0.5 - 1 / (1 + math.exp(-t)) for t in theta]  # the virtual draw against 0
    for i, j, games, score in pairs:
        p = 1 / (1 + math.exp(theta[j] - theta[i]))
        grad[i] += score - games * p
        grad[j] += games - score - games * (1 - p)
    return grad


@given(pairs_strategy)
@settings(max_examples=150, deadline=None)
def test_newton_and_mm_reach_the_same_maximum(drawn: Any) -> None:
    n, pairs = _pairs(drawn)
    newton, mm = fit_newton(n, pairs), fit_mm(n, pairs)
    assert max(abs(a - b) for a, b in zip(elo(newton), elo(mm), strict=True)) < 0.01  # Elo points
    assert max(map(abs, likelihood_gradient(n, pairs, newton))) < 1e-8


@given(pairs_strategy, st.integers(0, 2**16))
@settings(max_examples=100, deadline=None)
def test_the_bootstraps_chord_steps_reach_newtons_maximum(drawn: Any, seed: int) -> None:
    """A resampling's fit starts at the full data's ratings and steps with their curvature."""
    from ginref.ranking import _curvature, _inverse, fit_chord

    n, pairs = _pairs(drawn)
    start = fit_newton(n, pairs)
    rng = random.Random(seed)
    nudge = (-1.0, -0.5, 0.0, 0.5, 1.0)
    resampled = [(i, j, g, min(g, max(0.0, s + rng.choice(nudge)))) for i, j, g, s in pairs]
    chord = fit_chord(n, resampled, start, _inverse(_curvature(n, pairs, start)))
    assert max(abs(a - b) for a, b in zip(elo(chord), elo(fit_newton(n, resampled)), strict=True)) < 1e-4


def test_scipy_finds_the_same_ratings() -> None:
    optimize = pytest.importorskip("scipy.optimize")
    rng = random.Random(5)
    for _ in range(20):
        n = rng.randint(2, 9)
        pairs = [(i, j, float(g), rng.randint(0, 2 * g) / 2) for i in range(n) for j in range(i + 1, n)
                 if (g := rng.randint(0, 12))]

        def minus_log_likelihood(theta: Any, n: int = n, pairs: Any = pairs) -> float:
            total = sum(0.5 * t - math.log1p(math.exp(t)) for t in theta)
            for i, j, games, score in pairs:
                total += score * theta[i] + (games - score) * theta[j]
                total -= games * math.log(math.exp(theta[i]) + math.exp(theta[j]))
            return -total

        found = optimize.minimize(minus_log_likelihood, [0.0] * n, method="BFGS", options={"gtol": 1e-9}).x
        assert elo(list(found)) == pytest.approx(elo(fit_newton(n, pairs)), abs=0.05)


def test_the_elo_scale() -> None:
    """Two players, many games, 3 wins in 4: the prior weighs nothing and the gap is
    400 log10(3) Elo points, centred on 1500."""
    ratings = elo(fit_newton(2, [(0, 1, 40_000.0, 30_000.0)]))
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=0.1)
    assert sum(ratings) / 2 == pytest.approx(1500)


def test_an_unbeaten_player_has_a_finite_rating() -> None:
    ratings = elo(fit_newton(2, [(0, 1, 5.0, 5.0)]))
    assert 1500 < ratings[0] < 1900 and ratings[0] + ratings[1] == pytest.approx(3000)


# -- the bootstrap -------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "p"), [(20, 0.1), (1000, 0.3), (100_000, 0.02), (500, 0.9)])
def test_the_binomial_sampler_has_the_binomial_moments(n: int, p: float) -> None:
    rng = random.Random(11)
    draws = [binomial(rng, n, p) for _ in range(20_000)]
    mean = sum(draws) / len(draws)
    variance = sum((d - mean) ** 2 for d in draws) / (len(draws) - 1)
    assert all(0 <= d <= n for d in draws)
    assert mean == pytest.approx(n * p, rel=0.01, abs=0.05)
    assert variance == pytest.approx(n * p * (1 - p), rel=0.05)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=20), st.integers(0, 2**32))
def test_a_multinomial_draw_resamples_every_game(counts: list[int], seed: int) -> None:
    drawn = multinomial(random.Random(seed), sum(counts), counts)
    assert sum(drawn) == sum(counts) and all(d == 0 for d, c in zip(drawn, counts, strict=True) if c == 0)


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
