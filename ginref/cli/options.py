"""What the commands share: options, parameter types and the rules they resolve to.

A bad hand, card, meld list or player pair fails here, in its parameter type, as one line
with a caret under the column (exit 2), before any command runs.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar

import click

from ginref.cards import Card, Mask
from ginref.cli.exits import UnreadableError, fail, input_errors
from ginref.errors import GinrefError, RecordError
from ginref.rules import RULE_NAMES, Rules

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from pathlib import Path

    from click.shell_completion import CompletionItem

    from ginref.records.names import Naming

    ParamBase = click.ParamType[Any, Any]  # generic in the click this is checked with
else:
    ParamBase = click.ParamType


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
    from click.shell_completion import CompletionItem  # here: only completion needs it

    typed = incomplete.lower()
    return [CompletionItem(name) for name in RULE_NAMES if name.startswith(typed)]


def complete_knobs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--set``: knob names (``gin_bonus=``), then the values a knob takes (``tie_policy=no_score``)."""
    from click.shell_completion import CompletionItem

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


Reads = Literal["hands", "advise", "sheet", "records"]
"""what a command reads, which decides the rules that apply without --rules"""


class RulesOption(click.Option):
    """``--rules``: its help says, when shown, which rules apply without it and why."""

    def __init__(self, *args: Any, reads: Reads = "hands", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads = reads

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        environment = self.resolve_envvar_value(ctx)
        shown = f"  [default: {rules_default(self.reads, environment)}]"
        return record[0], record[1] + shown + ("  [env var: GINREF_RULES]" if environment is None else "")


def rules_default(reads: Reads, environment: str | None) -> str:
    """The rules that apply without --rules: standard or the set GINREF_RULES names, and
    for records and sheets first the rules each names (--override-rules aside)."""
    given = "standard" if environment is None else f"{environment}, from GINREF_RULES"
    if reads == "advise":
        return f"{given}, with --at too" if environment else f"{given}; with --at: the rules the record names"
    if reads == "sheet":
        return f"the sheet's `rules:` line, else {given}"
    if reads == "records":
        return "the rules each record names" + (f"; with --override-rules: {given}" if environment else "")
    return given


class RulesFileType(click.Path):
    """A rules file as a :class:`~pathlib.Path`: one that does not exist is a usage error (2);
    the reader decides the rest (3). ``pathlib`` is imported only when a file is given: a
    command that reads none does not pay for loading it."""

    def __init__(self) -> None:
        super().__init__(exists=True, dir_okay=False, readable=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from pathlib import Path

        return Path(os.fsdecode(super().convert(value, param, ctx)))


RULES_FILE = RulesFileType()


def rules_options_for(reads: Reads) -> Callable[[F], F]:
    """``--rules``, ``--rules-file`` and ``--set``, resolved into ``rules``."""

    def decorate(f: F) -> F:
        f = click.option(
            "--set",
            "overrides",
            multiple=True,
            metavar="KNOB=VALUE",
            shell_complete=complete_knobs,
            help="Change one rule knob (repeatable), e.g. --set gin_bonus=25. See `ginref rules NAME`.",
        )(f)
        f = click.option(
            "--rules-file", type=RULES_FILE, help="A TOML file of knobs built on a preset (key `base`).",
        )(f)
        return click.option(
            "--rules", "rules_name", cls=RulesOption, reads=reads, metavar="NAME", callback=check_rules_name,
            shell_complete=complete_rule_names, envvar="GINREF_RULES",
            help="The rule set your table plays (`ginref rules` lists them)",
        )(f)

    return decorate


rules_options = rules_options_for("hands")


def rules_argument(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--rules``, ``--rules-file`` and ``--set``, given to the command as one ``rules``,
    resolved (:func:`resolve_rules`) before the command runs."""

    @functools.wraps(f)
    def command(*args: Any, rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...],
                **kwargs: Any) -> Any:
        return f(*args, rules=resolve_rules(rules_name, rules_file, overrides), **kwargs)

    return rules_options(command)


def record_rules_argument(f: Callable[..., Any]) -> Callable[..., Any]:
    """The same with ``--override-rules``, for the commands that read records: ``rules`` is
    what replaces each record's own rules, or None (:func:`replacing_rules`)."""

    @functools.wraps(f)
    def command(*args: Any, rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...],
                override_rules: bool, **kwargs: Any) -> Any:
        return f(*args, rules=replacing_rules(rules_name, rules_file, overrides, override_rules), **kwargs)

    return override_rules_option(rules_options_for("records")(command))


def needs_extra(option: str, what: str, extra: str) -> str:
    """A command's epilog: what ``option`` needs, and the command that installs it, on a line
    of its own so that help's wrapping never splits it."""
    return f"\b\n{option} needs {what}, which the {extra} extra installs:\n  pip install 'ginref[{extra}]'"


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
    from ginref.rules import find_rules, parse_override, with_overrides

    with input_errors():
        if rules_file is not None and rules_name is not None:
            if not _from_environment("rules_name"):
                fail("give --rules or --rules-file, not both (a rules file names its base preset)")
            rules_name = None  # GINREF_RULES gives way to a rules file on the command line
        name = default if rules_name is None else rules_name
        rules = _rules_in_file(rules_file) if rules_file is not None else find_rules(name)
        if overrides:
            rules = with_overrides(rules, dict(parse_override(text) for text in overrides))
    return rules


def _rules_in_file(path: Path) -> Rules:
    """A rules file's rules; a file that cannot be read as one is unreadable input (exit 3)."""
    from ginref.rules import load_rules_file

    try:
        return load_rules_file(path)
    except GinrefError as exc:
        raise UnreadableError(str(exc)) from None


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
    from ginref.render.tables import pointer

    column = exc.column if isinstance(exc, NotationError) else 0
    under = pointer(text, column) if column else ""
    return f"{exc}\n{under}" if under else str(exc)


class HandType(ParamBase):
    """A hand in any common notation: the mask, or a one-line error with a caret (exit 2).

    ``who`` names the hand in the error (``--defender: ``); ``sizes`` are the counts allowed.
    """

    name = "hand"

    def __init__(self, sizes: tuple[int, ...] = (10, 11), who: str = "") -> None:
        self.sizes, self.who = sizes, who

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Mask:
        if isinstance(value, int):
            return value
        text = str(value)
        from ginref.notation import plain_mask

        mask = plain_mask(text)
        if mask is not None and mask.bit_count() in self.sizes:
            return mask
        from ginref.notation import parse_hand

        try:
            return parse_hand(text, self.sizes).mask
        except GinrefError as exc:
            fail(f"{self.who}{pointed(exc, text)}")


class CardsType(ParamBase):
    """Any number of cards (``--seen``, ``--opponent-has``), as a mask."""

    name = "cards"

    def __init__(self, who: str) -> None:
        self.who = who

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Mask:
        if isinstance(value, int):
            return value
        from ginref.cards import mask_of
        from ginref.notation import parse_cards

        try:
            return mask_of(parse_cards(str(value)))
        except GinrefError as exc:
            fail(f"{self.who}{pointed(exc, str(value))}")


class MeldsType(ParamBase):
    """The knocker's melds (``--melds "[4H 5H 6H] [QC QD QS]"``), one mask each; ``needed``
    says why the command has no answer for a knocker who declares none."""

    name = "melds"

    def __init__(self, needed: str = "") -> None:
        self.needed = needed

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> list[Mask]:
        if isinstance(value, list):
            return value
        from ginref.cards import mask_of
        from ginref.notation import parse_melds

        text = str(value)
        try:
            melds = [mask_of(meld) for meld in parse_melds(text)]
        except GinrefError as exc:
            fail(f"--melds: {pointed(exc, text)}")
        if not melds and self.needed:
            fail(f"--melds: no melds given; {self.needed}")
        return melds


class PlayersType(ParamBase):
    """Two names (``--players Ann,Bo``), as a pair; the sheet's reader checks them as it checks its own."""

    name = "players"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        text = str(value)
        names = [name.strip() for name in text.split(",")]
        if len(names) != 2 or not all(names):
            fail(f"--players: expected two names separated by a comma, got {text!r}")
        return names[0], names[1]


def hand_argument(sizes: tuple[int, ...] = (10, 11), who: str = "", stdin: bool = False) -> Callable[[F], F]:
    """``HAND``: one quoted string or several arguments, joined and read as one hand; with
    ``stdin``, a lone ``-`` stays ``None`` (the command reads hands from stdin); without,
    it says which command does."""
    hand = HandType(sizes, who)

    def joined(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> Mask | None:
        if value == ("-",):
            if stdin:
                return None
            fail(f"`ginref {ctx.info_name}` takes one hand as its arguments; "
                 "`ginref analyze -` reads many hands from stdin, one a line")
        return hand.convert(" ".join(value), param, ctx)

    return click.argument("hand", nargs=-1, required=True, metavar="HAND", callback=joined)


def _game_string(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--game``: checked at once, so a bad game string is a usage error."""
    if value:
        from ginref.records.openspiel import parse_game_string

        try:
            parse_game_string(value)
        except GinrefError as exc:
            raise click.BadParameter(exc.message if isinstance(exc, RecordError) else str(exc)) from None
    return value


class FormatChoice(click.Choice[str]):
    """``--from``'s choice: the forms the format registry offers
    (:func:`~ginref.records.formats.input_forms`), asked for when they are shown or checked, so
    that start-up imports no reader and a format registered later is offered too."""

    def __init__(self) -> None:
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:
        from ginref.records.formats import input_forms

        return input_forms()

    @choices.setter
    def choices(self, value: object) -> None:
        raise AttributeError("the choices of --from are the format registry's")


def reader_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--from`` and ``--game``: how the record reader reads inputs from other programs; and
    ``--players`` and ``--names``, given to the command as one ``names`` (a
    :class:`~ginref.records.names.Naming`, or None): who the records' players are."""

    @functools.wraps(f)
    def command(*args: Any, players: tuple[str, str] | None, names_file: str | None, **kwargs: Any) -> Any:
        return f(*args, names=_naming(players, names_file), **kwargs)

    g: Callable[..., Any] = click.option(
        "--names", "names_file", metavar="FILE",
        type=click.Path(exists=True, dir_okay=False),
        help="Rename players by a map, one 'old name = new name' a line (# comments), e.g. "
        "'Player 0 = simple-bot'; applied after --players",
    )(command)
    g = click.option(
        "--players", "players", nargs=2, metavar="FIRST SECOND", default=None,
        help="Name each record's first and second player (seat 0 and 1: Player 0 and Player 1 "
        "of an EAAI log, N and S of an RLCard sheet)",
    )(g)
    g = click.option(
        "--game", "game", default="", metavar="GAME", callback=_game_string,
        help="OpenSpiel's game string for action histories, e.g. 'gin_rummy(knock_card=9)'  "
        "[default: OpenSpiel's defaults]",
    )(g)
    g = click.option(
        "--from", "from_form",
        type=FormatChoice(),
        help="Read the input as this form  [default: from the file name, else the content]",
    )(g)
    return g


def _naming(players: tuple[str, str] | None, names_file: str | None) -> Naming | None:
    """The players' names ``--players`` and ``--names`` give, checked: a usage error if not."""
    from ginref.game import players_problem
    from ginref.records.names import Naming, parse_names

    if players is not None and (problem := players_problem(tuple(players))) is not None:
        raise click.BadParameter(problem, param_hint="'--players'")
    table: tuple[tuple[str, str], ...] = ()
    if names_file is not None:
        try:
            with open(names_file, encoding="utf-8") as handle:
                table = parse_names(handle.read(1 << 20), names_file)
        except (OSError, UnicodeDecodeError) as exc:
            raise click.BadParameter(f"cannot read {names_file}: {exc}", param_hint="'--names'") from None
        except RecordError as exc:
            raise click.BadParameter(str(exc), param_hint="'--names'") from None
    naming = Naming(tuple(players) if players is not None else None, table)  # type: ignore[arg-type]
    return naming or None


def batch_options(f: F) -> F:
    """``--jobs`` and ``--scheduler``: where a batch of records is checked."""
    f = click.option(
        "--scheduler", metavar="ADDRESS", envvar="DASK_SCHEDULER_ADDRESS", show_envvar=True,
        help="Run on the Dask cluster at ADDRESS (tcp://host:8786); 'local' starts one of --jobs "
        "workers. Needs the dask extra (below).",
    )(f)
    f = click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        help="Worker processes (with --scheduler local: the cluster's)  [default: all cores]",
    )(f)
    return f


def require_paths(paths: Sequence[str]) -> None:
    """A path that does not exist is a usage error (exit 2), found before any work starts."""
    missing = [p for p in paths if p != "-" and not os.path.lexists(p)]
    if missing:
        shown = ", ".join(repr(p.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
                          for p in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        fail(f"no such file or folder: {shown}{more}")


def no_hands(source: str) -> NoReturn:
    """Input that held no hand must never look answered: say so, exit 3."""
    raise UnreadableError("no hands on stdin" if source in ("-", "<stdin>") else f"no hands in {source}")


def no_records(paths: Sequence[str]) -> NoReturn:
    """A run that read no record at all must never look clean: say so, exit 3."""
    where = "standard input" if list(paths) == ["-"] else ", ".join(paths[:3])
    raise UnreadableError(f"no records found in {where} (record files end in .gin, .json, .jsonl or .ndjson)")


def replacing_rules(
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
