"""The table over JSON Lines: one ginref process as the referee of a game server in any language.

``ginref table`` reads one JSON object per line on standard input and writes one answer
per line on standard output, flushed at once. :class:`Session` answers; :func:`serve` is
the loop. docs/live.md is the reference; in short, each request has an ``op``:

- ``new`` deals a hand (``players``, ``rules``, ``set``, ``dealer``, and the deal: ``seed``,
  or ``deck``, or ``hands`` with ``upcard`` and ``stock``; none: a seed the answer reports);
  ``next_hand`` deals the next hand of the game the same way; ``pop`` takes a move back.
  These three are the operator's.
- ``legal``, ``move`` (``move``: its ``.gin`` words), ``view`` and ``record`` are for anyone.

Roles. A request with no ``player`` is the operator's: it sees everything. A request that
names a seated ``player`` speaks for that seat, and every answer it gets, a refusal included,
holds only what that seat may know (:mod:`ginref.referee.seat` words its refusals). A request
that names anyone else is refused.

Every answer has ``ok``; a refusal has ``error`` (a word) and ``message``. Any ``id`` (any
JSON value) is echoed. The session goes on after any line: limits (line length, nesting,
names) are refused when the line arrives, and nothing in a request can stop the session but
the end of input. Blank lines are skipped, with no answer, as JSON Lines readers do.
"""

from __future__ import annotations

import difflib
import io
import secrets
from collections.abc import Callable, Mapping
from typing import IO, Any, cast

import msgspec

from ginref.cards import Card, CardSet, card_name, scan
from ginref.errors import GinrefError
from ginref.jsonwrite import json_line
from ginref.notation import excerpt
from ginref.referee.table import IllegalMove, Move, Table, View
from ginref.rules import RULE_NAMES, STANDARD, Rules, find_rules, with_overrides

__all__ = [
    "ERRORS", "FIELDS", "MAX_DEPTH", "MAX_LINE", "OPS", "Session", "ended_note", "serve", "view_document",
]

MAX_LINE = 65_536
"""Longest request line read, in bytes; a longer one is answered ``line_too_long`` and skipped."""
MAX_DEPTH = 16
"""Deepest nesting of arrays and objects a request may have (a deal's hands are 3 deep)."""
OPERATOR_OPS = ("new", "next_hand", "pop")
"""the requests only the operator (a request with no ``player``) may send"""
OPS = ("new", "next_hand", "legal", "move", "pop", "view", "record")
_DEAL = ("seed", "deck", "hands", "upcard", "stock")
FIELDS: dict[str, tuple[str, ...]] = {
    "new": ("players", "rules", "set", "dealer", *_DEAL),
    "next_hand": _DEAL,
    "legal": (),
    "move": ("move",),
    "pop": (),
    "view": ("seat",),
    "record": ("format",),
}
"""each request's own fields, besides ``op``, ``id`` and ``player``, which every request may carry"""
ERRORS = ("bad_json", "line_too_long", "too_deep", "not_an_object", "unknown_request", "bad_request",
          "not_seated", "operator_only", "no_table", "bad_move", "illegal_move", "hidden", "internal_error")
"""every ``error`` word a refusal may carry (docs/live.md says what each means)"""
_MAX_SEED = 2**63
_DECODER = msgspec.json.Decoder()

Answer = dict[str, object]


class _Refusal(Exception):
    """A request answered with an error; the session goes on."""

    def __init__(self, error: str, message: str, **more: object) -> None:
        super().__init__(message)
        self.answer: Answer = {"ok": False, "error": error, "message": message, **more}


class Session:
    """One table, driven by requests (see the module doc). :meth:`answer_line` takes a line
    and gives the answer line; :meth:`answer` works on decoded requests. ``rules`` are the
    rules of a ``new`` that names none (``ginref table --rules``)."""

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.rules = rules
        self.table: Table | None = None
        self.answered = 0

    def answer_line(self, line: bytes | str) -> str:
        """The answer to one request line, as one line of JSON (no newline)."""
        self.answered += 1
        try:
            request = _DECODER.decode(line)
        except RecursionError:
            return json_line(_Refusal("too_deep", f"a request nests at most {MAX_DEPTH} deep").answer)
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            return json_line(_Refusal("bad_json", f"not JSON: {str(exc)[:120]}").answer)
        try:
            return json_line(self.answer(request))
        except Exception as exc:
            return json_line(_Refusal("internal_error", f"internal error ({type(exc).__name__}); "
                                      "please report the request").answer)

    def answer(self, request: object) -> Answer:
        """The answer to one decoded request."""
        if _too_deep(request):
            return _Refusal("too_deep", f"a request nests at most {MAX_DEPTH} deep").answer
        try:
            if not isinstance(request, dict):
                raise _Refusal("not_an_object", "a request is a JSON object with an 'op'")
            answer = self._dispatch({k: v for k, v in request.items() if v is not None or k == "id"})
        except _Refusal as refusal:
            answer = refusal.answer
        return {**answer, "id": request["id"]} if isinstance(request, dict) and "id" in request else answer

    def _dispatch(self, request: dict[str, Any]) -> Answer:
        op = request.get("op")
        if op not in OPS:
            if op is None:
                raise _Refusal("unknown_request", f"a request needs an 'op': one of {', '.join(OPS)}")
            raise _Refusal("unknown_request", f"unknown op {excerpt(op, 40)}{_did_you_mean(op, OPS)}; "
                           f"choose from: {', '.join(OPS)}")
        _check_fields(op, request)
        player = _optional_text(request, "player")
        if player is not None and op in OPERATOR_OPS:
            raise _Refusal("operator_only", f"'{op}' is the operator's: send it with no 'player'")
        if op == "new":
            return self._new(request)
        table = self._table()
        if player is not None and player not in table.players:
            raise _Refusal("not_seated", f"{excerpt(player, 40)} is not seated at this table")
        return _HANDLERS[op](self, table, request, player)

    def _table(self) -> Table:
        if self.table is None:
            raise _Refusal("no_table", "no hand yet: send {\"op\": \"new\"} first")
        return self.table

    # -- the operator's requests ------------------------------------------------------------------

    def _new(self, request: dict[str, Any]) -> Answer:
        players = request.get("players", ["North", "South"])
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
            raise _Refusal("bad_request", "'players' is a list of two names")
        dealer = _optional_text(request, "dealer")
        rules = _rules(request, self.rules)
        deal, seed = _deal(request)
        self.table = _guarded(lambda: Table(tuple(players), rules, dealer, **deal))
        return {**self._state(self.table), **({"seed": seed} if seed is not None else {})}

    def _next_hand(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        deal, seed = _deal(request)
        _guarded(lambda: table.next_hand(**deal))
        return {**self._state(table), **({"seed": seed} if seed is not None else {})}

    def _pop(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        try:
            move = table.pop()
        except IndexError:
            raise _Refusal("bad_request", "no move to take back in this hand") from None
        return {**self._state(table), "move": str(move)}

    # -- anyone's requests -----------------------------------------------------------------------

    def _legal(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        if table.is_over():
            return {"ok": True, "moves": [], "why": "hand_over"}
        if player is not None and player != table.to_move:
            return {"ok": True, "moves": [], "why": "not_your_turn"}
        return {"ok": True, "moves": [str(m) for m in table.legal_moves()]}

    def _move(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        text = request.get("move")
        if not isinstance(text, str):
            raise _Refusal("bad_request", "'move' is the move in .gin words, e.g. \"discard 7H\"")
        mover = player if player is not None else table.to_move
        before = 0
        try:
            move = Move.parse(text)  # any case, as card names
            if move.kind in ("draw", "take") and mover is not None:
                before = table.view(mover).hand.mask  # to tell the mover the card it gets
            played = table.push_as_seat(move, player) if player is not None else table.push(move)
        except IllegalMove as exc:
            finding: Answer = {"code": exc.code, "rule": exc.rule, "place": exc.place}
            if player is None:
                finding["detail"] = exc.message  # the referee's own words: the operator sees all
            raise _Refusal("illegal_move", exc.seat_message, **finding) from None
        except GinrefError as exc:  # NotationError: words that are not a move
            raise _Refusal("bad_move", f"{str(exc)[:200]}; ask 'legal' for the moves you may make") from None
        answer: Answer = {**self._state(table), "move": str(played)}
        if played.kind in ("draw", "take") and mover is not None:
            drawn = table.view(mover).hand.mask & ~before
            if drawn:
                answer["card"] = card_name(next(scan(drawn)))  # the mover's own card to know
        return answer

    def _view(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        seat = _optional_text(request, "seat") or player
        if seat is None:
            raise _Refusal("bad_request", "'seat' names whose view it is")
        if player is not None and seat != player:
            raise _Refusal("hidden", f"{player} may not see another seat's view")
        return {"ok": True, "view": view_document(_guarded(lambda: table.view(seat)))}

    def _record(self, table: Table, request: dict[str, Any], player: str | None) -> Answer:
        if player is not None and not table.is_over():
            raise _Refusal("hidden", "the record shows both hands: a player gets it once the hand is over")
        form = request.get("format", "json")
        if form not in ("json", "gin"):
            raise _Refusal("bad_request", "'format' is 'json' or 'gin'")
        record = table.record()
        if form == "json":
            from ginref.records.jsonencode import to_json_dict

            return {"ok": True, "record": to_json_dict(record)}
        from ginref.records.io import write_records

        stream = io.StringIO()
        list(write_records([record], stream, "gin"))
        return {"ok": True, "record": stream.getvalue()}

    def _state(self, table: Table) -> Answer:
        answer: Answer = {"ok": True, "hand": table.hand_index + 1, "phase": str(table.phase),
                          "to_move": table.to_move, "dealer": table.dealer, "over": table.is_over()}
        outcome = table.outcome()
        if outcome is not None:
            answer["outcome"] = outcome.to_dict()
            game = table.game()
            answer["game"] = {"game_over": game.game_over, "winner": game.winner,
                              "hand_totals": dict(game.hand_totals), "final_totals": dict(game.final_totals)}
        return answer


Handler = Callable[[Session, Table, dict[str, Any], "str | None"], Answer]
_HANDLERS: dict[str, Handler] = {
    "next_hand": Session._next_hand, "legal": Session._legal, "move": Session._move, "pop": Session._pop,
    "view": Session._view, "record": Session._record,
}


def _too_deep(value: object) -> bool:
    """Whether ``value`` nests arrays and objects deeper than :data:`MAX_DEPTH` (walked
    without recursion, so any depth msgspec decodes is measured safely)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (list, dict)))
    return False


_OTHER_WORDS = {
    "deal": "new", "play": "move", "undo": "pop", "moves": "legal", "state": "view", "history": "record",
}
"""words other protocols use for a request, and ours"""


def _did_you_mean(word: object, choices: tuple[str, ...]) -> str:
    if not isinstance(word, str):
        return ""
    synonym = _OTHER_WORDS.get(word.lower())
    if synonym in choices:
        return f" (did you mean '{synonym}'?)"
    close = difflib.get_close_matches(word.lower()[:60], choices, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _check_fields(op: str, request: Mapping[str, object]) -> None:
    known = ("op", "id", "player", *FIELDS[op])
    for key in request:
        if key not in known:
            others = tuple(k for fields in FIELDS.values() for k in fields)
            hint = _did_you_mean(key, known) or _did_you_mean(key, ("op", "id", "player", *others))
            raise _Refusal("bad_request", f"unknown field {excerpt(key, 40)} for '{op}'{hint}; "
                           f"'{op}' takes: {', '.join(known)}")


def _optional_text(request: Mapping[str, Any], key: str) -> str | None:
    value = request.get(key)
    if value is not None and not (isinstance(value, str) and 0 < len(value) <= 100):
        raise _Refusal("bad_request", f"'{key}' is a name of 1 to 100 characters")
    return value


def _rules(request: Mapping[str, Any], default: Rules) -> Rules:
    """The rules a ``new`` asks for: a rule set's name (never a file) and knob overrides,
    else the session's."""
    name = request.get("rules")
    known = isinstance(name, str) and name.strip().lower().replace("-", "_") in RULE_NAMES
    if name is not None and not known:
        raise _Refusal("bad_request", f"'rules' is a rule set's name: {', '.join(RULE_NAMES)}")
    overrides = request.get("set", {})
    if not isinstance(overrides, dict):
        raise _Refusal("bad_request", "'set' is an object of knob: value")
    base = default if name is None else _guarded(lambda: find_rules(name))
    return cast(Rules, _guarded(lambda: with_overrides(base, overrides)) if overrides else base)


def _deal(request: Mapping[str, Any]) -> tuple[dict[str, Any], int | None]:
    """The deal's keyword arguments for :class:`Table` (cards as text or ints), and the seed
    it is shuffled with: the request's, or one chosen here when the request gives no deal, so
    that every hand can be dealt again."""
    deal = {key: request[key] for key in _DEAL if key in request}
    seed = deal.get("seed")
    whole = isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < _MAX_SEED
    if seed is not None and not whole:
        raise _Refusal("bad_request", "'seed' is a whole number from 0 to 2**63 - 1")
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
    if not deal:
        seed = deal["seed"] = secrets.randbelow(_MAX_SEED)
    return deal, seed


def _cards_value(value: object) -> bool:
    return isinstance(value, list) and len(value) <= 52 and all(
        (isinstance(c, str) and len(c) <= 3) or (type(c) is int and 0 <= c < 52) for c in value)


def _guarded(call: Callable[[], Any]) -> Any:
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


def serve(stdin: IO[bytes], stdout: IO[str], max_line: int = MAX_LINE, rules: Rules = STANDARD) -> Session:
    """Answer every request line of ``stdin`` on ``stdout`` until the end of input, and return
    the session (its :attr:`~Session.table`, and how many lines it answered). A line longer
    than ``max_line`` bytes is answered ``line_too_long`` and skipped; blank lines are skipped."""
    session = Session(rules)
    while True:
        line = stdin.readline(max_line + 1)
        if not line:
            return session
        if len(line) > max_line and not line.endswith(b"\n"):
            _skip_rest(stdin, max_line)
            session.answered += 1
            text = json_line(_Refusal("line_too_long", f"a request line is at most {max_line} bytes").answer)
        elif not line.strip():
            continue
        else:
            text = session.answer_line(line)
        stdout.write(text + "\n")
        stdout.flush()


def ended_note(session: Session) -> str | None:
    """What to tell the operator when the input ends with a hand still in play (else None):
    nothing is kept after the session, so the hand is left unfinished."""
    table = session.table
    if table is None or table.is_over():
        return None
    moves = len(table.moves)
    return (f"the input ended with hand {table.hand_index + 1} in play after {moves} "
            f"move{'s' if moves != 1 else ''}; it is left unfinished")


def _skip_rest(stdin: IO[bytes], chunk: int) -> None:
    while True:
        part = stdin.readline(chunk)
        if not part or part.endswith(b"\n"):
            return
