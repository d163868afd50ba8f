"""The report as one page to publish (``report --html``): HTML with its CSS, SVG and a few
lines of script inline, no outside resource, so that it reads offline and as an email
attachment. Every column shows: at a laptop's 1366 pixels no table hides a column behind
its scroll box (the audit comes as three tables, as in text), on a phone the standings
lead with the rating and its interval and the charts shrink to the screen, and on paper
the tables shrink to the page. Tables come in a sensible order (standings by rating, the
audit by name or standing) and sort by any column on a click: text A to Z first, figures
highest first, an arrow showing the order; without the script they stay in that order.
Nothing is said only on hover: each chart names its marks and prints its figures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ginref.render.report import (
    DUPLICATE_HEADERS,
    GAME_PLAYERS_HEADERS,
    GAMES_WON_NOTE,
    POINTS_NOTE,
    REPORT_TABLE_TITLES,
    STANDINGS_HEADERS,
    game_players,
    rating_interval,
    report_cell,
    report_heading,
    report_tables,
    standings_cells,
    standings_heading,
    standings_notes,
)
from ginref.render.tables import fitted_names

if TYPE_CHECKING:
    from ginref.audit import BatchReport
    from ginref.ranking import Standings

__all__ = ["page_title", "report_page"]

_STYLE = """
:root{--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f3f5f7;--win:#1a7f37;--loss:#cf222e}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;
max-width:1360px;padding:12px}
h1{font-size:1.45em;margin:.2em 0;overflow-wrap:anywhere}
h2{font-size:1.15em;margin:1.4em 0 .4em}h3{font-size:1em;margin:1em 0 .3em}
p,li{max-width:75ch}.muted{color:var(--muted);font-size:.9em}
.scroll{overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;width:100%}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:var(--head);font-weight:600;vertical-align:bottom}
th button{font:inherit;color:inherit;background:none;border:0;padding:0;margin:0;cursor:pointer;
text-align:inherit;white-space:inherit}
th button::after{content:"\\2195";color:var(--muted);margin-left:.2em;font-size:.85em}
th[aria-sort=ascending] button::after{content:"\\25B2";color:inherit}
th[aria-sort=descending] button::after{content:"\\25BC";color:inherit}
.name{text-align:left}
td.name{white-space:normal;overflow-wrap:anywhere;min-width:8em}
tr.few td{color:var(--muted)}
.flag{font-size:.8em;color:var(--muted)}
table.matrix{width:auto}
.matrix td{text-align:center;min-width:3.2em;color:#000;line-height:1.2}.matrix td.name{text-align:left}
.matrix td small{display:block;font-size:.75em}
.plot{max-width:700px}
svg{width:100%;height:auto;display:block}
svg text{font:11px system-ui,sans-serif;fill:var(--ink)}
h1 .day{white-space:nowrap}
@media (max-width:600px){body{font-size:14px;padding:6px}th,td{padding:3px 4px}
td.name{min-width:9em;max-width:11em;word-break:break-all}th{white-space:normal}}
@media print{body{max-width:none;font-size:8pt;padding:0}.scroll{overflow:visible;border:0}
th,td{padding:2px 3px}th{white-space:normal}td.name{min-width:0}
th:not([aria-sort]) button::after{content:""}
tr{break-inside:avoid}thead{display:table-header-group}h2,h3{break-after:avoid}.plot{break-inside:avoid}}
"""

_SCRIPT = """
(function () {
  function value(cell) {
    var v = cell.getAttribute("data-v");
    return v === null ? cell.textContent.trim() : v;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, column) {
      var button = th.querySelector("button");
      if (!button) { return; }
      button.addEventListener("click", function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var keyed = rows.map(function (row, i) { return {row: row, v: value(row.cells[column]), i: i}; });
        var numeric = keyed.every(function (k) { return k.v === "" || !isNaN(Number(k.v)); });
        var now = th.getAttribute("aria-sort");
        var order = now ? (now === "ascending" ? "descending" : "ascending")
          : th.getAttribute("data-first") || (numeric ? "descending" : "ascending");
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", order);
        var sign = order === "ascending" ? 1 : -1;
        keyed.sort(function (a, b) {
          if (a.v === "" || b.v === "") { return (a.v === "") - (b.v === "") || a.i - b.i; }
          var d = numeric ? Number(a.v) - Number(b.v)
            : a.v.localeCompare(b.v, "en", {sensitivity: "base", numeric: true})
              || (a.v < b.v ? -1 : a.v > b.v ? 1 : 0);
          return sign * d || a.i - b.i;
        });
        keyed.forEach(function (k) { body.appendChild(k.row); });
      });
    });
  });
})();
"""


def page_title(inputs: Sequence[str], day: str) -> str:
    """The page's title: what was read (``-``: standard input; the first three and how many
    more) and the day the report was made (``2026-12-04``)."""
    named = ["standard input" if path == "-" else path for path in inputs]
    shown = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
    return f"ginref report: {shown or 'no input'}, {day}"


def _cell(text: str, value: object = None, css: str = "") -> str:
    sort = "" if value is None else f' data-v="{escape(str(value))}"'
    klass = f' class="{css}"' if css else ""
    return f"<td{klass}{sort}>{escape(text)}</td>"


def _th(head: str, css: str = "", sort: str = "", first: str = "") -> str:
    """A header cell that sorts its column: its two lines of text header kept as two lines."""
    attributes = (f' class="{css}"' if css else "") + (f' aria-sort="{sort}"' if sort else "")
    attributes += f' data-first="{first}"' if first else ""
    text = "<br>".join(escape(part) for part in head.strip().split("\n"))
    return f'<th{attributes}><button type="button">{text}</button></th>'


def _table(heads: Sequence[str], rows: Sequence[str], css: str = "") -> str:
    klass = f"sortable {css}".strip()
    return (f'<div class="scroll"><table class="{klass}"><thead><tr>{"".join(heads)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _standings_table(done: Standings) -> str:
    rows = []
    for place, (row, cells) in enumerate(zip(done.standings, standings_cells(done), strict=True), 1):
        flag = ' <span class="flag">few</span>' if row.few_games else ""
        net, net_span = row.net_points_per_hand, row.net_points_per_hand_ci95
        span = rating_interval(done, row)
        values: list[object] = [row.rating, "" if span is None else span[0], row.games, row.wins, row.losses,
                                row.draws, row.win_rate, row.win_rate_ci95[0], "" if net is None else net,
                                "" if net_span is None else net_span[0]]
        tds = [f'<td data-v="{place}">{place}</td>',
               f'<td class="name" data-v="{escape(row.player)}">{escape(row.player)}{flag}</td>']
        tds += [_cell(text, value) for text, value in zip(cells[1:], values, strict=True)]
        rows.append(f'<tr class="{"few" if row.few_games else ""}">' + "".join(tds) + "</tr>")
    heads = [_th("#", first="ascending"), _th(STANDINGS_HEADERS[0], "name")]
    heads += [_th(head, sort="descending" if head == "\nrating" else "") for head in STANDINGS_HEADERS[1:]]
    return _table(heads, rows, "standings")


def _ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round numbers for an axis from ``low`` to ``high``: steps of 1, 2 or 5 times a power of ten."""
    if high <= low:
        return [low]
    raw = (high - low) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


_WIDE = 440
"""the charts' width in SVG units: narrow enough that a phone shows their text readable"""
_LEFT, _RIGHT = 112, 318
"""where a chart's scale starts and ends: the names to its left, the figures to its right"""


def _axis(low: float, high: float, y: float, label: str) -> list[str]:
    def x(value: float) -> float:
        return _LEFT + (_RIGHT - _LEFT) * (value - low) / (high - low)

    parts = [f'<line x1="{_LEFT}" y1="{y}" x2="{_RIGHT}" y2="{y}" stroke="#57606a"/>']
    for tick in _ticks(low, high):
        parts += [f'<line x1="{x(tick):.1f}" y1="{y}" x2="{x(tick):.1f}" y2="{y + 4}" stroke="#57606a"/>',
                  f'<text x="{x(tick):.1f}" y="{y + 15}" text-anchor="middle">{tick:g}</text>']
    parts.append(f'<text x="{(_LEFT + _RIGHT) / 2}" y="{y + 30}" text-anchor="middle">{escape(label)}</text>')
    return parts


def _svg(height: float, label: str, parts: Sequence[str]) -> str:
    return (f'<div class="plot"><svg viewBox="0 0 {_WIDE} {height:.0f}" role="img" '
            f'aria-label="{escape(label)}">' + "".join(parts) + "</svg></div>")


def _rating_plot(done: Standings) -> str:
    """Each player's rating (a dot) and its 95% interval (a bar), best first, on one scale,
    with the figures beside them and 1500, the average, dashed (SVG)."""
    rows = done.standings
    spans = [rating_interval(done, row) for row in rows]
    ends = [end for row, span in zip(rows, spans, strict=True) for end in (span or (row.rating,))]
    low, high = min(*ends, 1500.0), max(*ends, 1500.0)
    pad = max(10.0, (high - low) * 0.04)
    low, high = low - pad, high + pad
    step, top = 18, 34
    axis = top + step * len(rows) - 6

    def x(value: float) -> float:
        return _LEFT + (_RIGHT - _LEFT) * (value - low) / (high - low)

    key = ['<circle cx="6" cy="10" r="4" fill="#0a3069"/><text x="14" y="14">rating</text>']
    if any(spans):
        key.append('<line x1="70" y1="10" x2="92" y2="10" stroke="#0969da" stroke-width="3"/>'
                   '<text x="97" y="14">its 95% interval</text>')
    key.append('<line x1="200" y1="4" x2="200" y2="16" stroke="#8c959f" stroke-dasharray="3 2"/>'
               '<text x="205" y="14">1500, the average</text>')
    parts = [*key, f'<line x1="{x(1500):.1f}" y1="{top - 10}" x2="{x(1500):.1f}" y2="{axis}" '
             'stroke="#8c959f" stroke-dasharray="4 3"/>']
    for i, (row, span, name) in enumerate(zip(rows, spans, fitted_names([r.player for r in rows], 17),
                                              strict=True)):
        y = top + step * i
        figures = f"{row.rating:.0f}" + ("" if span is None else f" ({span[0]:.0f}-{span[1]:.0f})")
        parts.append(f'<text x="{_LEFT - 6}" y="{y + 4}" text-anchor="end">{escape(name)}</text>')
        if span is not None:
            parts.append(f'<line x1="{x(span[0]):.1f}" y1="{y}" x2="{x(span[1]):.1f}" y2="{y}" '
                         'stroke="#0969da" stroke-width="3"/>')
        parts += [f'<circle cx="{x(row.rating):.1f}" cy="{y}" r="4" fill="#0a3069"/>',
                  f'<text x="{_RIGHT + 6}" y="{y + 4}">{figures}</text>']
    parts += _axis(low, high, axis, "rating (Elo scale)")
    return _svg(axis + 36, "ratings with their 95% intervals", parts)


def _colour(share: float) -> str:
    """Red for a share of 0, white for a half, green for 1."""
    if share < 0.5:
        t = share / 0.5
        return f"rgb(255,{int(130 + 125 * t)},{int(130 + 125 * t)})"
    t = (share - 0.5) / 0.5
    return f"rgb({int(255 - 125 * t)},{int(255 - 55 * t)},{int(255 - 125 * t)})"


def _matrix(done: Standings) -> str:
    """Head to head: each row's score against each column (wins and half the draws, of the
    games) and the games won-lost-drawn; the columns are the players by their place."""
    names = [row.player for row in done.standings]
    pairs = {(h.player, h.opponent): h for h in done.head_to_head}
    rows = []
    for place, name in enumerate(names, 1):
        tds = [_cell(str(place), place), _cell(name, name, "name")]
        for other in names:
            h = pairs.get((name, other))
            if h is None or not h.games:
                tds.append('<td data-v="">' + ("·" if name == other else "") + "</td>")
                continue
            share = (h.wins + h.draws / 2) / h.games
            tds.append(f'<td data-v="{share:.6f}" style="background:{_colour(share)}">{share:.0%}'
                       f"<small>{h.wins}-{h.losses}-{h.draws}</small></td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    heads = [_th("#", first="ascending", sort="ascending"), _th("player", "name")]
    heads += [_th(str(place)) for place in range(1, len(names) + 1)]
    return _table(heads, rows, "matrix")


def _points_plot(report: BatchReport) -> str:
    """Per row, hand points won and lost per hand, as paired bars with their figures (SVG);
    a game's or rule set's row, which holds both players, only the points won."""
    shown = [row for row in report.rows if row.hands][:60]
    if not shown:
        return ""
    lost = report.by == "player"
    top = max(max(r.points_for, r.points_against if lost else 0) / r.hands for r in shown) or 1.0
    top = _ticks(0, top)[-1] if _ticks(0, top)[-1] >= top else top
    step, first = 22 if lost else 16, 30
    axis = first + step * len(shown) - 4
    key = ['<rect x="0" y="4" width="12" height="9" fill="#1a7f37"/>'
           f'<text x="16" y="13">{"points won per hand" if lost else "points per hand"}</text>']
    if lost:
        key.append('<rect x="150" y="4" width="12" height="9" fill="#cf222e"/>'
                   '<text x="166" y="13">points lost per hand</text>')
    parts = list(key)
    names = fitted_names([r.name for r in shown], 17)
    for i, (row, name) in enumerate(zip(shown, names, strict=True)):
        y = first + step * i
        won = row.points_for / row.hands
        figures = f"{won:.1f}"
        parts += [f'<text x="{_LEFT - 6}" y="{y + 7}" text-anchor="end">{escape(name)}</text>',
                  f'<rect x="{_LEFT}" y="{y}" width="{(_RIGHT - _LEFT) * won / top:.1f}" height="7" '
                  'fill="#1a7f37"/>']
        if lost:
            against = row.points_against / row.hands
            figures += f" won, {against:.1f} lost"
            parts.append(f'<rect x="{_LEFT}" y="{y + 8}" width="{(_RIGHT - _LEFT) * against / top:.1f}" '
                         'height="7" fill="#cf222e"/>')
        parts.append(f'<text x="{_RIGHT + 6}" y="{y + 8}">{figures}</text>')
    parts += _axis(0, top, axis, "hand points per hand")
    return _svg(axis + 36, "points per hand", parts) + f'<p class="muted">{escape(POINTS_NOTE)}.</p>'


def _audit_tables(report: BatchReport, by_name: bool) -> list[str]:
    """The audit as the text shows it, three tables (results, knocks, errors), so that each
    fits a laptop's screen; a game's first table names its players and its winner.
    ``by_name``: the rows come by name (else in the standings' or the batch's order)."""
    out = []
    for number, (title, columns) in enumerate(zip(REPORT_TABLE_TITLES, report_tables(report), strict=True)):
        named = report.by == "game" and number == 0
        rows = []
        for row in report.rows:
            tds = [_cell(row.name, row.name, "name")]
            if named:
                tds += [_cell(text, text, "name") for text in game_players(row)]
            for _, figure in columns:
                value = getattr(row, figure)
                tds.append(_cell(report_cell(row, figure), "" if value is None or figure == "undercut_risk"
                                 else value))
            rows.append("<tr>" + "".join(tds) + "</tr>")
        heads = [_th(report.by, "name", "ascending" if by_name else "")]
        heads += [_th(head, "name") for head in GAME_PLAYERS_HEADERS] if named else []
        heads += [_th(head) for head, _ in columns]
        out += [f"<h3>{escape(title)}</h3>", _table(heads, rows)]
    return out


def _duplicate(done: Standings) -> list[str]:
    if not done.duplicate:
        return []
    rows = ["<tr>" + _cell(d.player, d.player, "name") + _cell(str(d.pairs), d.pairs)
            + _cell(f"{d.points:+d}", d.points) + _cell(f"{d.points_per_pair:+.1f}", d.points_per_pair)
            + _cell("-" if d.points_per_pair_ci95 is None else
                    f"{d.points_per_pair_ci95[0]:+.1f} to {d.points_per_pair_ci95[1]:+.1f}",
                    "" if d.points_per_pair_ci95 is None else d.points_per_pair_ci95[0]) + "</tr>"
            for d in done.duplicate]
    heads = [_th(DUPLICATE_HEADERS[0], "name"), *(_th(head) for head in DUPLICATE_HEADERS[1:])]
    return ["<h2>Duplicate deals</h2>",
            f'<p class="muted">Net hand points over each pair of games dealt alike with the seats '
            f"swapped; {done.unpaired} games unpaired.</p>", _table(heads, rows)]


def _standings(done: Standings) -> list[str]:
    body = ["<h2>Standings</h2>", f'<p class="muted">{escape(standings_heading(done))}.</p>',
            _standings_table(done)]
    notes = standings_notes(done)
    if notes:
        body.append("<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>")
    return [*body, "<h2>Ratings</h2>", _rating_plot(done), "<h2>Head to head</h2>",
            '<p class="muted">Each row\'s score against each column, whose number is the player\'s place: '
            "wins and half the draws, of the games they played (green won more, red lost more), "
            "and under it the games won-lost-drawn.</p>", _matrix(done), *_duplicate(done)]


def report_page(report: BatchReport, ranked: Standings | None = None, title: str = "ginref report") -> str:
    """The whole page: the standings (with ``ranked``), head to head, the charts, the audit.
    ``title`` heads it (:func:`page_title` names the input and the day)."""
    head, comma, day = title.rpartition(", ")
    shown = f'{escape(head)}, <span class="day">{escape(day)}</span>' if comma else escape(title)
    body = [f"<h1>{shown}</h1>", f'<p class="muted">{escape(report_heading(report))}.</p>']
    if ranked is not None and ranked.standings:
        body += _standings(ranked)
    notes = [POINTS_NOTE, GAMES_WON_NOTE] if report.by == "player" else [POINTS_NOTE]
    by_name = ranked is None and report.by != "game"
    body += ["<h2>Points per hand</h2>", _points_plot(report),
             "<h2>Audit</h2>", f'<p class="muted">{escape("; ".join(notes))}. Click a column\'s heading to '
             "sort by it (again to reverse); the arrow shows the order.</p>", *_audit_tables(report, by_name)]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            + "\n".join(body) + f"\n<script>{_SCRIPT}</script>\n</body></html>\n")
