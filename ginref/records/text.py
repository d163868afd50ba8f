"""The text form of records (``.gin``): one reader and one writer.

A record is a block of game tags, then its hands; a hand is its tags, its events and its
claims; the last hand may be followed by the claimed final totals. docs/record-format.md
has the whole format. The reader goes line by line: the comment is cut off, and fast
paths take the commonest lines (plain tags, events and claims) without pyparsing; any
other line goes to the grammar (:mod:`ginref.records.text_grammar`), which gives the same
result (tests compare them) and the line and column of any error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from operator import add
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from ginref.cards import Card, Mask, mask_of, scan
from ginref.errors import RecordError
from ginref.files import lone_surrogate, surrogate_problem
from ginref.notation import CARD_NAMES, CARD_TOKENS, excerpt
from ginref.records.lexicon import RECORD_NAME_RE, RecordToken
from ginref.records.model import (
    ENDINGS,
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

__all__ = ["format_text", "is_blank_line", "is_game_tag_line", "read_text"]

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


_FAST_TAG_RE = re.compile(r'[ \t]*\[([A-Za-z][A-Za-z0-9_]*)((?:[ \t]+"[^"\\\x00-\x1f]*")*)[ \t]*\][ \t]*')
_FAST_VALUE_RE = re.compile(r'"([^"\\\x00-\x1f]*)"')
_SHORT_TAG_RE = re.compile(
    r'[ \t]*\[([A-Za-z][A-Za-z0-9_]*)'
    r'(?:[ \t]+"([^"\\\x00-\x1f]*)")?(?:[ \t]+"([^"\\\x00-\x1f]*)")?[ \t]*\][ \t]*'
)
"""``_FAST_TAG_RE`` with at most two values, each caught by the one match: every tag the format knows"""
_ODD_SPACE_RE = re.compile(r'"(?:[^"\\]|\\.)*(?:"|$)|([^\S \t])')
"""White space the format does not separate words with (the group): an error outside quotes, part
of a value inside, so the match steps over quoted text (to the line's end if it is not closed)"""


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
_INT_RE = re.compile(r"[+-]?[0-9]{1,15}")
"""numbers the fast paths take; longer ones go to the grammar, which refuses them"""
_COUNT_RE = re.compile(r"[0-9]{1,15}")
_MELD_NUMBER_RE = re.compile(r"[1-9][0-9]{0,14}")
_ENDING_RE = re.compile(r"(?<!\S)(?:knock|gin|big_gin)(?!\S)")


def _fast_melds(words: list[str], i: int, melds: list[Mask]) -> int:
    """Read bracketed melds from ``words[i:]`` into ``melds``; the next index, or -1 when
    the text is not plain (the grammar then reads the line)."""
    if i >= len(words) or words[i][:1] != "[":
        return i
    spread = _SPREAD_RE.match(" ".join(words[i:]))
    if spread is None:
        return -1
    text = spread.group()
    if not _read_melds(text[1 : text.rindex("]")], melds):
        return -1
    return i + text.count(" ") + (not text.endswith(" "))


def _read_melds(text: str, melds: list[Mask]) -> bool:
    """Read the melds of ``text`` (a spread without its first ``[`` and last ``]``) into
    ``melds``; False if one is not plain."""
    for meld in text.split("] ["):
        mask = _MELD_MASKS.get(meld)
        if mask is None:
            mask = _meld_mask(meld)
            if mask < 0:
                return False
            _remember(_MELD_MASKS, _MELD_MASKS_MAX, meld, mask)
        melds.append(mask)
    return True


_CARD = "[2-9TJQKA][CDHS]"
_PLAIN_KNOCK_RE = re.compile(
    rf"(\S+) (draw|take) ({_CARD}|\?\?) (knock|gin|big_gin)(?: ({_CARD}))?"
    rf"((?: \[{_CARD}(?: {_CARD})*\])*)(?: deadwood ([0-9]{{1,15}}))?"
)
_PLAIN_TURN_RE = re.compile(rf"(\S+) (draw|take) ({_CARD}|\?\?) discard ({_CARD})")
"""A turn that draws and discards as the formatter writes it: what :meth:`_TextReader.plain_turn` takes"""
_PLAIN_DEFENCE_RE = re.compile(
    rf"(\S+) defend((?: \[{_CARD}(?: {_CARD})*\])*)((?: {_CARD}>[1-9][0-9]{{0,14}})*)"
    rf"(?: deadwood ([0-9]{{1,15}}))?"
)
"""A knock and a defence as the formatter writes them: what :meth:`_TextReader.plain_spread` takes"""
_SPREAD_RE = re.compile(r"(?:\[[^\[\]]*\](?: |$))+")
"""Bracketed melds, one word after another, in words joined by single spaces (a word that
opens a meld but does not end one there is not plain: :func:`_fast_melds` refuses it)"""


def _meld_mask(meld: str) -> Mask:
    """The cards of one meld's text (between its brackets), or -1 when it is not plain: a token
    that is not a card, a card twice."""
    mask = 0
    for token in meld.split():
        c = CARD_TOKENS.get(token)
        if c is None or mask >> c & 1:
            return -1
        mask |= 1 << c
    return mask


_MELD_MASKS: dict[str, Mask] = {}
"""The melds :func:`_fast_melds` read, by their text between the brackets: knocks and defences
repeat them (a few hundred runs and sets). Cleared when full."""
_MELD_MASKS_MAX = 1 << 12


def _fast_deadwood(words: list[str], i: int) -> tuple[int | None, int]:
    """An announced ``deadwood N`` at ``words[i]`` (None if there is none) and the next
    index, or -1 when the words are not plain (the grammar then reads the line)."""
    if i >= len(words) or words[i] != "deadwood":
        return None, i
    if i + 1 >= len(words) or not _COUNT_RE.fullmatch(words[i + 1]):
        return None, -1
    return int(words[i + 1]), i + 2


def _fast_tag(text: str) -> tuple[RecordToken, list[RecordToken]] | None:
    """A tag line's name and values (each at its opening quote) when they are simply quoted (no
    escapes, spaces between), as the grammar reads them; None sends the line to the grammar."""
    short = _SHORT_TAG_RE.fullmatch(text)
    if short is not None:
        name, first, second = short.groups()
        if first is None:
            return RecordToken(short.start(1), name), []
        if second is None:
            return RecordToken(short.start(1), name), [RecordToken(short.start(2) - 1, first)]
        pair = [RecordToken(short.start(2) - 1, first), RecordToken(short.start(3) - 1, second)]
        return RecordToken(short.start(1), name), pair
    fast = _FAST_TAG_RE.fullmatch(text)
    if fast is None:
        return None
    values = _FAST_VALUE_RE.finditer(text, fast.end(1), fast.end(2))
    return RecordToken(fast.start(1), fast.group(1)), [RecordToken(m.start(), m.group(1)) for m in values]


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


_PLAIN_TURNS: dict[str, tuple[str, Source, Card | None, Card | None, int]] = {}
"""The turn lines without a knock that :meth:`_TextReader.fast_event` read, by their text:
the turn's fields and its column. A log repeats them (16,000 OpenSpiel hands hold 379,000 such
lines, 10,349 of them different), and what a line says does not depend on where it stands.
Cleared when full: about 4 MB at most."""
_PLAIN_TURNS_MAX = 1 << 14


_SHORT_TAGS: dict[str, tuple[RecordToken, tuple[RecordToken, ...]]] = {}
"""Tag lines of up to :data:`_SHORT_TAG_TEXT` characters that :func:`_fast_tag` read, by their
text: ``[Rules]``, ``[Players]``, ``[Hand]``, ``[Dealer]`` and ``[Upcard]`` repeat from record
to record. Cleared when full (:data:`_SHORT_TAGS_MAX`)."""
_SHORT_TAG_TEXT = 40
_SHORT_TAGS_MAX = 1 << 12


_Claimed = tuple[ClaimedResult | tuple[tuple[str, int], ...] | str, int]
"""A plain claim of a hand and its column: the result (placed where it was first read), the
score's totals or the next dealer"""

_PLAIN_CLAIMS: dict[str, _Claimed] = {}
"""The result, score and next_dealer lines :meth:`_TextReader.claim` read, by their text: a log
repeats them as it repeats turns. Cleared when full."""
_PLAIN_CLAIMS_MAX = 1 << 12


def _claimed(hand: _Hand, res: Any) -> _Claimed:
    """What ``hand`` was just given by the plain claim ``res``, for :data:`_PLAIN_CLAIMS`."""
    word: RecordToken = res["claim"]
    column = word.loc + 1
    if word.text == "result":
        assert hand.result is not None
        return hand.result, column
    if word.text == "score":
        assert hand.score_after is not None
        return hand.score_after, column
    assert hand.next_dealer is not None
    return hand.next_dealer, column


_BARE_NAMES: dict[str, bool] = {}
"""Whether a word is a player name needing no quotes, by the word: the same players play
record after record. Cleared when full."""
_BARE_NAMES_MAX = 1 << 10


_Known = TypeVar("_Known")
_REMEMBERED_TEXT = 200


def _remember(memo: dict[str, _Known], most: int, text: str, known: _Known) -> None:
    """Keep what a line was read as, in a memo of at most ``most`` lines (cleared when full) of at
    most :data:`_REMEMBERED_TEXT` characters (a longer line is not kept)."""
    if len(text) > _REMEMBERED_TEXT:
        return
    if len(memo) >= most:
        memo.clear()
    memo[text] = known


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

    # -- errors ---------------------------------------------------------------------------

    def fail(self, message: str, column: int = 1, line: int = 0) -> NoReturn:
        raise RecordError(message, self.source, line or self.line, column)

    def parse(self, kind: LineKind, text: str) -> Any:
        """A line the fast paths do not take, read by the grammar (loaded on first need)."""
        from ginref.records.text_grammar import parse_line

        return parse_line(kind, text, self.source, self.line)

    # -- lines ----------------------------------------------------------------------------

    def feed(self, line: int, text: str) -> None:
        """Read one line (without its line end); :func:`read_text` takes a remembered plain
        turn line itself, before it comes here."""
        self.line = line
        original = text
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
        words = stripped.split()
        if not text.isprintable():  # a tab, or other white space
            self.refuse_odd_space(text)
        if words[0] in _CLAIMS:
            self.claim(text, original)
        else:
            self.event(text, words, column)

    def refuse_odd_space(self, text: str) -> None:
        """Raise at the first white space outside quotes that is not a space or a tab: the fast
        paths split on any white space, the format (and the grammar) on these two alone."""
        for found in _ODD_SPACE_RE.finditer(text):
            odd = found.group(1)
            if odd is not None:
                self.fail(f"U+{ord(odd):04X} is not a space the format takes: separate words "
                          "with spaces or tabs", found.start() + 1)

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
        known_line = _SHORT_TAGS.get(text)
        if known_line is not None:
            name, values = known_line
        elif (fast := _fast_tag(text)) is not None:
            name, values = fast[0], tuple(fast[1])
            if len(text) <= _SHORT_TAG_TEXT:
                _remember(_SHORT_TAGS, _SHORT_TAGS_MAX, text, (name, values))
        else:
            if not text.isprintable():
                self.refuse_odd_space(text)
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
        fast = tuple(map(CARD_TOKENS.get, value.text.split()))
        if None not in fast:
            return fast  # type: ignore[return-value]
        try:
            return tuple(self.parse("cards", value.text))
        except RecordError as error:
            error.column += value.loc + 1  # the value's text starts after its quote
            raise

    # -- claims ---------------------------------------------------------------------------

    def claim(self, text: str, original: str) -> None:
        """A claim line (``text``: ``original`` without its comment); a plain result, score
        or next_dealer line is remembered for :meth:`remembered_claim`."""
        res = self.fast_claim(text)
        if res is None:
            self.checked_claim(self.parse("claim", text))
        elif self.checked_claim(res) and self.hand is not None:
            _remember(_PLAIN_CLAIMS, _PLAIN_CLAIMS_MAX, original, _claimed(self.hand, res))

    def checked_claim(self, res: Any) -> bool:
        """Apply the claim the grammar's names in ``res`` say; True for result, score and
        next_dealer, the claims of a hand."""
        word: RecordToken = res["claim"]
        column = word.loc + 1
        if word.text == "final":
            if self.hand is None and not self.hands:
                self.fail("final totals before any hand", column)
            self.close_hand()
            self.final = self.totals(res["totals"])
            self.final_place = Place(self.line, column)
            return False
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
        return True

    def remembered_claim(self, known: _Claimed) -> bool:
        """Take a result, score or next_dealer line read before (:data:`_PLAIN_CLAIMS`) as
        :meth:`feed` would; False, having changed nothing, where it would be an error."""
        hand = self.hand  # None after the final totals too
        if hand is None:
            return False
        claimed, column = known
        if type(claimed) is ClaimedResult:
            if hand.result is not None:
                return False
            hand.result = ClaimedResult(claimed.outcome, claimed.winner, claimed.points,
                                        Place(self.line, column), claimed.reason, claimed.stopped_by)
        elif type(claimed) is tuple:
            if hand.score_after is not None:
                return False
            hand.score_after = claimed
        elif type(claimed) is str:
            if hand.next_dealer is not None:
                return False
            hand.next_dealer = claimed
        hand.claimed = True
        return True

    def fast_claim(self, text: str) -> dict[str, Any] | None:
        """The claim's parts, as the grammar names them, for plain lines; None otherwise."""
        if '"' in text:
            return None
        words = text.split()
        word = RecordToken(len(text) - len(text.lstrip()), words[0])
        n = len(words)
        if word.text == "result":
            if n < 2 or n > 4 or words[1] not in OUTCOMES or words[1] == "unfinished":
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
            if words[i] in words[1:i:2]:
                return None  # the grammar's path reports where
            pairs.append((RecordToken(0, words[i]), int(words[i + 1])))
        return {"claim": word, "totals": pairs}

    def bare(self, name: str) -> bool:
        """True if ``name`` is a player name written without quotes (remembered)."""
        bare = _BARE_NAMES.get(name)
        if bare is None:
            bare = _NAME_RE.fullmatch(name) is not None
            _remember(_BARE_NAMES, _BARE_NAMES_MAX, name, bare)
        return bare

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

    def event(self, text: str, words: list[str], column: int) -> None:
        """An event line, split into ``words``, that starts at ``column``."""
        hand = self.hand
        if hand is None:
            self.fail("an event before the hand's tags; a hand starts with [Hand] or [Dealer]",
                      column)
        if hand.claimed:
            self.fail("an event after the hand's claims (result, score, next_dealer); start "
                      "the next hand with [Hand] or [Dealer]", column)
        event = self.fast_event(text, words, column)
        if event is None:
            event = self.parsed_event(text)
        elif type(event) is Turn and event.knock is None:
            _remember_plain_turn(text, event, column)
        hand.events.append(event)

    def fast_event(self, text: str, words: list[str], column: int) -> Event | None:
        """The event of a plain line (bare name, canonical tokens), split into ``words``,
        without pyparsing.

        Anything unusual returns None and goes to the grammar, which gives the same
        result for what this accepts and the error messages for what it does not. A line
        spaced with other white space than spaces and tabs never comes here (``feed``
        refuses it), as ``str.split`` would take that white space for a space.
        """
        if '"' in text:
            return None
        if column == 1 and len(words) > 3 and (words[1] == "defend" or words[3] in ENDINGS):
            plain = self.plain_spread(text)
            if plain is not None:
                return plain
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
        cards = CARD_TOKENS
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
        if i < n and words[i] in ENDINGS:
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
            deadwood, i = _fast_deadwood(words, i)
            if i < 0:
                return None
            match = _ENDING_RE.search(text, len(text) - len(text.lstrip()) + len(name))
            assert match is not None
            knock = Knock(ending, face_down, tuple(melds), deadwood,  # type: ignore[arg-type]
                          Place(self.line, match.start() + 1))
        if i != n or (source == "none" and discard is None and knock is None):
            return None
        return Turn(name, source, card, discard, knock, place)  # type: ignore[arg-type]

    def plain_turn(self, text: str) -> Turn | None:
        """A draw and discard line as the formatter writes it, in one match, read as :meth:`feed`
        reads it in a hand open to events (and remembered as it remembers it); None for any
        other line, having changed nothing (the twin of :meth:`fast_event`: tests compare them)."""
        turn = _PLAIN_TURN_RE.fullmatch(text)
        if turn is None:
            return None
        name, source, card, discard = turn.groups()
        if name in _CLAIMS or not self.bare(name):
            return None
        drawn_from: Source = _SOURCE_WORDS[source]  # type: ignore[assignment]
        drawn = None if card == "??" else CARD_TOKENS[card]
        event = Turn(name, drawn_from, drawn, CARD_TOKENS[discard], None, Place(self.line, 1))
        _remember_plain_turn(text, event, 1)
        return event

    def plain_spread(self, text: str) -> Event | None:
        """A knock or defence line as the formatter writes it (one space between words, canonical
        cards), in one match; None sends the line on to the rest of :meth:`fast_event`."""
        melds: list[Mask] = []
        knock = _PLAIN_KNOCK_RE.fullmatch(text)
        if knock is not None:
            name, source, card, ending, face_down, spread, deadwood = knock.groups()
            if not self.bare(name) or (spread and not _read_melds(spread[2:-1], melds)):
                return None
            cards = CARD_TOKENS
            return Turn(name, _SOURCE_WORDS[source], None if card == "??" else cards[card],  # type: ignore[arg-type]
                        None, Knock(ending, None if face_down is None else cards[face_down],  # type: ignore[arg-type]
                                    tuple(melds), None if deadwood is None else int(deadwood),
                                    Place(self.line, knock.start(4) + 1)),
                        Place(self.line, 1))
        defence = _PLAIN_DEFENCE_RE.fullmatch(text)
        if defence is None:
            return None
        name, spread, layoffs, deadwood = defence.groups()
        if not self.bare(name) or (spread and not _read_melds(spread[2:-1], melds)):
            return None
        laid = tuple((CARD_TOKENS[word[:2]], int(word[3:]) - 1) for word in layoffs.split())
        return Defence(name, tuple(melds), laid, None if deadwood is None else int(deadwood),
                       Place(self.line, 1))

    def fast_defence(self, words: list[str], name: str, place: Place) -> Defence | None:
        melds: list[Mask] = []
        n = len(words)
        i = _fast_melds(words, 2, melds)
        if i < 0:
            return None
        layoffs = []
        while i < n and ">" in words[i]:
            token, _, number = words[i].partition(">")
            c = CARD_TOKENS.get(token)
            if c is None or not _MELD_NUMBER_RE.fullmatch(number):
                return None
            layoffs.append((c, int(number) - 1))
            i += 1
        deadwood, i = _fast_deadwood(words, i)
        if i != n:
            return None
        return Defence(name, tuple(melds), tuple(layoffs), deadwood, place)

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
            _opt(res, "discard"), knock, place,
        )


def _remember_plain_turn(text: str, turn: Turn, column: int) -> None:
    """Keep what a turn line without a knock reads to, so that :func:`read_text` makes it
    again at once wherever the line comes back (with that line's number)."""
    known = (turn.player, turn.source, turn.card, turn.discard, column)
    _remember(_PLAIN_TURNS, _PLAIN_TURNS_MAX, text, known)


def read_text(text: str, *, source: str = "", first_line: int = 1, index: int = 0) -> GameRecord:
    """One record in the text form; raises ``RecordError`` (with line and column) if it is bad.

    ``first_line`` numbers the first line of ``text`` (for a record cut out of a file).
    """
    at = lone_surrogate(text)
    if at >= 0:
        raise RecordError(surrogate_problem(text, at), source, first_line + text.count("\n", 0, at),
                          at - text.rfind("\n", 0, at))
    reader = _TextReader(source, index)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not a line
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    remembered, claimed, feed = _PLAIN_TURNS.get, _PLAIN_CLAIMS.get, reader.feed
    events = None  # the events of a hand that may still take some; only a fed line changes it
    for number, line in enumerate(lines, first_line):
        known = remembered(line)
        if known is not None and events is not None:  # a plain turn line read before, made here
            player, drawn_from, card, discard, column = known
            events.append(Turn(player, drawn_from, card, discard, None, Place(number, column)))
            continue
        reader.line = number
        if line[:1] == "[":
            if not reader.plain_hand_tag(line):
                feed(number, line)
        elif events is not None and (turn := reader.plain_turn(line)) is not None:
            events.append(turn)
            continue
        elif (claim := claimed(line)) is None or not reader.remembered_claim(claim):
            feed(number, line)
        hand = reader.hand  # None before the first hand tag and after the final totals
        events = hand.events if hand is not None and not hand.claimed else None
    return reader.finish()


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
    else:
        raise TypeError(f"not a record event: {event!r}")
    return " ".join(words)

