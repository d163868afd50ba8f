"""The statistics of ginref: a match's Elo, likelihood of superiority and SPRT; the standings'
intervals, Bradley-Terry fit and bootstrap.

A match between two bots is counted one of two ways. The trinomial counts games (or hands)
from the first bot's side: ``(losses, draws, wins)``. The pentanomial counts pairs, each deal
played twice with the seats swapped: ``(pairs scoring 0, 1/4, 1/2, 3/4, 1)`` out of 1. Pairs
are what a duplicate match should be judged by: the two games of a pair share a deal, so
they are not independent, and treating them as two samples overstates the evidence.

The formulas are the chess testers' (fishtest, fastchess): the score's mean and variance,
Elo from the logistic curve, normalized Elo (the score's distance from 1/2 in standard
deviations, scaled to look like Elo), and the generalized sequential probability ratio test
whose log-likelihood ratio is found by maximum likelihood under each hypothesis (Van den
Bergh's method). ``tests/test_stats.py`` holds them to fastchess's published test vectors.

The standings (:mod:`ginref.ranking` adds the games up, docs/standings.md says what is
computed) need the Wilson interval of a win rate, the delta-method interval of points per
hand, the normal interval of a mean, and the Bradley-Terry ratings with their bootstrap:
the fit is Newton's method (the MM iteration of Zermelo and Hunter for many players), and
every bootstrap round is fit at once, as rows of one array. The rounds' random draws stay
Python's (:func:`binomial`, :func:`multinomial`), so that a seed gives the resamplings it
always gave.

numpy (and scipy, for the SPRT) do the numerics, imported when a function is first called,
so that a command that never computes a statistic never pays for them. They are extras
(docs/architecture.md says why): ``pip install 'ginref[stats]'`` (numpy: the standings) and
``'ginref[match]'`` (numpy and scipy: the arena's statistics).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from ginref.errors import StatsError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EloEstimate", "SprtResult", "StatsError", "binomial", "bootstrap", "chord_inverse", "elo", "fit",
           "fit_chord", "fit_mm", "fit_newton", "mean_interval", "multinomial", "normal_interval", "ratings",
           "ratio_interval", "require_numpy", "sprt", "sprt_bounds", "wilson"]

Model = Literal["normalized", "logistic"]
MODELS: tuple[Model, ...] = ("normalized", "logistic")
Z95 = 1.959963984540054
"""the standard normal's 97.5% quantile: a 95% two-sided interval"""
_NELO_SCALE = 800.0 / math.log(10.0)
"""normalized Elo per unit of (score - 1/2) / sigma: the logistic curve's slope at 1/2, as Elo"""
_EMPTY = 1e-3
"""what the SPRT counts an empty cell as, so that no outcome is judged impossible"""


class EloEstimate(msgspec.Struct, frozen=True):
    """Elo and normalized Elo with their 95% errors (half the interval's width), the likelihood
    of superiority (the chance the true score is above 1/2) and the mean score, from counts."""

    elo: float
    elo_error: float
    nelo: float
    nelo_error: float
    los: float
    score: float
    samples: int
    """games for trinomial counts, pairs for pentanomial ones"""


class SprtResult(msgspec.Struct, frozen=True):
    """The log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), the bounds it is
    compared with, and the decision: ``"H1"`` or ``"H0"`` accepted, else ``"continue"``."""

    llr: float
    lower: float
    upper: float
    decision: Literal["H0", "H1", "continue"]


def _numerics() -> tuple[Any, Any]:
    try:
        import numpy
        from scipy import optimize
    except ImportError as exc:  # pragma: no cover - the extra is installed where tests run
        raise StatsError(f"the match statistics need numpy and scipy ({exc.name} is missing): "
                         "pip install 'ginref[match]'") from None
    return numpy, optimize


def _checked(counts: Sequence[int]) -> tuple[int, ...]:
    values = tuple(counts)
    if len(values) not in (3, 5):
        raise StatsError(f"counts are a trinomial (3 numbers) or a pentanomial (5), not {len(values)}")
    if any(type(v) is not int or v < 0 for v in values):
        raise StatsError("counts are whole numbers of 0 or more")
    return values


def _scores(n: int) -> list[float]:
    """The score of each cell: 0, 1/2, 1 for games; 0, 1/4, ..., 1 for pairs."""
    return [i / (n - 1) for i in range(n)]


def elo(counts: Sequence[int]) -> EloEstimate:
    """Elo and normalized Elo of the side the counts are from, with 95% errors and LOS.

    ``counts``: ``(losses, draws, wins)``, or a pentanomial ``(p0, p1/4, p1/2, p3/4, p1)``.
    The error is half the width of the 95% interval of the mean score, carried through each
    scale. A normalized Elo is the score's distance from 1/2 in standard deviations of one
    game (of one pair, over sqrt 2, for pairs), so that both counts speak one scale.
    """
    np, _ = _numerics()
    values = _checked(counts)
    total = sum(values)
    if total == 0:
        raise StatsError("no games to estimate from")
    probs = np.array(values, dtype=float) / total
    scores = np.array(_scores(len(values)))
    score = float(probs @ scores)
    variance = float(probs @ (scores - score) ** 2)
    spread = Z95 * math.sqrt(variance / total)
    low, high = score - spread, score + spread
    sigma = math.sqrt(variance * (2.0 if len(values) == 5 else 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        elos = -400.0 * np.log10(1.0 / np.array([score, low, high]) - 1.0)
        elo_error = float(elos[2] - elos[1]) / 2.0
    nelo = [(s - 0.5) / sigma * _NELO_SCALE if sigma > 0 else math.nan for s in (score, low, high)]
    los = 0.5 * (1.0 + math.erf((score - 0.5) / math.sqrt(2.0 * variance / total))) if variance > 0 else (
        1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5)
    return EloEstimate(
        elo=float(elos[0]), elo_error=elo_error,
        nelo=nelo[0], nelo_error=(nelo[2] - nelo[1]) / 2.0,
        los=los, score=score, samples=total,
    )


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR bounds: accept H0 at or below the first, H1 at or above the second."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise StatsError("alpha and beta are each between 0 and 1, and their sum below 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(counts: Sequence[int], elo0: float, elo1: float, *, alpha: float = 0.05, beta: float = 0.05,
         model: str = "normalized") -> SprtResult:
    """The generalized SPRT of H0 (Elo = ``elo0``) against H1 (Elo = ``elo1``) on ``counts``
    (trinomial or pentanomial, as :func:`elo`), under the ``normalized`` or ``logistic`` Elo
    model: the log-likelihood ratio of the two maximum-likelihood distributions that have
    the hypotheses' expected score, its bounds from ``alpha`` and ``beta``, and the decision."""
    np, optimize = _numerics()
    values = _checked(counts)
    if model not in MODELS:
        raise StatsError(f"the SPRT model is one of: {', '.join(MODELS)}, not {model!r}")
    if not elo0 < elo1:
        raise StatsError("elo0 must be less than elo1")
    lower, upper = sprt_bounds(alpha, beta)
    cells = [float(v) if v else _EMPTY for v in values]
    total = sum(cells)
    probs = np.array(cells) / total
    scores = np.array(_scores(len(values)))
    if model == "normalized":
        scale = math.sqrt(2.0) if len(values) == 5 else 1.0
        p0 = _normalized_mle(np, optimize, scores, probs, scale * elo0 / _NELO_SCALE)
        p1 = _normalized_mle(np, optimize, scores, probs, scale * elo1 / _NELO_SCALE)
    else:
        p0 = _logistic_mle(optimize, scores, probs, _logistic_score(elo0))
        p1 = _logistic_mle(optimize, scores, probs, _logistic_score(elo1))
    llr = float(total * (probs @ (np.log(p1) - np.log(p0))))
    decision: Literal["H0", "H1", "continue"] = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr=llr, lower=lower, upper=upper, decision=decision)


def _logistic_score(elo_value: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo_value / 400.0))


def _tilted(optimize: Any, probs: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """The distribution nearest ``probs`` (in the likelihood's sense) under which ``phi`` has
    mean 0: ``probs / (1 + theta * phi)``, with theta the root of the constraint between its
    poles (Van den Bergh, Proposition 1.1)."""
    low, high = -1.0 / float(phi.max()), -1.0 / float(phi.min())
    inset = (high - low) * 1e-12

    def constraint(theta: float) -> float:
        return float(probs @ (phi / (1.0 + theta * phi)))

    theta: float = optimize.brentq(constraint, low + inset, high - inset, xtol=1e-12, rtol=1e-12)
    tilted: np.ndarray = probs / (1.0 + theta * phi)
    return tilted


def _logistic_mle(optimize: Any, scores: np.ndarray, probs: np.ndarray, score: float) -> np.ndarray:
    """The maximum-likelihood distribution whose expected score is ``score``."""
    return _tilted(optimize, probs, scores - score)


def _normalized_mle(numpy: Any, optimize: Any, scores: np.ndarray, probs: np.ndarray, t: float) -> np.ndarray:
    """The maximum-likelihood distribution whose normalized score (mean - 1/2) / sigma is
    ``t``: a fixed point, each step tilting toward the constraint linearised at the last
    estimate (Van den Bergh, "Comments on normalized Elo", section 4.1), from the uniform."""
    estimate: np.ndarray = numpy.full(len(scores), 1.0 / len(scores))
    for _ in range(50):
        mu = float(estimate @ scores)
        sigma = math.sqrt(float(estimate @ (scores - mu) ** 2))
        phi = scores - 0.5 - 0.5 * t * sigma * (1.0 + ((scores - mu) / sigma) ** 2)
        following = _tilted(optimize, probs, phi)
        converged = float(abs(following - estimate).max()) < 1e-9
        estimate = following
        if converged:
            break
    return estimate


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal, with the sample's standard
    deviation): what a duplicate match reports as net points per pair."""
    np, _ = _numerics()
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        raise StatsError("no values to average")
    mean = float(data.mean())
    spread = Z95 * float(data.std(ddof=1)) / math.sqrt(data.size) if data.size > 1 else math.inf
    return mean, mean - spread, mean + spread


# -- the standings' statistics ------------------------------------------------------------
#
# What `ginref.ranking` reports (docs/standings.md): the Wilson interval of a win rate, the
# delta-method interval of points per hand, the normal interval of a mean, the Bradley-Terry
# fit on the Elo scale and its bootstrap. They need numpy alone (the `stats` extra).

Interval = tuple[float, float]
Pairs = Sequence[tuple[int, int, float, float]]
"""(i, j, games between them, i's score against j: wins and half the draws)"""
Cell = tuple[int, int, int, int, int]
"""(i, j, i's wins, draws, i's losses) of a pair that met"""
ELO = 400 / math.log(10)
"""rating points per unit of log-strength: 400 log10 odds"""
CENTRE = 1500.0
MOST_NEWTON_PLAYERS = 200
"""above this many players the fit is MM's (linear in the pairs per step), not Newton's (cubic)"""
_CHORD_STEPS = 40
_CAP = 2.0
"""the longest step a fit takes in any log-strength, so that it cannot fly"""


def require_numpy() -> Any:
    """numpy, or :class:`StatsError` saying which extra brings it."""
    try:
        import numpy
    except ImportError:
        raise StatsError("the standings need numpy: pip install 'ginref[stats]'") from None
    return numpy


def wilson(score: float, n: int) -> Interval:
    """The 95% Wilson score interval of a rate of ``score`` in ``n`` (draws as halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p, z2 = score / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n)
    low = 0.0 if score <= 0 else max(0.0, centre - half)
    return (low, 1.0 if score >= n else min(1.0, centre + half))


def ratio_interval(n: int, x: float, y: float, xx: float, yy: float, xy: float) -> Interval | None:
    """The 95% delta-method interval of ``y / x``, two totals over ``n`` units sampled, from
    their sums, squares and product (None for fewer than 2 units or no ``x``)."""
    if not x or n < 2:
        return None
    ratio = y / x
    spread = max(0.0, yy - 2 * ratio * xy + ratio * ratio * xx) / (n - 1)
    half = Z95 * math.sqrt(spread / n) / (x / n)
    return (ratio - half, ratio + half)


def normal_interval(count: int, total: float, squares: float) -> Interval | None:
    """The normal 95% interval of a mean, from the count, sum and sum of squares (None below 2)."""
    if count < 2:
        return None
    mean = total / count
    variance = max(0.0, squares - count * mean * mean) / (count - 1)
    half = Z95 * math.sqrt(variance / count)
    return (mean - half, mean + half)


class _Games:
    """The pairs as arrays, one row of counts per fit (a resampling of the games each), with
    every player's score: wins, half the draws, and half a win of the prior's virtual draw.

    Every float is computed as the scalar formulas compute it, operation for operation: each
    sum in order (``ufunc.at`` and ``cumsum`` add in order; a sum's order changes its last
    bits), each exponential and logarithm by :mod:`math` (numpy's may differ by a bit). So a
    seed gives the ratings and intervals to the last bit, whatever the number of rows."""

    def __init__(self, np: Any, count: int, first: Any, second: Any, games: Any, score: Any,
                 scores: Any = None) -> None:
        self.np, self.count, self.first, self.second = np, count, first, second
        self.games, self.score = games, score  # rows x pairs
        self.rows = games.shape[0]
        offsets = np.arange(self.rows)[:, None] * count
        # each pair's two players, in pair order, one row after another: where a sum in pair order adds
        self.both = np.stack([offsets + first[None, :], offsets + second[None, :]], axis=2).ravel()
        self.scores = self.scores_of(score) if scores is None else scores

    @classmethod
    def of(cls, count: int, pairs: Pairs) -> _Games:
        np = require_numpy()
        table = np.array([(i, j) for i, j, _, _ in pairs], dtype=np.intp).reshape(-1, 2)
        counts = np.array([(n, s) for _, _, n, s in pairs], dtype=float).reshape(-1, 2)
        return cls(np, count, table[:, 0], table[:, 1], counts[None, :, 0], counts[None, :, 1])

    def scores_of(self, score: Any) -> Any:
        scores = self.np.full((self.rows, self.count), 0.5)  # the prior: half a win of the virtual draw
        self.add(scores, score, self.games - score)
        return scores

    def add(self, totals: Any, to_first: Any, to_second: Any) -> None:
        """Add each pair's ``to_first`` to its first player's total, ``to_second`` to its second's,
        pair after pair (rows x pairs each)."""
        self.np.add.at(totals.reshape(-1), self.both, self.np.stack([to_first, to_second], axis=2).ravel())

    def select(self, rows: Any) -> _Games:
        """These rows alone."""
        return _Games(self.np, self.count, self.first, self.second, self.games[rows], self.score[rows],
                      self.scores[rows])

    def gradient(self, theta: Any) -> Any:
        """The log-likelihood's gradient at ``theta`` (rows x players, the prior included):
        i beats j with probability s_i / (s_i + s_j)."""
        strength = _strengths(self.np, theta)
        a, b = strength[:, self.first], strength[:, self.second]
        expected = self.games * (a / (a + b))
        grad = self.scores - strength / (1.0 + strength)
        self.add(grad, -expected, -(self.games - expected))
        return grad

    def curvature(self, theta: Any) -> Any:
        """Minus the Hessian at ``theta`` (one row): positive definite, thanks to the prior."""
        np, count = self.np, self.count
        strength = _strengths(np, theta[None, :])[0]
        a, b = strength[self.first], strength[self.second]
        weight = self.games[0] * a * b / ((a + b) * (a + b))
        hess = np.diag(strength / _squares(np, 1.0 + strength))
        cells = np.stack([self.first * (count + 1), self.second * (count + 1),
                          self.first * count + self.second, self.second * count + self.first], axis=1)
        weights = np.stack([weight, weight, -weight, -weight], axis=1)
        np.add.at(hess.reshape(-1), cells.ravel(), weights.ravel())
        return hess


def _mapped(np: Any, function: Any, values: Any) -> Any:
    """``function`` (one of :mod:`math`'s) of each value."""
    return np.fromiter(map(function, values.ravel().tolist()), float, values.size).reshape(values.shape)


def _strengths(np: Any, theta: Any) -> Any:
    return _mapped(np, math.exp, np.clip(theta, -700.0, 700.0))


def _squares(np: Any, values: Any) -> Any:
    """``value ** 2`` as Python computes it (the C library's pow)."""
    return _mapped(np, lambda value: value ** 2, values)


def _in_order(np: Any, products: Any) -> Any:
    """The sums along the last axis, added in order from the first (as ``sum()`` adds)."""
    if not products.shape[-1]:
        return np.zeros(products.shape[:-1])
    return products.cumsum(axis=-1)[..., -1]


def _cholesky(np: Any, matrix: Any) -> Any:
    """The lower triangle L of a positive definite matrix, L Lᵀ = matrix: a column at a time,
    each entry's sum in order."""
    n = matrix.shape[0]
    low = np.zeros((n, n))
    for j in range(n):
        low[j, j] = math.sqrt(max(float(matrix[j, j] - _in_order(np, low[j, :j] * low[j, :j])), 1e-300))
        low[j + 1:, j] = (matrix[j + 1:, j] - _in_order(np, low[j + 1:, :j] * low[j, :j])) / low[j, j]
    return low


def _solve_factored(np: Any, low: Any, right: Any) -> Any:
    """``matrix⁻¹ right`` (one column of ``right`` a system) from the matrix's Cholesky factor."""
    n = low.shape[0]
    y = np.zeros(right.shape)
    for i in range(n):
        y[i] = (right[i] - _in_order(np, (low[i, :i, None] * y[:i]).T)) / low[i, i]
    x = np.zeros(right.shape)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - _in_order(np, (low[i + 1:, i, None] * x[i + 1:]).T)) / low[i, i]
    return x


def _capped(np: Any, step: Any) -> tuple[Any, Any]:
    """Each row's step shrunk to a longest move of 2, and its longest move before."""
    largest = np.abs(step).max(axis=-1, initial=0.0)
    shrink = largest > _CAP
    if shrink.any():
        step = np.where(shrink[:, None], step * _CAP / np.where(shrink, largest, 1.0)[:, None], step)
    return step, largest


def _newton(games: _Games, theta: Any) -> Any:
    """One row's maximum by Newton's method from ``theta``."""
    np = games.np
    for _ in range(100):
        grad = games.gradient(theta)[0]
        step = _solve_factored(np, _cholesky(np, games.curvature(theta[0])), grad[:, None])[:, 0]
        capped, largest = _capped(np, step[None, :])
        theta = theta + capped
        if largest[0] < 1e-11:
            break
    return theta


def fit_newton(count: int, pairs: Pairs, start: Sequence[float] | None = None) -> list[float]:
    """The log-strengths that maximise the likelihood (with the prior): Newton's method, the
    prior keeping the Hessian negative definite; a step is capped at 2 so that it cannot fly."""
    games = _Games.of(count, pairs)
    begin = games.np.array(list(start) if start is not None else [0.0] * count, dtype=float)
    return [float(t) for t in _newton(games, begin.reshape(1, count))[0]]


def _chord(games: _Games, start: Any, inverse: Any) -> Any:
    """Every row's maximum by Newton's chord method (one curvature, ``inverse``, for every
    step and row): a resampling of the games lies near the full data, and the steps shrink
    fast. A row stops at its first step below 1e-9; Newton's method finishes the rest."""
    np = games.np
    theta = np.repeat(start[None, :], games.rows, axis=0)
    going, part = np.arange(games.rows), games
    chunk = max(1, 1_000_000 // max(1, games.count * games.count))  # rows a product takes at once
    for _ in range(_CHORD_STEPS):
        grad = part.gradient(theta[going])
        step = np.concatenate([_in_order(np, inverse[None, :, :] * grad[at:at + chunk, None, :])
                               for at in range(0, len(going), chunk)])
        step, largest = _capped(np, step)
        theta[going] += step
        still = largest >= 1e-9
        if not still.all():
            going = going[still]
            if not going.size:
                return theta
            part = part.select(still)
    for row in going:
        theta[row] = _newton(games.select([row]), theta[[row]])[0]
    return theta


def fit_chord(count: int, pairs: Pairs, start: Sequence[float], inverse: Any) -> list[float]:
    """The same maximum by Newton's chord method: every step uses one curvature (``inverse``:
    the inverse of the full data's at ``start``) instead of a new one, so a step costs the
    pairs and a product with that matrix. Newton's method finishes what 40 steps do not."""
    games = _Games.of(count, pairs)
    return [float(t) for t in _chord(games, games.np.array(start, dtype=float), inverse)[0]]


def chord_inverse(count: int, pairs: Pairs, start: Sequence[float]) -> Any:
    """The inverse of the curvature at ``start``: the one :func:`fit_chord` steps with."""
    games = _Games.of(count, pairs)
    np = games.np
    low = _cholesky(np, games.curvature(np.array(start, dtype=float).reshape(count)))
    return _solve_factored(np, low, np.eye(count))


def _mm(games: _Games, strength: Any, steps: int) -> Any:
    """Every row's maximum by the minorise-maximise iteration; a row stops at its first step
    that changes no log-strength by 1e-12."""
    np = games.np
    going, part, now = np.arange(games.rows), games, strength
    for _ in range(steps):
        each = part.games / (now[:, games.first] + now[:, games.second])
        weights = 1.0 / (now + 1.0)  # the virtual game against strength 1
        part.add(weights, each, each)
        new = part.scores / weights
        still = np.abs(_mapped(np, math.log, new / now)).max(axis=1, initial=0.0) >= 1e-12
        now = new
        if not still.all():
            strength[going] = now
            going, now, part = going[still], now[still], part.select(still)
            if not going.size:
                break
    strength[going] = now
    return _mapped(np, math.log, strength)


def fit_mm(count: int, pairs: Pairs, start: Sequence[float] | None = None,
           steps: int = 10_000) -> list[float]:
    """The same maximum by the minorise-maximise iteration (Zermelo; Hunter 2004): each
    strength becomes its score over the sum of games divided by the pair's strengths."""
    games = _Games.of(count, pairs)
    np = games.np
    begin = np.array(list(start) if start is not None else [0.0] * count, dtype=float).reshape(1, count)
    strength = _mapped(np, math.exp, begin) if start is not None else np.ones((1, count))
    return [float(t) for t in _mm(games, strength, steps)[0]]


def fit(count: int, pairs: Pairs, start: Sequence[float] | None = None) -> list[float]:
    """The fit for ``count`` players: Newton's for few, MM's for many."""
    if count <= MOST_NEWTON_PLAYERS:
        return fit_newton(count, pairs, start)
    return fit_mm(count, pairs, start)


def ratings(theta: Sequence[float]) -> list[float]:
    """Log-strengths as ratings on the Elo scale, their mean at 1500."""
    mean = sum(theta) / len(theta) if theta else 0.0
    return [CENTRE + ELO * (t - mean) for t in theta]


# -- the bootstrap's random draws: Python's generator, so that a seed gives what it always gave


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A binomial draw: by waiting times for a small mean, else Hörmann's transformed
    rejection with squeeze (BTRS), so each draw costs O(1) whatever ``n``."""
    if n <= 0 or p <= 0:
        return 0
    if p >= 1:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1 - p)
    if n * p < 10:
        log_q, x, y = math.log1p(-p), 0, 0
        while True:
            y += math.floor(math.log(1 - rng.random()) / log_q) + 1
            if y > n:
                return x
            x += 1
    return _btrs(rng, n, p)


def _btrs(rng: random.Random, n: int, p: float) -> int:
    spq = math.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = math.log(p / (1 - p))
    mode = math.floor((n + 1) * p)
    h = math.lgamma(mode + 1) + math.lgamma(n - mode + 1)
    while True:
        u = rng.random() - 0.5
        v = rng.random()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c) if us > 0 else -1
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v *= alpha / (a / (us * us) + b)
        if math.log(v) <= h - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (k - mode) * lpq:
            return k


def multinomial(rng: random.Random, total: int, counts: Sequence[int]) -> list[int]:
    """``total`` draws with replacement from a pool holding ``counts`` of each kind: how
    many of each kind were drawn. Few draws a kind: the draws themselves; else conditional
    binomials, one a kind (both are the multinomial law, each the cheaper where it is used)."""
    if total <= 0 or not any(counts):
        return [0] * len(counts)
    if total < 8 * len(counts):
        drawn = [0] * len(counts)
        for kind in rng.choices(range(len(counts)), cum_weights=list(itertools.accumulate(counts)), k=total):
            drawn[kind] += 1
        return drawn
    drawn, left, mass = [], total, sum(counts)
    for count in counts:
        k = left if count >= mass else binomial(rng, left, count / mass) if count else 0
        drawn.append(k)
        left -= k
        mass -= count
    return drawn


def bootstrap(count: int, cells: Sequence[Cell], rounds: int, seed: int,
              start: Sequence[float]) -> list[Interval]:
    """Each player's 95% percentile interval of the rating over ``rounds`` resamplings of the
    games, seeded by ``seed``, each fit from ``start`` (the full data's fit). The fit depends
    only on each pair's wins, draws and losses, so a round draws those counts from the
    multinomial law that resampling the games with replacement gives them: its cost does not
    grow with the games. The rounds are drawn first, one after another from one generator,
    then fit all at once."""
    np = require_numpy()
    if not rounds or not count:
        return [(CENTRE, CENTRE)] * count
    rng = random.Random(seed)
    flat = [c for cell in cells for c in cell[2:]]
    total = sum(flat)
    drawn = np.array([multinomial(rng, total, flat) for _ in range(rounds)], dtype=float)
    drawn = drawn.reshape(rounds, len(cells), 3)
    first = np.array([cell[0] for cell in cells], dtype=np.intp)
    second = np.array([cell[1] for cell in cells], dtype=np.intp)
    games = _Games(np, count, first, second, drawn.sum(axis=2), drawn[:, :, 0] + drawn[:, :, 1] / 2)
    begin = np.array(start, dtype=float)
    if count <= MOST_NEWTON_PLAYERS:
        full = [(i, j, float(w + d + lost), w + d / 2) for i, j, w, d, lost in cells]
        theta = _chord(games, begin, chord_inverse(count, full, start))
    else:
        theta = _mm(games, _mapped(np, math.exp, np.repeat(begin[None, :], rounds, axis=0)), 10_000)
    mean = theta.cumsum(axis=1)[:, -1:] / count  # summed in order, as sum() does
    rated = np.sort(CENTRE + ELO * (theta - mean), axis=0)
    return list(zip(_percentile(np, rated, 0.025).tolist(), _percentile(np, rated, 0.975).tolist(),
                    strict=True))


def _percentile(np: Any, sorted_rows: Any, q: float) -> Any:
    """Each column's ``q`` quantile, interpolated linearly between order statistics."""
    at = q * (sorted_rows.shape[0] - 1)
    low = math.floor(at)
    high = min(low + 1, sorted_rows.shape[0] - 1)
    return sorted_rows[low] + (sorted_rows[high] - sorted_rows[low]) * (at - low)
