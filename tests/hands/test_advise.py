"""``ginref.advise``: should I knock now? Hand-checked positions, the oracle, the intervals."""

from __future__ import annotations

import pathlib
import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.advice import Advice, KnockOption, advise
from ginref.cards import FULL_DECK, scan
from ginref.errors import GinrefError, HandSizeError, NotationError, RulingError
from ginref.melds import MeldSystem, min_deadwood_after_discard
from ginref.notation import hand_mask, parse_card
from ginref.rules import PRESETS, STANDARD, Rules, with_overrides
from tests.support import oracle_advise

ORACLE_RULES = ("standard", "hoyle", "openspiel", "oklahoma")


def melds_of(option: KnockOption) -> list[list[str]]:
    return [meld.names() for meld in option.declaration.melds]


def only_option(advice: Advice) -> KnockOption:
    assert len(advice.options) == 1
    return advice.options[0]


# -- positions a referee would recognise ----------------------------------------------------

KNOCKER = "3C 4C 5C 9D 9H 9S 6S 7S 8S 2D"
"""Three melds and 2D: a knock with 2."""


def test_known_layoffs_on_every_meld_make_the_undercut_certain() -> None:
    # 2C 6C 7C 8C go onto 3C-5C, 9C onto the nines, 4S 5S onto 6S-8S; AH AD AS is a set.
    opponent = "2C 6C 7C 8C 9C 4S 5S AH AD AS"
    advice = advise(KNOCKER, opponent_has=opponent, seen="KH KD")
    option = only_option(advice)
    assert (advice.method, advice.defender_hands) == ("exact", 1)
    assert (option.p_undercut, option.p_win, option.expected_points) == (1.0, 0.0, -12.0)


@pytest.mark.parametrize("name", ["standard", "round_the_corner"])
def test_gin_is_never_undercut(name: str) -> None:
    # round the corner lets the defender lay off onto gin: reaching 0 cancels it, still no undercut
    advice = advise("3C 4C 5C 6C 9D 9H 9S 6S 7S 8S", PRESETS[name], samples=2000)
    option = only_option(advice)
    assert option.ending == "gin" and option.declaration.deadwood_points == 0
    assert option.undercuts == 0 and option.p_undercut == 0.0
    assert option.wins + option.ties == option.hands


def test_withholding_a_meld_card_denies_a_layoff_and_scores_more() -> None:
    # Declaring AH-4H lets 5H 6H go onto it (20 left, +16); with 4H kept back as
    # deadwood (8) nothing can go on AH-3H, so the defender keeps 31 (+23).
    advice = advise("AH 2H 3H 4H 9C 9D 9S AC AD 2S", opponent_has="5H 6H KC KD KH QC QD QH JC JD")
    option = only_option(advice)
    assert melds_of(option) == [["9C", "9D", "9S"], ["AH", "2H", "3H"]]
    assert (option.declaration.deadwood_points, option.expected_points) == (8, 23.0)


TIE_DEFENDER = "AH AD AS KC KD KH QC QD QH 2H"
"""Three sets and 2H: 2 deadwood, the knocker's 2 exactly."""


@pytest.mark.parametrize(
    ("rules", "outcome", "points"),
    [
        (STANDARD, "undercut", -10.0),
        (PRESETS["openspiel"], "tie", 0.0),
        (with_overrides(STANDARD, {"tie_policy": "knocker"}), "win", 0.0),
        (PRESETS["hoyle"], "undercut", -25.0),
    ],
    ids=["standard-undercut", "openspiel-no-score", "knocker-wins-ties", "hoyle-undercut"],
)
def test_the_tie_policy_decides_a_tie(rules: Rules, outcome: str, points: float) -> None:
    option = only_option(advise(KNOCKER, rules, opponent_has=TIE_DEFENDER))
    shares = {"win": option.p_win, "undercut": option.p_undercut, "tie": option.p_tie}
    assert shares[outcome] == 1.0
    assert option.expected_points == points


def test_eleven_cards_weigh_every_discard_best_first() -> None:
    advice = advise(KNOCKER + " KH", opponent_has="2C 6C 7C 8C 9C 4S 5S AH AD", seen="KD QD")
    assert [o.discard for o in advice.options] == [parse_card("KH"), parse_card("2D")]
    assert advice.options[0].expected_points >= advice.options[1].expected_points


def test_the_card_just_taken_may_not_be_thrown() -> None:
    advice = advise(KNOCKER + " KH", taken="KH", samples=300)
    assert [o.discard for o in advice.options] == [parse_card("2D")]


def test_oklahoma_spade_upcard_doubles_and_sets_the_limit() -> None:
    defender = TIE_DEFENDER.replace("2H", "TH")  # 10 deadwood: the knocker wins 8
    plain = only_option(advise(KNOCKER, STANDARD, opponent_has=defender))
    doubled = only_option(advise(KNOCKER, PRESETS["oklahoma"], opponent_has=defender, upcard="3S"))
    assert (plain.expected_points, doubled.expected_points) == (8.0, 16.0)
    assert advise(KNOCKER, PRESETS["oklahoma"], upcard="AS").options == ()
    assert advise(KNOCKER, PRESETS["oklahoma"], upcard="AS").reason == (
        "only gin ends the hand here, and the least deadwood is 2"
    )


NO_KNOCK = "3C 4C 5C 9D 9H 9S KS QH 2D JD"


def test_no_legal_knock_says_why() -> None:
    advice = advise(NO_KNOCK)
    assert advice.options == () and advice.best is None
    assert advice.reason == "the least deadwood is 32, over the knock limit 10"


def test_auto_enumerates_small_positions_and_samples_large_ones() -> None:
    small = advise(KNOCKER, seen=" ".join(_names(FULL_DECK & ~hand_mask(KNOCKER))[:27]))
    assert (small.method, small.unseen, small.stock, small.defender_hands) == ("exact", 15, 5, 3003)
    large = advise(KNOCKER, samples=500, seed=7)
    assert (large.method, large.defender_hands, large.unseen, large.stock) == ("sampled", 500, 42, 32)
    assert large.to_dict()["seed"] == 7 and "ci95" in large.to_dict()["options"][0]  # type: ignore[index]


def test_json_keeps_the_contract() -> None:
    document = advise(KNOCKER, samples=300).to_dict()
    assert {"method", "defender_hands", "options"} <= set(document)
    option = document["options"][0]  # type: ignore[index]
    assert {"discard", "melds", "deadwood_points", "gin", "p_win", "p_undercut", "p_tie",
            "expected_points", "ci95"} <= set(option)
    assert set(option["ci95"]) == {"p_win", "p_undercut", "p_tie", "expected_points"}


def test_the_same_seed_draws_the_same_hands() -> None:
    assert advise(KNOCKER, samples=200, seed=3) == advise(KNOCKER, samples=200, seed=3)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hand": "3C 4C 5C"}, HandSizeError, "expected 10 or 11 cards, got 3"),
        ({"seen": "9D"}, RulingError, "9D cannot be both in your hand and seen"),
        ({"opponent_has": "KH", "seen": "KH"}, RulingError, "KH cannot be both seen out of play"),
        ({"opponent_has": "AH AD AS KC KD KH QC QD QH JC JD"}, RulingError, "but 11 are named"),
        ({"stock": 3}, RulingError, "the position does not add up: 42 unseen cards"),
        ({"stock": "3"}, RulingError, "not '3'"),
        ({"samples": 0}, RulingError, "samples must be 1 to 1,000,000, not 0"),
        ({"samples": 10**5000}, RulingError, "samples must be 1 to 1,000,000"),
        ({"method": "guess"}, RulingError, "method must be auto, exact or sampled"),
        ({"method": "exact"}, RulingError, "too many to enumerate"),
        ({"taken": "KH"}, RulingError, "must be one of your 11 cards"),
        ({"upcard": 3.5}, NotationError, "the upcard must be a card"),
        ({"seen": 2.5}, NotationError, "not float"),
        ({"seen": "XX"}, NotationError, "unknown card"),
    ],
)
def test_bad_positions_are_ginref_errors(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"hand": KNOCKER, **kwargs}
    with pytest.raises(error, match=message) as raised:
        advise(**arguments)  # type: ignore[arg-type]
    assert isinstance(raised.value, GinrefError)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 200


def _names(mask: int) -> list[str]:
    from ginref.cards import card_name

    return [card_name(c) for c in scan(mask)]


# -- the oracle: every defender hand, every declaration, every response -------------------------


@dataclass(frozen=True)
class Position:
    hand: list[int]
    pool: list[int]
    """unseen cards the opponent's unknown cards come from"""
    known: list[int]
    seen: list[int]
    upcard: int | None


def seeded_position(seed: int, rules: Rules, unseen: int) -> Position:
    """An 11-card hand that can knock; unseen cards leaning toward ones that touch it."""
    rng = random.Random(seed)
    system = MeldSystem.from_rules(rules)
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        hand, rest = deck[:11], deck[11:]
        upcard = rng.choice(rest) if rules.oklahoma != "off" else None
        if min_deadwood_after_discard(sum(1 << c for c in hand), system) <= rules.knock_limit_for(upcard):
            break
    near = {c for c in rest for h in hand if c % 13 == h % 13 or (c // 13 == h // 13 and abs(c - h) <= 2)}
    rest.sort(key=lambda c: rng.random() ** (1 / (4 if c in near else 1)), reverse=True)
    known = rest[: rng.choice((0, 0, 1, 2, 3))]
    return Position(hand, rest[len(known):unseen], known, rest[unseen:], upcard)


def advise_position(position: Position, rules: Rules, **kwargs: object) -> Advice:
    return advise(position.hand, rules, seen=position.seen, opponent_has=position.known,
                  upcard=position.upcard, **kwargs)  # type: ignore[arg-type]


def exact_figures(option: KnockOption) -> tuple[Fraction, Fraction, Fraction, Fraction, int, str]:
    n = option.hands
    return (Fraction(option.wins, n), Fraction(option.undercuts, n), Fraction(option.ties, n),
            Fraction(option.points, n), option.declaration.deadwood_points, option.ending)


def oracle_figures(found: oracle_advise.Figures) -> tuple[Fraction, Fraction, Fraction, Fraction, int, str]:
    return (found.p_win, found.p_undercut, found.p_tie, found.expected, found.deadwood, found.ending)


def check_against_oracle(seed: int, name: str, unseen: int) -> None:
    rules = PRESETS[name]
    position = seeded_position(seed, rules, unseen)
    advice = advise_position(position, rules, method="exact")
    expected = oracle_advise.advise(tuple(sorted(position.hand)), position.pool, position.known, rules,
                                    upcard=position.upcard)
    assert advice.method == "exact"
    assert {o.discard for o in advice.options} == set(expected)
    for option in advice.options:
        assert exact_figures(option) == oracle_figures(expected[option.discard]), option.discard


FAST_POSITIONS = [(seed, name, 11 + seed % 3) for name in ORACLE_RULES for seed in range(6)] + [
    (100 + seed, name, 14 + seed % 2) for name in ORACLE_RULES for seed in range(2)
]


@pytest.mark.parametrize(("seed", "name", "unseen"), FAST_POSITIONS)
def test_exact_mode_matches_the_brute_force(seed: int, name: str, unseen: int) -> None:
    check_against_oracle(seed, name, unseen)


@pytest.mark.slow
@pytest.mark.parametrize("name", ORACLE_RULES)
@pytest.mark.parametrize("unseen", range(11, 16))
def test_exact_mode_matches_the_brute_force_at_length(name: str, unseen: int) -> None:
    """20 seeded positions per rule set and unseen count: 400 in all."""
    for seed in range(1000, 1020):
        check_against_oracle(seed, name, unseen)


# -- sampled mode: the 95% intervals ----------------------------------------------------------


def interval_hits(seed: int, name: str, samples: int) -> tuple[int, int]:
    """How many of a sampled position's intervals hold the exact value, and how many there are."""
    rules = PRESETS[name]
    position = seeded_position(seed, rules, 13 + seed % 3)
    sampled = advise_position(position, rules, method="sampled", samples=samples, seed=seed)
    hands = list(oracle_advise.defender_hands(position.pool, position.known))
    multiplier = rules.multiplier(position.upcard)
    hits = total = 0
    for option in sampled.options:
        melds = [tuple(m.cards) for m in option.declaration.melds]
        exact = oracle_advise.figures(melds, option.declaration.deadwood_points, option.ending, hands,
                                      rules, multiplier)
        interval = option.ci95()
        assert interval is not None
        for key, truth, estimate in (
            ("p_win", exact.p_win, option.p_win),
            ("p_undercut", exact.p_undercut, option.p_undercut),
            ("p_tie", exact.p_tie, option.p_tie),
            ("expected_points", exact.expected, option.expected_points),
        ):
            total += 1
            hits += abs(float(truth) - estimate) <= interval[key]
    return hits, total


def coverage(seeds: range, samples: int) -> tuple[int, int, int]:
    """Positions whose every interval held the exact value, intervals that did, intervals in all."""
    whole = held = count = 0
    for seed in seeds:
        hits, total = interval_hits(seed, ORACLE_RULES[seed % 4], samples)
        whole += hits == total
        held += hits
        count += total
    return whole, held, count


def test_sampled_intervals_hold_the_exact_values() -> None:
    """40 seeded positions of 13 to 15 unseen cards, 400 samples each, over the four rule sets."""
    whole, held, count = coverage(range(40), 400)
    assert held >= 0.95 * count, f"{held} of {count} intervals held the exact value"
    assert whole >= 0.9 * 40, f"{whole} of 40 positions had every interval hold it"


# -- invariants --------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(sorted(PRESETS)))
def test_every_option_accounts_for_every_hand(seed: int, name: str) -> None:
    rules = PRESETS[name]
    position = seeded_position(seed, rules, 14) if rules.knock_limit else None
    if position is None:
        return
    advice = advise_position(position, rules, samples=300, seed=seed)
    ranks = [(-o.points, -o.wins, o.undercuts) for o in advice.options]
    assert ranks == sorted(ranks)
    for option in advice.options:
        assert option.wins + option.undercuts + option.ties == option.hands == advice.defender_hands
        if option.ending != "knock":
            assert option.undercuts == 0


# -- the command line ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from ginref.cli import cli

    result = CliRunner().invoke(cli, ["advise", *args])
    return result.exit_code, result.output


def test_cli_advises_in_plain_words() -> None:
    code, output = run(*KNOCKER.split(), "--opponent-has", TIE_DEFENDER.replace("2H", "TH"))
    assert code == 0
    assert "exact: all 1 hand the opponent may hold" in output
    assert "knocking with 2 wins 100%: expected +8.0 points" in output


def test_cli_json_is_the_library_value() -> None:
    import json

    code, output = run(*KNOCKER.split(), "KH", "--sample", "--samples", "300", "--seed", "5", "--json")
    assert code == 0
    assert json.loads(output) == advise(KNOCKER + " KH", samples=300, seed=5, method="sampled").to_dict()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ((NO_KNOCK,), 1, "no knock: the least deadwood is 32"),
        ((*KNOCKER.split(), "--seen", "9D"), 2, "9D cannot be both in your hand and seen"),
        ((*KNOCKER.split(), "--opponent-has", "ZZ"), 2, "--opponent-has: unknown card 'ZZ'"),
        ((*KNOCKER.split(), "--stock", "99"), 2, "--stock"),
        ((*KNOCKER.split(), "--exact"), 2, "too many to enumerate"),
        (("samples/records/knock-layoffs.gin", "--at", "18", "--seen", "KD"), 2, "--at reads the position"),
        (("samples/records/knock-layoffs.gin", "--at", "3"), 2, "no turn on line 3"),
        (("no-such-file.gin", "--at", "3"), 2, "no such file"),
    ],
)
def test_cli_exit_codes(args: tuple[str, ...], code: int, message: str) -> None:
    exit_code, output = run(*args)
    assert (exit_code, message in output) == (code, True), output


def test_cli_reads_the_position_from_a_record() -> None:
    # Line 18: Ann has drawn 8S (taking 9H earlier); QC and KS are on the pile; Bo took nothing.
    code, output = run("samples/records/knock-layoffs.gin", "--at", "18", "--samples", "500")
    assert code == 0
    assert "39 unseen cards, 29 in the stock" in output
    assert "knocking with 2 after discarding KH" in output


def test_a_recorded_position_is_what_the_mover_could_see() -> None:
    from ginref.referee.position import position_at

    # Line 17: Bo draws TD; Ann took the 9H upcard and threw QC, so Bo knows Ann holds 9H.
    position = position_at("samples/records/knock-layoffs.gin", 17)
    assert position.player == "Bo"
    assert position.hand == hand_mask("6C 9C 5S JH JC JD 4H AH 8D KS TD")
    assert (position.seen, position.opponent_has) == (hand_mask("QC"), hand_mask("9H"))
    assert (position.stock, position.taken, position.upcard) == (30, None, parse_card("9H"))
    at_knock = position_at("samples/records/knock-layoffs.gin", 18)
    assert (at_knock.seen, at_knock.opponent_has, at_knock.stock) == (hand_mask("QC KS"), 0, 29)


@pytest.mark.parametrize("empty", ["stdin", "file"])
def test_advise_at_a_line_of_an_input_without_records_exits_3(tmp_path: pathlib.Path, empty: str) -> None:
    from click.testing import CliRunner

    from ginref.cli import cli

    (tmp_path / "empty.gin").write_text("")
    target = "-" if empty == "stdin" else str(tmp_path / "empty.gin")
    result = CliRunner().invoke(cli, ["advise", target, "--at", "3"], input="")
    shown = "<stdin>" if empty == "stdin" else target
    assert result.exit_code == 3
    assert result.stderr == f"Error: {shown}: no record found: nothing to advise on\n"
