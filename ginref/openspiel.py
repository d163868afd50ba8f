"""OpenSpiel's gin_rummy, played by ginref: RL code written against ``pyspiel`` runs on ginref.

``import ginref.openspiel`` registers ginref's gin rummy with pyspiel as ``ginref_gin_rummy``
(:mod:`ginref.spiel`) when pyspiel is installed (the ``openspiel`` extra); then
``pyspiel.load_game("ginref_gin_rummy", params)`` and :func:`openspiel_game` give the same game,
which OpenSpiel's own algorithms run. Without pyspiel, :func:`openspiel_game` gives the same
play in pure Python (:class:`~ginref.referee.openspiel_state.OpenSpielGame`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginref.referee.openspiel_state import OpenSpielGame

GAME_NAME = "ginref_gin_rummy"
"""the name ``pyspiel.load_game`` knows ginref's game by"""

try:
    from ginref import spiel
except ImportError:  # no pyspiel: the pure-Python game only
    spiel = None  # type: ignore[assignment]

__all__ = ["GAME_NAME", "openspiel_game"]


def openspiel_game(params: Mapping[str, int | bool | str] | None = None) -> Any:
    """The gin_rummy game, as ``pyspiel.load_game("gin_rummy", params)`` gives it, played by ginref.

    With pyspiel installed this is the registered pyspiel game (:class:`ginref.spiel.GinrefGame`,
    the same as ``pyspiel.load_game("ginref_gin_rummy", params)``). Without it, an
    :class:`~ginref.referee.openspiel_state.OpenSpielGame`: the same play and the same members in
    pure Python, but not a ``pyspiel.Game``, so pyspiel's C++ entry points and OpenSpiel's
    algorithms that check ``get_type()`` do not take it (docs/live.md).

    ``params`` are pyspiel's parameters (``knock_card``, ``gin_bonus``, ``undercut_bonus``,
    ``oklahoma``; ``hand_size``, ``num_ranks`` and ``num_suits`` only at their defaults), and
    ``rules``: a ginref rule set by name (default ``openspiel``); a parameter at gin_rummy's
    default leaves the rule set's own value.

    >>> game = openspiel_game({"knock_card": 7})
    >>> state = game.new_initial_state()
    >>> state.current_player(), len(state.chance_outcomes())
    (-1, 52)

    Returns the game, whose ``new_initial_state()`` starts a hand. Raises a
    :class:`~ginref.errors.GinrefError` for a parameter pyspiel does not have or ginref cannot
    play (with pyspiel, :class:`ginref.spiel.SpielIllegalAction`, a ``pyspiel.SpielError`` too).
    """
    if spiel is None:
        return OpenSpielGame(params)
    return spiel.GinrefGame(params)
