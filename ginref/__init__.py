"""ginref: the Gin Rummy referee.

>>> import ginref
>>> hand = ginref.parse_hand("3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
>>> result = ginref.analyze(hand.mask)
>>> result.arrangement.deadwood_points, result.can_knock
(25, False)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ginref.analysis import DiscardOption, HandAnalysis, analyze
from ginref.cards import Card, CardSet, card_name, mask_of
from ginref.errors import (
    DuplicateCardError,
    GinrefError,
    HandSizeError,
    NotationError,
    RecordError,
    RulingError,
    UnknownRulesError,
)
from ginref.layoffs import Defence, Layoff, LayoffReport, best_defence, layoff_report
from ginref.melds import (
    Arrangement,
    Meld,
    MeldKind,
    MeldSystem,
    best_arrangement,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginref.notation import format_cards, parse_card, parse_cards, parse_hand, parse_melds
from ginref.rules import PRESETS, Rules, find_rules, load_rules_file, with_overrides
from ginref.scoring import HandScore, Outcome, score_hand, settle

try:
    __version__ = version("ginref")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "PRESETS",
    "Arrangement",
    "Card",
    "CardSet",
    "Defence",
    "DiscardOption",
    "DuplicateCardError",
    "GinrefError",
    "HandAnalysis",
    "HandScore",
    "HandSizeError",
    "Layoff",
    "LayoffReport",
    "Meld",
    "MeldKind",
    "MeldSystem",
    "NotationError",
    "Outcome",
    "RecordError",
    "Rules",
    "RulingError",
    "UnknownRulesError",
    "__version__",
    "analyze",
    "best_arrangement",
    "best_defence",
    "card_name",
    "find_rules",
    "format_cards",
    "layoff_report",
    "load_rules_file",
    "mask_of",
    "min_deadwood",
    "min_deadwood_after_discard",
    "optimal_arrangements",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_melds",
    "score_hand",
    "settle",
    "with_overrides",
]
