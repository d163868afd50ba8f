"""The exact meld search: referee cases, brute-force agreement, invariants."""

from __future__ import annotations

import gc
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.cards import mask_names, mask_of, scan
from ginref.melds import (
    CACHED_SYSTEMS,
    STANDARD_SYSTEM,
    MeldKind,
    MeldSystem,
    is_meld,
    mask_points_in,
    meld_kind,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginref.notation import parse_cards
from tests.support import oracle


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


# A referee's table: hand, least deadwood, the melds of the (unique unless noted) best arrangement.
CASES = [
    ("A-2-3 is a run", "AC 2C 3C 9D 9S 9H KH QD 6S 7S", 33, "[AC 2C 3C] [9D 9H 9S]"),
    ("Q-K-A is not a run", "QC KC AC 9D 9S 9H 2H 3D 6S 7S", 39, "[9D 9H 9S]"),
    ("K-A-2 is not a run", "KC AC 2C 5D 5S 5H 8H 8D 8S TS", 23, "[5D 5H 5S] [8D 8H 8S]"),
    (
        "a long run is one meld",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH",
        0,
        "[3H 4H 5H 6H 7H 8H 9H TH JH QH]",
    ),
    (
        "four of a kind splits into a set and a run",
        "7C 7D 7H 7S 8S 9S 5H 6H KC QD",
        31,
        "[7C 7D 7H] [7S 8S 9S]",
    ),  # dead 5H 6H KC QD; the other split [5H 6H 7H] leaves 7C 7D KC QD = 34
    (
        "the set beats the run",
        "9C 9D 9H 7H 8H KC KD 2S 3S 4S",
        35,
        "[9C 9D 9H] [2S 3S 4S]",
    ),  # set leaves 7H 8H KC KD = 35; run [7H 8H 9H] leaves 9C 9D KC KD = 38
    (
        "the run beats the set",
        "7C 7D 7H 8H 9H KC KD 2S 3S 4S",
        34,
        "[7H 8H 9H] [2S 3S 4S]",
    ),  # run leaves 7C 7D KC KD = 34; set leaves 8H 9H KC KD = 37
    (
        "a set and a run both, the seven going to the set",
        "7C 7D 7H 8H 9H TH KD 2S 3S 4S",
        10,
        "[7C 7D 7H] [8H 9H TH] [2S 3S 4S]",
    ),
    (
        "a card that fits a run or a set: the set leaves less",
        "5H 6H 7H 7C 7D 2S 3S 9D KC QC",
        45,
        "[7C 7D 7H]",
    ),  # set leaves 5H 6H 2S 3S 9D KC QC = 45; run [5H 6H 7H] leaves 48
    ("no melds at all", "AC 3D 5H 7S 9C JD KH 2S 4H 6C", 57, ""),
    (
        "gin with a set of four",
        "9C 9D 9H 9S 2H 3H 4H JC QC KC",
        0,
        "[9C 9D 9H 9S] [JC QC KC] [2H 3H 4H]",
    ),
    (
        "exactly 10: a picture card left",
        "3C 4C 5C 6D 7D 8D 9H 9S 9C KD",
        10,
        "[3C 4C 5C] [6D 7D 8D] [9C 9H 9S]",
    ),
    (
        "11 left: two cards",
        "3C 4C 5C 6D 7D 8D 9H 9S 9C 5S 6H",
        11,
        "[3C 4C 5C] [6D 7D 8D] [9C 9H 9S]",
    ),
]


@pytest.mark.parametrize(("label", "hand", "deadwood", "melds"), CASES, ids=[c[0] for c in CASES])
def test_referee_cases(label: str, hand: str, deadwood: int, melds: str) -> None:
    best = optimal_arrangements(mask(hand))
    assert min_deadwood(mask(hand)) == deadwood
    assert best[0].deadwood_points == deadwood
    assert {str(m) for m in best[0].melds} == set(re.findall(r"\[[^]]*\]", melds))


def test_ties_list_every_optimal_arrangement() -> None:
    every = optimal_arrangements(mask("AS 2S 3S 4S AH AD 2D 3D 4D AC"))
    assert [str(a) for a in every] == [
        "[AC AD AH] [2D 3D 4D] [AS 2S 3S 4S]",
        "[AC AD AH AS] [2D 3D 4D] [2S 3S 4S]",
        "[AC AH AS] [AD 2D 3D 4D] [2S 3S 4S]",
    ]


@pytest.mark.parametrize(
    ("hand", "after_discard"),
    [
        ("5S 6S 3H 4H 5H 6H 2D 4D 5D 6D 3C", 10),  # a well-known engine says 12
        ("AS 2S 3S 4S AH AD 2D 3D 4D AC 4C", 0),  # a well-known engine says 1
        ("4D 5H 4H 5D 3C 4C 6H 6S 6D 2H AC", 10),  # a well-known engine says 11
        ("9C 9D 9H 9S QC QD QH QS JD JH JS", 0),  # only sets: the discard comes from a set of four
    ],
)
def test_eleven_card_hands(hand: str, after_discard: int) -> None:
    cards = mask(hand)
    assert min_deadwood_after_discard(cards) == after_discard
    assert min(min_deadwood(cards & ~(1 << c)) for c in scan(cards)) == after_discard


@pytest.mark.parametrize(
    ("cards", "system", "kind"),
    [
        ("AC 2C 3C", STANDARD_SYSTEM, MeldKind.RUN),
        ("QC KC AC", STANDARD_SYSTEM, None),
        ("QC KC AC", MeldSystem(ace_high=True), MeldKind.RUN),
        ("KC AC 2C", MeldSystem(ace_high=True), None),
        ("KC AC 2C", MeldSystem(ace_high=True, wraparound=True), MeldKind.RUN),
        ("9D 9S 9H", STANDARD_SYSTEM, MeldKind.SET),
        ("9D 9S 9H 9C", STANDARD_SYSTEM, MeldKind.SET),
        ("9D 9S", STANDARD_SYSTEM, None),
        ("9D TD JH", STANDARD_SYSTEM, None),
        ("9D TD QD", STANDARD_SYSTEM, None),
    ],
)
def test_meld_kind(cards: str, system: MeldSystem, kind: MeldKind | None) -> None:
    assert meld_kind(mask(cards), system) is kind


cards_of_one_suit_or_rank = st.one_of(
    st.integers(0, 3).flatmap(lambda suit: st.sets(st.integers(0, 12).map(lambda r: suit * 13 + r))),
    st.integers(0, 12).flatmap(lambda rank: st.sets(st.integers(0, 3).map(lambda s: s * 13 + rank))),
    st.sets(st.integers(0, 51), max_size=6),
)


@settings(max_examples=500, deadline=None)
@given(cards_of_one_suit_or_rank, st.integers(0, 2))
def test_meld_kind_agrees_with_the_oracle(cards: set[int], which: int) -> None:
    system, oracle_system = SYSTEMS[which]
    ordered = tuple(sorted(cards))
    expected = None
    if oracle.is_set(ordered):
        expected = MeldKind.SET
    elif oracle.is_run(ordered, oracle_system):
        expected = MeldKind.RUN
    assert meld_kind(mask_of(cards), system) is expected
    assert is_meld(mask_of(cards), system) is (expected is not None)


@pytest.mark.parametrize("not_a_hand", [0, -1, -(1 << 20), 1 << 52, 7 << 51, (1 << 5000) - 1, -(7 << 2)])
def test_masks_outside_the_deck_are_no_meld(not_a_hand: int) -> None:
    assert meld_kind(not_a_hand) is None
    assert not is_meld(not_a_hand, MeldSystem(ace_high=True, wraparound=True))


def _live_tables() -> int:
    from ginref.melds import _Tables

    gc.collect()
    return sum(isinstance(o, _Tables) for o in gc.get_objects())


def test_tables_stay_bounded_over_many_systems() -> None:
    """A record may ask for any unmatched ace value: each distinct system must not stay forever."""
    from ginref.rules import STANDARD, with_overrides

    standard = STANDARD_SYSTEM.tables
    hand = mask("AC 2C 3C 9D 9S 9H KH QD 6S 7S")
    for ace_points in range(2, 4 * CACHED_SYSTEMS + 2):
        system = MeldSystem(ace_points=ace_points)
        assert min_deadwood(hand, system) == 33  # the ace is melded
        assert min_deadwood(hand & ~mask("2C"), system) == 36 + ace_points
    for value in (1, 5, 11, 15):
        rules = with_overrides(STANDARD, {"unmatched_ace_value": str(value)})
        assert min_deadwood(mask("AC 5D"), MeldSystem.from_rules(rules)) == value + 5
    assert _live_tables() <= CACHED_SYSTEMS + 2  # plus the standard ones and the last used
    assert STANDARD_SYSTEM.tables is standard
    assert MeldSystem.from_rules(STANDARD) is STANDARD_SYSTEM


@pytest.mark.parametrize(("cards", "system", "points"), [
    ("", STANDARD_SYSTEM, 0),
    ("AC 2D 3H 4S", STANDARD_SYSTEM, 10),
    ("TC JD QH KS", STANDARD_SYSTEM, 40),
    ("AC AD AH AS", MeldSystem(ace_points=11), 44),
    ("KS AS", MeldSystem(ace_high=True, wraparound=True, ace_points=15), 25),
    ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", STANDARD_SYSTEM, 85),
])
def test_the_points_of_a_hand(cards: str, system: MeldSystem, points: int) -> None:
    assert mask_points_in(system, mask(cards)) == points


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 52) - 1), st.sampled_from([1, 11, 15]), st.booleans())
def test_the_points_of_a_mask_are_the_sum_of_its_cards(hand: int, ace_points: int, ace_high: bool) -> None:
    system = MeldSystem(ace_points=ace_points, ace_high=ace_high)
    points = system.tables.rank_points
    assert mask_points_in(system, hand) == sum(points[c % 13] for c in scan(hand))


def test_round_the_corner_counts_an_unmatched_ace_15() -> None:
    system = MeldSystem(ace_high=True, wraparound=True, ace_points=15)
    assert min_deadwood(mask("QC KC AC 2C 3C 9D 9S 9H 5H AH"), system) == 20
    assert min_deadwood(mask("QC KC AC 2C 3C 9D 9S 9H 5H AH")) == 26  # [AC 2C 3C] [9D 9H 9S]


# -- brute force ------------------------------------------------------------------------

SYSTEMS = [
    (STANDARD_SYSTEM, oracle.STANDARD),
    (MeldSystem(ace_high=True), oracle.OracleSystem(ace_high=True)),
    (
        MeldSystem(ace_high=True, wraparound=True, ace_points=15),
        oracle.OracleSystem(True, True, 15),
    ),
]


def random_hand(rng: random.Random, size: int) -> list[int]:
    """Half uniform hands, half meld-dense ones dealt from a few adjacent ranks."""
    if rng.random() < 0.5:
        return rng.sample(range(52), size)
    width = rng.choice([3, 4, 5, 6])
    low = rng.randrange(0, 14 - width)
    return rng.sample([s * 13 + r for s in range(4) for r in range(low, low + width)], size)


def agreement(seed: int, hands: int, *, every_arrangement: bool) -> int:
    rng = random.Random(seed)
    checked = 0
    for i in range(hands):
        hand = random_hand(rng, rng.choice([10, 11]))
        system, oracle_system = SYSTEMS[0] if i % 4 else SYSTEMS[i // 4 % 3]
        cards = mask_of(hand)
        expected = oracle.min_deadwood(hand, oracle_system)
        assert min_deadwood(cards, system) == expected, (mask_names(cards), system)
        if len(hand) == 11:
            after = min(oracle.min_deadwood([c for c in hand if c != x], oracle_system) for x in hand)
            assert min_deadwood_after_discard(cards, system) == after, (mask_names(cards), system)
        if every_arrangement:
            found = {
                frozenset(frozenset(m.cards) for m in a.melds) for a in optimal_arrangements(cards, system)
            }
            assert found == oracle.optimal_partitions(hand, oracle_system), mask_names(cards)
        checked += 1
    return checked


def test_agrees_with_brute_force_values() -> None:
    """A seeded slice for every run; the ``slow`` suite checks 63,000 hands more."""
    assert agreement(seed=20261130, hands=400, every_arrangement=False) == 400


def test_agrees_with_brute_force_every_arrangement() -> None:
    assert agreement(seed=7, hands=200, every_arrangement=True) == 200


@pytest.mark.slow
def test_agrees_with_brute_force_large() -> None:
    assert agreement(seed=20261130, hands=3000, every_arrangement=False) == 3000
    assert agreement(seed=1, hands=60000, every_arrangement=False) == 60000
    assert agreement(seed=2, hands=15000, every_arrangement=True) == 15000


# -- invariants ------------------------------------------------------------------------

hands = st.integers(10, 11).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_deadwood_is_the_unmelded_cards(hand: list[int]) -> None:
    cards = mask_of(hand)
    for arrangement in optimal_arrangements(cards):
        melded = 0
        for meld in arrangement.melds:
            assert meld_kind(meld.mask) is meld.kind
            assert not meld.mask & melded, "melds overlap"
            melded |= meld.mask
        assert melded | arrangement.deadwood == cards
        assert not melded & arrangement.deadwood
        assert arrangement.deadwood_points == sum(min(c % 13 + 1, 10) for c in scan(arrangement.deadwood))
        assert arrangement.deadwood_points == min_deadwood(cards)


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_card_order_never_changes_the_answer(hand: list[int], rng: random.Random) -> None:
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert optimal_arrangements(mask_of(shuffled)) == optimal_arrangements(mask_of(hand))


GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@settings(max_examples=200, deadline=None)
@given(hands, st.data())
def test_notation_form_never_changes_the_answer(hand: list[int], data: st.DataObject) -> None:
    """Any accepted spelling of the same cards (case, 10/T, glyphs, suit first) analyzes the same."""
    from ginref.analysis import analyze
    from ginref.cards import card_name
    from ginref.notation import parse_hand

    words = []
    for card in hand:
        rank, suit = card_name(card)
        rank = data.draw(st.sampled_from(["10", "T", "t"])) if rank == "T" else rank
        suit = data.draw(st.sampled_from([suit, suit.lower(), GLYPHS[suit]]))
        words.append(data.draw(st.sampled_from([rank + suit, suit + rank])))
    separator = data.draw(st.sampled_from([" ", ", ", ","]))
    spelled = parse_hand(separator.join(words))
    assert spelled.mask == mask_of(hand)
    assert analyze(spelled.mask).to_dict() == analyze(mask_of(hand)).to_dict()


def test_the_shipped_standard_tables_are_the_computed_ones() -> None:
    """ginref reads the standard system's suit tables from ginref/standard_tables.bin;
    they must be what the search computes (else: python tools/meld_tables.py)."""
    from ginref import melds

    computed = melds._built_tables.__wrapped__(melds.STANDARD_SYSTEM, None)
    assert Path(melds.STANDARD_TABLES_FILE).read_bytes() == computed.saved()
    loaded = melds._STANDARD_TABLES
    assert loaded.best == computed.best
    assert loaded.capable == computed.capable
    assert loaded.discard_gain == computed.discard_gain
    assert (loaded.kinds, loaded.run_masks) == (computed.kinds, computed.run_masks)


def _damaged() -> bytes:
    from ginref import melds

    data = bytearray(Path(melds.STANDARD_TABLES_FILE).read_bytes())
    data[100] ^= 1
    return bytes(data)


WRONG_SIZES = [b"", b"\x00" * 100, b"\x00" * (4 * 8192 + 5), _damaged()]


@pytest.mark.parametrize("saved", WRONG_SIZES, ids=["none", "short", "long", "one bit flipped"])
def test_saved_tables_that_are_not_whole_are_computed_instead(saved: bytes) -> None:
    from ginref import melds

    tables = melds._built_tables.__wrapped__(melds.STANDARD_SYSTEM, saved)
    assert tables.best == melds._STANDARD_TABLES.best
    assert tables.discard_gain == melds._STANDARD_TABLES.discard_gain
