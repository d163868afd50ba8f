"""Card notation: text to cards and back.

Accepted input (docs/record-format.md uses the same cards)::

    card       ::= rank suit | suit rank | codepoint
    rank       ::= "A" | "2".."9" | "T" | "10" | "J" | "Q" | "K"        (any case)
    suit       ::= ("C" | "D" | "H" | "S")                               (any case)
                 | ("♣" | "♦" | "♥" | "♠" | "♧" | "♢" | "♡" | "♤") [U+FE0E | U+FE0F]
    codepoint  ::= U+1F0A1 .. U+1F0DE, knights excluded  [U+FE0E | U+FE0F]
    separator  ::= whitespace | ","                          (skipped, also between melds)
    cards      ::= card*              cards may run together: "3C4C5C", "♣6♣7♣8"
    meld       ::= "[" card* "]"
    melds      ::= meld*

A card may be followed directly by another card, but not by any other letter
or digit, so ``stock`` is one unknown token rather than the ten of spades.

This module holds the one spelling table (``SPELLINGS``; ``CARD_TOKENS`` and
``plain_mask`` read its letter forms), the readers ``parse_card``,
``parse_cards``, ``parse_melds`` and ``parse_hand``, the coercion
``hand_mask``, the formatters, and the wording of every notation error
(``explain_*`` give a :class:`CardProblem`). It needs no pyparsing, so
importing it is cheap. :mod:`ginref.grammar` builds the pyparsing elements of
the same grammar for grammars that embed cards (records, sheets) from the
regular expressions and explanations here; tests hold the two readers to the
same answers. Every reader is linear in its input.

Other programs print cards their own way, strictly (``TC``, in lists like
``[8S, KS, 2C]``): ``read_card_list``, ``read_meld_lists`` and
``read_listed_card`` read the lists of the EAAI framework's logs and RLCard's
move sheets, one home for both formats, with a record's place in each error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cached_property

import msgspec

from ginref.cards import (
    FULL_DECK,
    RANKS,
    SUIT_GLYPHS,
    SUITS,
    Card,
    CardSet,
    Mask,
    card,
    card_name,
    mask_of,
    scan,
)
from ginref.errors import DuplicateCardError, HandSizeError, NotationError, RecordError

__all__ = [
    "CARD_NAMES",
    "CARD_TOKENS",
    "SEPARATORS",
    "CardProblem",
    "excerpt",
    "explain_bad_card",
    "explain_duplicate",
    "explain_extra_after_card",
    "explain_outside_meld",
    "explain_unclosed_meld",
    "format_cards",
    "format_melds",
    "hand_mask",
    "line_and_column",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_melds",
    "plain_mask",
    "read_card_list",
    "read_listed_card",
    "read_meld_lists",
]

# --- spellings ---------------------------------------------------------------

_VARIATION_SELECTORS = ("", "\ufe0e", "\ufe0f")
_OUTLINED_GLYPHS = "♧♢♡♤"  # clubs, diamonds, hearts, spades: same order as SUITS

_RANK_SPELLINGS: dict[str, int] = {"10": 9}
for _rank, _letter in enumerate(RANKS):
    _RANK_SPELLINGS[_letter] = _RANK_SPELLINGS[_letter.lower()] = _rank

_SUIT_SPELLINGS: dict[str, int] = {}
for _suit, _letter in enumerate(SUITS):
    _SUIT_SPELLINGS[_letter] = _SUIT_SPELLINGS[_letter.lower()] = _suit
    for _glyph in (SUIT_GLYPHS[_suit], _OUTLINED_GLYPHS[_suit]):
        for _vs in _VARIATION_SELECTORS:
            _SUIT_SPELLINGS[_glyph + _vs] = _suit

# Unicode "Playing Cards": one block of 16 per suit, rank nibble 1..E with the
# knight at C; the block order is spades, hearts, diamonds, clubs.
_CODEPOINT_BLOCKS = {0x1F0A0: 3, 0x1F0B0: 2, 0x1F0C0: 1, 0x1F0D0: 0}
_CODEPOINT_RANKS = {n: n - 1 for n in range(1, 12)} | {0xD: 11, 0xE: 12}
_CODEPOINTS: dict[str, int] = {
    chr(base + nibble): suit * 13 + rank
    for base, suit in _CODEPOINT_BLOCKS.items()
    for nibble, rank in _CODEPOINT_RANKS.items()
}
_KNIGHTS = frozenset(chr(base + 0xC) for base in _CODEPOINT_BLOCKS)
_JOKERS = frozenset({"jk", "jkr", "joker", "\U0001f0bf", "\U0001f0cf", "\U0001f0df"})

SPELLINGS: dict[str, Card] = {}
"""Every accepted spelling of a single card; the fast path looks tokens up here."""
for _r, _rank in _RANK_SPELLINGS.items():
    for _s, _suit in _SUIT_SPELLINGS.items():
        SPELLINGS[_r + _s] = SPELLINGS[_s + _r] = _suit * 13 + _rank
for _cp, _card in _CODEPOINTS.items():
    for _vs in _VARIATION_SELECTORS:
        SPELLINGS[_cp + _vs] = _card

_ASCII_LETTERS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_PLAIN_SPELLINGS: dict[str, Card] = {
    spelling: c for spelling, c in SPELLINGS.items() if _ASCII_LETTERS.issuperset(spelling)
}
"""The letter spellings, rank or suit first, any case: what :func:`plain_mask` reads."""

CARD_TOKENS: Mapping[str, Card] = {
    spelling: c for spelling, c in _PLAIN_SPELLINGS.items() if spelling[-1] in _SUIT_SPELLINGS
}
"""Rank letter then suit letter, any case, ten as ``T`` or ``10``: the spellings records take."""

CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(52))
"""Canonical name of each card, ``CARD_NAMES[0] == "AC"``."""

SEPARATORS = (
    ",\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""The comma and every character ``str.split()`` splits on (a test holds the list to
``str.isspace``; written out, not found at import). Brackets also end a token."""
_TOKEN_END = frozenset(SEPARATORS + "[]")


def _alternation(spellings: Iterable[str]) -> str:
    return "|".join(re.escape(s) for s in sorted(spellings, key=lambda s: (-len(s), s)))


_RANK_RE = f"(?:{_alternation(_RANK_SPELLINGS)})"
_SUIT_RE = f"(?:{_alternation(_SUIT_SPELLINGS)})"
_CODEPOINT_RE = f"[{''.join(sorted(_CODEPOINTS))}][\ufe0e\ufe0f]?"
_CARD_START_CHARS = frozenset({s[0] for s in SPELLINGS} | {"1"})
_CARD_START = re.escape("".join(sorted(_CARD_START_CHARS)))
# A card ends at the end of the text, at a non-word character, or where the next
# card begins; never inside a word ("stock" is not the ten of spades).
CARD_PATTERN = (
    f"(?:{_RANK_RE}{_SUIT_RE}|{_SUIT_RE}{_RANK_RE}|{_CODEPOINT_RE})"
    f"(?=\\Z|\\W|[{_CARD_START}])"
)
_LONGEST_CARD = max(len(r) for r in _RANK_SPELLINGS) + max(len(u) for u in _SUIT_SPELLINGS)
"""No card spelling is longer (a codepoint card with its selector is two characters)."""


class _Patterns:
    """The notation's regular expressions, each compiled on first use: compiling them all
    took a quarter of a one-hand command's own start-up, and plain names need none."""

    @cached_property
    def card(self) -> re.Pattern[str]:
        return re.compile(CARD_PATTERN)

    @cached_property
    def ace_as_one(self) -> re.Pattern[str]:
        return re.compile(f"1({_SUIT_RE})|({_SUIT_RE})1")

    @cached_property
    def separator_run(self) -> re.Pattern[str]:
        return re.compile(f"[{re.escape(SEPARATORS)}]*")

    @cached_property
    def spaced_card(self) -> re.Pattern[str]:
        return re.compile(f"[{re.escape(SEPARATORS)}]*({CARD_PATTERN})")

    @cached_property
    def token(self) -> re.Pattern[str]:
        return re.compile(f"[^{re.escape(''.join(sorted(_TOKEN_END)))}]*")


_PATTERNS = _Patterns()

# --- explaining what is wrong ------------------------------------------------

EXCERPT_LIMIT = 80
"""Most characters of the offending text an error message quotes."""


def excerpt(value: object, limit: int = EXCERPT_LIMIT) -> str:
    """``value`` as a message quotes it: its repr, at most about ``limit`` characters, saying
    when it was cut.

    Text is cut before it is quoted, so escapes (``\\ufeff``) count as shown; a whole
    number too long to print (Python refuses past 4,300 digits) is told by its size, and
    a value whose repr fails (nested too deep) by its type.
    """
    if isinstance(value, str):
        return _quoted(value, limit)
    if isinstance(value, int) and not isinstance(value, bool) and not -(10**20) < value < 10**20:
        digits = (abs(value).bit_length() * 30103) // 100000 + 1
        return f"a {'negative ' if value < 0 else ''}number of about {digits} digits"
    try:
        shown = repr(value)
    except (RecursionError, ValueError):
        return f"a {type(value).__name__} too large to show"
    return shown if len(shown) <= limit else f"{shown[:limit]}... (cut; {len(shown)} characters)"


def _quoted(text: str, limit: int) -> str:
    shown = repr(text[: limit + 1])
    if len(text) <= limit and len(shown) <= limit + 2:
        return shown
    short, long = 0, min(len(text), limit)  # the longest prefix whose repr fits
    while short < long:
        middle = (short + long + 1) // 2
        if len(repr(text[:middle])) <= limit + 2:
            short = middle
        else:
            long = middle - 1
    return f"{text[:short]!r}... (cut; {len(text)} characters)"


def line_and_column(text: str, at: int) -> tuple[int, int]:
    """1-based line and column of offset ``at``, as pyparsing counts them."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def placeless(message: str) -> str:
    """A ``NotationError``'s message without its place (``at column 28``), for a caller that
    gives the place itself (``<stdin>:2:28: ...``)."""
    return re.sub(r" at (?:line \d+, )?column \d+", "", message, count=1)


class CardProblem(msgspec.Struct, frozen=True):
    """Why ``text`` is not card notation: ``problem`` at offset ``at``, where ``token`` starts."""

    text: str
    at: int
    problem: str
    token: str
    hint: str = ""
    duplicate: bool = False

    def error(self) -> NotationError:
        """The ``NotationError`` (``DuplicateCardError``) the library raises for it."""
        line, column = line_and_column(self.text, self.at)
        where = f"column {column}" if line == 1 else f"line {line}, column {column}"
        message = f"{self.problem} at {where}" + (f": {self.hint}" if self.hint else "")
        error_type = DuplicateCardError if self.duplicate else NotationError
        return error_type(message, column, self.token)


def _skip_separators(s: str, loc: int) -> int:
    match = _PATTERNS.separator_run.match(s, loc)
    return loc if match is None else match.end()


def _token_end(s: str, loc: int) -> int:
    """End of the bad token at ``loc``: its word, cut before any cards that finish it.

    ``4X5C`` gives ``4X``, but ``stock`` stays whole: no cut between two letters.
    Which offsets start a run of cards to the end of the word is worked out once,
    from the right, so this is linear in the word.
    """
    word = _PATTERNS.token.match(s, loc)
    end = loc if word is None else word.end()
    runs_from = bytearray(end - loc + 1)
    runs_from[end - loc] = 1
    starts = _CARD_START_CHARS
    frontier = end  # the leftmost offset known to start cards that run to the end
    for at in range(end - 1, loc, -1):
        if at < frontier - _LONGEST_CARD:
            break  # no card reaches past a gap this wide: nothing further left can run
        if s[at] in starts:
            card = _PATTERNS.card.match(s, at, end)
            if card is not None and runs_from[card.end() - loc]:
                runs_from[at - loc] = 1
                frontier = at
    for cut in range(loc + 1, end):
        if runs_from[cut - loc] and not (s[cut - 1].isalpha() and s[cut].isalpha()):
            return cut
    return end


def explain_bad_card(s: str, loc: int) -> CardProblem:
    """Why no card could be read at ``loc`` (after any separators)."""
    loc = _skip_separators(s, loc)
    if loc >= len(s):
        return CardProblem(s, loc, "expected a card", "")
    if s[loc] in "[]":
        return CardProblem(s, loc, f"unexpected {s[loc]!r}", s[loc])
    token = s[loc : _token_end(s, loc)]
    shown = excerpt(token)
    bare = token.replace("\ufe0e", "").replace("\ufe0f", "").casefold()
    if bare in _JOKERS:
        return CardProblem(s, loc, f"joker {shown}", token, "jokers are not used in gin rummy")
    if bare in _KNIGHTS:
        return CardProblem(s, loc, f"knight {shown}", token, "knights are not used in gin rummy")
    if _PATTERNS.ace_as_one.fullmatch(token):
        hint = f"write the ace as 'A' ({token.replace('1', 'A')!r})"
        return CardProblem(s, loc, f"unknown card {shown}", token, hint)
    start = _word_start(s, loc)
    if start < loc and bare in _LONE_PARTS:  # "7SS": the word typed, not its stray letter
        word = s[start : _token_end(s, loc)]
        return CardProblem(s, start, f"unknown card {excerpt(word)}", word, "a card is one rank and one suit")
    return CardProblem(s, loc, f"unknown card {shown}", token, _split_card_hint(s, loc, token))


_SUIT_WORDS = {
    word: SUITS[suit]
    for suit, name in enumerate(("club", "diamond", "heart", "spade"))
    for word in (name, name + "s")
}
_LONE_PARTS = frozenset(suit.casefold() for suit in _SUIT_SPELLINGS)
"""a suit with no rank: right after a card (``7SS``) it is a stray letter of the word typed"""


def _word_start(s: str, loc: int) -> int:
    """Where the word holding ``loc`` starts (cards may run together inside a word)."""
    start = loc
    while start > 0 and s[start - 1] not in _TOKEN_END and loc - start < EXCERPT_LIMIT:
        start -= 1
    return start


def _split_card_hint(s: str, loc: int, token: str) -> str:
    """``3 C``, ``7 spades``, ``7spades``: say that rank and suit go together, and how."""
    rank = token.casefold()
    suit_word = ""
    for word, letter in _SUIT_WORDS.items():
        if rank.endswith(word) and rank[: -len(word)] in _RANK_SPELLINGS:
            rank, suit_word = rank[: -len(word)], letter
    if not suit_word and rank in _RANK_SPELLINGS:
        after = _skip_separators(s, loc + len(token))
        following = s[after : _token_end(s, after)] if after < len(s) else ""
        suit_word = _SUIT_WORDS.get(following.casefold(), _suit_letter(following))
    if not suit_word or rank not in _RANK_SPELLINGS:
        return ""
    return f"rank and suit go together, as in {(RANKS[_RANK_SPELLINGS[rank]] + suit_word)!r}"


def _suit_letter(text: str) -> str:
    suit = _SUIT_SPELLINGS.get(text)
    return "" if suit is None else SUITS[suit]


def explain_duplicate(s: str, loc: int, token: str) -> CardProblem:
    """The card ``token`` at ``loc`` was given before."""
    return CardProblem(s, loc, f"duplicate card {excerpt(token)}", token, duplicate=True)


def explain_unclosed_meld(s: str, loc: int) -> CardProblem:
    """A meld open before ``loc`` (after separators) where neither a card nor ``]`` follows."""
    opened = s.rfind("[", 0, loc)
    if loc >= len(s):
        return CardProblem(s, opened, "unclosed '['", "[")
    if s[loc] == "[":
        hint = f"the meld at column {line_and_column(s, opened)[1]} is not closed"
        return CardProblem(s, loc, "unexpected '['", "[", hint)
    return explain_bad_card(s, loc)


def explain_outside_meld(s: str, loc: int) -> CardProblem:
    """Something other than a meld where melds were expected, at ``loc``."""
    if s[loc] == "]":
        return CardProblem(s, loc, "unmatched ']'", "]")
    match = _PATTERNS.card.match(s, loc)
    if match:
        token = match.group()
        hint = "put each meld in brackets"
        return CardProblem(s, loc, f"unexpected card {token!r}", token, hint)
    if s[loc] in "({<":
        hint = "melds go in square brackets: '[4H 5H 6H]'"
        return CardProblem(s, loc, f"unexpected {s[loc]!r}", s[loc], hint)
    return explain_bad_card(s, loc)


def explain_extra_after_card(s: str, loc: int) -> CardProblem:
    """More text at ``loc`` after the one card expected."""
    token = s[loc : _token_end(s, loc)] or s[loc]
    start = _word_start(s, loc)
    if start < loc and token.casefold() in _LONE_PARTS:
        word = s[start : loc + len(token)]
        return CardProblem(s, start, f"unknown card {excerpt(word)}", word, "a card is one rank and one suit")
    return CardProblem(s, loc, f"unexpected {excerpt(token)}", token, "expected a single card")


# --- reading -----------------------------------------------------------------

_MOST_CARDS = 52


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise NotationError(f"card notation must be text, not {type(text).__name__}")


def _read_cards(s: str, loc: int, limit: int) -> tuple[list[tuple[int, str]], int]:
    """Cards from ``loc`` on (offset and spelling), up to ``limit`` of them or the
    first thing that is not a card; and the offset after them and any separators."""
    found: list[tuple[int, str]] = []
    match = _PATTERNS.spaced_card.match
    while len(found) < limit:
        card = match(s, loc)
        if card is None:
            break
        found.append((card.start(1), card.group(1)))
        loc = card.end()
    return found, _skip_separators(s, loc)


def _distinct(s: str, found: Iterable[tuple[int, str]], seen: set[Card]) -> list[Card]:
    cards = []
    for loc, token in found:
        c = SPELLINGS[token]
        if c in seen:
            raise explain_duplicate(s, loc, token).error()
        seen.add(c)
        cards.append(c)
    return cards


def parse_card(text: str) -> Card:
    """One card, in any accepted spelling: ``parse_card("10h") == parse_card("♥T")``.

    ``text`` is one card. Returns the card (0 to 51). Raises
    :class:`~ginref.errors.NotationError` for anything else, naming the column.
    """
    _check_text(text)
    c = SPELLINGS.get(text.strip(SEPARATORS))
    if c is not None:
        return c
    found, loc = _read_cards(text, 0, 1)
    if not found:
        raise explain_bad_card(text, loc).error()
    if loc < len(text):
        raise explain_extra_after_card(text, loc).error()
    return SPELLINGS[found[0][1]]


def card_or_none(value: object, what: str = "card") -> Card | None:
    """A card given to the library as a card (0 to 51) or as card text, or None: the one
    reading of an optional card (an upcard, a taken card) for every call that takes one.

    Raises :class:`~ginref.errors.NotationError` naming ``what`` for anything else.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is int and 0 <= value < 52:
        return value
    raise NotationError(f"the {what} must be a card (0 to 51 or card text), not {excerpt(value)}")


def parse_cards(text: str) -> list[Card]:
    """Distinct cards in input order: ``parse_cards("3C 4c ♣5") == [2, 3, 4]``.

    The first problem wins: a repeated card before an unknown token is reported
    as the repeat. More than 52 cards always repeat one, so reading stops there.

    ``text`` is any number of cards. Returns them as a list. Raises
    :class:`~ginref.errors.NotationError` (:class:`~ginref.errors.DuplicateCardError` for
    a repeat) naming the token and column.
    """
    _check_text(text)
    words = text.split()
    if len(words) <= _MOST_CARDS:
        cards = [SPELLINGS.get(word, -1) for word in words]
        if -1 not in cards and len(set(cards)) == len(cards):
            return cards
    found, loc = _read_cards(text, 0, _MOST_CARDS + 1)
    cards = _distinct(text, found, set())
    if loc < len(text):
        raise explain_bad_card(text, loc).error()
    return cards


def _count_words(sizes: tuple[int, ...]) -> str:
    numbers = [str(n) for n in sizes]
    listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]
    return f"{listed} card" + ("" if sizes == (1,) else "s")


def parse_hand(text: str, sizes: tuple[int, ...] = (10, 11)) -> CardSet:
    """A hand whose size is one of ``sizes``; raises ``HandSizeError`` otherwise.

    ``text`` is the cards, ``sizes`` the hand sizes allowed. Returns a
    :class:`~ginref.cards.CardSet`. Raises :class:`~ginref.errors.NotationError` as
    :func:`parse_cards` does.
    """
    cards = parse_cards(text)
    if len(cards) not in sizes:
        raise HandSizeError(f"expected {_count_words(sizes)}, got {len(cards)}")
    return CardSet.of(cards)


def parse_melds(text: str) -> list[list[Card]]:
    """Bracketed groups of cards: ``"[3C 4C 5C] [9D 9S 9H]"``; no meld legality check.

    Every meld is read before repeats are checked, as the grammar does, so a
    bracket problem anywhere wins over a repeated card.

    ``text`` is the melds. Returns each meld's cards. Raises
    :class:`~ginref.errors.NotationError` for a bad card, bracket or repeat, naming the column.
    """
    _check_text(text)
    melds: list[list[tuple[int, str]]] = []
    loc = _skip_separators(text, 0)
    while loc < len(text) and text[loc] == "[":
        found, loc = _read_cards(text, loc + 1, len(text))
        if loc >= len(text) or text[loc] != "]":
            raise explain_unclosed_meld(text, loc).error()
        melds.append(found)
        loc = _skip_separators(text, loc + 1)
    seen: set[Card] = set()
    cards = [_distinct(text, found, seen) for found in melds]
    if loc < len(text):
        raise explain_outside_meld(text, loc).error()
    return cards


def plain_mask(text: str) -> Mask | None:
    """The cards of ``text`` when it is plain letters (``3C 10h, QS``), else None.

    A quick path that needs no grammar: anything else (glyphs, cards run
    together, an unknown token, a duplicate) returns None, and the caller asks
    the grammar (:func:`parse_cards`), which also words the error.
    """
    mask = 0
    count = 0
    names = _PLAIN_SPELLINGS
    for word in text.replace(",", " ").split():
        c = names.get(word)
        if c is None:
            return None
        mask |= 1 << c
        count += 1
    return mask if mask.bit_count() == count else None


def hand_mask(hand: CardSet | str | Iterable[Card | str] | int) -> Mask:
    """The mask of any hand the library takes: a mask, a ``CardSet``, text or cards.

    An ``int`` is a 52-bit mask; text is read as :func:`parse_cards` reads it;
    an iterable holds cards as ints 0..51 or card text. Raises ``NotationError``
    (``DuplicateCardError`` for a repeated card) for anything else.

    ``hand`` is the hand in any of those forms. Returns its mask.
    """
    if type(hand) is int:
        if 0 <= hand <= FULL_DECK:
            return hand
        raise NotationError(f"a hand mask must be 0 to 2**52 - 1, not {excerpt(hand)}")
    if type(hand) is CardSet:
        return hand.mask
    if isinstance(hand, str):
        mask = plain_mask(hand)
        return mask_of(parse_cards(hand)) if mask is None else mask
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, (bool, bytes, bytearray, memoryview)):
        raise NotationError(f"a hand is cards, text or a mask, not {type(hand).__name__}")
    if isinstance(hand, int):
        return hand_mask(int(hand))
    if isinstance(hand, Iterable):
        return _iterable_mask(hand)
    raise NotationError(f"a hand is cards, text or a mask, not {type(hand).__name__}")


def _iterable_mask(cards: Iterable[object]) -> Mask:
    """The mask of cards given one by one; a 53rd item is always a repeat, so this stops."""
    mask = 0
    for number, item in enumerate(cards, 1):
        c = _item_card(item, number)
        if mask >> c & 1:
            raise DuplicateCardError(
                f"duplicate card {CARD_NAMES[c]!r} at item {number}", 0, CARD_NAMES[c]
            )
        mask |= 1 << c
    return mask


def _item_card(item: object, number: int) -> Card:
    if type(item) is int and 0 <= item < 52:
        return item
    if isinstance(item, str):
        try:
            return parse_card(item)
        except NotationError as exc:
            raise type(exc)(f"item {number}: {exc}", exc.column, exc.token) from None
    if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
        return int(item)
    shown = excerpt(item) if isinstance(item, int) else type(item).__name__
    raise NotationError(f"item {number} is not a card (0 to 51 or card text): {shown}")


# --- formatting --------------------------------------------------------------

_NAMES = {
    (glyphs, ten): tuple(
        (ten if rank == 9 else RANKS[rank]) + (SUIT_GLYPHS if glyphs else SUITS)[suit]
        for suit in range(4)
        for rank in range(13)
    )
    for glyphs in (False, True)
    for ten in ("T", "10")
}


def _names(glyphs: bool, ten: str) -> tuple[str, ...]:
    names = _NAMES.get((glyphs, ten))
    if names is None:
        raise ValueError(f"ten must be 'T' or '10', not {ten!r}")
    return names


def _format(cards: Iterable[Card], names: tuple[str, ...]) -> str:
    out = []
    for c in cards:
        if not 0 <= c < 52:
            raise ValueError(f"not a card: {c!r}")
        out.append(names[c])
    return " ".join(out)


def format_cards(cards: Iterable[Card] | CardSet | Mask, *, glyphs: bool = False, ten: str = "T") -> str:
    """Canonical text: ``"3C 4C TD"`` (or ``"3♣ 4♣ 10♦"``).

    ``cards`` are cards 0 to 51 in the order given, or a :class:`CardSet` or a mask (an int:
    a set of cards, in card order); ``glyphs`` writes suit glyphs, ``ten`` is ``"T"`` or
    ``"10"``. Returns the text. Raises ``ValueError`` for a card out of range or another ``ten``.

    >>> format_cards(CardSet.parse("3C 4C TD")) == format_cards(0b1100 | 1 << 22) == "3C 4C TD"
    True
    """
    if isinstance(cards, CardSet):
        cards = cards.mask
    if isinstance(cards, int):
        if isinstance(cards, bool) or not 0 <= cards <= FULL_DECK:
            raise ValueError(f"not a set of cards: {cards!r}")
        return _format(scan(cards), _names(glyphs, ten))
    return _format(cards, _names(glyphs, ten))


def format_melds(
    melds: Iterable[Iterable[Card]], *, glyphs: bool = False, ten: str = "T"
) -> str:
    """Melds in brackets, in the order given: ``"[3C 4C 5C] [9D 9H 9S]"``."""
    names = _names(glyphs, ten)
    return " ".join(f"[{_format(meld, names)}]" for meld in melds)


# --- card lists as other programs print them -----------------------------------

_LIST_RE = re.compile(r"\[[^\[\]]*\]")


def read_listed_card(word: str, source: str, line: int, column: int) -> Card:
    """A card as the EAAI framework and RLCard write it (``TC``, ``AD``: rank and suit in
    capitals, nothing else); raises :class:`RecordError` at ``source:line:column``."""
    if len(word) != 2 or word[0] not in RANKS or word[1] not in SUITS:
        raise RecordError(f"{word!r} is not a card", source, line, column)
    return card(RANKS.index(word[0]), SUITS.index(word[1]))


def read_card_list(text: str, source: str, line: int, column: int) -> tuple[Card, ...]:
    """``[8S, KS, 2C]`` (EAAI's) or ``['8S', 'KS']`` (RLCard's) as cards; no card twice."""
    inner = text.strip()[1:-1].strip()
    words = [w.strip().strip("'") for w in inner.split(",")] if inner else []
    cards = tuple(read_listed_card(w, source, line, column) for w in words)
    if len(set(cards)) != len(cards):
        twice = next(w for i, w in enumerate(words) if w in words[:i])
        raise RecordError(f"the list names {twice} twice", source, line, column)
    return cards


def read_meld_lists(text: str, source: str, line: int, column: int) -> tuple[Mask, ...]:
    """``[[AC, 2C, 3C], [8D, 9D, TD]]`` as masks, in order (empty lists left out)."""
    found = _LIST_RE.findall(text.strip()[1:-1])
    return tuple(m for m in (mask_of(read_card_list(f, source, line, column)) for f in found) if m)
