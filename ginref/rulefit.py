"""Which rules was a batch of records played under? The referee's rulings under every preset,
against the points the records claim (``ginref rules --fit``).

A rule set explains a batch when :func:`ginref.referee.adjudicate`, ruling every record under
it, gives back every point the records claim: no finding of
:data:`~ginref.referee.findings.SCORE_CODES` (the deadwood announced, a knock the limit does not
allow, the outcome, the hand points, the running and the final totals), and every hand that
records points ruled to its end (not cut short by a card it cannot follow, nor played after the
game is over as these rules end it). The Oklahoma limit, spade doubling, the bonuses, the tie policy
and the game's bonuses are thus each decided where the referee decides them, never here. A
batch that records no points at all is explained by nothing: no preset is listed.

The knob table says what the presets cannot: each usual knob is solved from the hands that
decide it, with the deadwood the rules a record names find. The gin bonus is a gin's points less
the defender's deadwood, the undercut bonus an undercut's points less the deadwood difference,
the tie policy what a tie claims; the knock limit is at least the most deadwood any knock
showed. Where a rule set parts from the records, its first parting names the place, the
referee's finding there, and the knobs the evidence says differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import msgspec

from ginref.errors import RecordError
from ginref.game import HAND_OUTCOMES
from ginref.records.model import GameRecord, HandRecord
from ginref.referee import Finding, Verdict, adjudicate
from ginref.referee.findings import SCORE_CODES
from ginref.rules import PRESET_NAMES, PRESETS, Rules, record_rules
from ginref.scoring import Ending

__all__ = ["MOST_NAMED", "Evidence", "KnobFit", "Parting", "RulesFit", "fit_rules"]

MOST_NAMED = 100
"""the most rule sets named in a batch whose partings are followed (memory stays flat)"""
_CLAIMED = frozenset({"knock", "gin", "big_gin", "undercut", "tie"})
_POINTS = frozenset(HAND_OUTCOMES)
"""claimed outcomes that say how many points a hand made (``win``, ``draw`` and ``unfinished`` do not)"""


class Evidence(msgspec.Struct, frozen=True):
    """One scored hand: what ended it, both deadwood counts, and what the record claims."""

    source: str
    index: int
    hand: int
    line: int
    ending: Ending
    knocker_deadwood: int
    defender_deadwood: int
    multiplier: int
    claimed_outcome: str
    knocker_won: bool | None
    points: int


class KnobFit(msgspec.Struct, frozen=True):
    """A knob's values that agree with every hand deciding it (``hands`` of them; none: any)."""

    knob: str
    values: tuple[str, ...]
    hands: int

    def to_dict(self) -> dict[str, object]:
        return {"knob": self.knob, "values": list(self.values), "hands": self.hands}


class Parting(msgspec.Struct, frozen=True):
    """The first place where ruling the records under ``rules`` does not give back what they
    record: the referee's finding there (``code``, ``message``), and the knobs the evidence says
    differ. ``line`` is the finding's line, or its record's when the finding has a JSON
    ``pointer`` instead; ``hand`` is the hand's number, 0 for the record as a whole."""

    rules: str
    source: str
    index: int
    hand: int
    line: int
    pointer: str
    code: str
    message: str
    knobs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"rules": self.rules, "source": self.source, "index": self.index, "hand": self.hand,
                "line": self.line, "pointer": self.pointer, "code": self.code, "message": self.message,
                "knobs": list(self.knobs)}


class RulesFit(msgspec.Struct, frozen=True):
    """What a batch's recorded points say about its rules.

    ``evidence`` counts the hands that record points (a result that scores, or running
    totals), ``final_totals`` the records that claim them. ``tried`` are the rule sets ruled
    (every preset unless told), ``presets`` those that give back every recorded point (none
    when nothing is recorded), ``rejected`` where each of the others first parts.
    ``partings`` do the same for the rules the records name (``named``: the first
    :data:`MOST_NAMED` of them), over the records that name them; ``unfollowed`` counts the
    records that name rules past those.
    """

    records: int
    unreadable: int
    hands: int
    evidence: int
    final_totals: int
    tried: tuple[str, ...]
    presets: tuple[str, ...]
    rejected: tuple[Parting, ...]
    knobs: tuple[KnobFit, ...]
    named: tuple[str, ...]
    partings: tuple[Parting, ...]
    unfollowed: int = 0

    @property
    def recorded(self) -> bool:
        """Whether the records claim any points at all: without, no rule set can be told apart."""
        return bool(self.evidence or self.final_totals)

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records, "unreadable": self.unreadable, "hands": self.hands,
            "evidence": self.evidence, "final_totals": self.final_totals, "tried": list(self.tried),
            "presets": list(self.presets), "rejected": [p.to_dict() for p in self.rejected],
            "knobs": [k.to_dict() for k in self.knobs], "named": list(self.named),
            "partings": [p.to_dict() for p in self.partings], "unfollowed": self.unfollowed,
        }


def _records_points(hand: HandRecord) -> bool:
    """Whether a hand claims points: a result that scores (a void's nothing too), or totals."""
    return (hand.result is not None and hand.result.outcome in _POINTS) or hand.score_after is not None


def _parting(record: GameRecord, verdict: Verdict, rules: str) -> Parting | None:
    """Where ruling ``record`` as ``verdict`` did first not give back a point it records: a
    finding of :data:`SCORE_CODES`, or the first error of a hand that records points but could
    not be ruled to its end (whose claim the referee only carries on) or was not ruled at all
    (played after the end of the game, as these rules end it)."""
    ruled = verdict.hands
    unruled = {i for i, hand in enumerate(record.hands)
               if _records_points(hand) and (i >= len(ruled) or ruled[i].outcome == "unresolved")}
    for found in verdict.findings:
        if found.code in SCORE_CODES or (found.severity == "error" and found.hand in unruled):
            return _parting_at(record, found, rules)
    if unruled:
        hand = min(unruled)
        return Parting(rules, record.source, record.index, _number(record, hand),
                       record.hands[hand].place.line or record.place.line, record.hands[hand].place.pointer,
                       "unresolved", "the hand cannot be ruled to its end under these rules")
    return None


def _parting_at(record: GameRecord, found: Finding, rules: str) -> Parting:
    return Parting(rules, record.source, record.index, _number(record, found.hand),
                   found.place.line or record.place.line, found.place.pointer, found.code, found.message)


def _number(record: GameRecord, hand: int) -> int:
    """A hand's number (1 for the first, unless the record numbers them), 0 for none."""
    if not 0 <= hand < len(record.hands):
        return 0
    return record.hands[hand].number or hand + 1


def _evidence(record: GameRecord, verdict: Verdict) -> Iterator[Evidence]:
    """The hands of a record that claim their points, ruled as ``verdict`` rules them."""
    for hand, ruled in zip(record.hands, verdict.hands, strict=False):
        claim = hand.result
        if (claim is None or claim.outcome not in _CLAIMED or ruled.knocker is None
                or ruled.knocker_deadwood is None or ruled.defender_deadwood is None):
            continue
        ending: Ending = ruled.outcome if ruled.outcome in ("gin", "big_gin") else "knock"  # type: ignore[assignment]
        won = None if claim.winner is None else claim.winner == ruled.knocker
        line = claim.place.line or hand.place.line or record.place.line
        yield Evidence(record.source, record.index, ruled.number or ruled.index + 1, line, ending,
                       ruled.knocker_deadwood, ruled.defender_deadwood, ruled.multiplier, claim.outcome, won,
                       claim.points)


def _decides(e: Evidence) -> tuple[str, int | str] | None:
    """The knob a hand's claim decides, and the value it solves to (hands not doubled only)."""
    if e.multiplier != 1:
        return None
    if e.ending in ("gin", "big_gin") and e.knocker_won:
        return ("gin_bonus" if e.ending == "gin" else "big_gin_bonus"), e.points - e.defender_deadwood
    if e.ending == "knock" and e.knocker_deadwood == e.defender_deadwood:
        return "tie_policy", _tie_policy(e)
    if e.ending == "knock" and e.knocker_won is False and e.knocker_deadwood > e.defender_deadwood:
        return "undercut_bonus", e.points - (e.knocker_deadwood - e.defender_deadwood)
    return None


_SOLVED = ("gin_bonus", "big_gin_bonus", "undercut_bonus", "tie_policy")
_MOST_VALUES = 8
"""the most distinct values kept for a knob: past two the hands disagree, and memory stays flat"""


class _Knobs:
    """The knob evidence of a batch, gathered hand by hand in bounded memory: the most
    deadwood a knock showed, and each knob's values as the hands deciding it solve them."""

    def __init__(self) -> None:
        self.knocks = self.most = 0
        self.values: dict[str, set[int | str]] = {knob: set() for knob in _SOLVED}
        self.more: set[str] = set()
        self.hands = dict.fromkeys(_SOLVED, 0)

    def add(self, record: GameRecord, verdict: Verdict) -> None:
        for ruled in verdict.hands:
            if ruled.outcome in ("knock", "undercut", "tie") and ruled.knocker_deadwood:
                self.knocks += 1
                self.most = max(self.most, ruled.knocker_deadwood)
        for e in _evidence(record, verdict):
            decided = _decides(e)
            if decided is None:
                continue
            knob, value = decided
            self.hands[knob] += 1
            if len(self.values[knob]) < _MOST_VALUES or value in self.values[knob]:
                self.values[knob].add(value)
            else:
                self.more.add(knob)

    def fits(self) -> tuple[KnobFit, ...]:
        limit = KnobFit("knock_limit", (f">= {self.most}",) if self.knocks else (), self.knocks)
        return (limit, *(KnobFit(knob, self._shown(knob), self.hands[knob]) for knob in _SOLVED))

    def why(self, rules: Rules) -> tuple[str, ...]:
        """The knobs whose solved value is not the rules' one (a knob is solved when the hands
        deciding it agree on one value)."""
        out = []
        if self.knocks and self.most > rules.knock_limit:
            out.append(f"knock_limit: a knock showed {self.most}, the rules allow {rules.knock_limit}")
        for knob in _SOLVED:
            if len(self.values[knob]) != 1 or knob in self.more:
                continue
            (value,) = self.values[knob]
            if str(value) != rules.knob_text(knob):
                out.append(f"{knob}: the records say {value}, {rules.label} says {rules.knob_text(knob)}")
        return tuple(out)

    def _shown(self, knob: str) -> tuple[str, ...]:
        found = sorted(self.values[knob], key=str if knob == "tie_policy" else int)
        if len(found) == 1 and knob not in self.more:
            return (str(found[0]),)
        if not found:
            return ()
        if knob == "tie_policy":
            return ("(none: they disagree)",)
        more = ", ..." if knob in self.more else ""
        return ("(none: " + ", ".join(map(str, found)) + more + " all claimed)",)


def _tie_policy(e: Evidence) -> str:
    if e.knocker_won is False and e.points > 0:
        return "undercut"
    if e.knocker_won and e.points == 0:
        return "knocker"
    return "no_score" if e.points == 0 else "?"


class _Batch:
    """What :func:`fit_rules` gathers, one record at a time."""

    def __init__(self, tried: tuple[Rules, ...]) -> None:
        self.tried = tried
        self.records = self.unreadable = self.hands = self.evidence = self.final_totals = 0
        self.knobs = _Knobs()
        self.rejected: dict[str, Parting] = {}
        """the first parting of each rule set tried, by label: once parted, it is not ruled again"""
        self.named: dict[str, Parting | None] = {}
        self.named_rules: dict[str, Rules] = {}
        self.unfollowed = 0

    def add(self, record: GameRecord) -> None:
        self.records += 1
        self.hands += len(record.hands)
        self.evidence += sum(1 for hand in record.hands if _records_points(hand))
        self.final_totals += record.final_totals is not None
        own = record_rules(record.rules, record.overrides)
        ruled = self._rule_tried(record, None if own.problems else own.rules) or adjudicate(record)
        self.knobs.add(record, ruled)
        label = own.label
        if self.named.get(label) is not None:
            return
        if label not in self.named and len(self.named) >= MOST_NAMED:
            self.unfollowed += 1
            return
        if own.problems:
            self.named[label] = Parting(label, record.source, record.index, 0, record.place.line,
                                        record.place.pointer, "unknown_rules", own.problems[0])
        else:
            self.named[label] = _parting(record, ruled, label)
            self.named_rules[label] = own.rules

    def _rule_tried(self, record: GameRecord, own: Rules | None) -> Verdict | None:
        """Rule ``record`` under each rule set tried that has not parted yet; the verdict
        under ``own`` (the rules it names), if that was one of them."""
        found = None
        for rules in self.tried:
            if rules.label in self.rejected:
                continue
            verdict = adjudicate(record, rules)
            parting = _parting(record, verdict, rules.label)
            if parting is not None:
                self.rejected[rules.label] = parting
            if rules == own:
                found = verdict
        return found

    def result(self) -> RulesFit:
        recorded = bool(self.evidence or self.final_totals)
        knobs = self.knobs.fits()

        def why(parting: Parting, rules: Rules | None) -> Parting:
            return parting if rules is None else msgspec.structs.replace(parting, knobs=self.knobs.why(rules))

        agree = tuple(r.label for r in self.tried if recorded and r.label not in self.rejected)
        rejected = tuple(why(self.rejected[r.label], r) for r in self.tried if r.label in self.rejected)
        partings = tuple(why(parting, self.named_rules.get(label))
                         for label, parting in sorted(self.named.items()) if parting is not None)
        return RulesFit(self.records, self.unreadable, self.hands, self.evidence, self.final_totals,
                        tuple(r.label for r in self.tried), agree, rejected, knobs, tuple(sorted(self.named)),
                        partings, self.unfollowed)


def fit_rules(items: Iterable[GameRecord | RecordError], tried: Sequence[Rules] | None = None) -> RulesFit:
    """What the recorded points of a batch say about its rules (see the module's doc).

    ``tried`` are the rule sets to rule the records under: every preset unless given (``rules
    --fit --set``: each preset with knobs changed). Unreadable records are counted, never read.
    """
    batch = _Batch(tuple(PRESETS[n] for n in PRESET_NAMES) if tried is None else tuple(tried))
    for item in items:
        if isinstance(item, RecordError):
            batch.unreadable += 1
        else:
            batch.add(item)
    return batch.result()
