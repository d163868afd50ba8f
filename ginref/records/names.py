"""Who played: the agents' names in place of the seats a research log names.

Research logs name seats, not agents: ``Player 0`` and ``Player 1`` (EAAI), ``N`` and ``S``
(RLCard). To rank the agents (``ginref report --standings``) over files where they swap
seats, the records must name the agents. Three ways, applied as a record is decoded, so that
every command (``verify``, ``report``, ``adjudicate``, ``convert``) sees the same names:

- the EAAI tournament software's file names, ``M-XvY-gameG.txt`` (match M, game G): agent X
  played ``Player 0`` and agent Y ``Player 1`` (:func:`tournament_players`; the first ``v``
  after the match number splits the two names, and a file where both are one agent keeps
  the seats);
- :class:`Naming` ``seats`` (``--players A B``): the record's first player is A, its second B;
- :class:`Naming` ``names`` (``--names FILE``): a map from the names the records use (after
  the file name's) to the names wanted, one ``old = new`` a line (:func:`parse_names`).

A renamed record says the same, with other names: every move, claim, total and its
``Winner`` tag follow the players (:func:`renamed`).
"""

from __future__ import annotations

import os
import re

import msgspec

from ginref.errors import RecordError
from ginref.records.model import ClaimedResult, Event, GameRecord, HandRecord

__all__ = ["Naming", "named", "parse_names", "renamed", "tournament_players"]

MAX_NAMES = 10_000
"""most lines a names file may map"""


class Naming(msgspec.Struct, frozen=True):
    """How to name a batch's players: ``seats`` names each record's first and second player,
    ``names`` maps names as the records give them to others. Empty: as the records say."""

    seats: tuple[str, str] | None = None
    names: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return self.seats is not None or bool(self.names)


_TOURNAMENT_RE = re.compile(r"[0-9]{1,9}-([^/\\]+?)v([^/\\]+)-game[0-9]{1,9}\.txt")
_COMPRESSED = (".gz", ".bz2", ".xz")


def tournament_players(source: str) -> tuple[str, str] | None:
    """The agents X and Y of an EAAI tournament file ``M-XvY-gameG.txt`` (compressed or not),
    seat 0's first; None for any other name, or when X and Y are one agent."""
    name = os.path.basename(source)
    for ending in _COMPRESSED:
        if name.endswith(ending):
            name = name[: -len(ending)]
    m = _TOURNAMENT_RE.fullmatch(name)
    if m is None or m[1] == m[2]:
        return None
    return m[1], m[2]


def parse_names(text: str, source: str = "") -> tuple[tuple[str, str], ...]:
    """A names file: ``old = new`` a line (spaces around either name are dropped), ``#``
    comments and blank lines passed over; raises :class:`RecordError` naming a bad line."""
    found: dict[str, str] = {}
    for number, line in enumerate(text.split("\n"), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        old, equals, new = (part.strip() for part in content.partition("="))
        if not equals or not old or not new:
            raise RecordError("a names line is 'old name = new name'", source, number, 1)
        if old in found:
            raise RecordError(f"{old!r} is named twice", source, number, 1)
        if len(found) >= MAX_NAMES:
            raise RecordError(f"a names file maps at most {MAX_NAMES} names", source, number, 1)
        found[old] = new
    return tuple(found.items())


def named(record: GameRecord, naming: Naming) -> GameRecord:
    """``record`` with its players named as ``naming`` says (unchanged when it says nothing
    about them)."""
    mapping: dict[str, str] = {}
    if naming.seats is not None:
        mapping = dict(zip(record.players, naming.seats, strict=True))
    if naming.names:
        table = dict(naming.names)
        mapping = {old: table.get(new, new) for old, new in mapping.items()} if mapping else {
            p: table[p] for p in record.players if p in table}
    return renamed(record, mapping)


def renamed(record: GameRecord, mapping: dict[str, str]) -> GameRecord:
    """``record`` with each player in ``mapping`` renamed, wherever the record names it."""
    mapping = {old: new for old, new in mapping.items() if old != new}
    if not mapping or not any(p in mapping for p in record.players):
        return record

    def name(who: str | None) -> str | None:
        return mapping.get(who, who) if who is not None else None

    def names(pairs: tuple[tuple[str, int], ...] | None) -> tuple[tuple[str, int], ...] | None:
        return None if pairs is None else tuple((mapping.get(p, p), n) for p, n in pairs)

    def event(ev: Event) -> Event:
        return msgspec.structs.replace(ev, player=mapping.get(ev.player, ev.player))

    def claim(result: ClaimedResult | None) -> ClaimedResult | None:
        if result is None:
            return None
        return msgspec.structs.replace(result, winner=name(result.winner), stopped_by=name(result.stopped_by))

    def hand(h: HandRecord) -> HandRecord:
        return msgspec.structs.replace(
            h, dealer=mapping.get(h.dealer, h.dealer),
            deal=tuple((mapping.get(p, p), cards) for p, cards in h.deal),
            events=tuple(event(ev) for ev in h.events), result=claim(h.result),
            score_after=names(h.score_after), next_dealer=name(h.next_dealer),
        )

    first, second = record.players
    players = (mapping.get(first, first), mapping.get(second, second))
    tags = tuple((k, mapping.get(v, v) if k == "Winner" else v) for k, v in record.tags)
    return msgspec.structs.replace(record, players=players, hands=tuple(hand(h) for h in record.hands),
                                   tags=tags, final_totals=names(record.final_totals))

