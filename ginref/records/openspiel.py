"""OpenSpiel's gin_rummy games as records, and records as OpenSpiel action histories.

No ``pyspiel`` is needed: an action history is plain data. :func:`decode_history`
follows OpenSpiel's state machine (``open_spiel/games/gin_rummy.cc``) only far enough to
know what each action id means, and writes the game as a :class:`GameRecord` under
the ``openspiel`` rules; the referee then checks every move. The claimed result is
OpenSpiel's returns as reconstructed from the history (its own arithmetic on the
declared melds, not ginref's meld search). :func:`encode_history` goes back.

Action ids: 0-51 cards (``suit * 13 + rank``, OpenSpiel's suits s c d h), 52 draw the
upcard, 53 draw from the stock, 54 pass, 55 knock, 56-240 the 185 melds of
:data:`MELDS`. Chance outcomes are cards: the 21 dealt (10 to player 0, 10 to player
1, the upcard), then each stock card as it is drawn. Player 0 moves first; player 1
deals. Player names are ``P0`` and ``P1`` unless given.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

import msgspec

from ginref.cards import Card, Mask, card_name, mask_of, mask_points, scan
from ginref.errors import RecordError
from ginref.files import lone_surrogate, surrogate_problem
from ginref.notation import excerpt
from ginref.records.form import Format, Unit
from ginref.records.model import (
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Source,
    Turn,
)
from ginref.records.openspiel_actions import (
    CHANCE,
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELD_IDS,
    MELDS,
    PASS,
    PHASE_DEAL,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_FIRST_UPCARD,
    PHASE_KNOCK,
    PHASE_LAYOFF,
    PHASE_OVER,
    PHASE_WALL,
    PHASE_WORDS,
    PLAYERS,
    action_name,
    assign_layoffs,
    card_from_openspiel,
    card_to_openspiel,
)

__all__ = [
    "DRAW_STOCK",
    "DRAW_UPCARD",
    "HISTORY_FORMAT",
    "KNOCK",
    "MELDS",
    "MELD_BASE",
    "PASS",
    "PLAYERS",
    "SERIALIZED_HEADER",
    "STATE_FORMAT",
    "GameParams",
    "History",
    "InexpressibleError",
    "card_from_openspiel",
    "card_to_openspiel",
    "decode_history",
    "encode_history",
    "encode_pairs",
    "format_history",
    "params_for",
    "parse_game_string",
    "parse_history_line",
    "parse_serialized",
]

HAND_SIZE = 10
WALL_STOCK = 2
MAX_DRAW_UPCARD = 50
MAX_ACTIONS = 10_000
"""Longest history read: a hand ends well within 1,000 actions (50 upcard draws, 31 stock cards)."""


# -- game parameters ----------------------------------------------------------------------------


class GameParams(msgspec.Struct, frozen=True):
    """OpenSpiel's gin_rummy parameters (its defaults)."""

    knock_card: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    oklahoma: bool = False
    hand_size: int = 10
    num_ranks: int = 13
    num_suits: int = 4

    def game_string(self) -> str:
        """The parameters in OpenSpiel's own form, all of them, as ``SerializeGameAndState`` writes."""
        values = {"gin_bonus": self.gin_bonus, "hand_size": self.hand_size, "knock_card": self.knock_card,
                  "num_ranks": self.num_ranks, "num_suits": self.num_suits, "oklahoma": self.oklahoma,
                  "undercut_bonus": self.undercut_bonus}
        return "gin_rummy(" + ",".join(f"{k}={v}" for k, v in values.items()) + ")"

    def short_game_string(self) -> str:
        """Only the parameters that differ from OpenSpiel's defaults (``gin_rummy(oklahoma=True)``):
        what ``--game`` needs to read histories of this game."""
        default = GameParams()
        changed = [f"{name}={getattr(self, name)}" for name in self.__struct_fields__
                   if getattr(self, name) != getattr(default, name)]
        return "gin_rummy(" + ",".join(changed) + ")"

    def problem(self) -> str | None:
        """Why ginref cannot play these parameters, or None."""
        if (self.hand_size, self.num_ranks, self.num_suits) != (HAND_SIZE, 13, 4):
            return (f"ginref plays 10-card hands from 52 cards; the game has hand_size={self.hand_size}, "
                    f"num_ranks={self.num_ranks}, num_suits={self.num_suits}")
        if self.oklahoma and self.knock_card != 10:
            return "under oklahoma openspiel ignores knock_card; ginref would cap the limit by it"
        if not 0 <= self.knock_card <= 10:
            return f"knock_card={self.knock_card} is outside 0..10"
        return None

    def overrides(self) -> tuple[tuple[str, str], ...]:
        """The rule overrides on the ``openspiel`` preset that play these parameters."""
        knobs = (
            ("gin_bonus", self.gin_bonus, 25),
            ("knock_limit", self.knock_card, 10),
            ("oklahoma", "gin_only" if self.oklahoma else "off", "off"),
            ("undercut_bonus", self.undercut_bonus, 25),
        )
        return tuple((knob, str(value)) for knob, value, default in knobs if value != default)


_GAME_RE = re.compile(r"\s*(gin_rummy(?:_proxy)?)\s*(?:\((.*)\))?\s*")
_PARAM_RE = re.compile(r"\s*([a-z_]{1,20})\s*=\s*(-?[0-9]{1,6}|true|false|True|False)\s*")
_INT_PARAMS = ("knock_card", "gin_bonus", "undercut_bonus", "hand_size", "num_ranks", "num_suits")


def parse_game_string(text: str, source: str = "", line: int = 0) -> GameParams:
    """``gin_rummy(knock_card=9,oklahoma=True)`` (or ``gin_rummy_proxy(...)``) as parameters."""
    match = _GAME_RE.fullmatch(text)
    if match is None:
        raise RecordError(f"not an openspiel gin_rummy game string: {_quote(text)}", source, line, 1)
    values: dict[str, int | bool] = {}
    for part in (match[2] or "").split(",") if (match[2] or "").strip() else []:
        item = _PARAM_RE.fullmatch(part)
        if item is None:
            raise RecordError(f"bad game parameter {_quote(part)} in {_quote(text)}", source, line, 1)
        name, value = item[1], item[2]
        if name == "oklahoma" and value.lower() in ("true", "false"):
            values[name] = value.lower() == "true"
        elif name in _INT_PARAMS and value.lower() not in ("true", "false"):
            values[name] = int(value)
        else:
            raise RecordError(f"unknown gin_rummy parameter {_quote(part)}", source, line, 1)
    params = GameParams(**values)  # type: ignore[arg-type]
    problem = params.problem()
    if problem is not None:
        raise RecordError(f"the game {_quote(text)} cannot be refereed: {problem}", source, line, 1)
    return params


def _quote(text: str) -> str:
    shown = text if len(text) <= 80 else text[:77] + "..."
    return repr(shown)


# -- reading histories ----------------------------------------------------------------------------


class History(msgspec.Struct, frozen=True):
    """An action history as read: the ids, who took each (-1 chance) when known, and places."""

    actions: tuple[int, ...]
    players: tuple[int, ...] | None
    places: tuple[Place, ...]


_JSON_HISTORY_RE = re.compile(r"\s*\[\s*(?:-?[0-9]+\s*(?:,\s*-?[0-9]+\s*)*)?\]\s*")
_NUMBER_RE = re.compile(r"-?[0-9]+")
_PAIR_RE = re.compile(r"\s*(-?[0-9]{1,2})\s*:\s*([0-9]{1,3})\s*")
_ACTION_RE = re.compile(r"[0-9]{1,4}")
"""action ids are ASCII digits (``int()`` and ``str.isdigit`` take other scripts' digits too)"""


def parse_history_line(text: str, source: str = "", line: int = 1) -> History:
    """One history line: a JSON array of ints, or OpenSpiel's ``history=p:a,p:a,...``."""
    stripped = text.strip()
    if stripped.startswith("history="):
        return _pairs(text, text.index("history=") + len("history="), source, line)
    if _JSON_HISTORY_RE.fullmatch(text) is None:
        column = len(text) - len(text.lstrip()) + 1
        raise RecordError(f"an openspiel history is a JSON array of action ids or 'history=...': "
                          f"{_quote(stripped)}", source, line, column)
    actions: list[int] = []
    places: list[Place] = []
    for match in _NUMBER_RE.finditer(text):
        actions.append(_action(match[0], source, line, match.start() + 1))
        places.append(Place(line, match.start() + 1))
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"a history longer than {MAX_ACTIONS} actions", source, line, match.start() + 1)
    return History(tuple(actions), None, tuple(places))


def _action(word: str, source: str, line: int, column: int) -> int:
    if len(word) > 4 or not 0 <= int(word) < MELD_BASE + len(MELDS):
        top = MELD_BASE + len(MELDS) - 1
        message = f"action id {_quote(word)} is not one of openspiel's 0..{top}"
        raise RecordError(message, source, line, column)
    return int(word)


def _pairs(text: str, start: int, source: str, line: int) -> History:
    actions: list[int] = []
    players: list[int] = []
    places: list[Place] = []
    at = start
    for part in text[start:].split(","):
        column = at + 1
        at += len(part) + 1
        if not part.strip() and not actions:
            continue
        match = _PAIR_RE.fullmatch(part)
        if match is None or int(match[1]) not in (CHANCE, 0, 1):
            raise RecordError(f"expected player:action (player -1, 0 or 1), found {_quote(part.strip())}",
                              source, line, column)
        players.append(int(match[1]))
        actions.append(_action(match[2], source, line, column))
        places.append(Place(line, column))
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"a history longer than {MAX_ACTIONS} actions", source, line, column)
    return History(tuple(actions), tuple(players), tuple(places))


SERIALIZED_HEADER = "# Automatically generated by OpenSpiel SerializeGameAndState"


def parse_serialized(text: str, source: str = "", first_line: int = 1) -> tuple[GameParams, History]:
    """OpenSpiel's ``SerializeGameAndState`` text: the ``[Game]`` line and the ``[State]``
    actions (one per line, or a ``history=`` line as Kaggle's proxies write)."""
    section = ""
    params: GameParams | None = None
    actions: list[int] = []
    places: list[Place] = []
    for offset, raw in enumerate(text.split("\n")):
        number, line = first_line + offset, raw.strip()
        if not line or line.startswith("#"):
            continue
        if line in ("[Meta]", "[Game]", "[State]"):
            section = line
        elif section == "[Game]" and params is None:
            params = parse_game_string(line, source, number)
        elif section == "[State]" and line.startswith("history="):
            history = parse_history_line(raw, source, number)
            return _need_game(params, source, first_line), history
        elif section == "[State]" and "=" not in line:
            if not _ACTION_RE.fullmatch(line):
                raise RecordError(f"expected an action id, found {_quote(line)}", source, number, 1)
            actions.append(_action(line, source, number, 1))
            places.append(Place(number, 1))
        elif section not in ("[Meta]", "[State]"):
            raise RecordError(f"unexpected line {_quote(line)} in openspiel's serialised game",
                              source, number, 1)
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"a history longer than {MAX_ACTIONS} actions", source, number, 1)
    return _need_game(params, source, first_line), History(tuple(actions), None, tuple(places))


def _need_game(params: GameParams | None, source: str, line: int) -> GameParams:
    if params is None:
        raise RecordError("openspiel's serialised game has no [Game] line", source, line, 1)
    return params


# -- the state machine ------------------------------------------------------------------------




class _Draft(msgspec.Struct):
    """A turn being built: the draw, then a discard, or a knock's discard and melds."""

    player: int
    source: Source
    card: Card | None
    place: Place
    discard: Card | None = None
    melds: list[Mask] = msgspec.field(default_factory=list)


class _Game(msgspec.Struct):
    """What OpenSpiel's state holds that decides what the next action means."""

    params: GameParams
    names: tuple[str, str]
    phase: int = PHASE_DEAL
    player: int = 0
    deal: tuple[list[Card], list[Card]] = msgspec.field(default_factory=lambda: ([], []))
    hands: list[Mask] = msgspec.field(default_factory=lambda: [0, 0])
    upcard: Card | None = None
    prev_upcard: Card | None = None
    first_upcard: Card | None = None
    drawn: list[Card] = msgspec.field(default_factory=list)
    stock_size: int = 52
    passed: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    upcard_draws: int = 0
    repeated: bool = False
    knocker: int = -1
    finished_layoffs: bool = False
    events: list[Event] = msgspec.field(default_factory=list)
    turn: _Draft | None = None
    """the turn being built"""
    layoffs: list[Card] = msgspec.field(default_factory=list)
    defender_melds: list[Mask] = msgspec.field(default_factory=list)
    defence_place: Place | None = None


def decode_history(
    history: History,
    params: GameParams | None = None,
    *,
    names: tuple[str, str] = PLAYERS,
    source: str = "",
    index: int = 0,
    tags: tuple[tuple[str, str], ...] = (),
    result: ClaimedResult | None = None,
) -> GameRecord:
    """The record of one OpenSpiel hand; ``result`` replaces the claim reconstructed from the
    history (a forfeit's ``unfinished`` claim). Raises :class:`RecordError` for a history
    that is not one of gin_rummy's."""
    params = params or GameParams()
    problem = params.problem()
    if problem is not None:
        raise RecordError(f"the game cannot be refereed: {problem}", source, _line(history))
    for text in (*names, *(part for tag in tags for part in tag)):
        if (at := lone_surrogate(text)) >= 0:
            raise RecordError(f"{excerpt(text, 40)}: {surrogate_problem(text, at)}", source, _line(history))
    game = _Game(params, names)
    for i, action in enumerate(history.actions):
        place = history.places[i] if i < len(history.places) else Place()
        if game.phase == PHASE_OVER:
            raise RecordError(f"action {action} comes after the end of the game",
                              source, place.line, place.column)
        _check_player(game, history, i, source, place)
        _apply(game, action, place, source)
    return _record(game, history, source, index, tags, result)


def _line(history: History) -> int:
    return history.places[0].line if history.places else 0


def _is_chance(game: _Game) -> bool:
    return game.phase == PHASE_DEAL


def _check_player(game: _Game, history: History, i: int, source: str, place: Place) -> None:
    if history.players is None:
        return
    want = CHANCE if _is_chance(game) else game.player
    if history.players[i] != want:
        who = "chance" if want == CHANCE else f"player {want}"
        raise RecordError(f"action {history.actions[i]} is marked as player {history.players[i]}'s; "
                          f"in the {PHASE_WORDS[game.phase]} phase it is {who}'s",
                          source, place.line, place.column)


def _fail(game: _Game, action: int, source: str, place: Place) -> RecordError:
    return RecordError(f"action {action} ({action_name(action)}) cannot come in openspiel's "
                       f"{PHASE_WORDS[game.phase]} phase", source, place.line, place.column)


def _apply(game: _Game, action: int, place: Place, source: str) -> None:
    step = _STEPS[game.phase]
    if not step(game, action, place):
        raise _fail(game, action, source, place)


def _deal(game: _Game, action: int, place: Place) -> bool:
    if action >= 52:
        return False
    c = card_from_openspiel(action)
    game.stock_size -= 1
    if len(game.deal[0]) < HAND_SIZE or len(game.deal[1]) < HAND_SIZE:
        p = 0 if len(game.deal[0]) < HAND_SIZE else 1
        game.deal[p].append(c)
        game.hands[p] |= 1 << c
    elif game.first_upcard is None:
        game.upcard = game.first_upcard = c
        game.phase, game.player = PHASE_FIRST_UPCARD, 0
    else:
        game.drawn.append(c)
        game.hands[game.player] |= 1 << c
        if game.turn is not None:
            game.turn.card = c
        game.phase = PHASE_DISCARD
    return True


def _first_upcard(game: _Game, action: int, place: Place) -> bool:
    if action == PASS and not all(game.passed):
        game.passed[game.player] = True
        game.events.append(Pass(game.names[game.player], place))
        game.player = 1 - game.player
        return True
    if action == DRAW_STOCK and all(game.passed):
        return _draw_stock(game, place)
    if action == DRAW_UPCARD and game.upcard is not None:
        _take_upcard(game, place)
        return True
    return False


def _draw(game: _Game, action: int, place: Place) -> bool:
    if action == DRAW_STOCK:
        return _draw_stock(game, place)
    if action == DRAW_UPCARD and game.upcard is not None:
        game.upcard_draws += 1
        if game.upcard_draws == MAX_DRAW_UPCARD:
            game.events.append(Turn(game.names[game.player], "discard", game.upcard, place=place))
            game.phase = PHASE_OVER
            return True
        _take_upcard(game, place)
        return True
    return False


def _start_turn(game: _Game, source: Source, card: Card | None, place: Place) -> None:
    game.turn = _Draft(game.player, source, card, place)


def _take_upcard(game: _Game, place: Place) -> None:
    assert game.upcard is not None
    game.prev_upcard = game.upcard
    game.hands[game.player] |= 1 << game.upcard
    _start_turn(game, "discard", game.upcard, place)
    game.upcard = None
    game.phase = PHASE_DISCARD


def _draw_stock(game: _Game, place: Place) -> bool:
    game.prev_upcard, game.upcard = game.upcard, None
    _start_turn(game, "stock", None, place)
    game.phase = PHASE_DEAL
    return True


def _discard(game: _Game, action: int, place: Place) -> bool:
    if action == KNOCK:
        game.knocker, game.phase = game.player, PHASE_KNOCK
        return True
    if action >= 52 or game.turn is None:
        return False
    c = card_from_openspiel(action)
    game.hands[game.player] &= ~(1 << c)
    turn = game.turn
    game.events.append(Turn(game.names[game.player], turn.source, turn.card, c, place=turn.place))
    game.turn, game.upcard = None, c
    game.player = 1 - game.player
    if c == game.prev_upcard:
        if game.repeated:
            game.phase = PHASE_OVER
            return True
        game.repeated = True
    else:
        game.repeated = False
    game.phase = PHASE_WALL if game.stock_size == WALL_STOCK else PHASE_DRAW
    return True


def _wall(game: _Game, action: int, place: Place) -> bool:
    if action == PASS:
        game.events.append(Pass(game.names[game.player], place))
        game.phase = PHASE_OVER
        return True
    if action == KNOCK and game.upcard is not None:
        game.hands[game.player] |= 1 << game.upcard
        _start_turn(game, "discard", game.upcard, place)
        game.upcard, game.knocker, game.phase = None, game.player, PHASE_KNOCK
        return True
    return False


def _knock(game: _Game, action: int, place: Place) -> bool:
    turn = game.turn
    if turn is None:
        return False
    p = game.player
    if turn.discard is None:
        if action >= 52:
            return False
        c = card_from_openspiel(action)
        game.hands[p] &= ~(1 << c)
        turn.discard = c
    elif action >= MELD_BASE:
        meld = MELDS[action - MELD_BASE]
        turn.melds.append(meld)
        game.hands[p] &= ~meld
    elif action == PASS:
        game.events.append(_knock_turn(game))
        game.finished_layoffs = mask_points(game.hands[p]) == 0
        game.player, game.phase, game.turn = 1 - p, PHASE_LAYOFF, None
    else:
        return False
    return True


def _knock_turn(game: _Game) -> Turn:
    turn = game.turn
    assert turn is not None
    dw = mask_points(game.hands[game.player])
    knock = Knock("gin" if dw == 0 else "knock", turn.discard, tuple(turn.melds), dw, place=turn.place)
    return Turn(game.names[game.player], turn.source, turn.card, knock=knock, place=turn.place)


def _layoff(game: _Game, action: int, place: Place) -> bool:
    p = game.player
    if game.defence_place is None:
        game.defence_place = place
    if action == PASS:
        if game.finished_layoffs:
            game.phase = PHASE_OVER
        game.finished_layoffs = True
        return True
    if action < 52 and not game.finished_layoffs:
        c = card_from_openspiel(action)
        game.layoffs.append(c)
        game.hands[p] &= ~(1 << c)
        return True
    if action >= MELD_BASE and game.finished_layoffs:
        meld = MELDS[action - MELD_BASE]
        game.defender_melds.append(meld)
        game.hands[p] &= ~meld
        return True
    return False


_STEPS = (_deal, _first_upcard, _draw, _discard, _knock, _layoff, _wall)


# -- the record ---------------------------------------------------------------------------------


def _record(
    game: _Game, history: History, source: str, index: int, tags: tuple[tuple[str, str], ...],
    result: ClaimedResult | None,
) -> GameRecord:
    if len(game.deal[1]) < HAND_SIZE or game.first_upcard is None:
        raise RecordError(f"the history ends in the deal, after {len(history.actions)} of its 21 cards",
                          source, _line(history))
    events = list(game.events)
    if game.turn is not None:
        events.append(_open_turn(game))
    if game.knocker >= 0 and game.phase in (PHASE_LAYOFF, PHASE_OVER):
        events.append(_defence(game))
    if result is None and game.phase == PHASE_OVER:
        result = _returns_claim(game)
    dealt = mask_of(game.deal[0]) | mask_of(game.deal[1]) | 1 << game.first_upcard | mask_of(game.drawn)
    stock = (*game.drawn, *(c for c in range(52) if not dealt >> c & 1))
    score = None
    if result is not None and result.outcome not in ("unfinished", "win", "draw"):
        score = tuple((n, result.points if n == result.winner else 0) for n in game.names)
    deal = tuple((name, tuple(cards)) for name, cards in zip(game.names, game.deal, strict=True))
    hand = HandRecord(
        dealer=game.names[1], deal=deal,
        upcard=game.first_upcard, events=tuple(events), stock=stock, result=result, score_after=score,
        number=1, place=Place(_line(history)),
    )
    return GameRecord(players=game.names, hands=(hand,), rules="openspiel", overrides=game.params.overrides(),
                      tags=tags, source=source, index=index, place=Place(_line(history)))


def _open_turn(game: _Game) -> Turn:
    """The turn the history stops in: a draw with no discard yet, or a knock being laid."""
    turn = game.turn
    assert turn is not None
    if game.phase == PHASE_KNOCK and turn.discard is not None:
        return _knock_turn(game)
    return Turn(game.names[turn.player], turn.source, turn.card, place=turn.place)


def _defence(game: _Game) -> Defence:
    knock = next(e.knock for e in reversed(game.events) if isinstance(e, Turn) and e.knock is not None)
    assert knock is not None
    onto = assign_layoffs(knock.melds, game.layoffs)
    if onto is None:
        names = " ".join(card_name(c) for c in game.layoffs)
        raise RecordError(f"the layoffs {names} do not all fit the knocker's melds",
                          "", (game.defence_place or Place()).line, (game.defence_place or Place()).column)
    dw = mask_points(game.hands[1 - game.knocker])
    layoffs = tuple(zip(game.layoffs, onto, strict=True))
    return Defence(game.names[1 - game.knocker], tuple(game.defender_melds), layoffs, dw,
                   place=game.defence_place or Place())


def _returns_claim(game: _Game) -> ClaimedResult:
    """OpenSpiel's ``Returns()``: the knocker gains the deadwood difference, plus the gin
    bonus; below zero, minus the undercut bonus. Nobody knocked: 0-0."""
    k = game.knocker
    if k < 0:
        return ClaimedResult("void")
    mine, theirs = mask_points(game.hands[k]), mask_points(game.hands[1 - k])
    gain = theirs - mine + (game.params.gin_bonus if mine == 0 else 0)
    if gain < 0:
        gain -= game.params.undercut_bonus
    if gain == 0:
        return ClaimedResult("tie")
    if gain > 0:
        return ClaimedResult("gin" if mine == 0 else "knock", game.names[k], gain)
    return ClaimedResult("undercut", game.names[1 - k], -gain)


# -- layoffs -----------------------------------------------------------------------------------


# -- writing ------------------------------------------------------------------------------------


class InexpressibleError(RecordError):
    """A record read well that OpenSpiel cannot express (other rules, several hands, unseen
    cards, an eleven-card deal, big gin): the request cannot be done, not the reading."""


def encode_history(record: GameRecord) -> list[int]:
    """The action history OpenSpiel replays to this hand (see :func:`encode_pairs`)."""
    return _encode(record).actions


def encode_pairs(record: GameRecord) -> str:
    """The history in OpenSpiel's ``history=player:action,...`` form (-1: chance)."""
    writer = _encode(record)
    return "history=" + ",".join(f"{p}:{a}" for p, a in zip(writer.movers, writer.actions, strict=True))


def _encode(record: GameRecord) -> _Writer:
    """The action history OpenSpiel replays to this hand (chance outcomes included).

    Raises :class:`InexpressibleError` for a record OpenSpiel cannot express: not one hand of
    rules that OpenSpiel's parameters can play (``openspiel``, with other ``knock_limit``,
    ``gin_bonus``, ``undercut_bonus`` or ``oklahoma = gin_only``), unseen cards, an
    eleven-card deal, big gin, a meld OpenSpiel has no id for. A knock with no recorded
    defence gets the defender's best one, as the referee scores it.
    """
    params = params_for(record)
    if len(record.hands) != 1:
        raise _cannot(record, f"an openspiel history is one hand; the record has {len(record.hands)}")
    hand = record.hands[0]
    if hand.dealer not in record.players:
        raise _cannot(record, "the dealer is not one of the players")
    seats = (record.players[1 - record.players.index(hand.dealer)], hand.dealer)
    writer = _Writer(record, params, seats)
    writer.deal(hand)
    for event in hand.events:
        writer.event(event)
    writer.finish()
    return writer


def _cannot(record: GameRecord, message: str) -> InexpressibleError:
    return InexpressibleError(f"cannot write as openspiel: {message}", record.source, record.place.line)


_PARAMETER_KNOBS = frozenset({"knock_limit", "gin_bonus", "undercut_bonus"})
"""the knobs OpenSpiel's gin_rummy has a parameter for (``oklahoma`` too, but only ``gin_only``)"""


def params_for(record: GameRecord) -> GameParams:
    """The parameters that make OpenSpiel play the rules the record names, knob for knob;
    raises :class:`InexpressibleError` naming the first knob that no parameter can set."""
    from ginref.rules import KNOB_NAMES, PRESETS, record_rules

    rules = record_rules(record.rules, record.overrides).required(lambda problem: _cannot(record, problem))
    openspiel = PRESETS["openspiel"]
    differ = [knob for knob in KNOB_NAMES if getattr(rules, knob) != getattr(openspiel, knob)
              and knob not in _PARAMETER_KNOBS and (knob, rules.oklahoma) != ("oklahoma", "gin_only")]
    if differ:
        ours, theirs = rules.knob_text(differ[0]), openspiel.knob_text(differ[0])
        more = f" (and {len(differ) - 1} more)" if len(differ) > 1 else ""
        # no "cannot write as openspiel:" here: the whole sentence must fit in MAX_MESSAGE
        message = (f"OpenSpiel plays {differ[0]}={theirs} where the record's {rules.name} rules have {ours}"
                   f"{more}; re-rule it with --override-rules --rules openspiel")
        raise InexpressibleError(message, record.source, record.place.line)
    params = GameParams(knock_card=rules.knock_limit, gin_bonus=rules.gin_bonus,
                        undercut_bonus=rules.undercut_bonus, oklahoma=rules.oklahoma == "gin_only")
    problem = params.problem()
    if problem is not None:
        raise _cannot(record, f"OpenSpiel cannot play {rules.label}: {problem}")
    return params


class _Writer:
    """Builds the action history event by event, following the cards as OpenSpiel does."""

    def __init__(self, record: GameRecord, params: GameParams, seats: tuple[str, str]) -> None:
        self.record, self.params, self.seats = record, params, seats
        self.actions: list[int] = []
        self.movers: list[int] = []
        """who took each action: 0, 1, or -1 for chance"""
        self.mover = CHANCE
        self.hands = [0, 0]
        self.stock: list[Card] = []
        self.stock_size = 31
        self.at_wall = False
        self.knocker = -1
        self.knock_melds: tuple[Mask, ...] = ()
        self.defended = False

    def add(self, action: int) -> None:
        self.actions.append(action)
        self.movers.append(self.mover)

    def add_all(self, actions: Iterable[int]) -> None:
        for action in actions:
            self.add(action)

    def fail(self, message: str, place: Place | None = None) -> InexpressibleError:
        where = place if place is not None and place.line else self.record.place
        return InexpressibleError(f"cannot write as openspiel: {message}", self.record.source, where.line,
                           where.column)

    def card(self, c: object, what: str, place: Place | None = None) -> int:
        if type(c) is not int or not 0 <= c < 52:
            raise self.fail(f"{what} is not a known card", place)
        return card_to_openspiel(c)

    def deal(self, hand: HandRecord) -> None:
        for p, name in enumerate(self.seats):
            cards = hand.dealt(name)
            if len(cards) != HAND_SIZE:
                raise self.fail(f"{name} is dealt {len(cards)} cards; openspiel deals 10", hand.place)
            self.add_all(self.card(c, f"a card dealt to {name}", hand.place) for c in cards)
            self.hands[p] = mask_of(c for c in cards if type(c) is int)
        self.add(self.card(hand.upcard, "the upcard", hand.place))
        self.stock = list(hand.stock or ())

    def seat(self, name: str, place: Place) -> int:
        if name not in self.seats:
            raise self.fail(f"{name!r} is not a player", place)
        return self.seats.index(name)

    def event(self, event: Event) -> None:
        if isinstance(event, Pass):
            self.mover = self.seat(event.player, event.place)
            self.add(PASS)
        elif isinstance(event, Turn):
            self.turn(event, self.seat(event.player, event.place))
        else:
            self.defence(event)

    def turn(self, ev: Turn, p: int) -> None:
        self.mover = p
        if ev.source == "none":
            raise self.fail("openspiel has no eleven-card deal", ev.place)
        if ev.source == "stock":
            self.add(DRAW_STOCK)
            card = ev.card if ev.card is not None else self.next_stock(ev.place)
            self.mover = CHANCE
            self.add(self.card(card, "the card drawn", ev.place))
            self.mover = p
            self.stock_size -= 1
        elif self.at_wall and ev.knock is not None:
            self.add(KNOCK)
        else:
            self.add(DRAW_UPCARD)
        if isinstance(ev.card, int) and 0 <= ev.card < 52:
            self.hands[p] |= 1 << ev.card
        if ev.knock is not None:
            self.knock(ev, p)
        elif ev.discard is not None:
            self.add(self.card(ev.discard, "the discard", ev.place))
            self.hands[p] &= ~(1 << ev.discard)
            self.at_wall = self.stock_size == WALL_STOCK

    def next_stock(self, place: Place) -> Card:
        drawn = 31 - self.stock_size
        if drawn >= len(self.stock):
            raise self.fail("a stock draw whose card is not recorded", place)
        return self.stock[drawn]

    def knock(self, ev: Turn, p: int) -> None:
        knock = ev.knock
        assert knock is not None
        if not self.at_wall:
            self.add(KNOCK)
        if knock.discard is None:
            raise self.fail("openspiel has no big gin: the knocker always discards", knock.place)
        self.add(self.card(knock.discard, "the knock's discard", knock.place))
        self.hands[p] &= ~(1 << knock.discard)
        self.lay(knock.melds, p, knock.place)
        self.add(PASS)
        self.knocker, self.knock_melds = p, knock.melds

    def lay(self, melds: Sequence[Mask], p: int, place: Place) -> None:
        for meld in melds:
            for part in _openspiel_melds(meld):
                if part not in MELD_IDS:
                    raise self.fail(f"{' '.join(card_name(c) for c in scan(meld))} is not a meld", place)
                self.add(MELD_BASE + MELD_IDS[part])
            self.hands[p] &= ~meld

    def defence(self, ev: Defence) -> None:
        if self.knocker < 0 or self.defended:
            raise self.fail("a defence where openspiel has none", ev.place)
        p = self.mover = 1 - self.knocker
        if mask_points(self.hands[self.knocker]) > 0:
            self.add_all(self.card(c, "a layoff", ev.place) for c, _ in ev.layoffs)
            self.add(PASS)
        elif ev.layoffs:
            raise self.fail("openspiel allows no layoffs on gin", ev.place)
        for c, _ in ev.layoffs:
            self.hands[p] &= ~(1 << c)
        self.lay(ev.melds, p, ev.place)
        self.add(PASS)
        self.defended = True

    def finish(self) -> None:
        """A knock with no recorded defence: the defender's best, as the referee scores it."""
        if self.knocker < 0 or self.defended:
            return
        from ginref.layoffs import best_defence
        from ginref.melds import Meld
        from ginref.rules import find_rules, with_overrides

        rules = with_overrides(find_rules("openspiel"), dict(self.params.overrides()))
        gin = mask_points(self.hands[self.knocker]) == 0
        best = best_defence(self.hands[1 - self.knocker], [Meld(m) for m in self.knock_melds], rules,
                            allow_layoffs=not gin)
        onto = [self.knock_melds.index(layoff.onto.mask) for layoff in best.layoffs]
        layoffs = tuple(zip((layoff.card for layoff in best.layoffs), onto, strict=True))
        melds = tuple(m.mask for m in best.arrangement.melds)
        self.defence(Defence(self.seats[1 - self.knocker], melds, layoffs))


def _openspiel_melds(meld: Mask) -> list[Mask]:
    """A meld as OpenSpiel lays it: runs of six or more in parts of three to five cards."""
    cards = list(scan(meld))
    if len(cards) <= 5 or len({c % 13 for c in cards}) == 1:
        return [meld]
    parts: list[Mask] = []
    while len(cards) > 5:
        size = 5 if len(cards) >= 8 else len(cards) - 3
        parts.append(mask_of(cards[:size]))
        cards = cards[size:]
    return [*parts, mask_of(cards)]


def format_history(record: GameRecord) -> str:
    """One line: the history as a JSON array of action ids."""
    return "[" + ", ".join(str(a) for a in encode_history(record)) + "]"


# -- the formats ---------------------------------------------------------------------------------


_HISTORY_START_RE = re.compile(r"\s*(?:\[\s*-?\d|history=)")


@functools.lru_cache(maxsize=16)
def _game(text: str, source: str, line: int) -> GameParams:
    return parse_game_string(text, source, line) if text else GameParams()


def _decode_history_line(unit: Unit) -> tuple[GameRecord]:
    params = _game(unit.game, unit.source, unit.line)
    history = parse_history_line(unit.text, unit.source, unit.line)
    return (decode_history(history, params, source=unit.source, index=unit.index),)


def _decode_state(unit: Unit) -> tuple[GameRecord]:
    params, history = parse_serialized(unit.text, unit.source, unit.line)
    return (decode_history(history, params, source=unit.source, index=unit.index),)


def _sniff_history(text: str, start: int) -> bool:
    return _HISTORY_START_RE.match(text, start) is not None


def _sniff_state(text: str, start: int) -> bool:
    return text.startswith((SERIALIZED_HEADER, "[Meta]"), start)


HISTORY_FORMAT = Format(
    "openspiel", "OpenSpiel action histories", "line", _decode_history_line, _sniff_history, opens="[h"
)
"""OpenSpiel action histories, one a line (``--game`` gives their game): a JSON array of
action ids or ``history=p:a,...``"""
STATE_FORMAT = Format(
    "openspiel_state", "an OpenSpiel serialised state", "document", _decode_state, _sniff_state,
    opens=SERIALIZED_HEADER[0] + "[", variant_of="openspiel",
)
"""OpenSpiel's ``SerializeGameAndState`` text, read by ``--from openspiel`` too: told by its
header comment or ``[Meta]``"""
