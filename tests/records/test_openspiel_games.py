"""Hands played by OpenSpiel's gin_rummy verify cleanly under the ``openspiel`` rules.

``samples/records/openspiel/games.jsonl`` holds about 200 hands played by seeded
policies in OpenSpiel (``pyspiel.load_game("gin_rummy")``, a quarter of them with
``oklahoma=true``) and converted to records by ``tools/openspiel_games.py``, which
also wrote each claimed result from OpenSpiel's ``state.returns()``. This test needs
no OpenSpiel: every hand must replay with no error finding under
``find_rules("openspiel")`` (plus the record's Oklahoma override), and ginref's ruling
(outcome, winner, points) must equal the claimed one, that is OpenSpiel's. Regenerate
with (in the venv that has ``pyspiel``)::

    python tools/openspiel_games.py --games 10000 --seed 2026 --oklahoma 0.25 \\
        --sample samples/records/openspiel/games.jsonl
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from ginref.records import GameRecord, Turn, read_records
from ginref.referee import Verdict, adjudicate
from ginref.rules import find_rules, with_overrides

GAMES = Path(__file__).resolve().parents[2] / "samples" / "records" / "openspiel" / "games.jsonl"


@pytest.fixture(scope="module")
def games() -> list[tuple[GameRecord, Verdict]]:
    out = []
    for item in read_records(GAMES):
        assert isinstance(item, GameRecord), item
        assert item.rules == "openspiel"
        assert dict(item.overrides) in ({}, {"oklahoma": "gin_only"})
        rules = with_overrides(find_rules("openspiel"), dict(item.overrides))
        out.append((item, adjudicate(item, rules)))
    return out


def _kind(record: GameRecord, verdict: Verdict) -> str:
    ruled = verdict.hands[0]
    if ruled.outcome == "void":
        return f"void-{ruled.end}"
    knock = next(e for e in record.hands[0].events if isinstance(e, Turn) and e.knock is not None)
    at_wall = ruled.stock_left == 2 and knock.source == "discard"
    return ("wall-" if at_wall else "") + ruled.outcome


def test_the_file_is_modest() -> None:
    assert GAMES.stat().st_size < 1_000_000


def test_every_openspiel_hand_verifies_with_no_error(games: list[tuple[GameRecord, Verdict]]) -> None:
    assert 150 <= len(games) <= 300
    problems: list[str] = []
    for record, verdict in games:
        event = dict(record.tags)["Event"]
        problems.extend(f"{event}: {finding}" for finding in verdict.errors)
        assert len(record.hands) == len(verdict.hands) == 1
        claimed, ruled = record.hands[0].result, verdict.hands[0]
        assert claimed is not None
        if ruled.end not in ("knock", "wall", "max_discard_draws", "repeat_discard_draw"):
            # e.g. "unverified": a claimed void the replay does not reach (an advisory only)
            problems.append(f"{event}: the replay does not end the hand ({ruled.end})")
        if (claimed.outcome, claimed.winner, claimed.points) != (ruled.outcome, ruled.winner, ruled.points):
            problems.append(f"{event}: OpenSpiel says {claimed.outcome} {claimed.winner} {claimed.points}, "
                            f"ginref {ruled.outcome} {ruled.winner} {ruled.points}")
    assert problems == []


def test_the_hands_cover_every_way_a_hand_ends(games: list[tuple[GameRecord, Verdict]]) -> None:
    kinds = collections.Counter(_kind(record, verdict) for record, verdict in games)
    for kind in (
        "knock", "gin", "undercut", "tie",  # a tie scores nothing under OpenSpiel rules
        "wall-knock", "wall-gin", "wall-undercut",  # the last discard taken at the wall to knock
        "void-wall",  # the wall discard passed
        "void-max_discard_draws",  # the 50th take of the discard pile
        "void-repeat_discard_draw",  # both players took the top discard and threw it again
    ):
        assert kinds[kind] >= 3, (kind, kinds)
    oklahoma = [verdict for record, verdict in games if record.overrides]
    assert len(oklahoma) >= 20
    assert any(verdict.hands[0].knock_limit == 0 for verdict in oklahoma)  # an ace upcard: gin only
    laid = [r for _, v in games for r in v.hands if r.layoffs]
    assert len(laid) >= 10
