"""Rendering: JSON documents and text tables. No game logic lives here.

JSON is the ``to_dict()`` form of the library's value objects, dumped with a
stable key order. Text uses tabulate; cards are shown with ``10`` for ten,
and with suit glyphs (red hearts and diamonds) when asked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ginref.cards import Card, Mask, card_label, scan

if TYPE_CHECKING:
    from ginref.analysis import HandAnalysis
    from ginref.layoffs import LayoffReport
    from ginref.melds import Arrangement, Meld
    from ginref.rules import Rules
    from ginref.scoring import HandScore


def to_json(document: object, *, compact: bool = False) -> str:
    """One JSON document: indented, or on one line for streams (JSON Lines)."""
    if compact:
        return json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return json.dumps(document, indent=2, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class CardStyle:
    """How text output shows a card: letters or glyphs, coloured or plain."""

    glyphs: bool = False
    color: bool = False

    def card(self, c: Card) -> str:
        label = card_label(c, glyphs=self.glyphs)
        if self.color and c // 13 in (1, 2):
            return f"\x1b[31m{label}\x1b[0m"
        return label

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def mask(self, mask: Mask) -> str:
        return self.cards(scan(mask))

    def meld(self, meld: Meld) -> str:
        return "[" + self.cards(meld.cards) + "]"

    def melds(self, melds: Iterable[Meld]) -> str:
        return " ".join(self.meld(m) for m in melds) or "none"

    def deadwood(self, mask: Mask, points: int) -> str:
        return f"{self.mask(mask)} = {points}" if mask else "none = 0"


def _table(rows: Sequence[Sequence[object]], headers: Sequence[str] = ()) -> str:
    from tabulate import tabulate

    if headers:
        return tabulate(rows, headers=list(headers), tablefmt="simple", disable_numparse=True)
    return tabulate(rows, tablefmt="plain", disable_numparse=True)


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
    parts = [_table(rows)]
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
        parts.append(_table(table, ["discard", "deadwood", "melds", "knock", "gin"]))
    if result.arrangements and len(result.arrangements) > 1:
        parts.append("")
        parts.append(f"{len(result.arrangements)} optimal arrangements:")
        parts.append(
            _table(
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


def rules_list_text(presets: Sequence[Rules]) -> str:
    rows = [[r.name, ", ".join(r.aliases), r.description] for r in presets]
    return _table(rows, ["name", "aliases", "description"])


def rules_text(rules: Rules) -> str:
    data = rules.to_dict()
    rows = [[key, _knob_text(value)] for key, value in data.items() if key not in ("overrides",)]
    return _table(rows, ["knob", "value"])


def _knob_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def layoffs_text(report: LayoffReport, style: CardStyle) -> str:
    rows: list[list[str]] = [
        ["knocker's melds", style.melds(report.knocker_melds)],
        ["defender's hand", style.mask(report.defender)],
    ]
    if report.knocker_gin and not report.layoffs_allowed:
        rows.append(["layoffs", "none: no layoffs onto gin"])
    parts = [_table(rows)]
    if report.candidates:
        parts.append("")
        parts.append(
            _table(
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
    parts.append(_table(best))
    return "\n".join(parts)


def score_text(result: HandScore, style: CardStyle) -> str:
    winner = result.winner or "nobody"
    headline = (
        f"{result.outcome.value}: {result.points} to the {winner}"
        if result.winner
        else (f"{result.outcome.value}: no score")
    )
    knocker = result.knocker
    defence = result.defence
    rows = [
        ["", "melds", "layoffs", "deadwood"],
        [
            "knocker",
            style.melds(knocker.melds),
            "",
            style.deadwood(knocker.deadwood, knocker.deadwood_points),
        ],
        [
            "defender",
            style.melds(defence.arrangement.melds),
            ", ".join(f"{style.card(layoff.card)}>{style.meld(layoff.onto)}" for layoff in defence.layoffs)
            or "none",
            style.deadwood(defence.arrangement.deadwood, defence.deadwood_points),
        ],
    ]
    parts = [headline, "", _table(rows[1:], rows[0]), ""]
    parts.extend(result.explanation)
    parts.append(f"rules: {result.rules.label}")
    return "\n".join(parts)


# == game rendering ==
