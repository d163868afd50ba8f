"""The JSON form of records (``.json``, ``.jsonl``): one decoder and one encoder.

Snake_case keys, cards as "TC", melds as lists of cards, layoffs as {"card", "onto"} with a
0-based meld index. ``from_json_dict`` checks everything by hand and names the bad element
by its JSON pointer. A JSON Lines record is first decoded by msgspec into wire Structs and
checked by the same functions (the fast path below); whatever that path does not take is
read again by ``json.loads``, so every error message is the checked path's.
:func:`decode_json_text` and :func:`decode_json_document` turn the pointer into a line and
column of the text. ``ginref/record.schema.json`` describes the
same form for other tools.

Whatever the text, decoding returns a record or a :class:`~ginref.errors.RecordError`:
nesting of any depth, numbers of any length, values of the wrong type and lone surrogate
escapes are all reported, never raised as another exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Literal, NoReturn

import msgspec

from ginref.cards import Card, Mask, card_name, mask_of, scan
from ginref.errors import RecordError
from ginref.jsontext import json_line
from ginref.notation import CARD_NAMES, CARD_TOKENS
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
    "JsonRecordError",
    "decode_json_document",
    "decode_json_text",
    "format_json",
    "format_jsonl",
    "from_json_dict",
    "pretty_json",
    "to_json_dict",
]


_RECORD_KEYS = frozenset({"rules", "overrides", "players", "tags", "hands", "final_totals"})
_HAND_KEYS = frozenset({
    "number", "dealer", "deal", "upcard", "stock", "events", "result", "score_after", "next_dealer",
})
_TURN_KEYS = frozenset({"type", "player", "source", "card", "discard", "knock"})
_KNOCK_KEYS = frozenset({"ending", "discard", "melds", "deadwood"})
_DEFENCE_KEYS = frozenset({"type", "player", "melds", "layoffs", "deadwood"})
_RESULT_KEYS = frozenset({"outcome", "winner", "points", "reason", "stopped_by"})


class JsonRecordError(RecordError):
    """A JSON record that does not fit the form; ``pointer`` names the bad element."""

    def __init__(
        self, message: str, source: str = "", line: int = 0, column: int = 0, pointer: str = ""
    ) -> None:
        super().__init__(message, source, line, column)
        self.pointer = pointer


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


def _shown(value: object, width: int = 60) -> str:
    """``repr(value)`` cut to about ``width`` characters, so a message stays one short line."""
    if type(value) in (list, dict):
        return _kind(value)
    text = repr(value)
    return text if len(text) <= width else text[:width] + f"... ({len(text)} characters)"


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unknown_key(data: dict[str, object], allowed: frozenset[str], pointer: str) -> NoReturn:
    key = next(k for k in data if k not in allowed)
    raise _Invalid(f"{pointer}/{_escape(str(key))}", f"unknown key {_shown(key)}")


def _want(value: object, what: str, pointer: str) -> NoReturn:
    raise _Invalid(pointer, f"expected {what}, got {_kind(value)}")


def _json_card(value: object, pointer: str) -> Card:
    c = CARD_TOKENS.get(value) if type(value) is str else None
    if c is None:
        if type(value) is str:
            raise _Invalid(pointer, f"unknown card {_shown(value)}")
        _want(value, 'a card such as "TC"', pointer)
    return c


_CARD_OF = CARD_TOKENS.__getitem__


def _json_cards(value: object, pointer: str) -> tuple[Card, ...]:
    if type(value) is not list:
        _want(value, "a list of cards", pointer)
    try:
        return tuple(map(_CARD_OF, value))
    except (KeyError, TypeError):
        for i, v in enumerate(value):
            _json_card(v, f"{pointer}/{i}")
        raise AssertionError("unreachable: a bad card was found above") from None


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


def _json_count(value: object, pointer: str) -> int:
    if type(value) is not int or not 0 <= value < MAX_NUMBER:
        _want(value, "a whole number >= 0", pointer)
    return value


_MAX_ONTO = MAX_NUMBER - 1
"""the text form numbers melds from 1, so a 0-based index must stay one below the bound"""


def _json_onto(value: object, pointer: str) -> int:
    if type(value) is not int or not 0 <= value < _MAX_ONTO:
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
        if type(points) is not int or not -MAX_NUMBER < points < MAX_NUMBER:
            _json_number(points, f"{pointer}/{_escape(name)}")
    return tuple(value.items())


# Places of JSON elements are pointers only, so the common ones are made once and shared by
# every record: /hands/H and /hands/H/result, /hands/H/events/E and /hands/H/events/E/knock,
# for the first _SHARED_HANDS hands and _SHARED_EVENTS events of each. Larger records get
# places of their own, so the shared table stays bounded whatever the input.
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


def _json_events(value: object, h: int) -> tuple[Event, ...]:
    if type(value) is _DecodedEvents:  # by the fast path: nothing else makes one
        return tuple(value)
    pointer = f"/hands/{h}/events"
    if type(value) is not list:
        _want(value, "a list of events", pointer)
    places = _event_places(h, len(value))
    cards = CARD_TOKENS
    sources = SOURCES
    turn, pass_ = Turn, Pass
    out: list[Event] = []
    append = out.append
    e = -1
    for ev in value:
        e += 1
        if type(ev) is not dict:
            _want(ev, "an event object", f"{pointer}/{e}")
        kind = ev.get("type")
        player = ev.get("player")
        if type(player) is not str:
            _want(player, "the player's name", f"{pointer}/{e}/player")
        if kind == "turn":
            source = ev.get("source")
            c = ev.get("card")
            x = ev.get("discard")
            k = ev.get("knock")
            try:
                if c is not None:
                    c = cards[c]
                if x is not None:
                    x = cards[x]
            except (KeyError, TypeError):
                for key in ("card", "discard"):
                    if ev.get(key) is not None:
                        _json_card(ev[key], f"{pointer}/{e}/{key}")
            if len(ev) != (4 if source != "none" else 3) + (x is not None) + (k is not None):
                _turn_keys(ev, f"{pointer}/{e}")
            if type(source) is not str or source not in sources or source == "none":
                _check_source(ev, f"{pointer}/{e}")
            if k is None:
                append(turn(player, source, c, x, None, places[e][0]))  # type: ignore[arg-type]
            else:
                place, knock_place = places[e]
                knock = _json_knock(k, h, e, knock_place)
                append(turn(player, source, c, x, knock, place))  # type: ignore[arg-type]
        elif kind == "pass":
            if len(ev) != 2:
                _unknown_key(ev, frozenset({"type", "player"}), f"{pointer}/{e}")
            append(pass_(player, places[e][0]))
        elif kind == "defence":
            append(_json_defence(ev, player, h, e, places[e][0]))
        elif "type" not in ev:
            raise _Invalid(f"{pointer}/{e}", "missing key 'type'")
        else:
            raise _Invalid(f"{pointer}/{e}/type",
                           f"expected 'turn', 'pass' or 'defence', got {_shown(kind)}")
    return tuple(out)


def _turn_keys(ev: dict[str, object], pointer: str) -> None:
    """A turn whose key count is unusual: explicit nulls are fine, other keys are not."""
    if not _TURN_KEYS.issuperset(ev):
        _unknown_key(ev, _TURN_KEYS, pointer)
    if "source" not in ev:
        raise _Invalid(pointer, "missing key 'source'")


def _check_source(ev: dict[str, object], pointer: str) -> None:
    """The rare cases of a turn's source: ``none`` (no draw) or a bad value."""
    source = ev.get("source")
    if source == "none":
        if ev.get("card") is not None:
            raise _Invalid(f"{pointer}/card", "a turn with no draw (source 'none') draws no card")
        if ev.get("discard") is None and ev.get("knock") is None:
            raise _Invalid(pointer, "a turn needs a draw, a discard or a knock")
        return
    if "source" not in ev:
        raise _Invalid(pointer, "missing key 'source'")
    raise _Invalid(f"{pointer}/source", f"expected 'stock', 'discard' or 'none', got {_shown(source)}")


_BIT_OF = {token: 1 << c for token, c in CARD_TOKENS.items()}.__getitem__


def _json_fast_melds(value: object) -> tuple[Mask, ...] | None:
    """Melds that are lists of distinct cards, as masks; None for anything else."""
    if type(value) is not list:
        return None
    out = []
    try:
        for meld in value:
            if type(meld) is not list:
                return None
            mask: int = sum(map(_BIT_OF, meld))
            if mask.bit_count() != len(meld):
                return None
            out.append(mask)
    except (KeyError, TypeError):
        return None
    return tuple(out)


def _json_knock(value: object, h: int, e: int, place: Place) -> Knock:
    if type(value) is dict:
        ending = value.get("ending")
        melds = _json_fast_melds(value.get("melds"))
        discard = value.get("discard")
        deadwood = value.get("deadwood")
        if (
            type(ending) is str
            and ending in ENDINGS
            and melds is not None
            and (deadwood is None or (type(deadwood) is int and 0 <= deadwood < MAX_NUMBER))
            and len(value) == 2 + ("discard" in value) + ("deadwood" in value)
        ):
            try:
                down = None if discard is None else _CARD_OF(discard)
                return Knock(ending, down, melds, deadwood, place)  # type: ignore[arg-type]
            except (KeyError, TypeError):
                pass
    return _checked_knock(value, f"/hands/{h}/events/{e}/knock", place)


def _json_defence(ev: dict[str, object], player: str, h: int, e: int, place: Place) -> Defence:
    melds = _json_fast_melds(ev["melds"]) if "melds" in ev else ()
    items = ev.get("layoffs", ())
    deadwood = ev.get("deadwood")
    if (
        melds is not None
        and type(items) in (list, tuple)
        and (deadwood is None or (type(deadwood) is int and 0 <= deadwood < MAX_NUMBER))
        and len(ev) == 2 + ("melds" in ev) + ("layoffs" in ev) + ("deadwood" in ev)
    ):
        layoffs = []
        try:
            for item in items:  # type: ignore[attr-defined]
                onto = item["onto"]
                if type(onto) is not int or not 0 <= onto < _MAX_ONTO or len(item) != 2:
                    break
                layoffs.append((_CARD_OF(item["card"]), onto))
            else:
                return Defence(player, melds, tuple(layoffs), deadwood, place)
        except (KeyError, TypeError):
            pass
    return _checked_defence(ev, player, f"/hands/{h}/events/{e}", place)


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


def _checked_knock(value: object, pointer: str, place: Place) -> Knock:
    """A knock checked step by step, naming the bad element; the slow path."""
    if type(value) is not dict:
        _want(value, "a knock object", pointer)
    ending = _json_choice(value, "ending", ENDINGS, pointer, "'knock', 'gin' or 'big_gin'")
    if "melds" not in value:
        raise _Invalid(pointer, "missing key 'melds'")
    melds = _json_melds(value["melds"], f"{pointer}/melds")
    known = 2
    discard = value.get("discard")
    if "discard" in value:
        known += 1
        if discard is not None:
            discard = _json_card(discard, f"{pointer}/discard")
    deadwood = _json_deadwood(value, pointer)
    known += "deadwood" in value
    if known != len(value):
        _unknown_key(value, _KNOCK_KEYS, pointer)
    return Knock(ending, discard, melds, deadwood, place)


def _checked_defence(ev: dict[str, object], player: str, pointer: str, place: Place) -> Defence:
    """A defence checked step by step, naming the bad element; the slow path."""
    known = 2
    melds: tuple[Mask, ...] = ()
    if "melds" in ev:
        known += 1
        melds = _json_melds(ev["melds"], f"{pointer}/melds")
    layoffs: list[tuple[Card, int]] = []
    if "layoffs" in ev:
        known += 1
        items = ev["layoffs"]
        if type(items) is not list:
            _want(items, "a list of layoffs", f"{pointer}/layoffs")
        for i, item in enumerate(items):
            at = f"{pointer}/layoffs/{i}"
            if type(item) is not dict:
                _want(item, 'a layoff such as {"card": "7H", "onto": 0}', at)
            if "card" not in item or "onto" not in item:
                raise _Invalid(at, f"missing key {'card' if 'card' not in item else 'onto'!r}")
            if len(item) != 2:
                _unknown_key(item, frozenset({"card", "onto"}), at)
            layoffs.append((_json_card(item["card"], f"{at}/card"), _json_onto(item["onto"], f"{at}/onto")))
    deadwood = _json_deadwood(ev, pointer)
    known += "deadwood" in ev
    if known != len(ev):
        _unknown_key(ev, _DEFENCE_KEYS, pointer)
    return Defence(player, melds, tuple(layoffs), deadwood, place)


def _json_hand(data: object, h: int) -> HandRecord:
    if type(data) is not dict:
        _want(data, "a hand object", f"/hands/{h}")
    dealer = data.get("dealer")
    deal_data = data.get("deal")
    events = data.get("events")
    if type(dealer) is not str or type(deal_data) is not dict or events is None:
        _check_hand_keys(data, h)
    try:
        deal = tuple([(name, tuple(map(_CARD_OF, cards))) for name, cards in deal_data.items()])
    except (KeyError, TypeError):
        deal = tuple(
            (name, _json_cards(cards, f"/hands/{h}/deal/{_escape(name)}"))
            for name, cards in deal_data.items()
        )
    number = data.get("number")
    if number is not None and (type(number) is not int or not 0 <= number < MAX_NUMBER):
        _json_count(number, f"/hands/{h}/number")
    upcard = data.get("upcard")
    if upcard is not None:
        upcard = _json_card(upcard, f"/hands/{h}/upcard")
    stock = data.get("stock")
    if stock is not None:
        stock = _json_cards(stock, f"/hands/{h}/stock")
    events = _json_events(events, h)
    hand_place, result_place = _hand_places(h)
    result = data.get("result")
    if result is not None:
        result = _json_result(result, f"/hands/{h}/result", result_place)
    score_after = data.get("score_after")
    if score_after is not None:
        score_after = _json_totals(score_after, f"/hands/{h}/score_after")
    next_dealer = data.get("next_dealer")
    if next_dealer is not None and type(next_dealer) is not str:
        _want(next_dealer, "a player name", f"/hands/{h}/next_dealer")
    if len(data) > 3 and not _HAND_KEYS.issuperset(data):
        _unknown_key(data, _HAND_KEYS, f"/hands/{h}")
    return HandRecord(
        dealer, deal, upcard, events, stock, result, score_after, next_dealer, number, hand_place,
    )


def _check_hand_keys(data: dict[str, object], h: int) -> NoReturn:
    pointer = f"/hands/{h}"
    for key in ("dealer", "deal", "events"):
        if key not in data:
            raise _Invalid(pointer, f"missing key {key!r}")
    if type(data["dealer"]) is not str:
        _want(data["dealer"], "a player name", f"{pointer}/dealer")
    if type(data["deal"]) is not dict:
        _want(data["deal"], 'an object of dealt cards such as {"Ann": [...], "Bo": [...]}',
              f"{pointer}/deal")
    _want(data["events"], "a list of events", f"{pointer}/events")


_OUTCOME_CHOICES = f"one of {', '.join(sorted(OUTCOMES))}"


def _json_result(value: object, pointer: str, place: Place) -> ClaimedResult:
    if type(value) is not dict:
        _want(value, "a result object", pointer)
    outcome = _json_choice(value, "outcome", OUTCOMES, pointer, _OUTCOME_CHOICES)
    known = 1
    winner = value.get("winner")
    if "winner" in value:
        known += 1
        if winner is not None:
            winner = _json_name(winner, f"{pointer}/winner")
    points = value.get("points", 0)
    if "points" in value:
        known += 1
        if type(points) is not int or not -MAX_NUMBER < points < MAX_NUMBER:
            _json_number(points, f"{pointer}/points")
    reason = stopped_by = None
    if outcome == "unfinished" or "reason" in value or "stopped_by" in value:
        reason, stopped_by = _json_stop(value, outcome, pointer)
        known += ("reason" in value) + ("stopped_by" in value)
    if known != len(value):
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
    known = 3
    rules = data["rules"]
    if type(rules) is not str or not rules.strip():
        _want(rules, "a rule set name", "/rules")
    players = data["players"]
    if type(players) is not list or len(players) != 2:
        _want(players, "a list of the two players' names", "/players")
    for i, name in enumerate(players):
        if type(name) is not str:
            _want(name, "a player name", f"/players/{i}")
    overrides: tuple[tuple[str, str], ...] = ()
    if "overrides" in data:
        known += 1
        overrides = _json_overrides(data["overrides"])
    tags: tuple[tuple[str, str], ...] = ()
    if "tags" in data:
        known += 1
        tags = _json_tags(data["tags"])
    hands = data["hands"]
    if type(hands) is not list or not hands:
        _want(hands, "a list of one or more hands", "/hands")
    final = data.get("final_totals")
    if "final_totals" in data:
        known += 1
        if final is not None:
            final = _json_totals(final, "/final_totals")
    if known != len(data):
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
        place=Place(line=line) if line else NOWHERE,
    )


def _json_overrides(value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if type(value) is not dict:
        _want(value, 'an object of rule knobs such as {"gin_bonus": 25}', "/overrides")
    out = []
    for knob, setting in value.items():
        at = f"/overrides/{_escape(knob)}"
        if not KNOB_RE.fullmatch(knob):
            raise _Invalid(at, f"bad rule knob name {_shown(knob)}")
        if isinstance(setting, bool):
            text = "true" if setting else "false"
        elif type(setting) is int or type(setting) is str:
            text = str(setting).strip()
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
        at = f"/tags/{_escape(name)}"
        if not TAG_NAME_RE.fullmatch(name):
            raise _Invalid(at, f"bad tag name {_shown(name)}: a letter, then letters, digits or '_'")
        if name.lower() in KNOWN_TAGS:
            raise _Invalid(at, f"{name!r} is not a free tag (the record has a key for it)")
        if type(text) is not str:
            _want(text, "text", at)
    return tuple(value.items())


def from_json_dict(data: object, *, source: str = "", index: int = 0, line: int = 0) -> GameRecord:
    """A record from its JSON form (as ``json.loads`` gives it), fully checked.

    Raises :class:`JsonRecordError` naming the bad element by JSON pointer. ``line`` is
    the record's line in its source (a ``.jsonl`` line), kept in the record's place.
    """
    return _decoded(data, source, index, line)


def to_json_dict(record: GameRecord) -> dict[str, object]:
    """The JSON form of ``record`` (canonical: :func:`from_json_dict` reads it back equal).

    Raises ``ValueError`` for what JSON cannot say: a name given twice in a mapping (deal,
    totals, overrides, tags) or a card number outside 0..51.
    """
    out: dict[str, object] = {"rules": record.rules}
    if record.overrides:
        out["overrides"] = _mapping(record.overrides, "overrides")
    out["players"] = list(record.players)
    if record.tags:
        out["tags"] = _mapping(record.tags, "tags")
    out["hands"] = [_hand_json(hand) for hand in record.hands]
    if record.final_totals is not None:
        out["final_totals"] = _mapping(record.final_totals, "final_totals")
    return out


def _mapping(pairs: Iterable[tuple[str, object]], what: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"{what} name {key!r} twice; JSON cannot say that")
        out[key] = value
    return out


def _card_json(c: Card) -> str:
    if type(c) is not int or not 0 <= c < 52:
        raise ValueError(f"not a card: {c!r}")
    return CARD_NAMES[c]


def _meld_json(mask: Mask) -> list[str]:
    if type(mask) is not int or mask < 0 or mask >> 52:
        raise ValueError(f"not a meld: {mask!r}")
    return [CARD_NAMES[c] for c in scan(mask)]


def _hand_json(hand: HandRecord) -> dict[str, object]:
    out: dict[str, object] = {}
    if hand.number is not None:
        out["number"] = hand.number
    out["dealer"] = hand.dealer
    out["deal"] = _mapping(((name, [_card_json(c) for c in cards]) for name, cards in hand.deal), "deal")
    out["upcard"] = None if hand.upcard is None else _card_json(hand.upcard)
    if hand.stock is not None:
        out["stock"] = [_card_json(c) for c in hand.stock]
    out["events"] = [_event_json(event) for event in hand.events]
    if hand.result is not None:
        result: dict[str, object] = {"outcome": hand.result.outcome}
        if hand.result.winner is not None:
            result["winner"] = hand.result.winner
        result["points"] = hand.result.points
        if hand.result.reason is not None:
            result["reason"] = hand.result.reason
        if hand.result.stopped_by is not None:
            result["stopped_by"] = hand.result.stopped_by
        out["result"] = result
    if hand.score_after is not None:
        out["score_after"] = _mapping(hand.score_after, "score_after")
    if hand.next_dealer is not None:
        out["next_dealer"] = hand.next_dealer
    return out


def _event_json(event: Event) -> dict[str, object]:
    if type(event) is Pass:
        return {"type": "pass", "player": event.player}
    if type(event) is Defence:
        out: dict[str, object] = {
            "type": "defence",
            "player": event.player,
            "melds": [_meld_json(m) for m in event.melds],
            "layoffs": [{"card": _card_json(c), "onto": onto} for c, onto in event.layoffs],
        }
        if event.deadwood is not None:
            out["deadwood"] = event.deadwood
        return out
    if type(event) is not Turn:
        raise TypeError(f"not a record event: {event!r}")
    out = {"type": "turn", "player": event.player, "source": event.source}
    if event.source != "none":
        out["card"] = None if event.card is None else _card_json(event.card)
    elif event.card is not None:
        raise ValueError(f"a turn with no draw cannot have drawn {event.card!r}")
    if event.discard is not None:
        out["discard"] = _card_json(event.discard)
    knock = event.knock
    if knock is not None:
        k: dict[str, object] = {"ending": knock.ending}
        if knock.discard is not None:
            k["discard"] = _card_json(knock.discard)
        k["melds"] = [_meld_json(m) for m in knock.melds]
        if knock.deadwood is not None:
            k["deadwood"] = knock.deadwood
        out["knock"] = k
    elif event.discard is None and event.source == "none":
        raise ValueError(f"{event.player}'s turn has no draw, discard or knock")
    return out


def format_jsonl(record: GameRecord) -> str:
    """The record as one line of JSON (no line end)."""
    return json_line(to_json_dict(record))


def format_json(record: GameRecord, *, width: int = 100) -> str:
    """The record as readable JSON: nested, but lists and small objects kept on one line."""
    return _pretty(to_json_dict(record), 0, width) + "\n"


def pretty_json(record: GameRecord, indent: int) -> str:
    """The readable JSON of ``record`` as an element of a list indented by ``indent``."""
    return " " * indent + _pretty(to_json_dict(record), indent, 100)


def _pretty(value: object, indent: int, width: int, lead: int = 0) -> str:
    """JSON for ``value`` starting ``lead`` characters into a line indented by ``indent``."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(inner + key + _pretty(v, indent + 2, width, len(key) + 1))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        return flat
    items = [inner + _pretty(v, indent + 2, width, 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"




# -- from text: where an error is, in lines and columns ------------------------------------------

_LONE_SURROGATE_RE = re.compile(r"\\u[dD][89a-fA-F]")
_SPACE_RE = re.compile(r"[ \t\n\r]*")


MAX_NESTING = 32
"""Deepest nesting of lists and objects a record may have (a record's own is 8). Deeper is
refused by this count, not by where Python's recursion limit happens to be, so the same
text gets the same answer in every process."""
_STRUCTURE_RE = re.compile(r'[\[\]{}"]')
_STRING_BODY_RE = re.compile(r'(?:[^"\\]|\\.)*"?', re.DOTALL)


def _too_deep(text: str) -> int | None:
    """Where ``text`` first nests deeper than :data:`MAX_NESTING` (brackets inside strings
    are skipped), or None; one pass, for error paths and whole documents only."""
    depth, i = 0, 0
    while (match := _STRUCTURE_RE.search(text, i)) is not None:
        i = match.end()
        char = match.group()
        if char == '"':
            i = _STRING_BODY_RE.match(text, i).end()  # type: ignore[union-attr]
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return match.start()
        else:
            depth -= 1
    return None


def _nested_error(text: str, offset: int, source: str, line: int) -> RecordError:
    return RecordError(f"bad JSON: nested more than {MAX_NESTING} deep", source,
                       line + text.count("\n", 0, offset), offset - text.rfind("\n", 0, offset))


def load_json(text: str, source: str, line: int, *, document: bool = False) -> object:
    """``json.loads`` that raises only ``RecordError`` (with line and column), whatever the text,
    and refuses nesting deeper than :data:`MAX_NESTING`: every JSON form is loaded here.

    A whole ``document`` (a .json file, a Kaggle episode) is counted before it is loaded; a
    JSON Lines record only when it fails, since a record that decodes nests 8 deep at most.
    """
    deep = _too_deep(text) if document else None
    if deep is not None:
        raise _nested_error(text, deep, source, line)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        deep = _too_deep(text)
        if deep is not None:
            raise _nested_error(text, deep, source, line) from None
        if isinstance(exc, json.JSONDecodeError):
            message = exc.msg[:1].lower() + exc.msg[1:]
            raise RecordError(f"bad JSON: {message}", source, line + exc.lineno - 1, exc.colno) from None
        if isinstance(exc, RecursionError):  # pragma: no cover - MAX_NESTING is far below the limit
            raise RecordError("bad JSON: nested too deeply", source, line, 1) from None
        raise RecordError("bad JSON: a number with thousands of digits", source, line, 1) from None
    if _LONE_SURROGATE_RE.search(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise RecordError("bad JSON: a \\u escape of half a surrogate pair is not a character",
                              source, line, 1) from None
    return data


def _pointer_offset(text: str, pointer: str, start: int = 0) -> int | None:
    """Where the element at ``pointer`` starts in the JSON ``text`` (the last of equal keys),
    searching the value that starts at ``start``."""
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        return _SPACE_RE.match(text, i).end()  # type: ignore[union-attr]

    try:
        i = skip(start)
        for part in pointer.split("/")[1:] if pointer else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if text[i] == "{":
                i = skip(i + 1)
                found = None
                while text[i] != "}":
                    key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                    i = skip(skip(i) + 1)
                    if key == part:
                        found = i
                    i = skip(decoder.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = skip(i + 1)
                if found is None:
                    return None
                i = found
            elif text[i] == "[":
                i = skip(i + 1)
                for _ in range(int(part)):
                    i = skip(decoder.raw_decode(text, i)[1])
                    i = skip(i + 1)  # the comma
            else:
                return None
        return i
    except (ValueError, IndexError, RecursionError):
        return None


def _placed(exc: JsonRecordError, text: str, line: int, offset: int | None) -> JsonRecordError:
    """``exc`` with the line and column of ``offset`` in ``text`` (which starts at ``line``)."""
    if offset is None:
        return JsonRecordError(exc.message, exc.source, line, 0, exc.pointer)
    return JsonRecordError(
        exc.message, exc.source, line + text.count("\n", 0, offset),
        offset - text.rfind("\n", 0, offset), exc.pointer,
    )


def _shown_pointer(pointer: str) -> str:
    """A JSON pointer for a message: each part cut to 30 characters."""
    parts = pointer.split("/")
    return "/".join(p if len(p) <= 30 else p[:27] + "..." for p in parts)


# -- the fast path: msgspec decodes the text into wire Structs, checked by the same code --------
#
# json.loads builds a dict per event that _json_events then takes apart; msgspec's typed
# decoder checks an event's keys and types in C and makes one small Struct. The wire Structs
# hold what the text says (cards still as text); _json_record and its helpers check and
# convert them exactly as they do json.loads's dicts, with _wire_events as the events' twin
# of _json_events. Anything unusual, from a bad card to a key the wire Structs don't know,
# falls back to the checked path, so every error is the checked path's own.
# tests/records/test_json_twins.py compares the two paths.
#
# A card is typed as one of the spellings of CARD_TOKENS: msgspec then checks it in C and
# gives the spelling's own string, made once, in place of a new string for every card of
# every record (about 110 a hand), whose hash the look-ups after it would compute again.

if TYPE_CHECKING:
    _WireCard = str
else:
    _WireCard = Literal[tuple(CARD_TOKENS)]


class _WireTurn(msgspec.Struct, tag="turn", tag_field="type", forbid_unknown_fields=True, gc=False):
    player: str
    source: Literal["stock", "discard", "none"]
    card: _WireCard | None = None
    discard: _WireCard | None = None
    knock: Any = None


class _WirePass(msgspec.Struct, tag="pass", tag_field="type", forbid_unknown_fields=True, gc=False):
    player: str


class _WireDefence(msgspec.Struct, tag="defence", tag_field="type", forbid_unknown_fields=True,
                   gc=False):
    player: str
    melds: Any = msgspec.UNSET
    layoffs: Any = msgspec.UNSET
    deadwood: Any = msgspec.UNSET


class _WireHand(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    number: Any = msgspec.UNSET
    dealer: Any = msgspec.UNSET
    deal: dict[str, list[_WireCard]] | msgspec.UnsetType = msgspec.UNSET
    upcard: _WireCard | msgspec.UnsetType | None = msgspec.UNSET
    stock: list[_WireCard] | msgspec.UnsetType | None = msgspec.UNSET
    events: list[_WireTurn | _WirePass | _WireDefence] | msgspec.UnsetType = msgspec.UNSET
    result: Any = msgspec.UNSET
    score_after: Any = msgspec.UNSET
    next_dealer: Any = msgspec.UNSET


class _WireRecord(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    rules: Any = msgspec.UNSET
    overrides: Any = msgspec.UNSET
    players: Any = msgspec.UNSET
    tags: Any = msgspec.UNSET
    hands: list[_WireHand] | msgspec.UnsetType = msgspec.UNSET
    final_totals: Any = msgspec.UNSET


_WIRE_DECODER = msgspec.json.Decoder(_WireRecord)


class _DecodedEvents(tuple):  # type: ignore[type-arg]
    """A hand's events already read by :func:`_wire_events`, passed through ``_json_hand``."""

    __slots__ = ()


def _present(wire: msgspec.Struct) -> dict[str, Any]:
    """The keys the text gave, as json.loads would have them."""
    out = {}
    for name in wire.__struct_fields__:
        value = getattr(wire, name)
        if value is not msgspec.UNSET:
            out[name] = value
    return out


def _wire_events(events: list[_WireTurn | _WirePass | _WireDefence], h: int) -> tuple[Event, ...]:
    """The fast twin of :func:`_json_events`; raises on anything it does not take plainly."""
    places = _event_places(h, len(events))
    cards = CARD_TOKENS
    turn, pass_ = Turn, Pass
    out: list[Event] = []
    append = out.append
    for e, ev in enumerate(events):
        if type(ev) is _WireTurn:
            c, x, k = ev.card, ev.discard, ev.knock
            if ev.source == "none":
                _check_source(_present_event(ev), "")
            place, knock_place = places[e]
            append(turn(ev.player, ev.source, None if c is None else cards[c],
                        None if x is None else cards[x],
                        None if k is None else _json_knock(k, h, e, knock_place), place))
        elif type(ev) is _WirePass:
            append(pass_(ev.player, places[e][0]))
        elif isinstance(ev, _WireDefence):
            append(_json_defence(_present_event(ev), ev.player, h, e, places[e][0]))
    return tuple(out)


def _present_event(ev: _WireTurn | _WireDefence) -> dict[str, object]:
    data: dict[str, object] = {"type": "turn" if type(ev) is _WireTurn else "defence"}
    data.update(_present(ev))
    return data


def _fast_record(text: str, source: str, index: int, line: int) -> GameRecord | None:
    """The record in ``text`` by the fast path, or None: the checked path then decides."""
    if _LONE_SURROGATE_RE.search(text):
        return None
    try:
        wire = _WIRE_DECODER.decode(text)
        data = _present(wire)
        if type(wire.hands) is list:
            hands = []
            for h, hand in enumerate(wire.hands):
                present = _present(hand)
                if type(hand.events) is list:
                    present["events"] = _DecodedEvents(_wire_events(hand.events, h))
                hands.append(present)
            data["hands"] = hands
        return _json_record(data, source, index, line)
    except Exception:  # any doubt at all: the checked path reads it again and says why
        return None


def _decoded(data: object, source: str, index: int, line: int) -> GameRecord:
    try:
        return _json_record(data, source, index, line)
    except _Invalid as exc:
        message = f"{_shown_pointer(exc.pointer)}: {exc.message}" if exc.pointer else exc.message
        raise JsonRecordError(message, source, line, 0, exc.pointer) from None


def decode_json_text(
    text: str, *, source: str = "", index: int = 0, line: int = 1
) -> GameRecord | RecordError:
    """One JSON record (a ``.jsonl`` line, or a whole document holding one object) whose
    text starts at ``line``; an error names the line and column of the bad element."""
    fast = _fast_record(text, source, index, line)
    if fast is not None:
        return fast
    try:
        return _decoded(load_json(text, source, line), source, index, line)
    except JsonRecordError as exc:
        deep = _too_deep(text)
        if deep is not None:
            return _nested_error(text, deep, source, line)
        return _placed(exc, text, line, _pointer_offset(text, exc.pointer))
    except RecordError as exc:
        return exc


def decode_json_document(
    text: str, *, source: str = "", line: int = 1
) -> Iterator[GameRecord | RecordError]:
    """Every record of a ``.json`` document: one record object, or a list of them.

    An item of a list that cannot be read is one error and the others are still read;
    finding where the items start is one pass over the text, however many are bad. A
    document nested deeper than :data:`MAX_NESTING` anywhere is one error.
    """
    try:
        data = load_json(text, source, line, document=True)
    except RecordError as exc:
        yield exc
        return
    if type(data) is not list:
        try:
            yield _decoded(data, source, 0, line)
        except JsonRecordError as exc:
            yield _placed(exc, text, line, _pointer_offset(text, exc.pointer))
        return
    starts: list[int] | None = None
    for i, item in enumerate(data):
        try:
            yield _decoded(item, source, i, line)
        except JsonRecordError as exc:
            starts = starts if starts is not None else _item_starts(text)
            offset = _pointer_offset(text, exc.pointer, starts[i]) if i < len(starts) else None
            yield _placed(exc, text, line, offset)


def _item_starts(text: str) -> list[int]:
    """Where each item of the top-level JSON list in ``text`` starts."""
    decoder = json.JSONDecoder()
    starts: list[int] = []
    i = _SPACE_RE.match(text, 0).end() + 1  # type: ignore[union-attr]
    try:
        while True:
            i = _SPACE_RE.match(text, i).end()  # type: ignore[union-attr]
            if text[i] == "]":
                return starts
            starts.append(i)
            i = _SPACE_RE.match(text, decoder.raw_decode(text, i)[1]).end()  # type: ignore[union-attr]
            i += 1  # the comma
    except (ValueError, IndexError, RecursionError):
        return starts
