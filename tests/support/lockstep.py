"""Play ginref's OpenSpiel-shaped state and pyspiel's gin_rummy side by side, and compare them.

Needs ``pyspiel`` (the ``openspiel`` extra). At every state the two engines must agree on the
current player, the chance outcomes, the legal actions, each player's observation tensor and,
at the end, the returns. The
one difference allowed is the documented one: where OpenSpiel's 11-card knock heuristic
misses a legal knock, ginref offers the knock (action 55) and a brute-force search over
every discard and every partition confirms it. The players are pyspiel policies of
:mod:`tests.support.openspiel_play` (greedy knockers that lay off and meld, hoarders that
reach the 50th take and the repeated move, wall players, random ones); they choose among
pyspiel's legal actions, so a knock only ginref offers is never played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

import ginref
from ginref.records.openspiel import KNOCK, card_from_openspiel
from tests.support import oracle
from tests.support.openspiel_play import pick_policies

PARAMETER_SETS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "knock_card=7": {"knock_card": 7},
    "bonuses": {"gin_bonus": 31, "undercut_bonus": 12},
    "oklahoma": {"oklahoma": True},
}


@dataclass
class Tally:
    """What one parameter set's games compared."""

    games: int = 0
    states: int = 0
    knocks: int = 0
    layoffs: int = 0
    heuristic_misses: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)


def brute_force_knock(hand: list[int], limit: int) -> bool:
    """Some discard from the 11 OpenSpiel cards leaves deadwood within ``limit``, by the oracle."""
    cards = [card_from_openspiel(a) for a in hand]
    return any(oracle.min_deadwood([c for c in cards if c != out]) <= limit for out in cards)


def _knock_limit(spiel: Any) -> int:
    return int(spiel.knock_card())


def _compare(spiel: Any, mine: Any, where: str, tally: Tally) -> list[int]:
    """The actions both engines allow here; a mismatch is recorded in ``tally``."""
    tally.states += 1
    for player in (0, 1):
        if mine.observation_tensor(player) != list(spiel.observation_tensor(player)):
            tally.mismatches.append(f"{where}: player {player}'s observation tensor differs")
    if mine.current_player() != spiel.current_player():
        tally.mismatches.append(f"{where}: player {mine.current_player()} != {spiel.current_player()}")
    if spiel.is_chance_node():
        theirs = [a for a, _ in spiel.chance_outcomes()]
        if [a for a, _ in mine.chance_outcomes()] != theirs:
            tally.mismatches.append(f"{where}: chance outcomes differ")
        return theirs
    ours, theirs = mine.legal_actions(), spiel.legal_actions()
    if ours == theirs:
        return list(theirs)
    hand = spiel.hands()[spiel.current_player()]
    if spiel.current_phase() == pyspiel.gin_rummy.Phase.WALL:
        hand = [*hand, spiel.upcard()]
    if sorted([*theirs, KNOCK]) == ours and brute_force_knock(hand, _knock_limit(spiel)):
        tally.heuristic_misses += 1
        return list(theirs)
    tally.mismatches.append(f"{where}: legal {ours} != pyspiel {theirs}")
    return list(theirs)


def play_lockstep(params: dict[str, Any], seed: str, tally: Tally) -> None:
    """One seeded hand in both engines, compared at every state."""
    rng = random.Random(seed)
    spiel = pyspiel.load_game("gin_rummy", params).new_initial_state()
    mine = ginref.openspiel_game(params).new_initial_state()
    first, second, label = pick_policies("mixed", rng)
    while not spiel.is_terminal():
        where = f"{seed} ({label}) after {spiel.history()}"
        allowed = _compare(spiel, mine, where, tally)
        if tally.mismatches:
            return
        if spiel.is_chance_node():
            action = rng.choice(allowed)
        else:
            action = (first, second)[spiel.current_player()](spiel, rng)
            phase = spiel.current_phase()
            tally.knocks += action == KNOCK
            tally.layoffs += phase == pyspiel.gin_rummy.Phase.LAYOFF and action < 52
        spiel.apply_action(action)
        mine.apply_action(action)
    tally.games += 1
    if not mine.is_terminal() or mine.current_player() != spiel.current_player():
        tally.mismatches.append(f"{seed}: ginref is not over where pyspiel is")
    elif [round(r) for r in mine.returns()] != [round(r) for r in spiel.returns()]:
        tally.mismatches.append(f"{seed}: returns {mine.returns()} != pyspiel {spiel.returns()}")
    ending = "knocked" if any(a == KNOCK for a in spiel.history()) else "no knock"
    tally.endings[ending] = tally.endings.get(ending, 0) + 1


def run_set(name: str, games: int, seed: int = 0) -> Tally:
    tally = Tally()
    for i in range(games):
        play_lockstep(PARAMETER_SETS[name], f"lockstep:{name}:{seed}:{i}", tally)
        if tally.mismatches:
            break
    return tally
