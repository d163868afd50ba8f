"""The arena's commands: ``match`` (bots against each other) and ``bot`` (a bundled bot over
the bot protocol)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ginref.cli.exits import InputError
from ginref.cli.options import rules_argument
from ginref.cli.output import check_output_file, check_stats, output_width, write_text_file

if TYPE_CHECKING:
    from ginref.arena.match import SprtSpec
    from ginref.ranking import Standings
    from ginref.rules import Rules

SPRT_WORDS = ("elo0", "elo1", "alpha", "beta", "model")


def _sprt_words(text: str | None, bots: tuple[str, ...]) -> tuple[dict[str, str] | None, tuple[str, ...]]:
    """``--sprt elo0=0 elo1=5 ...``: the option's word and the ``key=value`` words after it,
    which click hands over with the BOTs."""
    if text is None:
        return None, bots
    words = [*text.split(), *(b for b in bots if b.split("=", 1)[0] in SPRT_WORDS)]
    rest = tuple(b for b in bots if b.split("=", 1)[0] not in SPRT_WORDS)
    fields: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in SPRT_WORDS:
            raise InputError(f"--sprt takes {', '.join(f'{k}=' for k in SPRT_WORDS)}, not {word!r}")
        fields[key] = value
    if "elo0" not in fields or "elo1" not in fields:
        raise InputError("--sprt needs elo0= and elo1=")
    return fields, rest


def _sprt_spec(fields: dict[str, str] | None) -> SprtSpec | None:
    """The SPRT that --sprt's words ask for (None without --sprt)."""
    from ginref.arena.match import SprtSpec

    if fields is None:
        return None
    return SprtSpec(float(fields["elo0"]), float(fields["elo1"]), float(fields.get("alpha", 0.05)),
                    float(fields.get("beta", 0.05)), fields.get("model", "normalized"))


def _write_page(path: str, folder: str, ranked: Standings) -> None:
    """--html: the run's records as the report's page, with the standings."""
    from ginref.audit import report
    from ginref.render.html import report_page

    page = report_page(report([os.path.join(folder, "records.jsonl")]), ranked, title="ginref match")
    write_text_file(path, page, "--html")


@click.command("match")
@click.argument("bots", nargs=-1)
@click.option("--pairs", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Pairs per pairing: each deal played twice, seats and dealer swapped.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the deals and of the bundled bots.")
@click.option("--unit", type=click.Choice(["hand", "game"]), default="hand", show_default=True,
              help="A sample is one hand, or a game played to the rules' target.")
@rules_argument
@click.option("--gauntlet", is_flag=True, help="The first bot against each other one (default: round robin).")
@click.option("--concurrency", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Pairs played at once, in processes.")
@click.option("--move-time", type=click.FloatRange(0.001), help="Seconds per move.")
@click.option("--game-time", type=click.FloatRange(0.001), help="Seconds per game.")
@click.option("--bank", type=click.FloatRange(0), default=0.0,
              help="Seconds a move may borrow past --move-time.")
@click.option("--margin", type=click.FloatRange(0), default=0.05, show_default=True,
              help="Seconds a clock may overrun before a move is late.")
@click.option("--on-illegal", default="forfeit", show_default=True,
              help="An illegal move, an unknown move word or a protocol break: forfeit, random or retry:N.")
@click.option("--on-timeout", default="forfeit", show_default=True,
              help="A move or game out of time: forfeit or random.")
@click.option("--recover", is_flag=True,
              help="Restart a bot that died (crash, stall, no handshake) and go on.")
@click.option("--disqualify", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Stop the run when a bot fails in more than this share of its games (from its tenth).")
@click.option("--sprt", "sprt_text", metavar="elo0=.. elo1=.. [alpha=.. beta=.. model=..]",
              help="Stop as soon as the SPRT accepts a hypothesis (two bots).")
@click.option("--report-every", type=click.IntRange(0), default=0, help="Print the block every N pairs.")
@click.option("--out", "out", type=click.Path(file_okay=False), help="The run folder.")
@click.option("--resume", "resume", type=click.Path(file_okay=False, exists=True),
              help="Go on with the run in this folder.")
@click.option("--deals", "deals_path", type=click.Path(dir_okay=False, exists=True),
              help="A deal file: one deal a line, a seed or 52 cards from the top (pair k starts at line k).")
@click.option("--auto-defence", type=click.Choice(["best"]),
              help="best: the referee lays off and melds the defender's best response.")
@click.option("--check", "check_command", metavar="CMD",
              help="Drive the bot CMD through a scripted compliance run and say what it got wrong.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also write the standings and the audit as one page into FILE.")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
def match(bots: tuple[str, ...], pairs: int, seed: int, unit: str, rules: Rules, gauntlet: bool,
          concurrency: int, move_time: float | None, game_time: float | None, bank: float, margin: float,
          on_illegal: str, on_timeout: str, recover: bool, disqualify: float, sprt_text: str | None,
          report_every: int,
          out: str | None, resume: str | None, deals_path: str | None, auto_defence: str | None,
          check_command: str | None, html_path: str | None, as_json: bool) -> None:
    """Play bots against each other on duplicate deals.

    A BOT is a bundled bot (random, greedy, simple), py:module:callable,
    spiel:module:factory (a pyspiel.Bot, through the OpenSpiel game), or cmd:COMMAND LINE
    (a program speaking the bot protocol: docs/match.md); NAME=BOT names it. Two bots
    play a match; more play a round robin, or with --gauntlet the first against each other.
    Each deal is played twice, seats and dealer swapped; every game is written to --out as
    a record that ginref verify rules clean. Exit 1 when the run stopped on a bot's failure.

    \b
    Examples:
      ginref match greedy random --pairs 200 --seed 7
      ginref match greedy simple --sprt elo0=0 elo1=20 --out runs/gs
      ginref match 'mine=cmd:node examples/bot.js' greedy --move-time 0.5 --on-illegal retry:2
      ginref match --resume runs/gs
    """
    from ginref.arena.match import (
        MatchError,
        MatchSpec,
        PairResult,
        Tally,
        check_spec,
        load_deals,
        match_standings,
        run_match,
        schedule,
        spec_of_run,
    )
    from ginref.errors import GinrefError
    from ginref.jsonwrite import to_json
    from ginref.render.match import match_block, progress_line, summary_text

    if check_command is not None:
        _check_bot(check_command, move_time)
        return
    sprt_fields, bots = _sprt_words(sprt_text, bots)
    try:
        if resume is not None:
            spec = spec_of_run(resume)
            out = resume
        else:
            sprt = _sprt_spec(sprt_fields)
            spec = MatchSpec(bots=bots, pairs=pairs, seed=seed, unit=unit,  # type: ignore[arg-type]
                             rules=rules.name, rule_overrides=rules.overrides,
                             mode="gauntlet" if gauntlet else "round_robin", move_time=move_time,
                             game_time=game_time, bank=bank, margin=margin, on_illegal=on_illegal,
                             on_timeout=on_timeout, recover=recover, disqualify=disqualify, sprt=sprt,
                             concurrency=concurrency,
                             report_every=report_every, auto_defence=auto_defence == "best",
                             deals=load_deals(deals_path) if deals_path else ())
        check_spec(spec)
        check_output_file(html_path, "--html")
        if html_path is not None:
            check_stats("--html")
        total = len(schedule(spec))
    except (GinrefError, ValueError) as exc:
        raise InputError(str(exc)) from None
    show_progress = sys.stderr.isatty() and not as_json

    played = [0]

    def on_pair(result: PairResult, tallies: Sequence[Tally]) -> None:
        played[0] += 1
        if show_progress:
            click.echo("\r" + progress_line(played[0], total, tallies)[:100], nl=False, err=True)
        if spec.report_every and played[0] % spec.report_every == 0 and not as_json:
            for tally in tallies:
                click.echo(match_block(tally) + "\n")

    with tempfile.TemporaryDirectory(prefix="ginref-match-") as scratch:
        folder = out or os.path.join(scratch, "run")
        try:
            summary = run_match(spec, folder, resume=resume is not None, on_pair=on_pair)
        except MatchError as exc:
            raise InputError(str(exc)) from None
        if show_progress:
            click.echo("", err=True)
        ranked = match_standings(folder, spec.seed) if summary.pairs_played and _has_numpy() else None
        if html_path is not None and ranked is not None:
            _write_page(html_path, folder, ranked)
    if as_json:
        document = summary.document()
        document["out"] = out
        click.echo(to_json(document))
    else:
        click.echo(summary_text(summary, ranked, output_width(), out))
    if summary.stopped is not None:
        sys.exit(1)


def _has_numpy() -> bool:
    """Whether the standings can be computed: without numpy the match still plays and reports,
    and each block says why its figures are missing."""
    from ginref.stats import StatsError, require_numpy

    try:
        require_numpy()
    except StatsError:
        return False
    return True


def _check_bot(command: str, move_time: float | None) -> None:
    from ginref.arena.check import check_bot

    lines = check_bot(command, move_time=move_time or 5.0)
    for line in lines:
        click.echo(str(line))
    failed = sum(not line.passed for line in lines)
    click.echo(f"{failed} of {len(lines)} steps failed" if failed else f"all {len(lines)} steps passed")
    if failed:
        sys.exit(1)


@click.command("bot")
@click.argument("name", type=click.Choice(["random", "greedy", "simple"]), metavar="NAME")
def bot(name: str) -> None:
    """Play a bundled bot over the bot protocol.

    The bot reads the protocol's messages on standard input and answers hello, act and
    ping on standard output as docs/match.md says, until quit or the end of its input: a
    partner to test a server or an arena against.

    \b
    Examples:
      ginref bot greedy
      ginref match 'cmd:ginref bot greedy' random --pairs 20
    """
    from ginref.arena.botproto import serve_bot

    serve_bot(name, sys.stdin.buffer, sys.stdout)
