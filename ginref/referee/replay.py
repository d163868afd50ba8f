"""The replay of one hand: every event checked against the rules, in order.

:class:`HandReplay` follows the cards (each hand's known cards and count of unseen
ones, the discard pile, the stock) through the deal, the play, the knock and the
defence, and leaves a :class:`HandRuling`. Findings go to the list it is given.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

import msgspec

from ginref.cards import FULL_DECK, Card, Mask, card_name, mask_of, scan
from ginref.layoffs import Layoff, best_defence, defence_as_declared, layoff_order, least_defence
from ginref.melds import (
    Meld,
    MeldKind,
    MeldSystem,
    is_meld,
    mask_points_in,
    meld_kind,
    min_deadwood,
)
from ginref.records.model import Defence, HandRecord, Knock, Pass, Place, Turn
from ginref.referee.findings import Finding, FindingCode, finding
from ginref.rules import Rules
from ginref.scoring import Ending, Step, settle

__all__ = ["HandReplay", "HandRuling", "Unfinished"]

# -- one hand ---------------------------------------------------------------------------

_RITUAL, _FORCED, _ELEVEN, _NORMAL, _WALL, _KNOCKED, _OVER = range(7)
"""The phases of a hand: the upcard ritual, the forced stock draw after two passes, the
eleven-card opening, normal play, the wall (the stock at its floor), knocked, over."""
_FIRST_PHASE = {"ritual": _RITUAL, "none": _NORMAL, "eleven_card": _ELEVEN}
_GO, _STOP, _ABANDON = object(), object(), object()
"""What a step tells the replay: go on; stop and rule on what was seen; abandon the hand."""


class Unfinished(msgspec.Struct, frozen=True):
    """A hand that stopped before its end, as its record claims, and where play stood.

    ``phase`` is what ``to_move`` had to do next: ``upcard`` (take or pass the first
    upcard), ``draw``, ``discard``, ``wall`` (knock or pass on the last discard) or
    ``defence`` (lay off and meld after a knock).
    """

    reason: str
    stopped_by: str | None
    to_move: str | None
    phase: str

    def to_dict(self) -> dict[str, object]:
        return {"reason": self.reason, "stopped_by": self.stopped_by, "to_move": self.to_move,
                "phase": self.phase}


_PHASE_WORDS = {_RITUAL: "upcard", _FORCED: "draw", _ELEVEN: "discard", _NORMAL: "draw", _WALL: "wall",
                _KNOCKED: "defence"}


class HandRuling:
    """What the replay of one hand found out (filled in as it goes, then read by the verdict)."""

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
        "steps",
        "stock_left",
        "unfinished",
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
        self.steps: tuple[Step, ...] = ()
        self.unfinished: Unfinished | None = None


def _names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in scan(mask))


def _count(mask: Mask) -> int:
    return bin(mask).count("1")


def _is_card(c: object) -> bool:
    return type(c) is int and 0 <= c < 52


_BIT_OF = [1 << c for c in range(52)].__getitem__
"""a card's bit by indexing (a list's, which CPython calls faster than a tuple's); never changed"""


def _fast_mask(cards: Sequence[object]) -> int:
    """The mask of ``cards`` if they are distinct valid cards, else -1 (look closer).

    A sum of card bits has as many bits set as there are cards exactly when no card
    repeats (a repeat carries), so one pass decides both; indexing the bits refuses
    anything but an int below 52, and ``min`` a negative one.
    """
    try:
        mask: int = sum(map(_BIT_OF, cards))  # type: ignore[arg-type]
    except (IndexError, TypeError):
        return -1
    if mask.bit_count() != len(cards) or (cards and min(cards) < 0):  # type: ignore[type-var, operator]
        return -1
    return mask


def _card_text(c: object) -> str:
    return card_name(c) if _is_card(c) else repr(c)  # type: ignore[arg-type]


class HandReplay:
    """Replays one hand: the deal, then one step per event, the knock and the defence."""

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
        self.result = HandRuling(hand.dealer if hand.dealer in players else None)
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
        # the play
        self.phase = _FIRST_PHASE[rules.first_turn]
        self.non_dealer = 1 - players.index(hand.dealer) if hand.dealer in players else 1
        self.expected = self.non_dealer
        self.passes = 0
        self.draws = 0
        """discard draws counted for max_discard_draws"""
        self.repeat = False
        self.turns = 0
        self.stock_left = 31
        self.taken = -1
        """the card just taken from the discard pile, -1 after a stock draw"""
        self.awaiting_discard = False
        """the last event is a draw with no discard: the record stops mid-turn"""
        self.end = ""
        self.knocker = -1
        self.defence: Defence | None = None
        upcard = hand.upcard if _is_card(hand.upcard) else None
        self.result.knock_limit = rules.knock_limit_for(upcard)
        self.result.multiplier = rules.multiplier(upcard)

    # -- findings -----------------------------------------------------------------

    def add(self, code: FindingCode, message: str, place: Place | None = None) -> None:
        """Record a finding at ``place`` (an event's), else at the hand."""
        if place is None or not (place.line or place.pointer):
            place = self.hand.place
        self.findings.append(finding(code, message, place, self.index))

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

    def not_a_card(self, what: str, value: object, place: Place) -> object:
        """Report a value that is not a card (``what`` did it); the hand cannot go on."""
        self.add(FindingCode.BAD_CARD, f"{what} {value!r}, which is not a card", place)
        return _ABANDON

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

    # -- play: the hand as a state machine ------------------------------------------
    #
    # ``phase`` says what the next event may be; each event kind has its step, and each
    # step returns what the replay does next: go on, stop and rule on what was seen
    # (_STOP), or abandon the hand because the cards can no longer be followed (_ABANDON:
    # the outcome stays "unresolved"). The common legal turn, a draw and a discard in
    # turn, takes :meth:`quick_turns`, a run of them at a time, and touches nothing else.

    def run(self) -> HandRuling:
        if not self.deal():
            return self.result
        events = self.hand.events
        count = len(events)
        i = 0
        while i < count:
            if self.phase == _NORMAL:
                after = self.quick_turns(events, i)
                if after > i:
                    i = after
                    continue
            step = self.step(events[i], i == count - 1)
            if step is _ABANDON:
                return self.result
            if step is _STOP:
                break
            i += 1
        return self.finish(min(i, count - 1))

    def step(self, ev: Pass | Turn | Defence, is_last: bool) -> object:
        """One event by the rules of the current phase."""
        if self.phase >= _KNOCKED:
            return self.after_end(ev)
        if isinstance(ev, Defence):
            self.add(FindingCode.DEFENCE_WITHOUT_KNOCK,
                     f"{ev.player} shows a defence, but nobody has knocked", ev.place)
            return _GO
        p = self.seat(ev)
        if p < 0:
            return _ABANDON
        if isinstance(ev, Pass):
            return self.on_pass(ev, p)
        return self.on_turn(ev, p, is_last)

    def seat(self, ev: Pass | Turn) -> int:
        """The mover's seat (-1 for a stranger, reported); a move out of turn is reported."""
        name0, name1 = self.players
        who = ev.player
        p = 0 if who == name0 else 1 if who == name1 else -1
        if p < 0:
            self.add(FindingCode.UNKNOWN_PLAYER, f"{who!r} is not one of the players {name0} and {name1}",
                     ev.place)
        elif p != self.expected:
            self.add(FindingCode.WRONG_TURN,
                     f"{who} moved out of turn; it was {self.players[self.expected]}'s turn", ev.place)
        return p

    def after_end(self, ev: Pass | Turn | Defence) -> object:
        """An event once the hand is knocked or over: the defence, else play that went on."""
        if self.phase == _KNOCKED and type(ev) is Defence and self.defence is None:
            self.defence = ev
            return _GO
        if self.end == "illegal":
            return _STOP  # what follows an illegal knock depends on house rules: not checked
        if self.end == "stock" and self.rules.stock_end == "void":
            self.add(FindingCode.STOCK_EXHAUSTED,
                     f"the hand ended when the stock was down to {self.rules.stock_floor} cards, "
                     "but play went on", ev.place)
        else:
            self.add(FindingCode.MOVES_AFTER_END, "play went on after the end of the hand", ev.place)
        return _STOP

    def on_pass(self, ev: Pass, p: int) -> object:
        phase, players, nd = self.phase, self.players, self.non_dealer
        if phase == _RITUAL:
            self.passes += 1
            self.phase, self.expected = (_FORCED, nd) if self.passes >= 2 else (_RITUAL, 1 - p)
        elif phase == _WALL:
            self.phase, self.end = _OVER, "wall"
        elif phase in (_FORCED, _ELEVEN) or (self.rules.first_turn == "none" and not self.turns):
            if phase == _FORCED:
                message = f"both players passed the upcard, so {players[nd]} must draw from the stock"
            elif phase == _ELEVEN:
                message = f"{players[nd]} was dealt 11 cards and must open by discarding"
            else:
                message = "these rules have no upcard ritual: the first turn is a normal turn"
            self.add(FindingCode.UPCARD_RITUAL, message, ev.place)
            self.expected = 1 - p  # a pass, legal or not, hands the turn over
            if phase == _NORMAL:
                self.turns += 1
        else:
            self.add(FindingCode.ILLEGAL_PASS,
                     f"{ev.player} passed; a pass is allowed only on the first upcard or at the wall",
                     ev.place)
            self.expected = 1 - p
        return _GO

    def on_turn(self, ev: Turn, p: int, is_last: bool) -> object:
        self.turns += 1
        source, counted = self.opening(ev)
        if source is None:
            return counted  # the phase settled the turn (a step result)
        if source == "stock":
            step = self.draw_stock(ev, p)
        elif source == "discard":
            step = self.draw_discard(ev, p, counted is True)
        elif source == "open":
            self.taken, step = -1, None
        else:
            self.add(FindingCode.NO_DRAW, f"{ev.player} took no card at the start of the turn", ev.place)
            return _ABANDON
        if step is not None:
            return step
        if ev.knock is not None:
            return self.on_knock(ev, p)
        return self.on_discard(ev, p, is_last)

    def opening(self, ev: Turn) -> tuple[str | None, object]:
        """How the phase reads a turn's draw: ``(source, counted)``, where ``counted`` says
        whether a discard draw counts toward ``max_discard_draws``; ``(None, step)`` when
        the phase settles the turn by itself."""
        phase, who, source = self.phase, ev.player, ev.source
        if phase == _NORMAL:
            return source, True
        if phase == _WALL:
            if source == "discard" and ev.knock is not None:
                return source, False
            if source in ("discard", "stock"):
                if source == "discard":
                    message = (f"{who} took the last discard without knocking; at the wall it may be "
                               "taken only to knock, so the hand is a draw")
                    self.add(FindingCode.STOCK_EXHAUSTED, message, ev.place)
                else:
                    self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                             f"{who} drew from the stock, which is down to its last "
                             f"{self.rules.stock_floor} cards; the hand is a draw", ev.place)
                self.phase, self.end = _OVER, "wall"
                return None, _GO
            return source, True
        if phase in (_RITUAL, _FORCED):
            if source == "stock" and phase == _RITUAL:
                self.add(FindingCode.UPCARD_RITUAL,
                         f"{who} drew from the stock before both players passed the upcard", ev.place)
            elif source == "discard" and phase == _FORCED:
                self.add(FindingCode.UPCARD_RITUAL, f"{who} took the upcard after both players passed it",
                         ev.place)
            self.phase = _NORMAL
            return source, False
        if source != "none":  # the eleven-card opening
            self.add(FindingCode.UPCARD_RITUAL,
                     f"{who} was dealt 11 cards and must open by discarding, not drawing", ev.place)
            return None, _ABANDON
        self.phase = _NORMAL
        return "open", True

    def draw_stock(self, ev: Turn, p: int) -> object | None:
        """A stock draw; None when the turn goes on to its discard or knock."""
        who, c, floor = ev.player, ev.card, self.rules.stock_floor
        if self.stock_left <= floor:
            self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                     f"{who} drew from the stock, which is down to its last {floor} cards", ev.place)
            return _ABANDON
        self.stock_left -= 1
        self.taken = -1
        stock = self.stock
        if stock is not None:
            top = stock[self.stock_pos]
            self.stock_pos += 1
            if c is None or c == top:
                self.held[p] |= 1 << top
                return None
            if not _is_card(c):
                return self.not_a_card(f"{who} drew", c, ev.place)
            self.add(FindingCode.STOCK_DRAW_MISMATCH,
                     f"{who} drew {card_name(c)} from the stock, but the next stock card is {card_name(top)}",
                     ev.place)
            # forget the stock order: its cards (the expected one too) are unseen now
            for s in stock[self.stock_pos - 1:]:
                self.unseen |= 1 << s
            self.stock = None
        if c is None:
            self.unknown[p] += 1
            return None
        if not _is_card(c):
            return self.not_a_card(f"{who} drew", c, ev.place)
        bit = 1 << c
        if self.unseen & bit:
            self.unseen ^= bit
            self.held[p] |= bit
            return None
        where = self.where(c)
        self.add(FindingCode.DUPLICATE_CARD,
                 f"{who} drew {card_name(c)} from the stock, but it is " + (where or "already in play"),
                 ev.place)
        return _ABANDON

    def draw_discard(self, ev: Turn, p: int, counted: bool) -> object | None:
        """A draw from the discard pile; None when the turn goes on to its discard or knock."""
        who, c, pile = ev.player, ev.card, self.pile
        if not pile:
            self.add(FindingCode.NOT_TOP_DISCARD, f"{who} drew from the discard pile, but it is empty",
                     ev.place)
            return _ABANDON
        top = pile[-1]
        if c is None or c == top:
            pile.pop()
            c = top
        else:
            if not _is_card(c):
                return self.not_a_card(f"{who} drew", c, ev.place)
            self.add(FindingCode.NOT_TOP_DISCARD,
                     f"{who} took {card_name(c)} from the discard pile, but the top card is {card_name(top)}",
                     ev.place)
            if c not in pile:
                return _ABANDON
            pile.remove(c)
        self.held[p] |= 1 << c
        self.taken = c
        cap = self.rules.max_discard_draws
        if not counted or cap is None:
            return None
        self.draws += 1
        if self.draws < cap:
            return None
        self.phase, self.end = _OVER, "max_discard_draws"
        if ev.discard is None and ev.knock is None:
            return _GO
        self.add(FindingCode.MOVES_AFTER_END,
                 f"the hand ended as a draw with the {_ordinal(cap)} draw from the discard pile, so "
                 f"{who}'s " + ("knock" if ev.knock is not None else "discard") + " does not count", ev.place)
        return _STOP

    def on_knock(self, ev: Turn, p: int) -> object:
        self.result.stock_left = self.stock_left
        if not self.knock(p, ev, self.taken):
            return _ABANDON
        self.knocker = p
        self.phase = _KNOCKED
        if self.result.outcome == "illegal_knock":
            self.end = "illegal"
        return _GO

    def on_discard(self, ev: Turn, p: int, is_last: bool) -> object:
        who, x = ev.player, ev.discard
        if x is None:
            if is_last:
                self.awaiting_discard = True
                return _STOP
            self.add(FindingCode.MISSING_DISCARD,
                     f"{who} drew {_card_text(ev.card)} but the record shows no discard", ev.place)
            return _ABANDON
        if x.__class__ is not int or x < 0 or x > 51:
            self.add(FindingCode.BAD_CARD, f"{who} discarded {x!r}, which is not a card", ev.place)
            return _ABANDON
        if not self.take_from_hand(p, x):
            self.not_held(p, "discarded", x, ev.place)
            return _ABANDON
        if x == self.taken and self.rules.no_same_card_discard:
            self.add(FindingCode.SAME_CARD_DISCARD,
                     f"{who} discarded {card_name(x)}, the card just taken from the discard pile", ev.place)
        self.pile.append(x)
        if self.rules.repeat_discard_draw:
            if x == self.taken and self.repeat:
                self.phase, self.end = _OVER, "repeat_discard_draw"
                return _GO
            self.repeat = x == self.taken
        self.turn_over(p)
        return _GO

    def turn_over(self, p: int) -> None:
        """The turn passes; at the stock floor the hand ends (void) or reaches the wall."""
        self.expected = 1 - p
        if self.stock_left <= self.rules.stock_floor:
            if self.rules.stock_end == "void":
                self.phase, self.end = _OVER, "stock"
            else:
                self.phase = _WALL

    def quick_turns(self, events: Sequence[Pass | Turn | Defence], i: int) -> int:
        """Apply the plain legal turns from ``events[i]`` on (a draw and a discard in turn, in
        the normal phase, with nothing to report) and return the index of the first other
        event; the state is kept in locals and written back once.

        The twin of the checked path (:meth:`on_turn`): ``tests/test_replay_twins.py``
        replays generated, corrupted and OpenSpiel games both ways and compares them.
        """
        held, pile, stock = self.held, self.pile, self.stock
        expected, pos, unseen = self.expected, self.stock_pos, self.unseen
        left, taken, draws = self.stock_left, self.taken, self.draws
        rules = self.rules
        floor, cap = rules.stock_floor, rules.max_discard_draws
        same_banned, repeat_ends, repeat = rules.no_same_card_discard, rules.repeat_discard_draw, self.repeat
        mover, waiting = self.players if expected == 0 else self.players[::-1]
        mine, theirs = held[expected], held[1 - expected]  # the mover's cards, the other's
        done = start = i
        for i in range(start, len(events)):
            ev = events[i]
            if type(ev) is not Turn or ev.knock is not None or ev.player != mover:
                break
            x, c = ev.discard, ev.card
            if type(x) is not int or not 0 <= x < 52:
                break
            bit = 1 << x
            if ev.source == "stock":
                if left <= floor:
                    break
                if stock is not None:
                    top = stock[pos]
                    hand = mine | 1 << top
                    if (c is not None and c != top) or not hand & bit:
                        break
                    pos += 1
                elif type(c) is int and 0 <= c < 52 and unseen >> c & 1 and (mine | 1 << c) & bit:
                    hand = mine | 1 << c
                    unseen ^= 1 << c
                else:
                    break
                left -= 1
                taken = -1
                repeat = False
                pile.append(x)
            elif ev.source == "discard" and pile and (cap is None or draws + 1 < cap):
                top = pile[-1]
                hand = mine | 1 << top
                if (c is not None and c != top) or not hand & bit:
                    break
                if x == top and (same_banned or (repeat_ends and repeat)):
                    break  # a same-card discard that is reported, or a repeat that ends the hand
                pile[-1] = x
                taken = top
                draws += 1
                repeat = repeat_ends and x == top
            else:
                break
            mine, theirs = theirs, hand ^ bit
            mover, waiting = waiting, mover
            expected = 1 - expected
            done = i + 1
            if left <= floor:
                break  # the stock floor: turn_over below ends the hand or opens the wall
        if done > start:
            held[expected], held[1 - expected] = mine, theirs
            self.stock_pos, self.unseen, self.stock_left, self.taken = pos, unseen, left, taken
            self.draws = draws
            self.turns += done - start
            self.repeat = repeat
            self.turn_over(1 - expected)
        return done

    def finish(self, i: int) -> HandRuling:
        """Rule on the hand as the events left it."""
        result, hand = self.result, self.hand
        result.stock_left = self.stock_left
        if self.stopped_unfinished():
            return result
        if self.phase == _OVER:
            result.outcome, result.end = "void", self.end
            return result
        if self.phase == _KNOCKED:
            if self.end != "illegal":
                self.defend(self.knocker, self.defence)
            return result
        # the record stops before the hand ended
        claimed = hand.result
        place = hand.events[i].place if i >= 0 else hand.place
        if claimed is not None and claimed.outcome == "void":
            self.add(FindingCode.VOID_UNVERIFIED,
                     f"the record stops with {self.stock_left} cards in the stock, so the void hand cannot "
                     "be checked", place)
            result.outcome, result.end = "void", "unverified"
        else:
            self.add(FindingCode.INCOMPLETE_HAND,
                     "the record stops before the hand ended"
                     + ("" if i < 0 else f" ({self.stock_left} cards left in the stock)"), place)
            result.end = "incomplete"
        return result

    def stopped_unfinished(self) -> bool:
        """A record claiming ``unfinished`` that stops before the hand's end: ruled so, with
        where play stood, and not an error. A hand that did end is left to the claim check."""
        claimed = self.hand.result
        if claimed is None or claimed.outcome != "unfinished" or self.phase == _OVER:
            return False
        if self.phase == _KNOCKED and (self.defence is not None or self.end == "illegal"):
            return False
        phase = "discard" if self.awaiting_discard else _PHASE_WORDS[self.phase]
        seat = 1 - self.knocker if self.phase == _KNOCKED else self.expected
        result = self.result
        result.outcome = result.end = "unfinished"
        reason = claimed.reason or "stopped"
        result.unfinished = Unfinished(reason, claimed.stopped_by, self.players[seat], phase)
        return True

    # -- the knock ------------------------------------------------------------------

    def knock(self, p: int, turn: Turn, taken: int) -> bool:
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
        if not _is_card(discard):
            self.add(FindingCode.BAD_CARD, f"{who} discarded {discard!r}, which is not a card", place)
            return False
        assert isinstance(discard, int)
        if not self.take_from_hand(p, discard):
            self.not_held(p, "discarded", discard, place)
            return False
        if discard == taken and self.rules.no_same_card_discard:
            self.add(FindingCode.SAME_CARD_DISCARD,
                     f"{who} discarded {card_name(discard)} face down, the card just taken "
                     "from the discard pile", place)
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
                problem = f"{who} used {_names(m & melded)} in two melds"
            elif not is_meld(m, self.system):
                problem = f"{who} declared [{_names(m)}], which is not a meld"
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
            if _count(self.held[p]) != 11 or dw:
                self.add(FindingCode.MISSING_DISCARD,
                         f"{who} knocked without a face-down discard; only big gin keeps all 11 cards", place)
                return None
            ending = "big_gin"
            if self.rules.big_gin_bonus is None:
                self.add(FindingCode.BIG_GIN_NOT_RECOGNISED,
                         f"{who} melded all 11 cards without discarding, but these rules have "
                         "no big gin; ruled as gin", place)
                ending = "gin"
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
        return ending

    def knock_allowed(self, p: int, ending: Ending, dw: int, dead: Mask, place: Place) -> bool:
        """The knock limit and, where the rules ask, melding as far as possible."""
        if ending != "knock":
            return True
        who, limit = self.players[p], self.result.knock_limit
        if dw > limit:
            what = "only gin ends a hand" if limit == 0 else f"the knock limit is {limit}"
            self.add(FindingCode.KNOCK_OVER_LIMIT,
                     f"{who} knocked with {dw} deadwood ({_names(dead)}), but {what}", place)
            return False
        least = min_deadwood(self.held[p], self.system)
        if least >= dw:
            return True
        if self.rules.knocker_must_meld_max:
            self.add(FindingCode.KNOCK_NOT_MAX,
                     f"{who} declared {dw} deadwood but could meld down to {least}; "
                     "these rules require melding as far as possible", place)
            return False
        self.add(FindingCode.KNOCK_NOT_BEST,
                 f"{who} declared {dw} deadwood, but the same cards can be arranged with {least}", place)
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
            what = "big gin" if self.ending == "big_gin" else "gin"
            self.add(FindingCode.LAYOFF_ON_GIN,
                     f"{self.players[q]} laid off {' '.join(card_name(c) for c in on_gin)} onto {what}, "
                     "which these rules do not allow", place)
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
            if not _is_card(c):
                self.add(FindingCode.BAD_CARD, f"{defender} laid off {c!r}, which is not a card", place)
                continue
            if not allow:
                on_gin.append(c)
                continue
            if self.reveal(q, 1 << c):
                self.not_held(q, "laid off", c, place)
                continue
            problem, target = self.layoff_problem(q, c, at, knocker_melds, melded | laid_mask, laid_mask)
            if problem:
                self.add(FindingCode.ILLEGAL_LAYOFF, problem, place)
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
            return f"{defender} laid off {name} onto meld {at!r}, which the knocker did not declare", -1
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
                    "these rules allow no chained layoffs"), -1
        return "", target

    def defence_ruling(
        self, q: int, event: Defence, own: list[Meld], laid: list[tuple[Card, int]],
        knocker_melds: tuple[Meld, ...], allow: bool,
    ) -> tuple[int, tuple[Mask, ...], tuple[Layoff, ...]]:
        """The declared defence as scored, with its deadwood checked and a better one named."""
        rules, system, place, defender = self.rules, self.system, event.place, self.players[q]
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
        if least_defence(hand, self.melds, rules, system, allow_layoffs=allow)[0] < dw:
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


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
