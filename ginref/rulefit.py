"""Which rules was a batch of records played under? The scores it records, against every preset
and the usual knobs (``ginref rules --fit``).

Each hand that ended in a knock or gin and claims its points is a piece of evidence: the two
final deadwood counts (as the referee finds them under the rules the record names) and the
claim (outcome, winner, points). A preset agrees when :func:`ginref.scoring.settle` gives every
claim back. The knobs are solved rather than tried: the gin bonus is a gin's points less the
defender's deadwood, the undercut bonus an undercut's points less the deadwood difference, the
tie policy what a tie claims; the knock limit is at least the most deadwood any knock showed.
For records that name their rules, the first hand where those rules and the recorded scores
part is named, with the knobs the evidence says differ.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ginref.errors import RecordError
from ginref.records.model import GameRecord
from ginref.referee import adjudicate
from ginref.rules import PRESET_NAMES, PRESETS, Rules, record_rules
from ginref.scoring import Ending, settle

__all__ = ["Evidence", "KnobFit", "Parting", "RulesFit", "fit_rules"]

_CLAIMED = frozenset({"knock", "gin", "big_gin", "undercut", "tie"})
_KNOBS = ("knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie_policy")


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
    """The first hand where the rules a record names and its recorded score part, and why."""

    rules: str
    source: str
    index: int
    hand: int
    line: int
    claimed: str
    ruled: str
    knobs: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"rules": self.rules, "source": self.source, "index": self.index, "hand": self.hand,
                "line": self.line, "claimed": self.claimed, "ruled": self.ruled, "knobs": list(self.knobs)}


class RulesFit(msgspec.Struct, frozen=True):
    """What a batch's recorded scores say about its rules."""

    records: int
    unreadable: int
    hands: int
    evidence: int
    presets: tuple[str, ...]
    knobs: tuple[KnobFit, ...]
    named: tuple[str, ...]
    partings: tuple[Parting, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records, "unreadable": self.unreadable, "hands": self.hands,
            "evidence": self.evidence, "presets": list(self.presets),
            "knobs": [k.to_dict() for k in self.knobs], "named": list(self.named),
            "partings": [p.to_dict() for p in self.partings],
        }


def _evidence(record: GameRecord, knocks: list[int]) -> list[Evidence]:
    """The hands of a record that claim their points; ``knocks`` gets every knock's deadwood."""
    verdict = adjudicate(record)
    found = []
    for hand, ruled in zip(record.hands, verdict.hands, strict=False):
        if ruled.outcome in ("knock", "undercut", "tie") and ruled.knocker_deadwood:
            knocks.append(ruled.knocker_deadwood)
        claim = hand.result
        if (claim is None or claim.outcome not in _CLAIMED or ruled.knocker is None
                or ruled.knocker_deadwood is None or ruled.defender_deadwood is None):
            continue
        ending: Ending = ruled.outcome if ruled.outcome in ("gin", "big_gin") else "knock"  # type: ignore[assignment]
        won = None if claim.winner is None else claim.winner == ruled.knocker
        found.append(Evidence(record.source, record.index, ruled.number or ruled.index + 1,
                              claim.place.line or hand.place.line, ending, ruled.knocker_deadwood,
                              ruled.defender_deadwood, ruled.multiplier, claim.outcome, won, claim.points))
    return found


def _agrees(e: Evidence, rules: Rules) -> bool:
    if e.ending == "knock" and e.knocker_deadwood > rules.knock_limit:
        return False
    if e.ending == "big_gin" and rules.big_gin_bonus is None:
        return False
    s = settle(e.ending, e.knocker_deadwood, e.defender_deadwood, rules, multiplier=e.multiplier)
    won = None if s.winner is None else s.winner == "knocker"
    return (s.outcome.value, won, s.points) == (e.claimed_outcome, e.knocker_won, e.points)


def _ruled_text(e: Evidence, rules: Rules) -> str:
    s = settle(e.ending, e.knocker_deadwood, e.defender_deadwood, rules, multiplier=e.multiplier)
    side = "" if s.winner is None else f" to the {s.winner}"
    return f"{s.outcome.value} {s.points}{side}"


def _claimed_text(e: Evidence) -> str:
    side = "" if e.knocker_won is None else " to the knocker" if e.knocker_won else " to the defender"
    return (f"{e.claimed_outcome} {e.points}{side} (knocker {e.knocker_deadwood}, "
            f"defender {e.defender_deadwood} deadwood)")


def _knob_fits(evidence: list[Evidence], knocks: list[int]) -> tuple[KnobFit, ...]:
    """Each knob's values, solved from the hands that decide it (the knock limit: every knock)."""
    limit = KnobFit("knock_limit", (f">= {max(knocks)}",) if knocks else (), len(knocks))
    plain = [e for e in evidence if e.multiplier == 1]
    gins = {e.points - e.defender_deadwood for e in plain if e.ending == "gin" and e.knocker_won}
    big = {e.points - e.defender_deadwood for e in plain if e.ending == "big_gin" and e.knocker_won}
    unders = [e for e in plain if e.ending == "knock" and e.knocker_won is False
              and e.knocker_deadwood > e.defender_deadwood]
    ties = [e for e in plain if e.ending == "knock" and e.knocker_deadwood == e.defender_deadwood]
    undercut = {e.points - (e.knocker_deadwood - e.defender_deadwood) for e in unders}
    policies = {_tie_policy(e) for e in ties}
    return (
        limit,
        KnobFit("gin_bonus", _values(gins), sum(1 for e in plain if e.ending == "gin" and e.knocker_won)),
        KnobFit("big_gin_bonus", _values(big), sum(1 for e in plain if e.ending == "big_gin")),
        KnobFit("undercut_bonus", _values(undercut), len(unders)),
        KnobFit("tie_policy", tuple(sorted(policies)) if len(policies) == 1 else ("(none: they disagree)",)
                if policies else (), len(ties)),
    )


def _values(found: set[int]) -> tuple[str, ...]:
    if not found:
        return ()
    return (str(next(iter(found))),) if len(found) == 1 else ("(none: " + ", ".join(map(str, sorted(found)))
                                                             + " all claimed)",)


def _tie_policy(e: Evidence) -> str:
    if e.knocker_won is False and e.points > 0:
        return "undercut"
    if e.knocker_won and e.points == 0:
        return "knocker"
    return "no_score" if e.points == 0 else "?"


def _why(knobs: tuple[KnobFit, ...], rules: Rules) -> tuple[str, ...]:
    """The knobs whose solved value is not the named rules' one."""
    out = []
    for fit in knobs:
        if len(fit.values) != 1 or fit.values[0].startswith("("):
            continue
        value = fit.values[0]
        if fit.knob == "knock_limit":
            if int(value[3:]) > rules.knock_limit:
                out.append(f"knock_limit: a knock showed {value[3:]}, the rules allow {rules.knock_limit}")
        elif str(getattr(rules, fit.knob)) != value:
            out.append(f"{fit.knob}: the records say {value}, {rules.label} says {getattr(rules, fit.knob)}")
    return tuple(out)


def fit_rules(items: Iterable[GameRecord | RecordError]) -> RulesFit:
    """What the recorded scores of a batch say about its rules (see the module's doc)."""
    records = unreadable = hands = 0
    evidence: list[Evidence] = []
    knocks: list[int] = []
    named: dict[str, list[Evidence]] = {}
    for item in items:
        if isinstance(item, RecordError):
            unreadable += 1
            continue
        records += 1
        hands += len(item.hands)
        found = _evidence(item, knocks)
        evidence.extend(found)
        named.setdefault(item.rules if not item.overrides else _label(item), []).extend(found)
    most = max(knocks, default=0)
    presets = tuple(n for n in PRESET_NAMES
                    if PRESETS[n].knock_limit >= most and all(_agrees(e, PRESETS[n]) for e in evidence))
    knobs = _knob_fits(evidence, knocks)
    partings = []
    for name, found in named.items():
        rules = _rules_named(name)
        if rules is None:
            continue
        first = next((e for e in found if not _agrees(e, rules)), None)
        if first is not None:
            partings.append(Parting(name, first.source, first.index, first.hand, first.line,
                                    _claimed_text(first), _ruled_text(first, rules), _why(knobs, rules)))
    return RulesFit(records, unreadable, hands, len(evidence), presets, knobs, tuple(sorted(named)),
                    tuple(partings))


def _label(record: GameRecord) -> str:
    return record.rules + " + " + ", ".join(f"{k}={v}" for k, v in record.overrides)


def _rules_named(label: str) -> Rules | None:
    name, _, rest = label.partition(" + ")
    pairs = [(knob, value) for knob, _, value in (p.partition("=") for p in rest.split(", "))] if rest else []
    found = record_rules(name, pairs)
    return None if found.problems else found.rules
