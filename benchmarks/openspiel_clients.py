"""OpenSpiel's own clients on ginref's registered game and on pyspiel's gin_rummy, in one run.

    pip install '.[openspiel]'
    python benchmarks/openspiel_clients.py --rounds 5

Each client is OpenSpiel's Python code as shipped, given ``pyspiel.load_game("gin_rummy")`` or
``pyspiel.load_game("ginref_gin_rummy")`` (the ``openspiel`` rules) with the same seeds, so
that both play the same hands:

- ``mcts``: ``mcts.MCTSBot`` (UCT 2, ``--simulations`` a move, one random rollout each) against
  a uniform random bot, ``--mcts-games`` hands through ``evaluate_bots``;
- ``ismcts``: ``ismcts.ISMCTSBot`` (observation strings as keys, ``--simulations``), one search
  from each of ``--ismcts-positions`` positions of seeded random hands (its draws of hidden cards
  are unseeded in OpenSpiel, so whole games would part);
- ``rl_environment``: ``rl_environment.Environment`` episodes stepped by ``RandomAgent``s,
  ``--episodes``;
- ``evaluate_bots``: ``evaluate_bots.evaluate_bots`` with two ``UniformRandomBot``s, ``--hands``.

The rounds interleave the two games client by client, with the garbage collector off; every
figure is CPU time (``time.process_time``): the median round, its range, and the ratio of
pyspiel's time to ginref's by round (above 1: ginref is faster). Exit status 1 when ginref is
slower than pyspiel in any client.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from timing import gc_disabled

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GAMES = {"pyspiel": "gin_rummy", "ginref": "ginref_gin_rummy"}


def _rs(seed: int) -> Any:
    import numpy as np

    return np.random.RandomState(seed)


def mcts_games(game: Any, games: int, simulations: int) -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    for seed in range(games):
        bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, _rs(seed)),
                           random_state=_rs(seed))
        other = uniform_random.UniformRandomBot(1, _rs(seed))
        evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, other], _rs(seed))


def positions(count: int) -> list[list[int]]:
    """``count`` histories that stop where a player is to move, 20 to 100 actions into seeded
    uniform random hands: the same positions for both games."""
    import pyspiel

    game, rng, found = pyspiel.load_game("gin_rummy"), _rs(2026), []
    while len(found) < count:
        state, stop = game.new_initial_state(), rng.randint(20, 100)
        while not state.is_terminal() and (len(state.history()) < stop or state.current_player() < 0):
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(list(state.history()))
    return found


def ismcts_searches(game: Any, histories: list[list[int]], simulations: int) -> None:
    """One ISMCTS search (``bot.step``) from each position: its draws of the hidden cards are
    pyspiel's unseeded sampler's, so whole games would part; searches from the same positions
    do the same work."""
    from open_spiel.python.algorithms import ismcts, mcts

    for seed, history in enumerate(histories):
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, _rs(seed)), 2.0, simulations,
                               random_state=_rs(seed), use_observation_string=True)
        bot.step(state)


def rl_episodes(game: Any, episodes: int) -> None:
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    env = rl_environment.Environment(game)
    env.seed(0)
    np.random.seed(0)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in (0, 1)]
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            step = env.step([agents[step.observations["current_player"]].step(step).action])
        for agent in agents:
            agent.step(step)


def random_hands(game: Any, hands: int) -> None:
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    for seed in range(hands):
        bots = [uniform_random.UniformRandomBot(p, _rs(seed + p)) for p in (0, 1)]
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, _rs(seed))


def _cpu(fn: Callable[[], None]) -> float:
    with gc_disabled():
        start = time.process_time()
        fn()
        return time.process_time() - start


def measure(args: argparse.Namespace) -> dict[str, Any]:
    import pyspiel

    import ginref.openspiel  # noqa: F401  (registers ginref_gin_rummy)

    games = {name: pyspiel.load_game(short) for name, short in GAMES.items()}
    searched = positions(args.ismcts_positions)
    clients: dict[str, Callable[[Any], None]] = {
        "mcts": lambda g: mcts_games(g, args.mcts_games, args.simulations),
        "ismcts": lambda g: ismcts_searches(g, searched, args.simulations),
        "rl_environment": lambda g: rl_episodes(g, args.episodes),
        "evaluate_bots": lambda g: random_hands(g, args.hands),
    }
    result: dict[str, Any] = {"rounds": args.rounds, "simulations": args.simulations,
                              "mcts_games": args.mcts_games, "ismcts_positions": args.ismcts_positions,
                              "episodes": args.episodes, "hands": args.hands}
    for client, run in clients.items():
        if args.only and client not in args.only:
            continue
        for game in games.values():
            run(game)  # warm-up
        times: dict[str, list[float]] = {name: [] for name in games}
        for _ in range(args.rounds):
            for name, game in games.items():
                times[name].append(_cpu(lambda game=game, run=run: run(game)))  # type: ignore[misc]
        ratios = [p / g for p, g in zip(times["pyspiel"], times["ginref"], strict=True)]
        result[client] = {
            **{name: {"median_s": statistics.median(t), "min_s": min(t), "max_s": max(t)}
               for name, t in times.items()},
            "speedup": {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)},
        }
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--mcts-games", type=int, default=4)
    parser.add_argument("--ismcts-positions", type=int, default=10)
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--only", nargs="*", choices=["mcts", "ismcts", "rl_environment", "evaluate_bots"])
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    result = measure(args)
    print(f"OpenSpiel's clients, {args.rounds} rounds, CPU time, median (range); "
          f"MCTS/ISMCTS {args.simulations} simulations a move")
    slowest = float("inf")
    for client in ("mcts", "ismcts", "rl_environment", "evaluate_bots"):
        if client not in result:
            continue
        row, speed = result[client], result[client]["speedup"]
        slowest = min(slowest, speed["median"])
        print(f"{client:15} pyspiel {row['pyspiel']['median_s']:7.3f} s  "
              f"ginref {row['ginref']['median_s']:7.3f} s  "
              f"{speed['median']:.2f}x pyspiel ({speed['min']:.2f}-{speed['max']:.2f}x)")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if slowest >= 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
