"""The ``ginref`` group: its options, every command added to it, and how a usage error reads.

A usage error is one line (with the caret lines under a bad card, where there are some),
never click's usage block; ``Try 'ginref CMD --help'`` follows when the command line's
shape is wrong, and a suggestion only when a name is close to one typed. The group does
this for every command, so it holds under ``main`` and click's ``CliRunner`` alike.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click

from ginref.cli.exits import UsageLine
from ginref.cli.importing import loading

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 80}
COMPLETE_VAR = "_GINREF_COMPLETE"
"""the environment variable through which a shell asks click for completions"""
SHELLS = ("bash", "zsh", "fish")
COMMANDS: Mapping[str, tuple[str, str]] = {
    "analyze": ("hands", "analyze"), "knock": ("hands", "knock"), "layoffs": ("hands", "layoffs"),
    "score": ("hands", "score"), "advise": ("hands", "advise"),
    "rules": ("games", "rules_command"), "game": ("games", "game"),
    "adjudicate": ("records", "adjudicate"), "verify": ("records", "verify"),
    "convert": ("records", "convert"),
    "report": ("report", "report"),
    "table": ("live", "table"),
    "match": ("match", "match"), "bot": ("match", "bot"),
}
"""Each command but ``completion``: the module of :mod:`ginref.cli` that defines it and its name
there, imported only when the command is asked for (click's lazy group), so that one command
does not build the options of every other."""


class GinrefGroup(click.Group):
    """The group whose usage errors, its own and its commands', are one line each, and whose
    commands load as they are needed (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return self.commands.get(cmd_name)
        module, name = COMMANDS[cmd_name]
        with loading():
            loaded = importlib.import_module(f"ginref.cli.{module}")
        command: click.Command = getattr(loaded, name)
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, colour_first(args))

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        with _usage_in_one_line(lambda: info_name or "ginref"):
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _usage_in_one_line(lambda: " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))):
            return super().invoke(ctx)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and name[:1].isalnum() and not ctx.resilient_parsing:
            raise UsageLine(f"No such command {name!r}.{did_you_mean(name, self.list_commands(ctx))}",
                            ctx, help_for=ctx.command_path)
        return super().resolve_command(ctx, args)


COLOUR_WHEN = ("always", "never", "auto")
"""``--color=WHEN``: what ls, grep and git take"""


def colour_first(args: list[str]) -> list[str]:
    """``args`` with every colour option, before or after the command (up to ``--``), moved to
    the front as ``--color=WHEN``, for the group to read: ``--color WHEN`` and ``--color=WHEN``
    as other tools take them, ``--color`` alone (always) and ``--no-color`` (never)."""
    front: list[str] = []
    rest = list(args)
    at = 0
    while at < len(rest) and rest[at] != "--":
        word = rest[at]
        if word in ("--color", "--no-color"):
            given = at + 1 < len(rest) and rest[at + 1] in COLOUR_WHEN and word == "--color"
            front.append(f"--color={rest[at + 1] if given else 'always' if word == '--color' else 'never'}")
            del rest[at:at + 1 + given]
        elif word.startswith("--color="):
            front.append(rest.pop(at))
        else:
            at += 1
    return front + rest


@contextmanager
def _usage_in_one_line(command_path: Callable[[], str]) -> Iterator[None]:
    """Usage errors raised inside as :func:`one_line`; ``command_path`` names the command for
    the errors click raises without a context (an option missing its value)."""
    try:
        yield
    except (UsageLine, click.exceptions.NoArgsIsHelpError):
        raise
    except click.UsageError as exc:
        raise one_line(exc, exc.ctx.command_path if exc.ctx else command_path()) from None


def one_line(exc: click.UsageError, command_path: str) -> UsageLine:
    """``exc`` without the usage block: a bad value is its message alone, naming the
    environment variable only when the value came from it; an unknown option gets a
    suggestion only when one is close; anything else also says where the help is."""
    ctx = exc.ctx
    if isinstance(exc, click.NoSuchOption):
        names = _option_names(ctx.command, ctx) if ctx is not None else []
        close = did_you_mean(exc.option_name, names) if exc.option_name.startswith("--") else ""
        return UsageLine(exc.message + close, ctx, help_for=command_path)
    if isinstance(exc, click.BadParameter):
        if exc.param_hint is None and isinstance(exc.param, click.Option):
            exc.param_hint = _option_hint(exc.param, ctx)
        if isinstance(exc, click.MissingParameter):  # a choice lists its values one per line
            return UsageLine(" ".join(exc.format_message().split()), ctx, help_for=command_path)
        return UsageLine(exc.format_message(), ctx)
    return UsageLine(exc.format_message(), ctx, help_for=command_path)


def _option_hint(option: click.Option, ctx: click.Context | None) -> str:
    """``'--jobs' / '-j'``, and ``(from GINREF_RULES)`` when the value came from there."""
    hint = " / ".join(repr(name) for name in option.opts)
    source = ctx.get_parameter_source(option.name) if ctx is not None and option.name else None
    if source is click.core.ParameterSource.ENVIRONMENT and isinstance(option.envvar, str):
        hint += f" (from {option.envvar})"
    return hint


def _option_names(command: click.Command, ctx: click.Context) -> list[str]:
    """Every long option ``command`` takes, ``--help`` included."""
    names = [name for param in command.get_params(ctx) if isinstance(param, click.Option)
             for name in (*param.opts, *param.secondary_opts)]
    return [name for name in names if name.startswith("--")]


def did_you_mean(typed: str, names: Iterable[str]) -> str:
    """`` Did you mean '--json'?`` for the names nearest ``typed``, or nothing when none is near:
    one edit (a letter added, dropped, changed or two swapped) for a word of up to four letters,
    two for a longer one, case and leading dashes aside."""
    word = typed.lstrip("-").lower()
    allowed = 1 if len(word) <= 4 else 2
    near = [(d, name) for name in names if (d := _edits(word, name.lstrip("-").lower(), allowed)) <= allowed]
    if not near:
        return ""
    least = min(d for d, _ in near)
    closest = sorted({name for d, name in near if d == least})
    shown = ", ".join(map(repr, closest[:-1])) + " or " if len(closest) > 1 else ""
    return f" Did you mean {shown}{closest[-1]!r}?"


def _edits(a: str, b: str, bound: int) -> int:
    """The edits that turn ``a`` into ``b`` (optimal string alignment), or ``bound + 1``
    as soon as the lengths alone need more than ``bound``."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []
    above = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            row.append(cost)
        before, above = above, row
    return above[-1]


@click.group("ginref", cls=GinrefGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ginref", prog_name="ginref")
@click.option("--color", "color", type=click.Choice(COLOUR_WHEN), metavar="[=WHEN]",
              help="Colour red cards: always, never or auto (on a terminal, unless NO_COLOR is "
              "set; the default). --color alone is always, --no-color never; before or after "
              "the command.")
@click.pass_context
def cli(ctx: click.Context, color: str | None) -> None:
    """ginref: the Gin Rummy referee.

    Exact meld search, knock and gin checks, layoffs, hand and game scoring
    under named rule sets, and verification of recorded hands.

    \b
    Examples:
      ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
      ginref knock 3C 4C 5C 9D 9S 9H 2D AS AH 3S KC
      ginref rules standard

    \b
    Shell completion (commands, options, rule names, knobs, files):
      eval "$(ginref completion bash)"     in ~/.bashrc (zsh: the same with zsh)
      ginref completion fish | source      in ~/.config/fish/config.fish
    """
    if color in ("always", "never"):
        ctx.color = color == "always"
    elif os.environ.get("NO_COLOR"):
        ctx.color = False


@click.command("completion")
@click.argument("shell", metavar="SHELL", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Print the completion script for SHELL (bash, zsh or fish).

    Completes commands, options, rule set names (--rules, `ginref rules`),
    knobs and their values (--set tie_policy=<TAB>) and file names. The
    script is the one `_GINREF_COMPLETE=bash_source ginref` prints; load it
    in each new shell.

    \b
    Examples:
      eval "$(ginref completion bash)"     in ~/.bashrc
      eval "$(ginref completion zsh)"      in ~/.zshrc
      ginref completion fish | source      in ~/.config/fish/config.fish
    """
    click.echo(completion_script(ctx.find_root().command, shell), nl=False)


def completion_script(command: click.Command, shell: str) -> str:
    from click.shell_completion import get_completion_class

    from ginref.cli.completing import use_line_completion

    use_line_completion()
    complete = get_completion_class(shell)
    assert complete is not None  # SHELLS are click's own
    return complete(command, {}, "ginref", COMPLETE_VAR).source()


cli.add_command(completion)
