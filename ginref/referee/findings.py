"""Findings: what a record gets wrong (errors) or a player may want to know (advisories).

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
deadwood_misdeclared     error     announced deadwood, the declared ending (gin, big gin) or a turn's
                                   reported least deadwood (``least_deadwood``, EAAI's hand lines)
                                   differs from the cards shown
big_gin_not_recognised   error     a big gin (11 cards, no discard) where the rules have none;
                                   ruled as gin
illegal_layoff           error     a layoff that does not fit the meld as it stands (or onto a
                                   meld that was not declared); the card stays deadwood
layoff_on_gin            error     a layoff where the rules forbid any onto this hand: gin, big
                                   gin, or (RLCard) a knock
wrong_result             error     the claimed outcome or winner differs from the ruling
wrong_score              error     claimed points, running totals or final totals differ, or the
                                   payoffs of an RLCard hand (its ``Payoffs`` tag) are not RLCard's
wrong_dealer             error     the claimed next dealer, or the next hand's dealer, is not the
                                   one the rules name
missed_layoff            advisory  the defender's declared defence leaves more deadwood than its
                                   best response (the declared one is scored)
first_fit_layoff         advisory  the recorded layoffs leave more deadwood than the best layoffs
                                   with the defender's own melds as declared: a card went onto the
                                   first meld it fits (as the EAAI engine lays off for the defender)
knock_not_best           advisory  the knocker declared more deadwood than the least its 10 cards
                                   allow (withholding a meld is allowed; the declaration stands)
knock_is_gin             advisory  a "knock" showing no deadwood: it is gin and scored as gin
cards_unknown            advisory  unseen cards (e.g. unrecorded stock draws) are still in a
                                   hand at the end, so the result cannot be checked
void_unverified          advisory  the record stops before the stock floor but claims a void hand
=======================  ========  ==============================================================

A finding at a player's move names that player (:attr:`Finding.player`), but for the codes
of :data:`RECORD_CODES`, which are about what the record shows or claims, not a move.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Literal, NamedTuple, Protocol

import msgspec

from ginref.records.model import Place

__all__ = ["ADVISORY_CODES", "RECORD_CODES", "SCORE_CODES", "Finding", "FindingCode", "FindingRow",
           "Severity", "finding", "finding_rows"]

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
    FIRST_FIT_LAYOFF = "first_fit_layoff"
    KNOCK_NOT_BEST = "knock_not_best"
    KNOCK_IS_GIN = "knock_is_gin"
    CARDS_UNKNOWN = "cards_unknown"
    VOID_UNVERIFIED = "void_unverified"

    def __str__(self) -> str:
        return self.value


ADVISORY_CODES: frozenset[str] = frozenset({
    "missed_layoff", "first_fit_layoff", "knock_not_best", "knock_is_gin", "cards_unknown", "void_unverified",
})
"""Codes of severity ``advisory``; every other code is an ``error``."""

RECORD_CODES: frozenset[str] = frozenset({
    "unknown_rules", "deal_incomplete", "incomplete_hand", "wrong_result", "wrong_score", "wrong_dealer",
    "cards_unknown", "void_unverified",
})
"""Codes about the record itself (its rules, its deal, what it leaves out or claims), never
about a player's move, even where they stand at one: their findings name no player."""

SCORE_CODES: frozenset[str] = frozenset({
    "deadwood_misdeclared", "knock_over_limit", "wrong_result", "wrong_score",
})
"""Codes that say the rules do not give back a point the record claims: the deadwood announced,
a knock the limit does not allow, the outcome and winner, the hand points, the running or final
totals. A rule set explains a record's scores when ruling it finds none of them
(``ginref rules --fit``)."""


class Finding(msgspec.Struct, frozen=True):
    """One thing a record gets wrong (``error``) or a player may want to know (``advisory``).

    ``hand`` is the 0-based index of the hand in the record, -1 for the record as
    a whole (unknown rules, final totals). ``player`` is whoever made the move the finding
    stands at (a turn, its knock, a pass, a defence), None for the deal, the claims and
    the record as a whole; left out of the JSON form, which names the place instead.
    ``points`` are the deadwood points an advisory says the player gave away (declared or
    left over the least the cards allowed: ``knock_not_best``, ``missed_layoff``), as data
    for ``ginref report``; 0 for any other finding, and not in the JSON form either.
    ``knobs`` name the rule knobs that decided the finding (``("layoff_chain_limit",)``),
    set where the finding is made; empty for a rule of every game (and then left out of the
    JSON form). :class:`IllegalMove` cites the first as its ``rule``.
    """

    code: str
    severity: Severity
    message: str
    place: Place
    hand: int
    player: str | None = None
    points: int = 0
    knobs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """The JSON form; ``knobs`` only where rule knobs decided the finding."""
        form: dict[str, object] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "place": self.place.to_dict(),
            "hand": self.hand,
        }
        if self.knobs:
            form["knobs"] = list(self.knobs)
        return form

    def __str__(self) -> str:
        where = str(self.place)
        return f"{where + ': ' if where else ''}{self.severity} {self.code}: {self.message}"


def severity_of(code: str) -> Severity:
    return "advisory" if code in ADVISORY_CODES else "error"


def finding(
    code: FindingCode, message: str, place: Place, hand: int, player: str | None = None, points: int = 0,
    knobs: tuple[str, ...] = (),
) -> Finding:
    """A finding; ``player`` made the move it stands at (dropped for :data:`RECORD_CODES`);
    ``knobs``: the rule knobs that decided it."""
    value = code.value
    mover = None if value in RECORD_CODES else player
    return Finding(value, severity_of(value), message, place, hand, mover, points, knobs)


class FindingRow(NamedTuple):
    """One finding of a record, or why it is unreadable (``code`` ``unreadable``): where it
    stands (a line and column, or a JSON pointer into the record) and what it says."""

    line: int
    column: int
    pointer: str
    severity: str
    code: str
    message: str


class _WithFindings(Protocol):
    @property
    def findings(self) -> Sequence[Finding]: ...


def finding_rows(ruled: _WithFindings) -> tuple[FindingRow, ...]:
    """The findings of a verdict (or of anything that holds findings) as rows."""
    return tuple(
        FindingRow(f.place.line, f.place.column, f.place.pointer, f.severity, f.code, f.message)
        for f in ruled.findings
    )
