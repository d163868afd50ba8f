"""OpenSpiel's gin_rummy game and state, played by ginref: RL code written against ``pyspiel``
runs on ginref by changing one line (``pyspiel.load_game("gin_rummy")`` becomes
``ginref.openspiel_game()``).

The state speaks OpenSpiel's action ids (:mod:`ginref.records.openspiel` holds them, and the
meld ids): 0-51 the cards, 52 draw the upcard, 53 draw from the stock, 54 pass, 55 knock,
56-240 lay a meld. Chance deals as pyspiel deals: ten cards to player 0, ten to player 1,
the upcard, then each stock card as it is drawn; the same chance actions give the same
hands. Player 0 moves first; player 1 deals.

The state is a :class:`~ginref.referee.table.Table` under the ``openspiel`` preset with the
game's parameters as overrides, its stock dealt at each draw (``stock_at_draw``). The state
only maps action ids to the table's moves and the table's legal moves back to action ids:
every rule of play (the wall, the 50th take of the discard pile, the repeated move, the
knock limit, the two layoffs per run end) is the table's, which is the referee's. OpenSpiel
splits a knock into steps (knock, the face-down discard, each meld, pass) and a defence
too (each layoff, pass, each meld, pass); the state gathers the steps and asks the table
which may come next (:meth:`Table.declaration`, :meth:`Table.legal_moves`), then plays the
whole knock or defence as the table's moves. One departure of OpenSpiel is not copied:
it decides whether an 11-card hand may knock by melding all 11 cards at their best and
dropping the highest deadwood card, and so misses some knocks; the table offers a knock
exactly when some discard leaves deadwood within the limit (docs/live.md shows a hand).
``returns()`` is the table's ruling (:meth:`Table.outcome`).

An action that is not legal raises :class:`IllegalAction` (a ``GinrefError``) and leaves
the state as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from ginref.cards import Card, CardSet, Mask, card_name, scan
from ginref.errors import GinrefError
from ginref.records.openspiel import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELDS,
    PASS,
    PLAYERS,
    GameParams,
    card_from_openspiel,
    card_to_openspiel,
)
from ginref.referee.table import Move, Phase, Table, View
from ginref.rules import PRESETS, Rules, with_overrides

__all__ = ["CHANCE", "TERMINAL", "IllegalAction", "OpenSpielGame", "OpenSpielState", "openspiel_game"]

CHANCE = -1
"""pyspiel's ``kChancePlayerId``"""
TERMINAL = -4
"""pyspiel's ``kTerminalPlayerId``"""
NUM_ACTIONS = MELD_BASE + len(MELDS)
HAND_SIZE = 10
DEALT = 2 * HAND_SIZE + 1
"""chance's cards before the first move: ten to each player, then the upcard"""
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
        "_ambiguous",
        "_dealt",
        "_deck",
        "_declared",
        "_discard",
        "_drawing",
        "_game",
        "_hand",
        "_history",
        "_knocking",
        "_laid",
        "_legal",
        "_melding",
        "_returns",
        "_table",
    )

    def __init__(self, game: OpenSpielGame) -> None:
        self._game = game
        self._deck: Mask = (1 << 52) - 1
        """the cards chance has not dealt, by OpenSpiel's card ids"""
        self._dealt: list[Card] = []
        self._table: Table | None = None
        self._drawing = False
        """a stock draw was chosen: chance deals its card"""
        self._knocking = False
        self._discard: Card | None = None
        """the knock's face-down discard, once chosen"""
        self._hand: Mask = 0
        """the hand of the player laying a knock or a defence, as the table showed it then"""
        self._declared: tuple[Mask, ...] = ()
        """the melds laid so far in the knock being made, or in the defence"""
        self._melding = False
        """the defender has finished laying off and lays its melds"""
        self._laid = 0
        """the layoffs played this defence"""
        self._ambiguous = False
        """a card laid off fitted more than one meld (a later card may need it on the other)"""
        self._history: list[int] = []
        self._legal: list[int] | None = None
        self._returns: list[float] | None = None

    # -- pyspiel's questions ----------------------------------------------------------------

    def _phase(self) -> int:
        """OpenSpiel's phase (its names: :data:`PHASE_NAMES`)."""
        table = self._table
        if table is None or self._drawing:
            return _DEAL
        if self._knocking:
            return _KNOCK
        phase = table.phase
        if phase is Phase.DRAW:
            moves = table.moves
            return _FIRST_UPCARD if len(moves) == 2 and moves[1].kind == "pass" else _DRAW  # both passed
        return _PHASES[phase]

    def current_player(self) -> int:
        table = self._table
        if table is None or self._drawing:
            return CHANCE
        to_move = table.to_move
        return TERMINAL if to_move is None else PLAYERS.index(to_move)

    def is_chance_node(self) -> bool:
        return self._table is None or self._drawing

    def is_terminal(self) -> bool:
        return self._table is not None and self._table.is_over()

    def is_player_node(self) -> bool:
        return not self.is_chance_node() and not self.is_terminal()

    def history(self) -> list[int]:
        return list(self._history)

    def history_str(self) -> str:
        return ", ".join(map(str, self._history))

    def move_number(self) -> int:
        return len(self._history)

    def get_game(self) -> OpenSpielGame:
        return self._game

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card chance has not dealt, equally likely; empty when this is not a chance node."""
        if not self.is_chance_node():
            return []
        cards = list(scan(self._deck))
        p = 1.0 / len(cards)
        return [(a, p) for a in cards]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending (chance outcomes at a chance node, none when over)."""
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        return list(self._legal_cached() if legal is None else legal)

    def _legal_cached(self) -> list[int]:
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def returns(self) -> list[float]:
        """Each player's points for the hand: the winner's score and its negative; 0 and 0
        until the end, and for a hand that ends without a score."""
        table = self._table
        if table is None or not table.is_over():
            return [0.0, 0.0]
        if self._returns is None:
            ruled = table.outcome()
            assert ruled is not None
            won = float(ruled.points)
            self._returns = ([0.0, 0.0] if ruled.winner is None else
                             [won, -won] if ruled.winner == PLAYERS[0] else [-won, won])
        return list(self._returns)

    def rewards(self) -> list[float]:
        return self.returns()

    def clone(self) -> OpenSpielState:
        """An independent state: the table copied (:meth:`Table.copy`), the rest immutable or copied."""
        copy = OpenSpielState.__new__(OpenSpielState)
        copy._game, copy._deck, copy._dealt = self._game, self._deck, self._dealt[:]
        copy._drawing = self._drawing
        copy._table = None if self._table is None else self._table.copy()
        copy._knocking, copy._discard, copy._hand, copy._declared = (
            self._knocking, self._discard, self._hand, self._declared)
        copy._melding, copy._laid, copy._ambiguous = self._melding, self._laid, self._ambiguous
        copy._history, copy._legal, copy._returns = self._history[:], self._legal, self._returns
        return copy

    def action_to_string(self, player: int, action: int) -> str:
        """The text pyspiel gives an action: ``Player: 0 Action: draw stock``; ``Chance outcome: 7H``
        for a card dealt."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(f"{str(action)[:40]!r} is not an action id 0..{NUM_ACTIONS - 1}")
        if player == CHANCE:
            return f"Chance outcome: {card_name(_FROM_OPENSPIEL[action])}" if action < 52 else str(action)
        return f"Player: {player} Action: {action_name(action)}"

    # -- the legal actions: the table's moves as action ids ------------------------------------

    def _legal_now(self) -> list[int]:
        table = self._table
        if table is None or self._drawing:
            return list(scan(self._deck))
        if self._knocking:
            return self._knock_steps(table)
        phase = table.phase
        if phase is Phase.DEFENCE:
            return self._defence_steps(table)
        moves = table.legal_moves()
        if phase is Phase.DISCARD:
            legal = sorted([_TO_OPENSPIEL[m.card] for m in moves if m.kind == "discard"])  # type: ignore[index]
            return [*legal, KNOCK] if moves and moves[-1].kind == "knock" else legal  # the knocks come last
        if phase is Phase.WALL:  # the last discard is taken only to knock
            return sorted([KNOCK if m.kind == "take" else PASS for m in moves])
        return sorted({_MOVE_ACTIONS[m.kind] for m in moves})  # a draw is listed by each card it may deal

    def _knock_steps(self, table: Table) -> list[int]:
        """The knock's discard, then the melds that still allow a legal knock and pass once
        the declaration is one."""
        if self._discard is None:
            return sorted(_TO_OPENSPIEL[m.card] for m in table.legal_moves()
                          if m.kind == "knock" and m.card is not None)
        discard, declared = self._discard, self._declared
        played, _ = table.declaration(Move.knock(discard, declared))
        legal = [PASS] if played is not None else []
        left = self._own(table) & ~(1 << discard)
        legal += [action for action, meld in _melds_within(left)
                  if table.declaration(Move.knock(discard, (*declared, meld)))[1]]
        return sorted(legal)

    def _own(self, table: Table) -> Mask:
        """The cards the player to move holds and has not laid in the knock or defence being made."""
        held = self._hand
        for meld in self._declared:
            held &= ~meld
        return held & ~self._laid_cards(table)

    @staticmethod
    def _hand_to_move(table: Table) -> Mask:
        to_move = table.to_move
        assert to_move is not None
        return table.view(to_move).hand.mask

    def _laid_cards(self, table: Table) -> Mask:
        laid = 0
        for move in table.moves[len(table.moves) - self._laid:]:
            laid |= 1 << (move.card or 0)
        return laid

    def _defence_steps(self, table: Table) -> list[int]:
        """Before pass: each card that may be laid off; after it, each meld of the cards left."""
        own = self._own(table)
        if self._melding:
            return sorted([PASS, *(action for action, meld in _melds_within(own)
                                   if table.declaration(Move.finish((*self._declared, meld)))[1])])
        cards = {m.card for m in table.legal_moves() if m.kind == "layoff"}
        if self._ambiguous:
            cards |= {c for c in scan(own) if c not in cards and self._relay(table, c, keep=False)}
        return sorted([PASS, *(_TO_OPENSPIEL[c] for c in cards if c is not None)])

    def _relay(self, table: Table, card: Card, *, keep: bool) -> bool:
        """Whether the cards laid off so far can go onto melds that leave room for ``card``
        (OpenSpiel counts a card laid off for any meld it fits); with ``keep``, lay them
        so and ``card`` too. The table's own moves decide; it is left as it was otherwise."""
        laid = [table.pop() for _ in range(self._laid)][::-1]

        def lay(i: int) -> bool:
            wanted = card if i == len(laid) else laid[i].card
            for move in table.legal_moves():
                if move.kind == "layoff" and move.card == wanted:
                    table.push(move)
                    if i == len(laid) or lay(i + 1):
                        return True
                    table.pop()
            return False

        found = lay(0)
        if found and keep:
            return True
        if found:
            for _ in range(len(laid) + 1):
                table.pop()
        for move in laid:
            table.push(move)
        return found

    # -- moves ------------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Play ``action``; an action that is not legal raises :class:`IllegalAction` and
        changes nothing."""
        table = self._table
        chance = table is None or self._drawing
        if type(action) is not int or not (
                self._deck >> action & 1 if chance and 0 <= action < 52 else
                not chance and action in self._legal_cached()):
            raise IllegalAction(self._refusal(action))
        self._legal = None
        if table is None or self._drawing:
            self._deal(action)
        elif self._knocking:
            self._knock(action, table)
        elif table.phase is Phase.DEFENCE:
            self._defend(action, table)
        else:
            self._play(action, table)
        self._history.append(action)

    def _refusal(self, action: object) -> str:
        shown = str(action)[:40]
        phase = self._phase()
        if phase == _OVER:
            return f"action {shown}: the hand is over"
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return f"{shown!r} is not an action id 0..{NUM_ACTIONS - 1}"
        who = "chance" if phase == _DEAL else f"player {self.current_player()}"
        return (f"action {action} ({action_name(action)}) is not legal for {who} "
                f"in the {PHASE_NAMES[phase]} phase")

    def _deal(self, action: int) -> None:
        self._deck &= ~(1 << action)
        c = _FROM_OPENSPIEL[action]
        if self._drawing:
            assert self._table is not None
            self._table.push(_DRAWS[c])
            self._drawing = False
            return
        self._dealt.append(c)
        if len(self._dealt) == DEALT:
            dealt = self._dealt
            hands = (dealt[:HAND_SIZE], dealt[HAND_SIZE:-1])
            self._table = Table(PLAYERS, self._game.rules, PLAYERS[1], hands=hands, upcard=dealt[-1],
                                stock_at_draw=True)

    def _play(self, action: int, table: Table) -> None:
        if action == DRAW_STOCK:
            self._drawing = True
        elif action == KNOCK:
            if table.phase is Phase.WALL:
                table.push(_TAKE)
            self._knocking, self._hand = True, self._hand_to_move(table)
        elif action < 52:
            table.push(_DISCARDS[action])
        else:
            table.push(_TAKE if action == DRAW_UPCARD else _PASS)

    def _knock(self, action: int, table: Table) -> None:
        if self._discard is None:
            self._discard = _FROM_OPENSPIEL[action]
        elif action == PASS:
            played, _ = table.declaration(Move.knock(self._discard, self._declared))
            assert played is not None
            table.push(played)
            self._knocking, self._discard, self._declared = False, None, ()
            self._melding, self._hand = not table.layoffs_allowed, self._hand_to_move(table)
        else:
            self._declared = (*self._declared, MELDS[action - MELD_BASE])

    def _defend(self, action: int, table: Table) -> None:
        if self._melding:
            if action == PASS:
                played, _ = table.declaration(Move.finish(self._declared))
                assert played is not None
                table.push(played)
            else:
                self._declared = (*self._declared, MELDS[action - MELD_BASE])
        elif action == PASS:
            self._melding = True
        else:
            self._lay_off(_FROM_OPENSPIEL[action], table)

    def _lay_off(self, card: Card, table: Table) -> None:
        fits = [m for m in table.legal_moves() if m.kind == "layoff" and m.card == card]
        if fits:
            table.push(fits[0])
            self._ambiguous = self._ambiguous or len(fits) > 1
        else:
            relaid = self._relay(table, card, keep=True)  # legal_actions offered it: a relay exists
            assert relaid
        self._laid += 1

    # -- the view ---------------------------------------------------------------------------

    def observation_string(self, player: int) -> str:
        """What ``player`` may know, as text: the table's view (:meth:`Table.view`) of its
        hand, the discard pile, the cards the opponent took from it, the stock's size, the
        melds and layoffs after a knock, and the steps of a knock or defence being laid.
        At the end, both hands. See docs/live.md."""
        if player not in (0, 1):
            raise IllegalAction(f"player {str(player)[:20]} is not 0 or 1")
        phase = self._phase()
        table = self._table
        lines = [f"Player: {player}", f"Phase: {PHASE_NAMES[phase]}"]
        if table is None:
            mine = self._dealt[player * HAND_SIZE:(player + 1) * HAND_SIZE]
            return "\n".join([*lines, f"Hand: {' '.join(map(card_name, mine))}"])
        view = table.view(PLAYERS[player])
        lines += _view_lines(view, table.knock_limit)
        if self._knocking or self._melding:
            stepper = self.current_player()
            if self._discard is not None and stepper == player:
                lines.append(f"Knock discard: {card_name(self._discard)}")
            lines.append(f"Player {stepper} laying: " + (" | ".join(map(_names, self._declared)) or "-"))
        if phase == _OVER:
            other = table.view(PLAYERS[1 - player]).hand.mask
            lines.append(f"Opponent's hand: {_names(other) or '-'}")
        return "\n".join(lines)

    def stock_size(self) -> int:
        return self._deck.bit_count()

    def __str__(self) -> str:
        return "\n\n".join(self.observation_string(p) for p in (0, 1))

    def __repr__(self) -> str:
        return f"<gin_rummy state: {PHASE_NAMES[self._phase()]}, history {self.history_str()[:60]}>"


_PHASES = {Phase.UPCARD: _FIRST_UPCARD, Phase.DISCARD: _DISCARD, Phase.WALL: _WALL, Phase.DEFENCE: _LAYOFF,
           Phase.OVER: _OVER}
_MOVE_ACTIONS = {"take": DRAW_UPCARD, "draw": DRAW_STOCK, "pass": PASS}
_TAKE, _PASS = Move.take(), Move.pass_()
_DRAWS = tuple(Move.draw(c) for c in range(52))
"""a stock draw naming each card, by ginref's card"""
_DISCARDS = tuple(Move.discard(_FROM_OPENSPIEL[a]) for a in range(52))
"""a discard of each card, by OpenSpiel's action id"""
_MELDS_FROM: tuple[tuple[tuple[int, Mask], ...], ...] = tuple(
    tuple((MELD_BASE + i, meld) for i, meld in enumerate(MELDS) if (meld & -meld).bit_length() - 1 == low)
    for low in range(52))
"""OpenSpiel's meld ids and melds, by the meld's lowest card"""


def _melds_within(cards: Mask) -> list[tuple[int, Mask]]:
    """OpenSpiel's melds made of ``cards`` only, with their action ids."""
    return [(action, meld) for low in scan(cards) for action, meld in _MELDS_FROM[low]
            if meld & cards == meld]


def _view_lines(view: View, limit: int) -> list[str]:
    """The lines of a table's view: the hand, the pile, what the opponent took, the stock, the knock."""
    lines = [
        f"Knock limit: {limit}",
        f"Hand: {_names(view.hand)}",
        f"Discard pile: {' '.join(map(card_name, view.pile)) or '-'}",
        f"Stock: {view.stock}",
        f"Opponent took: {_names(view.opponent_took) or '-'}",
    ]
    if view.knocker is not None:
        lines.append(f"{view.knocker} knocked: " + " | ".join(map(_names, view.melds)))
    if view.layoffs:
        lines.append("Laid off: " + " ".join(f"{card_name(c)}>{at + 1}" for c, at in view.layoffs))
    return lines


def action_name(action: int) -> str:
    """``7H``, ``draw upcard``, ``draw stock``, ``pass``, ``knock`` or ``meld 7H 8H 9H``."""
    if action < 52:
        return card_name(_FROM_OPENSPIEL[action])
    if action >= MELD_BASE:
        return "meld " + _names(MELDS[action - MELD_BASE])
    return {DRAW_UPCARD: "draw upcard", DRAW_STOCK: "draw stock", PASS: "pass", KNOCK: "knock"}[action]


def _names(cards: CardSet | Mask) -> str:
    return " ".join(card_name(c) for c in (cards if isinstance(cards, CardSet) else scan(cards)))
