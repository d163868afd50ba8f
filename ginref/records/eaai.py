"""The EAAI gin rummy framework's verbose logs (``GinRummyGame.setPlayVerbose(true)``) as records.

The framework (Todd Neller's, used by the EAAI 2021 challenge and its tournament software)
prints one line per happening, games one after another, or one game a file. Every line kind
it prints is read:

- ``Player 0 is dealt [..].`` and ``Player 1 starts.``: the deal and the starter. The
  framework has no dealer; the record names the other player dealer, so that the upcard
  ritual (the starter first) and the alternating deal of the ``eaai`` rules say the same;
- ``The initial face up card is X.``, ``Player N declines X.``: the upcard and its passes;
- ``Player N draws X.``: from the discard pile when X is its top card, else from the stock;
- ``Player N discards X.`` and the per-turn ``Player N has [..] with D deadwood.``: the
  hand line is the framework's own report; its cards must be the ones the moves leave (a
  log that differs cannot be followed: unreadable there), and D is a claim kept with the
  turn (``least_deadwood``), which the referee checks: a wrong D is a finding;
- ``Player N melds [..] with D deadwood from [..].`` or ``goes gin with melds [..].``: the
  knock; the defender's ``melds [..].``, the ``lays off X on [..].`` lines (the engine lays
  each card onto the first meld it fits) and ``has D deadwood with [..]``: the defence;
- the score lines (gin, deadwood difference, undercut), the cancelled hand, the table
  ``Player/Score`` after each hand (running totals) and ``Player N wins.``;
- the three forfeits: an illegal discard, illegal melds, a knock over the limit.

A game ends at its ``wins.`` line or a forfeit; a line that cannot be read spoils only
its game. Blank lines and ``#`` comment lines (what people add around a log) are passed
over. Seats are ``Player 0`` and ``Player 1``, as the log names them, but in a file of the
EAAI tournament software, ``M-XvY-gameG.txt``, where they are the agents X and Y
(:func:`ginref.records.names.tournament_players`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from msgspec.structs import replace

from ginref.cards import Card, Mask, mask_of
from ginref.errors import RecordError
from ginref.notation import read_card_list, read_listed_card, read_meld_lists
from ginref.records.form import Format, Unit, is_comment
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
from ginref.records.names import renamed, tournament_players

__all__ = ["FORMAT", "PLAYERS", "decode_log", "log_boundary", "looks_like_log"]

PLAYERS = ("Player 0", "Player 1")
_CARD = r"[A2-9TJQK][CHSD]"
_LIST = r"\[[^\[\]]*\]"
_MELDS = rf"\[(?:{_LIST}(?:, {_LIST})*)?\]"
_START_RE = re.compile(r"Player [01] is dealt \[")
_END_RE = re.compile(r"Player [01] (?:wins|.* forfeits)\.\s*$")


def looks_like_log(line: str) -> bool:
    """Whether a log's first line is the framework's: a deal to player 0 or 1."""
    return _START_RE.match(line.strip()) is not None


def log_boundary(line: str) -> Literal["start", "end"] | None:
    """``end`` for the last line of a game (its winner, or a forfeit)."""
    return "end" if _END_RE.match(line) else None


class _Hand:
    """One hand as its lines are read."""

    def __init__(self, number: int, place: Place) -> None:
        self.number, self.place = number, place
        self.deal: dict[str, tuple[Card, ...]] = {}
        self.held: dict[str, set[Card]] = {}
        self.starter: str | None = None
        self.upcard: Card | None = None
        self.pile: list[Card] = []
        self.events: list[Event] = []
        self.turn: Turn | None = None
        self.knock_melds: list[Mask] = []
        self.defence: Defence | None = None
        self.result: ClaimedResult | None = None
        self.totals: dict[str, int] = {}
        self.closed = False


class _Reader:
    """The records of one game's lines."""

    def __init__(self, source: str, index: int) -> None:
        self.source, self.index = source, index
        self.hands: list[HandRecord] = []
        self.hand: _Hand | None = None
        self.winner: str | None = None
        self.ended = False
        self.line = 0

    def fail(self, message: str, column: int = 1) -> RecordError:
        return RecordError(message, self.source, self.line, column)

    def cards(self, text: str, column: int) -> tuple[Card, ...]:
        return read_card_list(text, self.source, self.line, column)

    def melds(self, text: str, column: int) -> tuple[Mask, ...]:
        return read_meld_lists(text, self.source, self.line, column)

    def card(self, word: str, column: int) -> Card:
        return read_listed_card(word, self.source, self.line, column)

    def current(self) -> _Hand:
        if self.hand is None or self.hand.closed:
            raise self.fail("a move outside a hand (no deal before it)")
        return self.hand

    def place(self) -> Place:
        return Place(self.line, 1)

    def held(self, hand: _Hand, who: str) -> set[Card]:
        """The cards ``who`` holds, as the moves leave them; a player not yet dealt holds none
        the log can speak of, so a line about its hand cannot be read."""
        if who not in hand.held:
            raise self.fail(f"{who} has not been dealt in this hand")
        return hand.held[who]

    # -- line kinds ----------------------------------------------------------------

    def dealt(self, m: re.Match[str]) -> None:
        who = _seat(m[1])
        if self.hand is None or self.hand.closed:
            self.hand = _Hand(len(self.hands) + 1, self.place())
        hand = self.hand
        if who in hand.deal or hand.starter is not None:
            raise self.fail(f"{who} is dealt twice in one hand")
        cards = self.cards(m[2], m.start(2) + 1)
        if len(cards) != 10:
            raise self.fail(f"{who} is dealt {len(cards)} cards, not 10", m.start(2) + 1)
        hand.deal[who] = cards
        hand.held[who] = set(cards)

    def starts(self, m: re.Match[str]) -> None:
        hand = self.current()
        if len(hand.deal) != 2 or hand.starter is not None:
            raise self.fail("a starter named before both hands are dealt, or twice")
        hand.starter = _seat(m[1])

    def face_up(self, m: re.Match[str]) -> None:
        hand = self.current()
        if hand.starter is None or hand.upcard is not None:
            raise self.fail("the face up card comes before the starter is named, or twice")
        hand.upcard = self.card(m[1], m.start(1) + 1)
        hand.pile.append(hand.upcard)

    def declines(self, m: re.Match[str]) -> None:
        hand = self.playing()
        if self.card(m[2], m.start(2) + 1) != hand.upcard:
            raise self.fail(f"{_seat(m[1])} declines {m[2]}, which is not the face up card", m.start(2) + 1)
        hand.events.append(Pass(_seat(m[1]), self.place()))

    def playing(self) -> _Hand:
        hand = self.current()
        if hand.upcard is None:
            raise self.fail("a move before the face up card is turned")
        if hand.defence is not None or hand.knock_melds:
            raise self.fail("a move after the knock")
        self.flush(hand)
        return hand

    def flush(self, hand: _Hand) -> None:
        if hand.turn is not None:
            hand.events.append(hand.turn)
            hand.turn = None

    def draws(self, m: re.Match[str]) -> None:
        hand = self.playing()
        who, c = _seat(m[1]), self.card(m[2], m.start(2) + 1)
        source: Literal["stock", "discard"] = "stock"
        if hand.pile and hand.pile[-1] == c:
            hand.pile.pop()
            source = "discard"
        self.held(hand, who).add(c)
        hand.turn = Turn(who, source, c, place=self.place())

    def discards(self, m: re.Match[str]) -> None:
        hand = self.current()
        who, c = _seat(m[1]), self.card(m[2], m.start(2) + 1)
        turn = hand.turn
        if turn is None or turn.player != who or turn.discard is not None:
            raise self.fail(f"{who} discards without drawing first")
        self.held(hand, who).discard(c)
        hand.pile.append(c)
        hand.turn = replace(turn, discard=c)

    def hand_line(self, m: re.Match[str]) -> None:
        """The framework's report of the mover's hand after its turn: its cards must be the
        ones the moves leave (else the log cannot be followed), and its deadwood is a claim,
        kept with the turn for the referee to check (``least_deadwood``)."""
        hand = self.current()
        who, text = _seat(m[1]), m[2]
        shown = self.melds(text, m.start(2) + 1) if text.startswith("[[") else (mask_of(self.cards(text, 1)),)
        cards = 0
        for meld in shown:
            cards |= meld
        if cards != mask_of(self.held(hand, who)):
            raise self.fail(f"{who}'s hand shown here is not the cards the moves leave it", m.start(2) + 1)
        turn = hand.turn
        if turn is None or turn.player != who or turn.discard is None or turn.least_deadwood is not None:
            raise self.fail(f"{who}'s hand is shown here, but not after a discard of its own")
        hand.turn = replace(turn, least_deadwood=int(m[3]))

    def knocks(self, m: re.Match[str], gin: bool) -> None:
        hand = self.current()
        who = _seat(m[1])
        turn = hand.turn
        if turn is None or turn.player != who or turn.discard is None:
            raise self.fail(f"{who} melds without a turn of its own just played")
        melds = self.melds(m[2], m.start(2) + 1)
        deadwood = 0 if gin else int(m[3])
        knock = Knock("gin" if gin else "knock", turn.discard, melds, deadwood, place=self.place())
        hand.turn = replace(turn, discard=None, knock=knock)
        hand.knock_melds = list(melds)
        self.flush(hand)

    def defends(self, m: re.Match[str]) -> None:
        hand = self.current()
        if not hand.knock_melds or hand.defence is not None:
            raise self.fail("a defender's melds with no knock before them")
        hand.defence = Defence(_seat(m[1]), self.melds(m[2], m.start(2) + 1), place=self.place())

    def lays_off(self, m: re.Match[str]) -> None:
        hand = self.current()
        defence = hand.defence
        if defence is None or defence.player != _seat(m[1]) or defence.deadwood is not None:
            raise self.fail("a layoff outside the defender's defence")
        c = self.card(m[2], m.start(2) + 1)
        onto = mask_of(self.cards(f"[{m[3]}]", m.start(3) + 1))
        if onto not in hand.knock_melds:
            raise self.fail(f"{m[2]} is laid off on [{m[3]}], which is not one of the knocker's melds",
                            m.start(3) + 1)
        at = hand.knock_melds.index(onto)
        hand.knock_melds[at] |= 1 << c
        hand.defence = replace(defence, layoffs=(*defence.layoffs, (c, at)))

    def defender_deadwood(self, m: re.Match[str]) -> None:
        hand = self.current()
        defence = hand.defence
        if defence is None or defence.player != _seat(m[1]) or defence.deadwood is not None:
            raise self.fail("a defender's deadwood with no defence before it")
        self.cards(m[3], m.start(3) + 1)
        hand.defence = replace(defence, deadwood=int(m[2]))

    def scores(self, outcome: Literal["gin", "knock", "undercut"], who: str, points: int) -> None:
        hand = self.current()
        if hand.defence is None or hand.defence.deadwood is None or hand.result is not None:
            raise self.fail("a score with no finished defence before it")
        hand.events.append(hand.defence)
        hand.result = ClaimedResult(outcome, who, points, place=self.place())

    def cancelled(self) -> None:
        hand = self.playing()
        if hand.result is not None:
            raise self.fail("a hand cancelled after it was scored")
        hand.result = ClaimedResult("void", place=self.place())

    def forfeits(self, who: str) -> None:
        hand = self.current()
        self.flush(hand)
        hand.result = ClaimedResult("unfinished", place=self.place(), reason="forfeit", stopped_by=who)
        hand.closed = True
        self.hands.append(self.built(hand))
        self.ended = True

    def table(self, seat: int, points: int) -> None:
        hand = self.current()
        name = PLAYERS[seat]
        if hand.result is None or name in hand.totals or len(hand.totals) != seat:
            raise self.fail("a score table line out of place")
        hand.totals[name] = points
        if seat == 1:
            hand.closed = True
            self.hands.append(self.built(hand))

    def table_head(self) -> None:
        hand = self.current()
        if hand.result is None or hand.totals:
            raise self.fail("a score table with no result before it")

    def wins(self, who: str) -> None:
        if self.hand is None or not self.hand.closed or self.ended:
            raise self.fail("a winner named before the last hand's score table")
        self.winner = who
        self.ended = True

    # -- the record --------------------------------------------------------------------

    def built(self, hand: _Hand) -> HandRecord:
        if hand.starter is None or hand.upcard is None:
            raise RecordError("a hand that stops before its face up card", self.source, hand.place.line, 1)
        dealer = PLAYERS[1 - PLAYERS.index(hand.starter)]
        totals = tuple(hand.totals.items()) if len(hand.totals) == 2 else None
        return HandRecord(dealer, tuple((p, hand.deal[p]) for p in PLAYERS), hand.upcard, tuple(hand.events),
                          result=hand.result, score_after=totals, number=hand.number, place=hand.place)

    def record(self) -> GameRecord:
        if not self.hands:
            raise RecordError("no whole hand in the log", self.source, self.line or 1, 1)
        final = self.hands[-1].score_after if self.winner is not None else None
        if final is not None and self.winner != PLAYERS[0 if final[0][1] > final[1][1] else 1]:
            raise RecordError(f"the log says {self.winner} wins, but its last scores are "
                              f"{final[0][1]} to {final[1][1]}", self.source, self.line, 1)
        tags = (("Site", "EAAI"),) + ((("Winner", self.winner),) if self.winner else ())
        return GameRecord(PLAYERS, tuple(self.hands), rules="eaai", tags=tags, final_totals=final,
                          source=self.source, index=self.index, place=self.hands[0].place)


def _seat(digit: str) -> str:
    return PLAYERS[int(digit)]


_P = r"Player ([01]) "
_LINES: tuple[tuple[re.Pattern[str], Callable[[_Reader, re.Match[str]], None]], ...] = (
    (re.compile(_P + rf"draws ({_CARD})\."), _Reader.draws),
    (re.compile(_P + rf"discards ({_CARD})\."), _Reader.discards),
    (re.compile(_P + rf"has ({_MELDS}|{_LIST}) with ([0-9]{{1,3}}) deadwood\."), _Reader.hand_line),
    (re.compile(_P + rf"declines ({_CARD})\."), _Reader.declines),
    (re.compile(_P + rf"is dealt ({_LIST})\."), _Reader.dealt),
    (re.compile(_P + r"starts\."), _Reader.starts),
    (re.compile(rf"The initial face up card is ({_CARD})\."), _Reader.face_up),
    (re.compile(_P + rf"melds ({_MELDS}) with ([0-9]{{1,3}}) deadwood from {_LIST}\."),
     lambda r, m: r.knocks(m, gin=False)),
    (re.compile(_P + rf"goes gin with melds ({_MELDS})\."), lambda r, m: r.knocks(m, gin=True)),
    (re.compile(_P + rf"melds ({_MELDS})\."), _Reader.defends),
    (re.compile(_P + rf"lays off ({_CARD}) on \[([^\[\]]*)\]\."), _Reader.lays_off),
    (re.compile(_P + rf"has ([0-9]{{1,3}}) deadwood with ({_LIST})"), _Reader.defender_deadwood),
    (re.compile(_P + r"scores the gin bonus of [0-9]{1,9} plus opponent deadwood [0-9]{1,9} "
                r"for ([0-9]{1,9}) total points\."),
     lambda r, m: r.scores("gin", _seat(m[1]), int(m[2]))),
    (re.compile(_P + r"scores the deadwood difference of ([0-9]{1,9})\."),
     lambda r, m: r.scores("knock", _seat(m[1]), int(m[2]))),
    (re.compile(_P + r"undercuts and scores the undercut bonus of [0-9]{1,9} plus deadwood difference "
                r"of [0-9]{1,9} for ([0-9]{1,9}) total points\."),
     lambda r, m: r.scores("undercut", _seat(m[1]), int(m[2]))),
    (re.compile(r"The draw pile was reduced to two cards without knocking, so the hand is cancelled\."),
     lambda r, m: r.cancelled()),
    (re.compile(r"Player\tScore"), lambda r, m: r.table_head()),
    (re.compile(r"([01])\t([0-9]{1,9})"), lambda r, m: r.table(int(m[1]), int(m[2]))),
    (re.compile(_P + r"wins\."), lambda r, m: r.wins(_seat(m[1]))),
    (re.compile(_P + r"discards \S{1,10} illegally and forfeits\."), lambda r, m: r.forfeits(_seat(m[1]))),
    (re.compile(_P + rf"melds {_MELDS} (?:illegally|with greater than [0-9]{{1,3}} deadwood) and forfeits\."),
     lambda r, m: r.forfeits(_seat(m[1]))),
)


def decode_log(text: str, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """The record of one game's log lines; raises :class:`RecordError` naming the first line
    that cannot be read."""
    reader = _Reader(source, index)
    for number, line in enumerate(text.split("\n"), first_line):
        reader.line = number
        line = line.rstrip("\r")
        if not line.strip() or is_comment(line):
            continue
        if reader.ended:
            raise reader.fail("a line after the end of the game")
        for pattern, action in _LINES:
            m = pattern.fullmatch(line)
            if m is not None:
                action(reader, m)
                break
        else:
            raise reader.fail(f"not a line of an EAAI log: {line[:60]!r}")
    if reader.hand is not None and not reader.hand.closed:
        reader.hands.append(reader.built(reader.hand))
    agents = tournament_players(source)
    record = reader.record()
    return record if agents is None else renamed(record, dict(zip(PLAYERS, agents, strict=True)))


def _decode_unit(unit: Unit) -> tuple[GameRecord]:
    return (decode_log(unit.text, unit.source, unit.line, unit.index),)


def _sniff(text: str, start: int) -> bool:
    return _START_RE.match(text, start) is not None


FORMAT = Format("eaai", "an EAAI framework log", log_boundary, _decode_unit, _sniff, opens="P")
"""EAAI framework logs, games one after another: told by a game's first line (a deal)"""
