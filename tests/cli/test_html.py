"""``ginref report --html``: the page, loaded from a file in a real browser (headless Chromium).

Each page is loaded as a reader would open an attachment: from a file, offline. A copy of it
carries a few lines of test script ahead of the page's own, which note every script error
and console error and, once the page has run, what a reader would miss: anything wider than
the screen, a table whose box hides a column, the standings' rating or its interval off a
phone's screen, a chart cut; a script at its end can click headings first, and the probe
notes the orders and arrows that follow. Chromium's ``--dump-dom`` shows what they found.
On paper, Chromium prints the page to PDF and ``pdftotext`` reads it back: every column's
heading and the last figures of each table's first row must be there. Screenshots must not
be blank. Without Chromium (or pdftotext) the tests skip, except under CI (``CI`` set),
where .ci/run installs both.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli
from ginref.records import format_jsonl
from tests.support.randomplay import random_hand

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ROOT / "samples" / "tournament"
PHONE = (390, 844)
LAPTOP = (1366, 900)
DAY = "1796000000"
"""SOURCE_DATE_EPOCH of the pages made here: 2026-11-30"""


def tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found is not None:
            return found
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: .ci/run installs {names[0]}")
    pytest.skip(f"no {names[0]} here (apt-get install chromium poppler-utils)")


def chromium() -> str:
    return tool("chromium", "chromium-browser")


_PROBE = """<script>
window.__errors = [];
window.__clicks = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
(function () { var error = console.error;
  console.error = function () {
    window.__errors.push(Array.prototype.join.call(arguments, " "));
    error.apply(console, arguments);
  };
})();
function __seen() {
  var seen = {hidden: [], rating_off: [], charts_cut: []};
  document.querySelectorAll(".scroll").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth + 1) { seen.hidden.push(box.firstChild.className); }
  });
  var standings = document.querySelector("table.standings");
  if (standings) {
    var edge = standings.parentNode.getBoundingClientRect().right;
    Array.prototype.forEach.call(standings.rows, function (row) {
      [2, 3].forEach(function (column) {
        var right = row.cells[column].getBoundingClientRect().right;
        if (right > edge + 0.5 || right > window.innerWidth) { seen.rating_off.push(row.rowIndex); }
      });
    });
  }
  document.querySelectorAll(".plot svg").forEach(function (svg, i) {
    var box = svg.getBoundingClientRect(), drawn = svg.getBBox(), view = svg.viewBox.baseVal;
    var holder = svg.parentNode;
    if (box.left < 0 || box.right > window.innerWidth + 0.5 || holder.scrollWidth > holder.clientWidth
        || drawn.x < 0 || drawn.x + drawn.width > view.width + 0.5) { seen.charts_cut.push(i); }
  });
  return seen;
}
window.addEventListener("load", function () { setTimeout(function () {
  var seen = __seen();
  seen.errors = window.__errors;
  seen.clicks = window.__clicks;
  seen.overflow = document.documentElement.scrollWidth > window.innerWidth;
  seen.width = window.innerWidth;
  document.body.setAttribute("data-probe", JSON.stringify(seen));
}, 50); });
</script>"""

_CLICKS = """<script>
function __column(table, column) {
  return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
    return row.cells[column].getAttribute("data-v"); });
}
function __arrow(th) { return getComputedStyle(th.querySelector("button"), "::after").content; }
window.addEventListener("load", function () {
  var tables = document.querySelectorAll("table.sortable");
  CLICKS.forEach(function (click) {
    var table = tables[click[0]], th = table.tHead.rows[0].cells[click[1]];
    var before = Array.prototype.map.call(table.tHead.rows[0].cells, __arrow);
    th.querySelector("button").click();
    window.__clicks.push({table: table.className, column: click[1], values: __column(table, click[2]),
      sort: th.getAttribute("aria-sort"), arrow: __arrow(th), before: before,
      arrows: Array.prototype.map.call(table.tHead.rows[0].cells, __arrow)});
  });
});
</script>"""


def browse(page: Path, tmp: Path, size: tuple[int, int], *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--no-first-run", "--disable-extensions", f"--user-data-dir={tmp / 'profile'}",
            f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=3000", "--enable-logging=stderr",
            "--v=0", "--no-pdf-header-footer", *extra, page.as_uri()]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def probed(page: Path, tmp: Path, size: tuple[int, int],
           clicks: list[tuple[int, int, int]] = ()) -> tuple[str, dict[str, object]]:  # type: ignore[assignment]
    """The DOM of ``page`` after it ran in Chromium at ``size``, and what the probe saw:
    ``clicks`` are (table, column clicked, column read back), in turn, before it looks."""
    copy = tmp / (f"probed-{size[0]}-" + page.name)
    text = page.read_text(encoding="utf-8").replace("<head>", "<head>" + _PROBE, 1)
    if clicks:
        text = text.replace("</body>", _CLICKS.replace("CLICKS", json.dumps(clicks)) + "</body>")
    copy.write_text(text, encoding="utf-8")
    done = browse(copy, tmp, size, "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, "the page did not finish loading"
    console = [line for line in done.stderr.splitlines()
               if "CONSOLE" in line and ("ERROR" in line or "Uncaught" in line)]
    assert console == []
    probe = json.loads(unescape(found.group(1)))
    assert probe["errors"] == [], probe
    return done.stdout, probe


def screenshot(page: Path, tmp: Path, size: tuple[int, int]) -> Path:
    shot = tmp / (page.stem + f"-{size[0]}.png")
    done = browse(page, tmp, size, f"--screenshot={shot}")
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    return shot


def printed(page: Path, tmp: Path) -> str:
    """The text of ``page`` printed to PDF by Chromium, as pdftotext reads it (what reaches paper)."""
    pdf = tmp / (page.stem + ".pdf")
    done = browse(page, tmp, LAPTOP, f"--print-to-pdf={pdf}")
    assert done.returncode == 0 and pdf.exists(), done.stderr[-2000:]
    text = subprocess.run([tool("pdftotext"), "-raw", str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    return " ".join(text.split())


def assert_not_blank(shot: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    with image.open(shot) as picture:
        colours = picture.convert("L").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, "the screenshot is blank"


def write_page(tmp: Path, *args: str, name: str = "report.html") -> Path:
    page = tmp / name
    result = CliRunner().invoke(cli, ["report", *args, "--html", str(page)], catch_exceptions=False,
                                env={"SOURCE_DATE_EPOCH": DAY})
    assert result.exit_code in (0, 1), result.output
    return page


def tables(text: str) -> list[str]:
    return re.findall(r"<table class=\"[^\"]*\">.*?</table>", text, flags=re.S)


def headers(table: str) -> list[str]:
    """Each heading of a table as a reader sees it: its lines joined by a space."""
    heads = re.findall(r"<th[^>]*>(.*?)</th>", table.split("</thead>", 1)[0], flags=re.S)
    return [" ".join(unescape(re.sub(r"<br>", " ", re.sub(r"<(?!br>)[^>]+>", "", h))).split()) for h in heads]


def cells(row: str) -> list[str]:
    found = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split()) for cell in found]


def standings_rows(dom: str) -> list[str]:
    table = dom.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
    return [unescape(name) for name in re.findall(r'<td class="name" data-v="([^"]*)"', table)]


def league(tmp: Path, players: int = 40, games: int = 400, names: list[str] | None = None) -> Path:
    """One-hand games between ``players`` agents with long, alike names, each meeting others."""
    names = names or [f"team-alpha-agent-final-v{i:02d}" for i in range(players)]
    players = len(names)
    lines = []
    for seed in range(games):
        first, second = names[seed % players], names[(seed * 7 + 1 + seed // players) % players]
        if first == second:
            second = names[(seed + 1) % players]
        line = format_jsonl(random_hand(seed)).replace('"Ann"', '"\0A"').replace('"Bo"', '"\0B"')
        lines.append(line.replace('"\0A"', f'"{first}"').replace('"\0B"', f'"{second}"'))
    path = tmp / "league.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


CASES = ["amy", "Bob", "carl", "Dora", "eve", "Finn", "gus", "Hana", "ivo", "Jules", "kit", "Lena"]
"""twelve players whose names sort one way by case and another by casefold"""


def test_the_page_needs_nothing_from_outside(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--standings").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=|@import|url\(|https?://""", text.replace("http://www.w3.org", ""))


def test_nothing_is_said_only_on_hover(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--standings").read_text(encoding="utf-8")
    assert " title=" not in text and text.count("<title>") == 1  # the page's own title only
    assert "hover" not in text


def test_the_title_names_the_input_and_the_day_and_the_page_is_byte_stable(tmp_path: Path) -> None:
    first = write_page(tmp_path, str(TOURNAMENT), "--standings", name="a.html").read_text(encoding="utf-8")
    again = write_page(tmp_path, str(TOURNAMENT), "--standings", name="b.html").read_text(encoding="utf-8")
    assert first == again
    title = f"ginref report: {TOURNAMENT}, 2026-11-30"
    assert f"<title>{title}</title>" in first
    assert f'<h1>ginref report: {TOURNAMENT}, <span class="day">2026-11-30</span></h1>' in first
    many = [str(p) for p in sorted(TOURNAMENT.iterdir())[:5]]
    text = write_page(tmp_path, *many, name="c.html").read_text(encoding="utf-8")
    assert f"<title>ginref report: {many[0]}, {many[1]}, {many[2]} and 2 more, 2026-11-30</title>" in text


def test_a_bad_source_date_epoch_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(TOURNAMENT), "--html", str(tmp_path / "x.html")],
                                env={"SOURCE_DATE_EPOCH": "yesterday"})
    assert result.exit_code == 2 and "SOURCE_DATE_EPOCH" in result.output
    assert not (tmp_path / "x.html").exists()


def test_html_dash_writes_the_page_to_stdout_alone() -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["report", str(TOURNAMENT), "--standings", "--html", "-"],
                         env={"SOURCE_DATE_EPOCH": DAY})
    assert done.exit_code == 0 and done.stdout.startswith("<!DOCTYPE html>")
    assert done.stdout.endswith("</html>\n") and "few games" in done.stdout
    assert not Path("-").exists()
    for other in ("--json", "--csv"):
        refused = runner.invoke(cli, ["report", str(TOURNAMENT), "--html", "-", other])
        assert refused.exit_code == 2 and "--html - writes the page to stdout" in refused.output


def test_three_intervals_three_headings_and_wins_said_apart_from_games_won(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--standings").read_text(encoding="utf-8")
    standings = headers(tables(text)[0])
    assert standings == ["#", "player", "rating", "rating 95% interval", "games", "wins by totals",
                         "losses", "draws", "win rate", "win rate 95% interval", "points per hand",
                         "points 95% interval"]
    audit = [head for table in tables(text)[2:] for head in headers(table)]
    assert "games won to the end" in audit and "wins by totals" not in audit
    said = unescape(text)
    assert "wins by totals: the game's winner, or the player ahead where the record ends" in said
    assert "games won to the end: games played out to their end (the target) and won" in said


def test_the_charts_name_their_marks_and_number_their_axes(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--standings").read_text(encoding="utf-8")
    ratings, points = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    words = [unescape(w) for w in re.findall(r"<text[^>]*>([^<]*)</text>", ratings)]
    assert {"rating", "its 95% interval", "1500, the average", "rating (Elo scale)"} <= set(words)
    assert "1542 (1412-1650)" in words and len([w for w in words if re.fullmatch(r"1\d\d0", w)]) >= 3
    words = [unescape(w) for w in re.findall(r"<text[^>]*>([^<]*)</text>", points)]
    assert {"points won per hand", "points lost per hand", "hand points per hand", "0"} <= set(words)
    assert "9.0 won, 7.8 lost" in words


def test_by_game_the_page_names_players_and_winner_and_loses_no_points(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--by", "game").read_text(encoding="utf-8")
    first = tables(text)[0]
    assert headers(first)[:3] == ["game", "players", "winner by totals"]
    row = cells(first.split("<tbody>")[1].split("</tr>")[0])
    assert row[:3] == [f"{TOURNAMENT / 'game-01.gin'}:1", "keen-bot v lazy-bot", "lazy-bot"]
    assert "points lost" not in text and "points per hand</text>" in text


def test_one_game_says_the_sample_is_too_small(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(TOURNAMENT / "game-01.gin", folder)
    text = write_page(tmp_path, str(folder), "--standings").read_text(encoding="utf-8")
    assert "1631-1631" not in text and "its 95% interval" not in text
    assert "sample too small for a rating interval" in text and "not yet separable" not in text
    row = cells(tables(text)[0].split("<tbody>")[1].split("</tr>")[0])
    assert row[2:4] == ["1631", "-"]


def test_the_tournament_page_at_a_laptop_and_on_a_phone(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(TOURNAMENT), "--standings")
    dom, probe = probed(page, tmp_path, LAPTOP)
    assert probe["overflow"] is False and probe["hidden"] == [] and probe["charts_cut"] == [], probe
    assert standings_rows(dom) == ["lazy-bot", "keen-bot"]
    assert dom.count('class="name" data-v="keen-bot"') == 5  # standings, head to head, three audit tables
    assert "not yet separable" in dom
    _, probe = probed(page, tmp_path, PHONE)
    assert probe["overflow"] is False and probe["rating_off"] == [] and probe["charts_cut"] == [], probe
    assert_not_blank(screenshot(page, tmp_path, LAPTOP))


def test_twelve_players_at_a_laptop_hide_no_column(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(league(tmp_path, 12, 120)), "--standings", "--rounds", "20")
    _, probe = probed(page, tmp_path, LAPTOP)
    assert probe["overflow"] is False and probe["hidden"] == [] and probe["charts_cut"] == [], probe


def test_forty_players_on_a_phone(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(league(tmp_path)), "--standings", "--rounds", "50")
    dom, probe = probed(page, tmp_path, PHONE)
    assert probe["overflow"] is False, probe
    assert probe["rating_off"] == [] and probe["charts_cut"] == [], probe  # rating and interval in view
    rows = standings_rows(dom)
    assert len(rows) == 40 and len(set(rows)) == 40
    table = dom.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
    ratings = [float(v) for v in re.findall(r'<td class="name"[^>]*>.*?</td><td data-v="([^"]*)">', table)]
    assert len(ratings) == 40 and ratings == sorted(ratings, reverse=True)  # best first
    assert table.count('<button type="button">') == 12  # every column sorts
    assert_not_blank(screenshot(page, tmp_path, PHONE))


def test_sorting_text_first_a_to_z_figures_highest_first_with_an_arrow(tmp_path: Path) -> None:
    source = league(tmp_path, games=120, names=CASES)
    page = write_page(tmp_path, str(source), "--standings", "--rounds", "20")
    # standings: player twice, then games; head to head: player, then the column of the first place
    clicks = [(0, 1, 1), (0, 1, 1), (0, 4, 4), (1, 1, 1), (1, 2, 2), (2, 0, 0)]
    _, probe = probed(page, tmp_path, LAPTOP, clicks)
    done = probe["clicks"]
    assert isinstance(done, list) and len(done) == len(clicks)
    folded = sorted(CASES, key=str.casefold)
    assert "▼" in done[0]["before"][2] and "↕" in done[0]["before"][1]  # as it comes: by rating
    assert done[0]["values"] == folded and done[0]["sort"] == "ascending" and "▲" in done[0]["arrow"]
    assert done[1]["values"] == folded[::-1] and done[1]["sort"] == "descending" and "▼" in done[1]["arrow"]
    assert sum("▲" in a or "▼" in a for a in done[1]["arrows"]) == 1  # one arrow: the column sorted by
    games = [int(v) for v in done[2]["values"]]
    assert games == sorted(games, reverse=True) and done[2]["sort"] == "descending"
    assert "matrix" in done[3]["table"] and done[3]["values"] == folded  # head to head sorts too
    against = [v for v in done[4]["values"] if v]
    assert [float(v) for v in against] == sorted(map(float, against), reverse=True)
    assert done[4]["values"][len(against):] == [""] * (len(CASES) - len(against))  # none met: last
    assert done[5]["values"] == folded  # the audit, by name


@pytest.mark.parametrize("args", [(str(TOURNAMENT), "--standings"), (str(TOURNAMENT), "--by", "game"),
                                  (str(TOURNAMENT), "--standings", "--advise", "--samples", "5"),
                                  (str(ROOT / "samples" / "duplicate"), "--duplicate")])
def test_on_paper_every_column_reaches_the_page(tmp_path: Path, args: tuple[str, ...]) -> None:
    page = write_page(tmp_path, *args)
    text = page.read_text(encoding="utf-8")
    paper = printed(page, tmp_path)
    wanted = [head for table in tables(text) for head in headers(table) if head not in ("#", "1", "2")]
    for head in set(wanted):
        assert paper.count(head) >= wanted.count(head), head
    for table in tables(text):
        first = cells(table.split("<tbody>")[1].split("</tr>")[0])
        assert " ".join(first[-2:]) in paper, first
