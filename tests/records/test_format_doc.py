"""Every record in docs/record-format.md is a test: it parses, round-trips, and verifies.

A block fenced as ``gin`` or ``json`` is a complete record. The referee must find
exactly the codes of its ``Expect`` tag (none without one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ginref.records import (
    GameRecord,
    format_json,
    format_text,
    from_json_dict,
    read_text,
    to_json_dict,
)
from ginref.referee import adjudicate

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"
FENCE = re.compile(r"^```(gin|json)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[str, int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(m.group(1), text.count("\n", 0, m.start()) + 2, m.group(2)) for m in FENCE.finditer(text)]


BLOCKS = blocks()


def read_block(kind: str, line: int, body: str) -> GameRecord:
    if kind == "gin":
        return read_text(body, source=DOC.name, first_line=line)
    return from_json_dict(json.loads(body), source=DOC.name, line=line)


def test_the_doc_has_the_examples_it_promises() -> None:
    kinds = [kind for kind, _, _ in BLOCKS]
    assert kinds.count("gin") >= 10 and kinds.count("json") >= 2


@pytest.mark.parametrize(("kind", "line", "body"), BLOCKS, ids=[f"line{line}" for _, line, _ in BLOCKS])
def test_doc_block_round_trips(kind: str, line: int, body: str) -> None:
    record = read_block(kind, line, body)
    text = format_text(record)
    assert read_text(text) == record
    assert format_text(read_text(text)) == text
    data = to_json_dict(record)
    assert from_json_dict(json.loads(json.dumps(data))) == record
    if kind == "json":
        assert body == format_json(record), "JSON examples are written in the canonical form"


@pytest.mark.parametrize(("kind", "line", "body"), BLOCKS, ids=[f"line{line}" for _, line, _ in BLOCKS])
def test_doc_block_verifies_as_stated(kind: str, line: int, body: str) -> None:
    record = read_block(kind, line, body)
    expect = set(dict(record.tags).get("Expect", "").split())
    verdict = adjudicate(record)
    assert set(verdict.codes) == expect, [str(f) for f in verdict.findings]


def test_doc_examples_cover_every_kind_of_hand() -> None:
    seen: set[str] = set()
    for kind, line, body in BLOCKS:
        record = read_block(kind, line, body)
        verdict = adjudicate(record)
        for hand in verdict.hands:
            seen.add(f"{record.rules}:{hand.outcome}")
        if len(record.hands) > 1 and record.final_totals is not None and verdict.game_over:
            seen.add("game with final totals")
        if any(getattr(e, "source", "") == "stock" and getattr(e, "card", 0) is None
               for h in record.hands for e in h.events):
            seen.add("unseen stock card")
        if any(getattr(e, "layoffs", ()) for h in record.hands for e in h.events):
            seen.add("layoffs")
    assert {
        "standard:knock", "standard:gin", "hoyle:big_gin", "standard:undercut", "openspiel:tie",
        "standard:void", "openspiel:knock", "game with final totals", "unseen stock card", "layoffs",
    } <= seen
