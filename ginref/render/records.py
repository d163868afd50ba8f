"""The record commands' text: ``adjudicate``, ``verify`` (its text, JSON, JSON Lines and
CSV, written as the results come) and ``convert``'s progress line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ginref.cards import card_label
from ginref.jsonwrite import json_line
from ginref.render.tables import text_table

if TYPE_CHECKING:
    from ginref.batch import BatchSummary, RecordResult
    from ginref.errors import RecordError
    from ginref.referee import Verdict
    from ginref.referee.findings import FindingRow


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


def unreadable_line(error: RecordError) -> str:
    """An unreadable record for people, as ``verify`` names it: ``source:line:column: unreadable: ...``."""
    from ginref.referee.findings import FindingRow

    row = FindingRow(error.line, error.column, "", "error", "unreadable", error.message)
    return finding_line(error.source, error.line, row)


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
    from ginref.referee.findings import finding_rows
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
        parts.append(text_table(rows, ["hand", "outcome", "winner", "points", "totals", "next dealer"]))
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
    parts = [text_table(rows)]
    if summary.by_code:
        parts.append("")
        counts = [[code, str(n)] for code, n in sorted(summary.by_code.items())]
        parts.append(text_table(counts, ["finding", "count"]))
    return "\n".join(parts)
