"""The report as one page to publish (``report --html``): HTML with its CSS, SVG and a few
lines of script inline, no outside resource, so that it reads offline and as an email
attachment; on a phone's narrow screen (wide tables scroll inside their box, never the page)
and on paper. Tables come in a sensible order (standings by rating, the audit by name or
standing) and sort by any column on a click; without the script they stay in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ginref.render.report import (
    POINTS_NOTE,
    REPORT_TABLES,
    STANDINGS_HEADERS,
    report_cell,
    report_heading,
    standings_cells,
    standings_heading,
    standings_notes,
)
from ginref.render.tables import fitted_names

if TYPE_CHECKING:
    from ginref.audit import BatchReport, PlayerReport
    from ginref.ranking import Standings

__all__ = ["report_page"]

_STYLE = """
:root{--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f3f5f7;--win:#1a7f37;--loss:#cf222e}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;
max-width:1100px;padding:12px}
h1{font-size:1.45em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em}
p,li{max-width:70ch}.muted{color:var(--muted);font-size:.9em}
.scroll{overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;width:100%}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:var(--head);position:sticky;top:0;cursor:pointer;user-select:none;font-weight:600}
th.name,td.name{text-align:left}
td.name{white-space:nowrap}
table.matrix{width:auto}
tr.few td{color:var(--muted)}
.flag{font-size:.8em;color:var(--muted)}
.matrix td{text-align:center;min-width:3.2em;color:#000}
.matrix th.row{text-align:left}
svg{width:100%;min-width:520px;height:auto;display:block}\n.plot{overflow-x:auto}
svg text{font:12px system-ui,sans-serif;fill:var(--ink)}
.key span{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em 0 .8em;
border-radius:2px}
@media (max-width:600px){body{font-size:14px;padding:6px}th,td{padding:3px 5px}}
@media print{body{max-width:none;font-size:10pt}.scroll{overflow:visible;border:0}
th{position:static}tr{break-inside:avoid}thead{display:table-header-group}h2{break-after:avoid}}
"""

_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.title = "sort by this column";
    th.addEventListener("click", function () {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var down = th.getAttribute("aria-sort") !== "descending";
      table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute("data-v"), y = b.cells[column].getAttribute("data-v");
        var nx = parseFloat(x), ny = parseFloat(y), order;
        if (!isNaN(nx) && !isNaN(ny)) { order = nx - ny; }
        else { order = String(x).localeCompare(String(y)); }
        return down ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def _cell(text: str, value: object = None, css: str = "") -> str:
    sort = "" if value is None else f' data-v="{escape(str(value))}"'
    klass = f' class="{css}"' if css else ""
    return f"<td{klass}{sort}>{escape(text)}</td>"


def _head(headers: Sequence[str], names: int = 0) -> str:
    """The header row; column ``names`` holds names (left-aligned)."""
    cells = []
    for i, head in enumerate(headers):
        klass = ' class="name"' if i == names else ""
        cells.append(f"<th{klass}>{escape(head.replace(chr(10), ' ').strip())}</th>")
    return "<thead><tr>" + "".join(cells) + "</tr></thead>"


def _table(headers: Sequence[str], rows: Sequence[str], names: int = 0) -> str:
    return (f'<div class="scroll"><table class="sortable">{_head(headers, names)}<tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _standings_table(done: Standings) -> str:
    rows = []
    for place, (row, cells) in enumerate(zip(done.standings, standings_cells(done), strict=True), 1):
        flag = ' <span class="flag" title="fewer than 10 games">few</span>' if row.few_games else ""
        net, span = row.net_points_per_hand, row.net_points_per_hand_ci95
        values: list[object] = [row.games, row.wins, row.losses, row.draws, row.win_rate,
                                row.win_rate_ci95[0], row.rating, row.rating_ci95[0],
                                "" if net is None else net, "" if span is None else span[0]]
        tds = [f'<td data-v="{place}">{place}</td>',
               f'<td class="name" data-v="{escape(row.player)}">{escape(row.player)}{flag}</td>']
        tds += [_cell(text, value) for text, value in zip(cells[1:], values, strict=True)]
        rows.append(f'<tr class="{"few" if row.few_games else ""}">' + "".join(tds) + "</tr>")
    return _table(["#", *STANDINGS_HEADERS], rows, names=1)


def _rating_plot(done: Standings) -> str:
    """Each player's rating and its 95% interval, best first, on one scale (SVG)."""
    rows = done.standings
    low = min(r.rating_ci95[0] for r in rows)
    high = max(r.rating_ci95[1] for r in rows)
    low, high = min(low, 1500.0) - 10, max(high, 1500.0) + 10
    left, right, step = 150, 580, 18
    height = 30 + step * len(rows)

    def x(value: float) -> float:
        return left + (right - left) * (value - low) / (high - low)

    parts = [f'<div class="plot"><svg viewBox="0 0 600 {height}" role="img" '
             'aria-label="ratings with 95% intervals">',
             f'<line x1="{x(1500):.1f}" y1="10" x2="{x(1500):.1f}" y2="{height - 18}" stroke="#8c959f" '
             'stroke-dasharray="4 3"/>',
             f'<text x="{x(1500):.1f}" y="{height - 4}" text-anchor="middle">1500</text>',
             f'<text x="{left}" y="{height - 4}" text-anchor="start">{low:.0f}</text>',
             f'<text x="{right}" y="{height - 4}" text-anchor="end">{high:.0f}</text>']
    shown = fitted_names([row.player for row in rows], 22)
    for i, (row, name) in enumerate(zip(rows, shown, strict=True)):
        y = 18 + step * i
        low_end, high_end = row.rating_ci95
        parts += [f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{escape(name)}</text>',
                  f'<line x1="{x(low_end):.1f}" y1="{y}" x2="{x(high_end):.1f}" y2="{y}" '
                  'stroke="#0969da" stroke-width="3"/>',
                  f'<circle cx="{x(row.rating):.1f}" cy="{y}" r="4" fill="#0a3069"><title>'
                  f"{escape(row.player)}: {row.rating:.0f} ({low_end:.0f}-{high_end:.0f})</title></circle>"]
    return "".join(parts) + "</svg></div>"


def _colour(share: float) -> str:
    """Red for a share of 0, white for a half, green for 1."""
    if share < 0.5:
        t = share / 0.5
        return f"rgb(255,{int(130 + 125 * t)},{int(130 + 125 * t)})"
    t = (share - 0.5) / 0.5
    return f"rgb({int(255 - 125 * t)},{int(255 - 55 * t)},{int(255 - 125 * t)})"


def _matrix(done: Standings) -> str:
    """Head to head: each row's score against each column (wins and half the draws, of the games)."""
    names = [row.player for row in done.standings]
    pairs = {(h.player, h.opponent): h for h in done.head_to_head}
    rows = []
    for name in names:
        tds = [f'<th class="row" scope="row">{escape(name)}</th>']
        for other in names:
            h = pairs.get((name, other))
            if h is None or not h.games:
                tds.append("<td>" + ("·" if name == other else "") + "</td>")
                continue
            share = (h.wins + h.draws / 2) / h.games
            tip = (f"{name} v {other}: {h.games} games, {h.wins} won, {h.losses} lost, {h.draws} drawn; "
                   f"points {h.points_for} for, {h.points_against} against")
            tds.append(f'<td style="background:{_colour(share)}" title="{escape(tip)}">{share:.0%}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    head = "<thead><tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr></thead>"
    return f'<div class="scroll"><table class="matrix">{head}<tbody>{"".join(rows)}</tbody></table></div>'


def _points_plot(rows: Sequence[PlayerReport]) -> str:
    """Per row, hand points won and lost per hand, as paired bars (SVG) with one key."""
    shown = [row for row in rows if row.hands][:60]
    if not shown:
        return ""
    top = max(max(r.points_for, r.points_against) / r.hands for r in shown) or 1.0
    left, right, step = 150, 580, 20
    height = 16 + step * len(shown)
    parts = [f'<div class="plot"><svg viewBox="0 0 600 {height}" role="img" '
             'aria-label="points per hand won and lost">']
    for i, (row, name) in enumerate(zip(shown, fitted_names([r.name for r in shown], 22), strict=True)):
        y = 6 + step * i
        won, lost = row.points_for / row.hands, row.points_against / row.hands
        parts += [f'<text x="{left - 8}" y="{y + 11}" text-anchor="end">{escape(name)}</text>',
                  f'<rect x="{left}" y="{y}" width="{(right - left) * won / top:.1f}" height="7" '
                  'fill="#1a7f37">'
                  f"<title>{escape(row.name)}: {won:.1f} won per hand</title></rect>",
                  f'<rect x="{left}" y="{y + 8}" width="{(right - left) * lost / top:.1f}" height="7" '
                  f'fill="#cf222e"><title>{escape(row.name)}: {lost:.1f} lost per hand</title></rect>']
    key = ('<p class="key muted"><span style="background:#1a7f37"></span>points won per hand'
           '<span style="background:#cf222e"></span>points lost per hand'
           f" (0 to {top:.1f}; {escape(POINTS_NOTE)})</p>")
    return "".join(parts) + "</svg></div>" + key


def _audit_table(report: BatchReport) -> str:
    columns = [column for table in REPORT_TABLES for column in table]
    rows = []
    for row in report.rows:
        tds = [f'<td class="name" data-v="{escape(row.name)}">{escape(row.name)}</td>']
        for _, figure in columns:
            value = getattr(row, figure)
            tds.append(_cell(report_cell(row, figure), "" if value is None else value))
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return _table([report.by, *(head for head, _ in columns)], rows)


def report_page(report: BatchReport, ranked: Standings | None = None, title: str = "ginref report") -> str:
    """The whole page: the standings (with ``ranked``), head to head, the plots, the audit."""
    body = [f"<h1>{escape(title)}</h1>", f'<p class="muted">{escape(report_heading(report))}</p>']
    if ranked is not None and ranked.standings:
        body += ["<h2>Standings</h2>", f'<p class="muted">{escape(standings_heading(ranked))}</p>',
                 _standings_table(ranked)]
        notes = standings_notes(ranked)
        if notes:
            body.append("<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>")
        body += ["<h2>Ratings</h2>", _rating_plot(ranked),
                 "<h2>Head to head</h2>",
                 '<p class="muted">Each row\'s score against each column: wins and half the draws, of the '
                 "games they played (green won more, red lost more; hover a cell for the counts).</p>",
                 _matrix(ranked)]
        if ranked.duplicate:
            rows = ["<tr>" + _cell(d.player, d.player, "name") + _cell(str(d.pairs), d.pairs)
                    + _cell(f"{d.points:+d}", d.points)
                    + _cell(f"{d.points_per_pair:+.1f}", d.points_per_pair)
                    + _cell("-" if d.points_per_pair_ci95 is None else
                            f"{d.points_per_pair_ci95[0]:+.1f} to {d.points_per_pair_ci95[1]:+.1f}") + "</tr>"
                    for d in ranked.duplicate]
            body += ["<h2>Duplicate deals</h2>",
                     f'<p class="muted">Net hand points over each pair of games dealt alike with the seats '
                     f"swapped; {ranked.unpaired} games unpaired.</p>",
                     _table(["player", "pairs", "net points", "per pair", "95% interval"], rows)]
    body += ["<h2>Points per hand</h2>", _points_plot(report.rows),
             "<h2>Audit</h2>", f'<p class="muted">{escape(POINTS_NOTE)}; click a column to sort.</p>',
             _audit_table(report)]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            + "\n".join(body) + f"\n<script>{_SCRIPT}</script>\n</body></html>\n")
