"""Make ``samples/research/``: OpenSpiel action histories, a ``SerializeGameAndState`` text and
a Kaggle episode, all of games OpenSpiel's ``gin_rummy`` plays here.

Needs ``pyspiel`` (``pip install '.[openspiel]'``); deterministic for a seed::

    python tools/research_samples.py                  # rewrites samples/research/
    python tools/research_samples.py --out /tmp/research --seed 7

The games are played by the seeded policies of ``tests/support/openspiel_play.py`` and
must pass its ``check_game`` (ginref and OpenSpiel agree on every move and on the returns);
nothing is copied from elsewhere. The files:

- ``openspiel-histories.txt``: one ``state.history()`` a line (chance outcomes included), the
  first game of each ending under OpenSpiel's default parameters;
- ``openspiel-state.txt``: ``pyspiel.serialize_game_and_state`` of an ``oklahoma=True`` game;
- ``kaggle-episode.json``: a game as Kaggle's ``open_spiel_gin_rummy`` environment records an
  episode (``steps``, ``rewards``, ``statuses``, ``info.actionHistory``), its agents' moves one
  step each. To stay small, only the last step carries ``serializedGameAndState`` (what ginref
  reads; Kaggle's replays repeat it in every step) and no step carries observation strings.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ginref.records.openspiel import SERIALIZED_HEADER
from tests.support.openspiel_play import check_game, play_games

ROOT = Path(__file__).resolve().parents[1]
ENDINGS = ("knock", "gin", "undercut", "tie", "wall-knock", "void-wall", "void-max_discard_draws",
           "void-repeat_discard_draw")
"""the endings the history file shows, in its order (``check_game``'s names)"""
SEARCHED = 3000
"""games played at most to find every ending (seed 2026 needs 437; the 50th take is rare)"""
PROXY = ("gin_rummy_proxy(gin_bonus=25,hand_size=10,knock_card=10,num_ranks=13,num_suits=4,"
         "oklahoma=False,undercut_bonus=25)")
"""the game string Kaggle's environment names (its proxy of OpenSpiel's default game)"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "samples" / "research")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    histories, state_text, episode = samples(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "openspiel-histories.txt").write_text(histories, encoding="utf-8")
    (args.out / "openspiel-state.txt").write_text(state_text, encoding="utf-8")
    (args.out / "kaggle-episode.json").write_text(json.dumps(episode, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {histories.count(chr(10))} histories, a serialised state, a Kaggle episode")
    return 0


def samples(seed: int) -> tuple[str, str, dict[str, Any]]:
    """The three files' content: the histories, the serialised state, the episode."""
    plain: dict[str, Any] = {}
    oklahoma: dict[str, tuple[Any, Any]] = {}
    for game, state, kind in _clean_games(seed):
        if game.get_parameters()["oklahoma"]:
            oklahoma.setdefault(kind, (game, state))
        else:
            plain.setdefault(kind, state)
        if "gin" in oklahoma and all(k in plain for k in ENDINGS):
            break
    missing = [k for k in ENDINGS if k not in plain] + ([] if "gin" in oklahoma else ["gin under oklahoma"])
    if missing:
        raise SystemExit(f"seed {seed}: no game ended {', '.join(missing)} in {SEARCHED} games")
    histories = "".join(str(list(plain[k].history())) + "\n" for k in ENDINGS)
    state_text = pyspiel.serialize_game_and_state(*oklahoma["gin"])
    return histories, state_text, episode(plain["knock"], seed)


def _clean_games(seed: int) -> Iterator[tuple[Any, Any, str]]:
    """Seeded games on which ginref and OpenSpiel agree in every respect, with their ending."""
    for game, state, _ in play_games(pyspiel, SEARCHED, seed, random.Random(seed)):
        kind, problems = check_game(pyspiel, game, state)
        if not problems:
            yield game, state, kind


def episode(state: Any, seed: int) -> dict[str, Any]:
    """A finished game of OpenSpiel's default parameters as a Kaggle episode."""
    pairs = [(step.player, step.action) for step in state.full_history()]
    returns = state.returns()
    rewards = [float((r > 0) - (r < 0)) for r in returns]
    parameters = {"gin_bonus": 25, "hand_size": 10, "knock_card": 10, "num_ranks": 13, "num_suits": 4,
                  "oklahoma": False, "undercut_bonus": 25}
    return {
        "id": str(uuid.UUID(int=random.Random(f"episode:{seed}").getrandbits(128), version=4)),
        "name": "open_spiel_gin_rummy",
        "title": "Open Spiel: gin_rummy",
        "version": "0.1.0",
        "configuration": {"episodeSteps": 450, "actTimeout": 5, "openSpielGameString": PROXY,
                          "openSpielGameName": "gin_rummy", "openSpielGameParameters": parameters},
        "steps": _steps(pairs, rewards),
        "rewards": rewards,
        "statuses": ["DONE", "DONE"],
        "info": {"actionHistory": [str(action) for _, action in pairs]},
    }


def _steps(pairs: list[tuple[int, int]], rewards: list[float]) -> list[list[dict[str, Any]]]:
    """Step 0, then one step per agent move (chance outcomes are the environment's): the mover's
    submission, and who is to move next."""
    moves = [i for i, (player, _) in enumerate(pairs) if player >= 0]
    steps = [[_agent(seat, None, 0, moves[0] if moves else 0, pairs) for seat in (0, 1)]]
    for number, at in enumerate(moves, 1):
        mover, action = pairs[at]
        steps.append([_agent(seat, action if seat == mover else None, number, at + 1, pairs)
                      for seat in (0, 1)])
    last = steps[-1]
    text = (f"{SERIALIZED_HEADER}\n[Meta]\nVersion: 1\n\n[Game]\n{PROXY}\n[State]\n"
            f"history={','.join(f'{p}:{a}' for p, a in pairs)}\nmove_number={len(pairs)}\n")
    for seat, agent in enumerate(last):
        agent.update(reward=rewards[seat], status="DONE")
        agent["observation"].update(isTerminal=True, serializedGameAndState=text)
    return steps


def _agent(
    seat: int, action: int | None, number: int, applied: int, pairs: list[tuple[int, int]]
) -> dict[str, Any]:
    """One agent's entry of a step, after the first ``applied`` actions."""
    to_move = next((p for p, _ in pairs[applied:] if p >= 0), -4)
    info = {} if action is None else {"actionSubmitted": action, "actionApplied": action}
    return {
        "action": {"submission": -1 if action is None else action},
        "reward": 0.0 if number == 0 else None,
        "info": info,
        "observation": {"step": number, "currentPlayer": to_move, "playerId": seat, "isTerminal": False},
        "status": "ACTIVE" if to_move == seat or number == 0 else "INACTIVE",
    }


if __name__ == "__main__":
    sys.exit(main())
