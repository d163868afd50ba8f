"""``best_defence`` (and ``candidate_layoffs``, and the knocker's declaration chosen by
``score_hand``) against the brute-force oracle in ``tests/support/oracle_layoffs.py``.

Knock situations are dealt at random (seeded) in two ways:

* ``dealt``: 20 random cards; the knocker's spread is one of the least-deadwood
  arrangements of its 10 (``ginref.melds.optimal_arrangements``);
* ``built``: the knocker's spread is built from runs in the middle of a suit
  and sets, and the defender is dealt mostly cards near it (run ends and the
  cards beyond them, fourth cards of sets, and cards that meld with those), so
  that layoffs, chains and own-meld breaking are frequent.

Each is ruled under joint and meld_first defence, chaining on and off, and
the standard and round-the-corner meld systems. For every situation the
engine's deadwood must equal the oracle's, and its response must be a legal
one: its layoffs the defender's own cards, disjoint, onto the declared melds,
each extending its meld as it stands at that moment (with chaining off, the
declared meld itself); its own melds real melds; melds + layoffs + deadwood
exactly the defender's ten cards; and the reported deadwood the points of
the cards left (for joint, the least for those cards; for meld_first, its own
melds plus everything it laid off and left form a least-deadwood spread).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref.cards import card_name, mask_of, scan
from ginref.layoffs import (
    best_defence,
    beyond_run_end,
    candidate_layoffs,
    defence_as_declared,
    extensions,
    fits,
    layoff_options,
    layoff_report,
    least_defence,
)
from ginref.melds import STANDARD_SYSTEM, Meld, MeldSystem, optimal_arrangements
from ginref.rules import Rules, find_rules, with_overrides
from tests.support import oracle
from tests.support import oracle_layoffs as lo

STANDARD_ORACLE = oracle.OracleSystem()
RTC_ORACLE = oracle.OracleSystem(ace_high=True, wraparound=True, ace_points=15)


@dataclass(frozen=True)
class Situation:
    knocker_melds: tuple[tuple[int, ...], ...]
    defender: tuple[int, ...]

    def describe(self) -> str:
        melds = " ".join("[" + " ".join(card_name(c) for c in m) + "]" for m in self.knocker_melds)
        return f"melds {melds}; defender {' '.join(card_name(c) for c in sorted(self.defender))}"


# ---- situation generators --------------------------------------------------------------


def _run_cards(suit: int, start: int, length: int, wrap: bool) -> tuple[int, ...] | None:
    ranks = [(start + i) for i in range(length)]
    if not wrap and ranks[-1] > 12:
        return None
    return tuple(suit * 13 + r % 13 for r in ranks)


def dealt(rng: random.Random, system: MeldSystem) -> Situation:
    """20 random cards; the knocker declares one of its least-deadwood spreads."""
    deck = list(range(52))
    rng.shuffle(deck)
    knocker, defender = deck[:10], deck[10:20]
    arrangements = optimal_arrangements(mask_of(knocker), system)
    chosen = rng.choice(arrangements)
    melds = tuple(tuple(scan(m.mask)) for m in chosen.melds)
    return Situation(melds, tuple(defender))


def built(rng: random.Random, system: MeldSystem) -> Situation:
    """A spread of runs and sets, and a defender crowded around it."""
    wrap = system.wraparound
    used: set[int] = set()
    melds: list[tuple[int, ...]] = []
    size = 0
    for _ in range(rng.choice((1, 2, 2, 3, 3, 3))):
        for _attempt in range(20):
            if rng.random() < 0.6:
                length = rng.choice((3, 3, 3, 4, 4, 5))
                start = rng.randrange(13) if wrap else rng.randrange(1, 12 - length + 1)
                cards = _run_cards(rng.randrange(4), start, length, wrap)
            else:
                rank = rng.randrange(13)
                suits = rng.sample(range(4), rng.choice((3, 3, 3, 4)))
                cards = tuple(s * 13 + rank for s in suits)
            if cards is None or used & set(cards) or size + len(cards) > 10:
                continue
            melds.append(tuple(sorted(cards)))
            used |= set(cards)
            size += len(cards)
            break
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    # the knocker's deadwood: whatever fills its hand to ten (drawn from the deck)
    knocker_dead = rest[: 10 - size]
    used |= set(knocker_dead)
    near: set[int] = set()
    for meld in melds:
        if len({c % 13 for c in meld}) == 1:
            near |= {s * 13 + meld[0] % 13 for s in range(4)}
        else:
            suit = meld[0] // 13
            for c in meld:
                for step in (-3, -2, -1, 1, 2, 3):
                    r = c % 13 + step
                    if wrap or 0 <= r <= 12:
                        near.add(suit * 13 + r % 13)
    near -= used
    # companions: cards that meld with a near card (same rank, or next in suit)
    companions: set[int] = set()
    for c in near:
        companions |= {s * 13 + c % 13 for s in range(4)}
        for step in (-1, 1):
            r = c % 13 + step
            if 0 <= r <= 12:
                companions.add(c // 13 * 13 + r)
    companions -= used | near
    pool_near = sorted(near)
    rng.shuffle(pool_near)
    pool_comp = sorted(companions)
    rng.shuffle(pool_comp)
    defender = pool_near[: rng.randint(2, 7)]
    defender += pool_comp[: rng.randint(0, 4)]
    defender = defender[:10]
    others = [c for c in range(52) if c not in used and c not in defender]
    rng.shuffle(others)
    defender += others[: 10 - len(defender)]
    return Situation(tuple(melds), tuple(defender))


# ---- rules configurations -----------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    name: str
    rules: Rules
    oracle_system: oracle.OracleSystem
    generator: str

    @property
    def chaining(self) -> bool:
        return self.rules.layoff_chaining

    @property
    def chain_limit(self) -> int | None:
        return self.rules.layoff_chain_limit

    @property
    def mode(self) -> str:
        return self.rules.defender_layoff_mode


def _config(name: str, preset: str, generator: str, **knobs: str) -> Config:
    rules = with_overrides(find_rules(preset), knobs) if knobs else find_rules(preset)
    system = RTC_ORACLE if preset == "round_the_corner" else STANDARD_ORACLE
    return Config(name, rules, system, generator)


CONFIGS = [
    _config("joint-built", "standard", "built"),
    _config("joint-dealt", "standard", "dealt"),
    _config("meld_first-built", "standard", "built", defender_layoff_mode="meld_first"),
    _config("no_chaining-built", "standard", "built", layoff_chaining="false"),
    _config(
        "meld_first-no_chaining-built",
        "standard",
        "built",
        defender_layoff_mode="meld_first",
        layoff_chaining="false",
    ),
    _config("rtc-joint-built", "round_the_corner", "built"),
    _config("rtc-no_chaining-built", "round_the_corner", "built", layoff_chaining="false"),
    _config("rtc-meld_first-dealt", "round_the_corner", "dealt", defender_layoff_mode="meld_first"),
    _config("openspiel-built", "openspiel", "built"),
    _config("chain_limit_1-built", "standard", "built", layoff_chain_limit="1"),
    _config("meld_first-chain_limit_1-built", "standard", "built", defender_layoff_mode="meld_first",
            layoff_chain_limit="1"),
    _config("rtc-chain_limit_1-built", "round_the_corner", "built", layoff_chain_limit="1"),
]


def situations(config: Config, seed: int, count: int) -> list[Situation]:
    rng = random.Random(f"{config.name}/{seed}")
    system = MeldSystem.from_rules(config.rules)
    make = built if config.generator == "built" else dealt
    return [make(rng, system) for _ in range(count)]


# ---- checking one situation -----------------------------------------------------------


def _layable_step(current: tuple[int, ...], card: int, system: oracle.OracleSystem) -> bool:
    grown = tuple(sorted((*current, card)))
    if oracle.is_set(current):
        return oracle.is_set(grown)
    return oracle.is_run(grown, system)


def check(config: Config, situation: Situation) -> tuple[int, int]:
    """Assert the engine agrees with the oracle; return (engine, oracle) deadwood."""
    system = config.oracle_system
    defender_mask = mask_of(situation.defender)
    melds = [Meld(mask_of(m)) for m in situation.knocker_melds]
    defence = best_defence(defender_mask, melds, config.rules)
    expected = lo.best_defence_deadwood(
        situation.knocker_melds,
        situation.defender,
        system,
        chaining=config.chaining,
        chain_limit=config.chain_limit,
        mode=config.mode,
    )
    where = f"{config.name}: {situation.describe()}"
    assert defence.deadwood_points == expected, (
        f"{where}: engine {defence.deadwood_points} ({defence.arrangement}, layoffs "
        f"{', '.join(str(x) for x in defence.layoffs)}), oracle {expected}"
    )
    # least_defence is the same search: the same deadwood and the same cards onto each meld
    laid_per_meld = [0] * len(melds)
    for layoff in defence.layoffs:
        laid_per_meld[melds.index(layoff.onto)] |= 1 << layoff.card
    least = least_defence(defender_mask, [m.mask for m in melds], config.rules)
    assert least == (expected, tuple(laid_per_meld)), f"{where}: least_defence {least}"
    # layoffs: the defender's, disjoint, onto declared melds, layable in the order given
    declared = {mask_of(m): tuple(sorted(m)) for m in situation.knocker_melds}
    current = dict(declared)
    laid: set[int] = set()
    for layoff in defence.layoffs:
        assert layoff.card in situation.defender, where
        assert layoff.card not in laid, where
        assert layoff.onto.mask in declared, where
        original = declared[layoff.onto.mask]
        if config.chaining:
            assert _layable_step(current[layoff.onto.mask], layoff.card, system), f"{where}: {layoff}"
        else:
            assert lo.layable(original, (layoff.card,), system, chaining=False), f"{where}: {layoff}"
        current[layoff.onto.mask] = tuple(sorted((*current[layoff.onto.mask], layoff.card)))
        laid.add(layoff.card)
    for key, cards in current.items():
        extra = tuple(c for c in cards if c not in declared[key])
        assert lo.layable(declared[key], extra, system, chaining=config.chaining,
                          chain_limit=config.chain_limit), where
    # the defender's own melds and deadwood
    own: set[int] = set()
    for meld in defence.arrangement.melds:
        cards = tuple(scan(meld.mask))
        assert oracle.is_set(cards) or oracle.is_run(cards, system), where
        assert not own & set(cards), where
        own |= set(cards)
    dead = set(scan(defence.arrangement.deadwood))
    assert not (own & laid or own & dead or laid & dead), where
    assert own | laid | dead == set(situation.defender), where
    assert defence.deadwood_points == lo.points_of(tuple(dead), system), where
    if config.mode == "joint":
        left = tuple(set(situation.defender) - laid)
        assert defence.deadwood_points == lo.least_deadwood(left, system), where
    else:
        assert lo.points_of(tuple(dead | laid), system) == lo.least_deadwood(situation.defender, system), (
            f"{where}: meld_first must keep a least-deadwood spread of its own"
        )
    # candidate_layoffs: each card that some layable set of the defender's cards
    # carries onto a meld, with every meld it can reach
    reach: dict[int, set[int]] = {}
    for meld in situation.knocker_melds:
        for subset in lo.layable_subsets(meld, situation.defender, system, chaining=config.chaining,
                                         chain_limit=config.chain_limit):
            for card in subset:
                reach.setdefault(card, set()).add(mask_of(meld))
    found = candidate_layoffs(defender_mask, melds, config.rules)
    assert {c: {m.mask for m in ms} for c, ms in found.items()} == reach, where
    return defence.deadwood_points, expected


def run_config(config: Config, seed: int, count: int) -> dict[str, int]:
    stats = {"situations": 0, "agree": 0, "with_layoffs": 0}
    for situation in situations(config, seed, count):
        engine, _ = check(config, situation)
        stats["situations"] += 1
        stats["agree"] += 1
        plain = lo.best_defence_deadwood(
            situation.knocker_melds, situation.defender, config.oracle_system, layoffs=False
        )
        if engine < plain:
            stats["with_layoffs"] += 1
    return stats


FAST_COUNT = 190  # x 12 configurations = 2,280 situations


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_best_defence_matches_oracle(config: Config) -> None:
    stats = run_config(config, seed=0, count=FAST_COUNT)
    assert stats["agree"] == stats["situations"] == FAST_COUNT
    # the generators must actually exercise layoffs (random deals rarely do)
    assert stats["with_layoffs"] >= FAST_COUNT // (20 if config.generator == "dealt" else 2), stats


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_best_defence_matches_oracle_slow(config: Config, seed: int) -> None:
    count = 1500
    stats = run_config(config, seed=seed, count=count)
    assert stats["agree"] == count


def test_fast_slice_is_fast_enough() -> None:
    # A guard on the cost of one configuration, so the whole fast slice stays
    # well under 30 s on a modest machine. CPU time, not the clock's: on a shared
    # machine (or beside another xdist worker) waiting for a core is not a cost.
    started = time.process_time()
    run_config(CONFIGS[0], seed=99, count=40)
    assert time.process_time() - started < 10


# ---- the oracle's own layoff rule, on cases read straight from the rules ----------------


def _cards(text: str) -> tuple[int, ...]:
    from ginref.notation import parse_cards

    return tuple(parse_cards(text))


@pytest.mark.parametrize(
    ("meld", "cards", "system", "chaining", "ok"),
    [
        ("4H 5H 6H", "7H", STANDARD_ORACLE, True, True),
        ("4H 5H 6H", "7H 8H", STANDARD_ORACLE, True, True),  # chained
        ("4H 5H 6H", "8H", STANDARD_ORACLE, True, False),  # a gap
        ("4H 5H 6H", "2H 3H 7H 8H", STANDARD_ORACLE, True, True),
        ("4H 5H 6H", "7H 8H", STANDARD_ORACLE, False, False),  # no chaining
        ("4H 5H 6H", "3H 7H", STANDARD_ORACLE, False, True),  # both ends, adjacent
        ("4H 5H 6H", "7S", STANDARD_ORACLE, True, False),  # wrong suit
        ("9C 9D 9S", "9H", STANDARD_ORACLE, True, True),  # fourth card of a set
        ("9C 9D 9H 9S", "9H", STANDARD_ORACLE, True, False),
        ("9C 9D 9S", "TC", STANDARD_ORACLE, True, False),  # a set takes no run card
        ("JH QH KH", "AH", STANDARD_ORACLE, True, False),  # ace low only (S0)
        ("2H 3H 4H", "AH", STANDARD_ORACLE, True, True),
        ("JH QH KH", "AH", RTC_ORACLE, True, True),  # P19: Q-K-A
        ("JH QH KH", "AH 2H", RTC_ORACLE, True, True),  # K-A-2 round the corner
        ("QH KH AH", "2H", RTC_ORACLE, False, True),
        ("QH KH AH", "2H 3H", RTC_ORACLE, False, False),
    ],
)
def test_oracle_layable(meld: str, cards: str, system: oracle.OracleSystem, chaining: bool, ok: bool) -> None:
    assert lo.layable(_cards(meld), _cards(cards), system, chaining=chaining) is ok


# ---- hand-picked situations the oracle must also agree with -------------------------------


def test_oracle_and_engine_agree_on_known_cases() -> None:
    from ginref.notation import parse_cards, parse_melds

    cases = [
        # chain both ends; joint breaks a four-set; set-or-run choice
        ("[4H 5H 6H] [9C 9D 9S]", "2H 3H 7H 8H KC KH JS 6C 7D TC", "standard", 53),
        ("[5H 6H 7H] [2S 3S 4S] [KC KD KS]", "8C 8D 8H 8S 9H QD JH 2D 6C TD", "standard", 38),
        ("[7C 7D 7S] [4H 5H 6H]", "7H 8H KD KH JS 9S QC TD AD 2S", "standard", 62),
        ("[QH KH AH] [KC AC 2C]", "JH 3C AD 9S 9C 9D 4S 5S 6S TD", "round_the_corner", 25),
    ]
    for spread, defender, preset, expected in cases:
        rules = find_rules(preset)
        system = RTC_ORACLE if preset == "round_the_corner" else STANDARD_ORACLE
        melds = [tuple(sorted(m)) for m in parse_melds(spread)]
        hand = tuple(parse_cards(defender))
        assert lo.best_defence_deadwood(melds, hand, system) == expected
        config = Config("known", rules, system, "built")
        assert check(config, Situation(tuple(melds), hand)) == (expected, expected)


# ---- hypothesis: joint <= meld_first <= no layoffs ---------------------------------------


@st.composite
def knock_situations(draw: st.DrawFn) -> tuple[Situation, str]:
    preset = draw(st.sampled_from(["standard", "round_the_corner"]))
    system = MeldSystem.from_rules(find_rules(preset))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = random.Random(seed)
    make = draw(st.sampled_from([built, dealt]))
    return make(rng, system), preset


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knock_situations(), st.booleans())
def test_joint_beats_meld_first_beats_no_layoffs(case: tuple[Situation, str], chaining: bool) -> None:
    situation, preset = case
    base = with_overrides(find_rules(preset), {"layoff_chaining": str(chaining).lower()})
    meld_first = with_overrides(base, {"defender_layoff_mode": "meld_first"})
    defender = mask_of(situation.defender)
    melds = [Meld(mask_of(m)) for m in situation.knocker_melds]
    joint = best_defence(defender, melds, base).deadwood_points
    first = best_defence(defender, melds, meld_first).deadwood_points
    none = best_defence(defender, melds, base, allow_layoffs=False).deadwood_points
    assert joint <= first <= none, situation.describe()
    # and chaining can only help
    if not chaining:
        chained = with_overrides(base, {"layoff_chaining": "true"})
        assert best_defence(defender, melds, chained).deadwood_points <= joint


@st.composite
def meld_and_cards(draw: st.DrawFn) -> tuple[MeldSystem, int, int]:
    """A legal meld of an ace-low system, and cards crowded round it (its suit and rank, often)."""
    system = draw(st.sampled_from([STANDARD_SYSTEM, MeldSystem(ace_points=15)]))
    meld = draw(st.sampled_from(sorted(system.tables.kinds)))
    low = (meld & -meld).bit_length() - 1
    near = 0x1FFF << (low - low % 13) | (1 | 1 << 13 | 1 << 26 | 1 << 39) << low % 13
    available = draw(st.integers(0, (1 << 52) - 1)) | draw(st.integers(0, (1 << 52) - 1)) & near
    return system, meld, available


@settings(max_examples=1000, deadline=None)
@given(meld_and_cards(), st.booleans(), st.sampled_from([None, 1, 2, 3]))
def test_closed_form_layoffs_equal_extensions(
    case: tuple[MeldSystem, int, int], chaining: bool, chain_limit: int | None
) -> None:
    system, meld, available = case
    assert layoff_options(meld, available, system, chaining=chaining, chain_limit=chain_limit) == extensions(
        Meld(meld), available, system, chaining=chaining, chain_limit=chain_limit
    )


@pytest.mark.parametrize(
    ("meld", "available", "chaining", "expected"),  # chaining: True, False or the chain limit
    [
        (
            "4H 5H 6H",
            "2H 3H 7H 8H 9S",
            True,
            ["", "3H", "7H", "2H 3H", "3H 7H", "7H 8H", "2H 3H 7H", "3H 7H 8H", "2H 3H 7H 8H"],
        ),
        ("4H 5H 6H", "2H 3H 7H 8H", False, ["", "3H", "7H", "3H 7H"]),
        # layoff_chain_limit 2 (openspiel): 7H and 8H, never 9H; 3H and 2H, never AH
        ("4H 5H 6H", "AH 2H 3H 7H 8H 9H", 2,
         ["", "3H", "7H", "2H 3H", "3H 7H", "7H 8H", "2H 3H 7H", "3H 7H 8H", "2H 3H 7H 8H"]),
        ("4H 5H 6H", "AH 2H 3H 7H 8H 9H", 1, ["", "3H", "7H", "3H 7H"]),
        ("AH 2H 3H", "KH 4H", True, ["", "4H"]),  # ace low: nothing below the ace
        ("JH QH KH", "AH TH", True, ["", "TH"]),  # nor above the king
        ("9C 9D 9S", "9H TC 8C", True, ["", "9H"]),
        ("9C 9D 9H 9S", "TC 8C", True, [""]),
    ],
)
def test_layoff_options_cases(meld: str, available: str, chaining: bool | int, expected: list[str]) -> None:
    limit = None if isinstance(chaining, bool) else chaining
    got = layoff_options(
        mask_of(_cards(meld)), mask_of(_cards(available)), STANDARD_SYSTEM, chaining=chaining is not False,
        chain_limit=limit,
    )
    assert [" ".join(card_name(c) for c in scan(extra)) for extra in got] == expected


# ---- the knocker's best declaration (score_hand without --melds) against brute force ----
#
# Without a declared spread ginref rules on the declaration best for the knocker
# (VARIANTS 4: "the declaration fixes what can be laid off"; withheld melds
# allowed unless knocker_must_meld_max). The brute force tries every meld
# partition of the knocker's cards (every discard, for 11 cards), keeps those
# within the knock limit, answers each with the oracle's best defence and
# scores it with the S0/S3 table; the knocker's best net must be ginref's.


def _oracle_limit(preset: str, upcard: int | None) -> int:
    if preset == "straight":
        return 0
    if preset != "oklahoma" or upcard is None:
        return 10
    rank = upcard % 13
    return 0 if rank == 0 else min(rank + 1, 10)  # gin_only on an ace (Bicycle P3)


def _oracle_settle(rules: Rules, ending: str, k: int, d: int, multiplier: int) -> int:
    """The knocker's net from the S0 table and the rule set's bonuses (+ knocker, - defender)."""
    if ending == "big_gin":
        net = d + (rules.big_gin_bonus or 0)
    elif ending == "gin":
        net = 0 if rules.layoff_on_gin and d == 0 else d + rules.gin_bonus
    elif k < d:
        net = d - k
    elif k == d and rules.tie_policy != "undercut":
        net = 0
    else:
        net = -(k - d + rules.undercut_bonus)
    return net * multiplier


def oracle_best_net(
    knocker: list[int],
    defender: list[int],
    rules: Rules,
    system: oracle.OracleSystem,
    limit: int,
    multiplier: int,
) -> int | None:
    """The knocker's best net over every legal declaration, or None if none is legal."""
    if len(knocker) == 11 and rules.big_gin_bonus is not None and oracle.min_deadwood(knocker, system) == 0:
        d = lo.best_defence_deadwood([], defender, system)
        return _oracle_settle(rules, "big_gin", 0, d, multiplier)
    hands = [knocker] if len(knocker) == 10 else [[c for c in knocker if c != x] for x in knocker]
    best: int | None = None
    for hand in hands:
        partitions = oracle.partitions(hand, system)
        values = [oracle.deadwood_of(hand, p, system) for p in partitions]
        least = min(values)
        for p, dead in zip(partitions, values, strict=True):
            if dead > limit or (rules.knocker_must_meld_max and dead > least):
                continue
            melds = [tuple(sorted(m)) for m in p]
            allow = rules.layoff_on_gin if dead == 0 else True
            d = lo.best_defence_deadwood(
                melds,
                defender,
                system,
                chaining=rules.layoff_chaining,
                mode=rules.defender_layoff_mode,
                layoffs=allow,
            )
            net = _oracle_settle(rules, "gin" if dead == 0 else "knock", dead, d, multiplier)
            if best is None or net > best:
                best = net
    return best


DECLARATION_CONFIGS = [
    ("standard", {}),
    ("hoyle", {}),
    ("openspiel", {}),
    ("oklahoma", {}),
    ("straight", {}),
    ("standard", {"knocker_must_meld_max": "true"}),
    ("standard", {"defender_layoff_mode": "meld_first", "layoff_chaining": "false"}),
    ("round_the_corner", {}),
]


def _free_melds(rng: random.Random, free: set[int], wrap: bool) -> list[tuple[int, ...]]:
    """Every run of three and set of three among ``free`` cards, shuffled."""
    found = []
    for suit in range(4):
        for start in range(13 if wrap else 11):
            cards = tuple(suit * 13 + (start + i) % 13 for i in range(3))
            if set(cards) <= free:
                found.append(cards)
    for rank in range(13):
        cards = tuple(s * 13 + rank for s in range(4) if s * 13 + rank in free)
        if len(cards) >= 3:
            found.append(cards[:3])
    rng.shuffle(found)
    return found


def knock_hands(rng: random.Random, rules: Rules) -> tuple[list[int], list[int], int | None]:
    """A built spread filled to 10 or 11 with low cards (so most hands can knock).

    The filler sometimes shares ranks with the spread's runs (several ways to
    declare, sets of four against runs); the defender is sometimes strong
    (own melds and low cards), so that undercuts and ties happen.
    """
    system = MeldSystem.from_rules(rules)
    while True:
        situation = built(rng, system)
        spread = {c for m in situation.knocker_melds for c in m}
        size = rng.choice((10, 10, 11))
        rest = [c for c in range(52) if c not in spread and c not in situation.defender]
        rng.shuffle(rest)
        if rng.random() < 0.4:
            ranks = {c % 13 for c in spread}
            rest.sort(key=lambda c: c % 13 not in ranks)
            low = [c for c in rest if c % 13 < 5 or c % 13 in ranks][: size - len(spread)]
        else:
            low = [c for c in rest if c % 13 < 5][: size - len(spread)]
        if len(low) != size - len(spread):
            continue
        knocker = sorted(spread | set(low))
        defender = list(situation.defender)
        if rng.random() < 0.4:
            free = set(range(52)) - set(knocker)
            near = [c for c in defender[: rng.randint(1, 4)]]
            free -= set(near)
            mine: list[int] = list(near)
            for meld in _free_melds(rng, free, system.wraparound):
                if len(mine) + 3 > 10:
                    break
                if set(meld) <= free and rng.random() < 0.7:
                    mine += meld
                    free -= set(meld)
            smalls = sorted(free, key=lambda c: (c % 13 > 3, rng.random()))
            mine += smalls[: 10 - len(mine)]
            defender = mine
        left = [c for c in range(52) if c not in knocker and c not in defender]
        return knocker, defender, rng.choice(left)


def check_declaration(preset: str, knobs: dict[str, str], rng: random.Random) -> str:
    rules = with_overrides(find_rules(preset), knobs) if knobs else find_rules(preset)
    system = RTC_ORACLE if preset == "round_the_corner" else STANDARD_ORACLE
    knocker, defender, upcard = knock_hands(rng, rules)
    if preset != "oklahoma":
        upcard = None
    multiplier = 2 if preset == "oklahoma" and upcard is not None and upcard // 13 == 3 else 1
    from ginref.scoring import Outcome, score_hand

    result = score_hand(mask_of(knocker), mask_of(defender), rules, upcard=upcard)
    expected = oracle_best_net(knocker, defender, rules, system, _oracle_limit(preset, upcard), multiplier)
    where = (
        f"{rules.label}: knocker {' '.join(card_name(c) for c in knocker)}; defender "
        f"{' '.join(card_name(c) for c in defender)}"
        + (f"; upcard {card_name(upcard)}" if upcard is not None else "")
    )
    if expected is None:
        assert result.outcome is Outcome.ILLEGAL_KNOCK, f"{where}: {result.explanation}"
        return "illegal"
    net = {"knocker": result.points, "defender": -result.points, None: 0}[result.winner]
    assert result.outcome is not Outcome.ILLEGAL_KNOCK, f"{where}: oracle finds a legal declaration"
    assert net == expected, f"{where}: engine {net} ({' | '.join(result.explanation)}), oracle {expected}"
    return result.outcome.value


@pytest.mark.parametrize(
    ("preset", "knobs"),
    DECLARATION_CONFIGS,
    ids=[p + "".join(f"-{k}={v}" for k, v in o.items()) for p, o in DECLARATION_CONFIGS],
)
def test_best_declaration_matches_brute_force(preset: str, knobs: dict[str, str]) -> None:
    rng = random.Random(f"declaration/{preset}/{sorted(knobs.items())}")
    outcomes = [check_declaration(preset, knobs, rng) for _ in range(100)]
    assert len(outcomes) == 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 4))
@pytest.mark.parametrize(
    ("preset", "knobs"),
    DECLARATION_CONFIGS,
    ids=[p + "".join(f"-{k}={v}" for k, v in o.items()) for p, o in DECLARATION_CONFIGS],
)
def test_best_declaration_matches_brute_force_slow(preset: str, knobs: dict[str, str], seed: int) -> None:
    rng = random.Random(f"declaration/{preset}/{sorted(knobs.items())}/{seed}")
    for _ in range(400):
        check_declaration(preset, knobs, rng)


# ---- layoff_chain_limit: at most N cards beyond each end of a run (openspiel: 2) ----------------


@pytest.mark.parametrize(
    ("meld", "cards", "system", "limit", "ok"),
    [
        ("4H 5H 6H", "7H 8H", STANDARD_ORACLE, 2, True),
        ("4H 5H 6H", "7H 8H 9H", STANDARD_ORACLE, 2, False),  # 9H is the third beyond the end
        ("4H 5H 6H", "7H 8H 9H", STANDARD_ORACLE, None, True),
        ("4H 5H 6H", "2H 3H 7H 8H", STANDARD_ORACLE, 2, True),  # two at each end
        ("4H 5H 6H", "AH 2H 3H", STANDARD_ORACLE, 2, False),
        ("4H 5H 6H", "7H 8H", STANDARD_ORACLE, 1, False),
        ("4H 5H 6H", "3H 7H", STANDARD_ORACLE, 1, True),
        ("2H 3H 4H", "KH AH", RTC_ORACLE, 2, True),  # round the corner: AH, then KH
        ("2H 3H 4H", "QH KH AH", RTC_ORACLE, 2, False),
        # the whole suit round the corner: each card counts from the nearer end (9H, TH: 5)
        ("2H 3H 4H", "5H 6H 7H 8H 9H TH JH QH KH AH", RTC_ORACLE, 5, True),
        ("2H 3H 4H", "5H 6H 7H 8H 9H TH JH QH KH AH", RTC_ORACLE, 4, False),
    ],
)
def test_oracle_layable_with_chain_limit(
    meld: str, cards: str, system: oracle.OracleSystem, limit: int | None, ok: bool
) -> None:
    assert lo.layable(_cards(meld), _cards(cards), system, chain_limit=limit) is ok


def _names(mask: int) -> str:
    return " ".join(card_name(c) for c in scan(mask))


@pytest.mark.parametrize(("preset", "candidates"), [
    ("standard", "AH 2H 3H 7H 8H 9H"),
    ("openspiel", "2H 3H 7H 8H"),  # never the third card beyond an end
])
def test_candidates_follow_layoff_chain_limit(preset: str, candidates: str) -> None:
    report = layoff_report("AH 2H 3H 7H 8H 9H 5C 7C 3D TC", "[4H 5H 6H] [QC QD QS] [2S 3S 4S]",
                           find_rules(preset))
    assert " ".join(card_name(c) for c, _ in report.candidates) == candidates


def test_a_card_between_two_runs_counts_at_each_end() -> None:
    # 6H ends both [3H 4H 5H] and [7H 8H 9H]: one beyond each, laid onto either
    system = MeldSystem.from_rules(find_rules("openspiel"))
    a, b = mask_of(_cards("3H 4H 5H")), mask_of(_cards("7H 8H 9H"))
    six = _cards("6H")[0]
    assert beyond_run_end(a, a, six, system) == beyond_run_end(b, b, six, system) == 1
    assert fits(a, six, system, declared=a, chain_limit=1) and fits(b, six, system, declared=b, chain_limit=1)
    # 6H 7H 8H between [3H 4H 5H] and [9H TH JH]: two onto one run, the third onto the other
    melds = [Meld(a), Meld(mask_of(_cards("9H TH JH")))]
    hand = mask_of(_cards("6H 7H 8H 2C 3D 4S KC QD JS TC"))
    reach = {card_name(c): [m.names() for m in ms] for c, ms in
             candidate_layoffs(hand, melds, find_rules("openspiel")).items()}
    assert reach == {"6H": [["3H", "4H", "5H"]], "7H": [["3H", "4H", "5H"], ["9H", "TH", "JH"]],
                     "8H": [["9H", "TH", "JH"]]}
    laid = [(c, 0) for c in _cards("6H 7H")] + [(_cards("8H")[0], 1)]
    response, problems = defence_as_declared(hand, (), laid, melds, system, chain_limit=2)
    assert problems == [] and len(response.layoffs) == 3
    _, problems = defence_as_declared(hand, (), [(c, 0) for c in _cards("6H 7H 8H")], melds, system,
                                      chain_limit=2)
    assert problems == ["8H would be card 3 beyond an end of [3H 4H 5H], and these rules lay off at most 2 "
                        "beyond a run's end"]


def test_the_search_never_lays_a_third_card_beyond_an_end() -> None:
    # under a cap of 1, 8H (second beyond [4H 5H 6H]) stays deadwood; with no cap it is laid
    melds = [mask_of(_cards("4H 5H 6H"))]
    capped = with_overrides(find_rules("standard"), {"layoff_chain_limit": "1"})
    hand = mask_of(_cards("7H 8H 8S 9S 2C KD QC JD TS 4C"))
    assert [_names(extra) for extra in least_defence(hand, melds, capped)[1]] == ["7H"]
    assert [_names(extra) for extra in least_defence(hand, melds, find_rules("standard"))[1]] == ["7H 8H"]
