"""The commands on recorded hands and games: ``adjudicate``, ``verify`` and ``convert``."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Generator
from contextlib import nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import click

from ginref.cli.exits import EXIT_UNREADABLE, EXIT_USAGE, ClusterUnavailable, fail, input_errors
from ginref.cli.options import (
    batch_options,
    needs_extra,
    no_records,
    reader_options,
    record_rules_argument,
    require_paths,
)
from ginref.cli.output import ProgressLine, check_output_folder, emit, screen_rows
from ginref.rules import Rules

if TYPE_CHECKING:
    from ginref.batch import BatchSummary, RecordResult
    from ginref.batch.cluster import ClusterRun
    from ginref.errors import RecordError
    from ginref.records.io import Reading, ReadProgress
    from ginref.records.model import InputForm, RecordFormat
    from ginref.records.names import Naming

    Results = Generator[RecordResult, None, None] | ClusterRun
    """a batch's results: closing them stops its workers"""


@click.command()
@click.argument("record", metavar="RECORD|-", type=click.Path(allow_dash=True))
@record_rules_argument
@reader_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON only: one verdict per record, in a list.")
@click.option("--explain", is_flag=True,
              help="Show how each knocked hand was settled, step by step, with the knobs.")
def adjudicate(
    record: str,
    from_form: InputForm | None,
    game: str,
    names: Naming | None,
    as_json: bool,
    explain: bool,
    rules: Rules | None,
) -> None:
    """Replay a recorded hand or game move by move and rule on it.

    RECORD is a .gin text record, a .json record or .jsonl records (`-`: stdin);
    OpenSpiel action histories, SerializeGameAndState text, Kaggle episodes,
    EAAI framework logs and RLCard move sheets are recognised by content (or
    forced with --from).
    Every move is checked under the rule set the record names; --rules (or
    --rules-file, --set) replaces it only with --override-rules. Findings name the line and column (text)
    or JSON pointer, with a stable code. The true result (outcome, winner,
    points, layoffs, running score, next dealer) is computed and compared with
    what the record claims.

    Each record gets its table; on a terminal, records that ran past a
    screenful end with a hint on stderr: `verify` reports only the records
    with findings, then a summary.

    Exit 0 when every record is clean (advisories allowed), 1 for findings,
    3 for an unreadable record, 2 for usage errors.

    \b
    Examples:
      ginref adjudicate samples/records/knock-layoffs.gin
      ginref adjudicate --rules openspiel --override-rules --json game.json
    """
    from ginref.jsonwrite import to_json
    from ginref.render.records import adjudicate_document, result_lines, verdict_text

    require_paths([record])
    documents: list[object] = []
    shown = 0

    def write(result: RecordResult, first: bool) -> None:
        nonlocal shown
        if result.verdict is None:
            click.echo(f"Error: {result_lines(result)[0]}", err=True)
        elif not as_json:
            text = verdict_text(result.source, result.line, result.verdict, explain=explain)
            emit(text)
            shown += text.count("\n") + 1
        if as_json:
            documents.append(adjudicate_document(result))

    from ginref.records.io import Reading

    stdin = sys.stdin.buffer if record == "-" else None
    results = batch_results([record], rules, 1, None, Reading(stdin=stdin, format=from_form, game=game,
                                                                names=names))
    summary = report_results(results, write, ProgressLine(None))
    if as_json:
        emit(to_json(documents))
    _hint_at_verify(record, summary.records, shown)
    if summary.unreadable == summary.records:
        _hint_at_game(record)
    say_files_without_records([record], summary)
    sys.exit(summary.exit_code)


def _hint_at_game(record: str) -> None:
    """A file of no readable record that opens as a score sheet: say that ``game`` scores it."""
    from ginref.sheets import looks_like_sheet

    if not os.path.isfile(record):  # stdin, a FIFO, a device: read once, and already
        return
    try:
        with open(record, "rb") as file:
            text = file.read(65536).decode("utf-8", "replace")
    except OSError:
        return
    if looks_like_sheet(text):
        import shlex

        click.echo(f"hint: {record} looks like a score sheet: `ginref game {shlex.quote(record)}` scores it",
                   err=True)


def _hint_at_verify(record: str, records: int, lines: int) -> None:
    """Tables of many records that ran past a screenful: say that ``verify`` sums them up."""
    rows = screen_rows()
    if rows is not None and records > 1 and lines > rows:
        import shlex

        click.echo(f"hint: that was {records} records; `ginref verify {shlex.quote(record)}` reports "
                   "only the ones with findings, then a summary", err=True)


@click.command(epilog=needs_extra("--scheduler", "Dask and fsspec", "dask"))
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=click.Path(allow_dash=True))
@batch_options
@record_rules_argument
@reader_options
@click.option("--json", "as_json", is_flag=True, help='One report: {"records": [...], "summary": {...}}.')
@click.option("--jsonl", "as_jsonl", is_flag=True, help="Stream one JSON result per record (huge batches).")
@click.option("--csv", "as_csv", is_flag=True,
              help="CSV for spreadsheets: a header, then one row per finding or unreadable record.")
@click.option("--fail-fast", is_flag=True, help="Stop at the first record with findings or unreadable.")
def verify(
    paths: tuple[str, ...],
    jobs: int | None,
    scheduler: str | None,
    from_form: InputForm | None,
    game: str,
    names: Naming | None,
    as_json: bool,
    as_jsonl: bool,
    as_csv: bool,
    fail_fast: bool,
    rules: Rules | None,
) -> None:
    """Verify recorded hands in bulk: files, folders or stdin.

    PATHs are files, folders (read recursively) or `-` (stdin). Reads .gin,
    .json and .jsonl records (and, by content or --from, OpenSpiel histories,
    Kaggle episodes, EAAI logs and RLCard sheets), checks each in parallel
    worker processes and reports
    in input order: each record with findings (or unreadable) as
    `source:line:column: code: message`, then a summary of records, clean,
    with findings, unreadable, with advisories (clean all the same), and
    counts by finding code. One unreadable record never stops the rest. Memory
    stays flat. Each record is ruled under the rules it names;
    --override-rules rules them all under --rules, --rules-file and --set
    instead.

    With --scheduler, the same batch runs on a Dask cluster and PATHs may be
    fsspec URLs (s3://bucket/logs/); the output is the same.

    Exit 0 all clean, 1 any findings (wins over 3), 3 any unreadable, 2 usage,
    69 no dask or no scheduler.

    \b
    Examples:
      ginref verify samples/records
      ginref verify logs/ --jobs 2 --jsonl > results.jsonl
      cat hands.jsonl | ginref verify - --rules openspiel --override-rules --json
      ginref verify s3://bucket/logs/ --scheduler tcp://scheduler:8786 --jsonl
    """
    from ginref.files import is_url
    from ginref.records.io import Reading, ReadProgress
    from ginref.render.records import skipped_files_note

    if as_json + as_jsonl + as_csv > 1:
        fail("give one of --json, --jsonl and --csv")
    form = "json" if as_json else "jsonl" if as_jsonl else "csv" if as_csv else "text"
    require_paths([p for p in paths if not is_url(p)])
    skipped: list[str] = []
    progress = ReadProgress() if ProgressLine.wanted() else None
    notes: list[str] = []
    reading = Reading(stdin=sys.stdin.buffer if "-" in paths else None, format=from_form, game=game,
                      names=names, progress=progress, on_skip=skipped.append, on_note=notes.append)
    results = batch_results(list(paths), rules, jobs, scheduler, reading)
    summary = _write_results(results, form, progress, fail_fast)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if skipped:
        click.echo(skipped_files_note(skipped), err=True)
    say_files_without_records(list(paths), summary)
    sys.exit(summary.exit_code)


def batch_results(
    paths: list[str], rules: Rules | None, jobs: int | None, scheduler: str | None, reading: Reading
) -> Results:
    """The results of the batch, from local worker processes or from a Dask cluster."""
    if not scheduler:
        from ginref.batch import verify as run

        return run(paths, rules, jobs=jobs, reading=reading)
    from ginref.batch.cluster import verify_at
    from ginref.errors import ClusterError

    try:
        return verify_at(scheduler, paths, rules, workers=jobs, reading=reading)
    except ClusterError as exc:
        raise ClusterUnavailable(str(exc)) from None


def say_files_without_records(paths: list[str], summary: BatchSummary) -> None:
    """Every file read is in the report or named here; a batch of no record at all exits 3."""
    from ginref.batch import inputs_without_records
    from ginref.render.records import no_record_notes

    empty = inputs_without_records(paths, summary.sources) if summary.records else []
    if empty:
        click.echo(no_record_notes(empty), err=True)
    if not summary.records:
        no_records(paths)


def report_results(
    results: Results, write: Callable[[RecordResult, bool], None], shown: ProgressLine,
    fail_fast: bool = False,
) -> BatchSummary:
    """The one loop of ``adjudicate``, ``verify`` and ``report``: each result written as it
    comes and counted, on ``shown``'s progress line; the summary's exit code is theirs (0
    clean, 1 findings, 3 unreadable). ``write`` makes way for the line before it writes."""
    from ginref.batch import BatchSummary

    summary = BatchSummary()
    # closing the results (a closed pipe, Ctrl-C, --fail-fast) stops the worker processes now
    with shown, contextlib.closing(results):
        for result in results:
            write(result, not summary.records)
            summary.add(result)
            shown.update(summary.records)
            if fail_fast and result.status != "clean":
                break
    return summary


def _write_results(
    results: Results, form: str, progress: ReadProgress | None, fail_fast: bool
) -> BatchSummary:
    """Each result in ``form`` as it comes, then the summary."""
    from ginref.render.records import verify_closing, verify_opening, verify_result_text

    out = sys.stdout
    out.write(verify_opening(form))
    shown = ProgressLine(progress)

    def write(result: RecordResult, first: bool) -> None:
        text = verify_result_text(result, form, first)
        if text:  # a clean record's text form is nothing: no write (one call each when unbuffered)
            shown.before_stdout()
            out.write(text)

    summary = report_results(results, write, shown, fail_fast)
    out.write(verify_closing(form, summary))
    out.flush()
    return summary


@click.command()
@click.argument("input_path", metavar="INPUT|-", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "-o",
    "--output",
    "output_path",
    metavar="OUTPUT|-",
    default="-",
    show_default=True,
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    help="Where to write; the extension (.gin, .json, .jsonl) sets the format (another needs --to).",
)
@click.option(
    "--to",
    "to_format",
    type=click.Choice(["gin", "json", "jsonl", "openspiel"]),
    help="Output format (openspiel: one action history per line)  "
    "[default: from OUTPUT, else the other form of INPUT]",
)
@record_rules_argument
@reader_options
def convert(
    input_path: str,
    output_path: str,
    to_format: RecordFormat | None,
    from_form: InputForm | None,
    game: str,
    names: Naming | None,
    rules: Rules | None,
) -> None:
    """Convert records between the text form (.gin) and JSON.

    The text form is .gin, JSON is .json (one record) or .jsonl (one a line).
    The input format comes from the extension (stdin is sniffed: `{` first
    means JSON Lines); OpenSpiel histories, Kaggle episodes, EAAI logs and RLCard
    sheets are recognised by content, or forced with --from (--game gives histories their parameters).
    Nothing is lost either way: free tags, unseen cards (`??`), claims and
    totals all carry over. A record that cannot be read is reported on stderr
    as `source:line:column: message` and the others are still converted.

    --to openspiel writes one action history per line. OpenSpiel plays its
    own rules (knock_limit, gin_bonus, undercut_bonus and oklahoma=gin_only
    are its parameters); a record under other rules is refused, saying which
    knob differs; --override-rules --rules openspiel re-rules it, and its
    moves are written for OpenSpiel to replay under its own rules. In any
    form, --override-rules writes every record under --rules (--rules-file,
    --set) instead of the rules it names; its claims are kept as recorded.

    Exit 0 done, 3 a record or the input could not be read, 2 a record the
    output form cannot express (and usage errors); -o is written in full or
    not at all.

    \b
    Examples:
      ginref convert samples/records/knock-layoffs.gin --to json
      ginref convert games.jsonl -o games.gin
      cat hand.gin | ginref convert - --to jsonl >> all.jsonl
      ginref convert episode.json --from kaggle --to gin
      ginref convert hand.gin --to openspiel --override-rules --rules openspiel
    """
    from ginref.records import STDIN, convert_records
    from ginref.records.io import ReadProgress

    require_paths([input_path])
    to = _output_form(input_path, output_path, to_format)
    # the reader reads stdin's bytes (.buffer), so that bad UTF-8 is one bad record
    stream = sys.stdin if input_path == "-" else input_path
    source = STDIN if input_path == "-" else None
    refused: list[RecordError] = []
    # records written to the terminal show their own progress
    wanted = ProgressLine.wanted() and not (output_path == "-" and sys.stdout.isatty())
    progress = ReadProgress() if wanted else None
    # the input's errors are raised inside the output's block, which then keeps -o as it was
    with _output(output_path) as out, input_errors(), ProgressLine(progress, "converting") as shown:
        watched = _Watched(out, shown, progress)
        notes: list[str] = []
        for error in convert_records(stream, watched.stream, to=to, source=source, format=from_form,
                                     game=game, rules=rules, on_note=notes.append, progress=progress,
                                     names=names):
            refused.append(error)
            shown.clear()
            click.echo(str(error), err=True)
        if not refused and not watched.wrote:
            no_records([input_path])  # before the output is made: an empty input leaves no file
    for note in notes:
        click.echo(f"note: {note}", err=True)
    sys.exit(_convert_exit_code(refused))


def _output_form(input_path: str, output_path: str, to_format: RecordFormat | None) -> RecordFormat | None:
    """The form to write: --to, else OUTPUT's extension (None: the other form of INPUT)."""
    from ginref.records import record_format

    if input_path != "-" and output_path != "-" and Path(input_path).resolve() == Path(output_path).resolve():
        fail("the output would overwrite the input; choose another OUTPUT")
    if output_path == "-":
        return to_format
    check_output_folder("-o", output_path)
    written: dict[str | None, RecordFormat] = {"gin": "gin", "json": "json", "jsonl": "jsonl"}
    suffix_form = written.get(record_format(output_path))
    a_device = os.path.exists(output_path) and not os.path.isfile(output_path)  # /dev/null
    if to_format is None and suffix_form is None and not a_device:
        fail(f"-o: cannot tell the form from {output_path!r}; name it .gin, .json or .jsonl, "
             "or give --to")
    return to_format or suffix_form


def _output(output_path: str) -> contextlib.AbstractContextManager[IO[str]]:
    from ginref.files import atomic_output

    return nullcontext(sys.stdout) if output_path == "-" else atomic_output(output_path)


def _convert_exit_code(refused: list[RecordError]) -> int:
    """3 when a record could not be read; else 2 when one cannot be written in the form asked."""
    from ginref.records.openspiel import InexpressibleError

    if any(not isinstance(error, InexpressibleError) for error in refused):
        return EXIT_UNREADABLE
    return EXIT_USAGE if refused else 0


class _Watched:
    """An output stream that remembers whether anything was written to it (``convert``
    writes nothing at all for an input without records), and shows the records read so far
    on the progress line as it is written to."""

    def __init__(self, out: IO[str], shown: ProgressLine, progress: ReadProgress | None) -> None:
        self.out, self.wrote = out, False
        self.shown, self.progress = shown, progress

    @property
    def stream(self) -> IO[str]:
        return cast("IO[str]", self)

    def write(self, text: str) -> int:
        self.wrote = self.wrote or bool(text)
        if self.progress is not None:
            self.shown.update(self.progress.records)
        return self.out.write(text)
