"""Fuzzing every parse entry point: the property each must keep, the inputs, the harness.

The property: for ANY input an entry point returns a result or raises a
``GinrefError``; any other exception (ValueError, RecursionError, UnicodeError,
...) or a hang is an *escape*. Whatever is accepted must also format and read
back equal, and every accepted record must go through the referee without it
raising at all. ``tests/properties/test_fuzz.py`` runs a seeded slice of this in CI;
``tools/fuzz.py`` runs large counts in parallel.

Input ``index`` of a run with ``seed`` is made from
``random.Random(f"{seed}:{entry}:{index}")`` alone, so any input can be made
again from those three values and a run can be split across workers freely.
The inputs are real samples mutated (bytes, tokens, lines, splices, hostile
tokens), structured documents built from the record schema with wrong types
swapped in, and plain junk.
"""

from __future__ import annotations

import bz2
import contextlib
import dataclasses
import functools
import gzip
import importlib
import io
import itertools
import json
import lzma
import os
import random
import re
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import msgspec

from ginref.errors import GinrefError, RecordError
from ginref.records.model import compared_fields
from ginref.render.records import result_json_line

__all__ = [
    "ENTRY_POINTS",
    "HOMES",
    "MAX_MESSAGE",
    "MUTATORS",
    "WRONG_VALUES",
    "BadMessage",
    "EntryPoint",
    "Escape",
    "Hang",
    "PropertyFailure",
    "Seen",
    "Tally",
    "api",
    "hang_guard",
    "json_documents",
    "json_paths",
    "json_replaced",
    "json_text",
    "make_input",
    "message_problem",
    "replay",
    "run",
    "run_one",
    "shrink",
    "spelled",
]

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
Data = TypeVar("Data", str, bytes)

# == where each public name lives: newest home first (modules are being moved) ==============

_RECORDS = ("ginref.records", "ginref.records.io", "ginref.record")
_RECORD_TEXT = ("ginref.records", "ginref.records.text", "ginref.record")
_RECORD_JSON = ("ginref.records", "ginref.records.jsonform", "ginref.record")
HOMES: dict[str, tuple[str, ...]] = {
    "parse_card": ("ginref.notation",),
    "parse_cards": ("ginref.notation",),
    "parse_hand": ("ginref.notation",),
    "parse_melds": ("ginref.notation",),
    "format_cards": ("ginref.notation",),
    "format_melds": ("ginref.notation",),
    "STANDARD": ("ginref.rules",),
    "PRESETS": ("ginref.rules",),
    "KNOB_NAMES": ("ginref.rules",),
    "find_rules": ("ginref.rules",),
    "parse_override": ("ginref.rules",),
    "with_overrides": ("ginref.rules",),
    "load_rules_file": ("ginref.rules",),
    "read_sheet": ("ginref.sheets", "ginref.game"),
    "read_records": _RECORDS,
    "write_records": _RECORDS,
    "GameRecord": ("ginref.records", "ginref.records.model", "ginref.record"),
    "format_text": _RECORD_TEXT,
    "format_jsonl": _RECORD_JSON,
    "to_json_dict": _RECORD_JSON,
    "from_json_dict": _RECORD_JSON,
    "adjudicate": ("ginref.referee", "ginref.referee.verdict", "ginref.adjudicate"),
    "check_record": ("ginref.batch.results",),
    "hand_mask": ("ginref.notation",),
    "min_deadwood": ("ginref.melds",),
    "min_deadwood_after_discard": ("ginref.melds",),
    "best_arrangement": ("ginref.melds",),
    "best_discard": ("ginref.melds",),
    "analyze": ("ginref.analysis",),
}


def _missing(exc: ModuleNotFoundError, module: str) -> bool:
    """True when ``module`` itself (or a parent package) does not exist, not something it imports."""
    return exc.name is not None and (module == exc.name or module.startswith(exc.name + "."))


@functools.cache
def api(name: str) -> Any:
    """The public object ``name`` from the first of its homes that has it."""
    for module_name in HOMES[name]:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if _missing(exc, module_name):
                continue
            raise
        if hasattr(module, name):
            return getattr(module, name)
    raise LookupError(f"{name} is in none of {', '.join(HOMES[name])}")


# == the samples everything starts from ======================================================


@functools.cache
def _texts(pattern: str) -> tuple[str, ...]:
    return tuple(p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob(pattern)))


def _without_comment(line: str) -> str:
    return line.split("#", 1)[0].strip()


@functools.cache
def _hand_lines() -> tuple[str, ...]:
    lines = [_without_comment(line) for text in _texts("hands.txt") for line in text.splitlines()]
    deals = re.findall(r'\[Deal "[^"]*" "([^"]*)"\]', "".join(_texts("records/*.gin")))
    return tuple(line for line in lines + deals if line)


@functools.cache
def _card_words() -> tuple[str, ...]:
    words = {word for line in _hand_lines() for word in line.split()}
    return tuple(sorted(words | {"10h", "♥T", "\U0001f0b1", "\U0001f0a1\ufe0f", "1C", "JK", "\U0001f0ac"}))


@functools.cache
def _meld_lines() -> tuple[str, ...]:
    found = re.findall(r"(?:\[[^\[\]\"]*\]\s*)+", "".join(_texts("records/*.gin")))
    return tuple(sorted({m.strip() for m in found if not m.startswith("[Deal")}))


@functools.cache
def _override_lines() -> tuple[str, ...]:
    tags = re.findall(r'\[Set "([^"]*)"\]', "".join(_texts("records/*.gin")))
    values = [f"{knob}={_text(value)}" for knob, value in _preset_values()]
    return tuple(sorted(set(tags + values)))


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@functools.cache
def _preset_values() -> tuple[tuple[str, object], ...]:
    """Every (knob, value) some preset uses, in the ``to_dict`` spelling."""
    pairs = {
        (knob, value)
        for rules in api("PRESETS").values()
        for knob, value in rules.to_dict().items()
        if knob in api("KNOB_NAMES")
    }
    return tuple(sorted(pairs, key=repr))


@functools.cache
def _rules_files() -> tuple[bytes, ...]:
    out = []
    for name, rules in sorted(api("PRESETS").items()):
        knobs = "".join(f"{k} = {_toml(v)}\n" for k, v in list(rules.to_dict()["overrides"].items())[:3])
        out.append(f'base = "{name}"\n{knobs}'.encode())
        out.append(f'# {name}\n[rules]\nbase = "{name}"\ngin_bonus = 25\n{knobs}'.encode())
    return tuple(out)


def _toml(value: object) -> str:
    return _text(value) if isinstance(value, (bool, int)) else json.dumps(value)


@functools.cache
def _sheets() -> tuple[str, ...]:
    return _texts("sheets/*")


@functools.cache
def _gin_records() -> tuple[bytes, ...]:
    """Each .gin sample, and runs of two and three of them as the writer separates records."""
    texts = _texts("records/*.gin")
    runs = ["\n".join(texts[i : i + n]) for n in (2, 3) for i in range(0, len(texts), 4)]
    return tuple(text.encode() for text in (*texts, *runs))


@functools.cache
def _jsonl_lines() -> tuple[str, ...]:
    lines = [line for text in _texts("records/all.jsonl") for line in text.splitlines() if line.strip()]
    with (SAMPLES / "records/openspiel/games.jsonl").open(encoding="utf-8") as handle:
        lines += [handle.readline().rstrip("\n") for _ in range(4)]
    return tuple(lines)


@functools.cache
def json_documents() -> tuple[object, ...]:
    """The sample records as JSON values, to be mutated as trees."""
    docs = [json.loads(text) for text in _texts("records/*.json")]
    return tuple(docs + [json.loads(line) for line in _jsonl_lines()])


@functools.cache
def _json_records() -> tuple[bytes, ...]:
    """Each .json sample, and lists of two of them."""
    texts = _texts("records/*.json")
    lists = [f"[{a.strip()},\n{b.strip()}]\n" for a, b in zip(texts[::4], texts[1::4], strict=False)]
    return tuple(text.encode() for text in (*texts, *lists))


@functools.cache
def _jsonl_records() -> tuple[bytes, ...]:
    lines = _jsonl_lines()
    return tuple("\n".join(lines[i : i + n]).encode() + b"\n" for n in (1, 3) for i in range(len(lines)))


@functools.cache
def _all_records() -> tuple[bytes, ...]:
    return _gin_records() + _json_records() + _jsonl_records()


# == hostile pieces ===========================================================================

_DEEP = 1_000
HOSTILE = (
    "[" * _DEEP, "]" * _DEEP, '{"a":' * _DEEP, "[{" * 500, "9" * 5000, "-" + "9" * 5000, "0" * 5000 + "7",
    "\x00", '"\\ud800"', '"\\udc00\\ud800"', "\ud800", "\udfff", "\ufeff", "\u2028", "\u2029", "\x85",
    "\r\n", "\r", "\n\n", "\t", "\x0c", "\x1c", " " * 300, "#", "[]", "[[]]", "]", '"', "'", "\\", "=",
    "-1", "-0", "+5", "1e999", "1.5", "NaN", "Infinity", "-Infinity", "null", "true", "[]", "{}",
    # digits int() refuses or reads (superscript 2, circled 1, Arabic-Indic 3, bold 9), fullwidth "10H",
    # roman ten, Cyrillic C S H A O, dental click, curly quotes, zero-width space, no-break space, VS16
    "\u00b2", "\u2460", "\u0663", "\U0001d7d7", "\uff11\uff10\uff28", "\u2169", "\u0421", "\u0405",
    "\u041d", "\u0410", "\u041e", "\u01c0", "\u2019", "\u201c", "\u200b", "\u00a0", "\ufe0f",
    "\U0001f0bf", "\U0001f0ac", "JK", "1C", "10", "knock", "gin", "big_gin", "void", "defend", "draw",
    "take", "discard", "stock", "result", "score", "final", "next_dealer", "deadwood", "spade", "upcard",
    '[Rules "', '[Players "a" "a"]', '[Hand "1"]', '[Dealer "', "[Set \"gin_bonus=", "players:", "rules:",
    "dealer:", "base = ", "[rules]", "[[rules]]", "[rules.x]", "a.b = 1", "\"\"\"", "'''",
)
HOSTILE_BYTES = (b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\x80", b"\xc0\x80", b"\xed\xa0\x80",
                 b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x00" * 8)
HUGE = ("x" * 200_000, "3C " * 70_000, "[" * 200_000, "9" * 1_000_000, "\n" * 200_000, "a" * 1_000_000)
MAX_INPUT = 1 << 22
"""Inputs are cut to 4 M characters: duplications can grow one without bound, and a bigger input
only finds that linear work takes long."""
HUGE_RATE = 0.0003
"""Share of inputs that get a 200 KB .. 1 MB piece: enough to find what breaks on size."""
_NUMBERS = ("9" * 5000, "0" * 5000 + "1", "-1", "-0", "1e999", "NaN", "\u00b2", "\u0663", "\U0001d7d7",
            "99999999999999999999", "1.5", "", "0x1F", "1_000", "+3", "4294967296", "-9223372036854775809")
_CONFUSABLES = {  # each a look-alike: Cyrillic letters, roman numeral D, fullwidth forms, curly quotes
    "C": "\u0421", "S": "\u0405", "H": "\u041d", "A": "\u0410", "K": "\u041a", "T": "\u0422", "J": "\u0408",
    "0": "\u041e", "1": "l", "D": "\u216e", "Q": "\uff31", "a": "\u0430", "o": "\u043e", "e": "\u0435",
    '"': "\u201c", "'": "\u2019", "-": "\u2010", " ": "\u00a0", "[": "\uff3b", "]": "\uff3d", ":": "\uff1a",
    "=": "\uff1d", ",": "\uff0c", "#": "\uff03", "{": "\uff5b",
}
_ALPHABET = "3C4D5H6STJQKA210 ,[]\"#:=\n\r\t{}♣♦♥♠♧\ufe0f\U0001f0a1\x00\ud800é"


def _as(text: str, like: Data) -> Data:
    """``text`` in the type of ``like``; lone surrogates become the bytes a sloppy encoder writes."""
    if isinstance(like, bytes):
        return text.encode("utf-8", "surrogatepass")
    return text


def _raw_as(raw: bytes, like: Data) -> Data:
    """Bytes in the type of ``like``; as text, bytes that are not UTF-8 become lone surrogates."""
    if isinstance(like, bytes):
        return raw
    return raw.decode("utf-8", "surrogateescape")


def _hostile(rng: random.Random, like: Data) -> Data:
    if rng.random() < 0.15:
        return _raw_as(rng.choice(HOSTILE_BYTES), like)
    return _as(rng.choice(HOSTILE), like)


# == mutators: each takes (rng, data, donors) and returns new data of the same type ===========


def _span(rng: random.Random, n: int) -> tuple[int, int]:
    start = rng.randrange(n + 1)
    length = rng.choice((1, 1, 2, 3, 8, 64, rng.randrange(n + 1)))
    return start, min(n, start + length)


def _unit(rng: random.Random, like: Data) -> Data:
    if isinstance(like, bytes):
        return bytes([rng.randrange(256)])
    if rng.random() < 0.8:
        return rng.choice(_ALPHABET)
    return chr(rng.randrange(0x110000))


def _flip(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    if not data:
        return _unit(rng, data)
    i = rng.randrange(len(data))
    if isinstance(data, bytes):
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    flipped = chr(min(ord(data[i]) ^ (1 << rng.randrange(21)), 0x10FFFF))
    return data[:i] + flipped + data[i + 1 :]


def _insert_unit(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    i = rng.randrange(len(data) + 1)
    return data[:i] + _unit(rng, data) + data[i:]


def _delete_span(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    start, end = _span(rng, len(data))
    return data[:start] + data[end:]


def _duplicate_span(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    start, end = _span(rng, len(data))
    return data[:end] + data[start:end] * rng.choice((1, 1, 2, 10)) + data[end:]


def _swap_spans(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    a, b, c, d = sorted((*_span(rng, len(data)), *_span(rng, len(data))))
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:]


def _splice(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    other = rng.choice(donors)
    return data[: rng.randrange(len(data) + 1)] + other[rng.randrange(len(other) + 1) :]


def _insert_hostile(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    i = rng.randrange(len(data) + 1)
    return data[:i] + _hostile(rng, data) + data[i:]


def _pieces(data: Data, lines: bool) -> list[Data]:
    if lines:
        return data.splitlines(keepends=True)
    pattern = rb"(\s+)" if isinstance(data, bytes) else r"(\s+)"
    return re.split(pattern, data)


def _edit_pieces(rng: random.Random, data: Data, donors: Sequence[Data], lines: bool) -> Data:
    """Delete, duplicate, swap or replace whole tokens (or lines)."""
    pieces = _pieces(data, lines)
    if not pieces:
        return data
    i, j = rng.randrange(len(pieces)), rng.randrange(len(pieces))
    op = rng.randrange(4)
    if op == 0:
        del pieces[i]
    elif op == 1:
        pieces.insert(i, pieces[j] * rng.choice((1, 1, 2, 100)))
    elif op == 2:
        pieces[i], pieces[j] = pieces[j], pieces[i]
    else:
        pieces[i] = rng.choice(_pieces(rng.choice(donors), lines) or [pieces[j]])
    return data[:0].join(pieces)


def _edit_tokens(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    return _edit_pieces(rng, data, donors, lines=False)


def _edit_lines(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    return _edit_pieces(rng, data, donors, lines=True)


def _number(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    """A run of digits replaced by a hostile number (huge, negative, not ASCII, not a number)."""
    pattern = rb"[0-9]+" if isinstance(data, bytes) else r"[0-9]+"
    found = list(re.finditer(pattern, data))
    if not found:
        return _insert_hostile(rng, data, donors)
    match = rng.choice(found)
    return data[: match.start()] + _as(rng.choice(_NUMBERS), data) + data[match.end() :]


def _confusable(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    """A character replaced by one that looks the same (Cyrillic C, fullwidth bracket, ...)."""
    text = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
    spots = [i for i, c in enumerate(text) if c in _CONFUSABLES]
    if not spots:
        return _flip(rng, data, donors)
    i = rng.choice(spots)
    changed = text[:i] + _CONFUSABLES[text[i]] + text[i + 1 :]
    return _raw_as(changed.encode("utf-8", "surrogateescape"), data) if isinstance(data, bytes) else changed


_LINE_ENDS = ("\r\n", "\r", "\u2028", "\u2029", "\x85", "\n\n", "\x00\n", "\x0b")


def _line_ends(rng: random.Random, data: Data, donors: Sequence[Data]) -> Data:
    """Every line end changed (CRLF, CR, U+2028 ...), or a byte order mark put first."""
    if rng.random() < 0.3:
        return _as("\ufeff", data) + data
    return data.replace(_as("\n", data), _as(rng.choice(_LINE_ENDS), data))


Mutator = Callable[[random.Random, Data, Sequence[Data]], Data]
MUTATORS: tuple[Mutator[Any], ...] = (
    _flip, _flip, _insert_unit, _delete_span, _delete_span, _duplicate_span, _swap_spans, _splice,
    _insert_hostile, _insert_hostile, _edit_tokens, _edit_tokens, _edit_lines, _edit_lines, _number,
    _number, _confusable, _line_ends,
)


def _junk(rng: random.Random, binary: bool) -> str | bytes:
    size = rng.choice((0, 1, 2, 3, 5, 10, 40, 200))
    if binary:
        return bytes(rng.randrange(256) for _ in range(size))
    return "".join(_unit(rng, "") for _ in range(size))


# == structured generators: near-valid inputs built from the grammar and the schema ===========

_RANK_SPELLINGS = (("A", "a"), ("2",), ("3",), ("4",), ("5",), ("6",), ("7",), ("8",), ("9",),
                   ("T", "t", "10"), ("J", "j"), ("Q", "q"), ("K", "k"))
_SUIT_SPELLINGS = (("C", "c", "♣", "♧"), ("D", "d", "♦", "♢"), ("H", "h", "♥", "♡"), ("S", "s", "♠", "♤"))
_CODEPOINT_BASE = (0x1F0D0, 0x1F0C0, 0x1F0B0, 0x1F0A0)  # clubs, diamonds, hearts, spades blocks
_SEPARATORS = (" ", " ", " ", "  ", ",", ", ", "\t", "", "\u3000", "\n")


def spelled(rng: random.Random, card: int) -> str:
    """One card in any spelling the notation accepts (an independent list, as an oracle)."""
    suit, rank = divmod(card, 13)
    if rng.random() < 0.1:
        nibble = rank + 1 + (rank >= 11)  # the knight sits between jack and queen
        return chr(_CODEPOINT_BASE[suit] + nibble) + rng.choice(("", "\ufe0e", "\ufe0f"))
    r, s = rng.choice(_RANK_SPELLINGS[rank]), rng.choice(_SUIT_SPELLINGS[suit])
    if s in "♣♦♥♠♧♢♡♤":
        s += rng.choice(("", "", "\ufe0e", "\ufe0f"))
    return r + s if rng.random() < 0.7 else s + r


def _cards_text(rng: random.Random, count: int) -> str:
    cards = rng.sample(range(52), count)
    sep = rng.choice(_SEPARATORS)
    return sep.join(spelled(rng, c) for c in cards)


def _gen_hand(rng: random.Random) -> str:
    return _cards_text(rng, rng.choice((10, 10, 11, 11, 9, 12, 0, 1, 52)))


def _gen_card(rng: random.Random) -> str:
    return rng.choice(("", " ", ",")) + spelled(rng, rng.randrange(52)) + rng.choice(("", " ", "\t"))


def _gen_melds(rng: random.Random) -> str:
    cards = rng.sample(range(52), rng.randrange(14))
    cuts = sorted(rng.sample(range(len(cards) + 1), min(len(cards) + 1, rng.randrange(1, 5))))
    groups = [cards[a:b] for a, b in itertools.pairwise(cuts)]
    return rng.choice(_SEPARATORS).join(
        "[" + rng.choice(_SEPARATORS).join(spelled(rng, c) for c in g) + "]" for g in groups
    )


def _gen_override(rng: random.Random) -> str:
    knob, value = rng.choice(_preset_values())
    knob = rng.choice((knob, knob.upper(), knob.replace("_", "-"), f" {knob} ", knob[:-1], "name"))
    text = rng.choice((_text(value), str(value).upper(), "off", "none", "on", "yes", "", *_NUMBERS))
    return f"{knob}{rng.choice(('=', '=', ' = ', '==', ':'))}{text}"


_TOML_VALUES = ("true", "false", "0", "25", "-5", "+7", "1_000", "0x10", "0o7", "0b1", "1.5", "inf", "nan",
                "-0.0", "1e999", '"off"', '"none"', '"hoyle"', "'literal'", '"""multi\nline"""', "[1, 2]",
                "[]", "{a = 1}", "{}", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z", '"\\ud800"',
                '"\\u0000"', '"\\U0010FFFF"', "9" * 5000, "-" + "9" * 5000, "4294967296")


def _gen_rules_file(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.randrange(1, 6)):
        key = rng.choice((*api("KNOB_NAMES"), "base", "name", "overrides", "x", "rules.gin_bonus", '"x"'))
        lines.append(f"{key} = {rng.choice(_TOML_VALUES)}")
        if rng.random() < 0.2:
            lines.append(rng.choice(("[rules]", "[rules.x]", "[[rules]]", "[other]", "rules = 1", "# note")))
    return "\n".join(lines).encode("utf-8", "surrogatepass") + rng.choice((b"\n", b"", b"\r\n"))


_SHEET_RESULTS = ("knock {n} {n}", "gin {n}", "gin {n} {n}", "big_gin {n}", "wins {n}", "wins {n} undercut",
                  "wins {n} gin", "knock {n}", "void", "wins")


def _gen_sheet(rng: random.Random) -> str:
    players = rng.choice((("Ann", "Bo"), ("a", "b"), ("Ann", "Ann"), ("x-y", "o'k"), ("1a", "b")))
    lines = [f"players: {' '.join(players)}"] if rng.random() < 0.9 else []
    if rng.random() < 0.6:
        lines.append(f"rules: {rng.choice((*api('PRESETS'), 'nope', 'Hoyle', ''))}")
    if rng.random() < 0.5:
        lines.append(f"dealer: {rng.choice(players)}")
    for _ in range(rng.randrange(12)):
        result = rng.choice(_SHEET_RESULTS).replace("{n}", str(rng.choice((0, 3, 10, 25, 99, 150, -1))))
        flag = rng.choice(("", "", " spade", " upcard 7S", " upcard", " spade spade"))
        lines.append(("" if result.startswith("void") else rng.choice(players) + " ") + result + flag)
    return "\n".join(lines) + "\n"


# -- JSON records as trees ------------------------------------------------------------------

_BIG = "\x00big\x00"
_NESTED = "\x00nested\x00"
WRONG_VALUES: tuple[object, ...] = (
    [], {}, None, True, False, 0, -1, 1, 52, 1.5, 21.0, 1e308, float("nan"), float("inf"), "", "x", "10",
    "21", "-3", "3C", "tc", "10h", "♣3", "JK", "\ud800", "\udc00", "\x00", "a\nb", "a\rb", 'a"b', "a#b",
    "a]b", "[x]", " Ann", "Ann ", "Ann", "Bo", "\u0430nn", "A\u2028B", "knock", "gin", "undercut", "stock",
    "discard", "none", "turn", "defence", "pass", "standard", "hoyle", "gin_bonus", _BIG, _NESTED,
    ["3C", "4C"], [["3C"]], {"card": "3C", "onto": 0}, {"outcome": []}, {"": ""}, [None], {"x": _BIG},
)
_SCHEMA_KEYS = ("card", "deadwood", "deal", "dealer", "discard", "ending", "events", "final_totals", "hands",
                "knock", "layoffs", "melds", "next_dealer", "number", "onto", "outcome", "overrides",
                "player", "players", "points", "result", "rules", "score_after", "source", "stock", "tags",
                "type", "upcard", "winner", "Rules", "", "\ud800", "x" * 100)

Path_ = tuple[str | int, ...]


def json_paths(doc: object, limit: int = 4000) -> list[Path_]:
    """Every path into ``doc`` (breadth first, at most ``limit``)."""
    out: list[Path_] = [()]
    queue: list[tuple[Path_, object]] = [((), doc)]
    while queue and len(out) < limit:
        path, node = queue.pop(0)
        children: Any = ()
        if isinstance(node, dict):
            children = node.items()
        elif isinstance(node, list):
            children = enumerate(node)
        for key, child in children:
            out.append((*path, key))
            queue.append(((*path, key), child))
    return out


def _at(doc: object, path: Path_) -> object:
    for key in path:
        doc = doc[key]  # type: ignore[index]
    return doc


def json_replaced(doc: object, path: Path_, change: Callable[[object], object]) -> object:
    """A copy of ``doc`` with ``change`` applied at ``path``; only the containers on the path are copied."""
    if not path:
        return change(doc)
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        copy: Any = dict(doc)
    else:
        copy = list(doc)  # type: ignore[call-overload]
    copy[head] = json_replaced(copy[head], rest, change)
    return copy


def _tree_edit(rng: random.Random, node: object) -> object:
    """One change to a JSON node: a wrong type, a key gone or added, a list grown, nesting."""
    op = rng.randrange(8)
    if op <= 2:
        return rng.choice(WRONG_VALUES)
    if op == 3 and isinstance(node, dict) and node:
        return {k: v for k, v in node.items() if k != rng.choice(list(node))}
    if op == 4 and isinstance(node, dict):
        return {**node, rng.choice(_SCHEMA_KEYS): rng.choice(WRONG_VALUES)}
    if op == 5 and isinstance(node, list) and node:
        i = rng.randrange(len(node))
        return node[: i + 1] + [node[i]] * rng.choice((1, 2, 30)) + node[i + 1 :]
    if op == 6:
        return [node] if rng.random() < 0.5 else {rng.choice(_SCHEMA_KEYS): node}
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return rng.choice((str(node), -node, node + 0.5, _BIG, True))
    return rng.choice((_NESTED, str(node)[:20], None))


def _mutated_tree(rng: random.Random, doc: object) -> object:
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(json_paths(doc))
        doc = json_replaced(doc, path, lambda node: _tree_edit(rng, node))
    return doc


def json_text(doc: object, *, indent: int | str | None = None, ensure_ascii: bool = True,
              depth: int = 900) -> str:
    """``doc`` as JSON, with the big-number and deep-nesting placeholders written out."""
    text = json.dumps(doc, ensure_ascii=ensure_ascii, indent=indent, allow_nan=True)
    nested = "[" * depth + "]" * depth if depth % 2 else '{"a":' * depth + "1" + "}" * depth
    return text.replace(json.dumps(_BIG), "9" * 5000).replace(json.dumps(_NESTED), nested)


def _dumped(rng: random.Random, doc: object, one_line: bool) -> str:
    indent = None if one_line or rng.random() < 0.5 else rng.choice((1, 2, "\t"))
    depth = rng.choice((50, 51, 900, 901, 5000, 5001))
    return json_text(doc, indent=indent, ensure_ascii=rng.random() < 0.5, depth=depth)


def _json_bytes(text: str, rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        text = text.replace("\n", "\r\n")
    raw = text.encode("utf-8", "surrogatepass")
    return (b"\xef\xbb\xbf" if rng.random() < 0.1 else b"") + raw


def _gen_jsonl(rng: random.Random) -> bytes:
    docs = [_mutated_tree(rng, rng.choice(json_documents())) for _ in range(rng.choice((1, 1, 2, 3)))]
    gap = rng.choice(("\n", "\n", "\n\n", "\n \n", "\n\t\n"))
    return _json_bytes(gap.join(_dumped(rng, doc, one_line=True) for doc in docs) + "\n", rng)


def _gen_json(rng: random.Random) -> bytes:
    docs = [_mutated_tree(rng, rng.choice(json_documents())) for _ in range(rng.choice((1, 1, 1, 2)))]
    doc: object = docs[0] if len(docs) == 1 and rng.random() < 0.8 else docs
    return _json_bytes(_dumped(rng, doc, one_line=False), rng)


def _gen_any_record(rng: random.Random) -> bytes:
    return _gen_json(rng) if rng.random() < 0.5 else _gen_jsonl(rng)


# == the property, per entry point ============================================================


class PropertyFailure(AssertionError):
    """Accepted input that does not format and read back equal, or a broken promise of the API."""


@dataclass(frozen=True)
class Seen:
    """What one input came to: accepted or not, and the GinrefErrors met on the way."""

    accepted: bool
    errors: tuple[GinrefError, ...] = ()


def _round_trip(what: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(...)`` on formatted output; any exception there (even a GinrefError) breaks the promise."""
    try:
        return call(*args, **kwargs)
    except Exception as exc:
        raise PropertyFailure(f"{what}: {type(exc).__name__}: {_cut(str(exc))}") from exc


def _expect(same: bool, what: str, before: object, after: object) -> None:
    if not same:
        raise PropertyFailure(f"{what}: {_cut(repr(before), 60)} became {_cut(repr(after), 60)}")


def _cut(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 20] + f"...({len(text)} chars)"


def _notation_check(parse: str, format: str, *, one: bool = False) -> Callable[[str], Seen]:
    """A notation parser's check: what ``parse`` accepts, ``format`` writes and ``parse`` reads back."""
    what = f"{parse}({format}({'[card]' if one else 'result'}))"

    def check(text: str) -> Seen:
        try:
            value = api(parse)(text)
        except GinrefError as exc:
            return Seen(False, (exc,))
        again = _round_trip(what, api(parse), api(format)([value] if one else value))
        _expect(again == value, what, value, again)
        return Seen(True)

    return check


_LIBRARY_CALLS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("min_deadwood", lambda value: value),
    ("min_deadwood_after_discard", lambda value: value),
    ("best_arrangement", lambda value: value),
    ("best_discard", lambda value: value),
    ("analyze", lambda value: value.to_dict()),
)
"""The library calls that take a hand, and how to compare their answers."""


def _check_library(text: str) -> Seen:
    """Each library call on the text, its words as a list and as a tuple: a result or a
    GinrefError, and every form that is accepted answers as its mask does."""
    words = text.split()
    errors: list[GinrefError] = []
    for name, answer in _LIBRARY_CALLS:
        for form in (text, words, tuple(words)):
            try:
                got = answer(api(name)(form))
            except GinrefError as exc:
                errors.append(exc)
                continue
            want = _round_trip(f"{name}(hand_mask(hand))", lambda f=form, n=name: api(n)(api("hand_mask")(f)))
            _expect(got == answer(want), f"{name} of {type(form).__name__} vs its mask", answer(want), got)
    return Seen(len(errors) < 3 * len(_LIBRARY_CALLS), tuple(errors))


def _check_rules(rules: Any) -> None:
    """A rule set's ``to_dict`` is JSON and feeds back to the same rules (as JSON values and as ``--set``)."""
    table = _round_trip("json.dumps(rules.to_dict())", lambda: json.loads(json.dumps(rules.to_dict())))
    base = _round_trip("find_rules(rules.name)", api("find_rules"), rules.name)
    again = _round_trip("with_overrides(base, to_dict()['overrides'])", api("with_overrides"), base,
                        table["overrides"])
    _expect(again == rules, "with_overrides(base, to_dict()['overrides'])", rules, again)
    texts = dict(_round_trip("parse_override(label part)", api("parse_override"), f"{k}={v}")
                 for k, v in rules.overrides)
    again = _round_trip("with_overrides(base, --set of the label)", api("with_overrides"), base, texts)
    _expect(again.to_dict() == table, "rules.to_dict() after --set of the label", table, again.to_dict())


def _check_override(text: str) -> Seen:
    try:
        knob, value = api("parse_override")(text)
        rules = api("with_overrides")(api("STANDARD"), {knob: value})
    except GinrefError as exc:
        return Seen(False, (exc,))
    _check_rules(rules)
    return Seen(True)


_scratch: list[Path] = []
"""The folder a run writes its rules files in (set by :func:`run`)."""


def _check_rules_file(data: bytes) -> Seen:
    path = _scratch[-1] / "rules.toml"
    path.write_bytes(data)
    try:
        rules = api("load_rules_file")(path)
    except GinrefError as exc:
        return Seen(False, (exc,))
    _check_rules(rules)
    return Seen(True)


def _check_sheet(text: str) -> Seen:
    try:
        sheet, errors = api("read_sheet")(text, source="<fuzz>", keep_going=True)
    except GinrefError as exc:
        return Seen(False, (exc,))
    wrong = [e for e in errors if not isinstance(e, GinrefError)]
    _expect(not wrong, "read_sheet's errors are GinrefErrors", [], wrong)
    _round_trip("json.dumps(sheet.to_dict())", json.dumps, sheet.to_dict())
    if sheet.players:
        try:
            sheet.score()
        except GinrefError as exc:
            return Seen(False, (*errors, exc))
    return Seen(not errors, tuple(errors))


def _read_back(text: str, format: str) -> list[Any]:
    raw = _round_trip("the written record encodes as UTF-8", text.encode, "utf-8")
    items: list[Any] = _round_trip(f"reading back {format}", lambda: list(
        api("read_records")(io.BytesIO(raw), source="<round trip>", format=format)))
    return items


def _expect_records(what: str, items: list[Any], records: Sequence[Any]) -> None:
    _expect(len(items) == len(records), f"{what}: number of items", len(records), len(items))
    for record, item in zip(records, items, strict=True):
        if isinstance(item, RecordError):
            raise PropertyFailure(f"{what}: rejected: {_cut(str(item))}")
        _expect(item == record, f"{what}: {_difference(record, item)}", record, item)


def _compared_fields(value: Any) -> list[str]:
    if hasattr(value, "uncompared"):
        return list(compared_fields(value))
    if isinstance(value, msgspec.Struct):
        return list(value.__struct_fields__)
    return [f.name for f in dataclasses.fields(value) if f.compare]


def _difference(a: object, b: object, path: str = "record") -> str:
    """The first field where ``a`` and ``b`` differ, as ``record.hands[0].events[2].card``."""
    if type(a) is type(b) and (dataclasses.is_dataclass(a) or isinstance(a, msgspec.Struct)):
        for name in _compared_fields(a):
            if getattr(a, name) != getattr(b, name):
                return _difference(getattr(a, name), getattr(b, name), f"{path}.{name}")
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _difference(x, y, f"{path}[{i}]")
    return path


def _check_record(record: Any) -> None:
    """One accepted record: text and JSON round trips, and the referee rules without raising."""
    text = _round_trip("format_text(record)", api("format_text"), record)
    _expect_records("format_text then read as gin", _read_back(text, "gin"), [record])
    data = _round_trip("to_json_dict(record)", api("to_json_dict"), record)
    again = _round_trip("from_json_dict(to_json_dict(record))", api("from_json_dict"), data)
    what = f"from_json_dict(to_json_dict(record)): {_difference(record, again)}"
    _expect(again == record, what, record, again)
    line = _round_trip("format_jsonl(record)", api("format_jsonl"), record)
    _expect("\n" not in line.rstrip("\n"), "format_jsonl writes one line", 1, line.count("\n"))
    _expect_records("format_jsonl then read as jsonl", _read_back(line, "jsonl"), [record])
    verdict = _round_trip("adjudicate(record)", api("adjudicate"), record)
    shown = _round_trip("json.dumps(verdict.to_dict())", lambda: json.dumps(verdict.to_dict()))
    result = _round_trip("check_record(record, 1)", api("check_record"), record, 1)
    expected = {"source": record.source, "index": record.index, "line": 1, "status": result.status,
                **json.loads(shown)}
    line = result_json_line(result)
    _expect(json.loads(line) == expected, "check_record gives the verdict's JSON line", expected, line)


def _check_series(records: Sequence[Any]) -> None:
    """N records written as the writer separates them read back as the same N records, in each format."""
    for format in ("gin", "json", "jsonl"):
        text = _round_trip(f"write_records(..., {format!r})", _written, records, format)
        _expect_records(f"write_records as {format} then read", _read_back(text, format), records)


def _written(records: Sequence[Any], format: str) -> str:
    out = io.StringIO()
    errors = list(api("write_records")(records, out, format))
    _expect(not errors, "write_records passes on no errors for records", [], errors)
    return out.getvalue()


def _blank(line: bytes, first: bool) -> bool:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not text.removeprefix("\ufeff" if first else "").strip()


def _non_blank_lines(data: bytes) -> int:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return sum(not _blank(line, i == 0) for i, line in enumerate(lines))


def _check_records(data: bytes, format: str | None) -> Seen:
    items = list(api("read_records")(io.BytesIO(data), source="<fuzz>", format=format))
    game_record = api("GameRecord")
    odd = [type(item).__name__ for item in items if not isinstance(item, (game_record, RecordError))]
    _expect(not odd, "read_records yields GameRecord or RecordError", [], odd)
    if format == "jsonl" and not _one_error_for_all(items):
        lines = _non_blank_lines(data)
        _expect(len(items) == lines, "jsonl: one item per non-blank line", lines, len(items))
    records = [item for item in items if isinstance(item, game_record)]
    for record in records:
        _check_record(record)
    if len(records) > 1:
        _check_series(records)
    return Seen(bool(records), tuple(item for item in items if isinstance(item, RecordError)))


def _one_error_for_all(items: list[Any]) -> bool:
    """A stream read as one error: UTF-16 text, or plainly not the form given (``--from``)."""
    return (len(items) == 1 and isinstance(items[0], RecordError)
            and items[0].message.startswith(("this looks like ", "UTF-16 text", "UTF-32 text")))


_COMPRESSORS = (gzip.compress, bz2.compress, lzma.compress)


def _as_seen(items: list[Any]) -> list[object]:
    return [(i.message, i.line, i.column) if isinstance(i, RecordError) else i for i in items]


def _check_compressed(data: bytes) -> Seen:
    """Records compressed (gzip, bzip2 or xz, by the input's length) read as the same items as
    plain; cut short, the records before the cut and then one error, never an exception."""
    packed = _COMPRESSORS[len(data) % 3](data)
    plain = list(api("read_records")(io.BytesIO(data), source="<fuzz>"))
    items = list(api("read_records")(io.BytesIO(packed), source="<fuzz>"))
    if not data.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ")):  # compressed twice: read once, as bytes
        _expect(_as_seen(items) == _as_seen(plain), "compressed: as read plain", len(plain), len(items))
    cut = list(api("read_records")(io.BytesIO(packed[: len(packed) * 2 // 3]), source="<fuzz>"))
    _expect(len(cut) <= len(plain) + 1, "cut short: at most one item more (its error)", len(plain), len(cut))
    records = [item for item in items if not isinstance(item, RecordError)]
    return Seen(bool(records), tuple(item for item in items + cut if isinstance(item, RecordError)))


# == the entry points =========================================================================


@functools.cache
def _eaai_logs() -> tuple[bytes, ...]:
    """The first-fit games' first hands, a game's end, and one whole game (it holds every line kind
    the framework prints in a played game)."""
    text = (ROOT / "samples" / "research" / "eaai-games.txt").read_text()
    game = text.split(" wins.\n")[0] + " wins.\n"
    hands = game.split("0\t")
    return (game.encode(), hands[0].encode(), (hands[0] + "0\t" + hands[1]).encode(),
            ("\n".join(game.splitlines()[-40:]) + "\n").encode())


@functools.cache
def _rlcard_sheets() -> tuple[bytes, ...]:
    """The sample's four hands (gin, dead hand, knock, undercut), together and one by one."""
    text = (SAMPLES / "research" / "rlcard-sheets.txt").read_text()
    hands = [h for h in text.split("\n") if " deal shuffled_deck=" in h]
    ones = ["\n".join(text.split("\n")[i:]) for i, line in enumerate(text.split("\n")) if line in hands]
    return (text.encode(), *(one.encode() for one in ones))


@dataclass(frozen=True)
class EntryPoint:
    """A public parse entry point: how to check one input, and where inputs come from."""

    name: str
    check: Callable[[Any], Seen]
    """raises on an escape; a GinrefError from the call itself is caught and returned in ``Seen``"""
    seeds: Callable[[], tuple[Any, ...]]
    generate: Callable[[random.Random], Any] | None = None
    binary: bool = False


# -- the live table: move texts, one a line, pushed in turn ------------------------------------

_TABLE_RULES = ("standard", "openspiel", "hoyle", "oklahoma", "straight", "cardhearth")


def _table_for(text: str) -> Any:
    """The table an input plays at: a rule set and a deal picked by the input's length."""
    table_class = importlib.import_module("ginref.referee.table").Table
    return table_class(("Ann", "Bo"), _TABLE_RULES[len(text) % len(_TABLE_RULES)], seed=len(text) % 5)


@functools.cache
def _table_games() -> tuple[str, ...]:
    """Whole games' move texts, one move a line: legal sequences for the mutators to break."""
    from tests.support.tableplay import play

    games = []
    for length in range(12):
        table = _table_for("x" * length)
        play(table, random.Random(length))
        text = "\n".join(str(move) for move in table.moves) + "\n"
        games.append(text + "#" * ((length - len(text)) % 12))  # the same table again
    return tuple(games)


_TABLE_WORDS = ("take", "pass", "draw", "draw stock", "draw pile", "take pile", "finish", "discard",
                "knock", "gin", "big_gin", "defend", "deadwood 3", "[", "]", ">1", ">2", ">0", "??")


def _gen_table_moves(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randrange(1, 40)):
        words = [rng.choice(_TABLE_WORDS) for _ in range(rng.randrange(1, 4))]
        words += [spelled(rng, rng.randrange(52)) for _ in range(rng.randrange(0, 4))]
        rng.shuffle(words)
        lines.append(" ".join(words))
    return "\n".join(lines)


def _check_table(text: str) -> Seen:
    """Each line pushed in turn: a move played (its text reads back as the same move) or
    refused with a GinrefError and the table exactly as it was; the record of what was
    played verifies clean."""
    table = _table_for(text)

    def table_state(table: Any) -> tuple[object, ...]:
        return (table.phase, tuple(table.moves), tuple(table.view(p) for p in table.players))

    parse_move = importlib.import_module("ginref.referee.table").Move.parse
    errors: list[GinrefError] = []
    for line in text.split("\n")[:200]:
        before = table_state(table)
        try:
            move = table.push(line)
        except GinrefError as exc:
            errors.append(exc)
            after = table_state(table)
            _expect(after == before, f"the table after refusing {_cut(line, 40)!r}", before, after)
            continue
        again = _round_trip("Move.parse(str(move))", parse_move, str(move))
        _expect(again == move, "Move.parse(str(move))", move, again)
    verdict = _round_trip("adjudicate(table.record())", api("adjudicate"), table.record())
    _expect(verdict.clean, "adjudicate(table.record()).clean", True, verdict.codes)
    return Seen(len(errors) < len(text.split("\n")[:200]), tuple(errors[:20]))


def _records_entry(format: str | None, seeds: Callable[[], tuple[bytes, ...]],
                   generate: Callable[[random.Random], bytes] | None) -> EntryPoint:
    return EntryPoint(f"records_{format or 'sniffed'}", functools.partial(_check_records, format=format),
                      seeds, generate, binary=True)


ENTRY_POINTS: dict[str, EntryPoint] = {
    entry.name: entry
    for entry in (
        EntryPoint("hand", _notation_check("parse_hand", "format_cards"), _hand_lines, _gen_hand),
        EntryPoint("cards", _notation_check("parse_cards", "format_cards"), _hand_lines, _gen_hand),
        EntryPoint("card", _notation_check("parse_card", "format_cards", one=True), _card_words, _gen_card),
        EntryPoint("melds", _notation_check("parse_melds", "format_melds"), _meld_lines, _gen_melds),
        EntryPoint("library", _check_library, _hand_lines, _gen_hand),
        EntryPoint("override", _check_override, _override_lines, _gen_override),
        EntryPoint("rules_file", _check_rules_file, _rules_files, _gen_rules_file, binary=True),
        EntryPoint("sheet", _check_sheet, _sheets, _gen_sheet),
        EntryPoint("table", _check_table, _table_games, _gen_table_moves),
        _records_entry("gin", _gin_records, None),
        _records_entry("json", _json_records, _gen_json),
        _records_entry("jsonl", _jsonl_records, _gen_jsonl),
        _records_entry(None, _all_records, _gen_any_record),
        EntryPoint("records_compressed", _check_compressed, _all_records, _gen_any_record, binary=True),
        # another program's games: OpenSpiel histories (JSON arrays, history= lines, serialised
        # states) and Kaggle episodes, forced; the sniffed entry above meets them by content too
        _records_entry("openspiel", lambda: (
            ("[" + ", ".join(map(str, range(21))) + ", 54, 54, 53, 30, 30, 53, 31, 31]\n").encode(),
            ("history=" + ",".join(f"-1:{c}" for c in range(21)) + ",0:52,0:0,1:53,-1:30\n").encode(),
            ("[Meta]\nVersion: 1\n\n[Game]\ngin_rummy(knock_card=9)\n[State]\n"
             + "\n".join(map(str, range(21))) + "\n54\n").encode(),
        ), None),
        # logs of whole games: the EAAI framework's verbose games, RLCard move sheets
        _records_entry("eaai", _eaai_logs, None),
        _records_entry("rlcard", _rlcard_sheets, None),
        _records_entry("kaggle", lambda: tuple(json.dumps({
            "name": "open_spiel_gin_rummy", "rewards": [1, -1], "statuses": ["DONE", "DONE"],
            "configuration": {"openSpielGameParameters": {"oklahoma": False}},
            "info": {"actionHistory": [str(c) for c in range(21)] + ["54", "54", "53", "30"], **names},
        }).encode() for names in ({}, {"TeamNames": ["keen-bot", "lazy-bot"]},
                                  {"Agents": [{"Name": "keen-bot"}, {"Name": "lazy-bot"}]})), None),
    )
}


def make_input(entry: EntryPoint, seed: int, index: int) -> Any:
    """Input ``index`` of the run ``seed``: junk, a structured document, or mutated samples."""
    rng = random.Random(f"{seed}:{entry.name}:{index}")
    roll = rng.random()
    if roll < 0.04:
        return _junk(rng, entry.binary)
    donors = entry.seeds()
    if roll < 0.35 and entry.generate is not None:
        data = entry.generate(rng)
        rounds = rng.choice((0, 0, 0, 1, 2))
    else:
        data = rng.choice(donors)
        rounds = rng.choice((1, 1, 2, 2, 3, 4, 6))
    for _ in range(rounds):  # cut as it grows: six rounds of x100 would not fit in memory
        data = rng.choice(MUTATORS)(rng, data, donors)[:MAX_INPUT]
    if rng.random() < HUGE_RATE:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + _as(rng.choice(HUGE), data) + data[i:]
    return data[:MAX_INPUT]


# == the harness ==============================================================================


class Hang(BaseException):
    """Raised by the alarm in an input that ran too long (a BaseException: ``except Exception`` misses it)."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang("no answer within the time limit")


@contextlib.contextmanager
def hang_guard() -> Iterator[None]:
    """SIGPROF raises :class:`Hang` while inside; :func:`run_one` arms the timer per input.

    The timer counts this process's CPU time, not the clock's: on a shared machine (or
    under ``nice``) an input that waits for a core is not a hang, one that spins is.
    """
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def run_one(entry: EntryPoint, data: Any, timeout: float = 10.0) -> Seen | BaseException:
    """Check one input (inside :func:`hang_guard`): what it came to, or the exception that escaped."""
    try:
        signal.setitimer(signal.ITIMER_PROF, timeout)
        try:
            return entry.check(data)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return exc


def _where(exc: BaseException) -> str:
    """The last frame in ginref (else the last frame) of the traceback: ``ginref/rules.py:281 in coerce``."""
    if isinstance(exc, PropertyFailure):
        what = str(exc).split(":", 1)[0]
        return what if exc.__cause__ is None else f"{what} <- {_where(exc.__cause__)}"
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}ginref{os.sep}" in f.filename]
    if not (ours or frames):
        return "?"
    frame = (ours or frames)[-1]
    name = os.path.relpath(frame.filename, ROOT) if frame.filename.startswith(str(ROOT)) else frame.filename
    return f"{name}:{frame.lineno} in {frame.name}"


@dataclass(frozen=True)
class Escape:
    """One input that broke the property, with everything needed to make it again."""

    entry: str
    seed: int
    index: int
    data: str | bytes
    kind: str
    where: str
    message: str

    @classmethod
    def of(cls, entry: str, seed: int, index: int, data: str | bytes, exc: BaseException) -> Escape:
        return cls(entry, seed, index, data, type(exc).__name__, _where(exc), _cut(str(exc), 200))

    @property
    def signature(self) -> tuple[str, str, str]:
        return self.entry, self.kind, self.where

    def describe(self, data: str | bytes | None = None) -> str:
        shown = self.data if data is None else data
        return (f"{self.entry}: {self.kind} at {self.where}: {self.message}\n"
                f"    input {_cut(repr(shown))} (seed {self.seed}, index {self.index})")


MAX_MESSAGE = 200
"""Longest error message accepted: one line, quoting at most about 80 characters of input. A
character that the quote escapes (``\\ufeff``) counts as one, so the limit is on what is quoted."""
_ESCAPE_RE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")


def message_problem(exc: GinrefError) -> str | None:
    """What is wrong with an error's message, if anything: it must be one short printable line."""
    try:
        text = str(exc)
    except Exception as failure:
        return f"str() raised {type(failure).__name__}"
    if not text:
        return "empty"
    if not text.isprintable():
        bad = next(c for c in text if not c.isprintable())
        return f"holds unprintable {bad!r}"
    if len(_ESCAPE_RE.sub("?", text)) > MAX_MESSAGE:
        return f"longer than {MAX_MESSAGE} characters"
    return None


@dataclass(frozen=True)
class BadMessage:
    """An error whose message breaks the one-short-line rule (the first of its kind)."""

    entry: str
    kind: str
    problem: str
    message: str
    data: str | bytes

    def describe(self) -> str:
        return (f"{self.entry}: {self.kind} message {self.problem}: {_cut(repr(self.message))}\n"
                f"    input {_cut(repr(self.data))}")


@dataclass(frozen=True)
class Tally:
    """The counts of a run over one entry point, the first escape of each kind and the extremes."""

    entry: str
    tried: int = 0
    accepted: int = 0
    rejected: int = 0
    escaped: int = 0
    largest: int = 0
    slowest: tuple[float, int, int] = (0.0, 0, -1)
    """seconds, size, index"""
    escapes: tuple[Escape, ...] = ()
    escape_counts: tuple[tuple[tuple[str, str, str], int], ...] = ()
    bad_messages: tuple[BadMessage, ...] = ()
    bad_message_count: int = 0
    seconds: float = 0.0

    def merged(self, other: Tally) -> Tally:
        counts = dict(self.escape_counts)
        for signature, n in other.escape_counts:
            counts[signature] = counts.get(signature, 0) + n
        known = {e.signature for e in self.escapes}
        kinds = {(b.kind, b.problem) for b in self.bad_messages}
        return dataclasses.replace(
            self, tried=self.tried + other.tried, accepted=self.accepted + other.accepted,
            rejected=self.rejected + other.rejected, escaped=self.escaped + other.escaped,
            largest=max(self.largest, other.largest), slowest=max(self.slowest, other.slowest),
            escapes=self.escapes + tuple(e for e in other.escapes if e.signature not in known),
            escape_counts=tuple(counts.items()),
            bad_messages=self.bad_messages + tuple(
                b for b in other.bad_messages if (b.kind, b.problem) not in kinds),
            bad_message_count=self.bad_message_count + other.bad_message_count,
            seconds=self.seconds + other.seconds,
        )


@dataclass
class _Counts:
    """The running counts of :func:`run` (turned into a frozen :class:`Tally` at the end)."""

    outcomes: dict[str, int] = field(default_factory=lambda: {"accepted": 0, "rejected": 0, "escaped": 0})
    largest: int = 0
    slowest: tuple[float, int, int] = (0.0, 0, -1)
    escapes: dict[tuple[str, str, str], Escape] = field(default_factory=dict)
    escape_counts: dict[tuple[str, str, str], int] = field(default_factory=dict)
    bad_messages: dict[tuple[str, str], BadMessage] = field(default_factory=dict)
    bad_message_count: int = 0


def _note_errors(counts: _Counts, entry: str, data: str | bytes, errors: Sequence[GinrefError]) -> None:
    for exc in errors:
        problem = message_problem(exc)
        if problem is not None:
            counts.bad_message_count += 1
            key = (type(exc).__name__, problem.split(" ", 1)[0] + _where(exc))
            bad = BadMessage(entry, type(exc).__name__, problem, str(exc), data)
            counts.bad_messages.setdefault(key, bad)


def _note(counts: _Counts, entry: str, seed: int, index: int, data: str | bytes,
          result: Seen | BaseException) -> None:
    if isinstance(result, Seen):
        counts.outcomes["accepted" if result.accepted else "rejected"] += 1
        _note_errors(counts, entry, data, result.errors)
        return
    counts.outcomes["escaped"] += 1
    escape = Escape.of(entry, seed, index, data, result)
    counts.escapes.setdefault(escape.signature, escape)
    counts.escape_counts[escape.signature] = counts.escape_counts.get(escape.signature, 0) + 1


@contextlib.contextmanager
def _session(scratch: Path | None) -> Iterator[None]:
    """The hang guard armed and a scratch folder for rules files (a fresh one unless given)."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(hang_guard())
        _scratch.append(scratch or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fuzz-"))))
        stack.callback(_scratch.pop)
        yield


def replay(entry: EntryPoint, data: str | bytes, *, timeout: float = 10.0) -> Seen | BaseException:
    """One input checked as a run would check it (for a saved reproducer)."""
    with _session(None):
        return run_one(entry, data, timeout)


def run(entry: EntryPoint, seed: int, start: int, stop: int, *, timeout: float = 10.0,
        scratch: Path | None = None) -> Tally:
    """Inputs ``start`` to ``stop`` of the run ``seed`` through ``entry``, counted."""
    counts = _Counts()
    began = time.process_time()
    with _session(scratch):
        for index in range(start, stop):
            data = make_input(entry, seed, index)
            t0 = time.process_time()  # CPU, as the hang timer counts: a paused or crowded run reads true
            try:
                result = run_one(entry, data, timeout)
            except Hang as exc:  # the alarm rang just after the check returned
                result = exc
            seconds = time.process_time() - t0
            counts.largest = max(counts.largest, len(data))
            counts.slowest = max(counts.slowest, (seconds, len(data), index))
            _note(counts, entry.name, seed, index, data, result)
    return Tally(
        entry.name, stop - start, counts.outcomes["accepted"], counts.outcomes["rejected"],
        counts.outcomes["escaped"], counts.largest, counts.slowest, tuple(counts.escapes.values()),
        tuple(counts.escape_counts.items()), tuple(counts.bad_messages.values()), counts.bad_message_count,
        time.process_time() - began,
    )


def _greedy_cuts(data: Any, still_fails: Callable[[Any], bool], budget: int) -> tuple[Any, int]:
    """``data`` (a string or a list) with every span cut out that keeps it failing, halves first;
    also what is left of ``budget`` (one try each)."""
    chunk = max(1, len(data) // 2)
    while budget > 0:
        i = 0
        while i < len(data) and budget > 0:
            budget -= 1
            candidate = data[:i] + data[i + chunk :]
            if still_fails(candidate):
                data = candidate
            else:
                i += chunk
        if chunk == 1:
            break
        chunk //= 2
    return data, budget


def shrink(entry: EntryPoint, escape: Escape, *, budget: int = 1000, timeout: float = 10.0,
           scratch: Path | None = None) -> str | bytes:
    """A smaller input that escapes the same way (same exception type, same last ginref frame):
    whole lines cut out first, then spans of characters."""
    if escape.kind == "Hang":
        return escape.data  # each try could take the whole time limit

    def still_fails(candidate: Any) -> bool:
        result = run_one(entry, candidate, timeout)
        return isinstance(result, BaseException) and (type(result).__name__, _where(result)) == (
            escape.kind, escape.where)

    data: Any = escape.data
    empty = data[:0]

    def lines_fail(lines: list[Any]) -> bool:
        return still_fails(empty.join(lines))

    with _session(scratch):
        lines, left = _greedy_cuts(data.splitlines(keepends=True), lines_fail, budget // 2)
        smaller: str | bytes = _greedy_cuts(empty.join(lines), still_fails, left + budget - budget // 2)[0]
    return smaller
