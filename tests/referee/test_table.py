"""The live table: its moves in each phase, each refusal with its finding and rule, take-backs,
copies, the ruling and the record, against the replay and brute force.

The hands are the worked hand of docs/record-format.md (Ann takes 9H, Bo draws TD, Ann draws
8S and knocks with KH face down; Bo lays off 6C, 9C, 5S) and a few built for one rule each.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginref
from ginref.cards import CardSet, mask_of
from ginref.errors import NotationError, RulingError
from ginref.notation import parse_cards
from ginref.records import GameRecord, format_text, read_text, to_json_dict
from ginref.referee import adjudicate
from ginref.referee.hand import Hand
from ginref.referee.table import MOVE_KINDS, IllegalMove, Move, Phase, Table, moves_of
from ginref.rules import PRESET_NAMES, find_rules, with_overrides
from tests.support import oracle
from tests.support.tableplay import every_move, play, play_to, table_state

PLAYERS = ("Ann", "Bo")
ANN = "3C 4C 5C 9D 9S KH 2D 6S 7S QC"
BO = "6C 9C 5S JH JC JD 4H AH 8D KS"
UPCARD = "9H"
FIRST_STOCK = ["TD", "8S"]


def _stock(*hands: str, first: Sequence[str] = FIRST_STOCK, upcard: str | None = UPCARD) -> list[int]:
    used = set(parse_cards(" ".join(hands) + " " + " ".join(first) + (f" {upcard}" if upcard else "")))
    return parse_cards(" ".join(first)) + [c for c in range(52) if c not in used]


def worked(rules: str | ginref.Rules = "standard") -> Table:
    return Table(PLAYERS, rules, "Bo", hands={"Ann": ANN, "Bo": BO}, upcard=UPCARD, stock=_stock(ANN, BO))


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def pushed(table: Table, *moves: str) -> Table:
    for move in moves:
        table.push(move)
    return table


KNOCK = "knock KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]"
TO_KNOCK = ("take", "discard QC", "draw", "discard KS", "draw")

# -- the moves offered in each phase ----------------------------------------------------------

LEGAL = [
    # (rules, moves before, phase, who moves, the legal moves as text)
    ("standard", (), Phase.UPCARD, "Ann", ["take", "pass"]),
    ("standard", ("pass",), Phase.UPCARD, "Bo", ["take", "pass"]),
    ("standard", ("pass", "pass"), Phase.DRAW, "Ann", ["draw"]),
    ("standard", ("take",), Phase.DISCARD, "Ann",
     ["discard 3C", "discard 4C", "discard 5C", "discard QC", "discard 2D", "discard 9D", "discard KH",
      "discard 6S", "discard 7S", "discard 9S"]),
    ("openspiel", ("take",), Phase.DISCARD, "Ann",
     ["discard 3C", "discard 4C", "discard 5C", "discard QC", "discard 2D", "discard 9D", "discard 9H",
      "discard KH", "discard 6S", "discard 7S", "discard 9S"]),
    ("standard", ("take", "discard QC"), Phase.DRAW, "Bo", ["take", "draw"]),
    ("standard", ("take", "discard QC", "draw", "discard KS"), Phase.DRAW, "Ann", ["take", "draw"]),
    ("standard", TO_KNOCK, Phase.DISCARD, "Ann",
     ["discard 3C", "discard 4C", "discard 5C", "discard 2D", "discard 9D", "discard 9H", "discard KH",
      "discard 6S", "discard 7S", "discard 8S", "discard 9S",
      "knock 2D [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]", "knock KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]"]),
    ("straight", TO_KNOCK, Phase.DISCARD, "Ann",
     ["discard 3C", "discard 4C", "discard 5C", "discard 2D", "discard 9D", "discard 9H", "discard KH",
      "discard 6S", "discard 7S", "discard 8S", "discard 9S"]),
    ("standard", (*TO_KNOCK, KNOCK), Phase.DEFENCE, "Bo",
     ["6C>1", "9C>2", "5S>3", "finish"]),
    ("standard", (*TO_KNOCK, KNOCK, "5S>3"), Phase.DEFENCE, "Bo", ["6C>1", "9C>2", "finish"]),
    ("standard", (*TO_KNOCK, KNOCK, "6C>1", "9C>2", "5S>3", "finish"), Phase.OVER, None, []),
]


@pytest.mark.parametrize(("rules", "before", "phase", "mover", "legal"), LEGAL)
def test_the_moves_offered_in_each_phase(
    rules: str, before: tuple[str, ...], phase: Phase, mover: str | None, legal: list[str]
) -> None:
    table = pushed(worked(rules), *before)
    assert (table.phase, table.to_move) == (phase, mover)
    assert [str(m) for m in table.legal_moves()] == legal


def test_the_eleven_card_deal_opens_with_a_discard() -> None:
    rules = with_overrides(find_rules("standard"), {"first_turn": "eleven_card"})
    table = Table(PLAYERS, rules, "Bo", seed=3)
    assert table.phase is Phase.DISCARD and table.to_move == "Ann"
    assert {m.kind for m in table.legal_moves()} <= {"discard", "knock"}
    assert len([m for m in table.legal_moves() if m.kind == "discard"]) == 11
    table.push(table.legal_moves()[0])
    assert table.phase is Phase.DRAW and table.to_move == "Bo"


# -- each refusal: its finding code and the rule that forbids it -------------------------------

ILLEGAL = [
    # (rules, moves before, the move, finding code, rule)
    ("standard", (), "draw", "upcard_ritual", "first_turn=ritual"),
    ("standard", (), "discard QC", "no_draw", None),
    ("standard", ("pass", "pass"), "take", "upcard_ritual", "first_turn=ritual"),
    ("standard", ("pass", "pass"), "pass", "upcard_ritual", "first_turn=ritual"),
    ("standard", ("take",), "discard 9H", "same_card_discard", "no_same_card_discard=true"),
    ("standard", ("take",), "knock 9H [3C 4C 5C]", "same_card_discard", "no_same_card_discard=true"),
    ("standard", ("take",), "discard JH", "card_not_in_hand", None),
    ("standard", ("take",), "draw", "missing_discard", None),
    ("standard", ("take",), "pass", "missing_discard", None),
    ("standard", ("take", "discard QC"), "pass", "illegal_pass", None),
    ("standard", ("take", "discard QC"), "discard KS", "no_draw", None),
    ("standard", ("take", "discard QC"), "take 2D", "not_top_discard", None),
    ("standard", ("take", "discard QC"), "draw 8S", "stock_draw_mismatch", None),
    ("standard", ("take", "discard QC", "draw"), "knock KS [JC JD JH]", "knock_over_limit", "knock_limit=10"),
    ("straight", TO_KNOCK, KNOCK, "knock_over_limit", "knock_limit=0"),
    ("standard", TO_KNOCK, "gin KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]", "deadwood_misdeclared", None),
    ("standard", TO_KNOCK, "knock KH [3C 4C 5C 6C] [9D 9H 9S]", "card_not_in_hand", None),
    ("standard", TO_KNOCK, "knock KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S 9S]", "invalid_meld", None),
    ("standard", TO_KNOCK, "knock KH [3C 4C 5C] [9D 9H] [6S 7S 8S]", "invalid_meld", None),
    ("standard", TO_KNOCK, "big_gin [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]", "missing_discard", None),
    ("standard", TO_KNOCK, "6C>1", "defence_without_knock", None),
    ("standard", (*TO_KNOCK, KNOCK), "draw", "moves_after_end", None),
    ("standard", (*TO_KNOCK, KNOCK), "AH>1", "illegal_layoff", None),
    ("standard", (*TO_KNOCK, KNOCK), "6C>2", "illegal_layoff", None),
    ("standard", (*TO_KNOCK, KNOCK), "6C>4", "illegal_layoff", None),
    ("standard", (*TO_KNOCK, KNOCK), "3C>1", "card_not_in_hand", None),
    ("standard", (*TO_KNOCK, KNOCK), "finish [JC JD]", "invalid_meld", None),
    ("standard", (*TO_KNOCK, KNOCK, "6C>1"), "6C>1", "illegal_layoff", None),
    ("standard", (*TO_KNOCK, KNOCK, "6C>1", "finish"), "draw", "moves_after_end", None),
]


@pytest.mark.parametrize(("rules", "before", "move", "code", "rule"), ILLEGAL)
def test_each_illegal_move_names_its_finding_and_rule(
    rules: str, before: tuple[str, ...], move: str, code: str, rule: str | None
) -> None:
    table = pushed(worked(rules), *before)
    state = table_state(table)
    with pytest.raises(IllegalMove) as caught:
        table.push(move)
    assert (caught.value.code, caught.value.rule) == (code, rule)
    assert caught.value.place == f"hand 1, move {len(before) + 1}"
    assert isinstance(caught.value, ginref.GinrefError)
    assert table_state(table) == state


def test_a_move_by_the_wrong_player_is_wrong_turn() -> None:
    table = worked()
    with pytest.raises(IllegalMove) as caught:
        table.push("take", player="Bo")
    assert caught.value.code == "wrong_turn"
    with pytest.raises(IllegalMove) as caught:
        table.push("take", player="Cy")
    assert caught.value.code == "unknown_player"
    assert table.push("take", player="Ann") == Move.take()


def test_a_layoff_onto_gin_cites_the_rule() -> None:
    ann, bo = "3C 4C 5C 9D 9S 9H 6S 7S 8S KH", "6C 9C 5S JH JC JD 4H AH 8D KS"
    table = Table(PLAYERS, "standard", "Bo", hands={"Ann": ann, "Bo": bo}, upcard="QD",
                  stock=_stock(ann, bo, first=["2C", "TD"], upcard="QD"))
    pushed(table, "pass", "pass", "draw", "gin KH [2C 3C 4C 5C] [9D 9H 9S] [6S 7S 8S]")
    assert [str(m) for m in table.legal_moves()] == ["finish"]
    with pytest.raises(IllegalMove) as caught:
        table.push("6C>1")
    assert (caught.value.code, caught.value.rule) == ("layoff_on_gin", "layoff_on_gin=false")


def test_a_layoff_onto_a_knock_where_the_rules_allow_none_cites_that_rule() -> None:
    """RLCard's rules lay nothing off, even onto a knock: the refusal says a knock, not gin."""
    ann, bo = "3C 4C 5C 9D 9S 9H 6S 7S 8S KH", "6C 9C 5S JH JC JD 4H AH 8D KS"
    rules = with_overrides(find_rules("standard"), {"layoff_on_knock": "false"})
    table = Table(PLAYERS, rules, "Bo", hands={"Ann": ann, "Bo": bo}, upcard="QD",
                  stock=_stock(ann, bo, first=["TD", "2C"], upcard="QD"))
    pushed(table, "pass", "pass", "draw", "knock TD [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]")
    assert [str(m) for m in table.legal_moves()] == ["finish"]
    with pytest.raises(IllegalMove) as caught:
        table.push("6C>1")
    assert (caught.value.code, caught.value.rule) == ("layoff_on_gin", "layoff_on_knock=false")
    assert "onto a knock" in caught.value.message


def _at_the_wall(rules: ginref.Rules) -> Table:
    """A table at the wall where the last discard may be taken to knock (seeded play, no knocks)."""
    for seed in range(200):
        table, rng = Table(PLAYERS, rules, seed=seed), random.Random(seed)
        while not table.is_over() and table.phase is not Phase.WALL:
            table.push(rng.choice([m for m in table.legal_moves() if m.kind != "knock"]))
        if table.phase is Phase.WALL and Move.take() in table.legal_moves():
            return table
    raise AssertionError("no seed reaches the wall")


def test_at_the_wall_the_last_discard_is_taken_only_to_knock() -> None:
    rules = with_overrides(find_rules("standard"), {"stock_end": "last_discard_knock_only"})
    table = _at_the_wall(rules)
    assert [m.kind for m in table.legal_moves()] == ["take", "pass"]
    with pytest.raises(IllegalMove) as caught:
        table.push("draw")
    assert (caught.value.code, caught.value.rule) == ("draw_from_empty_stock", "stock_floor=2")
    table.push("take")
    assert table.phase is Phase.DISCARD and {m.kind for m in table.legal_moves()} == {"knock"}
    state = table_state(table)
    with pytest.raises(IllegalMove) as caught:
        table.push(Move.discard(next(m.card for m in table.legal_moves() if m.card is not None)))
    assert (caught.value.code, caught.value.rule) == ("stock_exhausted", "stock_end=last_discard_knock_only")
    assert table_state(table) == state
    table.pop()
    table.push("pass")
    assert table.is_over() and table.outcome() is not None and table.outcome().end == "wall"  # type: ignore[union-attr]
    assert adjudicate(table.record()).clean


def test_text_that_is_not_one_move_is_a_notation_error() -> None:
    table = worked()
    state = table_state(table)
    for text in ("drew 7H", "take 9H discard QC", "", "defend 6C>1 9C>2", "discard 7X", "knock KH [",
                 "result knock Ann 21", "6C>0", "draw 7H\n"):
        with pytest.raises(NotationError):
            table.push(text)
    assert table_state(table) == state


# -- the worked hand: the ruling and the record --------------------------------------------------

def test_the_worked_hand_is_ruled_as_adjudicate_rules_it() -> None:
    table = pushed(worked(), *TO_KNOCK, KNOCK, "6C>1", "9C>2", "5S>3", "finish")
    ruling = table.outcome()
    assert ruling is not None
    assert (ruling.outcome, ruling.winner, ruling.points) == ("knock", "Ann", 21)
    assert ruling.defender_deadwood == 23
    assert ruling.steps
    record = table.record()
    assert adjudicate(record).clean and adjudicate(record).hands[0] == ruling
    assert adjudicate(record).hands[0].steps == ruling.steps
    text = format_text(record)
    assert "Ann draw 8S knock KH [3C 4C 5C] [9D 9H 9S] [6S 7S 8S]" in text
    assert "Bo defend [JC JD JH] 6C>1 9C>2 5S>3" in text
    assert "result knock Ann 21" in text
    assert read_text(text) == record
    assert to_json_dict(record)["players"] == ["Ann", "Bo"]


def test_a_record_of_a_hand_in_play_claims_unfinished_and_verifies_clean() -> None:
    for before in [(), ("take",), TO_KNOCK, (*TO_KNOCK, KNOCK, "6C>1")]:
        verdict = adjudicate(pushed(worked(), *before).record())
        assert verdict.clean, (before, verdict.codes)
        assert verdict.hands[0].outcome == "unfinished"


def test_the_moves_of_a_record_replay_at_the_table() -> None:
    record = pushed(worked(), *TO_KNOCK, KNOCK, "6C>1", "9C>2", "5S>3", "finish").record()
    table = Table.from_record(record)
    for event in record.hands[0].events:
        for move in moves_of(event):
            table.push(move)
    assert table.record() == record


def test_pop_restores_exactly_and_copy_is_independent() -> None:
    table = worked()
    states = [table_state(table)]
    moves = (*TO_KNOCK, KNOCK, "6C>1", "9C>2", "5S>3", "finish")
    for move in moves:
        table.push(move)
        states.append(table_state(table))
    twin = table.copy()
    for state in reversed(states[:-1]):
        table.pop()
        assert table_state(table) == state
    with pytest.raises(IndexError):
        table.pop()
    assert table_state(twin) == states[-1]
    branch = twin.copy()
    for _ in moves:
        branch.pop()
    assert table_state(twin) == states[-1] and table_state(branch) == states[0]


def test_a_deal_that_is_not_a_deal_is_refused() -> None:
    with pytest.raises(RulingError):
        Table(PLAYERS, deck=list(range(51)))
    with pytest.raises(RulingError):
        Table(PLAYERS, "standard", "Bo", hands={"Ann": ANN, "Bo": ANN}, upcard=UPCARD, stock=_stock(ANN, BO))
    with pytest.raises(RulingError):
        Table(PLAYERS, "standard", "Cy", seed=1)
    with pytest.raises(RulingError):
        Table(("Ann", "Ann"), seed=1)
    with pytest.raises(ginref.UnknownRulesError):
        Table(PLAYERS, "no such rules", seed=1)


def test_a_deck_is_dealt_from_the_top() -> None:
    deck = list(range(52))
    table = Table(PLAYERS, "standard", "Bo", deck=deck)
    assert table.view("Ann").hand.mask == mask_of(range(10))
    assert table.view("Bo").hand == CardSet(mask_of(range(10, 20)))
    assert table.view("Ann").pile == (20,) and table.view("Ann").stock == 31
    table.push("pass")
    table.push("pass")
    table.push("draw")
    assert table.view("Ann").hand.mask == mask_of(range(10)) | 1 << 21


def test_rules_come_by_name_value_or_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "house.toml"
    path.write_text('base = "hoyle"\ngin_bonus = 30\n', encoding="utf-8")
    by_file = Table(PLAYERS, path, seed=1)
    assert by_file.rules == with_overrides(find_rules("hoyle"), {"gin_bonus": 30})
    assert Table(PLAYERS, str(path), seed=1).rules == by_file.rules
    assert Table(PLAYERS, find_rules("hoyle"), seed=1).rules == find_rules("hoyle")
    record = by_file.record()
    assert (record.rules, record.overrides) == ("hoyle", (("gin_bonus", "30"),))


# -- the view: all a player may know ------------------------------------------------------------

def test_the_view_shows_the_pile_the_cards_taken_and_after_a_knock_the_spread() -> None:
    table = pushed(worked(), "take", "discard QC", "take", "discard KS")
    view = table.view("Ann")
    assert view.hand == CardSet.parse("3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
    assert view.pile == (parse_cards("KS")[0],) and view.opponent_took == CardSet.parse("QC")
    assert view.stock == 31 and view.opponent_cards == 10 and view.melds == ()
    assert table.view("Bo").opponent_took.mask == cards("9H")
    table = pushed(worked(), *TO_KNOCK, KNOCK, "6C>1")
    view = table.view("Bo")
    assert view.knocker == "Ann" and [m.mask for m in view.melds] == [cards("3C 4C 5C"), cards("9D 9H 9S"),
                                                                     cards("6S 7S 8S")]
    assert view.layoffs == ((parse_cards("6C")[0], 0),)


# -- brute force: the legal moves are exactly the moves push accepts ------------------------------

def _accepted(table: Table) -> set[Move]:
    accepted = set()
    state = table_state(table)
    for move in every_move(table):
        try:
            table.push(move)
        except IllegalMove:
            assert table_state(table) == state, move
            continue
        accepted.add(move)
        table.pop()
        assert table_state(table) == state, move
    return accepted


def _legal_moves_are_what_push_accepts(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    table = Table(PLAYERS, rules, seed=seed)
    while not table.is_over():
        legal = table.legal_moves()
        assert legal == sorted(legal, key=lambda m: m.sort_key)
        assert set(legal) == _accepted(table), (rules, seed, table.moves)
        play_to(table, rng, 1)


@pytest.mark.parametrize("rules", ["standard", "openspiel", "straight", "oklahoma"])
def test_legal_moves_are_exactly_the_moves_push_accepts(rules: str) -> None:
    _legal_moves_are_what_push_accepts(1, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_legal_moves_are_exactly_the_moves_push_accepts_under_every_preset(rules: str) -> None:
    for seed in range(20):
        _legal_moves_are_what_push_accepts(seed, rules)


def _knocks_offered_exactly_when_brute_force_finds_one(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    table = Table(PLAYERS, rules, seed=seed)
    while not table.is_over():
        if table.phase is Phase.DISCARD and table.to_move is not None:
            view = table.view(table.to_move)
            hand = list(view.hand)
            banned = view.taken if table.rules.no_same_card_discard else None
            wanted = {c for c in hand if c != banned
                      and oracle.min_deadwood([x for x in hand if x != c]) <= table.knock_limit}
            offered = {m.card for m in table.legal_moves() if m.kind == "knock" and m.card is not None}
            assert offered == wanted, (seed, table.moves)
        play_to(table, rng, 1)


@pytest.mark.parametrize("seed", range(6))
def test_a_knock_is_offered_exactly_when_some_discard_leaves_deadwood_within_the_limit(seed: int) -> None:
    _knocks_offered_exactly_when_brute_force_finds_one(seed, ["standard", "oklahoma", "openspiel"][seed % 3])


# -- random games: clean records, the same ruling as adjudicate -----------------------------------

def _random_game_is_clean(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    table = Table(PLAYERS, rules, seed=seed)
    hands = 0
    while True:
        play(table, rng)
        hands += 1
        ruling = table.outcome()
        verdict = adjudicate(table.record())
        assert verdict.clean, (rules, seed, verdict.codes)
        assert verdict.hands[-1] == ruling
        if verdict.game_over or hands == 4:
            break
        table.next_hand(seed=seed * 10 + hands)
        assert table.dealer == verdict.hands[-1].next_dealer
    assert read_text(format_text(table.record())) == table.record()


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_random_games_at_the_table_verify_clean(rules: str) -> None:
    _random_game_is_clean(3, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_many_random_games_at_the_table_verify_clean(rules: str) -> None:
    for seed in range(60):
        _random_game_is_clean(seed, rules)


def test_a_whole_game_to_its_end() -> None:
    rng = random.Random(5)
    table = Table(PLAYERS, "standard", seed=5)
    while True:
        play(table, rng)
        game = table.game()
        if game.game_over:
            break
        table.next_hand(seed=len(game.hands) + 100)
    assert game.winner in PLAYERS and dict(game.final_totals)[game.winner] >= 100
    with pytest.raises(RulingError):
        table.next_hand(seed=1)
    assert adjudicate(table.record()).clean


def test_a_bad_next_deal_changes_nothing() -> None:
    table = pushed(worked(), *TO_KNOCK, KNOCK, "finish")
    state, record = table_state(table), table.record()
    for bad in ({"deck": [1, 2]}, {"hands": ["3C"]}, {"deck": "XX"}, {"seed": 1, "deck": list(range(52))}):
        with pytest.raises(ginref.GinrefError):
            table.next_hand(**bad)  # type: ignore[arg-type]
        assert table_state(table) == state and table.record() == record
    table.next_hand(seed=2)
    assert (table.hand_index, table.dealer, len(table.record().hands)) == (1, "Ann", 2)


_ANY = st.one_of(st.none(), st.integers(-3, 60), st.text(max_size=3), st.booleans())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(kind=st.sampled_from([*MOVE_KINDS, "fold", ""]), card=_ANY,
       onto=st.integers(-2, 5) | st.text(max_size=2),
       ending=st.sampled_from([None, "knock", "gin", "big_gin", "fold"]),
       melds=st.lists(st.integers(-1, (1 << 53)) | st.text(max_size=2), max_size=4), moves=st.integers(0, 12))
def test_any_move_value_is_played_or_refused_with_the_table_unchanged(
    kind: str, card: object, onto: object, ending: str | None, melds: list[object], moves: int
) -> None:
    table = Table(PLAYERS, "standard", seed=moves)
    play_to(table, random.Random(moves), moves)
    state = table_state(table)
    try:
        table.push(Move(kind, card, tuple(melds), ending, onto))  # type: ignore[arg-type]
    except ginref.GinrefError:
        assert table_state(table) == state
        return
    assert adjudicate(table.record()).clean


# layoff_chain_limit: Ann knocks with [4H 5H 6H]; Bo holds 7H 8H 9H above it and 3H 2H AH below
CHAIN_ANN, CHAIN_BO = "4H 5H 6H 9C 9D 9S JS QS KS KD", "7H 8H 9H 3H 2H AH 5C 7C 3D TC"
CHAIN_KNOCK = ("pass", "pass", "draw", "knock KD [4H 5H 6H] [9C 9D 9S] [JS QS KS]")
TWO_EACH_END = ("7H>1", "8H>1", "3H>1", "2H>1")


def chain_table(rules: str) -> Table:
    table = Table(PLAYERS, rules, "Bo", hands={"Ann": CHAIN_ANN, "Bo": CHAIN_BO}, upcard="QD",
                  stock=_stock(CHAIN_ANN, CHAIN_BO, first=["AC", "TD"], upcard="QD"))
    return pushed(table, *CHAIN_KNOCK)


@pytest.mark.parametrize(("rules", "legal"), [
    ("standard", ["AH>1", "9H>1", "9H>2", "finish"]),  # no cap: the third card at each end
    ("openspiel", ["9H>2", "finish"]),  # 9H only as the set's fourth card
])
def test_layoff_moves_follow_layoff_chain_limit(rules: str, legal: list[str]) -> None:
    table = pushed(chain_table(rules), *TWO_EACH_END)
    assert [str(m) for m in table.legal_moves()] == legal


@pytest.mark.parametrize("move", ["9H>1", "AH>1"])
def test_a_third_card_beyond_a_run_end_cites_layoff_chain_limit(move: str) -> None:
    table = pushed(chain_table("openspiel"), *TWO_EACH_END)
    with pytest.raises(IllegalMove) as caught:
        table.push(move)
    assert (caught.value.code, caught.value.rule) == ("illegal_layoff", "layoff_chain_limit=2")
    pushed(chain_table("standard"), *TWO_EACH_END, move)


# -- a stock dealt at the draw (OpenSpiel's chance), and a defence that shows no meld ------------


def at_draw_table() -> Table:
    return Table(PLAYERS, "standard", "Bo", hands={"Ann": ANN, "Bo": BO}, upcard=UPCARD, stock_at_draw=True)


def test_a_stock_dealt_at_the_draw_takes_the_card_each_draw_names() -> None:
    table = pushed(at_draw_table(), "pass", "pass")
    unseen = [c for c in range(52) if not cards(f"{ANN} {BO} {UPCARD}") >> c & 1]
    assert table.legal_moves() == [Move.draw(c) for c in unseen]  # each pushable, none plain
    for move in table.legal_moves():
        table.push(move)
        table.pop()
    with pytest.raises(IllegalMove) as caught:
        table.push(Move.draw())
    assert caught.value.code == "bad_card"
    for held in ("3C", "9H"):  # in Ann's hand, on the pile
        with pytest.raises(IllegalMove) as caught:
            table.push(f"draw {held}")
        assert caught.value.code == "duplicate_card"
    pushed(table, "draw TD", "discard QC")
    assert table.view("Bo").stock == 30 and table.view("Ann").hand.mask == cards(ANN.replace("QC", "TD"))
    assert adjudicate(table.record()).clean


def test_a_whole_hand_with_the_stock_dealt_at_the_draw_is_ruled_as_with_it_known() -> None:
    rng = random.Random(11)
    known = Table(PLAYERS, "openspiel", "Bo", seed=11)
    deal = known.record().hands[0]
    stock = list(deal.stock or ())
    blind = Table(PLAYERS, "openspiel", "Bo", hands=dict(deal.deal), upcard=deal.upcard, stock_at_draw=True)
    while not known.is_over():
        move = rng.choice(known.legal_moves())
        known.push(move)
        blind.push(Move.draw(stock.pop(0)) if move.kind == "draw" else move)
        plain = [Move.draw() if m.kind == "draw" else m for m in blind.legal_moves()]
        assert list(dict.fromkeys(plain)) == known.legal_moves()
    assert blind.outcome() == known.outcome()


def test_a_deal_at_the_draw_goes_with_the_hands_and_no_stock() -> None:
    with pytest.raises(RulingError, match="at the draw"):
        Table(PLAYERS, "standard", seed=3, stock_at_draw=True)
    with pytest.raises(RulingError, match="at the draw"):
        Table(PLAYERS, "standard", "Bo", hands={"Ann": ANN, "Bo": BO}, upcard=UPCARD, stock=_stock(ANN, BO),
              stock_at_draw=True)


def test_a_bare_finish_shows_no_meld_and_reads_back() -> None:
    bare = Move.finish(bare=True)
    assert str(bare) == "finish []" and Move.parse("finish []") == bare
    arranged = pushed(worked(), *TO_KNOCK, KNOCK, "finish")
    shown = pushed(worked(), *TO_KNOCK, KNOCK, "finish []")
    ruled, bare_ruled = arranged.outcome(), shown.outcome()
    assert ruled is not None and bare_ruled is not None
    assert bare_ruled.defender_deadwood == sum(min(c % 13 + 1, 10) for c in parse_cards(BO))
    assert ruled.defender_deadwood is not None and ruled.defender_deadwood < bare_ruled.defender_deadwood
    assert adjudicate(shown.record()).clean


# -- declaration(): the fast twin of pushing a knock or finish declared meld by meld ---------------


def _melds_in(hand: int, system: ginref.MeldSystem) -> list[int]:
    from ginref.records.openspiel import MELDS

    return [m for m in MELDS if m & hand == m and ginref.melds.is_meld(m, system)]


def _pushes(table: Table, move: Move) -> bool:
    try:
        table.push(move)
    except IllegalMove:
        return False
    table.pop()
    return True


def _declarations_agree(table: Table, rng: random.Random) -> int:
    """Compare ``declaration`` with pushing, over random partial declarations; how many."""
    from ginref.melds import best_arrangement

    seat = table.to_move
    assert seat is not None
    hand = table.view(seat).hand.mask
    compared = 0
    for _ in range(6):
        card = rng.choice([*scan_cards(hand), None]) if table.phase is Phase.DISCARD else -1
        if card != -1:
            kept = hand if card is None else hand & ~(1 << card)
        else:
            kept = hand & ~mask_of(c for c, _ in table.view(seat).layoffs)
        candidates = _melds_in(kept, table.system)
        melds: list[int] = []
        for m in rng.sample(candidates, min(len(candidates), rng.randrange(0, 4))):
            if rng.random() < 0.8 and not m & sum(melds):
                melds.append(m)
        declared = _declaring(card, tuple(melds))
        played, more = table.declaration(declared)
        assert (played is not None) == _pushes(table, declared), (table.moves, melds, card)
        if played is not None:
            assert _pushes(table, played)
        rest = kept & ~sum(melds)
        completed = (*melds, *(m.mask for m in best_arrangement(rest, table.system).melds))
        assert more == _pushes(table, _declaring(card, completed)), (table.moves, melds)
        compared += 1
    return compared


def _declaring(card: int | None, melds: tuple[int, ...]) -> Move:
    """A knock discarding ``card`` (None: big gin), or with ``card`` -1 a finish, declaring ``melds``."""
    if card == -1:
        return Move.finish(melds, bare=True)
    return Move.knock(card, melds, "knock" if card is not None else "big_gin")


def scan_cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@pytest.mark.parametrize("rules", ["standard", "openspiel", "oklahoma", "straight", "cardhearth", "eaai"])
def test_declaration_agrees_with_push(rules: str) -> None:
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        table = Table(PLAYERS, rules, seed=seed)
        while not table.is_over():
            if table.phase in (Phase.DISCARD, Phase.DEFENCE):
                compared += _declarations_agree(table, rng)
            table.push(rng.choice(table.legal_moves()))
    assert compared > 200


# -- a move is a move: fields its kind does not have, values of the wrong type -----------------

@pytest.mark.parametrize("build", [
    lambda: Move("pass", card=41),  # its text would be "pass 3S", which reads back as no move
    lambda: Move("discard", 2**64),
    lambda: Move("discard", True),
    lambda: Move.take(21.0),  # type: ignore[arg-type]
    lambda: Move.discard("7X"),
    lambda: Move("discard"),
    lambda: Move("draw", ending="gin"),
    lambda: Move("discard", 3, melds=(7,)),
    lambda: Move("knock", 3, melds=(1 << 52,)),
    lambda: Move("layoff", 3),
    lambda: Move("discard", 3, onto=1),
    lambda: Move("knock", 3, bare=True),
    lambda: Move("fold"),  # type: ignore[arg-type]
])
def test_a_move_that_is_no_move_is_refused_when_built(build: object) -> None:
    with pytest.raises(ginref.GinrefError):
        build()  # type: ignore[operator]


def test_a_move_takes_card_names_as_the_table_does() -> None:
    assert Move.discard("7H") == Move.discard(cards("7H").bit_length() - 1)
    assert Move.layoff("6C", 0) == Move("layoff", cards("6C").bit_length() - 1, onto=0)
    assert str(Move.take("9H")) == "take 9H"


def test_two_passes_over_a_stock_at_its_floor_end_the_hand_or_reach_the_wall() -> None:
    for rules, phase in (("standard", Phase.OVER), ("openspiel", Phase.WALL)):
        table = Table(PLAYERS, with_overrides(find_rules(rules), {"stock_floor": 31}), seed=3)
        pushed(table, "pass", "pass")
        assert table.phase is phase
        assert table.legal_moves() or table.is_over()


# -- the snapshot names every field a move changes ------------------------------------------------

def _fields(table: Table) -> dict[str, object]:
    """Every field of the table's hand state, set on it or left at the class's default, lists
    copied (``movers`` is a cache)."""
    core = table._core
    names = {k for k in dir(core) if not k.startswith("__") and not callable(getattr(core, k))} - {"movers"}
    fields = {k: (list(v) if isinstance(v, list) else v) for k in names for v in [getattr(core, k)]}
    fields["result"] = {name: getattr(core.result, name) for name in type(core.result).__slots__}
    return fields


@pytest.mark.parametrize("rules", ["standard", "openspiel", "rlcard", "oklahoma", "hollywood"])
def test_a_pushed_and_popped_or_refused_move_leaves_every_field_as_it_was(rules: str) -> None:
    for seed in range(1):
        table = Table(PLAYERS, rules, seed=seed)
        rng = random.Random(seed)
        while not table.is_over():
            before = _fields(table)
            for move in every_move(table):
                try:
                    table.push(move)
                except ginref.GinrefError:
                    assert _fields(table) == before, move
                    continue
                table.pop()
                assert _fields(table) == before, move
            table.push(rng.choice(table.legal_moves()))


class _CheckedHand(Hand):
    """The hand with its fast path switched off: every move goes the checked way."""

    __slots__ = ()

    def quick_draw(self, p: int, card: object = None) -> int:
        return -1

    def quick_take(self, p: int) -> int:
        return -1

    def quick_discard(self, x: object) -> bool:
        return False


def _checked_only(table: Table) -> Table:
    table._core.__class__ = _CheckedHand
    return table


def _dealt(rules: str, seed: int, at_draw: bool) -> Table:
    """A seeded deal; ``at_draw``: the same hands and upcard, the stock dealt at the draw."""
    table = Table(PLAYERS, rules, seed=seed)
    if not at_draw:
        return table
    hand = table.record().hands[0]
    return Table(PLAYERS, rules, hands=dict(hand.deal), upcard=hand.upcard, stock_at_draw=True)


@pytest.mark.parametrize("at_draw", [False, True], ids=["stock", "at_draw"])
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_the_plain_moves_fast_path_and_the_checked_path_agree(rules: str, at_draw: bool) -> None:
    """Random games, each move pushed at two tables, one with the fast path switched off; every
    move offered and a few that are not (another's card, the same card taken back, a named
    card) by the player to move and by the other: the same answer and every field the same."""
    taken = 0
    for seed in range(4 if not at_draw else 2):
        quick, checked = _dealt(rules, seed, at_draw), _checked_only(_dealt(rules, seed, at_draw))
        rng = random.Random(seed)
        while not quick.is_over():
            probes = [*quick.legal_moves()[:12], Move.discard(rng.randrange(52)), Move.take(), Move.draw(),
                      Move.draw(rng.randrange(52)), Move.pass_()]
            for move in probes:
                for player in (None, *PLAYERS):
                    answers = []
                    for table in (quick, checked):
                        try:
                            table.push(move, player)
                        except ginref.GinrefError as refused:
                            answers.append(("refused", str(refused)))
                        else:
                            answers.append(("played", _fields(table), table.moves[-1], table._cards[-1],
                                            table.phase, table.to_move))
                            table.pop()
                    assert answers[0] == answers[1], (seed, move, player)
                    taken += answers[0][0] == "played"
            move = rng.choice(quick.legal_moves())
            quick.push(move)
            checked.push(move)
    assert taken > 100


# -- a move's one text form: Move.parse, str, repr ------------------------------------------------

@pytest.mark.parametrize(("text", "move"), [
    ("pass", Move.pass_()),
    ("take", Move.take()),
    ("take 9H", Move.take("9H")),
    ("draw", Move.draw()),
    ("draw ??", Move.draw()),
    ("draw stock", Move.draw()),
    ("draw pile", Move.take()),
    ("Draw 10h", Move.draw("TH")),
    ("discard 7H", Move.discard("7H")),
    ("knock KH [3C 4C 5C] [9D 9H 9S]", Move.knock("KH", [cards("3C 4C 5C"), cards("9D 9H 9S")])),
    ("gin KH [3C 4C 5C]", Move.knock("KH", [cards("3C 4C 5C")], "gin")),
    ("big_gin [3C 4C 5C]", Move.knock(None, [cards("3C 4C 5C")], "big_gin")),
    ("6C>1", Move.layoff("6C", 0)),
    ("finish", Move.finish()),
    ("finish []", Move.finish(bare=True)),
    ("defend [JC JD JH]", Move.finish([cards("JC JD JH")])),
])
def test_move_text_reads_to_its_move(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


@pytest.mark.parametrize(("text", "column"), [
    ("discard 7X", 9), ("knock KH [3C 4C", 10), ("6C>0", 1), ("take stock", 6), ("pass now", 6),
    ("fold", 1), ("knock [3C 4C 5C]", 1),
])
def test_text_that_is_no_move_names_its_column(text: str, column: int) -> None:
    with pytest.raises(NotationError) as caught:
        Move.parse(text)
    assert caught.value.column == column, str(caught.value)


def test_every_legal_move_reads_back_from_its_text() -> None:
    for rules in ("standard", "oklahoma", "rlcard", "hoyle"):
        table = Table(PLAYERS, rules, seed=5)
        rng = random.Random(5)
        while not table.is_over():
            for move in table.legal_moves():
                assert Move.parse(str(move)) == move and eval(repr(move)) == move
                assert table.is_legal(move)
            table.push(rng.choice(table.legal_moves()))


def test_a_table_says_where_play_stands() -> None:
    table = worked()
    assert repr(table) == ("<Table Ann v Bo, standard, hand 1, move 1: Ann to take or pass the upcard, "
                           "31 in the stock>")
    assert not table.is_legal("draw") and table.is_legal("take") and table.moves == []


def test_the_record_numbers_its_hands() -> None:
    table = Table(PLAYERS, "standard", seed=3)
    play(table, random.Random(3))
    table.next_hand(seed=4)
    assert [hand.number for hand in table.record().hands] == [1, 2]


# -- a deal is one value -------------------------------------------------------------------------

def test_a_deal_is_one_value_the_table_and_next_hand_take() -> None:
    from ginref.referee import Deal

    deck = list(range(52))
    random.Random(9).shuffle(deck)
    assert Table(PLAYERS, deal=Deal.from_deck(deck)).record() == Table(PLAYERS, deck=deck).record()
    assert Table(PLAYERS, deal=Deal.shuffled(4)).record() == Table(PLAYERS, seed=4).record()
    hands = Deal.from_hands({"Ann": ANN, "Bo": BO}, UPCARD, _stock(ANN, BO))
    assert Table(PLAYERS, "standard", "Bo", deal=hands).record() == worked().record()
    with pytest.raises(RulingError, match="one way"):
        Table(PLAYERS, deal=Deal.shuffled(4), seed=4)
    table = Table(PLAYERS, seed=3)
    play(table, random.Random(3))
    table.next_hand(deal=Deal.shuffled(5))
    assert table.hand_index == 1


# -- a long game: one hand more ruled on the verdict of the hands done -------------------------


def _bare(record: GameRecord) -> GameRecord:
    """The record as the table rules it: the hand in play without its claims."""
    last = msgspec.structs.replace(record.hands[-1], result=None, score_after=None, next_dealer=None)
    return msgspec.structs.replace(record, hands=(*record.hands[:-1], last))


GAMES = [(preset, 0) for preset in ("standard", "oklahoma", "straight", "hollywood", "eaai", "tournament")]


@pytest.mark.parametrize(("preset", "game"), [
    *GAMES, *(pytest.param(p, g, marks=pytest.mark.slow) for p, _ in GAMES for g in range(1, 6))])
def test_the_games_verdict_one_hand_at_a_time_equals_the_whole_games(preset: str, game: int) -> None:
    """``adjudicate_one_more`` (the live table's, hand after hand) against :func:`adjudicate`
    of the same record, at the end of every hand of a whole game (five more under slow)."""
    rng = random.Random(f"{preset}:{game}")
    table = Table(("Ann", "Bo"), preset, seed=rng.randrange(1 << 30))
    while True:
        while not table.is_over():
            moves = table.legal_moves()
            knocks = [m for m in moves if m.kind == "knock"]
            table.push(knocks[0] if knocks and rng.random() < 0.7 else rng.choice(moves))
        whole = adjudicate(_bare(table.record()), table.rules)
        assert table.game() == whole
        assert table.outcome() == whole.hands[-1]
        if whole.game_over:
            break
        table.next_hand(seed=rng.randrange(1 << 30))
    assert adjudicate(table.record(), table.rules).clean
