"""Every parse entry point answers ANY input with a result or a GinrefError, and round-trips what it accepts.

A seeded slice runs here (counts in ``FAST_COUNTS``, about half a minute of CPU in all); ``pytest -m slow``
runs ``GINREF_FUZZ_COUNT`` inputs per entry point (default 1,000,000) and ``tools/fuzz.py`` runs
big counts in parallel. The harness and the inputs are in ``tests/support/fuzz.py``.
"""

from __future__ import annotations

import functools
import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginref.errors import NotationError
from tests.support import fuzz

FAST_SEED = 0
FAST_COUNTS = {
    "hand": 10_000,
    "cards": 10_000,
    "card": 10_000,
    "melds": 10_000,
    "library": 750,
    "override": 10_000,
    "rules_file": 1_500,
    "sheet": 750,
    "table": 750,
    "records_gin": 1_500,
    "records_json": 3_000,
    "records_jsonl": 1_000,
    "records_sniffed": 1_250,
    "records_compressed": 200,
    "records_openspiel": 750,
    "records_kaggle": 500,
    "records_eaai": 150,
    "records_rlcard": 300,
}
"""Inputs per entry point in the CI slice: 10,000 where an input costs about 0.25 ms, fewer where the
entry point (or its round trips and the referee) costs more, so the whole file stays near half a minute."""

TEXT_ENTRIES = [name for name, entry in fuzz.ENTRY_POINTS.items() if not entry.binary]
BINARY_ENTRIES = [name for name, entry in fuzz.ENTRY_POINTS.items() if entry.binary]
JSON_ENTRIES = ["records_json", "records_jsonl", "records_sniffed"]


def _escapes_report(tally: fuzz.Tally, limit: int = 8) -> str:
    counts = dict(tally.escape_counts)
    shown = [f"[{counts[e.signature]}x] {e.describe(fuzz.shrink(fuzz.ENTRY_POINTS[e.entry], e, budget=300))}"
             for e in tally.escapes[:limit]]
    more = len(tally.escapes) - limit
    return "\n".join(shown + ([f"... and {more} more kinds"] if more > 0 else []))


def _messages_report(tally: fuzz.Tally) -> str:
    return "\n".join(bad.describe() for bad in tally.bad_messages)


def _fail_on_escapes(tally: fuzz.Tally) -> None:
    if tally.escapes:
        report = _escapes_report(tally)
        pytest.fail(f"{tally.escaped} of {tally.tried} inputs escaped:\n{report}", pytrace=False)


@functools.cache
def _fast_tally(name: str) -> fuzz.Tally:
    """One seeded run per entry point, shared by the escape and the message tests."""
    return fuzz.run(fuzz.ENTRY_POINTS[name], FAST_SEED, 0, FAST_COUNTS[name])


# -- the seeded slice -----------------------------------------------------------------------


def test_every_entry_point_has_a_count() -> None:
    assert set(FAST_COUNTS) == set(fuzz.ENTRY_POINTS)


@pytest.mark.parametrize("name", list(fuzz.ENTRY_POINTS))
def test_seeded_inputs_never_escape(name: str) -> None:
    tally = _fast_tally(name)
    assert tally.tried == FAST_COUNTS[name]
    assert tally.accepted and tally.rejected, "the inputs should reach both answers"
    _fail_on_escapes(tally)


@pytest.mark.parametrize("name", list(fuzz.ENTRY_POINTS))
def test_seeded_errors_are_one_short_printable_line(name: str) -> None:
    tally = _fast_tally(name)
    if tally.bad_messages:
        pytest.fail(f"{tally.bad_message_count} of {tally.tried} inputs got a bad message, such as:\n"
                    f"{_messages_report(tally)}", pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(fuzz.ENTRY_POINTS))
def test_many_inputs_never_escape(name: str) -> None:
    count = int(os.environ.get("GINREF_FUZZ_COUNT", "1000000"))
    seed = int(os.environ.get("GINREF_FUZZ_SEED", "1"))
    _fail_on_escapes(fuzz.run(fuzz.ENTRY_POINTS[name], seed, 0, count))


# -- escapes found by the fuzzer, each the smallest input that showed it -------------------

FOUND = [
    pytest.param("override", "gin_bonus=" + "9" * 5000, id="override-5000-digit-value"),
    pytest.param("rules_file", b"gin_bonus = " + b"9" * 5000, id="toml-5000-digit-integer"),
    pytest.param("rules_file", b"base = " + b"[" * 1000, id="toml-deep-array"),
    pytest.param("sheet", "players: a b\na gin " + "9" * 5000, id="sheet-5000-digit-count"),
    pytest.param("sheet", "players: a b\n" + "\n" * 200_000 + "a gin 3\n", id="sheet-200000-blank-lines"),
    pytest.param("records_gin", b'[Upcard "9H"]\nBo defend [JC JD JH] 9C>2' + b"9" * 5000 + b"\n",
                 id="gin-5000-digit-layoff-meld"),
    pytest.param("records_gin", b'[Rules "standard"]\n[Players "a" "o"]\n[Dealer "a"]\n'
                 b"o defend 6C>9999999999999999\n", id="gin-layoff-meld-json-cannot-read"),
]


@pytest.mark.parametrize(("name", "data"), FOUND)
def test_found_escape_is_answered(name: str, data: str | bytes) -> None:
    result = fuzz.replay(fuzz.ENTRY_POINTS[name], data)
    if isinstance(result, BaseException):
        pytest.fail(f"{type(result).__name__}: {result}", pytrace=False)


# -- properties over arbitrary inputs --------------------------------------------------------

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
FUZZ_SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=_HEALTH)
JSON_SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=_HEALTH)


def _answered(name: str, data: str | bytes) -> None:
    result = fuzz.replay(fuzz.ENTRY_POINTS[name], data)
    if isinstance(result, BaseException):
        raise AssertionError(f"{name} escaped with {type(result).__name__}: {result}") from result


@pytest.mark.parametrize("name", TEXT_ENTRIES)
@FUZZ_SETTINGS
@given(text=st.text())
def test_any_text_is_answered(name: str, text: str) -> None:
    _answered(name, text)


@pytest.mark.parametrize("name", BINARY_ENTRIES)
@FUZZ_SETTINGS
@given(data=st.binary())
def test_any_bytes_are_answered(name: str, data: bytes) -> None:
    _answered(name, data)


def _schema_keys() -> list[str]:
    schema = json.loads((fuzz.ROOT / "ginref" / "record.schema.json").read_text(encoding="utf-8"))
    keys: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys.update(node.get("properties", {}) if isinstance(node.get("properties"), dict) else ())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(keys)


_CARDS = st.sampled_from(["3C", "TC", "10h", "AS", "KD", "9H", "QS", "1C", "JK", "3c", ""])
_WORDS = st.sampled_from(["Ann", "Bo", "standard", "stock", "discard", "knock", "gin", "turn", "defence"])
_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | _CARDS | _WORDS
JSON_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(_schema_keys()) | st.text(max_size=4), inner, max_size=6),
    max_leaves=30,
)


@pytest.mark.parametrize("name", JSON_ENTRIES)
@JSON_SETTINGS
@given(doc=st.dictionaries(st.sampled_from(_schema_keys()), JSON_VALUES, max_size=8))
def test_schema_shaped_documents_are_answered(name: str, doc: dict[str, Any]) -> None:
    _answered(name, json.dumps(doc).encode())


def _replace_with(value: object, node: object) -> object:
    return value


@st.composite
def mutated_samples(draw: st.DrawFn) -> bytes:
    """A sample record with a few of its values swapped for wrong types, found by path index."""
    doc: Any = draw(st.sampled_from(fuzz.json_documents()))
    for _ in range(draw(st.integers(1, 3))):
        paths = fuzz.json_paths(doc)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        value: object = draw(JSON_VALUES | st.sampled_from(fuzz.WRONG_VALUES))
        doc = fuzz.json_replaced(doc, path, functools.partial(_replace_with, value))
    return fuzz.json_text(doc).encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("name", JSON_ENTRIES)
@JSON_SETTINGS
@given(data=mutated_samples())
def test_sample_records_with_wrong_types_are_answered(name: str, data: bytes) -> None:
    _answered(name, data)


@FUZZ_SETTINGS
@given(rng=st.randoms(use_true_random=False), cards=st.lists(st.integers(0, 51), unique=True, max_size=52),
       separator=st.sampled_from([" ", ", ", ",", "\t", "\u3000", " \n "]))
def test_spelled_cards_read_as_themselves(rng: random.Random, cards: list[int], separator: str) -> None:
    text = separator.join(fuzz.spelled(rng, card) for card in cards)
    assert fuzz.api("parse_cards")(text) == cards


# -- the harness itself ----------------------------------------------------------------------


def _fake(check: Any, binary: bool = False) -> fuzz.EntryPoint:
    return fuzz.EntryPoint("fake", check, lambda: ("3C 4C 5C 9999999999",), binary=binary)


def _raises_on_nines(data: str) -> fuzz.Seen:
    if "9999999999" in data:
        raise ValueError("too many nines")
    return fuzz.Seen(True)


def test_a_value_error_is_an_escape() -> None:
    tally = fuzz.run(_fake(_raises_on_nines), 0, 0, 200)
    assert tally.escaped and {e.kind for e in tally.escapes} == {"ValueError"}
    assert tally.escaped + tally.accepted + tally.rejected == tally.tried == 200


def test_a_ginref_error_is_a_rejection() -> None:
    tally = fuzz.run(_fake(lambda data: fuzz.Seen(False, (NotationError("unknown card 'x'"),))), 0, 0, 50)
    assert (tally.rejected, tally.escaped, tally.bad_message_count) == (50, 0, 0)


def _spins(data: str) -> fuzz.Seen:
    while True:
        pass


def test_a_runaway_input_is_stopped_as_a_hang() -> None:
    tally = fuzz.run(_fake(_spins), 0, 0, 1, timeout=0.05)
    assert [e.kind for e in tally.escapes] == ["Hang"]


def test_shrink_keeps_only_what_escapes() -> None:
    entry = _fake(_raises_on_nines)
    escape = fuzz.run(entry, 0, 0, 50).escapes[0]
    assert len(escape.data) > 10
    assert fuzz.shrink(entry, escape) == "9999999999"


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ("unknown card '4X' at column 4", None),
        ("game.gin:4:7: unknown card 'QZ'", None),
        ("", "empty"),
        ("unknown card 'x'\nat column 3", "holds unprintable '\\n'"),
        ("unknown card '\ud800'", "holds unprintable '\\ud800'"),
        ("bad value " + "9" * 300, f"longer than {fuzz.MAX_MESSAGE} characters"),
        ("unknown card '" + "\\ufeff" * 80 + "'", None),
    ],
)
def test_message_rule(message: str, problem: str | None) -> None:
    assert fuzz.message_problem(NotationError(message)) == problem


@pytest.mark.parametrize("name", list(fuzz.ENTRY_POINTS))
def test_inputs_are_made_again_from_seed_and_index(name: str) -> None:
    entry = fuzz.ENTRY_POINTS[name]
    first = [fuzz.make_input(entry, 7, i) for i in range(50)]
    assert first == [fuzz.make_input(entry, 7, i) for i in range(50)]
    assert all(isinstance(data, bytes if entry.binary else str) for data in first)
    assert len(set(first)) > 40


@pytest.mark.parametrize("mutator", fuzz.MUTATORS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("sample", ["3C 4C 5C\n9D 9H", b"[Hand \"1\"]\nAnn draw 3C\n", "", b""])
def test_mutators_keep_the_type(mutator: fuzz.Mutator[Any], sample: str | bytes) -> None:
    rng = random.Random(3)
    for _ in range(30):
        assert type(mutator(rng, sample, [sample, sample[:3]])) is type(sample)


@pytest.mark.parametrize("name", sorted(fuzz.HOMES))
def test_every_public_name_is_found(name: str) -> None:
    assert fuzz.api(name) is not None


def test_replay_answers_as_a_run_does() -> None:
    assert fuzz.replay(fuzz.ENTRY_POINTS["override"], "gin_bonus=25") == fuzz.Seen(True)
    rejected = fuzz.replay(fuzz.ENTRY_POINTS["override"], "gin_bonus=x")
    assert isinstance(rejected, fuzz.Seen) and not rejected.accepted and rejected.errors
