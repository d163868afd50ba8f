"""The replay of one hand: every event checked against the rules, in order.

:class:`HandReplay` follows the cards (each hand's known cards and count of unseen
ones, the discard pile, the stock) through the deal, the play, the knock and the
defence, and leaves a :class:`HandRuling`. Findings go to the list it is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from ginref.cards import FULL_DECK, Mask, card_name
from ginref.melds import min_deadwood
from ginref.notation import excerpt
from ginref.records.model import Defence, Pass, Turn
from ginref.referee.findings import FindingCode
from ginref.referee.knock import KnockSteps
from ginref.referee.rules_of_play import at_the_floor, may_draw_stock, takes_only_to_knock
from ginref.referee.state import (
    ABANDON,
    ELEVEN,
    FORCED,
    GO,
    KNOCKED,
    NORMAL,
    OVER,
    RITUAL,
    STOP,
    WALL,
    Flow,
    HandRuling,
    Unfinished,
    card_count,
    card_names,
    card_text,
    fast_mask,
    is_card,
    phase_of,
)


class HandReplay(KnockSteps):
    """Replays one hand: the deal, then one step per event, the knock and the defence."""

    # -- the deal -----------------------------------------------------------------

    def _distinct(
        self, cards: Sequence[object], seen: Mask, where: str, twice: str, elsewhere: str
    ) -> Mask | None:
        """The cards as a mask, or None once a non-card or a card seen twice is reported."""
        mask = fast_mask(cards)
        if mask >= 0 and not seen & mask:
            return mask
        mask = 0
        for c in cards:
            if type(c) is not int or not 0 <= c < 52:
                self.add(FindingCode.BAD_CARD, f"{excerpt(c)} in {where} is not a card")
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
            self.add(FindingCode.UNKNOWN_PLAYER, f"the dealer {self.stranger(hand.dealer)}")
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
                         f"cards are dealt to {excerpt(name)}, who is not one of the players "
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
                         f"the deal turns up {card_text(up)}, but with the eleven-card deal "
                         "there is no upcard")
                return False
        else:
            if up is None:
                self.add(FindingCode.DEAL_INCOMPLETE, "the deal has no upcard")
                return False
            if not is_card(up):
                self.add(FindingCode.BAD_CARD, f"the upcard {excerpt(up)} is not a card")
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
    # (STOP), or abandon the hand because the cards can no longer be followed (ABANDON:
    # the outcome stays "unresolved"). The common legal turn, a draw and a discard in
    # turn, takes :meth:`quick_turns`, a run of them at a time, and touches nothing else.

    def run(self) -> HandRuling:
        if not self.deal():
            return self.result
        events = self.hand.events
        count = len(events)
        i = 0
        while i < count:
            if self.phase == NORMAL:
                after = self.quick_turns(events, i)
                if after > i:
                    i = after
                    continue
            step = self.step(events[i], i == count - 1)
            if step is ABANDON:
                return self.result
            if step is STOP:
                break
            i += 1
        return self.finish(min(i, count - 1))

    def step(self, ev: Pass | Turn | Defence, is_last: bool) -> Flow:
        """One event by the rules of the current phase."""
        if self.phase >= KNOCKED:
            return self.after_end(ev)
        if isinstance(ev, Defence):
            self.add(FindingCode.DEFENCE_WITHOUT_KNOCK,
                     f"{ev.player} shows a defence, but nobody has knocked", ev.place)
            return GO
        p = self.seat(ev)
        if p < 0:
            return ABANDON
        if isinstance(ev, Pass):
            return self.on_pass(ev, p)
        return self.on_turn(ev, p, is_last)

    def seat(self, ev: Pass | Turn) -> int:
        """The mover's seat (-1 for a stranger, reported); a move out of turn is reported."""
        name0, name1 = self.players
        who = ev.player
        p = 0 if who == name0 else 1 if who == name1 else -1
        if p < 0:
            self.add(FindingCode.UNKNOWN_PLAYER, self.stranger(who), ev.place)
        elif p != self.expected:
            self.add(FindingCode.WRONG_TURN,
                     f"{who} moved out of turn; it was {self.players[self.expected]}'s turn", ev.place)
        return p

    def after_end(self, ev: Pass | Turn | Defence) -> Flow:
        """An event once the hand is knocked or over: the defence, else play that went on."""
        if self.phase == KNOCKED and type(ev) is Defence and self.defence is None:
            self.defence = ev
            return GO
        if self.end == "illegal":
            return STOP  # what follows an illegal knock depends on house rules: not checked
        if self.end == "stock" and self.rules.stock_end == "void":
            self.add(FindingCode.STOCK_EXHAUSTED,
                     f"the hand ended when the stock was down to {self.rules.stock_floor} cards, "
                     "but play went on", ev.place, knobs=("stock_end",))
        else:
            ended_by = (self.end,) if self.end in ("max_discard_draws", "repeat_discard_draw") else ()
            self.add(FindingCode.MOVES_AFTER_END, "play went on after the end of the hand", ev.place,
                     knobs=ended_by)
        return STOP

    def on_pass(self, ev: Pass, p: int) -> Flow:
        phase, players, nd = self.phase, self.players, self.non_dealer
        if phase == RITUAL:
            self.passes += 1
            self.phase, self.expected = (FORCED, nd) if self.passes >= 2 else (RITUAL, 1 - p)
            if self.phase == FORCED and at_the_floor(self.rules, self.stock_left):
                self.turn_over(1 - nd)  # no stock card to draw: the floor's end, as after a turn
        elif phase == WALL:
            self.phase, self.end = OVER, "wall"
        elif phase in (FORCED, ELEVEN) or (self.rules.first_turn == "none" and not self.turns):
            if phase == FORCED:
                message = f"both players passed the upcard, so {players[nd]} must draw from the stock"
            elif phase == ELEVEN:
                message = f"{players[nd]} was dealt 11 cards and must open by discarding"
            else:
                message = "these rules have no upcard ritual: the first turn is a normal turn"
            self.add(FindingCode.UPCARD_RITUAL, message, ev.place, knobs=("first_turn",))
            self.expected = 1 - p  # a pass, legal or not, hands the turn over
            if phase == NORMAL:
                self.turns += 1
        else:
            self.add(FindingCode.ILLEGAL_PASS,
                     f"{ev.player} passed; a pass is allowed only on the first upcard or at the wall",
                     ev.place)
            self.expected = 1 - p
        return GO

    def on_turn(self, ev: Turn, p: int, is_last: bool) -> Flow:
        step = self.on_draw(ev, p)
        if step is not None:
            return step
        step = self.on_knock(ev, p) if ev.knock is not None else self.on_discard(ev, p, is_last)
        if ev.least_deadwood is not None and step is not ABANDON and self.least_differs(self.held[p], ev):
            least = min_deadwood(self.held[p], self.system)
            self.add(FindingCode.DEADWOOD_MISDECLARED,
                     f"{ev.player}'s hand after this turn is said to hold {ev.least_deadwood} deadwood; "
                     f"at best it holds {least} ({card_names(self.held[p])})", ev.place)
        return step

    def least_differs(self, cards: Mask, ev: Turn) -> bool:
        """Whether a turn's claim of the mover's least deadwood after it (EAAI's per-turn
        report) is not what its ten cards allow; no claim, or not ten known cards: False."""
        return (ev.least_deadwood is not None and card_count(cards) == 10
                and min_deadwood(cards, self.system) != ev.least_deadwood)

    def on_draw(self, ev: Turn, p: int) -> Flow | None:
        """The first half of a turn, its draw as the phase reads it; None when the turn goes
        on to its discard or knock (the table plays the halves as two moves)."""
        self.turns += 1
        source, counted = self.opening(ev)
        if isinstance(counted, Flow):
            return counted  # the phase settled the turn (source None)
        if source == "stock":
            return self.draw_stock(ev, p)
        if source == "discard":
            return self.draw_discard(ev, p, counted is True)
        if source == "open":
            self.taken = -1
            return None
        self.add(FindingCode.NO_DRAW, f"{ev.player} took no card at the start of the turn", ev.place)
        return ABANDON

    def opening(self, ev: Turn) -> tuple[str | None, Flow | bool]:
        """How the phase reads a turn's draw: ``(source, counted)``, where ``counted`` says
        whether a discard draw counts toward ``max_discard_draws``; ``(None, step)`` when
        the phase settles the turn by itself."""
        phase, who, source = self.phase, ev.player, ev.source
        if phase == NORMAL:
            return source, True
        if phase == WALL:
            if source == "discard" and (ev.knock is not None or not takes_only_to_knock(self.rules)):
                return source, False
            if source in ("discard", "stock"):
                if source == "discard":
                    message = (f"{who} took the last discard without knocking; at the wall it may be "
                               "taken only to knock, so the hand is a draw")
                    self.add(FindingCode.STOCK_EXHAUSTED, message, ev.place, knobs=("stock_end",))
                else:
                    self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                             f"{who} drew from the stock, which is down to its last "
                             f"{self.rules.stock_floor} cards; the hand is a draw", ev.place,
                             knobs=("stock_floor",))
                self.phase, self.end = OVER, "wall"
                return None, GO
            return source, True
        if phase in (RITUAL, FORCED):
            if source == "stock" and phase == RITUAL:
                self.add(FindingCode.UPCARD_RITUAL,
                         f"{who} drew from the stock before both players passed the upcard", ev.place,
                         knobs=("first_turn",))
            elif source == "discard" and phase == FORCED:
                self.add(FindingCode.UPCARD_RITUAL, f"{who} took the upcard after both players passed it",
                         ev.place, knobs=("first_turn",))
            self.phase = NORMAL
            return source, False
        if source != "none":  # the eleven-card opening
            self.add(FindingCode.UPCARD_RITUAL,
                     f"{who} was dealt 11 cards and must open by discarding, not drawing", ev.place,
                     knobs=("first_turn",))
            return None, ABANDON
        self.phase = NORMAL
        return "open", True

    def draw_stock(self, ev: Turn, p: int) -> Flow | None:
        """A stock draw; None when the turn goes on to its discard or knock."""
        who, c, floor = ev.player, ev.card, self.rules.stock_floor
        if not may_draw_stock(self.rules, self.stock_left):
            self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                     f"{who} drew from the stock, which is down to its last {floor} cards", ev.place,
                     knobs=("stock_floor",))
            return ABANDON
        self.stock_left -= 1
        self.taken = -1
        stock = self.stock
        if stock is not None:
            top = stock[self.stock_pos]
            self.stock_pos += 1
            if c is None or c == top:
                self.held[p] |= 1 << top
                return None
            if not is_card(c):
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
        if not is_card(c):
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
        return ABANDON

    def draw_discard(self, ev: Turn, p: int, counted: bool) -> Flow | None:
        """A draw from the discard pile; None when the turn goes on to its discard or knock."""
        who, c, pile = ev.player, ev.card, self.pile
        if not pile:
            self.add(FindingCode.NOT_TOP_DISCARD, f"{who} drew from the discard pile, but it is empty",
                     ev.place)
            return ABANDON
        top = pile[-1]
        if c is None or c == top:
            pile.pop()
            c = top
        else:
            if not is_card(c):
                return self.not_a_card(f"{who} drew", c, ev.place)
            self.add(FindingCode.NOT_TOP_DISCARD,
                     f"{who} took {card_name(c)} from the discard pile, but the top card is {card_name(top)}",
                     ev.place)
            if c not in pile:
                return ABANDON
            pile.remove(c)
        self.held[p] |= 1 << c
        self.taken = c
        cap = self.rules.max_discard_draws
        if not counted or cap is None:
            return None
        self.draws += 1
        if self.draws < cap:
            return None
        self.phase, self.end = OVER, "max_discard_draws"
        if ev.discard is None and ev.knock is None:
            return GO
        self.add(FindingCode.MOVES_AFTER_END,
                 f"the hand ended as a draw with the {_ordinal(cap)} draw from the discard pile, so "
                 f"{who}'s " + ("knock" if ev.knock is not None else "discard") + " does not count", ev.place,
                 knobs=("max_discard_draws",))
        return STOP

    def on_knock(self, ev: Turn, p: int) -> Flow:
        self.result.stock_left = self.stock_left
        if not self.knock(p, ev, self.taken):
            return ABANDON
        self.knocker = p
        self.phase = KNOCKED
        if self.result.outcome == "illegal_knock":
            self.end = "illegal"
        return GO

    def on_discard(self, ev: Turn, p: int, is_last: bool) -> Flow:
        who, x = ev.player, ev.discard
        if x is None:
            if is_last:
                self.awaiting_discard = True
                return STOP
            self.add(FindingCode.MISSING_DISCARD,
                     f"{who} drew {card_text(ev.card)} but the record shows no discard", ev.place)
            return ABANDON
        if x.__class__ is not int or x < 0 or x > 51:
            self.add(FindingCode.BAD_CARD, f"{who} discarded {excerpt(x)}, which is not a card", ev.place)
            return ABANDON
        if not self.take_from_hand(p, x):
            self.not_held(p, "discarded", x, ev.place)
            return ABANDON
        if x == self.rules.banned_discard(self.taken):
            self.add(FindingCode.SAME_CARD_DISCARD,
                     f"{who} discarded {card_name(x)}, the card just taken from the discard pile", ev.place,
                     knobs=("no_same_card_discard",))
        self.pile.append(x)
        if self.rules.repeat_discard_draw:
            if x == self.taken and self.repeat:
                self.phase, self.end = OVER, "repeat_discard_draw"
                return GO
            self.repeat = x == self.taken
        self.turn_over(p)
        return GO

    def turn_over(self, p: int) -> None:
        """The turn passes; at the stock floor the hand ends (void) or reaches the wall."""
        self.expected = 1 - p
        if at_the_floor(self.rules, self.stock_left):
            if self.rules.stock_end == "void":
                self.phase, self.end = OVER, "stock"
            else:
                self.phase = WALL

    def quick_turns(self, events: Sequence[Pass | Turn | Defence], i: int) -> int:
        """Apply the plain legal turns from ``events[i]`` on (a draw and a discard in turn, in
        the normal phase, with nothing to report) and return the index of the first other
        event; the state is kept in locals and written back once.

        The twin of the checked path (:meth:`on_turn`): ``tests/referee/test_replay_twins.py``
        replays generated, corrupted and OpenSpiel games both ways and compares them.
        """
        held, pile, stock = self.held, self.pile, self.stock
        expected, pos, unseen = self.expected, self.stock_pos, self.unseen
        left, taken, draws = self.stock_left, self.taken, self.draws
        rules = self.rules
        floor, cap = rules.stock_floor, rules.max_discard_draws
        if left <= floor:
            return i  # the wall: no turn here is plain
        repeat_ends, repeat = rules.repeat_discard_draw, self.repeat
        mover, waiting = self.players if expected == 0 else self.players[::-1]
        mine, theirs = held[expected], held[1 - expected]  # the mover's cards, the other's
        least_differs = self.least_differs

        def differs(cards: Mask, ev: Turn) -> bool:  # a claimed least deadwood the checked path reports
            return ev.least_deadwood is not None and least_differs(cards, ev)

        # Each plain turn is one stock draw (``left`` falls) or one discard draw (``draws``
        # rises): how many were applied is counted from those, not in the loop.
        for ev in events[i:]:
            if type(ev) is not Turn or ev.knock is not None or ev.player != mover:
                break
            x, c = ev.discard, ev.card
            if type(x) is not int or not 0 <= x < 52:
                break
            bit = 1 << x
            if ev.source == "stock":  # above the floor: the loop stops when the stock reaches it
                if stock is not None:
                    top = stock[pos]
                    hand = mine | 1 << top
                    if (c is not None and c != top) or not hand & bit or differs(hand ^ bit, ev):
                        break
                    pos += 1
                elif (type(c) is int and 0 <= c < 52 and unseen >> c & 1 and (mine | 1 << c) & bit
                      and not differs((mine | 1 << c) ^ bit, ev)):
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
                if (c is not None and c != top) or not hand & bit or differs(hand ^ bit, ev):
                    break
                if x == top and (x == rules.banned_discard(top) or (repeat_ends and repeat)):
                    break  # a same-card discard that is reported, or a repeat that ends the hand
                pile[-1] = x
                taken = top
                draws += 1
                repeat = repeat_ends and x == top
            else:
                break
            mine, theirs = theirs, hand ^ bit
            mover, waiting = waiting, mover
            if left <= floor:
                break  # the stock floor: turn_over below ends the hand or opens the wall
        moved = self.stock_left - left + draws - self.draws
        if moved:
            expected ^= moved & 1
            held[expected], held[1 - expected] = mine, theirs
            self.stock_pos, self.unseen, self.stock_left, self.taken = pos, unseen, left, taken
            self.draws = draws
            self.turns += moved
            self.repeat = repeat
            self.turn_over(1 - expected)
        return i + moved

    def finish(self, i: int) -> HandRuling:
        """Rule on the hand as the events left it."""
        result, hand = self.result, self.hand
        result.stock_left = self.stock_left
        result.held_at_end = (self.held[0], self.held[1])
        if self.stopped_unfinished():
            return result
        if self.phase == OVER:
            result.outcome, result.end = "void", self.end
            return result
        if self.phase == KNOCKED:
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
        if claimed is None or claimed.outcome != "unfinished" or self.phase == OVER:
            return False
        if self.phase == KNOCKED and (self.defence is not None or self.end == "illegal"):
            return False
        phase = phase_of(self.phase, self.awaiting_discard).value
        seat = 1 - self.knocker if self.phase == KNOCKED else self.expected
        result = self.result
        result.outcome = result.end = "unfinished"
        reason = claimed.reason or "stopped"
        result.unfinished = Unfinished(reason, claimed.stopped_by, self.players[seat], phase)
        return True



def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
