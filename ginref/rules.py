"""Rule sets as data: one frozen :class:`Rules` value per variant, looked up by name.

Every knob of a rule set is a field (docs/rule-sources.md names the sources), so
a TOML rules file, a ``--set knob=value`` option and ``Rules.to_dict()`` all speak
the same spelling. The module holds small predicates only (what is the knock limit
for this upcard, is the hand doubled); game logic lives in the modules that use it.

>>> find_rules("Tallynight").gin_bonus
25
>>> with_overrides(STANDARD, {"gin_bonus": "25"}).label
'standard + gin_bonus=25'
>>> from ginref.cards import card
>>> PRESETS["oklahoma"].knock_limit_for(card(6, 3))   # 7S turned up
7
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Literal, get_args, get_origin

import msgspec

from ginref.cards import Card, card_points, rank_of, suit_of
from ginref.errors import GinrefError, RulingError, UnknownRulesError
from ginref.notation import excerpt

__all__ = [
    "ALIASES",
    "KNOB_MEANINGS",
    "KNOB_NAMES",
    "MAX_NUMBER",
    "PRESETS",
    "PRESET_NAMES",
    "RULE_NAMES",
    "STANDARD",
    "Rules",
    "find_rules",
    "knob_choices",
    "load_rules_file",
    "parse_number",
    "parse_override",
    "with_overrides",
]

OklahomaMode = Literal["off", "gin_only", "one"]
TiePolicy = Literal["undercut", "no_score", "knocker"]
DefenderLayoffMode = Literal["joint", "meld_first"]
FirstTurn = Literal["ritual", "none", "eleven_card"]
StockEnd = Literal["void", "last_discard_knock_only", "take_or_dead"]
VoidHandDealer = Literal["same", "passes"]
NextDealer = Literal["winner", "alternate", "loser"]
AceMode = Literal["low", "high_or_low"]
BoxTiming = Literal["end", "immediate"]
Shutout = Literal["game_bonus_200", "double_total", "none"]
IllegalKnock = Literal["expose", "accept_or_refuse", "forfeit", "reject"]

_SPADES = 3
_OFF = "off"


class Rules(msgspec.Struct, frozen=True):
    """One rule set. Defaults are the ``standard`` preset (the classic rules).

    Build variants with :func:`with_overrides` (which also records them in ``overrides``)
    or ``msgspec.structs.replace`` (``copy.replace`` from Python 3.13), never by mutation;
    either checks every knob. A frozen Struct, not a dataclass: ``dataclasses`` compiles
    the methods it writes at every import, a large part of a start-up for this many fields.

    Per-hand facts such as the Oklahoma upcard belong to the hand record and
    are passed to the predicates (:meth:`knock_limit_for`, :meth:`is_spade_doubled`).
    """

    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""

    """Knocking. ``knock_limit`` is the most deadwood a knock may show (10 everywhere;
    0 = straight gin, no knocking). ``oklahoma`` makes the first upcard's value the
    limit (capped by ``knock_limit``); an ace upcard means gin only for Bicycle and
    OpenSpiel but a limit of 1 for Pagat's base rule as read by the gin-rummy crate.
    ``spade_double`` doubles every score of a hand whose first upcard is a spade,
    gin/undercut bonuses included [P3, P7]; whether box bonuses double too is
    ``spade_double_boxes`` (some books say no [P4])."""
    knock_limit: int = 10
    oklahoma: OklahomaMode = "off"
    spade_double: bool = False
    spade_double_boxes: bool = False

    """Hand scoring. Bonus levels split 20/10 (Pagat, Bicycle) against 25/25 (Hoyle,
    Tallynight, CardHearth, OpenSpiel, EAAI). ``big_gin_bonus`` (all 11 cards melded,
    no discard) is ``None`` where big gin is not a rule; 31 in Hoyle-style scoring.
    ``tie_policy`` rules equal deadwood after layoffs: undercut (seeds, EAAI), no score
    (OpenSpiel, early official rules) or knocker wins by 0 (ginplayeronline)."""
    gin_bonus: int = 20
    big_gin_bonus: int | None = None
    undercut_bonus: int = 10
    tie_policy: TiePolicy = "undercut"

    """Layoffs. Everyone lays off onto a knock but RLCard (``layoff_on_knock``: its
    defender only melds). Nobody lays off onto gin except in round-the-corner, where a defender
    reaching 0 cancels the gin; nor onto big gin (Tallynight). Chained run extensions
    (7H then 8H onto 4-5-6H) are allowed everywhere. ``defender_layoff_mode`` ``joint``
    lets the defender break its own melds to lay off (OpenSpiel test 1); ``meld_first``
    is the literal "spread, then lay off leftovers" reading of the seed.
    ``layoff_chain_limit`` caps the cards laid off beyond each end of a run: OpenSpiel
    offers the card next to the run as laid and the one after it, never a third
    (``None`` = no cap; it matters only with chaining). With
    ``knocker_must_meld_max`` the knocker may not withhold a meld (Pagat's "as far
    as possible"); engines let the declared arrangement govern."""
    layoff_on_knock: bool = True
    layoff_on_gin: bool = False
    layoff_on_big_gin: bool = False
    layoff_chaining: bool = True
    layoff_chain_limit: int | None = None
    defender_layoff_mode: DefenderLayoffMode = "joint"
    knocker_must_meld_max: bool = False

    """The turn. ``no_same_card_discard`` forbids discarding the card just taken from
    the discard pile, face up or as the knock card (all seeds, EAAI; OpenSpiel allows it;
    RLCard forbids only the face-up discard, so its preset has it off). ``first_turn``:
    the upcard ritual (non-dealer, then dealer, may take it; else non-dealer draws from
    stock), ``none`` (CardHearth: a normal turn) or ``eleven_card`` (RLCard: non-dealer
    is dealt 11 and starts by discarding)."""
    no_same_card_discard: bool = True
    first_turn: FirstTurn = "ritual"

    """Stock exhaustion and dealing. ``stock_floor`` cards are never drawn. When the
    taker of the last drawable card discards without knocking, the hand is void
    (seeds, EAAI) or, under ``last_discard_knock_only`` (OpenSpiel wall phase, the
    tournament "50th card rule"), the opponent may take that discard only to knock;
    under ``take_or_dead`` (RLCard) each player in turn may take the last discard and
    play on, or declare the hand dead.
    ``max_discard_draws``: OpenSpiel ends the hand as a 0-0 draw at the 50th draw of
    a discard after the first-turn decision (``None`` = no cap). With
    ``repeat_discard_draw`` the hand is a draw when both players in turn take the top
    discard and discard that same card again (OpenSpiel). After a void hand the same
    dealer deals again (Pagat) or the deal passes (Parlett); after a scored hand the
    winner deals (the rules texts), the deal alternates (Wikipedia, EAAI) or the loser deals."""
    stock_floor: int = 2
    stock_end: StockEnd = "void"
    max_discard_draws: int | None = None
    repeat_discard_draw: bool = False
    void_hand_dealer: VoidHandDealer = "same"
    next_dealer: NextDealer = "winner"

    """Aces. Low only everywhere (A-2-3, never Q-K-A) except round-the-corner gin:
    ace high or low, K-A-2 wraps, and an unmatched ace counts 15."""
    ace: AceMode = "low"
    wraparound: bool = False
    unmatched_ace_value: int = 1

    """Game scoring. ``game_target`` 100 (150 for Oklahoma, 125 round-the-corner;
    0 = a single hand, as OpenSpiel plays). The game bonus (100) and box/line bonus per
    hand won (20 Pagat, 25 Tallynight; none in CardHearth and EAAI) are added at the
    end unless ``box_timing`` is ``immediate`` (Palace: credited per hand, counting
    toward the target). A shutout doubles the game bonus to 200 (the rules texts) or doubles the
    winner's total (a Tallynight alternative). Oklahoma books add extra boxes for an
    undercut (1) or gin (2). ``hollywood_columns`` 3 scores three games at once."""
    game_target: int = 100
    game_bonus: int = 100
    box_bonus: int = 20
    box_timing: BoxTiming = "end"
    shutout: Shutout = "game_bonus_200"
    extra_boxes_undercut: int = 0
    extra_boxes_gin: int = 0
    hollywood_columns: int = 0

    """Illegal knocks (deadwood over the limit): USPCC "official" rules expose the
    offender's hand and play on; Hoyle lets the opponent accept or refuse the knock;
    EAAI forfeits the game; ``reject`` treats it as an impossible action (OpenSpiel)."""
    illegal_knock: IllegalKnock = "expose"

    overrides: tuple[tuple[str, str], ...] = ()
    """Knobs changed from the preset called ``name``, sorted, values as written in TOML."""

    def __post_init__(self) -> None:
        for spec in _KNOBS.values():
            value = getattr(self, spec.name)
            coerced = spec.coerce(value)
            if type(coerced) is not type(value) or coerced != value:
                raise UnknownRulesError(spec.bad_value(value))
        if self.wraparound and self.ace != "high_or_low":
            raise UnknownRulesError("wraparound = true needs ace = 'high_or_low'")

    # -- predicates ------------------------------------------------------------------

    def knock_limit_for(self, upcard: Card | None = None) -> int:
        """The most deadwood a knock may show in a hand whose first upcard is ``upcard``.

        Without Oklahoma (or without a known upcard) this is ``knock_limit``. Under
        Oklahoma it is the upcard's value (A..9 pip, T/J/Q/K 10) capped by
        ``knock_limit``; an ace upcard means gin only (0) or a limit of 1.
        """
        if self.oklahoma == "off" or upcard is None:
            return self.knock_limit
        if rank_of(upcard) == 0:
            return 0 if self.oklahoma == "gin_only" else min(1, self.knock_limit)
        return min(card_points(upcard), self.knock_limit)

    def banned_discard(self, taken: Card | None) -> Card:
        """The card that may not be discarded now, face up or face down with a knock: the card
        ``taken`` from the discard pile this turn, under ``no_same_card_discard``; else -1
        (``taken`` None or -1: the turn drew from the stock). The one home of the same-card rule."""
        if taken is None or not self.no_same_card_discard:
            return -1
        return taken

    def is_spade_doubled(self, upcard: Card | None) -> bool:
        """True when spade doubling is on and the first upcard is a spade."""
        return self.spade_double and upcard is not None and suit_of(upcard) == _SPADES

    def multiplier(self, upcard: Card | None) -> int:
        """Factor for the hand score: 2 for a doubled spade hand, else 1."""
        return 2 if self.is_spade_doubled(upcard) else 1

    @property
    def recognises_big_gin(self) -> bool:
        return self.big_gin_bonus is not None

    @property
    def single_hand(self) -> bool:
        """True when a hand is the whole match (``game_target == 0``)."""
        return self.game_target == 0

    def __repr__(self) -> str:
        """``find_rules('hoyle')``, or ``with_overrides(find_rules('hoyle'), {'gin_bonus': 30})``:
        what gives this value back; field by field for rules built some other way."""
        preset = PRESETS.get(self.name)
        if preset is not None and not self.overrides and self == preset:
            return f"find_rules({self.name!r})"
        if preset is not None and self.overrides:
            changes = {knob: getattr(self, knob) for knob, _ in self.overrides}
            if with_overrides(preset, changes) == self:
                return f"with_overrides(find_rules({self.name!r}), {changes!r})"
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__struct_fields__)
        return f"Rules({fields})"

    @property
    def label(self) -> str:
        """The name and the knobs changed: ``"standard"``, or
        ``"standard + gin_bonus=25, tie_policy=no_score"``."""
        return rules_label(self.name, self.overrides)

    def knob_text(self, knob: str) -> str:
        """The knob's value as ``--set`` and a rules file spell it: ``"2"``, ``"true"``,
        ``"off"`` (no value), ``"no_score"``. The one spelling of a knob's value as text."""
        return _text_value(getattr(self, knob))

    def setting(self, knob: str) -> str:
        """The knob with its value as a rules file spells it (``"layoff_chain_limit=2"``,
        ``"no_same_card_discard=true"``, ``"big_gin_bonus=off"``)."""
        return f"{knob}={self.knob_text(knob)}"

    def as_preset(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """Which preset and which knobs changed from it (as :meth:`knob_text` spells them) give
        these rules: what a record names to be ruled by them. Rules named after no preset are
        standard's with their changes.

        >>> with_overrides(find_rules("hoyle"), {"gin_bonus": 30}).as_preset()
        ('hoyle', (('gin_bonus', '30'),))
        """
        preset = PRESETS.get(self.name, STANDARD)
        changed = tuple((knob, self.knob_text(knob)) for knob in KNOB_NAMES
                        if getattr(self, knob) != getattr(preset, knob))
        return preset.name, changed

    def to_dict(self) -> dict[str, object]:
        """The rules as JSON-ready data: name, label, aliases, description, every knob, then overrides.

        Values use the TOML spelling (``None`` is ``"off"``), so any knob value can be
        fed back to :func:`with_overrides` or written to a rules file.
        """
        out: dict[str, object] = {
            "name": self.name,
            "label": self.label,
            "aliases": list(self.aliases),
            "description": self.description,
        }
        for knob in KNOB_NAMES:
            out[knob] = _json_value(getattr(self, knob))
        out["overrides"] = {knob: _json_value(getattr(self, knob)) for knob, _ in self.overrides}
        return out


KNOB_MEANINGS: Mapping[str, str] = {
    "knock_limit": "most deadwood a knock may show (0: gin only)",
    "oklahoma": "the first upcard sets the knock limit (ace: gin_only or one)",
    "spade_double": "a spade first upcard doubles the hand's score",
    "spade_double_boxes": "a doubled hand's boxes count twice too",
    "gin_bonus": "points for gin, on top of the opponent's deadwood",
    "big_gin_bonus": "points for big gin, all 11 cards melded (off: not a rule)",
    "undercut_bonus": "points for the defender who undercuts the knocker",
    "tie_policy": "equal deadwood: an undercut, no score, or the knocker wins 0",
    "layoff_on_knock": "the defender may lay off onto a knock (off: RLCard)",
    "layoff_on_gin": "the defender may lay off onto gin",
    "layoff_on_big_gin": "the defender may lay off onto big gin",
    "layoff_chaining": "laid-off cards may extend each other (7H then 8H)",
    "layoff_chain_limit": "most cards laid off beyond one end of a run (off: no cap)",
    "defender_layoff_mode": "joint: melds and layoffs chosen together; meld_first",
    "knocker_must_meld_max": "the knocker may not hold back a meld",
    "no_same_card_discard": "the card just taken from the pile may not be thrown",
    "first_turn": "the upcard ritual, a normal turn, or an 11-card deal",
    "stock_floor": "stock cards that are never drawn",
    "stock_end": "at the floor: void; the last discard only to knock; or take it or end the hand",
    "max_discard_draws": "a draw (0-0) at this many discard-pile draws (off: none)",
    "repeat_discard_draw": "a draw when both players take and throw back the top discard",
    "void_hand_dealer": "after a void hand: the same dealer, or the deal passes",
    "next_dealer": "after a scored hand: the winner, the loser, or alternate deals",
    "ace": "aces low only, or high or low",
    "wraparound": "runs may turn the corner (K-A-2)",
    "unmatched_ace_value": "points of an ace in deadwood",
    "game_target": "hand points that end the game (0: one hand)",
    "game_bonus": "points to the winner of the game",
    "box_bonus": "points per hand won (a box), added at the end",
    "box_timing": "boxes added at the end, or as each hand is won",
    "shutout": "the loser won no hand: game bonus doubled, total doubled, or none",
    "extra_boxes_undercut": "boxes more for an undercut (Oklahoma)",
    "extra_boxes_gin": "boxes more for gin (Oklahoma)",
    "hollywood_columns": "3: score three Hollywood games at once",
    "illegal_knock": "a knock over the limit: exposed, accept/refuse, forfeit, reject",
}
"""What each knob decides, in one line (``ginref rules NAME`` shows them; the class doc says why)."""


# -- knob specifications, derived from the annotations ----------------------------------

_NOT_KNOBS = ("name", "aliases", "description", "overrides")
_MINIMUM: dict[str, int] = {"max_discard_draws": 1, "layoff_chain_limit": 1}
_INT_CHOICES: dict[str, tuple[int, ...]] = {"hollywood_columns": (0, 3)}
_MAX_POWER = 15
MAX_NUMBER = 10**_MAX_POWER
"""Knob values, points and counts at or above this are refused: no game comes near it,
and it keeps text Python cannot turn into an int (over 4,300 digits) away from ``int()``."""
_NUMBER = r"[+-]?[0-9]{1,16}"


def _shown(value: object) -> str:
    """``value`` quoted short: rule messages also carry a file name and the choices."""
    return excerpt(value, 40)


def parse_number(text: str) -> int | None:
    """The whole number ``text`` spells (a sign, then ASCII digits) if below ``MAX_NUMBER``
    in size, else None; never ``int()`` of text too long for Python."""
    if not re.fullmatch(_NUMBER, text):
        return None
    number = int(text)
    return number if -MAX_NUMBER < number < MAX_NUMBER else None


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class _Knob(msgspec.Struct, frozen=True):
    name: str
    kind: Literal["bool", "int", "optional_int", "choice"]
    choices: tuple[str, ...] = ()
    minimum: int = 0
    int_choices: tuple[int, ...] = ()

    def bad_value(self, raw: object) -> str:
        message = f"bad value {_shown(raw)} for {self.name}; "
        if self.kind == "bool":
            return message + "choose from: false, true"
        if self.kind == "choice":
            return message + "choose from: " + ", ".join(sorted(self.choices))
        if self.int_choices:
            return message + "choose from: " + ", ".join(map(str, self.int_choices))
        below = f" and below 10**{_MAX_POWER}" if _too_big(raw) else ""
        if self.kind == "optional_int":
            return message + f"expected 'off' or a whole number >= {self.minimum}{below}"
        return message + f"expected a whole number >= {self.minimum}{below}"

    def coerce(self, raw: object) -> bool | int | str | None:
        """The typed value of ``raw`` (a typed value, or text as given on the command line)."""
        text = raw.strip().lower() if isinstance(raw, str) else None
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if text in _TRUE or text in _FALSE:
                return text in _TRUE
        elif self.kind == "choice":
            if text is not None and text.replace("-", "_") in self.choices:
                return text.replace("-", "_")
        else:
            if self.kind == "optional_int" and (raw is None or text in (_OFF, "none")):
                return None
            number: int | None = None
            if isinstance(raw, int) and not isinstance(raw, bool) and -MAX_NUMBER < raw < MAX_NUMBER:
                number = raw
            elif text is not None:
                number = parse_number(text)
            if (
                number is not None
                and number >= self.minimum
                and (not self.int_choices or number in self.int_choices)
            ):
                return number
        raise UnknownRulesError(self.bad_value(raw))


def _too_big(raw: object) -> bool:
    if isinstance(raw, str):
        digits = raw.strip().lstrip("+-")
        return digits.isascii() and digits.isdigit() and (len(digits) > 16 or int(digits) >= MAX_NUMBER)
    return isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) >= MAX_NUMBER


def _knob_spec(name: str, annotation: object) -> _Knob:
    """A knob's kind from its annotation as written: ``bool``, ``int``, ``int | None`` or a
    ``Literal`` alias of this module. Read as text: ``get_type_hints`` compiled each of them,
    a tenth of a one-hand command's own start-up."""
    if annotation == "bool":
        return _Knob(name, "bool")
    if annotation == "int":
        return _Knob(name, "int", minimum=_MINIMUM.get(name, 0),
                     int_choices=_INT_CHOICES.get(name, ()))
    if annotation == "int | None":
        return _Knob(name, "optional_int", minimum=_MINIMUM.get(name, 0))
    alias = globals().get(annotation) if isinstance(annotation, str) else None
    if get_origin(alias) is Literal:
        return _Knob(name, "choice", choices=tuple(str(a) for a in get_args(alias)))
    raise TypeError(f"rule knob {name!r} has an unsupported type {annotation!r}")  # pragma: no cover


_KNOBS: dict[str, _Knob] = {
    name: _knob_spec(name, Rules.__annotations__[name])
    for name in Rules.__struct_fields__
    if name not in _NOT_KNOBS
}
KNOB_NAMES: tuple[str, ...] = tuple(_KNOBS)
"""Every knob, in schema order (the order of the fields)."""


def knob_choices(name: str) -> tuple[str, ...]:
    """The values knob ``name`` takes, as text, when they can be listed; ``()`` for a number.

    Raises :class:`UnknownRulesError` for a name that is not a knob.
    """
    knob = _knob(name)
    if knob.kind == "bool":
        return ("false", "true")
    if knob.kind == "choice":
        return tuple(sorted(knob.choices))
    return tuple(map(str, knob.int_choices))


def _json_value(value: object) -> object:
    return _OFF if value is None else value


def _text_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(_json_value(value))


# -- presets -----------------------------------------------------------------------------

STANDARD = Rules(
    name="standard",
    description="The classic published rules: knock <= 10, gin 20, undercut 10, "
    "box 20, game to 100 with 100 bonus, shutout 200",
)

_PRESET_LIST: tuple[Rules, ...] = (
    STANDARD,
    msgspec.structs.replace(
        STANDARD,
        name="hoyle",
        aliases=("tallynight",),
        description="North-American (Hoyle/Tallynight) scoring: gin 25, undercut 25, "
        "box 25, big gin 31",
        gin_bonus=25,
        undercut_bonus=25,
        box_bonus=25,
        big_gin_bonus=31,
        illegal_knock="accept_or_refuse",
    ),
    msgspec.structs.replace(
        STANDARD,
        name="cardhearth",
        description="The CardHearth card site's rules: no upcard ritual, gin 25, undercut 25, "
        "no big gin, first to 100 with no game-end bonuses",
        gin_bonus=25,
        undercut_bonus=25,
        first_turn="none",
        game_bonus=0,
        box_bonus=0,
        shutout="none",
    ),
    msgspec.structs.replace(
        STANDARD,
        name="oklahoma",
        description="standard plus Oklahoma: the first upcard sets the knock limit "
        "(ace = gin only), a spade upcard doubles the hand, game to 150",
        oklahoma="gin_only",
        spade_double=True,
        spade_double_boxes=False,
        game_target=150,
    ),
    msgspec.structs.replace(
        STANDARD,
        name="hollywood",
        description="standard play scored as three simultaneous games (Hollywood)",
        hollywood_columns=3,
    ),
    msgspec.structs.replace(
        STANDARD,
        name="straight",
        description="straight gin: no knocking, only gin ends a hand; gin 25",
        knock_limit=0,
        gin_bonus=25,
    ),
    msgspec.structs.replace(
        STANDARD,
        name="openspiel",
        aliases=("tournament",),
        description="OpenSpiel gin_rummy (GRA tournament rules as encoded there): "
        "one hand, gin 25, undercut 25, tie scores nothing, wall phase, 50 discard draws, "
        "two layoffs per run end",
        gin_bonus=25,
        undercut_bonus=25,
        tie_policy="no_score",
        no_same_card_discard=False,
        layoff_chain_limit=2,
        stock_end="last_discard_knock_only",
        max_discard_draws=50,
        repeat_discard_draw=True,
        game_target=0,
        game_bonus=0,
        box_bonus=0,
        shutout="none",
        illegal_knock="reject",
    ),
    msgspec.structs.replace(
        STANDARD,
        name="eaai",
        description="EAAI gin rummy framework (Neller): gin 25, undercut 25, first to 100, "
        "no game or box bonuses, alternating starter, illegal knock forfeits",
        gin_bonus=25,
        undercut_bonus=25,
        next_dealer="alternate",
        game_bonus=0,
        box_bonus=0,
        shutout="none",
        illegal_knock="forfeit",
    ),
    msgspec.structs.replace(
        STANDARD,
        name="rlcard",
        description="RLCard gin-rummy: one hand; the non-dealer is dealt 11 and discards first, no "
        "upcard, no layoffs, at the wall take the last discard or declare the hand dead; gin 25, "
        "undercut 25",
        layoff_on_knock=False,
        gin_bonus=25,
        undercut_bonus=25,
        no_same_card_discard=False,
        first_turn="eleven_card",
        stock_end="take_or_dead",
        game_target=0,
        game_bonus=0,
        box_bonus=0,
        shutout="none",
        illegal_knock="reject",
    ),
    msgspec.structs.replace(
        STANDARD,
        name="round_the_corner",
        description="round-the-corner gin: ace high or low, K-A-2 runs, unmatched ace 15, "
        "layoffs onto gin, gin 20, undercut 20, game to 125",
        ace="high_or_low",
        wraparound=True,
        unmatched_ace_value=15,
        layoff_on_gin=True,
        gin_bonus=20,
        undercut_bonus=20,
        box_bonus=20,
        game_target=125,
    ),
)

PRESETS: dict[str, Rules] = {rules.name: rules for rules in _PRESET_LIST}
"""Presets by canonical name (aliases are in :data:`ALIASES`)."""
PRESET_NAMES: tuple[str, ...] = tuple(sorted(PRESETS))
ALIASES: dict[str, str] = {alias: r.name for r in _PRESET_LIST for alias in r.aliases}
"""Alias -> canonical preset name."""


def _normalise(text: str) -> str:
    return text.strip().lower().replace("-", "_")


def find_rules(name: str) -> Rules:
    """The preset called ``name`` or one of its aliases, case-insensitively.

    >>> find_rules("HOYLE").big_gin_bonus
    31

    ``name`` is a preset's name or alias. Returns the :class:`Rules`. Raises
    :class:`UnknownRulesError` for any other name, naming the closest one and pointing to
    ``ginref rules``, which lists every name and alias.
    """
    if not isinstance(name, str):
        raise UnknownRulesError(f"a rule set name is text, not {_shown(name)}")
    key = _normalise(name)
    key = ALIASES.get(key, key)
    if key in PRESETS:
        return PRESETS[key]
    shown = excerpt(name.strip().lower(), 16)
    if len(key) > 40:
        raise UnknownRulesError(f"unknown rules {shown}: no rule set has a name that long; {_SEE_RULES}")
    raise UnknownRulesError(f"unknown rules {shown}; {_rules_choices(key)}")


RULE_NAMES: tuple[str, ...] = tuple(sorted({*PRESET_NAMES, *ALIASES}))
"""Every name :func:`find_rules` takes: the presets and their aliases."""


_SEE_RULES = "`ginref rules` lists every rule set and its aliases"
"""Where every unknown-rules message sends the reader: the one place that shows the aliases too."""


def _rules_choices(key: str) -> str:
    """The one wording of what a rule set may be called: the closest name or alias to ``key``
    when one is close, and always where every name is listed. The presets are not listed in the
    message: without their aliases the list misleads, and with them it is too long for one line
    (a rules file's path and line come before it)."""
    import difflib  # only a misspelt name needs it

    close = difflib.get_close_matches(key, RULE_NAMES, n=1)
    if close:
        return f"did you mean {close[0]!r}? ({_SEE_RULES})"
    return _SEE_RULES


def parse_override(text: str) -> tuple[str, str]:
    """Split ``--set`` text: ``"gin_bonus=25"`` -> ``("gin_bonus", "25")``."""
    if not isinstance(text, str):
        raise UnknownRulesError(f"a rule override is text, not {_shown(text)}")
    knob, sep, value = text.partition("=")
    if not sep or not knob.strip():
        raise UnknownRulesError(f"bad rule override {_shown(text)}; expected knob=value")
    return knob.strip(), value.strip()


_LONGEST_KNOB = max(map(len, KNOB_NAMES))


def _knob(name: str) -> _Knob:
    if not isinstance(name, str):
        raise UnknownRulesError(f"a rule knob name is text, not {_shown(name)}")
    key = _normalise(name)
    if key in _KNOBS:
        return _KNOBS[key]
    if key in _NOT_KNOBS:
        raise UnknownRulesError(f"rule field {name!r} cannot be overridden")
    message = f"unknown rule knob {_shown(name)}"
    import difflib

    close = difflib.get_close_matches(key, KNOB_NAMES, n=1) if len(key) <= 2 * _LONGEST_KNOB else []
    if close:
        message += f"; did you mean {close[0]!r}?"
    raise UnknownRulesError(message)


def with_overrides(rules: Rules, overrides: Mapping[str, object]) -> Rules:
    """``rules`` with some knobs changed; values may be typed or text (``"25"``, ``"off"``).

    Every value is checked; a bad knob or value raises :class:`UnknownRulesError`.
    Returns the new :class:`Rules`, which keeps ``rules.name`` and records in
    ``overrides`` every knob that now differs from that preset.

    >>> with_overrides(find_rules("standard"), {"tie_policy": "no_score", "gin_bonus": 25}).label
    'standard + gin_bonus=25, tie_policy=no_score'
    """
    if not isinstance(overrides, Mapping):
        raise UnknownRulesError(f"rule overrides are a mapping of knob to value, not {_shown(overrides)}")
    changes: dict[str, object] = {}
    for name, raw in overrides.items():
        spec = _knob(name)
        changes[spec.name] = spec.coerce(raw)
    if not changes:
        return rules
    result = msgspec.structs.replace(rules, **changes)
    preset = PRESETS.get(rules.name)
    recorded = dict(rules.overrides)
    for knob, value in changes.items():
        if preset is not None and value == getattr(preset, knob):
            recorded.pop(knob, None)
        elif preset is not None or value != getattr(rules, knob):
            recorded[knob] = _text_value(value)
    return msgspec.structs.replace(result, overrides=tuple(sorted(recorded.items())))


class RecordRules(msgspec.Struct, frozen=True):
    """The rules a record names, as ginref can apply them, and why they differ from what the
    record asked for (an unknown rule set, a knob it could not change)."""

    rules: Rules
    problems: tuple[str, ...] = ()
    asked: str = ""
    """the rules as the record names them (:func:`rules_label` of its name and overrides)"""

    @property
    def label(self) -> str:
        """The rules' label, or, when ginref could not apply them as asked, what the record asked."""
        return self.asked if self.problems else self.rules.label

    def required(self, error: Callable[[str], GinrefError] | None = None) -> Rules:
        """The rules, or, when ginref could not apply them as the record asks, ``error`` of the
        first problem raised (by default :class:`~ginref.errors.RulingError`: "the record's
        rules cannot be used: ..."): for what the record's own rules alone make right, such
        as a table set from it, advice at one of its turns, or the record written for OpenSpiel."""
        if not self.problems:
            return self.rules
        if error is None:
            raise RulingError(f"the record's rules cannot be used: {self.problems[0]}")
        raise error(self.problems[0])


@functools.lru_cache(maxsize=256)
def _record_rules(name: object, overrides: tuple[tuple[object, object], ...]) -> RecordRules:
    problems: list[str] = []
    try:
        if not isinstance(name, str):
            raise UnknownRulesError(f"rule set names are text, got {name!r}")
        rules = find_rules(name)
    except GinrefError:
        problems.append(f"the record asks for rules {name!r}, which ginref does not know; "
                        "standard rules used")
        rules = STANDARD
    for knob, value in overrides:
        try:
            rules = with_overrides(rules, {str(knob): value})
        except GinrefError as exc:
            problems.append(f"rule override {knob}={value} ignored: {exc}")
    return RecordRules(rules, tuple(problems), rules_label(str(name), overrides))


def rules_label(name: str, overrides: Iterable[tuple[object, object]] = ()) -> str:
    """A rule set's name with the knobs changed: ``"standard"``,
    ``"standard + gin_bonus=25, tie_policy=no_score"`` (:attr:`Rules.label`, and a record's
    rules as it names them)."""
    changes = ", ".join(f"{knob}={value}" for knob, value in overrides)
    return f"{name} + {changes}" if changes else name


def record_rules(name: object, overrides: Iterable[tuple[object, object]] = ()) -> RecordRules:
    """The one policy for the rules a record names: the rule set ``name`` with ``overrides``
    (knob, value) applied one by one. An unknown set gives standard rules and a knob that
    cannot be set is left as it was, each with a problem saying so: the referee reports
    problems as findings, ``advise --at`` refuses the record. Never raises; remembered for
    the last 256 pairs, since a batch names few.
    """
    pairs = overrides if type(overrides) is tuple else tuple(overrides)
    try:
        return _record_rules(name, pairs)
    except TypeError:  # unhashable values (lists from JSON): as text
        return _record_rules(str(name), tuple((str(k), str(v)) for k, v in pairs))


def load_rules_file(path: str | os.PathLike[str]) -> Rules:
    """Read a TOML rules file: optional ``base = "hoyle"`` and ``knob = value`` pairs.

    The knobs may sit at the top level or in a ``[rules]`` table. A path that cannot
    be read raises :class:`~ginref.errors.InputFileError`; anything wrong inside the
    file raises :class:`UnknownRulesError` naming the file (and the line, where known).

    ``path`` is the file. Returns the :class:`Rules`.
    """
    from ginref.files import read_text_file  # here: only rules files are read

    where = os.fspath(path)
    text = read_text_file(path)
    table = _knob_table(where, text, _read_toml(where, text))
    base_name = table.pop("base", "standard")
    if not isinstance(base_name, str):
        raise UnknownRulesError(
            _located(where, text, "base", f"bad value {_shown(base_name)} for base; expected a name")
        )
    try:
        rules = find_rules(base_name)
    except UnknownRulesError as exc:
        raise UnknownRulesError(_located(where, text, "base", str(exc))) from None
    for key, value in table.items():
        try:
            rules = with_overrides(rules, {key: value})
        except UnknownRulesError as exc:
            raise UnknownRulesError(_located(where, text, key, str(exc))) from None
    return rules


def _read_toml(where: str, text: str) -> dict[str, object]:
    """The TOML document ``text``; what tomllib cannot take (numbers past Python's digit
    limit, nesting past the stack) is an :class:`UnknownRulesError` too."""
    if sys.version_info >= (3, 11):  # imported here: only rules files need it
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        data: dict[str, object] = tomllib.loads(text)
        if _nested_deeper(data, _MAX_DEPTH):  # the same answer whether or not the stack held
            raise RecursionError
    except tomllib.TOMLDecodeError as exc:
        raise UnknownRulesError(f"{where}:{_toml_error(exc, text)}") from None
    except RecursionError:
        line = _first_line(text, _DEEP)
        raise UnknownRulesError(f"{where}:{line}: values nested too deeply for a rules file") from None
    except ValueError:
        line = _first_line(text, _LONG_NUMBER)
        raise UnknownRulesError(
            f"{where}:{line}: a number too long to read (over 4,300 digits)"
        ) from None
    return data


_DEEP = r"(?:[\[{]\s*){32}"
_MAX_DEPTH = 32
"""Deepest nesting of values a rules file may hold (its knobs need two levels at most)."""


def _nested_deeper(value: object, limit: int) -> bool:
    """True when lists or tables nest more than ``limit`` deep (without recursion)."""
    level: list[object] = [value]
    for _ in range(limit + 1):
        level = [v for item in level if isinstance(item, (list, dict))
                 for v in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return False
    return True
_LONG_NUMBER = r"[0-9_]{4300}"


def _first_line(text: str, pattern: str) -> int:
    """The line of the first match of ``pattern`` (1 when there is none)."""
    match = re.search(pattern, text)
    return 1 if match is None else text.count("\n", 0, match.start()) + 1


def _key_shown(key: str) -> str:
    """A key as written in a table header, cut so that the message stays one short line."""
    return key if len(key) <= 40 else key[:40] + f"... ({len(key)} characters)"


def _knob_table(where: str, text: str, data: dict[str, object]) -> dict[str, object]:
    """Top-level knobs and those of a ``[rules]`` table, in one mapping."""
    table: dict[str, object] = {k: v for k, v in data.items() if k != "rules"}
    if "rules" in data:
        inner = data["rules"]
        if not isinstance(inner, dict):
            raise UnknownRulesError(_located(where, text, "rules", "'rules' must be a table"))
        for key, value in inner.items():
            if isinstance(value, dict):
                raise UnknownRulesError(_located(
                    where, text, key,
                    f"nested table [rules.{_key_shown(key)}] is not supported; "
                    "put the knobs in [rules] or at the top level",
                ))
            if key in table:
                raise UnknownRulesError(_located(where, text, key, f"{excerpt(key, 40)} is given twice"))
            table[key] = value
    return table


def _toml_error(exc: ValueError, text: str) -> str:
    """``"3:7: message"`` from a TOMLDecodeError (its position is in the text before 3.14)."""
    message = str(exc)
    where = " "
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if match:
        where = f"{match[1]}:{match[2]}: "
        message = message[: match.start()]
    elif message.endswith("(at end of document)"):
        where = f"{max(1, len(text.splitlines()))}: "
        message = message.removesuffix("(at end of document)") + "(at end of file)"
    message = re.sub(_LONG_WORD, lambda word: word[0][:40] + "...", message)  # tomllib quotes keys whole
    return where + message[:1].lower() + message[1:]


_LONG_WORD = r"\S{41,}"


def _located(where: str, text: str, key: str, message: str) -> str:
    """Prefix ``message`` with ``file:line`` of the first line that sets ``key``."""
    for lineno, line in enumerate(text.splitlines(), 1):
        if _sets_key(line, key):
            return f"{where}:{lineno}: {message}"
    return f"{where}: {message}"


def _sets_key(line: str, key: str) -> bool:
    """Whether ``line`` is ``key = ...`` or the table ``[key]`` / ``[rules.key]`` (the key bare
    or quoted); string tests only, so a key of any length costs one pass over the line."""
    rest = line.lstrip()
    closing = "="
    if rest.startswith("["):
        rest, closing = rest[1:].lstrip(), "]"
        if _named(rest, key, closing):
            return True
        if not rest.startswith("rules"):
            return False
        rest = rest[5:].lstrip()
        if not rest.startswith("."):
            return False
        rest = rest[1:].lstrip()
    return _named(rest, key, closing)


def _named(text: str, key: str, closing: str) -> bool:
    return any(text.startswith(name) and text[len(name):].lstrip().startswith(closing)
               for name in (key, f'"{key}"', f"'{key}'"))
