"""ginref.stats against fastchess's published test vectors (app/tests/sprt_test.cpp and
elo_test.cpp), which fastchess states to two decimals.

fastchess builds its counts as Stats(wins, losses, draws) and, for pairs,
Stats(LL, LD, WL, DD, WD, WW); ours are (losses, draws, wins) and the pentanomial
(LL, LD, WL + DD, WD, WW): a pair won and lost scores 1/2, as two draws do.
"""

from __future__ import annotations

import pytest

from ginref.stats import StatsError, elo, sprt, sprt_bounds


def trinomial(wins: int, losses: int, draws: int) -> tuple[int, int, int]:
    return losses, draws, wins


def pentanomial(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> tuple[int, ...]:
    return ll, ld, wl + dd, wd, ww


def published(value: float) -> object:
    """Equal to two decimals; the largest LLRs to 0.05%, since fastchess stops its
    maximum-likelihood iteration at a change of 1e-4 and we iterate to convergence."""
    return pytest.approx(value, abs=0.005, rel=5e-4)


SPRT_VECTORS = [
    # counts, elo0, elo1, model, LLR
    (trinomial(36433, 36027, 68692), 0, 2, "normalized", 0.92),
    (trinomial(10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    (trinomial(4250, 0, 0), 0, 10, "normalized", 120.56),
    (trinomial(21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    (trinomial(57433, 57030, 106593), 0, 2, "logistic", -2.59),
    (pentanomial(365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    (pentanomial(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    (pentanomial(0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    (pentanomial(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    (pentanomial(871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "llr"), SPRT_VECTORS)
def test_sprt_llr_is_fastchess(counts: tuple[int, ...], elo0: float, elo1: float, model: str,
                               llr: float) -> None:
    assert sprt(counts, elo0, elo1, model=model).llr == published(llr)


def test_the_issue_example() -> None:
    assert round(sprt((365, 16618, 36229, 16974, 390), 0, 2).llr, 2) == 2.25
    estimate = elo((34, 54, 63, 64, 75))
    assert (round(estimate.elo, 2), round(estimate.elo_error, 2)) == (55.58, 27.65)
    assert (round(estimate.nelo, 2), round(estimate.nelo_error, 2)) == (57.94, 28.28)


ELO_VECTORS = [
    # counts, nElo, nElo error, Elo, Elo error (None: not published), LOS %, score
    (trinomial(76, 89, 123), -20.76, 40.13, None, None, 15.53, 0.477),
    (trinomial(136, 96, 111), 49.77, 36.77, 40.70, 30.43, 99.60, 0.558),
    (trinomial(34, 356, 0), -508.44, 34.48, None, None, None, 0.087),
    (pentanomial(34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 100.00, 0.579),
    (pentanomial(332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 5.05, 0.488),
    (pentanomial(7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, 0.00, 0.470),
]


@pytest.mark.parametrize(("counts", "nelo", "nelo_error", "diff", "error", "los", "score"), ELO_VECTORS)
def test_elo_is_fastchess(counts: tuple[int, ...], nelo: float, nelo_error: float, diff: float | None,
                          error: float | None, los: float | None, score: float) -> None:
    estimate = elo(counts)
    assert estimate.nelo == published(nelo)
    assert estimate.nelo_error == published(nelo_error)
    if diff is not None:
        assert estimate.elo == published(diff)
        assert estimate.elo_error == published(error)
    if los is not None:
        assert f"{estimate.los * 100:.2f}" == f"{los:.2f}"
    assert round(estimate.score, 3) == score


def test_decision_and_bounds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (round(lower, 4), round(upper, 4)) == (-2.9444, 2.9444)
    assert sprt((0, 0, 0, 0, 5550), 0, 5).decision == "H1"
    assert sprt((5550, 0, 0, 0, 0), 0, 5).decision == "H0"
    assert sprt((10, 10, 10, 10, 10), 0, 5).decision == "continue"


def test_mirrored_counts_mirror_elo() -> None:
    counts = (3, 9, 20, 12, 6)
    one, other = elo(counts), elo(counts[::-1])
    assert one.elo == pytest.approx(-other.elo)
    assert one.nelo == pytest.approx(-other.nelo)
    assert one.los == pytest.approx(1 - other.los)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: elo((1, 2)), "trinomial"),
    (lambda: elo((0, 0, 0)), "no games"),
    (lambda: elo((1, -1, 2)), "whole numbers"),
    (lambda: sprt((1, 2, 3), 2, 0), "elo0"),
    (lambda: sprt((1, 2, 3), 0, 2, model="bayes"), "model"),
    (lambda: sprt((1, 2, 3), 0, 2, alpha=0.6, beta=0.5), "alpha"),
])
def test_bad_input_is_a_stats_error(call: object, words: str) -> None:
    with pytest.raises(StatsError, match=words):
        call()  # type: ignore[operator]


def test_a_block_without_figures_says_why() -> None:
    """No pair played yet: the block says the Elo is not estimated and why, not nothing."""
    from ginref.arena.match import Tally
    from ginref.render.match import match_block

    block = match_block(Tally("greedy", "random"))
    assert "  Elo     not estimated: no games to estimate from" in block.splitlines()
    played = Tally("greedy", "random", games=[0, 0, 2], pairs=[0, 0, 0, 0, 1], net_points=[40])
    assert "not estimated" not in match_block(played)
