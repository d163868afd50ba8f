"""``ginref report``: a batch audited per player agrees with ``verify --jsonl``, figure by figure.

The agreement is checked against a second account of the figures, worked out here from
the JSON lines ``verify --jsonl`` prints, on the samples and on generated games (clean and
broken); hand-made records a referee knows give exact figures; the command line is run
through click's ``CliRunner`` (schema, CSV, plot, exit codes, bad and hostile input).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import ginref
from ginref.audit import GROUPS, Audit, BatchReport, Weighing, knock_risks, report
from ginref.batch import verify
from ginref.cli import cli
from ginref.records import GameRecord, Turn, format_jsonl, format_text, read_records, write_records
from ginref.records.kaggle import decode_episode
from ginref.records.openspiel import encode_history
from ginref.referee import adjudicate
from ginref.referee.findings import RECORD_CODES
from ginref.rules import PRESET_NAMES
from tests.support.randomplay import corrupt, random_game, random_hand

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "records"
TOURNAMENT = ROOT / "samples" / "tournament"
OPENSPIEL = SAMPLES / "openspiel" / "games.jsonl"


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# -- the second account: figures from verify's JSON lines -----------------------------------


ADVISORY_FIGURES = {"knock_not_best": "knocks_not_best", "missed_layoff": "missed_layoffs"}


def jsonl_figures(lines: Iterable[str]) -> tuple[dict[str, Counter[str]], Counter[str], Counter[str]]:
    """Per player the figures of a row, worked out from ``verify --jsonl`` alone; then the
    error codes of every record and the count of readable records, hands and unreadable ones.
    (Advisories belong to the player whose name opens their message, as the referee words them.)"""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    errors: Counter[str] = Counter()
    batch: Counter[str] = Counter()
    for line in lines:
        doc = json.loads(line)
        if doc["status"] == "unreadable":
            batch["unreadable"] += 1
            continue
        batch["games"] += 1
        batch["hands"] += len(doc["hands"])
        players = doc["players"] if len(set(doc["players"])) == 2 else []
        for player in players:
            count = rows[player]
            count["games"] += 1
            count["games_won"] += doc["winner"] == player
            for hand in doc["hands"]:
                _hand_figures(count, hand, player)
            for f in doc["findings"]:
                key = ADVISORY_FIGURES.get(f["code"])
                if key and f["message"].startswith(player + " "):
                    count[key] += 1
        errors.update(f["code"] for f in doc["findings"] if f["severity"] == "error")
    return rows, errors, batch


def _hand_figures(count: Counter[str], hand: dict[str, Any], player: str) -> None:
    count["hands"] += 1
    outcome, winner = hand["outcome"], hand["winner"]
    if winner == player:
        count["hands_won"] += 1
        count["points_for"] += hand["points"]
        count["undercuts_made"] += outcome == "undercut"
    elif winner is not None:
        count["points_against"] += hand["points"]
    if hand["knocker"] == player:
        count["knocks"] += 1
        count["gins"] += outcome == "gin"
        count["big_gins"] += outcome == "big_gin"
        count["undercuts_suffered"] += outcome == "undercut"
        if hand["knocker_deadwood"] is not None:
            count["knocks_shown"] += 1
            count["knock_deadwood"] += hand["knocker_deadwood"]
    count["wall_hands"] += hand["end"] in ("wall", "stock")
    stop = hand["unfinished"]
    if stop is not None:
        count["unfinished"] += 1
        count["forfeited"] += stop["stopped_by"] == player and stop["reason"] != "stopped"


COMPARED = ("games", "games_won", "hands", "hands_won", "points_for", "points_against", "knocks", "gins",
            "big_gins", "undercuts_made", "undercuts_suffered", "knocks_shown", "knock_deadwood",
            "wall_hands", "unfinished", "forfeited", "knocks_not_best", "missed_layoffs")


def assert_agrees(done: BatchReport, lines: list[str]) -> None:
    rows, errors, batch = jsonl_figures(lines)
    assert {row.name for row in done.rows} == set(rows)
    for row in done.rows:
        mine = {name: getattr(row, name) for name in COMPARED}
        assert mine == {name: rows[row.name][name] for name in COMPARED}, row.name
    moves: Counter[str] = Counter(dict(done.record_errors))
    for row in done.rows:
        moves.update(dict(row.illegal_moves))
    assert moves == errors
    assert (done.games, done.hands, done.unreadable) == (batch["games"], batch["hands"], batch["unreadable"])
    assert done.records == len(lines)


def test_report_agrees_with_verify_jsonl_on_the_samples() -> None:
    code, out, _ = run("verify", str(SAMPLES), "--jsonl", "--jobs", "2")
    done = report([str(SAMPLES)], jobs=2)
    assert_agrees(done, out.splitlines())
    assert done.exit_code == code == 1


def generated(count: int, seed: int) -> list[GameRecord]:
    """Random games and hands under every preset, every fourth one broken in a known way."""
    rng = random.Random(seed)
    records = []
    for i in range(count):
        rules = PRESET_NAMES[i % len(PRESET_NAMES)]
        record = random_game(seed + i, rules, max_hands=6) if i % 2 else random_hand(seed + i, rules)
        if i % 4 == 3:
            with contextlib.suppress(ValueError):  # no corruption fits: the record stays clean
                record, _ = corrupt(record, rng)
        records.append(record)
    return records


@pytest.fixture(scope="module")
def generated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "games.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        assert list(write_records(generated(48, 7), stream, "jsonl")) == []
    return path


def test_report_agrees_with_verify_jsonl_on_generated_games(generated_file: Path) -> None:
    _, out, _ = run("verify", str(generated_file), "--jsonl", "--jobs", "1")
    lines = out.splitlines()
    assert any('"status":"findings"' in line for line in lines)
    for jobs in (1, 2):
        assert_agrees(report(generated_file, jobs=jobs), lines)


def test_the_advisories_cost_what_their_messages_say(generated_file: Path) -> None:
    """The points of knock_not_best and missed_layoff, summed per player, are the figures the
    referee's messages state, read here from verify's lines by a pattern of their own."""
    import re

    _, out, _ = run("verify", str(SAMPLES), str(generated_file), "--jsonl", "--jobs", "1")
    said: Counter[tuple[str, str]] = Counter()
    for line in out.splitlines():
        doc = json.loads(line)
        for f in doc.get("findings", ()):
            numbers = re.findall(r"\b(\d+) deadwood\b|with (\d+)$|have left (\d+)", f["message"])
            if f["code"] in ("knock_not_best", "missed_layoff"):
                first, second = (int(next(n for n in group if n)) for group in numbers[:2])
                said[(f["message"].split(" ")[0], f["code"])] += first - second
    done = report([str(SAMPLES), str(generated_file)], jobs=1)
    mine = Counter({(row.name, "knock_not_best"): row.knock_not_best_points for row in done.rows}
                   | {(row.name, "missed_layoff"): row.missed_layoff_points for row in done.rows})
    assert +mine == +said and said


def test_rows_by_game_and_by_rules_add_up_to_the_batch(generated_file: Path) -> None:
    by_player = report(generated_file, jobs=1)
    for by in ("game", "rules"):
        rows = report(generated_file, by=by, jobs=1).rows
        assert sum(row.hands for row in rows) == by_player.hands
        assert sum(row.games for row in rows) == by_player.games
        for figure in ("knocks", "gins", "undercuts_made", "knocks_not_best", "missed_layoff_points"):
            assert sum(getattr(r, figure) for r in rows) == sum(getattr(r, figure) for r in by_player.rows)
        assert sum(r.points_for for r in rows) == sum(r.points_for for r in by_player.rows)
        assert all(r.points_against == 0 for r in rows)  # a game's row holds both its players
    names = [row.name for row in report(generated_file, by="game", jobs=1).rows]
    assert len(names) == 48 and names[0] == f"{generated_file}:1"


def test_records_given_as_values_report_as_their_file_does(generated_file: Path) -> None:
    records = [r for r in read_records(generated_file) if isinstance(r, GameRecord)]
    assert report(iter(records)) == report(generated_file, jobs=1)
    assert report([]) == report(iter(())) and report([]).records == 0
    with pytest.raises(TypeError, match="not a mix"):
        report([str(generated_file), records[0]])  # type: ignore[list-item]
    with pytest.raises(ginref.GinrefError, match="player, game or rules"):
        report(generated_file, by="agent")  # type: ignore[arg-type]



def test_results_of_a_batch_under_way_report_as_its_paths_do(generated_file: Path) -> None:
    """``report`` counts any batch's results (verify's here, a Dask cluster's in the CLI), and
    closes them when done, so that the batch's workers stop."""
    batch = verify([str(generated_file), str(SAMPLES)], jobs=2)
    assert report(batch, by="game") == report([generated_file, SAMPLES], by="game", jobs=1)
    assert batch.gi_frame is None  # closed
    records = [r for r in read_records(generated_file) if isinstance(r, GameRecord)]
    with pytest.raises(TypeError, match="not a mix"):
        report([*verify(str(generated_file), jobs=1), records[0]])  # type: ignore[list-item]

@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(PRESET_NAMES))
def test_a_games_figures_balance(seed: int, rules: str) -> None:
    """Between the two players of a game: one's points for are the other's against, each
    undercut made is one suffered, and every hand is counted for both."""
    record = random_game(seed, rules, max_hands=8)
    a, b = report([record]).rows
    assert a.hands == b.hands == len(adjudicate(record).hands)
    assert (a.points_for, a.undercuts_made, a.hands_won) == (b.points_against, b.undercuts_suffered,
                                                             a.hands_won)
    assert a.points_for + b.points_for == sum(h.points for h in adjudicate(record).hands)
    assert a.games_won + b.games_won == (adjudicate(record).winner is not None)


# -- hand-made records a referee knows ------------------------------------------------------


CASES = [
    ("undercut", "Ann", {"hands_won": 1, "points_for": 11, "undercuts_made": 1, "knocks": 0}),
    ("undercut", "Bo", {"knocks": 1, "undercuts_suffered": 1, "knock_deadwood": 5, "points_against": 11}),
    ("tie-standard", "Ann", {"undercuts_made": 1, "points_for": 10}),
    ("gin", "Bo", {"knocks": 1, "gins": 1, "knock_deadwood": 0, "points_for": 72}),
    ("big-gin-hoyle", "Ann", {"big_gins": 1, "gins": 0, "points_for": 63}),
    ("advisory-missed-layoff", "Bo", {"missed_layoffs": 1, "missed_layoff_points": 5, "points_against": 26}),
    ("advisory-knock-not-best", "Bo", {"knocks_not_best": 1, "knock_not_best_points": 3,
                                       "knock_deadwood": 8}),
    ("void", "Ann", {"wall_hands": 1, "hands_won": 0, "knocks": 0}),
    ("openspiel-wall-knock", "Ann", {"knocks": 1, "knock_deadwood": 9, "wall_hands": 0, "games_won": 1}),
    ("game-three-hands", "Ann", {"hands": 3, "hands_won": 2, "points_for": 117, "points_against": 72,
                                 "games_won": 1}),
    ("wrong-turn", "Ann", {"illegal_moves": (("wrong_turn", 2),), "hands_won": 1}),
    ("wrong-card-not-in-hand", "Bo", {"illegal_moves": (("card_not_in_hand", 1),)}),
    ("wrong-knock-over-limit", "Ann", {"illegal_moves": (("knock_over_limit", 1),), "knocks": 1,
                                       "hands_won": 0, "knock_deadwood": 25}),
    ("wrong-score", "Ann", {"illegal_moves": (), "points_for": 21}),
]


@pytest.mark.parametrize(("sample", "player", "figures"), CASES,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_hand_made_records_give_exact_figures(sample: str, player: str, figures: dict[str, object]) -> None:
    for ending in ("gin", "json"):
        (row,) = (r for r in report(SAMPLES / f"{sample}.{ending}").rows if r.name == player)
        assert {name: getattr(row, name) for name in figures} == figures


def test_record_errors_name_no_player() -> None:
    done = report(SAMPLES / "wrong-score.gin")
    assert done.record_errors == (("wrong_score", 2),)
    assert all(row.illegal_move_count == 0 for row in done.rows)
    assert report(SAMPLES / "wrong-deal-incomplete.gin").record_errors == (("deal_incomplete", 1),)


def test_a_finding_names_the_player_whose_move_it_stands_at_in_every_form() -> None:
    """Each broken move of a generated game is the mover's, in text and in JSON alike, and
    the JSON a verify prints does not change for it."""
    rng = random.Random(3)
    seen: Counter[str] = Counter()
    for seed in range(60):
        record, _ = corrupt(random_game(seed, "standard", max_hands=4), rng)
        text = next(iter(read_records(io.StringIO(format_text(record)))))
        line = next(iter(read_records(io.StringIO(format_jsonl(record)), source="x.jsonl")))
        assert isinstance(text, GameRecord) and isinstance(line, GameRecord)
        for form in (text, line):
            verdict = adjudicate(form)
            for f in verdict.findings:
                assert "player" not in f.to_dict()
                if f.player is not None:
                    seen[f.code] += 1
                    assert f.player in form.players and f.code not in RECORD_CODES
                    assert f.player in f.message or f.code in ("stock_exhausted", "moves_after_end")
        assert [f.player for f in adjudicate(text).findings] == [f.player for f in adjudicate(line).findings]
    assert len(seen) >= 8


def test_a_kaggle_episode_names_its_agents_and_its_forfeit() -> None:
    game = next(r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord) and not r.overrides
                and adjudicate(r).winner == "P0")
    actions = encode_history(game)

    def episode(info: dict[str, object], cut: int | None = 30) -> dict[str, object]:
        return {"name": "open_spiel_gin_rummy", "rewards": [1.0, -1.0], "statuses": ["DONE", "DONE"],
                "configuration": {"openSpielGameParameters": {"oklahoma": False}},
                "info": {"actionHistory": [str(a) for a in actions[:cut]], **info}}

    named = decode_episode(episode({"TeamNames": ["Ada", "Basil"]}))
    assert named.players == ("Ada", "Basil")
    done = report([named])
    ada, basil = done.rows
    assert (basil.unfinished, basil.forfeited, ada.unfinished, ada.forfeited) == (1, 1, 1, 0)
    assert decode_episode(episode({"Agents": [{"Name": "Ada"}, {"Name": "Cy"}]})).players == ("Ada", "Cy")
    for bad in (["Ada", "Ada"], ["Ada"], ["", "Bo"], ["Ada\n", "Bo"], [1, 2], "Ada", ["x" * 65, "Bo"]):
        assert decode_episode(episode({"TeamNames": bad})).players == ("P0", "P1")
    finished = decode_episode(episode({"TeamNames": ["Ada", "Basil"]}, cut=None))
    assert adjudicate(finished).clean and adjudicate(finished).winner == "Ada"
    assert [(r.name, r.games_won) for r in report([finished]).rows] == [("Ada", 1), ("Basil", 0)]


# -- the knocks weighed ---------------------------------------------------------------------


def test_each_knock_is_weighed_as_advise_weighs_it_then() -> None:
    from ginref.advice import advise
    from ginref.referee.position import position_in

    weighing = Weighing(samples=60, seed=5, risk_above=0.1)
    records = [r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord)][:60]
    done = report(records, advise=weighing)
    risky = sum(row.undercut_risk.risky for row in done.rows if row.undercut_risk)
    weighed = sum(row.undercut_risk.weighed for row in done.rows if row.undercut_risk)
    assert 0 < risky < weighed <= sum(row.knocks for row in done.rows)
    record = next(r for r in records if knock_risks(r, adjudicate(r), weighing))
    ((hand, risk),) = knock_risks(record, adjudicate(record), weighing)
    event = next(j for j, ev in enumerate(record.hands[hand].events) if isinstance(ev, Turn) and ev.knock)
    at = position_in(record, hand, event)
    knock = record.hands[hand].events[event]
    assert isinstance(knock, Turn) and knock.knock is not None and knock.knock.discard is not None
    discard = knock.knock.discard
    again = advise(at.hand & ~(1 << discard), at.rules, seen=at.seen | 1 << discard,
                   opponent_has=at.opponent_has, stock=at.stock, samples=60, seed=5, method="sampled")
    assert risk == next(o.p_undercut for o in again.options if o.ending == "knock")
    assert report(records, advise=weighing) == done  # seeded: the same every time


def test_each_knocked_hand_is_replayed_once_and_weighed_as_position_in_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--advise`` reads each knock's position off the replay that rules on the record: the
    risks are those of :func:`knock_risks` (which plays the hand again at a table), for one
    replay a hand."""
    from ginref.referee.hand import Hand

    weighing = Weighing(samples=30, seed=2)
    records = [r for path in sorted(TOURNAMENT.glob("*.gin")) for r in read_records(path)
               if isinstance(r, GameRecord)]
    records += [r for r in read_records(OPENSPIEL) if isinstance(r, GameRecord)][:30]
    deals = Counter[str]()
    dealt = Hand.deal

    def counted(replay: Hand) -> bool:
        deals["hands"] += 1
        return dealt(replay)

    monkeypatch.setattr(Hand, "deal", counted)
    results: list[Any] = []
    done = report(records, advise=weighing, on_result=results.append)
    assert deals["hands"] == done.hands == sum(len(r.hands) for r in records)
    monkeypatch.undo()
    weighed = [knock_risks(record, adjudicate(record), weighing) for record in records]
    assert [result.added.undercut_risks for result in results] == weighed
    assert sum(map(len, weighed)) > 50

def test_knocks_that_cannot_be_followed_are_not_weighed() -> None:
    weighing = Weighing(samples=20)
    for sample, weighed in (("wrong-knock-over-limit", 0), ("wrong-card-not-in-hand", 0), ("gin", 0),
                            ("knock-layoffs", 1), ("unseen-stock", 1)):
        rows = report(SAMPLES / f"{sample}.gin", advise=weighing).rows
        assert sum(r.undercut_risk.weighed for r in rows if r.undercut_risk) == weighed, sample


# -- the command line -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("ginref").joinpath("schemas", "report.schema.json").read_text("utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


@pytest.mark.parametrize("extra", [(), ("--by", "game"), ("--by", "rules"), ("--advise", "--samples", "10")])
def test_json_validates_against_its_schema(
    extra: tuple[str, ...], validator: Any, generated_file: Path
) -> None:
    code, out, _ = run("report", str(SAMPLES / "undercut.gin"), str(generated_file), "--json", "--jobs", "1",
                       *extra)
    document = json.loads(out)
    assert code == 1 and not list(validator.iter_errors(document))
    assert document["by"] == (extra[1] if extra and extra[0] == "--by" else "player")


def test_the_schema_refuses_what_report_never_writes(validator: Any) -> None:
    document = json.loads(run("report", str(SAMPLES / "gin.gin"), "--json")[1])
    document["rows"][0]["hands"] = -1
    assert not validator.is_valid(document)


def test_csv_has_a_header_and_a_row_per_player() -> None:
    code, out, _ = run("report", str(SAMPLES), "--csv", "--jobs", "1")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1 and [row["player"] for row in rows] == ["Ann", "Bo", "P0", "P1"]
    ann = next(row for row in rows if row["player"] == "Ann")
    assert "wrong_turn=6" in ann["illegal_moves"].split()
    assert int(ann["illegal_move_count"]) == sum(int(m.split("=")[1]) for m in ann["illegal_moves"].split())


@pytest.mark.parametrize("by", GROUPS)
def test_on_an_80_column_terminal_the_text_fits_and_cut_names_stay_apart(by: str) -> None:
    from ginref.render.report import report_text

    done = report(SAMPLES, by=by, jobs=1)  # type: ignore[arg-type]
    text = report_text(done, 80)
    assert max(len(line) for line in text.splitlines()) <= 80, by
    first_table = text.split("\n\n")[1].splitlines()[3:]
    shown = [line.split("  ")[0] for line in first_table]
    assert len(set(shown)) == len(done.rows), by


@pytest.mark.parametrize("by", GROUPS)
def test_piped_or_redirected_no_name_is_cut(by: str) -> None:
    """Issue: with --by game every row of the tournament read `sample....gin:1`."""
    done = report(SAMPLES, by=by, jobs=1)  # type: ignore[arg-type]
    code, out, _ = run("report", str(SAMPLES), "--jobs", "1", "--by", by)
    assert code == 1
    for row in done.rows:
        assert f"\n{row.name}  " in out, row.name


def test_two_long_names_are_never_cut_into_the_same_text() -> None:
    from ginref.render.tables import fitted_names

    names = ["team-alpha-agent-final-v2", "team-alpha-agent-final-v3", "sample/tournament/game-01.gin:1",
             "sample/tournament/game-11.gin:1"]
    for room in range(1, 40):
        cut = fitted_names(names, room)
        assert len(set(cut)) == len(names), room
        assert all(len(c) <= max(room, len(n)) for c, n in zip(cut, names, strict=True))
    assert fitted_names(names, None) == names


@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=12, unique=True),
       st.integers(1, 50))
@settings(max_examples=200, deadline=None)
def test_cut_names_are_as_many_as_the_names(names: list[str], room: int) -> None:
    from ginref.render.tables import fitted_names

    assert len(set(fitted_names(names, room))) == len(names)


@pytest.mark.parametrize(("args", "code"), [
    ([str(TOURNAMENT)], 0),
    ([str(SAMPLES / "advisory-missed-layoff.gin")], 0),
    ([str(SAMPLES / "wrong-turn.gin")], 1),
    ([str(SAMPLES / "gin.gin"), "--json", "--csv"], 2),
    ([str(SAMPLES / "gin.gin"), "--by", "agent"], 2),
    ([str(SAMPLES / "gin.gin"), "--plot", "x.txt"], 2),
    ([str(SAMPLES / "gin.gin"), "--advise", "--scheduler", "local"], 2),
    ([str(SAMPLES / "gin.gin"), "--advise", "--samples", "0"], 2),
    ([str(SAMPLES / "gin.gin"), "--samples", "50"], 2),
    ([str(SAMPLES / "gin.gin"), "--advise", "--samples", "5", "--seed", "3"], 0),
    ([str(SAMPLES / "nope.gin")], 2),
])
def test_exit_codes(args: list[str], code: int) -> None:
    assert run("report", *args)[0] == code


def test_unreadable_records_are_named_on_stderr_and_counted(tmp_path: Path) -> None:
    good = [format_jsonl(random_hand(i)) for i in range(4)]
    (tmp_path / "games.jsonl").write_text("\n".join([*good[:2], '{"rules": "standard"', *good[2:]]) + "\n")
    (tmp_path / "junk.gin").write_bytes(b"\x00\x01binary\xff")
    (tmp_path / "empty.gin").write_text("")
    code, out, err = run("report", str(tmp_path), "--json", "--jobs", "1")
    document = json.loads(out)
    assert code == 3 and document["summary"]["records"] == 6 and document["summary"]["unreadable"] == 2
    assert document["games"] == 4 and "Traceback" not in err
    assert f"{tmp_path / 'games.jsonl'}:3:" in err and f"{tmp_path / 'junk.gin'}" in err
    assert "empty.gin holds no record" in err
    only_bad = tmp_path / "bad.jsonl"
    only_bad.write_text("garbage\n")
    code, out, err = run("report", str(only_bad))
    assert code == 3 and "unreadable: bad JSON" in err and "0 games" in out


def test_nothing_read_at_all_exits_3(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record")
    code, _, err = run("report", str(tmp_path))
    assert code == 3 and "no records found" in err


def test_stdin_and_files_report_alike() -> None:
    text = (SAMPLES / "all.jsonl").read_text()
    assert run("report", "-", "--json", stdin=text)[1].replace("<stdin>", "") == \
        run("report", str(SAMPLES / "all.jsonl"), "--json")[1].replace(str(SAMPLES / "all.jsonl"), "")


def test_hostile_records_spoil_only_themselves(tmp_path: Path) -> None:
    from tests.records.test_hostile_records import JSON_LINES, TEXT_LINES

    lines = [format_jsonl(random_hand(i)) for i in range(3)]
    batch = tmp_path / "hostile.jsonl"
    batch.write_text("\n".join([lines[0], *JSON_LINES.values(), *lines[1:]]) + "\n")
    text = tmp_path / "hostile.gin"
    good = format_text(random_hand(9)).rstrip()
    text.write_text("\n\n".join(f"{good}\n{line}" for line in TEXT_LINES.values()))
    for path in (batch, text):
        _, out, _ = run("verify", str(path), "--jsonl", "--jobs", "1")
        code, _, err = run("report", str(path), "--jobs", "1")
        assert "Traceback" not in err and code in (1, 3)
        assert_agrees(report(path, jobs=2), out.splitlines())


def test_fuzzed_batches_report_as_verify_reads_them(tmp_path: Path) -> None:
    from tests.support.fuzz import ENTRY_POINTS, make_input

    entry = ENTRY_POINTS["records_sniffed"]
    for index in range(40):
        path = tmp_path / f"fuzz{index}.jsonl"
        data = make_input(entry, 24, index)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        lines = [json.dumps(r.to_dict()) for r in verify([str(path)], jobs=1)]
        assert_agrees(report(path, jobs=1), lines)
        assert_agrees(report(path, advise=Weighing(samples=5)), lines)


def test_a_plot_is_drawn_the_same_every_time(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    for path in (first, second):
        assert run("report", str(TOURNAMENT), "--plot", str(path))[0] == 0
    assert first.read_bytes() == second.read_bytes() and b"lazy-bot" in first.read_bytes()


def test_a_plot_of_many_rows_shows_those_with_the_most_hands(tmp_path: Path, generated_file: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "games.svg"
    assert run("report", str(generated_file), "--by", "game", "--jobs", "1", "--plot", str(picture))[0] == 1
    assert b"40 of 48 rows" in picture.read_bytes()


def test_a_plot_that_cannot_be_written_exits_4_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    pytest.importorskip("matplotlib")
    unwritable = tmp_path / "x.png"  # a folder that does not exist is refused first (exit 2)
    unwritable.symlink_to("/dev/full")
    argv = [sys.executable, "-m", "ginref", "report", str(TOURNAMENT), "--plot", str(unwritable)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 4 and "lazy-bot" in done.stdout
    assert done.stderr.count("\n") == 1 and "cannot write the plot" in done.stderr


def test_the_audit_counts_each_result_once() -> None:
    audit = Audit()
    for result in verify([str(SAMPLES)], jobs=1):
        audit.add(result)
    assert audit.report() == report(SAMPLES, jobs=1)


@pytest.mark.parametrize(("sample", "code", "player", "points"), [
    ("advisory-missed-layoff.gin", "missed_layoff", "Bo", 28 - 23),
    ("advisory-knock-not-best.gin", "knock_not_best", "Bo", 8 - 5),
])
def test_the_referee_gives_the_points_an_advisory_cost_as_data(
    sample: str, code: str, player: str, points: int
) -> None:
    """The points a report adds up come from the finding itself, not from its wording."""
    from ginref.records import read_records
    from ginref.referee import adjudicate

    (record,) = read_records(SAMPLES / sample)
    assert not isinstance(record, Exception)
    (found,) = adjudicate(record).findings
    assert (found.code, found.player, found.points) == (code, player, points)
    assert "points" not in found.to_dict()  # verify's JSON is as it was


# -- the sample tournament ------------------------------------------------------------------


def test_the_tournament_sample_is_what_its_tool_writes() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("tournament", ROOT / "tools" / "tournament.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert {path.name: path.read_text() for path in TOURNAMENT.glob("*.gin")} == tool.texts()


def test_in_the_tournament_one_agent_misses_layoffs() -> None:
    keen, lazy = report(TOURNAMENT).rows
    assert (keen.name, lazy.name) == ("keen-bot", "lazy-bot")
    assert keen.missed_layoffs == 0 < lazy.missed_layoffs
    assert report(TOURNAMENT).with_findings == 0 and report(TOURNAMENT).games == 8


def test_a_report_on_a_dask_cluster_is_the_same_report(generated_file: Path) -> None:
    pytest.importorskip("distributed")
    import dask

    inputs = (str(SAMPLES), str(generated_file))
    local = run("report", *inputs, "--json", "--jobs", "2")
    cluster = run("report", *inputs, "--json", "--scheduler", "local", "--jobs", "2")
    assert cluster[:2] == local[:2] and local[0] == 1

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, out, err = run("report", str(SAMPLES), "--scheduler", "tcp://127.0.0.1:1")
    assert (code, out) == (69, "") and err.count("\n") == 1


# -- issue 43: what a row of a game names, and one note for many compressed files ----------


def test_by_game_each_row_names_its_players_and_its_winner_by_totals() -> None:
    from ginref.ranking import standings

    done = report(TOURNAMENT, by="game", jobs=1)
    wins = Counter(row.winner for row in done.rows)
    ranked = {row.player: row.wins for row in standings(TOURNAMENT, rounds=0).standings}
    assert all(row.players == ("keen-bot", "lazy-bot") for row in done.rows)
    assert wins == Counter(ranked)  # the standings' wins, game by game
    code, out, _ = run("report", str(TOURNAMENT), "--by", "game")
    assert code == 0 and f"{TOURNAMENT / 'game-01.gin'}:1  keen-bot v lazy-bot  lazy-bot" in out
    assert "winner" in out and "by totals" in out


def test_a_player_row_names_no_game_players() -> None:
    done = report(TOURNAMENT, jobs=1)
    assert {(row.players, row.winner) for row in done.rows} == {((), None)}


def test_many_compressed_files_make_one_note_on_stderr(tmp_path: Path) -> None:
    import gzip

    for path in sorted(TOURNAMENT.iterdir()):
        (tmp_path / (path.name + ".gz")).write_bytes(gzip.compress(path.read_bytes()))
    code, _, err = run("report", str(tmp_path), "--jobs", "2")
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert code == 0 and len(notes) == 1 and "8 files are gzip-compressed" in notes[0]


def test_by_game_the_csv_names_the_players_and_the_winner() -> None:
    code, out, _ = run("report", str(TOURNAMENT), "--by", "game", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 8 and list(rows[0])[:3] == ["game", "players", "winner"]
    assert (rows[0]["players"], rows[0]["winner"]) == ("keen-bot v lazy-bot", "lazy-bot")
    assert "players" not in run("report", str(TOURNAMENT), "--csv")[1]
