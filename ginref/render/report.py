"""``report``'s text and CSV: a batch audited (per player, game or rule set) and the standings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ginref.render.tables import WIDTH, column_runs, column_widths, compact_table, fitted_names, wrapped

if TYPE_CHECKING:
    from ginref.audit import BatchReport, PlayerReport
    from ginref.ranking import HeadToHead, Standing, Standings


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


REPORT_TABLES: tuple[tuple[tuple[str, str], ...], ...] = (
    (("\ngames", "games"), ("games won\nto the end", "games_won"), ("\nhands", "hands"),
     ("hands\nwon", "hands_won"), ("points\nfor", "points_for"),
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


GAME_PLAYERS_HEADERS = ("players", "winner\nby totals")
"""The columns that name a game's players and winner (a report by game)."""


def game_players(row: PlayerReport) -> tuple[str, str]:
    """A game's players (``a v b``) and its winner by totals (``drawn``; ``-`` without two players)."""
    players = " v ".join(row.players) or "-"
    return players, row.winner or ("drawn" if len(set(row.players)) == 2 else "-")


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
GAMES_WON_NOTE = "games won to the end: games played out to their end (the target) and won"
"""What the audit's games won count, beside the standings' wins by totals, which also count
the player ahead where a record stops short of its end."""


def report_tables(report: BatchReport) -> list[tuple[tuple[str, str], ...]]:
    """The tables a report shows (results, knocks, errors), each column's header and figure:
    per player, per game or per rule set; with ``--advise`` the undercut risk last."""
    tables = list({"player": REPORT_TABLES, "game": _GAME_TABLES}.get(report.by, _RULES_TABLES))
    if report.weighing is not None:
        tables[-1] += ((f"undercut\nrisk>{report.weighing.risk_above:.0%}", "undercut_risk"),)
    return tables


REPORT_TABLE_TITLES = ("Results", "Knocks and hand ends", "Errors")
"""What each of :func:`report_tables` shows, as a page titles it."""


def report_text(report: BatchReport, width: int | None = WIDTH) -> str:
    """A batch audited, for people: what was read, then three tables (results, knocks,
    errors) with one row per player (game, rule set), then each row's illegal moves by code.
    ``width`` is the terminal's; None (a pipe, a file) never cuts a name."""
    wrap = width or WIDTH
    notes = [POINTS_NOTE, GAMES_WON_NOTE] if report.by == "player" else [POINTS_NOTE]
    said = "; ".join([report_heading(report), *notes])
    parts = wrapped(said, wrap, "  ")
    tables = report_tables(report)
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
    if report.by == "game" and report.rows:
        played = [[name, *game_players(row)] for name, row in zip(names, report.rows, strict=True)]
        parts += ["", compact_table(played, ["game", *GAME_PLAYERS_HEADERS], names=3)]
    for columns, rows in zip(tables, cells, strict=True) if report.rows else ():
        heads = [head for head, _ in columns]
        for start, end in column_runs(names, heads, rows, width, report.by):
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
    """A batch audited as CSV for spreadsheets: a header, then one row per player (game, rule
    set; a game's row names its players, ``a v b``, and its winner by totals, empty if none)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    risk = ("knocks_weighed", "risky_knocks", "expected_undercuts") if report.weighing else ()
    played = ("players", "winner") if report.by == "game" else ()
    writer.writerow([report.by, *played, *REPORT_CSV_FIGURES, "illegal_moves", *risk])
    for row in report.rows:
        document = row.to_dict()
        figures = ["" if document[name] is None else document[name] for name in REPORT_CSV_FIGURES]
        moves = " ".join(f"{code}={count}" for code, count in row.illegal_moves)
        weighed = row.undercut_risk.to_dict().values() if row.undercut_risk else ()
        names = [" v ".join(row.players), row.winner or ""] if played else []
        writer.writerow([row.name, *names, *figures, moves, *weighed])
    return out.getvalue()


def _interval(pair: tuple[float, float] | None, form: str, joint: str = "-") -> str:
    return "-" if pair is None else f"{format(pair[0], form)}{joint}{format(pair[1], form)}"


def standings_heading(done: Standings) -> str:
    """What the standings count and how they were reckoned, in one sentence."""
    games = "game" if done.games == 1 else "games"
    bootstrap = (f"95% interval from {done.rounds:,} bootstrap rounds over the games (seed {done.seed})"
                 if done.rounds else "no bootstrap (--rounds 0), so no interval")
    return (f"standings: {done.games:,} {games}, {done.draws:,} drawn (a draw counts half); "
            f"wins by totals: the game's winner, or the player ahead where the record ends; rating: "
            f"Bradley-Terry on the Elo scale (400 log10 odds, centred on 1500), {bootstrap}; "
            f"win rate with its 95% Wilson interval; net hand points per hand (no bonuses)")


def unmeasured(done: Standings) -> tuple[str, ...]:
    """The players whose rating the bootstrap could not vary: every round alike, an interval
    of zero width (one game, or games all alike), a sample too small to say how sure the
    rating is. None without a bootstrap (``--rounds 0``), which claims no interval."""
    if not done.rounds:
        return ()
    return tuple(row.player for row in done.standings if row.rating_ci95[1] - row.rating_ci95[0] < 1e-9)


def rating_interval(done: Standings, row: Standing) -> tuple[float, float] | None:
    """``row``'s rating interval, or None where there is none to show (:func:`unmeasured`)."""
    if not done.rounds or row.player in unmeasured(done):
        return None
    return row.rating_ci95


def standings_cells(done: Standings) -> list[list[str]]:
    """Each standing's figures as text (:data:`STANDINGS_HEADERS`), in the standings' order."""
    return [[row.player, f"{row.rating:.0f}", _interval(rating_interval(done, row), ".0f"),
             str(row.games), str(row.wins), str(row.losses), str(row.draws),
             f"{row.win_rate:.0%}", _interval(row.win_rate_ci95, ".0%"),
             "-" if row.net_points_per_hand is None else f"{row.net_points_per_hand:+.1f}",
             _interval(row.net_points_per_hand_ci95, "+.1f", " to ")] for row in done.standings]


STANDINGS_HEADERS = ("player", "\nrating", "rating\n95% interval", "\ngames", "wins\nby totals", "\nlosses",
                     "\ndraws", "win\nrate", "win rate\n95% interval", "points\nper hand",
                     "points\n95% interval")
"""The headers of the standings' columns: the rating and its interval first, what a
narrow screen keeps in view; each interval says whose it is."""


def standings_notes(done: Standings) -> list[str]:
    """What the figures cannot say: too few games, a sample too small for an interval,
    neighbours not yet separable."""
    notes = []
    if done.few_games:
        notes.append(f"few games (under 10), figures that say little: {', '.join(done.few_games)}")
    alike = unmeasured(done)
    if alike:
        notes.append("sample too small for a rating interval (every bootstrap round alike), so no one "
                     f"is known to be apart: {', '.join(alike)}")
    for run in done.not_yet_separable:
        if not set(run) & set(alike):
            notes.append(f"not yet separable (their 95% rating intervals overlap): {', '.join(run)}")
    return notes


HEAD_TO_HEAD_HEADERS = ("player", "opponent", "\ngames", "\nW-L-D", "points\nfor", "points\nagainst")
HEAD_TO_HEAD_NOTE = "head to head (W-L-D: games won, lost and drawn; points: hand points won from the other):"


def head_to_head_rows(done: Standings) -> list[HeadToHead]:
    """The head to head by player, then opponent, names compared by casefold (``amy`` by ``Bob``)."""
    return sorted(done.head_to_head,
                  key=lambda h: (h.player.casefold(), h.player, h.opponent.casefold(), h.opponent))


def _head_to_head_text(done: Standings, width: int | None) -> list[str]:
    """The head-to-head tables: the names cut (never alike) so that the figures fit ``width``,
    and the figures in runs beside them when even that is too wide."""
    rows = head_to_head_rows(done)
    figures = [[str(h.games), f"{h.wins}-{h.losses}-{h.draws}", str(h.points_for), str(h.points_against)]
               for h in rows]
    heads = HEAD_TO_HEAD_HEADERS[2:]
    players = [row.player for row in done.standings]
    room = None
    if width is not None:
        used = sum(2 + need for need in column_widths(heads, figures))
        room = max(5, (width - used - 2) // 2)
    short = dict(zip(players, fitted_names(players, room), strict=True))
    pairs = [[short[h.player], short[h.opponent]] for h in rows]
    wide = max([len(a) for a, _ in pairs] + [len("player")]) + 2 + max([len(b) for _, b in pairs] + [8])
    parts = []
    for start, end in column_runs(["x" * wide], heads, figures, width):
        table = [[*pair, *row[start:end]] for pair, row in zip(pairs, figures, strict=True)]
        parts.append(compact_table(table, [*HEAD_TO_HEAD_HEADERS[:2], *heads[start:end]], names=2))
    return parts


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
    for start, end in column_runs(names, STANDINGS_HEADERS[1:], figures, width, STANDINGS_HEADERS[0]):
        parts += ["", compact_table([[n, *row[start:end]] for n, row in zip(names, figures, strict=True)],
                                    [STANDINGS_HEADERS[0], *STANDINGS_HEADERS[1 + start:1 + end]])]
    notes = standings_notes(done)
    if notes:
        parts.append("")
        parts += [line for note in notes for line in wrapped(note, wrap, "  ")]
    parts += ["", *wrapped(HEAD_TO_HEAD_NOTE, wrap, "  "), "\n\n".join(_head_to_head_text(done, width))]
    if done.duplicate is not None:
        said = (f"duplicate deals: {sum(r.pairs for r in done.duplicate) // 2:,} pairs of games dealt alike "
                f"with the seats swapped, {done.unpaired:,} games unpaired; net hand points over each pair, "
                "with a 95% interval of the mean")
        parts += ["", *wrapped(said, wrap, "  ")]
        rows = [[d.player, str(d.pairs), f"{d.points:+d}", f"{d.points_per_pair:+.1f}",
                 _interval(d.points_per_pair_ci95, "+.1f", " to ")] for d in done.duplicate]
        if rows:
            parts.append(compact_table(rows, DUPLICATE_HEADERS))
    return "\n".join(parts)


DUPLICATE_HEADERS = ("player", "\npairs", "net\npoints", "per\npair", "per pair\n95% interval")


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
