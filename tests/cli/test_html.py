"""``ginref report --html``: the page, loaded from a file in a real browser (headless Chromium).

Each page is loaded as a reader would open an attachment: from a file, offline. A copy of it
carries a few lines of test script ahead of the page's own, which note every script error
and console error and, once the page has run, whether anything is wider than the screen;
Chromium's ``--dump-dom`` shows what they found. A screenshot must not be blank. Without
Chromium the tests skip, except under CI (``CI`` set), where .ci/run installs it.
"""

from __future__ import annotations

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
PHONE = (375, 740)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: .ci/run installs Debian's chromium")
        pytest.skip("no chromium here (apt-get install chromium)")
    return found


_PROBE = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
(function () { var error = console.error;
  console.error = function () {
    window.__errors.push(Array.prototype.join.call(arguments, " "));
    error.apply(console, arguments);
  };
})();
window.addEventListener("load", function () { setTimeout(function () {
  var wide = document.documentElement.scrollWidth > window.innerWidth;
  document.body.setAttribute("data-probe", JSON.stringify({errors: window.__errors, overflow: wide,
    scroll: document.documentElement.scrollWidth, width: window.innerWidth}));
}, 50); });
</script>"""


def browse(page: Path, tmp: Path, size: tuple[int, int], *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--no-first-run", "--disable-extensions", f"--user-data-dir={tmp / 'profile'}",
            f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=3000", "--enable-logging=stderr",
            "--v=0", *extra, page.as_uri()]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def probed(page: Path, tmp: Path, size: tuple[int, int]) -> tuple[str, dict[str, object]]:
    """The DOM of ``page`` after it ran in Chromium at ``size``, and what the probe saw."""
    import json

    copy = tmp / ("probed-" + page.name)
    text = page.read_text(encoding="utf-8")
    copy.write_text(text.replace("<head>", "<head>" + _PROBE, 1), encoding="utf-8")
    done = browse(copy, tmp, size, "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, "the page did not finish loading"
    console = [line for line in done.stderr.splitlines()
               if "CONSOLE" in line and ("ERROR" in line or "Uncaught" in line)]
    assert console == []
    return done.stdout, json.loads(unescape(found.group(1)))


def screenshot(page: Path, tmp: Path, size: tuple[int, int]) -> Path:
    shot = tmp / (page.stem + f"-{size[0]}.png")
    done = browse(page, tmp, size, f"--screenshot={shot}")
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    return shot


def assert_not_blank(shot: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    with image.open(shot) as picture:
        colours = picture.convert("L").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, "the screenshot is blank"


def write_page(tmp: Path, *args: str) -> Path:
    page = tmp / "report.html"
    result = CliRunner().invoke(cli, ["report", *args, "--html", str(page)], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return page


def standings_rows(dom: str) -> list[str]:
    table = dom.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
    return [unescape(name) for name in re.findall(r'<td class="name" data-v="([^"]*)"', table)]


def test_the_page_needs_nothing_from_outside(tmp_path: Path) -> None:
    text = write_page(tmp_path, str(TOURNAMENT), "--standings").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=|@import|url\(|https?://""", text.replace("http://www.w3.org", ""))


def test_the_tournament_page_in_a_browser(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(TOURNAMENT), "--standings")
    dom, probe = probed(page, tmp_path, (1000, 1400))
    assert probe["errors"] == [] and probe["overflow"] is False, probe
    assert standings_rows(dom) == ["lazy-bot", "keen-bot"]
    assert dom.count('class="name" data-v="keen-bot"') == 2  # standings and audit
    assert "not yet separable" in dom
    assert_not_blank(screenshot(page, tmp_path, (1000, 1400)))


def league(tmp: Path, players: int = 40, games: int = 400) -> Path:
    """One-hand games between ``players`` agents with long, alike names, each meeting others."""
    names = [f"team-alpha-agent-final-v{i:02d}" for i in range(players)]
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


def test_forty_players_on_a_phone(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(league(tmp_path)), "--standings", "--rounds", "50")
    dom, probe = probed(page, tmp_path, PHONE)
    assert probe["errors"] == [] and probe["overflow"] is False, probe
    rows = standings_rows(dom)
    assert len(rows) == 40 and len(set(rows)) == 40
    table = dom.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
    row = (r'<tr class="[a-z]*"><td data-v="\d+">\d+</td><td class="name"[^>]*>.*?</td>'
           r'(?:<td data-v="[^"]*">[^<]*</td>){6}<td data-v="([^"]*)">')
    ratings = [float(v) for v in re.findall(row, table)]
    assert len(ratings) == 40 and ratings == sorted(ratings, reverse=True)  # best first
    sorting = re.findall(r"<th (class=\"name\" )?title=\"sort by this column\"", table)
    assert len(sorting) == 12  # every column sorts
    assert_not_blank(screenshot(page, tmp_path, PHONE))


def test_the_page_sorts_by_a_column(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(league(tmp_path, 12, 120)), "--standings", "--rounds", "20")
    clicked = tmp_path / "clicked.html"
    text = page.read_text(encoding="utf-8")
    click = ('<script>window.addEventListener("load", function () {'
             'document.querySelector("table.sortable thead th:nth-child(2)").click();});</script>')
    clicked.write_text(text.replace("</body>", click + "</body>"), encoding="utf-8")
    dom, probe = probed(clicked, tmp_path, (1000, 900))
    assert probe["errors"] == []
    rows = standings_rows(dom)
    assert rows == sorted(rows, reverse=True)


@pytest.mark.parametrize("by", ["player", "game", "rules"])
def test_without_standings_the_page_holds_the_audit(tmp_path: Path, by: str) -> None:
    page = write_page(tmp_path, str(TOURNAMENT), "--by", by, "--json")
    text = page.read_text(encoding="utf-8")
    assert "<h2>Standings</h2>" not in text and "<h2>Audit</h2>" in text
    names = re.findall(r'<td class="name" data-v="([^"]*)"', text.split("<h2>Audit</h2>", 1)[1])
    expected = {"player": 2, "game": 8, "rules": 1}[by]
    assert len(names) == len(set(names)) == expected
