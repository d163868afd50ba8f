"""OpenSpiel's gin_rummy game and state, played by ginref: RL code written against ``pyspiel``
runs on ginref by changing one line (``pyspiel.load_game("gin_rummy")`` becomes
``ginref.openspiel_game()``).

The state speaks OpenSpiel's action ids (:mod:`ginref.records.openspiel` holds them, and the
meld ids): 0-51 the cards, 52 draw the upcard, 53 draw from the stock, 54 pass, 55 knock,
56-240 lay a meld. Chance deals as pyspiel deals: ten cards to player 0, ten to player 1,
the upcard, then each stock card as it is drawn; the same chance actions give the same
hands. Player 0 moves first; player 1 deals.

The rules are the ``openspiel`` preset with the game's parameters as overrides, so its
departures from the usual game are knobs read here: the wall (``stock_end``), the 50th
take of the discard pile (``max_discard_draws``), the repeated move
(``repeat_discard_draw``) and the two layoffs per run end (``layoff_chain_limit``). One
departure is not copied: OpenSpiel decides whether an 11-card hand may knock by melding
all 11 cards at their best and dropping the highest deadwood card, and so misses some
knocks; ginref offers a knock exactly when some discard leaves deadwood within the limit
(docs/live.md shows a hand). The result of a knocked hand is the referee's ruling on the
history (:func:`ginref.referee.adjudicate`), which is OpenSpiel's ``returns()``.

An action that is not legal raises :class:`IllegalAction` (a ``GinrefError``) and leaves
the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from ginref.cards import Card, Mask, card_name, mask_points, scan
from ginref.errors import GinrefError
from ginref.melds import min_deadwood, min_deadwood_after_discard
from ginref.records.openspiel import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELDS,
    PASS,
    GameParams,
    History,
    card_from_openspiel,
    card_to_openspiel,
    decode_history,
)
from ginref.rules import PRESETS, Rules, with_overrides

__all__ = ["CHANCE", "TERMINAL", "IllegalAction", "OpenSpielGame", "OpenSpielState", "openspiel_game"]

CHANCE = -1
"""pyspiel's ``kChancePlayerId``"""
TERMINAL = -4
"""pyspiel's ``kTerminalPlayerId``"""
NUM_ACTIONS = MELD_BASE + len(MELDS)
HAND_SIZE = 10
_DEAL, _FIRST_UPCARD, _DRAW, _DISCARD, _KNOCK, _LAYOFF, _WALL, _OVER = range(8)
PHASE_NAMES = ("Deal", "FirstUpcard", "Draw", "Discard", "Knock", "Layoff", "Wall", "GameOver")
_FROM_OPENSPIEL = tuple(card_from_openspiel(a) for a in range(52))
_TO_OPENSPIEL = tuple(card_to_openspiel(c) for c in range(52))
_PARAMETERS = ("gin_bonus", "hand_size", "knock_card", "num_ranks", "num_suits", "oklahoma", "undercut_bonus")


class IllegalAction(GinrefError, ValueError):
    """An action id that is not legal in the state it was applied to; the state is unchanged."""


def openspiel_game(params: Mapping[str, int | bool] | None = None) -> OpenSpielGame:
    """The gin_rummy game, as ``pyspiel.load_game("gin_rummy", params)`` gives it, played by ginref.

    ``params`` are pyspiel's parameters (``knock_card``, ``gin_bonus``, ``undercut_bonus``,
    ``oklahoma``; ``hand_size``, ``num_ranks`` and ``num_suits`` only at their defaults).
    Returns an :class:`OpenSpielGame`, whose ``new_initial_state()`` starts a hand.

    >>> game = openspiel_game({"knock_card": 7})
    >>> state = game.new_initial_state()
    >>> state.current_player(), len(state.chance_outcomes())
    (-1, 52)

    Raises :class:`IllegalAction` for a parameter pyspiel does not have or ginref cannot play.
    """
    return OpenSpielGame(params)


class OpenSpielGame:
    """pyspiel's ``Game`` for gin_rummy: parameters, rules and new states."""

    __slots__ = ("params", "rules")

    def __init__(self, params: Mapping[str, int | bool] | None = None) -> None:
        self.params = _game_params(params or {})
        self.rules: Rules = with_overrides(PRESETS["openspiel"], dict(self.params.overrides()))

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return 52

    def num_players(self) -> int:
        return 2

    def get_parameters(self) -> dict[str, int | bool]:
        """Every parameter with its value, as pyspiel's ``get_parameters()`` gives them."""
        return {name: getattr(self.params, name) for name in _PARAMETERS}

    def __str__(self) -> str:
        return self.params.game_string()


def _game_params(params: Mapping[str, int | bool]) -> GameParams:
    if not isinstance(params, Mapping):
        shown = type(params).__name__
        raise IllegalAction(f"gin_rummy parameters are a mapping of name to value, not {shown}")
    values: dict[str, int | bool] = {}
    for name, value in params.items():
        if name not in _PARAMETERS:
            raise IllegalAction(f"unknown gin_rummy parameter {str(name)[:40]!r}; "
                                f"choose from: {', '.join(_PARAMETERS)}")
        wanted = bool if name == "oklahoma" else int
        if type(value) is not wanted or (wanted is int and not -1000 < value < 1000):
            raise IllegalAction(f"gin_rummy parameter {name} is {wanted.__name__}, not {str(value)[:40]!r}")
        values[name] = value
    game = GameParams(**values)  # type: ignore[arg-type]
    problem = game.problem()
    if problem is not None:
        raise IllegalAction(f"ginref cannot play gin_rummy with these parameters: {problem}")
    return game


class OpenSpielState:
    """pyspiel's gin_rummy ``State``: one hand, action by action (see the module doc)."""

    __slots__ = (
        "_deck", "_discards", "_draws", "_finished_layoffs", "_first_upcard", "_game", "_hands", "_history",
        "_knocker", "_laid", "_layoffs", "_legal", "_limit", "_passed", "_phase", "_player", "_prev_player",
        "_prev_upcard", "_repeated", "_returns", "_taken", "_upcard",
    )

    def __init__(self, game: OpenSpielGame) -> None:
        self._game = game
        self._phase = _DEAL
        self._player = CHANCE
        self._prev_player = CHANCE
        self._deck: Mask = (1 << 52) - 1
        """cards still in the stock, in OpenSpiel's card order"""
        self._hands: list[Mask] = [0, 0]
        self._taken: list[Mask] = [0, 0]
        """cards each player took from the discard pile (the opponent saw them)"""
        self._discards: list[Card] = []
        """the discard pile below the upcard"""
        self._upcard: Card | None = None
        self._prev_upcard: Card | None = None
        self._first_upcard: Card | None = None
        self._passed = [False, False]
        self._draws = 0
        self._repeated = False
        self._knocker = -1
        self._laid: list[list[Mask]] = [[], []]
        """melds each player laid after the knock"""
        self._layoffs: list[Card] = []
        self._finished_layoffs = False
        self._limit = game.rules.knock_limit
        self._history: list[int] = []
        self._legal: list[int] | None = None
        self._returns: list[float] | None = None

    # -- pyspiel's questions ----------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._phase == _OVER else self._player

    def is_chance_node(self) -> bool:
        return self._phase == _DEAL

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def is_player_node(self) -> bool:
        return self._phase not in (_DEAL, _OVER)

    def history(self) -> list[int]:
        return list(self._history)

    def history_str(self) -> str:
        return ", ".join(map(str, self._history))

    def move_number(self) -> int:
        return len(self._history)

    def get_game(self) -> OpenSpielGame:
        return self._game

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card left in the stock, equally likely; empty when this is not a chance node."""
        if self._phase != _DEAL:
            return []
        cards = list(scan(self._deck))
        p = 1.0 / len(cards)
        return [(a, p) for a in cards]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending (chance outcomes at a chance node, none when over)."""
        if player is not None and player != self.current_player():
            return []
        if self._legal is None:
            self._legal = _LEGAL[self._phase](self)
        return list(self._legal)

    def returns(self) -> list[float]:
        """Each player's points for the hand: the winner's score and its negative; 0 and 0
        until the end, and for a hand that ends without a knock."""
        if self._phase != _OVER or self._knocker < 0:
            return [0.0, 0.0]
        if self._returns is None:
            self._returns = self._ruled_returns()
        return list(self._returns)

    def rewards(self) -> list[float]:
        return self.returns()

    def clone(self) -> OpenSpielState:
        copy = OpenSpielState.__new__(OpenSpielState)
        for name in OpenSpielState.__slots__:
            setattr(copy, name, getattr(self, name))
        copy._hands, copy._taken, copy._passed = self._hands[:], self._taken[:], self._passed[:]
        copy._discards, copy._layoffs, copy._history = self._discards[:], self._layoffs[:], self._history[:]
        copy._laid = [self._laid[0][:], self._laid[1][:]]
        return copy

    def action_to_string(self, player: int, action: int) -> str:
        """``Player: 0 Action: draw stock``; ``Chance outcome: 7H`` for a card dealt."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(f"{str(action)[:40]!r} is not an action id 0..{NUM_ACTIONS - 1}")
        if player == CHANCE:
            return f"Chance outcome: {card_name(_FROM_OPENSPIEL[action])}" if action < 52 else str(action)
        return f"Player: {player} Action: {action_name(action)}"

    # -- moves ------------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Play ``action``; an action that is not legal raises :class:`IllegalAction` and
        changes nothing."""
        if type(action) is not int or action not in self.legal_actions():
            raise IllegalAction(self._refusal(action))
        self._legal = None
        self._history.append(action)
        _APPLY[self._phase](self, action)

    def _refusal(self, action: object) -> str:
        shown = str(action)[:40]
        if self._phase == _OVER:
            return f"action {shown}: the hand is over"
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return f"{shown!r} is not an action id 0..{NUM_ACTIONS - 1}"
        who = "chance" if self._phase == _DEAL else f"player {self._player}"
        return (f"action {action} ({action_name(action)}) is not legal for {who} "
                f"in the {PHASE_NAMES[self._phase]} phase")

    def _ruled_returns(self) -> list[float]:
        """The referee's ruling on the history: the winner's points, and the loser's negative."""
        from ginref.referee.verdict import adjudicate

        record = decode_history(History(tuple(self._history), None, ()), self._game.params)
        hand = adjudicate(record, self._game.rules).hands[0]
        if hand.winner is None:
            return [0.0, 0.0]
        won = float(hand.points)
        return [won, -won] if hand.winner == record.players[0] else [-won, won]

    # -- the view ---------------------------------------------------------------------------

    def observation_string(self, player: int) -> str:
        """What ``player`` may know, as text: its hand, the upcard and the discard pile, the
        cards the opponent took from the pile, the stock's size, and the melds laid and
        cards laid off once someone has knocked. At the end, both hands."""
        if player not in (0, 1):
            raise IllegalAction(f"player {str(player)[:20]} is not 0 or 1")
        other = 1 - player
        seen = self._taken[other] & self._hands[other]
        lines = [
            f"Player: {player}",
            f"Phase: {PHASE_NAMES[self._phase]}",
            f"Knock limit: {self._limit}",
            f"Hand: {_names(self._hands[player])}",
            f"Upcard: {card_name(self._upcard) if self._upcard is not None else '-'}",
            f"Discard pile: {' '.join(card_name(c) for c in self._discards) or '-'}",
            f"Stock: {self.stock_size()}",
            f"Opponent took: {_names(seen) or '-'}",
        ]
        for seat in (0, 1):
            if self._laid[seat]:
                lines.append(f"Player {seat} melds: " + " | ".join(_names(m) for m in self._laid[seat]))
        if self._layoffs:
            lines.append(f"Laid off: {' '.join(card_name(c) for c in self._layoffs)}")
        if self._phase == _OVER:
            lines.append(f"Opponent's hand: {_names(self._hands[other]) or '-'}")
        return "\n".join(lines)

    def stock_size(self) -> int:
        return self._deck.bit_count()

    def __str__(self) -> str:
        return "\n\n".join(self.observation_string(p) for p in (0, 1))

    def __repr__(self) -> str:
        return f"<gin_rummy state: {PHASE_NAMES[self._phase]}, history {self.history_str()[:60]}>"

    # -- phases -----------------------------------------------------------------------------

    def _knock_limit_met(self, hand: Mask) -> bool:
        """Exact: some discard from the 11 cards leaves deadwood within the limit."""
        return min_deadwood_after_discard(hand) <= self._limit

    def _deal_legal(self) -> list[int]:
        return list(scan(self._deck))

    def _first_upcard_legal(self) -> list[int]:
        return [DRAW_STOCK] if all(self._passed) else [DRAW_UPCARD, PASS]

    def _draw_legal(self) -> list[int]:
        return [DRAW_UPCARD, DRAW_STOCK]

    def _discard_legal(self) -> list[int]:
        hand = self._hands[self._player]
        legal = sorted(_TO_OPENSPIEL[c] for c in scan(hand))
        if self._knock_limit_met(hand):
            legal.append(KNOCK)
        return legal

    def _knock_legal(self) -> list[int]:
        hand = self._hands[self._player]
        if hand.bit_count() == HAND_SIZE + 1:
            keep = [c for c in scan(hand) if min_deadwood(hand & ~(1 << c)) <= self._limit]
            return sorted(_TO_OPENSPIEL[c] for c in keep)
        legal = [MELD_BASE + i for i, meld in enumerate(MELDS)
                 if meld & hand == meld and min_deadwood(hand & ~meld) <= self._limit]
        if mask_points(hand) <= self._limit:
            legal.append(PASS)
        return sorted(legal)

    def _layoff_legal(self) -> list[int]:
        hand = self._hands[self._player]
        if self._finished_layoffs:
            return sorted([PASS, *(MELD_BASE + i for i, meld in enumerate(MELDS) if meld & hand == meld)])
        fits = _layoff_cards(self._laid[self._knocker], self._layoffs, self._game.rules.layoff_chain_limit)
        return sorted([PASS, *(_TO_OPENSPIEL[c] for c in scan(fits & hand))])

    def _wall_legal(self) -> list[int]:
        assert self._upcard is not None
        upcard = 1 << self._upcard
        return [PASS, KNOCK] if self._knock_limit_met(self._hands[self._player] | upcard) else [PASS]

    def _over_legal(self) -> list[int]:
        return []

    def _deal(self, action: int) -> None:
        c = _FROM_OPENSPIEL[action]
        self._deck &= ~(1 << action)
        dealt = 52 - self._deck.bit_count()
        if dealt <= 2 * HAND_SIZE:
            self._hands[(dealt - 1) // HAND_SIZE] |= 1 << c
        elif self._first_upcard is None:
            self._upcard = self._first_upcard = c
            self._limit = self._game.rules.knock_limit_for(c)
            self._player, self._phase = 0, _FIRST_UPCARD
        else:
            self._hands[self._prev_player] |= 1 << c
            self._player, self._prev_player, self._phase = self._prev_player, CHANCE, _DISCARD

    def _first_upcard_move(self, action: int) -> None:
        if action == PASS:
            self._passed[self._player] = True
            self._player = 1 - self._player
        elif action == DRAW_UPCARD:
            self._take_upcard()
        else:
            self._draw_stock()

    def _draw(self, action: int) -> None:
        if action == DRAW_STOCK:
            self._draw_stock()
            return
        self._draws += 1
        if self._draws == self._game.rules.max_discard_draws:
            self._phase = _OVER
            return
        self._take_upcard()

    def _take_upcard(self) -> None:
        assert self._upcard is not None
        p = self._player
        self._prev_upcard = self._upcard
        self._hands[p] |= 1 << self._upcard
        self._taken[p] |= 1 << self._upcard
        self._upcard = None
        self._prev_player, self._phase = p, _DISCARD

    def _draw_stock(self) -> None:
        self._prev_upcard = self._upcard
        if self._upcard is not None:
            self._discards.append(self._upcard)
            self._upcard = None
        self._prev_player, self._player, self._phase = self._player, CHANCE, _DEAL

    def _discard(self, action: int) -> None:
        p = self._player
        if action == KNOCK:
            self._knocker, self._prev_player, self._phase = p, p, _KNOCK
            return
        c = _FROM_OPENSPIEL[action]
        self._hands[p] &= ~(1 << c)
        self._upcard = c
        self._prev_player, self._player = p, 1 - p
        if c == self._prev_upcard and self._game.rules.repeat_discard_draw:
            if self._repeated:
                self._phase = _OVER
                return
            self._repeated = True
        else:
            self._repeated = False
        at_wall = self._game.rules.stock_end == "last_discard_knock_only"
        at_wall = at_wall and self.stock_size() == self._game.rules.stock_floor
        self._phase = _WALL if at_wall else _DRAW

    def _knock(self, action: int) -> None:
        p = self._player
        hand = self._hands[p]
        if hand.bit_count() == HAND_SIZE + 1:
            c = _FROM_OPENSPIEL[action]
            self._hands[p] = hand & ~(1 << c)
            self._discards.append(c)
        elif action == PASS:
            self._finished_layoffs = mask_points(hand) == 0 and not self._game.rules.layoff_on_gin
            self._player, self._phase = 1 - self._knocker, _LAYOFF
        else:
            meld = MELDS[action - MELD_BASE]
            self._laid[p].append(meld)
            self._hands[p] = hand & ~meld

    def _layoff(self, action: int) -> None:
        p = self._player
        if action == PASS:
            if self._finished_layoffs:
                self._phase = _OVER
            self._finished_layoffs = True
        elif action < 52:
            c = _FROM_OPENSPIEL[action]
            self._layoffs.append(c)
            self._hands[p] &= ~(1 << c)
        else:
            meld = MELDS[action - MELD_BASE]
            self._laid[p].append(meld)
            self._hands[p] &= ~meld

    def _wall(self, action: int) -> None:
        if action == PASS:
            self._phase = _OVER
            return
        assert self._upcard is not None
        p = self._player
        self._hands[p] |= 1 << self._upcard
        self._taken[p] |= 1 << self._upcard
        self._upcard = None
        self._knocker, self._prev_player, self._phase = p, p, _KNOCK

    def _over(self, action: int) -> None:  # pragma: no cover - legal_actions() is empty
        raise IllegalAction(self._refusal(action))


_LEGAL = (OpenSpielState._deal_legal, OpenSpielState._first_upcard_legal, OpenSpielState._draw_legal,
          OpenSpielState._discard_legal, OpenSpielState._knock_legal, OpenSpielState._layoff_legal,
          OpenSpielState._wall_legal, OpenSpielState._over_legal)
_APPLY = (OpenSpielState._deal, OpenSpielState._first_upcard_move, OpenSpielState._draw,
          OpenSpielState._discard, OpenSpielState._knock, OpenSpielState._layoff, OpenSpielState._wall,
          OpenSpielState._over)


def _layoff_cards(melds: list[Mask], layoffs: list[Card], chain_limit: int | None) -> Mask:
    """The cards that may be laid off next onto the knocker's ``melds`` after ``layoffs``:
    the fourth card of a set of three, and the next card beyond each end of a run while
    fewer than ``chain_limit`` cards have been laid off at that end."""
    laid = 0
    for c in layoffs:
        laid |= 1 << c
    limit = 13 if chain_limit is None else chain_limit
    fits = 0
    for meld in melds:
        low = (meld & -meld).bit_length() - 1
        high = meld.bit_length() - 1
        if low % 13 == high % 13 and low != high:  # a set: its fourth card
            if meld.bit_count() == 3:
                fits |= _RANK_MASK << (low % 13) & ~meld
            continue
        fits |= _run_end(laid, low, -1, limit) | _run_end(laid, high, 1, limit)
    return fits


_RANK_MASK = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _run_end(laid: Mask, end: Card, step: int, limit: int) -> Mask:
    """The next card beyond ``end`` of a run, past the cards already laid off there, or 0."""
    suit_low = end - end % 13
    c = end + step
    for _ in range(limit):
        if not suit_low <= c < suit_low + 13:
            return 0
        if not laid >> c & 1:
            return 1 << c
        c += step
    return 0


def action_name(action: int) -> str:
    """``7H``, ``draw upcard``, ``draw stock``, ``pass``, ``knock`` or ``meld 7H 8H 9H``."""
    if action < 52:
        return card_name(_FROM_OPENSPIEL[action])
    if action >= MELD_BASE:
        return "meld " + _names(MELDS[action - MELD_BASE])
    return {DRAW_UPCARD: "draw upcard", DRAW_STOCK: "draw stock", PASS: "pass", KNOCK: "knock"}[action]


def _names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in scan(mask))
