"""Hostile records: each case once crashed a run, hid a batch's verdicts or ran away.

Every one must come back as a ``RecordError`` for that record alone, with a short
printable message and a place, while the records around it are still read.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ginref.errors import MAX_MESSAGE, RecordError
from ginref.records import (
    GameRecord,
    JsonRecordError,
    decode_json_document,
    decode_json_text,
    format_jsonl,
    from_json_dict,
    read_records,
    read_text,
)
from ginref.referee import adjudicate

GOOD_TEXT = """[Rules "standard"]
[Players "Ann" "Bo"]
[Dealer "Bo"]
[Deal "Ann" "3C 4C 5C 9D 9S KH 2D 6S 7S QC"]
[Deal "Bo" "6C 9C 5S JH JC JD 4H AH 8D KS"]
[Upcard "9H"]
Ann take 9H discard QC
"""
GOOD = read_text(GOOD_TEXT)
LINE = format_jsonl(GOOD)
BIG = "9" * 5000
SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "records"

JSON_LINES = {
    "1,000 [": "[" * 1000,
    "nested objects": '{"a":' * 5000 + "1" + "}" * 5000,
    "a 5,000-digit number": '{"rules": "standard", "players": ["Ann", "Bo"], "hands": ' + BIG + "}",
    "a source that is a list": LINE.replace('"source":"discard"', '"source":[]', 1),
    "an unknown key": LINE[:-1] + ', "x": 1}',
    "a lone surrogate escape": LINE.replace('"Ann"', '"\\ud800"', 1),
    "a result with an outcome list": LINE.replace('"events":', '"result":{"outcome":[]},"events":', 1),
    "a huge deadwood": LINE.replace('"events":[', '"events":[{"type":"turn","player":"Ann","source":"stock",'
                                    '"card":null,"knock":{"ending":"knock","melds":[],"deadwood":'
                                    + "9" * 40 + '}},', 1),
    "an unprintable key": LINE[:-1] + ', "a\\u2029b": 1}',
    "a key of 10,000 characters": LINE[:-1] + ', "' + "k" * 10_000 + '": 1}',
}

TEXT_LINES = {
    "deadwood of 5,000 digits": f"Ann draw 8S knock KH [3C 4C 5C] deadwood {BIG}",
    "points of 5,000 digits": f"result knock Ann {BIG}",
    "a layoff onto meld 10**20": "Bo defend 6C>" + "9" * 20,
    "a hand number of 5,000 digits": f'[Hand "{BIG}"]',
    "a 16,000-character token": "Ann draw " + "Q" * 16_000,
    "an unclosed meld of 50,000 cards": "Ann knock [" + "3C " * 50_000,
}


def check_error(item: object) -> RecordError:
    assert isinstance(item, RecordError), item
    assert item.line > 0
    assert len(item.message) <= MAX_MESSAGE and item.message.isprintable(), item.message
    return item


@pytest.mark.parametrize("case", list(JSON_LINES))
def test_a_hostile_json_line_spoils_only_itself(case: str) -> None:
    data = "\n".join([LINE, JSON_LINES[case], LINE]) + "\n"
    items = list(read_records(io.BytesIO(data.encode()), source="h.jsonl"))
    assert len(items) == 3  # every line is reported, once
    assert items[0] == GOOD and items[2] == GOOD
    if isinstance(items[1], GameRecord):  # readable after all: then the referee rules on it
        adjudicate(items[1])
    else:
        assert check_error(items[1]).line == 2


@pytest.mark.parametrize("case", list(TEXT_LINES))
def test_a_hostile_text_line_is_a_record_error(case: str) -> None:
    text = GOOD_TEXT + TEXT_LINES[case] + "\n" + GOOD_TEXT
    items = list(read_records(io.BytesIO(text.encode()), source="h.gin"))
    assert len(items) == 2 and items[1] == GOOD
    check_error(items[0])


def test_many_bad_items_of_a_json_list_each_get_a_place() -> None:
    """Finding where each bad item starts is one pass, not one per item (once 3.7 s for 4,000)."""
    count = 4000
    data = "[\n" + ",\n".join([LINE] + ['{"rules": "standard"}'] * count) + "\n]\n"
    items = list(read_records(io.BytesIO(data.encode()), source="list.json"))
    assert len(items) == count + 1 and items[0] == GOOD
    errors = [check_error(item) for item in items[1:]]
    assert [e.line for e in errors] == list(range(3, count + 3))
    assert all(e.column == 1 for e in errors)


def test_the_json_places_table_stays_bounded() -> None:
    from ginref.records import jsonform

    big = json.loads(LINE)
    big["hands"] = big["hands"] * 300
    list(read_records(io.BytesIO((json.dumps(big) + "\n").encode()), source="big.jsonl"))
    assert len(jsonform._HAND_PLACES) == jsonform._SHARED_HANDS


DEEP = {
    "1,000 [ never closed": "[" * 1000,
    "500 lists inside a key's value": '{"rules": ' + "[" * 500 + "]" * 500 + "}",
    "40 lists, closed": "[" * 40 + "]" * 40,
    "deep events": LINE.replace('"events":[', '"events":[' + "[" * 100 + "]" * 100 + ",", 1),
}


@pytest.mark.parametrize("form", ["jsonl", "json", "kaggle"])
@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_gets_one_answer_whatever_the_recursion_limit(text: str, form: str) -> None:
    """Nesting is refused by a count of its own, so Python's recursion limit (which pytest's
    hypothesis raises, and any library user may) cannot change a record's error."""
    import sys

    def read() -> list[str]:
        return [str(item) for item in read_records(io.StringIO(text + "\n"), source="s", format=form)]

    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1000)
        low = read()
        sys.setrecursionlimit(50_000)
        high = read()
    finally:
        sys.setrecursionlimit(limit)
    assert low == high
    assert len(low) == 1 and "nested more than 32 deep" in low[0]


# -- values no JSON text can carry to the checked path, handed to the library directly ------------

WORKED = json.loads((SAMPLES / "knock-layoffs.json").read_text(encoding="utf-8"))
WORKED_FULL = {**WORKED, "overrides": {"gin_bonus": 25}, "final_totals": {"Ann": 21, "Bo": 0}}
HUGE = 10**5000
"""past Python's limit (4,300 digits) on turning an int into text and back"""
_HUGE_MARK = "\x00huge\x00"

HUGE_INT_PLACES = {
    "a hand's number": ("hands", 0, "number"),
    "a dealt card": ("hands", 0, "deal", "Ann", 0),
    "the upcard": ("hands", 0, "upcard"),
    "an event's type": ("hands", 0, "events", 0, "type"),
    "a turn's source": ("hands", 0, "events", 0, "source"),
    "a turn's card": ("hands", 0, "events", 0, "card"),
    "a player's name in a turn": ("hands", 0, "events", 0, "player"),
    "a knock's ending": ("hands", 0, "events", 2, "knock", "ending"),
    "a knock's deadwood": ("hands", 0, "events", 2, "knock", "deadwood"),
    "a meld's card": ("hands", 0, "events", 2, "knock", "melds", 0, 0),
    "a layoff's meld number": ("hands", 0, "events", 3, "layoffs", 0, "onto"),
    "a defence's deadwood": ("hands", 0, "events", 3, "deadwood"),
    "a result's outcome": ("hands", 0, "result", "outcome"),
    "a result's points": ("hands", 0, "result", "points"),
    "a running total": ("hands", 0, "score_after", "Ann"),
    "a final total": ("final_totals", "Ann"),
    "an override": ("overrides", "gin_bonus"),
    "a free tag": ("tags", "Event"),
    "the rule set": ("rules",),
    "a player": ("players", 0),
}


def _with(path: tuple[str | int, ...], value: object) -> dict[str, object]:
    from tests.support.fuzz import json_replaced

    return json_replaced(WORKED_FULL, path, lambda _old: value)  # type: ignore[return-value]


def test_the_worked_record_reads_with_every_place_the_table_names() -> None:
    from tests.support.fuzz import _at

    for path in HUGE_INT_PLACES.values():
        _at(WORKED_FULL, path)
    assert isinstance(from_json_dict(WORKED_FULL), GameRecord)


@pytest.mark.parametrize("path", HUGE_INT_PLACES.values(), ids=HUGE_INT_PLACES.keys())
def test_a_5000_digit_int_anywhere_is_a_record_error(path: tuple[str | int, ...]) -> None:
    """A dict from a caller may hold an int that has no text; it is still one RecordError."""
    with pytest.raises(JsonRecordError) as caught:
        from_json_dict(_with(path, HUGE))
    assert caught.value.pointer == "/" + "/".join(map(str, path))
    assert len(caught.value.message) <= MAX_MESSAGE and caught.value.message.isprintable()


@pytest.mark.parametrize("path", HUGE_INT_PLACES.values(), ids=HUGE_INT_PLACES.keys())
def test_a_5000_digit_number_in_the_text_is_a_record_error(path: tuple[str | int, ...]) -> None:
    text = json.dumps(_with(path, _HUGE_MARK)).replace(json.dumps(_HUGE_MARK), "9" * 5000)
    line = check_error(decode_json_text(text, source="s.jsonl"))
    assert line.message == "bad JSON: a number with thousands of digits"
    items = list(decode_json_document(f"[{json.dumps(WORKED)},\n{text}]", source="s.json"))
    assert [type(item) for item in items] == [RecordError]
    assert check_error(items[0]).message == line.message


NOT_TEXT_KEYS = {
    "a 5,000-digit int": HUGE, "5": 5, "None": None, "True": True, "a tuple": ("Ann",), "1.5": 1.5,
}
KEYED_PLACES = {
    "a record": (),
    "a hand": ("hands", 0),
    "a turn": ("hands", 0, "events", 0),
    "a knock": ("hands", 0, "events", 2, "knock"),
    "a defence": ("hands", 0, "events", 3),
    "a layoff": ("hands", 0, "events", 3, "layoffs", 0),
    "a result": ("hands", 0, "result"),
    "the deal": ("hands", 0, "deal"),
    "the running totals": ("hands", 0, "score_after"),
    "the final totals": ("final_totals",),
    "the overrides": ("overrides",),
    "the free tags": ("tags",),
}


@pytest.mark.parametrize("key", NOT_TEXT_KEYS.values(), ids=NOT_TEXT_KEYS.keys())
@pytest.mark.parametrize("path", KEYED_PLACES.values(), ids=KEYED_PLACES.keys())
def test_a_key_that_is_not_text_is_a_record_error(path: tuple[str | int, ...], key: object) -> None:
    from tests.support.fuzz import _at

    value = _at(WORKED_FULL, path)
    changed = _with(path, {**value, key: 1}) if path else {**WORKED_FULL, key: 1}  # type: ignore[dict-item]
    with pytest.raises(JsonRecordError) as caught:
        from_json_dict(changed)
    assert caught.value.pointer == "".join(f"/{part}" for part in path)
    assert len(caught.value.message) <= MAX_MESSAGE and caught.value.message.isprintable()
