"""No message the arena sends a bot names a card hidden from its seat.

A spy player records every message its seat is sent, as the protocol writes them (the
request to act with its view and legal moves, the opponent's moves, the new hand). A card a
message names must be one the seat sees in its own view at that moment or at its next turn
(a discard lands on the pile, a knock's melds are shown): the opponent's hand and the
stock stay hidden, the knock's face-down discard included. The hand's ruling shows every
card by the rules and is left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.arena.botproto import act_message
from ginref.arena.match import MatchSpec, play_pair
from ginref.arena.players import Answer, Clock, InProcess, PlayerSpec
from ginref.cards import card_name, scan
from ginref.referee.table import Move, View
from ginref.rules import Rules

CARD = re.compile(r"\b([A2-9TJQK][CDHS])\b")


def _seen(view: View) -> set[str]:
    masks = [view.hand.mask, view.opponent_took.mask, *(m.mask for m in view.melds)]
    seen = {card_name(c) for m in masks for c in scan(m)} | {card_name(c) for c in view.pile}
    seen |= {card_name(c) for c, _ in view.layoffs}
    if view.upcard is not None:
        seen.add(card_name(view.upcard))
    return seen


class Spy(InProcess):
    """A bundled bot that keeps every message its seat is sent, and checks each."""

    def __init__(self, name: str, bot: str) -> None:
        super().__init__(name, PlayerSpec("bundled", bot, name))
        self.pending: list[str] = []
        self.checked = 0

    def new_game(self, players: tuple[str, str], seat: str, seed: int, rules: Rules) -> None:
        self.pending = []
        super().new_game(players, seat, seed, rules)

    def act(self, view: View, legal: Sequence[Move], clock: Clock, refusal: str | None = None) -> Answer:
        seen = _seen(view)
        text = json.dumps(act_message(1, view, legal, clock, refusal))
        for message in [*self.pending, text]:
            named = set(CARD.findall(message))
            assert named <= seen, (self.name, named - seen, message)
            self.checked += 1
        self.pending = []
        return super().act(view, legal, clock, refusal)

    def told(self, message: dict[str, object]) -> None:
        if message["type"] == "hand_over":
            self.pending = []  # the ruling shows every card
        else:
            self.pending.append(json.dumps(message))


def _play(seed: int, pairs: int, bots: tuple[str, str] = ("greedy", "random")) -> int:
    spec = MatchSpec(bots=bots, pairs=pairs, seed=seed)
    players = {"one": Spy("one", bots[0]), "two": Spy("two", bots[1])}
    for index in range(pairs):
        play_pair(spec, index, (0, 1), ("one", "two"), players)  # type: ignore[arg-type]
    return sum(p.checked for p in players.values())


def test_no_message_names_a_hidden_card() -> None:
    assert _play(7, 20) > 1000
    assert _play(8, 10, ("simple", "random")) > 200


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**40), st.sampled_from(["greedy", "simple", "random"]))
def test_no_message_names_a_hidden_card_any_seed(seed: int, bot: str) -> None:
    _play(seed, 2, (bot, "random"))
