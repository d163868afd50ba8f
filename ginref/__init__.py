"""ginref: the Gin Rummy referee.

The public API, all reachable as ``ginref.NAME`` (``dir(ginref)`` lists it; docs/api.md
documents each name):

- cards and notation: ``Card``, ``CardSet``, ``card_name``, ``mask_of``, ``parse_card``,
  ``parse_cards``, ``parse_hand``, ``parse_melds``, ``format_cards``, ``hand_mask``
- melds: ``Meld``, ``MeldKind``, ``MeldSystem``, ``Arrangement``, ``min_deadwood``,
  ``min_deadwood_after_discard``, ``best_arrangement``, ``optimal_arrangements``
- rules: ``Rules``, ``PRESETS``, ``find_rules``, ``with_overrides``, ``load_rules_file``
- one hand: ``analyze`` (``HandAnalysis``, ``DiscardOption``), ``layoff_report``
  (``LayoffReport``), ``best_defence`` (``DefenderResponse``, ``Layoff``), ``score_hand``
  (``HandScore``, ``Outcome``), ``settle``, ``advise`` (``Advice``, ``KnockOption``)
- OpenSpiel's gin_rummy played by ginref: ``openspiel_game`` (``OpenSpielGame``,
  ``OpenSpielState``)
- games and records: ``tally`` (``GameTally``), ``read_sheet``, ``read_records``
  (``GameRecord``), ``adjudicate`` (``Verdict``), ``verify`` (``RecordResult``,
  ``BatchSummary``), ``report`` (``BatchReport``, ``PlayerReport``, ``Weighing``),
  ``standings`` (``Standings``), the three reading paths as one ``Reading`` (or its fields as
  keywords); the subpackages ``records``, ``referee`` and ``batch``
- the live table: ``Table`` (one hand move by move, and the game), ``Move`` (``Move.parse``,
  ``str(move)``), ``Phase``, ``View`` (what one player may know), ``IllegalMove``, ``Deal``
- errors, all under ``GinrefError``: ``NotationError``, ``DuplicateCardError``,
  ``HandSizeError``, ``UnknownRulesError``, ``RulingError``, ``RecordError``

>>> import ginref
>>> hand = ginref.parse_hand("3C 4C 5C 9D 9S 9H KH 2D 6S 7S")
>>> result = ginref.analyze(hand.mask)
>>> result.arrangement.deadwood_points, result.can_knock
(25, False)
"""

from __future__ import annotations

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING`` without importing typing here: the command line imports it
with the garbage collector paused (:mod:`ginref.cli.importing`), along with click."""

# Names are imported on first use, so `ginref COMMAND` loads only what it needs.
_EXPORTS = {
    "Advice": "ginref.advice",
    "KnockOption": "ginref.advice",
    "advise": "ginref.advice",
    "DiscardOption": "ginref.analysis",
    "HandAnalysis": "ginref.analysis",
    "analyze": "ginref.analysis",
    "Card": "ginref.cards",
    "CardSet": "ginref.cards",
    "card_name": "ginref.cards",
    "mask_of": "ginref.cards",
    "DuplicateCardError": "ginref.errors",
    "GinrefError": "ginref.errors",
    "HandSizeError": "ginref.errors",
    "NotationError": "ginref.errors",
    "RecordError": "ginref.errors",
    "RulingError": "ginref.errors",
    "UnknownRulesError": "ginref.errors",
    "DefenderResponse": "ginref.layoffs",
    "Layoff": "ginref.layoffs",
    "LayoffReport": "ginref.layoffs",
    "best_defence": "ginref.layoffs",
    "layoff_report": "ginref.layoffs",
    "Arrangement": "ginref.melds",
    "Meld": "ginref.melds",
    "MeldKind": "ginref.melds",
    "MeldSystem": "ginref.melds",
    "best_arrangement": "ginref.melds",
    "min_deadwood": "ginref.melds",
    "min_deadwood_after_discard": "ginref.melds",
    "optimal_arrangements": "ginref.melds",
    "format_cards": "ginref.notation",
    "hand_mask": "ginref.notation",
    "parse_card": "ginref.notation",
    "parse_cards": "ginref.notation",
    "parse_hand": "ginref.notation",
    "parse_melds": "ginref.notation",
    "PRESETS": "ginref.rules",
    "Rules": "ginref.rules",
    "find_rules": "ginref.rules",
    "load_rules_file": "ginref.rules",
    "with_overrides": "ginref.rules",
    "HandScore": "ginref.scoring",
    "Outcome": "ginref.scoring",
    "score_hand": "ginref.scoring",
    "settle": "ginref.scoring",
    "GameTally": "ginref.game",
    "tally": "ginref.game",
    "read_sheet": "ginref.sheets",
    "GameRecord": "ginref.records",
    "read_records": "ginref.records",
    "Reading": "ginref.records",
    "Verdict": "ginref.referee",
    "adjudicate": "ginref.referee",
    "IllegalMove": "ginref.referee",
    "Move": "ginref.referee",
    "Phase": "ginref.referee",
    "Table": "ginref.referee",
    "Deal": "ginref.referee",
    "View": "ginref.referee",
    "OpenSpielGame": "ginref.referee.openspiel_state",
    "OpenSpielState": "ginref.referee.openspiel_state",
    "openspiel_game": "ginref.openspiel",
    "BatchSummary": "ginref.batch",
    "RecordResult": "ginref.batch",
    "verify": "ginref.batch",
    "BatchReport": "ginref.audit",
    "PlayerReport": "ginref.audit",
    "Weighing": "ginref.audit",
    "report": "ginref.audit",
    "Standings": "ginref.ranking",
    "standings": "ginref.ranking",
}

_SUBMODULES = frozenset({"batch", "records", "referee"})
"""Packages and modules reached as attributes (``ginref.batch.run_batch(...)``); no exported
name is also a submodule's name, so ``ginref.X`` means one thing whatever was imported first."""

if TYPE_CHECKING:
    from typing import Any

    from ginref.advice import Advice, KnockOption, advise
    from ginref.analysis import DiscardOption, HandAnalysis, analyze
    from ginref.audit import BatchReport, PlayerReport, Weighing, report
    from ginref.batch import BatchSummary, RecordResult, verify
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
    from ginref.game import GameTally, tally
    from ginref.layoffs import DefenderResponse, Layoff, LayoffReport, best_defence, layoff_report
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
    from ginref.notation import format_cards, hand_mask, parse_card, parse_cards, parse_hand, parse_melds
    from ginref.openspiel import openspiel_game
    from ginref.ranking import Standings, standings
    from ginref.records import GameRecord, Reading, read_records
    from ginref.referee import Deal, IllegalMove, Move, Phase, Table, Verdict, View, adjudicate
    from ginref.referee.openspiel_state import OpenSpielGame, OpenSpielState
    from ginref.rules import PRESETS, Rules, find_rules, load_rules_file, with_overrides
    from ginref.scoring import HandScore, Outcome, score_hand, settle
    from ginref.sheets import read_sheet


def __dir__() -> list[str]:
    """The public API (PEP 562), so that ``dir(ginref)`` and ``help(ginref)`` list it."""
    return sorted({*__all__, *_SUBMODULES})


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("ginref")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            return "0.0.0"
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"ginref.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ginref' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "PRESETS",
    "Advice",
    "Arrangement",
    "BatchReport",
    "BatchSummary",
    "Card",
    "CardSet",
    "Deal",
    "DefenderResponse",
    "DiscardOption",
    "DuplicateCardError",
    "GameRecord",
    "GameTally",
    "GinrefError",
    "HandAnalysis",
    "HandScore",
    "HandSizeError",
    "IllegalMove",
    "KnockOption",
    "Layoff",
    "LayoffReport",
    "Meld",
    "MeldKind",
    "MeldSystem",
    "Move",
    "NotationError",
    "OpenSpielGame",
    "OpenSpielState",
    "Outcome",
    "Phase",
    "PlayerReport",
    "Reading",
    "RecordError",
    "RecordResult",
    "Rules",
    "RulingError",
    "Standings",
    "Table",
    "UnknownRulesError",
    "Verdict",
    "View",
    "Weighing",
    "__version__",
    "adjudicate",
    "advise",
    "analyze",
    "best_arrangement",
    "best_defence",
    "card_name",
    "find_rules",
    "format_cards",
    "hand_mask",
    "layoff_report",
    "load_rules_file",
    "mask_of",
    "min_deadwood",
    "min_deadwood_after_discard",
    "openspiel_game",
    "optimal_arrangements",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_melds",
    "read_records",
    "read_sheet",
    "report",
    "score_hand",
    "settle",
    "standings",
    "tally",
    "verify",
    "with_overrides",
]
