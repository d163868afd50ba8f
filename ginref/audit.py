"""Audit a batch: how each player played and erred over every game, from the verdicts of ``verify``.

An audit sits above the batch, which it drives, and above :mod:`ginref.advice`, which
weighs its knocks, so that the batch itself stays plumbing.

Every figure of a :class:`PlayerReport` is a count or a sum over the hands and findings of
the verdicts that :func:`ginref.batch.verify` gives for the same input, added up in the
process that reports the batch (:class:`Audit`); the workers do what they do for
``verify``, so ``report`` and ``verify --jsonl`` agree, and the batch scales and survives
bad input as ``verify`` does: every record is counted once, an unreadable one as such.

A finding belongs to the player whose move it stands at (:attr:`ginref.referee.findings.
Finding.player`); one that names no player (the deal, the claims, the record) counts in
:attr:`BatchReport.record_errors`. Rows are players (``by="player"``), or games or rule
sets (``"game"``, ``"rules"``), whose figures are those of both players of their games.

With a :class:`Weighing` (``--advise``), each knock with deadwood is also weighed as
:func:`ginref.advise` weighs it at that moment, on a seeded sample of the hands the
defender may hold: the batch checks the records in this process, since it needs them, and
:func:`weigh_knocks` adds to each result the undercut risk of its knocks
(:class:`WeighedKnocks`, the result's ``added``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import msgspec

from ginref.batch.results import Adding, BatchSummary, RecordResult
from ginref.batch.run import Inputs, Tally, tally, verify
from ginref.errors import GinrefError
from ginref.game import two_players
from ginref.records.io import Reading
from ginref.records.model import GameRecord, Turn
from ginref.referee import Verdict
from ginref.referee.findings import Finding
from ginref.referee.state import WALL_ENDS
from ginref.referee.verdict import HandVerdict
from ginref.rules import Rules

if TYPE_CHECKING:
    from ginref.referee.position import Position

__all__ = ["GROUPS", "Audit", "BatchReport", "Group", "KnockRisks", "PlayerReport", "WeighedKnocks",
           "Weighing", "report", "weigh_knocks"]

Group = Literal["player", "game", "rules"]
GROUPS: tuple[Group, ...] = ("player", "game", "rules")
Counts = tuple[tuple[str, int], ...]
"""finding code -> count, by code"""


class KnockRisks(msgspec.Struct, frozen=True):
    """The undercut risk of a row's knocks with deadwood, as :func:`ginref.advise` weighs each."""

    weighed: int = 0
    """knocks with deadwood whose position could be followed and weighed"""
    risky: int = 0
    """of those, knocks into an undercut risk above :attr:`Weighing.risk_above`"""
    expected_undercuts: float = 0.0
    """the sum of their undercut risks"""

    def to_dict(self) -> dict[str, object]:
        return {"weighed": self.weighed, "risky": self.risky,
                "expected_undercuts": round(self.expected_undercuts, 6)}


class PlayerReport(msgspec.Struct, frozen=True):
    """One row of a :class:`BatchReport`: a player (or a game, a rule set) over the batch.

    Points are hand points as ruled (doubled hands doubled; no game bonuses). ``knocks``
    counts every knock, gin and big gin included (an illegal one too); ``knock_deadwood``
    is the deadwood of the ``knocks_shown`` whose cards the record shows.
    ``knock_not_best_points`` and ``missed_layoff_points`` are the deadwood points
    declared, or left, over the least the cards allowed. ``unfinished`` hands stopped
    before their end; ``forfeited`` are those this row's player stopped (forfeit, timeout,
    illegal move, error). ``wall_hands`` ran the stock to its floor with no knock.
    """

    name: str
    games: int = 0
    games_won: int = 0
    hands: int = 0
    hands_won: int = 0
    points_for: int = 0
    points_against: int = 0
    knocks: int = 0
    gins: int = 0
    big_gins: int = 0
    undercuts_made: int = 0
    undercuts_suffered: int = 0
    knock_deadwood: int = 0
    knocks_shown: int = 0
    knocks_not_best: int = 0
    knock_not_best_points: int = 0
    missed_layoffs: int = 0
    missed_layoff_points: int = 0
    first_fit_layoffs: int = 0
    """defences whose layoffs stopped short of the best for the same melds (an engine laying off
    first fit, as the EAAI framework's does, for this row's player)"""
    first_fit_layoff_points: int = 0
    illegal_moves: Counts = ()
    unfinished: int = 0
    forfeited: int = 0
    wall_hands: int = 0
    undercut_risk: KnockRisks | None = None
    """with a :class:`Weighing` only"""
    players: tuple[str, ...] = ()
    """a row of a game (``by="game"``) only: the record's two players (none unless two names)"""
    winner: str | None = None
    """a row of a game only: who won it by totals, as the standings count a game (the game's
    winner, or the player ahead where the record ends; None drawn or no two players)"""

    @property
    def average_knock_deadwood(self) -> float | None:
        """The deadwood at a knock, on average over the knocks shown (None before any)."""
        return self.knock_deadwood / self.knocks_shown if self.knocks_shown else None

    @property
    def wall_share(self) -> float | None:
        """The share of the hands ended by the wall (None before any hand)."""
        return self.wall_hands / self.hands if self.hands else None

    @property
    def illegal_move_count(self) -> int:
        """The illegal moves, of every code."""
        return sum(count for _, count in self.illegal_moves)

    def to_dict(self) -> dict[str, object]:
        document: dict[str, object] = {name: getattr(self, name) for name in self.__struct_fields__}
        document["illegal_moves"] = dict(self.illegal_moves)
        document["illegal_move_count"] = self.illegal_move_count
        document["average_knock_deadwood"] = _rounded(self.average_knock_deadwood)
        document["wall_share"] = _rounded(self.wall_share)
        document["undercut_risk"] = None if self.undercut_risk is None else self.undercut_risk.to_dict()
        return document


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


class Weighing(msgspec.Struct, frozen=True):
    """How each knock is weighed (``--advise``): defender hands sampled per knock, their seed,
    and the undercut risk above which a knock counts as risky."""

    samples: int = 200
    seed: int = 0
    risk_above: float = 0.3

    def to_dict(self) -> dict[str, object]:
        return {"samples": self.samples, "seed": self.seed, "risk_above": self.risk_above}


class BatchReport(msgspec.Struct, frozen=True):
    """A batch audited: one row per player (or game, or rule set), and the batch's counts.

    ``games`` and ``hands`` are those of the readable records; ``records``, ``clean``,
    ``with_findings``, ``unreadable``, ``with_advisories`` and ``by_code`` are the counts of
    :class:`~ginref.batch.BatchSummary`; ``record_errors`` the error findings that name no
    player, by code.
    """

    by: Group
    rows: tuple[PlayerReport, ...]
    games: int
    hands: int
    records: int
    clean: int
    with_findings: int
    unreadable: int
    with_advisories: int
    by_code: Counts
    record_errors: Counts
    weighing: Weighing | None = None

    def ordered(self, places: dict[str, int]) -> BatchReport:
        """The report with its rows in the order of ``places`` (a row's name -> its place; those
        without one last, by name): rows of players by their standing."""
        if self.by != "player":
            return self
        last = len(places)
        rows = sorted(self.rows, key=lambda row: (places.get(row.name, last), row.name))
        return msgspec.structs.replace(self, rows=tuple(rows))

    @property
    def exit_code(self) -> int:
        """The exit code, as ``verify``'s: 1 any record with findings (wins), 3 any unreadable, else 0."""
        return 1 if self.with_findings else 3 if self.unreadable else 0

    def to_dict(self) -> dict[str, object]:
        return {
            "by": self.by,
            "rows": [row.to_dict() for row in self.rows],
            "games": self.games,
            "hands": self.hands,
            "summary": {"records": self.records, "clean": self.clean, "with_findings": self.with_findings,
                        "unreadable": self.unreadable, "with_advisories": self.with_advisories,
                        "by_code": dict(self.by_code)},
            "record_errors": dict(self.record_errors),
            "advise": None if self.weighing is None else self.weighing.to_dict(),
        }


class WeighedKnocks(msgspec.Struct, frozen=True):
    """What ``--advise`` adds to a record's result (:attr:`~ginref.batch.RecordResult.added`):
    the undercut risk of each knock with deadwood that could be weighed, ``(hand index, risk)``."""

    undercut_risks: tuple[tuple[int, float], ...] = ()


# -- adding up ----------------------------------------------------------------------------


class _Row:
    """A row being added up: its counts by field, its illegal moves by code, its knocks' risks."""

    __slots__ = ("counts", "illegal", "name", "players", "risks", "winner")

    def __init__(self, name: str) -> None:
        self.name = name
        self.counts: Counter[str] = Counter()
        self.illegal: Counter[str] = Counter()
        self.risks: list[float] = []
        self.players: tuple[str, ...] = ()
        self.winner: str | None = None

    def add(self, verdict: Verdict, seats: frozenset[str], risks: dict[int, float]) -> None:
        self.counts["games"] += 1
        self.counts["games_won"] += verdict.winner in seats
        for hand in verdict.hands:
            self._hand(hand, seats)
            if hand.index in risks and hand.knocker in seats:
                self.risks.append(risks[hand.index])
        for finding in verdict.findings:
            if finding.player in seats:
                self._finding(finding)

    def _hand(self, hand: HandVerdict, seats: frozenset[str]) -> None:
        counts, outcome = self.counts, hand.outcome
        counts["hands"] += 1
        if hand.winner is not None:
            won = hand.winner in seats
            counts["hands_won"] += won
            counts["points_for" if won else "points_against"] += hand.points
            counts["undercuts_made"] += won and outcome == "undercut"
        if hand.knocker in seats:
            counts["knocks"] += 1
            counts["gins"] += outcome == "gin"
            counts["big_gins"] += outcome == "big_gin"
            counts["undercuts_suffered"] += outcome == "undercut"
            if hand.knocker_deadwood is not None:
                counts["knocks_shown"] += 1
                counts["knock_deadwood"] += hand.knocker_deadwood
        counts["wall_hands"] += hand.end in WALL_ENDS
        stop = hand.unfinished
        if stop is not None:
            counts["unfinished"] += 1
            counts["forfeited"] += stop.stopped_by in seats and stop.reason != "stopped"

    def _finding(self, finding: Finding) -> None:
        if finding.severity == "error":
            self.illegal[finding.code] += 1
        elif finding.code == "knock_not_best":
            self.counts["knocks_not_best"] += 1
            self.counts["knock_not_best_points"] += finding.points
        elif finding.code == "missed_layoff":
            self.counts["missed_layoffs"] += 1
            self.counts["missed_layoff_points"] += finding.points
        elif finding.code == "first_fit_layoff":
            self.counts["first_fit_layoffs"] += 1
            self.counts["first_fit_layoff_points"] += finding.points

    def report(self, weighing: Weighing | None) -> PlayerReport:
        risk = None
        if weighing is not None:
            risky = sum(r > weighing.risk_above for r in self.risks)
            risk = KnockRisks(len(self.risks), risky, sum(self.risks))
        return PlayerReport(self.name, **self.counts, illegal_moves=tuple(sorted(self.illegal.items())),
                            undercut_risk=risk, players=self.players, winner=self.winner)


def game_score(verdict: Verdict) -> float | None:
    """The first player's score in the record's game: 1 won, 0.5 drawn, 0 lost; None when the
    record has no two players to credit. Won by game totals: the winner of a game that is
    over, else the player ahead on the totals reached."""
    first, second = verdict.players
    if not two_players(verdict.players):
        return None
    if verdict.game_over and verdict.winner in verdict.players:
        return 1.0 if verdict.winner == first else 0.0
    totals = dict(verdict.final_totals)
    ahead = totals.get(first, 0) - totals.get(second, 0)
    return 1.0 if ahead > 0 else 0.0 if ahead < 0 else 0.5


def _winner_by_totals(verdict: Verdict) -> str | None:
    """The record's winner as the standings count it (:func:`game_score`)."""
    score = game_score(verdict)
    return None if score is None or score == 0.5 else verdict.players[0 if score == 1 else 1]


def _by_name(row: PlayerReport) -> tuple[str, str]:
    return (row.name.casefold(), row.name)


def seats_of(verdict: Verdict) -> tuple[str, ...]:
    """The record's players, when they are two different names (else none: no one to credit)."""
    return verdict.players if two_players(verdict.players) else ()


class Audit:
    """Adds up a batch's results, one at a time, in the order given (the batch's order)."""

    def __init__(self, by: Group = "player", weighing: Weighing | None = None) -> None:
        if by not in GROUPS:
            raise GinrefError(f"a report groups rows by player, game or rules, not {by!r}")
        self.by, self.weighing = by, weighing
        self.summary = BatchSummary()
        self.rows: dict[object, _Row] = {}
        self.games = self.hands = 0
        self.record_errors: Counter[str] = Counter()

    def add(self, result: RecordResult) -> None:
        """Count ``result``: its verdict's hands and findings into its rows, or it as unreadable."""
        self.summary.add(result)
        verdict = result.verdict
        if verdict is None:
            return
        self.games += 1
        self.hands += len(verdict.hands)
        seats = seats_of(verdict)
        self.record_errors.update(f.code for f in verdict.errors if f.player not in seats)
        added = result.added
        risks = dict(added.undercut_risks) if isinstance(added, WeighedKnocks) else {}
        for key, name, sitting in self._rows_of(result, verdict, seats):
            row = self.rows.get(key)
            if row is None:
                row = self.rows[key] = _Row(name)
                if self.by == "game":
                    row.players, row.winner = seats, _winner_by_totals(verdict)
            row.add(verdict, sitting, risks)

    def _rows_of(
        self, result: RecordResult, verdict: Verdict, seats: tuple[str, ...]
    ) -> Iterator[tuple[object, str, frozenset[str]]]:
        """Each row the verdict counts in: its key, its name, the seats it credits."""
        if self.by == "player":
            for player in seats:
                yield ("player", player), player, frozenset((player,))
        elif self.by == "game":
            yield (result.source, result.index), f"{result.source}:{result.line}", frozenset(seats)
        else:
            yield ("rules", verdict.rules), verdict.rules, frozenset(seats)

    def _rows(self) -> tuple[PlayerReport, ...]:
        """Players and rule sets by name; games in the batch's order (a file's lines in order)."""
        rows = [row.report(self.weighing) for row in self.rows.values()]
        return tuple(rows if self.by == "game" else sorted(rows, key=_by_name))

    def report(self) -> BatchReport:
        s = self.summary
        return BatchReport(
            self.by, self._rows(), self.games, self.hands,
            s.records, s.clean, s.with_findings, s.unreadable, s.advisories, tuple(sorted(s.by_code.items())),
            tuple(sorted(self.record_errors.items())), self.weighing,
        )


# -- the knocks weighed -------------------------------------------------------------------


def knock_risks(record: GameRecord, verdict: Verdict, weighing: Weighing,
                rules: Rules | None = None) -> tuple[tuple[int, float], ...]:
    """The undercut risk of each knock with deadwood in ``record`` that can be weighed:
    ``(hand index, risk)``, as :func:`ginref.advise` gives it for the ten cards kept, at the
    knocker's position as :func:`~ginref.referee.position.position_in` reads it."""
    from ginref.referee.position import position_in

    def at(hand: int, event: int) -> Position | None:
        try:
            return position_in(record, hand, event, rules)
        except GinrefError:
            return None

    return _risks(record, verdict, weighing, at)


def _risks(record: GameRecord, verdict: Verdict, weighing: Weighing,
           position: Callable[[int, int], Position | None]) -> tuple[tuple[int, float], ...]:
    """The risks of :func:`knock_risks`, each knock's position read by ``position(hand, event)``."""
    risks = []
    for hand in verdict.hands:
        if hand.knocker is None or not hand.knocker_deadwood or hand.outcome == "illegal_knock":
            continue
        events = record.hands[hand.index].events
        turn = next((j for j, ev in enumerate(events) if isinstance(ev, Turn) and ev.knock is not None), None)
        at = None if turn is None else position(hand.index, turn)
        risk = None if at is None or turn is None else _undercut_risk(cast(Turn, events[turn]), at, weighing)
        if risk is not None:
            risks.append((hand.index, risk))
    return tuple(risks)


def _read_off(positions: dict[int, Position]) -> Callable[[int, int], Position | None]:
    """The position of each hand's first knock, as the replay kept it."""
    return lambda hand, _event: positions.get(hand)


def _undercut_risk(turn: Turn, at: Position, weighing: Weighing) -> float | None:
    """The undercut risk of the knock ``turn``: ``at``, its position after the draw, less the
    face-down discard (then seen), weighed; None when it cannot be."""
    from ginref.advice import advise

    assert turn.knock is not None
    discard = turn.knock.discard if turn.knock.discard is not None else turn.discard
    if discard is None or not at.hand >> discard & 1:
        return None
    try:
        advice = advise(at.hand & ~(1 << discard), at.rules, seen=at.seen | 1 << discard,
                        opponent_has=at.opponent_has, stock=at.stock, upcard=at.upcard,
                        samples=weighing.samples, seed=weighing.seed, method="sampled")
    except GinrefError:
        return None
    knocks = [option.p_undercut for option in advice.options if option.ending == "knock"]
    return knocks[0] if knocks else None


def weigh_knocks(weighing: Weighing) -> Adding:
    """What the batch adds to each record's result for ``weighing``: its knocks weighed
    (:class:`WeighedKnocks`), each knocked hand replayed once, since the knock's position is
    read off the replay that rules on the record (:func:`~ginref.referee.position.knock_positions`)."""
    return functools.partial(_weighed, weighing=weighing)


def _weighed(record: GameRecord, rules: Rules | None, weighing: Weighing) -> tuple[Verdict, WeighedKnocks]:
    from ginref.referee.position import knock_positions

    verdict, positions = knock_positions(record, rules)
    try:
        risks = _risks(record, verdict, weighing, _read_off(positions))
    except Exception:  # a bug of ginref's: the record still counts, its knocks unweighed
        risks = ()
    return verdict, WeighedKnocks(risks)


# -- the library call ---------------------------------------------------------------------


def report(
    paths_or_records: Inputs,
    rules: Rules | None = None,
    *,
    by: Group = "player",
    jobs: int | None = None,
    advise: Weighing | None = None,
    reading: Reading | None = None,
    also: Sequence[Tally] = (),
    adding: Adding | None = None,
    on_result: Callable[[RecordResult], None] | None = None,
    **fields: Any,
) -> BatchReport:
    """Audit every record of ``paths_or_records``: each player's play and errors over the batch.

    ``paths_or_records`` are what :func:`ginref.verify` takes: paths (files, folders, URLs, ``-``),
    read as ``reading`` says (a :class:`~ginref.records.io.Reading`, or its ``fields`` as
    keywords: ``format``, ``game``, ``names``, ``stdin``, ``progress``, ``on_skip``,
    ``on_note``) and checked in ``jobs`` worker processes; or
    :class:`~ginref.records.GameRecord` values, checked in this process; or the
    :class:`~ginref.batch.RecordResult` values of a batch under way (a Dask cluster's),
    counted as they come and closed at the end. ``rules`` replaces each record's own rule
    set when given. ``by`` groups the rows by ``"player"``, ``"game"`` or ``"rules"``.
    ``advise`` (a :class:`Weighing`) weighs each knock's undercut risk, in this process.
    The same results also feed each tally of ``also`` (the standings:
    :class:`ginref.ranking.StandingsTally`, whose ``adding`` they then need: a
    :data:`~ginref.batch.Adding`, what the batch adds to each result), then
    ``on_result`` (an unreadable one among them), in input order.

    Returns a :class:`BatchReport`. Never raises for bad input (an unreadable record is
    counted); raises :class:`~ginref.errors.GinrefError` for a ``by`` that is not a grouping
    or for ``advise`` with an ``adding``, and ``TypeError`` for inputs that mix paths, records
    and results.
    """
    audit = Audit(by, advise)
    if advise is not None:
        if adding is not None:
            raise GinrefError("a report weighs its knocks or adds another's figures to its results, not both")
        adding = weigh_knocks(advise)
    results = verify(paths_or_records, rules, jobs=jobs, reading=reading, adding=adding, **fields)
    tally(results, (audit, *also), on_result)
    return audit.report()
