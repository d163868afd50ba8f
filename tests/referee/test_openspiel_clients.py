"""OpenSpiel's own clients, unchanged, on ``pyspiel.load_game("ginref_gin_rummy")``.

Each client is OpenSpiel's code as shipped in open_spiel 2.0.2: pyspiel's C++ test harness
(``random_sim_test``, with serialization, as OpenSpiel tests its Python games), Python and C++
``evaluate_bots`` with uniform random bots, the Python and the C++ ``MCTSBot`` with random
rollouts, ``ISMCTSBot``, ``rl_environment.Environment`` stepped by a random agent, and
``examples/example.py`` run as a program. With the same seeds the Python clients play the same
games on ginref's game and on pyspiel's ``gin_rummy``; the one place they may part is a knock
OpenSpiel's 11-card shortcut misses (docs/live.md), and then only where brute force confirms it.
Small seeded slices run by default, bigger ones under ``-m slow``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import ginref  # noqa: E402
import ginref.openspiel  # noqa: E402  (registers ginref_gin_rummy)
from ginref.records.openspiel import KNOCK  # noqa: E402
from ginref.spiel import GinrefState, SpielIllegalAction  # noqa: E402
from tests.support.lockstep import brute_force_knock  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ["openspiel", "standard", "oklahoma", "cardhearth", "straight", "eaai", "hollywood", "hoyle",
         "rlcard"]
"""the rule sets OpenSpiel's actions can play: every preset but round_the_corner, whose runs
round the corner no meld id names"""


def _game(rules: str = "openspiel", **params: Any) -> Any:
    return pyspiel.load_game("ginref_gin_rummy", {"rules": rules, **params})


# -- the registered game ------------------------------------------------------------------------


def test_the_registered_game_is_pyspiels_gin_rummy_by_type() -> None:
    ours, theirs = _game(), pyspiel.load_game("gin_rummy")
    assert isinstance(ours, pyspiel.Game) and isinstance(ours.new_initial_state(), pyspiel.State)
    mine, spiel = ours.get_type(), theirs.get_type()
    for field in ("dynamics", "chance_mode", "information", "utility", "reward_model", "max_num_players",
                  "min_num_players", "provides_information_state_string",
                  "provides_information_state_tensor", "provides_observation_string",
                  "provides_observation_tensor"):
        assert getattr(mine, field) == getattr(spiel, field), field
    assert set(mine.parameter_specification) == {*spiel.parameter_specification, "rules"}
    for member in ("num_distinct_actions", "max_chance_outcomes", "num_players", "max_game_length",
                   "min_utility", "max_utility", "observation_tensor_shape", "observation_tensor_size",
                   "utility_sum"):
        assert getattr(ours, member)() == getattr(theirs, member)(), member
    assert ginref.openspiel_game().get_type().short_name == "ginref_gin_rummy"


def test_parameters_and_rules_are_the_games() -> None:
    game = _game("standard", knock_card=8)
    assert game.get_parameters()["rules"] == "standard"
    assert game.core.rules.knock_limit == 8 and game.core.rules.gin_bonus == 20  # standard's own
    with pytest.raises(ginref.GinrefError, match="185 meld ids name only runs with the ace low"):
        _game("round_the_corner")
    with pytest.raises(pyspiel.SpielError, match="its runs go round the corner"):
        ginref.openspiel_game({"rules": "round_the_corner"})
    with pytest.raises(pyspiel.SpielError):
        _game("no_such_rules")


def test_every_preset_but_round_the_corner_is_playable() -> None:
    from ginref.rules import PRESET_NAMES

    assert sorted([*RULES, "round_the_corner"]) == sorted(PRESET_NAMES)


def test_an_illegal_action_is_a_spiel_error_and_a_ginref_error_and_changes_nothing() -> None:
    state = _game().new_initial_state()
    state.apply_action(np.int64(28))
    for action in (28, np.int32(28), 241, -1, 53):
        with pytest.raises(pyspiel.SpielError) as raised:
            state.apply_action(action)
        assert isinstance(raised.value, ginref.GinrefError)
    assert state.history() == [28] and state.legal_actions_mask()[28] == 0
    with pytest.raises(SpielIllegalAction):
        state.observation_tensor()  # a chance node: no player to observe for
    with pytest.raises(SpielIllegalAction):
        state.information_state_tensor(0)  # gin_rummy has none


def test_the_state_members_openspiels_clients_use() -> None:
    state = _game().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = np.int64(state.current_player())
    assert state.legal_actions(player) == [52, 54] and state.legal_actions(1 - player) == []
    assert sum(state.legal_actions_mask()) == 2 and len(state.legal_actions_mask()) == 241
    child = state.child(np.int64(54))
    assert child.current_player() == 1 and state.current_player() == 0 and isinstance(child, GinrefState)
    assert not state.is_simultaneous_node() and not state.is_mean_field_node() and state.is_player_node()
    assert state.rewards() == [0.0, 0.0] and state.player_return(player) == 0.0
    assert state.observation_tensor() == state.observation_tensor(0)
    assert len(state.observation_tensor(1)) == 644
    assert state.observation_string() == state.observation_string(np.int64(0))
    assert state.action_to_string(np.int64(54)) == "Player: 0 Action: pass"
    again = _game().deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


def test_make_observer_gives_the_tensor_and_string() -> None:
    from open_spiel.python.observation import make_observation

    game = _game()
    observation = make_observation(game)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    observation.set_from(state, 0)
    assert list(observation.tensor) == state.observation_tensor(0)
    assert set(observation.dict) == {"player", "private_hand", "current_player", "knock_card", "upcard",
                                     "discard_pile", "stock_size", "layed_melds"}
    assert observation.string_from(state, 1) == state.observation_string(1)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 1)
    assert len(public.tensor) == 644 - 104 and list(public.tensor[2:]) == state.observation_tensor(1)[106:]


# -- pyspiel's own harness and C++ clients -----------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_random_sim_test_with_serialization(rules: str) -> None:
    pyspiel.random_sim_test(_game(rules), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_random_sim_test_many(rules: str) -> None:
    pyspiel.random_sim_test(_game(rules), num_sims=40, serialize=True, verbose=False)


def test_cpp_evaluate_bots_with_uniform_random_bots() -> None:
    game = _game()
    for seed in range(5):
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in (0, 1)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert returns[0] == -returns[1]


def test_cpp_mcts_bot_with_random_rollouts() -> None:
    game = _game("standard")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 3)
    mcts = pyspiel.MCTSBot(game, evaluator, 2.0, 8, 1000, False, 3, False)
    bots = [mcts, pyspiel.make_uniform_random_bot(1, 4)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert returns[0] == -returns[1]


def test_serialize_game_and_state_round_trips() -> None:
    game = _game("oklahoma")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    assert state2.returns() == state.returns() and str(state2) == str(state)


# -- OpenSpiel's Python clients, and the same games as pyspiel's gin_rummy -------------------------------


def _parting_is_a_missed_knock(ours: Any, theirs: Any) -> bool:
    """Replay both to where the histories part: there ginref offers a knock pyspiel's shortcut
    misses, and brute force says the knock is legal."""
    a, b = ours.history(), theirs.history()
    at = next(i for i in range(min(len(a), len(b)) + 1) if i == min(len(a), len(b)) or a[i] != b[i])
    mine, spiel = _game().new_initial_state(), pyspiel.load_game("gin_rummy").new_initial_state()
    for action in a[:at]:
        mine.apply_action(action)
        spiel.apply_action(action)
    if sorted([*spiel.legal_actions(), KNOCK]) != mine.legal_actions():
        return False
    hand = spiel.hands()[spiel.current_player()]
    if spiel.current_phase() == pyspiel.gin_rummy.Phase.WALL:
        hand = [*hand, spiel.upcard()]
    return brute_force_knock(hand, 10)


def _same_game(play: Any, seed: int) -> bool:
    """``play(game, seed)`` on both games: the same history and returns, or parted at a missed knock.
    True when the games were the same throughout."""
    ours, theirs = play(_game(), seed), play(pyspiel.load_game("gin_rummy"), seed)
    if ours.history() == theirs.history():
        assert ours.returns() == theirs.returns()
        return True
    assert _parting_is_a_missed_knock(ours, theirs), seed
    return False


def _evaluate_random(game: Any, seed: int) -> Any:
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    state = game.new_initial_state()
    bots = [uniform_random.UniformRandomBot(p, np.random.RandomState(seed + p)) for p in (0, 1)]
    evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed))
    return state


def _mcts(game: Any, seed: int, simulations: int = 6) -> Any:
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    evaluate_bots.evaluate_bots(state, [bot, uniform_random.UniformRandomBot(1, np.random.RandomState(seed))],
                                np.random.RandomState(seed))
    return state


def _rl_episode(game: Any, seed: int) -> Any:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    env = rl_environment.Environment(game)
    env.seed(seed)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in (0, 1)]
    np.random.seed(seed)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == 644
        step = env.step([agents[player].step(step).action])
    for agent in agents:
        agent.step(step)
    assert step.rewards == env.get_state.returns()
    return env.get_state


def test_python_evaluate_bots_plays_pyspiels_games() -> None:
    same = sum(_same_game(_evaluate_random, seed) for seed in range(20))
    assert same >= 18


def test_python_mcts_bot_plays_pyspiels_games() -> None:
    same = sum(_same_game(_mcts, seed) for seed in range(2))
    assert same >= 1


def test_rl_environment_plays_pyspiels_episodes() -> None:
    same = sum(_same_game(_rl_episode, seed) for seed in range(10))
    assert same >= 9


@pytest.mark.slow
def test_same_games_as_pyspiel_many() -> None:
    assert sum(_same_game(_evaluate_random, seed) for seed in range(300)) >= 290
    assert sum(_same_game(_rl_episode, seed) for seed in range(300)) >= 290
    assert sum(_same_game(_mcts, seed) for seed in range(30)) >= 28


@pytest.mark.parametrize("rules", ["openspiel", "standard"])
def test_python_mcts_bot_runs_under_rules(rules: str) -> None:
    from open_spiel.python.algorithms import mcts

    game = _game(rules)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(bot.step(state))
    assert state.returns()[0] == -state.returns()[1]


@pytest.mark.parametrize("keys", ["observation", "information state"])
def test_ismcts_bot_plays_a_hand(keys: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random

    game = _game()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(4))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 5, random_state=np.random.RandomState(4),
                             use_observation_string=keys == "observation"),
            uniform_random.UniformRandomBot(1, np.random.RandomState(4))]
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    while not state.is_terminal():  # evaluate_bots' loop: ISMCTSBot has no restart_at
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.returns()[0] == -state.returns()[1]


def test_openspiels_example_program_runs() -> None:
    code = ("import sys, runpy, ginref.openspiel; sys.argv = ['example', '--game_string=ginref_gin_rummy']; "
            "runpy.run_module('open_spiel.python.examples.example', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Utility for player 0 is" in done.stdout and "Sampled outcome" in done.stdout


# -- resample_from_infostate: uniform over the deals the player cannot rule out ----------------------


def _played_to(seed: int, moves: int, rules: str = "openspiel") -> Any:
    rng = np.random.RandomState(seed)
    state = _game(rules).new_initial_state()
    while not state.is_terminal() and len(state.history()) < moves:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", ["openspiel", "rlcard"])
@pytest.mark.parametrize("seed", range(6))
def test_a_resampled_state_looks_the_same_to_the_player(seed: int, rules: str) -> None:
    state = _played_to(seed, 21 + 8 * seed, rules)
    player = max(state.current_player(), 0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(20):
        other = state.resample_from_infostate(player, sampler)
        assert other.observation_string(player) == state.observation_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.legal_actions(player) == state.legal_actions(player)
        own = slice(10 * player, 10 * player + 10)
        assert other.history()[own] == state.history()[own] and len(other.history()) == len(state.history())


def test_resampling_deals_each_unseen_card_to_the_opponent_equally_often() -> None:
    state = _played_to(1, 21)  # the deal: player 0 has seen its ten and the upcard
    counts = np.zeros(52)
    draws = 2000
    rng = np.random.RandomState(0)
    for _ in range(draws):
        other = state.resample_from_infostate(0, lambda: rng.random_sample())
        counts[other.history()[10:20]] += 1
    unseen = sorted(set(range(52)) - set(state.history()[:10]) - {state.history()[20]})
    assert counts[[c for c in range(52) if c not in unseen]].sum() == 0
    expected = draws * 10 / 41
    chi2 = (((counts[unseen] - expected) ** 2) / expected).sum()
    assert chi2 < 80  # 40 degrees of freedom: p < 1e-4 to fail by chance


def test_under_rlcards_deal_the_eleventh_card_is_hidden_from_the_dealer() -> None:
    """RLCard's rules deal player 0 eleven cards and turn no upcard: player 1 has not seen the
    21st card, so resampling for it deals that card anew from the cards it has not seen."""
    state = _played_to(3, 21, "rlcard")
    rng = np.random.RandomState(0)
    eleventh = set()
    for _ in range(300):
        other = state.resample_from_infostate(1, lambda: rng.random_sample())
        assert other.history()[10:20] == state.history()[10:20]
        eleventh.add(other.history()[20])
    assert len(eleventh) > 20 and not eleventh & set(state.history()[10:20])
    assert {state.resample_from_infostate(0, lambda: rng.random_sample()).history()[20]
            for _ in range(20)} == {state.history()[20]}


def test_a_card_the_opponent_showed_is_dealt_to_it_before_it_showed_it() -> None:
    for seed in range(10):
        state = _played_to(seed + 50, 60)
        if state.is_terminal():
            continue
        player = max(state.current_player(), 0)
        for _ in range(5):
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            replay = _game().new_initial_state()
            for action in other.history():
                replay.apply_action(action)  # every move legal in the deal drawn
            assert str(replay) == str(other)


def test_the_information_state_observer_gives_the_string() -> None:
    from open_spiel.python.observation import make_observation

    game = _game()
    state = game.new_initial_state()
    for _ in range(25):
        state.apply_action(state.legal_actions()[0])
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.string_from(state, 1) == state.information_state_string(1)
    assert state.information_state_string(1).split("\n")[1].split()[:10] == ["?"] * 10


def test_get_all_states_tells_states_apart_as_pyspiel_does() -> None:
    """States whose text differs only in the order cards were dealt are one state to both."""
    from open_spiel.python.algorithms.get_all_states import get_all_states

    counts = [len(get_all_states(game, depth_limit=2, include_terminals=True, include_chance_states=True,
                                 to_string=str)) for game in (_game(), pyspiel.load_game("gin_rummy"))]
    assert counts == [1 + 52 + 52 * 51 // 2] * 2
