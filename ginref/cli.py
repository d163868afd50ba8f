"""The ``ginref`` command line: parse arguments, make one library call, render.

Exit codes (:func:`main`; README's "Exit codes" says the same for users):

- 0 done (``knock``: may knock; ``adjudicate``/``verify``: every record clean)
- 1 a "no" or findings
- 2 usage or bad input, a path that does not exist, an ``-o`` that cannot be written to
- 3 unreadable input: a path that exists but cannot be read (a FIFO, no permission),
  bytes that are not text, records or sheet lines that do not parse
- 4 the output could not be written (a full disk; a stdout error other than a closed pipe)
- 69 ``verify --scheduler``: dask is not installed, or its scheduler cannot be reached (EX_UNAVAILABLE)
- 70 an internal error (a bug: one line asks for a report; ``GINREF_DEBUG=1`` shows the traceback)
- 130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM): worker processes are shut down first
- 141 the reader of stdout went away (``ginref verify big | head -1``): quiet, as if
  killed by SIGPIPE, which is what a shell reports as 141

Every error is one line on stderr. Tests that run :data:`cli` through click's
``CliRunner`` bypass :func:`main`, so bugs still surface there as exceptions.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from click.shell_completion import CompletionItem

from ginref.cards import Card, Mask
from ginref.errors import GinrefError, InputFileError, OutputFileError, RecordError
from ginref.rules import PRESET_NAMES, PRESETS, RULE_NAMES, Rules

if TYPE_CHECKING:
    from types import FrameType

    from ginref.analysis import HandAnalysis
    from ginref.cluster import ClusterRun
    from ginref.records.io import ReadProgress
    from ginref.records.model import InputForm, RecordFormat
    from ginref.verify import RecordResult, Summary

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 80}


def check_rules_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--rules``: a preset's name or alias, checked at once by ``find_rules`` (its one wording)."""
    from ginref.rules import find_rules

    if value is not None:
        try:
            find_rules(value)
        except GinrefError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return value


def complete_rule_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Rule set names and aliases that start with what was typed."""
    typed = incomplete.lower()
    return [CompletionItem(name) for name in RULE_NAMES if name.startswith(typed)]


def complete_knobs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--set``: knob names (``gin_bonus=``), then the values a knob takes (``tie_policy=no_score``)."""
    from ginref.errors import UnknownRulesError
    from ginref.rules import KNOB_NAMES, knob_choices

    knob, equals, typed = incomplete.partition("=")
    if not equals:
        return [CompletionItem(f"{name}=") for name in KNOB_NAMES if name.startswith(knob.lower())]
    try:
        values = knob_choices(knob)
    except UnknownRulesError:
        return []
    return [CompletionItem(f"{knob}={value}") for value in values if value.startswith(typed.lower())]


class InputError(click.ClickException):
    """Bad input on the command line or stdin: one line, exit code 2."""

    exit_code = 2


class UnreadableError(click.ClickException):
    """An input file or record that cannot be read: exit code 3."""

    exit_code = 3


class ClusterUnavailable(click.ClickException):
    """``verify --scheduler``: no dask, or no scheduler at the address: exit code 69."""

    exit_code = 69


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn the library's errors into a one-line message and exit code 2.

    A file that exists but cannot be read (a FIFO, no permission) is 3, as
    :func:`error_exit_code` decides for every command.
    """
    try:
        yield
    except GinrefError as exc:
        unreadable = error_exit_code(exc) == 3
        raise (UnreadableError if unreadable else InputError)(str(exc)) from None


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
        shell_complete=complete_knobs,
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
        metavar="NAME",
        callback=check_rules_name,
        shell_complete=complete_rule_names,
        envvar="GINREF_RULES",
        show_envvar=True,
        help="The rule set your table plays (`ginref rules` lists them)  "
        "[default: standard; a record or sheet: the rules it names]",
    )(f)
    return f


def override_rules_option(f: F) -> F:
    """``--override-rules``: the commands that read records or sheets rule each under the
    rules it names; only this flag makes --rules, --rules-file and --set replace them."""
    return click.option(
        "--override-rules",
        is_flag=True,
        help="Rule every record or sheet under --rules/--rules-file/--set, not the rules it names.",
    )(f)


def _from_environment(name: str) -> bool:
    """True when the option ``name`` took its value from its environment variable."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.get_parameter_source(name) is click.core.ParameterSource.ENVIRONMENT


def resolve_rules(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    default: str = "standard",
) -> Rules:
    from ginref.rules import find_rules, load_rules_file, parse_override, with_overrides

    with input_errors():
        if rules_file is not None and rules_name is not None:
            if not _from_environment("rules_name"):
                fail("give --rules or --rules-file, not both (a rules file names its base preset)")
            rules_name = None  # GINREF_RULES gives way to a rules file on the command line
        name = default if rules_name is None else rules_name
        rules = load_rules_file(rules_file) if rules_file is not None else find_rules(name)
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
            raise click.BadParameter(pointed(exc, value), ctx, param) from None

    return click.option(name, metavar="CARD", callback=convert, help=help_text)


def pointed(exc: GinrefError, text: str) -> str:
    """The error's one line, and for card notation the input with a caret under the column."""
    from ginref.errors import NotationError
    from ginref.render import pointer

    column = exc.column if isinstance(exc, NotationError) else 0
    under = pointer(text, column) if column else ""
    return f"{exc}\n{under}" if under else str(exc)


def parse_hand_text(text: str, sizes: tuple[int, ...] = (10, 11), who: str = "") -> Mask:
    from ginref.notation import plain_mask

    mask = plain_mask(text)
    if mask is not None and bin(mask).count("1") in sizes:
        return mask
    from ginref.notation import parse_hand

    try:
        return parse_hand(text, sizes).mask
    except GinrefError as exc:
        fail(f"{who}{pointed(exc, text)}")


def parse_melds_text(text: str) -> list[Mask]:
    from ginref.cards import mask_of
    from ginref.notation import parse_melds

    try:
        return [mask_of(meld) for meld in parse_melds(text)]
    except GinrefError as exc:
        fail(f"--melds: {pointed(exc, text)}")


def card_style(glyphs: bool) -> Any:
    """Red cards are red with --glyphs, or always with --color; click.echo drops the colour
    when stdout is not a terminal, under NO_COLOR or with --no-color."""
    from ginref.render import CardStyle

    forced = click.get_current_context().color is True
    return CardStyle(glyphs=glyphs, paint=paint if glyphs or forced else None)


def paint(text: str, colour: str) -> str:
    """The one place colour is made: ``click.style``."""
    return click.style(text, fg=colour)


def emit(text: str) -> None:
    click.echo(text)


def output_width() -> int:
    """The terminal's width for text output, or 80 when stdout is a pipe or a file."""
    from ginref.render import WIDTH

    if not sys.stdout.isatty():
        return WIDTH
    import shutil

    return max(40, shutil.get_terminal_size((WIDTH, 24)).columns)


# -- the group --------------------------------------------------------------------


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ginref", prog_name="ginref")
@click.option("--color/--no-color", "color", default=None,
              help="Colour red cards, or never  [default: on a terminal, unless NO_COLOR is set]")
@click.pass_context
def cli(ctx: click.Context, color: bool | None) -> None:
    """ginref: the Gin Rummy referee.

    Exact meld search, knock and gin checks, layoffs, hand and game scoring
    under named rule sets, and verification of recorded hands.

    \b
    Examples:
      ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 7S KC
      ginref rules standard
    """
    if color is not None:
        ctx.color = color
    elif os.environ.get("NO_COLOR"):
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
    from ginref.jsonwrite import to_json
    from ginref.render import analysis_text

    emit(to_json(result.to_dict()) if as_json else analysis_text(result, style))


MAX_HAND_LINE = 1 << 20
"""Longest line ``analyze -`` reads (bytes); a longer one is one bad line, skipped without storing it."""

def _analyze_stream(
    rules: Rules, upcard: Card | None, all_arrangements: bool, as_json: bool, style: Any
) -> None:
    """``analyze -``: answer every line of stdin in order; a bad line is reported, never fatal."""
    bad = answered = 0
    from ginref.files import numbered_lines

    for number, text, problem in numbered_lines(sys.stdin.buffer, MAX_HAND_LINE, "hands"):
        hand = text.split("#", 1)[0]
        if problem is None and not hand.strip():
            continue
        outcome = problem or _analyze_line(hand, rules, upcard, all_arrangements)
        if isinstance(outcome, tuple):
            bad += 1
            _print_stream_error(number, *outcome, hand, as_json)
        else:
            _print_stream_answer(number, outcome, answered, as_json, style)
            answered += 1
    if bad:
        raise InputError(f"{bad} bad hand{'s' if bad != 1 else ''} in the input (see above)")


def _analyze_line(
    hand: str, rules: Rules, upcard: Card | None, all_arrangements: bool
) -> HandAnalysis | tuple[int, str]:
    """The analysis of one line's hand, or (column, message) saying why there is none."""
    from ginref.analysis import analyze as run
    from ginref.notation import parse_hand

    try:
        return run(parse_hand(hand).mask, rules, upcard=upcard, all_arrangements=all_arrangements)
    except GinrefError as exc:
        return getattr(exc, "column", 0) or len(hand) - len(hand.lstrip()) + 1, str(exc)


def _print_stream_answer(number: int, result: HandAnalysis, answered: int, as_json: bool, style: Any) -> None:
    from ginref.jsonwrite import to_json
    from ginref.render import analysis_text

    if as_json:
        emit(to_json({"line": number, **result.to_dict()}, compact=True))
        return
    if answered:
        emit("")
    emit(f"line {number}:")
    emit(analysis_text(result, style))


def _print_stream_error(number: int, column: int, message: str, hand: str, as_json: bool) -> None:
    from ginref.jsonwrite import to_json

    if as_json:
        shown = hand if len(hand) <= 80 else hand[:77] + "..."
        document = {"line": number, "column": column, "input": shown, "error": message}
        emit(to_json(document, compact=True))
    else:
        click.echo(f"Error: <stdin>:{number}:{column}: {message}", err=True)


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
    from ginref.jsonwrite import to_json
    from ginref.render import knock_text

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
@click.argument("name", required=False, metavar="[NAME]", shell_complete=complete_rule_names)
@click.option("--set", "overrides", multiple=True, metavar="KNOB=VALUE", shell_complete=complete_knobs,
              help="Show NAME with knobs changed.")
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
    from ginref.jsonwrite import to_json
    from ginref.render import rules_list_text, rules_text

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
    from ginref.jsonwrite import to_json
    from ginref.layoffs import layoff_report
    from ginref.render import layoffs_text

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
@click.option("--names", nargs=2, metavar="KNOCKER DEFENDER", default=None,
              help="The players' names, used in place of 'the knocker' and 'the defender'.")
@rules_options
@output_options
def score(
    knocker_text: str,
    defender_text: str,
    melds_text: str | None,
    upcard: Card | None,
    names: tuple[str, str] | None,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    as_json: bool,
    glyphs: bool,
) -> None:
    """Rule on a finished hand: outcome, winner, points, and why.

    Each step of the ruling cites the rule knobs it applied, with their values
    (`undercut_bonus = 25`), under the rule set on the last line; --names
    names the players. Exit 0 whenever a ruling is made (an illegal knock
    included), 2 for bad input.

    \b
    Examples:
      ginref score --knocker "3C 4C 5C 9D 9S 9H 6S 7S 8S 2D" \\
                   --defender "6C 9C 5S JH JC JD 4H AH 8D TD"
      ginref score --knocker "5H 6H 7H 7C 7D 2S 3S 4S AC 2C" \\
                   --defender "8H 9H 7S KD QD JD 9C 9S 5C 3D" --melds "[5H 6H 7H] [2S 3S 4S]"
    """
    from ginref.jsonwrite import to_json
    from ginref.render import score_text
    from ginref.scoring import score_hand

    rules = resolve_rules(rules_name, rules_file, overrides)
    knocker = parse_hand_text(knocker_text, (10, 11), "--knocker: ")
    defender = parse_hand_text(defender_text, (10,), "--defender: ")
    melds = parse_melds_text(melds_text) if melds_text is not None else None
    if names is not None and (names[0] == names[1] or not all(n.strip() for n in names)):
        fail(f"--names: expected two different names, got {names[0]!r} and {names[1]!r}")
    with input_errors():
        result = score_hand(knocker, defender, rules, melds=melds, upcard=upcard)
    if as_json:
        players = {} if names is None else {"players": {"knocker": names[0], "defender": names[1]}}
        emit(to_json({**players, **result.to_dict()}))
    else:
        emit(score_text(result, card_style(glyphs), output_width(), names))


# == advise command ==


def parse_cards_text(text: str | None, who: str) -> Mask:
    """Any number of cards (``--seen``, ``--opponent-has``); bad text exits 2 naming the option."""
    if text is None:
        return 0
    from ginref.cards import mask_of
    from ginref.notation import parse_cards

    try:
        return mask_of(parse_cards(text))
    except GinrefError as exc:
        fail(f"{who}{pointed(exc, text)}")


@cli.command()
@click.argument("hand", nargs=-1, required=True, metavar="HAND|RECORD")
@click.option("--at", "at_line", type=click.IntRange(min=1), metavar="LINE",
              help="RECORD is a recorded hand: advise the player whose turn is on LINE.")
@click.option("--seen", "seen_text", metavar="CARDS", help="Cards seen out of play (the discard pile).")
@click.option("--opponent-has", "opponent_text", metavar="CARDS",
              help="Cards the opponent took from the pile and still holds.")
@click.option("--stock", type=click.IntRange(min=0, max=52), metavar="N",
              help="Cards left in the stock (checked against the unseen cards).")
@card_option("--upcard", "The first upcard (Oklahoma limit and spade doubling).")
@card_option("--taken", "The card just taken from the discard pile (may not be thrown back).")
@rules_options
@click.option("--samples", type=click.IntRange(min=1, max=1_000_000), default=20_000, show_default=True,
              help="Defender hands to draw when sampling.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sample.")
@click.option("--exact/--sample", "exact", default=None,
              help="Enumerate every defender hand, or sample them  [default: exact up to 50,000 "
              "hands (or --samples), else sampled]")
@output_options
def advise(
    hand: tuple[str, ...],
    at_line: int | None,
    seen_text: str | None,
    opponent_text: str | None,
    stock: int | None,
    upcard: Card | None,
    taken: Card | None,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    samples: int,
    seed: int,
    exact: bool | None,
    as_json: bool,
    glyphs: bool,
) -> None:
    """Should I knock now? Each knock's chances and expected points.

    HAND is 10 cards (after the discard) or 11 (after the draw: every discard
    that leaves a knock is weighed). The opponent's hand is any 10 of the
    cards you have not seen that include --opponent-has, each such hand taken
    as equally likely; against each, the opponent plays its best response
    (own melds and layoffs chosen together). Every hand is counted when there
    are few enough, else a seeded sample with 95% intervals. The declaration
    shown is the one worth most on average, which may withhold a meld.

    With --at, the argument is a record and the position is that of the
    player whose turn is on LINE, after the draw, from what they could see.

    Exit 0 with advice, 1 when no knock is legal, 2 for bad input.

    \b
    Examples:
      ginref advise 3C 4C 5C 9D 9H 9S 6S 7S 8S 2D KH --opponent-has "6C 5S"
      ginref advise samples/records/knock-layoffs.gin --at 17 --json
    """
    from ginref.advice import Method
    from ginref.advice import advise as weigh
    from ginref.jsonwrite import to_json
    from ginref.render import advise_text

    method: Method = "auto" if exact is None else "exact" if exact else "sampled"
    if at_line is not None:
        if seen_text or opponent_text or stock is not None or upcard is not None or taken is not None:
            fail("--at reads the position from the record: give no --seen, --opponent-has, --stock, "
                 "--upcard or --taken with it")
        position = _recorded_position(hand, at_line, rules_name, rules_file, overrides)
        rules, cards, seen, known = position.rules, position.hand, position.seen, position.opponent_has
        stock, upcard, taken = position.stock, position.upcard, position.taken
    else:
        rules = resolve_rules(rules_name, rules_file, overrides)
        cards = parse_hand_text(" ".join(hand))
        seen = parse_cards_text(seen_text, "--seen: ")
        known = parse_cards_text(opponent_text, "--opponent-has: ")
    with input_errors():
        result = weigh(cards, rules, seen=seen, opponent_has=known, stock=stock, upcard=upcard,
                       taken=taken, samples=samples, seed=seed, method=method)
    emit(to_json(result.to_dict()) if as_json else advise_text(result, card_style(glyphs)))
    if not result.options:
        sys.exit(1)


def _recorded_position(
    args: tuple[str, ...], line: int, rules_name: str | None, rules_file: Path | None,
    overrides: tuple[str, ...],
) -> Any:
    from ginref.position import position_at

    if len(args) != 1:
        fail("with --at, give one RECORD (a .gin, .json or .jsonl file, or - for stdin)")
    _require_paths(list(args))
    rules = _record_rules(rules_name, rules_file, overrides)
    stdin = sys.stdin.buffer if args[0] == "-" else None
    with input_errors():
        return position_at(args[0], line, rules, stdin=stdin)


# == game command ==


@cli.command()
@click.argument("sheet", metavar="SHEET|-", type=click.Path(allow_dash=True))
@rules_options
@override_rules_option
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
    help="Also draw the race: running totals per hand as a text bar chart (with --json: as data).",
)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Draw the race into FILE (.svg, .png or .pdf); needs pip install 'ginref[plot]'.")
@click.option("--keep-going", is_flag=True, help="Report every bad line (exit 3) and score the good ones.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the hands as CSV, one row per hand.")
def game(
    sheet: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    override_rules: bool,
    players_text: str | None,
    hollywood: bool,
    chart: bool,
    plot_path: str | None,
    keep_going: bool,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Score a whole game from a score sheet: running totals, bonuses, winner.

    SHEET is a file (or `-` for stdin) with one hand per line; `#` starts a
    comment. A sheet's `rules:` line wins; --rules (or GINREF_RULES) rules a
    sheet without one, and --override-rules makes --rules replace the line;
    --set changes knobs of whichever applies. Bad lines are reported as FILE:LINE:COLUMN on
    stderr with exit code 3 (with --keep-going: every bad line, after scoring
    the good ones).

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
    from ginref.rules import parse_override
    from ginref.sheets import read_sheet

    _check_game_outputs(as_json, as_csv, chart, plot_path)
    given = resolve_rules(rules_name, rules_file, ()) if rules_name is not None or rules_file else None
    if override_rules and given is None:
        fail("--override-rules needs --rules or --rules-file")
    rules, default_rules = (given, None) if override_rules else (None, given)
    with input_errors():
        knobs = dict(parse_override(text) for text in overrides)
    players = None
    if players_text is not None:
        names = [name.strip() for name in players_text.split(",")]
        if len(names) != 2 or not all(names):
            fail(f"--players: expected two names separated by a comma, got {players_text!r}")
        players = (names[0], names[1])
    from ginref.files import read_text_file, read_text_stream

    source = "<stdin>" if sheet == "-" else sheet
    try:
        text = read_text_stream(sys.stdin.buffer, source) if sheet == "-" else read_text_file(sheet)
    except InputFileError as exc:
        if exc.missing:
            fail(str(exc))
        raise UnreadableError(str(exc)) from None
    from ginref.errors import RecordError

    try:
        parsed, errors = read_sheet(
            text, source=source, rules=rules, overrides=knobs, players=players,
            hollywood=True if hollywood else None, keep_going=keep_going, default_rules=default_rules,
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
    _print_game(result, source, errors, as_json, as_csv, chart)
    if plot_path is not None:
        from ginref.plot import PlotError, plot_race

        try:
            plot_race(result, plot_path)  # a file that cannot be written: OutputFileError, exit 4
        except PlotError as exc:
            fail(f"--plot: {exc}")
    if errors:
        sys.exit(3)


def _check_game_outputs(as_json: bool, as_csv: bool, chart: bool, plot_path: str | None) -> None:
    """Output options that cannot go together fail before the sheet is read."""
    if as_json and as_csv:
        fail("give --json or --csv, not both")
    if chart and as_csv:
        fail("--chart draws the race as text or, with --json, as data; CSV has the running totals")
    if plot_path is not None:
        from ginref.plot import PlotError, plot_format, require_matplotlib

        try:
            plot_format(plot_path)
            require_matplotlib()
        except PlotError as exc:
            fail(f"--plot: {exc}")


def _print_game(
    result: Any, source: str, errors: Sequence[RecordError], as_json: bool, as_csv: bool, chart: bool
) -> None:
    """The scored sheet as JSON (with the chart's data for --chart), CSV, or text."""
    from ginref.jsonwrite import to_json
    from ginref.render import game_csv, game_text, hollywood_text, race_chart, race_document

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


# == verify commands ==


def _game_string(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--game``: checked at once, so a bad game string is a usage error."""
    from ginref.records.openspiel import parse_game_string

    if value:
        try:
            parse_game_string(value)
        except GinrefError as exc:
            raise click.BadParameter(exc.message if isinstance(exc, RecordError) else str(exc)) from None
    return value


def reader_options(f: F) -> F:
    """``--from`` and ``--game``: how the record reader reads inputs from other programs."""
    f = click.option(
        "--game", "game", default="", metavar="GAME", callback=_game_string,
        help="OpenSpiel's game string for action histories, e.g. 'gin_rummy(knock_card=9)'  "
        "[default: OpenSpiel's defaults]",
    )(f)
    f = click.option(
        "--from", "from_form", type=click.Choice(["gin", "json", "jsonl", "openspiel", "kaggle"]),
        help="Read the input as this form  [default: from the file name, else the content]",
    )(f)
    return f


@cli.command()
@click.argument("record", metavar="RECORD|-", type=click.Path(allow_dash=True))
@rules_options
@override_rules_option
@reader_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON only: one verdict per record, in a list.")
@click.option("--explain", is_flag=True,
              help="Show how each knocked hand was settled, step by step, with the knobs.")
def adjudicate(
    record: str,
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    override_rules: bool,
    from_form: InputForm | None,
    game: str,
    as_json: bool,
    explain: bool,
) -> None:
    """Replay a recorded hand or game move by move and rule on it.

    RECORD is a .gin text record, a .json record or .jsonl records (`-`: stdin);
    OpenSpiel action histories, SerializeGameAndState text and Kaggle episodes
    are recognised by content (or forced with --from).
    Every move is checked under the rule set the record names; --rules (or
    --rules-file, --set) replaces it only with --override-rules. Findings name the line and column (text)
    or JSON pointer, with a stable code. The true result (outcome, winner,
    points, layoffs, running score, next dealer) is computed and compared with
    what the record claims.

    Exit 0 when every record is clean (advisories allowed), 1 for findings,
    3 for an unreadable record, 2 for usage errors.

    \b
    Examples:
      ginref adjudicate samples/records/knock-layoffs.gin
      ginref adjudicate --rules openspiel --override-rules --json game.json
    """
    from ginref.jsonwrite import to_json
    from ginref.render import result_lines, verdict_text
    from ginref.verify import RecordResult, adjudicate_records

    rules = _record_rules(rules_name, rules_file, overrides, override_rules)
    _require_paths([record])
    exit_code = 0
    documents: list[object] = []
    count = 0
    stdin = sys.stdin.buffer if record == "-" else None
    for item in adjudicate_records([record], rules, stdin=stdin, format=from_form, game=game):
        count += 1
        if isinstance(item, RecordResult):
            exit_code = exit_code or 3
            click.echo(f"Error: {result_lines(item)[0]}", err=True)
            if as_json:
                documents.append(json_loads(item.json))
            continue
        found, line, verdict = item
        if not verdict.clean:
            exit_code = 1
        if as_json:
            where = {"source": found.source, "index": found.index, "line": line}
            documents.append({**where, **verdict.to_dict()})
        else:
            emit(verdict_text(found.source, line, verdict, explain=explain))
    if as_json:
        emit(to_json(documents))
    if not count:
        _no_records([record])
    sys.exit(exit_code)


def _require_paths(paths: Sequence[str]) -> None:
    """A path that does not exist is a usage error (exit 2), found before any work starts."""
    missing = [p for p in paths if p != "-" and not os.path.lexists(p)]
    if missing:
        shown = ", ".join(repr(p.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
                          for p in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        fail(f"no such file or folder: {shown}{more}")


def _no_records(paths: Sequence[str]) -> NoReturn:
    """A run that read no record at all must never look clean: say so, exit 3."""
    where = "standard input" if list(paths) == ["-"] else ", ".join(paths[:3])
    raise UnreadableError(f"no records found in {where} (record files end in .gin, .json, .jsonl or .ndjson)")


def json_loads(text: str) -> object:
    import json

    return json.loads(text)


def _record_rules(
    rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], override: bool | None = None
) -> Rules | None:
    """The rules that replace each record's own, or None: each record's own rules apply.

    ``override`` is ``--override-rules`` (None: a command without the flag, whose rules given
    always replace). Without it the rules given rule only records that name none; said once
    on stderr when they came from the command line, not the environment.
    """
    if rules_name is None and rules_file is None and not overrides:
        if override:
            fail("--override-rules needs --rules, --rules-file or --set")
        return None
    rules = resolve_rules(rules_name, rules_file, overrides)
    if override is not False:
        return rules
    if rules_file is not None or overrides or not _from_environment("rules_name"):
        click.echo(f"note: each record is ruled under the rules it names; add --override-rules to rule "
                   f"them all under {rules.label}", err=True)
    return None


class _ProgressLine:
    """``verify``'s progress on stderr: records, records per second, and for files the part
    read and the time left. Only where stderr is a terminal and stdout is not, so findings
    and JSON never land inside it; redrawn at most five times a second, erased at the end."""

    def __init__(self, progress: ReadProgress | None) -> None:
        self.progress = progress
        self.start = self.drawn = time.monotonic()
        self.width = 0

    @staticmethod
    def wanted() -> bool:
        return sys.stderr.isatty() and not sys.stdout.isatty()

    def __enter__(self) -> _ProgressLine:
        return self

    def update(self, records: int) -> None:
        now = time.monotonic()
        if self.progress is None or now - self.drawn < 0.2:
            return
        from ginref.render import progress_text

        self.drawn = now
        line = progress_text(records, now - self.start, self.progress.fraction)
        sys.stderr.write("\r" + line.ljust(self.width))
        sys.stderr.flush()
        self.width = len(line)

    def __exit__(self, *exc: object) -> None:
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=click.Path(allow_dash=True))
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Worker processes (with --scheduler local: the cluster's)  [default: all cores]",
)
@click.option(
    "--scheduler", metavar="ADDRESS", envvar="DASK_SCHEDULER_ADDRESS", show_envvar=True,
    help="Run on the Dask cluster at ADDRESS (tcp://host:8786); 'local' starts one of --jobs "
    "workers. Needs pip install 'ginref[dask]'",
)
@rules_options
@override_rules_option
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
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    override_rules: bool,
    from_form: InputForm | None,
    game: str,
    as_json: bool,
    as_jsonl: bool,
    as_csv: bool,
    fail_fast: bool,
) -> None:
    """Verify recorded hands in bulk: files, folders (recursively) or `-`.

    Reads .gin, .json and .jsonl records (and, by content or --from, OpenSpiel
    histories and Kaggle episodes), checks each in parallel worker
    processes and reports in input order: each record with findings (or
    unreadable) as `source:line:column: code: message`, then a summary of
    records, clean, with findings, unreadable, and counts by finding code.
    One unreadable record never stops the rest. Memory stays flat. Each
    record is ruled under the rules it names; --override-rules rules them all
    under --rules, --rules-file and --set instead.

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
    from ginref.records.io import ReadProgress
    from ginref.render import skipped_files_note
    from ginref.verify import Summary as Counts

    if as_json + as_jsonl + as_csv > 1:
        fail("give one of --json, --jsonl and --csv")
    form = "json" if as_json else "jsonl" if as_jsonl else "csv" if as_csv else "text"
    rules = _record_rules(rules_name, rules_file, overrides, override_rules)
    _require_paths([p for p in paths if not is_url(p)])
    skipped: list[str] = []
    progress = ReadProgress() if _ProgressLine.wanted() else None
    options = {"stdin": sys.stdin.buffer if "-" in paths else None, "want_json": as_json or as_jsonl,
               "on_skip": skipped.append, "format": from_form, "game": game, "progress": progress}
    results = _verify_results(list(paths), rules, jobs, scheduler, options)
    summary = Counts()
    _write_results(results, form, summary, progress, fail_fast)
    if skipped:
        click.echo(skipped_files_note(skipped), err=True)
    if not summary.records:
        _no_records(paths)
    sys.exit(summary.exit_code)


def _verify_results(
    paths: list[str], rules: Rules | None, jobs: int | None, scheduler: str | None, options: dict[str, Any]
) -> Generator[RecordResult, None, None] | ClusterRun:
    """The results of the batch, from local worker processes or from a Dask cluster."""
    if not scheduler:
        from ginref.verify import verify as run

        return run(paths, rules, jobs=jobs, **options)
    from ginref.cluster import verify_at
    from ginref.errors import ClusterError

    try:
        return verify_at(scheduler, paths, rules, workers=jobs, **options)
    except ClusterError as exc:
        raise ClusterUnavailable(str(exc)) from None


def _write_results(
    results: Generator[RecordResult, None, None] | ClusterRun, form: str, summary: Summary,
    progress: ReadProgress | None, fail_fast: bool,
) -> None:
    """Each result in ``form`` as it comes, counted in ``summary``, then the summary."""
    from ginref.render import verify_closing, verify_opening, verify_result_text

    out = sys.stdout
    # closing the results (a closed pipe, Ctrl-C, --fail-fast) stops the worker processes now
    with _ProgressLine(progress) as shown, contextlib.closing(results):
        out.write(verify_opening(form))
        for result in results:
            out.write(verify_result_text(result, form, first=not summary.records))
            summary.add(result)
            shown.update(summary.records)
            if fail_fast and result.status != "clean":
                break
    out.write(verify_closing(form, summary))
    out.flush()


# == convert command ==


@cli.command()
@click.argument(
    "input_path", metavar="INPUT|-", type=click.Path(exists=True, dir_okay=False, allow_dash=True)
)
@click.option(
    "-o",
    "--output",
    "output_path",
    metavar="OUTPUT|-",
    default="-",
    show_default=True,
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    help="Where to write; the extension (.gin, .json, .jsonl) sets the format.",
)
@click.option(
    "--to",
    "to_format",
    type=click.Choice(["gin", "json", "jsonl", "openspiel"]),
    help="Output format (openspiel: one action history per line)  "
    "[default: from OUTPUT, else the other form of INPUT]",
)
@reader_options
def convert(
    input_path: str, output_path: str, to_format: RecordFormat | None, from_form: InputForm | None, game: str
) -> None:
    """Convert records between the text form (.gin) and JSON (.json, .jsonl).

    The input format comes from the extension (stdin is sniffed: `{` first
    means JSON Lines); OpenSpiel histories and Kaggle episodes are recognised
    by content, or forced with --from (--game gives histories their parameters).
    Nothing is lost either way: free tags, unseen cards (`??`), claims and
    totals all carry over. A record that cannot be read is reported on stderr
    as `source:line:column: message` and the others are still converted; the
    exit code is then 3. --to openspiel writes one action history per line.

    \b
    Examples:
      ginref convert samples/records/knock-layoffs.gin --to json
      ginref convert games.jsonl -o games.gin
      cat hand.gin | ginref convert - --to jsonl >> all.jsonl
      ginref convert episode.json --from kaggle --to gin
      ginref convert hand.gin --to openspiel
    """
    from ginref.files import atomic_output
    from ginref.records import STDIN, convert_records, record_format

    if input_path != "-" and output_path != "-" and Path(input_path).resolve() == Path(output_path).resolve():
        fail("the output would overwrite the input; choose another OUTPUT")
    if output_path != "-" and not os.path.isdir(os.path.dirname(output_path) or "."):
        fail(f"-o: the folder of {output_path!r} does not exist")
    suffix_form = None if output_path == "-" else record_format(output_path)
    to = to_format or (suffix_form if suffix_form in ("gin", "json", "jsonl") else None)
    # the reader reads stdin's bytes (.buffer), so that bad UTF-8 is one bad record
    stream = sys.stdin if input_path == "-" else input_path
    source = STDIN if input_path == "-" else None
    unreadable = False
    writer = nullcontext(sys.stdout) if output_path == "-" else atomic_output(output_path)
    try:
        with writer as out:
            for error in convert_records(stream, out, to=to, source=source, format=from_form, game=game):
                unreadable = True
                click.echo(str(error), err=True)
    except InputFileError as exc:
        raise UnreadableError(str(exc)) from None
    if unreadable:
        sys.exit(3)


# == the process: exit codes, signals, pipes ==

EXIT_OUTPUT = 4
EXIT_INTERNAL = 70
"""EX_SOFTWARE from sysexits.h: a bug in ginref"""
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_PIPE_CLOSED = 128 + signal.SIGPIPE
EXIT_TERMINATED = 128 + signal.SIGTERM
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""errors that only writing the output can cause (an escaped read error is a bug)"""


class Terminated(BaseException):
    """SIGTERM arrived; unwinds like KeyboardInterrupt, so ``with`` blocks and worker pools close."""


def main(args: Sequence[str] | None = None) -> NoReturn:
    """The ``ginref`` program: one command, the documented exit code, never a traceback."""
    _raise_on_sigterm()
    sys.exit(_run(args))


def _run(args: Sequence[str] | None) -> int:
    try:
        code = _invoke(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # here, not at shutdown, where a failure is only "Exception ignored"
        return code
    except KeyboardInterrupt:
        return _stopped("interrupted", EXIT_INTERRUPTED)
    except Terminated:
        return _stopped("terminated", EXIT_TERMINATED)
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as exc:
        return _failed(exc)


def _invoke(args: Sequence[str] | None) -> int:
    """Run the command line through click; its exit code instead of click's own exit."""
    argv = list(sys.argv[1:] if args is None else args)
    if "_GINREF_COMPLETE" in os.environ:
        cli.main(argv, prog_name="ginref")  # shell completion: click answers and exits
    try:
        with cli.make_context("ginref", argv) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        raise KeyboardInterrupt from None
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        _say(str(exc.code))
        return 1
    return 0


def error_exit_code(exc: GinrefError) -> int:
    """The documented exit code for a library error that reached the command line."""
    if isinstance(exc, OutputFileError):
        return EXIT_OUTPUT
    if isinstance(exc, InputFileError):
        return 2 if exc.missing else 3
    return 3 if isinstance(exc, RecordError) else 2


def _failed(exc: Exception) -> int:
    """One line on stderr for an error no command caught, and its exit code."""
    if isinstance(exc, GinrefError):
        _say(f"Error: {exc}")
        return error_exit_code(exc)
    if isinstance(exc, OSError) and exc.errno in _WRITE_ERRNOS:
        _discard_stdout()
        from ginref.files import describe_os_error

        _say(f"ginref: cannot write the output: {describe_os_error(exc)}")
        return EXIT_OUTPUT
    if os.environ.get("GINREF_DEBUG"):
        raise exc
    message = " ".join(str(exc).split())
    message = message if len(message) <= 160 else message[:157] + "..."
    _say(f"ginref: internal error: {type(exc).__name__}: {message} (please report it)")
    return EXIT_INTERNAL


def _stopped(what: str, code: int) -> int:
    """Say why ginref stops; another Ctrl-C now could only turn the exit into a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.stderr is not None and sys.stderr.isatty():
        _say("")  # end the line the terminal's ^C echo left open
    _say(f"ginref: {what}")
    return code


def _say(line: str) -> None:
    """A line on stderr, if stderr can still take it."""
    with suppress(OSError, ValueError):
        click.echo(line, err=True)


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so output still buffered cannot fail again at shutdown.

    The recipe from the Python docs' note on SIGPIPE.
    """
    with suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _raise_on_sigterm() -> None:
    """Make SIGTERM raise :class:`Terminated` in this process; a forked worker dies as usual."""
    main_pid = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != main_pid:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    signal.signal(signal.SIGTERM, handler)
