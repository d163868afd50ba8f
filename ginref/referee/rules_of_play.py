"""The rules of play as named predicates, one home each: the replay of records, the live
table and its :meth:`~ginref.referee.table.Table.legal_moves` all ask here.

Each predicate reads the rule set and the few facts of the position it needs, so a rule is
decided in one function: is the stock at its floor (:func:`at_the_floor`), what the wall
allows (:func:`takes_only_to_knock`), may this deadwood knock (:func:`within_knock_limit`),
may this player draw from the stock (:func:`may_draw_stock`). The questions a rule set
answers alone, below the referee too, are :class:`~ginref.rules.Rules`' own: which card may
not be discarded (:meth:`~ginref.rules.Rules.banned_discard`), the hand's knock limit
(:meth:`~ginref.rules.Rules.knock_limit_for`); whether a card fits a meld is
:func:`ginref.layoffs.fits`.
"""

from __future__ import annotations

from ginref.rules import Rules

__all__ = ["at_the_floor", "may_draw_stock", "takes_only_to_knock", "within_knock_limit"]


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
