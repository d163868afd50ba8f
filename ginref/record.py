"""Recorded hands and games: the data model shared by the readers, writers and the adjudicator.

A record is a :class:`GameRecord`: the rule set, the two players and one or
more :class:`HandRecord` (a single hand is a game of one). Each hand holds its
deal and its events in the order played, plus anything the record *claims*
(result, running score, next dealer), which the adjudicator recomputes and
compares rather than trusts. Every element carries a :class:`Place` so a
finding can point at the line and column (text) or JSON pointer (JSON). Places,
``source`` and ``index`` say where a record was read from, not what it says, so
equality ignores them: a record read from text equals the same record read
from JSON.

Cards are ints and melds 52-bit masks, as everywhere in ginref.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Literal, NoReturn

import pyparsing as pp

from ginref.cards import RANKS, SUITS, Card, Mask, card_name, mask_of, scan
from ginref.errors import RecordError
from ginref.notation import (
    RECORD_NAME_RE,
    RecordSyntaxError,
    RecordToken,
    claim_line_expr,
    event_line_expr,
    record_cards_expr,
    tag_line_expr,
)

__all__ = [
    "NOWHERE",
    "ClaimedOutcome",
    "ClaimedResult",
    "Defence",
    "Ending",
    "Event",
    "GameRecord",
    "HandRecord",
    "JsonRecordError",
    "Knock",
    "Pass",
    "Place",
    "RecordFormat",
    "Source",
    "Turn",
    "convert_records",
    "format_json",
    "format_jsonl",
    "format_text",
    "from_json_dict",
    "read_record",
    "read_records",
    "read_text",
    "record_format",
    "split_text_records",
    "to_json_dict",
    "write_records",
]

Source = Literal["stock", "discard", "none"]
"""Where a turn's card came from; ``none`` for the eleven-card opening discard."""
Ending = Literal["knock", "gin", "big_gin"]
ClaimedOutcome = Literal["knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where an element stands in its source: line and column, or a JSON pointer."""

    line: int = 0
    column: int = 0
    pointer: str = ""

    def __str__(self) -> str:
        if self.pointer:
            return self.pointer
        if self.line and self.column:
            return f"line {self.line}, column {self.column}"
        return f"line {self.line}" if self.line else ""

    def to_dict(self) -> dict[str, object]:
        if self.pointer:
            return {"pointer": self.pointer}
        return {"line": self.line, "column": self.column}


NOWHERE = Place()


@dataclass(frozen=True, slots=True)
class Pass:
    """A player declines: the upcard on the first turn, or the last discard at the wall."""

    player: str
    place: Place = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class Knock:
    """The end of a knocker's turn: face-down discard (none for big gin) and declared spread."""

    ending: Ending
    discard: Card | None
    melds: tuple[Mask, ...]
    """in the order declared; layoffs name them by index"""
    deadwood: int | None = None
    """deadwood points the knocker announced, if recorded"""
    place: Place = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: a draw and a discard, or a draw and a knock."""

    player: str
    source: Source
    card: Card | None
    """the card drawn; None when not recorded (an unseen stock card)"""
    discard: Card | None = None
    """None when the turn ends in ``knock`` (whose discard is face down)"""
    knock: Knock | None = None
    place: Place = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's spread after a knock: own melds, layoffs in order, announced deadwood.

    ``layoffs`` are ``(card, index)`` with ``index`` 0-based into the knocker's
    declared melds; a chain lays its cards in order onto the same index.
    """

    player: str
    melds: tuple[Mask, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    deadwood: int | None = None
    place: Place = field(default=NOWHERE, compare=False)


Event = Pass | Turn | Defence


@dataclass(frozen=True, slots=True)
class ClaimedResult:
    """What the record says the hand came to."""

    outcome: ClaimedOutcome
    winner: str | None = None
    points: int = 0
    place: Place = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: the deal, the events in order, and what the record claims."""

    dealer: str
    deal: tuple[tuple[str, tuple[Card, ...]], ...]
    """each player's dealt cards, in the players' order"""
    upcard: Card | None
    events: tuple[Event, ...] = ()
    stock: tuple[Card, ...] | None = None
    """the stock from the top, after the upcard, when known"""
    result: ClaimedResult | None = None
    score_after: tuple[tuple[str, int], ...] | None = None
    """claimed running totals (hand points, no bonuses) after this hand"""
    next_dealer: str | None = None
    number: int | None = None
    place: Place = field(default=NOWHERE, compare=False)

    def dealt(self, player: str) -> tuple[Card, ...]:
        for name, cards in self.deal:
            if name == player:
                return cards
        return ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A record: rule set, players, hands in order, and claimed end-of-game totals."""

    players: tuple[str, str]
    hands: tuple[HandRecord, ...]
    rules: str = "standard"
    overrides: tuple[tuple[str, str], ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    """free tags kept for round trips (event, date, site, ...)"""
    final_totals: tuple[tuple[str, int], ...] | None = None
    """claimed totals after end-of-game bonuses"""
    source: str = field(default="", compare=False)
    index: int = field(default=0, compare=False)
    """0-based position of the record in its source (a .jsonl line, a game in a .gin file)"""
    place: Place = field(default=NOWHERE, compare=False)


# == the text format (.gin) ================================================================
#
# A record is a block of game tags, then its hands; a hand is its tags, its events and its
# claims; the last hand may be followed by the claimed final totals. docs/record-format.md
# has the whole format. The reader goes line by line: the comment is cut off, and the line
# is parsed by the tag, claim or event expression of ``ginref.notation`` (a fast path takes
# the commonest event lines without pyparsing and gives the same result).

GAME_TAGS = ("Rules", "Set", "Players")
HAND_TAGS = ("Hand", "Dealer", "Deal", "Upcard", "Stock")
_KNOWN_TAGS = {name.lower(): name for name in (*GAME_TAGS, *HAND_TAGS)}
_HAND_TAG_KEYS = frozenset(name.lower() for name in HAND_TAGS)
_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_KNOB_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_NAME_RE = re.compile(RECORD_NAME_RE)
_TAG_START_RE = re.compile(r"\s*\[\s*([A-Za-z][A-Za-z0-9_]*)")
_CLAIMS = frozenset({"result", "score", "next_dealer", "final"})
_SOURCE_WORDS = {"draw": "stock", "take": "discard"}
_SOURCE_KEYWORDS = {"stock": "draw", "discard": "take"}

_CARD_TOKENS: dict[str, Card] = {}
"""Letter spellings of every card, any case, ``T`` or ``10``: the JSON input forms and
the text fast path (any other spelling goes through the grammar)."""
for _c in range(52):
    for _rank in (RANKS[_c % 13], "10") if _c % 13 == 9 else (RANKS[_c % 13],):
        for _r in {_rank, _rank.lower()}:
            for _s in {SUITS[_c // 13], SUITS[_c // 13].lower()}:
                _CARD_TOKENS[_r + _s] = _c
_CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(52))


def _strip_comment(line: str) -> str:
    """``line`` without its ``#`` comment; a ``#`` inside quoted text is kept."""
    at = line.find("#")
    if at < 0:
        return line
    if '"' not in line[:at]:
        return line[:at]
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#":
            return line[:i]
        i += 1
    return line


def _syntax_error(exc: pp.ParseBaseException, source: str, line: int) -> RecordError:
    """A ``RecordError`` from a failed line parse, with the column of the problem."""
    if isinstance(exc, RecordSyntaxError):
        message = exc.problem + (f": {exc.hint}" if exc.hint else "")
        return RecordError(message, source, line, pp.col(exc.at, exc.text))
    text, loc = exc.pstr, exc.loc
    while loc < len(text) and text[loc] in " \t":
        loc += 1
    message = exc.msg[:1].lower() + exc.msg[1:]
    rest = text[loc:].split()
    message += f", found {rest[0]!r}" if rest else " at the end of the line"
    return RecordError(message, source, line, pp.col(loc, text) if text else 1)


def _opt(res: Any, name: str, default: Any = None) -> Any:
    """``res[name]`` if the line has it (``ParseResults.get`` is untyped)."""
    return res[name] if name in res else default  # noqa: SIM401


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _name_text(name: str) -> str:
    """A player name as written in event and claim lines: bare when it can be."""
    return name if _NAME_RE.fullmatch(name) else _quote(name)


def _cards_text(cards: Iterable[Card]) -> str:
    try:
        return " ".join(_CARD_NAMES[c] for c in cards)
    except (IndexError, TypeError):
        raise ValueError(f"not a card in {tuple(cards)!r}") from None


def _meld_text(mask: Mask) -> str:
    if type(mask) is not int or mask < 0 or mask >> 52:
        raise ValueError(f"not a meld: {mask!r}")
    return "[" + " ".join(_CARD_NAMES[c] for c in scan(mask)) + "]"


_FAST_TAG_RE = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)((?:[ \t]+"[^"\\\x00-\x1f]*")*)[ \t]*\][ \t]*')
_FAST_VALUE_RE = re.compile(r'"([^"\\\x00-\x1f]*)"')
_INT_RE = re.compile(r"[+-]?[0-9]+")
_COUNT_RE = re.compile(r"[0-9]+")
_MELD_NUMBER_RE = re.compile(r"[1-9][0-9]*")
_ENDING_RE = re.compile(r"(?<!\S)(?:knock|gin|big_gin)(?!\S)")
_ENDINGS = frozenset({"knock", "gin", "big_gin"})
_OUTCOMES = frozenset({"knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock"})


def _fast_melds(words: list[str], i: int, melds: list[Mask]) -> int:
    """Read bracketed melds from ``words[i:]`` into ``melds``; the next index, or -1 when
    the text is not plain (the grammar then reads the line)."""
    n = len(words)
    cards = _CARD_TOKENS
    while i < n and words[i][:1] == "[":
        word = words[i][1:]
        mask = 0
        count = 0
        while True:
            closed = word.endswith("]")
            if closed:
                word = word[:-1]
            if word:
                c = cards.get(word)
                if c is None:
                    return -1
                mask |= 1 << c
                count += 1
            if closed:
                break
            i += 1
            if i >= n or words[i][:1] == "[":
                return -1
            word = words[i]
        if mask.bit_count() != count:
            return -1
        melds.append(mask)
        i += 1
    return i


class _Hand:
    """A hand being read (mutable); ``build`` makes the ``HandRecord``."""

    __slots__ = (
        "claimed", "deal", "dealer", "events", "next_dealer", "number", "place", "result",
        "score_after", "stock", "upcard", "upcard_seen",
    )

    def __init__(self, place: Place) -> None:
        self.place = place
        self.number: int | None = None
        self.dealer: str | None = None
        self.deal: list[tuple[str, tuple[Card, ...]]] = []
        self.upcard: Card | None = None
        self.upcard_seen = False
        self.stock: tuple[Card, ...] | None = None
        self.events: list[Event] = []
        self.result: ClaimedResult | None = None
        self.score_after: tuple[tuple[str, int], ...] | None = None
        self.next_dealer: str | None = None
        self.claimed = False

    @property
    def started(self) -> bool:
        """True once the hand has events or claims: its tags are over."""
        return bool(self.events) or self.claimed

    def build(self, source: str, ordinal: int) -> HandRecord:
        if self.dealer is None:
            raise RecordError(
                f"hand {ordinal} has no [Dealer] tag", source, self.place.line, self.place.column
            )
        return HandRecord(
            dealer=self.dealer,
            deal=tuple(self.deal),
            upcard=self.upcard,
            events=tuple(self.events),
            stock=self.stock,
            result=self.result,
            score_after=self.score_after,
            next_dealer=self.next_dealer,
            number=self.number,
            place=self.place,
        )


class _TextReader:
    """Reads one text record, a line at a time; every problem raises ``RecordError``."""

    def __init__(self, source: str, index: int) -> None:
        self.source = source
        self.index = index
        self.place: Place | None = None
        self.rules: str | None = None
        self.overrides: list[tuple[str, str]] = []
        self.players: tuple[str, str] | None = None
        self.tags: list[tuple[str, str]] = []
        self.hands: list[HandRecord] = []
        self.hand: _Hand | None = None
        self.final: tuple[tuple[str, int], ...] | None = None
        self.final_place = NOWHERE
        self.line = 0
        self.names: dict[str, bool] = {}
        """bare-word names seen, so the fast path checks each name once"""

    # -- errors ---------------------------------------------------------------------------

    def fail(self, message: str, column: int = 1, line: int = 0) -> NoReturn:
        raise RecordError(message, self.source, line or self.line, column)

    def parse(self, expr: pp.ParserElement, text: str) -> pp.ParseResults:
        try:
            return expr.parse_string(text)
        except pp.ParseBaseException as exc:
            raise _syntax_error(exc, self.source, self.line) from None

    # -- lines ----------------------------------------------------------------------------

    def feed(self, line: int, text: str) -> None:
        """Read one line (without its line end)."""
        self.line = line
        if "#" in text:
            text = _strip_comment(text)
        stripped = text.strip()
        if not stripped:
            return
        if self.place is None:
            self.place = Place(line, len(text) - len(text.lstrip()) + 1)
        if stripped[0] == "[":
            self.tag(text)
            return
        if self.final is not None:
            self.fail("nothing but a new record may follow the final totals",
                      len(text) - len(text.lstrip()) + 1)
        word = stripped.split(None, 1)[0]
        if word in _CLAIMS:
            self.claim(text)
        else:
            self.event(text)

    def finish(self) -> GameRecord:
        """The record read so far; raises if it is not complete."""
        if self.place is None:
            raise RecordError("no record: the text holds only blank lines and comments",
                              self.source, self.line or 1, 0)
        line, column = self.place.line, self.place.column
        if self.rules is None:
            raise RecordError("the record has no [Rules] tag", self.source, line, column)
        if self.players is None:
            raise RecordError("the record has no [Players] tag", self.source, line, column)
        self.close_hand()
        if not self.hands:
            raise RecordError("the record has no hands: a hand starts with [Hand] or [Dealer]",
                              self.source, line, column)
        return GameRecord(
            players=self.players,
            hands=tuple(self.hands),
            rules=self.rules,
            overrides=tuple(self.overrides),
            tags=tuple(self.tags),
            final_totals=self.final,
            source=self.source,
            index=self.index,
            place=self.place,
        )

    def close_hand(self) -> None:
        if self.hand is not None:
            self.hands.append(self.hand.build(self.source, len(self.hands) + 1))
            self.hand = None

    def new_hand(self, column: int) -> _Hand:
        self.close_hand()
        self.hand = _Hand(Place(self.line, column))
        return self.hand

    # -- tags -----------------------------------------------------------------------------

    def tag(self, text: str) -> None:
        fast = _FAST_TAG_RE.fullmatch(text)
        if fast is not None:  # simple quoted values: no escapes, spaces between
            name = RecordToken(fast.start(1), fast.group(1))
            values = [
                RecordToken(m.start(), m.group(1))
                for m in _FAST_VALUE_RE.finditer(text, fast.end(1), fast.end(2))
            ]
        else:
            res = self.parse(tag_line_expr, text)
            name = res["tag"]
            values = list(res["values"])
        column = len(text) - len(text.lstrip()) + 1  # the '['

        key = name.text.lower()
        known = _KNOWN_TAGS.get(key)
        if self.final is not None:
            self.fail(f"[{name.text}] follows the final totals; a record's tags come first",
                      column)
        if key in _HAND_TAG_KEYS:
            self.hand_tag(known or name.text, values, column)
            return
        if self.hands or self.hand is not None:
            self.fail(
                f"[{name.text}] is a game tag, but the hands have begun: a new record starts "
                "here (read files of several records with read_records)", column,
            )
        if known == "Rules":
            (value,) = self.values(name, values, 1)
            if self.rules is not None:
                self.fail("the record has two [Rules] tags", column)
            if not value.text.strip():
                self.fail("[Rules] needs a rule set name", value.loc + 1)
            self.rules = value.text.strip()
        elif known == "Set":
            (value,) = self.values(name, values, 1)
            knob, sep, setting = value.text.partition("=")
            knob, setting = knob.strip(), setting.strip()
            if not sep or not _KNOB_RE.fullmatch(knob):
                self.fail(f"bad rule override {value.text!r}; expected knob=value", value.loc + 1)
            if any(k == knob for k, _ in self.overrides):
                self.fail(f"the record sets {knob} twice", value.loc + 1)
            self.overrides.append((knob, setting))
        elif known == "Players":
            first, second = self.values(name, values, 2)
            if self.players is not None:
                self.fail("the record has two [Players] tags", column)
            self.players = (first.text, second.text)
        else:
            (value,) = self.values(name, values, 1)
            if any(k == name.text for k, _ in self.tags):
                self.fail(f"the record has two [{name.text}] tags", column)
            self.tags.append((name.text, value.text))

    def values(self, name: RecordToken, values: list[RecordToken], count: int) -> list[RecordToken]:
        if len(values) == count:
            return values
        what = "one value" if count == 1 else f"{count} values"
        column = values[count].loc + 1 if len(values) > count else name.loc + len(name.text) + 1
        self.fail(f"[{name.text}] takes {what}, got {len(values)}", column)

    def hand_tag(self, tag: str, values: list[RecordToken], column: int) -> None:
        hand = self.hand
        name = RecordToken(column, tag)
        if tag == "Hand":
            (value,) = self.values(name, values, 1)
            if not value.text.isdigit() or not value.text.isascii():
                self.fail(f"[Hand] needs a hand number, got {value.text!r}", value.loc + 1)
            self.new_hand(column).number = int(value.text)
            return
        if tag == "Dealer":
            (value,) = self.values(name, values, 1)
            if hand is None or hand.dealer is not None or hand.started:
                hand = self.new_hand(column)
            hand.dealer = value.text
            return
        if hand is None:
            hand = self.new_hand(column)
        elif hand.started:
            self.fail(f"[{tag}] after the hand's events; start the next hand with [Hand] or [Dealer]",
                      column)
        if tag == "Deal":
            player, dealt = self.values(name, values, 2)
            if any(p == player.text for p, _ in hand.deal):
                self.fail(f"the hand deals to {player.text} twice", column)
            hand.deal.append((player.text, self.cards(dealt)))
        elif tag == "Upcard":
            (value,) = self.values(name, values, 1)
            if hand.upcard_seen:
                self.fail("the hand has two [Upcard] tags", column)
            cards = self.cards(value)
            if len(cards) != 1:
                self.fail(f"[Upcard] takes one card, got {len(cards)}", value.loc + 1)
            hand.upcard, hand.upcard_seen = cards[0], True
        else:  # Stock
            (value,) = self.values(name, values, 1)
            if hand.stock is not None:
                self.fail("the hand has two [Stock] tags", column)
            hand.stock = self.cards(value)

    def cards(self, value: RecordToken) -> tuple[Card, ...]:
        """The cards of a tag value, in order (repeats allowed: the referee reports them)."""
        lookup = _CARD_TOKENS.get
        fast = [lookup(token) for token in value.text.split()]
        if None not in fast:
            return tuple(fast)  # type: ignore[arg-type]
        try:
            return tuple(record_cards_expr.parse_string(value.text))
        except pp.ParseBaseException as exc:
            error = _syntax_error(exc, self.source, self.line)
            error.column += value.loc + 1  # the value's text starts after its quote
            raise error from None

    # -- claims ---------------------------------------------------------------------------

    def claim(self, text: str) -> None:
        res: Any = self.fast_claim(text)
        if res is None:
            res = self.parse(claim_line_expr, text)
        word: RecordToken = res["claim"]
        column = word.loc + 1
        if word.text == "final":
            if self.hand is None and not self.hands:
                self.fail("final totals before any hand", column)
            self.close_hand()
            self.final = self.totals(res["totals"])
            self.final_place = Place(self.line, column)
            return
        hand = self.hand
        if hand is None:
            self.fail(f"a {word.text!r} line before the hand's tags; a hand starts with [Hand] "
                      "or [Dealer]", column)
        if word.text == "result":
            if hand.result is not None:
                self.fail("the hand has two 'result' lines", column)
            winner = _opt(res, "winner")
            hand.result = ClaimedResult(
                res["outcome"].text, winner.text if winner is not None else None,
                _opt(res, "points", 0), Place(self.line, column),
            )
        elif word.text == "score":
            if hand.score_after is not None:
                self.fail("the hand has two 'score' lines", column)
            hand.score_after = self.totals(res["totals"])
        else:
            if hand.next_dealer is not None:
                self.fail("the hand has two 'next_dealer' lines", column)
            hand.next_dealer = res["name"].text
        hand.claimed = True

    def fast_claim(self, text: str) -> dict[str, Any] | None:
        """The claim's parts, as the grammar names them, for plain lines; None otherwise."""
        if '"' in text:
            return None
        words = text.split()
        word = RecordToken(len(text) - len(text.lstrip()), words[0])
        n = len(words)
        if word.text == "result":
            if n < 2 or n > 4 or words[1] not in _OUTCOMES:
                return None
            out: dict[str, Any] = {"claim": word, "outcome": RecordToken(0, words[1])}
            rest = words[2:]
            if rest and _INT_RE.fullmatch(rest[-1]):
                out["points"] = int(rest.pop())
            if rest:
                if len(rest) > 1 or not self.bare(rest[0]):
                    return None
                out["winner"] = RecordToken(0, rest[0])
            return out
        if word.text == "next_dealer":
            if n != 2 or not self.bare(words[1]):
                return None
            return {"claim": word, "name": RecordToken(0, words[1])}
        pairs: list[tuple[RecordToken, int]] = []
        for i in range(1, n, 2):
            if i + 1 >= n or not self.bare(words[i]) or not _INT_RE.fullmatch(words[i + 1]):
                return None
            if any(name.text == words[i] for name, _ in pairs):
                return None  # the grammar's path reports where
            pairs.append((RecordToken(0, words[i]), int(words[i + 1])))
        return {"claim": word, "totals": pairs}

    def bare(self, name: str) -> bool:
        """True if ``name`` is a player name written without quotes (cached)."""
        bare = self.names.get(name)
        if bare is None:
            bare = self.names[name] = _NAME_RE.fullmatch(name) is not None
        return bare

    def totals(self, pairs: Iterable[tuple[RecordToken, int]]) -> tuple[tuple[str, int], ...]:
        out: list[tuple[str, int]] = []
        for token, points in pairs:
            if any(name == token.text for name, _ in out):
                self.fail(f"{token.text} is named twice", token.loc + 1)
            out.append((token.text, points))
        return tuple(out)

    # -- events ---------------------------------------------------------------------------

    def event(self, text: str) -> None:
        hand = self.hand
        column = len(text) - len(text.lstrip()) + 1
        if hand is None:
            self.fail("an event before the hand's tags; a hand starts with [Hand] or [Dealer]",
                      column)
        if hand.claimed:
            self.fail("an event after the hand's claims (result, score, next_dealer); start "
                      "the next hand with [Hand] or [Dealer]", column)
        event = self.fast_event(text, column)
        hand.events.append(event if event is not None else self.parsed_event(text))

    def fast_event(self, text: str, column: int) -> Event | None:
        """The event of a plain line (bare name, canonical tokens) without pyparsing.

        Anything unusual returns None and goes to the grammar, which gives the same
        result for what this accepts and the error messages for what it does not.
        """
        if '"' in text:
            return None
        words = text.split()
        name = words[0]
        if not self.bare(name):
            return None
        n = len(words)
        place = Place(self.line, column)
        second = words[1] if n > 1 else ""
        if second == "pass":
            return Pass(name, place) if n == 2 else None
        if second == "defend":
            return self.fast_defence(words, name, place)
        cards = _CARD_TOKENS
        source = "none"
        card = None
        i = 1
        if second in _SOURCE_WORDS:
            if n < 3:
                return None
            source = _SOURCE_WORDS[second]
            if words[2] != "??":
                card = cards.get(words[2])
                if card is None:
                    return None
            i = 3
        discard = None
        if i < n and words[i] == "discard":
            discard = cards.get(words[i + 1]) if i + 1 < n else None
            if discard is None:
                return None
            i += 2
        knock = None
        if i < n and words[i] in _ENDINGS:
            ending = words[i]
            i += 1
            face_down = None
            if i < n and words[i][:1] != "[" and words[i] != "deadwood":
                face_down = cards.get(words[i])
                if face_down is None:
                    return None
                i += 1
            melds: list[Mask] = []
            i = _fast_melds(words, i, melds)
            if i < 0:
                return None
            deadwood = None
            if i < n and words[i] == "deadwood":
                if i + 1 >= n or not _COUNT_RE.fullmatch(words[i + 1]):
                    return None
                deadwood = int(words[i + 1])
                i += 2
            match = _ENDING_RE.search(text, len(text) - len(text.lstrip()) + len(name))
            assert match is not None
            knock = Knock(ending, face_down, tuple(melds), deadwood,  # type: ignore[arg-type]
                          Place(self.line, match.start() + 1))
        if i != n or (source == "none" and discard is None and knock is None):
            return None
        return Turn(name, source, card, discard, knock, place)  # type: ignore[arg-type]

    def fast_defence(self, words: list[str], name: str, place: Place) -> Defence | None:
        melds: list[Mask] = []
        n = len(words)
        i = _fast_melds(words, 2, melds)
        if i < 0:
            return None
        layoffs = []
        while i < n and ">" in words[i]:
            token, _, number = words[i].partition(">")
            c = _CARD_TOKENS.get(token)
            if c is None or not _MELD_NUMBER_RE.fullmatch(number):
                return None
            layoffs.append((c, int(number) - 1))
            i += 1
        deadwood = None
        if i < n and words[i] == "deadwood":
            if i + 1 >= n or not _COUNT_RE.fullmatch(words[i + 1]):
                return None
            deadwood = int(words[i + 1])
            i += 2
        if i != n:
            return None
        return Defence(name, tuple(melds), tuple(layoffs), deadwood, place)

    def parsed_event(self, text: str) -> Event:
        res = self.parse(event_line_expr, text)
        player: RecordToken = res["player"]
        place = Place(self.line, player.loc + 1)
        if "pass" in res:
            return Pass(player.text, place)
        if "defend" in res:
            return Defence(
                player.text,
                melds=tuple(mask_of(meld) for meld in res["melds"]),
                layoffs=tuple((c, number - 1) for c, number in res["layoffs"]),
                deadwood=_opt(res, "deadwood"),
                place=place,
            )
        word = _opt(res, "source")
        source: Source = "none" if word is None else _SOURCE_WORDS[word.text]  # type: ignore[assignment]
        knock = None
        ending = _opt(res, "ending")
        if ending is not None:
            knock = Knock(
                ending=ending.text,
                discard=_opt(res, "knock_card"),
                melds=tuple(mask_of(meld) for meld in res["melds"]),
                deadwood=_opt(res, "deadwood"),
                place=Place(self.line, ending.loc + 1),
            )
        return Turn(
            player.text, source, _opt(res, "card") if word is not None else None,
            _opt(res, "discard"), knock, place,
        )


def read_text(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record in the text form; raises ``RecordError`` (with line and column) if it is bad.

    ``first_line`` numbers the first line of ``text`` (for a record cut out of a file).
    """
    reader = _TextReader(source, index)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not a line
    for number, line in enumerate(lines, first_line):
        reader.feed(number, line[:-1] if line.endswith("\r") else line)
    return reader.finish()


def format_text(record: GameRecord) -> str:
    """The canonical text form of ``record``; :func:`read_text` reads it back equal.

    Raises ``ValueError`` for what no record text can say (a card number outside
    0..51, a turn with no draw, discard or knock).
    """
    out = [f"[{name} {_quote(value)}]" for name, value in record.tags]
    out.append(f"[Rules {_quote(record.rules)}]")
    out.extend(f"[Set {_quote(f'{knob}={value}')}]" for knob, value in record.overrides)
    out.append(f"[Players {_quote(record.players[0])} {_quote(record.players[1])}]")
    for hand in record.hands:
        out.append("")
        if hand.number is not None:
            out.append(f'[Hand "{hand.number}"]')
        out.append(f"[Dealer {_quote(hand.dealer)}]")
        for name, cards in hand.deal:
            out.append(f'[Deal {_quote(name)} "{_cards_text(cards)}"]')
        if hand.upcard is not None:
            out.append(f'[Upcard "{_cards_text((hand.upcard,))}"]')
        if hand.stock is not None:
            out.append(f'[Stock "{_cards_text(hand.stock)}"]')
        out.extend(_event_text(event) for event in hand.events)
        result = hand.result
        if result is not None:
            words = ["result", result.outcome]
            if result.winner is not None:
                words.append(_name_text(result.winner))
            if result.points or result.winner is not None:
                words.append(str(result.points))
            out.append(" ".join(words))
        if hand.score_after is not None:
            out.append(" ".join(["score", *_totals_words(hand.score_after)]))
        if hand.next_dealer is not None:
            out.append(f"next_dealer {_name_text(hand.next_dealer)}")
    if record.final_totals is not None:
        out.append("")
        out.append(" ".join(["final", *_totals_words(record.final_totals)]))
    return "\n".join(out) + "\n"


def _totals_words(totals: tuple[tuple[str, int], ...]) -> list[str]:
    return [word for name, points in totals for word in (_name_text(name), str(points))]


def _event_text(event: Event) -> str:
    words = [_name_text(event.player)]
    if type(event) is Pass:
        words.append("pass")
    elif type(event) is Defence:
        words.append("defend")
        words.extend(_meld_text(m) for m in event.melds)
        for c, onto in event.layoffs:
            if type(onto) is not int or onto < 0:
                raise ValueError(f"bad layoff meld index {onto!r}")
            words.append(f"{_cards_text((c,))}>{onto + 1}")
        if event.deadwood is not None:
            words.append(f"deadwood {event.deadwood}")
    elif type(event) is Turn:
        if event.source != "none":
            words.append(_SOURCE_KEYWORDS[event.source])
            words.append("??" if event.card is None else _cards_text((event.card,)))
        elif event.card is not None:
            raise ValueError(f"a turn with no draw cannot have drawn {event.card!r}")
        if event.discard is not None:
            words.append(f"discard {_cards_text((event.discard,))}")
        knock = event.knock
        if knock is not None:
            words.append(knock.ending)
            if knock.discard is not None:
                words.append(_cards_text((knock.discard,)))
            words.extend(_meld_text(m) for m in knock.melds)
            if knock.deadwood is not None:
                words.append(f"deadwood {knock.deadwood}")
        if len(words) == 1:
            raise ValueError(f"{event.player}'s turn has no draw, discard or knock")
    else:
        raise TypeError(f"not a record event: {event!r}")
    return " ".join(words)


# == the JSON form ==========================================================================
#
# Snake_case keys, cards as "TC", melds as lists of cards, layoffs as {"card", "onto"} with a
# 0-based meld index. ``from_json_dict`` checks everything by hand (no schema validation at
# run time: it must decode well over 10,000 records a second) and names the bad element by
# its JSON pointer. ``ginref/record.schema.json`` describes the same form for other tools.

_RECORD_KEYS = frozenset({"rules", "overrides", "players", "tags", "hands", "final_totals"})
_HAND_KEYS = frozenset({
    "number", "dealer", "deal", "upcard", "stock", "events", "result", "score_after", "next_dealer",
})
_TURN_KEYS = frozenset({"type", "player", "source", "card", "discard", "knock"})
_KNOCK_KEYS = frozenset({"ending", "discard", "melds", "deadwood"})
_DEFENCE_KEYS = frozenset({"type", "player", "melds", "layoffs", "deadwood"})
_RESULT_KEYS = frozenset({"outcome", "winner", "points"})


class JsonRecordError(RecordError):
    """A JSON record that does not fit the form; ``pointer`` names the bad element."""

    def __init__(
        self, message: str, source: str = "", line: int = 0, column: int = 0, pointer: str = ""
    ) -> None:
        super().__init__(message, source, line, column)
        self.pointer = pointer


class _Invalid(Exception):
    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.message = message


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unknown_key(data: dict[str, object], allowed: frozenset[str], pointer: str) -> NoReturn:
    key = next(k for k in data if k not in allowed)
    raise _Invalid(f"{pointer}/{_escape(str(key))}", f"unknown key {key!r}")


def _want(value: object, what: str, pointer: str) -> NoReturn:
    raise _Invalid(pointer, f"expected {what}, got {_kind(value)}")


def _json_card(value: object, pointer: str) -> Card:
    c = _CARD_TOKENS.get(value) if type(value) is str else None
    if c is None:
        if type(value) is str:
            raise _Invalid(pointer, f"unknown card {value!r}")
        _want(value, 'a card such as "TC"', pointer)
    return c


_CARD_OF = _CARD_TOKENS.__getitem__


def _json_cards(value: object, pointer: str) -> tuple[Card, ...]:
    if type(value) is not list:
        _want(value, "a list of cards", pointer)
    try:
        return tuple(map(_CARD_OF, value))
    except (KeyError, TypeError):
        for i, v in enumerate(value):
            _json_card(v, f"{pointer}/{i}")
        raise AssertionError("unreachable: a bad card was found above") from None


def _json_meld(value: object, pointer: str) -> Mask:
    cards = _json_cards(value, pointer)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        seen: set[Card] = set()
        for i, c in enumerate(cards):
            if c in seen:
                raise _Invalid(f"{pointer}/{i}", f"duplicate card {card_name(c)!r} in a meld")
            seen.add(c)
    return mask


def _json_melds(value: object, pointer: str) -> tuple[Mask, ...]:
    if type(value) is not list:
        _want(value, "a list of melds", pointer)
    return tuple(_json_meld(m, f"{pointer}/{i}") for i, m in enumerate(value))


def _json_count(value: object, pointer: str) -> int:
    if type(value) is not int or value < 0:
        _want(value, "a whole number >= 0", pointer)
    return value


def _json_name(value: object, pointer: str) -> str:
    if type(value) is not str:
        _want(value, "a player name", pointer)
    return value


def _json_totals(value: object, pointer: str) -> tuple[tuple[str, int], ...]:
    if type(value) is not dict:
        _want(value, 'an object of totals such as {"Ann": 21, "Bo": 0}', pointer)
    for name, points in value.items():
        if type(points) is not int:
            _want(points, "a whole number", f"{pointer}/{_escape(name)}")
    return tuple(value.items())


# Places of JSON elements are pointers only and are shared by every record, so decoding a
# record makes no Place objects: /hands/H and /hands/H/result, /hands/H/events/E and
# /hands/H/events/E/knock.
_HAND_PLACES: list[tuple[Place, Place]] = []
_EVENT_PLACES: list[list[tuple[Place, Place]]] = []


def _hand_places(h: int) -> tuple[Place, Place]:
    while len(_HAND_PLACES) <= h:
        n = len(_HAND_PLACES)
        _HAND_PLACES.append((Place(pointer=f"/hands/{n}"), Place(pointer=f"/hands/{n}/result")))
        _EVENT_PLACES.append([])
    return _HAND_PLACES[h]


def _event_places(h: int, count: int) -> list[tuple[Place, Place]]:
    _hand_places(h)
    places = _EVENT_PLACES[h]
    while len(places) < count:
        e = len(places)
        ev = f"/hands/{h}/events/{e}"
        places.append((Place(pointer=ev), Place(pointer=f"{ev}/knock")))
    return places


_SOURCES = frozenset({"stock", "discard", "none"})


def _json_events(value: object, h: int) -> tuple[Event, ...]:
    pointer = f"/hands/{h}/events"
    if type(value) is not list:
        _want(value, "a list of events", pointer)
    places = _event_places(h, len(value))
    cards = _CARD_TOKENS
    sources = _SOURCES
    turn, pass_ = Turn, Pass
    out: list[Event] = []
    append = out.append
    e = -1
    for ev in value:
        e += 1
        if type(ev) is not dict:
            _want(ev, "an event object", f"{pointer}/{e}")
        kind = ev.get("type")
        player = ev.get("player")
        if type(player) is not str:
            _want(player, "the player's name", f"{pointer}/{e}/player")
        if kind == "turn":
            source = ev.get("source")
            c = ev.get("card")
            x = ev.get("discard")
            k = ev.get("knock")
            try:
                if c is not None:
                    c = cards[c]
                if x is not None:
                    x = cards[x]
            except (KeyError, TypeError):
                for key in ("card", "discard"):
                    if ev.get(key) is not None:
                        _json_card(ev[key], f"{pointer}/{e}/{key}")
            if len(ev) != (4 if source != "none" else 3) + (x is not None) + (k is not None):
                _turn_keys(ev, f"{pointer}/{e}")
            if source not in sources or source == "none":
                _check_source(ev, f"{pointer}/{e}")
            if k is None:
                append(turn(player, source, c, x, None, places[e][0]))  # type: ignore[arg-type]
            else:
                place, knock_place = places[e]
                knock = _json_knock(k, h, e, knock_place)
                append(turn(player, source, c, x, knock, place))  # type: ignore[arg-type]
        elif kind == "pass":
            if len(ev) != 2:
                _unknown_key(ev, frozenset({"type", "player"}), f"{pointer}/{e}")
            append(pass_(player, places[e][0]))
        elif kind == "defence":
            append(_json_defence(ev, player, h, e, places[e][0]))
        elif "type" not in ev:
            raise _Invalid(f"{pointer}/{e}", "missing key 'type'")
        else:
            raise _Invalid(f"{pointer}/{e}/type",
                           f"expected 'turn', 'pass' or 'defence', got {kind!r}")
    return tuple(out)


def _turn_keys(ev: dict[str, object], pointer: str) -> None:
    """A turn whose key count is unusual: explicit nulls are fine, other keys are not."""
    if not _TURN_KEYS.issuperset(ev):
        _unknown_key(ev, _TURN_KEYS, pointer)
    if "source" not in ev:
        raise _Invalid(pointer, "missing key 'source'")


def _check_source(ev: dict[str, object], pointer: str) -> None:
    """The rare cases of a turn's source: ``none`` (no draw) or a bad value."""
    source = ev.get("source")
    if source == "none":
        if ev.get("card") is not None:
            raise _Invalid(f"{pointer}/card", "a turn with no draw (source 'none') draws no card")
        if ev.get("discard") is None and ev.get("knock") is None:
            raise _Invalid(pointer, "a turn needs a draw, a discard or a knock")
        return
    if "source" not in ev:
        raise _Invalid(pointer, "missing key 'source'")
    raise _Invalid(f"{pointer}/source", f"expected 'stock', 'discard' or 'none', got {source!r}")


_BIT_OF = {token: 1 << c for token, c in _CARD_TOKENS.items()}.__getitem__


def _json_fast_melds(value: object) -> tuple[Mask, ...] | None:
    """Melds that are lists of distinct cards, as masks; None for anything else."""
    if type(value) is not list:
        return None
    out = []
    try:
        for meld in value:
            if type(meld) is not list:
                return None
            mask: int = sum(map(_BIT_OF, meld))
            if mask.bit_count() != len(meld):
                return None
            out.append(mask)
    except (KeyError, TypeError):
        return None
    return tuple(out)


def _json_knock(value: object, h: int, e: int, place: Place) -> Knock:
    if type(value) is dict:
        ending = value.get("ending")
        melds = _json_fast_melds(value.get("melds"))
        discard = value.get("discard")
        deadwood = value.get("deadwood")
        if (
            ending in _ENDINGS
            and melds is not None
            and (deadwood is None or (type(deadwood) is int and deadwood >= 0))
            and len(value) == 2 + ("discard" in value) + ("deadwood" in value)
        ):
            try:
                return Knock(ending, None if discard is None else _CARD_OF(discard), melds, deadwood, place)
            except (KeyError, TypeError):
                pass
    return _checked_knock(value, f"/hands/{h}/events/{e}/knock", place)


def _json_defence(ev: dict[str, object], player: str, h: int, e: int, place: Place) -> Defence:
    melds = _json_fast_melds(ev["melds"]) if "melds" in ev else ()
    items = ev.get("layoffs", ())
    deadwood = ev.get("deadwood")
    if (
        melds is not None
        and type(items) in (list, tuple)
        and (deadwood is None or (type(deadwood) is int and deadwood >= 0))
        and len(ev) == 2 + ("melds" in ev) + ("layoffs" in ev) + ("deadwood" in ev)
    ):
        layoffs = []
        try:
            for item in items:  # type: ignore[attr-defined]
                onto = item["onto"]
                if type(onto) is not int or onto < 0 or len(item) != 2:
                    break
                layoffs.append((_CARD_OF(item["card"]), onto))
            else:
                return Defence(player, melds, tuple(layoffs), deadwood, place)
        except (KeyError, TypeError):
            pass
    return _checked_defence(ev, player, f"/hands/{h}/events/{e}", place)


def _json_choice(
    value: dict[str, Any], key: str, allowed: Collection[str], pointer: str, expected: str
) -> Any:
    """``value[key]``, which must be one of ``allowed``; else the missing or bad key, named."""
    choice = value.get(key)
    if choice not in allowed:
        if key not in value:
            raise _Invalid(pointer, f"missing key {key!r}")
        raise _Invalid(f"{pointer}/{key}", f"expected {expected}, got {choice!r}")
    return choice


def _checked_knock(value: object, pointer: str, place: Place) -> Knock:
    """A knock checked step by step, naming the bad element; the slow path."""
    if type(value) is not dict:
        _want(value, "a knock object", pointer)
    ending = _json_choice(value, "ending", _ENDINGS, pointer, "'knock', 'gin' or 'big_gin'")
    if "melds" not in value:
        raise _Invalid(pointer, "missing key 'melds'")
    melds = _json_melds(value["melds"], f"{pointer}/melds")
    known = 2
    discard = value.get("discard")
    if "discard" in value:
        known += 1
        if discard is not None:
            discard = _json_card(discard, f"{pointer}/discard")
    deadwood = value.get("deadwood")
    if "deadwood" in value:
        known += 1
        if deadwood is not None:
            deadwood = _json_count(deadwood, f"{pointer}/deadwood")
    if known != len(value):
        _unknown_key(value, _KNOCK_KEYS, pointer)
    return Knock(ending, discard, melds, deadwood, place)


def _checked_defence(ev: dict[str, object], player: str, pointer: str, place: Place) -> Defence:
    """A defence checked step by step, naming the bad element; the slow path."""
    known = 2
    melds: tuple[Mask, ...] = ()
    if "melds" in ev:
        known += 1
        melds = _json_melds(ev["melds"], f"{pointer}/melds")
    layoffs: list[tuple[Card, int]] = []
    if "layoffs" in ev:
        known += 1
        items = ev["layoffs"]
        if type(items) is not list:
            _want(items, "a list of layoffs", f"{pointer}/layoffs")
        for i, item in enumerate(items):
            at = f"{pointer}/layoffs/{i}"
            if type(item) is not dict:
                _want(item, 'a layoff such as {"card": "7H", "onto": 0}', at)
            if "card" not in item or "onto" not in item:
                raise _Invalid(at, f"missing key {'card' if 'card' not in item else 'onto'!r}")
            if len(item) != 2:
                _unknown_key(item, frozenset({"card", "onto"}), at)
            layoffs.append((_json_card(item["card"], f"{at}/card"), _json_count(item["onto"], f"{at}/onto")))
    deadwood = ev.get("deadwood")
    if "deadwood" in ev:
        known += 1
        if deadwood is not None:
            deadwood = _json_count(deadwood, f"{pointer}/deadwood")
    if known != len(ev):
        _unknown_key(ev, _DEFENCE_KEYS, pointer)
    return Defence(player, melds, tuple(layoffs), deadwood, place)  # type: ignore[arg-type]


def _json_hand(data: object, h: int) -> HandRecord:
    if type(data) is not dict:
        _want(data, "a hand object", f"/hands/{h}")
    dealer = data.get("dealer")
    deal_data = data.get("deal")
    events = data.get("events")
    if type(dealer) is not str or type(deal_data) is not dict or events is None:
        _check_hand_keys(data, h)
    try:
        deal = tuple([(name, tuple(map(_CARD_OF, cards))) for name, cards in deal_data.items()])
    except (KeyError, TypeError):
        deal = tuple(
            (name, _json_cards(cards, f"/hands/{h}/deal/{_escape(name)}"))
            for name, cards in deal_data.items()
        )
    number = data.get("number")
    if number is not None and (type(number) is not int or number < 0):
        _want(number, "a whole number >= 0", f"/hands/{h}/number")
    upcard = data.get("upcard")
    if upcard is not None:
        upcard = _json_card(upcard, f"/hands/{h}/upcard")
    stock = data.get("stock")
    if stock is not None:
        stock = _json_cards(stock, f"/hands/{h}/stock")
    events = _json_events(events, h)
    hand_place, result_place = _HAND_PLACES[h]
    result = data.get("result")
    if result is not None:
        result = _json_result(result, f"/hands/{h}/result", result_place)
    score_after = data.get("score_after")
    if score_after is not None:
        score_after = _json_totals(score_after, f"/hands/{h}/score_after")
    next_dealer = data.get("next_dealer")
    if next_dealer is not None and type(next_dealer) is not str:
        _want(next_dealer, "a player name", f"/hands/{h}/next_dealer")
    if len(data) > 3 and not _HAND_KEYS.issuperset(data):
        _unknown_key(data, _HAND_KEYS, f"/hands/{h}")
    return HandRecord(
        dealer, deal, upcard, events, stock, result, score_after, next_dealer, number, hand_place,
    )


def _check_hand_keys(data: dict[str, object], h: int) -> NoReturn:
    pointer = f"/hands/{h}"
    for key in ("dealer", "deal", "events"):
        if key not in data:
            raise _Invalid(pointer, f"missing key {key!r}")
    if type(data["dealer"]) is not str:
        _want(data["dealer"], "a player name", f"{pointer}/dealer")
    if type(data["deal"]) is not dict:
        _want(data["deal"], 'an object of dealt cards such as {"Ann": [...], "Bo": [...]}',
              f"{pointer}/deal")
    _want(data["events"], "a list of events", f"{pointer}/events")


def _json_result(value: object, pointer: str, place: Place) -> ClaimedResult:
    if type(value) is not dict:
        _want(value, "a result object", pointer)
    outcome = _json_choice(value, "outcome", _OUTCOMES, pointer, f"one of {', '.join(sorted(_OUTCOMES))}")
    known = 1
    winner = value.get("winner")
    if "winner" in value:
        known += 1
        if winner is not None:
            winner = _json_name(winner, f"{pointer}/winner")
    points = value.get("points", 0)
    if "points" in value:
        known += 1
        if type(points) is not int:
            _want(points, "a whole number", f"{pointer}/points")
    if known != len(value):
        _unknown_key(value, _RESULT_KEYS, pointer)
    return ClaimedResult(outcome, winner, points, place)


def _json_record(data: object, source: str, index: int, line: int) -> GameRecord:
    if type(data) is not dict:
        _want(data, "a record object", "")
    for key in ("rules", "players", "hands"):
        if key not in data:
            raise _Invalid("", f"missing key {key!r}")
    known = 3
    rules = data["rules"]
    if type(rules) is not str or not rules.strip():
        _want(rules, "a rule set name", "/rules")
    players = data["players"]
    if type(players) is not list or len(players) != 2:
        _want(players, "a list of the two players' names", "/players")
    for i, name in enumerate(players):
        if type(name) is not str:
            _want(name, "a player name", f"/players/{i}")
    overrides: tuple[tuple[str, str], ...] = ()
    if "overrides" in data:
        known += 1
        overrides = _json_overrides(data["overrides"])
    tags: tuple[tuple[str, str], ...] = ()
    if "tags" in data:
        known += 1
        tags = _json_tags(data["tags"])
    hands = data["hands"]
    if type(hands) is not list or not hands:
        _want(hands, "a list of one or more hands", "/hands")
    final = data.get("final_totals")
    if "final_totals" in data:
        known += 1
        if final is not None:
            final = _json_totals(final, "/final_totals")
    if known != len(data):
        _unknown_key(data, _RECORD_KEYS, "")
    _hand_places(len(hands) - 1)
    return GameRecord(
        players=(players[0], players[1]),
        hands=tuple(_json_hand(hand, h) for h, hand in enumerate(hands)),
        rules=rules.strip(),
        overrides=overrides,
        tags=tags,
        final_totals=final,
        source=source,
        index=index,
        place=Place(line=line) if line else NOWHERE,
    )


def _json_overrides(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        _want(value, 'an object of rule knobs such as {"gin_bonus": 25}', "/overrides")
    out = []
    for knob, setting in value.items():
        at = f"/overrides/{_escape(knob)}"
        if not _KNOB_RE.fullmatch(knob):
            raise _Invalid(at, f"bad rule knob name {knob!r}")
        if isinstance(setting, bool):
            text = "true" if setting else "false"
        elif type(setting) is int or type(setting) is str:
            text = str(setting).strip()
        else:
            _want(setting, "text, a whole number or true/false", at)
        out.append((knob, text))
    return tuple(out)


def _json_tags(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        _want(value, 'an object of free tags such as {"Event": "Club night"}', "/tags")
    for name, text in value.items():
        at = f"/tags/{_escape(name)}"
        if not _TAG_NAME_RE.fullmatch(name):
            raise _Invalid(at, f"bad tag name {name!r}: a letter, then letters, digits or '_'")
        if name.lower() in _KNOWN_TAGS:
            raise _Invalid(at, f"{name!r} is not a free tag (the record has a key for it)")
        if type(text) is not str:
            _want(text, "text", at)
    return tuple(value.items())


def from_json_dict(data: object, *, source: str = "", index: int = 0, line: int = 0) -> GameRecord:
    """A record from its JSON form (as ``json.loads`` gives it), fully checked.

    Raises :class:`JsonRecordError` naming the bad element by JSON pointer. ``line`` is
    the record's line in its source (a ``.jsonl`` line), kept in the record's place.
    """
    try:
        return _json_record(data, source, index, line)
    except _Invalid as exc:
        message = f"{exc.pointer}: {exc.message}" if exc.pointer else exc.message
        raise JsonRecordError(message, source, line, 0, exc.pointer) from None


def to_json_dict(record: GameRecord) -> dict[str, object]:
    """The JSON form of ``record`` (canonical: :func:`from_json_dict` reads it back equal).

    Raises ``ValueError`` for what JSON cannot say: a name given twice in a mapping (deal,
    totals, overrides, tags) or a card number outside 0..51.
    """
    out: dict[str, object] = {"rules": record.rules}
    if record.overrides:
        out["overrides"] = _mapping(record.overrides, "overrides")
    out["players"] = list(record.players)
    if record.tags:
        out["tags"] = _mapping(record.tags, "tags")
    out["hands"] = [_hand_json(hand) for hand in record.hands]
    if record.final_totals is not None:
        out["final_totals"] = _mapping(record.final_totals, "final_totals")
    return out


def _mapping(pairs: Iterable[tuple[str, object]], what: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"{what} name {key!r} twice; JSON cannot say that")
        out[key] = value
    return out


def _card_json(c: Card) -> str:
    if type(c) is not int or not 0 <= c < 52:
        raise ValueError(f"not a card: {c!r}")
    return _CARD_NAMES[c]


def _meld_json(mask: Mask) -> list[str]:
    if type(mask) is not int or mask < 0 or mask >> 52:
        raise ValueError(f"not a meld: {mask!r}")
    return [_CARD_NAMES[c] for c in scan(mask)]


def _hand_json(hand: HandRecord) -> dict[str, object]:
    out: dict[str, object] = {}
    if hand.number is not None:
        out["number"] = hand.number
    out["dealer"] = hand.dealer
    out["deal"] = _mapping(((name, [_card_json(c) for c in cards]) for name, cards in hand.deal), "deal")
    out["upcard"] = None if hand.upcard is None else _card_json(hand.upcard)
    if hand.stock is not None:
        out["stock"] = [_card_json(c) for c in hand.stock]
    out["events"] = [_event_json(event) for event in hand.events]
    if hand.result is not None:
        result: dict[str, object] = {"outcome": hand.result.outcome}
        if hand.result.winner is not None:
            result["winner"] = hand.result.winner
        result["points"] = hand.result.points
        out["result"] = result
    if hand.score_after is not None:
        out["score_after"] = _mapping(hand.score_after, "score_after")
    if hand.next_dealer is not None:
        out["next_dealer"] = hand.next_dealer
    return out


def _event_json(event: Event) -> dict[str, object]:
    if type(event) is Pass:
        return {"type": "pass", "player": event.player}
    if type(event) is Defence:
        out: dict[str, object] = {
            "type": "defence",
            "player": event.player,
            "melds": [_meld_json(m) for m in event.melds],
            "layoffs": [{"card": _card_json(c), "onto": onto} for c, onto in event.layoffs],
        }
        if event.deadwood is not None:
            out["deadwood"] = event.deadwood
        return out
    if type(event) is not Turn:
        raise TypeError(f"not a record event: {event!r}")
    out = {"type": "turn", "player": event.player, "source": event.source}
    if event.source != "none":
        out["card"] = None if event.card is None else _card_json(event.card)
    elif event.card is not None:
        raise ValueError(f"a turn with no draw cannot have drawn {event.card!r}")
    if event.discard is not None:
        out["discard"] = _card_json(event.discard)
    knock = event.knock
    if knock is not None:
        k: dict[str, object] = {"ending": knock.ending}
        if knock.discard is not None:
            k["discard"] = _card_json(knock.discard)
        k["melds"] = [_meld_json(m) for m in knock.melds]
        if knock.deadwood is not None:
            k["deadwood"] = knock.deadwood
        out["knock"] = k
    elif event.discard is None and event.source == "none":
        raise ValueError(f"{event.player}'s turn has no draw, discard or knock")
    return out


def format_jsonl(record: GameRecord) -> str:
    """The record as one line of JSON (no line end)."""
    return json.dumps(to_json_dict(record), ensure_ascii=False, separators=(",", ":"))


def format_json(record: GameRecord, *, width: int = 100) -> str:
    """The record as readable JSON: nested, but lists and small objects kept on one line."""
    return _pretty(to_json_dict(record), 0, width) + "\n"


def _pretty(value: object, indent: int, width: int, lead: int = 0) -> str:
    """JSON for ``value`` starting ``lead`` characters into a line indented by ``indent``."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(inner + key + _pretty(v, indent + 2, width, len(key) + 1))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        return flat
    items = [inner + _pretty(v, indent + 2, width, 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


# == reading files and streams ================================================================

RecordFormat = Literal["gin", "json", "jsonl"]
_SUFFIXES: dict[str, RecordFormat] = {
    ".gin": "gin", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
}
MAX_LINE = 1 << 22
"""Longest line read (bytes); a longer one is an unreadable record, skipped without storing it."""
MAX_JSON = 1 << 26
"""Largest ``.json`` document read whole (bytes)."""

_Line = tuple[int, str, "tuple[int, str] | None"]
"""(line number, text without its line end, (column, problem) if the bytes are bad)"""


def record_format(name: str) -> RecordFormat | None:
    """The record format a file name's extension implies, if any: ``gin``, ``json``, ``jsonl``."""
    return _SUFFIXES.get(os.path.splitext(name)[1].lower())


def _decoded(raw: bytes | str, number: int) -> _Line:
    if isinstance(raw, str):
        text = raw
        problem = None
    else:
        try:
            text = raw.decode("utf-8")
            problem = None
        except UnicodeDecodeError as exc:
            text = raw.decode("utf-8", "replace")
            column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            problem = (column, f"invalid UTF-8 (byte 0x{raw[exc.start]:02x}); records are UTF-8 text")
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    return number, text, problem


def _lines(stream: IO[bytes] | IO[str]) -> Iterator[_Line]:
    """Numbered lines of ``stream``, one at a time; never more than ``MAX_LINE`` in memory."""
    readline = stream.readline
    number = 0
    while True:
        raw = readline(MAX_LINE)
        if not raw:
            return
        number += 1
        if len(raw) >= MAX_LINE and raw[-1:] not in ("\n", b"\n"):
            while raw and raw[-1:] not in ("\n", b"\n"):
                raw = readline(MAX_LINE)
            yield number, "", (1, f"line longer than {MAX_LINE} characters")
            continue
        yield _decoded(raw, number)


def _is_game_tag(text: str) -> bool:
    match = _TAG_START_RE.match(text)
    return match is not None and match.group(1).lower() not in _HAND_TAG_KEYS


def _split(lines: Iterable[_Line]) -> Iterator[list[_Line]]:
    """Text lines grouped into records: a game tag after a record's hand lines starts the next."""
    chunk: list[_Line] = []
    in_hands = False
    for item in lines:
        text = item[1]
        stripped = text.lstrip()
        if (not stripped or stripped[0] == "#") and item[2] is None:
            if chunk:
                chunk.append(item)
            continue
        if _is_game_tag(text):
            if in_hands:
                yield chunk
                chunk, in_hands = [], False
        else:
            in_hands = True
        chunk.append(item)
    if chunk:
        yield chunk


def split_text_records(
    lines: Iterable[tuple[int, str] | tuple[int, str, str | None]],
) -> Iterator[tuple[int, str, str | None]]:
    """Numbered text lines grouped into records: ``(first line, the record's text, problem)``.

    For callers that read lines themselves (``ginref.verify``); the text of each
    record goes to :func:`read_record` with ``first_line``. A line may carry a
    problem (bytes that are not text); the record holding it reports the first
    such problem, so the caller can rule it unreadable and go on to the next.
    """
    items: Iterator[_Line] = (
        (line[0], line[1].rstrip("\r\n"), (1, line[2]) if len(line) > 2 and line[2] is not None else None)
        for line in lines
    )
    for chunk in _split(items):
        problem = next((p[1] for _, _, p in chunk if p is not None), None)
        yield chunk[0][0], "\n".join(text for _, text, _ in chunk), problem


def _text_records(lines: Iterable[_Line], source: str) -> Iterator[GameRecord | RecordError]:
    """Read text records as the lines come (the same boundaries as ``_split``). Once a
    record has failed, its remaining lines are skipped unread, so junk costs no memory."""
    index = 0
    reader: _TextReader | None = None
    failed: RecordError | None = None
    in_hands = False
    for number, text, problem in lines:
        stripped = text.lstrip()
        if (not stripped or stripped[0] == "#") and problem is None:
            continue
        game_tag = _is_game_tag(text)
        if game_tag and in_hands:
            assert reader is not None
            yield failed or _finish(reader)
            index += 1
            reader, failed, in_hands = None, None, False
        if not game_tag:
            in_hands = True
        if reader is None:
            reader = _TextReader(source, index)
        if failed is None:
            try:
                if problem is not None:
                    raise RecordError(problem[1], source, number, problem[0])
                reader.feed(number, text)
            except RecordError as exc:
                failed = exc
    if reader is not None:
        yield failed or _finish(reader)


def _finish(reader: _TextReader) -> GameRecord | RecordError:
    try:
        return reader.finish()
    except RecordError as exc:
        return exc


def _pointer_offset(text: str, pointer: str) -> int | None:
    """Where the element at ``pointer`` starts in the JSON ``text`` (the last of equal keys)."""
    decoder = json.JSONDecoder()
    space = re.compile(r"[ \t\n\r]*")

    def skip(i: int) -> int:
        return space.match(text, i).end()  # type: ignore[union-attr]

    try:
        i = skip(0)
        for part in pointer.split("/")[1:] if pointer else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if text[i] == "{":
                i = skip(i + 1)
                found = None
                while text[i] != "}":
                    key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                    i = skip(skip(i) + 1)
                    if key == part:
                        found = i
                    i = skip(decoder.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = skip(i + 1)
                if found is None:
                    return None
                i = found
            elif text[i] == "[":
                i = skip(i + 1)
                for _ in range(int(part)):
                    i = skip(decoder.raw_decode(text, i)[1])
                    i = skip(i + 1)  # the comma
            else:
                return None
        return i
    except (ValueError, IndexError):
        return None


def _json_text_record(text: str, source: str, index: int, line: int) -> GameRecord | RecordError:
    """Decode one JSON record whose text starts at ``line``; errors get a line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return RecordError(f"bad JSON: {exc.msg[:1].lower()}{exc.msg[1:]}", source,
                           line + exc.lineno - 1, exc.colno)
    except RecursionError:
        return RecordError("bad JSON: nested too deeply", source, line, 1)
    return _json_data_record(data, text, source, index, line)


def _json_data_record(
    data: object, text: str, source: str, index: int, line: int, prefix: str = ""
) -> GameRecord | RecordError:
    try:
        return from_json_dict(data, source=source, index=index, line=line)
    except JsonRecordError as exc:
        offset = _pointer_offset(text, prefix + exc.pointer)
        if offset is None:
            return JsonRecordError(exc.message, source, line, 0, exc.pointer)
        return JsonRecordError(
            exc.message, source, line + text.count("\n", 0, offset),
            offset - text.rfind("\n", 0, offset), exc.pointer,
        )


def _json_document(lines: Iterable[_Line], source: str) -> Iterator[GameRecord | RecordError]:
    """A whole ``.json`` document: one record object, or a list of them."""
    parts: list[str] = []
    size = 0
    first = 0
    for number, text, problem in lines:
        first = first or number
        if problem is not None:
            yield RecordError(problem[1], source, number, problem[0])
            return
        size += len(text) + 1
        if size > MAX_JSON:
            yield RecordError(f"JSON document larger than {MAX_JSON} characters", source, number, 1)
            return
        parts.append(text)
    text = "\n".join(parts)
    if not text.strip():
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        yield RecordError(f"bad JSON: {exc.msg[:1].lower()}{exc.msg[1:]}", source,
                          first + exc.lineno - 1, exc.colno)
        return
    except RecursionError:
        yield RecordError("bad JSON: nested too deeply", source, first, 1)
        return
    if type(data) is list:
        for i, item in enumerate(data):
            yield _json_data_record(item, text, source, i, first, f"/{i}")
    else:
        yield _json_data_record(data, text, source, 0, first)


def _json_lines(lines: Iterable[_Line], source: str) -> Iterator[GameRecord | RecordError]:
    index = 0
    for number, text, problem in lines:
        if problem is not None:
            yield RecordError(problem[1], source, number, problem[0])
        elif not text.strip():
            continue
        else:
            yield _json_text_record(text, source, index, number)
        index += 1


def _sniff(lines: Iterator[_Line]) -> tuple[RecordFormat, Iterator[_Line]]:
    """JSON Lines if the first non-blank character is ``{`` (a lone ``{`` or ``[{``: one
    JSON document), else text."""
    seen: list[_Line] = []
    found: RecordFormat = "gin"
    for item in lines:
        seen.append(item)
        stripped = item[1].strip()
        if stripped:
            if stripped == "{" or (stripped[0] == "[" and stripped[1:].lstrip()[:1] in ("{", "]", "")):
                found = "json"
            elif stripped[0] == "{":
                found = "jsonl"
            break

    def replay() -> Iterator[_Line]:
        yield from seen
        yield from lines

    return found, replay()


def read_records(
    input: str | os.PathLike[str] | IO[bytes] | IO[str],
    *,
    source: str | None = None,
    format: RecordFormat | None = None,
) -> Iterator[GameRecord | RecordError]:
    """Every record of a file or stream, in order: a ``GameRecord``, or the ``RecordError``
    that says why that record cannot be read. Never stops at a bad record.

    The format is ``format``, else the extension of the path (or of ``source``):
    ``.gin`` text, ``.json`` one record (or a list of them), ``.jsonl`` one per line;
    else it is sniffed (``{`` first: JSON Lines; otherwise text). Lines are read one at
    a time, so memory stays flat however large the input. A path that cannot be opened
    raises ``OSError``.
    """
    with _opened(input) as stream:
        name = _source_name(input, source)
        found, lines = _format_and_lines(stream, format or record_format(name))
        yield from _records(lines, name, found)


def convert_records(
    input: str | os.PathLike[str] | IO[bytes] | IO[str],
    output: IO[str],
    *,
    to: RecordFormat | None = None,
    source: str | None = None,
    format: RecordFormat | None = None,
) -> Iterator[RecordError]:
    """Read every record of ``input`` and write it to ``output`` in ``to``; yield each
    ``RecordError`` met (the record is skipped, the rest are converted).

    ``to`` defaults to the other form: JSON Lines from text, text from JSON.
    """
    with _opened(input) as stream:
        name = _source_name(input, source)
        found, lines = _format_and_lines(stream, format or record_format(name))
        target: RecordFormat = to or ("gin" if found != "gin" else "jsonl")
        yield from write_records(_records(lines, name, found), output, target)


@contextlib.contextmanager
def _opened(input: str | os.PathLike[str] | IO[bytes] | IO[str]) -> Iterator[IO[bytes] | IO[str]]:
    if isinstance(input, (str, os.PathLike)):
        with open(input, "rb") as handle:
            yield handle
        return
    buffer = getattr(input, "buffer", None)
    # read bytes where we can, so that bad UTF-8 is one bad record rather than an exception
    yield buffer if buffer is not None and hasattr(buffer, "readline") else input


def _source_name(input: object, source: str | None) -> str:
    if source:
        return source
    if isinstance(input, (str, os.PathLike)):
        return os.fspath(input)
    return str(getattr(input, "name", "") or "<stream>")


def _format_and_lines(
    stream: IO[bytes] | IO[str], format: RecordFormat | None
) -> tuple[RecordFormat, Iterator[_Line]]:
    lines = _lines(stream)
    if format is None:
        return _sniff(lines)
    return format, lines


def _records(lines: Iterator[_Line], source: str, format: RecordFormat) -> Iterator[GameRecord | RecordError]:
    if format == "jsonl":
        yield from _json_lines(lines, source)
    elif format == "json":
        yield from _json_document(lines, source)
    else:
        yield from _text_records(lines, source)


def read_record(
    text: str, *, source: str = "", first_line: int = 1, index: int = 0
) -> GameRecord:
    """One record from text in either form (JSON if it starts with ``{``); raises ``RecordError``."""
    if text.lstrip().startswith("{"):
        result = _json_text_record(text, source, index, first_line)
        if isinstance(result, RecordError):
            raise result
        return result
    return read_text(text, source=source, first_line=first_line, index=index)


# == writing ===================================================================================


def write_records(
    items: Iterable[GameRecord | RecordError], stream: IO[str], format: RecordFormat
) -> Iterator[RecordError]:
    """Write each record to ``stream`` in ``format``; pass each ``RecordError`` on to the caller.

    Text records are separated by a blank line; ``json`` writes one record as an object and
    several as a list; ``jsonl`` writes one record per line.
    """
    if format == "json":
        yield from _write_json(items, stream)
        return
    first = True
    for item in items:
        if isinstance(item, RecordError):
            yield item
            continue
        if format == "jsonl":
            stream.write(format_jsonl(item) + "\n")
        else:
            stream.write(("" if first else "\n") + format_text(item))
        first = False


def _write_json(items: Iterable[GameRecord | RecordError], stream: IO[str]) -> Iterator[RecordError]:
    held: GameRecord | None = None
    count = 0
    for item in items:
        if isinstance(item, RecordError):
            yield item
            continue
        count += 1
        if held is None:
            held = item
            continue
        if count == 2:
            stream.write("[\n" + _indented(held))
        stream.write(",\n" + _indented(item))
    if count == 1 and held is not None:
        stream.write(format_json(held))
    elif count >= 2:
        stream.write("\n]\n")


def _indented(record: GameRecord) -> str:
    return "  " + _pretty(to_json_dict(record), 2, 100)

