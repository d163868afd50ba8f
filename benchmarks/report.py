"""Results as JSON-ready dicts, the targets, and their rendering as tables (console and Markdown).

Everything here works from the results dict alone, so a saved
``results.json`` renders the same tables again (``run.py --from-json``).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import shlex
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

Results = dict[str, Any]
PACKAGES = ("ginref", "click", "pyparsing", "tabulate", "open-spiel", "rlcard", "pyinstrument")
REPO = Path(__file__).resolve().parent.parent

TARGET_DEADWOOD_RATIO = 1.5
TARGET_VERIFY_JSONL = 10_000
TARGET_VERIFY_TEXT = 2_000
TARGET_JOBS_SPEEDUP = 1.7
TARGET_STARTUP_RATIO = 1.3
TARGET_REPORT_RATIO = 1.2
TARGET_STANDINGS_RATIO = 1.2
NAIVE_TARGET = "zero disagreements with the naive search"


# ------------------------------------------------------------------ machine


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, with its family and model numbers when given."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip().lower(), value.strip())
    except OSError:
        return platform.processor() or platform.machine()
    name = fields.get("model name") or platform.machine()
    if "cpu family" in fields and "model" in fields:
        return f"{name} (family {fields['cpu family']}, model {fields['model']})"
    return name


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def machine() -> dict[str, Any]:
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_allowed": allowed,
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "executable": sys.executable,
    }


def header(argv: Sequence[str], settings: dict[str, Any]) -> Results:
    """Everything about the run except its figures."""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": shlex.join(["python", *argv]),
        "git": _git_commit(),
        "machine": machine(),
        "packages": {name: _version(name) for name in PACKAGES},
        "settings": settings,
    }


# ------------------------------------------------------------------ targets


def _target(name: str, measured: str, threshold: str, passed: bool | None) -> dict[str, Any]:
    return {"target": name, "measured": measured, "threshold": threshold, "passed": passed}


def _deadwood_targets(classes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    targets = []
    exact: list[float] = []
    heuristic: list[float] = []
    for item in classes:
        for entry in item["contestants"]:
            if entry["name"] in ("open-spiel", "open-spiel exact"):
                exact.append(entry["ginref_ratio"])
            if entry["name"] in ("open-spiel", "open-spiel heuristic"):
                heuristic.append(entry["ginref_ratio"])
    if exact:
        worst = min(exact)
        targets.append(
            _target(
                "least deadwood >= 1.5x OpenSpiel, every class (11 cards: exact 11-call form)",
                f"worst {worst:.2f}x",
                f">= {TARGET_DEADWOOD_RATIO}x",
                worst >= TARGET_DEADWOOD_RATIO,
            )
        )
        worst = min(heuristic)
        targets.append(
            _target(
                "least deadwood >= 1.5x OpenSpiel, every class (11 cards: its 1-call heuristic)",
                f"worst {worst:.2f}x",
                f">= {TARGET_DEADWOOD_RATIO}x",
                worst >= TARGET_DEADWOOD_RATIO,
            )
        )
    else:
        targets.append(_target("least deadwood >= 1.5x OpenSpiel", "OpenSpiel not installed", "", None))
    wrong = sum(item["naive_disagreements"] for item in classes)
    checked = sum(item["naive_checked"] for item in classes)
    measured = f"{wrong} of {checked:,} hands checked"
    targets.append(_target(NAIVE_TARGET, measured, "0", wrong == 0))
    return targets


def _ceiling_text(ceiling: list[float]) -> str:
    """The machine ceilings measured around the verify rounds: median and range."""
    return f"{statistics.median(ceiling):.2f}x, range {min(ceiling):.2f}-{max(ceiling):.2f}x"


def _ceilings(verify: dict[str, Any], fmt: str) -> str:
    """What bounds ``--jobs 2`` for one format: its halves at once (when measured), the machine."""
    machine = f"machine ceiling {_ceiling_text(verify['parallel_ceiling'])}"
    halves = verify.get("halves_speedup", {}).get(fmt)
    return f" (its halves at once {halves:.2f}x; {machine})" if halves else f" ({machine})"


_VERIFY_TARGETS = (
    ("ginref verify, JSON Lines, --jobs 1", f">= {TARGET_VERIFY_JSONL:,} records/s"),
    ("ginref verify, text, --jobs 1", f">= {TARGET_VERIFY_TEXT:,} records/s"),
    ("ginref verify --jobs 2 vs --jobs 1, JSON Lines", f">= {TARGET_JOBS_SPEEDUP}x"),
    ("ginref verify --jobs 2 vs --jobs 1, text", f">= {TARGET_JOBS_SPEEDUP}x"),
)


def _verify_targets(verify: dict[str, Any]) -> list[dict[str, Any]]:
    if "skipped" in verify:
        return [
            _target(name, f"not measured: {verify['skipped']}", floor, None)
            for name, floor in _VERIFY_TARGETS
        ]
    rates = {run["format"]: run["rate"] for run in verify["runs"] if run["jobs"] == 1}
    speedups = verify["speedup"]
    measured = [
        (f"{rates['jsonl']:,.0f} records/s", rates["jsonl"] >= TARGET_VERIFY_JSONL),
        (f"{rates['gin']:,.0f} records/s", rates["gin"] >= TARGET_VERIFY_TEXT),
        (f"{speedups['jsonl']:.2f}x{_ceilings(verify, 'jsonl')}", speedups["jsonl"] >= TARGET_JOBS_SPEEDUP),
        (f"{speedups['gin']:.2f}x{_ceilings(verify, 'gin')}", speedups["gin"] >= TARGET_JOBS_SPEEDUP),
    ]
    return [
        _target(name, text, floor, passed)
        for (name, floor), (text, passed) in zip(_VERIFY_TARGETS, measured, strict=True)
    ]


def _startup_target(startup: dict[str, Any]) -> dict[str, Any]:
    """The slower of ``analyze HAND`` and ``analyze HAND --json`` against click's import, in CPU
    time (wall time in results written before CPU was measured)."""
    ratio = max(startup.get("cpu_ratio", startup["ratio"]), startup.get("text_cpu_ratio", 0.0))
    return _target(
        'start-up of `ginref analyze HAND` (and `--json`) vs `python -c "import click"`, CPU',
        f"{ratio:.2f}x",
        f"<= {TARGET_STARTUP_RATIO}x",
        ratio <= TARGET_STARTUP_RATIO,
    )


def targets(results: Results, judge_speed: bool = True) -> list[dict[str, Any]]:
    """Every target with its figure; with ``judge_speed`` off (smoke runs), speed targets are n/a."""
    found = _deadwood_targets(results["least_deadwood"])
    if "startup" in results:
        found.append(_startup_target(results["startup"]))
    if "verify" in results:
        found.extend(_verify_targets(results["verify"]))
    if "cpu_ratio" in results.get("report", {}):
        ratio = results["report"]["cpu_ratio"]["of_medians"]
        found.append(_target("ginref report vs ginref verify, the same games, CPU", f"{ratio:.2f}x",
                             f"<= {TARGET_REPORT_RATIO}x", ratio <= TARGET_REPORT_RATIO))
    if "cpu_ratio" in results.get("standings", {}):
        ratio = results["standings"]["cpu_ratio"]["of_medians"]
        found.append(_target("ginref report --standings vs ginref report, the same games, CPU",
                             f"{ratio:.2f}x", f"<= {TARGET_STANDINGS_RATIO}x",
                             ratio <= TARGET_STANDINGS_RATIO))
    if not judge_speed:
        for target in found:
            if target["target"] != NAIVE_TARGET:
                target["passed"] = None
    return found


# ------------------------------------------------------------------ tables


def _rate(value: float) -> str:
    return f"{value:,.0f}"


def _disagreement_cell(item: dict[str, Any], entry: dict[str, Any]) -> str:
    if entry["name"] == "ginref":
        return ""
    if entry["name"] == "naive":
        return f"{entry['disagreements']} of {entry['checked']:,} checked"
    text = f"{entry['disagreements']} of {entry['checked']:,}"
    return text + (" (heuristic)" if not entry["exact"] else "")


def deadwood_table(results: Results, fmt: str) -> str:
    rows = []
    for item in results["least_deadwood"]:
        for i, entry in enumerate(item["contestants"]):
            rows.append(
                [
                    item["name"] if i == 0 else "",
                    entry["name"],
                    _rate(entry["rate"]),
                    "" if entry["name"] == "ginref" else f"{entry['ginref_ratio']:.2f}x",
                    _disagreement_cell(item, entry),
                ]
            )
    headers = ["class", "search", "hands/s", "ginref is", "differs from ginref"]
    return tabulate(rows, headers, tablefmt=fmt, colalign=("left", "left", "right", "right", "left"))


def _analyze_rows(results: Results) -> list[list[str]]:
    return [
        [f"ginref {a['name']}", f"{a['items']:,} hands", f"{a['median']:.3f} s", f"{a['rate']:,.0f} hands/s"]
        for a in results.get("analyze", [])
    ]


def _startup_rows(results: Results) -> list[list[str]]:
    if "startup" not in results:
        return []
    s = results["startup"]
    if "cpu_ratio" not in s:  # results written before CPU was measured: wall time
        return [
            ["ginref analyze HAND --json", "start-up", f"{s['ginref_median'] * 1000:.0f} ms",
             f"{s['ratio']:.2f}x"],
            ['python -c "import click"', "start-up", f"{s['click_median'] * 1000:.0f} ms", "1.00x"],
        ]

    def cpu(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:.0f} ms CPU"

    return [
        ["ginref analyze HAND", "start-up", cpu(s["text_cpu"]), f"{s['text_cpu_ratio']:.2f}x"],
        ["ginref analyze HAND --json", "start-up", cpu(s["ginref_cpu"]), f"{s['cpu_ratio']:.2f}x"],
        ['python -c "import click"', "start-up", cpu(s["click_cpu"]), "1.00x"],
    ]


def _verify_rows(results: Results) -> list[list[str]]:
    verify = results.get("verify", {})
    if "skipped" in verify:
        return [["ginref verify", "not measured", "", verify["skipped"]]]
    rows = []
    for run in verify.get("runs", []):
        work = f"{run['records']:,} records, {'JSON Lines' if run['format'] == 'jsonl' else 'text'}"
        rate = f"{run['rate']:,.0f}/s"
        if "cpu_rate" in run:
            rate += f", {run['cpu_rate']:,.0f}/CPU-s"
        rows.append([f"ginref verify --jobs {run['jobs']}", work, f"{run['median']:.3f} s", rate])
    for fmt, micros in verify.get("parent_us_per_record", {}).items():
        form = "JSON Lines" if fmt == "jsonl" else "text"
        work = f"main process CPU per record, {form}"
        rows.append(["ginref verify --jobs 2", work, "", f"{micros:.1f} us"])
    for fmt, seconds in verify.get("halves_at_once", {}).items():
        form = "JSON Lines" if fmt == "jsonl" else "text"
        work = f"the halves at once, {form}"
        figure = f"{verify['halves_speedup'][fmt]:.2f}x --jobs 1"
        rows.append(["2 x ginref verify --jobs 1", work, f"{statistics.median(seconds):.3f} s", figure])
    if verify.get("parallel_ceiling"):
        ceiling = _ceiling_text(verify["parallel_ceiling"])
        rows.append(["2 processes of plain Python", "machine ceiling, median (range)", "", ceiling])
    return rows


def _report_rows(results: Results) -> list[list[str]]:
    report = results.get("report", {})
    if "lines" not in report:
        return []
    line, ratio = report["lines"]["report"], report["cpu_ratio"]["of_medians"]
    work = f"{report['games']:,} games, JSON Lines"
    rows = [[f"ginref report --jobs {report['jobs']}", work, f"{line['wall']['median']:.3f} s",
             f"{ratio:.2f}x verify's CPU"]]
    ranked = results.get("standings", {})
    if "lines" in ranked:
        line, ratio = ranked["lines"]["report --standings"], ranked["cpu_ratio"]["of_medians"]
        rows.append([f"ginref report --standings --jobs {ranked['jobs']}",
                     f"{ranked['games']:,} games, {ranked['players']} players",
                     f"{line['wall']['median']:.3f} s",
                     f"{ratio:.2f}x report's CPU"])
    return rows


def cli_table(results: Results, fmt: str) -> str:
    rows = _analyze_rows(results) + _startup_rows(results) + _verify_rows(results) + _report_rows(results)
    headers = ["command", "work", "median", "figure"]
    return tabulate(rows, headers, tablefmt=fmt, colalign=("left", "left", "right", "right"))


def targets_table(results: Results, fmt: str) -> str:
    marks = {True: "pass", False: "FAIL", None: "n/a"}
    rows = [[t["target"], t["measured"], t["threshold"], marks[t["passed"]]] for t in results["targets"]]
    return tabulate(rows, ["target", "measured", "threshold", "result"], tablefmt=fmt)


def machine_lines(results: Results) -> list[str]:
    m = results["machine"]
    packages = ", ".join(f"{k} {v}" for k, v in results["packages"].items() if v)
    return [
        f"date: {results['date']}   git: {results.get('git') or 'unknown'}",
        f"cpu: {m['cpu']}, {m['cores']} cores (allowed: {m['cores_allowed']})",
        f"load average before: {m['load_average']}, after: {m.get('load_average_after')}",
        f"python: {m['python']} on {m['platform']}",
        f"packages: {packages}",
        f"command: {results['command']}",
    ]


def dispute_lines(results: Results, limit: int = 10) -> list[str]:
    """Hands on which ginref or an exact peer is wrong (the naive search's answer is the truth)."""
    lines = []
    for item in results["least_deadwood"]:
        exact = {e["name"]: e["exact"] for e in item["contestants"]}
        for d in item["disputes"]:
            if exact.get(d["contestant"], True):
                lines.append(
                    f"{item['name']} {d['hand']}: {d['contestant']} {d['theirs']}, "
                    f"ginref {d['ginref']}, naive {d['truth']}"
                )
    return lines[:limit]


def console(results: Results) -> str:
    parts = [
        "\n".join(machine_lines(results)),
        "Least deadwood, one core, median of interleaved rounds:\n" + deadwood_table(results, "simple"),
    ]
    if results.get("analyze") or "startup" in results or "verify" in results:
        parts.append("Command line, subprocesses, median of runs:\n" + cli_table(results, "simple"))
    disputes = dispute_lines(results)
    if disputes:
        parts.append("Disputed hands:\n" + "\n".join(disputes))
    parts.append("Targets:\n" + targets_table(results, "simple"))
    if results.get("notes"):
        parts.append("\n".join(f"note: {note}" for note in results["notes"]))
    return "\n\n".join(parts)
