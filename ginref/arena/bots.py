"""The bundled bots: ``random``, ``greedy`` and ``simple``, each a pure choice of one of
the legal moves from what its seat may see.

They are the opponents a bot author tests against without writing one, and the examples of
a bot in Python: a bot is anything with ``act(view, legal) -> Move`` (or its ``.gin`` words),
given the seat's :class:`~ginref.referee.table.View` and the table's legal moves. The
deadwood they weigh is the referee's own count (:func:`ginref.melds.min_deadwood`), so the
bots hold no rule of their own: a move they choose is always one of ``legal``.

- ``random`` picks any legal move, from a generator seeded by the arena.
- ``greedy`` takes the top discard when that lowers its deadwood, discards the card that
  leaves the least deadwood (the highest of those), knocks at once with its best knock, and
  lays off each card that lowers what it is left with.
- ``simple`` is the research frameworks' common baseline: it takes the upcard only to make
  a meld with it, discards its highest unmelded card and knocks as soon as it can.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ginref.cards import Card, Mask, card_points, mask_points
from ginref.melds import MeldSystem, best_arrangement, min_deadwood, min_deadwood_after_discard
from ginref.referee.table import Move, Phase, View
from ginref.rules import STANDARD, Rules

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SimpleBot", "bundled_bot"]


class Bot:
    """The base of the bundled bots: the rules' meld system, and ``act``."""

    name = "bot"

    def __init__(self, rules: Rules = STANDARD, seed: int = 0) -> None:
        self.system = MeldSystem.from_rules(rules)
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """One of ``legal``, the move this bot makes at ``view``."""
        raise NotImplementedError


class RandomBot(Bot):
    """Any legal move, uniformly."""

    name = "random"

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[self.rng.randrange(len(legal))]


def _kind(legal: Sequence[Move], kind: str) -> list[Move]:
    return [m for m in legal if m.kind == kind]


def _draw_or_pass(legal: Sequence[Move]) -> Move:
    for kind in ("draw", "pass"):
        found = _kind(legal, kind)
        if found:
            return found[0]
    return legal[0]


def _knock_deadwood(view: View, knock: Move) -> int:
    kept = view.hand.mask & ~(0 if knock.card is None else 1 << knock.card)
    for meld in knock.melds:
        kept &= ~meld
    return mask_points(kept)


def _best_knock(view: View, legal: Sequence[Move]) -> Move | None:
    knocks = _kind(legal, "knock")
    return min(knocks, key=lambda m: (_knock_deadwood(view, m), m.sort_key)) if knocks else None


def _laid_deadwood(system: MeldSystem, hand: Mask, move: Move) -> int:
    return min_deadwood(hand & ~(1 << (move.card or 0)), system)


def _useful_layoff(system: MeldSystem, view: View, legal: Sequence[Move],
                   keep: Callable[[Move], bool]) -> Move | None:
    """The layoff that leaves the least deadwood, if it lowers it and ``keep`` allows it."""
    layoffs = [m for m in _kind(legal, "layoff") if keep(m)]
    if not layoffs:
        return None
    now = min_deadwood(view.hand, system)
    best = min(layoffs, key=lambda m: (_laid_deadwood(system, view.hand.mask, m), m.sort_key))
    return best if _laid_deadwood(system, view.hand.mask, best) < now else None


def _finish(legal: Sequence[Move]) -> Move:
    found = _kind(legal, "finish")
    return found[0] if found else legal[0]


class GreedyBot(Bot):
    """Draws what lowers its deadwood, discards its worst card, knocks at once."""

    name = "greedy"

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        phase = view.phase
        if phase in (Phase.UPCARD, Phase.DRAW):
            takes = _kind(legal, "take")
            if takes and view.pile:
                with_top = view.hand.mask | 1 << view.pile[-1]
                if min_deadwood_after_discard(with_top, self.system) < min_deadwood(view.hand, self.system):
                    return takes[0]
            return _draw_or_pass(legal)
        if phase is Phase.WALL:
            return _kind(legal, "take")[0] if _kind(legal, "take") else _draw_or_pass(legal)
        if phase is Phase.DISCARD:
            knock = _best_knock(view, legal)
            if knock is not None:
                return knock
            discards = _kind(legal, "discard")
            return min(discards, key=lambda m: self._after(view.hand.mask, m.card)) if discards else legal[0]
        if phase is Phase.DEFENCE:
            layoff = _useful_layoff(self.system, view, legal, lambda m: True)
            return layoff if layoff is not None else _finish(legal)
        return legal[0]

    def _after(self, hand: Mask, card: Card | None) -> tuple[int, int, int]:
        """Deadwood left, then the highest card first, then the card: the worst card first."""
        c = card or 0
        return min_deadwood(hand & ~(1 << c), self.system), -card_points(c), -c


class SimpleBot(Bot):
    """Takes the upcard only to make a meld, discards its highest unmelded card, knocks as
    soon as it can."""

    name = "simple"

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        phase = view.phase
        if phase in (Phase.UPCARD, Phase.DRAW, Phase.WALL):
            takes = _kind(legal, "take")
            if takes and view.pile and self._melds_with(view.hand.mask, view.pile[-1]):
                return takes[0]
            return _draw_or_pass(legal)
        if phase is Phase.DISCARD:
            knock = _best_knock(view, legal)
            if knock is not None:
                return knock
            discards = _kind(legal, "discard")
            if not discards:
                return legal[0]
            deadwood = best_arrangement(view.hand, self.system).deadwood
            unmelded = [m for m in discards if m.card is not None and deadwood >> m.card & 1]
            pool = unmelded or discards
            return max(pool, key=lambda m: (card_points(m.card or 0), (m.card or 0) % 13, m.card or 0))
        if phase is Phase.DEFENCE:
            deadwood = best_arrangement(view.hand, self.system).deadwood
            layoff = next((m for m in _kind(legal, "layoff") if deadwood >> (m.card or 0) & 1), None)
            return layoff if layoff is not None else _finish(legal)
        return legal[0]

    def _melds_with(self, hand: Mask, top: Card) -> bool:
        arrangement = best_arrangement(hand | 1 << top, self.system)
        return any(meld.mask >> top & 1 for meld in arrangement.melds)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "simple": SimpleBot}
"""the bundled bots by name"""


def bundled_bot(name: str, rules: Rules = STANDARD, seed: int = 0) -> Bot:
    """A fresh bundled bot by name, under ``rules``, its generator seeded with ``seed``."""
    return BOTS[name](rules, seed)
