"""A seeded random player: complete legal hands and games under any rule set, as records.

The player is not clever, only legal and varied: it shuffles and deals, follows
the first-turn rule, draws from the stock or the discard pile at random, knocks
when it may (sometimes withholding a meld while still within the limit), goes
gin or big gin, plays the stock end per the rules (void, OpenSpiel's wall, the
50th discard draw, a repeated discard), and records the defence or leaves it
to the referee. The claimed result, running totals, next dealer and final
totals are filled in from the real outcome, so a clean record verifies clean.

:func:`corrupt` then breaks a record in one known way and names the finding
code the referee must produce; together they test the referee both ways.

>>> from ginref.referee import adjudicate
>>> record = random_game(7, "standard")
>>> adjudicate(record).clean
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ginref import game
from ginref.cards import Card, Mask, mask_of, scan
from ginref.layoffs import best_defence
from ginref.melds import (
    Meld,
    MeldSystem,
    is_meld,
    min_deadwood,
    min_deadwood_after_discard,
    optimal_arrangements,
)
from ginref.records import (
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Turn,
)
from ginref.referee import adjudicate
from ginref.referee.table import Move, Phase, Table
from ginref.referee.verdict import HandVerdict
from ginref.rules import Rules, find_rules
from ginref.scoring import Ending

__all__ = [
    "CORRUPTIONS",
    "PLAYERS",
    "Style",
    "corrupt",
    "play_game",
    "play_hand",
    "random_game",
    "random_hand",
]

PLAYERS = ("Ann", "Bo")


def _changed(value: Any, **changes: Any) -> Any:
    """``value`` with ``changes``: records and events are msgspec Structs."""
    return msgspec.structs.replace(value, **changes)


@dataclass(frozen=True, slots=True)
class Style:
    """How one hand is played and recorded; drawn at random per hand unless given."""

    discard_draw: float = 0.3
    """chance to draw from the discard pile (when it may)"""
    knock: float = 0.7
    """chance to knock when a knock is legal (gin and big gin: 0.9)"""
    withhold: float = 0.15
    """chance to withhold a meld from a knock that stays within the limit"""
    same_card: float = 0.1
    """chance to discard the card just taken, where the rules allow it"""
    record_stock: float = 0.5
    """chance to record the stock order"""
    record_defence: float = 0.6
    """chance to record the defender's spread (else the referee works it out)"""
    skip_layoffs: float = 0.1
    """chance that a recorded defence lays nothing off (a legal, poor choice)"""
    announce: float = 0.6
    """chance to announce deadwood totals"""
    hide_draws: bool = False
    """record stock draws as unseen (card None) when the stock order is not recorded"""

    @classmethod
    def random(cls, rng: random.Random, *, hide_draws: bool = False) -> Style:
        return cls(
            discard_draw=rng.choice((0.05, 0.2, 0.35, 0.6, 0.9)),
            knock=rng.choice((0.2, 0.6, 0.9, 1.0)),
            withhold=rng.choice((0.0, 0.2, 0.5)),
            same_card=rng.choice((0.0, 0.1, 0.5)),
            record_stock=0.5,
            record_defence=0.6,
            skip_layoffs=0.1,
            announce=0.6,
            hide_draws=hide_draws,
        )


@dataclass(frozen=True, slots=True)
class _Ruling:
    """The real outcome of a played hand (what the record then claims)."""

    outcome: str
    winner: str | None
    points: int
    knocker: str | None
    multiplier: int


def _rules(rules: Rules | str) -> Rules:
    return find_rules(rules) if isinstance(rules, str) else rules


def play_hand(
    rng: random.Random,
    rules: Rules | str,
    dealer: str,
    players: tuple[str, str] = PLAYERS,
    *,
    style: Style | None = None,
    styles: Mapping[str, Style] | None = None,
    number: int | None = None,
    line: int = 1,
) -> tuple[HandRecord, game.HandEntry]:
    """Play one hand at random at a :class:`~ginref.referee.table.Table`; return its record
    (the claims as the table ruled them) and its game entry.

    The player keeps no rules of its own: what it may do is what the table's ``legal_moves()``
    offers (the same-card rule, the knock limit, the wall, the stock's end), and the hand's end
    is the table's. ``styles`` gives a player its own way of playing (its draws, knocks and
    defence; the record is kept by ``style``), as agents of a tournament. ``line`` numbers the
    record's places: the hand at ``line``, events after it.
    """
    rules = _rules(rules)
    style = style or Style.random(rng)
    deck = list(range(52))
    rng.shuffle(deck)
    table = Table(players, rules, dealer, deck=deck)
    play = _Play(table, rng, style, styles or {})
    record_stock = rng.random() < style.record_stock
    play.opening()
    while not table.is_over():
        play.turn()
    ruled = table.outcome()
    assert ruled is not None
    hand = _as_recorded(table.record().hands[0], ruled, play, record_stock, number, line)
    entry = game.HandEntry(ruled.winner, ruled.points, ruled.outcome, ruled.knocker, ruled.multiplier)
    return hand, entry


class _Play:
    """One hand's player, both seats: each choice drawn from ``rng`` among the table's legal moves."""

    def __init__(self, table: Table, rng: random.Random, style: Style, styles: Mapping[str, Style]) -> None:
        self.table = table
        self.rng = rng
        self.style = style
        self.styles = styles
        self.defence_shown = True
        """whether the record shows the defence (else the referee works it out)"""

    def style_of(self, who: str) -> Style:
        return self.styles.get(who, self.style)

    def hand(self, who: str) -> Mask:
        return self.table.view(who).hand.mask

    def moves(self, kind: str) -> list[Move]:
        return [m for m in self.table.legal_moves() if m.kind == kind]

    def opening(self) -> None:
        """The first upcard: each player in turn takes it when it helps (now and then when not)."""
        table, system = self.table, self.table.system
        while table.phase is Phase.UPCARD:
            who = table.to_move or ""
            upcard = table.view(who).upcard
            assert upcard is not None
            held = self.hand(who)
            better = min_deadwood_after_discard(held | 1 << upcard, system) < min_deadwood(held, system)
            if self.rng.random() < (0.6 if better else 0.08):
                table.push(Move.take())
                self.end_turn(who, upcard)
                return
            table.push(Move.pass_())

    def turn(self) -> None:
        """A turn: the draw the table allows and the style picks, then a knock or a discard."""
        table = self.table
        if table.phase is Phase.WALL:
            self.wall()
            return
        who = table.to_move or ""
        taken = -1
        if table.phase is Phase.DRAW:
            takes = bool(self.moves("take"))
            if takes and self.rng.random() < self.style_of(who).discard_draw:
                table.push(Move.take())
                taken = table.view(who).taken if table.view(who).taken is not None else -1  # type: ignore[assignment]
            else:
                table.push(Move.draw())
            if table.is_over():
                return  # the last draw the rules allow from the discard pile
        self.end_turn(who, taken)

    def end_turn(self, who: str, taken: int) -> None:
        if not self.try_knock(who):
            self.table.push(Move.discard(self.choose_discard(who, taken)))

    def choose_discard(self, who: str, taken: int) -> Card:
        options = [m.card for m in self.moves("discard") if m.card is not None]
        rng = self.rng
        if taken >= 0 and taken in options and rng.random() < self.style_of(who).same_card:
            return taken
        if rng.random() < 0.7:
            held, system = self.hand(who), self.table.system
            scored = [(min_deadwood(held & ~(1 << c), system), c) for c in options]
            low = min(score for score, _ in scored)
            return rng.choice([c for score, c in scored if score == low])
        return rng.choice(options)

    def try_knock(self, who: str) -> bool:
        """Knock now if the table allows it and the style wants to."""
        knocks = self.moves("knock")
        rng = self.rng
        if any(m.ending == "big_gin" for m in knocks) and rng.random() < 0.9:
            self.knock(who, None)
            return True
        options = [m.card for m in knocks if m.card is not None]
        if not options:
            return False
        gin = [m.card for m in knocks if m.ending == "gin" and m.card is not None]
        if gin and rng.random() < 0.9:
            self.knock(who, rng.choice(gin))
            return True
        if rng.random() < self.style_of(who).knock:
            self.knock(who, rng.choice(options))
            return True
        return False

    def knock(self, who: str, discard: Card | None) -> None:
        """Knock with any least-deadwood arrangement, the melds in any order, now and then one
        of them withheld where the table takes the knock without it; then the defence."""
        table, rng = self.table, self.rng
        held = self.hand(who)
        kept = held if discard is None else held & ~(1 << discard)
        melds = [m.mask for m in rng.choice(optimal_arrangements(kept, table.system)).melds]
        may_withhold = discard is not None and melds and not table.rules.knocker_must_meld_max
        if may_withhold and rng.random() < self.style_of(who).withhold:
            m = rng.choice(melds)
            kept_back = [x for x in melds if x != m]
            if table.is_legal(Move.knock(discard, tuple(kept_back), "knock")):
                melds = kept_back
        rng.shuffle(melds)
        dead = kept & ~mask_of(c for m in melds for c in scan(m))
        ending: Ending = "big_gin" if discard is None else "knock" if dead else "gin"
        self.announced_knock = rng.random() < self.style.announce
        table.push(Move.knock(discard, tuple(melds), ending))
        self.defend(table.to_move or "")

    def defend(self, who: str) -> None:
        """The defender's best response (its layoffs, then its melds); a recorded defence now
        and then lays nothing off (a legal, poor choice)."""
        table, rng = self.table, self.rng
        view = table.view(who)
        knocker_melds = [m.mask for m in view.melds]
        best = best_defence(view.hand.mask, [Meld(m) for m in knocker_melds], table.rules,
                            allow_layoffs=table.layoffs_allowed)
        own = [m.mask for m in best.arrangement.melds]
        layoffs = [Move.layoff(lay.card, knocker_melds.index(lay.onto.mask)) for lay in best.layoffs]
        own_style = self.style_of(who)
        self.defence_shown = rng.random() < own_style.record_defence
        if self.defence_shown:
            if layoffs and rng.random() < own_style.skip_layoffs:
                layoffs = []
            rng.shuffle(own)
            self.announced_defence = rng.random() < self.style.announce
        for move in layoffs:
            table.push(move)
        table.push(Move.finish(tuple(own), bare=not own))

    def wall(self) -> None:
        """The stock at its floor: in turn, take the last discard (to knock, or where the rules
        allow it, to play on) or pass, which ends the hand; a few turns at most."""
        table, rng = self.table, self.rng
        for _ in range(8):
            who = table.to_move or ""
            top = table.view(who).pile[-1]
            took = table.is_legal(Move.take())
            if took:
                table.push(Move.take())
            if took and self.moves("knock") and rng.random() < 0.8 and self.try_knock(who):
                return
            play_on = took and bool(self.moves("discard"))
            if not play_on or rng.random() < 0.4:
                if took:
                    table.pop()
                break
            x = self.choose_discard(who, top)
            if x == top and table.rules.repeat_discard_draw:
                x = next(m.card for m in self.moves("discard") if m.card is not None and m.card != top)
            table.push(Move.discard(x))
        table.push(Move.pass_())


def _as_recorded(
    hand: HandRecord, ruled: HandVerdict, play: _Play, record_stock: bool, number: int | None, line: int
) -> HandRecord:
    """The table's record of a hand, kept in the player's style: the stock's order and the cards
    drawn from it shown or not, the defence shown or left to the referee, the deadwood announced
    or not; the deal in card order; every event placed on a line of its own."""
    style = play.style
    hide = style.hide_draws and not record_stock
    events: list[Event] = []
    for event in hand.events:
        at = Place(line=line + 1 + len(events), column=1)
        if type(event) is Turn:
            shown = None if hide and event.source == "stock" else event.card
            knock = event.knock
            if knock is not None:
                announced = ruled.knocker_deadwood if play.announced_knock else None
                knock = _changed(knock, deadwood=announced, place=at)
            events.append(_changed(event, card=shown, knock=knock, place=at))
        elif type(event) is Defence:
            if play.defence_shown:
                said = ruled.defender_deadwood if play.announced_defence else None
                events.append(_changed(event, deadwood=said, place=at))
        else:
            events.append(_changed(event, place=at))
    assert hand.result is not None
    result = _changed(hand.result, place=Place(line=line + 2 + len(events), column=1))
    dealt = dict(hand.deal)
    deal = tuple((name, tuple(sorted(dealt[name]))) for name in play.table.players)
    return _changed(hand, deal=deal, events=tuple(events), stock=hand.stock if record_stock else None,
                    result=result, number=number, place=Place(line=line, column=1), score_after=None,
                    next_dealer=None)


def _dealt(deck: Sequence[Card], who: int, dealer: int, first: int) -> Mask:
    if who != dealer:
        return mask_of(deck[:first])
    return mask_of(deck[first:first + 10])


def play_game(
    rng: random.Random,
    rules: Rules | str = "standard",
    players: tuple[str, str] = PLAYERS,
    *,
    first_dealer: str | None = None,
    max_hands: int = 100,
    hide_draws: bool = False,
    styles: Mapping[str, Style] | None = None,
) -> GameRecord:
    """Play hands until the game is over (or ``max_hands``), claims filled in from the truth;
    ``styles``: each player's own way of playing (:func:`play_hand`)."""
    rules = _rules(rules)
    dealer = first_dealer or rng.choice(players)
    first = dealer
    hands: list[HandRecord] = []
    entries: list[game.HandEntry] = []
    line = 1
    hollywood = rules.hollywood_columns > 0 and not rules.single_hand
    over = False
    final: dict[str, int] = dict.fromkeys(players, 0)
    while not over and len(hands) < max_hands:
        style = Style.random(rng, hide_draws=hide_draws)
        record, entry = play_hand(rng, rules, dealer, players, style=style, styles=styles,
                                  number=len(hands) + 1, line=line)
        entries.append(entry)
        if hollywood:
            match = game.hollywood(players, entries, rules, first)
            running = dict.fromkeys(players, 0)
            for e in entries:
                if e.winner is not None:
                    running[e.winner] += e.points
            totals, next_dealer = running, match.hands[-1].next_dealer
            over, final = match.match_over, dict(match.match_totals)
        else:
            scored = game.tally(players, entries, rules, first)
            totals, next_dealer = dict(scored.hands[-1].totals), scored.hands[-1].next_dealer
            over, final = scored.game_over, dict(scored.final_totals)
        record = _changed(
            record, score_after=tuple(totals.items()), next_dealer=next_dealer,
        )
        hands.append(record)
        line = record.place.line + len(record.events) + 4
        assert next_dealer is not None
        dealer = next_dealer
    return GameRecord(
        players=players,
        hands=tuple(hands),
        rules=rules.name,
        overrides=rules.overrides,
        final_totals=tuple(final.items()),
        source="randomplay",
        place=Place(line=0),
    )


def random_game(
    seed: int,
    rules: Rules | str = "standard",
    *,
    players: tuple[str, str] = PLAYERS,
    first_dealer: str | None = None,
    max_hands: int = 100,
    hide_draws: bool = False,
) -> GameRecord:
    """A whole random game from ``seed`` (see :func:`play_game`)."""
    return play_game(random.Random(seed), rules, players, first_dealer=first_dealer,
                     max_hands=max_hands, hide_draws=hide_draws)


def random_hand(seed: int, rules: Rules | str = "standard") -> GameRecord:
    """A record of one random hand from ``seed`` (claims filled in, no final totals)."""
    rng = random.Random(seed)
    rules = _rules(rules)
    record, entry = play_hand(rng, rules, rng.choice(PLAYERS), PLAYERS)
    scored = game.tally(PLAYERS, [entry], rules, record.dealer)
    record = _changed(
        record, score_after=tuple(scored.hands[0].totals.items()),
        next_dealer=scored.hands[0].next_dealer,
    )
    return GameRecord(PLAYERS, (record,), rules=rules.name, overrides=rules.overrides,
                      source="randomplay")


# -- corruptions ------------------------------------------------------------------------

_Done = tuple[GameRecord, str] | None
Corruption = Callable[[GameRecord, random.Random, Rules], _Done]


def _with_hand(record: GameRecord, index: int, hand: HandRecord) -> GameRecord:
    hands = list(record.hands)
    hands[index] = hand
    return _changed(record, hands=tuple(hands))


def _with_events(record: GameRecord, index: int, events: Sequence[Event]) -> GameRecord:
    return _with_hand(record, index, _changed(record.hands[index], events=tuple(events)))


def _final_hands(hand: HandRecord, players: tuple[str, str]) -> tuple[Mask, Mask] | None:
    """Both players' cards at the end of a legal, fully recorded hand (None if unseen cards)."""
    held = [mask_of(hand.dealt(players[0])), mask_of(hand.dealt(players[1]))]
    pile = [] if hand.upcard is None else [hand.upcard]
    pos = 0
    for ev in hand.events:
        if not isinstance(ev, Turn):
            continue
        p = players.index(ev.player)
        c = ev.card
        if ev.source == "stock":
            if c is None:
                if hand.stock is None:
                    return None
                c = hand.stock[pos]
            pos += 1
        elif ev.source == "discard":
            c = pile.pop()
        if c is not None:
            held[p] |= 1 << c
        discard = ev.knock.discard if ev.knock is not None else ev.discard
        if discard is not None:
            held[p] &= ~(1 << discard)
            if ev.knock is None:
                pile.append(discard)
    return held[0], held[1]


def _hands_where(record: GameRecord, test: Callable[[HandRecord], bool]) -> list[int]:
    return [i for i, hand in enumerate(record.hands) if test(hand)]


def _knock_turn(hand: HandRecord) -> int:
    for j, ev in enumerate(hand.events):
        if isinstance(ev, Turn) and ev.knock is not None:
            return j
    return -1


def _first_turn(record: GameRecord, rng: random.Random) -> tuple[int, int] | None:
    """A random hand's first turn, as (hand index, event index); None if no hand has a turn."""
    options = []
    for i, hand in enumerate(record.hands):
        for j, ev in enumerate(hand.events):
            if isinstance(ev, Turn):
                options.append((i, j))
                break
    return rng.choice(options) if options else None


def _knock_turns(record: GameRecord) -> Iterator[tuple[int, HandRecord, int, Turn, Knock]]:
    """Each hand's knocking turn: (hand index, the hand, event index, the turn, its knock)."""
    for i, hand in enumerate(record.hands):
        j = _knock_turn(hand)
        if j >= 0:
            turn = hand.events[j]
            assert isinstance(turn, Turn) and turn.knock is not None
            yield i, hand, j, turn, turn.knock


def _c_card_not_in_hand(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    picked = _first_turn(record, rng)
    if picked is None:
        return None
    i, j = picked
    hand = record.hands[i]
    turn = hand.events[j]
    assert isinstance(turn, Turn)
    other = record.players[1] if turn.player == record.players[0] else record.players[0]
    wrong = rng.choice(hand.dealt(other))
    if turn.knock is not None:
        if turn.knock.discard is None:
            return None
        new: Turn = _changed(turn, knock=_changed(turn.knock, discard=wrong))
    else:
        new = _changed(turn, discard=wrong)
    events = list(hand.events)
    events[j] = new
    return _with_events(record, i, events), "card_not_in_hand"


def _c_wrong_turn(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = []
    for i, hand in enumerate(record.hands):
        ev = hand.events
        for j in range(len(ev) - 1):
            a, b = ev[j], ev[j + 1]
            if isinstance(a, (Turn, Pass)) and isinstance(b, (Turn, Pass)) and a.player != b.player:
                options.append((i, j))
    if not options:
        return None
    i, j = rng.choice(options)
    events = list(record.hands[i].events)
    events[j], events[j + 1] = events[j + 1], events[j]
    return _with_events(record, i, events), "wrong_turn"


def _c_wrong_score(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = _hands_where(record, lambda h: h.result is not None)
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    assert hand.result is not None
    result = _changed(hand.result, points=hand.result.points + rng.randint(1, 9))
    return _with_hand(record, i, _changed(hand, result=result)), "wrong_score"


def _c_wrong_result(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = _hands_where(record, lambda h: h.result is not None)
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    claim = hand.result
    assert claim is not None
    a, b = record.players
    if claim.winner is None:
        new = _changed(claim, outcome="knock", winner=rng.choice((a, b)))
    else:
        new = _changed(claim, winner=b if claim.winner == a else a)
    return _with_hand(record, i, _changed(hand, result=new)), "wrong_result"


def _c_deadwood_misdeclared(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    rulings = adjudicate(record, rules).hands
    options = [
        (i, ruling.knocker_deadwood)
        for i, (hand, ruling) in enumerate(zip(record.hands, rulings, strict=False))
        if _knock_turn(hand) >= 0 and ruling.knocker_deadwood is not None
    ]
    if not options:
        return None
    i, deadwood = rng.choice(options)
    hand = record.hands[i]
    j = _knock_turn(hand)
    turn = hand.events[j]
    assert isinstance(turn, Turn) and turn.knock is not None
    events = list(hand.events)
    events[j] = _changed(
        turn, knock=_changed(turn.knock, deadwood=deadwood + rng.choice((1, 2, 5)))
    )
    return _with_events(record, i, events), "deadwood_misdeclared"


def _defence_index(hand: HandRecord) -> int:
    for j, ev in enumerate(hand.events):
        if isinstance(ev, Defence):
            return j
    return -1


def _c_illegal_layoff(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    if not rules.layoff_on_knock:
        return None  # no layoff onto a knock at all (RLCard): any is layoff_on_gin, fit or not
    options = []
    for i, hand, j, turn, knock in _knock_turns(record):
        if knock.ending != "knock" or not knock.melds:
            continue
        final = _final_hands(hand, record.players)
        if final is None:
            continue
        q = 1 - record.players.index(turn.player)
        defender = final[q]
        k = _defence_index(hand)
        if k >= 0:
            defence = hand.events[k]
            assert isinstance(defence, Defence)
        else:
            best = best_defence(defender, [Meld(m) for m in knock.melds], rules)
            defence = Defence(
                record.players[q], tuple(m.mask for m in best.arrangement.melds),
                tuple((lay.card, knock.melds.index(lay.onto.mask)) for lay in best.layoffs),
            )
        used = mask_of(c for c, _ in defence.layoffs)
        for m in defence.melds:
            used |= m
        for c in scan(defender & ~used):
            for at, meld in enumerate(knock.melds):
                # a card of another suit and rank can never join this meld, chain or not
                if all(x % 13 != c % 13 and x // 13 != c // 13 for x in scan(meld)):
                    options.append((i, j, k, _changed(
                        defence, layoffs=(*defence.layoffs, (c, at)))))
    if not options:
        return None
    i, j, k, defence = rng.choice(options)
    events = list(record.hands[i].events)
    if k >= 0:
        events[k] = defence
    else:
        events.insert(j + 1, defence)
    return _with_events(record, i, events), "illegal_layoff"


def _c_knock_over_limit(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = []
    for i, _, j, _, knock in _knock_turns(record):
        if knock.discard is not None:
            options.append((i, j))
    if not options:
        return None
    i, j = rng.choice(options)
    hand = record.hands[i]
    turn = hand.events[j]
    assert isinstance(turn, Turn) and turn.knock is not None
    knock = _changed(turn.knock, ending="knock", melds=(), deadwood=None)
    events: list[Event] = [ev for ev in hand.events if not isinstance(ev, Defence)]
    events[j] = _changed(turn, knock=knock)
    return _with_events(record, i, events), "knock_over_limit"


def _c_stock_draw_mismatch(
    record: GameRecord, rng: random.Random, rules: Rules
) -> _Done:
    options = []
    for i, hand in enumerate(record.hands):
        if hand.stock is None:
            continue
        pos = 0
        for j, ev in enumerate(hand.events):
            if isinstance(ev, Turn) and ev.source == "stock":
                if pos + 1 < len(hand.stock):
                    options.append((i, j, pos))
                pos += 1
    if not options:
        return None
    i, j, pos = rng.choice(options)
    hand = record.hands[i]
    assert hand.stock is not None
    turn = hand.events[j]
    assert isinstance(turn, Turn)
    wrong = rng.choice(hand.stock[pos + 1:])
    events = list(hand.events)
    events[j] = _changed(turn, card=wrong)
    return _with_events(record, i, events), "stock_draw_mismatch"


def _c_same_card_discard(
    record: GameRecord, rng: random.Random, rules: Rules
) -> _Done:
    if not rules.no_same_card_discard:
        return None
    options = [
        (i, j)
        for i, hand in enumerate(record.hands)
        for j, ev in enumerate(hand.events)
        if isinstance(ev, Turn) and ev.source == "discard" and ev.knock is None
        and ev.discard is not None and ev.card is not None
    ]
    if not options:
        return None
    i, j = rng.choice(options)
    turn = record.hands[i].events[j]
    assert isinstance(turn, Turn)
    events = list(record.hands[i].events)
    events[j] = _changed(turn, discard=turn.card)
    return _with_events(record, i, events), "same_card_discard"


def _ends_on_stock(hand: HandRecord, rules: Rules) -> bool:
    """A hand that ended void at the stock floor under ``stock_end = "void"``."""
    return (
        rules.stock_end == "void" and hand.result is not None and hand.result.outcome == "void"
        and bool(hand.events) and isinstance(hand.events[-1], Turn)
        and hand.events[-1].discard is not None
        and _stock_draws(hand) == 31 - rules.stock_floor
    )


def _stock_draws(hand: HandRecord) -> int:
    return sum(1 for ev in hand.events if isinstance(ev, Turn) and ev.source == "stock")


def _extra_turn(record: GameRecord, hand: HandRecord) -> Turn:
    last = hand.events[-1]
    who = last.player
    other = record.players[1] if who == record.players[0] else record.players[0]
    return Turn(other, "stock", None, hand.dealt(other)[0], place=Place(line=9999, column=1))


def _c_moves_after_end(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = _hands_where(
        record, lambda h: bool(h.events) and h.result is not None and not _ends_on_stock(h, rules)
        and (h.result.outcome != "void" or _ended_early(h, rules)),
    )
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    return _with_events(record, i, (*hand.events, _extra_turn(record, hand))), "moves_after_end"


def _ended_early(hand: HandRecord, rules: Rules) -> bool:
    """A void hand that ended by a rule other than the plain stock floor (wall, draw caps)."""
    last = hand.events[-1] if hand.events else None
    if isinstance(last, Pass):
        return True  # a pass at the wall
    if isinstance(last, Turn) and last.discard is None and last.knock is None:
        return True  # the capped discard draw
    return rules.repeat_discard_draw and _stock_draws(hand) < 31 - rules.stock_floor


def _c_stock_exhausted(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = _hands_where(record, lambda h: _ends_on_stock(h, rules))
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    return _with_events(record, i, (*hand.events, _extra_turn(record, hand))), "stock_exhausted"


def _c_incomplete_hand(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = [(i, _knock_turn(h)) for i, h in enumerate(record.hands) if _knock_turn(h) >= 0]
    if not options:
        return None
    i, j = rng.choice(options)
    cut = rng.randint(0, j)
    return _with_events(record, i, record.hands[i].events[:cut]), "incomplete_hand"


def _c_not_top_discard(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = [
        (i, j)
        for i, hand in enumerate(record.hands)
        for j, ev in enumerate(hand.events)
        if isinstance(ev, Turn) and ev.source == "discard" and ev.card is not None
    ]
    if not options:
        return None
    i, j = rng.choice(options)
    turn = record.hands[i].events[j]
    assert isinstance(turn, Turn) and turn.card is not None
    wrong = (turn.card + rng.randint(1, 51)) % 52
    events = list(record.hands[i].events)
    events[j] = _changed(turn, card=wrong)
    return _with_events(record, i, events), "not_top_discard"


def _c_wrong_dealer(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = _hands_where(record, lambda h: h.next_dealer is not None)
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    a, b = record.players
    wrong = b if hand.next_dealer == a else a
    return _with_hand(record, i, _changed(hand, next_dealer=wrong)), "wrong_dealer"


def _c_duplicate_card(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    if not record.hands:
        return None
    i = rng.randrange(len(record.hands))
    hand = record.hands[i]
    (a, cards_a), (b, cards_b) = hand.deal
    k = rng.randrange(len(cards_a))
    stolen = rng.choice(cards_b)
    cards = [*cards_a[:k], stolen, *cards_a[k + 1:]]
    deal = ((a, tuple(cards)), (b, cards_b))
    return _with_hand(record, i, _changed(hand, deal=deal)), "duplicate_card"


def _c_upcard_ritual(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    if rules.first_turn != "ritual":
        return None
    picked = _first_turn(record, rng)
    if picked is None:
        return None
    i, j = picked
    hand = record.hands[i]
    turn = hand.events[j]
    assert isinstance(turn, Turn)
    if turn.source == "discard":
        new = _changed(turn, source="stock", card=None)
    else:
        new = _changed(turn, source="discard", card=hand.upcard)
    events = list(hand.events)
    events[j] = new
    return _with_events(record, i, events), "upcard_ritual"


def _c_draw_from_empty_stock(
    record: GameRecord, rng: random.Random, rules: Rules
) -> _Done:
    if rules.stock_end != "last_discard_knock_only":
        return None
    options = _hands_where(
        record, lambda h: bool(h.events) and isinstance(h.events[-1], Pass) and _stock_draws(h) > 0
    )
    if not options:
        return None
    i = rng.choice(options)
    hand = record.hands[i]
    last = hand.events[-1]
    events = list(hand.events)
    events[-1] = Turn(last.player, "stock", None, hand.dealt(last.player)[0], place=last.place)
    return _with_events(record, i, events), "draw_from_empty_stock"


def _c_invalid_meld(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    system = MeldSystem.from_rules(rules)
    options = []
    for i, _, j, _, knock in _knock_turns(record):
        melds = knock.melds
        for a in range(len(melds)):
            for b in range(a + 1, len(melds)):
                if not is_meld(melds[a] | melds[b], system):
                    options.append((i, j, a, b))
    if not options:
        return None
    i, j, a, b = rng.choice(options)
    hand = record.hands[i]
    turn = hand.events[j]
    assert isinstance(turn, Turn) and turn.knock is not None
    spread = turn.knock.melds
    merged = spread[a] | spread[b]
    kept = [m for k, m in enumerate(spread) if k not in (a, b)] + [merged]
    events: list[Event] = [ev for ev in hand.events if not isinstance(ev, Defence)]
    events[j] = _changed(turn, knock=_changed(turn.knock, melds=tuple(kept)))
    return _with_events(record, i, events), "invalid_meld"


def _c_layoff_on_gin(record: GameRecord, rng: random.Random, rules: Rules) -> _Done:
    options = []
    for i, hand, j, turn, knock in _knock_turns(record):
        ending = knock.ending
        allowed = rules.layoff_on_gin if ending == "gin" else rules.layoff_on_big_gin
        if ending == "knock" or allowed or not knock.melds:
            continue
        final = _final_hands(hand, record.players)
        if final is None:
            continue
        q = 1 - record.players.index(turn.player)
        options.append((i, j, record.players[q], final[q]))
    if not options:
        return None
    i, j, defender, cards = rng.choice(options)
    hand = record.hands[i]
    c = rng.choice(list(scan(cards)))
    events: list[Event] = [ev for ev in hand.events if not isinstance(ev, Defence)]
    events.insert(j + 1, Defence(defender, (), ((c, 0),), None, Place(line=9998, column=1)))
    return _with_events(record, i, events), "layoff_on_gin"


CORRUPTIONS: dict[str, Corruption] = {
    "card_not_in_hand": _c_card_not_in_hand,
    "wrong_turn": _c_wrong_turn,
    "wrong_score": _c_wrong_score,
    "wrong_result": _c_wrong_result,
    "deadwood_misdeclared": _c_deadwood_misdeclared,
    "illegal_layoff": _c_illegal_layoff,
    "knock_over_limit": _c_knock_over_limit,
    "stock_draw_mismatch": _c_stock_draw_mismatch,
    "same_card_discard": _c_same_card_discard,
    "moves_after_end": _c_moves_after_end,
    "stock_exhausted": _c_stock_exhausted,
    "incomplete_hand": _c_incomplete_hand,
    "not_top_discard": _c_not_top_discard,
    "wrong_dealer": _c_wrong_dealer,
    "duplicate_card": _c_duplicate_card,
    "upcard_ritual": _c_upcard_ritual,
    "draw_from_empty_stock": _c_draw_from_empty_stock,
    "invalid_meld": _c_invalid_meld,
    "layoff_on_gin": _c_layoff_on_gin,
}
"""Every corruption by the finding code it must produce."""


def corrupt(
    record: GameRecord, rng: random.Random, rules: Rules | None = None, *, only: str | None = None
) -> tuple[GameRecord, str]:
    """Break ``record`` in one random way; return the broken record and the code it must produce.

    ``only`` picks one corruption by its code. Raises ``ValueError`` when no
    corruption (or not ``only``) applies to this record.
    """
    if rules is None:
        rules = find_rules(record.rules)
        if record.overrides:
            from ginref.rules import with_overrides

            rules = with_overrides(rules, dict(record.overrides))
    names = [only] if only is not None else list(CORRUPTIONS)
    rng.shuffle(names)
    for name in names:
        done = CORRUPTIONS[name](record, rng, rules)
        if done is not None:
            return done
    raise ValueError(f"no corruption applies to this record: {', '.join(names)}")
