"""The rules of play as named predicates, one home each: the replay of records, the live
table and its :meth:`~ginref.referee.table.Table.legal_moves` all ask here.

Each predicate reads the rule set and the few facts of the position it needs, so a rule is
decided in one function: may this card be discarded now (:func:`banned_discard`), is the
stock at its floor (:func:`at_the_floor`), what the wall allows (:func:`takes_only_to_knock`),
may this deadwood knock (:func:`within_knock_limit`), may this player draw from the stock
(:func:`may_draw_stock`).
"""

from __future__ import annotations

from ginref.cards import Card
from ginref.rules import Rules

__all__ = ["at_the_floor", "banned_discard", "may_draw_stock", "takes_only_to_knock", "within_knock_limit"]


def banned_discard(rules: Rules, taken: Card) -> Card:
    """The card that may not be discarded now (face up, or face down with a knock): the card
    ``taken`` from the discard pile this turn, under ``no_same_card_discard``; else -1.
    ``taken`` is -1 after a stock draw."""
    return taken if rules.no_same_card_discard else -1


def at_the_floor(rules: Rules, stock_left: int) -> bool:
    """Whether the stock is down to its ``stock_floor`` cards, which are never drawn: the
    hand ends there (``stock_end=void``) or reaches the wall."""
    return stock_left <= rules.stock_floor


def may_draw_stock(rules: Rules, stock_left: int) -> bool:
    """Whether a stock draw is allowed: only above the floor."""
    return not at_the_floor(rules, stock_left)


def takes_only_to_knock(rules: Rules) -> bool:
    """At the wall, whether the last discard may be taken only to knock
    (``stock_end=last_discard_knock_only``, OpenSpiel's wall); under ``take_or_dead``
    (RLCard) it may be taken to play on."""
    return rules.stock_end != "take_or_dead"


def within_knock_limit(deadwood: int, limit: int) -> bool:
    """Whether a knock showing ``deadwood`` points is within the hand's knock ``limit``
    (:meth:`Rules.knock_limit_for`: Oklahoma sets it by the upcard)."""
    return deadwood <= limit
