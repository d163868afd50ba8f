"""The knock and the defence of one hand: the declared melds and gin checked, the defender's
layoffs and melds checked, and the hand settled.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence

from ginref.cards import Card, Mask, card_name, mask_of, scan
from ginref.layoffs import (
    Layoff,
    best_defence_from,
    declared_defence_cited,
    fits,
    layoff_options,
    layoff_order,
    least_defence,
)
from ginref.melds import (
    Meld,
    MeldKind,
    is_meld,
    mask_points_in,
    meld_kind,
    min_deadwood,
)
from ginref.notation import excerpt
from ginref.records.model import Defence, Knock, Place, Turn
from ginref.referee.findings import FindingCode
from ginref.referee.rules_of_play import within_knock_limit
from ginref.referee.state import HandState, card_count, card_names, is_card
from ginref.scoring import Ending, settle

_UNCHAINED = -2
""":meth:`KnockSteps.layoff_problem`'s target for a layoff refused because the rules allow no
chained layoffs (``layoff_chaining``); -1 for any other problem"""


class KnockSteps(HandState):
    """The steps of a hand from the knock on."""

    __slots__ = ()

    def check_knock(self, p: int, turn: Turn, taken: int) -> bool:
        """Check a knock; False when the hand cannot be followed further."""
        k = turn.knock
        assert k is not None
        who = self.players[p]
        place = k.place if k.place.line or k.place.pointer else turn.place
        discard = k.discard if k.discard is not None else turn.discard
        if discard is not None and not self.face_down_discard(p, discard, taken, place):
            return False
        declared = self.declared_melds(p, k.melds, place, strict=True)
        if declared is None:
            return False
        valid, index = declared
        self.result.knocker = who
        self.result.knocker_melds = tuple(valid)
        if self.unknown[p]:
            self.add(FindingCode.CARDS_UNKNOWN,
                     f"{who} knocked holding {self.unknown[p]} card(s) the record never shows, "
                     "so the knock cannot be checked", place)
            return False
        dead = self.held[p] & ~functools.reduce(operator.or_, valid, 0)
        dw = mask_points_in(self.system, dead)
        self.result.knocker_deadwood = dw
        ending = self.ending_shown(p, k, discard, dw, dead, place)
        if ending is None or not self.knock_allowed(p, ending, dw, dead, place):
            self.result.outcome, self.result.end = "illegal_knock", "knock"
            return True
        self.ending = ending
        self.knock_place = place
        self.melds = tuple(valid)
        self.declared_index = tuple(index)
        self.knocker_dw = dw
        return True

    def face_down_discard(self, p: int, discard: object, taken: int, place: Place) -> bool:
        who = self.players[p]
        if not is_card(discard):
            self.add(FindingCode.BAD_CARD, f"{who} discarded {excerpt(discard)}, which is not a card", place)
            return False
        assert isinstance(discard, int)
        if not self.take_from_hand(p, discard):
            self.not_held(p, "discarded", discard, place)
            return False
        if discard == self.rules.banned_discard(taken):
            self.add(FindingCode.SAME_CARD_DISCARD,
                     f"{who} discarded {card_name(discard)} face down, the card just taken "
                     "from the discard pile", place, knobs=("no_same_card_discard",))
        return True

    def declared_melds(
        self, p: int, melds: Sequence[Mask], place: Place, *, strict: bool
    ) -> tuple[list[Mask], list[int]] | None:
        """The legal melds among those ``p`` declares, and each declared meld's index among
        them (-1 where it is not a meld). A meld card ``p`` does not hold is reported; with
        ``strict`` (the knocker's spread) the hand can then no longer be followed: None."""
        who = self.players[p]
        melded = 0
        valid: list[Mask] = []
        index: list[int] = []
        for m in melds:
            problem = ""
            if type(m) is not int or m <= 0 or m >> 52:
                problem = f"{who} declared a meld that is not a set of cards"
            elif missing := self.reveal(p, m):
                self.not_held(p, "melded", next(scan(missing)), place)
                if strict:
                    return None
                index.append(-1)
                continue
            elif m & melded:
                problem = f"{who} used {card_names(m & melded)} in two melds"
            elif not is_meld(m, self.system):
                problem = f"{who} declared [{card_names(m)}], which is not a meld"
            if problem:
                self.add(FindingCode.INVALID_MELD, problem, place)
                index.append(-1)
                continue
            index.append(len(valid))
            valid.append(m)
            melded |= m
        return valid, index

    def ending_shown(
        self, p: int, k: Knock, discard: Card | None, dw: int, dead: Mask, place: Place
    ) -> Ending | None:
        """What the cards show (the cards speak), with what the record declared checked
        against it; None for a knock with no face-down discard that is not big gin."""
        who = self.players[p]
        ending: Ending
        if discard is None:
            if card_count(self.held[p]) != 11 or dw:
                self.add(FindingCode.MISSING_DISCARD,
                         f"{who} knocked without a face-down discard; only big gin keeps all 11 cards", place)
                return None
            ending = "big_gin"
            if self.rules.big_gin_bonus is None:
                self.add(FindingCode.BIG_GIN_NOT_RECOGNISED,
                         f"{who} melded all 11 cards without discarding, but these rules have "
                         "no big gin; ruled as gin", place, knobs=("big_gin_bonus",))
                ending = "gin"
        else:
            ending = "gin" if dw == 0 else "knock"
            if k.ending == "big_gin":
                self.add(FindingCode.DEADWOOD_MISDECLARED,
                         f"{who} declared big gin but discarded {card_name(discard)}; "
                         + ("that is gin" if dw == 0 else f"the hand shows {dw} deadwood"), place)
            elif k.ending == "gin" and dw:
                self.add(FindingCode.DEADWOOD_MISDECLARED,
                         f"{who} declared gin but has {dw} deadwood ({card_names(dead)})", place)
            elif k.ending == "knock" and not dw:
                self.add(FindingCode.KNOCK_IS_GIN,
                         f"{who} knocked with no deadwood: that is gin, and is scored as gin", place)
        if k.deadwood is not None and k.deadwood != dw:
            self.add(FindingCode.DEADWOOD_MISDECLARED,
                     f"{who} announced {k.deadwood} deadwood, but the cards show {dw}"
                     + (f" ({card_names(dead)})" if dead else ""), place)
        return ending

    def knock_allowed(self, p: int, ending: Ending, dw: int, dead: Mask, place: Place) -> bool:
        """The knock limit and, where the rules ask, melding as far as possible."""
        if ending != "knock":
            return True
        who, limit = self.players[p], self.result.knock_limit
        if not within_knock_limit(dw, limit):
            what = "only gin ends a hand" if limit == 0 else f"the knock limit is {limit}"
            self.add(FindingCode.KNOCK_OVER_LIMIT,
                     f"{who} knocked with {dw} deadwood ({card_names(dead)}), but {what}", place,
                     knobs=("oklahoma",) if self.rules.oklahoma != "off" else ("knock_limit",))
            return False
        least = min_deadwood(self.held[p], self.system)
        if least >= dw:
            return True
        if self.rules.knocker_must_meld_max:
            self.add(FindingCode.KNOCK_NOT_MAX,
                     f"{who} declared {dw} deadwood but could meld down to {least}; "
                     "these rules require melding as far as possible", place,
                     knobs=("knocker_must_meld_max",))
            return False
        self.add(FindingCode.KNOCK_NOT_BEST,
                 f"{who} declared {dw} deadwood, but the same cards can be arranged with {least}", place,
                 points=dw - least)
        return True

    # -- the defence ----------------------------------------------------------------

    def layoffs_allowed(self) -> bool:
        """Whether the rules let the defender lay off onto this knock, gin or big gin."""
        ending, rules = self.ending, self.rules
        return (
            (ending == "knock" and rules.layoff_on_knock)
            or (ending == "gin" and rules.layoff_on_gin)
            or (ending == "big_gin" and rules.layoff_on_big_gin)
        )

    def defend(self, p: int, event: Defence | None) -> None:
        """Rule on the defence (declared, else the best response) and settle the hand."""
        rules, result, players = self.rules, self.result, self.players
        q = 1 - p
        defender = players[q]
        ending = self.ending
        allow = self.layoffs_allowed()
        if event is not None and event.player != defender:
            if event.player in players:
                self.add(FindingCode.WRONG_TURN,
                         f"{event.player} shows a defence, but {defender} is the defender", event.place)
            else:
                self.add(FindingCode.UNKNOWN_PLAYER, self.stranger(event.player), event.place)
            event = None
        dw: int
        own: tuple[Mask, ...] | None
        layoffs: tuple[Layoff, ...]
        if event is None:
            if self.unknown[q]:
                self.add(FindingCode.CARDS_UNKNOWN,
                         f"{defender} holds {self.unknown[q]} card(s) the record never shows, so "
                         "the defence cannot be worked out", self.knock_place)
                return
            dw, choice = least_defence(self.held[q], self.melds, rules, self.system, allow_layoffs=allow)
            own = None
            laid = 0
            pairs: list[tuple[Card, Mask]] = []
            for meld, extra in zip(self.melds, choice, strict=True):
                if extra:
                    laid |= extra
                    pairs.extend((c, meld) for c in layoff_order(Meld(meld), extra))
            result.layoffs = tuple(pairs)
            result.defender_cards = self.held[q] & ~laid
        else:
            result.defence_recorded = True
            declared = self.declared_defence(q, event, tuple([Meld(m) for m in self.melds]), allow)
            if declared is None:
                return
            dw, own, layoffs = declared
            result.layoffs = tuple((lay.card, lay.onto.mask) for lay in layoffs)
            result.defender_cards = self.held[q] & ~mask_of(lay.card for lay in layoffs)
        result.defender_deadwood = dw
        result.defender_spread = own
        settlement = settle(ending, self.knocker_dw, dw, rules, multiplier=result.multiplier)
        result.outcome = settlement.outcome.value
        result.end = "knock"
        result.points = settlement.points
        result.steps = settlement.steps
        if settlement.winner == "knocker":
            result.winner = players[p]
        elif settlement.winner == "defender":
            result.winner = defender

    def declared_defence(
        self, q: int, event: Defence, knocker_melds: tuple[Meld, ...], allow: bool
    ) -> tuple[int, tuple[Mask, ...], tuple[Layoff, ...]] | None:
        """Check a recorded defence: its melds, its layoffs, its announced deadwood."""
        place = event.place
        declared = self.declared_melds(q, event.melds, place, strict=False)
        assert declared is not None  # not strict: a card not held is reported, not fatal
        own = [Meld(m) for m in declared[0]]
        melded = functools.reduce(operator.or_, declared[0], 0)
        laid, on_gin = self.declared_layoffs(q, event.layoffs, knocker_melds, melded, allow, place)
        if on_gin:
            what = {"big_gin": "big gin", "gin": "gin"}.get(self.ending, "a knock")
            self.add(FindingCode.LAYOFF_ON_GIN,
                     f"{self.players[q]} laid off {' '.join(card_name(c) for c in on_gin)} onto {what}, "
                     "which these rules do not allow", place, knobs=(f"layoff_on_{self.ending}",))
            for c in on_gin:
                if self.reveal(q, 1 << c):
                    self.not_held(q, "laid off", c, place)
        if self.unknown[q]:
            self.add(FindingCode.CARDS_UNKNOWN,
                     f"{self.players[q]} holds {self.unknown[q]} card(s) the record never shows, so the "
                     "defence cannot be checked", place)
            return None
        return self.defence_ruling(q, event, own, laid, knocker_melds, allow)

    def declared_layoffs(
        self, q: int, layoffs: Sequence[tuple[Card, int]], knocker_melds: tuple[Meld, ...],
        melded: Mask, allow: bool, place: Place,
    ) -> tuple[list[tuple[Card, int]], list[Card]]:
        """The layoffs that fit, as ``(card, knocker meld index)``, and the cards laid onto gin
        where the rules forbid it; every other bad layoff is reported and left out."""
        defender = self.players[q]
        laid: list[tuple[Card, int]] = []
        laid_mask = 0
        on_gin: list[Card] = []
        for c, at in layoffs:
            if not is_card(c):
                self.not_a_card(f"{defender} laid off", c, place)
                continue
            if not allow:
                on_gin.append(c)
                continue
            if self.reveal(q, 1 << c):
                self.not_held(q, "laid off", c, place)
                continue
            problem, target = self.layoff_problem(q, c, at, knocker_melds, melded | laid_mask, laid_mask)
            if problem:
                knobs = ("layoff_chaining",) if target == _UNCHAINED else ()
                self.add(FindingCode.ILLEGAL_LAYOFF, problem, place, knobs=knobs)
                continue
            laid.append((c, target))
            laid_mask |= 1 << c
        return laid, on_gin

    def layoff_problem(
        self, q: int, c: Card, at: object, knocker_melds: tuple[Meld, ...], used: Mask, laid: Mask
    ) -> tuple[str, int]:
        """Why card ``c`` cannot go onto declared meld ``at`` ("" if it can), and the index
        of that meld among the legal ones."""
        defender, bit, name = self.players[q], 1 << c, card_name(c)
        if bit & used:
            if bit & laid:
                return f"{defender} laid off {name} twice", -1
            return f"{defender} laid off {name}, which is also in one of {defender}'s own melds", -1
        index = self.declared_index
        if type(at) is not int or not 0 <= at < len(index):
            onto = excerpt(at)
            return f"{defender} laid off {name} onto meld {onto}, which the knocker did not declare", -1
        target = index[at]
        if target < 0:
            return f"{defender} laid off {name} onto meld {at + 1}, which is not a meld", -1
        meld = knocker_melds[target]
        if (
            not self.rules.layoff_chaining
            and meld.kind is MeldKind.RUN
            and meld_kind(meld.mask | bit, self.system) is not MeldKind.RUN
        ):
            return (f"{defender} laid off {name} onto {meld}, which it does not touch; "
                    "these rules allow no chained layoffs"), _UNCHAINED
        return "", target

    def defence_ruling(
        self, q: int, event: Defence, own: list[Meld], laid: list[tuple[Card, int]],
        knocker_melds: tuple[Meld, ...], allow: bool,
    ) -> tuple[int, tuple[Mask, ...], tuple[Layoff, ...]]:
        """The declared defence as scored, with its deadwood checked and a better one named."""
        rules, system, place, defender = self.rules, self.system, event.place, self.players[q]
        hand = self.held[q]
        declared, problems = declared_defence_cited(
            hand, own, laid, knocker_melds, system, chaining=rules.layoff_chaining,
            chain_limit=rules.layoff_chain_limit,
        )
        for problem, knob in problems:
            self.add(FindingCode.ILLEGAL_LAYOFF, f"{defender} cannot lay off: {problem}", place,
                     knobs=(knob,) if knob else ())
        dw = declared.deadwood_points
        if event.deadwood is not None and event.deadwood != dw:
            dead = declared.arrangement.deadwood
            self.add(FindingCode.DEADWOOD_MISDECLARED,
                     f"{defender} announced {event.deadwood} deadwood, but the cards show {dw}"
                     + (f" ({card_names(dead)})" if dead else ""), place)
        least, choice = least_defence(hand, self.melds, rules, system, allow_layoffs=allow)
        if least < dw:
            best = best_defence_from(hand, knocker_melds, choice, rules, system, allow_layoffs=allow)
            how = []
            if best.layoffs:
                how.append("laying off " + ", ".join(str(lay) for lay in best.layoffs))
            if best.arrangement.melds:
                how.append("melding " + " ".join(str(m) for m in best.arrangement.melds))
            self.add(FindingCode.MISSED_LAYOFF,
                     f"{defender} left {dw} deadwood but could have left {best.deadwood_points}"
                     + (f" by {' and '.join(how)}" if how else ""), place, points=dw - best.deadwood_points)
            if laid and self.stuck(q, own, laid, knocker_melds):
                self.first_fit(q, own, knocker_melds, dw, place)
        return dw, tuple(m.mask for m in own), declared.layoffs

    def stuck(
        self, q: int, own: list[Meld], laid: list[tuple[Card, int]], knocker_melds: tuple[Meld, ...]
    ) -> bool:
        """Whether no card left over fits any meld as the layoffs left it: the layoffs stopped,
        as an engine laying off until nothing fits stops (a defender who just missed one is not this)."""
        grown = [m.mask for m in knocker_melds]
        for c, at in laid:
            grown[at] |= 1 << c
        used = functools.reduce(operator.or_, (m.mask for m in own), 0) | mask_of(c for c, _ in laid)
        left = self.held[q] & ~used
        limit = self.rules.layoff_chain_limit
        return not any(fits(meld, c, self.system, declared=declared.mask, chain_limit=limit)
                       for meld, declared in zip(grown, knocker_melds, strict=True) for c in scan(left))

    def first_fit(
        self, q: int, own: list[Meld], knocker_melds: tuple[Meld, ...], dw: int, place: Place
    ) -> None:
        """Name layoffs that, with the defender's own melds kept, fall short of the best ones: the
        first-fit layoff (a card laid on the first meld it fits where another let more follow)."""
        system = self.system
        left = self.held[q] & ~functools.reduce(operator.or_, (m.mask for m in own), 0)
        chaining, limit = self.rules.layoff_chaining, self.rules.layoff_chain_limit
        choices = [layoff_options(m.mask, left, system, chaining=chaining, chain_limit=limit)
                   for m in knocker_melds]
        best: tuple[Mask, ...] = ()
        most = -1
        for choice in itertools.product(*choices):  # a few options for each of at most 3 or 4 melds
            laid = functools.reduce(operator.or_, choice, 0)
            points = mask_points_in(system, laid)
            if points > most and sum(m.bit_count() for m in choice) == laid.bit_count():
                best, most = choice, points
        fit = mask_points_in(system, left) - most
        if fit >= dw:
            return
        pairs = zip(knocker_melds, best, strict=True)
        laying = ", ".join(f"{card_names(extra)} onto {meld}" for meld, extra in pairs if extra)
        self.add(FindingCode.FIRST_FIT_LAYOFF,
                 f"the layoffs made for {self.players[q]} left {dw} deadwood; with the same melds, laying "
                 f"off {laying} leaves {fit} (a card went onto the first meld it fits, as the EAAI engine "
                 "lays off)", place, points=dw - fit)


