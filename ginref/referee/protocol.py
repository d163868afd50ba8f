"""The table over JSON Lines: one ginref process as the referee of a game server in any language.

``ginref table`` reads one JSON object per line on standard input and writes one answer
per line on standard output, flushed at once. :class:`Session` answers; :func:`serve` is
the loop. Requests (``op``), each may carry an ``id`` (a string or a number) that its
answer repeats:

- ``new``: deal a hand (``players``, ``rules`` a rule set's name, ``set`` knob overrides,
  ``dealer``, and the deal: ``seed``, or ``deck``, or ``hands`` with ``upcard`` and ``stock``);
  ``next_hand`` deals the next hand of the game the same way.
- ``legal``: the moves the player to move may make, as ``.gin`` words.
- ``move``: play ``move`` (its ``.gin`` words: ``draw``, ``discard 7H``, ``knock 2C [..]``).
  An illegal move is answered with its finding (``code``, ``rule``, ``place``), and the hand
  stays as it was. ``pop`` takes the last move back.
- ``view``: what ``player`` may know. ``record``: the game so far (``format`` ``json`` or ``gin``).

A request that names a ``player`` speaks for that seat, and its answer holds only what that
player may know: its own view, the legal moves when it is to move, the record only once the
hand is over. A request without ``player`` is the operator's.

Every answer has ``ok``. A refusal has ``error`` (a word) and ``message``: ``bad_json``,
``line_too_long`` (the line is skipped), ``not_an_object``, ``unknown_request``,
``bad_request`` (a missing or wrong field), ``no_table`` (before ``new``), ``bad_move``
(words that are not a move), ``illegal_move``, ``hidden`` (not this player's to know).
The session goes on after any of them; nothing in a request can stop it but the end of input.
"""

from __future__ import annotations

import io
from typing import IO, Any

import msgspec

from ginref.cards import Card, CardSet, card_name
from ginref.errors import GinrefError
from ginref.jsonwrite import json_line
from ginref.referee.table import IllegalMove, Table, View
from ginref.rules import RULE_NAMES, find_rules, with_overrides

__all__ = ["MAX_LINE", "OPS", "Session", "serve"]

MAX_LINE = 65_536
"""Longest request line read, in bytes; a longer one is answered ``line_too_long`` and skipped."""
OPS = ("new", "next_hand", "legal", "move", "pop", "view", "record")
_DEAL_KEYS = ("seed", "deck", "hands", "upcard", "stock")
_MAX_ID = 200
_DECODER = msgspec.json.Decoder()

Answer = dict[str, object]


class _Refusal(Exception):
    """A request answered with an error; the session goes on."""

    def __init__(self, error: str, message: str, **more: object) -> None:
        super().__init__(message)
        self.answer: Answer = {"ok": False, "error": error, "message": message, **more}


class Session:
    """One table, driven by requests (see the module doc). :meth:`answer_line` takes a line
    and gives the answer line; :meth:`answer` works on decoded requests."""

    def __init__(self) -> None:
        self.table: Table | None = None

    def answer_line(self, line: bytes | str) -> str:
        """The answer to one request line, as one line of JSON (no newline)."""
        try:
            request = _DECODER.decode(line)
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            return json_line(_Refusal("bad_json", f"not JSON: {str(exc)[:120]}").answer)
        return json_line(self.answer(request))

    def answer(self, request: object) -> Answer:
        """The answer to one decoded request."""
        ident = _ident(request)
        try:
            if not isinstance(request, dict):
                raise _Refusal("not_an_object", "a request is a JSON object with an 'op'")
            answer = self._dispatch(request)
        except _Refusal as refusal:
            answer = refusal.answer
        return {**answer, "id": ident} if ident is not None else answer

    def _dispatch(self, request: dict[str, Any]) -> Answer:
        op = request.get("op")
        if op not in OPS:
            shown = str(op)[:40]
            raise _Refusal("unknown_request", f"unknown op {shown!r}; choose from: {', '.join(OPS)}")
        player = _optional_text(request, "player")
        if op == "new":
            return self._new(request)
        table = self._table()
        if player is not None and player not in table.players:
            raise _Refusal("bad_request", f"player {player[:40]!r} is not one of {list(table.players)}")
        handler = _HANDLERS[op]
        return handler(self, table, request, player)

    def _table(self) -> Table:
        if self.table is None:
            raise _Refusal("no_table", "no hand yet: send {\"op\": \"new\"} first")
        return self.table

    # -- requests ---------------------------------------------------------------------------------

    def _new(self, request: dict[str, Any]) -> Answer:
        players = request.get("players", ["North", "South"])
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
            raise _Refusal("bad_request", "'players' is a list of two names")
        dealer = _optional_text(request, "dealer")
        rules = _rules(request)
        self.table = _guarded(lambda: Table(tuple(players), rules, dealer, **_deal(request)))
        return self._state(self.table)

    def _next_hand(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        _guarded(lambda: table.next_hand(**_deal(request)))
        return self._state(table)

    def _legal(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        if player is not None and player != table.to_move:
            return {"ok": True, "moves": []}
        return {"ok": True, "moves": [str(m) for m in table.legal_moves()]}

    def _move(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        text = request.get("move")
        if not isinstance(text, str) or len(text) > 400:
            raise _Refusal("bad_request", "'move' is the move in .gin words, e.g. \"discard 7H\"")
        try:
            move = table.push(text, player)
        except IllegalMove as exc:
            finding = {"code": exc.code, "rule": exc.rule, "place": exc.place}
            raise _Refusal("illegal_move", exc.message, **finding) from None
        except GinrefError as exc:  # NotationError: words that are not a move
            raise _Refusal("bad_move", str(exc)[:200]) from None
        played = str(move) if player is not None or move.kind not in ("draw", "take") else move.kind
        return {**self._state(table), "move": played}

    def _pop(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        if player is not None:
            raise _Refusal("hidden", "only the operator takes moves back (a request with no 'player')")
        try:
            move = table.pop()
        except IndexError:
            raise _Refusal("bad_request", "no move to take back in this hand") from None
        return {**self._state(table), "move": str(move)}

    def _view(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        seat = _optional_text(request, "seat") or player
        if seat is None:
            raise _Refusal("bad_request", "'player' names whose view it is")
        if player is not None and seat != player:
            raise _Refusal("hidden", f"{player} may not see {seat[:40]}'s view")
        return {"ok": True, "view": view_document(_guarded(lambda: table.view(seat)))}

    def _record(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        if player is not None and not table.is_over():
            raise _Refusal("hidden", "the record shows both hands: a player gets it once the hand is over")
        form = request.get("format", "json")
        if form not in ("json", "gin"):
            raise _Refusal("bad_request", "'format' is 'json' or 'gin'")
        record = table.record()
        if form == "json":
            from ginref.records.jsonform import to_json_dict

            return {"ok": True, "record": to_json_dict(record)}
        from ginref.records.io import write_records

        stream = io.StringIO()
        list(write_records([record], stream, "gin"))
        return {"ok": True, "record": stream.getvalue()}

    def _state(self, table: Table) -> Answer:
        answer: Answer = {"ok": True, "phase": str(table.phase), "to_move": table.to_move,
                          "dealer": table.dealer, "over": table.is_over()}
        outcome = table.outcome()
        if outcome is not None:
            answer["outcome"] = outcome.to_dict()
        return answer


_HANDLERS = {
    "next_hand": Session._next_hand, "legal": Session._legal, "move": Session._move, "pop": Session._pop,
    "view": Session._view, "record": Session._record,
}


def _ident(request: object) -> object:
    """The request's ``id`` when it is a short string or a number (else none is echoed)."""
    if not isinstance(request, dict):
        return None
    ident = request.get("id")
    if isinstance(ident, bool) or not isinstance(ident, (str, int, float)):
        return None
    return ident if not isinstance(ident, str) or len(ident) <= _MAX_ID else None


def _optional_text(request: dict[str, Any], key: str) -> str | None:
    value = request.get(key)
    if value is not None and not (isinstance(value, str) and 0 < len(value) <= 100):
        raise _Refusal("bad_request", f"'{key}' is a name")
    return value


def _rules(request: dict[str, Any]) -> Any:
    """The rules a ``new`` asks for: a rule set's name (never a file) and knob overrides."""
    name = request.get("rules", "standard")
    if not isinstance(name, str) or name.strip().lower().replace("-", "_") not in RULE_NAMES:
        raise _Refusal("bad_request", f"'rules' is a rule set's name: {', '.join(RULE_NAMES)}")
    overrides = request.get("set", {})
    if not isinstance(overrides, dict):
        raise _Refusal("bad_request", "'set' is an object of knob: value")
    return _guarded(lambda: with_overrides(find_rules(name), overrides))


def _deal(request: dict[str, Any]) -> dict[str, Any]:
    """The deal's keyword arguments for :class:`Table`: cards as text or ints."""
    deal = {key: request[key] for key in _DEAL_KEYS if key in request}
    seed = deal.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise _Refusal("bad_request", "'seed' is a whole number from 0")
    for key in ("deck", "stock"):
        if key in deal and not _cards_value(deal[key]):
            raise _Refusal("bad_request", f"'{key}' is a list of cards")
    hands = deal.get("hands")
    if hands is not None:
        parts = hands.values() if isinstance(hands, dict) else hands if isinstance(hands, list) else None
        if parts is None or not all(_cards_value(p) for p in parts):
            raise _Refusal("bad_request", "'hands' maps each player to a list of cards")
    upcard = deal.get("upcard")
    if upcard is not None and not _cards_value([upcard]):
        raise _Refusal("bad_request", "'upcard' is a card")
    return deal


def _cards_value(value: object) -> bool:
    return isinstance(value, list) and len(value) <= 52 and all(
        (isinstance(c, str) and len(c) <= 3) or (type(c) is int and 0 <= c < 52) for c in value)


def _guarded(call: Any) -> Any:
    """``call()``; a ``GinrefError`` it raises is a ``bad_request`` refusal."""
    try:
        return call()
    except GinrefError as exc:
        raise _Refusal("bad_request", str(exc)[:200]) from None


def _names(cards: CardSet) -> list[str]:
    return [card_name(c) for c in cards]


def _card(c: Card | None) -> str | None:
    return None if c is None else card_name(c)


def view_document(view: View) -> dict[str, object]:
    """A :class:`View` as JSON: cards as ``"7H"``, card sets as lists in card order."""
    return {
        "player": view.player, "phase": str(view.phase), "to_move": view.to_move,
        "hand": _names(view.hand), "pile": [card_name(c) for c in view.pile], "upcard": _card(view.upcard),
        "taken": _card(view.taken), "opponent_took": _names(view.opponent_took),
        "opponent_cards": view.opponent_cards, "stock": view.stock, "unknown": view.unknown,
        "knocker": view.knocker, "melds": [_names(m) for m in view.melds],
        "layoffs": [{"card": card_name(c), "onto": i} for c, i in view.layoffs],
    }


def serve(stdin: IO[bytes], stdout: IO[str], max_line: int = MAX_LINE) -> int:
    """Answer every request line of ``stdin`` on ``stdout`` until the end of input; returns
    how many lines were answered. A line longer than ``max_line`` bytes is answered
    ``line_too_long`` and skipped; blank lines are ignored."""
    session = Session()
    answered = 0
    while True:
        line = stdin.readline(max_line + 1)
        if not line:
            return answered
        if len(line) > max_line and not line.endswith(b"\n"):
            _skip_rest(stdin, max_line)
            text = json_line(_Refusal("line_too_long", f"a request line is at most {max_line} bytes").answer)
        elif not line.strip():
            continue
        else:
            text = session.answer_line(line)
        stdout.write(text + "\n")
        stdout.flush()
        answered += 1


def _skip_rest(stdin: IO[bytes], chunk: int) -> None:
    while True:
        part = stdin.readline(chunk)
        if not part or part.endswith(b"\n"):
            return

