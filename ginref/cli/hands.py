"""The commands on one hand: ``analyze``, ``knock``, ``layoffs``, ``score`` and ``advise``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from ginref.cards import Card, Mask
from ginref.cli.exits import InputError, fail, input_errors
from ginref.cli.options import (
    CardsType,
    HandType,
    MeldsType,
    card_option,
    hand_argument,
    no_hands,
    output_options,
    replacing_rules,
    require_paths,
    resolve_rules,
    rules_argument,
    rules_options_for,
)
from ginref.cli.output import card_style, emit, output_width
from ginref.errors import GinrefError
from ginref.rules import Rules

if TYPE_CHECKING:
    from pathlib import Path

    from ginref.analysis import HandAnalysis


@click.command()
@hand_argument(stdin=True)
@rules_argument
@card_option("--upcard", "The first upcard (sets the Oklahoma knock limit; may be in the hand).")
@click.option(
    "--all",
    "all_arrangements",
    is_flag=True,
    help="List every optimal arrangement (ties matter for layoffs).",
)
@output_options
def analyze(
    hand: Mask | None,
    rules: Rules,
    upcard: Card | None,
    all_arrangements: bool,
    as_json: bool,
    glyphs: bool,
) -> None:
    """Best arrangement, deadwood, knock and gin of one hand.

    HAND is 10 or 11 cards, one quoted string or several arguments, in any common notation
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

    style = card_style(glyphs)
    if hand is None:
        _analyze_stream(rules, upcard, all_arrangements, as_json, style)
        return
    with input_errors():
        result = run(hand, rules, upcard=upcard, all_arrangements=all_arrangements)
    _print_analysis(result, as_json, style)


def _print_analysis(result: Any, as_json: bool, style: Any) -> None:
    from ginref.jsonwrite import to_json
    from ginref.render.hands import analysis_text

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
    if not answered:
        no_hands("-")


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
    from ginref.render.hands import analysis_text

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
        from ginref.notation import placeless

        click.echo(f"Error: <stdin>:{number}:{column}: {placeless(message)}", err=True)


@click.command()
@hand_argument()
@rules_argument
@card_option("--upcard", "The first upcard (Oklahoma limit); may be in the hand if it was taken.")
@output_options
def knock(
    hand: Mask,
    rules: Rules,
    upcard: Card | None,
    as_json: bool,
    glyphs: bool,
) -> None:
    """May this hand knock or go gin?

    HAND is 10 cards (after the discard) or 11 (after the draw; the best
    discard is found). Under rules with the same-card discard rule, an
    --upcard found in an 11-card hand was just taken and may not be thrown.

    Exit 0 if yes, 1 if not, 2 for bad input.

    \b
    Examples:
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 3S
      ginref knock --rules oklahoma --upcard 3H "3C 4C 5C 9D 9S 9H 2D AS AH 7S" || echo "no knock"
    """
    from ginref.analysis import analyze as run
    from ginref.jsonwrite import to_json
    from ginref.render.hands import knock_text

    with input_errors():
        result = run(hand, rules, upcard=upcard)
    if as_json:
        emit(to_json(result.to_dict()))
    else:
        emit(knock_text(result, card_style(glyphs)))
    if not result.can_knock:
        sys.exit(1)


@click.command()
@hand_argument((10,), "defender: ")
@click.option(
    "--melds",
    "melds",
    type=MeldsType("layoffs go onto the knocker's melds, so without them there is nothing to lay off"),
    required=True,
    metavar="MELDS",
    help='The knocker\'s declared melds, e.g. "[4H 5H 6H] [QC QD QS]".',
)
@rules_argument
@output_options
def layoffs(
    hand: Mask,
    rules: Rules,
    melds: list[Mask],
    as_json: bool,
    glyphs: bool,
) -> None:
    """What the defender can lay off onto the knocker's melds.

    HAND is the defender's 10 cards. Lists every card that can go onto a meld
    (a fourth card of a set, or a run extended at either end, chains
    included), then the defender's best response: its own melds and layoffs
    chosen together for the least deadwood. A spread of all ten cards is gin:
    no layoffs.

    \b
    Example:
      ginref layoffs --melds "[4H 5H 6H] [QC QD QS]" 7H 8H 3H QH 2C 2D 2S 9S KD AC
    """
    from ginref.jsonwrite import to_json
    from ginref.layoffs import layoff_report
    from ginref.render.hands import layoffs_text

    with input_errors():
        report = layoff_report(hand, melds, rules)
    emit(to_json(report.to_dict()) if as_json else layoffs_text(report, card_style(glyphs)))


@click.command()
@click.option(
    "--knocker",
    "knocker",
    type=HandType((10, 11), "--knocker: "),
    required=True,
    metavar="HAND",
    help="The knocker's 10 cards after the face-down discard, or 11 (the discard is found).",
)
@click.option("--defender", "defender", type=HandType((10,), "--defender: "), required=True, metavar="HAND",
              help="The defender's 10 cards.")
@click.option(
    "--melds",
    "melds",
    type=MeldsType(),
    metavar="MELDS",
    help="The knocker's declared spread (binding; '' declares none). Without it, ginref finds the best "
    "one for the knocker.",
)
@card_option("--upcard", "The first upcard (Oklahoma limit and spade doubling).")
@click.option("--names", nargs=2, metavar="KNOCKER DEFENDER", default=None,
              help="The players' names, used in place of 'the knocker' and 'the defender'.")
@rules_argument
@output_options
def score(
    knocker: Mask,
    defender: Mask,
    melds: list[Mask] | None,
    upcard: Card | None,
    names: tuple[str, str] | None,
    as_json: bool,
    glyphs: bool,
    rules: Rules,
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
    from ginref.render.hands import score_text
    from ginref.scoring import score_hand

    if names is not None and (names[0] == names[1] or not all(n.strip() for n in names)):
        fail(f"--names: expected two different names, got {names[0]!r} and {names[1]!r}")
    with input_errors():
        result = score_hand(knocker, defender, rules, melds=melds, upcard=upcard)
    if as_json:
        players = {} if names is None else {"players": {"knocker": names[0], "defender": names[1]}}
        emit(to_json({**players, **result.to_dict()}))
    else:
        emit(score_text(result, card_style(glyphs), output_width(), names))


@click.command()
@click.argument("hand", nargs=-1, required=True, metavar="HAND|RECORD")
@click.option("--at", "at_line", type=click.IntRange(min=1), metavar="LINE",
              help="RECORD is a recorded hand: advise the player whose turn is on LINE.")
@click.option("--seen", "seen", type=CardsType("--seen: "), metavar="CARDS",
              help="Cards seen out of play (the discard pile).")
@click.option("--opponent-has", "known", type=CardsType("--opponent-has: "), metavar="CARDS",
              help="Cards the opponent took from the pile and still holds.")
@click.option("--stock", type=click.IntRange(min=0, max=52), metavar="N",
              help="Cards left in the stock (checked against the unseen cards).")
@card_option("--upcard", "The first upcard (Oklahoma limit and spade doubling).")
@card_option("--taken", "The card just taken from the discard pile (may not be thrown back).")
@rules_options_for("advise")
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
    seen: Mask | None,
    known: Mask | None,
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
      ginref advise samples/records/knock-layoffs.gin --at 18 --json
    """
    from ginref.advice import Method
    from ginref.advice import advise as weigh
    from ginref.jsonwrite import to_json
    from ginref.render.advice import advise_text

    method: Method = "auto" if exact is None else "exact" if exact else "sampled"
    if at_line is not None:
        given = (seen, known, stock, upcard, taken)
        if any(value is not None for value in given):
            fail("--at reads the position from the record: give no --seen, --opponent-has, --stock, "
                 "--upcard or --taken with it")
        position = _recorded_position(hand, at_line, rules_name, rules_file, overrides)
        rules, cards, seen, known = position.rules, position.hand, position.seen, position.opponent_has
        stock, upcard, taken = position.stock, position.upcard, position.taken
    else:
        rules = resolve_rules(rules_name, rules_file, overrides)
        cards = HandType().convert(" ".join(hand), None, None)
    with input_errors():
        result = weigh(cards, rules, seen=seen or 0, opponent_has=known or 0, stock=stock, upcard=upcard,
                       taken=taken, samples=samples, seed=seed, method=method)
    emit(to_json(result.to_dict()) if as_json else advise_text(result, card_style(glyphs)))
    if not result.options:
        sys.exit(1)


def _recorded_position(
    args: tuple[str, ...], line: int, rules_name: str | None, rules_file: Path | None,
    overrides: tuple[str, ...],
) -> Any:
    from ginref.referee.position import position_at

    if len(args) != 1:
        fail("with --at, give one RECORD (a .gin, .json or .jsonl file, or - for stdin)")
    require_paths(list(args))
    rules = replacing_rules(rules_name, rules_file, overrides)
    stdin = sys.stdin.buffer if args[0] == "-" else None
    with input_errors():
        return position_at(args[0], line, rules, stdin=stdin)
