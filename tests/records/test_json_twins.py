"""The JSON reader's fast path (msgspec into wire Structs) against the checked path beside it.

``jsonform._fast_records`` either gives the records the checked path (``json.loads`` and
``_json_record``) gives, place for place, or gives up and leaves the text to the checked
path. These tests hold it to that on the samples, on generated and corrupted games, on
seeded mutations of the text and on wrong values put at every position of the tree, for
JSON Lines lines and whole ``.json`` documents alike. The writer's fast path,
``jsonwrite.json_line`` (msgspec), is held to ``json.dumps`` the same way.
"""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.errors import RecordError
from ginref.jsonwrite import json_line
from ginref.records import GameRecord, format_jsonl
from ginref.records import jsonform as form
from ginref.rules import PRESET_NAMES, find_rules
from tests.support import fuzz
from tests.support.randomplay import corrupt, random_game, random_hand


def checked(text: str) -> GameRecord | RecordError:
    try:
        return form._checked(form.load_json(text, "twins", 3), "twins", 5, 3)
    except RecordError as exc:
        return exc


def agree(text: str) -> bool:
    """True when the fast path took ``text``; fails the test if it took it wrongly."""
    records = form._fast_records(form._WIRE_DECODER, text, "twins", 5, 3)
    if records is None:
        return False
    [fast] = records
    slow = checked(text)
    assert isinstance(slow, GameRecord), (text[:300], slow)
    assert fast == slow
    assert repr(fast) == repr(slow)  # places, source and index too
    assert (fast.source, fast.index, fast.place) == (slow.source, slow.index, slow.place)
    return True


def sample_lines() -> list[str]:
    lines = list(fuzz._jsonl_lines())
    lines += [json.dumps(doc, ensure_ascii=False) for doc in fuzz.json_documents()]
    return lines


def generated_lines(seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i, name in enumerate(PRESET_NAMES):
        rules = find_rules(name)
        out.append(format_jsonl(random_hand(seed * 100 + i, rules)))
        out.append(format_jsonl(random_game(seed * 100 + i, rules, max_hands=3)))
        with contextlib.suppress(ValueError):  # no corruption applies to this hand
            out.append(format_jsonl(corrupt(random_hand(seed * 100 + 50 + i, rules), rng, rules)[0]))
    return out


def test_every_sample_record_takes_the_fast_path_and_agrees() -> None:
    lines = sample_lines()
    taken = [agree(line) for line in lines]
    plain = [line for line, took in zip(lines, taken, strict=True)
             if not took and isinstance(checked(line), GameRecord)]
    assert len(lines) > 50
    assert all(form._LONE_SURROGATE_RE.search(line) for line in plain), plain[:1]


@pytest.mark.parametrize("seed", range(6))
def test_generated_and_corrupted_games_agree(seed: int) -> None:
    lines = generated_lines(seed)
    assert sum(agree(line) for line in lines) == len(lines)


@pytest.mark.parametrize("seed", range(8))
def test_mutated_text_agrees(seed: int) -> None:
    rng = random.Random(seed)
    donors = sample_lines()
    taken = 0
    for _ in range(400):
        text = rng.choice(donors)
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = rng.choice(fuzz.MUTATORS)(rng, text, donors)
        taken += agree(text)
    assert taken > 20  # some mutations leave a record that still reads


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_wrong_value_anywhere_agrees(data: st.DataObject) -> None:
    doc = data.draw(st.sampled_from(fuzz.json_documents()))
    paths = fuzz.json_paths(doc)
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.sampled_from(fuzz.WRONG_VALUES))
    text = json.dumps(fuzz.json_replaced(doc, path, lambda _old: value), ensure_ascii=False)
    agree(text)


_HEAD = '{"rules":"standard","players":["A","B"],"hands":[{"dealer":"A",'


@pytest.mark.parametrize(("text", "fast"), [
    ('{"rules":"standard","players":["A","B"],"hands":[],"rules":"hoyle"}', False),  # no hands
    (_HEAD + '"deal":{},"events":[],"events":[{"type":"pass","player":"B"}]}]}', True),  # the last wins
    (_HEAD + '"deal":{"A":[],"A":["3C"]},"events":[{"player":"B","type":"pass"}]}]}', True),
    (_HEAD + '"deal":{},"events":[{"type":"turn","player":"B","source":"none","discard":"3C"}]}]}', True),
    (_HEAD + '"deal":{},"events":[{"type":"turn","player":"B","source":"none","card":"3C",'
     '"discard":"3C"}]}]}', False),  # no draw, yet a card drawn
    (" " + _HEAD + '"deal":{},"events":[]}]} \n', True),
    (_HEAD + '"deal":{},"events":[{"type":"pass","player":"B","player":"A"}]}]}', True),
    (_HEAD + '"deal":{},"events":[{"type":"pass","type":"turn","player":"B","source":"stock"}]}]}', False),
])
def test_duplicate_keys_and_odd_shapes_agree(text: str, fast: bool) -> None:
    assert agree(text) is fast
    assert isinstance(checked(text), GameRecord) or not fast


def agree_document(text: str) -> bool:
    """True when the fast path took the whole ``.json`` document; fails the test if it took it
    wrongly. The checked path's records are one a list item, numbered from 0."""
    records = form._fast_records(form._DOCUMENT_DECODER, text, "twins", 0, 3)
    if records is None:
        return False
    data = form.load_json(text, "twins", 3, document=True)
    items = data if type(data) is list else [data]
    slow = [form._checked(item, "twins", i, 3) for i, item in enumerate(items)]
    assert records == slow
    assert repr(records) == repr(slow)
    assert [(r.index, r.place) for r in records] == [(r.index, r.place) for r in slow]
    return True


def test_every_sample_document_takes_the_fast_path_and_agrees() -> None:
    paths = sorted((fuzz.SAMPLES / "records").rglob("*.json"))  # samples/research holds a Kaggle episode
    documents = [path.read_text(encoding="utf-8") for path in paths]
    documents.append(json.dumps(list(fuzz.json_documents()), indent=1))
    documents.append("[]")
    assert len(documents) > 20
    assert all(agree_document(text) for text in documents if not form._LONE_SURROGATE_RE.search(text))


@pytest.mark.parametrize("seed", range(4))
def test_mutated_documents_agree(seed: int) -> None:
    rng = random.Random(seed)
    taken = sum(agree_document(fuzz._gen_json(rng).decode("utf-8", "replace").lstrip("\ufeff"))
                for _ in range(200))
    assert taken > 10


def test_from_json_dict_checks_a_tuple_of_events_like_any_other_value() -> None:
    """The fast path hands its events on in a private type; a caller's tuple is not one."""
    data = {"rules": "standard", "players": ["A", "B"],
            "hands": [{"dealer": "A", "deal": {}, "events": ({"type": "pass", "player": "B"},)}]}
    with pytest.raises(RecordError, match="expected a list of events, got tuple"):
        form.from_json_dict(data)


# -- the writer ---------------------------------------------------------------------------


ANY_TEXT = st.text(st.characters(codec=None, categories=None, exclude_categories=()), max_size=12)
"""any code points, lone surrogates and controls included"""
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        ANY_TEXT | st.integers() | st.booleans() | st.none(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(ANY_TEXT, JSON_VALUES, max_size=6))
def test_a_json_line_is_what_json_dumps_writes(document: dict[str, object]) -> None:
    assert json_line(document) == json.dumps(document, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("text", [
    "plain", "caf\u00e9 \u2665", "\x00\x1f\x7f\u2028\u2029\ufeff\"\\/", "\ud800 alone", "\U0001f0a1",
])
def test_a_json_line_keeps_every_character_as_json_dumps_does(text: str) -> None:
    document = {"source": text, "findings": [{"message": text}], "totals": {text: 2**70}}
    assert json_line(document) == json.dumps(document, ensure_ascii=False, separators=(",", ":"))
