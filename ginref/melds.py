"""Exact meld-partition search.

Runs live inside one suit, so the least runs-only deadwood of every 13-bit
suit mask is precomputed once (8,192 entries). A hand's least deadwood is then
four table look-ups, enumerated only over the set choices at ranks held three
or four times (at most 72 combinations for 11 cards). Nothing is greedy: every
partition of the hand into melds is covered, which ``tests/support/oracle.py`` checks
by brute force.

The run family is a parameter (:class:`MeldSystem`) so that the ace-high and
round-the-corner knobs use the same search.
"""

from __future__ import annotations

import functools
import itertools
import os
import sys
import zlib
from collections.abc import Iterable, Sequence
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import msgspec

from ginref.cards import CARD_POINTS, FULL_DECK, SUITS, Card, CardSet, Mask, card_name, mask_of, scan
from ginref.errors import HandSizeError, NotationError
from ginref.notation import CARD_TOKENS, hand_mask, parse_melds

if TYPE_CHECKING:
    from ginref.rules import Rules

Hand: TypeAlias = CardSet | str | Iterable[Card | str] | Mask
"""What the library takes as a hand: read by :func:`ginref.notation.hand_mask`."""

_NAME_BITS: dict[str, Mask] = {token: 1 << c for token, c in CARD_TOKENS.items()}
_name_bit = _NAME_BITS.__getitem__


def as_mask(hand: Hand) -> Mask:
    """The mask :func:`~ginref.notation.hand_mask` reads, with quick paths for the common forms.

    A ``CardSet``, a list or tuple of card names or of ints, and names separated
    by white space cost one look-up a card; anything else, and every error, is
    ``hand_mask``'s (the answer is the same: the names are ``CARD_TOKENS``).
    """
    if type(hand) is int and 0 <= hand <= FULL_DECK:
        return hand
    mask: Mask | None = None
    if type(hand) is list or type(hand) is tuple:
        mask = _names_mask(hand) if hand and type(hand[0]) is str else _ints_mask(hand)
    elif type(hand) is CardSet:
        return hand.mask
    elif type(hand) is str:
        mask = _names_mask(hand.split())
    return hand_mask(hand) if mask is None else mask


def _names_mask(names: Sequence[object]) -> Mask | None:
    try:
        mask: Mask = sum(map(_name_bit, names))  # type: ignore[arg-type]  # anything may come: KeyError
    except (KeyError, TypeError):  # not a name, or unhashable
        return None
    return mask if mask.bit_count() == len(names) else None  # a repeat carries into another bit


def _ints_mask(cards: Sequence[object]) -> Mask | None:
    mask = 0
    for c in cards:
        if type(c) is not int or not 0 <= c < 52 or mask >> c & 1:
            return None
        mask |= 1 << c
    return mask


SUIT_BITS = 0x1FFF
RANK_STRIDE = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""One card of each suit at rank A; shifted left by a rank, that rank's four cards."""


class MeldKind(Enum):
    """A set (three or four of a rank) or a run (three or more in sequence in one suit)."""

    SET = "set"
    RUN = "run"


SET_MASKS = frozenset(
    (RANK_STRIDE << rank) & ~(1 << (13 * left_out + rank) if left_out < 4 else 0)
    for rank in range(13)
    for left_out in range(5)
)
"""Every set: the four cards of a rank, and each three of them."""


class MeldSystem(msgspec.Struct, frozen=True):
    """What counts as a run, and what an unmatched ace costs.

    ``standard`` play is ``MeldSystem()``: ace low only, no K-A-2.
    """

    ace_high: bool = False
    wraparound: bool = False
    ace_points: int = 1

    @classmethod
    def from_rules(cls, rules: Rules) -> MeldSystem:
        """The system a rule set plays; the standard one is ``STANDARD_SYSTEM`` itself (the fast path)."""
        system = cls(rules.ace == "high_or_low", rules.wraparound, rules.unmatched_ace_value)
        return STANDARD_SYSTEM if system == STANDARD_SYSTEM else system

    @property
    def tables(self) -> _Tables:
        return _tables_for(self)


class Meld(msgspec.Struct, frozen=True):
    """A set or a run, as a 52-bit mask."""

    mask: Mask

    @property
    def kind(self) -> MeldKind:
        rank = ((self.mask & -self.mask).bit_length() - 1) % 13
        return MeldKind.SET if self.mask & ~(RANK_STRIDE << rank) == 0 else MeldKind.RUN

    @property
    def cards(self) -> tuple[Card, ...]:
        """Cards in reading order: a run in sequence (``QC KC AC``), a set by suit."""
        cards = tuple(scan(self.mask))
        if self.kind is MeldKind.RUN:
            return _run_order(cards)
        return cards

    def names(self) -> list[str]:
        return list(_names_in_order(self.mask))

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    @classmethod
    def parse(cls, text: str) -> Meld:
        """The meld of canonical card text, as ``repr`` writes it: ``Meld.parse("3C 4C 5C")``.

        Raises :class:`~ginref.errors.NotationError` for text that is not cards; whether
        the cards meld is :func:`is_meld`'s question, under the rules in play.
        """
        return cls(CardSet.parse(text).mask)

    def __str__(self) -> str:
        return "[" + " ".join(self.names()) + "]"

    def __repr__(self) -> str:
        return f"Meld.parse({' '.join(self.names())!r})"


@functools.lru_cache(maxsize=4096)
def _names_in_order(mask: Mask) -> tuple[str, ...]:
    """A meld's card names as :attr:`Meld.cards` orders them: every verdict and report names
    its melds, and a batch meets the same few hundred again and again."""
    return tuple(card_name(c) for c in Meld(mask).cards)


class Arrangement(msgspec.Struct, frozen=True):
    """Melds plus the deadwood they leave; melds in canonical order (by lowest card)."""

    melds: tuple[Meld, ...]
    deadwood: Mask
    deadwood_points: int

    @property
    def melded(self) -> Mask:
        mask = 0
        for meld in self.melds:
            mask |= meld.mask
        return mask

    def __str__(self) -> str:
        dead = " ".join(card_name(c) for c in scan(self.deadwood))
        return " ".join(str(m) for m in self.melds) + (f" + {dead}" if dead else "")

    def __repr__(self) -> str:
        melds = ", ".join(map(repr, self.melds)) + ("," if len(self.melds) == 1 else "")
        return f"Arrangement(({melds}), {CardSet(self.deadwood)!r}.mask, {self.deadwood_points})"


def _run_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Rotate a run's cards so they read in sequence across the ace if it wraps."""
    ranks = [c % 13 for c in cards]
    for start in range(len(cards)):
        rotated = ranks[start:] + ranks[:start]
        if all((b - a) % 13 == 1 for a, b in itertools.pairwise(rotated)):
            return cards[start:] + cards[:start]
    return cards


def _in_three_window(mask: int, system: MeldSystem) -> int:
    """Cards of a suit mask that lie in three consecutive held cards, so could be in a run."""
    line = mask
    if system.wraparound:
        line = mask | mask << 13 | mask << 26
    elif system.ace_high:
        line = mask | (mask & 1) << 13
    held = line & ((line << 1 & line << 2) | (line >> 1 & line << 1) | (line >> 1 & line >> 2))
    if system.wraparound:
        held = held >> 13
    return (held | held >> 13 | held >> 26) & mask


def _suit_runs(system: MeldSystem) -> tuple[int, ...]:
    """Every run as a 13-bit mask within one suit, under ``system``."""
    runs: set[int] = set()
    for length in range(3, 14):
        for start in range(14 - length):
            runs.add(((1 << length) - 1) << start)
        if system.ace_high or system.wraparound:
            # segments of the 14-long ace-high line A 2 .. K A that use the high ace
            for start in range(14 - length + 1):
                if start + length == 14:
                    segment = ((1 << (length - 1)) - 1) << start | 1
                    runs.add(segment)
        if system.wraparound:
            for start in range(13):
                if start + length > 13:
                    segment = 0
                    for offset in range(length):
                        segment |= 1 << ((start + offset) % 13)
                    runs.add(segment)
    return tuple(sorted(runs))


SuitRuns: TypeAlias = tuple[tuple[int, ...], ...]
"""The optimal run decompositions of one suit's cards."""
_EMPTY_SUIT_RUNS: list[SuitRuns | None] = [None]
LoneRuns: TypeAlias = "tuple[tuple[Meld, ...], Mask]"
"""A suit's runs when its optimal decomposition is unique, and the cards they hold."""
SEVERAL_RUNS: LoneRuns = ((), -1)
_EMPTY_LONE_RUNS: list[LoneRuns | None] = [None]


class _Tables(msgspec.Struct, eq=False, dict=True):  # dict: cached properties
    system: MeldSystem
    rank_points: tuple[int, ...]
    suit_runs: tuple[int, ...]
    best: list[int] = msgspec.field(default_factory=list)
    """least runs-only deadwood of each 13-bit suit mask"""
    capable: list[int] = msgspec.field(default_factory=list)
    """the cards of each suit mask that lie in some run within it"""
    run_masks: frozenset[int] = frozenset()
    """every run of the system as a 52-bit mask"""
    suit_run_set: frozenset[int] = frozenset()
    kinds: dict[Mask, MeldKind] = msgspec.field(default_factory=dict)
    """every legal meld of the system (runs and the 65 sets) and its kind"""
    _all_optimal: dict[int, tuple[tuple[int, ...], ...]] = msgspec.field(default_factory=dict)
    _suit_optimal: list[SuitRuns | None] = msgspec.field(default_factory=lambda: _EMPTY_SUIT_RUNS * 4 * 8192)
    """``suit_optimal_runs`` of each suit and 13-bit mask, filled as met"""
    _melds: dict[Mask, Meld] = msgspec.field(default_factory=dict)
    """one Meld value per legal meld met (bounded by ``kinds``)"""
    _lone: list[LoneRuns | None] = msgspec.field(default_factory=lambda: _EMPTY_LONE_RUNS * 4 * 8192)
    """``lone_runs`` of each suit and 13-bit mask, filled as met"""
    _restored_gain: list[int] | None = None
    """``discard_gain`` as :meth:`saved` wrote it, when the tables were restored"""

    def build(self, saved: bytes | None = None) -> None:
        """Fill the tables: from ``saved`` (what :meth:`saved` wrote for this system) when
        given and whole, else computed (about 45 ms with ``discard_gain``)."""
        if saved is None or not self._restore(saved):
            self.best = self._least_run_deadwood()
            self.capable = [_in_three_window(mask, self.system) for mask in range(1 << 13)]
        self.suit_run_set = frozenset(self.suit_runs)
        self.run_masks = frozenset(run << (13 * s) for run in self.suit_runs for s in range(4))
        self.kinds = dict.fromkeys(self.run_masks, MeldKind.RUN) | dict.fromkeys(SET_MASKS, MeldKind.SET)

    def saved(self) -> bytes:
        """``best``, ``capable`` and ``discard_gain`` as bytes, for :meth:`build` to restore:
        little-endian, after a CRC-32 of the rest, so a damaged file is computed instead."""
        import array  # here: reading them back (:meth:`_restore`) needs no array module

        gain = [0, *self.discard_gain[1:]]  # the empty suit's NO_CARD does not fit a byte
        capable = array.array("H", self.capable)
        if sys.byteorder == "big":
            capable.byteswap()
        body = array.array("B", self.best).tobytes() + capable.tobytes() + array.array("b", gain).tobytes()
        return zlib.crc32(body).to_bytes(4, "little") + body

    def _restore(self, saved: bytes) -> bool:
        size = 1 << 13
        body = saved[4:]
        if len(body) != 4 * size or zlib.crc32(body).to_bytes(4, "little") != saved[:4]:
            return False
        pairs = body[size : 3 * size]
        if sys.byteorder == "big":  # the file's 16-bit cells are little-endian
            pairs = bytes(pairs[i ^ 1] for i in range(len(pairs)))
        self.best, self.capable = list(body[:size]), memoryview(pairs).cast("H").tolist()
        self._restored_gain = [NO_CARD, *memoryview(body[3 * size :]).cast("b").tolist()[1:]]
        return True

    def _least_run_deadwood(self) -> list[int]:
        size = 1 << 13
        best = [0] * size
        points = self.rank_points
        by_low_bit: list[list[int]] = [[] for _ in range(13)]
        for run in self.suit_runs:
            for rank in range(13):
                if run >> rank & 1:
                    by_low_bit[rank].append(run)
        for mask in range(1, size):
            low = mask & -mask
            rank = low.bit_length() - 1
            rest = mask ^ low
            value = points[rank] + best[rest]
            for run in by_low_bit[rank]:
                if run & mask == run:
                    candidate = best[mask ^ run]
                    if candidate < value:
                        value = candidate
            best[mask] = value
        return best

    @cached_property
    def suit_points(self) -> list[int]:
        """The points of each 13-bit suit mask, built rank by rank (about half a millisecond)."""
        table = [0]
        for points in self.rank_points:
            table += [total + points for total in table]
        return table

    @cached_property
    def discard_gain(self) -> list[int]:
        """Least change to ``best`` from removing one card of each suit mask (empty: none)."""
        if self._restored_gain is not None:
            return self._restored_gain
        best = self.best
        gain = [NO_CARD] * len(best)
        for mask in range(1, len(best)):
            gain[mask] = min(best[mask ^ (1 << rank)] for rank in range(13) if mask >> rank & 1) - best[mask]
        return gain

    def meld(self, mask: Mask) -> Meld:
        """The one :class:`Meld` value of a legal meld of this system."""
        found = self._melds.get(mask)
        if found is None:
            found = self._melds[mask] = Meld(mask)
        return found

    def lone_runs(self, suit: int, bits: int) -> LoneRuns:
        """The runs of a suit's one optimal decomposition, by lowest card, and their cards
        (``SEVERAL_RUNS`` when it has more than one): ``best_arrangement``'s quick path."""
        key = suit << 13 | bits
        found = self._lone[key]
        if found is None:
            choices = self.suit_optimal_runs(suit, bits)
            found = SEVERAL_RUNS
            if len(choices) == 1:
                runs = sorted(choices[0], key=_lowest_card)
                found = tuple(map(self.meld, runs)), sum(runs)
            self._lone[key] = found
        return found

    def suit_optimal_runs(self, suit: int, bits: int) -> SuitRuns:
        """:meth:`all_optimal_runs` of ``bits``, each run moved to ``suit`` (at most 4 x 8,192 kept)."""
        key = suit << 13 | bits
        found = self._suit_optimal[key]
        if found is None:
            shift = 13 * suit
            found = tuple(tuple(run << shift for run in runs) for runs in self.all_optimal_runs(bits))
            self._suit_optimal[key] = found
        return found

    def all_optimal_runs(self, mask: int) -> tuple[tuple[int, ...], ...]:
        """Every run decomposition of a suit mask that reaches the least deadwood.

        Touching runs are merged when their union is itself a run, so each
        decomposition is listed once in its canonical form.
        """
        cached = self._all_optimal.get(mask)
        if cached is not None:
            return cached
        target = self.best[mask]
        found: set[tuple[int, ...]] = set()

        def walk(rest: int, runs: tuple[int, ...], dead_points: int) -> None:
            if dead_points + self.best[rest] > target:
                return
            if not rest:
                found.add(_joined_runs(runs, self.suit_run_set))
                return
            low = rest & -rest
            walk(rest ^ low, runs, dead_points + self.rank_points[low.bit_length() - 1])
            for run in self.suit_runs:
                if run & low and run & rest == run:
                    walk(rest ^ run, (*runs, run), dead_points)

        walk(mask, (), 0)
        result = tuple(sorted(found))
        self._all_optimal[mask] = result
        return result


CACHED_SYSTEMS = 8
"""Tables kept for this many other systems (about 200 KB each when fully used);
the standard system's are kept for good."""


STANDARD_TABLES_FILE = os.path.join(os.path.dirname(__file__), "standard_tables.bin")
"""The standard system's tables as :meth:`_Tables.saved` writes them (``python
tools/meld_tables.py``): reading them is far quicker than computing them at every command's
start-up. A test checks that they equal the computed tables. A path as text, so that a
one-hand command does not load :mod:`pathlib`."""


@functools.lru_cache(maxsize=CACHED_SYSTEMS)
def _built_tables(system: MeldSystem, saved: bytes | None = None) -> _Tables:
    points = (system.ace_points, *CARD_POINTS[1:13])  # a card's points, but for the unmatched ace
    tables = _Tables(system, points, _suit_runs(system))
    tables.build(saved)
    return tables


def _saved_standard_tables() -> bytes | None:
    try:
        with open(STANDARD_TABLES_FILE, "rb") as saved:
            return saved.read()
    except OSError:  # not shipped (a bare source copy): the tables are computed
        return None


_recent: tuple[MeldSystem, _Tables] | None = None
"""The last other system asked for, found by identity (a hash of the system costs more)."""


def _tables_for(system: MeldSystem) -> _Tables:
    global _recent
    if system is STANDARD_SYSTEM:
        return _STANDARD_TABLES
    recent = _recent
    if recent is not None and recent[0] is system:
        return recent[1]
    if system == STANDARD_SYSTEM:
        return _STANDARD_TABLES
    tables = _built_tables(system)
    _recent = (system, tables)
    return tables


NO_CARD = 1 << 20
"""Stands in for an impossible discard from an empty suit."""


STANDARD_SYSTEM = MeldSystem()
_STANDARD_TABLES = _built_tables.__wrapped__(STANDARD_SYSTEM, _saved_standard_tables())
"""Built at import: every caller needs them, and the hot paths then test one identity."""
_STANDARD_BEST = _STANDARD_TABLES.best
_STANDARD_CAPABLE = _STANDARD_TABLES.capable
_ALL_CAPABLE = [8191] * 8192
"""Stands in for ``capable`` where every three-card set must be tried."""


MOST_OPEN_RANKS = 6
"""Ranks open to a set choice that the exact search takes (6**6 choices at most); more
need 21 cards or so, which no hand of gin holds, and would take exponential time."""


def _too_many_sets(open_ranks: int) -> HandSizeError:
    return HandSizeError(
        f"too many ranks held three or four times for the exact search: {open_ranks.bit_count()},"
        f" at most {MOST_OPEN_RANKS}"
    )


def min_deadwood(hand: Hand, system: MeldSystem = STANDARD_SYSTEM) -> int:
    """Least deadwood points of any arrangement of ``hand`` (any number of cards).

    Hot path: a mask is taken as it is, and with no rank held three times this
    is four table look-ups. Else only the set choices that can matter are
    enumerated (a rank none of whose cards fits a run takes its full set), and
    the last open rank is settled in closed form.

    ``hand`` is a mask (or anything :func:`~ginref.notation.hand_mask` takes); ``system``
    the meld rules (:meth:`MeldSystem.from_rules`). Returns the points. Raises
    :class:`~ginref.errors.NotationError` only for a hand that is not cards.
    """
    if type(hand) is not int:
        hand = as_mask(hand)
    if system is STANDARD_SYSTEM:
        best, capable = _STANDARD_BEST, _STANDARD_CAPABLE
    else:
        tables = _tables_for(system)
        best, capable = tables.best, tables.capable
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    if s >> 13:  # not a mask of the deck: hand_mask words the error
        return min_deadwood(hand_mask(hand), system)
    triples = (c & d & (h | s)) | ((c | d) & h & s)
    if not triples:
        return best[c] + best[d] + best[h] + best[s]
    # A set none of whose cards fits a run is melded: leaving it (or dropping
    # one of four) only adds deadwood, so it is no choice.
    forced = triples & ~(capable[c] | capable[d] | capable[h] | capable[s])
    if forced:
        c, d, h, s = c & ~forced, d & ~forced, h & ~forced, s & ~forced
    open_ranks = triples ^ forced
    if not open_ranks:
        return best[c] + best[d] + best[h] + best[s]
    if open_ranks.bit_count() > MOST_OPEN_RANKS:
        raise _too_many_sets(open_ranks)
    last = open_ranks & -open_ranks
    open_ranks ^= last
    if not open_ranks:
        return _settle_last_rank(c, d, h, s, last, best)
    return min(
        _settle_last_rank(c2, d2, h2, s2, last, best)
        for c2, d2, h2, s2 in _set_configurations(c, d, h, s, open_ranks, capable)
    )


def min_deadwood_after_discard(hand: Hand, system: MeldSystem = STANDARD_SYSTEM) -> int:
    """Least deadwood of ``hand`` less its best discard (11 cards after the draw).

    ``discard_gain`` holds, per suit mask, the best change from dropping one of
    its cards, so the discard costs one ``min`` per set configuration.

    ``hand`` holds 11 cards (a mask or anything :func:`~ginref.notation.hand_mask` takes);
    ``system`` the meld rules. Returns the points. Raises
    :class:`~ginref.errors.NotationError` for a hand that is not cards and
    :class:`~ginref.errors.HandSizeError` for one with no card to discard.
    """
    if type(hand) is not int:
        hand = as_mask(hand)
    if not hand:
        raise HandSizeError("an empty hand has no card to discard")
    tables = _STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)
    best = tables.best
    gain = tables.discard_gain
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    if s >> 13:  # not a mask of the deck: hand_mask words the error
        return min_deadwood_after_discard(hand_mask(hand), system)
    triples = (c & d & (h | s)) | ((c | d) & h & s)
    if not triples:
        return best[c] + best[d] + best[h] + best[s] + min(gain[c], gain[d], gain[h], gain[s])
    # Forced sets as in min_deadwood, but a set of four stays open: one of its
    # cards may be the best discard (a set of three costs no discard, as the
    # other cards always offer one).
    capable = tables.capable
    forced = triples & ~(c & d & h & s) & ~(capable[c] | capable[d] | capable[h] | capable[s])
    if forced:
        c, d, h, s = c & ~forced, d & ~forced, h & ~forced, s & ~forced
        if not c | d | h | s:  # nothing but sets of three (a short hand): the discard breaks one
            return min(min_deadwood(hand & ~(1 << card), system) for card in scan(hand))
    open_ranks = triples ^ forced
    value = best[c] + best[d] + best[h] + best[s] + min(gain[c], gain[d], gain[h], gain[s])
    if not open_ranks:
        return value
    if open_ranks.bit_count() > MOST_OPEN_RANKS:
        raise _too_many_sets(open_ranks)
    if open_ranks & (open_ranks - 1) == 0:
        return min(value, _settle_last_rank_with_discard(c, d, h, s, open_ranks, best, gain))
    return min(
        best[c2] + best[d2] + best[h2] + best[s2] + min(gain[c2], gain[d2], gain[h2], gain[s2])
        for c2, d2, h2, s2 in _set_configurations(c, d, h, s, open_ranks, _ALL_CAPABLE)
    )


def best_discard(hand: Hand, system: MeldSystem = STANDARD_SYSTEM) -> Card:
    """The lowest card of an 11-card ``hand`` whose discard leaves the least deadwood.

    With no rank held three times a discard changes one suit's table value only, so
    the first suit whose ``discard_gain`` is least holds it; else each discard is tried,
    in card order, until one leaves :func:`min_deadwood_after_discard`.

    ``hand`` is a mask (or anything :func:`~ginref.notation.hand_mask` takes) of at least
    one card; ``system`` the meld rules. Returns the card. Raises
    :class:`~ginref.errors.NotationError` for a hand that is not cards or has none.
    """
    mask = as_mask(hand)
    if not mask:
        raise NotationError("best_discard: the hand has no card to discard")
    tables = _STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)
    best, gain = tables.best, tables.discard_gain
    suits = (mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39)
    c, d, h, s = suits
    if (c & d & (h | s)) | ((c | d) & h & s):
        # Dropping a card lowers the least deadwood by its points at most: cheaper cards cannot
        # reach the target, so they need no search.
        target = min_deadwood_after_discard(mask, system)
        reach = min_deadwood(mask, system) - target
        points = tables.rank_points
        return next(
            card
            for card in scan(mask)
            if points[card % 13] >= reach and min_deadwood(mask & ~(1 << card), system) == target
        )
    least = min(gain[c], gain[d], gain[h], gain[s])
    suit, bits = next((suit, bits) for suit, bits in enumerate(suits) if gain[bits] == least)
    rank = next(rank for rank in scan(bits) if best[bits ^ 1 << rank] - best[bits] == least)
    return 13 * suit + rank


def _settle_last_rank_with_discard(
    c: int, d: int, h: int, s: int, low: int, best: list[int], gain: list[int]
) -> int:
    """The set choices at the one open rank ``low`` (the full set, or three of four), plus a discard."""
    c2, d2, h2, s2 = c & ~low, d & ~low, h & ~low, s & ~low
    value = best[c2] + best[d2] + best[h2] + best[s2] + min(gain[c2], gain[d2], gain[h2], gain[s2])
    if c & d & h & s & low:
        for kept in ((c, d2, h2, s2), (c2, d, h2, s2), (c2, d2, h, s2), (c2, d2, h2, s)):
            w, x, y, z = kept
            candidate = best[w] + best[x] + best[y] + best[z] + min(gain[w], gain[x], gain[y], gain[z])
            if candidate < value:
                value = candidate
    return value


def _set_configurations(
    c: int, d: int, h: int, s: int, ranks: int, capable: list[int]
) -> list[tuple[int, int, int, int]]:
    """The suit masks left by each choice of sets at the ranks in ``ranks`` (a 13-bit mask).

    At a rank held four times, only dropping a card that fits a run can beat
    the full set, so only those three-card sets are tried.
    """
    configurations = [(c, d, h, s)]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        grown = []
        for c1, d1, h1, s1 in configurations:
            grown.append((c1, d1, h1, s1))
            c2, d2, h2, s2 = c1 & ~low, d1 & ~low, h1 & ~low, s1 & ~low
            grown.append((c2, d2, h2, s2))
            if c1 & d1 & h1 & s1 & low:
                if capable[c] & low:
                    grown.append((c1, d2, h2, s2))
                if capable[d] & low:
                    grown.append((c2, d1, h2, s2))
                if capable[h] & low:
                    grown.append((c2, d2, h1, s2))
                if capable[s] & low:
                    grown.append((c2, d2, h2, s1))
        configurations = grown
    return configurations


def _settle_last_rank(c: int, d: int, h: int, s: int, low: int, best: list[int]) -> int:
    """Least deadwood when ``low`` is the only rank still open to a set.

    No set, the full set, or (held four times) the set without the card whose
    removal costs its suit the most, which then stays in its suit.
    """
    keep = ~low
    bc, bd, bh, bs = best[c], best[d], best[h], best[s]
    mc, md, mh, ms = best[c & keep], best[d & keep], best[h & keep], best[s & keep]
    unset = bc + bd + bh + bs
    melded = mc + md + mh + ms
    if c & d & h & s & low:
        return min(unset, melded, melded - max(mc - bc, md - bd, mh - bh, ms - bs))
    return unset if unset < melded else melded


def _split_sets(sets_mask: int) -> list[int]:
    """The sets of a union of sets, one a rank."""
    ranks = (sets_mask | sets_mask >> 13 | sets_mask >> 26 | sets_mask >> 39) & SUIT_BITS
    sets = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        sets.append(sets_mask & low * RANK_STRIDE)
    return sets


Split: TypeAlias = tuple[int, tuple[int, ...]]
"""An arrangement in the making: the union of its sets, and its runs."""


def _optimal_splits(mask: Mask, tables: _Tables) -> tuple[int, list[Split]]:
    """The least deadwood of ``mask``, and every split into sets and runs that leaves it, each once.

    The set choices are :func:`min_deadwood`'s (forced sets taken, only the three-card sets
    that free a card for a run), each weighed here in full to keep its splits.
    """
    c, d, h, s = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    best, capable = tables.best, tables.capable
    triples = (c & d & (h | s)) | ((c | d) & h & s)
    if not triples:  # no set to choose: runs alone reach the least
        return best[c] + best[d] + best[h] + best[s], _run_choices(0, tables, c, d, h, s)
    forced = triples & ~(capable[c] | capable[d] | capable[h] | capable[s])
    if forced:
        c, d, h, s = c & ~forced, d & ~forced, h & ~forced, s & ~forced
    if (triples ^ forced).bit_count() > MOST_OPEN_RANKS:
        raise _too_many_sets(triples ^ forced)
    configurations = _set_configurations(c, d, h, s, triples ^ forced, capable)
    values = [best[w] + best[x] + best[y] + best[z] for w, x, y, z in configurations]
    target = min(values)
    found: list[Split] = []
    for (w, x, y, z), value in zip(configurations, values, strict=True):
        if value == target:
            found += _run_choices(mask & ~(w | x << 13 | y << 26 | z << 39), tables, w, x, y, z)
    return target, found


def _run_choices(sets_mask: int, tables: _Tables, c: int, d: int, h: int, s: int) -> list[Split]:
    """The splits with these sets: each suit's optimal runs, one choice per suit (mostly one in all)."""
    known, runs = tables._suit_optimal, tables.suit_optimal_runs
    w = known[c] or runs(0, c)
    x = known[8192 | d] or runs(1, d)
    y = known[16384 | h] or runs(2, h)
    z = known[24576 | s] or runs(3, s)
    if len(w) == len(x) == len(y) == len(z) == 1:
        return [(sets_mask, w[0] + x[0] + y[0] + z[0])]
    return [(sets_mask, a + b + e + f) for a, b, e, f in itertools.product(w, x, y, z)]


def _lowest_card(meld: Mask) -> int:
    return meld & -meld


def _split_melds(split: Split) -> list[Mask]:
    """The melds of a split in canonical order: disjoint, so by lowest card."""
    sets_mask, runs = split
    melds = [*_split_sets(sets_mask), *runs] if sets_mask else list(runs)
    if len(melds) > 1:
        melds.sort(key=_lowest_card)
    return melds


@functools.lru_cache(maxsize=8192)
def _meld_cards(meld: Mask) -> tuple[Card, ...]:
    """A meld's cards in card order (kept: melds are few, and arrangements that tie meet them again)."""
    return tuple(scan(meld))


def _melds_key(mask: Mask, melds: list[Mask]) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """The canonical order of arrangements: their melds' cards in order, then the deadwood."""
    return tuple(map(_meld_cards, melds)), mask & ~sum(melds)


def _arrangement(mask: Mask, melds: list[Mask], tables: _Tables, points: int) -> Arrangement:
    return Arrangement(tuple(map(tables.meld, melds)), mask & ~sum(melds), points)


def best_arrangement(hand: Hand, system: MeldSystem = STANDARD_SYSTEM) -> Arrangement:
    """One least-deadwood arrangement: the first of :func:`optimal_arrangements`.

    A hand with no rank held three times takes each suit's one optimal decomposition
    from a table; otherwise only the splits that tie are compared, by their canonical key,
    and only the winner is built: about one :func:`min_deadwood` plus one arrangement.

    ``hand`` is a mask (or anything :func:`~ginref.notation.hand_mask` takes), ``system``
    the meld rules. Returns an :class:`Arrangement`. Raises
    :class:`~ginref.errors.NotationError` only for a hand that is not cards.
    """
    mask = hand if type(hand) is int and 0 <= hand <= FULL_DECK else as_mask(hand)
    tables = _STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)
    c, d, h, s = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    if not ((c & d & (h | s)) | ((c | d) & h & s)):
        lone = tables._lone
        w = lone[c] or tables.lone_runs(0, c)
        x = lone[8192 | d] or tables.lone_runs(1, d)
        y = lone[16384 | h] or tables.lone_runs(2, h)
        z = lone[24576 | s] or tables.lone_runs(3, s)
        if w[1] >= 0 and x[1] >= 0 and y[1] >= 0 and z[1] >= 0:
            least = tables.best
            points = least[c] + least[d] + least[h] + least[s]
            return Arrangement(w[0] + x[0] + y[0] + z[0], mask & ~(w[1] | x[1] | y[1] | z[1]), points)
    target, splits = _optimal_splits(mask, tables)
    if len(splits) == 1:
        return _arrangement(mask, _split_melds(splits[0]), tables, target)
    first = min(map(_split_melds, splits), key=lambda melds: _melds_key(mask, melds))
    return _arrangement(mask, first, tables, target)


def optimal_arrangements(hand: Hand, system: MeldSystem = STANDARD_SYSTEM) -> list[Arrangement]:
    """Every least-deadwood arrangement, in canonical order.

    Runs that touch are one meld (``[3H..8H]``, not ``[3H 4H 5H] [6H 7H 8H]``):
    the split changes nothing a referee rules on.

    ``hand`` is a mask (or anything :func:`~ginref.notation.hand_mask` takes), ``system``
    the meld rules. Returns a list of :class:`Arrangement`. Raises
    :class:`~ginref.errors.NotationError` only for a hand that is not cards.
    """
    mask = as_mask(hand)
    tables = _tables_for(system)
    target, splits = _optimal_splits(mask, tables)
    every = sorted(map(_split_melds, splits), key=lambda melds: _melds_key(mask, melds))
    return [_arrangement(mask, melds, tables, target) for melds in every]


def meld_kind(cards: Hand, system: MeldSystem = STANDARD_SYSTEM) -> MeldKind | None:
    """``SET`` or ``RUN`` if ``cards`` are a legal meld under ``system``, else None."""
    tables = _STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)
    if type(cards) is int:
        return tables.kinds.get(cards)
    return tables.kinds.get(as_mask(cards))


def is_meld(cards: Hand, system: MeldSystem = STANDARD_SYSTEM) -> bool:
    """The only meld test: one look-up in the table of the system's melds.

    The referee asks it of every declared meld, so it is not a call to ``meld_kind``.
    """
    tables = _STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)
    if type(cards) is int:
        return cards in tables.kinds
    return as_mask(cards) in tables.kinds


def meld_masks(melds: str | Iterable[Meld | Hand]) -> list[Mask]:
    """The cards of each meld given: bracketed text (``"[3C 4C 5C] [9D 9H 9S]"``),
    or :class:`Meld` values and hands one by one. No legality check.
    """
    if isinstance(melds, str):
        return [mask_of(cards) for cards in parse_melds(melds)]
    return [meld.mask if isinstance(meld, Meld) else hand_mask(meld) for meld in melds]


def merged_runs(melds: Iterable[Mask], system: MeldSystem = STANDARD_SYSTEM) -> tuple[Mask, ...]:
    """The melds, touching runs joined, sorted: ``[3H 4H 5H] [6H 7H 8H]`` is ``[3H..8H]``.

    Two spreads that differ only in how a long run is cut are the same spread
    to a referee: this is the form in which to compare them.
    """
    return _joined_runs(melds, _tables_for(system).run_masks)


def _joined_runs(melds: Iterable[Mask], runs: frozenset[Mask]) -> tuple[Mask, ...]:
    joined = list(melds)
    changed = True
    while changed:
        changed = False
        for i, j in itertools.combinations(range(len(joined)), 2):
            if joined[i] in runs and joined[j] in runs and joined[i] | joined[j] in runs:
                joined[i] |= joined.pop(j)
                changed = True
                break
    return tuple(sorted(joined))


def mask_points_in(system: MeldSystem, mask: Mask) -> int:
    """The points of the cards of ``mask`` (a mask of the deck) under ``system``: the one
    home of a deadwood count, four look-ups of :attr:`_Tables.suit_points`."""
    table = (_STANDARD_TABLES if system is STANDARD_SYSTEM else _tables_for(system)).suit_points
    return table[mask & 8191] + table[mask >> 13 & 8191] + table[mask >> 26 & 8191] + table[mask >> 39]


__all__ = [
    "SUITS",
    "Arrangement",
    "Hand",
    "Meld",
    "MeldKind",
    "MeldSystem",
    "as_mask",
    "best_arrangement",
    "best_discard",
    "is_meld",
    "meld_kind",
    "meld_masks",
    "merged_runs",
    "min_deadwood",
    "min_deadwood_after_discard",
    "optimal_arrangements",
]
