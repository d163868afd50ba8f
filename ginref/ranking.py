"""Tournament standings: who is stronger, by how much, and how sure we can be.

From the verdicts of a batch (:func:`ginref.batch.verify`), each record is one game
between its two players: won by game totals (the game's winner, or else the player
ahead on the totals the record reached; a one-hand record is a one-hand game), and a
draw when no one is ahead (a wall, an unfinished hand). A draw counts half a win to each.

Per player: games, wins, losses, draws; the win rate with its 95% Wilson interval; a
Bradley-Terry rating on the Elo scale (400 log10 odds, centred on 1500) with a 95%
bootstrap interval; net hand points per hand with a 95% interval. Per ordered pair: the
head-to-head counts and points. With duplicate deals (:class:`DuplicateStanding`), the
points each player won over each pair of games dealt the same cards with the seats
swapped.

The rating's prior is one virtual draw per player against a player rated 1500: it keeps
an unbeaten player's rating finite, and weighs no more than one game. The numerics (the
intervals, the Bradley-Terry fit and its bootstrap) are :mod:`ginref.stats`'s, on numpy:
this module holds the standings' value types and the tally that adds the games up.
Points count hand points as ruled, without game or box bonuses.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import msgspec

from ginref import stats
from ginref.audit import game_score
from ginref.batch.results import Adding, RecordResult
from ginref.batch.run import Inputs, tally, verify
from ginref.cards import mask_of
from ginref.records.io import Reading
from ginref.records.model import GameRecord
from ginref.referee import Verdict, adjudicate
from ginref.rules import Rules

__all__ = ["FEW_GAMES", "ROUNDS", "Dealt", "DuplicateStanding", "HeadToHead", "Standing",
           "Standings", "StandingsTally", "deal_key", "standings"]

ROUNDS = 200
"""bootstrap rounds by default"""
FEW_GAMES = 10
"""a player with fewer games is flagged: its figures say little"""

Interval = stats.Interval


def _r(value: float) -> float:
    return round(value, 6)


def _pair(value: Interval | None) -> list[float] | None:
    return None if value is None else [_r(value[0]), _r(value[1])]


class Standing(msgspec.Struct, frozen=True):
    """One player's row of the standings (see the module's doc)."""

    player: str
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float
    win_rate_ci95: Interval
    rating: float
    rating_ci95: Interval
    net_points_per_hand: float | None
    net_points_per_hand_ci95: Interval | None
    hands: int = 0

    @property
    def few_games(self) -> bool:
        return self.games < FEW_GAMES

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player, "games": self.games, "wins": self.wins, "losses": self.losses,
            "draws": self.draws, "win_rate": _r(self.win_rate), "win_rate_ci95": _pair(self.win_rate_ci95),
            "rating": _r(self.rating), "rating_ci95": _pair(self.rating_ci95),
            "net_points_per_hand": None if self.net_points_per_hand is None else _r(self.net_points_per_hand),
            "net_points_per_hand_ci95": _pair(self.net_points_per_hand_ci95),
        }


class HeadToHead(msgspec.Struct, frozen=True):
    """``player`` against ``opponent``: their games, and the hand points each won from the other."""

    player: str
    opponent: str
    games: int
    wins: int
    losses: int
    draws: int
    points_for: int
    points_against: int

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__struct_fields__}


class DuplicateStanding(msgspec.Struct, frozen=True):
    """Over each pair of games dealt alike with the seats swapped, the net hand points the
    player won (its points less its opponent's, both games together): the luck of the deal
    cancels out. ``points_per_pair_ci95`` is a normal 95% interval of the mean."""

    player: str
    pairs: int
    points: int
    points_per_pair: float
    points_per_pair_ci95: Interval | None

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "pairs": self.pairs, "points": self.points,
                "points_per_pair": _r(self.points_per_pair),
                "points_per_pair_ci95": _pair(self.points_per_pair_ci95)}


class Standings(msgspec.Struct, frozen=True):
    """The standings (best rating first), the head to head of each ordered pair, what the
    figures cannot tell (players with few games, neighbours whose rating intervals overlap),
    and with duplicate deals the per-player results over the pairs."""

    standings: tuple[Standing, ...]
    head_to_head: tuple[HeadToHead, ...]
    games: int
    draws: int
    rounds: int
    seed: int
    not_yet_separable: tuple[tuple[str, ...], ...] = ()
    """runs of players in rating order whose neighbours' 95% rating intervals overlap"""
    duplicate: tuple[DuplicateStanding, ...] | None = None
    unpaired: int = 0
    """with duplicate deals, the games that found no partner"""

    @property
    def few_games(self) -> tuple[str, ...]:
        return tuple(row.player for row in self.standings if row.few_games)

    def order(self) -> dict[str, int]:
        """Each player's place in the standings (0 the best)."""
        return {row.player: place for place, row in enumerate(self.standings)}

    def to_dict(self) -> dict[str, object]:
        return {
            "standings": [row.to_dict() for row in self.standings],
            "head_to_head": [row.to_dict() for row in self.head_to_head],
            "method": {"games": self.games, "draws": self.draws, "bootstrap_rounds": self.rounds,
                       "seed": self.seed, "few_games_below": FEW_GAMES,
                       "prior": "one virtual draw per player against a 1500 player"},
            "few_games": list(self.few_games),
            "not_yet_separable": [list(run) for run in self.not_yet_separable],
            "duplicate": None if self.duplicate is None else {
                "players": [row.to_dict() for row in self.duplicate], "unpaired": self.unpaired},
        }


# -- intervals --------------------------------------------------------------------------


class _Ratio:
    """Sums for a ratio of two per-game totals (points over hands), games being the units
    sampled: :func:`ginref.stats.ratio_interval` makes its interval."""

    __slots__ = ("n", "x", "xx", "xy", "y", "yy")

    def __init__(self) -> None:
        self.n = 0
        self.x = self.y = self.xx = self.yy = self.xy = 0.0

    def add(self, y: float, x: float) -> None:
        self.n += 1
        self.x += x
        self.y += y
        self.xx += x * x
        self.yy += y * y
        self.xy += x * y

    def value(self) -> float | None:
        return self.y / self.x if self.x else None

    def interval(self) -> Interval | None:
        return stats.ratio_interval(self.n, self.x, self.y, self.xx, self.yy, self.xy)


# -- adding up ----------------------------------------------------------------------------


def hand_points(verdict: Verdict) -> tuple[int, int]:
    """The hand points each of the two players won in the record (no game or box bonuses)."""
    first, second = verdict.players
    won = [0, 0]
    for hand in verdict.hands:
        if hand.winner == first:
            won[0] += hand.points
        elif hand.winner == second:
            won[1] += hand.points
    return won[0], won[1]


class _Player:
    __slots__ = ("duplicate", "games", "losses", "net", "wins")

    def __init__(self) -> None:
        self.games = self.wins = self.losses = 0
        self.net = _Ratio()
        self.duplicate = [0, 0, 0]  # pairs, points, squared points


class _Pair:
    """Two players' games, from the first's side (the first is the lesser name)."""

    __slots__ = ("draws", "losses", "points_against", "points_for", "wins")

    def __init__(self) -> None:
        self.wins = self.draws = self.losses = self.points_for = self.points_against = 0


DealKey = tuple[tuple[int, int, int, tuple[int, ...]], ...]
"""per hand, seat by seat: the dealer's cards, the other's, the upcard (-1: none) and the stock"""


def deal_key(record: GameRecord) -> tuple[str, DealKey] | None:
    """How ``record`` was dealt, seat by seat, hand by hand, with the first hand's dealer:
    two records dealt alike with the seats swapped share the key and have two dealers. None
    when a hand's deal is not recorded whole."""
    key = []
    for hand in record.hands:
        dealt = dict(hand.deal)
        others = [name for name in record.players if name != hand.dealer]
        if hand.dealer not in dealt or len(others) != 1 or others[0] not in dealt:
            return None
        upcard = -1 if hand.upcard is None else hand.upcard
        key.append((mask_of(dealt[hand.dealer]), mask_of(dealt[others[0]]), upcard, hand.stock or ()))
    if not key:
        return None
    return record.hands[0].dealer, tuple(key)


class Dealt(msgspec.Struct, frozen=True):
    """What ``--duplicate`` adds to a record's result (:attr:`~ginref.batch.RecordResult.added`):
    how it was dealt (:func:`deal_key`), to find its twin."""

    deal: tuple[str, DealKey] | None = None


def _dealt(record: GameRecord, rules: Rules | None) -> tuple[Verdict, Dealt]:
    return adjudicate(record, rules), Dealt(deal_key(record))


class StandingsTally:
    """Adds up a batch's results, one game at a time, in the order given. With ``duplicate``,
    the games dealt alike are paired, from the deal each result carries: the batch must add
    it (:attr:`adding`)."""

    def __init__(self, duplicate: bool = False) -> None:
        self.adding: Adding | None = _dealt if duplicate else None
        """what the batch adds to each result for this tally (:data:`~ginref.batch.Adding`)"""
        self.players: dict[str, _Player] = {}
        self.pairs: dict[tuple[str, str], _Pair] = {}
        self.duplicate = duplicate
        self.waiting: dict[DealKey, list[tuple[str, tuple[str, str], tuple[int, int]]]] = {}
        self.games = self.draws = 0

    def _player(self, name: str) -> _Player:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = _Player()
        return found

    def add(self, result: RecordResult) -> None:
        """Count ``result``'s game (nothing for an unreadable record or one without two players)."""
        verdict = result.verdict
        if verdict is None:
            return
        score = game_score(verdict)
        if score is None:
            return
        first, second = verdict.players
        points = hand_points(verdict)
        self.games += 1
        self.draws += score == 0.5
        for name, mine, theirs, won in ((first, points[0], points[1], score), (second, points[1], points[0],
                                                                                1 - score)):
            player = self._player(name)
            player.games += 1
            player.wins += won == 1
            player.losses += won == 0
            player.net.add(mine - theirs, len(verdict.hands))
        self._head_to_head(first, second, score, points)
        added = result.added
        if self.duplicate and isinstance(added, Dealt) and added.deal is not None:
            self._pair_deal(added.deal, verdict.players, points)

    def _head_to_head(self, first: str, second: str, score: float, points: tuple[int, int]) -> None:
        if first > second:
            first, second, score, points = second, first, 1 - score, (points[1], points[0])
        pair = self.pairs.get((first, second))
        if pair is None:
            pair = self.pairs[(first, second)] = _Pair()
        pair.wins += score == 1
        pair.draws += score == 0.5
        pair.losses += score == 0
        pair.points_for += points[0]
        pair.points_against += points[1]

    def _pair_deal(self, deal: tuple[str, DealKey], players: tuple[str, str],
                   points: tuple[int, int]) -> None:
        """Wait for the twin of this game (same deal, seats swapped), or settle the pair with it."""
        dealer, key = deal
        waiting = self.waiting.setdefault(key, [])
        for place, (their_dealer, their_players, their_points) in enumerate(waiting):
            if set(their_players) == set(players) and their_dealer != dealer:
                del waiting[place]
                if not waiting:
                    del self.waiting[key]
                mine = dict(zip(players, points, strict=True))
                theirs = dict(zip(their_players, their_points, strict=True))
                for name in players:
                    other = players[1] if name == players[0] else players[0]
                    net = mine[name] + theirs[name] - mine[other] - theirs[other]
                    tally = self._player(name).duplicate
                    tally[0] += 1
                    tally[1] += net
                    tally[2] += net * net
                return
        waiting.append((dealer, players, points))

    def standings(self, rounds: int = ROUNDS, seed: int = 0) -> Standings:
        """The standings of the games added so far, with a ``rounds``-round bootstrap from ``seed``."""
        names = sorted(self.players)
        place = {name: i for i, name in enumerate(names)}
        cells = [(place[a], place[b], p.wins, p.draws, p.losses) for (a, b), p in sorted(self.pairs.items())]
        pairs = [(i, j, float(w + d + lost), w + d / 2) for i, j, w, d, lost in cells]
        theta = stats.fit(len(names), pairs)
        ratings = stats.ratings(theta)
        intervals = (stats.bootstrap(len(names), cells, rounds, seed, theta) if rounds
                     else [(r, r) for r in ratings])
        rows = [self._row(name, ratings[i], intervals[i]) for i, name in enumerate(names)]
        rows.sort(key=lambda row: (-row.rating, row.player))
        return Standings(tuple(rows), self._head_to_head_rows(), self.games, self.draws, rounds, seed,
                         _overlapping(rows), self._duplicate_rows(rows) if self.duplicate else None,
                         sum(len(w) for w in self.waiting.values()))

    def _row(self, name: str, rating: float, interval: Interval) -> Standing:
        player = self.players[name]
        draws = player.games - player.wins - player.losses
        score = player.wins + draws / 2
        hands = int(player.net.x)
        return Standing(name, player.games, player.wins, player.losses, draws, score / player.games,
                        stats.wilson(score, player.games), rating, interval, player.net.value(),
                        player.net.interval(), hands)

    def _head_to_head_rows(self) -> tuple[HeadToHead, ...]:
        rows = []
        for (a, b), p in self.pairs.items():
            games = p.wins + p.draws + p.losses
            rows.append(HeadToHead(a, b, games, p.wins, p.losses, p.draws, p.points_for, p.points_against))
            rows.append(HeadToHead(b, a, games, p.losses, p.wins, p.draws, p.points_against, p.points_for))
        return tuple(sorted(rows, key=lambda row: (row.player, row.opponent)))

    def _duplicate_rows(self, rows: Sequence[Standing]) -> tuple[DuplicateStanding, ...]:
        out = []
        for row in rows:
            count, total, squares = self.players[row.player].duplicate
            if count:
                out.append(DuplicateStanding(row.player, count, total, total / count,
                                             stats.normal_interval(count, total, squares)))
        return tuple(out)


def _overlapping(rows: Sequence[Standing]) -> tuple[tuple[str, ...], ...]:
    """Runs of neighbours (in rating order) whose 95% rating intervals overlap."""
    runs: list[list[str]] = []
    for upper, lower in itertools.pairwise(rows):
        if lower.rating_ci95[1] >= upper.rating_ci95[0]:
            if runs and runs[-1][-1] == upper.player:
                runs[-1].append(lower.player)
            else:
                runs.append([upper.player, lower.player])
    return tuple(tuple(run) for run in runs)


# -- the library call ---------------------------------------------------------------------


def standings(
    paths_or_records: Inputs,
    rules: Rules | None = None,
    *,
    rounds: int = ROUNDS,
    seed: int = 0,
    duplicate: bool = False,
    jobs: int | None = None,
    reading: Reading | None = None,
    **fields: Any,
) -> Standings:
    """The standings of every game in ``paths_or_records``: what :func:`ginref.verify` takes (paths
    read as ``reading`` says, or its ``fields`` as keywords; records; a batch's results), checked
    in ``jobs`` worker processes; ``rules`` replaces each record's own rule set when given.

    Returns :class:`Standings`: ratings with a ``rounds``-round bootstrap seeded by ``seed``
    (0 rounds: the intervals are the ratings), and with ``duplicate`` the pairs of games
    dealt alike with the seats swapped (read in this process, since the deals are needed).
    Never raises for bad input (an unreadable record counts in no game); raises
    ``TypeError`` for inputs that mix paths and records.
    """
    counted = StandingsTally(duplicate)
    results = verify(paths_or_records, rules, jobs=jobs, reading=reading, adding=counted.adding, **fields)
    tally(results, (counted,))
    return counted.standings(rounds, seed)
