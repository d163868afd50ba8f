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
an unbeaten player's rating finite, and weighs no more than one game. The fit is
Newton's method on the log-likelihood (:func:`fit_newton`), or for many players the
MM iteration of Zermelo and Hunter (:func:`fit_mm`), which reaches the same maximum;
tests compare both, and scipy's optimiser. The bootstrap resamples games: since the fit
depends only on each pair's wins, draws and losses, it draws those counts from the
multinomial law that resampling the games with replacement gives them, round by round
from one seeded generator, so that its cost does not grow with the number of games.
Points count hand points as ruled, without game or box bonuses.
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from ginref.audit import game_score
from ginref.batch.results import Adding, RecordResult
from ginref.batch.run import Inputs, tally, verify
from ginref.cards import mask_of
from ginref.records.io import Reading
from ginref.records.model import GameRecord
from ginref.referee import Verdict, adjudicate
from ginref.rules import Rules

__all__ = ["FEW_GAMES", "ROUNDS", "Dealt", "DuplicateStanding", "HeadToHead", "Standing",
           "Standings", "StandingsTally", "deal_key", "fit_chord", "fit_mm", "fit_newton", "standings",
           "wilson"]

ROUNDS = 200
"""bootstrap rounds by default"""
FEW_GAMES = 10
"""a player with fewer games is flagged: its figures say little"""
Z95 = 1.959963984540054
ELO = 400 / math.log(10)
CENTRE = 1500.0
MOST_NEWTON_PLAYERS = 200
"""above this many players the fit is MM's (linear in the pairs per step), not Newton's (cubic)"""

Interval = tuple[float, float]


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


def wilson(score: float, n: int) -> Interval:
    """The 95% Wilson score interval of a rate of ``score`` in ``n`` (draws as halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p, z2 = score / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n)
    low = 0.0 if score <= 0 else max(0.0, centre - half)
    return (low, 1.0 if score >= n else min(1.0, centre + half))


class _Ratio:
    """Sums for a ratio of two per-game totals (points over hands) and its delta-method
    interval, games being the units sampled."""

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
        ratio = self.value()
        if ratio is None or self.n < 2:
            return None
        spread = max(0.0, self.yy - 2 * ratio * self.xy + ratio * ratio * self.xx) / (self.n - 1)
        half = Z95 * math.sqrt(spread / self.n) / (self.x / self.n)
        return (ratio - half, ratio + half)


def _mean_interval(count: int, total: float, squares: float) -> Interval | None:
    if count < 2:
        return None
    mean = total / count
    variance = max(0.0, squares - count * mean * mean) / (count - 1)
    half = Z95 * math.sqrt(variance / count)
    return (mean - half, mean + half)


# -- the Bradley-Terry fit --------------------------------------------------------------

Pairs = Sequence[tuple[int, int, float, float]]
"""(i, j, games between them, i's score against j: wins and half the draws)"""


def _scores(count: int, pairs: Pairs) -> list[float]:
    scores = [0.5] * count  # the prior: half a win of the virtual draw
    for i, j, n, s in pairs:
        scores[i] += s
        scores[j] += n - s
    return scores


def _strengths(theta: Sequence[float]) -> list[float]:
    exp = math.exp
    return [exp(min(700.0, max(-700.0, t))) for t in theta]


def _gradient(count: int, pairs: Pairs, theta: Sequence[float], scores: Sequence[float]) -> list[float]:
    """The log-likelihood's gradient at ``theta`` (the prior included): one exponential a
    player, none a pair (i beats j with probability s_i / (s_i + s_j))."""
    strength = _strengths(theta)
    grad = [score - s / (1.0 + s) for score, s in zip(scores, strength, strict=True)]
    for i, j, n, _s in pairs:
        a, b = strength[i], strength[j]
        p = a / (a + b)
        grad[i] -= n * p
        grad[j] -= n - n * p
    return grad


def _curvature(count: int, pairs: Pairs, theta: Sequence[float]) -> list[list[float]]:
    """Minus the log-likelihood's Hessian at ``theta``: positive definite, thanks to the prior."""
    strength = _strengths(theta)
    hess = [[0.0] * count for _ in range(count)]
    for i, s in enumerate(strength):
        hess[i][i] = s / (1.0 + s) ** 2
    for i, j, n, _s in pairs:
        a, b = strength[i], strength[j]
        w = n * a * b / ((a + b) * (a + b))
        hess[i][i] += w
        hess[j][j] += w
        hess[i][j] -= w
        hess[j][i] -= w
    return hess


def _capped(step: list[float], cap: float = 2.0) -> tuple[list[float], float]:
    largest = max((abs(s) for s in step), default=0.0)
    return ([s * cap / largest for s in step] if largest > cap else step), largest


def fit_newton(count: int, pairs: Pairs, start: Sequence[float] | None = None) -> list[float]:
    """The log-strengths that maximise the likelihood (with the prior): Newton's method, the
    prior keeping the Hessian negative definite; a step is capped at 2 so that it cannot fly."""
    theta = list(start) if start is not None else [0.0] * count
    scores = _scores(count, pairs)
    for _ in range(100):
        grad = _gradient(count, pairs, theta, scores)
        step, largest = _capped(_solve(_curvature(count, pairs, theta), grad))
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if largest < 1e-11:
            break
    return theta


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ vector`` for a positive definite matrix (its Cholesky factor)."""
    return _solve_factored(_cholesky(matrix), vector)


def _cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """The lower triangle L of a positive definite matrix, L Lᵀ = matrix."""
    n = len(matrix)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row = low[i]
        for j in range(i + 1):
            other = low[j]
            total = matrix[i][j] - sum(row[k] * other[k] for k in range(j))
            row[j] = math.sqrt(max(total, 1e-300)) if i == j else total / other[j]
    return low


def _solve_factored(low: list[list[float]], vector: Sequence[float]) -> list[float]:
    n = len(vector)
    y = [0.0] * n
    for i in range(n):
        row = low[i]
        y[i] = (vector[i] - sum(row[k] * y[k] for k in range(i))) / row[i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - sum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a positive definite matrix, a column at a time from its Cholesky factor."""
    low = _cholesky(matrix)
    n = len(matrix)
    columns = [_solve_factored(low, [1.0 if i == k else 0.0 for i in range(n)]) for k in range(n)]
    return [list(row) for row in zip(*columns, strict=True)]


def fit_chord(count: int, pairs: Pairs, start: Sequence[float], inverse: list[list[float]]) -> list[float]:
    """The same maximum by Newton's chord method: every step uses one curvature (``inverse``:
    the inverse of the full data's at ``start``) instead of a new one, so a step costs the
    pairs and a product with that matrix; a resampling of the games lies near the full data,
    and the steps shrink fast. Newton's method finishes what 40 steps do not."""
    theta = list(start)
    scores = _scores(count, pairs)
    mul = operator.mul
    for _ in range(40):
        grad = _gradient(count, pairs, theta, scores)
        step, largest = _capped([sum(map(mul, row, grad)) for row in inverse])
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if largest < 1e-9:
            return theta
    return fit_newton(count, pairs, theta)


def fit_mm(count: int, pairs: Pairs, start: Sequence[float] | None = None,
           steps: int = 10_000) -> list[float]:
    """The same maximum by the minorise-maximise iteration (Zermelo; Hunter 2004): each
    strength becomes its score over the sum of games divided by the pair's strengths."""
    strength = [math.exp(t) for t in start] if start is not None else [1.0] * count
    scores = _scores(count, pairs)
    for _ in range(steps):
        weights = [1.0 / (s + 1.0) for s in strength]  # the virtual game against strength 1
        for i, j, n, _s in pairs:
            w = n / (strength[i] + strength[j])
            weights[i] += w
            weights[j] += w
        new = [score / weight for score, weight in zip(scores, weights, strict=True)]
        change = max((abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)), default=0.0)
        strength = new
        if change < 1e-12:
            break
    return [math.log(s) for s in strength]


def fit(count: int, pairs: Pairs, start: Sequence[float] | None = None) -> list[float]:
    """The fit for ``count`` players: Newton's for few, MM's for many."""
    if count <= MOST_NEWTON_PLAYERS:
        return fit_newton(count, pairs, start)
    return fit_mm(count, pairs, start)


def elo(theta: Sequence[float]) -> list[float]:
    """Log-strengths as ratings on the Elo scale, their mean at 1500."""
    mean = sum(theta) / len(theta) if theta else 0.0
    return [CENTRE + ELO * (t - mean) for t in theta]


# -- the bootstrap ----------------------------------------------------------------------


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A binomial draw: by waiting times for a small mean, else Hörmann's transformed
    rejection with squeeze (BTRS), so each draw costs O(1) whatever ``n``."""
    if n <= 0 or p <= 0:
        return 0
    if p >= 1:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1 - p)
    if n * p < 10:
        log_q, x, y = math.log1p(-p), 0, 0
        while True:
            y += math.floor(math.log(1 - rng.random()) / log_q) + 1
            if y > n:
                return x
            x += 1
    return _btrs(rng, n, p)


def _btrs(rng: random.Random, n: int, p: float) -> int:
    spq = math.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = math.log(p / (1 - p))
    mode = math.floor((n + 1) * p)
    h = math.lgamma(mode + 1) + math.lgamma(n - mode + 1)
    while True:
        u = rng.random() - 0.5
        v = rng.random()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c) if us > 0 else -1
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v *= alpha / (a / (us * us) + b)
        if math.log(v) <= h - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (k - mode) * lpq:
            return k


def multinomial(rng: random.Random, total: int, counts: Sequence[int]) -> list[int]:
    """``total`` draws with replacement from a pool holding ``counts`` of each kind: how
    many of each kind were drawn. Few draws a kind: the draws themselves; else conditional
    binomials, one a kind (both are the multinomial law, each the cheaper where it is used)."""
    if total <= 0 or not any(counts):
        return [0] * len(counts)
    if total < 8 * len(counts):
        drawn = [0] * len(counts)
        for kind in rng.choices(range(len(counts)), cum_weights=list(itertools.accumulate(counts)), k=total):
            drawn[kind] += 1
        return drawn
    drawn, left, mass = [], total, sum(counts)
    for count in counts:
        k = left if count >= mass else binomial(rng, left, count / mass) if count else 0
        drawn.append(k)
        left -= k
        mass -= count
    return drawn


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    at = q * (len(sorted_values) - 1)
    low = math.floor(at)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (at - low)


def bootstrap(count: int, cells: Sequence[tuple[int, int, int, int, int]], rounds: int, seed: int,
              start: Sequence[float]) -> list[Interval]:
    """Each player's 95% percentile interval of the rating over ``rounds`` resamplings of the
    games; ``cells`` are (i, j, wins, draws, losses) of each pair that met."""
    rng = random.Random(seed)
    flat = [c for cell in cells for c in cell[2:]]
    total = sum(flat)
    samples: list[list[float]] = [[] for _ in range(count)]
    chord = count <= MOST_NEWTON_PLAYERS
    if chord:
        full = [(i, j, float(w + d + lost), w + d / 2) for i, j, w, d, lost in cells]
        inverse = _inverse(_curvature(count, full, start))
    for _ in range(rounds):
        drawn = multinomial(rng, total, flat)
        pairs = [(i, j, float(drawn[3 * k] + drawn[3 * k + 1] + drawn[3 * k + 2]),
                  drawn[3 * k] + drawn[3 * k + 1] / 2) for k, (i, j, *_) in enumerate(cells)]
        pairs = [p for p in pairs if p[2]]
        theta = fit_chord(count, pairs, start, inverse) if chord else fit_mm(count, pairs, start)
        for place, rating in enumerate(elo(theta)):
            samples[place].append(rating)
    out = []
    for values in samples:
        values.sort()
        out.append((_percentile(values, 0.025), _percentile(values, 0.975)) if values else (CENTRE, CENTRE))
    return out


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
        theta = fit(len(names), pairs)
        ratings = elo(theta)
        intervals = bootstrap(len(names), cells, rounds, seed, theta) if rounds else [(r, r) for r in ratings]
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
                        wilson(score, player.games), rating, interval, player.net.value(),
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
                                             _mean_interval(count, total, squares)))
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
