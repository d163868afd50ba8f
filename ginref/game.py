"""Whole games: running totals, the end of the game, bonuses, the next dealer.

:func:`tally` scores one game from its finished hands (:class:`HandEntry`, one
per hand, as :func:`ginref.scoring.settle` or a score sheet gives them);
:func:`hollywood` scores the same hands as three simultaneous Hollywood games;
:func:`read_sheet` / :func:`parse_sheet` read a score sheet (grammar in
:mod:`ginref.notation`, section "score sheets") into hand entries.

How a game is scored (``shared/rules`` seed 000, seed 003, ``VARIANTS.md`` 7-10):

- Only the winner of a hand scores. The game ends at the end of the hand in
  which a player's *hand total* reaches ``game_target``; that player is the
  game ``winner`` and takes ``game_bonus``. ``game_target == 0`` is a single
  hand: over after one hand (a void one too), with no bonuses of any kind.
- Boxes: each hand won is one box; under Oklahoma an undercut adds
  ``extra_boxes_undercut`` and a gin or big gin ``extra_boxes_gin``. A hand
  doubled by a spade upcard (``multiplier`` 2) counts *all* its boxes twice
  when ``spade_double_boxes`` is on, and once otherwise. Both players get
  ``box_bonus`` per box when the game ends; those points never count toward
  the target. With ``box_timing = "immediate"`` the box bonus is credited to
  the hand total as the hand is won and does count toward the target.
- Shutout: the loser won no hand (seed 000: "did not win a single hand";
  seed 003: "didn't win a single hand"). ``game_bonus_200`` adds the game
  bonus a second time (100 becomes 200); ``double_total`` doubles the winner's
  whole final total (hands, game bonus and boxes); ``none`` adds nothing.
- The next dealer after a hand with a winner follows ``next_dealer``
  (winner, loser, or alternate: the other player from this hand's dealer);
  after a hand nobody won (void, a tie under ``tie_policy = "no_score"``, an
  illegal knock without a winner) it follows ``void_hand_dealer`` (same
  dealer, or the deal passes). A dealer that cannot be known (no first dealer
  given, and the rule needs one) is ``None``.
- Hands after the end of the game are an error: :class:`GameOverError`.

Score sheets (one line each; ``#`` starts a comment; keywords in any case)::

    players: Ann Bo          # required before the first hand (or players=...)
    rules: standard          # optional; the rules= argument (CLI --rules) wins
    dealer: Bo               # optional first dealer
    Ann knock 6 15           # knocker's deadwood, defender's after layoffs -> settle()
    Bo knock 8 5             # an undercut: 13 to Ann under standard
    Bo gin 22                # the opponent's deadwood only
    Ann big_gin 30           # only where the rules recognise big gin
    Ann wins 25 [undercut]   # points as scored elsewhere; outcome knock (default),
                             # gin, big_gin or undercut (for Oklahoma extra boxes)
    void                     # nobody scores
    Ann knock 6 15 spade     # flags: spade (a doubled Oklahoma hand) and/or
    Ann knock 6 15 upcard 7S # upcard CARD (sets the Oklahoma knock limit and doubling)

Headers come before the first hand, once each. A hand line is checked
against the rules: a knock over the knock limit or with no deadwood, big gin
where it is not a rule, a second count after gin, ``spade`` without spade
doubling, a hand after the end of the game are all errors, each a
:class:`~ginref.errors.RecordError` with its line and column. Points of a
``wins`` line are taken as written (``spade`` there only marks the boxes).

>>> t = tally(("Ann", "Bo"), [HandEntry("Ann", 60, "knock"), HandEntry("Ann", 45, "gin")], STANDARD)
>>> t.game_over, t.winner, t.final_totals
(True, 'Ann', {'Ann': 345, 'Bo': 0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pyparsing as pp

from ginref.cards import card_name, suit_of
from ginref.errors import GinrefError, NotationError, RecordError, RulingError, UnknownRulesError
from ginref.notation import SheetToken, parse_card, sheet_line_expr, sheet_name_expr
from ginref.rules import STANDARD, Rules, find_rules, with_overrides
from ginref.scoring import Ending, settle

__all__ = [
    "HAND_OUTCOMES",
    "HOLLYWOOD_GAMES",
    "Bonus",
    "GameError",
    "GameOverError",
    "GameTally",
    "HandEntry",
    "HollywoodHand",
    "HollywoodTally",
    "Sheet",
    "SheetHand",
    "TalliedHand",
    "hollywood",
    "parse_sheet",
    "read_sheet",
    "tally",
]

HAND_OUTCOMES = ("knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock")
"""What a finished hand can come to (the values of :class:`ginref.scoring.Outcome`)."""
_NO_WINNER_OUTCOMES = ("tie", "void", "illegal_knock")
HOLLYWOOD_GAMES = 3


class GameError(GinrefError, ValueError):
    """Hand entries that cannot be tallied; ``hand`` is the 1-based hand number (0 = none)."""

    def __init__(self, message: str, hand: int = 0) -> None:
        super().__init__(message)
        self.hand = hand


class GameOverError(GameError):
    """A hand entered after the game (or the Hollywood match) was over."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One finished hand: who won it, how, and the points it scored.

    ``points`` already include the gin/undercut/big gin bonus and any Oklahoma
    doubling; ``multiplier`` (2 for a spade-doubled hand) matters only for
    ``spade_double_boxes``. ``winner`` is ``None`` for a hand nobody won.
    """

    winner: str | None
    points: int
    outcome: str
    knocker: str | None = None
    multiplier: int = 1

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "points": self.points,
            "outcome": self.outcome,
            "knocker": self.knocker,
            "multiplier": self.multiplier,
        }


@dataclass(frozen=True, slots=True)
class Bonus:
    """One end-of-game bonus: ``kind`` is ``game``, ``box`` or ``shutout``."""

    kind: str
    points: int
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "points": self.points, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class TalliedHand:
    """One hand as the score sheet shows it, with the running totals after it."""

    number: int
    winner: str | None
    points: int
    outcome: str
    knocker: str | None
    multiplier: int
    boxes: int
    """boxes the winner earned with this hand (extra boxes and doubling included)"""
    box_points: int
    """box bonus credited to the hand total at once (``box_timing = "immediate"``), else 0"""
    totals: dict[str, int]
    """hand totals after this hand (immediate box points included)"""
    dealer: str | None
    next_dealer: str | None
    game_over: bool = False
    """True for the hand that ended the game"""

    def to_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "outcome": self.outcome,
            "knocker": self.knocker,
            "points": self.points,
            "multiplier": self.multiplier,
            "boxes": self.boxes,
            "box_points": self.box_points,
            "totals": dict(self.totals),
            "next_dealer": self.next_dealer,
            "game_over": self.game_over,
        }


@dataclass(frozen=True, slots=True)
class GameTally:
    """A scored game: every hand with running totals, then bonuses and the result.

    ``winner`` is the player whose hand total reached the target (for a single
    hand, the winner of that hand); it is ``None`` while the game is still on.
    ``leader`` has the higher final total and ``margin`` is the difference of
    the final totals; they can name different players only when the loser's
    box bonus outweighs the winner's game bonus (seed 000 makes the first to
    the target the winner, seed 003 "the higher final total").
    """

    players: tuple[str, str]
    rules: Rules
    first_dealer: str | None
    hands: tuple[TalliedHand, ...]
    hand_totals: dict[str, int]
    hands_won: dict[str, int]
    boxes: dict[str, int]
    bonuses: dict[str, tuple[Bonus, ...]]
    final_totals: dict[str, int]
    game_over: bool
    winner: str | None
    leader: str | None
    margin: int
    shutout: bool
    """the game is over and the loser won no hand (whatever ``rules.shutout`` pays for it)"""
    next_dealer: str | None

    def bonus_total(self, player: str) -> int:
        return sum(b.points for b in self.bonuses[player])

    def to_dict(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "rules": self.rules.label,
            "game_target": self.rules.game_target,
            "first_dealer": self.first_dealer,
            "hands": [hand.to_dict() for hand in self.hands],
            "hand_totals": dict(self.hand_totals),
            "hands_won": dict(self.hands_won),
            "boxes": dict(self.boxes),
            "bonuses": {p: [b.to_dict() for b in items] for p, items in self.bonuses.items()},
            "final_totals": dict(self.final_totals),
            "game_over": self.game_over,
            "winner": self.winner,
            "leader": self.leader,
            "margin": self.margin,
            "shutout": self.shutout,
            "next_dealer": self.next_dealer,
        }


# -- checks and small helpers -------------------------------------------------------------


def _other(players: tuple[str, str], player: str) -> str:
    return players[1] if player == players[0] else players[0]


def _names(players: tuple[str, str]) -> str:
    return f"{players[0]!r} and {players[1]!r}"


def _check_players(players: Sequence[str], first_dealer: str | None) -> tuple[str, str]:
    if len(players) != 2 or not all(isinstance(p, str) and p for p in players):
        raise GameError(f"a game needs two player names, got {tuple(players)!r}")
    if players[0] == players[1]:
        raise GameError(f"the two players need different names, got {players[0]!r} twice")
    pair = (players[0], players[1])
    if first_dealer is not None and first_dealer not in players:
        raise GameError(f"unknown first dealer {first_dealer!r}; the players are {_names(pair)}")
    return pair


def _check_entry(players: tuple[str, str], entry: HandEntry, number: int) -> None:
    def bad(message: str) -> GameError:
        return GameError(f"hand {number}: {message}", number)

    if entry.outcome not in HAND_OUTCOMES:
        raise bad(f"unknown outcome {entry.outcome!r}; choose from: {', '.join(HAND_OUTCOMES)}")
    if entry.winner is not None and entry.winner not in players:
        raise bad(f"unknown winner {entry.winner!r}; the players are {_names(players)}")
    if entry.knocker is not None and entry.knocker not in players:
        raise bad(f"unknown knocker {entry.knocker!r}; the players are {_names(players)}")
    if entry.points < 0:
        raise bad(f"points cannot be negative, got {entry.points}")
    if entry.multiplier < 1:
        raise bad(f"the multiplier must be 1 or more, got {entry.multiplier}")
    if entry.winner is None:
        if entry.outcome not in _NO_WINNER_OUTCOMES:
            raise bad(f"a {entry.outcome} hand needs a winner")
        if entry.points:
            raise bad(f"a hand nobody won cannot score {entry.points} points")
    elif entry.outcome in ("tie", "void"):
        raise bad(f"a {entry.outcome} hand has no winner, got {entry.winner!r}")


def _next_dealer(
    rules: Rules, players: tuple[str, str], dealer: str | None, winner: str | None
) -> str | None:
    if winner is None:
        if dealer is None or rules.void_hand_dealer == "same":
            return dealer
        return _other(players, dealer)
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return _other(players, winner)
    return None if dealer is None else _other(players, dealer)


def _hand_boxes(rules: Rules, entry: HandEntry) -> int:
    if entry.winner is None:
        return 0
    boxes = 1
    if entry.outcome == "undercut":
        boxes += rules.extra_boxes_undercut
    elif entry.outcome in ("gin", "big_gin"):
        boxes += rules.extra_boxes_gin
    if rules.spade_double_boxes:
        boxes *= entry.multiplier
    return boxes


def _leader(players: tuple[str, str], totals: dict[str, int]) -> str | None:
    a, b = players
    return a if totals[a] > totals[b] else b if totals[b] > totals[a] else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("x") else "s")


# -- one game -----------------------------------------------------------------------------


class _Game:
    """The running state of one game (private and mutable; results are frozen)."""

    def __init__(self, players: tuple[str, str], rules: Rules) -> None:
        self.players = players
        self.rules = rules
        self.totals = dict.fromkeys(players, 0)
        self.won = dict.fromkeys(players, 0)
        self.boxes = dict.fromkeys(players, 0)
        self.hands: list[TalliedHand] = []
        self.ender: str | None = None
        self.over = False

    def add(
        self, number: int, entry: HandEntry, dealer: str | None, next_dealer: str | None
    ) -> TalliedHand:
        rules = self.rules
        boxes = _hand_boxes(rules, entry)
        box_points = 0
        if entry.winner is not None:
            self.won[entry.winner] += 1
            self.boxes[entry.winner] += boxes
            if rules.box_timing == "immediate" and not rules.single_hand:
                box_points = boxes * rules.box_bonus
            self.totals[entry.winner] += entry.points + box_points
        reached = entry.winner is not None and self.totals[entry.winner] >= rules.game_target
        if rules.single_hand or reached:
            self.over, self.ender = True, entry.winner
        hand = TalliedHand(
            number, entry.winner, entry.points, entry.outcome, entry.knocker, entry.multiplier,
            boxes, box_points, dict(self.totals), dealer, next_dealer, self.over,
        )
        self.hands.append(hand)
        return hand

    def _bonuses(self) -> dict[str, list[Bonus]]:
        rules = self.rules
        items: dict[str, list[Bonus]] = {p: [] for p in self.players}
        if not self.over or rules.single_hand or self.ender is None:
            return items
        winner = self.ender
        loser = _other(self.players, winner)
        shutout = self.won[loser] == 0
        if rules.game_bonus:
            items[winner].append(
                Bonus("game", rules.game_bonus, f"game bonus for reaching {rules.game_target}")
            )
        if shutout and rules.shutout == "game_bonus_200" and rules.game_bonus:
            items[winner].append(Bonus(
                "shutout", rules.game_bonus,
                f"shutout: {loser} won no hand, so the game bonus counts twice",
            ))
        if rules.box_timing == "end" and rules.box_bonus:
            for player in self.players:
                if self.boxes[player]:
                    items[player].append(Bonus(
                        "box", self.boxes[player] * rules.box_bonus,
                        f"{_plural(self.boxes[player], 'box')} x {rules.box_bonus}",
                    ))
        if shutout and rules.shutout == "double_total":
            subtotal = self.totals[winner] + sum(b.points for b in items[winner])
            items[winner].append(Bonus(
                "shutout", subtotal,
                f"shutout: {loser} won no hand, so {winner}'s total {subtotal} is doubled",
            ))
        return items

    def result(self, first_dealer: str | None, next_dealer: str | None) -> GameTally:
        bonuses = self._bonuses()
        final = {p: self.totals[p] + sum(b.points for b in bonuses[p]) for p in self.players}
        a, b = self.players
        leader = _leader(self.players, final)
        shutout = (
            self.over and not self.rules.single_hand and self.ender is not None
            and self.won[_other(self.players, self.ender)] == 0
        )
        return GameTally(
            players=self.players,
            rules=self.rules,
            first_dealer=first_dealer,
            hands=tuple(self.hands),
            hand_totals=dict(self.totals),
            hands_won=dict(self.won),
            boxes=dict(self.boxes),
            bonuses={p: tuple(items) for p, items in bonuses.items()},
            final_totals=final,
            game_over=self.over,
            winner=self.ender if self.over else None,
            leader=leader,
            margin=abs(final[a] - final[b]),
            shutout=shutout,
            next_dealer=next_dealer,
        )


def _over_message(number: int, ended: int, what: str) -> str:
    return f"hand {number} comes after the end of the {what} (hand {ended})"


def tally(
    players: tuple[str, str],
    entries: Sequence[HandEntry],
    rules: Rules = STANDARD,
    first_dealer: str | None = None,
) -> GameTally:
    """Score one game: running totals, the end of the game, bonuses, next dealers.

    Raises :class:`GameError` for an entry that names someone else or cannot
    be (a void hand with a winner, negative points...) and
    :class:`GameOverError` for a hand after the end of the game.
    """
    players = _check_players(players, first_dealer)
    game = _Game(players, rules)
    dealer = first_dealer
    for number, entry in enumerate(entries, 1):
        _check_entry(players, entry, number)
        if game.over:
            raise GameOverError(_over_message(number, len(game.hands), "game"), number)
        following = _next_dealer(rules, players, dealer, entry.winner)
        game.add(number, entry, dealer, following)
        dealer = following
    return game.result(first_dealer, dealer)


# -- Hollywood ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HollywoodHand:
    """One hand of a Hollywood match: the games it was entered in and all three totals."""

    number: int
    winner: str | None
    points: int
    outcome: str
    knocker: str | None
    multiplier: int
    games: tuple[int, ...]
    """1-based games this hand's points were entered in (none for a hand nobody won)"""
    closed: tuple[int, ...]
    """games this hand ended"""
    totals: tuple[dict[str, int], ...]
    """hand totals of games 1-3 after this hand"""
    dealer: str | None
    next_dealer: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "outcome": self.outcome,
            "knocker": self.knocker,
            "points": self.points,
            "multiplier": self.multiplier,
            "games": list(self.games),
            "closed": list(self.closed),
            "totals": [dict(t) for t in self.totals],
            "next_dealer": self.next_dealer,
        }


@dataclass(frozen=True, slots=True)
class HollywoodTally:
    """Three simultaneous games scored from one series of hands.

    ``games`` holds one :class:`GameTally` per game over the hands entered in
    it (their hand numbers are the match's; dealers are tracked here, not per
    game). ``match_totals`` adds the three games' final totals; when all three
    games are over the ``winner`` is the player with the higher match total
    (each game settles by the difference of its final totals). ``games_won``
    counts the games each player took.
    """

    players: tuple[str, str]
    rules: Rules
    first_dealer: str | None
    hands: tuple[HollywoodHand, ...]
    games: tuple[GameTally, ...]
    match_over: bool
    games_won: dict[str, int]
    match_totals: dict[str, int]
    winner: str | None
    leader: str | None
    margin: int
    next_dealer: str | None

    @property
    def open_games(self) -> tuple[int, ...]:
        return tuple(i for i, g in enumerate(self.games, 1) if not g.game_over)

    def to_dict(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "rules": self.rules.label,
            "game_target": self.rules.game_target,
            "first_dealer": self.first_dealer,
            "hands": [hand.to_dict() for hand in self.hands],
            "games": [game.to_dict() for game in self.games],
            "match_over": self.match_over,
            "games_won": dict(self.games_won),
            "match_totals": dict(self.match_totals),
            "winner": self.winner,
            "leader": self.leader,
            "margin": self.margin,
            "next_dealer": self.next_dealer,
        }


def hollywood(
    players: tuple[str, str],
    entries: Sequence[HandEntry],
    rules: Rules = STANDARD,
    first_dealer: str | None = None,
) -> HollywoodTally:
    """Score hands as three simultaneous Hollywood games (``VARIANTS.md`` section 9).

    A player's first win goes into game 1, the second into games 1 and 2, the
    third and later wins into every open game. Put another way, each win is
    entered in every open game the player has already scored in, and starts
    the player in the lowest open game not yet scored in. This also applies
    the "shut-out shift" [P8, P11]: a player shut out of a closed game makes
    the next entry as the first score of the next open game. A game closes
    when a hand total in it reaches ``game_target``; later hands go only to
    open games. Each game gets its own game bonus, boxes (the hands entered in
    that game, with Oklahoma extras) and shutout (the loser has no hand
    entered in that game) under ``rules``, exactly as :func:`tally` scores a
    game. The match is over when all three games are; a further hand raises
    :class:`GameOverError`. The Game 4 extension [P8] is not played.
    """
    players = _check_players(players, first_dealer)
    if rules.game_target <= 0:
        raise GameError(
            f"Hollywood scoring needs a game target above 0 ({rules.label} plays one hand)"
        )
    games = [_Game(players, rules) for _ in range(HOLLYWOOD_GAMES)]
    started: dict[str, set[int]] = {p: set() for p in players}
    hands: list[HollywoodHand] = []
    dealer = first_dealer
    for number, entry in enumerate(entries, 1):
        _check_entry(players, entry, number)
        open_games = [i for i, g in enumerate(games) if not g.over]
        if not open_games:
            raise GameOverError(_over_message(number, len(hands), "Hollywood match"), number)
        entered: list[int] = []
        if entry.winner is not None:
            mine = started[entry.winner]
            entered = [i for i in open_games if i in mine]
            fresh = [i for i in open_games if i not in mine]
            if fresh:
                entered.append(fresh[0])
                mine.add(fresh[0])
        closed = []
        for i in entered:
            games[i].add(number, entry, None, None)
            if games[i].over:
                closed.append(i)
        following = _next_dealer(rules, players, dealer, entry.winner)
        hands.append(HollywoodHand(
            number, entry.winner, entry.points, entry.outcome, entry.knocker, entry.multiplier,
            tuple(i + 1 for i in sorted(entered)), tuple(i + 1 for i in closed),
            tuple(dict(g.totals) for g in games), dealer, following,
        ))
        dealer = following
    results = tuple(g.result(None, None) for g in games)
    over = all(g.game_over for g in results)
    match_totals = {p: sum(g.final_totals[p] for g in results) for p in players}
    games_won = {p: sum(1 for g in results if g.winner == p) for p in players}
    a, b = players
    leader = _leader(players, match_totals)
    return HollywoodTally(
        players=players,
        rules=rules,
        first_dealer=first_dealer,
        hands=tuple(hands),
        games=results,
        match_over=over,
        games_won=games_won,
        match_totals=match_totals,
        winner=leader if over else None,
        leader=leader,
        margin=abs(match_totals[a] - match_totals[b]),
        next_dealer=dealer,
    )


# -- score sheets -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetHand:
    """A hand line of a score sheet and the entry it comes to."""

    entry: HandEntry
    line: int
    column: int
    text: str
    """the line as written, without its comment"""

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "column": self.column, "text": self.text, **self.entry.to_dict()}


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet read: who played, under which rules, and one entry per hand.

    ``players`` is ``None`` only for a sheet read with ``keep_going`` that names
    no players (the error is reported; scoring it raises :class:`GameError`).
    ``hollywood`` says how :meth:`score` scores it.
    """

    players: tuple[str, str] | None
    rules: Rules
    first_dealer: str | None
    hands: tuple[SheetHand, ...]
    hollywood: bool = False
    source: str = ""
    rules_name: str | None = None
    """the rule set named on the sheet's ``rules:`` line, as written"""

    @property
    def entries(self) -> tuple[HandEntry, ...]:
        return tuple(hand.entry for hand in self.hands)

    def _players(self) -> tuple[str, str]:
        if self.players is None:
            raise GameError("the sheet names no players")
        return self.players

    def tally(self) -> GameTally:
        """The sheet scored as one game."""
        return tally(self._players(), self.entries, self.rules, self.first_dealer)

    def hollywood_tally(self) -> HollywoodTally:
        """The sheet scored as three Hollywood games."""
        return hollywood(self._players(), self.entries, self.rules, self.first_dealer)

    def score(self) -> GameTally | HollywoodTally:
        """:meth:`hollywood_tally` for a Hollywood sheet, else :meth:`tally`."""
        return self.hollywood_tally() if self.hollywood else self.tally()

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "players": list(self.players) if self.players else None,
            "rules": self.rules.label,
            "first_dealer": self.first_dealer,
            "hollywood": self.hollywood,
            "hands": [hand.to_dict() for hand in self.hands],
        }


class _LineError(Exception):
    """A problem with one sheet line; ``loc`` is the 0-based offset in the line."""

    def __init__(self, message: str, loc: int) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


def _syntax_message(exc: pp.ParseBaseException, line: str) -> tuple[str, int]:
    """A one-line message and 1-based column for a line the grammar rejects."""
    rest = line[exc.loc:]
    loc = exc.loc + len(rest) - len(rest.lstrip())
    found = line[loc:].split(maxsplit=1)[0] if line[loc:].strip() else ""
    if found.startswith(":") and loc and not line[:loc].strip().count(" "):
        header = line[:loc].strip()
        return f"unknown header {header!r}; expected 'players:', 'rules:' or 'dealer:'", 1
    message = exc.msg
    if message.startswith("Expected "):
        message = "expected " + message[len("Expected "):]
    message += f", found {found!r}" if found else ", found end of line"
    return message, loc + 1


_NAME_ONLY = sheet_name_expr + pp.StringEnd()


def _check_sheet_name(name: str) -> None:
    try:
        _NAME_ONLY.parse_string(name)
    except pp.ParseBaseException:
        raise GameError(f"{name!r} cannot be a player name on a score sheet") from None


class _SheetReader:
    """Reads a sheet line by line (private and mutable; the result is a frozen Sheet)."""

    def __init__(
        self,
        source: str,
        rules: Rules | None,
        overrides: Mapping[str, object] | None,
        players: tuple[str, str] | None,
        hollywood: bool | None,
        keep_going: bool,
    ) -> None:
        self.source = source
        self.given_rules = rules
        self.overrides = dict(overrides or {})
        self.given_players = players
        self.given_hollywood = hollywood
        self.keep_going = keep_going
        self.errors: list[RecordError] = []
        self.seen: dict[str, int] = {}
        self.sheet_players: tuple[str, str] | None = None
        self.sheet_rules: Rules | None = None
        self.rules_name: str | None = None
        self.dealer: tuple[str, int, int] | None = None
        self.first_hand_line = 0
        self.finalized = False
        self.rules = STANDARD
        self.players: tuple[str, str] | None = None
        self.first_dealer: str | None = None
        self.hollywood = False
        self.hands: list[SheetHand] = []
        self.over_at: int = 0
        """line of the hand that ended the game (or match), 0 while it is on"""

    def report(self, message: str, line: int, column: int) -> None:
        error = RecordError(message, self.source, line, column)
        if not self.keep_going:
            raise error
        self.errors.append(error)

    def read(self, text: str) -> Sheet:
        for number, line in enumerate(text.splitlines(), 1):
            try:
                result = sheet_line_expr.parse_string(line)
            except pp.ParseBaseException as exc:
                message, column = _syntax_message(exc, line)
                self.report(message, number, column)
                continue
            try:
                if "header" in result:
                    self.header(result, number)
                elif "void" in result:
                    self.add(number, line, result["void"].loc, HandEntry(None, 0, "void"))
                elif "player" in result:
                    self.hand(result, number, line)
            except _LineError as exc:
                self.report(exc.message, number, exc.loc + 1)
        if not self.finalized:
            self.finalize(0)
        return Sheet(
            self.players, self.rules, self.first_dealer, tuple(self.hands), self.hollywood,
            self.source, self.rules_name,
        )

    # -- headers ---------------------------------------------------------------

    def header(self, result: pp.ParseResults, number: int) -> None:
        keyword: SheetToken = result["header"]
        kind = keyword.text.lower()
        if self.finalized:
            raise _LineError(
                f"'{kind}:' must come before the first hand (line {self.first_hand_line})",
                keyword.loc,
            )
        if kind in self.seen:
            first_line = self.seen[kind]
            raise _LineError(f"'{kind}:' is given twice (first on line {first_line})", keyword.loc)
        self.seen[kind] = number
        if kind == "players":
            first: SheetToken = result["first"]
            second: SheetToken = result["second"]
            if first.text == second.text:
                raise _LineError(
                    f"the two players need different names, got {first.text!r} twice", second.loc
                )
            self.sheet_players = (first.text, second.text)
        elif kind == "rules":
            value: SheetToken = result["value"]
            try:
                self.sheet_rules = find_rules(value.text)
            except UnknownRulesError as exc:
                raise _LineError(str(exc), value.loc) from None
            self.rules_name = value.text
        else:
            name: SheetToken = result["value"]
            self.dealer = (name.text, number, name.loc)

    def finalize(self, number: int) -> None:
        """Settle rules, players and dealer: at the first hand line (``number``) or the end."""
        self.finalized = True
        self.first_hand_line = number
        rules = self.given_rules or self.sheet_rules or STANDARD
        self.rules = with_overrides(rules, self.overrides) if self.overrides else rules
        self.players = self.given_players or self.sheet_players
        self.hollywood = (
            self.given_hollywood if self.given_hollywood is not None
            else self.rules.hollywood_columns == HOLLYWOOD_GAMES
        )
        if self.dealer is not None:
            name, line, loc = self.dealer
            if self.players is not None and name not in self.players:
                message = f"unknown dealer {name!r}; the players are {_names(self.players)}"
                self.report(message, line, loc + 1)
            else:
                self.first_dealer = name
        if self.players is None and number:
            message = "no players: add a 'players: NAME NAME' line before the first hand"
            self.report(message, number, 1)

    # -- hands -----------------------------------------------------------------

    def hand(self, result: pp.ParseResults, number: int, line: str) -> None:
        if not self.finalized:
            self.finalize(number)
        if self.players is None:
            return
        rules = self.rules
        who: SheetToken = result["player"]
        player = who.text
        if player not in self.players:
            raise _LineError(
                f"unknown player {player!r}; the players are {_names(self.players)}", who.loc
            )
        other = _other(self.players, player)
        spade: SheetToken | None = None
        upcard_word: SheetToken | None = None
        upcard = None
        for group in result["flags"]:
            flag: SheetToken = group["flag"]
            if (spade if flag.text == "spade" else upcard_word) is not None:
                raise _LineError(f"{flag.text!r} is given twice", flag.loc)
            if flag.text == "spade":
                spade = flag
                continue
            upcard_word = group["card"]
            try:
                upcard = parse_card(upcard_word.text)
            except NotationError as exc:
                message = str(exc).replace(f" at column {exc.column}", "", 1)
                raise _LineError(message, upcard_word.loc + max(exc.column - 1, 0)) from None
        if spade is not None and not rules.spade_double:
            raise _LineError(
                f"'spade' marks a doubled hand, but spade doubling is off in {rules.label}",
                spade.loc,
            )
        if spade is not None and upcard is not None and suit_of(upcard) != _SPADES:
            raise _LineError(f"'spade' contradicts the upcard {card_name(upcard)}", spade.loc)
        multiplier = 2 if spade is not None or rules.is_spade_doubled(upcard) else 1
        ending_word: SheetToken = result["ending"]
        ending = ending_word.text
        if ending == "wins":
            points = _count(result["points"], "points")
            outcome_word: SheetToken | None = _optional(result, "outcome")
            outcome = outcome_word.text if outcome_word is not None else "knock"
            if outcome == "big_gin" and not rules.recognises_big_gin:
                assert outcome_word is not None
                raise _LineError(f"big gin is not a rule in {rules.label}", outcome_word.loc)
            knocker = other if outcome == "undercut" else player
            entry = HandEntry(player, points, outcome, knocker, multiplier)
        else:
            entry = self.settled(result, player, other, ending_word, upcard, multiplier)
        self.add(number, line, who.loc, entry)

    def settled(
        self,
        result: pp.ParseResults,
        player: str,
        other: str,
        ending_word: SheetToken,
        upcard: int | None,
        multiplier: int,
    ) -> HandEntry:
        rules = self.rules
        ending: Ending = "knock" if ending_word.text == "knock" else (
            "gin" if ending_word.text == "gin" else "big_gin"
        )
        defender_word: SheetToken = result["defender"]
        if ending == "knock":
            knocker_word: SheetToken = result["knocker"]
            k = _count(knocker_word, "deadwood")
            d = _count(defender_word, "deadwood")
            limit = rules.knock_limit_for(upcard)
            if k == 0:
                raise _LineError(
                    f"a knock with no deadwood is gin: write '{player} gin {d}'", ending_word.loc
                )
            if limit == 0:
                why = (f"the upcard {card_name(upcard)} allows gin only" if upcard is not None
                       and rules.knock_limit else f"only gin ends a hand in {rules.label}")
                raise _LineError(f"no knocking: {why}", ending_word.loc)
            if k > limit:
                by = f" set by the upcard {card_name(upcard)}" if (
                    upcard is not None and rules.oklahoma != "off") else ""
                raise _LineError(
                    f"a knock with {k} is over the knock limit {limit}{by}", knocker_word.loc
                )
        else:
            extra: SheetToken | None = _optional(result, "extra")
            if extra is not None:
                raise _LineError(
                    f"{ending} takes only the opponent's deadwood: write "
                    f"'{player} {ending} {extra.text}'",
                    defender_word.loc,
                )
            k = 0
            d = _count(defender_word, "deadwood")
            if ending == "big_gin" and not rules.recognises_big_gin:
                raise _LineError(f"big gin is not a rule in {rules.label}", ending_word.loc)
        try:
            settlement = settle(ending, k, d, rules, multiplier=multiplier)
        except RulingError as exc:  # pragma: no cover - the checks above come first
            raise _LineError(str(exc), ending_word.loc) from None
        side = settlement.winner
        winner = player if side == "knocker" else other if side == "defender" else None
        return HandEntry(winner, settlement.points, settlement.outcome.value, player, multiplier)

    def add(self, number: int, line: str, loc: int, entry: HandEntry) -> None:
        if not self.finalized:
            self.finalize(number)
        if self.players is None:
            return
        if self.over_at:
            what = "Hollywood match" if self.hollywood else "game"
            raise _LineError(
                f"hand {len(self.hands) + 1} comes after the end of the {what}"
                f" (hand {len(self.hands)}, line {self.over_at})",
                loc,
            )
        text = line.split("#", 1)[0].rstrip()
        self.hands.append(SheetHand(entry, number, loc + 1, text))
        entries = [hand.entry for hand in self.hands]
        try:
            if self.hollywood:
                over = hollywood(self.players, entries, self.rules, self.first_dealer).match_over
            else:
                over = tally(self.players, entries, self.rules, self.first_dealer).game_over
        except GameError:  # e.g. Hollywood with a one-hand rule set: reported when scored
            over = False
        if over:
            self.over_at = number


_SPADES = 3


def _optional(result: pp.ParseResults, name: str) -> SheetToken | None:
    if name not in result:
        return None
    word: SheetToken = result[name]
    return word


def _count(word: SheetToken, what: str) -> int:
    value = int(word.text)
    if value < 0:
        raise _LineError(f"{what} cannot be negative: {word.text!r}", word.loc)
    return value


def read_sheet(
    text: str,
    *,
    source: str = "",
    rules: Rules | None = None,
    overrides: Mapping[str, object] | None = None,
    players: tuple[str, str] | None = None,
    hollywood: bool | None = None,
    keep_going: bool = False,
) -> tuple[Sheet, list[RecordError]]:
    """Read a score sheet; return it with the errors found (see the grammar in the module doc).

    ``rules`` replaces the sheet's ``rules:`` line (default ``standard``) and
    ``overrides`` (knob -> value) then change knobs of whichever applies;
    ``players`` replaces the ``players:`` line; ``hollywood`` forces (or
    refuses) Hollywood scoring, which otherwise follows ``hollywood_columns``.
    Each bad line is a :class:`RecordError` with its line and column; with
    ``keep_going`` every bad line is collected and skipped, otherwise the
    first is raised. A bad override raises :class:`UnknownRulesError` and
    bad ``players`` a :class:`GameError`, in both modes.
    """
    if players is not None:
        players = _check_players(players, None)
        for name in players:
            _check_sheet_name(name)
    reader = _SheetReader(source, rules, overrides, players, hollywood, keep_going)
    sheet = reader.read(text)
    return sheet, reader.errors


def parse_sheet(
    text: str,
    *,
    source: str = "",
    rules: Rules | None = None,
    overrides: Mapping[str, object] | None = None,
    players: tuple[str, str] | None = None,
    hollywood: bool | None = None,
) -> Sheet:
    """Read a score sheet, raising :class:`RecordError` at the first bad line."""
    sheet, _ = read_sheet(
        text, source=source, rules=rules, overrides=overrides, players=players,
        hollywood=hollywood,
    )
    return sheet
