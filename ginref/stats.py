"""The statistics of a match: Elo with its error, the likelihood of superiority, and the SPRT.

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

numpy and scipy do the numerics, imported when a function is first called, so that a
command that never computes a statistic never pays for them (docs/match.md says why they
are an extra: ``pip install 'ginref[match]'``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from ginref.errors import GinrefError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EloEstimate", "SprtResult", "elo", "mean_interval", "sprt", "sprt_bounds"]

Model = Literal["normalized", "logistic"]
MODELS: tuple[Model, ...] = ("normalized", "logistic")
Z95 = 1.959963984540054
"""the standard normal's 97.5% quantile: a 95% two-sided interval"""
_NELO_SCALE = 800.0 / math.log(10.0)
"""normalized Elo per unit of (score - 1/2) / sigma: the logistic curve's slope at 1/2, as Elo"""
_EMPTY = 1e-3
"""what the SPRT counts an empty cell as, so that no outcome is judged impossible"""


class StatsError(GinrefError, ValueError):
    """Counts or test parameters that cannot be used (or numpy and scipy missing)."""


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
