"""Rendering: text tables and the batch's JSON streams. No game logic lives here.

JSON is the ``to_dict()`` form of the library's value objects, written by
:mod:`ginref.jsonwrite` with a stable key order. Text uses tabulate; cards are shown with ``10`` for ten,
and with suit glyphs (red hearts and diamonds) when asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from ginref.cards import Card, Mask, card_label, scan
from ginref.jsonwrite import json_line

if TYPE_CHECKING:
    from ginref.analysis import HandAnalysis
    from ginref.batch import BatchSummary, FindingRow, RecordResult
    from ginref.layoffs import LayoffReport
    from ginref.melds import Arrangement, Meld
    from ginref.referee import Verdict
    from ginref.rulefit import RulesFit
    from ginref.rules import Rules
    from ginref.scoring import HandScore


Paint = Callable[[str, str], str]
"""``paint(text, colour)``: text in a named colour ("red"); the command line passes ``click.style``."""


class CardStyle(msgspec.Struct, frozen=True):
    """How text output shows a card: letters or glyphs, coloured or plain.

    Colour comes from ``paint``, given by the caller, so render holds no escape
    codes and the command line's one colour function (click's) decides them.
    """

    glyphs: bool = False
    paint: Paint | None = None

    def card(self, c: Card) -> str:
        label = card_label(c, glyphs=self.glyphs)
        if self.paint is not None and c // 13 in (1, 2):
            return self.paint(label, "red")
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


_POINTER_WINDOW = 72


def pointer(text: str, column: int, indent: str = "  ") -> str:
    """Two lines: ``text`` (a window of it around ``column``, 1-based) and a caret under that column.

    Control characters show as ``?`` and wide characters take two cells, so the
    caret stays under the character it names.
    """
    if "\n" in text or column < 1:
        return ""
    at = min(column - 1, len(text))
    start = max(0, at - _POINTER_WINDOW // 2)
    window = text[start : start + _POINTER_WINDOW]
    shown = "".join(_cell(c) for c in window)
    lead = ("..." if start else "") + "".join(_cell(c) for c in text[start:at])
    tail = "..." if start + _POINTER_WINDOW < len(text) else ""
    return f"{indent}{'...' if start else ''}{shown}{tail}\n{indent}{' ' * _width(lead)}^"


def _cell(c: str) -> str:
    return "?" if not c.isprintable() and c != " " else c


def _width(text: str) -> int:
    import unicodedata

    return sum(0 if unicodedata.combining(c) or c in "\ufe0e\ufe0f" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


WIDTH = 80
"""Columns text output fits when the caller knows no better (a pipe, a file)."""


def _table(
    rows: Sequence[Sequence[object]],
    headers: Sequence[str] = (),
    right: Sequence[int] = (),
    wrap: dict[int, int] | None = None,
) -> str:
    """A table; columns ``right`` right-aligned (numbers), ``wrap`` column -> most characters."""
    if not wrap and _plain_cells(rows, headers):
        return _plain_table(rows, headers, right)
    from tabulate import tabulate

    count = max([len(headers), *(len(row) for row in rows)])
    align = ["right" if i in right else "left" for i in range(count)]
    widths = [None if wrap is None else wrap.get(i) for i in range(count)] if wrap else None
    if wrap:
        rows = [[_unbreakable(str(cell)) for cell in row] for row in rows]
    if headers:
        text = tabulate(rows, headers=list(headers), tablefmt="simple", disable_numparse=True,
                        colalign=align, maxcolwidths=widths)
    else:
        text = tabulate(rows, tablefmt="plain", disable_numparse=True, colalign=align, maxcolwidths=widths)
    return text.replace(_NO_BREAK, " ")


def _plain_cells(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> bool:
    """True for a table :func:`_plain_table` lays out as tabulate would: rows of one length
    (the headers' too, if any) of non-empty printable ASCII text without edge spaces."""
    if not rows:
        return False
    count = len(headers) if headers else len(rows[0])
    for row in (headers, *rows) if headers else rows:
        if len(row) != count:
            return False
        for cell in row:
            if type(cell) is not str or not cell or not cell.isascii() or not cell.isprintable():
                return False
            if cell[0] == " " or cell[-1] == " ":
                return False
    return True


def _plain_table(rows: Sequence[Sequence[object]], headers: Sequence[str], right: Sequence[int]) -> str:
    """tabulate's ``plain`` table (``simple`` with headers) of :func:`_plain_cells`, without
    importing it: a one-hand command needs no more, and tabulate costs a third of its start-up."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
    if headers:
        widths = [max(w, len(h) + 2) for w, h in zip(widths, headers, strict=True)]

    def line(row: Sequence[str]) -> str:
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()

    lines = [line(row) for row in cells]
    if headers:
        lines[:0] = [line(headers), "  ".join("-" * w for w in widths)]
    return "\n".join(lines)


_NO_BREAK = "\xa0"
_BRACKETED = r"(?:\S+ onto )?\[[^\]]*\]"
"""A meld, or a layoff onto one: compiled when a table wraps (most never do)."""


def _unbreakable(text: str) -> str:
    """``text`` with the spaces inside each ``[meld]`` kept from wrapping (no-break spaces)."""
    return re.sub(_BRACKETED, lambda m: m.group().replace(" ", _NO_BREAK), text)


def _wrapped(line: str, width: int, indent: str) -> list[str]:
    """A long line wrapped at ``width``, the rest indented by ``indent``: broken after a
    ``;`` or ``,`` where it can be, so that a clause (``3 + 10 undercut bonus = 13``) and
    a meld stay whole."""
    import textwrap

    lines: list[str] = []
    current = ""
    for clause in re.split(r"(?<=[;,]) ", _unbreakable(line)):
        joined = f"{current} {clause}" if current else (indent if lines else "") + clause
        if len(joined) <= width:
            current = joined
            continue
        lead = indent if lines or current else ""
        if current:
            lines.append(current)
        pieces = textwrap.wrap(lead + clause, width, subsequent_indent=indent, break_on_hyphens=False)
        lines.extend(pieces[:-1])
        current = pieces[-1] if pieces else ""
    lines.append(current)
    return [part.replace(_NO_BREAK, " ") for part in lines]


def _score_table(rows: Sequence[Sequence[str]], headers: Sequence[str], right: Sequence[int] = ()) -> str:
    """A score sheet's table: plain text cells, numbers right-aligned, each column as wide as
    its widest cell (tabulate pads headers by two more, which a Hollywood sheet cannot spare)."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)]

    def line(cells: Sequence[str]) -> str:
        padded = (cell.rjust(w) if i in right else cell.ljust(w)
                  for i, (cell, w) in enumerate(zip(cells, widths, strict=True)))
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def _room(width: int, *used: int) -> int:
    """What is left of ``width`` for a wrapped column after the others and the column gaps."""
    return max(20, width - sum(used) - 2 * len(used))


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


def rules_list_text(presets: Sequence[Rules], width: int = WIDTH) -> str:
    rows = [[r.name, ", ".join(r.aliases), r.description] for r in presets]
    names = max(len(r.name) for r in presets)
    aliases = max([7, *(len(row[1]) for row in rows)])
    return _table(rows, ["name", "aliases", "description"], wrap={2: _room(width, names, aliases)})


def rules_text(rules: Rules, width: int = WIDTH) -> str:
    """The rule set's name and description, then each knob: its value and what it decides."""
    import textwrap

    from ginref.rules import KNOB_MEANINGS

    data = rules.to_dict()
    head = [f"{rules.label}: {rules.description}"]
    if rules.aliases:
        head.append(f"aliases: {', '.join(rules.aliases)}")
    lines = [line for text in head for line in textwrap.wrap(text, width, subsequent_indent="  ")]
    rows = [[knob, _knob_text(data[knob]), KNOB_MEANINGS[knob]] for knob in KNOB_MEANINGS]
    knobs = max(len(row[0]) for row in rows)
    values = max(5, *(len(row[1]) for row in rows))
    return "\n".join([*lines, "", _table(rows, ["knob", "value", "meaning"],
                                           wrap={2: _room(width, knobs, values)})])


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
    parts.append(_table(best, wrap={1: _room(WIDTH, 9)}))
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
    parts = [headline, "", _table(rows, wrap={2: _room(width, max(map(len, sides)), 8)}), ""]
    for line in numbered(result.steps, style.card):
        if names is not None:
            line = line.replace("the knocker", names[0]).replace("the defender", names[1])
        parts.extend(_wrapped(line, width, "   "))
    parts.append(f"rules: {result.rules.label}")
    return "\n".join(parts)


# == game rendering ==

if TYPE_CHECKING:
    from ginref.game import Bonus, GameTally, HollywoodTally

_CHART_WIDTH = 40
_BONUS_LABELS = {"game": "game bonus", "shutout": "shutout", "box": "boxes"}


def _hand_points(points: int, multiplier: int, box_points: int = 0) -> str:
    text = str(points)
    if multiplier > 1:
        text += f" (x{multiplier})"
    if box_points:
        text += f" + {box_points} box"
    return text


def _bonus_rows(players: tuple[str, str], bonuses: dict[str, tuple[Bonus, ...]]) -> list[list[str]]:
    rows = []
    for kind, label in _BONUS_LABELS.items():
        cells = [
            ", ".join(f"{b.points} ({b.detail})" if kind == "box" else str(b.points)
                      for b in bonuses[p] if b.kind == kind)
            for p in players
        ]
        if any(cells):
            rows.append([label, *cells])
    return rows


def game_text(result: GameTally) -> str:
    """The score sheet of one game: hands with running totals, bonuses, the result."""
    a, b = result.players
    rows = [
        [
            str(h.number), h.winner or "-", h.outcome.replace("_", " "),
            _hand_points(h.points, h.multiplier, h.box_points) if h.winner else "",
            str(h.totals[a]), str(h.totals[b]), h.next_dealer or "?",
        ]
        for h in result.hands
    ]
    headers = ["hand", "winner", "outcome", "points", a, b, "next dealer"]
    parts = [_score_table(rows, headers, right=(0, 3, 4, 5))] if rows else ["no hands yet"]
    target = result.rules.game_target
    if result.game_over and target:
        totals = [
            ["hands", str(result.hand_totals[a]), str(result.hand_totals[b])],
            *_bonus_rows(result.players, result.bonuses),
            ["final", str(result.final_totals[a]), str(result.final_totals[b])],
        ]
        parts += ["", _score_table(totals, ["", a, b], right=(1, 2))]
    parts.append("")
    final = f"{a} {result.final_totals[a]}, {b} {result.final_totals[b]}"
    if not target:
        outcome = f"{result.winner} wins the hand" if result.winner else "nobody scores"
        parts.append(f"single hand: {outcome} ({final})" if result.hands else "single hand: not played")
    elif result.game_over:
        line = f"{result.winner} wins the game: {final}, margin {result.margin}"
        if result.shutout:
            line += " (shutout)"
        parts.append(line)
        if result.leader != result.winner:
            parts.append(f"note: {result.leader or 'nobody'} has the higher final total")
        if result.next_dealer:
            parts.append(f"next game: {result.next_dealer} deals")
    else:
        lead = f"{result.leader} leads by {result.margin}" if result.leader else "level"
        parts.append(f"game not over (target {target}): {final}; {lead}")
        if result.next_dealer:
            parts.append(f"next dealer: {result.next_dealer}")
    parts.append(f"rules: {result.rules.label}")
    return "\n".join(parts)


def hollywood_text(result: HollywoodTally) -> str:
    """A Hollywood sheet: hands with the games they went into and all three totals,
    then each game's totals one player a row (so the sheet fits 80 columns)."""
    a, b = result.players
    rows = []
    for h in result.hands:
        cells = [
            f"{t[a]}-{t[b]}" + ("*" if i in h.closed else " ") for i, t in enumerate(h.totals, 1)
        ]
        rows.append([
            str(h.number), h.winner or "-", h.outcome.replace("_", " "),
            _hand_points(h.points, h.multiplier) if h.winner else "",
            " ".join(map(str, h.games)) or "-", *cells, h.next_dealer or "?",
        ])
    headers = ["hand", "winner", "outcome", "points", "games", "game 1", "game 2", "game 3", "deals"]
    legend = f"(game columns: {a}-{b} after each hand; * = the hand that closed the game)"
    parts = [_score_table(rows, headers, right=(0, 3, 5, 6, 7)) if rows else "no hands yet", legend, ""]
    games = []
    for i, game in enumerate(result.games, 1):
        for player in (a, b):
            games.append([
                str(i) if player == a else "", (game.winner or "open") if player == a else "", player,
                str(game.hand_totals[player]), _bonus_text(game.bonuses[player]),
                str(game.final_totals[player]),
            ])
    headers = ["game", "winner", "player", "hands", "bonuses", "final"]
    parts.append(_score_table(games, headers, right=(0, 3, 5)))
    parts.append("")
    final = f"{a} {result.match_totals[a]}, {b} {result.match_totals[b]}"
    if result.match_over:
        parts.append(f"{result.winner or 'nobody'} wins the match: {final}, margin {result.margin}")
        if result.next_dealer:
            parts.append(f"next match: {result.next_dealer} deals")
    else:
        lead = f"{result.leader} leads by {result.margin}" if result.leader else "level"
        open_games = ", ".join(map(str, result.open_games))
        parts.append(f"match not over (open games: {open_games}): {final}; {lead}")
        if result.next_dealer:
            parts.append(f"next dealer: {result.next_dealer}")
    parts.append(f"rules: {result.rules.label}")
    return "\n".join(parts)


def game_csv(result: GameTally | HollywoodTally) -> str:
    """The hands of a sheet as CSV for spreadsheets: one row per hand, each player's running
    total (per game, for Hollywood) and who deals next; numbers as plain integers."""
    import csv
    import io

    from ginref.game import GameTally

    a, b = result.players
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = ["hand", "winner", "outcome", "points", "multiplier"]
    if isinstance(result, GameTally):
        writer.writerow([*head, a, b, "next_dealer"])
        for h in result.hands:
            writer.writerow([h.number, h.winner or "", h.outcome, h.points, h.multiplier,
                             h.totals[a], h.totals[b], h.next_dealer or ""])
        return out.getvalue()
    games = [f"game{i} {p}" for i in (1, 2, 3) for p in (a, b)]
    writer.writerow([*head, "games", *games, "closed", "next_dealer"])
    for hand in result.hands:
        totals = [t[p] for t in hand.totals for p in (a, b)]
        writer.writerow([hand.number, hand.winner or "", hand.outcome, hand.points, hand.multiplier,
                         " ".join(map(str, hand.games)), *totals, " ".join(map(str, hand.closed)),
                         hand.next_dealer or ""])
    return out.getvalue()


def _bonus_text(bonuses: tuple[Bonus, ...]) -> str:
    return " + ".join(f"{_BONUS_LABELS[b.kind]} {b.points}" for b in bonuses) or "-"


def _race(
    players: tuple[str, str], rows: list[tuple[str, dict[str, int]]], target: int, top: int, width: int
) -> list[str]:
    mark = round(target * width / top) if target else -1
    name_width = max(len(p) for p in players)
    label_width = max([4, *(len(label) for label, _ in rows)])
    lines = [f"{'hand':>{label_width}}"]
    for label, totals in rows:
        for k, player in enumerate(players):
            filled = round(totals[player] * width / top)
            cells = ["#"] * filled + [" "] * (width + 1 - filled)
            if 0 <= mark < len(cells) and cells[mark] == " ":
                cells[mark] = "|"
            bar = "".join(cells).rstrip()
            head = label if k == 0 else ""
            lines.append(
                f"{head:>{label_width}}  {player:<{name_width}} {bar:<{width + 1}} {totals[player]:>4}"
            )
    return lines


def race_series(result: GameTally | HollywoodTally) -> list[list[tuple[int, dict[str, int]]]]:
    """Each game's running totals after each hand: ``[[(hand, {player: total}), ...], ...]``."""
    from ginref.game import GameTally

    games = [result] if isinstance(result, GameTally) else list(result.games)
    return [[(h.number, dict(h.totals)) for h in game.hands] for game in games]


def race_top(result: GameTally | HollywoodTally) -> int:
    """The top of the one scale every game of the race is drawn on: the target or the highest total."""
    totals = [t for game in race_series(result) for _, row in game for t in row.values()]
    return max([result.rules.game_target, 1, *totals])


def race_document(result: GameTally | HollywoodTally) -> dict[str, object]:
    """The chart as data, for ``--chart --json``: the scale, and every game's running totals."""
    return {
        "target": result.rules.game_target,
        "top": race_top(result),
        "games": [[{"hand": number, "totals": totals} for number, totals in game]
                  for game in race_series(result)],
    }


def race_chart(result: GameTally | HollywoodTally, width: int = _CHART_WIDTH) -> str:
    """The race as a plain-text bar chart: each player's running total after each hand,
    every game of a Hollywood match on the same scale."""
    from ginref.game import GameTally

    target = result.rules.game_target
    top = race_top(result)
    scale = f"| = {target}" if target else "no target"
    parts = []
    for i, rows in enumerate(race_series(result), 1):
        title = "race" if isinstance(result, GameTally) else f"game {i}"
        if not rows:
            parts.append(f"{title}: no hands")
            continue
        parts.append(f"{title} ({scale}, full bar = {top})")
        parts.extend(_race(result.players, [(str(n), t) for n, t in rows], target, top, width))
        parts.append("")
    return "\n".join(parts).rstrip("\n")


# == verify rendering ==


def finding_line(source: str, record_line: int, row: FindingRow) -> str:
    """A finding for people: ``source:line:column: severity code: message`` (a JSON
    record's findings name the record's line and the pointer into it)."""
    if row.code == "unreadable":
        where = ":".join(str(part) for part in (source, row.line, row.column) if part)
        return f"{where}: unreadable: {row.message}"
    if row.pointer:
        where = f"{source}:{record_line}: {row.pointer}"
    elif row.line:
        where = f"{source}:{row.line}:{row.column}" if row.column else f"{source}:{row.line}"
    else:
        where = f"{source}:{record_line}"
    return f"{where}: {row.severity} {row.code}: {row.message}"


def result_lines(result: RecordResult) -> list[str]:
    """A verify result's findings as lines for people."""
    return [finding_line(result.source, result.line, row) for row in result.rows]


CSV_HEADER = ("source", "index", "record_line", "line", "column", "pointer", "status", "severity", "code",
              "message")
"""The columns of ``verify --csv``: one row per finding or unreadable record."""


def csv_rows(result: RecordResult) -> str:
    """A verify result's rows of CSV (none for a clean record without advisories)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in result.rows:
        writer.writerow((result.source, result.index, result.line, row.line or "", row.column or "",
                         row.pointer, result.status, row.severity, row.code, row.message))
    return out.getvalue()


def csv_header() -> str:
    return ",".join(CSV_HEADER) + "\n"


def verdict_text(source: str, line: int, verdict: Verdict, *, explain: bool = False) -> str:
    """A record's ruling for people: each hand's result, with ``explain`` how each
    knocked hand was settled (the knobs each step applied), then the findings."""
    from ginref.batch.results import finding_rows
    from ginref.scoring import numbered

    status = "clean" if verdict.clean else f"{len(verdict.errors)} error finding(s)"
    parts = [f"{source}:{line}: {status} (rules: {verdict.rules})"]
    rows = []
    for hand in verdict.hands:
        winner = hand.winner or "nobody"
        totals = ", ".join(f"{name} {points}" for name, points in hand.totals_after or ())
        rows.append(
            [
                str(hand.number if hand.number is not None else hand.index + 1),
                hand.outcome,
                winner,
                str(hand.points),
                totals,
                hand.next_dealer or "",
            ]
        )
    if rows:
        parts.append(_table(rows, ["hand", "outcome", "winner", "points", "totals", "next dealer"]))
    if verdict.game_over and verdict.final_totals:
        finals = ", ".join(f"{name} {points}" for name, points in verdict.final_totals)
        parts.append(f"game over: {verdict.winner} wins; final totals {finals}")
    for hand in verdict.hands if explain else ():
        if hand.steps:
            number = hand.number if hand.number is not None else hand.index + 1
            parts.append(f"hand {number}, how it was settled:")
            parts.extend("  " + step for step in numbered(hand.steps, card_label))
    parts.extend(finding_line(source, line, row) for row in finding_rows(verdict))
    return "\n".join(parts)


SETTLED = 1.0
"""seconds of work before a rate or a time left says anything"""


def progress_text(
    records: int, seconds: float, fraction: float | None, doing: str = "verifying", *,
    width: int | None = None,
) -> str:
    """One line of a batch's progress (``verify``'s, ``report``'s, ``convert``'s): records so
    far, the rate, and with a known size the part read and the time left; the rate and the
    time left only once :data:`SETTLED`. Within ``width``, the rate is left out first, then
    the time left, then the part read."""
    counted = f"{doing}: {records:,} record{'' if records == 1 else 's'}"
    rate = f"{records / seconds:,.0f}/s" if seconds >= SETTLED and records > 1 else ""
    read = f"{fraction:.0%} read" if fraction else ""
    left = ""
    if fraction and seconds >= SETTLED:
        due = round(seconds * (1 - fraction) / fraction)
        left = f"about {due // 60}:{due % 60:02d} left"
    for shown in ((rate, read, left), (read, left), (read,), ()):
        text = ", ".join((counted, *filter(None, shown)))
        if width is None or len(text) <= width:
            return text
    return text[:width]


VerifyForm = str
"""``text``, ``json``, ``jsonl`` or ``csv``: how ``verify`` writes its results."""


def result_json_line(result: RecordResult) -> str:
    """A batch result as one line of JSON: an element of ``verify --json``, a line of ``--jsonl``."""
    return json_line(result.to_dict())


def adjudicate_document(result: RecordResult) -> dict[str, object]:
    """One element of ``adjudicate --json``: where the record is and its verdict, or why
    it is unreadable."""
    if result.verdict is None:
        return result.to_dict()
    return {"source": result.source, "index": result.index, "line": result.line, **result.verdict.to_dict()}


def verify_opening(form: VerifyForm) -> str:
    """What ``verify`` writes before its first result."""
    return {"json": '{"records":[', "csv": csv_header()}.get(form, "")


def verify_result_text(result: RecordResult, form: VerifyForm, first: bool) -> str:
    """One result as ``verify`` writes it in ``form`` (text: nothing for a clean record
    without advisories)."""
    if form == "json":
        return ("" if first else ",") + result_json_line(result)
    if form == "jsonl":
        return result_json_line(result) + "\n"
    if form == "csv":
        return csv_rows(result)
    if result.status != "clean" or len(result.codes) > len(result.error_codes):
        return "\n".join(result_lines(result)) + "\n"
    return ""


def verify_closing(form: VerifyForm, summary: BatchSummary) -> str:
    """What ``verify`` writes after its last result: the summary, in the form's own way."""
    if form == "json":
        return '],"summary":' + json_line(summary.to_dict()) + "}\n"
    if form == "text":
        return verify_summary_text(summary) + "\n"
    return ""


def skipped_files_note(skipped: Sequence[str]) -> str:
    """The note on stderr naming the files a folder walk left out."""
    names = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
    return (f"note: skipped {len(skipped)} file(s) that are not record files: {names} "
            "(name a file to read it whatever its ending)")


def no_record_notes(files: Sequence[tuple[str, str]]) -> str:
    """The notes on stderr naming each file a batch read that held no record, and why."""
    return "\n".join(f"note: {source} holds no record: {why}" for source, why in files)


def verify_summary_text(summary: BatchSummary) -> str:
    """The counts of ``verify``'s text form; records with advisories are counted apart as well,
    since an advisory alone leaves a record clean."""
    rows = [
        ["records", str(summary.records)],
        ["clean", str(summary.clean)],
        ["with findings", str(summary.with_findings)],
        ["unreadable", str(summary.unreadable)],
        ["with advisories", str(summary.advisories)],
    ]
    parts = [_table(rows)]
    if summary.by_code:
        parts.append("")
        counts = [[code, str(n)] for code, n in sorted(summary.by_code.items())]
        parts.append(_table(counts, ["finding", "count"]))
    return "\n".join(parts)


# == advise rendering ==

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
        _table(rows, ["discard", "deadwood", "melds", "win", "undercut", "tie", "expected"]),
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


# == report rendering ==

if TYPE_CHECKING:
    from ginref.audit import BatchReport, PlayerReport


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


_REPORT_TABLES: tuple[tuple[tuple[str, str], ...], ...] = (
    (("\ngames", "games"), ("games\nwon", "games_won"), ("\nhands", "hands"), ("hands\nwon", "hands_won"),
     ("points\nfor", "points_for"),
     ("points\nagainst", "points_against"), ("\nknocks", "knocks"), ("\ngins", "gins"),
     ("big\ngins", "big_gins")),
    (("undercuts\nmade", "undercuts_made"), ("undercuts\nsuffered", "undercuts_suffered"),
     ("deadwood\nat knock", "average_knock_deadwood"), ("ended by\nthe wall", "wall_share"),
     ("\nunfinished", "unfinished"), ("\nforfeited", "forfeited")),
    (("knocks\nnot best", "knocks_not_best"), ("points\ncost", "knock_not_best_points"),
     ("layoffs\nmissed", "missed_layoffs"), ("points\ncost", "missed_layoff_points"),
     ("first-fit\nlayoffs", "first_fit_layoffs"), ("illegal\nmoves", "illegal_move_count")),
)
"""The tables of ``report_text`` (results, knocks, errors): each column's header, two lines,
and the :class:`~ginref.audit.PlayerReport` figure it shows."""


def _report_cell(row: PlayerReport, figure: str) -> str:
    value = getattr(row, figure)
    if figure == "wall_share":
        return _share(value)
    if figure == "average_knock_deadwood":
        return _mean(value)
    if figure == "undercut_risk":
        return "-" if value is None else f"{value.risky} of {value.weighed}"
    return str(value)


def _report_table(rows: Sequence[Sequence[str]], headers: Sequence[str]) -> str:
    """A compact table: headers of two lines over their column, the first column left-aligned
    and the figures right-aligned, each column as wide as its widest line, two spaces apart."""
    heads = [head.split("\n", 1) if "\n" in head else ["", head] for head in headers]
    widths = [max(len(cell) for cell in (*heads[i], *(row[i] for row in rows))) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line([h[0] for h in heads]), line([h[1] for h in heads]),
                      line(["-" * w for w in widths]), *(line(row) for row in rows)])


def _fit(name: str, room: int) -> str:
    """A row's name cut in the middle to ``room`` characters, keeping how it starts and ends
    (a path's folder and file, a rule set's preset and its last knob)."""
    if len(name) <= room:
        return name
    tail = (room - 3) // 2
    return name[:room - 3 - tail] + "..." + name[len(name) - tail:]


def fitted_names(names: Sequence[str], room: int | None) -> list[str]:
    """The names cut to ``room`` characters (None: never cut), or as little wider as keeps
    every cut name apart: two names are never cut into the same text."""
    longest = max(map(len, names), default=0)
    if room is None or room >= longest:
        return list(names)
    wanted = len(set(names))
    for width in range(max(room, 5), longest):
        cut = [_fit(name, width) for name in names]
        if len(set(cut)) == wanted:
            return cut
    return list(names)


def _column_runs(names: Sequence[str], heads: Sequence[str], rows: Sequence[Sequence[str]],
                 width: int | None) -> list[tuple[int, int]]:
    """The table's figure columns split into runs that fit ``width`` beside the names: when a
    name cannot be cut further without two names reading alike, the other columns give way."""
    if width is None or not heads:
        return [(0, len(heads))]
    used = [max(len(part) for text in (head, *(row[i] for row in rows)) for part in text.split("\n"))
            for i, head in enumerate(heads)]
    left = width - max([len(n) for n in names] + [5])
    runs, start, taken = [], 0, 0
    for i, need in enumerate(used):
        if i > start and taken + need + 2 > left:
            runs.append((start, i))
            start, taken = i, 0
        taken += need + 2
    runs.append((start, len(heads)))
    return runs


def _counts_text(counts: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{code} {count}" for code, count in counts)


_GAME_TABLES: tuple[tuple[tuple[str, str], ...], ...] = (
    (("\nhands", "hands"), ("\npoints", "points_for"), ("\nknocks", "knocks"), ("\ngins", "gins"),
     ("big\ngins", "big_gins"), ("\nundercuts", "undercuts_made")),
    (("deadwood\nat knock", "average_knock_deadwood"), ("ended by\nthe wall", "wall_share"),
     ("\nunfinished", "unfinished"), ("\nforfeited", "forfeited")),
    _REPORT_TABLES[2],
)
"""The tables of a report by game or by rule set, whose rows count both players at once: no
games won or points against (a row's points are all its hand points), undercuts once."""
_RULES_TABLES = (((("\ngames", "games"),) + _GAME_TABLES[0]), *_GAME_TABLES[1:])
POINTS_NOTE = "points are hand points as ruled: game and box bonuses are left out"


def report_text(report: BatchReport, width: int | None = WIDTH) -> str:
    """A batch audited, for people: what was read, then three tables (results, knocks,
    errors) with one row per player (game, rule set), then each row's illegal moves by code.
    ``width`` is the terminal's; None (a pipe, a file) never cuts a name."""
    weighing = report.weighing
    wrap = width or WIDTH
    parts = _wrapped(_report_heading(report) + "; " + POINTS_NOTE, wrap, "  ")
    tables = list({"player": _REPORT_TABLES, "game": _GAME_TABLES}.get(report.by, _RULES_TABLES))
    if weighing is not None:
        tables[-1] += ((f"undercut\nrisk>{weighing.risk_above:.0%}", "undercut_risk"),)
    cells = [[[_report_cell(row, figure) for _, figure in columns] for row in report.rows]
             for columns in tables]
    room: int | None = None
    for columns, rows in zip(tables, cells, strict=True):
        if width is None:
            break
        used = [max(len(line) for text in (head, *(row[i] for row in rows)) for line in text.split("\n"))
                for i, (head, _) in enumerate(columns)]
        fits = max(12, width - sum(used) - 2 * len(used))
        room = fits if room is None else min(room, fits)
    names = fitted_names([row.name for row in report.rows], room)
    for columns, rows in zip(tables, cells, strict=True) if report.rows else ():
        heads = [head for head, _ in columns]
        for start, end in _column_runs(names, heads, rows, width):
            table = [[name, *row[start:end]] for name, row in zip(names, rows, strict=True)]
            parts += ["", _report_table(table, [report.by, *heads[start:end]])]
    moves = [f"{row.name}: {_counts_text(row.illegal_moves)}" for row in report.rows if row.illegal_moves]
    if moves:
        parts += ["", "illegal moves by code:"]
        parts += [part for move in moves for part in _wrapped(move, wrap, "    ")]
    if report.record_errors:
        said = f"record errors (no player's move): {_counts_text(report.record_errors)}"
        parts += ["", *_wrapped(said, wrap, "  ")]
    return "\n".join(parts)


def _report_heading(report: BatchReport) -> str:
    records = "record" if report.records == 1 else "records"
    games = "game" if report.games == 1 else "games"
    hands = "hand" if report.hands == 1 else "hands"
    said = (f"{report.records:,} {records}: {report.clean:,} clean, {report.with_findings:,} with findings, "
            f"{report.unreadable:,} unreadable; {report.games:,} {games}, {report.hands:,} {hands}")
    if report.weighing is not None:
        w = report.weighing
        said += f"; knocks weighed on {w.samples:,} sampled defender hands (seed {w.seed})"
    return said


REPORT_CSV_FIGURES = (
    "games", "games_won", "hands", "hands_won", "points_for", "points_against", "knocks", "gins", "big_gins",
    "undercuts_made", "undercuts_suffered", "knock_deadwood", "knocks_shown", "average_knock_deadwood",
    "knocks_not_best", "knock_not_best_points", "missed_layoffs", "missed_layoff_points",
    "first_fit_layoffs", "first_fit_layoff_points",
    "illegal_move_count", "unfinished", "forfeited", "wall_hands", "wall_share",
)
"""The figures of ``report --csv``, after the row's name; then the illegal moves by code and,
with ``--advise``, the knocks weighed, the risky ones and the undercuts to expect."""


def report_csv(report: BatchReport) -> str:
    """A batch audited as CSV for spreadsheets: a header, then one row per player (game, rule set)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    risk = ("knocks_weighed", "risky_knocks", "expected_undercuts") if report.weighing else ()
    writer.writerow([report.by, *REPORT_CSV_FIGURES, "illegal_moves", *risk])
    for row in report.rows:
        document = row.to_dict()
        figures = ["" if document[name] is None else document[name] for name in REPORT_CSV_FIGURES]
        moves = " ".join(f"{code}={count}" for code, count in row.illegal_moves)
        weighed = row.undercut_risk.to_dict().values() if row.undercut_risk else ()
        writer.writerow([row.name, *figures, moves, *weighed])
    return out.getvalue()


# == standings rendering ==

if TYPE_CHECKING:
    from ginref.ranking import Standings


def _interval(pair: tuple[float, float] | None, form: str, joint: str = "-") -> str:
    return "-" if pair is None else f"{format(pair[0], form)}{joint}{format(pair[1], form)}"


def standings_heading(done: Standings) -> str:
    """What the standings count and how they were reckoned, in one sentence."""
    games = "game" if done.games == 1 else "games"
    bootstrap = (f"95% interval from {done.rounds:,} bootstrap rounds over the games (seed {done.seed})"
                 if done.rounds else "no bootstrap (--rounds 0)")
    return (f"standings: {done.games:,} {games}, {done.draws:,} drawn (a draw counts half); rating: "
            f"Bradley-Terry on the Elo scale (400 log10 odds, centred on 1500), {bootstrap}; "
            f"win rate with its 95% Wilson interval; net hand points per hand (no bonuses)")


def standings_cells(done: Standings) -> list[list[str]]:
    """Each standing's figures as text, in the standings' order (the name first)."""
    return [[row.player, str(row.games), str(row.wins), str(row.losses), str(row.draws),
             f"{row.win_rate:.0%}", _interval(row.win_rate_ci95, ".0%"),
             f"{row.rating:.0f}", _interval(row.rating_ci95, ".0f"),
             "-" if row.net_points_per_hand is None else f"{row.net_points_per_hand:+.1f}",
             _interval(row.net_points_per_hand_ci95, "+.1f", " to ")] for row in done.standings]


STANDINGS_HEADERS = ("player", "\ngames", "\nwins", "\nlosses", "\ndraws", "win\nrate", "95%\ninterval",
                     "\nrating", "95%\ninterval", "points\nper hand", "95%\ninterval")


def standings_notes(done: Standings) -> list[str]:
    """What the figures cannot say: too few games, neighbours not yet separable."""
    notes = []
    if done.few_games:
        notes.append(f"few games (under 10), figures that say little: {', '.join(done.few_games)}")
    for run in done.not_yet_separable:
        notes.append(f"not yet separable (their 95% rating intervals overlap): {', '.join(run)}")
    return notes


def standings_text(done: Standings, width: int | None = WIDTH) -> str:
    """The standings for people: the heading, one row per player (best rating first), what
    the figures cannot say, head to head, and with duplicate deals the pairs' results."""
    wrap = width or WIDTH
    parts = _wrapped(standings_heading(done), wrap, "  ")
    if not done.standings:
        return "\n".join([*parts, "no game between two players to rank"])
    cells = standings_cells(done)
    used = [max(len(part) for text in (head, *(row[i] for row in cells)) for part in text.split("\n"))
            for i, head in enumerate(STANDINGS_HEADERS) if i]
    room = None if width is None else max(12, width - sum(used) - 2 * len(used))
    names = fitted_names([row[0] for row in cells], room)
    figures = [row[1:] for row in cells]
    for start, end in _column_runs(names, STANDINGS_HEADERS[1:], figures, width):
        parts += ["", _report_table([[n, *row[start:end]] for n, row in zip(names, figures, strict=True)],
                                    [STANDINGS_HEADERS[0], *STANDINGS_HEADERS[1 + start:1 + end]])]
    notes = standings_notes(done)
    if notes:
        parts.append("")
        parts += [line for note in notes for line in _wrapped(note, wrap, "  ")]
    players = [row.player for row in done.standings]
    short = dict(zip(players, fitted_names(players, None if width is None else max(12, (width - 50) // 2)),
                     strict=True))
    heads = [[short[h.player], short[h.opponent], str(h.games), str(h.wins), str(h.losses), str(h.draws),
              str(h.points_for), str(h.points_against)] for h in done.head_to_head]
    parts += ["", "head to head (points: hand points won from the other):",
              _report_table(heads, ["player", "opponent", "\ngames", "\nwins", "\nlosses", "\ndraws",
                                    "points\nfor", "points\nagainst"])]
    if done.duplicate is not None:
        said = (f"duplicate deals: {sum(r.pairs for r in done.duplicate) // 2:,} pairs of games dealt alike "
                f"with the seats swapped, {done.unpaired:,} games unpaired; net hand points over each pair, "
                "with a 95% interval of the mean")
        parts += ["", *_wrapped(said, wrap, "  ")]
        rows = [[d.player, str(d.pairs), f"{d.points:+d}", f"{d.points_per_pair:+.1f}",
                 _interval(d.points_per_pair_ci95, "+.1f", " to ")] for d in done.duplicate]
        if rows:
            parts.append(_report_table(rows, ["player", "\npairs", "net\npoints", "per\npair",
                                              "95%\ninterval"]))
    return "\n".join(parts)


STANDINGS_CSV = ("player", "games", "wins", "losses", "draws", "win_rate", "win_rate_low", "win_rate_high",
                 "rating", "rating_low", "rating_high", "net_points_per_hand", "net_points_per_hand_low",
                 "net_points_per_hand_high", "few_games", "duplicate_pairs", "duplicate_points_per_pair")
"""The columns of ``report --standings --csv``: the standings' figures, each interval as two columns."""


def standings_csv(done: Standings) -> str:
    """The standings as CSV for spreadsheets: a header, then one row per player, best first."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_CSV)
    duplicate = {d.player: d for d in done.duplicate or ()}
    for row in done.standings:
        doc = row.to_dict()
        pair = duplicate.get(row.player)
        spans = [["", ""] if span is None else [round(span[0], 6), round(span[1], 6)] for span in
                 (row.win_rate_ci95, row.rating_ci95, row.net_points_per_hand_ci95)]
        net = "" if doc["net_points_per_hand"] is None else doc["net_points_per_hand"]
        writer.writerow([row.player, row.games, row.wins, row.losses, row.draws, doc["win_rate"], *spans[0],
                         doc["rating"], *spans[1], net, *spans[2], "yes" if row.few_games else "no",
                         "" if pair is None else pair.pairs,
                         "" if pair is None else round(pair.points_per_pair, 6)])
    return out.getvalue()


def rules_fit_text(fit: RulesFit) -> str:
    """``ginref rules --fit``: the presets and knob values the recorded scores allow, and the
    first hand where the rules a batch names part from its scores."""
    lines = [f"{fit.records} records ({fit.unreadable} unreadable), {fit.hands} hands; "
             f"{fit.evidence} hands claim their points",
             "presets that agree: " + (", ".join(fit.presets) or "none"), ""]
    width = max(len(k.knob) for k in fit.knobs)
    for knob in fit.knobs:
        values = ", ".join(knob.values) if knob.values else "any (no hand decides it)"
        hands = f"  ({knob.hands} hand{'s' if knob.hands != 1 else ''})" if knob.hands else ""
        lines.append(f"{knob.knob:<{width}}  {values}{hands}")
    lines.append("")
    for name in fit.named:
        parting = next((p for p in fit.partings if p.rules == name), None)
        if parting is None:
            lines.append(f"named rules {name}: agree with every recorded score")
            continue
        lines.append(f"named rules {name}: first part at {parting.source}:{parting.line}, record "
                     f"{parting.index + 1}, hand {parting.hand}: recorded {parting.claimed}; "
                     f"{name} gives {parting.ruled}")
        lines.extend(f"  {why}" for why in parting.knobs)
    return "\n".join(lines).rstrip("\n") + "\n"
