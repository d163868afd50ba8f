"""Card notation as pyparsing elements, for grammars that embed cards (records, score sheets).

The grammar is :mod:`ginref.notation`'s, built from its regular expressions, and every
failure is worded by its ``explain_*`` functions, so both say the same thing.

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

from collections.abc import Iterable

import pyparsing as pp

from ginref.cards import Card
from ginref.errors import NotationError
from ginref.notation import (
    CARD_PATTERN,
    SEPARATORS,
    SPELLINGS,
    CardProblem,
    explain_bad_card,
    explain_duplicate,
    explain_extra_after_card,
    explain_outside_meld,
    explain_unclosed_meld,
)

__all__ = [
    "CardSyntaxError",
    "card_error_expr",
    "card_expr",
    "card_list_expr",
    "meld_list_expr",
    "notation_error",
]

# --- errors ------------------------------------------------------------------


class CardSyntaxError(pp.ParseFatalException):
    """Raised inside the grammar: ``problem`` names it, ``text[at:]`` starts with ``token``.

    The details live in attributes of their own because pyparsing rewrites
    ``msg`` as the exception passes through named elements. They are all positional, so
    that ``args`` rebuilds the whole error: pyparsing's packrat cache (which matplotlib,
    for one, turns on for the whole process) copies an exception as ``cls(*args)``.
    """

    def __init__(
        self, text: str, at: int, problem: str, token: str = "", hint: str = "", duplicate: bool = False,
    ) -> None:
        super().__init__(text, at, problem)
        self.text = text
        self.at = at
        self.problem = problem
        self.token = token
        self.hint = hint
        self.duplicate = duplicate

    @classmethod
    def of(cls, problem: CardProblem) -> CardSyntaxError:
        return cls(problem.text, problem.at, problem.problem, problem.token, problem.hint, problem.duplicate)

    def card_problem(self) -> CardProblem:
        return CardProblem(
            self.text, self.at, self.problem, self.token, self.hint, self.duplicate
        )


def notation_error(exc: pp.ParseBaseException) -> NotationError:
    """The ``NotationError`` for a failed parse of card notation.

    ``CardSyntaxError`` keeps its own message; any other pyparsing failure is
    explained as a bad card token at its location.
    """
    if isinstance(exc, CardSyntaxError):
        return exc.card_problem().error()
    return explain_bad_card(exc.pstr, exc.loc).error()


def bad_card(s: str, loc: int) -> CardSyntaxError:
    """Explain why no card could be read at ``loc``."""
    return CardSyntaxError.of(explain_bad_card(s, loc))


def _raise_bad_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise bad_card(s, loc)


# --- grammar -----------------------------------------------------------------


def seps(expr: pp.ParserElement, name: str) -> pp.ParserElement:
    return expr.set_whitespace_chars(SEPARATORS, copy_defaults=False).set_name(name)


def _to_card(toks: pp.ParseResults) -> Card:
    return SPELLINGS[toks[0]]


def _to_located(s: str, loc: int, toks: pp.ParseResults) -> tuple[int, str, Card]:
    return (loc, toks[0], SPELLINGS[toks[0]])


def _check_distinct(s: str, located: Iterable[tuple[int, str, Card]], seen: set[Card]) -> None:
    for loc, token, c in located:
        if c in seen:
            raise CardSyntaxError.of(explain_duplicate(s, loc, token))
        seen.add(c)


def distinct_cards(s: str, loc: int, toks: pp.ParseResults) -> list[Card]:
    _check_distinct(s, toks, set())
    return [c for _, _, c in toks]


def _distinct_melds(s: str, loc: int, toks: pp.ParseResults) -> list[pp.ParseResults]:
    seen: set[Card] = set()
    for group in toks:
        _check_distinct(s, group, seen)
    return [pp.ParseResults([c for _, _, c in group]) for group in toks]


def meld_not_closed(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise CardSyntaxError.of(explain_unclosed_meld(s, loc))


def _outside_meld(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise CardSyntaxError.of(explain_outside_meld(s, loc))


def _extra_after_card(s: str, loc: int, toks: pp.ParseResults) -> None:
    raise CardSyntaxError.of(explain_extra_after_card(s, loc))


def failing(name: str, action: pp.ParseAction) -> pp.ParserElement:
    """An element that always raises through ``action``, at the next non-separator."""
    return seps(pp.Empty(), name).set_parse_action(action, call_during_try=True)


card_expr = seps(pp.Regex(CARD_PATTERN), "card").set_parse_action(_to_card)
located_card = seps(pp.Regex(CARD_PATTERN), "card").set_parse_action(_to_located)
card_list_expr = pp.ZeroOrMore(located_card).set_parse_action(distinct_cards).set_name("cards")
card_error_expr = failing("card", _raise_bad_card)

_open = seps(pp.Suppress("["), "'['")
_close = seps(pp.Suppress("]"), "']'")
_meld = pp.Group(
    _open + pp.ZeroOrMore(located_card) + (_close | failing("']'", meld_not_closed))
).set_name("meld")
meld_list_expr = pp.ZeroOrMore(_meld).set_parse_action(_distinct_melds).set_name("melds")

_end = seps(pp.StringEnd(), "end of text")
_card_doc = (
    (card_expr | card_error_expr) + (_end | failing("end of text", _extra_after_card))
).parse_with_tabs()
_cards_doc = (card_list_expr + (_end | card_error_expr)).parse_with_tabs()
_melds_doc = (meld_list_expr + (_end | failing("meld", _outside_meld))).parse_with_tabs()


def _parse_with(document: pp.ParserElement, text: str) -> pp.ParseResults:
    try:
        return document.parse_string(text)
    except pp.ParseBaseException as exc:
        raise notation_error(exc) from None


def _parse_card_grammar(text: str) -> Card:
    """``notation.parse_card`` through the grammar (tests compare the two)."""
    result: Card = _parse_with(_card_doc, text)[0]
    return result


def _parse_cards_grammar(text: str) -> list[Card]:
    """``notation.parse_cards`` through the grammar."""
    return list(_parse_with(_cards_doc, text))


def _parse_melds_grammar(text: str) -> list[list[Card]]:
    """``notation.parse_melds`` through the grammar."""
    return [list(group) for group in _parse_with(_melds_doc, text)]
