"""The live table: one hand played move by move under any rule set, the referee inside the game loop.

In the style of python-chess's ``Board`` (a player that knocks when it can, else takes the
last move listed: a pass, a stock draw, its highest discard):

>>> table = Table(("Ann", "Bo"), "standard", dealer="Ann", seed=3)
>>> table.push("pass")                    # a Move or its text; IllegalMove if refused
Move.parse('pass')
>>> while not table.is_over():
...     moves = table.legal_moves()
...     knocks = [m for m in moves if m.kind == "knock"]
...     _ = table.push(knocks[0] if knocks else moves[-1])
>>> table.moves[-2:]
[Move.parse('knock QC [7C 8C 9C] [4D 5D 6D]'), Move.parse('finish')]
>>> verdict = table.outcome()             # the HandVerdict that adjudicate gives
>>> verdict.outcome, verdict.winner, verdict.points
('knock', 'Ann', 63)
>>> from ginref.referee import adjudicate
>>> adjudicate(table.record()).clean      # the record ``ginref verify`` rules clean
True

The contract (stable; the OpenSpiel adapter and the line protocol build on it):

- ``Table(players=("North", "South"), rules="standard", dealer=None, *, deal=None, deck=None,
  hands=None, upcard=None, stock=None, seed=None)``: ``deal`` a :class:`~ginref.referee.deal.Deal`,
  or the same deal by keywords; ``rules`` is a preset name, a :class:`Rules` or the
  path of a TOML rules file (an ``os.PathLike``, or a ``str`` ending in ``.toml``); ``dealer``
  defaults to the first player. The deal is one of: ``deck`` (52 cards from the top: the
  non-dealer's 10, or 11 with the eleven-card deal, then the dealer's 10, then the upcard
  unless the rules have none, then the 31 of the stock), ``hands`` (each player's cards, a
  mapping by name or a pair in the players' order) with ``upcard`` and ``stock`` (31 cards from
  the top), or ``seed`` (a seeded shuffle; neither: a random one). Cards are ints or text.
  ``stock_at_draw=True`` (with ``hands`` and ``upcard``, no ``stock``): the stock's order is
  not known, and each draw names the card it deals (``Move.draw(card)``, ``draw 7H``; a
  plain ``draw`` is refused), as OpenSpiel's chance deals it.
  A deal that is not a deal raises :class:`~ginref.errors.RulingError`.
- ``Table.from_record(record, hand=0, rules=None)``: a recorded hand's deal, no moves played
  (the deal may leave cards unknown: ``??`` draws, no stock).
- ``phase`` (:class:`Phase`), ``to_move`` (a name; None once the hand is over), ``players``,
  ``rules``, ``system`` (its meld system), ``dealer``, ``hand_index``, ``knock_limit`` (Oklahoma:
  the upcard's), ``moves`` (the moves pushed this hand), ``findings`` (the advisories met, such
  as ``knock_not_best``), ``is_over()``.
- :class:`Move` values: ``Move.take(card=None)``, ``Move.pass_()``, ``Move.draw(card=None)``,
  ``Move.discard(card)``, ``Move.knock(card, melds, ending="knock")`` (``card`` None: big gin;
  ``melds`` as masks), ``Move.layoff(card, onto)`` (``onto`` the knocker's meld, 0-based) and
  ``Move.finish(melds=(), bare=False)``, which ends the defence (no melds: the least-deadwood
  arrangement of the defender's cards left; ``bare``, text ``finish []``: no meld shown).
  ``str(move)`` is its text, :meth:`Move.parse` reads it, ``repr(move)`` pastes back, and
  :func:`moves_of` turns a record's event into its moves; a move that is no move (a field its
  kind does not have, a value that is no card) is refused when built.
- ``legal_moves()``: every move ``to_move`` may make, in canonical order (:data:`MOVE_KINDS`,
  then by card, then by meld): take and pass (the upcard, or the last discard at the wall),
  draw, every discard, one knock per discard that leaves deadwood within the knock limit
  (declared with the least-deadwood arrangement; gin where that leaves none) and big gin
  where the rules have it, then each layoff that fits and ``finish`` for the defender.
  :meth:`push` accepts any other legal declaration too (a withheld meld is legal).
- ``declaration(move)``: for a knock or finish declared so far, the move as :meth:`push`
  plays it when legal as it stands (else None), and whether more melds can make it legal;
  ``layoffs_allowed``: whether the defender may lay off onto the knock made.
- ``push(move, player=None)``: a :class:`Move` or its text in the ``.gin`` words (``take``,
  ``pass``, ``draw``, ``discard 7H``, ``knock KH [3C 4C 5C] [9D 9H 9S]``, ``gin 9D [...]``,
  ``big_gin [...]``, ``6C>1`` to lay 6C off on meld 1, ``finish`` or ``defend [JC JD JH]``).
  Raises :class:`IllegalMove` (its ``code``, ``knobs``, ``rule`` and ``place``) and changes nothing;
  unreadable text raises :class:`~ginref.errors.NotationError`. ``player``, when given,
  must be ``to_move`` (else ``wrong_turn``).
  ``is_legal(move)``: whether ``push`` would play it.
- ``pop()`` takes back the last move (IndexError with none); ``copy()`` is independent.
- ``view(player)``: a :class:`View`, everything that player may know and nothing else (its
  card sets as :class:`~ginref.cards.CardSet`).
- ``outcome()``: the hand's :class:`~ginref.referee.verdict.HandVerdict` once it is over
  (None before): what :func:`~ginref.referee.verdict.adjudicate` rules on :meth:`record`.
- ``record()``: the game so far as a :class:`~ginref.records.GameRecord` with the claims
  filled in (an unfinished hand claims ``unfinished``): ``ginref verify`` rules it clean.
- A game: ``game()`` is the :class:`~ginref.referee.verdict.Verdict` on the hands so far (the
  totals, ``game_over``, the winner); ``next_hand(deal=...)`` (or its keywords) deals the
  next hand, with the dealer the rules name, once the hand is over and the game is not.

Each move is pushed onto the hand's one machine (:class:`~ginref.referee.hand.Hand`), the same
one a record's replay pushes its events onto (:mod:`ginref.referee.replay`); a move that makes
an error there is refused, and the state put back by name
(:class:`~ginref.referee.state.Snapshot`). :meth:`legal_moves` is the fast twin of trying every
move that way, asking the same predicates (:mod:`ginref.referee.rules_of_play`,
:meth:`Rules.banned_discard`); ``tests/referee/test_table.py`` compares them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import NoReturn, Union

import msgspec

from ginref.cards import Card, Mask, scan
from ginref.errors import GinrefError, NotationError, RulingError
from ginref.game import players_problem
from ginref.layoffs import fits
from ginref.melds import (
    MeldSystem,
    best_arrangement,
    is_meld,
    mask_points_in,
    min_deadwood,
    min_deadwood_after_discard,
)
from ginref.notation import excerpt
from ginref.records.model import (
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Turn,
)
from ginref.referee.deal import CardsLike, Deal, HandsLike
from ginref.referee.findings import Finding, FindingCode
from ginref.referee.hand import Hand
from ginref.referee.moves import (
    DRAW,
    ENDINGS,
    FINISH,
    KIND_ORDER,
    MAX_MOVE_TEXT,
    MOVE_KINDS,
    PASS,
    PLAIN_KINDS,
    TAKE,
    IllegalMove,
    Move,
    MoveKind,
    View,
    discard_moves,
    draw_moves,
    moves_of,
)
from ginref.referee.rules_of_play import may_draw_stock, takes_only_to_knock, within_knock_limit
from ginref.referee.seat import seat_wording
from ginref.referee.state import (
    ABANDON,
    FORCED,
    KNOCKED,
    NORMAL,
    WALL,
    Flow,
    HandRuling,
    Phase,
    PlainSnapshot,
    Snapshot,
    phase_of,
)
from ginref.referee.verdict import (
    GameSoFar,
    HandVerdict,
    RuledHand,
    Verdict,
    adjudicate_after,
    adjudicate_one_more,
    replayed_hand,
    ruled_hand,
)
from ginref.rules import Rules, find_rules, load_rules_file, record_rules

__all__ = [
    "MAX_MOVE_TEXT", "MOVE_KINDS", "Deal", "IllegalMove", "Move", "MoveKind", "NotADeal", "Phase", "Table",
    "View", "moves_of",
]

class NotADeal(RulingError):
    """A deal a table cannot be set to; ``finding`` is the replay's, when it made one."""

    def __init__(self, message: str, finding: Finding | None = None) -> None:
        super().__init__(message)
        self.finding = finding



# -- building a table ----------------------------------------------------------------------------

RulesLike = Union[str, Rules, "os.PathLike[str]"]


def _rules(rules: RulesLike) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, os.PathLike) or (isinstance(rules, str) and rules.endswith(".toml")):
        return load_rules_file(rules)
    if isinstance(rules, str):
        return find_rules(rules)
    raise TypeError(f"rules are a name, a Rules or a rules file, not {type(rules).__name__}")


def _one_deal(deal: Deal | None, named: Deal) -> Deal:
    """``deal``, or the deal the keywords name (a fresh shuffle when they name none)."""
    if deal is None:
        return named
    if not isinstance(deal, Deal):
        raise RulingError(f"a deal is a Deal, not {type(deal).__name__}")
    if named != Deal():
        raise RulingError("give the deal one way: a Deal, or the deck, hands or seed")
    return deal


def _players(players: Sequence[str]) -> tuple[str, str]:
    names = tuple(players) if not isinstance(players, str) else (players,)
    problem = players_problem(names)  # the game's own test of names: long ones fail here, not at the end
    if problem is not None:
        raise RulingError(problem)
    return names[0], names[1]


# -- the table -----------------------------------------------------------------------------------

_AT_TABLE = Place()
"""where a move at the table stands: nowhere in a record (its findings stand at the hand)"""


_DOING = {Phase.UPCARD: "take or pass the upcard", Phase.DRAW: "draw", Phase.DISCARD: "discard or knock",
          Phase.WALL: "take or pass the last discard", Phase.DEFENCE: "lay off or finish"}
"""what the player to move is to do, for :meth:`Table.__repr__`"""

_FIELDS = ("players", "rules", "system", "_done", "_ruled", "_hand", "_index", "_core", "_history", "moves",
           "_cards", "_stock_at_draw", "_phase", "_adjudged", "_so_far")
"""every field of a :class:`Table`, by name: what :meth:`Table.copy` copies and a refused
:meth:`Table.next_hand` puts back"""


class Table:
    """A hand played live, move by move, refereed by the same replay that rules on records.

    Built from the players, the rules (a preset name, a :class:`Rules` or a TOML rules file),
    the dealer (default: the first player) and the deal: ``deck`` (52 cards from the top:
    the non-dealer's 10, or 11 with the eleven-card deal, the dealer's 10, the upcard, the
    31 of the stock), ``hands`` with ``upcard`` and ``stock``, or a ``seed`` for a shuffle.
    A deal that is not one raises :class:`RulingError`. :meth:`legal_moves`, :meth:`push`
    (a :class:`Move` or its ``.gin`` words; :class:`IllegalMove` when refused, the table
    unchanged), :meth:`pop`, :meth:`copy`, :meth:`view`, :meth:`outcome` and :meth:`record`
    work as python-chess's ``Board``; :meth:`next_hand` and :meth:`game` play a whole game.
    """

    def __init__(
        self,
        players: Sequence[str] = ("North", "South"),
        rules: RulesLike = "standard",
        dealer: str | None = None,
        *,
        deal: Deal | None = None,
        deck: CardsLike | None = None,
        hands: HandsLike | None = None,
        upcard: Card | str | None = None,
        stock: CardsLike | None = None,
        seed: int | None = None,
        stock_at_draw: bool = False,
    ) -> None:
        deal = _one_deal(deal, Deal.of(deck=deck, hands=hands, upcard=upcard, stock=stock, seed=seed,
                                       stock_at_draw=stock_at_draw))
        self.players = _players(players)
        self.rules = _rules(rules)
        self.system = MeldSystem.from_rules(self.rules)
        self._done: list[HandRecord] = []
        self._ruled: list[RuledHand] = []
        self._so_far: GameSoFar | None = None
        """the verdict on the hands done, while the game goes on: the next is ruled on top of it"""
        """each hand done, replayed once: its ruling and findings"""
        self._deal(dealer or self.players[0], deal)

    @classmethod
    def from_record(cls, record: GameRecord, hand: int = 0, rules: Rules | None = None) -> Table:
        """The deal of hand ``hand`` of ``record`` (0-based), no move played, under ``rules``
        (None: the record's own; a problem with them raises :class:`RulingError`)."""
        if rules is None:
            rules = record_rules(record.rules, record.overrides).required()
        dealt = record.hands[hand]
        table = cls.__new__(cls)
        table.players = _players(record.players)
        table.rules = rules
        table.system = MeldSystem.from_rules(rules)
        table._done = []
        table._ruled = []
        table._so_far = None
        bare = msgspec.structs.replace(dealt, events=(), result=None, score_after=None, next_dealer=None)
        table._start(bare, hand)
        return table

    def _deal(self, dealer: str, deal: Deal) -> None:
        if dealer not in self.players:
            raise RulingError(f"the dealer {dealer!r} is not one of the players")
        hand = deal.hand(self.players, dealer, self.rules, number=len(self._done) + 1)
        self._start(hand, len(self._done))
        stock_at_draw = self._stock_at_draw = deal.stock_at_draw
        problems = [f for f in self._core.findings if f.severity == "error"]
        if problems or self._core.unknown != [0, 0] or (self._core.stock is None and not stock_at_draw):
            why = problems[0].message if problems else "the deal does not show every card"
            raise RulingError(f"not a deal: {why}")

    def _start(self, hand: HandRecord, index: int) -> None:
        findings: list[Finding] = []
        self._hand = hand
        self._index = index
        self._core = Hand(hand, index, self.players, self.rules, self.system, findings)
        self._history: list[Snapshot | PlainSnapshot] = []
        self.moves: list[Move] = []
        self._cards: list[Card | None] = []
        """per move, the card it moved where the move does not say (a draw's)"""
        self._stock_at_draw = False
        """the stock's order is not known: each draw names the card it deals"""
        self._phase: Phase | None = None
        """:attr:`phase`, worked out once after each move"""
        self._adjudged: tuple[GameRecord, Verdict, list[RuledHand]] | None = None
        """the game so far as a record, its verdict and rulings, worked out once after each move"""
        if not self._core.deal():
            first = findings[0] if findings else None
            raise NotADeal(f"not a deal: {first.message}" if first else "not a deal", first)

    # -- where play stands -------------------------------------------------------------------

    @property
    def dealer(self) -> str:
        """Who dealt this hand."""
        return self._hand.dealer

    @property
    def hand_index(self) -> int:
        """The hand being played, 0-based in the game."""
        return self._index

    @property
    def findings(self) -> tuple[Finding, ...]:
        """What the referee noted in the moves played (advisories; a record's deal may add errors)."""
        return tuple(self._core.findings)

    @property
    def knock_limit(self) -> int:
        """The most deadwood a knock may show in this hand (Oklahoma: set by the upcard)."""
        return self._core.result.knock_limit

    @property
    def phase(self) -> Phase:
        """What the player to move must do (:class:`Phase`)."""
        phase = self._phase
        if phase is None:
            phase = self._phase = self._phase_now()
        return phase

    def _phase_now(self) -> Phase:
        return self._core.phase_now()

    @property
    def to_move(self) -> str | None:
        """The player to move (the defender after a knock); None once the hand is over."""
        seat = self._seat_to_move()
        return None if seat < 0 else self.players[seat]

    def _seat_to_move(self) -> int:
        return self._core.seat_to_move()

    def is_over(self) -> bool:
        """Whether the hand has ended (a knock defended, or a void end)."""
        return self.phase is Phase.OVER

    def __repr__(self) -> str:
        """``<Table Ann v Bo, standard, hand 1, move 3: Bo to draw, 31 in the stock>``."""
        where = f"hand {self._index + 1}, move {len(self.moves) + 1}"
        to_move = self.to_move
        now = f"{to_move} to {_DOING[self.phase]}" if to_move is not None else "over"
        return (f"<Table {self.players[0]} v {self.players[1]}, {self.rules.label}, {where}: {now}, "
                f"{self._core.stock_left} in the stock>")

    # -- the moves -----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move :attr:`to_move` may make now, in canonical order (the module's contract)."""
        phase = self.phase
        core = self._core
        if phase is Phase.UPCARD:
            return [TAKE, PASS]
        if phase is Phase.DRAW:
            return self._draws()
        if phase is Phase.WALL:
            return [TAKE, PASS] if self._may_take_at_wall(core.pile[-1], core.expected) else [PASS]
        if phase is Phase.DISCARD:
            return self._discards()
        if phase is Phase.DEFENCE:
            return [*self._layoff_moves(), FINISH]
        return []

    def _draws(self) -> list[Move]:
        core = self._core
        moves = []
        if core.phase != FORCED and core.pile:
            moves.append(TAKE)
        if may_draw_stock(self.rules, core.stock_left):
            if self._stock_at_draw:  # each draw names the card it deals: any card not yet seen
                moves += draw_moves(core.unseen)
            else:
                moves.append(DRAW)
        return moves

    def _may_take_at_wall(self, top: Card, seat: int) -> bool:
        """Whether player ``seat`` may take the last discard ``top`` at the wall: under
        ``take_or_dead`` always, else only when a knock is left with it
        (:func:`takes_only_to_knock`). The one home of the wall for the table."""
        if not takes_only_to_knock(self.rules):
            return True
        hand = self._core.held[seat] | 1 << top
        banned = self.rules.banned_discard(top)
        return any(self._knock_for(hand, c) is not None for c in scan(hand) if c != banned)

    def _discards(self) -> list[Move]:
        """The discards, big gin, then the knocks, each by card: canonical order as made."""
        core = self._core
        seat = core.expected
        hand = core.held[seat]
        banned = self.rules.banned_discard(core.taken)
        wall = core.phase == WALL and takes_only_to_knock(self.rules)
        moves = [] if wall else discard_moves(hand & ~(1 << banned) if banned >= 0 else hand)
        if core.unknown[seat]:
            return moves
        big_gin = self.rules.big_gin_bonus is not None and hand.bit_count() == 11
        if big_gin and not min_deadwood(hand, self.system):
            moves.append(Move.knock(None, _declared(hand, self.system), "big_gin"))
        if within_knock_limit(min_deadwood_after_discard(hand, self.system), core.result.knock_limit):
            for c in scan(hand):
                knock = self._knock_for(hand, c) if c != banned else None
                if knock is not None:
                    moves.append(knock)
        return moves

    def _knock_for(self, hand: Mask, c: Card) -> Move | None:
        """The knock discarding ``c`` with the least deadwood, if within the limit."""
        kept = hand & ~(1 << c)
        limit = self._core.result.knock_limit
        if not within_knock_limit(min_deadwood(kept, self.system), limit):
            return None  # the count alone is seven times cheaper than the arrangement
        arrangement = best_arrangement(kept, self.system)
        if not within_knock_limit(arrangement.deadwood_points, limit):
            return None
        melds = tuple(m.mask for m in arrangement.melds)
        return Move("knock", c, melds, "knock" if arrangement.deadwood_points else "gin")

    def declaration(self, move: Move) -> tuple[Move | None, bool]:
        """A knock or a finish declared meld by meld (as OpenSpiel's actions lay it): the move
        as :meth:`push` plays it when it is legal as it stands (a knock with the ending its
        cards show), else None; and whether declaring more melds can make it legal.

        The fast twin of pushing the move, and the move with the least-deadwood arrangement
        of the cards left added (``tests/referee/test_table.py`` compares them)."""
        phase = self.phase
        if move.kind == "knock" and phase is Phase.DISCARD:
            return self._knock_declaration(move)
        if move.kind == "finish" and phase is Phase.DEFENCE:
            return self._finish_declaration(move)
        return None, False

    def _melded(self, melds: tuple[Mask, ...], held: Mask) -> Mask | None:
        """The cards of ``melds`` when each is a meld of cards in ``held``, none shared; else None."""
        melded = 0
        for m in melds:
            if type(m) is not int or m <= 0 or m & ~held or m & melded or not is_meld(m, self.system):
                return None
            melded |= m
        return melded

    def _knock_declaration(self, move: Move) -> tuple[Move | None, bool]:
        core, card, rules = self._core, move.card, self.rules
        seat = core.expected
        hand = core.held[seat]
        banned = rules.banned_discard(core.taken)
        if core.unknown[seat] or (card is not None and (type(card) is not int or not 0 <= card < 52
                                                         or not hand >> card & 1 or card == banned)):
            return None, False
        kept = hand if card is None else hand & ~(1 << card)
        melded = self._melded(move.melds, kept)
        if melded is None:
            return None, False
        rest = kept & ~melded
        least, limit = min_deadwood(rest, self.system), core.result.knock_limit
        if card is None:  # big gin: every card melded, where the rules score it
            big = rules.big_gin_bonus is not None and kept.bit_count() == 11
            return (Move.knock(None, move.melds, "big_gin") if big and not rest else None), big and not least
        if rules.knocker_must_meld_max:  # nothing above the least deadwood the cards allow
            limit = min(limit, min_deadwood(kept, self.system))
        dw = mask_points_in(self.system, rest)
        legal = within_knock_limit(dw, limit)
        played = Move("knock", card, move.melds, "knock" if dw else "gin") if legal else None
        return played, within_knock_limit(least, limit)

    def _finish_declaration(self, move: Move) -> tuple[Move | None, bool]:
        core = self._core
        laid = 0
        for c, _ in core.laid:
            laid |= 1 << c
        own = core.held[1 - core.knocker] & ~laid
        valid = self._melded(move.melds, own) is not None
        return (Move.finish(move.melds, bare=True) if valid else None), valid

    def _layoff_moves(self) -> list[Move]:
        core = self._core
        if not core.layoffs_allowed():
            return []
        current = list(core.melds)
        declared = core.melds
        laid = 0
        for c, at in core.laid:
            current[at] |= 1 << c
            laid |= 1 << c
        targets = current if self.rules.layoff_chaining else list(declared)
        own = core.held[1 - core.knocker] & ~laid
        limit = self.rules.layoff_chain_limit
        return [Move.layoff(c, at) for c in scan(own) for at, meld in enumerate(targets)
                if fits(meld, c, self.system, declared=declared[at], chain_limit=limit)]

    @property
    def layoffs_allowed(self) -> bool:
        """Whether the defender may lay off onto the knock made (the rules' ``layoff_on_*``)."""
        return self.phase is Phase.DEFENCE and self._core.layoffs_allowed()

    def push(self, move: Move | str, player: str | None = None) -> Move:
        """Play ``move`` (or its text) for :attr:`to_move`, and return it as a :class:`Move`.

        Raises :class:`IllegalMove` and changes nothing when the rules forbid it; text that
        is not a move raises :class:`~ginref.errors.NotationError`.
        """
        if type(move) is Move and move.kind in PLAIN_KINDS and move.ending is None and not move.bare:
            if self._push_plain(move, player):
                return move  # a plain move of normal play, the hand's fast path
        elif isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise TypeError(f"a move is a Move or its text, not {type(move).__name__}")
        elif move.kind not in KIND_ORDER or move.ending not in ENDINGS[move.kind] or (
                move.bare and (move.kind != "finish" or move.melds)):
            raise NotationError(f"not a move: {excerpt(move.kind)} ending {excerpt(move.ending)}")
        seat = self._seat_to_move()
        if player is not None and player not in self.players:
            self._refuse(FindingCode.UNKNOWN_PLAYER, f"{player!r} is not one of the players", move)
        mover = self.players.index(player) if player is not None else max(seat, 0)
        saved = self._save()
        try:
            card = self._apply(move, mover)
        except IllegalMove as refused:
            self._restore(saved)
            self._phase = None
            refused.seat_message = self._seat_wording(refused.code, move, mover)
            raise
        finally:
            self._phase = None
        self._history.append(saved)
        self.moves.append(move)
        self._cards.append(card)
        self._adjudged = None
        return move

    def _push_plain(self, move: Move, player: str | None) -> bool:
        """Push ``move`` when the hand's fast path takes it as plain (a stock draw, a take, a
        discard in normal play by the player to move); False, nothing changed, when not."""
        core = self._core
        if core.phase != NORMAL:
            return False
        seat = core.mover if core.drawn else core.expected
        if player is not None and player != self.players[seat]:
            return False
        kind, card = move.kind, move.card
        if kind == "pass" or (card is not None and kind == "take"):
            return False
        saved = PlainSnapshot(core)
        if kind == "discard":
            if not core.quick_discard(card):
                return False
            card = None
        else:
            card = core.quick_draw(seat, card) if kind == "draw" else core.quick_take(seat)
            if card < 0:
                return False
        self._history.append(saved)
        self.moves.append(move)
        self._cards.append(card)
        self._adjudged = None
        self._phase = phase_of(core.phase, core.drawn)  # a plain move never ends a defence
        return True

    def push_as_seat(self, move: Move | str, player: str) -> Move:
        """Push ``move`` for the seated ``player`` as the trust boundary takes it
        (:mod:`ginref.referee.seat`): a player who is not seated, and a draw that names a card
        (only the operator, or chance, knows the stock), are refused too. Every
        :class:`IllegalMove` carries its :attr:`~IllegalMove.seat_message`; unreadable text
        raises :class:`~ginref.errors.NotationError`, as :meth:`push` does."""
        place = f"hand {self._index + 1}, move {len(self.moves) + 1}"
        if player not in self.players:
            raise IllegalMove(f"{excerpt(player)} is not seated at this table", "unknown_player", place,
                              seat_message="you are not seated at this table")
        played = Move.parse(move) if isinstance(move, str) else move
        named_draw = type(played) is Move and played.kind == "draw" and played.card is not None
        if named_draw and not self._stock_at_draw:
            code = FindingCode.STOCK_DRAW_MISMATCH.value
            raise IllegalMove(f"{player} named the card of a draw", code, place, None, played,
                              seat_message=self._seat_wording(code, played, self.players.index(player)))
        return self.push(played, player)

    def _seat_wording(self, code: str, move: Move, seat: int) -> str:
        view = self.view(self.players[seat])
        return seat_wording(code, move, view, self.knock_limit, self.system)

    @property
    def stock_at_draw(self) -> bool:
        """Whether the stock's order is unknown and each draw names the card it deals."""
        return self._stock_at_draw

    def is_legal(self, move: Move | str, player: str | None = None) -> bool:
        """Whether :meth:`push` would play ``move`` (a :class:`Move` or its text) now: every
        move :meth:`legal_moves` lists, and any other legal declaration (a withheld meld).
        Text that is not a move raises :class:`~ginref.errors.NotationError`."""
        try:
            self.push(move, player)
        except IllegalMove:
            return False
        self.pop()
        return True

    def pop(self) -> Move:
        """Take back the last move of this hand; the table is as it was before it."""
        if not self._history:
            raise IndexError("no move to take back in this hand")
        self._restore(self._history.pop())
        self._cards.pop()
        self._adjudged = None
        return self.moves.pop()

    def copy(self) -> Table:
        """An independent table in the same state, with the same history."""
        twin = Table.__new__(Table)
        for name in _FIELDS:
            setattr(twin, name, getattr(self, name))
        twin._done = list(self._done)
        twin._ruled = list(self._ruled)
        twin.moves = list(self.moves)
        twin._cards = list(self._cards)
        twin._history = list(self._history)
        twin._core = self._core.clone()
        return twin

    def _save(self) -> Snapshot:
        return Snapshot(self._core)

    def _restore(self, saved: Snapshot | PlainSnapshot) -> None:
        saved.restore(self._core)
        self._phase = None

    # -- a move onto the hand ------------------------------------------------------------------

    def _apply(self, move: Move, seat: int) -> Card | None:
        """Push ``move`` onto the hand for player ``seat``; raise if the hand finds an error in
        it. Returns the card it moved where the move does not say (a draw's)."""
        core = self._core
        before = len(core.findings)
        name = self.players[seat]
        kind = move.kind
        drawn: Card | None = None
        if kind in ("knock", "layoff", "finish"):
            core.result = core.result.copy()  # the only moves that write the ruling: the saved one stays
        if kind == "pass":
            step = core.pass_(name, _AT_TABLE)
        elif kind == "draw":
            drawn, step = self._draw(move, name)
        elif kind == "take":
            drawn, step = self._take(move, seat, name)
        elif kind == "discard":
            step = core.discard(name, move.card, _AT_TABLE)
        elif kind == "knock":
            knock = Knock(move.ending or "knock", move.card, move.melds)
            step = core.knock(name, Turn(name, "none", None, None, knock))
        elif kind == "layoff":
            step = self._layoff(move, name)
        else:
            step = self._finish(move, name)
        self._check(before, move, step)
        return drawn

    def _check(self, before: int, move: Move, step: Flow | None = None) -> None:
        """Refuse the move when the hand found an error in it (or could not follow it)."""
        core = self._core
        for found in core.findings[before:]:
            if found.severity == "error":
                self._refuse_with(found.code, found.message, move, found.knobs)
        if step is ABANDON:
            last = core.findings[before] if len(core.findings) > before else None
            if last is None:
                self._refuse_with("cards_unknown", "the cards cannot be followed", move)
            self._refuse_with(last.code, last.message, move, last.knobs)

    def _refuse(self, code: FindingCode, message: str, move: Move, knobs: tuple[str, ...] = ()) -> NoReturn:
        self._refuse_with(code.value, message, move, knobs)

    def _refuse_with(self, code: str, message: str, move: Move, knobs: tuple[str, ...] = ()) -> NoReturn:
        """Refuse ``move`` with the finding's code and the knobs that decided it."""
        place = f"hand {self._index + 1}, move {len(self.moves) + 1}"
        rule = self.rules.setting(knobs[0]) if knobs else None
        raise IllegalMove(message, code, place, rule, move, knobs)

    def _draw(self, move: Move, name: str) -> tuple[Card | None, Flow]:
        """A stock draw: the card it dealt, and the hand's step."""
        core = self._core
        if (self._stock_at_draw and move.card is None and core.phase < KNOCKED and not core.drawn
                and name in self.players):
            self._refuse(FindingCode.BAD_CARD, f"{name} drew from a stock dealt at the draw: "
                         "the draw names the card it deals (draw 7H)", move)
        position, stock = core.stock_pos, core.stock
        step = core.draw(name, move.card, _AT_TABLE)
        return (stock[position] if stock is not None and move.card is None else move.card), step

    def _take(self, move: Move, seat: int, name: str) -> tuple[Card | None, Flow]:
        """A take from the pile: the card it took, and the hand's step. At the wall, where the
        last discard may be taken only to knock, a take that leaves no knock is refused here."""
        core = self._core
        top = core.pile[-1] if core.pile else None
        before = len(core.findings)
        step = core.take(name, move.card, _AT_TABLE)
        self._check(before, move, step)
        if core.wall_take and top is not None and not self._may_take_at_wall(top, seat):
            self._refuse(FindingCode.STOCK_EXHAUSTED,
                         f"{name} may take the last discard at the wall only to knock, and no knock "
                         "is left with it", move, ("stock_end",))
        return top, step

    def _layoff(self, move: Move, name: str) -> Flow:
        """A layoff, judged at once with the layoffs before it as the hand's ruling will judge them."""
        core = self._core
        card = move.card if move.card is not None else -1
        laying = core.phase == KNOCKED and core.defence is None
        step = core.lay_off(name, card, move.onto, _AT_TABLE)
        if laying:
            self._judge(Defence(name, (), core.laid), move)
        return step

    def _judge(self, defence: Defence, move: Move) -> None:
        found = self._core.judge_defence(defence)
        if found is not None:
            self._refuse_with(found.code, found.message, move, found.knobs)

    def _finish(self, move: Move, name: str) -> Flow:
        """The defence shown (no melds: the least-deadwood arrangement of the cards left), and
        the hand ruled."""
        core = self._core
        if core.phase != KNOCKED or core.defence is not None:
            return core.finish(name, Defence(name))  # no knock to answer, or the hand is over
        melds = move.melds
        if not melds and not move.bare:
            laid = 0
            for c, _ in core.laid:
                laid |= 1 << c
            melds = _declared(core.held[1 - core.knocker] & ~laid, self.system)
        defence = Defence(name, melds, core.laid)
        self._judge(defence, move)
        step = core.finish(name, defence)
        core.rule(len(core.hand.events) - 1)
        return step

    # -- what a player sees --------------------------------------------------------------------

    def view(self, player: str) -> View:
        """Everything ``player`` may know now, and nothing else."""
        if player not in self.players:
            raise RulingError(f"{player!r} is not one of the players")
        return self._core.view(self.players.index(player))

    # -- the ruling and the record -------------------------------------------------------------

    def outcome(self) -> HandVerdict | None:
        """The ruling on the hand once it is over (None before): what :func:`adjudicate` gives
        for :meth:`record`, with the settlement's cited steps."""
        if not self.is_over():
            return None
        if self._done:
            return self.game().hands[-1]
        return ruled_hand(self._bare_record(), self.rules, self._ruling())

    def _ruling(self) -> HandRuling:
        """The replay's ruling on the hand over: a void end is ruled as the replay's finish
        rules it (a defended knock was ruled at the finish)."""
        core = self._core
        if core.finished:
            return core.result
        saved = core.result
        core.result = saved.copy()
        core.rule(-1)
        ruling, core.result = core.result, saved
        return ruling

    def game(self) -> Verdict:
        """The verdict on the game so far: every hand's ruling, the totals, whether it is over."""
        return self._adjudge()[1]

    def _adjudge(self) -> tuple[GameRecord, Verdict, list[RuledHand]]:
        """The bare record of the game so far, its verdict and every hand's ruling: once per
        position, however many of :meth:`outcome`, :meth:`game`, :meth:`record` and
        :meth:`next_hand` ask (a server asks all of them as a hand ends)."""
        if self._adjudged is None:
            bare = self._bare_record()
            verdict = None
            if self._so_far is not None:
                last = replayed_hand(bare, len(self._done), self.rules, self.system)
                verdict = adjudicate_one_more(bare, self.rules, self._so_far, last)
                ruled = [*self._ruled, last]
            if verdict is None:
                verdict, ruled = adjudicate_after(bare, self.rules, self._ruled)
            self._adjudged = (bare, verdict, ruled)
        return self._adjudged

    def record(self) -> GameRecord:
        """The game so far as a record, its claims filled in from the ruling; a hand still in
        play claims ``unfinished``. ``ginref verify`` rules it clean."""
        return self._record()[0]

    def _record(self) -> tuple[GameRecord, Verdict, list[RuledHand]]:
        """The record, its verdict, and every hand's ruling (the hands done replayed once, at
        :meth:`next_hand`: the claims filled in change no ruling of a hand that is over)."""
        bare, verdict, ruled = self._adjudge()
        hands = list(bare.hands)
        last = hands[-1]
        if self.is_over():
            hands[-1] = _claimed(last, verdict.hands[-1], self.players)
        else:
            hands[-1] = msgspec.structs.replace(last, result=ClaimedResult("unfinished", reason="stopped"))
        return msgspec.structs.replace(bare, hands=tuple(hands)), verdict, ruled

    def _bare_record(self) -> GameRecord:
        hand = msgspec.structs.replace(self._hand, events=tuple(self._events()))
        name, overrides = self.rules.as_preset()
        return GameRecord(self.players, (*self._done, hand), name, overrides)

    def _events(self) -> Iterator[Event]:
        """The moves as a record's events: a draw and the discard or knock that ends its turn
        make one turn; the layoffs and the finish make the defence."""
        mover = self._core.non_dealer
        pending: tuple[str, Card | None] | None = None
        for move, card in zip(self.moves, self._cards, strict=True):
            name = self.players[mover]
            kind = move.kind
            if kind == "pass":
                yield Pass(name)
            elif kind in ("take", "draw"):
                pending = ("discard" if kind == "take" else "stock", card)
            elif kind in ("discard", "knock"):
                source, drawn = pending if pending is not None else ("none", None)
                knock = Knock(move.ending or "knock", move.card, move.melds) if kind == "knock" else None
                yield Turn(name, source, drawn, move.card if kind == "discard" else None, knock)  # type: ignore[arg-type]
                pending = None
            elif kind == "finish":
                yield self._defence_event(name)
            mover = _next_mover(move, mover)
        if pending is not None:
            yield Turn(self.players[mover], pending[0], pending[1])  # type: ignore[arg-type]

    def _defence_event(self, name: str) -> Defence:
        defence = self._core.defence
        assert defence is not None
        return Defence(name, defence.melds, defence.layoffs)

    def next_hand(
        self,
        *,
        deal: Deal | None = None,
        deck: CardsLike | None = None,
        hands: HandsLike | None = None,
        upcard: Card | str | None = None,
        stock: CardsLike | None = None,
        seed: int | None = None,
        stock_at_draw: bool = False,
    ) -> None:
        """Deal the next hand of the game, with the dealer the rules name; the deal as for
        the constructor. Raises :class:`RulingError` before the hand is over or after the game."""
        deal = _one_deal(deal, Deal.of(deck=deck, hands=hands, upcard=upcard, stock=stock, seed=seed,
                                       stock_at_draw=stock_at_draw))
        if not self.is_over():
            raise RulingError("the hand is not over yet")
        record, verdict, ruled = self._record()
        if verdict.game_over:
            raise RulingError("the game is over")
        dealer = verdict.hands[-1].next_dealer or self.dealer
        before = {name: getattr(self, name) for name in _FIELDS}
        self._done = list(record.hands)
        self._ruled = ruled
        self._so_far = GameSoFar.of(verdict, ruled)
        try:
            self._deal(dealer, deal)
        except GinrefError:
            for name, value in before.items():  # a bad deal changes nothing
                setattr(self, name, value)
            raise


def _next_mover(move: Move, mover: int) -> int:
    """Who moves after ``mover`` made ``move``: the turn passes after a pass, a discard and
    a knock (to the defender); a draw, a layoff and the finish keep it."""
    return 1 - mover if move.kind in ("pass", "discard", "knock") else mover


def _declared(hand: Mask, system: MeldSystem) -> tuple[Mask, ...]:
    return tuple(m.mask for m in best_arrangement(hand, system).melds)


def _claimed(hand: HandRecord, ruled: HandVerdict, players: tuple[str, str]) -> HandRecord:
    """``hand`` with the claims of its ruling: the result, the totals, the next dealer."""
    result = ClaimedResult(ruled.outcome, ruled.winner, ruled.points)  # type: ignore[arg-type]
    return msgspec.structs.replace(hand, result=result, score_after=ruled.totals_after,
                                   next_dealer=ruled.next_dealer)


