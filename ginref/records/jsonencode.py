"""The JSON form of records, written: a record to its JSON value, one line of it, or readable JSON.

The encoder of the form :mod:`ginref.records.jsonform` reads (snake_case keys, cards as
"TC", melds as lists of cards, layoffs as {"card", "onto"} with a 0-based meld index), in
its canonical order, so that reading it back gives the record again
(``tests/records/test_records.py`` holds the round trip). Its only errors are what JSON
cannot say: a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ginref.cards import Card, Mask, scan
from ginref.jsonwrite import json_line, readable_json
from ginref.notation import CARD_NAMES
from ginref.records.model import Defence, Event, GameRecord, HandRecord, Pass, Turn

__all__ = ["format_json", "format_jsonl", "pretty_json", "to_json_dict"]


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
    if event.least_deadwood is not None:
        out["least_deadwood"] = event.least_deadwood
    return out



def format_jsonl(record: GameRecord) -> str:
    """The record as one line of JSON (no line end)."""
    return json_line(to_json_dict(record))


def format_json(record: GameRecord, *, width: int = 100) -> str:
    """The record as readable JSON: nested, but lists and small objects kept on one line."""
    return readable_json(to_json_dict(record), width=width) + "\n"


def pretty_json(record: GameRecord, indent: int) -> str:
    """The readable JSON of ``record`` as an element of a list indented by ``indent``."""
    return " " * indent + readable_json(to_json_dict(record), indent=indent)
