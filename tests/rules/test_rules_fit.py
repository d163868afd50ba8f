"""``ginref rules --fit``: a preset is listed only when the referee, ruling every record under
it, gives back every point they record; the knob values the points allow; where the rules a
batch names, and each other preset, part from them."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from ginref.cli import cli
from ginref.errors import RecordError
from ginref.records import GameRecord, read_records
from ginref.referee.findings import SCORE_CODES
from ginref.rulefit import MOST_NAMED, RulesFit, fit_rules
from ginref.rules import PRESETS, with_overrides

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "samples"
RECORDS = SAMPLES / "records"
FIRST_FIT = SAMPLES / "research" / "eaai-games.txt"
ALL_BUT_RLCARD = ("cardhearth", "eaai", "hollywood", "hoyle", "oklahoma", "openspiel", "round_the_corner",
                  "standard", "straight")


@pytest.fixture(scope="module")
def eaai_games() -> list[GameRecord]:
    with gzip.open(DATA / "eaai" / "simple-300.log.gz") as stream:
        return [r for r in read_records(stream, source="simple-300.log") if isinstance(r, GameRecord)]


def _knobs(fit: RulesFit) -> dict[str, tuple[str, ...]]:
    return {k.knob: k.values for k in fit.knobs}


def _one(name: str, index: int = 0) -> GameRecord:
    path = RECORDS / name if "/" not in name else SAMPLES / name
    return [r for r in read_records(path) if isinstance(r, GameRecord)][index]


def _claiming(record: GameRecord, change: int) -> GameRecord:
    """A one-hand record whose claim (result and running totals) is ``change`` points more."""
    hand = record.hands[0]
    assert hand.result is not None and hand.score_after is not None
    points = hand.result.points + change
    totals = tuple((name, points if name == hand.result.winner else 0) for name, _ in hand.score_after)
    claim = replace(hand.result, points=points)
    return replace(record, hands=(replace(hand, result=claim, score_after=totals),))


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- the presets listed: the referee's rulings decide, knob by knob --------------------------

KNOB_CASES = [
    # (what a referee would check, record, points more than recorded, the presets that fit)
    ("a spade upcard doubles the hand under oklahoma: scored plain", "advisory-knock-not-best.gin", 0,
     ("cardhearth", "eaai", "hollywood", "hoyle", "openspiel", "round_the_corner", "standard")),
    ("a spade upcard doubles the hand under oklahoma: scored doubled", "advisory-knock-not-best.gin", 18,
     ("oklahoma",)),
    ("the first upcard (a 3) limits the knock under oklahoma", "duplicate/deals.gin@2", 0,
     ("cardhearth", "eaai", "hollywood", "hoyle", "openspiel", "standard")),
    ("a knock within the upcard's value (9S, not doubled: a knock of 34)", "knock-layoffs.gin", 0,
     ("cardhearth", "eaai", "hollywood", "hoyle", "oklahoma", "openspiel", "standard")),
    ("gin bonus 20", "gin.gin", 0, ("hollywood", "oklahoma", "round_the_corner", "standard")),
    ("gin bonus 25", "gin.gin", 5, ("cardhearth", "eaai", "hoyle", "openspiel", "straight")),
    ("gin bonus 26: no preset", "gin.gin", 6, ()),
    ("undercut bonus 10", "undercut.gin", 0, ("hollywood", "oklahoma", "standard")),
    ("undercut bonus 25", "undercut.gin", 15, ("cardhearth", "eaai", "hoyle", "openspiel")),
    ("big gin 31 (hoyle alone has big gin)", "big-gin-hoyle.gin", 0, ("hoyle",)),
    ("a tie is an undercut", "tie-standard.gin", 0, ("hollywood", "oklahoma", "standard")),
    ("a tie scores nothing", "tie-openspiel.gin", 0, ("openspiel",)),
    ("a void scores nothing anywhere", "void.gin", 0, ALL_BUT_RLCARD),
    ("box, game and shutout bonuses: the final totals", "game-three-hands.gin", 0, ("standard",)),
    ("a knock over 10 fits no preset", "wrong-knock-over-limit.gin", 0, ()),
    ("announced deadwood the cards do not show", "wrong-deadwood-misdeclared.gin", 0, ()),
    ("the eleven-card deal names a knob no preset has", "eleven-card.gin", 0, ()),
]


@pytest.mark.parametrize(("name", "change", "presets"), [c[1:] for c in KNOB_CASES],
                         ids=[c[0] for c in KNOB_CASES])
def test_a_preset_is_listed_when_the_referee_gives_back_every_point(
    name: str, change: int, presets: tuple[str, ...]
) -> None:
    path, _, index = name.partition("@")
    record = _one(path, int(index or 0))
    fit = fit_rules([_claiming(record, change) if change else record])
    assert fit.presets == presets
    assert set(fit.presets) | {p.rules for p in fit.rejected} == set(fit.tried)


def test_the_oklahoma_limit_rejects_a_knock_over_the_upcard() -> None:
    fit = fit_rules([_one("duplicate/deals.gin", 2)])
    (oklahoma,) = [p for p in fit.rejected if p.rules == "oklahoma"]
    assert (oklahoma.code, oklahoma.line) == ("knock_over_limit", 114)
    assert oklahoma.message.endswith("but the knock limit is 3")


def test_hands_past_the_end_of_the_game_are_points_not_given_back() -> None:
    """A game to 50 ends before the hands the record goes on to score: they are not given back."""
    game = replace(_one("tournament/game-01.gin"), final_totals=None)
    short = with_overrides(PRESETS["standard"], {"game_target": 50})
    fit = fit_rules([game], [PRESETS["standard"], short])
    assert fit.presets == ("standard",)
    (parting,) = fit.rejected
    assert (parting.rules, parting.code, parting.hand) == ("standard + game_target=50", "moves_after_end", 11)


def test_eaai_games_fit_the_eaai_knobs(eaai_games: list[GameRecord]) -> None:
    fit = fit_rules(eaai_games)
    assert (fit.records, fit.hands, fit.evidence, fit.final_totals) == (300, 3133, 3133, 300)
    assert fit.presets == ("cardhearth", "eaai")
    assert _knobs(fit) == {"knock_limit": (">= 10",), "gin_bonus": ("25",), "big_gin_bonus": (),
                           "undercut_bonus": ("25",), "tie_policy": ("undercut",)}
    assert (fit.named, fit.partings) == (("eaai",), ())
    hoyle = next(p for p in fit.rejected if p.rules == "hoyle")
    assert hoyle.code == "wrong_score" and "final totals" in hoyle.message


def test_named_rules_that_part_are_caught_at_their_first_hand(eaai_games: list[GameRecord]) -> None:
    """The Kaggle prompt that said one thing while the game ran another, in small."""
    relabelled = [replace(g, rules="standard") for g in eaai_games[:20]]
    fit = fit_rules(relabelled)
    (parting,) = fit.partings
    first = next((g, h) for g in relabelled for h in g.hands
                 if h.result is not None and h.result.outcome in ("gin", "undercut"))
    assert (parting.rules, parting.index, parting.hand) == ("standard", first[0].index, first[1].number)
    assert parting.code in ("wrong_score", "wrong_result") and parting.line > 0
    assert parting.knobs == ("gin_bonus: the records say 25, standard says 20",
                             "undercut_bonus: the records say 25, standard says 10")


def test_unknown_named_rules_never_agree() -> None:
    fit = fit_rules([replace(_one("gin.gin"), rules="pinochle")])
    (parting,) = fit.partings
    assert (parting.rules, parting.code, parting.line) == ("pinochle", "unknown_rules", 5)


def test_unreadable_records_are_counted_and_rlcard_decides_the_knock_limit() -> None:
    items: list[GameRecord | RecordError] = [RecordError("bad", "x", 1, 1)]
    items += list(read_records(DATA / "rlcard" / "greedy-200.txt"))
    fit = fit_rules(items)
    assert (fit.records, fit.unreadable) == (200, 1)
    assert _knobs(fit)["knock_limit"] == (">= 10",)
    assert fit.presets in ((), ("rlcard",))


def test_gins_that_disagree_show_their_bonuses_in_bounded_memory() -> None:
    gin = _one("gin.gin")
    assert _knobs(fit_rules([_claiming(gin, change) for change in (0, 5)]))["gin_bonus"] == (
        "(none: 20, 25 all claimed)",)
    fit = fit_rules([_claiming(gin, change) for change in range(12)])
    assert _knobs(fit)["gin_bonus"] == ("(none: 20, 21, 22, 23, 24, 25, 26, 27, ... all claimed)",)
    assert next(k.hands for k in fit.knobs if k.knob == "gin_bonus") == 12


def test_the_rules_named_are_followed_up_to_a_bound() -> None:
    gin = _one("gin.gin")
    records = [replace(gin, rules=f"house-{n}") for n in range(MOST_NAMED + 3)]
    fit = fit_rules(records)
    assert (len(fit.named), len(fit.partings), fit.unfollowed) == (MOST_NAMED, MOST_NAMED, 3)
    assert fit_rules(records[:1]).unfollowed == 0


def _sample_records() -> list[GameRecord]:
    paths = [*sorted(RECORDS.glob("*.gin")), *sorted((SAMPLES / "tournament").glob("*.gin"))]
    return [r for path in paths for r in read_records(path) if isinstance(r, GameRecord)]


SAMPLE_RECORDS = _sample_records()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(SAMPLE_RECORDS), min_size=1, max_size=5))
def test_a_batch_fits_the_presets_every_record_fits(batch: list[GameRecord]) -> None:
    """Records are ruled one by one: a batch's presets are those every record gives back, in
    any order, and a preset's parting is at its first record that parts (the knobs it names
    are the whole batch's)."""
    fit = fit_rules(batch)
    each = [fit_rules([record]) for record in batch]
    recorded = [set(f.presets) for f in each if f.recorded]
    assert set(fit.presets) == (set.intersection(*recorded) if recorded else set())
    assert set(fit_rules(reversed(batch)).presets) == set(fit.presets)
    for parting in fit.rejected:
        first = next(f for f in each if parting.rules not in f.presets)
        alone = next(p for p in first.rejected if p.rules == parting.rules)
        assert replace(parting, knobs=()) == replace(alone, knobs=())


def test_records_with_no_points_fit_nothing() -> None:
    record = _one("gin.gin")
    bare = replace(record, hands=tuple(replace(h, result=None, score_after=None, next_dealer=None)
                                       for h in record.hands))
    fit = fit_rules([bare])
    assert (fit.recorded, fit.evidence, fit.final_totals, fit.presets, fit.rejected) == (False, 0, 0, (), ())


# -- the samples: every preset listed verifies with no wrong score ---------------------------

SAMPLE_FITS = [
    ("tournament", ("standard",)),
    ("duplicate", ("cardhearth", "eaai", "hollywood", "hoyle", "openspiel", "standard")),
    ("research", ()),
    ("research/eaai-games.txt", ("cardhearth", "eaai")),
]


@pytest.fixture(scope="module")
def sample_fits() -> dict[str, dict[str, object]]:
    found = {}
    for sample, _ in SAMPLE_FITS:
        code, out, _err = _run("rules", "--fit", str(SAMPLES / sample), "--json")
        assert code in (0, 1), out
        found[sample] = json.loads(out)
    return found


@pytest.mark.parametrize(("sample", "presets"), SAMPLE_FITS)
def test_the_samples_fit(
    sample: str, presets: tuple[str, ...], sample_fits: dict[str, dict[str, object]]
) -> None:
    assert tuple(sample_fits[sample]["presets"]) == presets  # type: ignore[call-overload]


@pytest.mark.parametrize("sample", [s for s, _ in SAMPLE_FITS])
def test_verify_agrees_with_every_preset_the_fit_lists_and_rejects(
    sample: str, sample_fits: dict[str, dict[str, object]]
) -> None:
    """The property of the issue: ``verify --rules PRESET`` finds no wrong score for a preset
    listed, and finds the code the fit names for each one rejected."""
    fit = sample_fits[sample]
    rejected = {p["rules"]: p["code"] for p in fit["rejected"]}  # type: ignore[attr-defined]
    for preset in fit["tried"]:  # type: ignore[attr-defined]
        _code, out, _err = _run("verify", "--rules", preset, "--override-rules", "--json", "-j", "1",
                                str(SAMPLES / sample))
        by_code = json.loads(out)["summary"]["by_code"]
        if preset in fit["presets"]:  # type: ignore[operator]
            assert not SCORE_CODES & set(by_code), (preset, by_code)
        else:
            assert rejected[preset] in by_code, (preset, by_code)


def test_tournament_does_not_list_oklahoma(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _err = _run("rules", "--fit", "samples/tournament")
    assert code == 0
    assert "presets that give back every recorded point: standard\n" in out
    assert ("  oklahoma          samples/tournament/game-01.gin:83: knock_over_limit: lazy-bot knocked "
            "with 9 deadwood (AC 5C 2H AS), but only gin ends a hand") in out


@pytest.mark.parametrize("sample", [s for s, _ in SAMPLE_FITS])
def test_listed_presets_have_the_solved_knob_values(
    sample: str, sample_fits: dict[str, dict[str, object]]
) -> None:
    """The knob table and the presets listed never contradict each other."""
    fit = sample_fits[sample]
    for preset in fit["presets"]:  # type: ignore[attr-defined]
        rules = PRESETS[preset]
        for knob in fit["knobs"]:  # type: ignore[attr-defined]
            values = knob["values"]
            if len(values) != 1 or values[0].startswith("("):
                continue
            if knob["knob"] == "knock_limit":
                assert rules.knock_limit >= int(values[0].removeprefix(">= ")), preset
            else:
                assert str(getattr(rules, knob["knob"])) == values[0], (preset, knob)


def test_every_place_is_a_file_and_line(sample_fits: dict[str, dict[str, object]]) -> None:
    for fit in sample_fits.values():
        for parting in [*fit["rejected"], *fit["partings"]]:  # type: ignore[misc]
            assert parting["source"].startswith(str(SAMPLES)) and parting["line"] >= 1, parting


# -- the command ------------------------------------------------------------------------------


def test_the_command_prints_the_fit() -> None:
    code, out, _err = _run("rules", "--fit", str(FIRST_FIT))
    assert code == 0, out
    assert out.splitlines()[:2] == [
        "3 records (0 unreadable), 39 hands; 39 hands and 3 final totals record points",
        "presets that give back every recorded point: cardhearth, eaai"]
    assert "named rules eaai: give back every recorded point" in out
    code, out, _err = _run("rules", "--fit", str(FIRST_FIT), "--json")
    assert json.loads(out)["presets"] == ["cardhearth", "eaai"]


def test_a_json_record_is_placed_at_its_line_and_pointer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _err = _run("rules", "--fit", "samples/records/wrong-score.json")
    assert code == 1
    assert ("named rules standard: part from the records at samples/records/wrong-score.json:1: "
            "/hands/0/result: wrong_score: the record gives 23 points; the hand is worth 21") in out


def test_no_recorded_points_says_so_and_exits_1(tmp_path: Path) -> None:
    text = (RECORDS / "gin.gin").read_text(encoding="utf-8")
    claims = ("result", "score", "next_dealer")
    bare = "\n".join(line for line in text.splitlines() if not line.startswith(claims))
    path = tmp_path / "bare.gin"
    path.write_text(bare + "\n", encoding="utf-8")
    code, out, _err = _run("rules", "--fit", str(path))
    assert code == 1
    assert out.splitlines()[1].startswith("no recorded points to fit")
    code, out, _err = _run("rules", "--fit", str(path), "--json")
    assert code == 1 and json.loads(out)["presets"] == [] and json.loads(out)["evidence"] == 0


def test_no_preset_fits_exits_1() -> None:
    code, out, _err = _run("rules", "--fit", str(RECORDS / "eleven-card.gin"))
    assert code == 1
    assert "presets that give back every recorded point: none" in out


def test_unreadable_records_are_named_on_stderr(tmp_path: Path) -> None:
    good = (RECORDS / "gin.gin").read_text(encoding="utf-8")
    path = tmp_path / "two.gin"
    path.write_text(good + "\n[Rules \"standard\"]\n[Players \"Ann\" \"Bo\"]\n\n[Hand \"1\"]\nAnn draw QZ\n",
                    encoding="utf-8")
    code, out, err = _run("rules", "--fit", str(path))
    assert code == 3
    assert out.startswith("1 records (1 unreadable)")
    (line,) = err.splitlines()
    assert line.startswith(f"{path}:") and ": unreadable: " in line
    verify = CliRunner().invoke(cli, ["verify", str(path), "-j", "1"])
    assert line in verify.stdout.splitlines()


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_file_that_cannot_be_read_is_named_and_the_rest_fitted() -> None:
    code, out, err = _run("rules", "--fit", "/dev/null", str(RECORDS / "gin.gin"))
    assert code == 3
    assert out.startswith("1 records (1 unreadable)")
    assert err.splitlines()[0].startswith("/dev/null: unreadable: ")


def test_only_unreadable_records_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "bad.gin"
    path.write_text("[Hand \"1\"]\nAnn draw QZ\n", encoding="utf-8")
    code, out, err = _run("rules", "--fit", str(path))
    assert code == 3 and ": unreadable: " in err
    assert out.splitlines() == ["0 records (1 unreadable), 0 hands; 0 hands and 0 final totals record points",
                                "no readable record: nothing to fit"]


def test_a_score_sheet_is_refused_by_name() -> None:
    sheet = SAMPLES / "sheets" / "standard-worked.sheet"
    code, out, err = _run("rules", "--fit", str(sheet))
    assert code == 2 and not out
    assert f"Error: {sheet} is a score sheet" in err and "ginref game" in err


def test_a_score_sheet_on_stdin_is_refused_too() -> None:
    """A real pipe, which ginref can look into before it reads (CliRunner's stdin cannot)."""
    sheet = (SAMPLES / "sheets" / "hollywood.sheet").read_bytes()
    run = subprocess.run([sys.executable, "-m", "ginref", "rules", "--fit", "-"], input=sheet,
                         capture_output=True, cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 2 and not run.stdout
    assert run.stderr.decode().startswith("Error: standard input is a score sheet")
    record = (RECORDS / "gin.gin").read_bytes()
    run = subprocess.run([sys.executable, "-m", "ginref", "rules", "--fit", "-"], input=record,
                         capture_output=True, cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 0 and run.stdout.startswith(b"1 records (0 unreadable)")


def test_a_folder_of_no_records_exits_3() -> None:
    code, out, err = _run("rules", "--fit", str(SAMPLES / "sheets"))
    assert code == 3 and not out
    assert "no records found" in err and "skipped 3 file(s)" in err


def test_set_changes_every_preset_tried() -> None:
    path = str(RECORDS / "eleven-card.gin")
    code, out, _err = _run("rules", "--fit", path, "--set", "first_turn=eleven_card", "--json")
    fit = json.loads(out)
    assert code == 0
    assert "standard + first_turn=eleven_card" in fit["presets"]
    assert fit["tried"] == [f"{name} + first_turn=eleven_card" if name != "rlcard" else name
                            for name in sorted(PRESETS)]  # rlcard deals eleven cards already
    code, _out, err = _run("rules", "--fit", path, "--set", "gin_bonus=many")
    assert code == 2 and "gin_bonus" in err


def test_a_rules_file_is_the_one_rule_set_tried(tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text('base = "standard"\nfirst_turn = "eleven_card"\n', encoding="utf-8")
    code, out, _err = _run("rules", "--fit", str(RECORDS / "eleven-card.gin"), "--rules-file", str(table),
                           "--json")
    fit = json.loads(out)
    assert code == 0
    assert fit["tried"] == fit["presets"] == ["standard + first_turn=eleven_card"]


def test_the_help_names_the_codes_a_fit_rejects_by() -> None:
    code, out, _err = _run("rules", "--help")
    assert code == 0
    assert all(c in out for c in SCORE_CODES)


def test_the_command_needs_paths() -> None:
    code, _out, err = _run("rules", "--fit")
    assert code == 2
    assert "--fit needs the records to read" in err


def test_a_missing_path_is_a_usage_error() -> None:
    code, _out, err = _run("rules", "--fit", "no-such-file.gin")
    assert code == 2 and "no such file or folder" in err
