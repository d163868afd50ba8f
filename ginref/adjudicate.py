"""Replay a recorded game under a rule set and report what disagrees with the rules.

:func:`adjudicate` takes a :class:`ginref.record.GameRecord` and returns a
:class:`Verdict`: the ruling on every hand (:class:`HandVerdict`), the game
tally, and the :class:`Finding` list. It never raises on a bad record: every
problem is a finding, placed at the line/column or JSON pointer of the event
that shows it. Claims in the record (result, points, running totals, next
dealer, final totals) are recomputed and compared, never trusted.

Finding codes (stable; ``error`` breaks a rule or misstates the outcome,
``advisory`` is worth a player's attention but breaks nothing):

=======================  ========  ==============================================================
code                     severity  meaning
=======================  ========  ==============================================================
unknown_rules            error     the record names a rule set or override ginref does not know
                                   (standard rules, or the knobs that are valid, are used)
unknown_player           error     a name in the deal, the dealer or an event is not one of the
                                   record's two players (or both players share one name)
bad_card                 error     a card number outside 0..51
deal_incomplete          error     a player dealt the wrong number of cards, a missing upcard (or
                                   an upcard with the eleven-card deal), a stock that is not 31
duplicate_card           error     one card in two places at once: twice in the deal/upcard/stock,
                                   or drawn from the stock while known to be elsewhere
wrong_turn               error     a player moves (or defends) out of turn
upcard_ritual            error     the first turn breaks ``first_turn`` (a stock draw before both
                                   players passed the upcard, taking the upcard after both
                                   passed, a pass where the rules have no ritual, ...)
illegal_pass             error     a pass anywhere but on the first upcard or at the wall
no_draw                  error     a turn with no draw, other than the eleven-card opening
draw_from_empty_stock    error     a stock draw that would take one of the ``stock_floor`` cards
stock_draw_mismatch      error     the card drawn is not the next card of the recorded stock
not_top_discard          error     a draw from the discard pile of a card that is not its top
card_not_in_hand         error     a player discards, melds or lays off a card it does not hold
missing_discard          error     a turn with a draw and neither discard nor knock, followed by
                                   more play; or a knock with no face-down discard but no big gin
same_card_discard        error     discarding the card just taken from the discard pile, also as
                                   the face-down knock discard (``no_same_card_discard``)
stock_exhausted          error     play went on after the hand ended at the stock floor (void
                                   rule), or the wall discard was taken without knocking
moves_after_end          error     an event after the end of the hand, or a hand after the end
                                   of the game
incomplete_hand          error     the record stops before the hand ended and does not claim void
defence_without_knock    error     a defence recorded where nobody knocked
knock_over_limit         error     knocked with more deadwood than the knock limit (Oklahoma: the
                                   first upcard's value; 0 = gin only); the hand is an illegal knock
knock_not_max            error     with ``knocker_must_meld_max``, the knocker withheld a meld
invalid_meld             error     a declared meld that is not a set or run, or reuses a card;
                                   its cards count as deadwood
deadwood_misdeclared     error     announced deadwood or the declared ending (gin, big gin)
                                   differs from the cards shown
big_gin_not_recognised   error     a big gin (11 cards, no discard) where the rules have none;
                                   ruled as gin
illegal_layoff           error     a layoff that does not fit the meld as it stands (or onto a
                                   meld that was not declared); the card stays deadwood
layoff_on_gin            error     a layoff onto gin or big gin where the rules forbid it
wrong_result             error     the claimed outcome or winner differs from the ruling
wrong_score              error     claimed points, running totals or final totals differ
wrong_dealer             error     the claimed next dealer, or the next hand's dealer, is not the
                                   one the rules name
missed_layoff            advisory  the defender's declared defence leaves more deadwood than its
                                   best response (the declared one is scored)
knock_not_best           advisory  the knocker declared more deadwood than the least its 10 cards
                                   allow (withholding a meld is allowed; the declaration stands)
knock_is_gin             advisory  a "knock" showing no deadwood: it is gin and scored as gin
cards_unknown            advisory  unseen cards (e.g. unrecorded stock draws) are still in a
                                   hand at the end, so the result cannot be checked
void_unverified          advisory  the record stops before the stock floor but claims a void hand
=======================  ========  ==============================================================

Rulings where the sources are silent (see ``shared/rules/VARIANTS.md``):

- The cards speak: a declared "gin" with deadwood is ruled a knock (within the
  limit) and a "knock" with none is gin; an invalid meld's cards are deadwood.
- An illegal knock ends the replay of the hand: outcome ``illegal_knock``, no
  score, no winner, and later events of that hand are not checked (what
  follows depends on ``illegal_knock``, which a record cannot show).
- Big gin where the rules have none is ruled as plain gin: eleven melded cards
  always contain a meld of four or more, so a discard keeping gin was there.
- A hand that ends with no knock (stock floor, wall pass, 50th discard draw,
  repeated discard) is ``void``: no winner, no score; ``end`` tells which.
- ``max_discard_draws``: the draw that reaches the cap ends the hand at once
  (OpenSpiel); a discard or knock recorded in that turn is ``moves_after_end``.
  Draws during the upcard ritual do not count; under ``first_turn = "none"``
  the opening draw is a normal turn and counts.
- After a card-integrity error (a card not held, in two places, a pile or
  stock draw that cannot be followed) the replay of that hand stops; its
  outcome is ``unresolved`` and the claimed result is used to carry the game
  on. Hands after the end of the game are reported once and not replayed.
- Under Hollywood scoring a hand's claimed running totals are compared with
  each player's plain cumulative hand points; the final totals with the
  match totals.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ginref import game
from ginref.cards import FULL_DECK, Card, Mask, card_name, mask_of, scan
from ginref.errors import GinrefError, UnknownRulesError
from ginref.layoffs import Layoff, best_defence, defence_as_declared, extensions, layoff_order
from ginref.melds import (
    RANK_STRIDE,
    STANDARD_SYSTEM,
    Meld,
    MeldKind,
    MeldSystem,
    best_arrangement,
    meld_kind,
    min_deadwood,
)
from ginref.records.model import Defence, GameRecord, HandRecord, Pass, Place, Turn
from ginref.rules import STANDARD, Rules, find_rules, with_overrides
from ginref.scoring import Ending, settle

__all__ = [
    "ADVISORY_CODES",
    "Finding",
    "FindingCode",
    "HandVerdict",
    "Severity",
    "Verdict",
    "adjudicate",
]

Severity = Literal["error", "advisory"]


class FindingCode(str, enum.Enum):
    """Every finding code; the value is the stable snake_case string."""

    UNKNOWN_RULES = "unknown_rules"
    UNKNOWN_PLAYER = "unknown_player"
    BAD_CARD = "bad_card"
    DEAL_INCOMPLETE = "deal_incomplete"
    DUPLICATE_CARD = "duplicate_card"
    WRONG_TURN = "wrong_turn"
    UPCARD_RITUAL = "upcard_ritual"
    ILLEGAL_PASS = "illegal_pass"
    NO_DRAW = "no_draw"
    DRAW_FROM_EMPTY_STOCK = "draw_from_empty_stock"
    STOCK_DRAW_MISMATCH = "stock_draw_mismatch"
    NOT_TOP_DISCARD = "not_top_discard"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MISSING_DISCARD = "missing_discard"
    SAME_CARD_DISCARD = "same_card_discard"
    STOCK_EXHAUSTED = "stock_exhausted"
    MOVES_AFTER_END = "moves_after_end"
    INCOMPLETE_HAND = "incomplete_hand"
    DEFENCE_WITHOUT_KNOCK = "defence_without_knock"
    KNOCK_OVER_LIMIT = "knock_over_limit"
    KNOCK_NOT_MAX = "knock_not_max"
    INVALID_MELD = "invalid_meld"
    DEADWOOD_MISDECLARED = "deadwood_misdeclared"
    BIG_GIN_NOT_RECOGNISED = "big_gin_not_recognised"
    ILLEGAL_LAYOFF = "illegal_layoff"
    LAYOFF_ON_GIN = "layoff_on_gin"
    WRONG_RESULT = "wrong_result"
    WRONG_SCORE = "wrong_score"
    WRONG_DEALER = "wrong_dealer"
    MISSED_LAYOFF = "missed_layoff"
    KNOCK_NOT_BEST = "knock_not_best"
    KNOCK_IS_GIN = "knock_is_gin"
    CARDS_UNKNOWN = "cards_unknown"
    VOID_UNVERIFIED = "void_unverified"

    def __str__(self) -> str:
        return self.value


ADVISORY_CODES: frozenset[str] = frozenset({
    "missed_layoff", "knock_not_best", "knock_is_gin", "cards_unknown", "void_unverified",
})
"""Codes of severity ``advisory``; every other code is an ``error``."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a record gets wrong (``error``) or a player may want to know (``advisory``).

    ``hand`` is the 0-based index of the hand in the record, -1 for the record as
    a whole (unknown rules, final totals).
    """

    code: str
    severity: Severity
    message: str
    place: Place
    hand: int

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "place": self.place.to_dict(),
            "hand": self.hand,
        }

    def __str__(self) -> str:
        where = str(self.place)
        return f"{where + ': ' if where else ''}{self.severity} {self.code}: {self.message}"


Totals = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class HandVerdict:
    """The ruling on one hand, computed from the cards.

    ``outcome`` is a :class:`ginref.scoring.Outcome` value (``knock``, ``gin``,
    ``big_gin``, ``undercut``, ``tie``, ``illegal_knock``, ``void``) or
    ``unresolved`` when the record cannot be followed to a result. ``end`` says how
    the hand ended: ``knock``, ``stock`` (void at the stock floor), ``wall`` (the
    wall discard passed or taken without a knock), ``max_discard_draws``,
    ``repeat_discard_draw``, ``unverified`` (a claimed void the record does not
    reach), ``incomplete`` or ``error``. ``layoffs`` are ``(card, meld)`` pairs onto
    the knocker's declared melds, as scored (declared, or the best response when no
    defence is recorded).
    """

    index: int
    number: int | None
    dealer: str | None
    outcome: str
    end: str
    winner: str | None = None
    points: int = 0
    knocker: str | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    knocker_melds: tuple[Mask, ...] = ()
    defender_spread: tuple[Mask, ...] | None = None
    """the defender's own melds as recorded; None when the referee chose them"""
    defender_cards: Mask = 0
    """the defender's cards left after its layoffs (own melds and deadwood)"""
    layoffs: tuple[tuple[Card, Mask], ...] = ()
    defence_recorded: bool = False
    multiplier: int = 1
    knock_limit: int = 10
    totals_after: Totals | None = None
    next_dealer: str | None = None
    stock_left: int = 0
    system: MeldSystem = field(default=STANDARD_SYSTEM, repr=False, compare=False)
    """the meld system of the rules (for :attr:`defender_melds`)"""

    @property
    def resolved(self) -> bool:
        return self.outcome != "unresolved"

    @property
    def defender_melds(self) -> tuple[Mask, ...]:
        """The defender's own melds: as recorded, else a least-deadwood arrangement."""
        if self.defender_spread is not None:
            return self.defender_spread
        if not self.defender_cards:
            return ()
        return tuple(m.mask for m in best_arrangement(self.defender_cards, self.system).melds)

    def to_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "number": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome,
            "end": self.end,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "knocker_melds": [_meld_names(m) for m in self.knocker_melds],
            "defender_melds": [_meld_names(m) for m in self.defender_melds],
            "layoffs": [{"card": card_name(c), "onto": _meld_names(m)} for c, m in self.layoffs],
            "defence_recorded": self.defence_recorded,
            "multiplier": self.multiplier,
            "knock_limit": self.knock_limit,
            "totals_after": dict(self.totals_after) if self.totals_after is not None else None,
            "next_dealer": self.next_dealer,
            "stock_left": self.stock_left,
        }


@dataclass(frozen=True)
class Verdict:
    """The ruling on a whole record: findings, hand rulings and the game tally.

    ``hand_totals`` are the running hand totals after the last hand ruled;
    ``final_totals`` add the end-of-game bonuses once the game is over (before,
    they equal ``hand_totals``). ``winner`` is set when the game is over.
    """

    findings: tuple[Finding, ...]
    hands: tuple[HandVerdict, ...]
    rules: str
    players: tuple[str, str]
    hand_totals: Totals = ()
    final_totals: Totals = ()
    winner: str | None = None
    game_over: bool = False
    source: str = ""
    index: int = 0

    @property
    def clean(self) -> bool:
        """No error findings (advisories allowed)."""
        return not any(f.severity == "error" for f in self.findings)

    @property
    def has_findings(self) -> bool:
        return bool(self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "index": self.index,
            "rules": self.rules,
            "players": list(self.players),
            "clean": self.clean,
            "findings": [f.to_dict() for f in self.findings],
            "hands": [h.to_dict() for h in self.hands],
            "hand_totals": dict(self.hand_totals),
            "final_totals": dict(self.final_totals),
            "winner": self.winner,
            "game_over": self.game_over,
        }


def _meld_names(mask: Mask) -> list[str]:
    return Meld(mask).names()


def _severity(code: str) -> Severity:
    return "advisory" if code in ADVISORY_CODES else "error"


def _finding(code: FindingCode, message: str, place: Place, hand: int) -> Finding:
    return Finding(code.value, _severity(code.value), message, place, hand)


# -- rules ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _record_rules(
    name: str, overrides: tuple[tuple[str, str], ...]
) -> tuple[Rules, MeldSystem, tuple[str, ...]]:
    """The rules a record asks for, and the problems met (unknown name, bad knob)."""
    problems: list[str] = []
    try:
        if not isinstance(name, str):
            raise UnknownRulesError(f"rule set names are text, got {name!r}")
        rules = find_rules(name)
    except GinrefError:
        problems.append(f"the record asks for rules {name!r}, which ginref does not know; "
                        "standard rules used")
        rules = STANDARD
    for knob, value in overrides:
        try:
            rules = with_overrides(rules, {str(knob): value})
        except GinrefError as exc:
            problems.append(f"rule override {knob}={value} ignored: {exc}")
    return rules, MeldSystem.from_rules(rules), tuple(problems)


# -- one hand ---------------------------------------------------------------------------

_RITUAL, _FORCED, _ELEVEN, _NORMAL, _WALL, _KNOCKED, _OVER = range(7)
_FIRST_PHASE = {"ritual": _RITUAL, "none": _NORMAL, "eleven_card": _ELEVEN}


class _Hand:
    """What the replay of one hand found out (mutable, private)."""

    __slots__ = (
        "dealer",
        "defence_recorded",
        "defender_cards",
        "defender_deadwood",
        "defender_spread",
        "end",
        "knock_limit",
        "knocker",
        "knocker_deadwood",
        "knocker_melds",
        "layoffs",
        "multiplier",
        "outcome",
        "points",
        "stock_left",
        "winner",
    )

    def __init__(self, dealer: str | None) -> None:
        self.dealer = dealer
        self.outcome = "unresolved"
        self.end = "error"
        self.winner: str | None = None
        self.points = 0
        self.knocker: str | None = None
        self.knocker_deadwood: int | None = None
        self.defender_deadwood: int | None = None
        self.knocker_melds: tuple[Mask, ...] = ()
        self.defender_spread: tuple[Mask, ...] | None = None
        self.defender_cards: Mask = 0
        self.layoffs: tuple[tuple[Card, Mask], ...] = ()
        self.defence_recorded = False
        self.multiplier = 1
        self.knock_limit = 10
        self.stock_left = 31


def _names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in scan(mask))


def _count(mask: Mask) -> int:
    return bin(mask).count("1")


def _is_card(c: object) -> bool:
    return type(c) is int and 0 <= c < 52


def _is_meld(mask: Mask, system: MeldSystem) -> bool:
    """``melds.is_meld`` with the set test inline (called for every declared meld)."""
    rank = ((mask & -mask).bit_length() - 1) % 13
    if mask & ~(RANK_STRIDE << rank) == 0:
        return 3 <= bin(mask).count("1") <= 4
    return mask in system.tables.run_masks


_BITS = tuple(1 << c for c in range(52))


def _fast_mask(cards: Sequence[object]) -> int:
    """The mask of ``cards`` if they are distinct valid cards, else -1 (look closer)."""
    if not cards:
        return 0
    try:
        if min(cards) < 0 or max(cards) > 51:  # type: ignore[type-var, operator]
            return -1
        mask = functools.reduce(operator.or_, map(_BITS.__getitem__, cards))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return -1
    if bin(mask).count("1") != len(cards):
        return -1
    return mask


def _card_text(c: object) -> str:
    return card_name(c) if _is_card(c) else repr(c)  # type: ignore[arg-type]


class _Replay:
    """Replays one hand. Hot state lives in locals of :meth:`run`; this object holds
    what the rare paths (knock, defence, findings) need."""

    def __init__(
        self, hand: HandRecord, index: int, players: tuple[str, str], rules: Rules,
        system: MeldSystem, findings: list[Finding],
    ) -> None:
        self.hand = hand
        self.index = index
        self.players = players
        self.rules = rules
        self.system = system
        self.findings = findings
        self.result = _Hand(hand.dealer if hand.dealer in players else None)
        # card state: known cards and count of unseen cards per hand
        self.held = [0, 0]
        self.unknown = [0, 0]
        self.unseen = 0
        self.pile: list[Card] = []
        self.stock: Sequence[Card] | None = None
        self.stock_pos = 0
        # the knock, as checked by knock() for defend()
        self.ending: Ending = "knock"
        self.melds: tuple[Mask, ...] = ()
        self.declared_index: tuple[int, ...] = ()
        self.knocker_dw = 0
        self.knock_place = hand.place
        upcard = hand.upcard if _is_card(hand.upcard) else None
        self.result.knock_limit = rules.knock_limit_for(upcard)
        self.result.multiplier = rules.multiplier(upcard)

    # -- findings -----------------------------------------------------------------

    def add(self, code: FindingCode, message: str, place: Place | None = None) -> None:
        """Record a finding at ``place`` (an event's), else at the hand."""
        if place is None or not (place.line or place.pointer):
            place = self.hand.place
        self.findings.append(_finding(code, message, place, self.index))

    def where(self, c: Card) -> str:
        """Where card ``c`` is known to be, for messages (``"in Bo's hand"``)."""
        bit = 1 << c
        for p in (0, 1):
            if self.held[p] & bit:
                return f"in {self.players[p]}'s hand"
        if c in self.pile:
            return "on the discard pile"
        if self.stock is not None and c in self.stock[self.stock_pos:]:
            return "still in the stock"
        return ""

    def take_from_hand(self, p: int, c: Card) -> bool:
        """Remove ``c`` from player ``p``'s hand, drawing on its unseen cards if need be."""
        bit = 1 << c
        if self.held[p] & bit:
            self.held[p] ^= bit
            return True
        if self.unknown[p] and self.unseen & bit:
            self.unknown[p] -= 1
            self.unseen ^= bit
            return True
        return False

    def reveal(self, p: int, mask: Mask) -> Mask:
        """Make the cards of ``mask`` known in ``p``'s hand where its unseen cards allow;
        return the cards of ``mask`` that ``p`` cannot hold."""
        extra = mask & ~self.held[p]
        if not extra:
            return 0
        possible = extra & self.unseen
        missing = extra & ~self.unseen
        n = _count(possible)
        if n > self.unknown[p]:
            # more cards than unseen slots: none of them can be vouched for
            return extra
        self.unknown[p] -= n
        self.unseen &= ~possible
        self.held[p] |= possible
        return missing

    def not_held(self, p: int, verb: str, c: Card, place: Place) -> None:
        name = self.players[p]
        where = self.where(c)
        tail = f"which is {where}" if where and not where.startswith(f"in {name}'s") else (
            f"which is not in {name}'s hand"
        )
        self.add(FindingCode.CARD_NOT_IN_HAND, f"{name} {verb} {card_name(c)}, {tail}", place)

    # -- the deal -----------------------------------------------------------------

    def _distinct(
        self, cards: Sequence[object], seen: Mask, where: str, twice: str, elsewhere: str
    ) -> Mask | None:
        """The cards as a mask, or None once a non-card or a card seen twice is reported."""
        mask = _fast_mask(cards)
        if mask >= 0 and not seen & mask:
            return mask
        mask = 0
        for c in cards:
            if type(c) is not int or not 0 <= c < 52:
                self.add(FindingCode.BAD_CARD, f"{c!r} in {where} is not a card")
                return None
            bit = 1 << c
            if (seen | mask) & bit:
                again = twice if mask & bit else elsewhere
                self.add(FindingCode.DUPLICATE_CARD, f"{card_name(c)} is {again}")
                return None
            mask |= bit
        return mask

    def deal(self) -> bool:
        """Check the deal and set up the card state; False when the hand cannot be replayed."""
        hand, rules, players = self.hand, self.rules, self.players
        if hand.dealer not in players:
            self.add(FindingCode.UNKNOWN_PLAYER,
                     f"the dealer {hand.dealer!r} is not one of the players {players[0]} and {players[1]}")
            return False
        d = players.index(hand.dealer)
        eleven = rules.first_turn == "eleven_card"
        want = [10, 10]
        if eleven:
            want[1 - d] = 11
        seen = 0
        dealt = [False, False]
        for name, cards in hand.deal:
            if name not in players:
                self.add(FindingCode.UNKNOWN_PLAYER,
                         f"cards are dealt to {name!r}, who is not one of the players "
                         f"{players[0]} and {players[1]}")
                return False
            p = players.index(name)
            if dealt[p]:
                self.add(FindingCode.DEAL_INCOMPLETE, f"the deal shows {name}'s cards twice")
                return False
            dealt[p] = True
            found = self._distinct(cards, seen, f"{name}'s deal", "dealt twice", "dealt to both players")
            if found is None:
                return False
            mask = found
            seen |= mask
            self.held[p] = mask
            if len(cards) > want[p]:
                self.add(FindingCode.DEAL_INCOMPLETE,
                         f"{name} is dealt {len(cards)} cards; the rules deal {want[p]}")
                return False
            if len(cards) < want[p]:
                self.add(FindingCode.DEAL_INCOMPLETE,
                         f"{name} is dealt {len(cards)} cards; the rules deal {want[p]}")
                self.unknown[p] = want[p] - len(cards)
        for p in (0, 1):
            if not dealt[p]:
                self.add(FindingCode.DEAL_INCOMPLETE, f"the deal does not show {players[p]}'s cards")
                self.unknown[p] = want[p]
        up = hand.upcard
        if eleven:
            if up is not None:
                self.add(FindingCode.DEAL_INCOMPLETE,
                         f"the deal turns up {_card_text(up)}, but with the eleven-card deal "
                         "there is no upcard")
                return False
        else:
            if up is None:
                self.add(FindingCode.DEAL_INCOMPLETE, "the deal has no upcard")
                return False
            if not _is_card(up):
                self.add(FindingCode.BAD_CARD, f"the upcard {up!r} is not a card")
                return False
            if seen >> up & 1:
                self.add(FindingCode.DUPLICATE_CARD, f"the upcard {card_name(up)} is also dealt to a player")
                return False
            seen |= 1 << up
            self.pile.append(up)
        stock = hand.stock
        if stock is not None:
            found = self._distinct(stock, seen, "the stock", "twice in the stock", "in the stock and dealt")
            if found is None:
                return False
            smask = found
            if len(stock) != 31:
                self.add(FindingCode.DEAL_INCOMPLETE,
                         f"the stock shows {len(stock)} cards; after the deal it holds 31")
                self.unseen = FULL_DECK & ~seen
            else:
                self.stock = stock
                self.unseen = FULL_DECK & ~seen & ~smask
        else:
            self.unseen = FULL_DECK & ~seen
        return True

    # -- play ---------------------------------------------------------------------

    def run(self) -> _Hand:
        result = self.result
        if not self.deal():
            return result
        hand, rules, players = self.hand, self.rules, self.players
        name0, name1 = players
        d = players.index(hand.dealer)
        nd = 1 - d
        floor = rules.stock_floor
        same_rule = rules.no_same_card_discard
        repeat_rule = rules.repeat_discard_draw
        cap = rules.max_discard_draws
        void_end = rules.stock_end == "void"
        RITUAL, FORCED, ELEVEN, NORMAL, WALL, KNOCKED, OVER = (
            _RITUAL, _FORCED, _ELEVEN, _NORMAL, _WALL, _KNOCKED, _OVER
        )
        TurnType, PassType, DefenceType = Turn, Pass, Defence
        phase = _FIRST_PHASE[rules.first_turn]
        first_none = rules.first_turn == "none"
        # hot state in locals; self.unseen / self.stock_pos are written back before
        # anything that reads them (where(), take_from_hand(), knock())
        held, unknown, pile = self.held, self.unknown, self.pile
        unseen = self.unseen
        stock = self.stock
        pos = 0
        expected = nd
        passes = 0
        draws = 0  # discard draws counted for max_discard_draws
        repeat = False
        turns = 0
        stock_left = 31
        taken = -1
        end = ""
        knocker = -1
        defence: Defence | None = None
        events = hand.events
        last = len(events) - 1
        add = self.add
        i = -1
        for i, ev in enumerate(events):
            kind = type(ev)
            if kind is TurnType and phase == NORMAL and ev.knock is None:  # type: ignore[union-attr]
                # fast path: an in-turn draw and discard with nothing to report
                who = ev.player
                p = 0 if who == name0 else 1 if who == name1 else -1
                x = ev.discard  # type: ignore[union-attr]
                if p == expected and type(x) is int and 0 <= x < 52:
                    src = ev.source  # type: ignore[union-attr]
                    c = ev.card  # type: ignore[union-attr]
                    bit = 1 << x
                    if src == "stock":
                        if stock_left > floor:
                            if stock is not None:
                                top = stock[pos]
                                if c is None or c == top:
                                    hand_after = held[p] | 1 << top
                                    if hand_after & bit:
                                        held[p] = hand_after ^ bit
                                        pos += 1
                                        draw = True
                                    else:
                                        draw = False
                                else:
                                    draw = False
                            elif type(c) is int and 0 <= c < 52 and unseen >> c & 1:
                                hand_after = held[p] | 1 << c
                                if hand_after & bit:
                                    held[p] = hand_after ^ bit
                                    unseen ^= 1 << c
                                    draw = True
                                else:
                                    draw = False
                            else:
                                draw = False
                            if draw:
                                stock_left -= 1
                                taken = -1
                                turns += 1
                                pile.append(x)
                                repeat = False
                                expected = 1 - p
                                if stock_left <= floor:
                                    if void_end:
                                        phase, end = OVER, "stock"
                                    else:
                                        phase = WALL
                                continue
                    elif src == "discard" and pile and cap is None and x != pile[-1]:
                        top = pile[-1]
                        if c is None or c == top:
                            hand_after = held[p] | 1 << top
                            if hand_after & bit:
                                held[p] = hand_after ^ bit
                                pile[-1] = x
                                taken = top
                                turns += 1
                                repeat = False
                                expected = 1 - p
                                continue
            if phase >= KNOCKED:
                if phase == KNOCKED and kind is DefenceType and defence is None:
                    defence = ev  # type: ignore[assignment]
                    continue
                if end == "illegal":
                    break  # what follows an illegal knock depends on house rules: not checked
                if end == "stock" and void_end:
                    add(FindingCode.STOCK_EXHAUSTED,
                        f"the hand ended when the stock was down to {floor} cards, but play went on",
                        ev.place)
                else:
                    add(FindingCode.MOVES_AFTER_END, "play went on after the end of the hand", ev.place)
                break
            if kind is DefenceType:
                add(FindingCode.DEFENCE_WITHOUT_KNOCK,
                    f"{ev.player} shows a defence, but nobody has knocked", ev.place)
                continue
            who = ev.player
            if who == name0:
                p = 0
            elif who == name1:
                p = 1
            else:
                add(FindingCode.UNKNOWN_PLAYER,
                    f"{who!r} is not one of the players {name0} and {name1}", ev.place)
                return result
            if p != expected:
                add(FindingCode.WRONG_TURN,
                    f"{who} moved out of turn; it was {players[expected]}'s turn", ev.place)
            if kind is PassType:
                if phase == RITUAL:
                    passes += 1
                    if passes >= 2:
                        phase, expected = FORCED, nd
                    else:
                        expected = 1 - p
                elif phase == WALL:
                    phase, end = OVER, "wall"
                elif phase in (FORCED, ELEVEN) or (first_none and not turns):
                    if phase == FORCED:
                        message = f"both players passed the upcard, so {players[nd]} must draw from the stock"
                    elif phase == ELEVEN:
                        message = f"{players[nd]} was dealt 11 cards and must open by discarding"
                    else:
                        message = "these rules have no upcard ritual: the first turn is a normal turn"
                    add(FindingCode.UPCARD_RITUAL, message, ev.place)
                    expected = 1 - p  # a pass, legal or not, hands the turn over
                    if phase == NORMAL:
                        turns += 1
                else:
                    add(FindingCode.ILLEGAL_PASS,
                        f"{who} passed; a pass is allowed only on the first upcard or at the wall",
                        ev.place)
                    expected = 1 - p
                continue
            # -- a Turn
            turns += 1
            src = ev.source  # type: ignore[union-attr]
            c = ev.card  # type: ignore[union-attr]
            counted = True
            if phase != NORMAL:
                if phase == WALL:
                    if src == "discard" and ev.knock is not None:  # type: ignore[union-attr]
                        counted = False
                    elif src == "discard":
                        add(FindingCode.STOCK_EXHAUSTED,
                            f"{who} took the last discard without knocking; at the wall it may be "
                            "taken only to knock, so the hand is a draw", ev.place)
                        phase, end = OVER, "wall"
                        continue
                    elif src == "stock":
                        add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                            f"{who} drew from the stock, which is down to its last {floor} cards; "
                            "the hand is a draw", ev.place)
                        phase, end = OVER, "wall"
                        continue
                elif phase in (RITUAL, FORCED):
                    if src == "stock" and phase == RITUAL:
                        add(FindingCode.UPCARD_RITUAL,
                            f"{who} drew from the stock before both players passed the upcard",
                            ev.place)
                    elif src == "discard" and phase == FORCED:
                        add(FindingCode.UPCARD_RITUAL,
                            f"{who} took the upcard after both players passed it", ev.place)
                    counted = False
                    phase = NORMAL
                elif phase == ELEVEN:
                    if src != "none":
                        add(FindingCode.UPCARD_RITUAL,
                            f"{who} was dealt 11 cards and must open by discarding, not drawing",
                            ev.place)
                        return result
                    phase = NORMAL
                    src = "open"
            # -- the draw
            if src == "stock":
                if stock_left <= floor:
                    add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                        f"{who} drew from the stock, which is down to its last {floor} cards",
                        ev.place)
                    return result
                stock_left -= 1
                taken = -1
                if stock is not None:
                    top = stock[pos]
                    pos += 1
                    if c is None or c == top:
                        held[p] |= 1 << top
                        c = top
                    else:
                        if not _is_card(c):
                            add(FindingCode.BAD_CARD, f"{who} drew {c!r}, which is not a card", ev.place)
                            return result
                        add(FindingCode.STOCK_DRAW_MISMATCH,
                            f"{who} drew {card_name(c)} from the stock, but the next stock card "
                            f"is {card_name(top)}", ev.place)
                        # forget the stock order: its cards (the expected one too) are unseen now
                        for s in stock[pos - 1:]:
                            unseen |= 1 << s
                        stock = self.stock = None
                if stock is None:
                    if c is None:
                        unknown[p] += 1
                    else:
                        if not _is_card(c):
                            add(FindingCode.BAD_CARD, f"{who} drew {c!r}, which is not a card", ev.place)
                            return result
                        bit = 1 << c
                        if unseen & bit:
                            unseen ^= bit
                            held[p] |= bit
                        else:
                            where = self.where(c)
                            add(FindingCode.DUPLICATE_CARD,
                                f"{who} drew {card_name(c)} from the stock, but it is "
                                + (where if where else "already in play"), ev.place)
                            return result
            elif src == "discard":
                if not pile:
                    add(FindingCode.NOT_TOP_DISCARD,
                        f"{who} drew from the discard pile, but it is empty", ev.place)
                    return result
                top = pile[-1]
                if c is None or c == top:
                    pile.pop()
                    c = top
                else:
                    if not _is_card(c):
                        add(FindingCode.BAD_CARD, f"{who} drew {c!r}, which is not a card", ev.place)
                        return result
                    add(FindingCode.NOT_TOP_DISCARD,
                        f"{who} took {card_name(c)} from the discard pile, but the top card is "
                        f"{card_name(top)}", ev.place)
                    if c not in pile:
                        return result
                    pile.remove(c)
                held[p] |= 1 << c
                taken = c
                if counted and cap is not None:
                    draws += 1
                    if draws >= cap:
                        phase, end = OVER, "max_discard_draws"
                        if ev.discard is not None or ev.knock is not None:  # type: ignore[union-attr]
                            add(FindingCode.MOVES_AFTER_END,
                                f"the hand ended as a draw with the {_ordinal(cap)} draw from the "
                                f"discard pile, so {who}'s "
                                + ("knock" if ev.knock is not None else "discard")  # type: ignore[union-attr]
                                + " does not count", ev.place)
                            break
                        continue
            elif src == "open":
                taken = -1
            else:
                add(FindingCode.NO_DRAW, f"{who} took no card at the start of the turn", ev.place)
                return result
            # -- knock or discard
            if ev.knock is not None:  # type: ignore[union-attr]
                self.unseen, self.stock_pos = unseen, pos
                result.stock_left = stock_left
                if not self.knock(p, ev, taken):  # type: ignore[arg-type]
                    return result
                unseen = self.unseen
                knocker = p
                phase = KNOCKED
                if result.outcome == "illegal_knock":
                    end = "illegal"
                continue
            x = ev.discard  # type: ignore[union-attr]
            if x is None:
                if i == last:
                    break
                add(FindingCode.MISSING_DISCARD,
                    f"{who} drew {_card_text(c)} but the record shows no discard", ev.place)
                return result
            if x.__class__ is not int or x < 0 or x > 51:
                add(FindingCode.BAD_CARD, f"{who} discarded {x!r}, which is not a card", ev.place)
                return result
            bit = 1 << x
            if held[p] & bit:
                held[p] ^= bit
            else:
                self.unseen, self.stock_pos = unseen, pos
                if not self.take_from_hand(p, x):
                    self.not_held(p, "discarded", x, ev.place)
                    return result
                unseen = self.unseen
            if x == taken and same_rule:
                add(FindingCode.SAME_CARD_DISCARD,
                    f"{who} discarded {card_name(x)}, the card just taken from the discard pile",
                    ev.place)
            pile.append(x)
            if repeat_rule:
                if x == taken:
                    if repeat:
                        phase, end = OVER, "repeat_discard_draw"
                        continue
                    repeat = True
                else:
                    repeat = False
            expected = 1 - p
            if stock_left <= floor:
                if void_end:
                    phase, end = OVER, "stock"
                else:
                    phase = WALL
        self.unseen, self.stock_pos = unseen, pos
        result.stock_left = stock_left
        if phase == OVER:
            result.outcome, result.end = "void", end
            return result
        if phase == KNOCKED:
            if end != "illegal":
                self.defend(knocker, defence)
            return result
        # the record stops before the hand ended
        claimed = hand.result
        place = events[i].place if i >= 0 else hand.place
        if claimed is not None and claimed.outcome == "void":
            add(FindingCode.VOID_UNVERIFIED,
                f"the record stops with {stock_left} cards in the stock, so the void hand cannot "
                "be checked", place)
            result.outcome, result.end = "void", "unverified"
        else:
            add(FindingCode.INCOMPLETE_HAND,
                "the record stops before the hand ended"
                + ("" if i < 0 else f" ({stock_left} cards left in the stock)"), place)
            result.end = "incomplete"
        return result

    # -- the knock ------------------------------------------------------------------

    def knock(self, p: int, turn: Turn, taken: int) -> bool:
        """Check a knock; False when the hand cannot be followed further."""
        k = turn.knock
        assert k is not None
        rules, system, result = self.rules, self.system, self.result
        who = self.players[p]
        place = k.place if k.place.line or k.place.pointer else turn.place
        discard = k.discard if k.discard is not None else turn.discard
        if discard is not None:
            if not _is_card(discard):
                self.add(FindingCode.BAD_CARD, f"{who} discarded {discard!r}, which is not a card", place)
                return False
            if not self.take_from_hand(p, discard):
                self.not_held(p, "discarded", discard, place)
                return False
            if discard == taken and rules.no_same_card_discard:
                self.add(FindingCode.SAME_CARD_DISCARD,
                         f"{who} discarded {card_name(discard)} face down, the card just taken "
                         "from the discard pile", place)
        melded = 0
        valid: list[Mask] = []
        index: list[int] = []
        for m in k.melds:
            if type(m) is not int or m <= 0 or m >> 52:
                self.add(FindingCode.INVALID_MELD, f"{who} declared a meld that is not a set of cards", place)
                index.append(-1)
                continue
            missing = self.reveal(p, m)
            if missing:
                c = next(scan(missing))
                self.not_held(p, "melded", c, place)
                return False
            if m & melded:
                self.add(FindingCode.INVALID_MELD,
                         f"{who} used {_names(m & melded)} in two melds", place)
                index.append(-1)
                continue
            if not _is_meld(m, system):
                self.add(FindingCode.INVALID_MELD,
                         f"{who} declared [{_names(m)}], which is not a meld", place)
                index.append(-1)
                continue
            index.append(len(valid))
            valid.append(m)
            melded |= m
        result.knocker = who
        result.knocker_melds = tuple(valid)
        if self.unknown[p]:
            self.add(FindingCode.CARDS_UNKNOWN,
                     f"{who} knocked holding {self.unknown[p]} card(s) the record never shows, "
                     "so the knock cannot be checked", place)
            return False
        kept = self.held[p]
        dead = kept & ~melded
        points = system.tables.rank_points
        dw = 0
        for c in scan(dead):
            dw += points[c % 13]
        size = _count(kept)
        result.knocker_deadwood = dw
        ending: Ending
        if discard is None:
            if size == 11 and dw == 0:
                if rules.big_gin_bonus is None:
                    self.add(FindingCode.BIG_GIN_NOT_RECOGNISED,
                             f"{who} melded all 11 cards without discarding, but these rules have "
                             "no big gin; ruled as gin", place)
                    ending = "gin"
                else:
                    ending = "big_gin"
            else:
                self.add(FindingCode.MISSING_DISCARD,
                         f"{who} knocked without a face-down discard; only big gin keeps all "
                         "11 cards", place)
                result.outcome, result.end = "illegal_knock", "knock"
                return True
        else:
            ending = "gin" if dw == 0 else "knock"
            if k.ending == "big_gin":
                self.add(FindingCode.DEADWOOD_MISDECLARED,
                         f"{who} declared big gin but discarded {card_name(discard)}; "
                         + ("that is gin" if dw == 0 else f"the hand shows {dw} deadwood"), place)
            elif k.ending == "gin" and dw:
                self.add(FindingCode.DEADWOOD_MISDECLARED,
                         f"{who} declared gin but has {dw} deadwood ({_names(dead)})", place)
            elif k.ending == "knock" and not dw:
                self.add(FindingCode.KNOCK_IS_GIN,
                         f"{who} knocked with no deadwood: that is gin, and is scored as gin", place)
        if k.deadwood is not None and k.deadwood != dw:
            self.add(FindingCode.DEADWOOD_MISDECLARED,
                     f"{who} announced {k.deadwood} deadwood, but the cards show {dw}"
                     + (f" ({_names(dead)})" if dead else ""), place)
        limit = result.knock_limit
        if ending == "knock":
            if dw > limit:
                what = "only gin ends a hand" if limit == 0 else f"the knock limit is {limit}"
                self.add(FindingCode.KNOCK_OVER_LIMIT,
                         f"{who} knocked with {dw} deadwood ({_names(dead)}), but {what}", place)
                result.outcome, result.end = "illegal_knock", "knock"
                return True
            least = min_deadwood(kept, system)
            if least < dw:
                if rules.knocker_must_meld_max:
                    self.add(FindingCode.KNOCK_NOT_MAX,
                             f"{who} declared {dw} deadwood but could meld down to {least}; "
                             "these rules require melding as far as possible", place)
                    result.outcome, result.end = "illegal_knock", "knock"
                    return True
                self.add(FindingCode.KNOCK_NOT_BEST,
                         f"{who} declared {dw} deadwood, but the same cards can be arranged "
                         f"with {least}", place)
        self.ending = ending
        self.knock_place = place
        self.melds = tuple(valid)
        self.declared_index = tuple(index)
        self.knocker_dw = dw
        return True

    # -- the defence ----------------------------------------------------------------

    def defend(self, p: int, event: Defence | None) -> None:
        """Rule on the defence (declared, else the best response) and settle the hand."""
        rules, result, players = self.rules, self.result, self.players
        q = 1 - p
        defender = players[q]
        ending = self.ending
        allow = (
            ending == "knock"
            or (ending == "gin" and rules.layoff_on_gin)
            or (ending == "big_gin" and rules.layoff_on_big_gin)
        )
        knocker_melds = tuple(Meld(m) for m in self.melds)
        if event is not None and event.player != defender:
            if event.player in players:
                self.add(FindingCode.WRONG_TURN,
                         f"{event.player} shows a defence, but {defender} is the defender", event.place)
            else:
                self.add(FindingCode.UNKNOWN_PLAYER,
                         f"{event.player!r} is not one of the players {players[0]} and {players[1]}",
                         event.place)
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
            dw, choice = _least_defence(self.held[q], self.melds, rules, self.system, allow)
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
            declared = self.declared_defence(q, event, knocker_melds, allow)
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
        if settlement.winner == "knocker":
            result.winner = players[p]
        elif settlement.winner == "defender":
            result.winner = defender

    def declared_defence(
        self, q: int, event: Defence, knocker_melds: tuple[Meld, ...], allow: bool
    ) -> tuple[int, tuple[Mask, ...], tuple[Layoff, ...]] | None:
        rules, system = self.rules, self.system
        defender = self.players[q]
        place = event.place
        own: list[Meld] = []
        melded = 0
        for m in event.melds:
            if type(m) is not int or m <= 0 or m >> 52:
                self.add(FindingCode.INVALID_MELD, f"{defender} declared a meld that is not a set of cards",
                         place)
                continue
            missing = self.reveal(q, m)
            if missing:
                self.not_held(q, "melded", next(scan(missing)), place)
                continue
            if m & melded:
                self.add(FindingCode.INVALID_MELD,
                         f"{defender} used {_names(m & melded)} in two melds", place)
                continue
            if not _is_meld(m, system):
                self.add(FindingCode.INVALID_MELD,
                         f"{defender} declared [{_names(m)}], which is not a meld", place)
                continue
            own.append(Meld(m))
            melded |= m
        laid: list[tuple[Card, int]] = []
        laid_mask = 0
        on_gin: list[Card] = []
        index = self.declared_index
        for item in event.layoffs:
            c, at = item
            if not _is_card(c):
                self.add(FindingCode.BAD_CARD, f"{defender} laid off {c!r}, which is not a card", place)
                continue
            bit = 1 << c
            if not allow:
                on_gin.append(c)
                continue
            if self.reveal(q, bit):
                self.not_held(q, "laid off", c, place)
                continue
            if bit & melded:
                self.add(FindingCode.ILLEGAL_LAYOFF,
                         f"{defender} laid off {card_name(c)}, which is also in one of "
                         f"{defender}'s own melds", place)
                continue
            if bit & laid_mask:
                self.add(FindingCode.ILLEGAL_LAYOFF,
                         f"{defender} laid off {card_name(c)} twice", place)
                continue
            if type(at) is not int or not 0 <= at < len(index):
                self.add(FindingCode.ILLEGAL_LAYOFF,
                         f"{defender} laid off {card_name(c)} onto meld {at!r}, which "
                         "the knocker did not declare", place)
                continue
            target = index[at]
            if target < 0:
                self.add(FindingCode.ILLEGAL_LAYOFF,
                         f"{defender} laid off {card_name(c)} onto meld {at + 1}, which is not a meld",
                         place)
                continue
            meld = knocker_melds[target]
            if (
                not rules.layoff_chaining
                and meld.kind is MeldKind.RUN
                and meld_kind(meld.mask | bit, system) is not MeldKind.RUN
            ):
                self.add(FindingCode.ILLEGAL_LAYOFF,
                         f"{defender} laid off {card_name(c)} onto {meld}, which it does not touch; "
                         "these rules allow no chained layoffs", place)
                continue
            laid.append((c, target))
            laid_mask |= bit
        if on_gin:
            what = "big gin" if self.ending == "big_gin" else "gin"
            self.add(FindingCode.LAYOFF_ON_GIN,
                     f"{defender} laid off {' '.join(card_name(c) for c in on_gin)} onto {what}, "
                     "which these rules do not allow", place)
            for c in on_gin:
                if self.reveal(q, 1 << c):
                    self.not_held(q, "laid off", c, place)
        if self.unknown[q]:
            self.add(FindingCode.CARDS_UNKNOWN,
                     f"{defender} holds {self.unknown[q]} card(s) the record never shows, so the "
                     "defence cannot be checked", place)
            return None
        hand = self.held[q]
        declared, problems = defence_as_declared(
            hand, own, laid, knocker_melds, system, chaining=rules.layoff_chaining
        )
        for problem in problems:
            self.add(FindingCode.ILLEGAL_LAYOFF, f"{defender} cannot lay off: {problem}", place)
        dw = declared.deadwood_points
        if event.deadwood is not None and event.deadwood != dw:
            dead = declared.arrangement.deadwood
            self.add(FindingCode.DEADWOOD_MISDECLARED,
                     f"{defender} announced {event.deadwood} deadwood, but the cards show {dw}"
                     + (f" ({_names(dead)})" if dead else ""), place)
        if _least_defence(hand, self.melds, rules, system, allow)[0] < dw:
            best = best_defence(hand, knocker_melds, rules, allow_layoffs=allow)
            how = []
            if best.layoffs:
                how.append("laying off " + ", ".join(str(lay) for lay in best.layoffs))
            if best.arrangement.melds:
                how.append("melding " + " ".join(str(m) for m in best.arrangement.melds))
            self.add(FindingCode.MISSED_LAYOFF,
                     f"{defender} left {dw} deadwood but could have left {best.deadwood_points}"
                     + (f" by {' and '.join(how)}" if how else ""), place)
        return dw, tuple(m.mask for m in own), declared.layoffs


def _layoff_options(meld: Mask, available: Mask, system: MeldSystem, chaining: bool) -> list[Mask]:
    """What ``available`` can lay off onto ``meld`` at once: ``layoffs.extensions``, with
    a closed form for ace-low runs (cards touching either end, in unbroken chains)."""
    if system is not STANDARD_SYSTEM:
        return extensions(Meld(meld), available, system, chaining=chaining)
    low = (meld & -meld).bit_length() - 1
    rank = low % 13
    if meld & ~(RANK_STRIDE << rank) == 0:  # a set
        fourth = available & (RANK_STRIDE << rank) & ~meld
        return [0, fourth] if fourth else [0]
    base = low - rank
    downs = [0]
    bit, acc = low - 1, 0
    while bit >= base and available >> bit & 1:
        acc |= 1 << bit
        downs.append(acc)
        if not chaining:
            break
        bit -= 1
    ups = [0]
    bit, acc = meld.bit_length(), 0
    while bit < base + 13 and available >> bit & 1:
        acc |= 1 << bit
        ups.append(acc)
        if not chaining:
            break
        bit += 1
    if len(ups) == 1:
        return downs
    return [down | up for down in downs for up in ups]


def _best_layoffs(
    defender: Mask, melds: Sequence[Mask], rules: Rules, system: MeldSystem
) -> tuple[int, tuple[Mask, ...]]:
    """The defender's least deadwood with layoffs (joint mode) and the cards laid per meld.

    The same search as ``layoffs.best_defence``: every disjoint choice of one
    extension per knocker meld, least deadwood first, then fewest cards laid off;
    the arrangement itself is left for later (the referee needs the number).
    """
    chaining = rules.layoff_chaining
    options = [_layoff_options(m, defender, system, chaining) for m in melds]
    best = (min_deadwood(defender, system), 0)
    best_choice: tuple[Mask, ...] = (0,) * len(melds)
    if all(len(o) == 1 for o in options):
        return best[0], best_choice
    n = len(options)
    chosen = [0] * n

    def walk(at: int, laid: Mask) -> None:
        nonlocal best, best_choice
        if at == n:
            if laid:
                key = (min_deadwood(defender & ~laid, system), bin(laid).count("1"))
                if key < best:
                    best, best_choice = key, tuple(chosen)
            return
        for extra in options[at]:
            if not extra & laid:
                chosen[at] = extra
                walk(at + 1, laid | extra)
        chosen[at] = 0

    walk(0, 0)
    return best[0], best_choice


def _least_defence(
    defender: Mask, melds: Sequence[Mask], rules: Rules, system: MeldSystem, allow: bool
) -> tuple[int, tuple[Mask, ...]]:
    """``best_defence(...).deadwood_points`` and the cards laid off per knocker meld."""
    if not allow or not melds:
        return min_deadwood(defender, system), (0,) * len(melds)
    if rules.defender_layoff_mode != "joint":
        best = best_defence(defender, [Meld(m) for m in melds], rules, allow_layoffs=allow)
        laid = [0] * len(melds)
        for lay in best.layoffs:
            laid[melds.index(lay.onto.mask)] |= 1 << lay.card
        return best.deadwood_points, tuple(laid)
    return _best_layoffs(defender, melds, rules, system)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- the game ---------------------------------------------------------------------------


def _next_dealer(
    rules: Rules, players: tuple[str, str], dealer: str | None, winner: str | None
) -> str | None:
    """Who deals after a hand dealt by ``dealer`` and won by ``winner`` (None: nobody)."""
    if dealer is None:
        return winner if winner is not None and rules.next_dealer == "winner" else None
    other = players[1] if dealer == players[0] else players[0]
    if winner is None:
        return dealer if rules.void_hand_dealer == "same" else other
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return players[1] if winner == players[0] else players[0]
    return other


def _entry(hand: HandRecord, ruled: _Hand, players: tuple[str, str]) -> game.HandEntry:
    """The game-tally entry of a hand: the ruling, or the record's claim when unresolved."""
    if ruled.outcome != "unresolved":
        return game.HandEntry(ruled.winner, ruled.points, ruled.outcome, ruled.knocker, ruled.multiplier)
    claim = hand.result
    if claim is not None and claim.outcome in game.HAND_OUTCOMES and claim.points >= 0:
        if claim.winner is None and claim.outcome in ("tie", "void", "illegal_knock") and not claim.points:
            return game.HandEntry(None, 0, claim.outcome)
        if claim.winner in players and claim.outcome not in ("tie", "void"):
            return game.HandEntry(claim.winner, claim.points, claim.outcome)
    return game.HandEntry(None, 0, "void")


def _describe(outcome: str, winner: str | None, points: int) -> str:
    if winner is None:
        return {"void": "a void hand", "tie": "a tie with no score",
                "illegal_knock": "an illegal knock with no score"}.get(outcome, outcome)
    return f"{winner} wins by {outcome.replace('_', ' ')}, {points} points"


def _totals_text(totals: dict[str, int]) -> str:
    return ", ".join(f"{name} {points}" for name, points in totals.items())


_Tally = tuple[int, list[dict[str, int]], dict[str, int], dict[str, int], bool, "str | None"]


def _tally(
    players: tuple[str, str], entries: list[game.HandEntry], rules: Rules, first_dealer: str | None
) -> _Tally:
    """Score the game: hands played before its end, running totals after each, hand and
    final totals, whether it is over and who won.

    :func:`ginref.game.tally` (or :func:`ginref.game.hollywood`) does the scoring; the
    common case of a game still on (or one hand) under end-of-game boxes is summed
    here directly, which is all the tally would do there.
    """
    if rules.hollywood_columns == 0 or rules.single_hand:
        if rules.box_timing == "end" or rules.single_hand:
            running = dict.fromkeys(players, 0)
            after: list[dict[str, int]] = []
            target, single = rules.game_target, rules.single_hand
            over = False
            ender: str | None = None
            for entry in entries:
                if over:
                    break
                won = entry.winner
                if won is not None:
                    running[won] += entry.points
                after.append(dict(running))
                if single or (won is not None and running[won] >= target):
                    over, ender = True, won
            if not over:
                return len(after), after, running, dict(running), False, None
            if single:
                return len(after), after, running, dict(running), True, ender
        played = len(entries)
        while True:
            try:
                scored = game.tally(players, entries[:played], rules, first_dealer)
            except game.GameOverError as exc:
                played = exc.hand - 1
                continue
            return (
                played, [dict(h.totals) for h in scored.hands], dict(scored.hand_totals),
                dict(scored.final_totals), scored.game_over, scored.winner,
            )
    played = len(entries)
    while True:
        try:
            match = game.hollywood(players, entries[:played], rules, first_dealer)
        except game.GameOverError as exc:
            played = exc.hand - 1
            continue
        running = dict.fromkeys(players, 0)
        after = []
        for entry in entries[:played]:
            if entry.winner is not None:
                running[entry.winner] += entry.points
            after.append(dict(running))
        return played, after, running, dict(match.match_totals), match.match_over, match.winner


def adjudicate(record: GameRecord, rules: Rules | None = None) -> Verdict:
    """Replay ``record`` under ``rules`` (default: the rules the record names) and rule on it."""
    findings: list[Finding] = []
    if rules is None:
        try:
            rules, system, problems = _record_rules(record.rules, record.overrides)
        except TypeError:  # unhashable overrides (lists from JSON): normalise and retry
            rules, system, problems = _record_rules(
                str(record.rules), tuple((str(k), str(v)) for k, v in record.overrides)
            )
        for problem in problems:
            findings.append(_finding(FindingCode.UNKNOWN_RULES, problem, record.place, -1))
    else:
        system = MeldSystem.from_rules(rules)
    players = record.players
    if (
        len(players) != 2
        or players[0] == players[1]
        or not all(isinstance(name, str) and name for name in players)
    ):
        findings.append(_finding(FindingCode.UNKNOWN_PLAYER,
                                 f"a record needs two different players, got {tuple(players)!r}",
                                 record.place, -1))
        return Verdict(tuple(findings), (), rules.label, players, source=record.source, index=record.index)
    per_hand: list[list[Finding]] = []
    ruled: list[_Hand] = []
    for index, hand in enumerate(record.hands):
        hand_findings: list[Finding] = []
        ruled.append(_Replay(hand, index, players, rules, system, hand_findings).run())
        per_hand.append(hand_findings)

    hands = record.hands
    entries = [_entry(h, r, players) for h, r in zip(hands, ruled, strict=True)]
    first_dealer = hands[0].dealer if hands and hands[0].dealer in players else None
    played, tally_totals, hand_totals, final_totals, game_over, winner = _tally(
        players, entries, rules, first_dealer
    )
    for index in range(played):
        findings.extend(per_hand[index])
    if played < len(hands):
        extra = hands[played]
        findings.append(_finding(
            FindingCode.MOVES_AFTER_END,
            f"hand {played + 1} is played after the end of the game", extra.place, played,
        ))

    verdicts: list[HandVerdict] = []
    for index in range(played):
        hand, r = hands[index], ruled[index]
        entry = entries[index]
        next_dealer = _next_dealer(rules, players, r.dealer, entry.winner)
        totals = tally_totals[index] if index < len(tally_totals) else None
        verdicts.append(HandVerdict(
            index=index, number=hand.number, dealer=r.dealer, outcome=r.outcome, end=r.end,
            winner=r.winner, points=r.points, knocker=r.knocker,
            knocker_deadwood=r.knocker_deadwood, defender_deadwood=r.defender_deadwood,
            knocker_melds=r.knocker_melds, defender_spread=r.defender_spread,
            defender_cards=r.defender_cards, layoffs=r.layoffs,
            defence_recorded=r.defence_recorded, multiplier=r.multiplier,
            knock_limit=r.knock_limit,
            totals_after=tuple(totals.items()) if totals is not None else None,
            next_dealer=next_dealer, stock_left=r.stock_left, system=system,
        ))
        _check_claims(findings, hand, index, r, totals, next_dealer, players)
        if index + 1 < played and next_dealer is not None:
            following = hands[index + 1]
            if following.dealer in players and following.dealer != next_dealer:
                findings.append(_finding(
                    FindingCode.WRONG_DEALER,
                    f"{following.dealer} deals hand {index + 2}, but the rules say {next_dealer} deals",
                    following.place, index + 1,
                ))

    if record.final_totals is not None:
        claimed = dict(record.final_totals)
        if claimed != final_totals:
            findings.append(_finding(
                FindingCode.WRONG_SCORE,
                f"the record's final totals are {_totals_text(claimed)}; they come to "
                f"{_totals_text(final_totals)}" + ("" if game_over else " (the game is not over)"),
                record.place, -1,
            ))
    return Verdict(
        findings=tuple(findings),
        hands=tuple(verdicts),
        rules=rules.label,
        players=players,
        hand_totals=tuple(hand_totals.items()),
        final_totals=tuple(final_totals.items()),
        winner=winner,
        game_over=game_over,
        source=record.source,
        index=record.index,
    )


def _check_claims(
    findings: list[Finding], hand: HandRecord, index: int, ruled: _Hand,
    totals: dict[str, int] | None, next_dealer: str | None, players: tuple[str, str],
) -> None:
    claim = hand.result
    resolved = ruled.outcome != "unresolved"
    if claim is not None and resolved:
        if claim.outcome != ruled.outcome or claim.winner != ruled.winner:
            findings.append(_finding(
                FindingCode.WRONG_RESULT,
                f"the record says {_describe(claim.outcome, claim.winner, claim.points)}; "
                f"the ruling is {_describe(ruled.outcome, ruled.winner, ruled.points)}",
                claim.place if claim.place.line or claim.place.pointer else hand.place, index,
            ))
        elif claim.points != ruled.points:
            findings.append(_finding(
                FindingCode.WRONG_SCORE,
                f"the record gives {claim.points} points; the hand is worth {ruled.points}",
                claim.place if claim.place.line or claim.place.pointer else hand.place, index,
            ))
    if hand.score_after is not None and totals is not None:
        claimed = dict(hand.score_after)
        if claimed != totals:
            findings.append(_finding(
                FindingCode.WRONG_SCORE,
                f"the record's totals after hand {index + 1} are {_totals_text(claimed)}; "
                f"they come to {_totals_text(totals)}",
                hand.place, index,
            ))
    if hand.next_dealer is not None and next_dealer is not None and hand.next_dealer != next_dealer:
        findings.append(_finding(
            FindingCode.WRONG_DEALER,
            f"the record says {hand.next_dealer} deals next; the rules say {next_dealer}",
            hand.place, index,
        ))
