"""The grammar of a ``.gin`` record line, in pyparsing.

:mod:`ginref.records.text` reads a record line by line and takes the commonest lines
itself; every other line comes here (:func:`parse_line`), so that pyparsing is loaded
only when a record needs it and every error still has its line and column.
"""

from __future__ import annotations

import json
import re
from typing import Literal

import pyparsing as pp

from ginref.cards import Card
from ginref.errors import RecordError
from ginref.grammar import (
    CardSyntaxError,
    bad_card,
    card_expr,
    distinct_cards,
    failing,
    located_card,
    meld_not_closed,
    seps,
)
from ginref.notation import excerpt
from ginref.records.lexicon import RECORD_NAME_RE, RECORD_OUTCOMES, RECORD_STRING_RE, RecordToken
from ginref.records.model import UNFINISHED_REASONS
from ginref.rules import parse_number

__all__ = [
    "claim_line_expr", "event_line_expr", "parse_line", "record_cards_expr", "record_line_expr",
    "tag_line_expr",
]

# -- the grammar ------------------------------------------------------------------------------
# One line of a ``.gin`` record (see ``docs/record-format.md``). ``ginref.record``
# reads a record line by line, removes the ``#`` comment, and parses the line with
# one of the expressions below, so every error has its line and column. The
# grammar knows nothing of the record model: cards are ints (``??``, an unseen
# card, is None), melds lists of ints, names and tag values plain strings.
#
#   tag_line    ::= "[" tag_name string* "]"
#   event_line  ::= name ("pass" | defence | turn)
#   turn        ::= (draw [discard] [ending] | discard [ending] | ending)
#                   ["least_deadwood" count]     the mover's least deadwood after it
#   draw        ::= ("draw" | "take") (card | "??")       draw: stock, take: discard pile
#   discard     ::= "discard" card
#   ending      ::= ("knock" | "gin" | "big_gin") [card] meld* ["deadwood" count]
#   defence     ::= "defend" meld* layoff* ["deadwood" count]
#   layoff      ::= card ">" number                      the knocker's meld, from 1
#   claim_line  ::= "result" outcome [name] [number]
#                 | "result" "unfinished" reason [name]   name: who stopped the hand
#                 | ("score" | "final") (name number)*
#                 | "next_dealer" name
#   outcome     ::= "knock" | "gin" | "big_gin" | "undercut" | "tie" | "void"
#                 | "illegal_knock" | "win" | "draw"
#   reason      ::= "forfeit" | "timeout" | "illegal_move" | "error" | "stopped"
#   name        ::= word | string      word: a letter, then letters, digits, "_" and
#                                      inner "'", "." or "-"; never a keyword
#   string      ::= a JSON string literal, e.g. "Ann \"Ace\" Lee"
#   count       ::= digit+             number ::= ["+" | "-"] digit+
#
# Keywords are lower case and case-sensitive, as names are. Results: tag lines give
# ``tag`` and ``values``; event lines give ``player`` and ``pass``, ``defend`` or the
# turn parts ``source``, ``card``, ``discard``, ``ending``, ``knock_card``, with
# ``melds`` (lists of cards), ``layoffs`` (``[card, count]``) and ``deadwood``; claim
# lines give ``claim`` and ``outcome``, ``winner``, ``points``, ``totals`` (``[name,
# number]``) or ``name``. Keywords, names, tag names and tag values are
# ``RecordToken`` so that the reader knows their columns. Errors are raised as
# ``RecordSyntaxError`` (card problems keep their message and hint) or as plain
# pyparsing exceptions ("Expected ...").


class RecordSyntaxError(pp.ParseSyntaxException):
    """A precise problem in a record line; ``problem`` and ``hint`` as in ``CardSyntaxError``.

    A ``ParseSyntaxException`` so that pyparsing passes it on untouched.
    """

    def __init__(self, text: str, at: int, problem: str, hint: str = "") -> None:
        super().__init__(text, at, problem)
        self.text = text
        self.at = at
        self.problem = problem
        self.hint = hint

    @classmethod
    def from_card(cls, exc: CardSyntaxError) -> RecordSyntaxError:
        return cls(exc.text, exc.at, exc.problem, exc.hint)


_ESCAPE_RE = re.compile(r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})')


def _record_token(s: str, loc: int, toks: pp.ParseResults) -> RecordToken:
    return RecordToken(loc, toks[0])


def _record_string(s: str, loc: int, toks: pp.ParseResults) -> RecordToken:
    text = json.loads(toks[0])
    if _SURROGATE_RE.search(text):  # no UTF-8 file could hold it, so no record may say it
        raise RecordSyntaxError(s, loc, "a \\u escape of half a surrogate pair is not a character")
    return RecordToken(loc, text)


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _to_number(s: str, loc: int, toks: pp.ParseResults) -> int:
    """A number of the record; one that no game reaches (``MAX_NUMBER``) is refused."""
    number = parse_number(toks[0])
    if number is None:
        raise RecordSyntaxError(s, loc, f"number too large: {excerpt(toks[0], 40)}")
    return number


def _bad_string(s: str, loc: int, toks: pp.ParseResults) -> None:
    """Explain quoted text that does not end well; a plain failure if none starts here."""
    if loc >= len(s) or s[loc] != '"':
        raise pp.ParseException(s, loc, "Expected quoted text")
    end = loc + 1
    while end < len(s) and s[end] != '"':
        if s[end] == "\\":
            if not _ESCAPE_RE.match(s, end):
                token = s[end : end + 2]
                hint = 'write \\" for a quote and \\\\ for a backslash'
                raise RecordSyntaxError(s, end, f"bad escape {token!r} in quoted text", hint)
            end += 1
        elif s[end] < " ":
            raise RecordSyntaxError(s, end, f"control character {s[end]!r} in quoted text")
        end += 1
    raise RecordSyntaxError(s, loc, "unterminated quoted text")


def _record_bad_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise RecordSyntaxError.from_card(bad_card(s, loc))


def _layoff_bad_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    """As ``_record_bad_card``, with the token cut at ``>``: ``6X>1`` names ``6X``."""
    gt = s.find(">", loc)
    raise RecordSyntaxError.from_card(bad_card(s if gt < 0 else s[:gt], loc))


def _record_kw(word: str) -> pp.ParserElement:
    """A keyword; a failure is reported where the word starts (``knocked`` is not ``knock``)."""
    return pp.Regex(rf"{word}(?!\w)").set_parse_action(_record_token).set_name(repr(word))


def _record_failing(name: str, action: pp.ParseAction) -> pp.ParserElement:
    return pp.Empty().set_name(name).set_parse_action(action, call_during_try=True)


def _record_distinct(s: str, loc: int, toks: pp.ParseResults) -> list[list[Card]]:
    """Each meld's cards, checked distinct within the meld (not across melds)."""
    try:
        return [distinct_cards(s, loc, group) for group in toks]
    except CardSyntaxError as exc:
        raise RecordSyntaxError.from_card(exc) from None


def _record_meld_not_closed(s: str, loc: int, toks: pp.ParseResults) -> None:
    try:
        meld_not_closed(s, loc, toks)
    except CardSyntaxError as exc:
        raise RecordSyntaxError.from_card(exc) from None


_record_string_expr = (
    pp.Regex(RECORD_STRING_RE).set_parse_action(_record_string)
    | _record_failing("quoted text", _bad_string)
)
_record_name = (
    pp.Regex(RECORD_NAME_RE).set_parse_action(_record_token)
    | pp.Regex(RECORD_STRING_RE).set_parse_action(_record_string)
    | _record_failing("player name", _bad_string)
).set_name("player name")
_record_count = pp.Regex(r"\d+(?![\w.])").set_parse_action(_to_number).set_name("count")
_record_meld_number = (
    pp.Regex(r"[1-9]\d*(?![\w.])").set_parse_action(_to_number)
    .set_name("meld number (the knocker's melds count from 1)")
)
_record_number = (
    pp.Regex(r"[+-]?\d+(?![\w.])").set_parse_action(_to_number).set_name("number")
)
_line_end = pp.StringEnd().set_name("end of line")

_rec_card = card_expr.copy()
_rec_card_error = _record_failing("card", _record_bad_card)
_rec_unseen = pp.Literal("??").set_parse_action(pp.replace_with(None)).set_name("'??'")
_rec_meld = pp.Group(
    seps(pp.Suppress("["), "'['")
    + pp.ZeroOrMore(located_card.copy())
    + (
        seps(pp.Suppress("]"), "']'")
        | failing("']'", _record_meld_not_closed)
    )
)
_rec_melds = pp.Group(
    pp.ZeroOrMore(_rec_meld).set_parse_action(_record_distinct)
)
_rec_deadwood = _record_kw("deadwood").suppress() - _record_count("deadwood")
_not_card = pp.Literal("[") | _record_kw("deadwood") | _record_kw("least_deadwood") | _line_end
_rec_least = _record_kw("least_deadwood").suppress() - _record_count("least_deadwood")

_rec_draw = (_record_kw("draw") | _record_kw("take"))("source") - (
    _rec_card | _rec_unseen | _rec_card_error
)("card")
_rec_discard = _record_kw("discard").suppress() - (_rec_card | _rec_card_error)("discard")
_rec_ending = (
    (_record_kw("knock") | _record_kw("gin") | _record_kw("big_gin"))("ending")
    - pp.Opt(_rec_card | (~_not_card + _rec_card_error))("knock_card")
    - _rec_melds("melds")
    - pp.Opt(_rec_deadwood)
)
_rec_turn = (
    (_rec_draw + pp.Opt(_rec_discard) + pp.Opt(_rec_ending))
    | (_rec_discard + pp.Opt(_rec_ending))
    | _rec_ending
) + pp.Opt(_rec_least)
_rec_layoff = pp.Group(
    (_rec_card - pp.Suppress(">").set_name("'>'") - _record_meld_number)
    | (~_not_card + _record_failing("card", _layoff_bad_card))
)
_rec_defence = (
    _record_kw("defend")("defend")
    - _rec_melds("melds")
    - pp.Group(pp.ZeroOrMore(_rec_layoff))("layoffs")
    - pp.Opt(_rec_deadwood)
)
_rec_action = (_record_kw("pass")("pass") | _rec_defence | _rec_turn).set_name(
    "'pass', 'draw', 'take', 'discard', 'knock', 'gin', 'big_gin' or 'defend'"
)
event_line_expr = (_record_name("player") - _rec_action - _line_end).parse_with_tabs()
"""An event: ``Ann draw 8S discard KH``, ``Bo defend [JC JD JH] 6C>1 deadwood 23``."""

_rec_outcome = (
    pp.Regex(rf"(?:{'|'.join(RECORD_OUTCOMES)})(?!\w)").set_parse_action(_record_token)
    .set_name("an outcome (" + ", ".join(RECORD_OUTCOMES) + ")")
)
_rec_totals = pp.Group(pp.ZeroOrMore(pp.Group(_record_name - _record_number)))
_rec_reason = (
    pp.Regex(rf"(?:{'|'.join(UNFINISHED_REASONS)})(?!\w)").set_parse_action(_record_token)
    .set_name("a reason (" + ", ".join(UNFINISHED_REASONS) + ")")
)
claim_line_expr = (
    (
        _record_kw("result")("claim") + _record_kw("unfinished")("outcome") - _rec_reason("reason")
        - pp.Opt(_record_name("stopped_by")) - _line_end
    )
    | (
        _record_kw("result")("claim") - _rec_outcome("outcome")
        - pp.Opt(_record_name("winner")) - pp.Opt(_record_number("points")) - _line_end
    )
    | ((_record_kw("score") | _record_kw("final"))("claim") - _rec_totals("totals") - _line_end)
    | (_record_kw("next_dealer")("claim") - _record_name("name") - _line_end)
).parse_with_tabs()
"""A claim: ``result knock Ann 21``, ``score Ann 21 Bo 0``, ``next_dealer Ann``."""

_rec_tag_name = (
    pp.Regex(r"[A-Za-z][A-Za-z0-9_]*").set_parse_action(_record_token).set_name("tag name")
)
tag_line_expr = (
    pp.Suppress("[") - _rec_tag_name("tag")
    - pp.Group(pp.ZeroOrMore(_record_string_expr))("values")
    - pp.Suppress("]").set_name("quoted text or ']'") - _line_end
).parse_with_tabs()
"""A tag pair: ``[Deal "Ann" "3C 4C 5C 9D 9S KH 2D 6S 7S QC"]``."""

record_cards_expr = (
    pp.ZeroOrMore(_rec_card) + (seps(pp.StringEnd(), "end of text") | _rec_card_error)
).parse_with_tabs()
"""The cards of a tag value, in order; repeats are allowed (the referee reports them)."""

record_line_expr = (tag_line_expr | claim_line_expr | event_line_expr).set_name("record line")
"""Any record line without its comment (the reader picks one of the three itself)."""


LineKind = Literal["tag", "claim", "event", "cards"]
_EXPRESSIONS: dict[str, pp.ParserElement] = {
    "tag": tag_line_expr, "claim": claim_line_expr, "event": event_line_expr, "cards": record_cards_expr,
}


def parse_line(kind: LineKind, text: str, source: str, line: int) -> pp.ParseResults:
    """``text`` parsed as a line (or tag value) of ``kind``; a failure is a ``RecordError``
    at ``line`` with the column of the problem."""
    try:
        return _EXPRESSIONS[kind].parse_string(text)
    except pp.ParseBaseException as exc:
        raise _syntax_error(exc, source, line) from None


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
    message += f", found {excerpt(rest[0], 40)}" if rest else " at the end of the line"
    return RecordError(message, source, line, pp.col(loc, text) if text else 1)
