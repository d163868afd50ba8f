"""The game commands' text: ``game`` (a score sheet, its race) and ``rules`` (the rule sets,
their knobs, and ``--fit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ginref.render.tables import WIDTH, score_table, text_table, wrap_room

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ginref.game import Bonus, GameTally, HollywoodTally
    from ginref.rulefit import Parting, RulesFit
    from ginref.rules import Rules


def rules_list_text(presets: Sequence[Rules], width: int = WIDTH) -> str:
    rows = [[r.name, ", ".join(r.aliases), r.description] for r in presets]
    names = max(len(r.name) for r in presets)
    aliases = max([7, *(len(row[1]) for row in rows)])
    return text_table(rows, ["name", "aliases", "description"], wrap={2: wrap_room(width, names, aliases)})


def rules_text(rules: Rules, width: int = WIDTH) -> str:
    """The rule set's name and description, then each knob: its value and what it decides."""
    import textwrap

    from ginref.rules import KNOB_MEANINGS

    head = [f"{rules.label}: {rules.description}"]
    if rules.aliases:
        head.append(f"aliases: {', '.join(rules.aliases)}")
    lines = [line for text in head for line in textwrap.wrap(text, width, subsequent_indent="  ")]
    rows = [[knob, rules.knob_text(knob), KNOB_MEANINGS[knob]] for knob in KNOB_MEANINGS]
    knobs = max(len(row[0]) for row in rows)
    values = max(5, *(len(row[1]) for row in rows))
    return "\n".join([*lines, "", text_table(rows, ["knob", "value", "meaning"],
                                           wrap={2: wrap_room(width, knobs, values)})])



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
    parts = [score_table(rows, headers, right=(0, 3, 4, 5))] if rows else ["no hands yet"]
    target = result.rules.game_target
    if result.game_over and target:
        totals = [
            ["hands", str(result.hand_totals[a]), str(result.hand_totals[b])],
            *_bonus_rows(result.players, result.bonuses),
            ["final", str(result.final_totals[a]), str(result.final_totals[b])],
        ]
        parts += ["", score_table(totals, ["", a, b], right=(1, 2))]
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
    parts = [score_table(rows, headers, right=(0, 3, 5, 6, 7)) if rows else "no hands yet", legend, ""]
    games = []
    for i, game in enumerate(result.games, 1):
        for player in (a, b):
            games.append([
                str(i) if player == a else "", (game.winner or "open") if player == a else "", player,
                str(game.hand_totals[player]), _bonus_text(game.bonuses[player]),
                str(game.final_totals[player]),
            ])
    headers = ["game", "winner", "player", "hands", "bonuses", "final"]
    parts.append(score_table(games, headers, right=(0, 3, 5)))
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


def rules_fit_text(fit: RulesFit) -> str:
    """``ginref rules --fit``: the presets that give back every recorded point, the knob values
    the recorded points allow, where the rules the records name part from them, and where each
    other preset does."""
    recorded = f"{_counted(fit.evidence, 'hand')} and {_counted(fit.final_totals, 'final total')}"
    lines = [f"{fit.records} records ({fit.unreadable} unreadable), {fit.hands} hands; "
             f"{recorded} record points"]
    if not fit.records:
        return "\n".join([*lines, "no readable record: nothing to fit"])
    if not fit.recorded:
        lines.append("no recorded points to fit: no hand claims a result or running totals, "
                     "no record final totals")
        return "\n".join(lines)
    lines += ["presets that give back every recorded point: " + (", ".join(fit.presets) or "none"), ""]
    width = max(len(k.knob) for k in fit.knobs)
    for knob in fit.knobs:
        values = ", ".join(knob.values) if knob.values else "any (no hand decides it)"
        hands = f"  ({_counted(knob.hands, 'hand')})" if knob.hands else ""
        lines.append(f"{knob.knob:<{width}}  {values}{hands}")
    lines.append("")
    for name in fit.named:
        parting = next((p for p in fit.partings if p.rules == name), None)
        if parting is None:
            lines.append(f"named rules {name}: give back every recorded point")
            continue
        lines.append(f"named rules {name}: part from the records at {_parting_text(parting)}")
        lines.extend(f"  {why}" for why in parting.knobs)
    if fit.unfollowed:
        lines.append(f"{_counted(fit.unfollowed, 'record')} name other rules, past the first "
                     f"{len(fit.named)} named: not followed")
    if fit.rejected:
        lines += ["", "where the other presets part from the records:"]
        width = max(len(p.rules) for p in fit.rejected)
        lines.extend(f"  {p.rules:<{width}}  {_parting_text(p)}" for p in fit.rejected)
    return "\n".join(lines).rstrip("\n")


def _parting_text(parting: Parting) -> str:
    """``source:LINE: code: message``, a JSON record's pointer after its line (as ``verify``)."""
    where = f"{parting.source}:{parting.line}" + (f": {parting.pointer}" if parting.pointer else "")
    return f"{where}: {parting.code}: {parting.message}"


def _counted(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"
