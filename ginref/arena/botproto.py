"""The bot protocol: JSON Lines over a subprocess's standard input and output.

It mirrors ``ginref table``: the same move words, the same ``view`` document
(:func:`ginref.referee.protocol.view_document`). docs/match.md is the reference; in short,
each message is one JSON object on one line with a ``"type"``:

==============  =========================================================================
to the bot      ``hello`` (``protocol``), ``new_game`` (``players``, ``seat``, ``rules``,
                ``set`` when knobs are changed, ``seed``), ``new_hand`` (``hand``,
                ``dealer``), ``act`` (``id``, ``view``, ``legal``, ``clock``,
                ``refusal``), ``opponent`` (``player``, ``move`` as the
                seat may see it), ``hand_over`` (``outcome``, ``winner``, ``points``),
                ``ping`` (``id``), ``quit``
from the bot    ``ready`` (``name``, ``options``) after ``hello``; ``{"id": ..., "move":
                "discard 7H", "comment": ...}`` after ``act``; ``{"id": ..., "type":
                "pong"}`` after ``ping``
==============  =========================================================================

:class:`Subprocess` is the arena's side: it starts the command, reads its lines in a thread
(each at most :data:`MAX_LINE` bytes), waits for each answer against the clock, and names
every failure (:class:`~ginref.arena.players.BotFailure`). :func:`serve_bot` is the bot's
side for a bundled bot (``ginref bot NAME``).
"""

from __future__ import annotations

import json
import os
import queue
import select
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from ginref.arena.bots import BOTS, bundled_bot
from ginref.arena.players import Answer, BotFailure, Clock, FailureKind
from ginref.cards import Card, CardSet, Mask
from ginref.errors import GinrefError
from ginref.jsonwrite import json_line
from ginref.notation import parse_card
from ginref.referee.protocol import view_document
from ginref.referee.table import Move, Phase, View
from ginref.rules import STANDARD, Rules, find_rules, with_overrides

__all__ = ["MAX_LINE", "PROTOCOL_VERSION", "Subprocess", "act_message", "seen_move", "serve_bot",
           "view_of_document"]

PROTOCOL_VERSION = 1
MAX_LINE = 64 * 1024
"""the longest line a bot may write, in bytes"""
HANDSHAKE_TIME = 10.0
"""seconds a bot has to answer ``hello``"""
STALL_AFTER = 60.0
"""seconds without an answer, when no clock limits the move, before the bot is pinged"""
PING_WAIT = 2.0
"""seconds a pinged bot has to answer"""
_EOF = object()


class Subprocess:
    """A bot run as a command, spoken to over the protocol."""

    def __init__(self, name: str, command: str, stderr_path: str | None = None, *,
                 handshake_time: float = HANDSHAKE_TIME, stall_after: float = STALL_AFTER,
                 ping_wait: float = PING_WAIT) -> None:
        self.name = name
        self.command = command
        self.stderr_path = stderr_path
        self.handshake_time = handshake_time
        self.stall_after = stall_after
        self.ping_wait = ping_wait
        self.process: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[object] = queue.Queue()
        self.next_id = 0
        self.bot_name: str | None = None

    # -- the process ---------------------------------------------------------------------------

    def _start(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise GinrefError(f"cmd:{self.command}: {exc}") from None
        stderr: Any = subprocess.DEVNULL
        if self.stderr_path is not None:
            os.makedirs(os.path.dirname(self.stderr_path) or ".", exist_ok=True)
            stderr = open(self.stderr_path, "ab")  # noqa: SIM115 - the child holds it
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=stderr, start_new_session=True)
        except OSError as exc:
            raise BotFailure("crash", f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        self.lines = queue.Queue()
        assert self.process.stdin is not None
        os.set_blocking(self.process.stdin.fileno(), False)
        threading.Thread(target=_read_lines, args=(self.process.stdout, self.lines), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION})
        line = self._next(self.handshake_time)
        if line is None:
            raise BotFailure("no_handshake", f"no answer to hello in {self.handshake_time:g}s")
        message = self._decoded(line)
        if message.get("type") != "ready":
            raise BotFailure("no_handshake", f"the answer to hello is not ready: {_shown(line)}")
        name = message.get("name")
        self.bot_name = name if isinstance(name, str) else None

    def _send(self, message: dict[str, object]) -> None:
        """Write one line to the bot. Its input is non-blocking, so that a bot that stops
        reading cannot hang the arena: a line it will not take within ``stall_after`` seconds
        is a stall."""
        process = self.process
        assert process is not None and process.stdin is not None
        data = memoryview(json_line(message).encode() + b"\n")
        fd = process.stdin.fileno()
        deadline = time.monotonic() + self.stall_after
        while data:
            try:
                written = os.write(fd, data)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    self._kill()
                    why = f"the bot has not read its input for {self.stall_after:g}s"
                    raise BotFailure("stall", why) from None
                continue
            except OSError:  # a broken pipe: the bot is gone
                raise self._crashed() from None
            data = data[written:]

    def _crashed(self) -> BotFailure:
        process = self.process
        code = None if process is None else process.poll()
        if process is not None and code is None:
            try:
                code = process.wait(1.0)
            except subprocess.TimeoutExpired:
                code = None
        why = f"the bot exited (code {code})" if code is not None else "the bot closed its output"
        return BotFailure("crash", why)

    def _next(self, timeout: float | None) -> bytes | None:
        """The bot's next line, None when none came in ``timeout`` seconds; a crash raised."""
        try:
            item = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is _EOF:
            raise self._crashed()
        if isinstance(item, tuple):
            raise BotFailure("line_too_long", f"a line over {MAX_LINE} bytes")
        assert isinstance(item, bytes)
        return item

    def _decoded(self, line: bytes) -> dict[str, Any]:
        try:
            message = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise BotFailure("bad_json", f"not JSON: {_shown(line)}") from None
        if not isinstance(message, dict):
            raise BotFailure("bad_json", f"not a JSON object: {_shown(line)}")
        return message

    # -- the player ----------------------------------------------------------------------------

    def new_game(self, players: tuple[str, str], seat: str, seed: int, rules: Rules) -> None:
        if self.process is None or self.process.poll() is not None:
            self._start()
        message: dict[str, object] = {"type": "new_game", "players": list(players), "seat": seat,
                                      "rules": rules.name, "seed": seed}
        if rules.overrides:  # the knobs changed, as ``ginref table``'s ``new`` takes them
            message["set"] = dict(rules.overrides)
        self._send(message)

    def act(self, view: View, legal: Sequence[Move], clock: Clock, refusal: str | None = None) -> Answer:
        self.next_id += 1
        ident = self.next_id
        self._send(act_message(ident, view, legal, clock, refusal))
        start = time.perf_counter()
        allowed = clock.allowed()
        while True:
            waited = time.perf_counter() - start
            limit = (allowed if allowed is not None else self.stall_after) - waited
            line = self._next(max(0.0, limit))
            if line is None:
                if allowed is not None:  # a late answer is skipped by its id
                    kind: FailureKind = "game_timeout" if clock.game_left is not None and (
                        clock.move is None or clock.game_left < clock.move) else "move_timeout"
                    raise BotFailure(kind, f"no move in {allowed:.3f}s")
                self._ping()
                continue
            message = self._decoded(line)
            answered = message.get("id")
            if message.get("type") == "pong" or (isinstance(answered, int) and 0 < answered < ident):
                continue  # a late answer to an earlier request, or a pong
            if answered != ident:
                raise BotFailure("wrong_id", f"answer id {_shown(json.dumps(answered).encode())}, "
                                 f"expected {ident}")
            move = message.get("move")
            if not isinstance(move, str):
                raise BotFailure("protocol", f"the answer has no move: {_shown(line)}")
            comment = message.get("comment")
            return Answer(move[:1000], time.perf_counter() - start,
                          comment[:200] if isinstance(comment, str) else None)

    def _ping(self) -> None:
        self.next_id += 1
        ident = self.next_id
        self._send({"type": "ping", "id": ident})
        deadline = time.perf_counter() + self.ping_wait
        while True:
            line = self._next(max(0.0, deadline - time.perf_counter()))
            if line is None:
                self._kill()
                raise BotFailure("stall", f"no answer to a ping in {self.ping_wait:g}s")
            message = self._decoded(line)
            if message.get("id") == ident:
                return

    def told(self, message: dict[str, object]) -> None:
        if self.process is not None and self.process.poll() is None:
            self._send(message)

    def _kill(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def close(self) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            try:
                self._send({"type": "quit"})
                process.wait(1.0)
            except (BotFailure, subprocess.TimeoutExpired):
                pass
        self._kill()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        self.process = None

    def restarted(self) -> Subprocess:
        """A fresh player for the same command (``--recover``); this one is closed."""
        self.close()
        return Subprocess(self.name, self.command, self.stderr_path, handshake_time=self.handshake_time,
                          stall_after=self.stall_after, ping_wait=self.ping_wait)


def act_message(ident: int, view: View, legal: Sequence[Move], clock: Clock,
                refusal: str | None = None) -> dict[str, object]:
    """The request to act: the seat's view as ``ginref table`` shows it, the legal moves'
    words, the clock, and the last refusal's seat wording when the move is asked again."""
    clock_doc = {"move": clock.move, "game_left": clock.game_left, "bank_left": clock.bank_left}
    return {"type": "act", "id": ident, "view": view_document(view), "legal": [str(m) for m in legal],
            "clock": clock_doc, "refusal": refusal}


def seen_move(move: Move) -> str:
    """A move as the other seat may see it: a knock's face-down discard is not named."""
    if move.kind == "knock":
        return str(Move.knock(None, move.melds, move.ending or "knock"))
    return str(move)


def _read_lines(stream: IO[bytes] | None, lines: queue.Queue[object]) -> None:
    """The bot's output as lines into ``lines``; an over-long line as a tuple; the end as _EOF."""
    if stream is None:
        lines.put(_EOF)
        return
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                lines.put(("too long",))
                while line and not line.endswith(b"\n"):
                    line = stream.readline(MAX_LINE)
                continue
            if line.strip():
                lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text[:60] + ("..." if len(text) > 60 else ""))


# -- the bot's side ------------------------------------------------------------------------------


def _mask(names: Sequence[str]) -> Mask:
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def _card(name: str | None) -> Card | None:
    return None if name is None else parse_card(name)


def view_of_document(doc: dict[str, Any]) -> View:
    """A ``view`` document back as the :class:`View` it was made from."""
    return View(
        player=doc["player"], phase=Phase(doc["phase"]), to_move=doc["to_move"],
        hand=CardSet(_mask(doc["hand"])),
        pile=tuple(parse_card(c) for c in doc["pile"]), opponent_took=CardSet(_mask(doc["opponent_took"])),
        opponent_cards=doc["opponent_cards"], stock=doc["stock"], upcard=_card(doc["upcard"]),
        taken=_card(doc["taken"]), unknown=doc["unknown"], knocker=doc["knocker"],
        melds=tuple(CardSet(_mask(m)) for m in doc["melds"]),
        layoffs=tuple((parse_card(x["card"]), int(x["onto"])) for x in doc["layoffs"]),
    )


def serve_bot(name: str, stdin: IO[bytes], stdout: IO[str]) -> int:
    """Play bundled bot ``name`` over the protocol on ``stdin`` and ``stdout`` until ``quit``
    or the end of input; the number of moves made."""
    if name not in BOTS:
        raise GinrefError(f"no bundled bot {name!r}; choose from: {', '.join(BOTS)}")
    rules: Rules = STANDARD
    bot = bundled_bot(name, rules, 0)
    moves = 0
    for line in stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        answer: dict[str, object] | None = None
        if kind == "hello":
            answer = {"type": "ready", "name": name, "protocol": PROTOCOL_VERSION, "options": {}}
        elif kind == "new_game":
            try:
                rules = find_rules(str(message.get("rules", "standard")))
                knobs = message.get("set")
                if isinstance(knobs, dict) and knobs:
                    rules = with_overrides(rules, knobs)
            except GinrefError:
                rules = STANDARD
            seed = message.get("seed")
            bot = bundled_bot(name, rules, seed if isinstance(seed, int) else 0)
        elif kind == "act":
            legal = [Move.parse(m) for m in message["legal"]]
            move = bot.act(view_of_document(message["view"]), legal)
            answer = {"id": message.get("id"), "move": str(move)}
            moves += 1
        elif kind == "ping":
            answer = {"id": message.get("id"), "type": "pong"}
        elif kind == "quit":
            break
        if answer is not None:
            stdout.write(json_line(answer) + "\n")
            stdout.flush()
    return moves
