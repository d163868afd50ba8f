"""The text form of records (``.gin``): one reader and one writer.

A record is a block of game tags, then its hands; a hand is its tags, its events and its
claims; the last hand may be followed by the claimed final totals. docs/record-format.md
has the whole format. The reader goes line by line, in two tiers: a line as the formatter
writes it (a tag, a turn, a knock, a defence, a pass, a claim) is read in one regular
expression match, and a draw and discard line seen before is taken from one memo; every
other line goes to the grammar (:mod:`ginref.records.text_grammar`), which reads what the
first tier reads the same (a property test compares them) and gives the line and column of
any error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from operator import add
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from ginref.cards import Card, Mask, mask_of, scan
from ginref.errors import RecordError
from ginref.files import lone_surrogate, surrogate_problem
from ginref.notation import CARD_NAMES, CARD_TOKENS, excerpt
from ginref.records.form import Format, Unit
from ginref.records.lexicon import RECORD_KEYWORDS, RECORD_NAME_RE, RECORD_WORD_RE, RecordToken
from ginref.records.model import (
    HAND_TAG_KEYS,
    KNOB_RE,
    KNOWN_TAGS,
    NOWHERE,
    OUTCOMES,
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Source,
    Turn,
)

__all__ = [
    "FORMAT", "format_text", "is_blank_line", "is_game_tag_line", "read_event", "read_text",
    "read_text_by_grammar",
]

if TYPE_CHECKING:
    from ginref.records.text_grammar import LineKind

# -- the reader ---------------------------------------------------------------------------------


_NAME_RE = re.compile(RECORD_NAME_RE)
_TAG_START_RE = re.compile(r"\s*\[\s*([A-Za-z][A-Za-z0-9_]*)")
_CLAIMS = frozenset({"result", "score", "next_dealer", "final"})
_SOURCE_WORDS = {"draw": "stock", "take": "discard"}
_SOURCE_KEYWORDS = {"stock": "draw", "discard": "take"}



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
        return " ".join(CARD_NAMES[c] for c in cards)
    except (IndexError, TypeError):
        raise ValueError(f"not a card in {tuple(cards)!r}") from None


def _meld_text(mask: Mask) -> str:
    if type(mask) is not int or mask < 0 or mask >> 52:
        raise ValueError(f"not a meld: {mask!r}")
    return "[" + " ".join(CARD_NAMES[c] for c in scan(mask)) + "]"


_PLAIN_TAG_RE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)(?: "([^"\\\x00-\x1f]*)")?(?: "([^"\\\x00-\x1f]*)")?\]')
"""A tag line as the formatter writes it: at most two values (as every tag the format knows),
each quoted without escapes, one space before each"""


def _card_table(part: Callable[[int], int], letter: int) -> bytes:
    """A ``bytes.translate`` table from one letter of each canonical card name to ``part`` of
    its number; 255 for any other byte."""
    table = bytearray(b"\xff" * 256)
    for c, name in enumerate(CARD_NAMES):
        table[ord(name[letter])] = part(c)
    return bytes(table)


_RANK_TABLE = _card_table(lambda c: c % 13, 0)
_SUIT_TABLE = _card_table(lambda c: c - c % 13, 1)


def _plain_cards(text: str) -> tuple[Card, ...] | None:
    """The cards of a tag value written as the formatter writes them (canonical names, one space
    between), read a byte at a time; None for any other text (:meth:`_TextReader.cards` reads it)."""
    if len(text) % 3 != 2 or not text.isascii():
        return None
    raw = text.encode()
    ranks, suits = raw[::3].translate(_RANK_TABLE), raw[1::3].translate(_SUIT_TABLE)
    if 255 in ranks or 255 in suits or raw[2::3].lstrip(b" "):
        return None
    return tuple(map(add, ranks, suits))


_PLAIN_VALUE_RE = re.compile(r'[^"\\\x00-\x1f#]+')
"""A tag value :meth:`_TextReader.plain_hand_tag` takes as it stands (a player's name): quoted
without escapes, no comment sign"""
_COUNT_RE = re.compile(r"[0-9]{1,15}")
"""numbers the first tier takes; longer ones go to the grammar, which refuses them"""


_CARD = "[2-9TJQKA][CDHS]"
_WORD = RECORD_WORD_RE
"""a player's name in the first tier's patterns, which is not one of :data:`_KEYWORDS`"""
_KEYWORDS = frozenset(RECORD_KEYWORDS)
_NUMBER = "[0-9]{1,15}"
_SPREAD = rf"(?: \[{_CARD}(?: {_CARD})*\])*"
_PLAIN_TURN_RE = re.compile(
    rf"({_WORD})(?: (draw|take) ({_CARD}|\?\?))?(?: discard ({_CARD}))?"
    rf"(?: (knock|gin|big_gin)(?: ({_CARD}))?({_SPREAD})(?: deadwood ({_NUMBER}))?)?"
    rf"(?: least_deadwood ({_NUMBER}))?"
)
"""A turn as the formatter writes it: a draw, a discard, a knock with its spread, or some of them"""
_PLAIN_DEFENCE_RE = re.compile(
    rf"({_WORD}) defend({_SPREAD})((?: {_CARD}>[1-9][0-9]{{0,14}})*)(?: deadwood ({_NUMBER}))?"
)
_PLAIN_PASS_RE = re.compile(rf"({_WORD}) pass")
_SIGNED = f"[+-]?{_NUMBER}"
_PLAIN_RESULT_RE = re.compile(
    rf"result ({'|'.join(sorted(OUTCOMES - {'unfinished'}))})(?: ({_WORD}))?(?: ({_SIGNED}))?"
)
_PLAIN_TOTALS_RE = re.compile(rf"(score|final)((?: {_WORD} {_SIGNED})+)")
_PLAIN_TOTAL_RE = re.compile(rf" ({_WORD}) ({_SIGNED})")
_PLAIN_NEXT_DEALER_RE = re.compile(rf"next_dealer ({_WORD})")


def _meld_mask(meld: str) -> Mask:
    """The cards of one meld's text (between its brackets), or -1 when a card comes twice."""
    mask = 0
    for token in meld.split(" "):
        bit = 1 << CARD_TOKENS[token]
        if mask & bit:
            return -1
        mask |= bit
    return mask


def _spread_masks(spread: str) -> tuple[Mask, ...] | None:
    """The melds of a plain spread (`` [5C 6C 7C] [9D 9H 9S]``), or None when a meld repeats a card
    (the grammar says where)."""
    if not spread:
        return ()
    masks = tuple(_meld_mask(meld) for meld in spread[2:-1].split("] ["))
    return None if -1 in masks else masks


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


class _TagLine(NamedTuple):
    """What a plain tag line reads to: its name and values, each where it starts."""

    name: RecordToken
    values: tuple[RecordToken, ...]


class _ClaimLine(NamedTuple):
    """What a plain claim line reads to: its parts, named as the grammar names them."""

    parts: dict[str, Any]


_PlainTurn = tuple[str, Source, Card | None, Card | None]
"""What a plain draw and discard line reads to: the player, the source, the card drawn, the discard"""

_PLAIN_LINES: dict[str, _PlainTurn | _TagLine | _ClaimLine] = {}
"""The one memo: what each line the first tier read reads to, by its text. A log repeats its
lines (16,000 OpenSpiel hands hold 379,000 turn lines, 10,349 of them different; the game tags
and claims repeat from record to record), and what a line says does not depend on where it
stands. Cleared when full; lines of at most :data:`_REMEMBERED_TEXT` characters: a few MB at most."""
_PLAIN_LINES_MAX = 1 << 14
_REMEMBERED_TEXT = 200


class _TextReader:
    """Reads one text record, a line at a time; every problem raises ``RecordError``."""

    def __init__(self, source: str, index: int, *, plain: bool = True) -> None:
        self.source = source
        self.index = index
        self.plain = plain
        """whether the first tier reads the lines it can: off, every line goes to the grammar"""
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

    # -- errors ---------------------------------------------------------------------------

    def fail(self, message: str, column: int = 1, line: int = 0) -> NoReturn:
        raise RecordError(message, self.source, line or self.line, column)

    def parse(self, kind: LineKind, text: str) -> Any:
        """A line the fast paths do not take, read by the grammar (loaded on first need)."""
        from ginref.records.text_grammar import parse_line

        return parse_line(kind, text, self.source, self.line)

    # -- lines ----------------------------------------------------------------------------

    def feed(self, line: int, text: str) -> None:
        """Read one line (without its line end); :func:`read_text` takes a plain hand tag and a
        plain event line itself, before it comes here."""
        self.line = line
        if "#" in text:
            text = _strip_comment(text)
        stripped = text.strip()
        if not stripped:
            return
        column = len(text) - len(text.lstrip()) + 1
        if self.place is None:
            self.place = Place(line, column)
        if stripped[0] == "[":
            self.tag(text, column)
            return
        if self.final is not None:
            self.fail("nothing but a new record may follow the final totals", column)
        word = stripped.split(None, 1)[0]
        if word in _CLAIMS:
            self.claim(text, word)
        else:
            self.event(text, column)

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

    def plain_hand_tag(self, text: str) -> bool:
        """Take a hand tag line as :func:`format_text` writes it (``[Deal "P0" "TC 3S ..."]``,
        ``[Stock ...]``, ``[Upcard ...]``, ``[Dealer ...]``, ``[Hand ...]``) that reads without
        an error, as :meth:`feed` would; False, having changed nothing, for any other line (the
        twin of :meth:`feed` for these lines: tests compare them)."""
        if text[-2:] != '"]' or self.final is not None or self.place is None:
            return False
        tag, _, value = text[1:-2].partition(' "')
        hand = self.hand
        if tag == "Dealer":
            if not _PLAIN_VALUE_RE.fullmatch(value):
                return False
            if hand is None or hand.dealer is not None or hand.started:
                hand = self.new_hand(1)
            hand.dealer = value
            return True
        if tag == "Hand":
            if not _COUNT_RE.fullmatch(value):
                return False
            self.new_hand(1).number = int(value)
            return True
        if hand is not None and hand.started:
            return False
        if tag == "Deal":
            return self.plain_deal(hand, *value.partition('" "'))
        cards = _plain_cards(value)
        if cards is None:
            return False
        if tag == "Stock":
            if hand is not None and hand.stock is not None:
                return False
            (hand or self.new_hand(1)).stock = cards
            return True
        if tag != "Upcard" or len(cards) != 1 or (hand is not None and hand.upcard_seen):
            return False
        hand = hand or self.new_hand(1)
        hand.upcard, hand.upcard_seen = cards[0], True
        return True

    def plain_deal(self, hand: _Hand | None, player: str, between: str, dealt: str) -> bool:
        """:meth:`plain_hand_tag` for ``[Deal]``, on a ``hand`` whose events have not begun."""
        if not between or not _PLAIN_VALUE_RE.fullmatch(player):
            return False
        cards = _plain_cards(dealt)
        if cards is None:
            return False
        if hand is None:
            hand = self.new_hand(1)
        for dealt_to, _ in hand.deal:
            if dealt_to == player:
                return False
        hand.deal.append((player, cards))
        return True

    def tag(self, text: str, column: int) -> None:
        """A tag line; ``column`` is its ``[``'s."""
        values: Sequence[RecordToken]
        plain = self.plain_tag(text) if self.plain else None
        if plain is not None:
            name, values = plain
        else:
            res = self.parse("tag", text)
            name = res["tag"]
            values = tuple(res["values"])

        key = name.text.lower()
        known = KNOWN_TAGS.get(key)
        if self.final is not None:
            self.fail(f"[{name.text}] follows the final totals; a record's tags come first",
                      column)
        if key in HAND_TAG_KEYS:
            self.hand_tag(known or name.text, values, column)
            return
        if self.hands or self.hand is not None:
            self.fail(
                f"[{name.text}] is a game tag, but the hands have begun: a new record starts "
                "here (read files of several records with read_records)", column,
            )
        if known == "Rules":
            (value,) = self.values(name.text, name.loc, values, 1)
            if self.rules is not None:
                self.fail("the record has two [Rules] tags", column)
            if not value.text.strip():
                self.fail("[Rules] needs a rule set name", value.loc + 1)
            self.rules = value.text.strip()
        elif known == "Set":
            (value,) = self.values(name.text, name.loc, values, 1)
            knob, sep, setting = value.text.partition("=")
            knob, setting = knob.strip(), setting.strip()
            if not sep or not KNOB_RE.fullmatch(knob):
                self.fail(f"bad rule override {value.text!r}; expected knob=value", value.loc + 1)
            if any(k == knob for k, _ in self.overrides):
                self.fail(f"the record sets {knob} twice", value.loc + 1)
            self.overrides.append((knob, setting))
        elif known == "Players":
            first, second = self.values(name.text, name.loc, values, 2)
            if self.players is not None:
                self.fail("the record has two [Players] tags", column)
            self.players = (first.text, second.text)
        else:
            (value,) = self.values(name.text, name.loc, values, 1)
            if any(k == name.text for k, _ in self.tags):
                self.fail(f"the record has two [{name.text}] tags", column)
            self.tags.append((name.text, value.text))

    @staticmethod
    def plain_tag(text: str) -> _TagLine | None:
        """A tag line as the formatter writes it, in one match (or remembered); None for any
        other line (the grammar reads it)."""
        known = _PLAIN_LINES.get(text)
        if type(known) is _TagLine:
            return known
        plain = _PLAIN_TAG_RE.fullmatch(text)
        if plain is None:
            return None
        values = tuple(RecordToken(plain.start(k) - 1, value)
                       for k, value in enumerate(plain.groups()[1:], 2) if value is not None)
        reading = _TagLine(RecordToken(1, plain.group(1)), values)
        _remember(text, reading)
        return reading

    def values(self, tag: str, loc: int, values: Sequence[RecordToken], count: int) -> Sequence[RecordToken]:
        """``values`` when the tag written ``tag`` (its name at ``loc``) has ``count`` of them."""
        if len(values) == count:
            return values
        what = "one value" if count == 1 else f"{count} values"
        column = values[count].loc + 1 if len(values) > count else loc + len(tag) + 1
        self.fail(f"[{tag}] takes {what}, got {len(values)}", column)

    def hand_tag(self, tag: str, values: Sequence[RecordToken], column: int) -> None:
        hand = self.hand
        if tag == "Hand":
            (value,) = self.values(tag, column, values, 1)
            if not _COUNT_RE.fullmatch(value.text):
                too_big = value.text.isdigit()
                self.fail(f"[Hand] needs a hand number{' below 10**15' if too_big else ''}, "
                          f"got {excerpt(value.text, 40)}", value.loc + 1)
            self.new_hand(column).number = int(value.text)
            return
        if tag == "Dealer":
            (value,) = self.values(tag, column, values, 1)
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
            player, dealt = self.values(tag, column, values, 2)
            if hand.deal and any(p == player.text for p, _ in hand.deal):
                self.fail(f"the hand deals to {player.text} twice", column)
            hand.deal.append((player.text, self.cards(dealt)))
        elif tag == "Upcard":
            (value,) = self.values(tag, column, values, 1)
            if hand.upcard_seen:
                self.fail("the hand has two [Upcard] tags", column)
            cards = self.cards(value)
            if len(cards) != 1:
                self.fail(f"[Upcard] takes one card, got {len(cards)}", value.loc + 1)
            hand.upcard, hand.upcard_seen = cards[0], True
        else:  # Stock
            (value,) = self.values(tag, column, values, 1)
            if hand.stock is not None:
                self.fail("the hand has two [Stock] tags", column)
            hand.stock = self.cards(value)

    def cards(self, value: RecordToken) -> tuple[Card, ...]:
        """The cards of a tag value, in order (repeats allowed: the referee reports them)."""
        plain = _plain_cards(value.text) if self.plain else None
        if plain is not None:
            return plain
        try:
            return tuple(self.parse("cards", value.text))
        except RecordError as error:
            error.column += value.loc + 1  # the value's text starts after its quote
            raise

    # -- claims ---------------------------------------------------------------------------

    def claim(self, text: str, word: str) -> None:
        """A claim line, without its comment, that opens with ``word``."""
        res = None
        if self.plain:
            known = _PLAIN_LINES.get(text)
            if type(known) is _ClaimLine:
                res = known.parts
            elif (res := self.plain_claim(text, word)) is not None:
                _remember(text, _ClaimLine(res))
        self.checked_claim(res if res is not None else self.parse("claim", text))

    def plain_claim(self, text: str, word: str) -> dict[str, Any] | None:
        """The parts of a claim as the formatter writes it (opening with ``word``), in one match,
        named as the grammar names them; None for any other line (the grammar reads it)."""
        claim = RecordToken(0, word)
        if word == "result":
            result = _PLAIN_RESULT_RE.fullmatch(text)
            if result is None:
                return None
            outcome, winner, points = result.groups()
            if winner in _KEYWORDS:
                return None
            out: dict[str, Any] = {"claim": claim, "outcome": RecordToken(7, outcome)}
            if winner is not None:
                out["winner"] = RecordToken(result.start(2), winner)
            if points is not None:
                out["points"] = int(points)
            return out
        if word == "next_dealer":
            dealer = _PLAIN_NEXT_DEALER_RE.fullmatch(text)
            if dealer is None or dealer.group(1) in _KEYWORDS:
                return None
            return {"claim": claim, "name": RecordToken(12, dealer.group(1))}
        totals = _PLAIN_TOTALS_RE.fullmatch(text)
        if totals is not None:
            pairs = [(RecordToken(m.start(1), m.group(1)), int(m.group(2)))
                     for m in _PLAIN_TOTAL_RE.finditer(text, totals.start(2))]
            if any(name.text in _KEYWORDS for name, _ in pairs):
                return None
            return {"claim": claim, "totals": pairs}
        return None

    def checked_claim(self, res: Any) -> None:
        """Apply the claim the grammar's names in ``res`` say."""
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
            winner, reason, stopped_by = _opt(res, "winner"), _opt(res, "reason"), _opt(res, "stopped_by")
            hand.result = ClaimedResult(
                res["outcome"].text, winner.text if winner is not None else None,
                _opt(res, "points", 0), Place(self.line, column),
                reason.text if reason is not None else None,
                stopped_by.text if stopped_by is not None else None,
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

    def totals(self, pairs: Iterable[tuple[RecordToken, int]]) -> tuple[tuple[str, int], ...]:
        out: list[tuple[str, int]] = []
        named: set[str] = set()
        for token, points in pairs:
            if token.text in named:
                self.fail(f"{token.text} is named twice", token.loc + 1)
            named.add(token.text)
            out.append((token.text, points))
        return tuple(out)

    # -- events ---------------------------------------------------------------------------

    def event(self, text: str, column: int) -> None:
        """An event line, without its comment, that starts at ``column``."""
        hand = self.hand
        if hand is None:
            self.fail("an event before the hand's tags; a hand starts with [Hand] or [Dealer]",
                      column)
        if hand.claimed:
            self.fail("an event after the hand's claims (result, score, next_dealer); start "
                      "the next hand with [Hand] or [Dealer]", column)
        event = self.plain_event(text) if self.plain else None
        hand.events.append(event if event is not None else self.parsed_event(text))

    def plain_event(self, text: str) -> Event | None:
        """The event of a line as the formatter writes it (a turn, a knock, a defence, a pass),
        in one match; None for any other line, having changed nothing (the grammar reads it).
        A draw and discard line is remembered for :func:`read_text`."""
        second = text[text.find(" ") + 1 : text.find(" ") + 3]
        if second == "pa":
            passed = _PLAIN_PASS_RE.fullmatch(text)
            if passed is None or passed.group(1) in _KEYWORDS:
                return None
            return Pass(passed.group(1), Place(self.line, 1))
        if second != "de":
            turn = _PLAIN_TURN_RE.fullmatch(text)
            return None if turn is None else self.plain_turn(text, turn)
        defence = _PLAIN_DEFENCE_RE.fullmatch(text)
        if defence is not None:
            name, spread, layoffs, deadwood = defence.groups()
            melds = _spread_masks(spread)
            if melds is None or name in _KEYWORDS:
                return None
            laid = tuple((CARD_TOKENS[word[:2]], int(word[3:]) - 1) for word in layoffs.split())
            return Defence(name, melds, laid, None if deadwood is None else int(deadwood),
                           Place(self.line, 1))
        return None

    def plain_turn(self, text: str, turn: re.Match[str]) -> Turn | None:
        name, source, card, discard, ending, face_down, spread, deadwood, least = turn.groups()
        if (source is None and discard is None and ending is None) or name in _KEYWORDS:
            return None  # a name alone, or a keyword: the grammar says what is wrong
        cards = CARD_TOKENS
        drawn_from: Source = "none" if source is None else _SOURCE_WORDS[source]  # type: ignore[assignment]
        drawn = None if card is None or card == "??" else cards[card]
        thrown = None if discard is None else cards[discard]
        claimed = None if least is None else int(least)
        if ending is None:
            if claimed is None:
                _remember(text, (name, drawn_from, drawn, thrown))
            return Turn(name, drawn_from, drawn, thrown, None, Place(self.line, 1), claimed)
        melds = _spread_masks(spread)
        if melds is None:
            return None
        knock = Knock(ending, None if face_down is None else cards[face_down], melds,  # type: ignore[arg-type]
                      None if deadwood is None else int(deadwood), Place(self.line, turn.start(5) + 1))
        return Turn(name, drawn_from, drawn, thrown, knock, Place(self.line, 1), claimed)

    def parsed_event(self, text: str) -> Event:
        res = self.parse("event", text)
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
            _opt(res, "discard"), knock, place, _opt(res, "least_deadwood"),
        )


def _remember(text: str, reading: _PlainTurn | _TagLine | _ClaimLine) -> None:
    """Keep what a plain line reads to, so that the reader takes it again at once wherever the
    line comes back."""
    if len(text) > _REMEMBERED_TEXT:
        return
    if len(_PLAIN_LINES) >= _PLAIN_LINES_MAX:
        _PLAIN_LINES.clear()
    _PLAIN_LINES[text] = reading


def read_text(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record in the text form; raises ``RecordError`` (with line and column) if it is bad.

    ``first_line`` numbers the first line of ``text`` (for a record cut out of a file).
    """
    return _read_text(text, _TextReader(source, index), first_line)


def read_text_by_grammar(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """:func:`read_text` with every line read by the grammar: the checked twin of its first
    tier, which tests compare with it."""
    return _read_text(text, _TextReader(source, index, plain=False), first_line)


def _read_text(text: str, reader: _TextReader, first_line: int) -> GameRecord:
    at = lone_surrogate(text)
    if at >= 0:
        raise RecordError(surrogate_problem(text, at), reader.source, first_line + text.count("\n", 0, at),
                          at - text.rfind("\n", 0, at))
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not a line
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not reader.plain:
        for number, line in enumerate(lines, first_line):
            reader.feed(number, line)
        return reader.finish()
    remembered, feed, plain_event = _PLAIN_LINES.get, reader.feed, reader.plain_event
    events = None  # the events of a hand that may still take some; only a fed line changes it
    for number, line in enumerate(lines, first_line):
        known = remembered(line)
        if type(known) is tuple and events is not None:  # a plain turn line read before, made here
            player, drawn_from, card, discard = known  # type: ignore[misc]  # a _PlainTurn: the only plain tuple
            events.append(Turn(player, drawn_from, card, discard, None, Place(number, 1)))
            continue
        reader.line = number
        if line[:1] == "[":
            if not reader.plain_hand_tag(line):
                feed(number, line)
        elif events is not None and (event := plain_event(line)) is not None:
            events.append(event)
            continue
        else:
            feed(number, line)
        hand = reader.hand  # None before the first hand tag and after the final totals
        events = hand.events if hand is not None and not hand.claimed else None
    return reader.finish()


def read_event(text: str, *, source: str = "") -> Event:
    """One event line (``Ann draw 8S discard KH``) read as a record's event line is read: the
    words of a move at the live table. Raises ``RecordError`` with the column."""
    reader = _TextReader(source, 0)
    reader.line = 1
    if "\n" in text or "\r" in text:
        reader.fail("an event is one line")
    if "#" in text:
        text = _strip_comment(text)
    words = text.split(None, 1)
    if not words:
        reader.fail("no event: the line is empty")
    if words[0] in _CLAIMS:
        reader.fail(f"{words[0]!r} starts a claim, not an event", len(text) - len(text.lstrip()) + 1)
    event = reader.plain_event(text)
    return event if event is not None else reader.parsed_event(text)


def is_game_tag_line(text: str) -> bool:
    """True for a line that opens with a game tag (``[Rules ...]``, ``[Event ...]``): after a
    record's hands, such a line starts the next record."""
    match = _TAG_START_RE.match(text)
    return match is not None and match.group(1).lower() not in HAND_TAG_KEYS


def is_blank_line(text: str) -> bool:
    """True for a line with nothing but white space or a comment."""
    stripped = text.lstrip()
    return not stripped or stripped[0] == "#"


def _any_case(word: str) -> str:
    return "".join(f"[{c.upper()}{c}]" for c in word)


GAME_TAG_LINE_RE = re.compile(
    r"\n[^\S\n]*\[[^\S\n]*(?!(?:" + "|".join(map(_any_case, sorted(HAND_TAG_KEYS)))
    + r")(?![A-Za-z0-9_]))[A-Za-z]"
)
"""In lines each opened by a ``"\n"``, the ``"\n"`` of each line :func:`is_game_tag_line` is
true of (a pattern that starts with a plain character is searched for fast)"""
CONTENT_LINE_RE = re.compile(r"\n[^\S\n]*[^\s#]")
"""In lines each opened by a ``"\n"``, the ``"\n"`` of each line :func:`is_blank_line` is false of"""


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
            if result.reason is not None:
                words.append(result.reason)
            if result.stopped_by is not None:
                words.append(_name_text(result.stopped_by))
            if result.winner is not None:
                words.append(_name_text(result.winner))
            if result.points or (result.winner is not None and result.outcome != "win"):
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
        if event.least_deadwood is not None:
            words.append(f"least_deadwood {event.least_deadwood}")
    else:
        raise TypeError(f"not a record event: {event!r}")
    return " ".join(words)


# -- the format ---------------------------------------------------------------------------------


def _decode_unit(unit: Unit) -> tuple[GameRecord]:
    return (read_text(unit.text, source=unit.source, first_line=unit.line, index=unit.index),)


FORMAT = Format("gin", "ginref text records", "text", _decode_unit, suffixes=(".gin",))
"""``.gin`` text records: told by their shape (:func:`ginref.records.units.sniff_format`)"""
