"""Should I knock now? Each knock option weighed against every hand the opponent may hold.

The opponent's 10 cards are any 10 of the cards the player has not seen that
include the cards the opponent is known to hold, each such hand equally likely
(the neutral referee's assumption: no reading of the opponent's play). Against
each hand the defender plays its best response (own melds and layoffs chosen
together, :func:`ginref.layoffs.least_defence`), and the hand is settled by the
rule set (:func:`ginref.scoring.settle`). Every hand is enumerated when there
are few enough (``exact``); otherwise a seeded sample is drawn with
replacement and each figure carries a 95% interval (``sampled``).

For each way to knock, the declaration is the one with the most expected
points, which need not be the least-deadwood spread: withholding a meld can
deny the defender a layoff. Defender hands are shared by every option and
declaration, and each hand's response is worked out once per distinct set of
knocker melds that it can touch, so the cost grows with the hands, not with the
declarations.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from typing import Literal

import msgspec

from ginref.cards import FULL_DECK, Card, Mask, card_name, mask_names, scan
from ginref.errors import HandSizeError, RulingError
from ginref.layoffs import least_defence
from ginref.melds import Arrangement, Hand, MeldSystem, is_meld, min_deadwood, optimal_arrangements
from ginref.notation import card_or_none, excerpt, hand_mask
from ginref.rules import STANDARD, Rules
from ginref.scoring import Ending, Outcome, declaration_candidates, settle

__all__ = ["AUTO_EXACT", "MAX_EXACT", "MAX_SAMPLES", "Advice", "KnockOption", "Method", "advise"]

Method = Literal["auto", "exact", "sampled"]
DEFAULT_SAMPLES = 20_000
MAX_SAMPLES = 1_000_000
"""Most samples one call may ask for (a bound, so no input can make it run for hours)."""
MAX_EXACT = 1_000_000
"""Most defender hands an exact enumeration may take (``benchmarks/advise_bench.py`` times it)."""
AUTO_EXACT = 50_000
"""``auto`` enumerates up to this many hands (at most about a second), or up to ``samples`` if more."""
Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


class KnockOption(msgspec.Struct, frozen=True):
    """One way to knock: the discard, the declaration, and how it fares over the defender hands.

    The counts are exact integers (``points`` is the sum of the knocker's signed
    points over the ``hands``), so the exact mode's probabilities are exact fractions.
    """

    discard: Card | None
    declaration: Arrangement
    ending: Ending
    hands: int
    wins: int
    undercuts: int
    ties: int
    points: int
    points_squared: int
    sampled: bool

    @property
    def p_win(self) -> float:
        return self.wins / self.hands

    @property
    def p_undercut(self) -> float:
        return self.undercuts / self.hands

    @property
    def p_tie(self) -> float:
        return self.ties / self.hands

    @property
    def expected_points(self) -> float:
        return self.points / self.hands

    def ci95(self) -> dict[str, float] | None:
        """Half-widths of the 95% intervals of a sampled option (normal approximation)."""
        if not self.sampled:
            return None
        n = self.hands
        spread = max(self.points_squared - self.points * self.points / n, 0.0) / max(n - 1, 1)
        return {
            "p_win": _proportion_half_width(self.wins, n),
            "p_undercut": _proportion_half_width(self.undercuts, n),
            "p_tie": _proportion_half_width(self.ties, n),
            "expected_points": Z95 * math.sqrt(spread / n),
        }

    def to_dict(self) -> dict[str, object]:
        result: dict[str, object] = {
            "discard": card_name(self.discard) if self.discard is not None else None,
            "melds": [meld.names() for meld in self.declaration.melds],
            "deadwood": mask_names(self.declaration.deadwood),
            "deadwood_points": self.declaration.deadwood_points,
            "gin": self.ending != "knock",
            "ending": self.ending,
            "p_win": self.p_win,
            "p_undercut": self.p_undercut,
            "p_tie": self.p_tie,
            "expected_points": self.expected_points,
        }
        interval = self.ci95()
        if interval is not None:
            result["ci95"] = interval
        return result


def _proportion_half_width(count: int, n: int) -> float:
    """1.96 standard errors, with the variance taken at (count + 2) / (n + 4) (Agresti-Coull)
    so that a figure never seen in the sample still gets an interval."""
    shrunk = (count + 2) / (n + 4)
    return Z95 * math.sqrt(shrunk * (1 - shrunk) / (n + 4))


class Advice(msgspec.Struct, frozen=True):
    """The answer to "should I knock now?": every knock option, best first."""

    hand: Mask
    rules: Rules
    method: Literal["exact", "sampled"]
    defender_hands: int
    """how many defender hands were enumerated (exact) or drawn (sampled)"""
    possible_hands: int
    """how many defender hands the position allows"""
    unseen: int
    """cards the player has not seen: the rest of the opponent's hand and the stock"""
    stock: int
    knock_limit: int
    options: tuple[KnockOption, ...]
    seed: int | None = None
    reason: str | None = None
    """why no knock is legal, when ``options`` is empty"""

    @property
    def best(self) -> KnockOption | None:
        return self.options[0] if self.options else None

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": mask_names(self.hand),
            "method": self.method,
            "defender_hands": self.defender_hands,
            "possible_hands": self.possible_hands,
            "seed": self.seed,
            "unseen": self.unseen,
            "stock": self.stock,
            "knock_limit": self.knock_limit,
            "options": [option.to_dict() for option in self.options],
            "reason": self.reason,
            "rules": self.rules.label,
        }


class _Position(msgspec.Struct, frozen=True):
    """The validated question: the knocker's cards, the opponent's pool, and the counts."""

    hand: Mask
    known: Mask
    """cards the opponent is known to hold"""
    pool: Mask
    """unseen cards the rest of the opponent's hand comes from"""
    draw: int
    """how many of the opponent's cards come from ``pool``"""
    stock: int

    @property
    def possible_hands(self) -> int:
        return math.comb(self.pool.bit_count(), self.draw)


class _Choice(msgspec.Struct, frozen=True):
    """A knock option before it is weighed: the discard, the ending, the declarations to try."""

    discard: Card | None
    ending: Ending
    declarations: tuple[Arrangement, ...]
    layoffs: bool


def advise(
    hand: Hand,
    rules: Rules = STANDARD,
    *,
    seen: Hand = 0,
    opponent_has: Hand = 0,
    stock: int | None = None,
    upcard: Card | str | None = None,
    taken: Card | str | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    method: Method = "auto",
) -> Advice:
    """Weigh every knock ``hand`` (10 cards, or 11 after the draw) can make now.

    ``seen`` are cards out of play (the discard pile), ``opponent_has`` the
    cards the opponent took from the pile and still holds, ``stock`` the cards
    left in the stock (checked against the unseen count when given), ``upcard``
    the first upcard (Oklahoma), ``taken`` the card just taken from the pile
    (not to be discarded under the same-card rule). ``auto`` enumerates when
    there are no more defender hands than :data:`AUTO_EXACT` or ``samples``;
    ``exact`` enumerates up to :data:`MAX_EXACT` hands.

    ``hand`` and the card arguments take anything :func:`~ginref.notation.hand_mask`
    takes; ``rules`` is the rule set played; ``samples`` and ``seed`` fix the sample
    (1 to :data:`MAX_SAMPLES`), ``method`` is ``"auto"``, ``"exact"`` or ``"sampled"``.
    Returns an :class:`Advice` (no options when no knock is legal). Raises
    :class:`~ginref.errors.NotationError` for bad cards, :class:`~ginref.errors.HandSizeError`
    for a hand of another size and :class:`~ginref.errors.RulingError` for a position that
    cannot be (a card both seen and held, a stock the unseen cards cannot fill).
    """
    position = _position(hand, seen, opponent_has, stock)
    upcard, taken = card_or_none(upcard, "upcard"), card_or_none(taken, "taken card")
    _check_counts(samples, method, position, taken)
    system = MeldSystem.from_rules(rules)
    limit = rules.knock_limit_for(upcard)
    choices = _choices(position.hand, rules, system, limit, taken)
    enough = max(samples, AUTO_EXACT)
    exact = method == "exact" or (method == "auto" and position.possible_hands <= enough)
    drawn = position.possible_hands if exact else samples
    base = Advice(
        position.hand, rules, "exact" if exact else "sampled", drawn, position.possible_hands,
        position.pool.bit_count(), position.stock, limit, (), None if exact else seed,
    )
    if not choices:
        return _no_knock(base, position.hand, system, limit)
    defenders = _every_hand(position) if exact else _sampled_hands(position, samples, seed)
    options = _weigh(choices, defenders, rules, system, rules.multiplier(upcard), sampled=not exact)
    return _with_options(base, options)


def _with_options(base: Advice, options: list[KnockOption]) -> Advice:
    from msgspec.structs import replace

    return replace(base, options=tuple(sorted(options, key=_rank)))


def _rank(option: KnockOption) -> tuple[int, int, int, int, int]:
    """Best first: most expected points, then most wins, fewest undercuts, least deadwood."""
    discard = option.discard if option.discard is not None else -1
    return (-option.points, -option.wins, option.undercuts, option.declaration.deadwood_points, discard)


def _position(hand: Hand, seen: Hand, opponent_has: Hand, stock: int | None) -> _Position:
    cards, out, known = hand_mask(hand), hand_mask(seen), hand_mask(opponent_has)
    if cards.bit_count() not in (10, 11):
        raise HandSizeError(f"expected 10 or 11 cards, got {cards.bit_count()}")
    for first, second, what in (
        (cards, out, "in your hand and seen"),
        (cards, known, "in your hand and the opponent's"),
        (out, known, "seen out of play and in the opponent's hand"),
    ):
        if first & second:
            raise RulingError(f"{' '.join(mask_names(first & second))} cannot be both {what}")
    if known.bit_count() > 10:
        raise RulingError(f"the opponent holds 10 cards, but {known.bit_count()} are named as theirs")
    pool = FULL_DECK & ~cards & ~out & ~known
    draw = 10 - known.bit_count()
    if pool.bit_count() < draw:
        raise RulingError(
            f"only {pool.bit_count()} cards are unseen, too few for the opponent's other {draw}"
        )
    left = pool.bit_count() - draw
    if stock is not None and (type(stock) is not int or stock != left):
        raise RulingError(
            f"the position does not add up: {pool.bit_count()} unseen cards are the opponent's "
            f"other {draw} and a stock of {left}, not {excerpt(stock)}"
        )
    return _Position(cards, known, pool, draw, left)


def _check_counts(samples: int, method: str, position: _Position, taken: Card | None) -> None:
    if type(samples) is not int or not 1 <= samples <= MAX_SAMPLES:
        raise RulingError(f"samples must be 1 to {MAX_SAMPLES:,}, not {excerpt(samples)}")
    if method not in ("auto", "exact", "sampled"):
        raise RulingError(f"method must be auto, exact or sampled, not {excerpt(method)}")
    if method == "exact" and position.possible_hands > MAX_EXACT:
        raise RulingError(
            f"{position.possible_hands:,} possible defender hands are too many to enumerate "
            f"(at most {MAX_EXACT:,}); sample them instead"
        )
    if taken is not None and not (position.hand >> taken & 1 and position.hand.bit_count() == 11):
        raise RulingError(f"the card just taken, {card_name(taken)}, must be one of your 11 cards")


# -- the knock options -------------------------------------------------------------------


def _choices(hand: Mask, rules: Rules, system: MeldSystem, limit: int, taken: Card | None) -> list[_Choice]:
    """Every legal knock: big gin with all 11, else each discard that leaves a knock or gin."""
    if hand.bit_count() == 10:
        return _knocks_with(None, hand, rules, system, limit)
    choices: list[_Choice] = []
    if rules.big_gin_bonus is not None and min_deadwood(hand, system) == 0:
        spreads = optimal_arrangements(hand, system)
        choices.append(_Choice(None, "big_gin", tuple(spreads[:1]), rules.layoff_on_big_gin))
    for discard in scan(hand):
        if discard != rules.banned_discard(taken):
            choices.extend(_knocks_with(discard, hand & ~(1 << discard), rules, system, limit))
    return choices


def _knocks_with(
    discard: Card | None, hand: Mask, rules: Rules, system: MeldSystem, limit: int
) -> list[_Choice]:
    """The declarations worth trying for a 10-card knock, as :func:`ginref.score_hand` tries them."""
    spreads = declaration_candidates(hand, rules, system, limit)
    gins = tuple(s for s in spreads if s.deadwood_points == 0)
    knocks = tuple(s for s in spreads if s.deadwood_points)
    found = [_Choice(discard, "gin", gins, rules.layoff_on_gin)] if gins else []
    return found + ([_Choice(discard, "knock", knocks, rules.layoff_on_knock)] if knocks else [])


def _no_knock(base: Advice, hand: Mask, system: MeldSystem, limit: int) -> Advice:
    from msgspec.structs import replace

    if hand.bit_count() == 11:
        least = min(min_deadwood(hand & ~(1 << c), system) for c in scan(hand))
    else:
        least = min_deadwood(hand, system)
    if limit == 0:
        reason = f"only gin ends the hand here, and the least deadwood is {least}"
    else:
        reason = f"the least deadwood is {least}, over the knock limit {limit}"
    return replace(base, defender_hands=0, reason=reason)


# -- the defender hands ------------------------------------------------------------------


def _every_hand(position: _Position) -> Iterator[Mask]:
    bits = [1 << c for c in scan(position.pool)]
    known = position.known
    for combo in itertools.combinations(bits, position.draw):
        yield known + sum(combo)


def _sampled_hands(position: _Position, samples: int, seed: int) -> Iterator[Mask]:
    """Hands drawn uniformly and independently (with replacement), from ``seed``."""
    bits = [1 << c for c in scan(position.pool)]
    known, draw = position.known, position.draw
    pick = random.Random(seed).sample
    for _ in range(samples):
        yield known + sum(pick(bits, draw))


# -- weighing ----------------------------------------------------------------------------


class _Spread(msgspec.Struct, frozen=True):
    """One declaration to weigh: which option it belongs to, and the melds the defender meets."""

    choice: int
    arrangement: Arrangement
    key: int
    """bits of the knocker melds the defender may lay off onto (0 when layoffs are barred)"""


def _weigh(
    choices: Sequence[_Choice],
    defenders: Iterator[Mask],
    rules: Rules,
    system: MeldSystem,
    multiplier: int,
    *,
    sampled: bool,
) -> list[KnockOption]:
    melds, spreads = _index_melds(choices)
    histograms = _defender_deadwood(defenders, melds, {s.key for s in spreads}, rules, system)
    best: dict[Card | None, KnockOption] = {}
    for spread in spreads:
        choice = choices[spread.choice]
        option = _figures(choice, spread.arrangement, histograms[spread.key], rules, multiplier, sampled)
        held = best.get(choice.discard)
        if held is None or _rank(option) < _rank(held):
            best[choice.discard] = option
    return list(best.values())


def _index_melds(choices: Sequence[_Choice]) -> tuple[list[Mask], list[_Spread]]:
    """Number every knocker meld that any declaration shows; each spread's melds as bits."""
    index: dict[Mask, int] = {}
    spreads: list[_Spread] = []
    for number, choice in enumerate(choices):
        for arrangement in choice.declarations:
            key = 0
            if choice.layoffs:
                for meld in arrangement.melds:
                    key |= 1 << index.setdefault(meld.mask, len(index))
            spreads.append(_Spread(number, arrangement, key))
    return list(index), spreads


def _touch(meld: Mask, system: MeldSystem) -> Mask:
    """The cards that extend ``meld`` by themselves: a defender without one lays nothing off."""
    return sum(1 << c for c in scan(FULL_DECK & ~meld) if is_meld(meld | 1 << c, system))


def _defender_deadwood(
    defenders: Iterator[Mask], melds: list[Mask], keys: set[int], rules: Rules, system: MeldSystem
) -> dict[int, dict[int, int]]:
    """For each set of knocker melds (as bits): how many defender hands end on each deadwood.

    A hand's response is searched only over the melds it touches, once per distinct such set.
    """
    touches = [(1 << i, _touch(m, system)) for i, m in enumerate(melds)]
    counts: dict[int, dict[int, int]] = {key: {} for key in keys}
    tallies = list(counts.items())
    spreads: dict[int, tuple[Mask, ...]] = {}
    for defender in defenders:
        base = min_deadwood(defender, system)
        touched = 0
        for bit, touch in touches:
            if defender & touch:
                touched |= bit
        known = {0: base}
        for key, tally in tallies:
            sub = key & touched
            value = known.get(sub)
            if value is None:
                shown = spreads.get(sub)
                if shown is None:
                    shown = spreads[sub] = tuple(m for i, m in enumerate(melds) if sub >> i & 1)
                value = known[sub] = least_defence(defender, shown, rules, system)[0]
            tally[value] = tally.get(value, 0) + 1
    return counts


def _figures(
    choice: _Choice,
    arrangement: Arrangement,
    deadwoods: dict[int, int],
    rules: Rules,
    multiplier: int,
    sampled: bool,
) -> KnockOption:
    hands = wins = undercuts = ties = points = squared = 0
    for deadwood, count in deadwoods.items():
        settlement = settle(
            choice.ending, arrangement.deadwood_points, deadwood, rules, multiplier=multiplier
        )
        signed = settlement.points if settlement.winner == "knocker" else -settlement.points
        hands += count
        wins += count if settlement.winner == "knocker" else 0
        undercuts += count if settlement.outcome is Outcome.UNDERCUT else 0
        ties += count if settlement.winner is None else 0
        points += count * signed
        squared += count * signed * signed
    return KnockOption(
        choice.discard, arrangement, choice.ending, hands, wins, undercuts, ties, points, squared, sampled
    )
