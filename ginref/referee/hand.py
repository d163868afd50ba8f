"""The hand: one machine that holds a hand's state and plays its moves, under the rules.

:class:`Hand` is the one machine of play. It checks the deal, then takes the moves one at a
time, each named by its player: :meth:`~Hand.pass_`, :meth:`~Hand.take` (the upcard or the top
discard), :meth:`~Hand.draw`, :meth:`~Hand.discard`, :meth:`~Hand.knock`, :meth:`~Hand.lay_off`
and :meth:`~Hand.finish` (the defence). Each move is judged by the predicates of
:mod:`ginref.referee.rules_of_play` and the knock's steps (:mod:`ginref.referee.knock`); what
it gets wrong is a :class:`~ginref.referee.findings.Finding`, and the move says whether play
goes on (:class:`~ginref.referee.state.Flow`). :meth:`~Hand.rule` rules on the hand as the
moves left it.

Two clients push moves onto it: the record replay (:func:`ginref.referee.replay.replay_hand`,
each event as its moves, going on after an error where the cards can still be followed) and
the live :class:`~ginref.referee.table.Table` (which refuses a move that makes an error and puts
the state back from its :class:`~ginref.referee.state.Snapshot`). :meth:`~Hand.quick_turns` is
the records' fast path, a run of plain turns at once, beside its checked twin
(:meth:`~Hand.draw` and :meth:`~Hand.discard`; ``tests/referee/test_replay_twins.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ginref.cards import FULL_DECK, Card, CardSet, Mask, card_name
from ginref.melds import min_deadwood
from ginref.notation import excerpt
from ginref.records.model import Defence, Pass, Place, Turn
from ginref.referee.findings import Finding, FindingCode
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
    Phase,
    Snapshot,
    Unfinished,
    card_count,
    card_text,
    fast_mask,
    is_card,
    phase_of,
)

if TYPE_CHECKING:
    from ginref.referee.moves import View


class Hand(KnockSteps):
    """One hand: the deal, then its moves, each judged as it is made (the module's contract)."""

    __slots__ = ()

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

    # -- where play stands ------------------------------------------------------------
    #
    # ``phase`` is the hand's stage (the ints of :class:`~ginref.referee.state.Stage`);
    # ``drawn`` says that ``mover`` has drawn and owes the turn's discard or knock; ``finished``
    # that the defence is made. Each move returns what play does next: go on, stop and rule on
    # what was seen (STOP), or abandon the hand because its cards can no longer be followed
    # (ABANDON: the outcome stays "unresolved").

    def phase_now(self) -> Phase:
        """What the player to move must do (:class:`Phase`)."""
        return Phase.OVER if self.finished else phase_of(self.phase, self.drawn)

    def seat_to_move(self) -> int:
        """The seat to move (the defender after a knock); -1 once the hand is over."""
        phase = self.phase_now()
        if phase is Phase.OVER:
            return -1
        if phase is Phase.DEFENCE:
            return 1 - self.knocker
        return self.mover if self.drawn else self.expected

    def seat(self, who: str, place: Place) -> int:
        """The seat of ``who`` (-1 for a stranger, reported); a move out of turn is reported."""
        name0, name1 = self.players
        p = 0 if who == name0 else 1 if who == name1 else -1
        if p < 0:
            self.add(FindingCode.UNKNOWN_PLAYER, self.stranger(who), place)
        elif p != self.expected:
            self.add(FindingCode.WRONG_TURN,
                     f"{who} moved out of turn; it was {self.players[self.expected]}'s turn", place)
        return p

    def is_mover(self, who: str, place: Place) -> bool:
        """Whether ``who`` drew last, whose discard or knock is due (else reported)."""
        mover = self.players[self.mover]
        if who == mover:
            return True
        if who in self.players:
            self.add(FindingCode.WRONG_TURN, f"{who} moved out of turn; it was {mover}'s turn", place)
        else:
            self.add(FindingCode.UNKNOWN_PLAYER, self.stranger(who), place)
        return False

    def after_end(self, place: Place) -> Flow:
        """A move once the hand is knocked or over (other than the defence)."""
        if self.end == "illegal":
            return STOP  # what follows an illegal knock depends on house rules: not checked
        if self.end == "stock" and self.rules.stock_end == "void":
            self.add(FindingCode.STOCK_EXHAUSTED,
                     f"the hand ended when the stock was down to {self.rules.stock_floor} cards, "
                     "but play went on", place, knobs=("stock_end",))
        else:
            ended_by = (self.end,) if self.end in ("max_discard_draws", "repeat_discard_draw") else ()
            self.add(FindingCode.MOVES_AFTER_END, "play went on after the end of the hand", place,
                     knobs=ended_by)
        return STOP

    # -- the moves of play --------------------------------------------------------------

    def turn_starts(self, who: str, place: Place) -> int | Flow:
        """The seat of ``who``, starting a turn now with a pass or a draw; else what the move
        comes to (play after the end, a turn drawn and not ended, a stranger). A move out of
        turn is reported and played as its player's, as a record shows it."""
        if self.phase >= KNOCKED:
            return self.after_end(place)
        if self.drawn:
            return self.owes_discard(who, place)
        p = self.seat(who, place)
        return ABANDON if p < 0 else p

    def pass_(self, who: str, place: Place) -> Flow:
        """A pass: of the first upcard, or of the last discard at the wall."""
        p = self.turn_starts(who, place)
        if isinstance(p, Flow):
            return p
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
            self.add(FindingCode.UPCARD_RITUAL, message, place, knobs=("first_turn",))
            self.expected = 1 - p  # a pass, legal or not, hands the turn over
            if phase == NORMAL:
                self.turns += 1
        else:
            self.add(FindingCode.ILLEGAL_PASS,
                     f"{who} passed; a pass is allowed only on the first upcard or at the wall", place)
            self.expected = 1 - p
        return GO

    def draw(self, who: str, card: object, place: Place) -> Flow:
        """A stock draw (``card`` None: the stock's top card, or one the record does not show)."""
        return self.draw_half(who, "stock", card, place)

    def take(self, who: str, card: object, place: Place, knocking: bool | None = None) -> Flow:
        """A take from the discard pile: the upcard, the top discard, the last discard at the
        wall. ``knocking``: whether the turn is known to end in a knock (a record shows it);
        None at a live table, where a take at the wall that must lead to a knock is judged at
        the turn's end."""
        return self.draw_half(who, "discard", card, place, knocking)

    def draw_half(self, who: str, source: str, card: object, place: Place,
                  knocking: bool | None = None) -> Flow:
        """The first half of a turn, its draw as the stage reads it; the hand stays ``drawn``
        until the turn's discard or knock, unless the draw ended it."""
        p = self.turn_starts(who, place)
        if isinstance(p, Flow):
            return p
        self.turns += 1
        counted = self.opening(who, source, place, knocking)
        if isinstance(counted, Flow):
            return counted
        self.mover = p
        step = self.draw_stock(who, p, card, place) if source == "stock" else (
            self.draw_discard(who, p, card, place, counted))
        if step is not None:
            return step
        self.drawn = True
        return GO

    def opening(self, who: str, source: str, place: Place, knocking: bool | None) -> bool | Flow:
        """How the stage reads a turn's draw: whether a discard draw counts toward
        ``max_discard_draws``; a :class:`Flow` when the stage settles the turn by itself."""
        phase = self.phase
        if phase == NORMAL:
            return True
        if phase == WALL:
            only_to_knock = takes_only_to_knock(self.rules)
            if source == "discard" and (knocking is not False or not only_to_knock):
                self.wall_take = only_to_knock and knocking is None  # a table's: judged at the turn's end
                return False
            self.ended_at_wall(who, source, place)
            return GO
        if phase in (RITUAL, FORCED):
            if source == "stock" and phase == RITUAL:
                self.add(FindingCode.UPCARD_RITUAL,
                         f"{who} drew from the stock before both players passed the upcard", place,
                         knobs=("first_turn",))
            elif source == "discard" and phase == FORCED:
                self.add(FindingCode.UPCARD_RITUAL, f"{who} took the upcard after both players passed it",
                         place, knobs=("first_turn",))
            self.phase = NORMAL
            return False
        self.add(FindingCode.UPCARD_RITUAL,  # the eleven-card opening
                 f"{who} was dealt 11 cards and must open by discarding, not drawing", place,
                 knobs=("first_turn",))
        return ABANDON

    def ended_at_wall(self, who: str, source: str, place: Place) -> None:
        """A stock draw at the wall, or the last discard taken there without a knock where the
        rules allow it only to knock: the hand is a draw."""
        if source == "discard":
            message = (f"{who} took the last discard without knocking; at the wall it may be "
                       "taken only to knock, so the hand is a draw")
            self.add(FindingCode.STOCK_EXHAUSTED, message, place, knobs=("stock_end",))
        else:
            self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                     f"{who} drew from the stock, which is down to its last "
                     f"{self.rules.stock_floor} cards; the hand is a draw", place, knobs=("stock_floor",))
        self.phase, self.end = OVER, "wall"

    def open_turn(self, who: str, place: Place) -> Flow:
        """A turn that begins with no draw: the eleven-card opening, else a turn with no draw."""
        if self.phase >= KNOCKED:
            return self.after_end(place)
        p = self.seat(who, place)
        if p < 0:
            return ABANDON
        self.turns += 1
        if self.phase != ELEVEN:
            if self.phase in (RITUAL, FORCED):
                self.phase = NORMAL
            self.add(FindingCode.NO_DRAW, f"{who} took no card at the start of the turn", place)
            return ABANDON
        self.phase = NORMAL
        self.taken = -1
        self.mover = p
        self.drawn = True
        return GO

    def owes_discard(self, who: str, place: Place, drew: str | None = None) -> Flow:
        """Another move where the turn's discard or knock is due (``drew``: the card a record
        shows drawn, when a record's turn ends without its discard)."""
        message = (f"{who} drew {drew} but the record shows no discard" if drew is not None
                   else f"{who} has drawn and must discard or knock first")
        self.add(FindingCode.MISSING_DISCARD, message, place)
        return ABANDON

    def draw_stock(self, who: str, p: int, c: object, place: Place) -> Flow | None:
        """A stock draw; None when the turn goes on to its discard or knock."""
        floor = self.rules.stock_floor
        if not may_draw_stock(self.rules, self.stock_left):
            self.add(FindingCode.DRAW_FROM_EMPTY_STOCK,
                     f"{who} drew from the stock, which is down to its last {floor} cards", place,
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
                return self.not_a_card(f"{who} drew", c, place)
            self.add(FindingCode.STOCK_DRAW_MISMATCH,
                     f"{who} drew {card_name(c)} from the stock, but the next stock card is "  # type: ignore[arg-type]
                     f"{card_name(top)}", place)
            # forget the stock order: its cards (the expected one too) are unseen now
            for s in stock[self.stock_pos - 1:]:
                self.unseen |= 1 << s
            self.stock = None
        if c is None:
            self.unknown[p] += 1
            return None
        if not is_card(c):
            return self.not_a_card(f"{who} drew", c, place)
        assert isinstance(c, int)
        bit = 1 << c
        if self.unseen & bit:
            self.unseen ^= bit
            self.held[p] |= bit
            return None
        where = self.where(c)
        self.add(FindingCode.DUPLICATE_CARD,
                 f"{who} drew {card_name(c)} from the stock, but it is " + (where or "already in play"),
                 place)
        return ABANDON

    def draw_discard(self, who: str, p: int, c: object, place: Place, counted: bool) -> Flow | None:
        """A draw from the discard pile; None when the turn goes on to its discard or knock."""
        pile = self.pile
        if not pile:
            self.add(FindingCode.NOT_TOP_DISCARD, f"{who} drew from the discard pile, but it is empty", place)
            return ABANDON
        top = pile[-1]
        if c is None or c == top:
            pile.pop()
            c = top
        else:
            if not is_card(c):
                return self.not_a_card(f"{who} drew", c, place)
            assert isinstance(c, int)
            self.add(FindingCode.NOT_TOP_DISCARD,
                     f"{who} took {card_name(c)} from the discard pile, but the top card is {card_name(top)}",
                     place)
            if c not in pile:
                return ABANDON
            pile.remove(c)
        self.held[p] |= 1 << c
        self.from_pile |= 1 << c
        self.taken = c
        cap = self.rules.max_discard_draws
        if not counted or cap is None:
            return None
        self.draws += 1
        if self.draws < cap:
            return None
        self.phase, self.end = OVER, "max_discard_draws"
        return GO

    def cut_short(self, who: str, goes_on: str | None, place: Place) -> Flow:
        """A turn whose draw ended the hand; ``goes_on``: the discard or knock the turn shows
        after it ("discard", "knock"), which does not count when the draw was the last the
        rules allow from the discard pile."""
        if self.end != "max_discard_draws" or goes_on is None:
            return GO
        cap = self.rules.max_discard_draws
        self.add(FindingCode.MOVES_AFTER_END,
                 f"the hand ended as a draw with the {_ordinal(cap or 0)} draw from the discard pile, so "
                 f"{who}'s {goes_on} does not count", place, knobs=("max_discard_draws",))
        return STOP

    def turn_ends(self, who: str, place: Place) -> Flow | None:
        """Whether ``who`` may end a turn now, with a discard or a knock: None when it ends the
        turn it drew (or opens one with no draw, as the eleven-card deal does), else what the
        move comes to (play after the end, no draw, a move out of turn)."""
        if self.phase >= KNOCKED:
            return self.after_end(place)
        if not self.drawn:
            opened = self.open_turn(who, place)
            return None if opened is GO else opened
        return None if self.is_mover(who, place) else ABANDON

    def discard(self, who: str, x: object, place: Place) -> Flow:
        """The discard that ends a turn (at the eleven-card opening, the whole turn)."""
        refused = self.turn_ends(who, place)
        if refused is not None:
            return refused
        p = self.mover
        if self.wall_take:
            return self.wall_take_unused(p, place)
        self.drawn = False
        if x.__class__ is not int or x < 0 or x > 51:  # type: ignore[operator,unused-ignore]
            self.add(FindingCode.BAD_CARD, f"{who} discarded {excerpt(x)}, which is not a card", place)
            return ABANDON
        assert isinstance(x, int)
        if not self.take_from_hand(p, x):
            self.not_held(p, "discarded", x, place)
            return ABANDON
        if x == self.rules.banned_discard(self.taken):
            self.add(FindingCode.SAME_CARD_DISCARD,
                     f"{who} discarded {card_name(x)}, the card just taken from the discard pile", place,
                     knobs=("no_same_card_discard",))
        self.pile.append(x)
        if self.rules.repeat_discard_draw:
            if x == self.taken and self.repeat:
                self.phase, self.end = OVER, "repeat_discard_draw"
                return GO
            self.repeat = x == self.taken
        self.turn_over(p)
        return GO

    def wall_take_unused(self, p: int, place: Place) -> Flow:
        """A discard after taking the last discard at the wall where the rules allow it only to
        knock: the take is undone and the hand is a draw."""
        top = self.taken
        self.held[p] &= ~(1 << top)
        self.pile.append(top)
        self.drawn = self.wall_take = False
        self.ended_at_wall(self.players[p], "discard", place)
        return GO

    def knock(self, who: str, turn: Turn) -> Flow:
        """The knock that ends a turn (its face-down discard, its melds), or big gin."""
        refused = self.turn_ends(who, turn.place)
        if refused is not None:
            return refused
        p = self.mover
        self.drawn = self.wall_take = False
        self.result.stock_left = self.stock_left
        if not self.check_knock(p, turn, self.taken):
            return ABANDON
        self.knocker = p
        self.phase = KNOCKED
        if self.result.outcome == "illegal_knock":
            self.end = "illegal"
        return GO

    def turn_over(self, p: int) -> None:
        """The turn passes; at the stock floor the hand ends (void) or reaches the wall."""
        self.expected = 1 - p
        if at_the_floor(self.rules, self.stock_left):
            if self.rules.stock_end == "void":
                self.phase, self.end = OVER, "stock"
            else:
                self.phase = WALL

    # -- the defence ---------------------------------------------------------------------

    def lay_off(self, who: str, card: Card, onto: int, place: Place) -> Flow:
        """The defender lays ``card`` off on the knocker's meld ``onto`` (0-based); the
        layoffs are judged with the defence (:meth:`judge_defence`, :meth:`finish`)."""
        if self.phase < KNOCKED:
            self.add(FindingCode.DEFENCE_WITHOUT_KNOCK, f"{who} shows a defence, but nobody has knocked",
                     place)
            return GO
        if self.phase > KNOCKED or self.defence is not None:
            return self.after_end(place)
        self.laid = (*self.laid, (card, onto))
        return GO

    def finish(self, who: str, defence: Defence) -> Flow:
        """The defence shown: the defender's melds and layoffs, judged when the hand is ruled."""
        if self.phase < KNOCKED:
            self.add(FindingCode.DEFENCE_WITHOUT_KNOCK,
                     f"{who} shows a defence, but nobody has knocked", defence.place)
            return GO
        if self.phase == KNOCKED and self.defence is None:
            self.defence = defence
            self.finished = True
            return GO
        return self.after_end(defence.place)

    def judge_defence(self, defence: Defence) -> Finding | None:
        """The first error the defence makes as the hand's ruling would find it, the state
        left as it was: a live table refuses a layoff or a finish on it."""
        saved = Snapshot(self)
        self.result = self.result.copy()
        before = len(self.findings)
        self.defend(self.knocker, defence)
        found = next((f for f in self.findings[before:] if f.severity == "error"), None)
        saved.restore(self)
        return found

    # -- what a player sees ------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """Everything player ``seat`` may know now, and nothing else."""
        from ginref.referee.moves import View  # the moves' module, which a record's replay never needs

        knocked = self.phase == KNOCKED or (self.finished and self.knocker >= 0)
        players = self.players
        seat_to_move = self.seat_to_move()
        taken = self.taken if self.drawn and self.mover == seat and self.taken >= 0 else None
        return View(
            player=players[seat], phase=self.phase_now(),
            to_move=players[seat_to_move] if seat_to_move >= 0 else None, hand=CardSet(self.held[seat]),
            pile=tuple(self.pile), opponent_took=CardSet(self.from_pile & self.held[1 - seat]),
            opponent_cards=self.held[1 - seat].bit_count() + self.unknown[1 - seat],
            stock=self.stock_left, upcard=self.hand.upcard, taken=taken, unknown=self.unknown[seat],
            knocker=players[self.knocker] if knocked and self.knocker >= 0 else None,
            melds=tuple(map(CardSet, self.melds)) if knocked else (),
            layoffs=self.laid if knocked else (),
        )

    # -- a live table's fast path: the plain move of normal play, beside its checked twin --------
    #
    # Each applies the move when it is plain (in normal play, by the player to move, nothing to
    # report, the hand going on) and says so; else it changes nothing and the checked path
    # (:meth:`draw`, :meth:`take`, :meth:`discard`) rules on the move. The live table asks them
    # first (an OpenSpiel rollout is mostly such moves); ``tests/referee/test_table.py`` plays
    # random games both ways under every preset and compares every field after every move.

    def quick_draw(self, p: int, card: object = None) -> Card:
        """The stock's top card drawn by ``p`` (``card``: the card a stock whose order is not
        known deals, one not yet seen); -1 when the draw is not plain."""
        stock = self.stock
        if (self.phase != NORMAL or self.drawn or p != self.expected
                or not may_draw_stock(self.rules, self.stock_left)):
            return -1
        if card is None and stock is not None:
            top = stock[self.stock_pos]
            self.stock_pos += 1
        elif stock is None and type(card) is int and 0 <= card < 52 and self.unseen >> card & 1:
            top = card
            self.unseen ^= 1 << top
        else:
            return -1
        self.stock_left -= 1
        self.held[p] |= 1 << top
        self.taken = -1
        self.turns += 1
        self.mover, self.drawn = p, True
        return top

    def quick_take(self, p: int) -> Card:
        """The top discard taken by ``p``; -1 when the take is not plain (the last the rules
        allow from the pile ends the hand)."""
        pile, cap = self.pile, self.rules.max_discard_draws
        if (self.phase != NORMAL or self.drawn or p != self.expected or not pile
                or (cap is not None and self.draws + 1 >= cap)):
            return -1
        top = pile.pop()
        bit = 1 << top
        self.held[p] |= bit
        self.from_pile |= bit
        self.taken = top
        self.turns += 1
        if cap is not None:
            self.draws += 1
        self.mover, self.drawn = p, True
        return top

    def quick_discard(self, x: object) -> bool:
        """The discard of ``x`` that ends the turn of the player who drew; False when it is not
        plain (a card not held, the same-card rule, a repeated discard under
        ``repeat_discard_draw``)."""
        if self.phase != NORMAL or not self.drawn or self.wall_take or x.__class__ is not int:
            return False
        assert isinstance(x, int)
        p, bit, rules, taken = self.mover, 1 << x if 0 <= x < 52 else 0, self.rules, self.taken
        if not self.held[p] & bit or (taken >= 0 and x == rules.banned_discard(taken)):
            return False  # (after a stock draw no card is banned: the same-card rule's call spared)
        if rules.repeat_discard_draw:
            if x == taken:
                return False
            self.repeat = False
        self.held[p] ^= bit
        self.pile.append(x)
        self.drawn = False
        self.turn_over(p)
        return True

    def least_differs(self, cards: Mask, ev: Turn) -> bool:
        """Whether a turn's claim of the mover's least deadwood after it (EAAI's per-turn
        report) is not what its ten cards allow; no claim, or not ten known cards: False."""
        return (ev.least_deadwood is not None and card_count(cards) == 10
                and min_deadwood(cards, self.system) != ev.least_deadwood)

    def quick_turns(self, events: Sequence[Pass | Turn | Defence], i: int) -> int:
        """Apply the plain legal turns from ``events[i]`` on (a draw and a discard in turn, in
        the normal phase, with nothing to report) and return the index of the first other
        event; the state is kept in locals and written back once.

        The twin of the checked path (:meth:`draw`, :meth:`take` and :meth:`discard`):
        ``tests/referee/test_replay_twins.py`` replays generated, corrupted and OpenSpiel games
        both ways and compares them.
        """
        held, pile, stock = self.held, self.pile, self.stock
        expected, pos, unseen = self.expected, self.stock_pos, self.unseen
        left, taken, draws = self.stock_left, self.taken, self.draws
        from_pile = self.from_pile
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
                from_pile |= 1 << top
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
            self.draws, self.from_pile = draws, from_pile
            self.turns += moved
            self.repeat = repeat
            self.turn_over(1 - expected)
        return i + moved

    # -- the ruling --------------------------------------------------------------------------

    def rule(self, i: int) -> HandRuling:
        """Rule on the hand as the moves left it (``i``: the record's last event replayed, -1 at
        a table)."""
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
        phase = phase_of(self.phase, self.drawn).value
        seat = 1 - self.knocker if self.phase == KNOCKED else self.expected
        result = self.result
        result.outcome = result.end = "unfinished"
        reason = claimed.reason or "stopped"
        result.unfinished = Unfinished(reason, claimed.stopped_by, self.players[seat], phase)
        return True


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
