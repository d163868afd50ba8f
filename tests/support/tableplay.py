"""Seeded players at the live table, and every move one could try there (the brute-force twin
of ``Table.legal_moves``).

:func:`play` picks among the legal moves: it keeps its deadwood low, knocks and goes gin
when it may (sometimes withholding a meld, which is legal), lays off at random and then
finishes, so that games reach every phase. :func:`every_move` lists every move of every
kind with every card and meld number, legal or not, so that a test can push each.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ginref.cards import scan
from ginref.melds import min_deadwood
from ginref.referee.table import IllegalMove, Move, Table

__all__ = ["every_move", "play", "play_to", "table_state"]


def _choice(table: Table, rng: random.Random) -> Move:
    moves = table.legal_moves()
    kinds = {m.kind for m in moves}
    if "knock" in kinds and rng.random() < 0.8:
        return rng.choice([m for m in moves if m.kind == "knock"])
    if "layoff" in kinds and rng.random() < 0.7:
        return rng.choice([m for m in moves if m.kind == "layoff"])
    if "discard" in kinds and rng.random() < 0.8:
        return _least_deadwood_discard(table, [m for m in moves if m.kind == "discard"])
    if "knock" in kinds and rng.random() < 0.5:
        return _withheld(table, rng.choice([m for m in moves if m.kind == "knock"]))
    return rng.choice(moves)


def _least_deadwood_discard(table: Table, discards: list[Move]) -> Move:
    seat = table.to_move
    assert seat is not None
    hand = table.view(seat).hand.mask
    system = table.system
    return min(discards, key=lambda m: (min_deadwood(hand & ~(1 << (m.card or 0)), system), m.card))


def _withheld(table: Table, knock: Move) -> Move:
    """The knock with its last meld withheld, when that stays within the limit (a legal
    declaration that :meth:`Table.legal_moves` does not list)."""
    if len(knock.melds) < 2:
        return knock
    return Move.knock(knock.card, knock.melds[:-1], knock.ending or "knock")


def _push_choice(table: Table, rng: random.Random) -> None:
    """Push a seeded choice; a withheld meld refused for the limit is played in full."""
    move = _choice(table, rng)
    try:
        table.push(move)
    except IllegalMove:
        if move.kind != "knock":
            raise
        table.push(rng.choice([m for m in table.legal_moves() if m.kind == "knock"]))


def play(table: Table, rng: random.Random, limit: int = 400) -> None:
    """Play the hand to its end with seeded choices (a knocked hand may end with a withheld
    meld refused for the limit: then the full declaration is played)."""
    for _ in range(limit):
        if table.is_over():
            return
        _push_choice(table, rng)
    raise AssertionError("the hand did not end")


def play_to(table: Table, rng: random.Random, moves: int) -> None:
    """Play at most ``moves`` moves (fewer if the hand ends), as :func:`play` chooses them."""
    for _ in range(moves):
        if table.is_over():
            return
        _push_choice(table, rng)


def every_move(table: Table) -> Iterator[Move]:
    """Every move of every kind with every card, ending and meld number, legal or not; the
    knocks declare the least-deadwood arrangement (what ``legal_moves`` offers)."""
    yield Move.take()
    yield Move.pass_()
    yield Move.draw()
    for c in range(52):
        yield Move.discard(c)
    melds = len(table.view(table.players[0]).melds) + 1
    for c in range(52):
        for at in range(melds):
            yield Move.layoff(c, at)
    yield Move.finish()
    seat = table.to_move
    if seat is None:
        return
    hand = table.view(seat).hand.mask
    from ginref.melds import best_arrangement

    for c in scan(hand):
        arrangement = best_arrangement(hand & ~(1 << c), table.system)
        melds_of = tuple(m.mask for m in arrangement.melds)
        yield Move.knock(c, melds_of, "gin" if not arrangement.deadwood_points else "knock")
    yield Move.knock(None, tuple(m.mask for m in best_arrangement(hand, table.system).melds), "big_gin")


def table_state(table: Table) -> tuple[object, ...]:
    """Everything a table shows: phase, who moves, both views, the moves, the legal moves."""
    views = tuple(table.view(p) for p in table.players)
    return (table.phase, table.to_move, views, tuple(table.moves), tuple(table.legal_moves()),
            table.hand_index, table.dealer)
