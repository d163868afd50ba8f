"""The library takes a hand in any form: a mask, a ``CardSet``, text, or cards one by one.

Every public function that takes a hand reads it through ``notation.hand_mask``,
so each form must give the ruling the mask gives, and anything that is not a
hand must raise a ``GinrefError`` (never a ``TypeError``, ``IndexError`` or a
wrong answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.analysis import analyze
from ginref.cards import CardSet, card_name, mask_of
from ginref.errors import GinrefError
from ginref.layoffs import best_defence, candidate_layoffs, layoff_report
from ginref.melds import (
    MeldKind,
    MeldSystem,
    best_arrangement,
    is_meld,
    meld_kind,
    meld_masks,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginref.notation import parse_cards
from ginref.rules import STANDARD
from ginref.scoring import score_hand

KNOCKER = "3C 4C 5C 9D 9H 9S 2H 3H AS AD"
DEFENDER = "2S 3S 4S 8H 8D 8C 6C 7C QH QS"
SPREAD = "[3C 4C 5C] [9D 9H 9S]"
KNOCKER_MELDS = best_arrangement(KNOCKER).melds


def forms(text: str) -> dict[str, object]:
    """The same cards as a mask, a CardSet, text (two spellings), ints, names and a generator."""
    cards = parse_cards(text)
    return {
        "mask": mask_of(cards),
        "cardset": CardSet.of(cards),
        "text": text,
        "lower case, commas": text.lower().replace(" ", ", "),
        "ints": list(cards),
        "names": tuple(card_name(c) for c in cards),
        "mixed": [c if i % 2 else card_name(c) for i, c in enumerate(cards)],
        "generator": (c for c in cards),
    }


RTC = MeldSystem(ace_high=True, wraparound=True)
RULINGS: list[tuple[str, Callable[[Any], object]]] = [
    ("min_deadwood", min_deadwood),
    ("min_deadwood round the corner", lambda hand: min_deadwood(hand, RTC)),
    ("best_arrangement", lambda hand: str(best_arrangement(hand))),
    ("optimal_arrangements", lambda hand: [str(a) for a in optimal_arrangements(hand)]),
    ("analyze", lambda hand: analyze(hand).to_dict()),
    ("score_hand as knocker", lambda hand: score_hand(hand, DEFENDER).to_dict()),
    ("score_hand as defender", lambda hand: score_hand(KNOCKER, hand, melds=SPREAD).to_dict()),
    ("layoff_report", lambda hand: layoff_report(hand, SPREAD, STANDARD).to_dict()),
    ("best_defence", lambda hand: str(best_defence(hand, KNOCKER_MELDS, STANDARD))),
    ("candidate_layoffs", lambda hand: candidate_layoffs(hand, KNOCKER_MELDS, STANDARD)),
    ("min_deadwood_after_discard", min_deadwood_after_discard),
]
"""Each takes the defender's ten cards (the knocker's, for ``score_hand as knocker``)."""


@pytest.mark.parametrize(("name", "ruling"), RULINGS, ids=[r[0] for r in RULINGS])
@pytest.mark.parametrize("form", list(forms(DEFENDER)))
def test_every_form_of_a_hand_gets_the_same_ruling(
    name: str, ruling: Callable[[Any], object], form: str
) -> None:
    hand = KNOCKER if name == "score_hand as knocker" else DEFENDER
    assert ruling(forms(hand)[form]) == ruling(mask_of(parse_cards(hand)))


def test_the_forms_rule_as_a_referee_does() -> None:
    assert min_deadwood(DEFENDER) == 33  # [2S 3S 4S] [8C 8D 8H]; 6C 7C QH QS
    assert min_deadwood_after_discard(DEFENDER + " KD") == 33  # the king goes
    assert str(best_defence(DEFENDER, KNOCKER_MELDS, STANDARD).layoffs[0]) == "6C onto [3C 4C 5C]"


@pytest.mark.parametrize(
    "melds",
    [
        SPREAD,
        ["3C 4C 5C", "9d 9h 9s"],
        [[2, 3, 4], ["9D", "9H", "9S"]],
        [CardSet.parse("3C 4C 5C"), mask_of(parse_cards("9D 9H 9S"))],
        list(KNOCKER_MELDS),  # Meld values, as an arrangement gives them
    ],
)
def test_melds_in_any_form(melds: Any) -> None:
    assert meld_masks(melds)[0] == mask_of(parse_cards("3C 4C 5C"))
    declared = meld_masks(melds)
    assert (
        score_hand(KNOCKER, DEFENDER, melds=melds).to_dict()
        == score_hand(KNOCKER, DEFENDER, melds=declared).to_dict()
    )
    assert (
        layoff_report(DEFENDER, melds, STANDARD).to_dict()
        == layoff_report(DEFENDER, declared, STANDARD).to_dict()
    )


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("3C 4C 5C", MeldKind.RUN),
        (["9D", "9S", "9H"], MeldKind.SET),
        (CardSet.parse("9D 9S 9H 9C"), MeldKind.SET),
        ((2, 3), None),
        ("QC KC AC", None),
    ],
)
def test_meld_tests_take_any_form(cards: Any, kind: MeldKind | None) -> None:
    assert meld_kind(cards) is kind
    assert is_meld(cards) is (kind is not None)


NOT_HANDS = [
    -1,
    1 << 52,
    (1 << 52) | 1,
    -(1 << 60),
    10**5000,  # str() of this many digits raises ValueError; a message must not try
    True,
    1.5,
    None,
    b"AC 2C",
    "AC 4X",
    "AC AC",
    "\udcff",
    "AC\0",
    [52],
    [-1],
    ["AC", "AC"],
    [[1, 2]],
    [1.0],
    object(),
]


def _label(value: object) -> str:
    if isinstance(value, int) and value.bit_length() > 64:
        return f"int of {value.bit_length()} bits"
    if type(value) is object:  # its repr holds an address: no id that two collections agree on
        return "object()"
    return repr(value)[:30]


@pytest.mark.parametrize("not_a_hand", NOT_HANDS, ids=_label)
@pytest.mark.parametrize(("name", "ruling"), RULINGS, ids=[r[0] for r in RULINGS])
def test_anything_else_raises_a_ginref_error(
    name: str, ruling: Callable[[Any], object], not_a_hand: object
) -> None:
    with pytest.raises(GinrefError) as caught:
        ruling(not_a_hand)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 200, message


@pytest.mark.parametrize("not_a_meld", [-1, 1 << 52, 10**5000, 0], ids=_label)
def test_meld_tests_say_no_to_numbers_that_are_no_meld(not_a_meld: int) -> None:
    assert meld_kind(not_a_meld) is None
    assert is_meld(not_a_meld) is False


hands = st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands, st.sampled_from(["cardset", "text", "lower case, commas", "ints", "names", "mixed"]))
def test_forms_agree_on_any_hand(cards: list[int], form: str) -> None:
    text = " ".join(card_name(c) for c in cards)
    given_form: Any = forms(text)[form]
    assert min_deadwood(given_form) == min_deadwood(mask_of(cards))
    assert analyze(given_form).to_dict() == analyze(mask_of(cards)).to_dict()
