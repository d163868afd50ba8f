"""``ginref rules --fit``: the presets and knob values a batch's recorded scores allow, and the
first hand where the rules a batch names part from them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from msgspec.structs import replace

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import GameRecord, read_records
from ginref.rulefit import fit_rules

DATA = Path(__file__).resolve().parents[1] / "data"
FIRST_FIT = DATA.parent.parent / "samples" / "research" / "eaai-games.txt"


@pytest.fixture(scope="module")
def eaai_games() -> list[GameRecord]:
    with gzip.open(DATA / "eaai" / "simple-300.log.gz") as stream:
        return [r for r in read_records(stream, source="simple-300.log") if isinstance(r, GameRecord)]


def _knobs(fit: object) -> dict[str, tuple[str, ...]]:
    return {k.knob: k.values for k in fit.knobs}  # type: ignore[attr-defined]


def test_eaai_games_fit_the_eaai_knobs(eaai_games: list[GameRecord]) -> None:
    fit = fit_rules(eaai_games)
    assert (fit.records, fit.hands, fit.evidence) == (300, 3133, 3130)
    assert fit.presets == ("cardhearth", "eaai", "hoyle", "rlcard")
    assert _knobs(fit) == {"knock_limit": (">= 10",), "gin_bonus": ("25",), "big_gin_bonus": (),
                           "undercut_bonus": ("25",), "tie_policy": ("undercut",)}
    assert (fit.named, fit.partings) == (("eaai",), ())


def test_named_rules_that_part_are_caught_at_their_first_hand(eaai_games: list[GameRecord]) -> None:
    """The Kaggle prompt that said one thing while the game ran another, in small."""
    relabelled = [replace(g, rules="standard") for g in eaai_games[:20]]
    fit = fit_rules(relabelled)
    (parting,) = fit.partings
    first = next((g, h) for g in relabelled for h in g.hands
                 if h.result is not None and h.result.outcome in ("gin", "undercut"))
    assert (parting.rules, parting.index, parting.hand) == ("standard", first[0].index, first[1].number)
    assert parting.knobs == ("gin_bonus: the records say 25, standard says 20",
                             "undercut_bonus: the records say 25, standard says 10")


def test_scores_that_fit_no_preset_say_so() -> None:
    game = next(r for r in read_records(FIRST_FIT)
                if isinstance(r, GameRecord) and any(h.result and h.result.outcome == "gin" for h in r.hands))
    hands = list(game.hands)
    gin = next(i for i, h in enumerate(hands) if h.result is not None and h.result.outcome == "gin")
    claim = hands[gin].result
    assert claim is not None
    hands[gin] = replace(hands[gin], result=replace(claim, points=claim.points + 6))
    fit = fit_rules([replace(game, hands=tuple(hands), final_totals=None)])
    assert fit.presets == ()
    assert _knobs(fit)["gin_bonus"] == ("31",)


def test_unreadable_records_are_counted_and_rlcard_decides_only_the_knock_limit() -> None:
    items: list[GameRecord | RecordError] = [RecordError("bad", "x", 1, 1)]
    items += list(read_records(DATA / "rlcard" / "greedy-200.txt"))
    fit = fit_rules(items)
    assert (fit.records, fit.unreadable, fit.evidence) == (200, 1, 0)
    assert _knobs(fit)["knock_limit"] == (">= 10",)
    assert "straight" not in fit.presets and "rlcard" in fit.presets


def test_the_command_prints_the_fit() -> None:
    result = CliRunner().invoke(cli, ["rules", "--fit", str(FIRST_FIT)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == [
        "3 records (0 unreadable), 39 hands; 39 hands claim their points",
        "presets that agree: cardhearth, eaai, hoyle, rlcard", ""]
    assert "named rules eaai: agree with every recorded score" in result.output
    data = json.loads(CliRunner().invoke(cli, ["rules", "--fit", str(FIRST_FIT), "--json"]).output)
    assert data["presets"] == ["cardhearth", "eaai", "hoyle", "rlcard"]


def test_the_command_needs_paths() -> None:
    result = CliRunner().invoke(cli, ["rules", "--fit"])
    assert result.exit_code == 2
    assert "--fit needs the records to read" in result.output
