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
