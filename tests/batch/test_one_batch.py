"""One way through a batch: one reading value, one iterator, tallies fed from it.

``ginref.verify`` is the batch iterator (here, on workers, on a cluster); how its paths are
read is one ``Reading``, or its fields as keywords; what a consumer adds to a result is the
result's one ``added`` field; the audit and the standings are tallies over the same results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

import ginref
from ginref import audit
from ginref.batch import BatchSummary, RecordResult, tally, verify
from ginref.ranking import StandingsTally
from ginref.records import GameRecord, Reading, read_records
from ginref.records.io import ReadProgress
from ginref.referee import Verdict, adjudicate
from ginref.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
RESEARCH = SAMPLES / "research"
OPENSPIEL = RESEARCH / "openspiel-histories.txt"


def _outcomes(results: Any) -> list[tuple[str, int, int, str, tuple[str, ...]]]:
    return [(r.source, r.index, r.line, r.status, r.codes) for r in results]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_reading_and_its_fields_as_keywords_read_alike(jobs: int) -> None:
    game = "gin_rummy(knock_card=1)"
    by_keywords = _outcomes(verify(OPENSPIEL, jobs=jobs, format="openspiel", game=game))
    by_value = _outcomes(verify(OPENSPIEL, jobs=jobs, reading=Reading(format="openspiel", game=game)))
    assert by_keywords == by_value and len(by_value) > 1
    assert by_value != _outcomes(verify(OPENSPIEL, jobs=jobs, format="openspiel"))  # the game told


def test_a_reading_and_its_fields_together_are_refused_at_the_call() -> None:
    with pytest.raises(TypeError, match="not both: format"):
        verify(SAMPLES / "records", reading=Reading(), format="jsonl")
    with pytest.raises(TypeError):
        verify(SAMPLES / "records", colour="red")
    with pytest.raises(TypeError, match="not both"):
        ginref.report(SAMPLES / "tournament", reading=Reading(), game="gin_rummy")


def test_one_reading_carries_the_progress_and_who_hears_of_skipped_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record\n")
    (tmp_path / "a.gin").write_bytes((SAMPLES / "records" / "gin.gin").read_bytes())
    progress, skipped = ReadProgress(), []
    results = list(verify(tmp_path, jobs=1, reading=Reading(progress=progress, on_skip=skipped.append)))
    assert len(results) == 1 and skipped == [str(tmp_path / "notes.txt")]
    assert progress.read == progress.total == (tmp_path / "a.gin").stat().st_size


def _with_rounds(record: GameRecord, rules: Rules | None) -> tuple[Verdict, int]:
    return adjudicate(record, rules), len(record.hands)


def _broken(record: GameRecord, rules: Rules | None) -> tuple[Verdict, int]:
    raise ZeroDivisionError("a consumer's bug")


@pytest.mark.parametrize("jobs", [1, 2])
def test_what_a_consumer_adds_rides_on_each_result_in_input_order(jobs: int) -> None:
    plain = list(verify(SAMPLES, jobs=jobs))
    added = list(verify(SAMPLES, jobs=jobs, adding=_with_rounds))
    assert _outcomes(added) == _outcomes(plain) and len(plain) > 100
    assert [r.added for r in plain] == [None] * len(plain)
    readable = [r for r in added if r.verdict is not None]
    assert readable and all(r.added == len(r.verdict.hands) for r in readable if r.verdict)
    assert all(r.added is None for r in added if r.verdict is None)
    assert [r.to_dict() for r in added] == [r.to_dict() for r in plain]  # never in the JSON


def test_a_consumer_that_fails_loses_no_record() -> None:
    added = list(verify(SAMPLES / "records", jobs=1, adding=_broken))
    assert added == list(verify(SAMPLES / "records", jobs=1))


def test_records_and_results_given_pass_through_the_same_iterator() -> None:
    records = [r for r in read_records(SAMPLES / "tournament" / "game-01.gin") if isinstance(r, GameRecord)]
    assert _outcomes(verify(records)) == _outcomes(verify(SAMPLES / "tournament" / "game-01.gin", jobs=1))
    under_way = verify(SAMPLES / "tournament", jobs=1)
    assert list(verify(under_way)) == list(verify(SAMPLES / "tournament", jobs=1))


def test_tallies_fed_from_one_batch_agree_with_their_own_calls() -> None:
    summary, standings = BatchSummary(), StandingsTally(duplicate=True)
    seen: list[RecordResult] = []
    done = ginref.report(SAMPLES / "duplicate", also=(summary, standings), adding=standings.adding,
                         on_result=seen.append)
    assert done == ginref.report(SAMPLES / "duplicate")
    assert summary.records == done.records == len(seen)
    alone = ginref.standings(SAMPLES / "duplicate", duplicate=True, rounds=50)
    assert standings.standings(rounds=50) == alone
    assert standings.standings(rounds=0).duplicate


def test_the_standings_count_without_the_audit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``standings`` is a tally over the batch: it no longer runs the audit to be called back."""
    expected = ginref.standings(SAMPLES / "tournament", rounds=0)

    def no_audit(*_: object) -> None:
        raise AssertionError("the audit ran")

    monkeypatch.setattr(audit.Audit, "add", no_audit)
    assert ginref.standings(SAMPLES / "tournament", rounds=0) == expected
    assert expected.games == 8


def test_tally_closes_a_batch_it_stops_in() -> None:
    batch = verify(SAMPLES, jobs=2)

    class Stop:
        def add(self, result: RecordResult) -> None:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tally(batch, (Stop(),))
    assert batch.gi_frame is None  # closed: its workers stopped


def test_a_verdict_read_back_without_decoding_is_the_decoded_one() -> None:
    """A result checked here gives back the verdict just packed (no decoding, no cache poked
    into the result); any other copy of the same bytes decodes to the same verdict."""
    for result in verify(SAMPLES, jobs=1):
        if result.ruling is None:
            continue
        copy = msgspec.structs.replace(result, ruling=bytes(bytearray(result.ruling)))
        assert copy.ruling is not result.ruling
        decoded = msgspec.msgpack.decode(result.ruling, type=Verdict)
        assert result.verdict == decoded == copy.verdict
        assert result == copy  # values: how the verdict was got is no part of the result
