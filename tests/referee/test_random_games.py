"""Random legal games verify clean under every preset; every corruption is caught.

The random player fills in the claims (result, running totals, next dealer, final
totals) from the real outcome, so any error finding on a clean game is a referee
bug (or a player bug); the corruptions then check that the referee is not simply
lenient. The fast suite plays a few hundred games; ``-m slow`` plays thousands.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref import game
from ginref.cards import mask_of
from ginref.layoffs import best_defence, best_defence_from, least_defence
from ginref.melds import Meld, MeldSystem, optimal_arrangements
from ginref.records import GameRecord, Turn
from ginref.referee import Verdict, adjudicate
from ginref.rules import PRESETS, Rules, find_rules, with_overrides
from tests.support.randomplay import CORRUPTIONS, Style, corrupt, play_hand, random_game, random_hand

PRESET_NAMES = ["standard", "hoyle", "cardhearth", "oklahoma", "straight", "openspiel"]
MORE = ["eaai", "hollywood", "round_the_corner", "rlcard"]
VARIANTS = [
    ("standard", {"stock_end": "last_discard_knock_only"}),
    ("standard", {"first_turn": "eleven_card"}),
    ("standard", {"tie_policy": "no_score", "next_dealer": "alternate", "void_hand_dealer": "passes"}),
    ("standard", {"layoff_chaining": "false", "knocker_must_meld_max": "true"}),
    ("hoyle", {"defender_layoff_mode": "meld_first", "box_timing": "immediate"}),
    ("oklahoma", {"oklahoma": "one", "spade_double_boxes": "true", "extra_boxes_gin": "2"}),
    ("openspiel", {"no_same_card_discard": "true", "max_discard_draws": "5"}),
]


def rules_of(name: str, overrides: dict[str, str] | None = None) -> Rules:
    return with_overrides(find_rules(name), overrides or {})


def assert_verifies(record: GameRecord) -> Verdict:
    verdict = adjudicate(record)
    assert verdict.clean, [str(f) for f in verdict.errors]
    assert len(verdict.hands) == len(record.hands)
    for hand, ruled in zip(record.hands, verdict.hands, strict=True):
        assert hand.result is not None
        if ruled.resolved:
            assert (hand.result.outcome, hand.result.winner, hand.result.points) == (
                ruled.outcome, ruled.winner, ruled.points
            )
        assert hand.score_after == ruled.totals_after
        assert hand.next_dealer == ruled.next_dealer
    if record.final_totals is not None:
        assert record.final_totals == verdict.final_totals
    return verdict


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_random_games_verify_clean(name: str) -> None:
    ends: Counter[str] = Counter()
    for seed in range(40):
        verdict = assert_verifies(random_game(seed, name))
        assert all(h.resolved for h in verdict.hands)
        assert verdict.game_over
        ends.update(h.end for h in verdict.hands)
    assert ends["knock"] > 0
    if name == "openspiel":
        assert ends["wall"] + ends["repeat_discard_draw"] > 0
    elif name != "straight":
        assert ends["stock"] > 0


def test_the_random_hands_cover_every_preset() -> None:
    from ginref.rules import PRESET_NAMES as ALL

    assert set(PRESET_NAMES + MORE) == set(ALL)


@pytest.mark.parametrize("name", PRESET_NAMES + MORE)
def test_random_hands_verify_clean(name: str) -> None:
    for seed in range(25):
        assert_verifies(random_hand(seed, name))


@pytest.mark.parametrize(("name", "overrides"), VARIANTS, ids=[f"{n}-{'-'.join(o)}" for n, o in VARIANTS])
def test_random_games_under_knob_variants(name: str, overrides: dict[str, str]) -> None:
    rules = rules_of(name, overrides)
    for seed in range(15):
        record = random_game(seed, rules)
        assert record.overrides == rules.overrides
        assert_verifies(record)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(PRESET_NAMES + MORE))
def test_property_random_hand_verifies(seed: int, name: str) -> None:
    assert_verifies(random_hand(seed, name))


def test_unseen_draws_never_give_errors() -> None:
    """Stock draws recorded as unseen: the referee may be unable to rule, never wrong."""
    unresolved = 0
    for seed in range(60):
        for name in ("standard", "openspiel", "hoyle"):
            verdict = adjudicate(random_game(seed, name, hide_draws=True))
            assert verdict.clean, [str(f) for f in verdict.errors]
            for h in verdict.hands:
                if not h.resolved:
                    unresolved += 1
                    assert h.end == "error"
            assert {f.code for f in verdict.findings} <= {"cards_unknown", "missed_layoff", "knock_not_best"}
    assert unresolved > 0


def test_endings_of_openspiel_hands() -> None:
    """Each OpenSpiel ending shows up: knock, wall, repeated discard and the 50th discard draw."""
    rules = find_rules("openspiel")
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    for n in range(400):
        style = Style(discard_draw=(0.95, 0.95, 0.05, 0.3)[n % 4], knock=0.05,
                      same_card=(0.0, 0.3, 0.0, 0.1)[n % 4])
        record, entry = play_hand(rng, rules, "Bo", style=style)
        one = GameRecord(("Ann", "Bo"), (record,), rules="openspiel")
        verdict = adjudicate(one)
        assert verdict.clean
        seen[verdict.hands[0].end] += 1
        assert (entry.outcome, entry.winner, entry.points) == (
            verdict.hands[0].outcome, verdict.hands[0].winner, verdict.hands[0].points
        )
    assert {"knock", "wall", "repeat_discard_draw", "max_discard_draws"} <= set(seen)


def test_games_are_seeded() -> None:
    assert random_game(11, "hoyle") == random_game(11, "hoyle")
    assert random_game(11, "hoyle") != random_game(12, "hoyle")


def test_claims_agree_with_the_game_module() -> None:
    """The referee's own running totals (its fast path) agree with ``game.tally``."""
    for seed in range(30):
        for name in ("standard", "oklahoma", "eaai"):
            record = random_game(seed, name)
            verdict = adjudicate(record)
            rules = find_rules(name)
            entries = [game.HandEntry(h.winner, h.points, h.outcome, h.knocker, h.multiplier)
                       for h in verdict.hands]
            for cut in range(1, len(entries) + 1):
                scored = game.tally(record.players, entries[:cut], rules, record.hands[0].dealer)
                partial = adjudicate(GameRecord(record.players, record.hands[:cut], rules=name))
                assert partial.hand_totals == tuple(scored.hand_totals.items())
                assert partial.final_totals == tuple(scored.final_totals.items())
                assert (partial.game_over, partial.winner) == (scored.game_over, scored.winner)


# -- the referee's layoff search against layoffs.best_defence ----------------------------


@pytest.mark.parametrize("name", ["standard", "round_the_corner", "hoyle"])
@pytest.mark.parametrize("chaining", [True, False])
def test_least_defence_matches_best_defence(name: str, chaining: bool) -> None:
    rules = rules_of(name, {"layoff_chaining": str(chaining).lower()})
    system = MeldSystem.from_rules(rules)
    rng = random.Random(2024)
    checked = 0
    while checked < 300:
        deck = list(range(52))
        rng.shuffle(deck)
        knocker, defender = mask_of(deck[:10]), mask_of(deck[10:20])
        melds = [m.mask for m in optimal_arrangements(knocker, system)[0].melds]
        if not melds:
            continue
        checked += 1
        points, choice = least_defence(defender, melds, rules, system, allow_layoffs=True)
        best = best_defence(defender, [Meld(m) for m in melds], rules)
        assert points == best.deadwood_points
        laid = 0
        for extra in choice:
            assert not laid & extra
            laid |= extra
        assert not laid & ~defender


@pytest.mark.parametrize("name", ["standard", "round_the_corner", "hoyle", "eaai"])
@pytest.mark.parametrize("mode", ["joint", "meld_first"])
@pytest.mark.parametrize("allow", [True, False])
def test_best_defence_from_the_least_defence_choice(name: str, mode: str, allow: bool) -> None:
    rules = rules_of(name, {"defender_layoff_mode": mode})
    system = MeldSystem.from_rules(rules)
    rng = random.Random(2026)
    for _ in range(150):
        deck = list(range(52))
        rng.shuffle(deck)
        knocker, defender = mask_of(deck[:10]), mask_of(deck[10:21 - rng.randrange(2)])
        melds = [m.mask for m in optimal_arrangements(knocker, system)[0].melds]
        _, choice = least_defence(defender, melds, rules, system, allow_layoffs=allow)
        shown = [Meld(m) for m in melds]
        assert best_defence_from(defender, shown, choice, rules, system, allow_layoffs=allow) == (
            best_defence(defender, shown, rules, allow_layoffs=allow))


# -- corruptions ------------------------------------------------------------------------


def corrupted(record: GameRecord, seed: int, code: str) -> tuple[GameRecord, str] | None:
    try:
        return corrupt(record, random.Random(seed), only=code)
    except ValueError:
        return None


POOL = [find_rules(name) for name in PRESET_NAMES + MORE] + [
    rules_of("standard", {"stock_end": "last_discard_knock_only", "knock_limit": "3"}),
]


@functools.lru_cache(maxsize=1)
def clean_records() -> tuple[tuple[int, GameRecord], ...]:
    return tuple(
        (seed, random_game(seed, rules) if seed % 3 else random_hand(seed, rules))
        for seed in range(12)
        for rules in POOL
    )


@pytest.mark.parametrize("code", sorted(CORRUPTIONS))
def test_each_corruption_produces_its_code(code: str) -> None:
    applied = 0
    for seed, record in clean_records():
        done = corrupted(record, seed, code)
        if done is None:
            continue
        broken, expected = done
        assert expected == code and broken != record
        verdict = adjudicate(broken)
        assert code in verdict.codes, (record.rules, seed, [str(f) for f in verdict.findings])
        assert not verdict.clean
        applied += 1
    assert applied >= 3, f"{code} applied only {applied} times"


def test_random_corruption() -> None:
    codes: Counter[str] = Counter()
    for seed in range(150):
        record = random_game(seed, PRESET_NAMES[seed % len(PRESET_NAMES)])
        broken, code = corrupt(record, random.Random(seed))
        assert code in adjudicate(broken).codes
        codes[code] += 1
    assert len(codes) >= 12


def test_corrupt_needs_something_to_corrupt() -> None:
    record = random_hand(3, "cardhearth")
    with pytest.raises(ValueError, match="no corruption applies"):
        corrupt(record, random.Random(0), only="upcard_ritual")


# -- more of the same, for -m slow ------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES + MORE)
def test_many_random_games_verify_clean_slow(name: str) -> None:
    for seed in range(1000, 1600):
        assert_verifies(random_game(seed, name))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "overrides"), VARIANTS)
def test_many_knob_variants_slow(name: str, overrides: dict[str, str]) -> None:
    rules = rules_of(name, overrides)
    for seed in range(200):
        assert_verifies(random_game(seed, rules))


@pytest.mark.slow
def test_many_corruptions_slow() -> None:
    for seed in range(3000):
        name = (PRESET_NAMES + MORE)[seed % 9]
        record = random_game(seed, name) if seed % 2 else random_hand(seed, name)
        broken, code = corrupt(record, random.Random(seed))
        verdict = adjudicate(broken)
        assert code in verdict.codes, (name, seed, code, [str(f) for f in verdict.findings])


def test_presets_cover_the_brief() -> None:
    assert set(PRESET_NAMES) <= set(PRESETS)
    assert all(isinstance(ev, Turn) or ev is not None for ev in random_hand(1).hands[0].events)
