"""``report``'s text and CSV: a batch audited (per player, game or rule set) and the standings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ginref.render.tables import WIDTH, column_runs, compact_table, fitted_names, wrapped

if TYPE_CHECKING:
    from ginref.audit import BatchReport, PlayerReport
    from ginref.ranking import Standings


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


REPORT_TABLES: tuple[tuple[tuple[str, str], ...], ...] = (
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


def report_cell(row: PlayerReport, figure: str) -> str:
    value = getattr(row, figure)
    if figure == "wall_share":
        return _share(value)
    if figure == "average_knock_deadwood":
        return _mean(value)
    if figure == "undercut_risk":
        return "-" if value is None else f"{value.risky} of {value.weighed}"
    return str(value)


def _counts_text(counts: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{code} {count}" for code, count in counts)


_GAME_TABLES: tuple[tuple[tuple[str, str], ...], ...] = (
    (("\nhands", "hands"), ("\npoints", "points_for"), ("\nknocks", "knocks"), ("\ngins", "gins"),
     ("big\ngins", "big_gins"), ("\nundercuts", "undercuts_made")),
    (("deadwood\nat knock", "average_knock_deadwood"), ("ended by\nthe wall", "wall_share"),
     ("\nunfinished", "unfinished"), ("\nforfeited", "forfeited")),
    REPORT_TABLES[2],
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
    parts = wrapped(report_heading(report) + "; " + POINTS_NOTE, wrap, "  ")
    tables = list({"player": REPORT_TABLES, "game": _GAME_TABLES}.get(report.by, _RULES_TABLES))
    if weighing is not None:
        tables[-1] += ((f"undercut\nrisk>{weighing.risk_above:.0%}", "undercut_risk"),)
    cells = [[[report_cell(row, figure) for _, figure in columns] for row in report.rows]
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
        for start, end in column_runs(names, heads, rows, width):
            table = [[name, *row[start:end]] for name, row in zip(names, rows, strict=True)]
            parts += ["", compact_table(table, [report.by, *heads[start:end]])]
    moves = [f"{row.name}: {_counts_text(row.illegal_moves)}" for row in report.rows if row.illegal_moves]
    if moves:
        parts += ["", "illegal moves by code:"]
        parts += [part for move in moves for part in wrapped(move, wrap, "    ")]
    if report.record_errors:
        said = f"record errors (no player's move): {_counts_text(report.record_errors)}"
        parts += ["", *wrapped(said, wrap, "  ")]
    return "\n".join(parts)


def report_heading(report: BatchReport) -> str:
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
    parts = wrapped(standings_heading(done), wrap, "  ")
    if not done.standings:
        return "\n".join([*parts, "no game between two players to rank"])
    cells = standings_cells(done)
    used = [max(len(part) for text in (head, *(row[i] for row in cells)) for part in text.split("\n"))
            for i, head in enumerate(STANDINGS_HEADERS) if i]
    room = None if width is None else max(12, width - sum(used) - 2 * len(used))
    names = fitted_names([row[0] for row in cells], room)
    figures = [row[1:] for row in cells]
    for start, end in column_runs(names, STANDINGS_HEADERS[1:], figures, width):
        parts += ["", compact_table([[n, *row[start:end]] for n, row in zip(names, figures, strict=True)],
                                    [STANDINGS_HEADERS[0], *STANDINGS_HEADERS[1 + start:1 + end]])]
    notes = standings_notes(done)
    if notes:
        parts.append("")
        parts += [line for note in notes for line in wrapped(note, wrap, "  ")]
    players = [row.player for row in done.standings]
    short = dict(zip(players, fitted_names(players, None if width is None else max(12, (width - 50) // 2)),
                     strict=True))
    heads = [[short[h.player], short[h.opponent], str(h.games), str(h.wins), str(h.losses), str(h.draws),
              str(h.points_for), str(h.points_against)] for h in done.head_to_head]
    parts += ["", "head to head (points: hand points won from the other):",
              compact_table(heads, ["player", "opponent", "\ngames", "\nwins", "\nlosses", "\ndraws",
                                    "points\nfor", "points\nagainst"])]
    if done.duplicate is not None:
        said = (f"duplicate deals: {sum(r.pairs for r in done.duplicate) // 2:,} pairs of games dealt alike "
                f"with the seats swapped, {done.unpaired:,} games unpaired; net hand points over each pair, "
                "with a 95% interval of the mean")
        parts += ["", *wrapped(said, wrap, "  ")]
        rows = [[d.player, str(d.pairs), f"{d.points:+d}", f"{d.points_per_pair:+.1f}",
                 _interval(d.points_per_pair_ci95, "+.1f", " to ")] for d in done.duplicate]
        if rows:
            parts.append(compact_table(rows, ["player", "\npairs", "net\npoints", "per\npair",
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
