"""``ginref match``: bots played against each other on duplicate deals, every game refereed
by the :class:`~ginref.referee.table.Table` and written as a record ``verify`` rules clean.

Gin is luck-heavy: a small edge is buried in the deal's variance unless each deal is played
twice with the seats (and the dealer) swapped. A *pair* is that: deal ``k`` played with one
bot as the non-dealer, then with the other. Its two samples are scored together, as the
pentanomial counts of :mod:`ginref.stats` take them.

Everything a run plays follows from its seed: the deals (a seed each, derived from the match
seed and the pair), and each bundled bot's generator (derived from the seed, the pair and
the bot's side of the deal, not from the order the bots are named in). So a run is repeated
byte for byte, and naming the bots the other way round plays the same games, each pair's
two legs swapped. The records name the non-dealer of the first hand first.

The run folder (``--out``) holds ``records.jsonl`` (one game a line, in pair order),
``games.csv`` (one game a row), ``times.jsonl`` (each game's wall time and each move's),
``run.json`` (the run's settings), ``progress.jsonl`` (how far it got, a line a pair, so that
``--resume`` goes on where it stopped) and ``stderr/`` (each subprocess bot's standard error).
The records and games.csv are the same byte for byte whenever the run is repeated.
"""

from __future__ import annotations

import collections
import csv
import functools
import gc
import hashlib
import io
import itertools
import json
import os
import random
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from ginref.arena.botproto import Subprocess, seen_move
from ginref.arena.players import (
    FAILURE_KINDS,
    FATAL_KINDS,
    TIME_KINDS,
    BotFailure,
    Clock,
    InProcess,
    Player,
    PlayerSpec,
    loaded,
    parse_bot,
)
from ginref.cards import scan
from ginref.errors import GinrefError, MatchError, NotationError
from ginref.layoffs import least_defence
from ginref.records.jsonencode import format_jsonl
from ginref.referee.table import IllegalMove, Move, Phase, Table
from ginref.rules import Rules, find_rules, with_overrides

if TYPE_CHECKING:
    from ginref.batch.workers import Submitted
    from ginref.ranking import Standings

__all__ = ["GameResult", "MatchError", "MatchSpec", "PairResult", "Tally", "run_match"]

Unit = Literal["hand", "game"]
Policy = str
"""``forfeit``, ``random`` (a random legal move instead), or ``retry:N`` (ask again, N times,
with the refusal's reason); see :func:`policy_of`"""
RUN_FILE, RECORDS_FILE, GAMES_FILE, TIMES_FILE = "run.json", "records.jsonl", "games.csv", "times.jsonl"
PROGRESS_FILE = "progress.jsonl"
GAMES_HEADER = ("pair", "leg", "first", "second", "dealer", "hands", "winner", "first_points",
                "second_points", "first_score", "forfeit", "failures")
MAX_MOVES = 2000
"""a game longer than this is stopped (the rules end every hand far sooner)"""


class SprtSpec(msgspec.Struct, frozen=True):
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"


class MatchSpec(msgspec.Struct, frozen=True):
    """Everything that decides what a run plays; ``run.json`` keeps it for ``--resume``."""

    bots: tuple[str, ...]
    pairs: int = 100
    seed: int = 0
    unit: Unit = "hand"
    rules: str = "standard"
    """the rule set's name (a preset)"""
    rule_overrides: tuple[tuple[str, str], ...] = ()
    """the knobs ``--set`` and ``--rules-file`` change, as :attr:`Rules.overrides` holds them"""
    mode: Literal["round_robin", "gauntlet"] = "round_robin"
    move_time: float | None = None
    game_time: float | None = None
    bank: float = 0.0
    margin: float = 0.05
    on_illegal: Policy = "forfeit"
    on_timeout: Policy = "forfeit"
    recover: bool = False
    disqualify: float = 0.5
    """a bot whose failures pass this share of its games (after ten) is disqualified"""
    sprt: SprtSpec | None = None
    concurrency: int = 1
    report_every: int = 0
    deals: tuple[str, ...] = ()
    """the deal file's lines (a seed, or 52 cards from the top): the stream of deals"""
    auto_defence: bool = False
    """the referee lays the defender's best response (``--auto-defence best``)"""
    handshake_time: float = 10.0
    """seconds a subprocess bot has to answer hello"""
    stall_after: float = 60.0
    """seconds without an answer (no clock on the move) before a bot is pinged, and given to answer"""


class GameResult(msgspec.Struct, frozen=True):
    """One game of a pair, as games.csv holds it, and its record's line."""

    pair: int
    leg: int
    first: str
    second: str
    dealer: str
    hands: int
    winner: str | None
    first_points: int
    second_points: int
    first_score: float
    """the first-named bot of the pairing's score: 1, 1/2 or 0"""
    forfeit: str | None
    failures: tuple[tuple[str, str, str], ...]
    """(bot, kind, detail) for each failure met in the game"""
    record: str
    seconds: tuple[tuple[str, float], ...] = ()
    """each bot's thinking time in the game, in seconds"""
    move_times: tuple[tuple[str, float], ...] = ()
    """each move's wall time as its bot took it: (bot, seconds), in the order played"""
    wall: float = 0.0
    """the game's wall time, bots and referee, in seconds"""
    referee: float = 0.0
    """the seconds the table took over the bots' moves: legal_moves, view and push_as_seat"""


class PairResult(msgspec.Struct, frozen=True):
    index: int
    pairing: tuple[str, str]
    games: tuple[GameResult, GameResult]
    stopped: str | None = None
    """why the run must stop after this pair (a fatal failure without --recover)"""


Scheduled = tuple[int, tuple[int, int]]
"""a pair of the schedule: its index, and its pairing (the bots' places in the run's list)"""
Lines = tuple[str, str, str]
"""a pair's records, games.csv rows and times.jsonl lines, as the run folder appends them"""


def _derived(*parts: object) -> int:
    text = " ".join(str(p) for p in ("ginref-match", *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def deal_seed(seed: int, pair: int, hand: int) -> int:
    """The shuffle of hand ``hand`` of pair ``pair``'s deals."""
    return _derived(seed, "deal", pair, hand)


def policy_of(text: str) -> tuple[str, int]:
    """``forfeit``, ``random`` or ``retry:N`` as (word, N)."""
    word, _, count = text.partition(":")
    if word in ("forfeit", "random") and not count:
        return word, 0
    if word == "retry" and count.isdigit() and 0 < int(count) <= 100:
        return word, int(count)
    raise MatchError(f"a policy is forfeit, random or retry:N (N from 1 to 100), not {text!r}")


def pairings(labels: Sequence[str], mode: str) -> list[tuple[int, int]]:
    if mode == "gauntlet":
        return [(0, j) for j in range(1, len(labels))]
    return list(combinations(range(len(labels)), 2))


def labels_of(specs: Sequence[PlayerSpec]) -> list[str]:
    """Each bot's name in the records: its label, numbered when two are alike."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec.label] = seen.get(spec.label, 0) + 1
        labels.append(spec.label if seen[spec.label] == 1 else f"{spec.label}-{seen[spec.label]}")
    return labels


class _Game:
    """One game at the table between two players, with the policies and clocks."""

    def __init__(self, spec: MatchSpec, pair: int, leg: int, names: tuple[str, str],
                 players: dict[str, Player]) -> None:
        self.spec = spec
        self.pair, self.leg = pair, leg
        self.names = names
        # leg 0: the pairing's first bot is the first hand's non-dealer; leg 1: the second is
        self.seated = (names[0], names[1]) if leg == 0 else (names[1], names[0])
        self.players = players
        self.rules = match_rules(spec)
        self.failures: list[tuple[str, str, str]] = []
        self.seconds: dict[str, float] = {n: 0.0 for n in names}
        self.move_times: list[tuple[str, float]] = []
        self.started = time.perf_counter()
        self.referee = 0.0
        """seconds in the table's legal_moves, view and push_as_seat for the bots' moves"""
        self.forfeit: str | None = None
        self.fatal: str | None = None
        # the policies' random moves follow the seating, not the leg, so that naming the bots the
        # other way round plays the same games
        self.rng = random.Random(_derived(spec.seed, "policy", pair, *self.seated))
        self.clocks = {n: Clock(spec.move_time, spec.game_time, spec.bank, spec.margin) for n in names}

    def play(self) -> GameResult:
        seated = self.seated
        table = Table(seated, self.rules, dealer=seated[1], **self._deal(0))
        for side, name in enumerate(seated):
            try:
                self.players[name].new_game(seated, name, _derived(self.spec.seed, "bot", self.pair, side),
                                            self.rules)
            except BotFailure as failure:
                self._failed(name, failure)
                return self._result(table)
        hands = 1
        moves = 0
        while self.forfeit is None:
            self._tell_all({"type": "new_hand", "hand": hands, "dealer": table.dealer})
            while not table.is_over() and self.forfeit is None and moves < MAX_MOVES:
                if self.spec.auto_defence and table.phase is Phase.DEFENCE:
                    self._auto_defence(table)
                else:
                    self._turn(table)
                moves += 1
            if self.forfeit is not None or moves >= MAX_MOVES:
                break
            self._tell_end(table)
            if self.spec.unit == "hand" or table.game().game_over:
                break
            table.next_hand(**self._deal(hands))
            hands += 1
        return self._result(table)

    def _deal(self, hand: int) -> dict[str, Any]:
        """Hand ``hand``'s deal: from the deal file's stream (pair ``k`` starts at line ``k``),
        else a shuffle seeded from the match seed."""
        deals = self.spec.deals
        if deals:
            line = deals[(self.pair + hand) % len(deals)]
            return {"seed": int(line)} if line.isdigit() else {"deck": line.split()}
        return {"seed": deal_seed(self.spec.seed, self.pair, hand)}

    def _auto_defence(self, table: Table) -> None:
        """The defender's best response, laid by the referee (``--auto-defence best``): the
        layoffs of the least-deadwood defence, each as soon as it fits, then ``finish``,
        which melds the rest at its best."""
        defender = table.to_move
        assert defender is not None
        view = table.view(defender)
        _, laid = least_defence(view.hand.mask, tuple(m.mask for m in view.melds), self.rules, table.system,
                                allow_layoffs=table.layoffs_allowed)
        pending = {(c, at) for at, mask in enumerate(laid) for c in scan(mask)}
        while pending:
            fitting = [m for m in table.legal_moves() if m.kind == "layoff" and (m.card, m.onto) in pending]
            if not fitting:
                break
            table.push(fitting[0], defender)
            pending.discard((fitting[0].card, fitting[0].onto))
            self._tell_move(table, defender, fitting[0])
        table.push(Move.finish(), defender)
        self._tell_move(table, defender, Move.finish())

    def _tell_all(self, message: dict[str, object]) -> None:
        for name in self.seated:
            if self.forfeit is not None:
                return
            try:
                self.players[name].told(message)
            except BotFailure as failure:
                self._failed(name, failure)

    def _turn(self, table: Table) -> None:
        mover = table.to_move
        assert mover is not None
        player = self.players[mover]
        start = time.perf_counter()
        legal = table.legal_moves()
        self.referee += time.perf_counter() - start
        refusal: str | None = None
        kind, count = policy_of(self.spec.on_illegal)
        tries = 0
        while True:
            start = time.perf_counter()
            view = table.view(mover)
            self.referee += time.perf_counter() - start
            try:
                answer = player.act(view, legal, self.clocks[mover], refusal)
            except BotFailure as failure:
                if failure.kind in TIME_KINDS:
                    self._timed_out(table, mover, failure)
                    return
                if failure.kind in FATAL_KINDS or failure.kind == "protocol":
                    self._failed(mover, failure)
                    return
                answer = None
                problem: BotFailure = failure
            if answer is not None:
                self.seconds[mover] += answer.seconds
                self.move_times.append((mover, round(answer.seconds, 6)))
                late = self.clocks[mover].spend(answer.seconds)
                if late is not None:
                    self._timed_out(table, mover, BotFailure(late, f"the move took {answer.seconds:.3f}s"))
                    return
                start = time.perf_counter()
                try:
                    played = table.push_as_seat(answer.move, mover)
                except IllegalMove as refused:
                    problem = BotFailure("illegal_move", f"{answer.move} ({refused.code}, rule "
                                         f"{refused.rule or 'of every game'}): {refused.seat_message}")
                    refusal = refused.seat_message
                except NotationError as exc:
                    problem = BotFailure("bad_move", f"{str(answer.move)[:60]!r}: {exc}")
                    refusal = f"not a move: {exc}"
                else:
                    self.referee += time.perf_counter() - start
                    self._tell_move(table, mover, played)
                    return
            self.failures.append((mover, problem.kind, problem.detail))
            if kind == "retry" and tries < count:
                tries += 1
                refusal = refusal or problem.detail
                continue
            if kind == "random":
                played = legal[self.rng.randrange(len(legal))]
                table.push_as_seat(played, mover)
                self._tell_move(table, mover, played)
                return
            self.forfeit = mover
            return

    def _timed_out(self, table: Table, mover: str, failure: BotFailure) -> None:
        self.failures.append((mover, failure.kind, failure.detail))
        if policy_of(self.spec.on_timeout)[0] == "random" and failure.kind == "move_timeout":
            legal = table.legal_moves()
            played = legal[self.rng.randrange(len(legal))]
            table.push_as_seat(played, mover)
            self._tell_move(table, mover, played)
            return
        self.forfeit = mover

    def _failed(self, name: str, failure: BotFailure) -> None:
        self.failures.append((name, failure.kind, failure.detail))
        self.forfeit = name
        if failure.kind in FATAL_KINDS:
            self.fatal = f"{name}: {failure}"

    def _tell_move(self, table: Table, mover: str, played: Move) -> None:
        other = self.seated[1 - self.seated.index(mover)]
        try:
            self.players[other].told({"type": "opponent", "player": mover, "move": seen_move(played)})
        except BotFailure as failure:
            self._failed(other, failure)

    def _tell_end(self, table: Table) -> None:
        ruled = table.outcome()
        if ruled is None:
            return
        self._tell_all({"type": "hand_over", "ruling": ruled.to_dict()})

    def _result(self, table: Table) -> GameResult:
        first, second = self.names
        verdict = table.game()
        points = {n: 0 for n in self.names}
        for hand in verdict.hands:
            if hand.winner in points:
                points[hand.winner] += hand.points
        if self.forfeit is not None:
            winner: str | None = second if self.forfeit == first else first
        elif self.spec.unit == "hand":
            winner = verdict.hands[-1].winner if verdict.hands else None
        else:
            winner = verdict.winner
        score = 1.0 if winner == first else 0.0 if winner == second else 0.5
        return GameResult(
            pair=self.pair, leg=self.leg, first=first, second=second, dealer=self.seated[1],
            hands=len(verdict.hands), winner=winner, first_points=points[first], second_points=points[second],
            first_score=score, forfeit=self.forfeit, failures=tuple(self.failures),
            record=format_jsonl(table.record()),
            seconds=tuple((n, round(s, 6)) for n, s in self.seconds.items()),
            move_times=tuple(self.move_times), wall=time.perf_counter() - self.started, referee=self.referee,
        )


def start_player(name: str, spec: PlayerSpec, stderr_path: str | None = None, times: Any = None) -> Player:
    """The player for ``spec``, seated as ``name``: in this process, or a subprocess (started
    at its first game) with the ``handshake_time`` and ``stall_after`` of ``times``."""
    if spec.kind == "spiel":
        from ginref.arena.spielbot import SpielPlayer

        return SpielPlayer(name, loaded(spec.target, "spiel"))
    if spec.kind == "cmd":
        handshake = getattr(times, "handshake_time", 10.0)
        stall = getattr(times, "stall_after", 60.0)
        return Subprocess(name, spec.target, stderr_path, handshake_time=handshake, stall_after=stall,
                          ping_wait=min(2.0, stall))
    return InProcess(name, spec)


def play_pair(spec: MatchSpec, index: int, pairing: tuple[int, int], labels: Sequence[str],
              players: dict[str, Player]) -> PairResult:
    """Pair ``index`` of a pairing: its deal played with each bot as the first non-dealer."""
    names = (labels[pairing[0]], labels[pairing[1]])
    games = []
    stopped = None
    for leg in (0, 1):
        game = _Game(spec, index, leg, names, players)
        result = game.play()
        games.append(result)
        if game.fatal is not None:
            if not spec.recover:
                stopped = game.fatal
            _restart(game, players)
    return PairResult(index, names, (games[0], games[1]), stopped)


def _restart(game: _Game, players: dict[str, Player]) -> None:
    """Replace each player that failed fatally by a fresh one (--recover)."""
    for name, kind, _ in game.failures:
        if kind in FATAL_KINDS:
            player = players[name]
            player.close()
            restart = getattr(player, "restarted", None)
            if restart is not None:
                players[name] = restart()


class Tally(msgspec.Struct):
    """The running counts of one pairing, from the first-named bot's side."""

    first: str
    second: str
    games: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0])
    """trinomial: losses, draws, wins"""
    pairs: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0, 0])
    net_points: list[int] = msgspec.field(default_factory=list)
    """per pair, the first bot's hand points less the second's"""
    failures: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    failed_games: dict[str, int] = msgspec.field(default_factory=dict)
    """per bot, the games in which it failed at least once"""

    def add(self, games: Sequence[GameResult]) -> None:
        total = 0.0
        net = 0
        for game in games:
            for bot in {bot for bot, _, _ in game.failures}:
                self.failed_games[bot] = self.failed_games.get(bot, 0) + 1
            self.games[int(game.first_score * 2)] += 1
            total += game.first_score
            net += game.first_points - game.second_points
            for bot, kind, _ in game.failures:
                counts = self.failures.setdefault(bot, {})
                counts[kind] = counts.get(kind, 0) + 1
        self.pairs[int(total * 2)] += 1
        self.net_points.append(net)


class MatchSummary(msgspec.Struct, frozen=True):
    """What a run ends with: each pairing's tally, the SPRT's last word, why it stopped."""

    spec: MatchSpec
    tallies: tuple[Tally, ...]
    pairs_played: int
    sprt: dict[str, object] | None = None
    stopped: str | None = None
    out: str | None = None

    def document(self) -> dict[str, Any]:
        """The summary as JSON (``--json``)."""
        shown: dict[str, Any] = msgspec.to_builtins(self)
        return shown


def match_rules(spec: MatchSpec) -> Rules:
    """The rules a run plays: its preset with its knobs changed."""
    rules = find_rules(spec.rules)
    return with_overrides(rules, dict(spec.rule_overrides)) if spec.rule_overrides else rules


def check_spec(spec: MatchSpec) -> list[PlayerSpec]:
    """The bots of ``spec``, once everything it asks for is known to be playable; else a
    :class:`MatchError` (or :class:`GinrefError`) saying what is not."""
    specs = _specs(spec)
    policy_of(spec.on_illegal)
    if policy_of(spec.on_timeout)[0] == "retry":
        raise MatchError("a policy for a timeout is forfeit or random")
    rules = match_rules(spec)
    for bot in specs:
        if bot.kind == "spiel":  # the factory there, pyspiel installed, the rules playable
            from ginref.arena.spielbot import spiel_game

            loaded(bot.target, "spiel")
            spiel_game(rules)
    if spec.pairs < 1 or spec.concurrency < 1:
        raise MatchError("a match plays one pair or more, in one process or more")
    if spec.sprt is not None:
        if len(specs) != 2:
            raise MatchError("the SPRT compares two bots: name two")
        from ginref.stats import MODELS, StatsError, sprt_bounds

        try:
            sprt_bounds(spec.sprt.alpha, spec.sprt.beta)
        except StatsError as exc:
            raise MatchError(f"--sprt: {exc}") from None
        if spec.sprt.model not in MODELS or not spec.sprt.elo0 < spec.sprt.elo1:
            raise MatchError(f"--sprt: elo0 below elo1, and a model of {', '.join(MODELS)}")
    return specs


def _specs(spec: MatchSpec) -> list[PlayerSpec]:
    if len(spec.bots) < 2:
        raise MatchError("a match needs two bots or more")
    return [parse_bot(b) for b in spec.bots]


def schedule(spec: MatchSpec) -> list[Scheduled]:
    """Every pair the run plays, in order: pair 0 of each pairing, then pair 1, ..."""
    labels = labels_of(_specs(spec))
    return [(i, p) for i in range(spec.pairs) for p in pairings(labels, spec.mode)]


def run_match(spec: MatchSpec, out: str | None = None, *, resume: bool = False,
              on_pair: Callable[[PairResult, Sequence[Tally]], None] | None = None) -> MatchSummary:
    """Play the run ``spec`` asks for (or, with ``resume``, go on with the one in ``out``),
    writing each pair's games to ``out`` as they finish, in pair order; ``on_pair`` hears of
    each pair with the tallies so far. Returns the summary; a fatal failure without
    ``recover`` stops the run after that pair (the summary's ``stopped``)."""
    specs = check_spec(spec)
    labels = labels_of(specs)
    work = schedule(spec)
    folder = _Folder(out, spec, resume) if out is not None else None
    done = folder.done if folder is not None else 0
    tallies = {p: Tally(labels[p[0]], labels[p[1]]) for p in pairings(labels, spec.mode)}
    if folder is not None:
        for earlier in folder.earlier():
            key = (labels.index(earlier[0].first), labels.index(earlier[0].second))
            tallies[key].add(earlier)
    stopped: str | None = None
    sprt_state: dict[str, object] | None = _sprt_state(spec, tallies)
    played = done
    if sprt_state is not None and sprt_state["decision"] != "continue":
        work = []
    results = _results(spec, specs, labels, work[done:], folder)
    try:
        for result, lines in results:
            key = (labels.index(result.pairing[0]), labels.index(result.pairing[1]))
            tallies[key].add(result.games)
            played += 1
            if folder is not None:
                folder.write(lines, played)
            sprt_state = _sprt_state(spec, tallies)
            if on_pair is not None:
                on_pair(result, tuple(tallies.values()))
            stopped = result.stopped or _disqualified(spec, tallies)
            if stopped is not None:
                break
            if sprt_state is not None and sprt_state["decision"] != "continue":
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
        if folder is not None:
            folder.close()
    return MatchSummary(spec, tuple(tallies.values()), played, sprt_state, stopped, out)


def _disqualified(spec: MatchSpec, tallies: dict[tuple[int, int], Tally]) -> str | None:
    """Why a bot is disqualified: its games with a failure pass ``spec.disqualify`` of its
    games (counted from its tenth game on); else None."""
    games: dict[str, int] = {}
    failed: dict[str, int] = {}
    for tally in tallies.values():
        played = sum(tally.games)
        for bot in (tally.first, tally.second):
            games[bot] = games.get(bot, 0) + played
            failed[bot] = failed.get(bot, 0) + tally.failed_games.get(bot, 0)
    for bot, count in games.items():
        if count >= 10 and failed.get(bot, 0) > spec.disqualify * count:
            return f"{bot} is disqualified: a failure in {failed[bot]} of its {count} games"
    return None


def match_standings(out: str, seed: int = 0) -> Standings:
    """The standings of the run in folder ``out``: Bradley-Terry ratings with bootstrap
    intervals, head to head, and the duplicate pairs (:func:`ginref.ranking.standings`)."""
    from ginref.ranking import standings  # the batch's machinery, loaded only at the end

    return standings([str(Path(out) / RECORDS_FILE)], duplicate=True, seed=seed)


def _sprt_state(spec: MatchSpec, tallies: dict[tuple[int, int], Tally]) -> dict[str, object] | None:
    if spec.sprt is None or len(tallies) != 1:
        return None
    from ginref.stats import sprt
    tally = next(iter(tallies.values()))
    if not sum(tally.pairs):
        return {"llr": 0.0, "decision": "continue"}
    s = spec.sprt
    result = sprt(tally.pairs, s.elo0, s.elo1, alpha=s.alpha, beta=s.beta, model=s.model)
    return msgspec.to_builtins(result)  # type: ignore[no-any-return]


def _results(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str],
             work: Sequence[Scheduled], folder: _Folder | None
             ) -> Iterator[tuple[PairResult, Lines]]:
    stderr = folder.stderr if folder is not None else None
    if spec.concurrency <= 1 or len(work) < 2 or not hasattr(os, "fork"):  # Windows: the workers fork
        yield from _serial(spec, specs, labels, work, stderr)
        return
    yield from _parallel(spec, specs, labels, work, stderr)


def _serial(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str],
            work: Sequence[Scheduled], stderr: str | None) -> Iterator[tuple[PairResult, Lines]]:
    players: dict[str, Player] = {}
    try:
        for index, pairing in work:
            for i in pairing:
                if labels[i] not in players:
                    path = None if stderr is None else os.path.join(stderr, f"{labels[i]}.log")
                    players[labels[i]] = start_player(labels[i], specs[i], path, spec)
            result = play_pair(spec, index, pairing, labels, players)
            yield result, pair_lines(result)
    finally:
        for player in players.values():
            player.close()


# -- pairs in worker processes (--concurrency N) ---------------------------------------------------
# Each worker plays whole pairs: it keeps its own players (a subprocess bot is started once per
# worker, not once per pair), referees the games, and encodes their records, games.csv rows and
# times.jsonl lines (:func:`pair_lines`). This process only hands out the pairs, a few at a time,
# and writes what comes back in schedule order, so that a run's folder is the same whatever the
# concurrency. The workers are the batch's (:mod:`ginref.batch.workers`: forked, one pipe each,
# no thread here), so this process spends about 20 µs a hand, a fiftieth of a worker's.

class _Worker:
    """What a worker process plays with: the run, the bots, and the players it started."""

    def __init__(self, spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str],
                 stderr: str | None) -> None:
        self.spec, self.specs, self.labels, self.stderr = spec, specs, labels, stderr
        self.players: dict[str, Player] = {}

    def play(self, item: Scheduled) -> PairResult:
        index, pairing = item
        for i in pairing:
            label = self.labels[i]
            if label not in self.players:
                log = f"{label}.{os.getpid()}.log"
                path = None if self.stderr is None else os.path.join(self.stderr, log)
                self.players[label] = start_player(label, self.specs[i], path, self.spec)
        return play_pair(self.spec, index, pairing, self.labels, self.players)

    def close(self) -> None:
        for player in self.players.values():
            player.close()


_worker: _Worker | None = None
"""this worker process's :class:`_Worker`"""


def _setup(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str], stderr: str | None) -> None:
    """A worker's start (Ctrl-C is the main process's to handle): when the run stops early
    (SIGTERM), its subprocess bots are stopped first, so that none is left running."""
    global _worker
    _worker = _Worker(spec, specs, labels, stderr)
    signal.signal(signal.SIGTERM, _stop_worker)


def _teardown() -> None:
    if _worker is not None:
        _worker.close()


def _stop_worker(signum: int, frame: object) -> None:
    _teardown()
    os._exit(0)


def _play_chunk(items: Sequence[Scheduled]) -> list[tuple[PairResult, Lines]]:
    """A worker's task: some pairs, played and encoded."""
    assert _worker is not None
    played = []
    for item in items:
        result = _worker.play(item)
        played.append((result, pair_lines(result)))
        if result.stopped is not None:  # the run stops after it: the rest of the chunk is not played
            break
    return played


def _chunks(work: Sequence[Scheduled], jobs: int) -> list[list[Scheduled]]:
    """The pairs in tasks of up to four: few enough trips to the workers, and enough tasks
    (four a worker at least) that none waits long at the end."""
    size = max(1, min(4, len(work) // (jobs * 4)))
    return [list(work[at:at + size]) for at in range(0, len(work), size)]


def _parallel(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str],
              work: Sequence[Scheduled], stderr: str | None) -> Iterator[tuple[PairResult, Lines]]:
    from ginref.batch.workers import WorkerLost, Workers

    # What is loaded by now lives as long as the run: garbage collection need not walk it again
    # and again in the workers that inherit it, nor write to its pages there (as the batch does).
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        workers = Workers(spec.concurrency, functools.partial(_setup, spec, specs, labels, stderr), _teardown)
    finally:
        if freezing:
            gc.unfreeze()
    finished = False
    try:
        pending: collections.deque[Submitted[list[tuple[PairResult, Lines]]]] = collections.deque()
        chunks = iter(_chunks(work, spec.concurrency))
        for chunk in chunks:  # two tasks a worker in flight: none waits for this process
            pending.append(workers.submit(_play_chunk, chunk))
            if len(pending) >= 2 * spec.concurrency:
                break
        while pending:
            try:
                done = pending.popleft().result()
            except WorkerLost as exc:
                raise MatchError(f"a worker process was lost: {exc}") from None
            for chunk in itertools.islice(chunks, 1):
                pending.append(workers.submit(_play_chunk, chunk))
            for played in done:
                yield played
                if played[0].stopped is not None:
                    return
        finished = True
    finally:
        if finished:
            workers.close()  # each worker closes its bots (quit) and exits
        else:
            workers.stop(signal.SIGTERM)  # stopped early: the workers stop their bots and exit now


# -- the run folder ------------------------------------------------------------------------------


class _Folder:
    """The run folder. ``run.json`` holds the run's settings (written once, atomically) and,
    at the end, how far it got. Each pair's games are appended to the records, games.csv and
    times.jsonl, then one line to ``progress.jsonl`` with the pairs done and the byte length
    of each file: appending a line costs far less than renaming a file after every pair. A
    resume takes the last whole line there, cuts anything written after it, and plays on
    from the next pair (a pair cut short is played again, so no game is lost or doubled)."""

    FILES = (RECORDS_FILE, GAMES_FILE, TIMES_FILE)

    def __init__(self, out: str, spec: MatchSpec, resume: bool) -> None:
        self.path = Path(out)
        self.spec = spec
        self.stderr = str(self.path / "stderr")
        run = self.path / RUN_FILE
        if resume:
            self.done, sizes = self._progress(out)
            for name, size in sizes.items():
                with open(self.path / name, "r+b") as handle:
                    handle.truncate(size)
        else:
            if run.exists():
                raise MatchError(f"{out} already holds a run: --resume it, or choose another --out")
            self.path.mkdir(parents=True, exist_ok=True)
            (self.path / RECORDS_FILE).write_bytes(b"")
            (self.path / TIMES_FILE).write_bytes(b"")
            (self.path / GAMES_FILE).write_text(",".join(GAMES_HEADER) + "\n", encoding="utf-8")
            (self.path / PROGRESS_FILE).write_bytes(b"")
            self.done = 0
            self.save(0)
        os.makedirs(self.stderr, exist_ok=True)
        self.handles = {name: open(self.path / name, "a", encoding="utf-8", newline="")  # noqa: SIM115
                        for name in (*self.FILES, PROGRESS_FILE)}

    def _progress(self, out: str) -> tuple[int, dict[str, int]]:
        """The pairs done and the files' lengths then, from progress.jsonl's last whole line."""
        done, sizes = 0, {RECORDS_FILE: 0, GAMES_FILE: len(",".join(GAMES_HEADER)) + 1, TIMES_FILE: 0}
        kept = 0
        try:
            raw = (self.path / PROGRESS_FILE).read_bytes()
        except OSError as exc:
            raise MatchError(f"cannot resume from {out}: {exc}") from None
        for line in raw.splitlines(keepends=True):
            if not line.endswith(b"\n"):
                break
            try:
                state = json.loads(line)
                done, sizes = int(state["pairs_done"]), {k: int(state["sizes"][k]) for k in self.FILES}
            except (ValueError, KeyError, TypeError):
                break
            kept += len(line)
        sizes[PROGRESS_FILE] = kept
        return done, sizes

    def earlier(self) -> Iterator[tuple[GameResult, GameResult]]:
        """The games already in the folder, a pair at a time (from games.csv)."""
        with open(self.path / GAMES_FILE, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        games = [_game_of_row(row) for row in rows]
        for at in range(0, len(games) - 1, 2):
            yield games[at], games[at + 1]

    def write(self, lines: Lines, played: int) -> None:
        """Append a pair's lines (:func:`pair_lines`), then the progress line that counts it."""
        sizes = {}
        for name, text in zip(self.FILES, lines, strict=True):
            handle = self.handles[name]
            handle.write(text)
            handle.flush()
            sizes[name] = handle.tell()
        progress = self.handles[PROGRESS_FILE]
        progress.write(json.dumps({"pairs_done": played, "sizes": sizes}) + "\n")
        progress.flush()
        self.done = played

    def save(self, played: int) -> None:
        """Write run.json: the settings, and the pairs done so far."""
        state = {"spec": msgspec.to_builtins(self.spec), "pairs_done": played}
        temporary = self.path / (RUN_FILE + ".tmp")
        temporary.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, self.path / RUN_FILE)

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()
        self.save(self.done)


def spec_of_run(out: str) -> MatchSpec:
    """The settings of the run in folder ``out`` (for ``--resume``)."""
    try:
        state = json.loads((Path(out) / RUN_FILE).read_text(encoding="utf-8"))
        return msgspec.convert(state["spec"], MatchSpec)
    except (OSError, ValueError, KeyError, TypeError, msgspec.ValidationError) as exc:
        raise MatchError(f"cannot resume from {out}: {exc}") from None


def pair_lines(result: PairResult) -> Lines:
    """A pair's two games as the run folder holds them: the records' lines, games.csv's rows
    and times.jsonl's lines (written by the process that played the pair)."""
    records, rows, times = [], io.StringIO(), []
    writer = csv.writer(rows, lineterminator="\n")
    for game in result.games:
        records.append(game.record + "\n")
        writer.writerow(_row_of_game(game))
        times.append(json.dumps({"pair": game.pair, "leg": game.leg, "wall": round(game.wall, 6),
                                 "moves": game.move_times}) + "\n")
    return "".join(records), rows.getvalue(), "".join(times)


def _row_of_game(game: GameResult) -> list[object]:
    failures = ";".join(f"{bot}:{kind}" for bot, kind, _ in game.failures)
    return [game.pair, game.leg, game.first, game.second, game.dealer, game.hands, game.winner or "",
            game.first_points, game.second_points, game.first_score, game.forfeit or "", failures]


def _game_of_row(row: dict[str, str]) -> GameResult:
    failures = tuple((f.rsplit(":", 1)[0], f.rsplit(":", 1)[1], "") for f in row["failures"].split(";") if f)
    return GameResult(
        pair=int(row["pair"]), leg=int(row["leg"]), first=row["first"], second=row["second"],
        dealer=row["dealer"], hands=int(row["hands"]), winner=row["winner"] or None,
        first_points=int(row["first_points"]), second_points=int(row["second_points"]),
        first_score=float(row["first_score"]), forfeit=row["forfeit"] or None, failures=failures, record="",
    )


def games_csv(results: Sequence[GameResult]) -> str:
    """Games as games.csv writes them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(GAMES_HEADER)
    for game in results:
        writer.writerow(_row_of_game(game))
    return buffer.getvalue()


__all__ += ["FAILURE_KINDS", "MatchSummary", "deal_seed", "load_deals", "match_rules", "match_standings",
            "policy_of", "spec_of_run"]


def load_deals(path: str) -> tuple[str, ...]:
    """A deal file's deals: one a line, a seed (a whole number) or the 52 cards of a deck
    from the top; blank lines and ``#`` comments skipped. A bad line raises MatchError
    naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MatchError(f"cannot read the deals in {path}: {exc}") from None
    deals = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        deal = {"seed": int(line)} if line.isdigit() else {"deck": line.split()}
        try:
            Table(("a", "b"), **deal)
        except GinrefError as exc:
            raise MatchError(f"{path}:{number}: not a deal: {exc}") from None
        deals.append(" ".join(line.split()))
    if not deals:
        raise MatchError(f"{path} holds no deal")
    return tuple(deals)
