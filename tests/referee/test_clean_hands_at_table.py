"""Every hand that ``adjudicate`` rules clean plays at the ``Table`` move by move, each move
pushed as its event's player, with no refusal, and is ruled the same: outcome, winner, points.

Over the project's own data: the samples, ``tests/data/`` (the EAAI logs, the RLCard sheets) and
the OpenSpiel games. A seeded slice runs in the default suite (every RLCard hand among it: the
wall under ``stock_end=take_or_dead`` is where the table and the replay once parted); the whole
corpus under ``-m slow``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginref.records import Defence, GameRecord, read_records
from ginref.referee import adjudicate
from ginref.referee.table import IllegalMove, Phase, Table, moves_of

ROOT = Path(__file__).resolve().parents[2]
RECORD_ENDINGS = (".gin", ".json", ".jsonl", ".txt", ".log", ".gz")
NOT_RECORDS = {"hands.txt"}
CORPUS = sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("samples", "tests/data")
    for p in (ROOT / folder).rglob("*")
    if p.is_file() and p.name.endswith(RECORD_ENDINGS) and p.name not in NOT_RECORDS
    and not p.name.startswith("README")
)
SLICE = 0.15
"""the share of a file's records the default suite plays (all of a small file's)"""


def _records(path: str) -> list[GameRecord]:
    return [r for r in read_records(ROOT / path) if isinstance(r, GameRecord)]


def _clean_hands(record: GameRecord) -> Iterator[tuple[int, str, str | None, int]]:
    """The hands ``adjudicate`` rules with no error: index, outcome, winner, points."""
    verdict = adjudicate(record)
    broken = {f.hand for f in verdict.findings if f.severity == "error"}
    for index, hand in enumerate(verdict.hands):
        if index not in broken:
            yield index, hand.outcome, hand.winner, hand.points


def _play(record: GameRecord, index: int) -> Table:
    table = Table.from_record(record, index)
    for number, event in enumerate(record.hands[index].events):
        for move in moves_of(event):
            try:
                table.push(move, event.player)
            except IllegalMove as refused:
                pytest.fail(f"hand {index + 1}, event {number + 1} ({event.player}: {move}): {refused}")
    return table


def _check(record: GameRecord) -> int:
    """Play each clean hand of ``record``; the number played."""
    played = 0
    for index, outcome, winner, points in _clean_hands(record):
        table = _play(record, index)
        played += 1
        defended = any(type(e) is Defence for e in record.hands[index].events)
        if outcome == "unfinished" or (table.phase is Phase.DEFENCE and not defended):
            continue  # the record stops there, or the referee works out the defence the table waits for
        ruled = table.outcome()
        assert ruled is not None, (index, table.phase)
        assert (ruled.outcome, ruled.winner, ruled.points) == (outcome, winner, points), index
    return played


def _slice(records: list[GameRecord], path: str) -> list[GameRecord]:
    if "rlcard" in path or len(records) <= 20:
        return records
    rng = random.Random(path)
    return rng.sample(records, max(20, int(len(records) * SLICE)))


@pytest.mark.parametrize("path", CORPUS)
def test_a_seeded_slice_of_clean_hands_plays_at_the_table(path: str) -> None:
    records = _records(path)
    for record in _slice(records, path):
        _check(record)


def test_the_rlcard_hands_that_take_the_last_discard_at_the_wall_play_on() -> None:
    """``stock_end=take_or_dead``: the last discard taken at the wall, then a plain discard."""
    played = sum(_check(r) for r in _records("tests/data/rlcard/greedy-200.txt"))
    assert played == 200


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS)
def test_every_clean_hand_plays_at_the_table(path: str) -> None:
    for record in _records(path):
        _check(record)


@pytest.mark.slow
def test_every_clean_hand_of_2000_openspiel_games_plays_at_the_table() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from ginref.records.io import RawRecord, decode
    from tests.support.openspiel_play import play_games

    for game, state, _ in play_games(pyspiel, 2000, 44, random.Random(44)):
        params = game.get_parameters()
        text = "gin_rummy(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
        (record,) = decode(RawRecord("openspiel", "<openspiel>", 0, 1, str(list(state.history())), game=text))
        assert isinstance(record, GameRecord)
        assert _check(record) == 1
