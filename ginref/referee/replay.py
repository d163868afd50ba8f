"""The replay of a recorded hand: each event pushed onto the hand as its moves.

:func:`replay_hand` is the records' client of the one machine (:class:`~ginref.referee.hand.Hand`):
the deal is checked, then each event is played as the moves it shows, by its player, in order
(a pass; a turn's draw and its discard or knock; the defence), and the hand is ruled. What a
record gets wrong is a finding at that event's place; play goes on after an error wherever the
cards can still be followed (a live table refuses the same move instead). What only a record
says is checked here, beside the moves: a turn that shows no discard, and EAAI's claim of the
mover's least deadwood after each turn. Plain turns take the machine's fast path
(:meth:`~ginref.referee.hand.Hand.quick_turns`), a run at a time.
"""

from __future__ import annotations

from collections.abc import Callable

from ginref.melds import MeldSystem, min_deadwood
from ginref.records.model import Defence, HandRecord, Pass, Turn
from ginref.referee.findings import Finding, FindingCode
from ginref.referee.hand import Hand
from ginref.referee.state import ABANDON, GO, NORMAL, OVER, STOP, Flow, HandRuling, card_names, card_text
from ginref.rules import Rules

AtKnock = Callable[[Hand, Turn], None]
"""what a caller asks to see at each knock of a record, before it is played: the hand with the
knocker's draw made (:func:`ginref.referee.position.knock_positions`)"""


def replay_hand(
    hand: HandRecord, index: int, players: tuple[str, str], rules: Rules, system: MeldSystem,
    findings: list[Finding], at_knock: AtKnock | None = None,
) -> HandRuling:
    """Replay hand ``index`` of a record onto a :class:`Hand` and rule on it; the findings
    go to ``findings``."""
    machine = Hand(hand, index, players, rules, system, findings)
    if not machine.deal():
        return machine.result
    events = hand.events
    count = len(events)
    i = 0
    while i < count:
        if machine.phase == NORMAL:
            after = machine.quick_turns(events, i)
            if after > i:
                i = after
                continue
        ev = events[i]
        if type(ev) is Turn:
            step = _turn(machine, ev, i == count - 1, at_knock)
        else:
            step = push_event(machine, ev, i == count - 1, at_knock)
        if step is ABANDON:
            return machine.result
        if step is STOP:
            break
        i += 1
    return machine.rule(min(i, count - 1))


def push_event(
    machine: Hand, ev: Pass | Turn | Defence, is_last: bool, at_knock: AtKnock | None = None
) -> Flow:
    """Play one event as its moves, by its player."""
    if type(ev) is Turn:
        return _turn(machine, ev, is_last, at_knock)
    if type(ev) is Pass:
        return machine.pass_(ev.player, ev.place)
    assert isinstance(ev, Defence)
    return machine.finish(ev.player, ev)


def _turn(machine: Hand, ev: Turn, is_last: bool, at_knock: AtKnock | None) -> Flow:
    """A turn: its draw, then its discard or knock; then the claim of least deadwood, if any."""
    who, place, knock = ev.player, ev.place, ev.knock
    source = ev.source
    if source != "none":  # machine.draw or machine.take, the call made once
        step = machine.draw_half(who, source, ev.card, place, knock is not None)
    else:
        step = machine.open_turn(who, place)
    if step is not GO:
        return step
    if machine.phase == OVER:  # the draw ended the hand
        goes_on = "knock" if knock is not None else "discard" if ev.discard is not None else None
        return machine.cut_short(who, goes_on, place)
    if knock is not None:
        if at_knock is not None:
            at_knock(machine, ev)
        step = machine.knock(who, ev)
    elif ev.discard is not None:
        step = machine.discard(who, ev.discard, place)
    elif is_last:
        step = STOP  # the record stops mid-turn: the hand stays drawn
    else:
        return machine.owes_discard(who, place, card_text(ev.card))
    if ev.least_deadwood is not None and step is not ABANDON:
        _check_least(machine, ev)
    return step


def _check_least(machine: Hand, ev: Turn) -> None:
    """EAAI's claim of the mover's least deadwood after the turn, against the cards."""
    cards = machine.held[machine.mover]
    if machine.least_differs(cards, ev):
        least = min_deadwood(cards, machine.system)
        machine.add(FindingCode.DEADWOOD_MISDECLARED,
                    f"{ev.player}'s hand after this turn is said to hold {ev.least_deadwood} deadwood; "
                    f"at best it holds {least} ({card_names(cards)})", ev.place)
