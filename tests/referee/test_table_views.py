"""Hidden information is a security property: a view never holds a card its player cannot know.

Two tables that differ only in the cards hidden from a player (the opponent's unseen cards and
the order of the stock) must give that player the same view and the same legal moves. The
second table is dealt the first one's deck with the hidden cards permuted, and the same moves
are pushed at both: every move names only cards that are public by then.
"""

from __future__ import annotations

import random

import pytest

from ginref.referee.table import Phase, Table
from ginref.rules import PRESET_NAMES
from tests.support.tableplay import play_to

PLAYERS = ("Ann", "Bo")


def _hidden_from(table: Table, player: str) -> list[int]:
    """The cards ``player`` has never seen (worked out from the deal and the moves, not from a
    view): neither in its hand, nor the upcard, nor ever discarded face up."""
    seen = table.view(player).hand.mask
    upcard = table.record().hands[-1].upcard
    if upcard is not None:
        seen |= 1 << upcard
    for move in table.moves:
        if move.kind == "discard" and move.card is not None:
            seen |= 1 << move.card
    return [c for c in range(52) if not seen >> c & 1]


def _permuted(deck: list[int], hidden: list[int], rng: random.Random) -> list[int]:
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    return [swap.get(c, c) for c in deck]


def _same_to(player: str, a: Table, b: Table) -> None:
    assert a.view(player) == b.view(player)
    if a.to_move == player:
        assert a.legal_moves() == b.legal_moves()


def _check(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    table = Table(PLAYERS, rules, PLAYERS[seed % 2], deck=deck)
    play_to(table, rng, rng.randrange(0, 60))
    if table.phase in (Phase.DEFENCE, Phase.OVER):
        while table.phase is not Phase.DISCARD and table.moves:  # back to before the knock
            table.pop()
    for player in PLAYERS:
        other = Table(PLAYERS, rules, table.dealer, deck=_permuted(deck, _hidden_from(table, player), rng))
        for move in table.moves:
            other.push(move)
        _same_to(player, table, other)


@pytest.mark.parametrize("rules", ["standard", "openspiel", "oklahoma", "cardhearth"])
@pytest.mark.parametrize("seed", range(8))
def test_cards_hidden_from_a_player_change_nothing_it_sees(seed: int, rules: str) -> None:
    _check(seed, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_cards_hidden_from_a_player_change_nothing_it_sees_many(rules: str) -> None:
    for seed in range(200):
        _check(seed, rules)


def test_a_view_holds_no_card_of_the_opponent_before_the_knock() -> None:
    rng = random.Random(11)
    table = Table(PLAYERS, "standard", seed=11)
    play_to(table, rng, 30)
    while table.phase in (Phase.DEFENCE, Phase.OVER):
        table.pop()
    for player in PLAYERS:
        view = table.view(player)
        opponent = PLAYERS[1 - PLAYERS.index(player)]
        theirs = table.copy().view(opponent).hand.mask
        assert not view.hand.mask & theirs
        assert view.opponent_took.mask & ~theirs == 0  # only cards it took from the pile
        assert all(theirs >> c & 1 == 0 for c in view.pile)
        assert view.melds == () and view.layoffs == ()
        assert isinstance(view.stock, int) and not hasattr(view, "stock_cards")


def test_after_the_knock_the_defender_sees_the_declared_melds() -> None:
    table = Table(PLAYERS, "standard", seed=3)
    rng = random.Random(3)
    while table.phase is not Phase.DEFENCE:
        knocks = [m for m in table.legal_moves() if m.kind == "knock"]
        play_to(table, rng, 1) if not knocks else table.push(knocks[0])
        if table.is_over():
            table = Table(PLAYERS, "standard", seed=rng.randrange(1000))
    knock = next(m for m in reversed(table.moves) if m.kind == "knock")
    view = table.view(table.to_move or "")
    assert tuple(m.mask for m in view.melds) == knock.melds and view.knocker not in (None, view.player)
    assert table.view(view.knocker or "").melds == view.melds
