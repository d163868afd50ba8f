"""Rule on a recorded game: replay every hand, tally the game, compare the claims.

:func:`adjudicate` takes a :class:`ginref.records.GameRecord` and returns a
:class:`Verdict`: the ruling on every hand (:class:`HandVerdict`), the game
tally, and the :class:`~ginref.referee.findings.Finding` list. It never raises on a bad record: every
problem is a finding, placed at the line/column or JSON pointer of the event
that shows it. Claims in the record (result, points, running totals, next
dealer, final totals) are recomputed and compared, never trusted.

Rulings where the rules sources are silent (docs/rule-sources.md, docs/rule-decisions.md):

- The cards speak: a declared "gin" with deadwood is ruled a knock (within the
  limit) and a "knock" with none is gin; an invalid meld's cards are deadwood.
- An illegal knock ends the replay of the hand: outcome ``illegal_knock``, no
  score, no winner, and later events of that hand are not checked (what
  follows depends on ``illegal_knock``, which a record cannot show).
- Big gin where the rules have none is ruled as plain gin: eleven melded cards
  always contain a meld of four or more, so a discard keeping gin was there.
- A hand that ends with no knock (stock floor, wall pass, 50th discard draw,
  repeated discard) is ``void``: no winner, no score; ``end`` tells which.
- ``max_discard_draws``: the draw that reaches the cap ends the hand at once
  (OpenSpiel); a discard or knock recorded in that turn is ``moves_after_end``.
  Draws during the upcard ritual do not count; under ``first_turn = "none"``
  the opening draw is a normal turn and counts.
- After a card-integrity error (a card not held, in two places, a pile or
  stock draw that cannot be followed) the replay of that hand stops; its
  outcome is ``unresolved`` and the claimed result is used to carry the game
  on. Hands after the end of the game are reported once and not replayed.
- Under Hollywood scoring a hand's claimed running totals are compared with
  each player's plain cumulative hand points; the final totals with the
  match totals.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import msgspec

from ginref import game
from ginref.cards import Card, Mask, card_name
from ginref.melds import STANDARD_SYSTEM, Meld, MeldSystem, best_arrangement
from ginref.notation import excerpt
from ginref.records.model import Ending, GameRecord, HandRecord, Turn
from ginref.records.rlcard import PAYOFFS_TAG, claimed_payoffs, rewards
from ginref.referee.findings import Finding, FindingCode, finding
from ginref.referee.replay import AtKnock, replay_hand
from ginref.referee.state import HandRuling, Unfinished
from ginref.rules import Rules, record_rules
from ginref.scoring import Step

__all__ = ["HandVerdict", "Unfinished", "Verdict", "adjudicate"]

Totals = tuple[tuple[str, int], ...]


class HandVerdict(msgspec.Struct, frozen=True):
    """The ruling on one hand, computed from the cards.

    ``outcome`` is a :class:`ginref.scoring.Outcome` value (``knock``, ``gin``,
    ``big_gin``, ``undercut``, ``tie``, ``illegal_knock``, ``void``) or
    ``unresolved`` when the record cannot be followed to a result. ``end`` says how
    the hand ended: ``knock``, ``stock`` (void at the stock floor), ``wall`` (the
    wall discard passed or taken without a knock), ``max_discard_draws``,
    ``repeat_discard_draw``, ``unverified`` (a claimed void the record does not
    reach), ``incomplete``, ``unfinished`` (the record claims the hand stopped there:
    :attr:`unfinished` says why and where) or ``error``. ``layoffs`` are ``(card, meld)`` pairs onto
    the knocker's declared melds, as scored (declared, or the best response when no
    defence is recorded).
    """

    index: int
    number: int | None
    dealer: str | None
    outcome: str
    end: str
    winner: str | None = None
    points: int = 0
    knocker: str | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    knocker_melds: tuple[Mask, ...] = ()
    defender_spread: tuple[Mask, ...] | None = None
    """the defender's own melds as recorded; None when the referee chose them"""
    defender_cards: Mask = 0
    """the defender's cards left after its layoffs (own melds and deadwood)"""
    layoffs: tuple[tuple[Card, Mask], ...] = ()
    defence_recorded: bool = False
    multiplier: int = 1
    knock_limit: int = 10
    totals_after: Totals | None = None
    next_dealer: str | None = None
    stock_left: int = 0
    unfinished: Unfinished | None = None
    steps: tuple[Step, ...] = ()
    """how the settlement was worked out, step by step, with the knobs it applied (left out of
    equality and hashing, as ``system``, which ``repr`` leaves out too)"""
    system: MeldSystem = STANDARD_SYSTEM
    """the meld system of the rules (for :attr:`defender_melds`)"""

    def _ruling(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _RULING_FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not HandVerdict:
            return NotImplemented
        return self._ruling() == other._ruling()

    def __hash__(self) -> int:
        return hash(self._ruling())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _SHOWN_FIELDS)
        return f"HandVerdict({shown})"

    @property
    def resolved(self) -> bool:
        return self.outcome != "unresolved"

    @property
    def defender_melds(self) -> tuple[Mask, ...]:
        """The defender's own melds: as recorded, else a least-deadwood arrangement."""
        if self.defender_spread is not None:
            return self.defender_spread
        if not self.defender_cards:
            return ()
        return tuple(m.mask for m in best_arrangement(self.defender_cards, self.system).melds)

    def to_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "number": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome,
            "end": self.end,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "knocker_melds": [_meld_names(m) for m in self.knocker_melds],
            "defender_melds": [_meld_names(m) for m in self.defender_melds],
            "layoffs": [{"card": card_name(c), "onto": _meld_names(m)} for c, m in self.layoffs],
            "defence_recorded": self.defence_recorded,
            "multiplier": self.multiplier,
            "knock_limit": self.knock_limit,
            "totals_after": dict(self.totals_after) if self.totals_after is not None else None,
            "next_dealer": self.next_dealer,
            "stock_left": self.stock_left,
            "unfinished": self.unfinished.to_dict() if self.unfinished is not None else None,
        }


_SHOWN_FIELDS = tuple(name for name in HandVerdict.__struct_fields__ if name != "system")
"""what a :class:`HandVerdict`'s ``repr`` shows"""
_RULING_FIELDS = tuple(name for name in _SHOWN_FIELDS if name != "steps")
"""what a :class:`HandVerdict` compares and hashes"""


class Verdict(msgspec.Struct, frozen=True):
    """The ruling on a whole record: findings, hand rulings and the game tally.

    ``hand_totals`` are the running hand totals after the last hand ruled;
    ``final_totals`` add the end-of-game bonuses once the game is over (before,
    they equal ``hand_totals``). ``winner`` is set when the game is over.
    """

    findings: tuple[Finding, ...]
    hands: tuple[HandVerdict, ...]
    rules: str
    players: tuple[str, str]
    hand_totals: Totals = ()
    final_totals: Totals = ()
    winner: str | None = None
    game_over: bool = False
    source: str = ""
    index: int = 0

    @property
    def clean(self) -> bool:
        """True when no finding is an error (advisories allowed)."""
        return not any(f.severity == "error" for f in self.findings)

    @property
    def has_findings(self) -> bool:
        return bool(self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "index": self.index,
            "rules": self.rules,
            "players": list(self.players),
            "clean": self.clean,
            "findings": [f.to_dict() for f in self.findings],
            "hands": [h.to_dict() for h in self.hands],
            "hand_totals": dict(self.hand_totals),
            "final_totals": dict(self.final_totals),
            "winner": self.winner,
            "game_over": self.game_over,
        }


def _meld_names(mask: Mask) -> list[str]:
    return Meld(mask).names()


# -- rules ------------------------------------------------------------------------------


Ruled = tuple[Rules, MeldSystem, tuple[str, ...]]


def _ruled(name: object, overrides: tuple[tuple[object, object], ...]) -> Ruled:
    """The rules a record names (:func:`ginref.rules.record_rules`), their meld system, and
    the problems met."""
    named = record_rules(name, overrides)
    return named.rules, MeldSystem.from_rules(named.rules), named.problems


_cached_rules = functools.lru_cache(maxsize=256)(_ruled)
"""a batch names few rule sets: each is built once (hashing a Rules per record costs more)"""


def _rules_of(record: GameRecord) -> Ruled:
    try:
        return _cached_rules(record.rules, record.overrides)
    except TypeError:  # unhashable values (lists from JSON)
        return _ruled(record.rules, record.overrides)


# -- the game ---------------------------------------------------------------------------


def _entry(hand: HandRecord, ruled: HandRuling, players: tuple[str, str]) -> game.HandEntry:
    """The game-tally entry of a hand: the ruling, or the record's claim when unresolved."""
    if ruled.outcome == "unfinished":
        return game.HandEntry(None, 0, "void")
    if ruled.outcome != "unresolved":
        return game.HandEntry(ruled.winner, ruled.points, ruled.outcome, ruled.knocker, ruled.multiplier)
    claim = hand.result
    if claim is not None and claim.outcome in game.HAND_OUTCOMES and claim.points >= 0:
        if claim.winner is None and claim.outcome in ("tie", "void", "illegal_knock") and not claim.points:
            return game.HandEntry(None, 0, claim.outcome)
        if claim.winner in players and claim.outcome not in ("tie", "void"):
            return game.HandEntry(claim.winner, claim.points, claim.outcome)
    return game.HandEntry(None, 0, "void")


def _describe(outcome: str, winner: str | None, points: int) -> str:
    if winner is None:
        return {"void": "a void hand", "tie": "a tie with no score",
                "illegal_knock": "an illegal knock with no score"}.get(outcome, outcome)
    return f"{game.shown_name(winner)} wins by {outcome.replace('_', ' ')}, {points} points"


def _totals_text(totals: dict[str, int]) -> str:
    """Totals as a message gives them: the first few, so that the message stays one short line."""
    first = itertools.islice(totals.items(), 3)
    shown = ", ".join(f"{game.shown_name(name)} {points}" for name, points in first)
    return shown + (f" and {len(totals) - 3} more" if len(totals) > 3 else "")


def adjudicate(record: GameRecord, rules: Rules | None = None) -> Verdict:
    """Replay ``record`` under ``rules`` (None: the rules the record names) and rule on it.

    Returns the :class:`Verdict`: each hand's ruling, the game tally and the findings.
    Never raises for a bad record: whatever it gets wrong is a finding, placed where the
    record shows it.
    """
    return adjudicate_replayed(record, rules)


def adjudicate_replayed(record: GameRecord, rules: Rules | None, at_knock: AtKnock | None = None) -> Verdict:
    """:func:`adjudicate`, shown each knock of the replay before it is played (``at_knock``:
    :func:`ginref.referee.position.knock_positions` reads the knocker's position there)."""
    findings: list[Finding] = []
    if rules is None:
        rules, system, problems = _rules_of(record)
        for problem in problems:
            findings.append(finding(FindingCode.UNKNOWN_RULES, problem, record.place, -1))
    else:
        system = MeldSystem.from_rules(rules)
    players = record.players
    refused = game.players_problem(players)
    if refused is not None:
        findings.append(finding(FindingCode.UNKNOWN_PLAYER, refused, record.place, -1))
        return Verdict(tuple(findings), (), rules.label, players, source=record.source, index=record.index)
    per_hand: list[list[Finding]] = []
    ruled: list[HandRuling] = []
    for index, hand in enumerate(record.hands):
        hand_findings: list[Finding] = []
        ruled.append(replay_hand(hand, index, players, rules, system, hand_findings, at_knock))
        per_hand.append(hand_findings)
    return _verdict(record, rules, system, findings, ruled, per_hand)


RuledHand = tuple[HandRuling, tuple[Finding, ...]]
"""a hand replayed once: its ruling and the findings its replay made"""


def adjudicate_after(
    record: GameRecord, rules: Rules, done: Sequence[RuledHand]
) -> tuple[Verdict, list[RuledHand]]:
    """:func:`adjudicate` under ``rules`` for a game whose first hands were replayed already
    (``done``, in order): only the hands after them are replayed, so a live game pays for each
    hand's replay once. Also returns every hand's ruling and findings, for the next call."""
    players = record.players
    refused = game.players_problem(players)
    if refused is not None:
        return adjudicate(record, rules), list(done)
    system = MeldSystem.from_rules(rules)
    ruled = list(done)
    for index in range(len(done), len(record.hands)):
        ruled.append(replayed_hand(record, index, rules, system))
    verdict = _verdict(record, rules, system, [], [r for r, _ in ruled], [list(f) for _, f in ruled])
    return verdict, ruled


def replayed_hand(record: GameRecord, index: int, rules: Rules, system: MeldSystem) -> RuledHand:
    """Hand ``index`` of ``record`` replayed: its ruling and the findings its replay made."""
    found: list[Finding] = []
    ruling = replay_hand(record.hands[index], index, record.players, rules, system, found)
    return ruling, tuple(found)


class GameSoFar(msgspec.Struct, frozen=True):
    """The verdict on a game's first hands, the game not over, kept by a live table so that
    ruling one hand more (:func:`adjudicate_one_more`) costs the same at hand 400 as at hand 1.
    ``replayed`` counts the verdict's findings that its hands' replays made (they come first,
    the claims' after them)."""

    verdict: Verdict
    replayed: int

    @classmethod
    def of(cls, verdict: Verdict, ruled: Sequence[RuledHand]) -> GameSoFar | None:
        """The verdict on every hand of a game not over, as the start of the next one (None
        when the game is over or a hand after its end was ruled)."""
        if verdict.game_over or len(verdict.hands) != len(ruled):
            return None
        return cls(verdict, sum(len(found) for _, found in ruled))


def adjudicate_one_more(
    record: GameRecord, rules: Rules, so_far: GameSoFar, last: RuledHand
) -> Verdict | None:
    """:func:`adjudicate` of ``record``, whose hands but the last ``so_far`` ruled, the last
    replayed as ``last``: the fast twin of :func:`_verdict` for one hand more of a plain game
    (``tests/referee/test_table.py`` holds the two equal). None where the twin does not
    apply: a game that sums no plain totals (Hollywood, boxes as they fall), a hand that
    reaches the target (the game's bonuses), a record that claims final totals."""
    done = so_far.verdict
    index = len(done.hands)
    players = record.players
    if (not index or len(record.hands) != index + 1 or record.final_totals is not None
            or not game.sums_plain_totals(rules) or done.players != players):
        return None
    hand, (ruling, found) = record.hands[index], last
    entry = _entry(hand, ruling, players)
    totals = dict(done.hand_totals)
    if entry.winner is not None:
        if entry.winner not in totals or type(entry.points) is not int or entry.points < 0:
            return None
        totals[entry.winner] += entry.points
        if totals[entry.winner] >= rules.game_target:
            return None
    claims: list[Finding] = []
    _check_dealer(claims, done.hands[-1].next_dealer, hand, index, players)
    system = MeldSystem.from_rules(rules)
    ruled = _hand_verdict(claims, hand, index, ruling, entry, totals, rules, system, players)
    before = done.findings
    return Verdict(
        findings=(*before[:so_far.replayed], *found, *before[so_far.replayed:], *claims),
        hands=(*done.hands, ruled), rules=rules.label, players=players,
        hand_totals=tuple(totals.items()), final_totals=tuple(totals.items()),
        source=record.source, index=record.index,
    )


def ruled_hand(record: GameRecord, rules: Rules, ruling: HandRuling) -> HandVerdict:
    """The verdict on the one hand of ``record`` that ``ruling`` rules (what the replay left
    after playing it, as the live table holds it): :func:`adjudicate`'s, without a replay."""
    assert len(record.hands) == 1
    return _verdict(record, rules, MeldSystem.from_rules(rules), [], [ruling], [[]]).hands[0]


def _verdict(
    record: GameRecord, rules: Rules, system: MeldSystem, findings: list[Finding], ruled: list[HandRuling],
    per_hand: list[list[Finding]],
) -> Verdict:
    """The game's verdict from each hand's ruling and findings: the tally, the claims checked."""
    players = record.players
    hands = record.hands
    entries = [_entry(h, r, players) for h, r in zip(hands, ruled, strict=True)]
    first_dealer = hands[0].dealer if hands and hands[0].dealer in players else None
    score = game.score_entries(players, entries, rules, first_dealer)
    played, tally_totals = score.played, list(score.running_totals)
    hand_totals, final_totals = score.hand_totals, score.final_totals
    game_over, winner = score.game_over, score.winner
    for index in range(played):
        findings.extend(per_hand[index])
    if played < len(hands):
        extra = hands[played]
        findings.append(finding(
            FindingCode.MOVES_AFTER_END,
            f"hand {played + 1} is played after the end of the game", extra.place, played,
        ))

    verdicts = _hand_verdicts(findings, record, ruled, entries, tally_totals, played, rules, system)
    if len(hands) == 1 and record.tags:
        _check_payoffs(findings, record, ruled[0], system)
    if record.final_totals is not None:
        claimed = dict(record.final_totals)
        if claimed != final_totals:
            findings.append(finding(
                FindingCode.WRONG_SCORE,
                f"the record's final totals are {_totals_text(claimed)}; they come to "
                f"{_totals_text(final_totals)}" + ("" if game_over else " (the game is not over)"),
                record.place, -1,
            ))
    return Verdict(
        findings=tuple(findings),
        hands=tuple(verdicts),
        rules=rules.label,
        players=players,
        hand_totals=tuple(hand_totals.items()),
        final_totals=tuple(final_totals.items()),
        winner=winner,
        game_over=game_over,
        source=record.source,
        index=record.index,
    )


def _hand_verdicts(
    findings: list[Finding], record: GameRecord, ruled: list[HandRuling], entries: list[game.HandEntry],
    tally_totals: list[dict[str, int]], played: int, rules: Rules, system: MeldSystem,
) -> list[HandVerdict]:
    """The verdict on each hand played, with its claims and the next hand's dealer checked."""
    hands, players = record.hands, record.players
    verdicts: list[HandVerdict] = []
    for index in range(played):
        hand, r = hands[index], ruled[index]
        totals = tally_totals[index] if index < len(tally_totals) else None
        entry = entries[index]
        verdicts.append(_hand_verdict(findings, hand, index, r, entry, totals, rules, system, players))
        if index + 1 < played:
            _check_dealer(findings, verdicts[-1].next_dealer, hands[index + 1], index + 1, players)
    return verdicts


def _hand_verdict(
    findings: list[Finding], hand: HandRecord, index: int, r: HandRuling, entry: game.HandEntry,
    totals: dict[str, int] | None, rules: Rules, system: MeldSystem, players: tuple[str, str],
) -> HandVerdict:
    """The verdict on one hand played (``totals``: the game's after it), its claims checked."""
    next_dealer = game.next_dealer(rules, players, r.dealer, entry.winner)
    verdict = HandVerdict(
        index=index, number=hand.number, dealer=r.dealer, outcome=r.outcome, end=r.end,
        winner=r.winner, points=r.points, knocker=r.knocker,
        knocker_deadwood=r.knocker_deadwood, defender_deadwood=r.defender_deadwood,
        knocker_melds=r.knocker_melds, defender_spread=r.defender_spread,
        defender_cards=r.defender_cards, layoffs=r.layoffs,
        defence_recorded=r.defence_recorded, multiplier=r.multiplier,
        knock_limit=r.knock_limit,
        totals_after=tuple(totals.items()) if totals is not None else None,
        next_dealer=next_dealer, stock_left=r.stock_left, unfinished=r.unfinished, steps=r.steps,
        system=system,
    )
    _check_claims(findings, hand, index, r, totals, next_dealer, players)
    return verdict


def _check_dealer(
    findings: list[Finding], next_dealer: str | None, following: HandRecord, index: int,
    players: tuple[str, str],
) -> None:
    """A finding when hand ``index`` (``following``) is dealt by another than the rules name."""
    if next_dealer is not None and following.dealer in players and following.dealer != next_dealer:
        findings.append(finding(
            FindingCode.WRONG_DEALER,
            f"{following.dealer} deals hand {index + 1}, but the rules say {next_dealer} deals",
            following.place, index,
        ))


def _check_claims(
    findings: list[Finding], hand: HandRecord, index: int, ruled: HandRuling,
    totals: dict[str, int] | None, next_dealer: str | None, players: tuple[str, str],
) -> None:
    claim = hand.result
    resolved = ruled.outcome != "unresolved"
    if claim is not None and resolved and claim.outcome in ("unfinished", "win", "draw"):
        _check_plain_claim(findings, hand, index, ruled, players)
    elif claim is not None and resolved:
        if claim.outcome != ruled.outcome or claim.winner != ruled.winner:
            findings.append(finding(
                FindingCode.WRONG_RESULT,
                f"the record says {_describe(claim.outcome, claim.winner, claim.points)}; "
                f"the ruling is {_describe(ruled.outcome, ruled.winner, ruled.points)}",
                claim.place if claim.place.line or claim.place.pointer else hand.place, index,
            ))
        elif claim.points != ruled.points:
            findings.append(finding(
                FindingCode.WRONG_SCORE,
                f"the record gives {claim.points} points; the hand is worth {ruled.points}",
                claim.place if claim.place.line or claim.place.pointer else hand.place, index,
            ))
    if hand.score_after is not None and totals is not None:
        claimed = dict(hand.score_after)
        if claimed != totals:
            findings.append(finding(
                FindingCode.WRONG_SCORE,
                f"the record's totals after hand {index + 1} are {_totals_text(claimed)}; "
                f"they come to {_totals_text(totals)}",
                hand.place, index,
            ))
    if hand.next_dealer is not None and next_dealer is not None and hand.next_dealer != next_dealer:
        findings.append(finding(
            FindingCode.WRONG_DEALER,
            f"the record says {game.shown_name(hand.next_dealer)} deals next; the rules say {next_dealer}",
            hand.place, index,
        ))


_PAID = frozenset({"knock", "gin", "big_gin", "undercut", "tie", "void"})
"""the outcomes a hand's payoffs are paid on: it went out, or was declared dead"""


def _check_payoffs(
    findings: list[Finding], record: GameRecord, ruled: HandRuling, system: MeldSystem
) -> None:
    """RLCard's payoffs, the ``Payoffs`` claim of a one-hand record (its sheet's ``payoffs``
    line), against the rewards RLCard gives the hand as ruled: a difference is a wrong score."""
    value = dict(record.tags).get(PAYOFFS_TAG)
    if value is None or ruled.outcome not in _PAID or ruled.held_at_end is None:
        return
    hand, players = record.hands[0], record.players
    going_out = None
    if ruled.outcome != "void" and ruled.knocker is not None:
        going_out = (ruled.knocker, _declared_ending(hand, ruled.knocker))
    expected = rewards(players, going_out, ruled.held_at_end, system)
    claimed = claimed_payoffs(value)
    if claimed is not None and all(abs(c - e) < 1e-9 for c, e in zip(claimed, expected, strict=True)):
        return
    said = (f"{excerpt(value)}, which are not two numbers" if claimed is None
            else " and ".join(f"{game.shown_name(p)} {c:g}" for p, c in zip(players, claimed, strict=True)))
    due = " and ".join(f"{game.shown_name(p)} {e:g}" for p, e in zip(players, expected, strict=True))
    findings.append(finding(
        FindingCode.WRONG_SCORE,
        f"the record's payoffs are {said}; RLCard's rewards for this hand are {due}", hand.place, 0,
    ))


def _declared_ending(hand: HandRecord, knocker: str) -> Ending:
    """How ``knocker`` declared its going out (RLCard pays the declaration: a knock is 0.2)."""
    for event in reversed(hand.events):
        if isinstance(event, Turn) and event.knock is not None and event.player == knocker:
            return event.knock.ending
    return "knock"


def _check_plain_claim(
    findings: list[Finding], hand: HandRecord, index: int, ruled: HandRuling, players: tuple[str, str]
) -> None:
    """Claims that name no points: ``win`` (only the winner is checked), ``draw`` (no winner)
    and ``unfinished`` (the hand must not have ended; who stopped it must be a player)."""
    claim = hand.result
    assert claim is not None
    place = claim.place if claim.place.line or claim.place.pointer else hand.place
    if claim.outcome == "unfinished":
        if claim.stopped_by is not None and claim.stopped_by not in players:
            stranger = excerpt(claim.stopped_by)
            findings.append(finding(FindingCode.UNKNOWN_PLAYER,
                                    f"the hand was stopped by {stranger}, who is not a player",
                                    place, index))
        if ruled.outcome == "unfinished":
            return
        said = f"the record says the hand stopped unfinished ({game.shown_name(str(claim.reason))})"
    elif _agrees(claim.outcome, claim.winner, ruled.winner):
        return
    else:
        claimed = f"{game.shown_name(str(claim.winner))} wins" if claim.outcome == "win" else "a draw"
        said = f"the record says {claimed}"
    findings.append(finding(
        FindingCode.WRONG_RESULT,
        f"{said}; the ruling is {_describe(ruled.outcome, ruled.winner, ruled.points)}", place, index,
    ))


def _agrees(outcome: str, claimed: str | None, winner: str | None) -> bool:
    """A ``win`` or ``draw`` claim agrees with the ruled winner (None: nobody)."""
    return winner is None if outcome == "draw" else claimed is not None and claimed == winner
