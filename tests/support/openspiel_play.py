"""OpenSpiel gin_rummy games played by seeded policies, and the check of one against ginref.

Needs ``pyspiel`` (the ``openspiel`` extra); used by ``tests/records/test_openspiel.py``
and ``tools/openspiel_games.py``. The policies: uniform random, a greedy knocker, a
hoarder that reaches the 50th take and the repeated move, and a wall player. A game
passes :func:`check_game` when its history and its ``SerializeGameAndState`` text both
import (``ginref.records``), verify with no error, claim exactly ``state.returns()``,
and the record written back as a history (``--to openspiel``) replays in OpenSpiel to
the same returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ginref.records import GameRecord, Turn
from ginref.records.io import RawRecord, decode
from ginref.records.openspiel import DRAW_STOCK, DRAW_UPCARD, KNOCK, MELD_BASE, PASS, encode_history
from ginref.referee import Verdict, adjudicate

GR = pyspiel.gin_rummy
HAND_SIZE = 10
UTILS = GR.GinRummyUtils(13, 4, 10)


# -- policies --------------------------------------------------------------------------------

Policy = Callable[[Any, random.Random], int]


def random_policy(state: Any, rng: random.Random) -> int:
    """Uniform over the legal actions."""
    return int(rng.choice(state.legal_actions()))


def _least(cards: Sequence[int], rng: random.Random, key: Callable[[int], int]) -> int:
    best = min(key(c) for c in cards)
    return rng.choice([c for c in cards if key(c) == best])


def _without(hand: Sequence[int], c: int) -> list[int]:
    return [x for x in hand if x != c]


def greedy_policy(epsilon: float = 0.0, stop_early: float = 0.0, wall: bool = False) -> Policy:
    """Knock whenever legal, take the discard when it lowers the deadwood, throw the card
    that leaves the least deadwood, lay off whatever helps and meld the best arrangement.
    With probability ``epsilon`` a move is uniformly random; a knocker stops declaring
    melds as soon as it may with probability ``stop_early``. With ``wall`` the player
    knocks only at the wall (or with gin in hand), so hands reach the wall."""

    def play(state: Any, rng: random.Random) -> int:
        legal: list[int] = state.legal_actions()
        if rng.random() < epsilon:
            return int(rng.choice(legal))
        p = state.current_player()
        hand: list[int] = state.hands()[p]
        phase = state.current_phase()
        if phase in (GR.Phase.FIRST_UPCARD, GR.Phase.DRAW):
            better = DRAW_UPCARD in legal and (
                UTILS.min_deadwood([*hand, state.upcard()]) < UTILS.min_deadwood(hand)
            )
            if better:
                return DRAW_UPCARD
            return DRAW_STOCK if DRAW_STOCK in legal else PASS
        if phase in (GR.Phase.DISCARD, GR.Phase.WALL):
            if KNOCK in legal and (not wall or phase == GR.Phase.WALL or state.deadwood()[p] == 0):
                return KNOCK
            if phase == GR.Phase.WALL:
                return PASS
            cards = [c for c in legal if c < 52]
            return _least(cards, rng, lambda c: UTILS.min_deadwood(_without(hand, c)))
        if phase == GR.Phase.KNOCK:
            if len(hand) == HAND_SIZE + 1:
                return _least(legal, rng, lambda c: UTILS.min_deadwood(_without(hand, c)))
            if PASS in legal and rng.random() < stop_early:
                return PASS
        if phase == GR.Phase.LAYOFF and not state.finished_layoffs():
            now = UTILS.min_deadwood(hand)
            cards = [c for c in legal if c < 52 and UTILS.min_deadwood(_without(hand, c)) < now]
            return rng.choice(cards) if cards else PASS
        if phase in (GR.Phase.KNOCK, GR.Phase.LAYOFF):
            best = {UTILS.meld_to_int(m) + MELD_BASE for m in UTILS.best_meld_group(hand)}
            melds = [a for a in legal if a in best]
            if melds:
                return melds[0]
            return PASS if PASS in legal else int(rng.choice(legal))
        return int(rng.choice(legal))

    return play


def hoarder_policy(take: float = 0.8, rethrow: float = 0.3) -> Policy:
    """Random play that takes the discard with probability ``take`` and throws the card
    just taken with probability ``rethrow``: it reaches OpenSpiel's 50th take of the
    discard pile and its repeated-discard draw."""

    def play(state: Any, rng: random.Random) -> int:
        legal: list[int] = state.legal_actions()
        phase = state.current_phase()
        if phase == GR.Phase.DRAW:
            return DRAW_UPCARD if rng.random() < take else DRAW_STOCK
        if phase == GR.Phase.DISCARD:
            prev = state.prev_upcard()
            if prev is not None and prev in legal and rng.random() < rethrow:
                return int(prev)
        return int(rng.choice(legal))

    return play


POLICIES = ["random", "greedy", "greedy-random", "hoarder", "greedy-hoarder", "wall"]


def pick_policies(kind: str, rng: random.Random) -> tuple[Policy, Policy, str]:
    """The two players' policies for one game, and a label."""
    if kind == "mixed":
        kind = rng.choices(POLICIES, weights=[2, 5, 1, 1, 1, 1])[0]
    eps = rng.choice([0.0, 0.05, 0.15])
    stop = rng.choice([0.0, 0.0, 0.3])
    greedy = greedy_policy(eps, stop)
    table: dict[str, tuple[Policy, Policy]] = {
        "random": (random_policy, random_policy),
        "greedy": (greedy, greedy),
        "greedy-random": (greedy, random_policy) if rng.random() < 0.5 else (random_policy, greedy),
        "hoarder": (hoarder_policy(), hoarder_policy()),
        "greedy-hoarder": (greedy, hoarder_policy()) if rng.random() < 0.5 else (hoarder_policy(), greedy),
        "wall": (greedy_policy(eps, stop, wall=True), greedy_policy(eps, stop, wall=True)),
    }
    if kind not in table:
        raise ValueError(f"unknown policy {kind!r}")
    first, second = table[kind]
    return first, second, kind


def play(game: Any, rng: random.Random, policies: tuple[Policy, Policy]) -> Any:
    """Play one hand to the end; return the terminal state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(policies[state.current_player()](state, rng))
    return state


# -- playing and checking -------------------------------------------------------------------


def play_games(module: Any, games: int, seed: int, rng: random.Random) -> Iterator[tuple[Any, Any, str]]:
    """``games`` seeded hands, a quarter with ``oklahoma=true``: (game, terminal state, policy)."""
    plain = pyspiel.load_game("gin_rummy", {"oklahoma": False})
    okla = pyspiel.load_game("gin_rummy", {"oklahoma": True})
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        game = okla if rng.random() < 0.25 else plain
        first, second, label = pick_policies("mixed", rng)
        yield game, play(game, rng, (first, second)), label


def ending(record: GameRecord, verdict: Verdict) -> str:
    """``knock``, ``gin``, ``undercut``, ``tie`` (``wall-`` when the knock took the last discard
    at the wall), ``void-wall``, ``void-max_discard_draws``, ``void-repeat_discard_draw``."""
    ruled = verdict.hands[0]
    if ruled.outcome == "void":
        return f"void-{ruled.end}"
    knock = next(e for e in record.hands[0].events if isinstance(e, Turn) and e.knock is not None)
    return ("wall-" if ruled.stock_left == 2 and knock.source == "discard" else "") + ruled.outcome


def _imported(text: str, form: str, game: str = "") -> GameRecord:
    items = list(decode(RawRecord(form, "<openspiel>", 0, 1, text, game=game)))  # type: ignore[arg-type]
    assert len(items) == 1 and isinstance(items[0], GameRecord), items
    return items[0]


def check_game(module: Any, game: Any, state: Any) -> tuple[str, list[str]]:
    """The ending, and every disagreement between ginref and OpenSpiel on one finished game."""
    problems: list[str] = []
    params = game.get_parameters()
    game_text = "gin_rummy(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
    record = _imported(str(list(state.history())), "openspiel", game_text)
    serialised = _imported(pyspiel.serialize_game_and_state(game, state), "openspiel_state")
    if serialised != record:
        problems.append("the history and SerializeGameAndState import differently")
    verdict = adjudicate(record)
    problems.extend(str(f) for f in verdict.errors)
    claim, ruled = record.hands[0].result, verdict.hands[0]
    returns = [round(r) for r in state.returns()]
    mine = _returns(record, ruled.winner, ruled.points)
    if mine != returns:
        problems.append(f"ginref scores {mine}, openspiel returns {returns}")
    said = None if claim is None else (claim.outcome, claim.winner, claim.points)
    if said != (ruled.outcome, ruled.winner, ruled.points):
        problems.append(f"the claim {claim} is not the ruling {ruled.outcome} {ruled.winner} {ruled.points}")
    replay = game.new_initial_state()
    for action in encode_history(record):
        replay.apply_action(action)
    if not replay.is_terminal() or [round(r) for r in replay.returns()] != returns:
        problems.append("the history written back does not replay to the same returns")
    return ending(record, verdict), problems


def _returns(record: GameRecord, winner: str | None, points: int) -> list[int]:
    if winner is None:
        return [0, 0]
    seat = record.players.index(winner)
    return [points if p == seat else -points for p in range(2)]
