"""``advise``'s text: each knock option weighed, then the advice in plain words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ginref.render.tables import CardStyle, text_table

if TYPE_CHECKING:
    from ginref.advice import Advice, KnockOption


def advise_text(advice: Advice, style: CardStyle) -> str:
    """How the position was weighed, one row per knock option (best first), then the advice."""
    best = advice.best
    if best is None:
        return f"no knock: {advice.reason}\nrules: {advice.rules.label}"
    hands = "hand" if advice.possible_hands == 1 else "hands"
    if advice.method == "exact":
        how = f"exact: all {advice.defender_hands:,} {hands} the opponent may hold"
    else:
        how = (
            f"sampled: {advice.defender_hands:,} of the {advice.possible_hands:,} {hands} the opponent "
            f"may hold (seed {advice.seed}); ± is a 95% interval"
        )
    rows = [_advise_row(option, style) for option in advice.options]
    return "\n".join([
        f"{how}; {advice.unseen} unseen cards, {advice.stock} in the stock",
        "",
        text_table(rows, ["discard", "deadwood", "melds", "win", "undercut", "tie", "expected"]),
        "",
        _advice_line(best, style),
        f"rules: {advice.rules.label}",
    ])


def _advise_row(option: KnockOption, style: CardStyle) -> list[str]:
    interval = option.ci95() or {}

    def share(key: str, value: float) -> str:
        margin = f" ±{100 * interval[key]:.1f}" if key in interval else ""
        return f"{100 * value:.1f}%{margin}"

    margin = f" ±{interval['expected_points']:.1f}" if interval else ""
    return [
        style.card(option.discard) if option.discard is not None else "-",
        "gin" if option.ending != "knock" else str(option.declaration.deadwood_points),
        style.melds(option.declaration.melds),
        share("p_win", option.p_win),
        share("p_undercut", option.p_undercut),
        share("p_tie", option.p_tie),
        f"{option.expected_points:+.1f}{margin}",
    ]


def _percent(share: float) -> str:
    """A share in whole percent, never rounded to 0% or 100% when it is not."""
    if 0 < share < 0.005:
        return "under 1%"
    if 0.995 <= share < 1:
        return "over 99%"
    return f"{share:.0%}"


def _advice_line(option: KnockOption, style: CardStyle) -> str:
    """The best option in plain words: how to knock, how often it wins, what it is worth."""
    what = {"gin": "going gin", "big_gin": "going big gin"}.get(
        option.ending, f"knocking with {option.declaration.deadwood_points}"
    )
    if option.discard is not None:
        what += f" after discarding {style.card(option.discard)}"
    chances = f"wins {_percent(option.p_win)}"
    if option.undercuts:
        chances += f" and is undercut {_percent(option.p_undercut)}"
    if option.ties:
        chances += f" and ties {_percent(option.p_tie)}"
    verdict = "" if option.points >= 0 else "; on average this knock loses"
    return f"{what} {chances}: expected {option.expected_points:+.1f} points{verdict}"
