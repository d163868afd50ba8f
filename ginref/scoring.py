"""Ruling on a finished hand: who won, how, and by how many points.

:func:`settle` is the arithmetic of one hand from the two deadwood counts
(what a score sheet records); :func:`score_hand` is the full ruling from the
cards: the knocker's declaration (given, or the best one found), the
defender's best response with layoffs, and the settlement, explained step
by step with the rule behind each step.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

import msgspec
from msgspec.structs import replace

from ginref.cards import Card, Mask, card_name, mask_names, scan
from ginref.errors import HandSizeError, RulingError
from ginref.layoffs import DefenderResponse, best_defence, extensions
from ginref.melds import (
    Arrangement,
    Hand,
    Meld,
    MeldSystem,
    best_arrangement,
    is_meld,
    mask_points_in,
    meld_masks,
    merged_runs,
    min_deadwood,
    optimal_arrangements,
)
from ginref.notation import hand_mask
from ginref.rules import STANDARD, Rules

Side = Literal["knocker", "defender"]
Ending = Literal["knock", "gin", "big_gin"]


class Outcome(enum.Enum):
    """How a hand ended, as a ruling names it (``HandScore.outcome``, JSON ``outcome``)."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    TIE = "tie"
    ILLEGAL_KNOCK = "illegal_knock"
    VOID = "void"


class Cards(msgspec.Struct, frozen=True):
    """Cards named inside a step: one group (``8D TD``), or melds in brackets."""

    groups: tuple[tuple[Card, ...], ...]
    bracketed: bool = False

    def text(self, name: Callable[[Card], str] = card_name) -> str:
        shown = [" ".join(name(c) for c in group) for group in self.groups]
        return " ".join(f"[{group}]" for group in shown) if self.bracketed else " ".join(shown)


class Step(msgspec.Struct, frozen=True):
    """One step of a ruling, as data: words with the cards kept as cards, so that whoever
    shows it spells them one way (``str`` gives the canonical spelling, ``TD``), and the
    rule knobs the step applied with their values (``("undercut_bonus", "25")``), so that
    a ruling cites the rule behind each step."""

    words: tuple[str | Cards, ...]
    knobs: tuple[tuple[str, str], ...] = ()

    def text(self, name: Callable[[Card], str] = card_name) -> str:
        """The words, then the knobs cited: ``... = 13 to the defender (undercut_bonus = 10)``."""
        said = "".join(w if isinstance(w, str) else w.text(name) for w in self.words)
        return f"{said} ({self.cited()})" if self.knobs else said

    def cited(self) -> str:
        """The knobs as a rules file writes them: ``tie_policy = undercut, undercut_bonus = 25``."""
        return ", ".join(f"{knob} = {value}" for knob, value in self.knobs)

    def to_dict(self, name: Callable[[Card], str] = card_name) -> dict[str, object]:
        return {"text": self.text(name), "knobs": dict(self.knobs)}

    def __str__(self) -> str:
        return self.text()


def _step(*words: str | Cards, rules: Rules | None = None, knobs: Sequence[str] = ()) -> Step:
    """A step; ``knobs`` names the knobs of ``rules`` it applied, cited with their values."""
    if rules is None or not knobs:
        return Step(words)
    return Step(words, tuple((knob, _knob_value(getattr(rules, knob))) for knob in knobs))


def _knob_value(value: object) -> str:
    """A knob's value spelled as ``ginref rules`` and rules files spell it."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cards(mask: Mask) -> Cards:
    return Cards((tuple(scan(mask)),))


def _melds(melds: Iterable[Meld]) -> Cards:
    return Cards(tuple(m.cards for m in melds), bracketed=True)


def numbered(steps: Iterable[Step], name: Callable[[Card], str] = card_name) -> tuple[str, ...]:
    """The steps as the numbered lines of an explanation."""
    return tuple(f"{i}. {step.text(name)}" for i, step in enumerate(steps, 1))


class Settlement(msgspec.Struct, frozen=True):
    """The points of one hand, from the deadwood counts."""

    outcome: Outcome
    winner: Side | None
    points: int
    multiplier: int
    steps: tuple[Step, ...]


def settle(
    ending: Ending,
    knocker_deadwood: int,
    defender_deadwood: int,
    rules: Rules = STANDARD,
    *,
    multiplier: int = 1,
) -> Settlement:
    """Score a knock, gin or big gin from the two final deadwood counts.

    ``defender_deadwood`` is counted after layoffs. The knock limit is not
    checked here (see :func:`score_hand`).

    ``ending`` is ``"knock"``, ``"gin"`` or ``"big_gin"``; ``knocker_deadwood`` the
    knocker's count; ``rules`` the bonuses and tie policy; ``multiplier`` 2 for a doubled
    (spade) hand. Returns a :class:`Settlement`. Raises :class:`RulingError` for a negative
    count, gin with deadwood, or big gin where it is not a rule.
    """
    k, d = knocker_deadwood, defender_deadwood
    if k < 0 or d < 0:
        raise RulingError("deadwood cannot be negative")
    steps: list[Step] = []
    winner: Side | None
    if ending == "big_gin":
        if rules.big_gin_bonus is None:
            raise RulingError(f"big gin is not a rule in {rules.label}")
        outcome, winner = Outcome.BIG_GIN, "knocker"
        points = d + rules.big_gin_bonus
        said = f"big gin: {d} + {rules.big_gin_bonus} big gin bonus = {points} to the knocker"
        steps.append(_step(said, rules=rules, knobs=("big_gin_bonus",)))
    elif ending == "gin":
        if k:
            raise RulingError(f"gin means no deadwood, but the knocker has {k}")
        if rules.layoff_on_gin and d == 0:
            outcome, winner, points = Outcome.TIE, None, 0
            steps.append(_step("gin cancelled: the defender laid off down to 0, so neither side scores",
                               rules=rules, knobs=("layoff_on_gin",)))
        else:
            outcome, winner = Outcome.GIN, "knocker"
            points = d + rules.gin_bonus
            steps.append(_step(
                f"gin: {d} + {rules.gin_bonus} gin bonus = {points} to the knocker (gin is never undercut)",
                rules=rules, knobs=("gin_bonus",),
            ))
    elif k < d:
        outcome, winner, points = Outcome.KNOCK, "knocker", d - k
        steps.append(_step(
            f"knock: the knocker's {k} is less than the defender's {d}; {d} - {k} = {points} to the knocker"
        ))
    elif k == d and rules.tie_policy == "no_score":
        outcome, winner, points = Outcome.TIE, None, 0
        steps.append(_step(
            f"tie: both have {k}; under this rule set a tie scores nothing",
            rules=rules, knobs=("tie_policy",),
        ))
    elif k == d and rules.tie_policy == "knocker":
        outcome, winner, points = Outcome.KNOCK, "knocker", 0
        steps.append(_step(
            f"tie: both have {k}; a tie goes to the knocker for 0 points", rules=rules, knobs=("tie_policy",)
        ))
    else:
        outcome, winner = Outcome.UNDERCUT, "defender"
        points = k - d + rules.undercut_bonus
        steps.append(_step(
            f"undercut: the defender's {d} is not more than the knocker's {k}; "
            f"{k - d} + {rules.undercut_bonus} undercut bonus = {points} to the defender",
            rules=rules, knobs=("tie_policy", "undercut_bonus") if k == d else ("undercut_bonus",),
        ))
    if multiplier != 1 and points:
        steps.append(_step(
            f"the hand counts {multiplier} times (spade upcard): "
            f"{points} x {multiplier} = {points * multiplier}",
            rules=rules, knobs=("spade_double",),
        ))
        points *= multiplier
    return Settlement(outcome, winner, points, multiplier, tuple(steps))


class HandScore(msgspec.Struct, frozen=True):
    """A full ruling on one finished hand."""

    outcome: Outcome
    winner: Side | None
    points: int
    multiplier: int
    knock_limit: int
    knocker: Arrangement
    """the knocker's declared spread and deadwood (10 cards, or 11 for big gin)"""
    discard: Card | None
    defence: DefenderResponse
    steps: tuple[Step, ...]
    """the ruling step by step, as data (:attr:`explanation` words it)"""
    rules: Rules
    declaration_found: bool = False
    """True when ginref chose the knocker's declaration"""
    reason: str | None = None
    """why a knock is illegal"""

    def __repr__(self) -> str:
        """The call that gives this ruling back, ``score_hand('3C ...', '6C ...', find_rules(...))``,
        where the cards tell it all (an upcard is not kept: under upcard rules, a summary)."""
        rules = self.rules
        if rules.oklahoma != "off" or rules.spade_double:
            winner = f"{self.points} to the {self.winner}" if self.winner else "no score"
            return f"<HandScore {self.outcome.value}: {winner}, under {rules!r}>"
        discard = 0 if self.discard is None else 1 << self.discard
        knocker = self.knocker.melded | self.knocker.deadwood | discard
        defender = self.defence.arrangement.melded | self.defence.arrangement.deadwood
        for layoff in self.defence.layoffs:
            defender |= 1 << layoff.card
        melds = "" if self.declaration_found else (
            f", melds={' '.join(str(m) for m in self.knocker.melds)!r}"
        )
        hands = f"{' '.join(mask_names(knocker))!r}, {' '.join(mask_names(defender))!r}"
        return f"score_hand({hands}, {rules!r}{melds})"

    @property
    def explanation(self) -> tuple[str, ...]:
        """The numbered steps in canonical card names (``TD``), as JSON shows them."""
        return numbered(self.steps)

    def to_dict(self) -> dict[str, object]:
        return {
            "outcome": self.outcome.value,
            "winner": self.winner,
            "points": self.points,
            "multiplier": self.multiplier,
            "knock_limit": self.knock_limit,
            "knocker": {
                "melds": [m.names() for m in self.knocker.melds],
                "deadwood": mask_names(self.knocker.deadwood),
                "deadwood_points": self.knocker.deadwood_points,
                "discard": card_name(self.discard) if self.discard is not None else None,
                "declaration_found": self.declaration_found,
            },
            "defender": {
                "melds": [m.names() for m in self.defence.arrangement.melds],
                "layoffs": [layoff.to_dict() for layoff in self.defence.layoffs],
                "deadwood": mask_names(self.defence.arrangement.deadwood),
                "deadwood_points": self.defence.deadwood_points,
            },
            "reason": self.reason,
            "explanation": list(self.explanation),
            "steps": [step.to_dict() for step in self.steps],
            "rules": self.rules.label,
        }


def _described(arrangement: Arrangement) -> tuple[str | Cards, ...]:
    melds: str | Cards = _melds(arrangement.melds) if arrangement.melds else "no melds"
    if not arrangement.deadwood:
        return melds, f", deadwood {arrangement.deadwood_points}"
    return melds, ", deadwood ", _cards(arrangement.deadwood), f" = {arrangement.deadwood_points}"


def _knock_limit(rules: Rules, upcard: Card | None) -> tuple[int, tuple[Step, ...]]:
    limit = rules.knock_limit_for(upcard)
    steps = []
    if rules.oklahoma != "off":
        if upcard is None:
            steps.append(_step(f"oklahoma: no upcard given, so the knock limit is {limit}",
                               rules=rules, knobs=("oklahoma", "knock_limit")))
        elif upcard % 13 == 0:
            steps.append(_step(
                "oklahoma: the upcard ", _cards(1 << upcard), " is an ace, so "
                + ("only gin ends the hand" if limit == 0 else f"the knock limit is {limit}"),
                rules=rules, knobs=("oklahoma",),
            ))
        else:
            steps.append(_step(
                "oklahoma: the upcard ", _cards(1 << upcard), f" sets the knock limit to {limit}",
                rules=rules, knobs=("oklahoma", "knock_limit"),
            ))
    elif limit == 0:
        steps.append(_step("straight gin: no knocking, only gin ends the hand",
                           rules=rules, knobs=("knock_limit",)))
    return limit, tuple(steps)


def _check_hands(knocker: Mask, defender: Mask) -> None:
    if bin(knocker).count("1") not in (10, 11):
        raise HandSizeError(f"the knocker needs 10 or 11 cards, got {bin(knocker).count('1')}")
    if bin(defender).count("1") != 10:
        raise HandSizeError(f"the defender needs 10 cards, got {bin(defender).count('1')}")
    shared = knocker & defender
    if shared:
        raise RulingError(f"{' '.join(mask_names(shared))} cannot be in both hands")


def score_hand(
    knocker: Hand,
    defender: Hand,
    rules: Rules = STANDARD,
    *,
    melds: str | Iterable[Meld | Hand] | None = None,
    upcard: Card | None = None,
) -> HandScore:
    """Rule on a knock: ``knocker`` holds 10 cards (after the face-down discard) or 11.

    With ``melds`` (bracketed text, or melds and hands one by one) the
    knocker's declaration is binding and checked; without, ginref finds the
    declaration (and discard) best for the knocker against this defender.

    ``defender`` holds 10 cards; both hands take anything
    :func:`~ginref.notation.hand_mask` takes. ``rules`` is the rule set, ``upcard`` the first
    upcard (Oklahoma limit, spade doubling). Returns a :class:`HandScore`; an illegal knock
    is a ruling, not an error. Raises :class:`~ginref.errors.NotationError` for bad cards,
    :class:`HandSizeError` for hands of other sizes and :class:`RulingError` for a card in
    both hands.
    """
    knocker, defender = hand_mask(knocker), hand_mask(defender)
    _check_hands(knocker, defender)
    limit, steps = _knock_limit(rules, upcard)
    knock = _Knock(
        knocker, defender, rules, MeldSystem.from_rules(rules), limit, rules.multiplier(upcard), steps
    )
    if melds is None:
        return _best_declaration(knock)
    return _declared(knock, meld_masks(melds))


class _Knock(msgspec.Struct, frozen=True):
    """The knock being ruled on: what every step of the ruling reads."""

    knocker: Mask
    defender: Mask
    rules: Rules
    system: MeldSystem
    limit: int
    multiplier: int
    steps: tuple[Step, ...]
    """what the ruling says before the declaration (the knock limit, when it is not the usual)"""

    def noted(self, step: Step) -> _Knock:
        return replace(self, steps=(*self.steps, step))

    def ruling(
        self,
        settlement: Settlement,
        arrangement: Arrangement,
        discard: Card | None,
        defence: DefenderResponse,
        steps: Sequence[Step],
        *,
        found: bool,
        reason: str | None = None,
    ) -> HandScore:
        return HandScore(
            settlement.outcome,
            settlement.winner,
            settlement.points,
            self.multiplier,
            self.limit,
            arrangement,
            discard,
            defence,
            tuple(steps),
            self.rules,
            declaration_found=found,
            reason=reason,
        )


def _declared(knock: _Knock, declared: list[Mask]) -> HandScore:
    knocker, system = knock.knocker, knock.system
    declared, melded, problem = _legal_melds(knocker, declared, system)
    discard = None
    rest = knocker & ~melded
    if problem is None and knocker.bit_count() == 11 and rest:
        discard = max(scan(rest), key=lambda c: (system.tables.rank_points[c % 13], c))
        rest &= ~(1 << discard)
    elif problem is None and knocker.bit_count() == 11 and knock.rules.big_gin_bonus is None:
        declared, discard = _discard_from_spread(declared, system)
        if discard is None:
            problem = "all eleven cards declared, big gin is not a rule here, and no meld can spare a card"
    melds_sorted = tuple(sorted((Meld(m) for m in declared), key=lambda m: tuple(scan(m.mask))))
    points = mask_points_in(system, rest)
    arrangement = Arrangement(melds_sorted, rest, points)
    if problem is None and points > knock.limit:
        problem = f"deadwood {points} is over the knock limit {knock.limit}"
    if (
        problem is None
        and knock.rules.knocker_must_meld_max
        and points > min_deadwood(knocker & ~(1 << discard) if discard is not None else knocker, system)
    ):
        problem = "the knocker must meld as far as possible (knocker_must_meld_max)"
    if problem is not None:
        return _illegal_knock(knock, problem, arrangement, discard)
    return _rule(knock, arrangement, discard, False)


def _legal_melds(
    knocker: Mask, declared: list[Mask], system: MeldSystem
) -> tuple[list[Mask], Mask, str | None]:
    """The declared melds up to the first bad one, the cards they meld, and what is wrong with it."""
    melded = 0
    legal: list[Mask] = []
    for meld in declared:
        if meld & ~knocker:
            return legal, melded, f"{' '.join(mask_names(meld & ~knocker))} not in the knocker's hand"
        if meld & melded:
            return legal, melded, f"{' '.join(mask_names(meld & melded))} used in two melds"
        if not is_meld(meld, system):
            return legal, melded, f"{Meld(meld)} is not a meld"
        melded |= meld
        legal.append(meld)
    return legal, melded, None


def _illegal_knock(
    knock: _Knock, reason: str, arrangement: Arrangement, discard: Card | None, *, found: bool = False
) -> HandScore:
    """No score: the knock breaks the rules for ``reason``; the defender keeps its own melds."""
    defence = DefenderResponse(best_arrangement(knock.defender, knock.system), ())
    no_score = Settlement(Outcome.ILLEGAL_KNOCK, None, 0, knock.multiplier, ())
    cited = _step(f"illegal knock: {reason}; no score", rules=knock.rules, knobs=("illegal_knock",))
    steps = [*knock.steps, cited]
    return knock.ruling(no_score, arrangement, discard, defence, steps, found=found, reason=reason)


def _discard_from_spread(declared: list[Mask], system: MeldSystem) -> tuple[list[Mask], Card | None]:
    """Where big gin is not a rule, an all-melded 11 still discards: a card a meld can spare."""
    spare: list[tuple[int, Card, int]] = []
    for index, meld in enumerate(declared):
        for card in scan(meld):
            if is_meld(meld & ~(1 << card), system):
                spare.append((system.tables.rank_points[card % 13], card, index))
    if not spare:
        return declared, None
    _, card, index = max(spare)
    shrunk = list(declared)
    shrunk[index] &= ~(1 << card)
    return shrunk, card


def _rule(knock: _Knock, arrangement: Arrangement, discard: Card | None, found: bool) -> HandScore:
    rules = knock.rules
    big_gin = discard is None and knock.knocker.bit_count() == 11
    ending: Ending = "big_gin" if big_gin else "gin" if arrangement.deadwood_points == 0 else "knock"
    steps = list(knock.steps)
    if discard is not None:
        steps.append(_step("the knocker discards ", _cards(1 << discard), " face down"))
    steps.append(_step(
        "ginref's choice of declaration for the knocker: " if found else "the knocker declares ",
        *_described(arrangement),
        "" if ending != "knock" else f", within the knock limit {knock.limit}",
        rules=rules, knobs=("knock_limit",) if ending == "knock" and rules.oklahoma == "off" else (),
    ))
    allow = {
        "knock": rules.layoff_on_knock,
        "gin": rules.layoff_on_gin,
        "big_gin": rules.layoff_on_big_gin,
    }[ending]
    defence = best_defence(knock.defender, arrangement.melds, rules, allow_layoffs=allow)
    if ending != "knock" and not allow:
        steps.append(_step(f"no layoffs onto {'big gin' if big_gin else 'gin'}", rules=rules,
                           knobs=("layoff_on_big_gin",) if big_gin else ("layoff_on_gin",)))
    steps.append(_defence_step(defence))
    settlement = settle(
        ending, arrangement.deadwood_points, defence.deadwood_points, rules, multiplier=knock.multiplier
    )
    steps.extend(settlement.steps)
    return knock.ruling(settlement, arrangement, discard, defence, steps, found=found)


def _defence_step(defence: DefenderResponse) -> Step:
    words: list[str | Cards] = ["the defender melds "]
    words.append(_melds(defence.arrangement.melds) if defence.arrangement.melds else "nothing")
    for i, layoff in enumerate(defence.layoffs):
        words += ["; lays off " if i == 0 else ", ", _cards(1 << layoff.card), " onto "]
        words.append(_melds([layoff.onto]))
    dead = defence.arrangement.deadwood
    words += ["; deadwood ", _cards(dead) if dead else "none", f" = {defence.deadwood_points}"]
    return Step(tuple(words))


def declarations(hand: Mask, system: MeldSystem, limit: int) -> Iterator[Arrangement]:
    """Every legal spread of ``hand`` with deadwood within ``limit``.

    Touching runs count once (``[3H..8H]`` covers ``[3H 4H 5H] [6H 7H 8H]``);
    withheld melds are included, since the declaration decides the layoffs.
    """
    candidates = _melds_in(hand, system)
    seen: set[tuple[int, ...]] = set()

    def walk(start: int, used: Mask, chosen: tuple[int, ...]) -> Iterator[Arrangement]:
        dead = hand & ~used
        dead_points = mask_points_in(system, dead)
        if dead_points <= limit:
            key = merged_runs(chosen, system)
            if key not in seen:
                seen.add(key)
                melds = tuple(sorted((Meld(m) for m in key), key=lambda m: tuple(scan(m.mask))))
                yield Arrangement(melds, dead, dead_points)
        for i in range(start, len(candidates)):
            if not candidates[i] & used:
                yield from walk(i + 1, used | candidates[i], (*chosen, candidates[i]))

    yield from walk(0, 0, ())


def _melds_in(hand: Mask, system: MeldSystem) -> list[int]:
    result = [run for run in system.tables.run_masks if run & hand == run]
    for rank in range(13):
        cards = [c for c in scan(hand) if c % 13 == rank]
        if len(cards) >= 3:
            full = sum(1 << c for c in cards)
            result.append(full)
            if len(cards) == 4:
                result.extend(full & ~(1 << c) for c in cards)
    return sorted(result)


def _best_declaration(knock: _Knock) -> HandScore:
    knocker, rules, system = knock.knocker, knock.rules, knock.system
    if knocker.bit_count() == 11 and rules.big_gin_bonus is not None and min_deadwood(knocker, system) == 0:
        return _rule(knock, best_arrangement(knocker, system), None, True)
    options: list[tuple[Card | None, Mask]] = (
        [(c, knocker & ~(1 << c)) for c in scan(knocker)] if knocker.bit_count() == 11 else [(None, knocker)]
    )
    best: tuple[tuple[int, int, int], Arrangement, Card | None] | None = None
    for discard, hand in options:
        for arrangement in _declaration_candidates(hand, knock):
            net = _net_for_knocker(arrangement, knock.defender, rules, knock.multiplier)
            key = (-net, arrangement.deadwood_points, -(discard if discard is not None else -1))
            if best is None or key < best[0]:
                best = (key, arrangement, discard)
    if best is None:
        least, shown, hand = min(
            ((min_deadwood(hand, system), discard, hand) for discard, hand in options), key=lambda o: o[0]
        )
        reason = f"the knocker's least deadwood is {least}, over the knock limit {knock.limit}"
        return _illegal_knock(knock, reason, best_arrangement(hand, system), shown, found=True)
    _, arrangement, discard = best
    return _rule(_why_this_declaration(knock, arrangement, discard), arrangement, discard, True)


def _declaration_candidates(hand: Mask, knock: _Knock) -> list[Arrangement]:
    return declaration_candidates(hand, knock.rules, knock.system, knock.limit)


def declaration_candidates(hand: Mask, rules: Rules, system: MeldSystem, limit: int) -> list[Arrangement]:
    """The spreads of a 10-card ``hand`` worth trying as a knock or gin: none over ``limit``;
    every least-deadwood one where the rules make the knocker meld as far as possible; one
    gin where nothing can be laid off onto gin; else every legal declaration."""
    least = min_deadwood(hand, system)
    if least > limit:
        return []
    if rules.knocker_must_meld_max:
        return optimal_arrangements(hand, system)
    if least == 0 and not rules.layoff_on_gin:
        return [best_arrangement(hand, system)]
    return list(declarations(hand, system, limit))


def _why_this_declaration(knock: _Knock, arrangement: Arrangement, discard: Card | None) -> _Knock:
    """Say so when the spread chosen for the knocker is not simply its least deadwood."""
    system = knock.system
    least = optimal_arrangements(
        knock.knocker & ~(1 << discard) if discard is not None else knock.knocker, system
    )[0]
    if arrangement.deadwood_points > least.deadwood_points:
        return knock.noted(_step(
            f"the knocker's least deadwood is {least.deadwood_points}, but declaring "
            f"{arrangement.deadwood_points} scores better for the knocker against these cards"
        ))
    if merged_runs(tuple(m.mask for m in arrangement.melds), system) != merged_runs(
        tuple(m.mask for m in least.melds), system
    ):
        return knock.noted(_step(
            "of the knocker's least-deadwood spreads, this one gives the defender the fewest layoffs"
        ))
    return knock


def _net_for_knocker(arrangement: Arrangement, defender: Mask, rules: Rules, multiplier: int) -> int:
    ending: Ending = "gin" if arrangement.deadwood_points == 0 else "knock"
    allow = rules.layoff_on_gin if ending == "gin" else rules.layoff_on_knock
    defence = best_defence(defender, arrangement.melds, rules, allow_layoffs=allow)
    settlement = settle(
        ending, arrangement.deadwood_points, defence.deadwood_points, rules, multiplier=multiplier
    )
    if settlement.winner == "knocker":
        return settlement.points
    return -settlement.points if settlement.winner == "defender" else 0


__all__ = [
    "HandScore",
    "Outcome",
    "Settlement",
    "declarations",
    "extensions",
    "score_hand",
    "settle",
]
