"""The library calls a user makes: the quick paths give the answers the full searches give.

``best_arrangement`` builds only the winner and ``analyze`` builds each discard's
arrangement only when ``discards`` is read; both are held here to the
definitions they shortcut: the first of ``optimal_arrangements``, and the
minimum over every discard of ``min_deadwood``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.analysis import analyze, arrangement_dict
from ginref.cards import CardSet, card_name, mask_of, scan
from ginref.errors import GinrefError, HandSizeError, NotationError
from ginref.melds import (
    MeldSystem,
    as_mask,
    best_arrangement,
    best_discard,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginref.notation import hand_mask, parse_card
from ginref.rules import PRESETS, find_rules

SYSTEMS = [
    MeldSystem(),
    MeldSystem(ace_high=True),
    MeldSystem(ace_high=True, wraparound=True),
    MeldSystem(ace_high=True, wraparound=True, ace_points=15),
]


def dense(rng: random.Random, size: int, ranks: int = 5) -> list[int]:
    """Cards from a few adjacent ranks, where sets, runs and ties are common."""
    low = rng.randrange(14 - ranks)
    return rng.sample([s * 13 + r for s in range(4) for r in range(low, low + ranks)], size)


def deals(seed: int, count: int, size: int) -> list[int]:
    rng = random.Random(seed)
    return [mask_of(dense(rng, size) if i % 2 else rng.sample(range(52), size)) for i in range(count)]


cards_10 = st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True)
cards_11 = st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True)
dense_cards = st.integers(0, 8).flatmap(
    lambda low: st.lists(
        st.sampled_from([s * 13 + r for s in range(4) for r in range(low, low + 5)]),
        min_size=10,
        max_size=11,
        unique=True,
    )
)


# -- the best arrangement is the first optimal one --------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS, ids=repr)
def test_best_arrangement_is_the_first_optimal_arrangement(system: MeldSystem) -> None:
    for mask in deals(seed=11, count=600, size=10) + deals(seed=12, count=300, size=11):
        assert best_arrangement(mask, system) == optimal_arrangements(mask, system)[0]


@settings(max_examples=300, deadline=None)
@given(st.one_of(cards_10, dense_cards), st.sampled_from(SYSTEMS))
def test_best_arrangement_on_any_hand(cards: list[int], system: MeldSystem) -> None:
    mask = mask_of(cards)
    every = optimal_arrangements(mask, system)
    assert best_arrangement(mask, system) == every[0]
    assert {a.deadwood_points for a in every} == {min_deadwood(mask, system)}


@pytest.mark.parametrize(
    ("hand", "first"),
    [
        # a tie: the sets of aces and the runs both leave 4D; the set reads first
        ("AS 2S 3S 4S AH AD 2D 3D 4D AC", "[AC AD AH] [2D 3D 4D] [AS 2S 3S 4S]"),
        ("3C 4C 5C 6C 6D 6H 9S TS JS KD", "[3C 4C 5C] [6C 6D 6H] [9S TS JS] + KD"),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "[AC 2C 3C 4C 5C 6C 7C 8C 9C TC]"),
        ("KC KD KH KS QC QD QH JC JD JH", "[JC JD JH] [QC QD QH] [KC KD KH KS]"),
    ],
)
def test_best_arrangement_of_referee_hands(hand: str, first: str) -> None:
    assert str(best_arrangement(hand)) == first
    assert best_arrangement(hand) == optimal_arrangements(hand)[0]


# -- the best discard is the lowest one that leaves the least ------------------------------------


def lowest_best_discard(mask: int, system: MeldSystem) -> int:
    return min(scan(mask), key=lambda c: (min_deadwood(mask & ~(1 << c), system), c))


@pytest.mark.parametrize("system", SYSTEMS, ids=repr)
def test_best_discard_is_the_lowest_that_leaves_the_least(system: MeldSystem) -> None:
    for mask in deals(seed=13, count=800, size=11):
        assert best_discard(mask, system) == lowest_best_discard(mask, system)


@settings(max_examples=300, deadline=None)
@given(st.one_of(cards_11, dense_cards.filter(lambda cards: len(cards) == 11)))
def test_best_discard_on_any_hand(cards: list[int]) -> None:
    mask = mask_of(cards)
    chosen = best_discard(mask)
    assert chosen == lowest_best_discard(mask, MeldSystem())
    assert min_deadwood(mask & ~(1 << chosen)) == min_deadwood_after_discard(mask)


def test_best_discard_needs_a_card() -> None:
    with pytest.raises(NotationError, match="no card"):
        best_discard(0)


# -- analyze: the quick reading is the full one ------------------------------------------------


def full_reading(mask: int, rules: Any, upcard: int | None) -> dict[str, object]:
    """What analyze reported when it built every arrangement: the definitions, spelled out."""
    system = MeldSystem.from_rules(rules)
    result = analyze(mask, rules, upcard=upcard).to_dict()
    limit = result["knock_limit"]
    assert isinstance(limit, int)
    if mask.bit_count() == 10:
        best = optimal_arrangements(mask, system)[0]
        points = best.deadwood_points
        return {**result, **arrangement_dict(best), "can_knock": points <= limit, "gin": points == 0}
    taken = upcard is not None and mask >> upcard & 1 and rules.no_same_card_discard
    legal = [c for c in scan(mask) if not (taken and c == upcard)]
    chosen = min(legal, key=lambda c: (min_deadwood(mask & ~(1 << c), system), c))
    options = []
    for c in scan(mask):
        first = optimal_arrangements(mask & ~(1 << c), system)[0]
        ok, points = c in legal, first.deadwood_points
        knock, gin = ok and points <= limit, ok and points == 0
        option = {"discard": card_name(c), **arrangement_dict(first), "can_knock": knock, "gin": gin}
        options.append({**option, "legal": ok})
    best = optimal_arrangements(mask & ~(1 << chosen), system)[0]
    points = best.deadwood_points
    return {
        **result,
        **arrangement_dict(best),
        "best_discard": card_name(chosen),
        "discards": options,
        "can_knock": points <= limit,
        "gin": points == 0,
        "big_gin": rules.big_gin_bonus is not None and min_deadwood(mask, system) == 0,
    }


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_analyze_reads_as_the_full_search_does(preset: str) -> None:
    rules = find_rules(preset)
    rng = random.Random(preset)
    for mask in deals(seed=14, count=120, size=10) + deals(seed=15, count=120, size=11):
        upcard = rng.choice([None, rng.randrange(52), next(scan(mask))])
        assert analyze(mask, rules, upcard=upcard).to_dict() == full_reading(mask, rules, upcard)


def test_discards_are_built_when_read_and_kept() -> None:
    result = analyze("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C")
    assert "discards" not in vars(result)
    first = result.discards
    assert len(first) == 11 and result.discards is first
    assert analyze("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D").discards == ()


def test_every_arrangement_only_when_asked() -> None:
    hand = "AS 2S 3S 4S AH AD 2D 3D 4D AC"
    assert analyze(hand).arrangements == ()
    every = analyze(hand, all_arrangements=True).arrangements
    assert every == tuple(optimal_arrangements(hand)) and len(every) > 1


def test_analyses_of_one_hand_are_equal_whether_or_not_discards_were_read() -> None:
    read, unread = analyze("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C"), analyze("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C")
    assert read.discards and read == unread and hash(read) == hash(unread)


BIG_GIN_CASES = [
    # hand, upcard taken, rule set, big gin, the discard
    ("3C 4C 5C 6C 6S 7S 8S 9D 9S 9C 9H", None, "hoyle", True, "3C"),
    ("3C 4C 5C 6C 6S 7S 8S 9D 9S 9C 9H", "3C", "hoyle", True, "6C"),  # the upcard ends a run: its other end
    ("3C 4C 5C 6C 6S 7S 8S 9D 9S 9C 9H", "9C", "hoyle", True, "3C"),
    ("3C 4C 5C 6C 6S 7S 8S 9D 9S 9C 9H", None, "standard", False, "3C"),  # no big gin in the rule set
    ("3C 4C 5C 6C 7C 8C 6S 7S 8S 9S 9D", None, "hoyle", False, "9D"),  # gin after the discard, not big gin
    ("3C 4C 5C 6C 7C 8C 6S 7S 8S 9D KS", "KS", "hoyle", False, "9D"),
]


@pytest.mark.parametrize(("hand", "upcard", "preset", "big_gin", "discard"), BIG_GIN_CASES)
def test_big_gin_is_read_from_the_eleven_cards(
    hand: str, upcard: str | None, preset: str, big_gin: bool, discard: str
) -> None:
    reading = analyze(hand, find_rules(preset), upcard=upcard)
    assert (reading.big_gin, card_name(reading.best_discard or 0)) == (big_gin, discard)


@pytest.mark.parametrize("upcard", [-1, 52, "7X", 7.0, True, 10**5000], ids=lambda u: type(u).__name__)
def test_an_upcard_that_is_not_a_card_is_a_notation_error(upcard: Any) -> None:
    with pytest.raises(NotationError, match=r"upcard|unknown card"):
        analyze("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D", upcard=upcard)


def test_an_upcard_may_be_card_text_as_advise_takes_it() -> None:
    hand = "5S 6S 3H 4H 5H 6H 2D 4D 5D 6D"
    oklahoma = find_rules("oklahoma")
    assert analyze(hand, oklahoma, upcard="7S") == analyze(hand, oklahoma, upcard=parse_card("7S"))
    assert analyze(hand, oklahoma, upcard="3S").knock_limit == 3


# -- every form of a hand: the quick conversion reads as hand_mask does --------------------------


FORMS = [
    "3C 4C 5C 9D 9H 9S 2H 3H AS AD",
    ["3C", "4C", "5C", "9D", "9H", "9S", "2H", "3H", "AS", "AD"],
    ("3c", "4c", "5c", "9d", "9h", "9s", "2h", "3h", "as", "ad"),
    ["10C", "TD", "th", "C3"],  # ten as 10 or T; C3 (suit first) goes the long way
    [2, 3, 4, 21, 34, 47, 27, 28, 39, 13],
    (2, 3, 4),
    CardSet.parse("3C 4C 5C"),
    "3C, 4C,5C",
    "3C4C5C",
    "♣3 ♣4 ♣5",
    [],
    "",
    (),
    [0, "2C"],
    ["AC", 1],
]


@pytest.mark.parametrize("hand", FORMS, ids=repr)
def test_as_mask_reads_as_hand_mask(hand: Any) -> None:
    assert as_mask(hand) == hand_mask(hand)


NOT_HANDS = [
    ["AC", "AC"],
    ["AC", "ac"],
    [0, 0],
    [True],
    [1.0],
    [52],
    [-1],
    ["AC", None],
    [["AC"]],
    ("AC", b"2C"),
    "AC AC",
    "AC XX",
    ["AC"] * 60,
    list(range(53)),
    [0] * 10**5,
    1 << 52,
    -1,
    None,
    1.5,
]


@pytest.mark.parametrize("hand", NOT_HANDS, ids=lambda h: repr(h)[:30])
def test_as_mask_refuses_what_hand_mask_refuses(hand: Any) -> None:
    with pytest.raises(GinrefError) as quick:
        as_mask(hand)
    with pytest.raises(GinrefError) as slow:
        hand_mask(hand)
    assert str(quick.value) == str(slow.value)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(-2, 54),
            st.sampled_from(["AC", "ac", "10h", "TH", "KS", "K♠", "XX", " AC", ""]),
            st.booleans(),
            st.none(),
        ),
        max_size=14,
    ),
    st.sampled_from([list, tuple]),
)
def test_as_mask_agrees_with_hand_mask_on_any_items(items: list[Any], container: Any) -> None:
    hand = container(items)
    try:
        expected: object = hand_mask(hand)
    except GinrefError as exc:
        expected = str(exc)
    try:
        got: object = as_mask(hand)
    except GinrefError as exc:
        got = str(exc)
    assert got == expected


CALLS = [min_deadwood, min_deadwood_after_discard, best_arrangement, optimal_arrangements, best_discard]


@pytest.mark.parametrize("hand", NOT_HANDS, ids=lambda h: repr(h)[:30])
@pytest.mark.parametrize("call", [*CALLS, analyze], ids=lambda call: call.__name__)
def test_every_call_refuses_a_bad_hand_with_a_ginref_error(call: Any, hand: Any) -> None:
    with pytest.raises(GinrefError):
        call(hand)


@pytest.mark.parametrize("call", CALLS, ids=lambda call: call.__name__)
def test_a_hand_with_too_many_sets_to_choose_is_refused_not_searched_for_ever(call: Any) -> None:
    with pytest.raises(HandSizeError, match="at most 6"):
        call((1 << 52) - 1)  # the whole deck: 13 ranks open to a set, 6**13 choices


def test_a_long_hand_with_few_sets_is_still_searched() -> None:
    assert min_deadwood((1 << 20) - 1) == 0  # clubs A..K and diamonds A..7
    assert min_deadwood_after_discard((1 << 20) - 1) == 0


@pytest.mark.parametrize("hand", [0, [], "", CardSet(0)], ids=repr)
def test_an_empty_hand_has_no_discard(hand: Any) -> None:
    with pytest.raises(HandSizeError, match="no card to discard"):
        min_deadwood_after_discard(hand)
    assert min_deadwood(hand) == 0


@pytest.mark.parametrize("hand", ["9C 9D 9H", "9C 9D 9H 8C 8D 8H", "KC KD KS", "AC AD AH 5S 5D 5H"])
def test_a_hand_of_nothing_but_sets_of_three_breaks_one_to_discard(hand: str) -> None:
    """The forced-set shortcut assumed another card to throw, as an 11-card hand always has;
    a short hand of sets alone gave the no-card sentinel (1,048,576) and best_discard raised
    StopIteration (found by the 1,000,000-input fuzz run)."""
    mask = hand_mask(hand)
    least = min(min_deadwood(mask & ~(1 << c)) for c in scan(mask))
    assert min_deadwood_after_discard(mask) == least
    assert min_deadwood(mask & ~(1 << best_discard(mask))) == least
