"""Games drawn as pictures: matplotlib, an optional extra (``pip install 'ginref[plot]'``).

:func:`plot_race` draws each player's running total after each hand, one panel per
game of a Hollywood match, every panel on the one scale of :func:`ginref.render.race_top`,
with the game target as a line. :func:`plot_report` draws a batch audited: points per hand
won and lost, and errors per 100 hands, per player side by side. The format follows the
file's ending (``.svg``, ``.png``, ``.pdf``); matplotlib is imported only here, and only
when a plot is asked for.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ginref.errors import OutputFileError, PlotError

if TYPE_CHECKING:
    from ginref.audit import BatchReport
    from ginref.game import GameTally, HollywoodTally

FORMATS = (".svg", ".png", ".pdf")
MOST_ROWS = 40
"""the rows of a report a picture shows at most: those with the most hands"""


def plot_race(result: GameTally | HollywoodTally, path: str | os.PathLike[str]) -> None:
    """Draw the race of ``result`` (a game or a Hollywood match) into the file ``path``.

    ``path`` ends in ``.svg``, ``.png`` or ``.pdf``. Returns nothing. Raises
    :class:`PlotError` when matplotlib is missing or the ending is another, and
    :class:`~ginref.errors.OutputFileError` when the file cannot be written.
    """
    ending = plot_format(path)
    _save(_figure(result), path, ending)


def plot_report(report: BatchReport, path: str | os.PathLike[str]) -> None:
    """Draw ``report`` (a :class:`~ginref.audit.BatchReport`) into the file ``path``:
    per row, the points per hand won and lost, and the illegal moves, knocks that were not
    the best declaration and layoffs missed per 100 hands, side by side; the
    :data:`MOST_ROWS` rows with the most hands when there are more.

    ``path`` ends in ``.svg``, ``.png`` or ``.pdf``. Returns nothing. Raises
    :class:`PlotError` when matplotlib is missing or the ending is another, and
    :class:`~ginref.errors.OutputFileError` when the file cannot be written.
    """
    ending = plot_format(path)
    _save(_report_figure(report), path, ending)


def _save(figure: Any, path: str | os.PathLike[str], ending: str) -> None:
    import matplotlib

    try:
        with matplotlib.rc_context({"svg.hashsalt": "ginref"}):  # stable ids: same sheet, same file
            figure.savefig(os.fspath(path), format=ending[1:], metadata=_metadata(ending))
    except OSError as exc:
        raise OutputFileError(f"{os.fspath(path)}: cannot write the plot: {exc.strerror or exc}") from None


def plot_format(path: str | os.PathLike[str]) -> str:
    """The ending of ``path`` that names its format (``".svg"``); raises :class:`PlotError` for another."""
    ending = os.path.splitext(os.fspath(path))[1].lower()
    if ending not in FORMATS:
        shown = f"a {ending} file" if ending else "a file without an ending"
        raise PlotError(f"cannot draw {shown}: name a .svg, .png or .pdf file")
    return ending


def _metadata(ending: str) -> dict[str, Any] | None:
    """No creation date in SVG and PDF, so the same sheet always draws the same file."""
    return {"Date": None} if ending in (".svg", ".pdf") else None


def require_matplotlib() -> None:
    """Raise :class:`PlotError` saying how to install matplotlib when it is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no window, no display needed
    except ImportError:
        raise PlotError("plotting needs matplotlib: pip install 'ginref[plot]'") from None


def _figure(result: GameTally | HollywoodTally) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    from ginref.render.games import race_series, race_top

    games = race_series(result)
    target, top = result.rules.game_target, race_top(result)
    figure = Figure(figsize=(6.4, 2.4 + 1.6 * len(games)), layout="constrained")
    axes = figure.subplots(len(games), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    for i, (ax, rows) in enumerate(zip(axes, games, strict=True), 1):
        for player in result.players:
            ax.step([0, *(n for n, _ in rows)], [0, *(t[player] for _, t in rows)], where="post",
                    label=player, marker="o", markersize=3)
        if target:
            ax.axhline(target, linestyle="--", linewidth=1, color="grey", label=f"target {target}")
        ax.set_ylim(0, top * 1.05)
        ax.set_ylabel("running total")
        ax.set_title("race" if len(games) == 1 else f"game {i}")
        ax.legend(loc="upper left", fontsize="small")
    axes[-1].set_xlabel("hand")
    figure.suptitle(f"{' v '.join(result.players)} ({result.rules.label})")
    return figure


_REPORT_BARS = (
    ("points", (("points won", "points_for", "#1a7f37"), ("points lost", "points_against", "#cf222e")), 1,
     "hand points per hand (no game or box bonuses)"),
    ("errors", (("illegal moves", "illegal_move_count", "#8250df"),
                ("knocks not best", "knocks_not_best", "#bf8700"),
                ("layoffs missed", "missed_layoffs", "#0969da")), 100, "per 100 hands"),
)
"""The two panels of :func:`plot_report`: each bar's label, figure and colour (no colour in both),
the scale and the axis label; each panel's key sits over it, one entry a line."""


def _report_figure(report: BatchReport) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    rows = [row for row in report.rows if row.hands]
    if len(rows) > MOST_ROWS:
        rows = sorted(rows, key=lambda row: -row.hands)[:MOST_ROWS]
    places = list(range(len(rows)))
    figure = Figure(figsize=(9.6, 2.2 + 0.45 * max(len(rows), 2)), layout="constrained")
    points, errors = figure.subplots(1, 2, sharey=True)
    for panel, bars, scale, label in _REPORT_BARS:
        ax = points if panel == "points" else errors
        # a game's or rule set's row holds both players: it loses no points
        series = [bar for bar in bars if report.by == "player" or bar[1] != "points_against"]
        height = 0.8 / len(series)
        for k, (name, figure_name, colour) in enumerate(series):
            shift = (k - (len(series) - 1) / 2) * height
            ax.barh([p + shift for p in places],
                    [scale * getattr(row, figure_name) / row.hands for row in rows], height, label=name,
                    color=colour)
        ax.set_xlabel(label)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=1, fontsize="small", frameon=False)
        ax.grid(axis="x", linewidth=0.5, alpha=0.5)
    points.set_yticks(places, [row.name for row in rows])
    points.invert_yaxis()
    title = f"ginref report: {report.games} games, {report.hands} hands, by {report.by}"
    if len(rows) < len(report.rows):
        title += f" ({len(rows)} of {len(report.rows)} rows: the most hands)"
    figure.suptitle(title)
    return figure
