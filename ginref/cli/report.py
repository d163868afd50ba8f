"""The command that audits a batch of games: ``report``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

import click

from ginref.audit import GROUPS, Weighing
from ginref.audit import report as audited
from ginref.batch import BatchSummary
from ginref.cli.exits import fail
from ginref.cli.options import batch_options, reader_options, record_rules_argument, require_paths
from ginref.cli.output import (
    ProgressLine,
    check_output_file,
    check_plot,
    check_stats,
    emit,
    output_width,
    write_plot,
    write_text_file,
)
from ginref.cli.records import batch_results, say_files_without_records
from ginref.files import is_url
from ginref.ranking import ROUNDS, StandingsTally

if TYPE_CHECKING:
    from ginref.audit import BatchReport, Group
    from ginref.batch import RecordResult
    from ginref.batch.run import Inputs
    from ginref.ranking import Standings
    from ginref.records.io import Reading
    from ginref.records.model import InputForm
    from ginref.records.names import Naming
    from ginref.rules import Rules

MOST_ROUNDS = 100_000
"""``--rounds``: the most bootstrap rounds"""
MOST_SAMPLES = 10_000
"""``--samples``: the most defender hands drawn per knock, so that ``--advise`` stays bounded"""


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=click.Path(allow_dash=True))
@click.option("--by", type=click.Choice(GROUPS), default="player", show_default=True,
              help="One row per player, per game (record) or per rule set.")
@batch_options
@record_rules_argument
@reader_options
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON document.")
@click.option("--csv", "as_csv", is_flag=True, help="CSV for spreadsheets: a header, then one row per row.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also draw points per hand and error rates into FILE (.svg, .png or .pdf); "
              "needs pip install 'ginref[plot]'.")
@click.option("--advise", is_flag=True,
              help="Weigh each knock's undercut risk as `ginref advise` does (sampled; in this process).")
@click.option("--samples", type=click.IntRange(1, MOST_SAMPLES), default=200, show_default=True,
              help="With --advise: defender hands sampled per knock.")
@click.option("--standings", is_flag=True,
              help="Also rank the players: win rates, Bradley-Terry ratings with bootstrap intervals, "
              "net points per hand, head to head.")
@click.option("--rounds", type=click.IntRange(0, MOST_ROUNDS), default=ROUNDS, show_default=True,
              help="With --standings: bootstrap rounds of the ratings' intervals (0: none).")
@click.option("--duplicate", is_flag=True,
              help="Pair the games dealt alike with the seats swapped (in this process; implies "
              "--standings).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, writable=True, allow_dash=True),
              metavar="FILE", help="Also write one self-contained page to publish into FILE (the standings "
              "too with --standings), titled with the inputs and today's date (SOURCE_DATE_EPOCH's if set); "
              "`-` writes the page to stdout instead of the text.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The seed of --advise's samples and of --standings' bootstrap.")
def report(paths: tuple[str, ...], by: str, jobs: int | None, scheduler: str | None,
           from_form: InputForm | None, game: str, names: Naming | None, as_json: bool, as_csv: bool,
           plot_path: str | None, advise: bool, samples: int, standings: bool, rounds: int, duplicate: bool,
           html_path: str | None, seed: int, rules: Rules | None) -> None:
    """Audit a batch of games: each player's results and errors.

    One row per player (or, with --by, per game or rule set). Reads what
    `verify` reads (files, folders, `-`, every record form, OpenSpiel
    histories, Kaggle episodes, whose agents are named as the episode names
    them, EAAI logs, RLCard sheets) through the same batch, and adds up its verdicts per player: games,
    hands won, points for and against, knocks, gins, big gins, undercuts made
    and suffered, average deadwood at knock, knocks that were not the best
    declaration and layoffs missed (with the deadwood points they cost),
    illegal moves by code, unfinished and forfeited hands, and the share of
    hands ended by the wall. An unreadable record is named on stderr and
    counted. --advise also weighs each knock with deadwood as `ginref advise`
    would at that moment (--samples defender hands, --seed), counting knocks
    into an undercut risk above 30%.

    Exit 0 all clean, 1 any findings (wins over 3), 3 any unreadable or no
    record at all, 2 usage, 69 no dask or no scheduler.

    \b
    Examples:
      ginref report samples/tournament
      ginref report logs/ --by rules --csv > by-rules.csv
      ginref report episodes/ --from kaggle --plot agents.svg
      ginref report samples/tournament --advise --samples 500
      ginref report samples/tournament --standings --html standings.html

    --standings ranks the players: games won, lost and drawn (a record is a
    game, won by game totals; no winner is a draw, worth half), the win rate
    with its 95% Wilson interval, a Bradley-Terry rating on the Elo scale
    (centred on 1500) with a 95% interval from --rounds bootstrap rounds
    (--seed), net hand points per hand, and head to head. --duplicate pairs
    games dealt alike with the seats swapped. "points" are hand points:
    game and box bonuses are left out.
    """
    standings = _check_usage(as_json, as_csv, advise, scheduler, standings or duplicate, duplicate, plot_path,
                             html_path)
    page = None if html_path is None else (html_path, _page_title(paths))
    require_paths([p for p in paths if not is_url(p)])
    told = _Told()
    reading = told.reading(paths, from_form, game, names)
    tally, summary = StandingsTally(duplicate) if standings else None, BatchSummary()
    with ProgressLine(reading.progress, "auditing") as shown:
        done = audited(_inputs(list(paths), rules, jobs, scheduler, reading), rules, by=cast("Group", by),
                      jobs=jobs, advise=Weighing(samples, seed) if advise else None, reading=reading,
                      also=(summary,) if tally is None else (summary, tally),
                      adding=None if tally is None else tally.adding,
                      on_result=lambda result: _shown(result, shown, summary))
    told.tell()
    ranked = None if tally is None else tally.standings(rounds, seed)
    _print_report(done, ranked, as_json, as_csv, plot_path, page)
    say_files_without_records(list(paths), summary)
    sys.exit(done.exit_code)


def _check_usage(
    as_json: bool, as_csv: bool, advise: bool, scheduler: str | None, standings: bool, duplicate: bool,
    plot_path: str | None, html_path: str | None,
) -> bool:
    """Fail (exit 2) on options that do not go together, or that need another; give whether
    the standings are asked for."""
    if as_json and as_csv:
        fail("give --json or --csv, not both")
    if advise and scheduler:
        fail("--advise weighs each knock in this process: leave out --scheduler")
    source = click.get_current_context().get_parameter_source
    typed = click.core.ParameterSource.COMMANDLINE
    if not advise and source("samples") is typed:
        fail("--samples weighs the knocks of --advise: add --advise")
    if not (advise or standings) and source("seed") is typed:
        fail("--seed seeds --advise's samples or --standings' bootstrap: add one of them")
    if not standings and source("rounds") is typed:
        fail("--rounds is the bootstrap of --standings: add --standings")
    if duplicate and (advise or scheduler):
        fail("--duplicate reads the deals in this process: leave out --advise and --scheduler")
    check_plot(plot_path)
    if standings:
        check_stats("--standings")
    if html_path == "-" and (as_json or as_csv):
        fail("--html - writes the page to stdout: leave out --json and --csv")
    check_output_file(None if html_path == "-" else html_path, "--html")
    return standings


class _Told:
    """What the batch tells as it reads (files skipped, notes), said on stderr at the end."""

    def __init__(self) -> None:
        self.skipped: list[str] = []
        self.notes: list[str] = []

    def reading(
        self, paths: tuple[str, ...], form: InputForm | None, game: str, names: Naming | None
    ) -> Reading:
        from ginref.records.io import Reading, ReadProgress

        return Reading(stdin=sys.stdin.buffer if "-" in paths else None, format=form, game=game, names=names,
                       progress=ReadProgress() if ProgressLine.wanted() else None,
                       on_skip=self.skipped.append, on_note=self.notes.append)

    def tell(self) -> None:
        from ginref.render.records import skipped_files_note

        for note in self.notes:
            click.echo(f"note: {note}", err=True)
        if self.skipped:
            click.echo(skipped_files_note(self.skipped), err=True)


def _shown(result: RecordResult, shown: ProgressLine, summary: BatchSummary) -> None:
    """An unreadable record named on stderr as it comes; the progress line moved on."""
    from ginref.render.records import result_lines

    if result.verdict is None:
        shown.clear()
        click.echo("\n".join(result_lines(result)), err=True)
    shown.update(summary.records)


def _inputs(paths: list[str], rules: Rules | None, jobs: int | None, scheduler: str | None,
            reading: Reading) -> Inputs:
    """What the audit counts: the paths, which it reads, or the batch on a Dask cluster, begun here."""
    return batch_results(paths, rules, jobs, scheduler, reading) if scheduler else paths


def _page_title(paths: tuple[str, ...]) -> str:
    from ginref.render.html import page_title

    return page_title(paths, report_day())


def report_day() -> str:
    """The day a report is made, for its page's title: today (UTC), or the day of
    ``SOURCE_DATE_EPOCH`` when set, so that the same input makes the same page (a build, a
    test); an epoch that is not a whole number of seconds is a usage error (exit 2)."""
    import datetime
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    try:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date().isoformat()
    except (ValueError, OverflowError, OSError):
        fail(f"SOURCE_DATE_EPOCH must be seconds since 1970-01-01 UTC, not {epoch!r}")


def _print_report(done: BatchReport, ranked: Standings | None, as_json: bool, as_csv: bool,
                  plot_path: str | None, page: tuple[str, str] | None) -> None:
    """The report (with ``ranked``, its standings first) as JSON, CSV or text, drawn into
    ``plot_path`` and, with ``page`` (a file and a title), written as a page into the file:
    ``-`` writes the page to stdout instead of the text."""
    from ginref.jsonwrite import to_json
    from ginref.plot import plot_report
    from ginref.render.report import report_csv, report_text, standings_csv, standings_text


    if ranked is not None:
        done = done.ordered(ranked.order())
    if page is not None and page[0] == "-":
        from ginref.render.html import report_page

        click.echo(report_page(done, ranked, page[1]), nl=False)
    elif as_json:
        emit(to_json({**done.to_dict(), **(ranked.to_dict() if ranked else {})}))
    elif as_csv:
        click.echo(report_csv(done) if ranked is None else standings_csv(ranked), nl=False)
    else:
        width = output_width() if sys.stdout.isatty() else None  # a pipe, a file: no name is cut
        text = report_text(done, width)
        emit(text if ranked is None else standings_text(ranked, width) + "\n\n" + text)
    write_plot(plot_report, done, plot_path)
    if page is not None and page[0] != "-":
        from ginref.render.html import report_page

        write_text_file(page[0], report_page(done, ranked, page[1]), "--html")
