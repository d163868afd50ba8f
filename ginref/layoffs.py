"""Layoffs onto the knocker's spread, and the defender's best response.

The defender's deadwood is the least over every feasible set of laid-off
cards (each assigned to one knocker meld, chained run extensions included)
of the least deadwood of the cards left, so the defender may break its own
meld to lay off and a card that fits both a set and a run goes where it
helps most. Nothing is first-fit; ``tests/`` checks it by brute force.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import msgspec

from ginref.cards import Card, Mask, card_name, scan
from ginref.errors import RulingError
from ginref.melds import (
    RANK_STRIDE,
    Arrangement,
    Hand,
    Meld,
    MeldKind,
    MeldSystem,
    best_arrangement,
    is_meld,
    mask_points_in,
    meld_masks,
    min_deadwood,
    optimal_arrangements,
)
from ginref.notation import hand_mask
from ginref.rules import Rules


class Layoff(msgspec.Struct, frozen=True):
    """One card laid off onto one of the knocker's melds (as declared)."""

    card: Card
    onto: Meld

    def to_dict(self) -> dict[str, object]:
        return {"card": card_name(self.card), "onto": self.onto.names()}

    def __str__(self) -> str:
        return f"{card_name(self.card)} onto {self.onto}"


class DefenderResponse(msgspec.Struct, frozen=True):
    """The defender's response to a knock, as the layoff search finds it: own melds and layoffs,
    and the deadwood that remains (the recorded event is :class:`ginref.records.model.Defence`)."""

    arrangement: Arrangement
    """own melds and the deadwood left after the layoffs"""
    layoffs: tuple[Layoff, ...]

    @property
    def deadwood_points(self) -> int:
        return self.arrangement.deadwood_points

    @property
    def laid_off(self) -> Mask:
        mask = 0
        for layoff in self.layoffs:
            mask |= 1 << layoff.card
        return mask


def extensions(
    meld: Meld, available: Mask, system: MeldSystem, *, chaining: bool = True, chain_limit: int | None = None
) -> list[Mask]:
    """Every set of ``available`` cards that can be laid off onto ``meld`` together.

    A set of three takes its fourth card; a run takes cards at either end,
    and with chaining each laid-off card becomes an end for the next one, up to
    ``chain_limit`` cards beyond each end (:func:`beyond_run_end`).
    The empty extension is always first.
    """
    if meld.kind is MeldKind.SET:
        if len(meld) == 4:
            return [0]
        rank = meld.cards[0] % 13
        fourth = available & ~meld.mask & sum(1 << (suit * 13 + rank) for suit in range(4))
        return [0, fourth] if fourth else [0]
    run_masks = system.tables.run_masks
    adjacent = [c for c in scan(available & ~meld.mask) if meld.mask | 1 << c in run_masks]
    if not chaining:
        options = [0]
        for size in (1, 2):
            for combo in itertools.combinations(adjacent, size):
                extra = sum(1 << c for c in combo)
                if meld.mask | extra in run_masks:
                    options.append(extra)
        return options
    found = {0}
    frontier = [0]
    while frontier:
        grown = []
        for extra in frontier:
            current = meld.mask | extra
            for c in scan(available & ~current):
                if current | 1 << c in run_masks and extra | 1 << c not in found and (
                    chain_limit is None or beyond_run_end(meld.mask, current, c, system) <= chain_limit
                ):
                    found.add(extra | 1 << c)
                    grown.append(extra | 1 << c)
        frontier = grown
    return sorted(found, key=_extension_order)


def layoff_options(
    meld: Mask, available: Mask, system: MeldSystem, *, chaining: bool = True, chain_limit: int | None = None
) -> list[Mask]:
    """:func:`extensions` of the legal meld ``meld`` by mask, in the same order.

    The defence search calls this for every knocker meld, so ace-low systems
    take a closed form: a set's fourth card, or a run's unbroken chains of
    cards below and above it (one card each without chaining, at most
    ``chain_limit`` with it). Other systems ask :func:`extensions`.
    """
    if system.ace_high or system.wraparound:
        return extensions(Meld(meld), available, system, chaining=chaining, chain_limit=chain_limit)
    low = (meld & -meld).bit_length() - 1
    rank = low % 13
    if meld & ~(RANK_STRIDE << rank) == 0:
        fourth = available & (RANK_STRIDE << rank) & ~meld
        return [0, fourth] if fourth else [0]
    base = low - rank
    high = meld.bit_length()
    down_stop, up_stop = base - 1, base + 13
    if not chaining or chain_limit is not None:  # the chains stop ``reach`` cards out
        reach = 1 if not chaining or chain_limit is None else chain_limit
        down_stop, up_stop = max(down_stop, low - 1 - reach), min(up_stop, high + reach)
    downs = _chain(available, low - 1, -1, down_stop)
    ups = _chain(available, high, 1, up_stop)
    if len(ups) == 1:
        return downs
    if len(downs) == 1:
        return ups
    return sorted((down | up for down in downs for up in ups), key=_extension_order)


def _chain(available: Mask, start: int, step: int, stop: int) -> list[Mask]:
    """The empty chain, then the held cards from ``start`` onwards one by one, until a gap or ``stop``."""
    chains = [0]
    bit, chained = start, 0
    while bit != stop and available >> bit & 1:
        chained |= 1 << bit
        chains.append(chained)
        bit += step
    return chains


def _extension_order(extra: Mask) -> tuple[int, Mask]:
    return extra.bit_count(), extra


def layoff_order(meld: Meld, extra: Mask) -> list[Card]:
    """Cards of ``extra`` in an order each can be laid: nearest the meld first."""
    order: list[Card] = []
    current = meld.mask
    remaining = extra
    while remaining:
        for c in scan(remaining):
            candidate = current | 1 << c
            if meld.kind is MeldKind.SET or _touches(current, c):
                order.append(c)
                current = candidate
                remaining &= ~(1 << c)
                break
        else:  # pragma: no cover - extensions() only yields layable sets
            raise AssertionError("extension cannot be laid off in order")
    return order


def _touches(run: Mask, c: Card) -> bool:
    suit_base = c // 13 * 13
    rank = c % 13
    bits = run >> suit_base & 0x1FFF
    return bool(bits >> ((rank + 1) % 13) & 1 or bits >> ((rank - 1) % 13) & 1)


def candidate_layoffs(defender: Hand, knocker_melds: Sequence[Meld], rules: Rules) -> dict[Card, list[Meld]]:
    """For each defender card that can be laid off at all: the melds it can go onto.

    A card counts when some legal chain of the defender's own cards carries it
    there (8H onto [4H 5H 6H] when the defender also holds 7H).
    """
    defender = hand_mask(defender)
    system = MeldSystem.from_rules(rules)
    result: dict[Card, list[Meld]] = {}
    for meld in knocker_melds:
        reach = 0
        for extra in layoff_options(meld.mask, defender, system, chaining=rules.layoff_chaining,
                                    chain_limit=rules.layoff_chain_limit):
            reach |= extra
        for c in scan(reach):
            result.setdefault(c, []).append(meld)
    return dict(sorted(result.items()))


def least_defence(
    defender: Mask,
    knocker_melds: Sequence[Mask],
    rules: Rules,
    system: MeldSystem | None = None,
    *,
    allow_layoffs: bool = True,
) -> tuple[int, tuple[Mask, ...]]:
    """The defender's least deadwood, and the cards it lays off onto each knocker meld.

    ``knocker_melds`` are disjoint legal melds (as :func:`check_spread` makes
    sure); the cards laid come in their order. This is the one defence
    search: :func:`best_defence` builds its response from the same choice.
    """
    if system is None:
        system = MeldSystem.from_rules(rules)
    if not allow_layoffs or not knocker_melds:
        return min_deadwood(defender, system), (0,) * len(knocker_melds)
    if rules.defender_layoff_mode == "meld_first":
        points, _, choice = _meld_first_search(defender, knocker_melds, rules, system)
        return points, choice
    return _joint_search(defender, knocker_melds, rules, system)


def best_defence(
    defender: Hand,
    knocker_melds: Sequence[Meld],
    rules: Rules,
    *,
    allow_layoffs: bool = True,
) -> DefenderResponse:
    """The defender's response that leaves the least deadwood.

    Ties go to fewer layoffs, then to the canonical arrangement, so the
    ruling is deterministic. ``defender_layoff_mode = "meld_first"`` makes the
    defender keep a least-deadwood arrangement and lay off only its deadwood.

    ``defender`` is the defender's hand (a mask or anything
    :func:`~ginref.notation.hand_mask` takes), ``knocker_melds`` the knocker's declared
    melds, ``rules`` the rule set (chaining, layoff mode, aces); ``allow_layoffs`` False
    when the knocker went gin. Returns a :class:`DefenderResponse`. Raises
    :class:`~ginref.errors.NotationError` only for a hand that is not cards.
    """
    defender = hand_mask(defender)
    system = MeldSystem.from_rules(rules)
    if allow_layoffs and knocker_melds and rules.defender_layoff_mode == "meld_first":
        masks = [meld.mask for meld in knocker_melds]
        points, arrangement, choice = _meld_first_search(defender, masks, rules, system)
        left = Arrangement(arrangement.melds, arrangement.deadwood & ~_union(choice), points)
        return DefenderResponse(left, _layoff_list(knocker_melds, choice))
    _, choice = least_defence(defender, [meld.mask for meld in knocker_melds], rules, system,
                              allow_layoffs=allow_layoffs)
    return best_defence_from(defender, knocker_melds, choice, rules, system, allow_layoffs=allow_layoffs)


def best_defence_from(
    defender: Mask, knocker_melds: Sequence[Meld], choice: tuple[Mask, ...], rules: Rules,
    system: MeldSystem, *, allow_layoffs: bool = True,
) -> DefenderResponse:
    """:func:`best_defence`, given the ``choice`` :func:`least_defence` made for the same hand,
    melds and rules: the referee asks for both, and the defence search then runs once. The
    cards laid off are the choice's; the rest is melded as :func:`best_arrangement` melds it."""
    if not allow_layoffs or not knocker_melds:
        return DefenderResponse(best_arrangement(defender, system), ())
    if rules.defender_layoff_mode == "meld_first":  # its arrangement is the search's, not rebuilt
        return best_defence(defender, knocker_melds, rules, allow_layoffs=allow_layoffs)
    arrangement = best_arrangement(defender & ~_union(choice), system)
    return DefenderResponse(arrangement, _layoff_list(knocker_melds, choice))


def _joint_search(
    defender: Mask, knocker_melds: Sequence[Mask], rules: Rules, system: MeldSystem
) -> tuple[int, tuple[Mask, ...]]:
    """Every disjoint choice of one extension per knocker meld: least deadwood, then fewest cards laid.

    The first such choice in enumeration order wins, so the response is
    deterministic; melds that take nothing are left out of the walk.
    """
    options = [layoff_options(meld, defender, system, chaining=rules.layoff_chaining,
                              chain_limit=rules.layoff_chain_limit) for meld in knocker_melds]
    open_melds = [index for index, extras in enumerate(options) if len(extras) > 1]
    best = (min_deadwood(defender, system), 0)
    chosen = [0] * len(options)
    best_choice = tuple(chosen)
    if len(open_melds) < 2:  # most knocks: no meld or one takes cards, and the walk is a loop
        return _one_meld_search(defender, options, open_melds, best, system)

    def walk(at: int, laid: Mask) -> None:
        nonlocal best, best_choice
        if at == len(open_melds):
            if laid:
                key = (min_deadwood(defender & ~laid, system), laid.bit_count())
                if key < best:
                    best, best_choice = key, tuple(chosen)
            return
        index = open_melds[at]
        for extra in options[index]:
            if not extra & laid:
                chosen[index] = extra
                walk(at + 1, laid | extra)
        chosen[index] = 0

    walk(0, 0)
    return best[0], best_choice


def _one_meld_search(
    defender: Mask, options: list[list[Mask]], open_melds: list[int], best: tuple[int, int],
    system: MeldSystem,
) -> tuple[int, tuple[Mask, ...]]:
    """:func:`_joint_search` where at most one meld takes cards: each of its extensions alone, in order."""
    chosen = [0] * len(options)
    for index in open_melds:
        for extra in options[index]:
            if extra:
                key = (min_deadwood(defender & ~extra, system), extra.bit_count())
                if key < best:
                    best, chosen[index] = key, extra
    return best[0], tuple(chosen)


def _layoff_choices(
    available: Mask, knocker_melds: Sequence[Mask], rules: Rules, system: MeldSystem
) -> list[tuple[Mask, ...]]:
    """Every way to lay off disjoint extensions, one per knocker meld."""
    per_meld = [layoff_options(meld, available, system, chaining=rules.layoff_chaining,
                               chain_limit=rules.layoff_chain_limit) for meld in knocker_melds]
    choices: list[tuple[Mask, ...]] = []

    def walk(index: int, used: Mask, chosen: tuple[Mask, ...]) -> None:
        if index == len(per_meld):
            choices.append(chosen)
            return
        for extra in per_meld[index]:
            if not extra & used:
                walk(index + 1, used | extra, (*chosen, extra))

    walk(0, 0, ())
    return choices


def _meld_first_search(
    defender: Mask, knocker_melds: Sequence[Mask], rules: Rules, system: MeldSystem
) -> tuple[int, Arrangement, tuple[Mask, ...]]:
    """Keep a least-deadwood arrangement and lay off only its deadwood: points, arrangement, cards laid."""
    best: tuple[tuple[int, int], Arrangement, tuple[Mask, ...]] | None = None
    for arrangement in optimal_arrangements(defender, system):
        for choice in _layoff_choices(arrangement.deadwood, knocker_melds, rules, system):
            laid = _union(choice)
            key = (arrangement.deadwood_points - mask_points_in(system, laid), laid.bit_count())
            if best is None or key < best[0]:
                best = (key, arrangement, choice)
    assert best is not None
    (points, _), arrangement, choice = best
    return points, arrangement, choice


def _union(masks: Sequence[Mask]) -> Mask:
    union = 0
    for mask in masks:
        union |= mask
    return union


def _layoff_list(knocker_melds: Sequence[Meld], choice: tuple[Mask, ...]) -> tuple[Layoff, ...]:
    return tuple(
        Layoff(card, meld)
        for meld, extra in zip(knocker_melds, choice, strict=True)
        for card in layoff_order(meld, extra)
    )


def fits(
    meld: Mask, card: Card, system: MeldSystem, *, declared: Mask = 0, chain_limit: int | None = None
) -> bool:
    """Whether ``card`` can be laid off onto ``meld`` as it stands: a set's fourth card, or a
    card that extends a run, at most ``chain_limit`` cards beyond an end of the run as the
    knocker ``declared`` it. The one test of a single layoff (the declared defence and the
    table's moves ask here)."""
    if meld >> card & 1:
        return False
    extended = meld | 1 << card
    if Meld(meld).kind is MeldKind.SET:
        return extended.bit_count() <= 4 and Meld(extended).kind is MeldKind.SET
    if extended not in system.tables.run_masks:
        return False
    return chain_limit is None or beyond_run_end(declared or meld, meld, card, system) <= chain_limit


def beyond_run_end(declared: Mask, current: Mask, card: Card, system: MeldSystem) -> int:
    """How many cards beyond an end of the ``declared`` run ``card`` lies when laid onto the
    run as it stands (``current``): 1 next to it, 2 after one laid-off card, and so on.

    ``layoff_chain_limit`` caps this: OpenSpiel lays 7H and 8H onto 4H 5H 6H, never 9H. A card
    that ends two of the knocker's runs counts at each end, so the nearer end decides; 14 when
    no chain of ``current`` cards joins ``card`` to the run.
    """
    base, rank = card - card % 13, card % 13
    run, laid = declared >> base & 0x1FFF, current >> base & 0x1FFF
    wraps = system.ace_high or system.wraparound
    nearest = 14
    for step in (1, -1):
        at = rank
        for depth in range(1, 14):
            at += step
            if not 0 <= at <= 12:
                if not wraps:
                    break
                at %= 13
            if run >> at & 1:
                nearest = min(nearest, depth)
                break
            if not laid >> at & 1:
                break
    return nearest


def defence_as_declared(
    defender: Mask,
    own_melds: Sequence[Meld],
    layoffs: Sequence[tuple[Card, int]],
    knocker_melds: Sequence[Meld],
    system: MeldSystem,
    *,
    chaining: bool = True,
    chain_limit: int | None = None,
) -> tuple[DefenderResponse, list[str]]:
    """Score a defender's declared melds and layoffs; return problems found.

    ``layoffs`` are ``(card, meld index)`` in the order laid; each must be the
    defender's own card, outside its own melds, and extend the meld as it
    stands at that moment (without ``chaining``: as the knocker declared it),
    at most ``chain_limit`` cards beyond an end of a run.
    Illegal layoffs are reported and their cards stay in the deadwood.
    """
    response, problems = declared_defence_cited(defender, own_melds, layoffs, knocker_melds, system,
                                                chaining=chaining, chain_limit=chain_limit)
    return response, [problem for problem, _ in problems]


def declared_defence_cited(
    defender: Mask,
    own_melds: Sequence[Meld],
    layoffs: Sequence[tuple[Card, int]],
    knocker_melds: Sequence[Meld],
    system: MeldSystem,
    *,
    chaining: bool = True,
    chain_limit: int | None = None,
) -> tuple[DefenderResponse, list[tuple[str, str | None]]]:
    """:func:`defence_as_declared`, each problem with the rule knob that decided it
    (``layoff_chaining``, ``layoff_chain_limit``; None for a rule of every game)."""
    problems: list[tuple[str, str | None]] = []
    current = [meld.mask for meld in knocker_melds]
    laid: list[Layoff] = []
    laid_mask = 0
    melded = 0
    for meld in own_melds:
        melded |= meld.mask
    for card, index in layoffs:
        if not 0 <= index < len(current):
            problems.append((f"{card_name(card)} laid off onto meld {index + 1}, which does not exist", None))
            continue
        if not defender >> card & 1 or (melded | laid_mask) >> card & 1:
            problems.append((f"{card_name(card)} is not the defender's to lay off", None))
            continue
        declared = knocker_melds[index].mask
        target = current[index] if chaining else declared
        if not fits(target, card, system):
            chained = not chaining and fits(current[index], card, system)
            problems.append((f"{card_name(card)} does not fit {Meld(target)}",
                             "layoff_chaining" if chained else None))
            continue
        if chain_limit is not None and not fits(target, card, system, declared=declared,
                                                chain_limit=chain_limit):
            beyond = beyond_run_end(declared, target, card, system)
            problems.append((f"{card_name(card)} would be card {beyond} beyond an end of {Meld(declared)}, "
                             f"and these rules lay off at most {chain_limit} beyond a run's end",
                             "layoff_chain_limit"))
            continue
        current[index] = target | 1 << card
        laid.append(Layoff(card, knocker_melds[index]))
        laid_mask |= 1 << card
    dead = defender & ~melded & ~laid_mask
    arrangement = Arrangement(tuple(own_melds), dead, mask_points_in(system, dead))
    return DefenderResponse(arrangement, tuple(laid)), problems


class LayoffReport(msgspec.Struct, frozen=True):
    """What a defender can lay off onto a declared spread, and its best response."""

    knocker_melds: tuple[Meld, ...]
    defender: Mask
    knocker_gin: bool
    """the spread melds all ten cards"""
    layoffs_allowed: bool
    candidates: tuple[tuple[Card, tuple[Meld, ...]], ...]
    defence: DefenderResponse
    rules: Rules

    def to_dict(self) -> dict[str, object]:
        arrangement = self.defence.arrangement
        return {
            "knocker_melds": [m.names() for m in self.knocker_melds],
            "defender": [card_name(c) for c in scan(self.defender)],
            "knocker_gin": self.knocker_gin,
            "layoffs_allowed": self.layoffs_allowed,
            "candidates": [
                {"card": card_name(c), "onto": [m.names() for m in melds]} for c, melds in self.candidates
            ],
            "melds": [m.names() for m in arrangement.melds],
            "layoffs": [layoff.to_dict() for layoff in self.defence.layoffs],
            "deadwood": [card_name(c) for c in scan(arrangement.deadwood)],
            "deadwood_points": arrangement.deadwood_points,
            "rules": self.rules.label,
        }


def check_spread(melds: Sequence[Mask], system: MeldSystem, *, owner: str = "knocker") -> tuple[Meld, ...]:
    """The declared melds as :class:`Meld`, or :class:`RulingError` naming the bad one."""
    seen = 0
    for mask in melds:
        if not is_meld(mask, system):
            raise RulingError(f"{Meld(mask)} is not a meld")
        if mask & seen:
            names = " ".join(card_name(c) for c in scan(mask & seen))
            raise RulingError(f"{names} appears in two of the {owner}'s melds")
        seen |= mask
    return tuple(Meld(mask) for mask in melds)


def layoff_report(defender: Hand, knocker_melds: str | Iterable[Meld | Hand], rules: Rules) -> LayoffReport:
    """Rule on layoffs: the defender's 10 cards against the knocker's declared melds.

    The melds may be bracketed text (``"[3C 4C 5C] [9D 9H 9S]"``), or melds
    and hands one by one. A spread of ten cards is gin and takes no layoffs
    (unless the rules allow it); eleven is big gin.

    ``defender`` is the defender's hand (a mask or anything
    :func:`~ginref.notation.hand_mask` takes), ``knocker_melds`` the declared melds,
    ``rules`` the rule set. Returns a :class:`LayoffReport`. Raises
    :class:`~ginref.errors.NotationError` for bad cards and
    :class:`~ginref.errors.RulingError` for a spread that cannot be (not a meld, a card
    in two melds or in both hands, a defender without 10 cards).
    """
    defender = hand_mask(defender)
    system = MeldSystem.from_rules(rules)
    count = defender.bit_count()
    if count != 10:
        raise RulingError(f"the defender needs 10 cards, got {count}")
    melds = check_spread(meld_masks(knocker_melds), system)
    spread = 0
    for meld in melds:
        spread |= meld.mask
    if spread & defender:
        names = " ".join(card_name(c) for c in scan(spread & defender))
        raise RulingError(f"{names} cannot be in both the knocker's melds and the defender's hand")
    melded = bin(spread).count("1")
    gin = melded >= 10
    on_gin = rules.layoff_on_big_gin if melded == 11 else rules.layoff_on_gin
    allowed = on_gin if gin else rules.layoff_on_knock
    candidates = candidate_layoffs(defender, melds, rules) if allowed else {}
    return LayoffReport(
        knocker_melds=melds,
        defender=defender,
        knocker_gin=gin,
        layoffs_allowed=allowed,
        candidates=tuple((c, tuple(ms)) for c, ms in candidates.items()),
        defence=best_defence(defender, melds, rules, allow_layoffs=allowed),
        rules=rules,
    )
