"""ginref's gin rummy as a registered pyspiel game: ``pyspiel.load_game("ginref_gin_rummy")``.

Importing this module registers the game with ``pyspiel.register_game``, as OpenSpiel's own
Python games (``open_spiel/python/games/``) register theirs; ``import ginref.openspiel`` imports
it when pyspiel is there, and :func:`ginref.openspiel_game` does too. It needs the ``openspiel``
extra.

The game is a ``pyspiel.Game`` and its states ``pyspiel.State`` objects, so that pyspiel's
C++ entry points (``pyspiel.MCTSBot``, ``pyspiel.evaluate_bots``, ``random_sim_test``,
``serialize_game_and_state``) take them, and OpenSpiel's Python algorithms run on them
unchanged. The play is :class:`~ginref.referee.openspiel_state.OpenSpielState`'s (a
:class:`~ginref.Table` underneath); this module only adapts it to pyspiel:

- the parameters are pyspiel gin_rummy's, plus ``rules``, a ginref rule set by name
  (default ``openspiel``); a gin_rummy parameter at its default leaves the rule set's own value;
- the game type matches gin_rummy's (sequential, explicit stochastic, imperfect information,
  zero sum, terminal rewards, an observation string and tensor, no information state);
- actions and players may be numpy integers; an illegal action raises
  :class:`SpielIllegalAction`, both a ``pyspiel.SpielError`` and a ``GinrefError``, and
  changes nothing;
- the observation tensor is gin_rummy's, entry for entry; the observation string is ginref's
  own (docs/live.md); ``information_state_string`` is the history with the opponent's dealt
  cards hidden, which pyspiel's gin_rummy answers too though its type claims none;
- Python callers get the state's members directly (``apply_action``, ``clone``,
  ``legal_actions`` and the rest run in Python with no C++ round trip); C++ callers reach
  the same code through pyspiel's hooks (``_apply_action``, ``_legal_actions``...).
  ``history()`` is the state's own: a state cloned in Python does not carry pyspiel's C++
  copy of the history, which only C++ code reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ginref.errors import GinrefError
from ginref.records.openspiel_actions import NUM_ACTIONS
from ginref.referee.openspiel_state import (
    PARAMETER_DEFAULTS,
    TENSOR_PIECES,
    TENSOR_SIZE,
    IllegalAction,
    OpenSpielGame,
    OpenSpielState,
)

__all__ = ["GAME_NAME", "GAME_TYPE", "GinrefGame", "GinrefObserver", "GinrefState", "SpielIllegalAction"]

GAME_NAME = "ginref_gin_rummy"
_T = TypeVar("_T")

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Gin Rummy (ginref)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETER_DEFAULTS),
)
"""gin_rummy's game type, under its own name and with ``rules`` among the parameters"""


class SpielIllegalAction(IllegalAction, pyspiel.SpielError):  # type: ignore[misc]
    """An illegal action or argument: what pyspiel raises (``SpielError``) and what ginref
    raises (:class:`~ginref.errors.GinrefError`) at once; the state is unchanged."""


def _spiel(error: IllegalAction) -> SpielIllegalAction:
    return SpielIllegalAction(str(error))


class GinrefGame(pyspiel.Game):  # type: ignore[misc]
    """The registered game: pyspiel's parameters (and ``rules``) over an :class:`OpenSpielGame`."""

    def __init__(self, params: Mapping[str, int | bool | str] | None = None) -> None:
        given = dict(params or {})
        try:
            self.core = OpenSpielGame(given)
        except GinrefError as error:  # a parameter or rule set it cannot play
            raise SpielIllegalAction(str(error)) from None
        core = self.core
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=52, num_players=2,
            min_utility=core.min_utility(), max_utility=core.max_utility(), utility_sum=0.0,
            max_game_length=core.max_game_length())
        super().__init__(GAME_TYPE, info, {**PARAMETER_DEFAULTS, **given})

    def new_initial_state(self) -> GinrefState:
        return GinrefState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GinrefObserver:
        """gin_rummy's observer: its tensor pieces for the observation type asked."""
        return GinrefObserver(iig_obs_type, params)


class GinrefState(pyspiel.State):  # type: ignore[misc]
    """A hand of the registered game: an :class:`OpenSpielState` behind pyspiel's ``State``."""

    def __init__(self, game: GinrefGame, core: OpenSpielState | None = None) -> None:
        super().__init__(game)
        self.core = game.core.new_initial_state() if core is None else core

    # -- what pyspiel's C++ calls (its hooks), and Python callers too -----------------------------

    def current_player(self) -> int:
        return self.core._mover

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        try:
            self.core.apply_action(action)
        except IllegalAction as error:
            raise _spiel(error) from None

    def _action_to_string(self, player: int, action: int) -> str:
        return self.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.core._mover == -4

    def returns(self) -> list[float]:
        return self.core.returns()

    def rewards(self) -> list[float]:
        return self.core.rewards()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def __str__(self) -> str:
        return str(self.core)

    # -- Python callers: the same answers without the C++ round trip --------------------------------

    def apply_action(self, action: int) -> None:
        """Play ``action`` (an int or a numpy integer); :class:`SpielIllegalAction` if it is
        not legal, and the state is unchanged."""
        try:
            self.core.apply_action(action)
        except IllegalAction as error:
            raise _spiel(error) from None

    def legal_actions(self, player: int | None = None) -> list[int]:
        core = self.core
        if player is None:  # the common call, answered from the state's cache in one step
            legal = core._legal
            if legal is None:
                legal = core._legal = core._legal_now()
            return legal[:]
        try:
            return core.legal_actions(player)
        except IllegalAction as error:
            raise _spiel(error) from None

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        return self._call(self.core.legal_actions_mask, player)

    def is_chance_node(self) -> bool:
        return self.core._mover == -1

    def is_player_node(self) -> bool:
        return self.core.is_player_node()

    def is_simultaneous_node(self) -> bool:
        return False

    def is_mean_field_node(self) -> bool:
        return False

    def is_initial_state(self) -> bool:
        return self.core.is_initial_state()

    def player_return(self, player: int) -> float:
        return self._call(self.core.player_return, player)

    def player_reward(self, player: int) -> float:
        return self._call(self.core.player_reward, player)

    def history(self) -> list[int]:
        return self.core.history()

    def history_str(self) -> str:
        return self.core.history_str()

    def full_history(self) -> list[Any]:
        return [pyspiel.PlayerAction(player, action) for player, action in self.core.full_history()]

    def move_number(self) -> int:
        return self.core.move_number()

    def action_to_string(self, player: int, action: int | None = None) -> str:
        if action is None:  # pyspiel's one-argument form: the player to move
            player, action = self.core.current_player(), player
        try:
            return self.core.action_to_string(player, action)
        except IllegalAction as error:
            raise _spiel(error) from None

    def observation_string(self, player: int | None = None) -> str:
        return self._call(self.core.observation_string, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._call(self.core.observation_tensor, player)

    def information_state_string(self, player: int | None = None) -> str:
        return self._call(self.core.information_state_string, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        raise SpielIllegalAction("gin_rummy has no information state tensor (its game type says so): "
                                 "use observation_tensor")

    def clone(self) -> GinrefState:
        return GinrefState(self.get_game(), self.core.clone())

    def child(self, action: int) -> GinrefState:
        child = self.clone()
        child.apply_action(action)
        return child

    def resample_from_infostate(self, player: int, sampler: Callable[[], float] | None = None) -> GinrefState:
        """A state drawn uniformly from those ``player`` cannot tell from this one
        (:meth:`OpenSpielState.resample_from_infostate`)."""
        return GinrefState(self.get_game(), self._call(self.core.resample_from_infostate, player, sampler))

    def _call(self, method: Callable[..., _T], *args: Any) -> _T:
        try:
            return method(*args)
        except IllegalAction as error:
            raise _spiel(error) from None

    def __repr__(self) -> str:
        return repr(self.core)


class GinrefObserver:
    """gin_rummy's observer (OpenSpiel's ``PyObserver`` interface): ``tensor`` and its named
    pieces in ``dict``, set by :meth:`set_from`; :meth:`string_from` is the observation string.
    Observation types as gin_rummy has them: no perfect recall; the observer's hand
    (single player), both hands (all players) or none; the public pieces or not."""

    def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise SpielIllegalAction(f"gin_rummy's observer takes no parameters; given {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.recall = bool(kind.perfect_recall)
        """the information state: a string only, as gin_rummy's observer has it"""
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        private = kind.private_info
        if self.recall:
            if not kind.public_info or private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise SpielIllegalAction("gin_rummy's perfect-recall observer is the information state only")
            self.private: str | None = "private_hand"
            self.public = True
            return
        self.private = ("private_hand" if private == pyspiel.PrivateInfoType.SINGLE_PLAYER else
                        "private_hands" if private == pyspiel.PrivateInfoType.ALL_PLAYERS else None)
        self.public = bool(kind.public_info)
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (2,))]
        if self.private is not None:
            pieces.append((self.private, (2, 52)))
        if self.public:
            pieces.extend(TENSOR_PIECES[2:])
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: GinrefState, player: int) -> None:
        if self.recall:
            raise SpielIllegalAction("gin_rummy has no information state tensor")
        core = state.core
        full = core.observation_tensor(player)
        if self.private == "private_hand" and self.public:
            self.tensor[:] = full
            return
        self.tensor.fill(0)
        self.dict["player"][:] = full[:2]
        if self.private == "private_hand":
            self.dict["private_hand"].flat[:] = full[2:106]
        elif self.private == "private_hands":
            for who in (0, 1):
                self.dict["private_hands"][who][:] = core.observation_tensor(who)[2 + 52 * who:54 + 52 * who]
        if self.public:
            self.tensor[-(TENSOR_SIZE - 106):] = full[106:]

    def string_from(self, state: GinrefState, player: int) -> str:
        if self.recall:
            return state.core.information_state_string(player)
        if self.private != "private_hand" or not self.public:
            raise SpielIllegalAction("gin_rummy's observation string is the default observation type's only")
        return str(state.core.observation_string(player))


pyspiel.register_game(GAME_TYPE, GinrefGame)
