"""What a reader lets in and hands back: errors that hold no input, records that can be written.

A caller may keep every error a batch yields, so an error carries its message and place,
never the frames (and so the input) of the parse that raised it. And every record ginref
accepts, by any way in, can be written as ``.gin`` and JSON and read back the same: a
Python ``str`` can carry a lone surrogate, which no UTF-8 file can, so one is refused
where it comes in.
"""

from __future__ import annotations

import gc
import io
import json
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.errors import RecordError
from ginref.records import (
    decode_json_text,
    format_jsonl,
    format_text,
    from_json_dict,
    read_records,
    read_text,
    to_json_dict,
)
from ginref.records.kaggle import decode_episode
from tests.records.test_hostile_records import GOOD, GOOD_TEXT

# -- errors hold no input -----------------------------------------------------------------------


def _retained(make: Any) -> tuple[int, Any]:
    """The bytes still allocated once ``make()`` has run, and what it made (kept alive)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before, kept
    finally:
        tracemalloc.stop()


def test_errors_of_a_bad_megabyte_game_string_do_not_keep_it() -> None:
    """The issue's case: OpenSpiel histories read with a 1 MB ``game=`` string that cannot be
    read, every line an error; kept, 60 errors held 60 MB of the parse's frames."""
    game = "gin_rummy(" + "k" * (1 << 20) + "=1)"
    lines = b"[1, 2, 3]\n" * 60

    retained, errors = _retained(lambda: list(read_records(io.BytesIO(lines), format="openspiel", game=game)))
    assert len(errors) == 60 and all(isinstance(e, RecordError) for e in errors)
    assert "bad game parameter" in str(errors[0])
    assert retained < 4 << 20, f"60 errors kept {retained / 1e6:.1f} MB"


@pytest.mark.parametrize("data", [
    pytest.param(b'{"rules": "standard", "players": ["Ann", "Bo"], "hands": 7}\n', id="json-line"),
    pytest.param(GOOD_TEXT.replace("take 9H", "take 9Z").encode(), id="gin-text"),
    pytest.param(b'[{"rules": 1}, {"rules": 2}]', id="json-list"),
    pytest.param(b"history=0:99999\n", id="openspiel"),
])
def test_an_error_a_reader_yields_has_no_traceback_or_chain(data: bytes) -> None:
    errors = [item for item in read_records(io.BytesIO(data)) if isinstance(item, RecordError)]
    assert errors
    for error in errors:
        assert error.__traceback__ is None
        assert error.__context__ is None and error.__cause__ is None


# -- lone surrogates are refused where they come in ----------------------------------------------

SURROGATE_TAG = "club\tnight\udcf8"
"""the issue's tag: a character the .gin form escapes, then a lone surrogate"""


def test_from_json_dict_refuses_a_lone_surrogate_naming_where() -> None:
    data = to_json_dict(GOOD)
    data["tags"] = {"Event": SURROGATE_TAG}
    with pytest.raises(RecordError, match=r"/tags/Event: a lone surrogate \(U\+DCF8\)"):
        from_json_dict(data)


@pytest.mark.parametrize("where", ["players", "rules", "overrides", "deal key", "tag name"])
def test_from_json_dict_refuses_a_lone_surrogate_anywhere(where: str) -> None:
    data: dict[str, Any] = json.loads(format_jsonl(GOOD))
    if where == "players":
        data["players"][1] = "B\ud800o"
    elif where == "rules":
        data["rules"] = "standard\udcff"
    elif where == "overrides":
        data["overrides"] = {"tie_policy": "void\udc80"}
    elif where == "deal key":
        data["hands"][0]["deal"]["Bo\ud800"] = data["hands"][0]["deal"].pop("Bo")
    else:
        data["tags"] = {"Ev\ud800": "x"}
    with pytest.raises(RecordError):
        from_json_dict(data)


@pytest.mark.parametrize("text", [
    pytest.param(GOOD_TEXT.replace('"Ann" "Bo"', '"Ann" "B\udcf8o"'), id="gin-text"),
    pytest.param(format_jsonl(GOOD).replace('"Bo"', '"B\udcf8o"'), id="json-text"),
])
def test_text_holding_a_lone_surrogate_is_refused_with_its_place(text: str) -> None:
    items = list(read_records(io.StringIO(text)))
    assert len(items) == 1 and isinstance(items[0], RecordError)
    assert "lone surrogate (U+DCF8)" in str(items[0]) and items[0].line >= 1 and items[0].column >= 1
    with pytest.raises(RecordError, match="lone surrogate"):
        read_text(text) if text.startswith("[") else _raise(decode_json_text(text))


def _raise(item: object) -> None:
    if isinstance(item, RecordError):
        raise item


def test_a_kaggle_episode_from_a_callers_dict_refuses_a_lone_surrogate() -> None:
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "samples" / "research" / "kaggle-episode.json"
    episode = json.loads(sample.read_text())
    episode["id"] = "ep\ud800"
    with pytest.raises(RecordError, match="lone surrogate"):
        decode_episode(episode)


# -- every record accepted round-trips -----------------------------------------------------------

ANY_TEXT = st.text(st.characters(codec=None, categories=None, exclude_categories=()), min_size=1, max_size=8)
"""any code points, lone surrogates and controls included"""


@settings(max_examples=300, deadline=None)
@given(tags=st.dictionaries(st.sampled_from(["Event", "Site", "Note", "Round"]), ANY_TEXT, max_size=3),
       names=st.tuples(ANY_TEXT, ANY_TEXT),
       rules=st.sampled_from(["standard", "openspiel", "standard\ud800"]),
       setting=st.none() | ANY_TEXT)
def test_any_record_accepted_round_trips_through_gin_and_json(
    tags: dict[str, str], names: tuple[str, str], rules: str, setting: str | None
) -> None:
    text = json.dumps(to_json_dict(GOOD))
    for old, new in zip(("Ann", "Bo"), names, strict=True):
        text = text.replace(json.dumps(old), json.dumps(new))
    data = json.loads(text)
    data["rules"], data["tags"] = rules, tags
    if setting is not None:
        data["overrides"] = {"tie_policy": setting}
    try:
        record = from_json_dict(data)
    except RecordError:
        return
    written = format_text(record)
    written.encode("utf-8")
    assert read_text(written) == record
    line = format_jsonl(record)
    line.encode("utf-8")
    assert decode_json_text(line) == record
