"""OpenSpiel's gin_rummy game and state, played by ginref, in pure Python.

:mod:`ginref.spiel` puts these behind ``pyspiel.Game`` and ``pyspiel.State`` as the registered
game ``ginref_gin_rummy``; without pyspiel, :func:`ginref.openspiel_game` gives an
:class:`OpenSpielGame` itself (the same play and members, not a pyspiel game).

The state speaks OpenSpiel's action ids (:mod:`ginref.records.openspiel_actions`): 0-51 the
cards, 52 draw the upcard, 53 draw from the stock, 54 pass, 55 knock, 56-240 lay a meld.
Chance deals as pyspiel deals: ten cards to player 0, ten to player 1, the upcard (under an
eleven-card deal, RLCard's, player 0's eleventh card), then each stock card as it is drawn; the
same chance actions give the same hands. Player 0 moves first; player 1 deals.

The state is a :class:`~ginref.referee.table.Table` under the game's rule set (``openspiel`` by
default) with its parameters as overrides, its stock dealt at each draw (``stock_at_draw``). The
state only maps action ids to the table's moves and the table's legal moves back to action ids:
every rule of play (the wall, the 50th take of the discard pile, the repeated move, the knock
limit, the two layoffs per run end) is the table's, which is the referee's. OpenSpiel splits a
knock into steps (knock, the face-down discard or, for big gin, pass, each meld, pass) and a
defence too (each layoff, pass, each meld, pass); the state gathers the steps and asks the table
which may come next (:meth:`Table.declaration`, :meth:`Table.legal_moves`), then plays the whole
knock or defence as the table's moves. One departure of OpenSpiel is not copied: it decides
whether an 11-card hand may knock by melding all 11 cards at their best and dropping the highest
deadwood card, and so misses some knocks; the table offers a knock exactly when some discard
leaves deadwood within the limit (docs/live.md shows a hand). The draws and discards of mid-hand
are answered without building the table's moves (:meth:`OpenSpielState._plain_legal`, from the
rules' own predicates: the fast twin of the table's legal moves, held to them by a property test).

Beside the table the state keeps what OpenSpiel's observation tensor shows, as OpenSpiel keeps
it (:class:`Seen`): the tensor is pyspiel's entry for entry, the observation string is drawn
from the same facts, and ``returns()`` settles the two deadwood counts left
(:func:`ginref.scoring.settle`; :meth:`OpenSpielState._ruled`, the table's whole ruling, is its
checked twin). ``resample_from_infostate`` draws exactly from the deals a player cannot rule out.

An action that is not legal raises :class:`IllegalAction` (a ``GinrefError``) and leaves
the state as it was.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping

from ginref.cards import Card, Mask, card_name, scan
from ginref.errors import GinrefError, IllegalAction
from ginref.melds import mask_points_in, min_deadwood, min_deadwood_after_discard
from ginref.records.openspiel import GameParams
from ginref.records.openspiel_actions import (
    CHANCE,
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELDS,
    NUM_ACTIONS,
    PASS,
    PHASE_DEAL,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_FIRST_UPCARD,
    PHASE_KNOCK,
    PHASE_LAYOFF,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_WALL,
    PLAYERS,
    TERMINAL,
    action_name,
    card_from_openspiel,
    card_to_openspiel,
    layoff_assignments,
)
from ginref.referee.openspiel_view import (
    TENSOR_PIECES,
    TENSOR_SIZE,
    Seen,
    cards_of,
    observation_string,
    observation_tensor,
    to_ginref,
)
from ginref.referee.rules_of_play import may_draw_stock, takes_only_to_knock, within_knock_limit
from ginref.referee.table import IllegalMove, Move, Phase, Table
from ginref.rules import Rules, find_rules, with_overrides
from ginref.scoring import Ending, settle

__all__ = ["CHANCE", "TENSOR_PIECES", "TENSOR_SIZE", "TERMINAL", "IllegalAction", "OpenSpielGame",
           "OpenSpielState"]

HAND_SIZE = 10
DEALT = 2 * HAND_SIZE + 1
"""chance's cards before the first move: ten to each player, then the upcard"""
_FROM_OPENSPIEL = tuple(card_from_openspiel(a) for a in range(52))
_TO_OPENSPIEL = tuple(card_to_openspiel(c) for c in range(52))
_PARAMETERS = ("gin_bonus", "hand_size", "knock_card", "num_ranks", "num_suits", "oklahoma", "undercut_bonus")
PARAMETER_DEFAULTS: dict[str, int | bool | str] = {
    "gin_bonus": 25, "hand_size": 10, "knock_card": 10, "num_ranks": 13, "num_suits": 4, "oklahoma": False,
    "undercut_bonus": 25, "rules": "openspiel"}
"""pyspiel's gin_rummy parameters with its defaults, and ``rules``: the rule set played"""
MAX_RESAMPLES = 100_000
"""resample_from_infostate's bound on rejected draws (a draw is rejected when the opponent's
moves would not be legal with the cards drawn; far fewer are ever needed)"""


class OpenSpielGame:
    """pyspiel's ``Game`` for gin_rummy: parameters, rules and new states."""

    __slots__ = ("_drawable", "params", "rules", "rules_name")

    def __init__(self, params: Mapping[str, int | bool | str] | None = None) -> None:
        self.params, self.rules_name = _game_params(params or {})
        named = find_rules(self.rules_name)
        self.rules: Rules = _playable(with_overrides(named, dict(self.params.overrides())))
        self._drawable = tuple(may_draw_stock(self.rules, left) for left in range(53))
        """by the stock's size, whether a stock draw is allowed (:func:`may_draw_stock`, looked up)"""

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self)

    def _dealt_to(self, index: int) -> int:
        """The player chance's ``index``-th card of the deal goes to: ten to player 0, ten to
        player 1, then the upcard (-1, seen by both), or under an eleven-card deal (RLCard's)
        player 0's eleventh card: it has no upcard and discards first."""
        if index < 2 * HAND_SIZE:
            return index // HAND_SIZE
        return 0 if self.rules.first_turn == "eleven_card" else CHANCE

    def _upcard(self, dealt: list[Card]) -> Card | None:
        """The first upcard of the 21 cards ``dealt``: the last, or none under an eleven-card deal."""
        return dealt[-1] if self._dealt_to(DEALT - 1) == CHANCE else None

    def _table(self, dealt: list[Card]) -> Table:
        """The table for the 21 cards ``dealt`` (ginref's cards, in chance's order), player 1 dealing,
        each stock card dealt as it is drawn."""
        upcard = self._upcard(dealt)
        hands = (dealt[:HAND_SIZE] if upcard is not None else [*dealt[:HAND_SIZE], dealt[-1]],
                 dealt[HAND_SIZE:2 * HAND_SIZE])
        return Table(PLAYERS, self.rules, PLAYERS[1], hands=hands, upcard=upcard, stock_at_draw=True)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return 52

    def num_players(self) -> int:
        return 2

    def max_game_length(self) -> int:
        """The bound pyspiel's gin_rummy sets on the actions of a hand."""
        return 300

    def max_utility(self) -> float:
        """The most one hand can score: every point of deadwood (the defender's ten highest
        cards) and the largest bonus, doubled where a spade upcard doubles the hand."""
        rules = self.rules
        bonus = max(rules.gin_bonus, rules.undercut_bonus, rules.big_gin_bonus or 0)
        return float((98 + bonus) * (2 if rules.spade_double else 1))

    def min_utility(self) -> float:
        return -self.max_utility()

    def observation_tensor_shape(self) -> list[int]:
        return [TENSOR_SIZE]

    def observation_tensor_size(self) -> int:
        return TENSOR_SIZE

    def get_parameters(self) -> dict[str, int | bool | str]:
        """Every parameter with its value, as pyspiel's ``get_parameters()`` gives them."""
        values: dict[str, int | bool | str] = {name: getattr(self.params, name) for name in _PARAMETERS}
        return {**values, "rules": self.rules_name}

    def __str__(self) -> str:
        text = self.params.game_string()
        return text if self.rules_name == "openspiel" else f"{text[:-1]},rules={self.rules_name})"


def _game_params(params: Mapping[str, int | bool | str]) -> tuple[GameParams, str]:
    if not isinstance(params, Mapping):
        shown = type(params).__name__
        raise IllegalAction(f"gin_rummy parameters are a mapping of name to value, not {shown}")
    values: dict[str, int | bool] = {}
    rules = "openspiel"
    for name, value in params.items():
        if name not in PARAMETER_DEFAULTS:
            raise IllegalAction(f"unknown gin_rummy parameter {str(name)[:40]!r}; "
                                f"choose from: {', '.join(PARAMETER_DEFAULTS)}")
        if name == "rules":
            if not isinstance(value, str):
                shown = str(value)[:40]
                raise IllegalAction(f"gin_rummy parameter rules is a rule set's name, not {shown!r}")
            rules = find_rules(value).name
            continue
        wanted = bool if name == "oklahoma" else int
        if type(value) is not wanted or (wanted is int and not -1000 < value < 1000):
            raise IllegalAction(f"gin_rummy parameter {name} is {wanted.__name__}, not {str(value)[:40]!r}")
        values[name] = value
    game = GameParams(**values)  # type: ignore[arg-type]
    problem = game.problem()
    if problem is not None:
        raise IllegalAction(f"ginref cannot play gin_rummy with these parameters: {problem}")
    return game, rules


def _playable(rules: Rules) -> Rules:
    """``rules`` when OpenSpiel's actions can play them; else :class:`IllegalAction` saying why."""
    if rules.ace != "low" or rules.wraparound:
        raise IllegalAction(f"OpenSpiel's actions cannot play {rules.label}: its runs go round the corner "
                            "(Q-K-A, K-A-2), and OpenSpiel's 185 meld ids name only runs with the ace low")
    return rules


class OpenSpielState:
    """pyspiel's gin_rummy ``State``: one hand, action by action (see the module doc)."""

    __slots__ = (
        "_ambiguous",
        "_dealt",
        "_dealt_to",
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
        "_limit",
        "_melding",
        "_mover",
        "_returns",
        "_seen",
        "_sources",
        "_table",
        "_taken",
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
        """the knock's face-down discard, once chosen (``_BIG_GIN``: none)"""
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
        self._dealt_to: list[int] = []
        """for each chance outcome so far, the player it went to (-1: the upcard, seen by both)"""
        self._legal: list[int] | None = None
        self._returns: list[float] | None = None
        self._seen: Seen = Seen()
        """what OpenSpiel's observation tensor shows, kept as OpenSpiel keeps it"""
        self._mover = CHANCE
        """the player to move (CHANCE, TERMINAL), set after each action"""
        self._taken = -1
        self._limit = game.rules.knock_limit
        """the hand's knock limit, the table's once it is dealt (Oklahoma's is set by the upcard)"""
        """the card taken from the pile this turn (OpenSpiel's id), until the turn's discard; -1: none"""
        self._sources: dict[int, tuple[list[int], list[tuple[int, int]], list[int]]] | None = None
        """by player: where the cards hidden from it came from (:meth:`_hidden_deals`), once asked"""

    # -- pyspiel's questions ----------------------------------------------------------------

    def _phase(self) -> int:
        """OpenSpiel's phase (its names: :data:`PHASE_NAMES`)."""
        table = self._table
        if table is None or self._drawing:
            return PHASE_DEAL
        if self._knocking:
            return PHASE_KNOCK
        phase = table.phase
        if phase is Phase.DRAW:
            moves = table.moves
            both_passed = len(moves) == 2 and moves[1].kind == "pass"
            return PHASE_FIRST_UPCARD if both_passed else PHASE_DRAW
        return _PHASES[phase]

    def current_player(self) -> int:
        return self._mover

    def is_chance_node(self) -> bool:
        return self._mover == CHANCE

    def is_terminal(self) -> bool:
        return self._mover == TERMINAL

    def is_player_node(self) -> bool:
        return self._mover >= 0

    def is_simultaneous_node(self) -> bool:
        return False

    def is_mean_field_node(self) -> bool:
        return False

    def is_initial_state(self) -> bool:
        return not self._history

    def history(self) -> list[int]:
        return list(self._history)

    def history_str(self) -> str:
        return ", ".join(map(str, self._history))

    def move_number(self) -> int:
        return len(self._history)

    def full_history(self) -> list[tuple[int, int]]:
        """Each action with the player who took it (-1 chance), as pyspiel's ``PlayerAction`` pairs."""
        replay = OpenSpielState(self._game)
        pairs = []
        for action in self._history:
            pairs.append((replay.current_player(), action))
            replay.apply_action(action)
        return pairs

    def get_game(self) -> OpenSpielGame:
        return self._game

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card chance has not dealt, equally likely; empty when this is not a chance node."""
        if self._mover != CHANCE:
            return []
        deck = self._deck
        return list(map(_OUTCOMES[deck.bit_count()].__getitem__, cards_of(deck)))

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending (chance outcomes at a chance node, none when over)."""
        if player is not None and _index(player, "player") != self._mover:
            return []
        legal = self._legal
        return list(self._legal_cached() if legal is None else legal)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """A mask of the actions: 1 for each legal action id, 0 for the others: 52 entries at a
        chance node, 241 else."""
        mask = [0] * (52 if self.is_chance_node() else NUM_ACTIONS)
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def _legal_cached(self) -> list[int]:
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def returns(self) -> list[float]:
        """Each player's points for the hand: the winner's score and its negative; 0 and 0
        until the end, and for a hand that ends without a score."""
        if self._mover != TERMINAL:
            return [0.0, 0.0]
        if self._returns is None:
            self._returns = self._scored()
        return list(self._returns)

    def _scored(self) -> list[float]:
        """The returns from the two deadwood counts left at the end, settled by
        :func:`ginref.scoring.settle` under the rules: the fast twin of :meth:`_ruled` (which
        asks the table for its whole ruling), compared with it in tests."""
        seen, table = self._seen, self._table
        knocker = seen.knocker
        if knocker < 0 or table is None:
            return [0.0, 0.0]
        rules = self._game.rules
        mine, theirs = (mask_points_in(table.system, to_ginref(seen.hands[p]))
                        for p in (knocker, 1 - knocker))
        ending: Ending = "big_gin" if seen.big_gin else "knock" if mine else "gin"
        settled = settle(ending, mine, theirs, rules,
                         multiplier=rules.multiplier(self._game._upcard(self._dealt)))
        if settled.winner is None:
            return [0.0, 0.0]
        won = float(settled.points)
        winner = knocker if settled.winner == "knocker" else 1 - knocker
        return [won, -won] if winner == 0 else [-won, won]

    def _ruled(self) -> list[float]:
        """The returns from the table's ruling on the hand (:meth:`Table.outcome`)."""
        table = self._table
        ruled = None if table is None else table.outcome()
        if ruled is None:
            return [0.0, 0.0]
        won = float(ruled.points)
        return ([0.0, 0.0] if ruled.winner is None else
                [won, -won] if ruled.winner == PLAYERS[0] else [-won, won])

    def rewards(self) -> list[float]:
        """The points won by the last action: the returns once the hand ends, else 0 and 0."""
        return self.returns()

    def player_return(self, player: int) -> float:
        return self.returns()[_player(player)]

    def player_reward(self, player: int) -> float:
        return self.rewards()[_player(player)]

    def child(self, action: int) -> OpenSpielState:
        """A clone with ``action`` applied."""
        child = self.clone()
        child.apply_action(action)
        return child

    def clone(self) -> OpenSpielState:
        """An independent state: the table copied (:meth:`Table.copy`), the rest immutable or copied."""
        copy = OpenSpielState.__new__(OpenSpielState)
        copy._game, copy._deck, copy._dealt = self._game, self._deck, self._dealt[:]
        copy._drawing = self._drawing
        copy._table = None if self._table is None else self._table.copy()
        copy._knocking, copy._discard, copy._hand, copy._declared = (
            self._knocking, self._discard, self._hand, self._declared)
        copy._melding, copy._laid, copy._ambiguous = self._melding, self._laid, self._ambiguous
        copy._taken, copy._limit = self._taken, self._limit
        copy._history, copy._legal, copy._returns = self._history[:], self._legal, self._returns
        copy._dealt_to = self._dealt_to[:]
        copy._seen, copy._mover, copy._sources = self._seen.copy(), self._mover, None
        return copy

    def __deepcopy__(self, memo: dict[int, object]) -> OpenSpielState:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[..., OpenSpielState], tuple[object, ...]]:
        """Pickled as the game's parameters and the history: unpickling replays it."""
        return _replayed, (self._game.get_parameters(), tuple(self._history))

    def action_to_string(self, player: int, action: int) -> str:
        """The text pyspiel gives an action: ``Player: 0 Action: draw stock``; ``Chance outcome: 7H``
        for a card dealt."""
        action = _index(action, "action id")
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalAction(f"{str(action)[:40]!r} is not an action id 0..{NUM_ACTIONS - 1}")
        if _index(player, "player") == CHANCE:
            return f"Chance outcome: {card_name(_FROM_OPENSPIEL[action])}" if action < 52 else str(action)
        return f"Player: {player} Action: {action_name(action)}"

    # -- the legal actions: the table's moves as action ids ------------------------------------

    def _legal_now(self) -> list[int]:
        table = self._table
        if table is None or self._drawing:
            return cards_of(self._deck)
        plain = self._plain_legal(table)
        return self._legal_checked(table) if plain is None else plain

    def _plain_legal(self, table: Table) -> list[int] | None:
        """The legal actions of a plain draw or discard in mid-hand (above the stock's floor,
        after the opening), from the rules' own predicates and OpenSpiel's bookkeeping of the
        hands, without building the table's moves; None anywhere else. The fast twin of
        :meth:`_legal_checked` (``tests/referee/test_openspiel_lockstep.py`` compares them)."""
        game = self._game
        if self._knocking or len(table.moves) < 3 or not game._drawable[self._deck.bit_count()]:
            return None  # the opening, a knock, the floor (the wall, the hand's end): the table's
        phase = table.phase
        seen = self._seen
        if phase is Phase.DRAW:
            return [DRAW_UPCARD, DRAW_STOCK] if seen.upcard >= 0 else [DRAW_STOCK]
        if phase is not Phase.DISCARD:
            return None
        hand = seen.hands[self._mover]
        taken = self._taken
        banned = game.rules.banned_discard(None if taken < 0 else _FROM_OPENSPIEL[taken])
        legal = cards_of(hand & ~(1 << _TO_OPENSPIEL[banned]) if banned >= 0 else hand)
        return [*legal, KNOCK] if self._may_knock(table, to_ginref(hand), banned) else legal

    def _may_knock(self, table: Table, hand: Mask, banned: Card) -> bool:
        """Whether some knock is legal with ``hand`` (ginref's cards): big gin, or a discard
        other than ``banned`` leaving deadwood within the hand's limit (the table's
        :meth:`Table.legal_moves` offers a knock for each such discard)."""
        system, limit, rules = table.system, self._limit, table.rules
        if rules.big_gin_bonus is not None and hand.bit_count() == 11 and not min_deadwood(hand, system):
            return True
        if not within_knock_limit(min_deadwood_after_discard(hand, system), limit):
            return False
        return any(within_knock_limit(min_deadwood(hand & ~(1 << c), system), limit)
                   for c in scan(hand) if c != banned)

    def _legal_checked(self, table: Table) -> list[int]:
        """The legal actions from the table's legal moves (:meth:`Table.legal_moves`,
        :meth:`Table.declaration`): the checked twin of :meth:`_plain_legal`, and the only
        path outside plain draws and discards."""
        if self._knocking:
            return self._knock_steps(table)
        phase = table.phase
        if phase is Phase.DEFENCE:
            return self._defence_steps(table)
        moves = table.legal_moves()
        if phase is Phase.DISCARD:
            legal = sorted([_TO_OPENSPIEL[m.card] for m in moves if m.kind == "discard"])  # type: ignore[index]
            return [*legal, KNOCK] if moves and moves[-1].kind == "knock" else legal  # the knocks come last
        if phase is Phase.WALL:  # the last discard taken only to knock, or (RLCard's) to play on
            take = KNOCK if takes_only_to_knock(self._game.rules) else DRAW_UPCARD
            return sorted([take if m.kind == "take" else PASS for m in moves])
        return sorted({_MOVE_ACTIONS[m.kind] for m in moves})  # a draw is listed by each card it may deal

    def _knock_steps(self, table: Table) -> list[int]:
        """The knock's discard, then the melds that still allow a legal knock and pass once
        the declaration is one."""
        if self._discard is None:  # pass: no discard, big gin (where the rules have it)
            knocks = [m for m in table.legal_moves() if m.kind == "knock"]
            return sorted([_TO_OPENSPIEL[m.card] if m.card is not None else PASS for m in knocks])
        declared = self._declared
        played, _ = table.declaration(self._knock_move(declared))
        legal = [PASS] if played is not None else []
        left = self._own(table) & ~(1 << self._discard if self._discard >= 0 else 0)
        legal += [action for action, meld in _melds_within(left)
                  if table.declaration(self._knock_move((*declared, meld)))[1]]
        return sorted(legal)

    def _knock_move(self, melds: tuple[Mask, ...]) -> Move:
        """The knock being laid, with ``melds``: its discard, or none for big gin."""
        discard = self._discard
        return Move.knock(None, melds, "big_gin") if discard == _BIG_GIN else Move.knock(discard, melds)

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
        (OpenSpiel counts a card laid off for any meld it fits): each reassignment of them
        (:func:`~ginref.records.openspiel_actions.layoff_assignments`) is laid at the table, which
        refuses what its rules forbid (the layoffs beyond a run's end). With ``keep`` the
        first it takes stays laid, ``card`` too; otherwise the table is left as it was."""
        laid = [table.pop() for _ in range(self._laid)][::-1]
        knock = next(m for m in reversed(table.moves) if m.kind == "knock")
        cards = [*(move.card for move in laid), card]
        found = False
        for onto in layoff_assignments(knock.melds, cards):  # type: ignore[arg-type]
            pushed = 0
            try:
                for c, at in zip(cards, onto, strict=True):
                    table.push(Move.layoff(c, at))  # type: ignore[arg-type]
                    pushed += 1
            except IllegalMove:
                pass
            else:
                found = True
                if keep:
                    return True
            for _ in range(pushed):
                table.pop()
            if found:
                break
        for move in laid:
            table.push(move)
        return found

    # -- moves ------------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Play ``action``; an action that is not legal raises :class:`IllegalAction` and
        changes nothing."""
        if type(action) is not int:
            action = _index(action, "action id")
        if self._mover == CHANCE:
            if not (0 <= action < 52 and self._deck >> action & 1):
                raise IllegalAction(self._refusal(action))
        else:
            legal = self._legal
            if action not in (self._legal_cached() if legal is None else legal):
                raise IllegalAction(self._refusal(action))
        self._play_legal(action)

    def _play_legal(self, action: int) -> None:
        """Play an action known to be legal here, or one whose legality the table checks
        (a replay with other hidden cards: the table refuses what those cards make illegal)."""
        table = self._table
        self._legal = self._sources = None
        mover = None
        if table is None or self._drawing:
            mover = self._deal(action)
        elif self._knocking:
            self._knock(action, table)
        elif table.phase is Phase.DEFENCE:
            self._defend(action, table)
        else:
            mover = self._play(action, table)
        self._history.append(action)
        self._mover = self._mover_now() if mover is None else mover

    def _mover_now(self) -> int:
        """The player to move as the table says (CHANCE while a card is to be dealt): the
        checked twin of the mover :meth:`_play` and :meth:`_deal` tell after a plain move."""
        table = self._table
        if table is None or self._drawing:
            return CHANCE
        to_move = table.to_move
        return TERMINAL if to_move is None else _SEATS[to_move]

    def _refusal(self, action: object) -> str:
        shown = str(action)[:40]
        phase = self._phase()
        if phase == PHASE_OVER:
            return f"action {shown}: the hand is over"
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return f"{shown!r} is not an action id 0..{NUM_ACTIONS - 1}"
        who = "chance" if phase == PHASE_DEAL else f"player {self.current_player()}"
        return (f"action {action} ({action_name(action)}) is not legal for {who} "
                f"in the {PHASE_NAMES[phase]} phase")

    def _deal(self, action: int) -> int | None:
        """Chance deals a card: the player to move next when the deal is a stock draw's (its
        drawer) or one of the 21 before the last, else None."""
        self._deck &= ~(1 << action)
        c = _FROM_OPENSPIEL[action]
        seen = self._seen
        if self._drawing:
            table = self._table
            assert table is not None
            seen.hands[seen.last] |= 1 << action
            self._dealt_to.append(seen.last)
            table.push(_DRAWS[c])
            self._drawing = False
            return TERMINAL if table.phase is Phase.OVER else seen.last
        dealt = self._dealt
        to = self._game._dealt_to(len(dealt))
        if to >= 0:
            seen.hands[to] |= 1 << action
        else:
            seen.upcard = action
        self._dealt_to.append(to)
        dealt.append(c)
        if len(dealt) == DEALT:
            self._table = self._game._table(dealt)
            self._limit = self._table.knock_limit
        return CHANCE if len(dealt) < DEALT else None

    def _play(self, action: int, table: Table) -> int | None:
        """A draw, a discard, a pass or the knock: the player to move next when a plain
        draw or discard tells it (the table has said whether the hand is over), else None."""
        seen = self._seen
        player = seen.last = self._mover
        self._taken = seen.upcard if action == DRAW_UPCARD else -1
        if action == DRAW_STOCK:
            self._drawing = True
            seen.bury()
            return CHANCE
        if action == KNOCK:
            if table.phase is Phase.WALL:
                table.push(_TAKE)
                seen.take(player, from_pile=True)
            self._knocking, self._hand = True, self._hand_to_move(table)
            seen.knocker = player
        elif action < 52:
            table.push(_DISCARDS[action])
            seen.give(player, action)
            seen.upcard = action
            after = table.phase
            if after is Phase.OVER:  # the repeated move: OpenSpiel's turn has passed
                seen.last = 1 - player
                return TERMINAL
            return 1 - player if after is not Phase.UPCARD else None
        elif action == DRAW_UPCARD:
            table.push(_TAKE)
            if table.phase is Phase.OVER:  # the 50th take ends the hand before the card moves
                return TERMINAL
            seen.take(player, from_pile=True)
            return player
        else:
            table.push(_PASS)
        return None

    def _knock(self, action: int, table: Table) -> None:
        seen = self._seen
        if self._discard is None:
            if action == PASS:
                self._discard, seen.big_gin = _BIG_GIN, True
                return
            self._discard = _FROM_OPENSPIEL[action]
            seen.give(seen.last, action)
            seen.pile |= 1 << action
        elif action == PASS:
            played, _ = table.declaration(self._knock_move(self._declared))
            if played is None:
                raise IllegalAction("the knock laid is not legal with these cards")
            table.push(played)
            self._knocking, self._discard, self._declared = False, None, ()
            self._melding, self._hand = not table.layoffs_allowed, self._hand_to_move(table)
            seen.last = 1 - seen.last
        else:
            self._declared = (*self._declared, MELDS[action - MELD_BASE])
            seen.lay(action)

    def _defend(self, action: int, table: Table) -> None:
        seen = self._seen
        if self._melding:
            if action == PASS:
                played, _ = table.declaration(Move.finish(self._declared))
                if played is None:
                    raise IllegalAction("the defence laid is not legal with these cards")
                table.push(played)
            else:
                self._declared = (*self._declared, MELDS[action - MELD_BASE])
                seen.lay(action)
        elif action == PASS:
            self._melding = True
        else:
            self._lay_off(_FROM_OPENSPIEL[action], table)
            seen.give(seen.last, action)
            seen.laid_off |= 1 << action

    def _lay_off(self, card: Card, table: Table) -> None:
        fits = [m for m in table.legal_moves() if m.kind == "layoff" and m.card == card]
        if fits:
            table.push(fits[0])
            self._ambiguous = self._ambiguous or len(fits) > 1
        else:
            if not self._relay(table, card, keep=True):  # legal_actions offered it: a relay exists
                raise IllegalAction(f"{card_name(card)} cannot be laid off here")
        self._laid += 1

    # -- the view ---------------------------------------------------------------------------

    def observation_string(self, player: int | None = None) -> str:
        """What ``player`` knows, as text (default: the player to move): the phase, the knock
        limit, its hand, the upcard, the discard pile below it, the stock's size, the cards the
        opponent took from the pile and still holds, the melds each player has laid and the
        cards laid off; at the end, what is left in the opponent's hand. The same facts as the
        observation tensor, and the cards seen taken; nothing else (docs/live.md)."""
        player = self._observer(player)
        limit = self._limit
        return observation_string(self._seen, player, PHASE_NAMES[self._phase()], limit,
                                  self._deck.bit_count(), over=self._mover == TERMINAL)

    def information_state_string(self, player: int | None = None) -> str:
        """Everything ``player`` has seen, in order (default: the player to move): the action
        history with each card chance dealt to the opponent shown as ``?``. Perfect recall, and a
        function of what the player has seen only. gin_rummy's game type claims no information
        state, but pyspiel's gin_rummy answers this call, and OpenSpiel's ISMCTS makes it by default."""
        player = self._observer(player)
        dealt = iter(self._dealt_to)
        words = ["?" if by_chance and next(dealt) == 1 - player else str(action)
                 for action, by_chance in zip(self._history, self._chance_steps(), strict=True)]
        return f"Player: {player}\n" + " ".join(words)

    def _chance_steps(self) -> list[bool]:
        """For each action of the history, whether chance took it: the 21 of the deal, and
        the card after each draw from the stock."""
        steps = []
        after_draw = False
        for i, action in enumerate(self._history):
            is_chance = i < DEALT or after_draw
            steps.append(is_chance)
            after_draw = not is_chance and action == DRAW_STOCK
        return steps

    def _observer(self, player: int | None) -> int:
        """The player observing: ``player``, or the player to move."""
        if player is None:
            player = self.current_player()
            if player < 0:
                raise IllegalAction("no player is to move here: name the player observing")
        return _player(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of pyspiel's gin_rummy for ``player`` (default: the player to move),
        entry for entry (:data:`TENSOR_PIECES`): the observer, its own hand, the player to move,
        the knock card, the upcard, the discard pile, the stock's size and the melds laid."""
        return self._tensor(self._observer(player))

    def _tensor(self, player: int) -> list[float]:
        return observation_tensor(self._seen, player, self._turn_shown(), self._limit, self._deck.bit_count())

    def _turn_shown(self) -> int:
        """The player OpenSpiel's tensor shows to move: none at chance, the last to move at the end."""
        if self.is_chance_node():
            return CHANCE
        return self._seen.last if self.is_terminal() else self.current_player()

    def resample_from_infostate(
            self, player: int, sampler: Callable[[], float] | None = None) -> OpenSpielState:
        """A state drawn uniformly from those ``player`` cannot tell from this one: every deal
        of the cards it has not seen to the opponent's hidden deals and stock draws under which
        the opponent's moves are all legal (a card the opponent showed later is dealt to it
        before it showed it). ``sampler`` returns a float in [0, 1) that seeds the draw
        (pyspiel's ``UniformProbabilitySampler``); without it the draw is unseeded.

        Rejection sampling: a draw whose replay refuses a move is drawn again, so the draw is
        exactly uniform over the deals the player cannot rule out."""
        player = _player(player)
        rng = random.Random(None if sampler is None else int(sampler() * (1 << 53)))
        if self._sources is None:
            self._sources = {}
        sources = self._sources.get(player)
        if sources is None:
            sources = self._sources[player] = self._hidden_deals(1 - player)
        hidden, shown, pool = sources
        for _ in range(MAX_RESAMPLES):
            history = self._history[:]
            free = list(hidden)
            for card, before in shown:
                at = rng.choice([i for i in free if i < before])
                free.remove(at)
                history[at] = card
            for at, card in zip(free, rng.sample(pool, len(free)), strict=True):
                history[at] = card
            state = _replay(self._game, history, checked=False)
            if state is not None:
                return state
        raise IllegalAction(f"no deal consistent with player {player}'s view was drawn "
                            f"in {MAX_RESAMPLES} tries")

    def _hidden_deals(self, opponent: int) -> tuple[list[int], list[tuple[int, int]], list[int]]:
        """The opponent's hidden chance outcomes (their places in the history); the cards it
        showed that it did not take from the pile, each with the place it showed it, by place;
        and the cards the other player has not seen."""
        replay = OpenSpielState(self._game)
        hidden: list[int] = []
        shown: dict[int, int] = {}
        took = 0
        known = 0
        for at, action in enumerate(self._history):
            if replay.is_chance_node():
                dealt = len(replay._dealt)
                to = replay._seen.last if replay._drawing else self._game._dealt_to(dealt)
                if to == opponent:
                    hidden.append(at)
                else:
                    known |= 1 << action
            elif replay.current_player() == opponent:
                before = replay._seen.hands[opponent]
                upcard = replay._seen.upcard
                replay._play_legal(action)  # the history is legal
                if upcard >= 0 and replay._seen.hands[opponent] >> upcard & 1:
                    took |= 1 << upcard  # taken from the pile: a card both have seen
                gone = before & ~replay._seen.hands[opponent]
                for card in scan(gone & ~took):
                    shown.setdefault(card, at)
                continue
            replay._play_legal(action)  # the history is legal
        places = sorted(shown.items(), key=lambda item: item[1])
        unseen = ((1 << 52) - 1) & ~known
        for card, _ in places:
            unseen &= ~(1 << card)
        return hidden, places, list(scan(unseen))

    def stock_size(self) -> int:
        return self._deck.bit_count()

    def __str__(self) -> str:
        return "\n\n".join(self.observation_string(p) for p in (0, 1))

    def __repr__(self) -> str:
        return f"<gin_rummy state: {PHASE_NAMES[self._phase()]}, history {self.history_str()[:60]}>"


_INTEGER_TYPES: set[type] = set()
"""the integer types other than int already taken (numpy's, which OpenSpiel's clients pass at
every step): known not to be bools, so their values are read at once; at most 16"""


def _index(value: object, what: str) -> int:
    """An action id or a player as an int: Python's, numpy's, anything with ``__index__``."""
    kind = type(value)
    if kind is int:
        return value  # type: ignore[return-value]
    try:
        if kind not in _INTEGER_TYPES and (isinstance(value, bool) or kind.__name__ in ("bool", "bool_")):
            raise TypeError  # True is not an action (numpy 2 calls its bool "bool")
        index = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        shown = str(value)[:40]
        raise IllegalAction(f"{shown!r} is not an action id 0..{NUM_ACTIONS - 1}" if what == "action id"
                            else f"{shown!r} is not a {what}") from None
    if len(_INTEGER_TYPES) < 16:
        _INTEGER_TYPES.add(kind)
    return index


def _player(value: object) -> int:
    player = _index(value, "player")
    if player not in (0, 1):
        raise IllegalAction(f"player {player} is not 0 or 1")
    return player


def _replay(game: OpenSpielGame, history: list[int], *, checked: bool = True) -> OpenSpielState | None:
    """The state ``history`` reaches, or None when a move of it is not legal. Unchecked, the
    actions are those of a legal history with other hidden cards: each is legal in its phase,
    and the table refuses what the cards make illegal (a discard not held, a knock over the
    limit, a layoff that does not fit), as it refuses any move."""
    state = OpenSpielState(game)
    try:
        if checked:
            for action in history:
                state.apply_action(action)
        else:
            for action in history:
                if state._mover == CHANCE and not state._deck >> action & 1:
                    return None
                state._play_legal(action)
    except GinrefError:
        return None
    return state


def _replayed(params: Mapping[str, int | bool | str], history: tuple[int, ...]) -> OpenSpielState:
    """A state unpickled: the game rebuilt, the history replayed."""
    state = _replay(OpenSpielGame(params), list(history))
    if state is None:
        raise IllegalAction("a pickled gin_rummy state whose history is not legal")
    return state


_PHASES = {Phase.UPCARD: PHASE_FIRST_UPCARD, Phase.DISCARD: PHASE_DISCARD, Phase.WALL: PHASE_WALL,
           Phase.DEFENCE: PHASE_LAYOFF, Phase.OVER: PHASE_OVER}
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
_SEATS = {name: seat for seat, name in enumerate(PLAYERS)}
_BIG_GIN = -1
"""the knock's discard when there is none: big gin"""
_OUTCOMES = ((), *(tuple((a, 1.0 / n) for a in range(52)) for n in range(1, 53)))
"""each card's chance outcome (the card, its chance) when ``n`` cards are left"""


def _melds_within(cards: Mask) -> list[tuple[int, Mask]]:
    """OpenSpiel's melds made of ``cards`` only, with their action ids."""
    return [(action, meld) for low in scan(cards) for action, meld in _MELDS_FROM[low]
            if meld & cards == meld]
