"""Card notation: text to cards and back, with one pyparsing grammar.

Accepted input (see ``shared/rules/NOTATION.md`` sections 1, 2 and 7)::

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

Reusable elements, for grammars that embed card notation (``record.py``):

- ``card_expr``: one card; the parse action gives the card as an ``int``.
- ``card_list_expr``: zero or more distinct cards, as ``int`` tokens.
- ``meld_list_expr``: zero or more bracketed melds, one group of ``int`` per meld,
  distinct across all melds.
- ``card_error_expr``: put it last in an alternative where a card was expected;
  it always fails with a precise message (unknown card, joker, knight, ace as ``1``).

Every element skips whitespace and commas. Problems are raised as
``CardSyntaxError`` (a ``pp.ParseFatalException``); ``notation_error(exc)``
turns one into the ``NotationError`` / ``DuplicateCardError`` the library
raises. A top-level grammar must call ``parse_with_tabs()`` so that columns
count characters of the original text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pyparsing as pp

from ginref.cards import FULL_DECK, RANKS, SUIT_GLYPHS, SUITS, Card, CardSet, Mask, card_name
from ginref.errors import DuplicateCardError, HandSizeError, NotationError

__all__ = [
    "CARD_NAMES",
    "CARD_TOKENS",
    "SEPARATORS",
    "CardSyntaxError",
    "card_error_expr",
    "card_expr",
    "card_list_expr",
    "format_cards",
    "format_melds",
    "hand_mask",
    "meld_list_expr",
    "notation_error",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_melds",
    "plain_mask",
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

_SPELLINGS: dict[str, Card] = {}
"""Every accepted spelling of a single card; the fast path looks tokens up here."""
for _r, _rank in _RANK_SPELLINGS.items():
    for _s, _suit in _SUIT_SPELLINGS.items():
        _SPELLINGS[_r + _s] = _SPELLINGS[_s + _r] = _suit * 13 + _rank
for _cp, _card in _CODEPOINTS.items():
    for _vs in _VARIATION_SELECTORS:
        _SPELLINGS[_cp + _vs] = _card

_ASCII_LETTERS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_PLAIN_SPELLINGS: dict[str, Card] = {
    spelling: c for spelling, c in _SPELLINGS.items() if _ASCII_LETTERS.issuperset(spelling)
}
"""The letter spellings, rank or suit first, any case: what :func:`plain_mask` reads."""

CARD_TOKENS: Mapping[str, Card] = {
    spelling: c for spelling, c in _PLAIN_SPELLINGS.items() if spelling[-1] in _SUIT_SPELLINGS
}
"""Rank letter then suit letter, any case, ten as ``T`` or ``10``: the spellings records take."""

CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(52))
"""Canonical name of each card, ``CARD_NAMES[0] == "AC"``."""

# Separators: every character str.split() splits on (all of them lie below
# U+3001), plus the comma. Brackets also end a token.
SEPARATORS = "," + "".join(c for c in map(chr, range(0x3001)) if c.isspace())
_TOKEN_END = frozenset(SEPARATORS + "[]")


def _alternation(spellings: Iterable[str]) -> str:
    return "|".join(re.escape(s) for s in sorted(spellings, key=lambda s: (-len(s), s)))


_RANK_RE = f"(?:{_alternation(_RANK_SPELLINGS)})"
_SUIT_RE = f"(?:{_alternation(_SUIT_SPELLINGS)})"
_CODEPOINT_RE = f"[{''.join(sorted(_CODEPOINTS))}][\ufe0e\ufe0f]?"
_CARD_START = re.escape("".join(sorted({s[0] for s in _SPELLINGS} | {"1"})))
# A card ends at the end of the text, at a non-word character, or where the next
# card begins; never inside a word ("stock" is not the ten of spades).
_CARD_RE = (
    f"(?:{_RANK_RE}{_SUIT_RE}|{_SUIT_RE}{_RANK_RE}|{_CODEPOINT_RE})"
    f"(?=\\Z|\\W|[{_CARD_START}])"
)
_card_re = re.compile(_CARD_RE)
_card_run_re = re.compile(f"(?:{_CARD_RE})+")
_ace_as_one_re = re.compile(f"1({_SUIT_RE})|({_SUIT_RE})1")

# --- errors ------------------------------------------------------------------


class CardSyntaxError(pp.ParseFatalException):
    """Raised inside the grammar: ``problem`` names it, ``text[at:]`` starts with ``token``.

    The details live in attributes of their own because pyparsing rewrites
    ``msg`` as the exception passes through named elements.
    """

    def __init__(
        self, text: str, at: int, problem: str, *, token: str, hint: str = "",
        duplicate: bool = False,
    ) -> None:
        super().__init__(text, at, problem)
        self.text = text
        self.at = at
        self.problem = problem
        self.token = token
        self.hint = hint
        self.duplicate = duplicate


def notation_error(exc: pp.ParseBaseException) -> NotationError:
    """The ``NotationError`` for a failed parse of card notation.

    ``CardSyntaxError`` keeps its own message; any other pyparsing failure is
    explained as a bad card token at its location.
    """
    if not isinstance(exc, CardSyntaxError):
        exc = _bad_card(exc.pstr, exc.loc)
    line, column = pp.lineno(exc.at, exc.text), pp.col(exc.at, exc.text)
    where = f"column {column}" if line == 1 else f"line {line}, column {column}"
    message = f"{exc.problem} at {where}" + (f": {exc.hint}" if exc.hint else "")
    error_type = DuplicateCardError if exc.duplicate else NotationError
    return error_type(message, column, exc.token)


def _skip_separators(s: str, loc: int) -> int:
    while loc < len(s) and s[loc] in SEPARATORS:
        loc += 1
    return loc


def _token_end(s: str, loc: int) -> int:
    """End of the bad token at ``loc``: its word, cut before any cards that finish it.

    ``4X5C`` gives ``4X``, but ``stock`` stays whole: no cut between two letters.
    """
    end = loc
    while end < len(s) and s[end] not in _TOKEN_END:
        end += 1
    for cut in range(loc + 1, end):
        if s[cut - 1].isalpha() and s[cut].isalpha():
            continue
        if _card_run_re.fullmatch(s, cut, end):
            return cut
    return end


def _bad_card(s: str, loc: int) -> CardSyntaxError:
    """Explain why no card could be read at ``loc``."""
    loc = _skip_separators(s, loc)
    if loc >= len(s):
        return CardSyntaxError(s, loc, "expected a card", token="")
    if s[loc] in "[]":
        return CardSyntaxError(s, loc, f"unexpected {s[loc]!r}", token=s[loc])
    token = s[loc : _token_end(s, loc)]
    bare = token.replace("\ufe0e", "").replace("\ufe0f", "").casefold()
    if bare in _JOKERS:
        hint = "jokers are not used in gin rummy"
        return CardSyntaxError(s, loc, f"joker {token!r}", token=token, hint=hint)
    if bare in _KNIGHTS:
        hint = "knights are not used in gin rummy"
        return CardSyntaxError(s, loc, f"knight {token!r}", token=token, hint=hint)
    if _ace_as_one_re.fullmatch(token):
        hint = f"write the ace as 'A' ({token.replace('1', 'A')!r})"
        return CardSyntaxError(s, loc, f"unknown card {token!r}", token=token, hint=hint)
    return CardSyntaxError(s, loc, f"unknown card {token!r}", token=token)


def _raise_bad_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise _bad_card(s, loc)


# --- grammar -----------------------------------------------------------------


def _seps(expr: pp.ParserElement, name: str) -> pp.ParserElement:
    return expr.set_whitespace_chars(SEPARATORS, copy_defaults=False).set_name(name)


def _to_card(toks: pp.ParseResults) -> Card:
    return _SPELLINGS[toks[0]]


def _to_located(s: str, loc: int, toks: pp.ParseResults) -> tuple[int, str, Card]:
    return (loc, toks[0], _SPELLINGS[toks[0]])


def _check_distinct(s: str, located: Iterable[tuple[int, str, Card]], seen: set[Card]) -> None:
    for loc, token, c in located:
        if c in seen:
            raise CardSyntaxError(
                s, loc, f"duplicate card {token!r}", token=token, duplicate=True
            )
        seen.add(c)


def _distinct_cards(s: str, loc: int, toks: pp.ParseResults) -> list[Card]:
    _check_distinct(s, toks, set())
    return [c for _, _, c in toks]


def _distinct_melds(s: str, loc: int, toks: pp.ParseResults) -> list[pp.ParseResults]:
    seen: set[Card] = set()
    for group in toks:
        _check_distinct(s, group, seen)
    return [pp.ParseResults([c for _, _, c in group]) for group in toks]


def _meld_not_closed(s: str, loc: int, toks: pp.ParseResults) -> None:
    opened = s.rfind("[", 0, loc)
    if loc >= len(s):
        raise CardSyntaxError(s, opened, "unclosed '['", token="[")
    if s[loc] == "[":
        hint = f"the meld at column {pp.col(opened, s)} is not closed"
        raise CardSyntaxError(s, loc, "unexpected '['", token="[", hint=hint)
    raise _bad_card(s, loc)


def _outside_meld(s: str, loc: int, toks: pp.ParseResults) -> None:
    if s[loc] == "]":
        raise CardSyntaxError(s, loc, "unmatched ']'", token="]")
    match = _card_re.match(s, loc)
    if match:
        token = match.group()
        hint = "put each meld in brackets"
        raise CardSyntaxError(s, loc, f"unexpected card {token!r}", token=token, hint=hint)
    raise _bad_card(s, loc)


def _extra_after_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    token = s[loc : _token_end(s, loc)] or s[loc]
    hint = "expected a single card"
    raise CardSyntaxError(s, loc, f"unexpected {token!r}", token=token, hint=hint)


def _failing(name: str, action: pp.ParseAction) -> pp.ParserElement:
    """An element that always raises through ``action``, at the next non-separator."""
    return _seps(pp.Empty(), name).set_parse_action(action, call_during_try=True)


card_expr = _seps(pp.Regex(_CARD_RE), "card").set_parse_action(_to_card)
_located_card = _seps(pp.Regex(_CARD_RE), "card").set_parse_action(_to_located)
card_list_expr = pp.ZeroOrMore(_located_card).set_parse_action(_distinct_cards).set_name("cards")
card_error_expr = _failing("card", _raise_bad_card)

_open = _seps(pp.Suppress("["), "'['")
_close = _seps(pp.Suppress("]"), "']'")
_meld = pp.Group(
    _open + pp.ZeroOrMore(_located_card) + (_close | _failing("']'", _meld_not_closed))
).set_name("meld")
meld_list_expr = pp.ZeroOrMore(_meld).set_parse_action(_distinct_melds).set_name("melds")

_end = _seps(pp.StringEnd(), "end of text")
_card_doc = (
    (card_expr | card_error_expr) + (_end | _failing("end of text", _extra_after_card))
).parse_with_tabs()
_cards_doc = (card_list_expr + (_end | card_error_expr)).parse_with_tabs()
_melds_doc = (meld_list_expr + (_end | _failing("meld", _outside_meld))).parse_with_tabs()

# --- parsing -----------------------------------------------------------------


def parse_card(text: str) -> Card:
    """One card, in any accepted spelling: ``parse_card("10h") == parse_card("♥T")``."""
    c = _SPELLINGS.get(text.strip(SEPARATORS))
    if c is not None:
        return c
    try:
        result: Card = _card_doc.parse_string(text)[0]
    except pp.ParseBaseException as exc:
        raise notation_error(exc) from None
    return result


def _parse_cards_grammar(text: str) -> list[Card]:
    try:
        return list(_cards_doc.parse_string(text))
    except pp.ParseBaseException as exc:
        raise notation_error(exc) from None


def parse_cards(text: str) -> list[Card]:
    """Distinct cards in input order: ``parse_cards("3C 4c ♣5") == [2, 3, 4]``."""
    # Fast path for whitespace-separated single cards; anything else (commas,
    # cards run together, errors, duplicates) goes through the grammar.
    cards = []
    for token in text.split():
        c = _SPELLINGS.get(token)
        if c is None:
            return _parse_cards_grammar(text)
        cards.append(c)
    if len(set(cards)) != len(cards):
        return _parse_cards_grammar(text)
    return cards


def _count_words(sizes: tuple[int, ...]) -> str:
    numbers = [str(n) for n in sizes]
    listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]
    return f"{listed} card" + ("" if sizes == (1,) else "s")


def parse_hand(text: str, sizes: tuple[int, ...] = (10, 11)) -> CardSet:
    """A hand whose size is one of ``sizes``; raises ``HandSizeError`` otherwise."""
    cards = parse_cards(text)
    if len(cards) not in sizes:
        raise HandSizeError(f"expected {_count_words(sizes)}, got {len(cards)}")
    return CardSet.of(cards)


def parse_melds(text: str) -> list[list[Card]]:
    """Bracketed groups of cards: ``"[3C 4C 5C] [9D 9S 9H]"``; no meld legality check."""
    try:
        result = _melds_doc.parse_string(text)
    except pp.ParseBaseException as exc:
        raise notation_error(exc) from None
    return [list(group) for group in result]


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
    """
    if type(hand) is int:
        if 0 <= hand <= FULL_DECK:
            return hand
        raise NotationError(f"a hand mask must be 0 to 2**52 - 1, not {_number_text(hand)}")
    if type(hand) is CardSet:
        return hand.mask
    if isinstance(hand, str):
        mask = plain_mask(hand)
        return _mask_of_cards(parse_cards(hand)) if mask is None else mask
    if isinstance(hand, CardSet):
        return hand.mask
    if isinstance(hand, (bool, bytes, bytearray, memoryview)):
        raise NotationError(f"a hand is cards, text or a mask, not {type(hand).__name__}")
    if isinstance(hand, int):
        return hand_mask(int(hand))
    if isinstance(hand, Iterable):
        return _iterable_mask(hand)
    raise NotationError(f"a hand is cards, text or a mask, not {type(hand).__name__}")


def _number_text(number: int) -> str:
    """``number`` for a message: whole when short, else its sign and digit count."""
    if -(10**20) < number < 10**20:
        return str(number)
    digits = (abs(number).bit_length() * 30103) // 100000 + 1
    return f"{'-' if number < 0 else ''}a number of about {digits} digits"


def _mask_of_cards(cards: Iterable[Card]) -> Mask:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


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
    shown = _number_text(item) if isinstance(item, int) else type(item).__name__
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


def format_cards(cards: Iterable[Card], *, glyphs: bool = False, ten: str = "T") -> str:
    """Canonical text, in the order given: ``"3C 4C TD"`` (or ``"3♣ 4♣ 10♦"``)."""
    return _format(cards, _names(glyphs, ten))


def format_melds(
    melds: Iterable[Iterable[Card]], *, glyphs: bool = False, ten: str = "T"
) -> str:
    """Melds in brackets, in the order given: ``"[3C 4C 5C] [9D 9H 9S]"``."""
    names = _names(glyphs, ten)
    return " ".join(f"[{_format(meld, names)}]" for meld in melds)


# == score sheets ==
# One line of a score sheet; ``ginref.game`` builds the sheet (players, rules,
# hand entries) from the parsed lines, so every error has its line and column:
#
#   line     ::= [header | "void" | hand] [comment]
#   header   ::= "players" ":" name name | "rules" ":" rules_name | "dealer" ":" name
#   hand     ::= name result flag*
#   result   ::= "knock" count count                knocker's deadwood, defender's after layoffs
#              | ("gin" | "big_gin") count [count]  opponent's deadwood (a 2nd count is an error)
#              | "wins" count [outcome]             points as scored elsewhere
#   outcome  ::= "knock" | "gin" | "big_gin" | "undercut"
#   flag     ::= "spade" | "upcard" card            (the card word is read by ``parse_card``)
#   name     ::= letters, digits and "_", not starting with a digit; inner "-", "'" or "."
#                allowed; never a keyword
#   count    ::= ["+" | "-"] digit+                 (signed, so that "-3" gets a clear error)
#   comment  ::= "#" to the end of the line
#
# Keywords are case-insensitive, names are not. Results: ``header``, ``first``,
# ``second``, ``value``, ``void``, ``player``, ``ending``, ``knocker``,
# ``defender``, ``extra``, ``points``, ``outcome`` (each a ``SheetToken``), and
# ``flags`` (groups of ``flag`` and, for "upcard", ``card``).


@dataclass(frozen=True, slots=True)
class SheetToken:
    """A word of a score-sheet line and where it starts (0-based offset in the line)."""

    loc: int
    text: str


SHEET_KEYWORDS = (
    "players", "rules", "dealer", "void", "knock", "gin", "big_gin", "wins", "undercut",
    "spade", "upcard",
)


def _sheet_token(s: str, loc: int, toks: pp.ParseResults) -> SheetToken:
    return SheetToken(loc, toks[0])


def _sheet_word(word: str) -> pp.ParserElement:
    return pp.CaselessKeyword(word).set_parse_action(_sheet_token).set_name(repr(word))


_SHEET_KEYWORD_RE = "|".join(SHEET_KEYWORDS)
sheet_name_expr = (
    pp.Regex(rf"(?!(?i:{_SHEET_KEYWORD_RE})(?!\w))[^\W\d]\w*(?:['.-]\w+)*")
    .set_parse_action(_sheet_token)
    .set_name("player name")
)
sheet_count_expr = pp.Regex(r"[+-]?\d+(?![\w.])").set_parse_action(_sheet_token).set_name("count")
_rules_name = pp.Regex(r"[\w-]+").set_parse_action(_sheet_token).set_name("rule set name")
_sheet_card_word = pp.Regex(r"[^\s#]+").set_parse_action(_sheet_token).set_name("card")
_colon = pp.Suppress(":").set_name("':'")
_end_of_line = pp.StringEnd().set_name("end of line")

_sheet_header = (
    (_sheet_word("players")("header") - _colon - sheet_name_expr("first")
     - sheet_name_expr("second"))
    | (_sheet_word("rules")("header") - _colon - _rules_name("value"))
    | (_sheet_word("dealer")("header") - _colon - sheet_name_expr("value"))
).set_name("header")
_sheet_outcome = (
    _sheet_word("knock") | _sheet_word("gin") | _sheet_word("big_gin") | _sheet_word("undercut")
).set_name("outcome")
_sheet_result = (
    (_sheet_word("knock")("ending") - sheet_count_expr("knocker").set_name("knocker's deadwood")
     - sheet_count_expr("defender").set_name("defender's deadwood"))
    | ((_sheet_word("big_gin") | _sheet_word("gin"))("ending")
       - sheet_count_expr("defender").set_name("opponent's deadwood")
       + pp.Opt(sheet_count_expr("extra")))
    | (_sheet_word("wins")("ending") - sheet_count_expr("points").set_name("points")
       + pp.Opt(_sheet_outcome("outcome")))
).set_name("'knock', 'gin', 'big_gin' or 'wins'")
_sheet_flag = pp.Group(
    _sheet_word("spade")("flag")
    | (_sheet_word("upcard")("flag") - _sheet_card_word("card"))
).set_name("flag")
_sheet_hand = (
    sheet_name_expr("player") - _sheet_result
    - pp.Group(pp.ZeroOrMore(_sheet_flag))("flags")
    - pp.StringEnd().set_name("'spade', 'upcard CARD' or end of line")
)
sheet_line_expr = (
    (_sheet_header - _end_of_line)
    | (_sheet_word("void")("void") - _end_of_line)
    | _sheet_hand
    | _end_of_line
).set_name("'players:', 'rules:', 'dealer:', 'void' or a player name").ignore(
    pp.python_style_comment
).parse_with_tabs()
"""One score-sheet line (parse one line at a time, so columns are the line's)."""
