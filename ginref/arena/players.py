"""A seat's player as the runner sees it: in this process (a bundled bot, a Python callable)
or over the bot protocol (:mod:`ginref.arena.botproto`), and the failures each can have.

A player is asked for a move with its seat's :class:`~ginref.referee.table.View` and the
legal moves, and answers a move's ``.gin`` words (or a :class:`Move`). Whatever goes wrong
is a :class:`BotFailure` of a named kind, which the runner meets with the policy of that
kind (:mod:`ginref.arena.match`).
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

import msgspec

from ginref.arena.bots import BOTS, bundled_bot
from ginref.errors import GinrefError
from ginref.referee.table import Move, View
from ginref.rules import Rules

__all__ = ["FAILURE_KINDS", "BotFailure", "InProcess", "Player", "PlayerSpec", "loaded", "parse_bot"]

FailureKind = Literal[
    "no_handshake", "crash", "stall", "move_timeout", "game_timeout", "illegal_move", "bad_move",
    "bad_json", "wrong_id", "line_too_long", "protocol",
]
FAILURE_KINDS: tuple[FailureKind, ...] = (
    "no_handshake", "crash", "stall", "move_timeout", "game_timeout", "illegal_move", "bad_move",
    "bad_json", "wrong_id", "line_too_long", "protocol",
)
"""every way a bot can fail, as the summary counts them (docs/match.md)"""
FATAL_KINDS = frozenset({"no_handshake", "crash", "stall"})
"""the failures after which the bot is gone: the game is forfeited, and without --recover the run stops"""
TIME_KINDS = frozenset({"move_timeout", "game_timeout"})


class BotFailure(GinrefError):
    """A bot failed in a named way (``kind``, one of :data:`FAILURE_KINDS`); ``detail`` says how."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Answer(msgspec.Struct, frozen=True):
    """A player's answer: the move (words or a Move), an optional comment, and the wall time."""

    move: Move | str
    seconds: float
    comment: str | None = None


class Player(Protocol):
    """What the runner asks of a seat's player."""

    name: str

    def new_game(self, players: tuple[str, str], seat: str, seed: int, rules: Rules) -> None: ...
    def act(self, view: View, legal: Sequence[Move], clock: Clock, refusal: str | None = None) -> Answer: ...
    def told(self, message: dict[str, object]) -> None: ...
    def close(self) -> None: ...


class Clock(msgspec.Struct):
    """A seat's time for the game: per move, per game (left), and a bank (left), with the
    margin a move may overrun before it counts as late. None: no limit of that kind."""

    move: float | None = None
    game_left: float | None = None
    bank_left: float = 0.0
    margin: float = 0.05

    def allowed(self) -> float | None:
        """The seconds this move may take, margin included (None: no limit)."""
        limits = [t for t in (self.move, self.game_left) if t is not None]
        if not limits:
            return None
        return max(0.0, min(limits) + self.bank_left) + self.margin

    def spend(self, seconds: float) -> FailureKind | None:
        """Charge ``seconds`` to the clock; the failure if it overran a limit."""
        over = 0.0 if self.move is None else max(0.0, seconds - self.move)
        if over:
            used = min(over, self.bank_left)
            self.bank_left -= used
            over -= used
        if self.game_left is not None:
            self.game_left -= seconds
            if self.game_left < -self.margin:
                return "game_timeout"
        return "move_timeout" if over > self.margin else None


class PlayerSpec(msgspec.Struct, frozen=True):
    """A BOT as the command line names it: ``kind`` bundled, py, spiel or cmd, and its ``target``."""

    kind: Literal["bundled", "py", "spiel", "cmd"]
    target: str
    label: str

    def __str__(self) -> str:
        return self.target if self.kind == "bundled" else f"{self.kind}:{self.target}"


def parse_bot(text: str) -> PlayerSpec:
    """A BOT: a bundled bot's name, ``py:module:callable``, ``spiel:module:factory`` (a
    ``pyspiel.Bot``'s factory, :mod:`ginref.arena.spielbot`) or ``cmd:COMMAND LINE``; a
    ``NAME=`` in front names it in the records."""
    label = ""
    head, eq, rest = text.partition("=")
    if eq and head and head.replace("-", "").replace("_", "").isalnum() and ":" not in head:
        label, text = head, rest
    if text in BOTS:
        return PlayerSpec("bundled", text, label or text)
    kind, colon, target = text.partition(":")
    if colon and kind in ("py", "spiel", "cmd") and target.strip():
        default = target.split()[0].rsplit("/", 1)[-1] if kind == "cmd" else target.split(":")[-1]
        return PlayerSpec(kind, target.strip(), label or default[:40] or kind)  # type: ignore[arg-type]
    raise GinrefError(f"not a bot: {text!r}; a bot is {', '.join(BOTS)}, py:module:callable, "
                      "spiel:module:factory or cmd:COMMAND LINE")


class InProcess:
    """A bot in this process: a bundled one, or a Python callable. Its exceptions are crashes;
    its time is measured and charged as a subprocess's is (but a bot in this process cannot be
    stopped mid-move: a slow one is found late after it answers)."""

    def __init__(self, name: str, spec: PlayerSpec) -> None:
        self.name = name
        self.spec = spec
        self._act: Callable[[View, Sequence[Move]], Any] | None = None
        self._factory: Callable[..., Any] | None = None
        if spec.kind == "py":
            self._factory = loaded(spec.target)

    def new_game(self, players: tuple[str, str], seat: str, seed: int, rules: Rules) -> None:
        if self.spec.kind == "bundled":
            self._act = bundled_bot(self.spec.target, rules, seed).act
            return
        assert self._factory is not None
        made = self._factory
        try:
            bot = _made(made, rules, seed) if isinstance(made, type) else made
        except Exception as exc:
            raise BotFailure("crash", f"{type(exc).__name__}: {exc}"[:200]) from None
        act: Callable[[View, Sequence[Move]], Any] | None = getattr(bot, "act", bot)
        if not callable(act):
            raise BotFailure("protocol", f"{self.spec.target} is neither callable nor has act()")
        self._act = act

    def act(self, view: View, legal: Sequence[Move], clock: Clock, refusal: str | None = None) -> Answer:
        assert self._act is not None
        start = time.perf_counter()
        try:
            move = self._act(view, legal)
        except Exception as exc:
            raise BotFailure("crash", f"{type(exc).__name__}: {exc}"[:200]) from None
        seconds = time.perf_counter() - start
        if not isinstance(move, (Move, str)):
            raise BotFailure("bad_move", f"act() returned {type(move).__name__}, not a move")
        return Answer(move, seconds)

    def told(self, message: dict[str, object]) -> None:
        return

    def close(self) -> None:
        return


def _made(made: type, rules: Rules, seed: int) -> Any:
    """An instance of a bot class: made with the rules and a seed when it takes them, else
    with nothing."""
    try:
        signature = inspect.signature(made)
        signature.bind(rules, seed)
    except (TypeError, ValueError):
        return made()
    return made(rules, seed)


def loaded(target: str, kind: str = "py") -> Callable[..., Any]:
    """The callable ``module:name`` names (a ``py:`` or ``spiel:`` bot's), imported; else a
    :class:`GinrefError` saying what is missing."""
    module_name, colon, attribute = target.rpartition(":")
    if not colon or not module_name:
        raise GinrefError(f"{kind}:{target}: name a module and a callable, as {kind}:module:callable")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise GinrefError(f"{kind}:{target}: cannot import {module_name!r}: {exc}") from None
    found = getattr(module, attribute, None)
    if found is None or not callable(found):
        raise GinrefError(f"{kind}:{target}: {module_name} has no callable {attribute!r}")
    return found  # type: ignore[no-any-return]
