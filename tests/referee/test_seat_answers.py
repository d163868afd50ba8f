"""The trust boundary of ``ginref table``: nothing a seat receives reveals a card hidden from it.

Two tables are dealt from decks that differ only in cards hidden from one seat (the
opponent's cards it never showed, the stock below its top card) and played to the same
point. Every request that seat can send, legal or not, well formed or not, must then get a
byte-identical answer from both: if any answer depended on a hidden card, some twin would
tell them apart. The hand's ruling, once a move ends the hand, shows every card by the
rules, so ``outcome`` and ``game`` are left out of the comparison (and only of it).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.cards import card_name, scan
from ginref.referee.protocol import OPS, Session
from ginref.referee.table import Table

PLAYERS = ("Ann", "Bo")
PRESETS = ("standard", "openspiel", "oklahoma", "rlcard", "straight")
NAMES = [card_name(c) for c in range(52)]


def _deck(rng: random.Random) -> list[str]:
    deck = list(NAMES)
    rng.shuffle(deck)
    return deck


def _session(deck: list[str], rules: str) -> Session:
    session = Session()
    request = {"op": "new", "players": list(PLAYERS), "dealer": "Ann", "deck": deck, "rules": rules}
    answer = session.answer(request)
    assert answer["ok"], answer
    return session


def _table(session: Session) -> Table:
    assert session.table is not None
    return session.table


def _play(session: Session, moves: list[str]) -> None:
    for move in moves:
        answer = session.answer({"op": "move", "move": move})
        assert answer["ok"], (move, answer)


def _known_to(table: Table, seat: str, moves: list[str]) -> set[str]:
    """Every card ``seat`` has seen or been told of, and every card a move named."""
    view = table.view(seat)
    masks = [view.hand.mask, view.opponent_took.mask, *(m.mask for m in view.melds)]
    seen = {card_name(c) for m in masks for c in scan(m)}
    seen |= {card_name(c) for c in view.pile} | {card_name(c) for c, _ in view.layoffs}
    if view.upcard is not None:
        seen.add(card_name(view.upcard))
    for move in moves:
        words = {w.strip("[]").upper() for w in move.replace(">", " ").split()}
        seen |= words & set(NAMES)
    return seen


def _twin_deck(table: Table, deck: list[str], seat: str, moves: list[str], rng: random.Random) -> list[str]:
    """``deck`` with the cards hidden from ``seat`` shuffled among their places (the stock's
    top card too: a draw tells the seat its card, which the comparison leaves out); after a
    knock the knocker's cards stay."""
    keep = _known_to(table, seat, moves)
    record = table.record().hands[-1]
    if table.view(seat).knocker is not None:
        knocker = table.players.index(table.view(seat).knocker or "")
        keep |= {card_name(c) for c in record.deal[knocker][1]}
        keep |= {card_name(c) for c in scan(table.view(table.players[knocker]).hand.mask)}
    places = [i for i, c in enumerate(deck) if c not in keep]
    hidden = [deck[i] for i in places]
    rng.shuffle(hidden)
    twin = list(deck)
    for i, c in zip(places, hidden, strict=True):
        twin[i] = c
    return twin


def _random_meld(rng: random.Random) -> str:
    if rng.random() < 0.5:
        rank = rng.choice("A23456789TJQK")
        cards = [rank + s for s in rng.sample("CDHS", 3)]
    else:
        suit, start = rng.choice("CDHS"), rng.randrange(11)
        cards = ["A23456789TJQK"[start + i] + suit for i in range(3)]
    return "[" + " ".join(cards) + "]"


def _probes(table: Table, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    """Requests a seat may send: its legal moves, moves naming random cards, random words,
    other seats' things and the operator's requests."""
    card = lambda: rng.choice(NAMES)  # noqa: E731
    texts = [
        f"discard {card()}", f"draw {card()}", f"take {card()}", "draw", "take", "pass", "finish",
        f"knock {card()} {_random_meld(rng)} {_random_meld(rng)}", f"gin {card()} {_random_meld(rng)}",
        f"{card()}>{rng.randint(1, 3)}", f"finish {_random_meld(rng)}", f"big_gin {_random_meld(rng)}",
        f"DISCARD {card().lower()}", "knock", "shuffle the deck", "",
    ]
    if table.to_move == seat:
        texts += [str(m) for m in table.legal_moves()][:6]
    stock = table.record().hands[-1].stock
    if stock and table.view(seat).stock:
        texts.append(f"draw {card_name(stock[len(stock) - table.view(seat).stock])}")  # the top: still unseen
    requests: list[dict[str, Any]] = [{"op": "move", "player": seat, "move": t} for t in texts]
    requests += [{"op": op, "player": seat} for op in OPS if op != "move"]
    requests += [
        {"op": "view", "player": seat, "seat": PLAYERS[1 - PLAYERS.index(seat)]},
        {"op": "record", "player": seat, "format": "gin"},
        {"op": "legal", "player": seat, "extra": 1},
        {"op": "move", "player": seat, "move": 7},
        {"op": "next_hand", "player": seat, "seed": 1},
    ]
    return requests


def _answer_text(session: Session, request: dict[str, Any]) -> str:
    answer = session.answer(request)
    if answer.get("ok") and request["op"] == "move":
        session.answer({"op": "pop"})  # the operator takes the probe back
    told = ("outcome", "game", "card") if request.get("move") == "draw" else ("outcome", "game")
    return json.dumps({k: v for k, v in answer.items() if k not in told}, sort_keys=True)


def _check_twins(seed: int, steps: int, rules: str) -> int:
    rng = random.Random(seed)
    deck = _deck(rng)
    session = _session(deck, rules)
    table = _table(session)
    played: list[str] = []
    for _ in range(steps):
        if table.is_over():
            break
        move = str(rng.choice(table.legal_moves()))
        _play(session, [move])
        played.append(move)
    if table.is_over():
        session.answer({"op": "pop"})
        played.pop()
    seat = rng.choice(PLAYERS)
    twin_deck = _twin_deck(table, deck, seat, played, rng)
    twin = _session(twin_deck, rules)
    _play(twin, played)
    compared = 0
    for request in _probes(table, seat, rng):
        first, second = _answer_text(session, request), _answer_text(twin, request)
        assert first == second, (seat, request, first, second)
        compared += 1
    return compared


@pytest.mark.parametrize("seed", range(40))
def test_a_seat_gets_the_same_answers_at_tables_that_differ_only_in_what_it_cannot_see(seed: int) -> None:
    rules = PRESETS[seed % len(PRESETS)]
    assert _check_twins(seed, random.Random(seed).randrange(1, 60), rules) > 20


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 80), st.sampled_from(PRESETS))
def test_twin_tables_answer_a_seat_alike_whatever_it_sends(seed: int, steps: int, rules: str) -> None:
    _check_twins(seed, steps, rules)


@pytest.mark.slow
def test_twin_tables_over_many_deals() -> None:
    for seed in range(1000, 3000):
        _check_twins(seed, random.Random(seed).randrange(1, 80), PRESETS[seed % len(PRESETS)])


def test_the_issue_reproducer_names_no_hidden_card() -> None:
    session = Session()
    session.answer({"op": "new", "players": ["Ann", "Bo"], "dealer": "Ann", "seed": 7})
    table = _table(session)
    hidden = {card_name(c) for c in scan(table.view("Ann").hand.mask)}
    answers = [session.answer({"op": "move", "player": "Bo", "move": m})
               for m in ("take", "discard 4D", "discard 5S", "pass", "pass", "draw 2C")]
    for answer in answers[1:]:
        text = json.dumps(answer)
        assert not answer["ok"]
        assert "Ann's hand" not in text and "still in the stock" not in text
        assert not (set(text.replace('"', " ").replace("'", " ").split()) & (hidden - {"4D"}))
    assert answers[1]["message"].startswith("'discard 4D' refused: 4D is not in your hand")
    assert "next stock card" not in json.dumps(answers[-1])
