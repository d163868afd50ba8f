"""Whole games: running totals, the end of the game, bonuses, the next dealer.

:func:`tally` scores one game from its finished hands (:class:`HandEntry`, one
per hand, as :func:`ginref.scoring.settle` or a score sheet gives them);
:func:`hollywood` scores the same hands as three simultaneous Hollywood games.
Score sheets are read into hand entries by :mod:`ginref.sheets`.

How a game is scored (the classic rules and the score keeper's guide of docs/rule-sources.md):

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
- Shutout: the loser won no hand (so say the classic rules and the score
  keeper's guide alike). ``game_bonus_200`` adds the game
  bonus a second time (100 becomes 200); ``double_total`` doubles the winner's
  whole final total (hands, game bonus and boxes); ``none`` adds nothing.
- The next dealer after a hand with a winner follows ``next_dealer``
  (winner, loser, or alternate: the other player from this hand's dealer);
  after a hand nobody won (void, a tie under ``tie_policy = "no_score"``, an
  illegal knock without a winner) it follows ``void_hand_dealer`` (same
  dealer, or the deal passes). A dealer that cannot be known (no first dealer
  given, and the rule needs one) is ``None``.
- Hands after the end of the game are an error: :class:`GameOverError`.

>>> t = tally(("Ann", "Bo"), [HandEntry("Ann", 60, "knock"), HandEntry("Ann", 45, "gin")], STANDARD)
>>> t.game_over, t.winner, t.final_totals
(True, 'Ann', {'Ann': 345, 'Bo': 0})
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import msgspec

from ginref.errors import GameError, GameOverError
from ginref.notation import excerpt
from ginref.rules import MAX_NUMBER, STANDARD, Rules

__all__ = [
    "HAND_OUTCOMES",
    "HOLLYWOOD_GAMES",
    "MAX_NAME",
    "Bonus",
    "GameError",
    "GameOverError",
    "GameScore",
    "GameTally",
    "HandEntry",
    "HollywoodHand",
    "HollywoodTally",
    "Scorer",
    "TalliedHand",
    "hollywood",
    "next_dealer",
    "players_problem",
    "score_entries",
    "shown_name",
    "tally",
    "two_players",
]

HAND_OUTCOMES = ("knock", "gin", "big_gin", "undercut", "tie", "void", "illegal_knock")
"""What a finished hand can come to (the values of :class:`ginref.scoring.Outcome`)."""
_NO_WINNER_OUTCOMES = ("tie", "void", "illegal_knock")
HOLLYWOOD_GAMES = 3


class HandEntry(msgspec.Struct, frozen=True):
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


class Bonus(msgspec.Struct, frozen=True):
    """One end-of-game bonus: ``kind`` is ``game``, ``box`` or ``shutout``."""

    kind: str
    points: int
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "points": self.points, "detail": self.detail}


class TalliedHand(msgspec.Struct, frozen=True):
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


class GameTally(msgspec.Struct, frozen=True):
    """A scored game: every hand with running totals, then bonuses and the result.

    ``winner`` is the player whose hand total reached the target (for a single
    hand, the winner of that hand); it is ``None`` while the game is still on.
    ``leader`` has the higher final total and ``margin`` is the difference of
    the final totals; they can name different players only when the loser's
    box bonus outweighs the winner's game bonus (the classic rules make the first
    to the target the winner, the score keeper's guide the higher final total).
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


def other_player(players: tuple[str, str], player: str) -> str:
    return players[1] if player == players[0] else players[0]


def named_players(players: tuple[str, str]) -> str:
    return f"{players[0]!r} and {players[1]!r}"


MAX_NAME = 80
"""Longest player name: every ruling and message names the players, and stays one short line."""


def two_players(players: Sequence[object]) -> bool:
    """Whether ``players`` can play a game: two different names of text, none longer than
    :data:`MAX_NAME`. The one home of the rule: the tally, the referee and the report ask here
    (:func:`players_problem` words why not)."""
    if len(players) != 2:
        return False
    first, second = players
    return (isinstance(first, str) and isinstance(second, str) and first != second
            and 0 < len(first) <= MAX_NAME and 0 < len(second) <= MAX_NAME)


def shown_name(name: str) -> str:
    """A name as a message shows it: as it is when it could be a player's, else quoted and cut
    (:func:`~ginref.notation.excerpt`), so that a record naming someone by a megabyte of text
    still gets one short line."""
    return name if len(name) <= MAX_NAME and name.isprintable() else excerpt(name)


def checked_players(players: Sequence[str], first_dealer: str | None) -> tuple[str, str]:
    if type(players) is tuple and two_players(players) and (first_dealer is None or first_dealer in players):
        return players
    return _explain_players(players, first_dealer)


def _explain_players(players: object, first_dealer: object) -> tuple[str, str]:
    """``players`` as a pair, or the :class:`GameError` saying what is wrong with them."""
    problem = players_problem(players)
    if problem is not None:
        raise GameError(problem)
    a, b = cast("Sequence[str]", players)
    if first_dealer is not None and first_dealer not in (a, b):
        raise GameError(
            f"unknown first dealer {excerpt(first_dealer)}; the players are {named_players((a, b))}"
        )
    return (a, b)


def players_problem(players: object) -> str | None:
    """Why ``players`` cannot play a game (:func:`two_players`), or None when they can."""
    if type(players) is tuple and two_players(players):  # a record's players, as they come
        return None
    if not isinstance(players, Sequence) or isinstance(players, str):
        return f"a game needs two player names, got {excerpt(players)}"
    if len(players) != 2:
        return f"a game needs two player names, got {excerpt(tuple(players[:3]))}"
    a, b = players[0], players[1]
    if not (isinstance(a, str) and a and isinstance(b, str) and b):
        return f"a game needs two player names, got {excerpt((a, b))}"
    if a == b:
        return f"the two players need different names, got {excerpt(a)} twice"
    longest = max(len(a), len(b))
    if longest > MAX_NAME:
        return f"player names have at most {MAX_NAME} characters, not {longest}"
    return None


_WON_OUTCOMES = frozenset(HAND_OUTCOMES) - {"tie", "void"}


def _check_entry(players: tuple[str, str], entry: HandEntry, number: int) -> None:
    """Refuse an entry :func:`tally` cannot score; the usual one passes in one test."""
    if type(entry) is HandEntry:
        winner, points = entry.winner, entry.points
        if (
            type(points) is int and 0 <= points < MAX_NUMBER
            and type(entry.multiplier) is int and 1 <= entry.multiplier < MAX_NUMBER
            and (entry.knocker is None or entry.knocker in players)
            and (
                (winner in players and entry.outcome in _WON_OUTCOMES)
                or (winner is None and not points and entry.outcome in _NO_WINNER_OUTCOMES)
            )
        ):
            return
    _explain_entry(players, entry, number)


def _explain_entry(players: tuple[str, str], entry: object, number: int) -> None:
    def bad(message: str) -> GameError:
        return GameError(f"hand {number}: {message}", number)

    if not isinstance(entry, HandEntry):
        raise bad(f"a hand is a HandEntry, not {type(entry).__name__}")
    if entry.outcome not in HAND_OUTCOMES:
        raise bad(f"unknown outcome {excerpt(entry.outcome)}; choose from: {', '.join(HAND_OUTCOMES)}")
    if entry.winner is not None and entry.winner not in players:
        raise bad(f"unknown winner {excerpt(entry.winner)}; the players are {named_players(players)}")
    if entry.knocker is not None and entry.knocker not in players:
        raise bad(f"unknown knocker {excerpt(entry.knocker)}; the players are {named_players(players)}")
    for what, value in (("points", entry.points), ("the multiplier", entry.multiplier)):
        if isinstance(value, bool) or not isinstance(value, int) or value >= MAX_NUMBER:
            raise bad(f"{what} must be a whole number below {MAX_NUMBER:,}, got {excerpt(value)}")
    if entry.points < 0:
        raise bad(f"points cannot be negative, got {entry.points}")
    if entry.multiplier < 1:
        raise bad(f"the multiplier must be 1 or more, got {entry.multiplier}")
    if entry.winner is None:
        if entry.outcome not in _NO_WINNER_OUTCOMES:
            raise bad(f"a {entry.outcome} hand needs a winner")
        raise bad(f"a hand nobody won cannot score {entry.points} points")
    raise bad(f"a {entry.outcome} hand has no winner, got {excerpt(entry.winner)}")


def next_dealer(
    rules: Rules, players: tuple[str, str], dealer: str | None, winner: str | None
) -> str | None:
    """Who deals after a hand dealt by ``dealer`` and won by ``winner`` (None: nobody won).

    The one home of the rule: the game tally and the referee both ask here. A dealer that
    cannot be known (no first dealer, and the rule needs one) is None.
    """
    if winner is None:
        if dealer is None or rules.void_hand_dealer == "same":
            return dealer
        return other_player(players, dealer)
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return other_player(players, winner)
    return None if dealer is None else other_player(players, dealer)


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

    def score(self, entry: HandEntry) -> tuple[int, int]:
        """Count one hand; its boxes and the box points credited at once."""
        rules = self.rules
        boxes = _hand_boxes(rules, entry)
        box_points = 0
        winner = entry.winner
        if winner is not None:
            self.won[winner] += 1
            self.boxes[winner] += boxes
            if rules.box_timing == "immediate" and not rules.single_hand:
                box_points = boxes * rules.box_bonus
            self.totals[winner] += entry.points + box_points
            if self.totals[winner] >= rules.game_target:
                self.over, self.ender = True, winner
        if rules.single_hand:
            self.over, self.ender = True, winner
        return boxes, box_points

    def add(
        self, number: int, entry: HandEntry, dealer: str | None, next_dealer: str | None
    ) -> TalliedHand:
        boxes, box_points = self.score(entry)
        hand = TalliedHand(
            number, entry.winner, entry.points, entry.outcome, entry.knocker, entry.multiplier,
            boxes, box_points, dict(self.totals), dealer, next_dealer, self.over,
        )
        self.hands.append(hand)
        return hand

    def bonuses(self) -> dict[str, list[Bonus]]:
        rules = self.rules
        items: dict[str, list[Bonus]] = {p: [] for p in self.players}
        if not self.over or rules.single_hand or self.ender is None:
            return items
        winner = self.ender
        loser = other_player(self.players, winner)
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

    def final_totals(self, bonuses: dict[str, list[Bonus]]) -> dict[str, int]:
        return {p: self.totals[p] + sum(b.points for b in bonuses[p]) for p in self.players}

    def result(self, first_dealer: str | None, next_dealer: str | None) -> GameTally:
        bonuses = self.bonuses()
        final = self.final_totals(bonuses)
        a, b = self.players
        leader = _leader(self.players, final)
        shutout = (
            self.over and not self.rules.single_hand and self.ender is not None
            and self.won[other_player(self.players, self.ender)] == 0
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

    ``players`` are the two names, ``entries`` the hands in order, ``rules`` the rule set
    (target, bonuses, dealing) and ``first_dealer`` who dealt hand 1, if known. Returns a
    :class:`GameTally`.
    """
    players = checked_players(players, first_dealer)
    game = _Game(players, rules)
    dealer = first_dealer
    for number, entry in enumerate(entries, 1):
        _check_entry(players, entry, number)
        if game.over:
            raise GameOverError(_over_message(number, len(game.hands), "game"), number)
        following = next_dealer(rules, players, dealer, entry.winner)
        game.add(number, entry, dealer, following)
        dealer = following
    return game.result(first_dealer, dealer)


# -- Hollywood ----------------------------------------------------------------------------


class HollywoodHand(msgspec.Struct, frozen=True):
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


class HollywoodTally(msgspec.Struct, frozen=True):
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


class _Match:
    """The running state of a Hollywood match: three games and where each player has scored."""

    def __init__(self, players: tuple[str, str], rules: Rules) -> None:
        if rules.game_target <= 0:
            raise GameError(
                f"Hollywood scoring needs a game target above 0 ({rules.label} plays one hand)"
            )
        self.games = [_Game(players, rules) for _ in range(HOLLYWOOD_GAMES)]
        self.started: dict[str, set[int]] = {p: set() for p in players}

    @property
    def over(self) -> bool:
        return all(game.over for game in self.games)

    def enter(self, entry: HandEntry) -> list[int]:
        """The games (0-based) a hand's win goes into: every open game the winner has
        scored in, then the first open game not yet scored in."""
        if entry.winner is None:
            return []
        mine = self.started[entry.winner]
        open_games = [i for i, game in enumerate(self.games) if not game.over]
        entered = [i for i in open_games if i in mine]
        fresh = [i for i in open_games if i not in mine]
        if fresh:
            entered.append(fresh[0])
            mine.add(fresh[0])
        return entered


def hollywood(
    players: tuple[str, str],
    entries: Sequence[HandEntry],
    rules: Rules = STANDARD,
    first_dealer: str | None = None,
) -> HollywoodTally:
    """Score hands as three simultaneous Hollywood games (docs/rule-sources.md, Hollywood).

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
    players = checked_players(players, first_dealer)
    match = _Match(players, rules)
    games = match.games
    hands: list[HollywoodHand] = []
    dealer = first_dealer
    for number, entry in enumerate(entries, 1):
        _check_entry(players, entry, number)
        if match.over:
            raise GameOverError(_over_message(number, len(hands), "Hollywood match"), number)
        entered = match.enter(entry)
        closed = []
        for i in entered:
            games[i].add(number, entry, None, None)
            if games[i].over:
                closed.append(i)
        following = next_dealer(rules, players, dealer, entry.winner)
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


# -- hands one at a time, for the referee and the sheet reader -------------------------------


class GameScore(msgspec.Struct, frozen=True):
    """What a referee needs to know of a game's hands, plain or Hollywood.

    ``played`` hands count; any after the one that ended the game (or the match) are
    ``after_end`` and are not scored. ``running_totals`` holds the hand totals after
    each played hand: a plain game's (immediate box points included), or for Hollywood
    each player's plain sum of points won. ``final_totals`` add the end-of-game bonuses
    once the game is over; for Hollywood they are the match totals.
    """

    played: int
    after_end: int
    running_totals: tuple[dict[str, int], ...]
    hand_totals: dict[str, int]
    final_totals: dict[str, int]
    game_over: bool
    winner: str | None
    next_dealer: str | None
    """who deals after the last played hand, counted from the first dealer"""


class Scorer:
    """Scores hands one at a time, so a reader knows at once when the game is over.

    Mutable on purpose (a reader feeds it hand by hand); :meth:`score` gives a frozen
    :class:`GameScore`. ``hollywood`` None follows ``rules.hollywood_columns``; a
    Hollywood match needs a game target above 0 (:class:`GameError` otherwise).
    """

    def __init__(
        self,
        players: tuple[str, str],
        rules: Rules = STANDARD,
        first_dealer: str | None = None,
        *,
        hollywood: bool | None = None,
    ) -> None:
        self.players = checked_players(players, first_dealer)
        self.rules = rules
        self.dealer = first_dealer
        if hollywood is None:
            hollywood = _plays_hollywood(rules)
        self.match = _Match(self.players, rules) if hollywood else None
        self.game = _Game(self.players, rules) if self.match is None else None
        self.points = dict.fromkeys(self.players, 0)
        self.running: list[dict[str, int]] = []

    @property
    def over(self) -> bool:
        return self.game.over if self.game is not None else self.match is not None and self.match.over

    def add(self, entry: HandEntry) -> bool:
        """Score one more hand; True when it ended the game (or match).

        Raises :class:`GameError` for an entry :func:`tally` refuses and
        :class:`GameOverError` for a hand after the end.
        """
        number = len(self.running) + 1
        _check_entry(self.players, entry, number)
        if self.over:
            what = "game" if self.game is not None else "Hollywood match"
            raise GameOverError(_over_message(number, number - 1, what), number)
        if self.game is not None:
            self.game.score(entry)
            self.running.append(dict(self.game.totals))
        else:
            self._enter(entry)
        self.dealer = next_dealer(self.rules, self.players, self.dealer, entry.winner)
        return self.over

    def _enter(self, entry: HandEntry) -> None:
        assert self.match is not None
        for i in self.match.enter(entry):
            self.match.games[i].score(entry)
        if entry.winner is not None:
            self.points[entry.winner] += entry.points
        self.running.append(dict(self.points))

    def score(self, after_end: int = 0) -> GameScore:
        """The hands so far (``after_end`` more were entered once the game was over)."""
        over = self.over
        if self.game is not None:
            game = self.game
            final = game.final_totals(game.bonuses()) if over else dict(game.totals)
            winner = game.ender if over else None
            totals = dict(game.totals)
        else:
            assert self.match is not None
            games = self.match.games
            finals = [game.final_totals(game.bonuses()) for game in games]
            final = {p: sum(f[p] for f in finals) for p in self.players}
            winner = _leader(self.players, final) if over else None
            totals = dict(self.points)
        return GameScore(
            len(self.running), after_end, tuple(self.running), totals, final, over, winner,
            self.dealer,
        )


def score_entries(
    players: tuple[str, str],
    entries: Sequence[HandEntry],
    rules: Rules = STANDARD,
    first_dealer: str | None = None,
    *,
    hollywood: bool | None = None,
) -> GameScore:
    """Score the hands up to the end of the game; later ones are counted, not scored.

    One pass: the answer :func:`tally` (or :func:`hollywood`) gives for the hands
    played, without raising :class:`GameOverError` for the rest. An entry that cannot
    be scored raises :class:`GameError`, as there.
    """
    players = checked_players(players, first_dealer)
    if hollywood is None:
        hollywood = _plays_hollywood(rules)
    if not hollywood and (rules.box_timing == "end" or rules.single_hand):
        quick = _quick_score(players, entries, rules, first_dealer)
        if quick is not None:
            return quick
    scorer = Scorer(players, rules, first_dealer, hollywood=hollywood)
    for played, entry in enumerate(entries):
        if scorer.add(entry):
            return scorer.score(len(entries) - played - 1)
    return scorer.score()


def sums_plain_totals(rules: Rules) -> bool:
    """Whether a game under ``rules`` is scored by summing each hand's points until a total
    reaches the target (no Hollywood, no box points as hands fall, more than one hand): the
    case :func:`score_entries` sums directly, and a live table rules one hand at a time."""
    return not _plays_hollywood(rules) and rules.box_timing == "end" and not rules.single_hand


def _plays_hollywood(rules: Rules) -> bool:
    return rules.hollywood_columns == HOLLYWOOD_GAMES and not rules.single_hand


def _quick_score(
    players: tuple[str, str], entries: Sequence[HandEntry], rules: Rules, first_dealer: str | None
) -> GameScore | None:
    """The common case summed directly: a plain game with end-of-game boxes still on, or a
    single hand. None once a hand total reaches the target: the bonuses need :class:`Scorer`."""
    totals = dict.fromkeys(players, 0)
    running = []
    dealer = first_dealer
    target, single = rules.game_target, rules.single_hand
    for number, entry in enumerate(entries, 1):
        _check_entry(players, entry, number)
        winner = entry.winner
        if winner is not None:
            totals[winner] += entry.points
            if totals[winner] >= target and not single:
                return None
        running.append(dict(totals))
        dealer = next_dealer(rules, players, dealer, winner)
        if single:
            return GameScore(1, len(entries) - 1, tuple(running), totals, dict(totals), True, winner, dealer)
    return GameScore(len(running), 0, tuple(running), totals, dict(totals), False, None, dealer)
