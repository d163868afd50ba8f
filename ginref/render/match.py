"""The text of ``ginref match``: the progress line and the statistics block of each pairing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ginref.arena.match import MatchSummary, Tally

if TYPE_CHECKING:
    from ginref.ranking import Standings

__all__ = ["match_block", "progress_line", "summary_text"]


def _signed(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:+.1f}"


def _error(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.1f}"


def progress_line(played: int, total: int, tallies: Sequence[Tally]) -> str:
    """One line: pairs played of the schedule, and each pairing's score so far."""
    parts = []
    for tally in tallies:
        losses, draws, wins = tally.games
        parts.append(f"{tally.first} {wins + draws / 2:g}-{losses + draws / 2:g} {tally.second}")
    return f"pair {played}/{total}: " + "; ".join(parts)


def match_block(tally: Tally, sprt: dict[str, object] | None = None) -> str:
    """A pairing's statistics, from its first bot's side: games, pairs, Elo, points, SPRT."""
    from ginref.stats import StatsError, elo, mean_interval

    losses, draws, wins = tally.games
    pairs = sum(tally.pairs)
    lines = [f"{tally.first} vs {tally.second}: {pairs} pairs, {wins + draws + losses} games",
             f"  games   W {wins}  D {draws}  L {losses}",
             "  pairs   " + "  ".join(f"{share} {n}" for share, n in zip(("0", "1/4", "1/2", "3/4", "1"),
                                                                          tally.pairs, strict=True))]
    try:
        estimate = elo(tally.pairs)
        lines.append(f"  Elo     {_signed(estimate.elo)} +/- {_error(estimate.elo_error)}   "
                     f"nElo {_signed(estimate.nelo)} +/- {_error(estimate.nelo_error)}   "
                     f"LOS {estimate.los:.2%}")
        mean, low, high = mean_interval(tally.net_points)
        lines.append(f"  points  {_signed(mean)} per pair (95%: {_signed(low)} to {_signed(high)})")
    except StatsError as exc:  # say why the figures are missing (the extra not installed, no games yet)
        lines.append(f"  Elo     not estimated: {exc}")
    if sprt is not None and "lower" in sprt:
        decision = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(str(sprt["decision"]), "going on")
        lines.append(f"  SPRT    LLR {float(sprt['llr']):.2f} ({float(sprt['lower']):.2f}, "  # type: ignore[arg-type]
                     f"{float(sprt['upper']):.2f}): {decision}")  # type: ignore[arg-type]
    failed = []
    for bot, kinds in sorted(tally.failures.items()):
        failed.append(f"{bot}: " + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())))
    lines.append("  failures " + ("; ".join(failed) if failed else "none"))
    return "\n".join(lines)


def summary_text(summary: MatchSummary, ranked: Standings | None = None, width: int | None = None,
                 out: str | None = None) -> str:
    """Every pairing's block, the standings (with ``ranked``), and how the run ended."""
    blocks = [match_block(t, summary.sprt) for t in summary.tallies]
    if ranked is not None and ranked.standings:
        from ginref.render.report import standings_text

        blocks.append(standings_text(ranked, width))
    if summary.stopped is not None:
        blocks.append(f"stopped: {summary.stopped}")
    if out is not None:
        blocks.append(f"records: {out}/records.jsonl (ginref verify, ginref report read them)")
    return "\n\n".join(blocks)
