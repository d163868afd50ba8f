"""pyspiel bots for ``spiel:`` (tests/match/test_spiel.py): OpenSpiel's own, made as the
arena makes them, ``factory(game, player, seed)``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found,import-untyped,unused-ignore]


def uniform(game: Any, player: int, seed: int) -> Any:
    """pyspiel's uniform random bot (C++)."""
    return pyspiel.make_uniform_random_bot(player, seed)


def small_mcts(game: Any, player: int, seed: int) -> Any:
    """OpenSpiel's Python MCTS with a small budget: eight simulations, one random rollout each."""
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


class Knocker:
    """A pyspiel-style bot in Python: draws from the stock, discards its highest card, knocks
    whenever it may and lays every meld it may (the knock's steps, one action at a time)."""

    KNOCK, DRAW_STOCK, MELD_BASE = 55, 53, 56

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if self.KNOCK in legal:
            return self.KNOCK
        melds = [a for a in legal if a >= self.MELD_BASE]
        if melds:
            return int(melds[0])
        if self.DRAW_STOCK in legal:
            return self.DRAW_STOCK
        cards = [a for a in legal if a < 52]
        return int(max(cards, key=lambda a: (a % 13, a))) if cards else int(legal[-1])


def knocker(game: Any, player: int, seed: int) -> Any:
    return Knocker(seed)
