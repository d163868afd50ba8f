"""``ginref match --check CMD``: one bot driven through a scripted sequence of the protocol,
and what it got wrong, line by line.

The script: the handshake; a new game and hand; a request to act at the first upcard; a
ping; the same request again with a refusal's reason (as a retry sends it); then the whole
hand played at a table against the bundled ``random`` bot, every move checked by the
referee; the end of the hand; and ``quit``, after which the bot should exit. Each step is
a :class:`CheckLine`: passed or not, and what was seen.
"""

from __future__ import annotations

import subprocess
import time

import msgspec

from ginref.arena.botproto import Subprocess, seen_move
from ginref.arena.bots import RandomBot
from ginref.arena.players import BotFailure, Clock
from ginref.errors import GinrefError, NotationError
from ginref.referee.table import IllegalMove, Table
from ginref.rules import STANDARD

__all__ = ["CheckLine", "check_bot"]

SEAT, OTHER = "bot", "check"
MAX_MOVES = 400


class CheckLine(msgspec.Struct, frozen=True):
    """One step of the compliance run: its name, whether the bot passed, and what was seen."""

    step: str
    passed: bool
    detail: str

    def __str__(self) -> str:
        return f"{'ok  ' if self.passed else 'FAIL'}  {self.step}: {self.detail}"


def check_bot(command: str, *, move_time: float = 5.0, handshake_time: float = 10.0,
              seed: int = 1) -> list[CheckLine]:
    """Drive the bot ``command`` through the script; every step's line (a step that cannot be
    reached after a failure is not listed)."""
    bot = Subprocess(SEAT, command, handshake_time=handshake_time, stall_after=move_time, ping_wait=move_time)
    lines: list[CheckLine] = []
    try:
        _script(bot, lines, move_time, seed)
    finally:
        _quit(bot, lines)
    return lines


def _script(bot: Subprocess, lines: list[CheckLine], move_time: float, seed: int) -> None:
    table = Table((SEAT, OTHER), STANDARD, dealer=OTHER, seed=seed)
    try:
        bot.new_game((SEAT, OTHER), SEAT, seed, STANDARD)
    except BotFailure as failure:
        lines.append(CheckLine("handshake", False, str(failure)))
        return
    lines.append(CheckLine("handshake", True, f"ready as {bot.bot_name!r}" if bot.bot_name else "ready "
                           "(no name given)"))
    bot.told({"type": "new_hand", "hand": 1, "dealer": OTHER})
    clock = Clock(move_time, None, 0.0, 0.05)
    if not _ask(bot, table, clock, lines, "act at the upcard", push=False):
        return
    lines.append(_ping(bot))
    refusal = "'discard 4D' refused: 4D is not in your hand; ask 'legal' for the moves you may make"
    if not _ask(bot, table, clock, lines, "act again after a refusal", push=False, refusal=refusal):
        return
    _hand(bot, table, clock, lines, seed)


def _ask(bot: Subprocess, table: Table, clock: Clock, lines: list[CheckLine], step: str, *,
         push: bool = True, refusal: str | None = None) -> bool:
    legal = table.legal_moves()
    try:
        answer = bot.act(table.view(SEAT), legal, clock, refusal)
    except BotFailure as failure:
        lines.append(CheckLine(step, False, str(failure)))
        return False
    copy = table.copy()
    try:
        played = copy.push_as_seat(answer.move, SEAT)
    except IllegalMove as refused:
        lines.append(CheckLine(step, False, f"{str(answer.move)[:60]!r} is illegal ({refused.code}): "
                               f"{refused.seat_message}"))
        return False
    except NotationError as exc:
        lines.append(CheckLine(step, False, f"{str(answer.move)[:60]!r} is not a move: {exc}"))
        return False
    if push:
        table.push_as_seat(played, SEAT)
    else:
        lines.append(CheckLine(step, True, f"{played} in {answer.seconds * 1000:.0f} ms"))
    return True


def _ping(bot: Subprocess) -> CheckLine:
    start = time.perf_counter()
    try:
        bot._ping()
    except BotFailure as failure:
        return CheckLine("ping", False, str(failure))
    return CheckLine("ping", True, f"pong in {(time.perf_counter() - start) * 1000:.0f} ms")


def _hand(bot: Subprocess, table: Table, clock: Clock, lines: list[CheckLine], seed: int) -> None:
    opponent = RandomBot(STANDARD, seed)
    moves = 0
    slowest = 0.0
    while not table.is_over() and moves < MAX_MOVES:
        mover = table.to_move
        if mover == OTHER:
            move = opponent.act(table.view(OTHER), table.legal_moves())
            table.push(move, OTHER)
            bot.told({"type": "opponent", "player": OTHER, "move": seen_move(move)})
            continue
        start = time.perf_counter()
        if not _ask(bot, table, clock, lines, f"move {moves + 1} of the hand ({table.phase})"):
            return
        slowest = max(slowest, time.perf_counter() - start)
        moves += 1
    ruled = table.outcome()
    if ruled is not None:
        try:
            bot.told({"type": "hand_over", "ruling": ruled.to_dict()})
        except BotFailure as failure:
            lines.append(CheckLine("hand over", False, str(failure)))
            return
    slow = f"the slowest in {slowest * 1000:.0f} ms"
    lines.append(CheckLine("a whole hand", True, f"{moves} legal moves, {slow}; "
                           f"{ruled.outcome if ruled else 'unfinished'}"))


def _quit(bot: Subprocess, lines: list[CheckLine]) -> None:
    process = bot.process
    if process is None:
        return
    if process.poll() is not None:
        bot.close()
        return
    try:
        bot.told({"type": "quit"})
        process.wait(2.0)
        lines.append(CheckLine("quit", True, f"exited with code {process.returncode}"))
    except (BotFailure, GinrefError):
        lines.append(CheckLine("quit", True, "closed its input"))
    except subprocess.TimeoutExpired:
        lines.append(CheckLine("quit", False, "still running 2 s after quit"))
    bot.close()
