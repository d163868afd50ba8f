"""ginref's registered game as a PettingZoo AEC environment, through Shimmy's OpenSpiel wrapper.

Needs the ``pettingzoo`` extra (Shimmy, PettingZoo, open_spiel). ``pettingzoo.test.api_test``
(PettingZoo's own conformance test) runs on ``OpenSpielCompatibilityV0`` over
``pyspiel.load_game("ginref_gin_rummy", {"rules": ...})`` under each rule set OpenSpiel's
actions can play, and a hand played through the AEC loop with the action masks ends with the
game's returns as the rewards.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
shimmy = pytest.importorskip("shimmy")
api_test = pytest.importorskip("pettingzoo.test").api_test

import ginref.openspiel  # noqa: E402,F401  (registers ginref_gin_rummy)
from tests.referee.test_openspiel_clients import RULES  # noqa: E402


def _env(rules: str) -> object:
    return shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game("ginref_gin_rummy", {"rules": rules}))


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test_passes(rules: str) -> None:
    api_test(_env(rules), num_cycles=200)


@pytest.mark.parametrize("rules", ["openspiel", "standard"])
@pytest.mark.parametrize("seed", range(4))
def test_a_hand_through_the_aec_loop(rules: str, seed: int) -> None:
    """Each agent steps with an action its mask allows, and ends with a reward of its return's
    sign. (Shimmy adds the terminal reward again for an agent that acts twice in a row at the
    end, the defender's last pass, with pyspiel's own gin_rummy too: only the sign is the game's.
    Shimmy's play is not reproducible by seed, with pyspiel's gin_rummy either.)"""
    env = _env(rules)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    final: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, info = env.last()  # type: ignore[attr-defined]
        assert observation.shape == (644,)
        if termination or truncation:
            final[agent] = reward
            action = None
        else:
            action = env.action_space(agent).sample(info["action_mask"])  # type: ignore[attr-defined]
            assert action in env.game_state.legal_actions()  # type: ignore[attr-defined]
        env.step(action)  # type: ignore[attr-defined]
    returns = env.game_state.returns()  # type: ignore[attr-defined]
    assert env.game_state.is_terminal() and returns[0] == -returns[1]  # type: ignore[attr-defined]
    for agent, points in zip(("player_0", "player_1"), returns, strict=True):
        assert (final[agent] > 0) == (points > 0) and (final[agent] < 0) == (points < 0)
