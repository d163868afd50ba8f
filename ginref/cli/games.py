"""The commands on rule sets and whole games: ``rules`` and ``game``."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ginref.cli.exits import EXIT_FINDINGS, EXIT_UNREADABLE, InputError, UnreadableError, fail, input_errors
from ginref.cli.options import (
    RULES_FILE,
    FormatChoice,
    PlayersType,
    complete_knobs,
    complete_rule_names,
    needs_extra,
    no_hands,
    no_records,
    override_rules_option,
    require_paths,
    resolve_rules,
    rules_options_for,
)
from ginref.cli.output import check_plot, emit, output_width, write_plot
from ginref.errors import GinrefError, InputFileError, RecordError
from ginref.records.io import SkippedFile
from ginref.records.model import GameRecord
from ginref.rules import PRESET_NAMES, PRESETS, Rules

if TYPE_CHECKING:
    from ginref.rulefit import RulesFit


@click.command("rules")
@click.argument("names", nargs=-1, metavar="[NAME | --fit PATH...]", shell_complete=complete_rule_names)
@click.option("--fit", is_flag=True,
              help="Read the records at the PATHs and say which presets give back every point they "
              "record, the knob values the points allow, and where the rules they name part from them.")
@click.option("--from", "from_form",
              type=FormatChoice(),
              help="With --fit: read the input as this form  [default: from the file name, else the content]")
@click.option("--set", "overrides", multiple=True, metavar="KNOB=VALUE", shell_complete=complete_knobs,
              help="Show NAME with knobs changed (with --fit: rule under each preset so changed).")
@click.option(
    "--rules-file",
    type=RULES_FILE,
    help="Show the rules a TOML file describes (with --fit: rule under those alone).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
def rules_command(
    names: tuple[str, ...], fit: bool, from_form: Any, overrides: tuple[str, ...], rules_file: Path | None,
    as_json: bool,
) -> None:
    """List the rule sets, or show every knob of one.

    With --fit, say which rules records were played under: a preset is listed
    only if the referee, ruling every record under it, gives back every point
    they record (announced deadwood, results, hand points, running and final
    totals), as `verify --rules PRESET --override-rules` would find no
    wrong_score, wrong_result, knock_over_limit or deadwood_misdeclared.
    Unreadable records are named on stderr; a score sheet is refused (it
    records deadwood, not points). Exit 0 a preset gives back every recorded
    point, 1 none does or nothing is recorded to fit (wins over 3), 3 an
    unreadable record or no record at all, 2 usage or a score sheet.

    \b
    Examples:
      ginref rules
      ginref rules oklahoma
      ginref rules standard --set gin_bonus=25 --json
      ginref rules --rules-file my-table.toml
      ginref rules --fit logs/ --json
    """
    from ginref.jsonwrite import to_json
    from ginref.render.games import rules_list_text, rules_text

    if fit:
        _fit(names, from_form, overrides, rules_file, as_json)
        return
    if len(names) > 1:
        raise click.UsageError(f"Got unexpected extra argument ({' '.join(names[1:])})")
    name = names[0] if names else None

    if name is None and rules_file is None and not overrides:
        presets = [PRESETS[n] for n in PRESET_NAMES]
        if as_json:
            emit(
                to_json(
                    [
                        {"name": r.name, "aliases": list(r.aliases), "description": r.description}
                        for r in presets
                    ]
                )
            )
        else:
            emit(rules_list_text(presets, output_width()))
        return
    rules = resolve_rules(name, rules_file, overrides)
    emit(to_json(rules.to_dict()) if as_json else rules_text(rules, output_width()))


def _fit(
    paths: tuple[str, ...], from_form: Any, overrides: tuple[str, ...], rules_file: Path | None, as_json: bool
) -> None:
    """``rules --fit``: read the records, one library call, render; unreadable records named on
    stderr as they come, as ``verify`` names them."""
    from ginref.jsonwrite import to_json
    from ginref.render.games import rules_fit_text
    from ginref.rulefit import fit_rules

    if not paths:
        fail("--fit needs the records to read: PATH... (- for stdin)")
    require_paths(paths)
    _refuse_sheets(paths)
    tried = _tried_rules(rules_file, overrides)
    skipped: list[str] = []
    sources: set[str] = set()
    with input_errors():
        found = fit_rules(_fit_items(paths, from_form, skipped, sources), tried)
    if skipped:
        from ginref.render.records import skipped_files_note

        click.echo(skipped_files_note(skipped), err=True)
    _say_files_without_records(paths, sources, found.records + found.unreadable)
    emit(to_json(found.to_dict()) if as_json else rules_fit_text(found))
    sys.exit(_fit_exit_code(found))


def _fit_exit_code(found: RulesFit) -> int:
    """3 nothing readable; 1 no preset gives back every recorded point, or none is recorded
    (wins over 3); 3 an unreadable record; else 0."""
    if not found.records:
        return EXIT_UNREADABLE
    if not found.presets:
        return EXIT_FINDINGS
    return EXIT_UNREADABLE if found.unreadable else 0


def _tried_rules(rules_file: Path | None, overrides: tuple[str, ...]) -> list[Rules] | None:
    """The rule sets ``--fit`` rules under: the rules file's alone, or every preset, each with
    the ``--set`` knobs changed (None: every preset as it is)."""
    if rules_file is not None:
        return [resolve_rules(None, rules_file, overrides)]
    if not overrides:
        return None
    return [resolve_rules(name, None, overrides) for name in PRESET_NAMES]


def _fit_items(
    paths: Sequence[str], from_form: Any, skipped: list[str], sources: set[str]
) -> Iterator[GameRecord | RecordError]:
    """The records the paths hold, each unreadable one (or file) named on stderr as it comes."""
    from ginref.records.io import Reading, read_paths
    from ginref.render.records import unreadable_line

    for item in read_paths(list(paths), Reading(stdin=sys.stdin.buffer, format=from_form)):
        if isinstance(item, SkippedFile):
            skipped.append(item.source)
            continue
        record = item.record if not isinstance(item, InputFileError) else RecordError(
            item.message.removeprefix(f"{item.path}: "), item.path)
        sources.add(record.source)
        if isinstance(record, RecordError):
            click.echo(unreadable_line(record), err=True)
        yield record


def _say_files_without_records(paths: Sequence[str], sources: set[str], read: int) -> None:
    """Every file named or walked is in the fit or named here; no record at all exits 3."""
    from ginref.batch import inputs_without_records
    from ginref.render.records import no_record_notes

    empty = inputs_without_records(paths, sources) if read else []
    if empty:
        click.echo(no_record_notes(empty), err=True)
    if not read:
        no_records(paths)


def _refuse_sheets(paths: Sequence[str]) -> None:
    """A score sheet records deadwood, from which each rule set works out its own points: it
    has no recorded points to fit, so a sheet named (or piped in) is refused by name (exit 2)."""
    from ginref.sheets import looks_like_sheet

    for path in paths:
        head = _stdin_head() if path == "-" else _file_head(path)
        if looks_like_sheet(head.decode("utf-8", "replace")):
            shown = "standard input" if path == "-" else path
            fail(f"{shown} is a score sheet: its points are worked out from the rules, so it records none "
                 f"to fit (`ginref game {shlex.quote(path)}` scores it)")


def _file_head(path: str) -> bytes:
    """The first 64 KiB of a regular file (nothing for a folder, a FIFO, a device: read once)."""
    if not os.path.isfile(path):
        return b""
    try:
        with open(path, "rb") as file:
            return file.read(65536)
    except OSError:
        return b""  # read again below, and named there


def _stdin_head() -> bytes:
    """What standard input holds first, looked at without taking it (nothing when it cannot be)."""
    peek = getattr(sys.stdin.buffer, "peek", None)
    try:
        return bytes(peek(65536)[:65536]) if peek is not None else b""
    except (OSError, ValueError):
        return b""


@click.command(epilog=needs_extra("--plot", "matplotlib", "plot"))
@click.argument("sheet", metavar="SHEET|-", type=click.Path(allow_dash=True))
@rules_options_for("sheet")
@override_rules_option
@click.option(
    "--players",
    "players",
    type=PlayersType(),
    metavar="A,B",
    help="The two players (instead of the sheet's `players:` line).",
)
@click.option(
    "--hollywood",
    is_flag=True,
    help="Score three simultaneous Hollywood games (implied by --rules hollywood).",
)
@click.option(
    "--chart",
    is_flag=True,
    help="Also draw the race: running totals per hand as a text bar chart (with --json: as data).",
)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Draw the race into FILE (.svg, .png or .pdf); needs the plot extra (below).")
@click.option("--keep-going", is_flag=True, help="Report every bad line (exit 3) and score the good ones.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the hands as CSV, one row per hand.")
def game(
    sheet: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    override_rules: bool,
    players: tuple[str, str] | None,
    hollywood: bool,
    chart: bool,
    plot_path: str | None,
    keep_going: bool,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Score a whole game from a score sheet.

    Running totals, bonuses, the winner and the next dealer. SHEET is a file
    (or `-` for stdin) with one hand per line; `#` starts a comment. A sheet's
    `rules:` line wins; --rules (or GINREF_RULES) rules a sheet without one,
    and --override-rules makes --rules replace the line; --set changes knobs
    of whichever applies. Bad lines are reported as FILE:LINE:COLUMN on stderr
    with exit code 3 (with --keep-going: every bad line, after scoring the
    good ones).

    \b
    Sheet lines:
      players: Ann Bo          rules: standard          dealer: Bo
      Ann knock 6 15           (knocker's deadwood, defender's after layoffs)
      Bo gin 22                Ann big_gin 30           void
      Ann wins 25 [undercut]   Ann knock 6 15 spade     Ann knock 6 15 upcard 7S
      Tom undercut 7 5         (Tom defended; the higher count is the knocker's)
      also: players: Ann, Bo   Ann knocks 6 - 15        Bo gins 22

    \b
    Examples:
      ginref game samples/sheets/standard-worked.sheet
      ginref game samples/sheets/tallynight.sheet --chart
      ginref game samples/sheets/hollywood.sheet --json
      printf 'Ann knock 6 15\\nBo gin 22\\n' | ginref game - --players Ann,Bo
    """
    _check_game_outputs(as_json, as_csv, chart, plot_path)
    require_paths([sheet])
    rules, default_rules, knobs = _sheet_rules(rules_name, rules_file, overrides, override_rules)
    source, text = _sheet_text(sheet)
    from ginref.sheets import read_sheet

    try:
        parsed, errors = read_sheet(
            text, source=source, rules=rules, overrides=knobs, players=players,
            hollywood=True if hollywood else None, keep_going=keep_going, default_rules=default_rules,
        )
    except RecordError as exc:
        raise UnreadableError(str(exc) + _record_hint(source, text)) from None
    except GinrefError as exc:
        raise InputError(str(exc)) from None
    for error in errors:
        click.echo(f"Error: {error}", err=True)
    if errors and (hint := _record_hint(source, text)):
        click.echo(hint.lstrip("\n"), err=True)
    if not parsed.hands and not errors:
        no_hands(source)
    if parsed.players is None:
        raise UnreadableError(f"{source}: the sheet names no players; nothing to score")
    with input_errors():
        result = parsed.score()
    _print_game(result, source, errors, as_json, as_csv, chart)
    if plot_path is not None:
        from ginref.plot import plot_race

        write_plot(plot_race, result, plot_path)
    if errors:
        sys.exit(3)


def _record_hint(source: str, text: str) -> str:
    """A line saying that ``adjudicate`` reads what ``game`` was given, when that opens as a
    game record does (a tag, a JSON object or list, a history), else nothing."""
    import shlex

    from ginref.records.io import sniff_format

    lines = (line.strip() for line in text[:65536].splitlines())
    first = next((line for line in lines if line and not line.startswith("#")), "")
    if not first.startswith(("[", "{")) and (not first or sniff_format(first) == "gin"):
        return ""
    named = "-" if source == "<stdin>" else source
    return f"\nhint: {source} looks like a game record: `ginref adjudicate {shlex.quote(named)}` rules on it"


def _sheet_rules(
    rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], override_rules: bool
) -> tuple[Rules | None, Rules | None, dict[str, str]]:
    """The rules that replace the sheet's ``rules:`` line (with --override-rules), those that
    rule a sheet without one, and the knobs --set changes in whichever applies."""
    from ginref.rules import parse_override

    given = resolve_rules(rules_name, rules_file, ()) if rules_name is not None or rules_file else None
    if override_rules and given is None:
        fail("--override-rules needs --rules or --rules-file")
    with input_errors():
        knobs = dict(parse_override(text) for text in overrides)
    return (given, None, knobs) if override_rules else (None, given, knobs)


def _sheet_text(sheet: str) -> tuple[str, str]:
    """The sheet's name as messages give it, and its text; a file that cannot be read is
    unreadable input (3), one gone since :func:`require_paths` a usage error (2)."""
    from ginref.files import read_text_file, read_text_stream

    source = "<stdin>" if sheet == "-" else sheet
    try:
        return source, read_text_stream(sys.stdin.buffer, source) if sheet == "-" else read_text_file(sheet)
    except InputFileError as exc:
        if exc.missing:
            fail(str(exc))
        raise UnreadableError(str(exc)) from None


def _check_game_outputs(as_json: bool, as_csv: bool, chart: bool, plot_path: str | None) -> None:
    """Output options that cannot go together fail before the sheet is read."""
    if as_json and as_csv:
        fail("give --json or --csv, not both")
    if chart and as_csv:
        fail("--chart draws the race as text or, with --json, as data; CSV has the running totals")
    check_plot(plot_path)


def _print_game(
    result: Any, source: str, errors: Sequence[RecordError], as_json: bool, as_csv: bool, chart: bool
) -> None:
    """The scored sheet as JSON (with the chart's data for --chart), CSV, or text."""
    from ginref.jsonwrite import to_json
    from ginref.render.games import game_csv, game_text, hollywood_text, race_chart, race_document

    if as_json:
        document = {"source": source, **result.to_dict()}
        document["errors"] = [{"line": e.line, "column": e.column, "message": e.message} for e in errors]
        if chart:
            document["chart"] = race_document(result)
        emit(to_json(document))
    elif as_csv:
        click.echo(game_csv(result), nl=False)
    else:
        from ginref.game import GameTally

        emit(game_text(result) if isinstance(result, GameTally) else hollywood_text(result))
        if chart:
            emit("")
            emit(race_chart(result))
