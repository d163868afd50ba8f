"""RLCard's gin rummy move sheets (``game.round.move_sheet``, each move's ``str()``) as records.

RLCard (and PettingZoo's ``gin_rummy`` environment on it) keeps a hand as a list of moves::

    S deal shuffled_deck=[2H 6H KD ... JH]
    N discard QD
    S draw_card 3H
    N pick_up_discard JC
    S knock 4S
    N gin
    S declare_dead_hand
    N score N 38 [['2C', '3C', '4C'], ...]
    S score S 12 [...]

The deal is rebuilt as RLCard deals it: the stock is the shuffled deck dealt from its end,
eleven cards to the non-dealer, then ten to the dealer; what is left is the stock, its top
card last. There is no upcard: the non-dealer opens by discarding. What the sheet leaves
implicit is read from what it does say: the card a gin goes out with (the one card of the
eleven outside the gin's melds on its score line) and the knock card (named, never put on
the pile). The score lines give each side's melds and deadwood (no layoffs in RLCard).

RLCard's payoffs (the environment's rewards: 0.2 for a knock, 1 for gin, minus deadwood/100
for the other player, and for both in a dead hand) are not points. A sheet may end with its
payoffs as people print them: ``payoffs=[0.2, -0.38]`` (the form ``tools/rlcard_games.py``
writes), ``payoffs [0.2, -0.38]`` (``print("payoffs", payoffs)`` of a list) or numpy's
``payoffs [-0.38  0.2 ]`` (of ``env.run``'s array), N's first. They are a claim, kept as the
``Payoffs`` tag and compared by the referee (:func:`rewards`), never checked here: a wrong
payoff is a finding, not an unreadable sheet. ``#`` comment lines and blank lines may stand
anywhere around and between sheets. Points are scored under the ``rlcard`` rules.
Seats are ``N`` and ``S``, as the sheet names them; one hand is one record.
"""

from __future__ import annotations

import math
import re
from typing import Literal

from ginref.cards import Card, Mask, mask_of
from ginref.errors import RecordError
from ginref.melds import STANDARD_SYSTEM, MeldSystem, min_deadwood
from ginref.notation import read_card_list, read_listed_card, read_meld_lists
from ginref.records.form import Format, Unit, is_comment
from ginref.records.model import (
    ClaimedResult,
    Defence,
    Ending,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Turn,
)

__all__ = ["FORMAT", "PAYOFFS_TAG", "PLAYERS", "claimed_payoffs", "dealt_from", "decode_sheet",
           "looks_like_sheet", "rewards", "sheet_boundary"]

PLAYERS = ("N", "S")
_CARD = r"[A2-9TJQK][CHSD]"
_DEAL_RE = re.compile(r"\s*([NS]) deal shuffled_deck=\[((?:[A2-9TJQK][CHSD] ?){0,60})\]\s*")
_MOVE_RE = re.compile(rf"([NS]) (discard|draw_card|pick_up_discard|knock) ({_CARD})")
_SCORE_RE = re.compile(r"([NS]) score ([NS]) ([0-9]{1,3}) (\[.*\])")
_NUMBER = r"[-+]?(?:[0-9]{1,12}\.?[0-9]{0,17}|\.[0-9]{1,17})(?:[eE][-+]?[0-9]{1,3})?"
_PAYOFFS_RE = re.compile(rf"payoffs(?:\s*[=:]\s*|\s+)\[\s*({_NUMBER})\s*(?:,\s*|\s+)({_NUMBER})\s*,?\s*\]")
"""``payoffs=[0.2, -0.38]``, ``payoffs [0.2, -0.38]``, numpy's ``payoffs [-0.38  0.2 ]``"""
_PAYOFFS_START_RE = re.compile(r"\s*payoffs\b")
PAYOFFS_TAG = "Payoffs"
"""the tag that keeps a sheet's payoffs, N's then S's, as written: the claim the referee compares"""


def looks_like_sheet(line: str) -> bool:
    """Whether a sheet's first line is RLCard's deal move."""
    return _DEAL_RE.match(line) is not None


def sheet_boundary(line: str) -> Literal["start", "end"] | None:
    """``start`` for the deal that opens each hand, ``end`` for the payoffs that close one (so
    that a hand whose deal line is spoilt is a record of its own, not part of the one before)."""
    if looks_like_sheet(line):
        return "start"
    return "end" if _PAYOFFS_START_RE.match(line) else None


def dealt_from(deck: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The non-dealer's eleven, the dealer's ten and the stock (top first), as RLCard deals a
    shuffled deck: every card is popped from the end of the list."""
    popped = deck[::-1]
    return popped[:11], popped[11:21], popped[21:]


class _Sheet:
    def __init__(self, source: str, index: int) -> None:
        self.source, self.index, self.line = source, index, 0
        self.events: list[Event] = []
        self.held: dict[str, Mask] = {}
        self.pending: tuple[str, Literal["stock", "discard", "none"], Card | None, Place] | None = None
        self.going_out: tuple[str, str, Card | None, Place] | None = None
        self.scores: dict[str, tuple[int, tuple[Mask, ...], Place]] = {}
        self.payoffs: tuple[str, str] | None = None

    def fail(self, message: str, column: int = 1) -> RecordError:
        return RecordError(message, self.source, self.line, column)

    def move(self, who: str, verb: str, c: Card, place: Place) -> None:
        if self.going_out is not None:
            raise self.fail("a move after the hand went out")
        if verb in ("draw_card", "pick_up_discard"):
            if self.pending is not None:
                raise self.fail(f"{who} draws twice")
            self.pending = (who, "stock" if verb == "draw_card" else "discard", c, place)
            self.held[who] |= 1 << c
            return
        self.held[who] &= ~(1 << c)
        if verb == "knock":
            self.going_out = (who, "knock", c, place)
            return
        if self.pending is None:
            self.events.append(Turn(who, "none", None, c, place=place))
        else:
            drawer, source, drawn, at = self.pending
            if drawer != who:
                raise self.fail(f"{who} discards on {drawer}'s turn")
            self.events.append(Turn(who, source, drawn, c, place=at))
            self.pending = None

    def read(self, text: str) -> None:
        m = _MOVE_RE.fullmatch(text)
        if m is not None:
            c = read_listed_card(m[3], self.source, self.line, m.start(3) + 1)
            self.move(m[1], m[2], c, Place(self.line, 1))
            return
        words = text.split(" ")
        if len(words) == 2 and words[0] in PLAYERS and words[1] in ("gin", "declare_dead_hand"):
            if self.going_out is not None:
                raise self.fail("a move after the hand went out")
            self.going_out = (words[0], words[1], None, Place(self.line, 1))
            return
        m = _SCORE_RE.fullmatch(text)
        if m is not None and m[1] == m[2]:
            if self.going_out is None or m[1] in self.scores:
                raise self.fail("a score line before the hand went out, or twice")
            melds = read_meld_lists(m[4], self.source, self.line, m.start(4) + 1)
            self.scores[m[1]] = (int(m[3]), melds, Place(self.line, 1))
            return
        m = _PAYOFFS_RE.fullmatch(text)
        if m is not None and self.payoffs is None and (len(self.scores) == 2 or self.dead()):
            self.payoffs = (m[1], m[2])
            return
        raise self.fail(f"not a line of an RLCard move sheet: {text[:60]!r}")

    def ending(self) -> tuple[list[Event], ClaimedResult | None]:
        """The events with the going out and the defence, and what the sheet claims."""
        events = list(self.events)
        if self.going_out is None:
            if self.pending is not None:
                who, source, drawn, at = self.pending
                events.append(Turn(who, source, drawn, place=at))
            return events, None
        who, how, c, place = self.going_out
        if how == "declare_dead_hand":
            events.append(Pass(who, place))
            return events, ClaimedResult("void", place=place)
        if who not in self.scores:
            return events, None
        deadwood, melds, _ = self.scores[who]
        if how == "gin":
            left = self.held[who] & ~_union(melds)
            if bin(left).count("1") != 1:
                raise RecordError(f"{who}'s gin melds leave {bin(left).count('1')} cards, not one, "
                                  "to go out with", self.source, place.line, 1)
            c = left.bit_length() - 1
            self.held[who] = self.held[who] & ~left
        opening = self.pending is None and not self.events
        if c is None or (not opening and (self.pending is None or self.pending[0] != who)):
            raise RecordError(f"{who} goes out without drawing first", self.source, place.line, 1)
        _, source, drawn, at = self.pending or (who, "none", None, place)
        knock = Knock("gin" if how == "gin" else "knock", c, melds, deadwood, place=place)
        events.append(Turn(who, source, drawn, knock=knock, place=at))
        other = PLAYERS[1 - PLAYERS.index(who)]
        if other in self.scores:
            points, own, where = self.scores[other]
            events.append(Defence(other, own, deadwood=points, place=where))
        return events, None

    def dead(self) -> bool:
        return self.going_out is not None and self.going_out[1] == "declare_dead_hand"


def _union(masks: tuple[Mask, ...]) -> Mask:
    out = 0
    for m in masks:
        out |= m
    return out


def decode_sheet(text: str, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """The record of one hand's move sheet; raises :class:`RecordError` naming the first line
    that cannot be read."""
    lines = text.split("\n")
    while len(lines) > 1 and (not lines[0].strip() or is_comment(lines[0])):
        lines, first_line = lines[1:], first_line + 1
    m = _DEAL_RE.fullmatch(lines[0].rstrip("\r"))
    if m is None:
        raise RecordError("an RLCard move sheet starts with its deal (X deal shuffled_deck=[...])",
                          source, first_line, 1)
    deck = read_card_list("[" + ", ".join(m[2].split()) + "]", source, first_line, m.start(2) + 1)
    if len(deck) != 52:
        raise RecordError(f"the shuffled deck holds {len(deck)} cards, not 52", source, first_line,
                          m.start(2) + 1)
    dealer = m[1]
    non_dealer = PLAYERS[1 - PLAYERS.index(dealer)]
    eleven, ten, stock = dealt_from(deck)
    sheet = _Sheet(source, index)
    sheet.held = {non_dealer: mask_of(eleven), dealer: mask_of(ten)}
    for number, line in enumerate(lines[1:], first_line + 1):
        sheet.line = number
        line = line.strip()
        if line and not is_comment(line):
            sheet.read(line)
    events, claim = sheet.ending()
    deal = tuple((p, eleven if p == non_dealer else ten) for p in PLAYERS)
    hand = HandRecord(dealer, deal, None, tuple(events), stock=stock, result=claim, number=1,
                      place=Place(first_line, 1))
    tags = (("Site", "RLCard"),) + (((PAYOFFS_TAG, " ".join(sheet.payoffs)),) if sheet.payoffs else ())
    return GameRecord(PLAYERS, (hand,), rules="rlcard", tags=tags, source=source, index=index,
                      place=Place(first_line, 1))


def claimed_payoffs(value: str) -> tuple[float, float] | None:
    """The two payoffs a ``Payoffs`` tag claims (N's, S's); None when it does not hold two numbers."""
    words = value.split()
    if len(words) != 2:
        return None
    try:
        first, second = float(words[0]), float(words[1])
    except ValueError:
        return None
    return (first, second) if all(math.isfinite(x) for x in (first, second)) else None


def rewards(players: tuple[str, str], going_out: tuple[str, Ending] | None, held: tuple[Mask, Mask],
            system: MeldSystem = STANDARD_SYSTEM) -> tuple[float, float]:
    """RLCard's rewards for a hand (its default scorer, ``get_payoff_gin_rummy_v1``): 1 to the
    player who went gin, 0.2 to one who knocked (undercut or not), and minus the least deadwood
    of the cards it holds at the end, over 100, to any other (both, in a dead hand)."""
    def reward(seat: int) -> float:
        if going_out is not None and going_out[0] == players[seat]:
            return 1.0 if going_out[1] != "knock" else 0.2
        return -min_deadwood(held[seat], system) / 100

    return reward(0), reward(1)


def _decode_unit(unit: Unit) -> tuple[GameRecord]:
    return (decode_sheet(unit.text, unit.source, unit.line, unit.index),)


def _sniff(text: str, start: int) -> bool:
    return _DEAL_RE.match(text, start) is not None


FORMAT = Format("rlcard", "RLCard move sheets", sheet_boundary, _decode_unit, _sniff, opens="NS")
"""RLCard's move sheets, one hand after another: told by a hand's first line (its deal)"""
