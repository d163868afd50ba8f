"""The hand commands' text: ``analyze``, ``knock``, ``layoffs`` and ``score``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ginref.render.tables import WIDTH, CardStyle, text_table, wrap_room, wrapped

if TYPE_CHECKING:
    from ginref.analysis import HandAnalysis
    from ginref.layoffs import LayoffReport
    from ginref.melds import Arrangement
    from ginref.scoring import HandScore


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"



def arrangement_lines(arrangement: Arrangement, style: CardStyle) -> list[list[str]]:
    return [
        ["melds", style.melds(arrangement.melds)],
        ["deadwood", style.deadwood(arrangement.deadwood, arrangement.deadwood_points)],
    ]


def analysis_text(result: HandAnalysis, style: CardStyle) -> str:
    rows: list[list[str]] = [["hand", style.mask(result.cards)]]
    if result.size == 11:
        assert result.best_discard is not None
        rows.append(["best discard", style.card(result.best_discard)])
    rows += arrangement_lines(result.arrangement, style)
    rows += [
        ["knock", f"{_yes(result.can_knock)} (limit {result.knock_limit})"],
        ["gin", _yes(result.gin)],
    ]
    if result.size == 11:
        rows.append(["big gin", _yes(result.big_gin)])
    rows.append(["rules", result.rules.label])
    parts = [text_table(rows)]
    for note in result.notes:
        parts.append(f"note: {note}")
    if result.discards:
        table = [
            [
                style.card(o.discard),
                str(o.arrangement.deadwood_points),
                style.melds(o.arrangement.melds),
                _yes(o.can_knock),
                _yes(o.gin),
            ]
            + ([] if o.legal else ["not allowed"])
            for o in sorted(result.discards, key=lambda o: (o.arrangement.deadwood_points, o.discard))
        ]
        parts.append("")
        parts.append(text_table(table, ["discard", "deadwood", "melds", "knock", "gin"]))
    if result.arrangements and len(result.arrangements) > 1:
        parts.append("")
        parts.append(f"{len(result.arrangements)} optimal arrangements:")
        parts.append(
            text_table(
                [
                    [str(i), style.melds(a.melds), style.deadwood(a.deadwood, a.deadwood_points)]
                    for i, a in enumerate(result.arrangements, 1)
                ],
                ["#", "melds", "deadwood"],
            )
        )
    return "\n".join(parts)


def knock_text(result: HandAnalysis, style: CardStyle) -> str:
    """A one-line verdict, then the spread that earns it."""
    best = result.arrangement
    discard = (
        f"discard {style.card(result.best_discard)} face down, " if result.best_discard is not None else ""
    )
    if result.big_gin:
        verdict = "big gin: all 11 cards meld"
    elif result.gin:
        verdict = f"gin: {discard}every card melds"
    elif result.can_knock:
        verdict = f"knock: {discard}deadwood {best.deadwood_points} is within the limit {result.knock_limit}"
    elif result.knock_limit == 0:
        verdict = f"no: only gin ends the hand here, and the least deadwood is {best.deadwood_points}"
    else:
        verdict = (
            f"no: the least deadwood is {best.deadwood_points}, over the knock limit {result.knock_limit}"
        )
    lines = [verdict, *(f"  {k}: {v}" for k, v in arrangement_lines(best, style))]
    lines += [f"note: {note}" for note in result.notes]
    return "\n".join(lines)



def layoffs_text(report: LayoffReport, style: CardStyle) -> str:
    rows: list[list[str]] = [
        ["knocker's melds", style.melds(report.knocker_melds)],
        ["defender's hand", style.mask(report.defender)],
    ]
    if report.knocker_gin and not report.layoffs_allowed:
        rows.append(["layoffs", "none: no layoffs onto gin"])
    parts = [text_table(rows)]
    if report.candidates:
        parts.append("")
        parts.append(
            text_table(
                [[style.card(c), ", ".join(style.meld(m) for m in melds)] for c, melds in report.candidates],
                ["card", "can go onto"],
            )
        )
    defence = report.defence
    parts.append("")
    parts.append("best response:")
    best = [
        ["own melds", style.melds(defence.arrangement.melds)],
        [
            "layoffs",
            ", ".join(f"{style.card(lay.card)} onto {style.meld(lay.onto)}" for lay in defence.layoffs)
            or "none",
        ],
        ["deadwood", style.deadwood(defence.arrangement.deadwood, defence.deadwood_points)],
    ]
    parts.append(text_table(best, wrap={1: wrap_room(WIDTH, 9)}))
    return "\n".join(parts)


def score_text(
    result: HandScore, style: CardStyle, width: int = WIDTH, names: tuple[str, str] | None = None
) -> str:
    """The ruling: the headline, each side's spread, then the numbered steps that reach it,
    each citing the knobs it applied; ``names`` (knocker, defender) name the two players."""
    from ginref.scoring import numbered

    knocker_name, defender_name = names or ("the knocker", "the defender")
    named = {"knocker": knocker_name, "defender": defender_name}
    headline = (
        f"{result.outcome.value}: {result.points} to {named[result.winner]}"
        if result.winner
        else (f"{result.outcome.value}: no score")
    )
    knocker = result.knocker
    defence = result.defence
    layoffs = ", ".join(f"{style.card(lay.card)} onto {style.meld(lay.onto)}" for lay in defence.layoffs)
    sides = ("knocker", "defender") if names is None else (f"{names[0]} (knocker)", f"{names[1]} (defender)")
    rows = [
        [sides[0], "melds", style.melds(knocker.melds)],
        ["", "deadwood", style.deadwood(knocker.deadwood, knocker.deadwood_points)],
        [sides[1], "melds", style.melds(defence.arrangement.melds)],
        ["", "layoffs", layoffs or "none"],
        ["", "deadwood", style.deadwood(defence.arrangement.deadwood, defence.deadwood_points)],
    ]
    parts = [headline, "", text_table(rows, wrap={2: wrap_room(width, max(map(len, sides)), 8)}), ""]
    for line in numbered(result.steps, style.card):
        if names is not None:
            line = line.replace("the knocker", names[0]).replace("the defender", names[1])
        parts.extend(wrapped(line, width, "   "))
    parts.append(f"rules: {result.rules.label}")
    return "\n".join(parts)
