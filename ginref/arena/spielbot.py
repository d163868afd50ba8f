"""A ``pyspiel.Bot`` as a player (``spiel:module:factory``), playing through ginref's
registered OpenSpiel game (``ginref_gin_rummy``, :mod:`ginref.spiel`). Needs the ``openspiel``
extra.

An OpenSpiel bot is handed a whole state, and a state holds every card: the opponent's hand
and the stock's order. So the player never holds the true state. It keeps what its seat saw of
the hand (its own deal, the upcard, its own moves and the cards its draws brought, the
opponent's moves as the seat may see them: the ``opponent`` messages every bot gets) and, before
each move, builds a state from that alone: the cards it has not seen are dealt at random to the
opponent's hidden deal and stock draws, each card the opponent showed later (a discard, a meld,
a layoff) dealt to it before it showed it, a knocker's unseen cards within its knock limit; the
actions are replayed through the game, and a draw the game refuses is drawn again. The bot's
state is thus a function of the seat's information and a seeded generator, never of a hidden
card: the hidden cards in it are drawn, not copied. The draw is consistent with the seat's
view, not exactly uniform over the deals it cannot rule out (as ``resample_from_infostate`` is,
from a true state).

The factory is called as ``factory(game, player, seed)`` and returns the bot (anything with
``step(state) -> action``): ``game`` the pyspiel game under the match's rules, ``player`` 0
for the hand's non-dealer (OpenSpiel's first player) and 1 for the dealer, ``seed`` derived
from the match's. A bot is made for each OpenSpiel player the seat plays in a game, and only
``step`` is called. The OpenSpiel actions are turned into the table's moves: a knock's steps
(knock, the discard, each meld, pass) into one knock, a defence's melds into one ``finish``.
A move the runner plays for the seat (the ``random`` policy) is not seen by the player: after
one, its states may not be built, and it fails as a ``protocol`` failure.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ginref.arena.players import Answer, BotFailure, Clock
from ginref.cards import Card, Mask, card_points, mask_of, scan
from ginref.errors import GinrefError
from ginref.records.openspiel_actions import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    MELD_IDS,
    MELDS,
    PASS,
    card_from_openspiel,
    card_to_openspiel,
    fits,
)
from ginref.referee.table import Move, Phase, View
from ginref.rules import Rules

__all__ = ["SpielPlayer", "spiel_game"]

TRIES = 200
"""draws of the unseen cards before a state is given up"""
ALL_CARDS: Mask = (1 << 52) - 1
_GAME_KNOBS = {"gin_bonus": "gin_bonus", "undercut_bonus": "undercut_bonus", "knock_limit": "knock_card"}
"""the rule knobs the game's parameters change (knob: pyspiel's parameter)"""


def spiel_game(rules: Rules) -> Any:
    """The registered pyspiel game under ``rules``: the rule set by name, its changed knobs as
    gin_rummy's parameters. A knob the parameters cannot carry, rules OpenSpiel's actions cannot
    play, or no pyspiel raises :class:`GinrefError` saying which."""
    try:
        from ginref import spiel
    except ImportError:
        raise GinrefError("a spiel: bot needs pyspiel: pip install 'ginref[openspiel]'") from None
    if rules.first_turn == "eleven_card":
        raise GinrefError(f"a spiel: bot cannot play {rules.label}: its states are built from the upcard "
                          "deal, and these rules deal eleven cards with no upcard")
    params: dict[str, int | bool | str] = {"rules": rules.name}
    for knob, value in rules.overrides:
        if knob not in _GAME_KNOBS:
            raise GinrefError(f"a spiel: bot plays the game's parameters only ({', '.join(_GAME_KNOBS)}), "
                              f"not {knob}")
        params[_GAME_KNOBS[knob]] = int(value)
    try:
        game = spiel.GinrefGame(params)
    except GinrefError as exc:
        raise GinrefError(f"a spiel: bot cannot play these rules: {exc}") from None
    if game.core.rules != rules:
        raise GinrefError(f"a spiel: bot cannot play {rules.label}: gin_rummy's parameters do not give them")
    return game


class _Step:
    """A move of the hand as the seat saw it: who (OpenSpiel's player), the move, and for a
    draw the card it brought (the seat's own draws only, once its next view shows it)."""

    __slots__ = ("card", "move", "player")

    def __init__(self, player: int, move: Move) -> None:
        self.player, self.move = player, move
        self.card: Card | None = None


class _Hand:
    """What the seat saw of the hand so far."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.dealt: Mask | None = None
        self.upcard: Card | None = None
        self.steps: list[_Step] = []
        self.drawing: Mask | None = None
        """the seat's hand before its stock draw, until the card drawn is known"""


class _Sample:
    """The unseen cards drawn: the opponent's deal, and its stock draws by step."""

    __slots__ = ("deal", "draws")

    def __init__(self, deal: list[Card], draws: dict[int, Card]) -> None:
        self.deal, self.draws = deal, draws


class SpielPlayer:
    """A seat played by a pyspiel bot (see the module doc)."""

    def __init__(self, name: str, factory: Callable[..., Any]) -> None:
        self.name = name
        self.factory = factory
        self.game: Any = None
        self.rules: Rules | None = None
        self.seat = ""
        self.seed = 0
        self.bots: dict[int, Any] = {}
        self.hand: _Hand | None = None
        self.rng = random.Random(0)

    def new_game(self, players: tuple[str, str], seat: str, seed: int, rules: Rules) -> None:
        try:
            self.game = spiel_game(rules)
        except GinrefError as exc:
            raise BotFailure("protocol", str(exc)) from None
        self.rules, self.seat, self.seed = rules, seat, seed
        self.bots, self.hand = {}, None
        self.rng = random.Random(seed)

    def told(self, message: dict[str, object]) -> None:
        kind = message.get("type")
        if kind == "new_hand":
            self.hand = _Hand(1 if message.get("dealer") == self.seat else 0)
        elif kind == "opponent" and self.hand is not None:
            self.hand.steps.append(_Step(1 - self.hand.player, _seen(str(message.get("move", "")))))

    def act(self, view: View, legal: Sequence[Move], clock: Clock, refusal: str | None = None) -> Answer:
        start = time.perf_counter()
        hand = self.hand
        if hand is None:
            raise BotFailure("protocol", "asked to move before a hand began")
        if refusal is not None and hand.steps and hand.steps[-1].player == hand.player:
            hand.steps.pop()  # the move refused is not part of the hand
            hand.drawing = None
        if hand.dealt is None:
            hand.dealt, hand.upcard = view.hand.mask, view.upcard
        if hand.drawing is not None:
            drawn = view.hand.mask & ~hand.drawing
            hand.steps[-1].card = (drawn & -drawn).bit_length() - 1 if drawn else None
            hand.drawing = None
        try:
            state, knocking = self._state(hand)
            move = self._decide(self._bot(hand.player), state, knocking, view, legal)
        except BotFailure:
            raise
        except GinrefError as exc:
            raise BotFailure("protocol", str(exc)[:200]) from None
        except Exception as exc:  # the bot's own failure
            raise BotFailure("crash", f"{type(exc).__name__}: {exc}"[:200]) from None
        hand.steps.append(_Step(hand.player, move))
        if move.kind == "draw":
            hand.drawing = view.hand.mask
        return Answer(move, time.perf_counter() - start)

    def close(self) -> None:
        return

    def _bot(self, player: int) -> Any:
        bot = self.bots.get(player)
        if bot is None:
            bot = self.bots[player] = self.factory(self.game, player, (self.seed * 2 + player) % (1 << 31))
        return bot

    # -- the state, from the seat's information -----------------------------------------------------

    def _state(self, hand: _Hand) -> tuple[Any, bool]:
        """A state of the hand built from what the seat saw (the module doc), and whether a
        knock of the seat's is under way in it (a take at the wall is OpenSpiel's knock)."""
        forced, pool, knock, held = self._unseen(hand)
        for _ in range(TRIES):
            sample = self._draw(hand, forced, pool, knock, held)
            if sample is None:
                continue
            built = self._replay(hand, sample)
            if built is not None:
                return built
        raise GinrefError(f"no state consistent with {self.seat}'s view was built in {TRIES} draws")

    def _unseen(self, hand: _Hand) -> tuple[list[tuple[Card, int]], list[Card], _Step | None, Mask]:
        """The cards the opponent showed that it did not take from the pile, each with the step
        it showed it at; the cards the seat has not seen; the opponent's knock, if it knocked;
        the cards it took from the pile and holds unshown."""
        assert hand.dealt is not None and hand.upcard is not None
        seen = hand.dealt | 1 << hand.upcard
        took: set[Card] = set()
        forced: list[tuple[Card, int]] = []
        top: Card | None = hand.upcard
        knock = None
        for at, step in enumerate(hand.steps):
            move = step.move
            if step.player == hand.player:
                if step.card is not None:
                    seen |= 1 << step.card
                top = move.card if move.kind == "discard" else None if move.kind == "take" else top
                continue
            shown: list[Card] = []
            if move.kind == "take" and top is not None:
                took.add(top)
                top = None
            elif move.kind in ("discard", "layoff") and move.card is not None:
                shown.append(move.card)
                top = move.card if move.kind == "discard" else top
            elif move.kind in ("knock", "finish"):
                shown.extend(c for meld in move.melds for c in scan(meld))
                knock = step if move.kind == "knock" else knock
            for c in shown:
                if c in took:
                    took.discard(c)
                else:
                    forced.append((c, at))
                    seen |= 1 << c
        return forced, list(scan(ALL_CARDS & ~seen)), knock, mask_of(took)

    def _draw(self, hand: _Hand, forced: list[tuple[Card, int]], pool: list[Card], knock: _Step | None,
              held: int) -> _Sample | None:
        """One draw of the unseen cards: the opponent's deal (slot -1) and stock draws (their
        step), each card it showed in a slot before it showed it, the rest from ``pool``."""
        rng = self.rng
        slots: list[int] = [-1] * 10 + [at for at, s in enumerate(hand.steps)
                                         if s.player != hand.player and s.move.kind == "draw"]
        cards: list[Card | None] = [None] * len(slots)
        for c, at in sorted(forced, key=lambda item: item[1]):
            free = [i for i, slot in enumerate(slots) if cards[i] is None and slot < at]
            if not free:
                return None
            cards[rng.choice(free)] = c
        free = [i for i in range(len(slots)) if cards[i] is None]
        rest = self._rest(len(free), pool, knock, held)
        if rest is None:
            return None
        for i, c in zip(free, rest, strict=True):
            cards[i] = c
        deal = [c for c, slot in zip(cards, slots, strict=True) if slot == -1]
        draws = {slot: c for c, slot in zip(cards, slots, strict=True) if slot >= 0}
        return _Sample(deal, draws)  # type: ignore[arg-type]

    def _rest(self, count: int, pool: list[Card], knock: _Step | None, held: Mask) -> list[Card] | None:
        """``count`` cards from ``pool`` for the opponent's unseen cards. After its knock they
        are its face-down discard and its deadwood, within its knock limit with the cards
        ``held`` (taken from the pile, never shown): the discard is one of them, or one of
        ``held``, whichever the limit allows (drawn at random when both do)."""
        if count > len(pool):
            return None
        if knock is None:
            return self.rng.sample(pool, count)
        assert self.rules is not None and self.hand is not None
        limit = 0 if knock.move.ending in ("gin", "big_gin") else self.rules.knock_limit_for(self.hand.upcard)
        kept = [card_points(c) for c in scan(held)]
        budgets = [(count, limit - sum(kept) + max(kept))] if kept else []  # a held card discarded
        if knock.move.ending == "big_gin":
            budgets = [(count, limit - sum(kept))]  # no discard
        elif count:
            budgets.append((count - 1, limit - sum(kept)))  # an unseen card discarded
        budgets = [(n, budget) for n, budget in budgets if budget >= 0]
        for _ in range(TRIES if budgets else 0):
            dead, budget = self.rng.choice(budgets)
            low = [c for c in pool if card_points(c) <= budget]
            if dead > len(low):
                continue
            deadwood = self.rng.sample(low, dead)
            if sum(card_points(c) for c in deadwood) <= budget:
                others = [c for c in pool if c not in deadwood]
                return [*self.rng.sample(others, count - dead), *deadwood]
        return None

    def _replay(self, hand: _Hand, sample: _Sample) -> tuple[Any, bool] | None:
        """The state the hand's moves reach with the cards of ``sample``, and whether a knock
        is under way in it (after a take at the wall, which is OpenSpiel's knock); None when the
        game refuses a move (the draw is not consistent after all)."""
        assert hand.dealt is not None and hand.upcard is not None
        state = self.game.new_initial_state()
        own = sorted(card_to_openspiel(c) for c in scan(hand.dealt))
        other = [card_to_openspiel(c) for c in sample.deal]
        knocking = False
        try:
            deal = own + other if hand.player == 0 else other + own
            for action in (*deal, card_to_openspiel(hand.upcard)):
                state.apply_action(action)
            for at, step in enumerate(hand.steps):
                move = step.move
                if move.kind == "knock" and step.player != hand.player:
                    if not self._hidden_knock(state, move, knocking):
                        return None
                    knocking = False
                    continue
                drawn = step.card if step.player == hand.player else sample.draws.get(at)
                actions = _actions(state, move, drawn, knocking)
                for action in actions:
                    state.apply_action(action)
                knocking = actions == [KNOCK]
        except GinrefError:
            return None
        if state.current_player() != hand.player:
            return None
        return state, knocking

    def _hidden_knock(self, state: Any, move: Move, knocking: bool) -> bool:
        """The opponent's knock, its face-down discard drawn from the discards the game allows
        that are in none of its melds; False when there is none."""
        if not knocking:
            state.apply_action(KNOCK)
        if move.ending == "big_gin":
            discard = PASS
        else:
            melded = {card_to_openspiel(c) for meld in move.melds for c in scan(meld)}
            allowed = [a for a in state.legal_actions() if a < 52 and a not in melded]
            if not allowed:
                return False
            discard = self.rng.choice(allowed)
        for action in (discard, *_meld_actions(move.melds), PASS):
            state.apply_action(action)
        return True

    # -- the bot's actions, as the table's moves --------------------------------------------------

    def _decide(self, bot: Any, state: Any, knocking: bool, view: View, legal: Sequence[Move]) -> Move:
        if knocking:
            return self._knock(bot, state, view)
        action = int(bot.step(state))
        phase = view.phase
        if action == DRAW_STOCK:
            return Move.draw()
        if action == DRAW_UPCARD:
            return Move.take()
        if action == KNOCK:
            if phase is Phase.WALL:  # OpenSpiel's knock at the wall takes the discard first
                return Move.take()
            state.apply_action(action)
            return self._knock(bot, state, view)
        if phase is Phase.DEFENCE:
            if action >= MELD_BASE:  # no layoffs here (onto gin): the melds at once
                return Move.finish(self._melds(bot, state, action), bare=True)
            if action == PASS:
                player = state.current_player()
                state.apply_action(action)
                if state.is_terminal() or state.current_player() != player:
                    return Move.finish(bare=True)  # no layoff allowed, no meld shown
                return Move.finish(self._melds(bot, state), bare=True)
            return _layoff(card_from_openspiel(action), view, legal)
        if action == PASS:
            return Move.pass_()
        if action < 52:
            return Move.discard(card_from_openspiel(action))
        raise GinrefError(f"the bot chose action {action}, which is no move here")

    def _knock(self, bot: Any, state: Any, view: View) -> Move:
        """The steps of a knock after ``knock``: the discard (pass: none, big gin), the melds."""
        action = int(bot.step(state))
        state.apply_action(action)
        discard = None if action == PASS else card_from_openspiel(action)
        melds = self._melds(bot, state)
        if discard is None:
            return Move.knock(None, melds, "big_gin")
        left = view.hand.mask & ~(1 << discard) & ~mask_of(c for meld in melds for c in scan(meld))
        return Move.knock(discard, melds, "gin" if not left else "knock")

    @staticmethod
    def _melds(bot: Any, state: Any, first: int | None = None) -> tuple[Mask, ...]:
        """Melds laid one action at a time (``first`` already chosen), until the bot passes."""
        melds = []
        action = int(bot.step(state)) if first is None else first
        while action != PASS:
            if action < MELD_BASE:
                raise GinrefError(f"the bot chose action {action} where a meld or pass goes")
            state.apply_action(action)
            melds.append(MELDS[action - MELD_BASE])
            action = int(bot.step(state))
        state.apply_action(action)
        return tuple(melds)


def _seen(words: str) -> Move:
    """A move as the other seat sees it: a knock's words name no discard."""
    head, _, rest = words.partition(" ")
    if head in ("knock", "gin", "big_gin") and (not rest or rest.lstrip().startswith("[")):
        melds = Move.parse(f"finish {rest}").melds if rest else ()
        return Move.knock(None, melds, head)  # type: ignore[arg-type]
    return Move.parse(words)


def _layoff(card: Card, view: View, legal: Sequence[Move]) -> Move:
    """The layoff of ``card``. OpenSpiel names the card only; where it fits more than one meld,
    the meld after which more of the seat's other cards still fit (a run that grows rather than
    a set that is full), so that a later layoff OpenSpiel allows (by laying the earlier card on
    the other meld) is one the table allows too."""
    melds = [meld.mask for meld in view.melds]
    for laid, onto in view.layoffs:
        melds[onto] |= 1 << laid
    others = [c for c in scan(view.hand.mask) if c != card]
    options = [m for m in legal if m.kind == "layoff" and m.card == card]
    if not options:
        raise GinrefError(f"the bot laid off {card}, which no meld takes here")
    return max(options, key=lambda m: sum(fits(melds[m.onto] | 1 << card, c) for c in others))


def _meld_actions(melds: Sequence[Mask]) -> list[int]:
    """The actions laying ``melds``: a run longer than OpenSpiel's five cards is laid as runs
    of three to five."""
    actions = []
    for meld in melds:
        cards = list(scan(meld))
        if meld not in MELD_IDS:  # a long run, ascending: threes, then the three to five left
            while len(cards) > 5:
                actions.append(MELD_BASE + MELD_IDS[mask_of(cards[:3])])
                cards = cards[3:]
        actions.append(MELD_BASE + MELD_IDS[mask_of(cards)])
    return actions


def _actions(state: Any, move: Move, drawn: Card | None, knocking: bool) -> list[int]:
    """The OpenSpiel actions of one table move in ``state``: a draw with the card it brings, a
    take at the wall as OpenSpiel's knock, a knock's steps, a defence's finish as pass, its
    melds, pass."""
    kind = move.kind
    if kind == "pass":
        return [PASS]
    if kind == "take":
        return [DRAW_UPCARD] if DRAW_UPCARD in state.legal_actions() else [KNOCK]
    if kind == "draw":
        if drawn is None:
            raise GinrefError("a stock draw whose card is not known")
        return [DRAW_STOCK, card_to_openspiel(drawn)]
    if kind == "discard" and move.card is not None:
        return [card_to_openspiel(move.card)]
    if kind == "layoff" and move.card is not None:
        return [card_to_openspiel(move.card)]
    melds = _meld_actions(move.melds)
    if kind == "knock":
        discard = PASS if move.card is None else card_to_openspiel(move.card)
        return [*(() if knocking else (KNOCK,)), discard, *melds, PASS]
    if kind == "finish":
        return [PASS, *melds, PASS]
    raise GinrefError(f"no OpenSpiel action for {move}")
