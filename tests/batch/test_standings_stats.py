"""The standings' numerics (:mod:`ginref.stats`): the intervals, the Bradley-Terry fit and its
bootstrap.

The fit is checked four ways: its own likelihood equations hold at the answer, Newton's method
and the MM iteration agree, scipy's optimiser (an independent method) finds the same maximum,
and the fits and bootstraps of a table of leagues are those ginref computed in pure Python
before the numerics moved to numpy (``tests/data/standings_numerics.json``, written by
ginref at 2a5ab24): the same random draws, the same ratings and intervals to the last bit. The bootstrap's
sampler is checked against the binomial law's moments; the intervals against values worked
by hand.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")

from ginref.stats import (
    binomial,
    bootstrap,
    chord_inverse,
    fit,
    fit_chord,
    fit_mm,
    fit_newton,
    multinomial,
    wilson,
)
from ginref.stats import ratings as elo

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "data" / "standings_numerics.json").read_text())


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
    n, pairs = _pairs(drawn)
    start = fit_newton(n, pairs)
    rng = random.Random(seed)
    nudge = (-1.0, -0.5, 0.0, 0.5, 1.0)
    resampled = [(i, j, g, min(g, max(0.0, s + rng.choice(nudge)))) for i, j, g, s in pairs]
    chord = fit_chord(n, resampled, start, chord_inverse(n, pairs, start))
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


# -- today's numbers -----------------------------------------------------------------------


def league(seed: int, players: int, games: int) -> list[tuple[int, int, int, int, int]]:
    """``games`` games between ``players`` of random strengths: (i, j, wins, draws, losses) a pair."""
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    tally: dict[tuple[int, int], list[int]] = {}
    for _ in range(games):
        i, j = sorted(rng.sample(range(players), 2))
        p = 1 / (1 + pow(2.718281828, strength[j] - strength[i]))
        u = rng.random()
        cell = tally.setdefault((i, j), [0, 0, 0])
        cell[0 if u < p * 0.95 else 1 if u < p * 0.95 + 0.05 else 2] += 1
    return [(i, j, *c) for (i, j), c in sorted(tally.items())]  # type: ignore[misc]


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda case: f"{case['players']}-{case['games']}")
def test_the_fit_and_the_bootstrap_are_what_they_were(case: dict[str, Any]) -> None:
    """2 to 230 players (Newton's fit and the chord steps, MM's above 200 players)."""
    players = case["players"]
    cells = league(case["seed"], players, case["games"])
    pairs = [(i, j, float(w + d + lost), w + d / 2) for i, j, w, d, lost in cells]
    theta = fit(players, pairs)
    assert theta == case["theta"]  # to the last bit: a page's sort keys print them whole
    if "theta_mm" in case:
        assert fit_mm(players, pairs) == case["theta_mm"]
    intervals = bootstrap(players, cells, case["rounds"], case["seed"], theta)
    assert [list(pair) for pair in intervals] == case["bootstrap"]


def test_the_random_draws_are_what_they_were() -> None:
    rng = random.Random(11)
    sizes = [(5, 0.3), (100, 0.5), (1000, 0.02), (100_000, 0.37), (7, 0.9)]
    assert [[binomial(rng, n, p) for n, p in sizes] for _ in range(20)] == GOLDEN["binomial"]
    pools = [(1, 10, [3, 0, 7]), (2, 1000, [500, 300, 200]), (3, 12, [1, 2, 3, 4, 2]),
             (4, 99999, [33333, 0, 66666])]
    drawn = [multinomial(random.Random(seed), total, counts) for seed, total, counts in pools]
    assert drawn == GOLDEN["multinomial"]
    assert [[s, n, *wilson(s, n)] for s, n, _, _ in GOLDEN["wilson"]] == GOLDEN["wilson"]


def test_no_players_no_fit() -> None:
    assert fit(0, []) == [] and bootstrap(0, [], 10, 0, []) == [] and elo([]) == []


def test_no_rounds_no_interval_but_the_centre() -> None:
    assert bootstrap(2, [(0, 1, 3, 0, 1)], 0, 0, [0.0, 0.0]) == [(1500.0, 1500.0)] * 2
