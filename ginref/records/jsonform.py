"""The JSON form of records (``.json``, ``.jsonl``), read: one decoder with two paths.

Snake_case keys, cards as "TC", melds as lists of cards, layoffs as {"card", "onto"} with a
0-based meld index. A record's text, a JSON Lines line or a whole ``.json`` document alike,
is first decoded by msgspec into typed wire Structs (the fast path, at the end of this
module): what they take is a good record. Whatever they refuse is read again by
``json.loads`` and checked step by step (the checked path, :func:`from_json_dict`), which
names the bad element by its JSON pointer, so every error message is the checked path's.
:func:`decode_json_text` and :func:`decode_json_document` turn the pointer into a line and
column of the text (:mod:`ginref.records.jsonplace`). ``ginref/record.schema.json``
describes the same form for other tools; :mod:`ginref.records.jsonencode` writes it.

Whatever the text, decoding returns a record or a :class:`~ginref.errors.RecordError`:
nesting of any depth, numbers of any length, values of the wrong type and lone surrogate
escapes are all reported, never raised as another exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING, Annotated, Any, Literal, NewType, NoReturn

import msgspec

from ginref.cards import Card, Mask, card_name, mask_of
from ginref.errors import RecordError
from ginref.files import lone_surrogate, surrogate_problem
from ginref.notation import CARD_TOKENS, excerpt
from ginref.records.form import Format, Unit
from ginref.records.jsonplace import (
    item_starts,
    line_and_column,
    nested_error,
    pointer_key,
    pointer_offset,
    shown_pointer,
    too_deep,
)
from ginref.records.model import (
    ENDINGS,
    KNOB_RE,
    KNOWN_TAGS,
    MAX_NUMBER,
    NOWHERE,
    OUTCOMES,
    SOURCES,
    TAG_NAME_RE,
    UNFINISHED_REASONS,
    ClaimedOutcome,
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Place,
    Turn,
)

__all__ = [
    "JSONL_FORMAT",
    "JSON_FORMAT",
    "JsonRecordError",
    "decode_json_document",
    "decode_json_text",
    "from_json_dict",
    "load_json",
]


_RECORD_KEYS = frozenset({"rules", "overrides", "players", "tags", "hands", "final_totals"})
_HAND_KEYS = frozenset({
    "number", "dealer", "deal", "upcard", "stock", "events", "result", "score_after", "next_dealer",
})
_TURN_KEYS = frozenset({"type", "player", "source", "card", "discard", "knock", "least_deadwood"})
_PASS_KEYS = frozenset({"type", "player"})
_KNOCK_KEYS = frozenset({"ending", "discard", "melds", "deadwood"})
_DEFENCE_KEYS = frozenset({"type", "player", "melds", "layoffs", "deadwood"})
_LAYOFF_KEYS = frozenset({"card", "onto"})
_RESULT_KEYS = frozenset({"outcome", "winner", "points", "reason", "stopped_by"})

_MAX_ONTO = MAX_NUMBER - 1
"""the text form numbers melds from 1, so a 0-based index must stay one below the bound"""


class JsonRecordError(RecordError):
    """A JSON record that does not fit the form; ``pointer`` names the bad element."""

    def __init__(
        self, message: str, source: str = "", line: int = 0, column: int = 0, pointer: str = ""
    ) -> None:
        super().__init__(message, source, line, column)
        self.pointer = pointer


# -- places: every element of a record carries its JSON pointer ----------------------------------
#
# The common places are made once and shared by every record: /hands/H and /hands/H/result,
# /hands/H/events/E and /hands/H/events/E/knock, for the first _SHARED_HANDS hands and
# _SHARED_EVENTS events of each. Larger records get places of their own, so the shared
# table stays bounded whatever the input.

_SHARED_HANDS = 32
_SHARED_EVENTS = 256


def _new_hand_places(h: int) -> tuple[Place, Place]:
    return Place(pointer=f"/hands/{h}"), Place(pointer=f"/hands/{h}/result")


def _new_event_places(h: int, start: int, stop: int) -> list[tuple[Place, Place]]:
    out = []
    for e in range(start, stop):
        ev = f"/hands/{h}/events/{e}"
        out.append((Place(pointer=ev), Place(pointer=f"{ev}/knock")))
    return out


_HAND_PLACES: list[tuple[Place, Place]] = []
_EVENT_PLACES: list[list[tuple[Place, Place]]] = []


def _hand_places(h: int) -> tuple[Place, Place]:
    if h >= _SHARED_HANDS:
        return _new_hand_places(h)
    while len(_HAND_PLACES) <= h:  # made as first needed, so importing costs nothing
        _HAND_PLACES.append(_new_hand_places(len(_HAND_PLACES)))
        _EVENT_PLACES.append([])
    return _HAND_PLACES[h]


def _event_places(h: int, count: int) -> list[tuple[Place, Place]]:
    """Places for events 0..count-1 of hand ``h`` (the list may hold more)."""
    if h >= _SHARED_HANDS:
        return _new_event_places(h, 0, count)
    _hand_places(h)
    places = _EVENT_PLACES[h]
    shared = min(count, _SHARED_EVENTS)
    if len(places) < shared:
        places.extend(_new_event_places(h, len(places), shared))
    return places if count <= _SHARED_EVENTS else places + _new_event_places(h, _SHARED_EVENTS, count)


def _record_place(line: int) -> Place:
    return Place(line=line) if line else NOWHERE


# -- the checked path: a value as json.loads gives it, checked step by step -----------------------


class _Invalid(Exception):
    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.message = message


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def _shown(value: object) -> str:
    """A JSON value as a message quotes it: a list or an object by its kind, else cut short."""
    return _kind(value) if type(value) in (list, dict) else excerpt(value, 60)


def _unknown_key(data: dict[Any, object], allowed: frozenset[str], pointer: str) -> NoReturn:
    key = next(k for k in data if k not in allowed)
    at = f"{pointer}/{pointer_key(key)}" if type(key) is str else pointer
    raise _Invalid(at, f"unknown key {_shown(key)}")


def _text_key(key: object, pointer: str) -> str:
    """A name in a mapping (deal, totals, overrides, tags) must be text: json.loads never
    gives anything else, a caller's dict might."""
    if type(key) is not str:
        raise _Invalid(pointer, f"expected names as text, got {_kind(key)}")
    return key


def _want(value: object, what: str, pointer: str) -> NoReturn:
    raise _Invalid(pointer, f"expected {what}, got {_kind(value)}")


def _json_card(value: object, pointer: str) -> Card:
    c = CARD_TOKENS.get(value) if type(value) is str else None
    if c is None:
        if type(value) is str:
            raise _Invalid(pointer, f"unknown card {_shown(value)}")
        _want(value, 'a card such as "TC"', pointer)
    return c


def _json_cards(value: object, pointer: str) -> tuple[Card, ...]:
    if type(value) is not list:
        _want(value, "a list of cards", pointer)
    return tuple([_json_card(v, f"{pointer}/{i}") for i, v in enumerate(value)])


def _json_meld(value: object, pointer: str) -> Mask:
    cards = _json_cards(value, pointer)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        seen: set[Card] = set()
        for i, c in enumerate(cards):
            if c in seen:
                raise _Invalid(f"{pointer}/{i}", f"duplicate card {card_name(c)!r} in a meld")
            seen.add(c)
    return mask


def _json_melds(value: object, pointer: str) -> tuple[Mask, ...]:
    if type(value) is not list:
        _want(value, "a list of melds", pointer)
    return tuple(_json_meld(m, f"{pointer}/{i}") for i, m in enumerate(value))


def _json_count(value: object, pointer: str, bound: int = MAX_NUMBER) -> int:
    if type(value) is not int or not 0 <= value < bound:
        _want(value, "a whole number >= 0", pointer)
    return value


def _json_number(value: object, pointer: str) -> int:
    if type(value) is not int or not -MAX_NUMBER < value < MAX_NUMBER:
        _want(value, "a whole number", pointer)
    return value


def _json_name(value: object, pointer: str) -> str:
    if type(value) is not str:
        _want(value, "a player name", pointer)
    return value


def _json_totals(value: object, pointer: str) -> tuple[tuple[str, int], ...]:
    if type(value) is not dict:
        _want(value, 'an object of totals such as {"Ann": 21, "Bo": 0}', pointer)
    for name, points in value.items():
        _text_key(name, pointer)
        _json_number(points, f"{pointer}/{pointer_key(name)}")
    return tuple(value.items())


def _json_choice(
    value: dict[str, Any], key: str, allowed: Collection[str], pointer: str, expected: str
) -> Any:
    """``value[key]``, which must be one of ``allowed``; else the missing or bad key, named."""
    choice = value.get(key)
    if type(choice) is not str or choice not in allowed:
        if key not in value:
            raise _Invalid(pointer, f"missing key {key!r}")
        raise _Invalid(f"{pointer}/{key}", f"expected {expected}, got {_shown(choice)}")
    return choice


def _json_deadwood(value: dict[str, Any], pointer: str) -> int | None:
    """The announced deadwood of a knock or defence, if any (null is none)."""
    deadwood = value.get("deadwood")
    return None if deadwood is None else _json_count(deadwood, f"{pointer}/deadwood")


def _json_events(value: object, h: int) -> tuple[Event, ...]:
    pointer = f"/hands/{h}/events"
    if type(value) is not list:
        _want(value, "a list of events", pointer)
    places = _event_places(h, len(value))
    return tuple([_json_event(ev, f"{pointer}/{e}", places[e]) for e, ev in enumerate(value)])


def _json_event(ev: object, pointer: str, places: tuple[Place, Place]) -> Event:
    if type(ev) is not dict:
        _want(ev, "an event object", pointer)
    kind = ev.get("type")
    player = ev.get("player")
    if type(player) is not str:
        _want(player, "the player's name", f"{pointer}/player")
    if kind == "turn":
        return _json_turn(ev, player, pointer, places)
    if kind == "pass":
        if len(ev) != 2:
            _unknown_key(ev, _PASS_KEYS, pointer)
        return Pass(player, places[0])
    if kind == "defence":
        return _json_defence(ev, player, pointer, places[0])
    if "type" not in ev:
        raise _Invalid(pointer, "missing key 'type'")
    raise _Invalid(f"{pointer}/type", f"expected 'turn', 'pass' or 'defence', got {_shown(kind)}")


def _json_turn(ev: dict[str, Any], player: str, pointer: str, places: tuple[Place, Place]) -> Turn:
    card, discard, knock = (ev.get(key) for key in ("card", "discard", "knock"))
    if card is not None:
        card = _json_card(card, f"{pointer}/card")
    if discard is not None:
        discard = _json_card(discard, f"{pointer}/discard")
    if not _TURN_KEYS.issuperset(ev):  # explicit nulls are fine, other keys are not
        _unknown_key(ev, _TURN_KEYS, pointer)
    source = _json_choice(ev, "source", SOURCES, pointer, "'stock', 'discard' or 'none'")
    if source == "none":
        if card is not None:
            raise _Invalid(f"{pointer}/card", "a turn with no draw (source 'none') draws no card")
        if discard is None and knock is None:
            raise _Invalid(pointer, "a turn needs a draw, a discard or a knock")
    if knock is not None:
        knock = _json_knock(knock, f"{pointer}/knock", places[1])
    least = ev.get("least_deadwood")
    if least is not None:
        least = _json_count(least, f"{pointer}/least_deadwood")
    return Turn(player, source, card, discard, knock, places[0], least)


def _json_knock(value: object, pointer: str, place: Place) -> Knock:
    if type(value) is not dict:
        _want(value, "a knock object", pointer)
    ending = _json_choice(value, "ending", ENDINGS, pointer, "'knock', 'gin' or 'big_gin'")
    if "melds" not in value:
        raise _Invalid(pointer, "missing key 'melds'")
    melds = _json_melds(value["melds"], f"{pointer}/melds")
    discard = value.get("discard")
    if discard is not None:
        discard = _json_card(discard, f"{pointer}/discard")
    deadwood = _json_deadwood(value, pointer)
    if not _KNOCK_KEYS.issuperset(value):
        _unknown_key(value, _KNOCK_KEYS, pointer)
    return Knock(ending, discard, melds, deadwood, place)


def _json_defence(ev: dict[str, object], player: str, pointer: str, place: Place) -> Defence:
    melds = _json_melds(ev["melds"], f"{pointer}/melds") if "melds" in ev else ()
    layoffs = _json_layoffs(ev["layoffs"], f"{pointer}/layoffs") if "layoffs" in ev else ()
    deadwood = _json_deadwood(ev, pointer)
    if not _DEFENCE_KEYS.issuperset(ev):
        _unknown_key(ev, _DEFENCE_KEYS, pointer)
    return Defence(player, melds, layoffs, deadwood, place)


def _json_layoffs(items: object, pointer: str) -> tuple[tuple[Card, int], ...]:
    if type(items) is not list:
        _want(items, "a list of layoffs", pointer)
    layoffs = []
    for i, item in enumerate(items):
        at = f"{pointer}/{i}"
        if type(item) is not dict:
            _want(item, 'a layoff such as {"card": "7H", "onto": 0}', at)
        if "card" not in item or "onto" not in item:
            raise _Invalid(at, f"missing key {'card' if 'card' not in item else 'onto'!r}")
        if len(item) != 2:
            _unknown_key(item, _LAYOFF_KEYS, at)
        layoffs.append((_json_card(item["card"], f"{at}/card"),
                        _json_count(item["onto"], f"{at}/onto", _MAX_ONTO)))
    return tuple(layoffs)


def _json_hand(data: object, h: int) -> HandRecord:
    pointer = f"/hands/{h}"
    if type(data) is not dict:
        _want(data, "a hand object", pointer)
    dealer, deal, events = _hand_basics(data, pointer)
    dealt = tuple(_dealt(name, cards, f"{pointer}/deal") for name, cards in deal.items())
    number, upcard, stock = data.get("number"), data.get("upcard"), data.get("stock")
    if number is not None:
        number = _json_count(number, f"{pointer}/number")
    if upcard is not None:
        upcard = _json_card(upcard, f"{pointer}/upcard")
    if stock is not None:
        stock = _json_cards(stock, f"{pointer}/stock")
    events = _json_events(events, h)
    hand_place, result_place = _hand_places(h)
    result, score_after, next_dealer = data.get("result"), data.get("score_after"), data.get("next_dealer")
    if result is not None:
        result = _json_result(result, f"{pointer}/result", result_place)
    if score_after is not None:
        score_after = _json_totals(score_after, f"{pointer}/score_after")
    if next_dealer is not None:
        next_dealer = _json_name(next_dealer, f"{pointer}/next_dealer")
    if not _HAND_KEYS.issuperset(data):
        _unknown_key(data, _HAND_KEYS, pointer)
    return HandRecord(
        dealer, dealt, upcard, events, stock, result, score_after, next_dealer, number, hand_place,
    )


def _hand_basics(data: dict[str, Any], pointer: str) -> tuple[str, dict[object, object], object]:
    """A hand's dealer, deal and events, which it must have (events of null are named before
    any bad card of the deal)."""
    for key in ("dealer", "deal", "events"):
        if key not in data:
            raise _Invalid(pointer, f"missing key {key!r}")
    dealer, deal, events = data["dealer"], data["deal"], data["events"]
    if type(dealer) is not str:
        _want(dealer, "a player name", f"{pointer}/dealer")
    if type(deal) is not dict:
        _want(deal, 'an object of dealt cards such as {"Ann": [...], "Bo": [...]}', f"{pointer}/deal")
    if events is None:
        _want(events, "a list of events", f"{pointer}/events")
    return dealer, deal, events


def _dealt(name: object, cards: object, pointer: str) -> tuple[str, tuple[Card, ...]]:
    name = _text_key(name, pointer)
    return name, _json_cards(cards, f"{pointer}/{pointer_key(name)}")


_OUTCOME_CHOICES = f"one of {', '.join(sorted(OUTCOMES))}"


def _json_result(value: object, pointer: str, place: Place) -> ClaimedResult:
    if type(value) is not dict:
        _want(value, "a result object", pointer)
    outcome = _json_choice(value, "outcome", OUTCOMES, pointer, _OUTCOME_CHOICES)
    winner = value.get("winner")
    if winner is not None:
        winner = _json_name(winner, f"{pointer}/winner")
    points = _json_number(value["points"], f"{pointer}/points") if "points" in value else 0
    reason, stopped_by = _json_stop(value, outcome, pointer)
    if not _RESULT_KEYS.issuperset(value):
        _unknown_key(value, _RESULT_KEYS, pointer)
    return ClaimedResult(outcome, winner, points, place, reason, stopped_by)


def _json_stop(value: dict[str, Any], outcome: str, pointer: str) -> tuple[str | None, str | None]:
    """An unfinished hand's ``reason`` (required) and ``stopped_by``; no other outcome has them."""
    if outcome != "unfinished":
        for key in ("reason", "stopped_by"):
            if key in value:
                raise _Invalid(f"{pointer}/{key}", f"only an unfinished result has {key!r}")
        return None, None
    reason = _json_choice(value, "reason", UNFINISHED_REASONS, pointer,
                          f"one of {', '.join(UNFINISHED_REASONS)}")
    stopped_by = value.get("stopped_by")
    if stopped_by is not None:
        stopped_by = _json_name(stopped_by, f"{pointer}/stopped_by")
    return reason, stopped_by


def _json_record(data: object, source: str, index: int, line: int) -> GameRecord:
    if type(data) is not dict:
        _want(data, "a record object", "")
    for key in ("rules", "players", "hands"):
        if key not in data:
            raise _Invalid("", f"missing key {key!r}")
    rules = data["rules"]
    if type(rules) is not str or not rules.strip():
        _want(rules, "a rule set name", "/rules")
    players = data["players"]
    if type(players) is not list or len(players) != 2:
        _want(players, "a list of the two players' names", "/players")
    for i, name in enumerate(players):
        if type(name) is not str:
            _want(name, "a player name", f"/players/{i}")
    overrides = _json_overrides(data.get("overrides"))
    tags = _json_tags(data.get("tags"))
    hands = data["hands"]
    if type(hands) is not list or not hands:
        _want(hands, "a list of one or more hands", "/hands")
    final = data.get("final_totals")
    if final is not None:
        final = _json_totals(final, "/final_totals")
    if not _RECORD_KEYS.issuperset(data):
        _unknown_key(data, _RECORD_KEYS, "")
    return GameRecord(
        players=(players[0], players[1]),
        hands=tuple(_json_hand(hand, h) for h, hand in enumerate(hands)),
        rules=rules.strip(),
        overrides=overrides,
        tags=tags,
        final_totals=final,
        source=source,
        index=index,
        place=_record_place(line),
    )


def _json_overrides(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        _want(value, 'an object of rule knobs such as {"gin_bonus": 25}', "/overrides")
    out = []
    for knob, setting in value.items():
        _text_key(knob, "/overrides")
        at = f"/overrides/{pointer_key(knob)}"
        if not KNOB_RE.fullmatch(knob):
            raise _Invalid(at, f"bad rule knob name {_shown(knob)}")
        if isinstance(setting, bool):
            text = "true" if setting else "false"
        elif type(setting) is str:
            text = setting.strip()
        elif type(setting) is int:
            try:
                text = str(setting)
            except ValueError:  # past Python's limit on an int's digits (4,300)
                raise _Invalid(at, "a number with thousands of digits") from None
        else:
            _want(setting, "text, a whole number or true/false", at)
        out.append((knob, text))
    return tuple(out)


def _json_tags(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        _want(value, 'an object of free tags such as {"Event": "Club night"}', "/tags")
    for name, text in value.items():
        _text_key(name, "/tags")
        at = f"/tags/{pointer_key(name)}"
        if not TAG_NAME_RE.fullmatch(name):
            raise _Invalid(at, f"bad tag name {_shown(name)}: a letter, then letters, digits or '_'")
        if name.lower() in KNOWN_TAGS:
            raise _Invalid(at, f"{name!r} is not a free tag (the record has a key for it)")
        if type(text) is not str:
            _want(text, "text", at)
    return tuple(value.items())


def _checked(data: object, source: str, index: int, line: int) -> GameRecord:
    """The record in ``data`` by the checked path, or the error naming the bad element."""
    try:
        record = _json_record(data, source, index, line)
        _no_lone_surrogate(data, "")
        return record
    except _Invalid as exc:
        message = f"{shown_pointer(exc.pointer)}: {exc.message}" if exc.pointer else exc.message
        raise JsonRecordError(message, source, line, 0, exc.pointer) from None


def _no_lone_surrogate(value: object, pointer: str) -> None:
    """Refuse a string (key or value) of a record's data that holds a lone surrogate: a
    ``str`` from a caller can, no file can. ``value`` has been read as a record, so its
    nesting is bounded."""
    if type(value) is str:
        at = lone_surrogate(value)
        if at >= 0:
            raise _Invalid(pointer, surrogate_problem(value, at))
    elif type(value) is dict:
        for key, item in value.items():
            at_key = f"{pointer}/{pointer_key(key)}" if type(key) is str else pointer
            _no_lone_surrogate(key, at_key)
            _no_lone_surrogate(item, at_key)
    elif type(value) is list:
        for i, item in enumerate(value):
            _no_lone_surrogate(item, f"{pointer}/{i}")


def from_json_dict(data: object, *, source: str = "", index: int = 0, line: int = 0) -> GameRecord:
    """A record from its JSON form (as ``json.loads`` gives it), fully checked.

    Raises :class:`JsonRecordError` naming the bad element by JSON pointer, whatever
    ``data`` holds. ``line`` is the record's line in its source (a ``.jsonl`` line), kept in
    the record's place.
    """
    return _checked(data, source, index, line)


# -- from text ------------------------------------------------------------------------------------

_LONE_SURROGATE_RE = re.compile(r"\\u[dD][89a-fA-F]")


def load_json(text: str, source: str, line: int, *, document: bool = False) -> object:
    """``json.loads`` that raises only ``RecordError`` (with line and column), whatever the text,
    and refuses nesting deeper than :data:`~ginref.records.jsonplace.MAX_NESTING`: every JSON
    form is loaded here.

    A whole ``document`` (a .json file, a Kaggle episode) is counted before it is loaded; a
    JSON Lines record only when it fails, since a record that decodes nests 8 deep at most.
    """
    deep = too_deep(text) if document else None
    if deep is not None:
        raise nested_error(text, deep, source, line)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        deep = too_deep(text)
        if deep is not None:
            raise nested_error(text, deep, source, line) from None
        if isinstance(exc, json.JSONDecodeError):
            message = exc.msg[:1].lower() + exc.msg[1:]
            raise RecordError(f"bad JSON: {message}", source, line + exc.lineno - 1, exc.colno) from None
        if isinstance(exc, RecursionError):  # pragma: no cover - MAX_NESTING is far below the limit
            raise RecordError("bad JSON: nested too deeply", source, line, 1) from None
        raise RecordError("bad JSON: a number with thousands of digits", source, line, 1) from None
    at = lone_surrogate(text)
    if at >= 0:
        raise RecordError(f"bad JSON: {surrogate_problem(text, at)}", source,
                          line + text.count("\n", 0, at), at - text.rfind("\n", 0, at))
    if _LONE_SURROGATE_RE.search(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise RecordError("bad JSON: a \\u escape of half a surrogate pair is not a character",
                              source, line, 1) from None
    return data


def _placed(exc: JsonRecordError, text: str, line: int, offset: int | None) -> JsonRecordError:
    """``exc`` with the line and column of ``offset`` in ``text`` (which starts at ``line``)."""
    if offset is None:
        return JsonRecordError(exc.message, exc.source, line, 0, exc.pointer)
    return JsonRecordError(exc.message, exc.source, *line_and_column(text, line, offset), exc.pointer)


def decode_json_text(
    text: str, *, source: str = "", index: int = 0, line: int = 1
) -> GameRecord | RecordError:
    """One JSON record (a ``.jsonl`` line, or a whole document holding one object) whose
    text starts at ``line``; an error names the line and column of the bad element."""
    fast = _fast_records(_WIRE_DECODER, text, source, index, line)
    if fast is not None:
        return fast[0]
    try:
        return _checked(load_json(text, source, line), source, index, line)
    except JsonRecordError as exc:
        deep = too_deep(text)
        if deep is not None:
            return nested_error(text, deep, source, line)
        return _placed(exc, text, line, pointer_offset(text, exc.pointer))
    except RecordError as exc:
        return exc


def decode_json_document(
    text: str, *, source: str = "", line: int = 1
) -> Iterator[GameRecord | RecordError]:
    """Every record of a ``.json`` document: one record object, or a list of them.

    The fast path takes the document whole, or leaves it whole to the checked path. There,
    an item of a list that cannot be read is one error and the others are still read;
    finding where the items start is one pass over the text, however many are bad. A
    document nested deeper than :data:`~ginref.records.jsonplace.MAX_NESTING` anywhere is
    one error.
    """
    fast = _fast_records(_DOCUMENT_DECODER, text, source, 0, line)
    if fast is not None:
        yield from fast
        return
    try:
        data = load_json(text, source, line, document=True)
    except RecordError as exc:
        yield exc
        return
    if type(data) is not list:
        try:
            yield _checked(data, source, 0, line)
        except JsonRecordError as exc:
            yield _placed(exc, text, line, pointer_offset(text, exc.pointer))
        return
    starts: list[int] | None = None
    for i, item in enumerate(data):
        try:
            yield _checked(item, source, i, line)
        except JsonRecordError as exc:
            starts = starts if starts is not None else item_starts(text)
            offset = pointer_offset(text, exc.pointer, starts[i]) if i < len(starts) else None
            yield _placed(exc, text, line, offset)


def _decode_line(unit: Unit) -> tuple[GameRecord | RecordError]:
    return (decode_json_text(unit.text, source=unit.source, index=unit.index, line=unit.line),)


def _decode_document(unit: Unit) -> Iterator[GameRecord | RecordError]:
    return decode_json_document(unit.text, source=unit.source, line=unit.line)


JSON_FORMAT = Format("json", "a JSON document", "document", _decode_document, suffixes=(".json",),
                     reads=("jsonl", "kaggle"), sniff_units=True)
"""One ``.json`` document, a record or a list of them; told by its shape"""
JSONL_FORMAT = Format("jsonl", "JSON Lines records", "line", _decode_line, suffixes=(".jsonl", ".ndjson"),
                      reads=("openspiel",), sniff_units=True)
"""``.jsonl``: one record a line; told by its shape"""


# -- the fast path: msgspec decodes the text into wire Structs -----------------------------------
#
# json.loads builds a dict per element that the checked path then takes apart; msgspec's
# typed decoder checks every key, type and bound of the form in C and makes one small Struct
# per element. What the types cannot say (a meld's cards distinct, a knob's or tag's name, a
# turn with no draw, a result's reason) is checked while the wire Structs become the record.
# Anything the wire Structs refuse, from a bad card to a key they don't know, goes to the
# checked path, so every error is the checked path's own; tests/records/test_json_twins.py holds
# the two paths to the same records. Every field is typed (no Any), so what msgspec accepts
# nests 9 deep at most, lists of records included.
#
# A card is typed as one of the spellings of CARD_TOKENS: msgspec then checks it in C and
# gives the spelling's own string, made once, in place of a new string for every card of
# every record (about 110 a hand), whose hash the look-ups after it would compute again.
# The Literal is wrapped in a NewType, which msgspec sees through: typing walks all 152
# spellings each time it resolves an annotation naming a bare Literal, a cost every
# start-up would pay for the wire Structs' annotations.

if TYPE_CHECKING:
    _WireCard = str
    _WireOutcome = ClaimedOutcome
    _WireReason = str
else:
    _WireCard = NewType("_WireCard", Literal[tuple(CARD_TOKENS)])
    _WireOutcome = Literal[tuple(sorted(OUTCOMES))]
    _WireReason = Literal[UNFINISHED_REASONS]
_Count = Annotated[int, msgspec.Meta(ge=0, lt=MAX_NUMBER)]
_Onto = Annotated[int, msgspec.Meta(ge=0, lt=_MAX_ONTO)]
_Number = Annotated[int, msgspec.Meta(gt=-MAX_NUMBER, lt=MAX_NUMBER)]
_WireMelds = list[list[_WireCard]]


class _WireKnock(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    ending: Literal["knock", "gin", "big_gin"]
    melds: _WireMelds
    discard: _WireCard | None = None
    deadwood: _Count | None = None


class _WireTurn(msgspec.Struct, tag="turn", tag_field="type", forbid_unknown_fields=True, gc=False):
    player: str
    source: Literal["stock", "discard", "none"]
    card: _WireCard | None = None
    discard: _WireCard | None = None
    knock: _WireKnock | None = None
    least_deadwood: _Count | None = None


class _WirePass(msgspec.Struct, tag="pass", tag_field="type", forbid_unknown_fields=True, gc=False):
    player: str


class _WireLayoff(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    card: _WireCard
    onto: _Onto


class _WireDefence(msgspec.Struct, tag="defence", tag_field="type", forbid_unknown_fields=True,
                   gc=False):
    player: str
    melds: _WireMelds = []
    layoffs: list[_WireLayoff] = []
    deadwood: _Count | None = None


class _WireResult(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    outcome: _WireOutcome
    winner: str | None = None
    points: _Number = 0
    reason: _WireReason | msgspec.UnsetType = msgspec.UNSET
    stopped_by: str | msgspec.UnsetType | None = msgspec.UNSET


class _WireHand(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    dealer: str
    deal: dict[str, list[_WireCard]]
    events: list[_WireTurn | _WirePass | _WireDefence]
    number: _Count | None = None
    upcard: _WireCard | None = None
    stock: list[_WireCard] | None = None
    result: _WireResult | None = None
    score_after: dict[str, _Number] | None = None
    next_dealer: str | None = None


class _WireRecord(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    rules: str
    players: tuple[str, str]
    hands: Annotated[list[_WireHand], msgspec.Meta(min_length=1)]
    overrides: dict[str, bool | int | str] | None = None
    tags: dict[str, str] | None = None
    final_totals: dict[str, _Number] | None = None


_WIRE_DECODER = msgspec.json.Decoder(_WireRecord)
_DOCUMENT_DECODER = msgspec.json.Decoder(_WireRecord | list[_WireRecord])


class _Refused(Exception):
    """What the wire Structs' types cannot say is wrong: the checked path will say it."""


_BIT_OF = {token: 1 << c for token, c in CARD_TOKENS.items()}.__getitem__
_CARD_OF = CARD_TOKENS.__getitem__
_CARD_OR_NONE: dict[str | None, Card | None] = {None: None}
_CARD_OR_NONE.update(CARD_TOKENS)
"""a wire card (a token the Structs checked, or None) as the model's"""


def _fast_records(
    decoder: msgspec.json.Decoder[Any], text: str, source: str, index: int, line: int
) -> list[GameRecord] | None:
    """The records in ``text`` by the fast path, or None: the checked path then decides."""
    if "\\" in text and _LONE_SURROGATE_RE.search(text):  # one character: a memchr, 80x a "\\u" search
        return None
    try:
        wire = decoder.decode(text)
        if type(wire) is list:
            return [_wire_record(item, source, i, line) for i, item in enumerate(wire)]
        return [_wire_record(wire, source, index, line)]
    except (ValueError, RecursionError, _Refused):
        # ValueError: msgspec's DecodeError, or a lone surrogate in the text it cannot encode;
        # RecursionError: msgspec skipping deep nesting to find an event's "type"
        return None


def _wire_record(wire: _WireRecord, source: str, index: int, line: int) -> GameRecord:
    rules = wire.rules.strip()
    if not rules:
        raise _Refused
    return GameRecord(
        players=wire.players,
        hands=tuple([_wire_hand(hand, h) for h, hand in enumerate(wire.hands)]),
        rules=rules,
        overrides=() if wire.overrides is None else _wire_overrides(wire.overrides),
        tags=() if wire.tags is None else _wire_tags(wire.tags),
        final_totals=None if wire.final_totals is None else tuple(wire.final_totals.items()),
        source=source,
        index=index,
        place=_record_place(line),
    )


def _wire_overrides(overrides: dict[str, bool | int | str]) -> tuple[tuple[str, str], ...]:
    out = []
    for knob, setting in overrides.items():
        if not KNOB_RE.fullmatch(knob):
            raise _Refused
        if setting is True or setting is False:
            out.append((knob, "true" if setting else "false"))
        else:
            out.append((knob, str(setting).strip()))
    return tuple(out)


def _wire_tags(tags: dict[str, str]) -> tuple[tuple[str, str], ...]:
    for name in tags:
        if not TAG_NAME_RE.fullmatch(name) or name.lower() in KNOWN_TAGS:
            raise _Refused
    return tuple(tags.items())


def _wire_hand(hand: _WireHand, h: int) -> HandRecord:
    hand_place, result_place = _hand_places(h)
    result = hand.result
    return HandRecord(
        hand.dealer,
        tuple([(name, tuple(map(_CARD_OF, cards))) for name, cards in hand.deal.items()]),
        None if hand.upcard is None else _CARD_OF(hand.upcard),
        _wire_events(hand.events, h),
        None if hand.stock is None else tuple(map(_CARD_OF, hand.stock)),
        None if result is None else _wire_result(result, result_place),
        None if hand.score_after is None else tuple(hand.score_after.items()),
        hand.next_dealer,
        hand.number,
        hand_place,
    )


def _wire_events(events: list[_WireTurn | _WirePass | _WireDefence], h: int) -> tuple[Event, ...]:
    card_of = _CARD_OR_NONE
    turn, pass_ = Turn, Pass
    out: list[Event] = []
    append = out.append
    for ev, (place, knock_place) in zip(events, _event_places(h, len(events)), strict=False):
        if type(ev) is _WireTurn:
            source, k = ev.source, ev.knock
            if source == "none" and (ev.card is not None or (ev.discard is None and k is None)):
                raise _Refused
            append(turn(ev.player, source, card_of[ev.card], card_of[ev.discard],
                        None if k is None else _wire_knock(k, knock_place), place, ev.least_deadwood))
        elif type(ev) is _WirePass:
            append(pass_(ev.player, place))
        elif type(ev) is _WireDefence:
            layoffs = tuple([(_CARD_OF(item.card), item.onto) for item in ev.layoffs])
            append(Defence(ev.player, _wire_melds(ev.melds), layoffs, ev.deadwood, place))
    return tuple(out)


def _wire_knock(knock: _WireKnock, place: Place) -> Knock:
    discard = None if knock.discard is None else _CARD_OF(knock.discard)
    return Knock(knock.ending, discard, _wire_melds(knock.melds), knock.deadwood, place)


def _wire_melds(melds: list[list[str]]) -> tuple[Mask, ...]:
    out = []
    for meld in melds:
        mask: int = sum(map(_BIT_OF, meld))
        if mask.bit_count() != len(meld):  # a card twice: the sum carries
            raise _Refused
        out.append(mask)
    return tuple(out)


def _wire_result(result: _WireResult, place: Place) -> ClaimedResult:
    reason = stopped_by = None
    if result.outcome == "unfinished":
        if result.reason is msgspec.UNSET:
            raise _Refused
        reason = result.reason
        stopped_by = None if result.stopped_by is msgspec.UNSET else result.stopped_by
    elif result.reason is not msgspec.UNSET or result.stopped_by is not msgspec.UNSET:
        raise _Refused
    return ClaimedResult(result.outcome, result.winner, result.points, place, reason, stopped_by)
