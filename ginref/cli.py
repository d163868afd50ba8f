"""The ``ginref`` command line: parse arguments, make one library call, render.

Exit codes: 0 done (``knock``: may knock; ``adjudicate``/``verify``: clean),
1 a "no" or findings, 2 bad input or usage, 3 unreadable input files.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from ginref.cards import Card, Mask
from ginref.errors import GinrefError
from ginref.rules import ALIASES, PRESET_NAMES, PRESETS, Rules

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
RULE_CHOICES = sorted({*PRESET_NAMES, *ALIASES})


class InputError(click.ClickException):
    """Bad input on the command line or stdin: one line, exit code 2."""

    exit_code = 2


class UnreadableError(click.ClickException):
    """An input file or record that cannot be read: exit code 3."""

    exit_code = 3


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn the library's errors into a one-line message and exit code 2."""
    try:
        yield
    except GinrefError as exc:
        raise InputError(str(exc)) from None


def fail(message: str) -> NoReturn:
    raise InputError(message)


# -- shared options ---------------------------------------------------------------


def rules_options(f: F) -> F:
    """``--rules``, ``--rules-file`` and ``--set``, resolved into ``rules``."""
    f = click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KNOB=VALUE",
        help="Change one rule knob (repeatable), e.g. --set gin_bonus=25. See `ginref rules NAME`.",
    )(f)
    f = click.option(
        "--rules-file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="A TOML file of knobs built on a preset (key `base`).",
    )(f)
    f = click.option(
        "--rules",
        "rules_name",
        type=click.Choice(RULE_CHOICES, case_sensitive=False),
        envvar="GINREF_RULES",
        show_envvar=True,
        help="The rule set your table plays  [default: standard]",
    )(f)
    return f


def resolve_rules(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    default: str = "standard",
) -> Rules:
    from ginref.rules import find_rules, load_rules_file, parse_override, with_overrides

    with input_errors():
        if rules_file is not None and rules_name is not None:
            fail("give --rules or --rules-file, not both (a rules file names its base preset)")
        rules = load_rules_file(rules_file) if rules_file is not None else find_rules(rules_name or default)
        if overrides:
            rules = with_overrides(rules, dict(parse_override(text) for text in overrides))
    return rules


def output_options(f: F) -> F:
    f = click.option(
        "--glyphs",
        is_flag=True,
        help="Show suits as glyphs (red hearts and diamonds on a terminal).",
    )(f)
    f = click.option("--json", "as_json", is_flag=True, help='Print JSON only (cards like "TC").')(f)
    return f


def card_option(name: str, help_text: str) -> Callable[[F], F]:
    def convert(ctx: click.Context, param: click.Parameter, value: str | None) -> Card | None:
        if value is None:
            return None
        from ginref.notation import parse_card

        try:
            return parse_card(value)
        except GinrefError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None

    return click.option(name, metavar="CARD", callback=convert, help=help_text)


def parse_hand_text(text: str, sizes: tuple[int, ...] = (10, 11), who: str = "") -> Mask:
    from ginref.notation import parse_hand

    try:
        return parse_hand(text, sizes).mask
    except GinrefError as exc:
        fail(f"{who}{exc}")


def parse_melds_text(text: str) -> list[Mask]:
    from ginref.cards import mask_of
    from ginref.notation import parse_melds

    try:
        return [mask_of(meld) for meld in parse_melds(text)]
    except GinrefError as exc:
        fail(f"--melds: {exc}")


def card_style(glyphs: bool) -> Any:
    from ginref.render import CardStyle

    return CardStyle(glyphs=glyphs, color=glyphs)


def emit(text: str) -> None:
    click.echo(text)


# -- the group --------------------------------------------------------------------


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ginref", prog_name="ginref")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """ginref: the Gin Rummy referee.

    Exact meld search, knock and gin checks, layoffs, hand and game scoring
    under named rule sets, and verification of recorded hands.

    \b
    Examples:
      ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 7S KC
      ginref rules standard
    """
    if os.environ.get("NO_COLOR"):
        ctx.color = False


# -- analyze / knock --------------------------------------------------------------


@cli.command()
@click.argument("hand", nargs=-1, required=True, metavar="HAND")
@rules_options
@card_option("--upcard", "The first upcard (sets the Oklahoma knock limit; may be in the hand).")
@click.option(
    "--all",
    "all_arrangements",
    is_flag=True,
    help="List every optimal arrangement (ties matter for layoffs).",
)
@output_options
def analyze(
    hand: tuple[str, ...],
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    upcard: Card | None,
    all_arrangements: bool,
    as_json: bool,
    glyphs: bool,
) -> None:
    """Best arrangement, deadwood, knock and gin for a 10- or 11-card hand.

    HAND is one quoted string or several arguments, in any common notation
    (3C, 10c, th, ♣7, H10, run together like 3C4C5C). With 11 cards (after the
    draw) every discard is weighed and the best one named. `-` reads one hand
    per line from stdin (`#` starts a comment) and answers each; with --json,
    one JSON object per line.

    \b
    Examples:
      ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
      ginref analyze 5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C --json
      ginref analyze --rules oklahoma --upcard 7S "AS 2S 3S 4S AH AD 2D 3D 4D AC"
      ginref analyze - --json < samples/hands.txt
    """
    from ginref.analysis import analyze as run

    rules = resolve_rules(rules_name, rules_file, overrides)
    style = card_style(glyphs)
    if hand == ("-",):
        _analyze_stream(rules, upcard, all_arrangements, as_json, style)
        return
    cards = parse_hand_text(" ".join(hand))
    with input_errors():
        result = run(cards, rules, upcard=upcard, all_arrangements=all_arrangements)
    _print_analysis(result, as_json, style)


def _print_analysis(result: Any, as_json: bool, style: Any) -> None:
    from ginref.render import analysis_text, to_json

    emit(to_json(result.to_dict()) if as_json else analysis_text(result, style))


def _analyze_stream(
    rules: Rules, upcard: Card | None, all_arrangements: bool, as_json: bool, style: Any
) -> None:
    from ginref.analysis import analyze as run
    from ginref.notation import parse_hand
    from ginref.render import analysis_text, to_json

    bad = 0
    first = True
    for number, raw in enumerate(click.get_text_stream("stdin"), 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            result = run(parse_hand(text).mask, rules, upcard=upcard, all_arrangements=all_arrangements)
        except GinrefError as exc:
            bad += 1
            if as_json:
                emit(to_json({"line": number, "input": text, "error": str(exc)}, compact=True))
            else:
                click.echo(f"Error: line {number}: {exc}", err=True)
            continue
        if as_json:
            emit(to_json({"line": number, **result.to_dict()}, compact=True))
        else:
            if not first:
                emit("")
            first = False
            emit(f"line {number}:")
            emit(analysis_text(result, style))
    if bad:
        raise InputError(f"{bad} bad hand{'s' if bad != 1 else ''} in the input (see above)")


@cli.command()
@click.argument("hand", nargs=-1, required=True, metavar="HAND")
@rules_options
@card_option("--upcard", "The first upcard (Oklahoma limit); may be in the hand if it was taken.")
@output_options
def knock(
    hand: tuple[str, ...],
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    upcard: Card | None,
    as_json: bool,
    glyphs: bool,
) -> None:
    """May this hand knock or go gin? Exit 0 if yes, 1 if not, 2 for bad input.

    HAND is 10 cards (after the discard) or 11 (after the draw; the best
    discard is found). Under rules with the same-card discard rule, an
    --upcard found in an 11-card hand was just taken and may not be thrown.

    \b
    Examples:
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 7S
      ginref knock --rules oklahoma --upcard 3H "3C 4C 5C 9D 9S 9H 2D AS AH 7S" || echo "no knock"
    """
    from ginref.analysis import analyze as run
    from ginref.render import knock_text, to_json

    rules = resolve_rules(rules_name, rules_file, overrides)
    cards = parse_hand_text(" ".join(hand))
    with input_errors():
        result = run(cards, rules, upcard=upcard)
    if as_json:
        emit(to_json(result.to_dict()))
    else:
        emit(knock_text(result, card_style(glyphs)))
    if not result.can_knock:
        sys.exit(1)


# -- rules ------------------------------------------------------------------------


@cli.command("rules")
@click.argument("name", required=False, metavar="[NAME]")
@click.option("--set", "overrides", multiple=True, metavar="KNOB=VALUE", help="Show NAME with knobs changed.")
@click.option(
    "--rules-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Show the rules a TOML file describes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
def rules_command(
    name: str | None, overrides: tuple[str, ...], rules_file: Path | None, as_json: bool
) -> None:
    """List the rule sets, or show every knob of one.

    \b
    Examples:
      ginref rules
      ginref rules oklahoma
      ginref rules standard --set gin_bonus=25 --json
      ginref rules --rules-file my-table.toml
    """
    from ginref.render import rules_list_text, rules_text, to_json

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
            emit(rules_list_text(presets))
        return
    rules = resolve_rules(name, rules_file, overrides)
    emit(to_json(rules.to_dict()) if as_json else rules_text(rules))


# -- layoffs / score --------------------------------------------------------------


@cli.command()
@click.argument("hand", nargs=-1, required=True, metavar="HAND")
@click.option(
    "--melds",
    "melds_text",
    required=True,
    metavar="MELDS",
    help='The knocker\'s declared melds, e.g. "[4H 5H 6H] [QC QD QS]".',
)
@rules_options
@output_options
def layoffs(
    hand: tuple[str, ...],
    melds_text: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    as_json: bool,
    glyphs: bool,
) -> None:
    """What the defender (HAND, 10 cards) can lay off onto the knocker's melds.

    Lists every card that can go onto a meld (a fourth card of a set, or a run
    extended at either end, chains included), then the defender's best
    response: its own melds and layoffs chosen together for the least
    deadwood. A spread of all ten cards is gin: no layoffs.

    \b
    Example:
      ginref layoffs --melds "[4H 5H 6H] [QC QD QS]" 7H 8H 3H QH 2C 2D 2S 9S KD AC
    """
    from ginref.layoffs import layoff_report
    from ginref.render import layoffs_text, to_json

    rules = resolve_rules(rules_name, rules_file, overrides)
    defender = parse_hand_text(" ".join(hand), (10,), "defender: ")
    melds = parse_melds_text(melds_text)
    with input_errors():
        report = layoff_report(defender, melds, rules)
    emit(to_json(report.to_dict()) if as_json else layoffs_text(report, card_style(glyphs)))


@cli.command()
@click.option(
    "--knocker",
    "knocker_text",
    required=True,
    metavar="HAND",
    help="The knocker's 10 cards after the face-down discard, or 11 (the discard is found).",
)
@click.option("--defender", "defender_text", required=True, metavar="HAND", help="The defender's 10 cards.")
@click.option(
    "--melds",
    "melds_text",
    metavar="MELDS",
    help="The knocker's declared spread (binding). Without it, ginref finds the best one for the knocker.",
)
@card_option("--upcard", "The first upcard (Oklahoma limit and spade doubling).")
@rules_options
@output_options
def score(
    knocker_text: str,
    defender_text: str,
    melds_text: str | None,
    upcard: Card | None,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    as_json: bool,
    glyphs: bool,
) -> None:
    """Rule on a finished hand: outcome, winner, points, and why.

    Exit 0 whenever a ruling is made (an illegal knock included), 2 for bad
    input.

    \b
    Examples:
      ginref score --knocker "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D" \\
                   --defender "6C 9C 5S JH JC JD 4H AH 8D TD"
      ginref score --knocker "5H 6H 7H 7C 7D 2S 3S 4S AC 2C" \\
                   --defender "8H 9H 7S KD QD JD 9C 9S 5C 3D" --melds "[5H 6H 7H] [2S 3S 4S]"
    """
    from ginref.render import score_text, to_json
    from ginref.scoring import score_hand

    rules = resolve_rules(rules_name, rules_file, overrides)
    knocker = parse_hand_text(knocker_text, (10, 11), "--knocker: ")
    defender = parse_hand_text(defender_text, (10,), "--defender: ")
    melds = parse_melds_text(melds_text) if melds_text is not None else None
    with input_errors():
        result = score_hand(knocker, defender, rules, melds=melds, upcard=upcard)
    emit(to_json(result.to_dict()) if as_json else score_text(result, card_style(glyphs)))


# == game command ==


@cli.command()
@click.argument("sheet", metavar="SHEET|-")
@rules_options
@click.option(
    "--players",
    "players_text",
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
    help="Also draw the race: running totals per hand as a text bar chart.",
)
@click.option("--keep-going", is_flag=True, help="Report every bad line (exit 3) and score the good ones.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
def game(
    sheet: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players_text: str | None,
    hollywood: bool,
    chart: bool,
    keep_going: bool,
    as_json: bool,
) -> None:
    """Score a whole game from a score sheet: running totals, bonuses, winner.

    SHEET is a file (or `-` for stdin) with one hand per line; `#` starts a
    comment. --rules replaces the sheet's `rules:` line; --set changes knobs
    of whichever applies. Bad lines are reported as FILE:LINE:COLUMN on
    stderr with exit code 3 (with --keep-going: every bad line, after scoring
    the good ones).

    \b
    Sheet lines:
      players: Ann Bo          rules: standard          dealer: Bo
      Ann knock 6 15           (knocker's deadwood, defender's after layoffs)
      Bo gin 22                Ann big_gin 30           void
      Ann wins 25 [undercut]   Ann knock 6 15 spade     Ann knock 6 15 upcard 7S

    \b
    Examples:
      ginref game samples/sheets/standard-worked.sheet
      ginref game samples/sheets/tallynight.sheet --chart
      ginref game samples/sheets/hollywood.sheet --json
      printf 'Ann knock 6 15\\nBo gin 22\\n' | ginref game - --players Ann,Bo
    """
    from ginref.game import read_sheet
    from ginref.render import game_text, hollywood_text, race_chart, to_json
    from ginref.rules import parse_override

    rules = resolve_rules(rules_name, rules_file, ()) if rules_name or rules_file else None
    with input_errors():
        knobs = dict(parse_override(text) for text in overrides)
    players = None
    if players_text is not None:
        names = [name.strip() for name in players_text.split(",")]
        if len(names) != 2 or not all(names):
            fail(f"--players: expected two names separated by a comma, got {players_text!r}")
        players = (names[0], names[1])
    source = "<stdin>" if sheet == "-" else sheet
    try:
        if sheet == "-":
            text = click.get_text_stream("stdin").read()
        else:
            text = Path(sheet).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UnreadableError(f"{source}: cannot read the sheet: {reason.lower()}") from None
    from ginref.errors import RecordError

    try:
        parsed, errors = read_sheet(
            text, source=source, rules=rules, overrides=knobs, players=players,
            hollywood=True if hollywood else None, keep_going=keep_going,
        )
    except RecordError as exc:
        raise UnreadableError(str(exc)) from None
    except GinrefError as exc:
        raise InputError(str(exc)) from None
    for error in errors:
        click.echo(f"Error: {error}", err=True)
    if parsed.players is None:
        raise UnreadableError(f"{source}: the sheet names no players; nothing to score")
    with input_errors():
        result = parsed.score()
    if as_json:
        document = {"source": source, **result.to_dict()}
        document["errors"] = [
            {"line": e.line, "column": e.column, "message": e.message} for e in errors
        ]
        emit(to_json(document))
    else:
        from ginref.game import GameTally

        emit(game_text(result) if isinstance(result, GameTally) else hollywood_text(result))
        if chart:
            emit("")
            emit(race_chart(result))
    if errors:
        sys.exit(3)


def main() -> None:
    cli(prog_name="ginref")
