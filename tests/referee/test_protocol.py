"""``ginref table``: the JSON Lines protocol (ginref.referee.protocol) and its command.

Each answer is one line of JSON that validates against ginref/schemas/table.schema.json;
a refused request changes nothing; an answer to a request that names a player never holds a
card of the opponent's hand that player cannot know, until the hand is over; random JSON
requests and mutated lines are answered, never a traceback. The README's transcript is
run by tests/project/test_readme.py; here a real process answers through pipes.
"""

from __future__ import annotations

import functools
import io
import json
import random
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.cards import card_name, scan
from ginref.referee.protocol import OPS, Session, serve

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "samples" / "table" / "session.jsonl"
PLAYERS = ("Ann", "Bo")


@functools.cache
def _validator() -> Any:
    """The answers' schema as the package ships it, checked once."""
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("ginref").joinpath("schemas", "table.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _valid(line: str) -> dict[str, Any]:
    answer = json.loads(line)
    _validator().validate(answer)
    return answer  # type: ignore[no-any-return]


def _ask(session: Session, request: object) -> dict[str, Any]:
    return _valid(session.answer_line(json.dumps(request)))


def _new(seed: int = 7) -> Session:
    session = Session()
    assert _ask(session, {"op": "new", "players": list(PLAYERS), "dealer": "Ann", "seed": seed})["ok"]
    return session


def _state(session: Session) -> object:
    table = session.table
    assert table is not None
    return ([str(m) for m in table.moves], str(table.phase), table.to_move,
            [str(m) for m in table.legal_moves()], table.record())


# -- requests ------------------------------------------------------------------------------------


def test_every_line_of_the_sample_session_is_answered_by_the_schema() -> None:
    out = io.StringIO()
    with SESSION.open("rb") as stdin:
        answered = serve(stdin, out).answered
    lines = out.getvalue().splitlines()
    assert answered == len(lines) == len(SESSION.read_bytes().splitlines())
    answers = [_valid(line) for line in lines]
    assert answers[0]["id"] == 1
    assert [a.get("error") for a in answers if not a["ok"]] == [
        "illegal_move", "hidden", "hidden", "unknown_request", "bad_json"]


REFUSALS = [
    ({"op": "move", "move": "draw"}, "no_table"),
    ([1, 2], "not_an_object"),
    ("new", "not_an_object"),
    ({"op": "fly"}, "unknown_request"),
    ({"op": ["new"]}, "unknown_request"),
    ({"op": "new", "rules": "../../etc/passwd.toml"}, "bad_request"),
    ({"op": "new", "rules": "standard", "set": {"gin_bonus": "lots"}}, "bad_request"),
    ({"op": "new", "players": ["Ann"]}, "bad_request"),
    ({"op": "new", "seed": -1}, "bad_request"),
    ({"op": "new", "deck": ["AC"] * 52}, "bad_request"),
    ({"op": "new", "hands": {"North": ["AC"]}, "upcard": "2C", "stock": []}, "bad_request"),
    ({}, "unknown_request"),
    ({"op": "new", "seeed": 3}, "bad_request"),
    ({"op": "new", "player": "Ann"}, "operator_only"),
    ({"op": "new", "players": ["A" * 81, "Bo"]}, "bad_request"),
    ({"op": "legal", "id": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}, "too_deep"),
]


@pytest.mark.parametrize(("request_", "error"), REFUSALS, ids=lambda v: str(v)[:40])
def test_a_bad_request_is_answered_and_the_session_goes_on(request_: object, error: str) -> None:
    session = Session()
    answer = _ask(session, request_)
    assert (answer["ok"], answer["error"]) == (False, error)
    assert _ask(session, {"op": "new", "seed": 1})["ok"]


def test_an_illegal_move_is_answered_with_its_finding_and_the_hand_stays() -> None:
    session = _new()
    assert _ask(session, {"op": "move", "player": "Bo", "move": "pass"})["ok"]
    before = _state(session)
    answer = _ask(session, {"op": "move", "player": "Ann", "move": "discard 7S", "id": "m1"})
    assert answer == {"ok": False, "error": "illegal_move", "id": "m1", "code": "no_draw", "rule": None,
                      "message": "'discard 7S' refused: now you may take or pass the upcard; "
                                 "ask 'legal' for the moves you may make", "place": "hand 1, move 2"}
    assert _state(session) == before
    operator = _ask(session, {"op": "move", "move": "discard 7S"})
    assert operator["detail"] == "Ann took no card at the start of the turn"
    assert _state(session) == before


def test_a_player_out_of_turn_is_refused() -> None:
    session = _new()
    answer = _ask(session, {"op": "move", "player": "Ann", "move": "pass"})
    assert (answer["error"], answer["code"]) == ("illegal_move", "wrong_turn")
    assert _ask(session, {"op": "legal", "player": "Ann"}) == {
        "ok": True, "moves": [], "why": "not_your_turn"}


def test_a_whole_hand_and_its_record() -> None:
    session = _new(2)
    table = session.table
    assert table is not None
    while not table.is_over():
        moves = [str(m) for m in table.legal_moves()]
        assert _ask(session, {"op": "legal"})["moves"] == moves
        answer = _ask(session, {"op": "move", "player": table.to_move, "move": moves[-1]})
        assert answer["ok"], answer
    assert answer["over"] and answer["outcome"]["outcome"] in ("knock", "gin", "undercut", "void", "tie")
    record = _ask(session, {"op": "record", "player": "Bo"})["record"]
    assert record["players"] == list(PLAYERS)
    assert _ask(session, {"op": "record", "format": "gin"})["record"].startswith('[Rules "standard"]')
    assert _ask(session, {"op": "pop"})["ok"] and not table.is_over()


def test_a_line_too_long_is_skipped_and_answered() -> None:
    stdin = io.BytesIO(b'{"op": "new", "seed": 3}\n' + b"x" * 500 + b"\n\n" + b'{"op": "legal"}\n')
    out = io.StringIO()
    assert serve(stdin, out, max_line=100).answered == 3
    answers = [_valid(line) for line in out.getvalue().splitlines()]
    assert [a.get("error") for a in answers] == [None, "line_too_long", None]
    assert answers[2]["moves"] == ["take", "pass"]


# -- hidden information --------------------------------------------------------------------------


def _hidden(session: Session, player: str) -> set[str]:
    """The opponent's cards ``player`` cannot know: its hand less what it took from the pile
    and the melds it declared."""
    table = session.table
    assert table is not None
    other = PLAYERS[1 - PLAYERS.index(player)]
    view = table.view(player)
    unknown = table.view(other).hand.mask & ~view.opponent_took.mask
    for meld in view.melds:
        unknown &= ~meld.mask
    return {card_name(c) for c in scan(unknown)}


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return set(value.replace("[", " ").replace("]", " ").split())
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


@pytest.mark.parametrize("seed", range(12))
def test_answers_to_a_player_never_hold_the_opponents_hand_before_the_end(seed: int) -> None:
    rng = random.Random(seed)
    session = _new(seed)
    table = session.table
    assert table is not None
    while not table.is_over():
        for player in PLAYERS:
            hidden = _hidden(session, player)
            asked = ({"op": "view", "player": player}, {"op": "legal", "player": player},
                     {"op": "record", "player": player}, {"op": "view", "player": player, "seat": "Ann"})
            for request in asked:
                answer = _ask(session, request)
                assert not _strings(answer) & hidden, (request, answer)
        mover = table.to_move
        moves = table.legal_moves()
        knocks = [m for m in moves if m.kind == "knock"]
        move = str(knocks[0] if knocks and rng.random() < 0.5 else rng.choice(moves))
        answer = _ask(session, {"op": "move", "player": mover, "move": move})
        if not table.is_over() and mover is not None:
            assert not _strings(answer) & _hidden(session, mover), (move, answer)


# -- fuzz ----------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(["op", "player", "move", "seat", "format", "seed", "deck", "hands", "upcard",
                          "stock", "rules", "set", "players", "dealer", "id"])
WORDS = st.sampled_from(["draw", "take", "pass", "discard 7H", "knock 2C [3C 4C 5C]", "finish", "AC>1",
                         "Ann", "Bo", "North", "gin", "json", "gin 9D", "", "  ", "\u0000", "7H 8H"])
REQUESTS = st.fixed_dictionaries(
    {"op": st.sampled_from([*OPS, "nope"]) | JSON},
    optional={"player": WORDS | JSON, "move": WORDS | JSON, "seat": WORDS, "format": WORDS | JSON},
) | st.dictionaries(FIELDS, WORDS | JSON, max_size=5) | JSON


@settings(max_examples=150, deadline=None)
@given(st.lists(REQUESTS, min_size=1, max_size=8))
def test_random_requests_are_answered_and_a_refusal_changes_nothing(requests: list[object]) -> None:
    session = _new(5)
    for request in requests:
        if isinstance(request, dict) and request.get("op") in ("new", "next_hand"):
            request = {**request, "op": "legal"}
        before = _state(session)
        answer = _valid(session.answer_line(json.dumps(request)))
        if not answer["ok"]:
            assert _state(session) == before


@pytest.mark.parametrize("seed", range(6))
def test_mutated_session_lines_are_answered(seed: int) -> None:
    rng = random.Random(f"protocol:{seed}")
    lines = SESSION.read_bytes().splitlines()
    session = Session()
    for _ in range(150):
        line = bytearray(rng.choice(lines))
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(line) + 1)
            line[at:at + rng.randrange(3)] = bytes(rng.randrange(256) for _ in range(rng.randrange(3)))
        _valid(session.answer_line(bytes(line)))


# -- a real process ------------------------------------------------------------------------------


def test_a_real_process_answers_each_line_as_it_comes() -> None:
    process = subprocess.Popen([sys.executable, "-m", "ginref", "table"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        for request, key in ((b'{"op": "new", "players": ["Ann", "Bo"], "seed": 7}', "to_move"),
                             (b"{not json", "error"), (b'{"op": "legal"}', "moves")):
            process.stdin.write(request.decode() + "\n")
            process.stdin.flush()
            assert key in json.loads(process.stdout.readline())
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        assert process.stderr is not None
        note = "note: the input ended with hand 1 in play after 0 moves; it is left unfinished\n"
        assert process.stderr.read() == note
    finally:
        process.kill()
        process.wait()


# -- roles, limits and the protocol's manners ----------------------------------------------------


@pytest.mark.parametrize("op", ["new", "next_hand", "pop"])
def test_the_operators_requests_are_refused_to_a_seat_and_change_nothing(op: str) -> None:
    session = _new()
    _ask(session, {"op": "move", "player": "Bo", "move": "pass"})
    before = _state(session)
    for player in ("Bo", "Ann", "Zed"):
        request = {"op": op, "player": player, **({"seed": 99} if op != "pop" else {})}
        answer = _ask(session, request)
        assert answer["error"] == "operator_only", answer
    assert _state(session) == before


@pytest.mark.parametrize("op", ["legal", "move", "view", "record"])
def test_a_player_who_is_not_seated_is_refused(op: str) -> None:
    session = _new()
    answer = _ask(session, {"op": op, "player": "Zed", **({"move": "pass"} if op == "move" else {})})
    assert answer["error"] == "not_seated"


def test_nesting_of_any_depth_is_answered_and_the_session_goes_on() -> None:
    session = _new()
    for depth in (17, 988, 5_000, 200_000):
        line = '{"op": "legal", "id": ' + "[" * depth + "]" * depth + "}"
        assert _valid(session.answer_line(line))["error"] == "too_deep"
        assert _valid(session.answer_line("[" * depth + "]" * depth))["error"] == "too_deep"
    assert _ask(session, {"op": "legal"})["moves"] == ["take", "pass"]


def test_a_long_name_is_refused_when_it_arrives_not_when_the_hand_ends() -> None:
    session = Session()
    answer = _ask(session, {"op": "new", "players": ["A" * 90, "Bo"], "seed": 3})
    assert answer["error"] == "bad_request" and "at most 80 characters" in answer["message"]
    assert _ask(session, {"op": "new", "players": ["A" * 80, "Bo"], "seed": 3})["ok"]
    table = session.table
    assert table is not None
    while not table.is_over():
        assert _ask(session, {"op": "move", "move": str(table.legal_moves()[-1])})["ok"]
    assert _ask(session, {"op": "record", "format": "gin"})["ok"]


@pytest.mark.parametrize("ident", ["m1", 7, 2.5, None, True, [1, "a"], {"n": {"m": [None]}}, 10**30, ""])
def test_any_json_id_is_echoed(ident: object) -> None:
    session = _new()
    assert _ask(session, {"op": "legal", "id": ident})["id"] == ident
    assert _ask(session, {"op": "fly", "id": ident})["id"] == ident


def test_an_unknown_field_is_refused_with_what_it_may_have_meant() -> None:
    session = _new()
    answer = _ask(session, {"op": "new", "seeed": 3})
    assert "did you mean 'seed'?" in answer["message"]
    answer = _ask(session, {"op": "move", "player": "Bo", "mvoe": "pass"})
    assert answer["error"] == "bad_request" and "did you mean 'move'?" in answer["message"]
    assert "did you mean 'legal'?" in _ask(session, {"op": "legl"})["message"]
    assert "needs an 'op'" in _ask(session, {})["message"]


def test_null_is_an_absent_optional_field_and_move_words_ignore_case() -> None:
    session = Session()
    nulls = {"players": None, "rules": None, "set": None, "dealer": None}
    assert _ask(session, {"op": "new", **nulls, "seed": 7})["ok"]
    assert _ask(session, {"op": "legal", "player": None})["moves"] == ["take", "pass"]
    answer = _ask(session, {"op": "move", "player": "South", "move": "TAKE"})
    assert answer["ok"] and answer["move"] == "take"
    assert _ask(session, {"op": "move", "player": "South", "move": "Discard " + answer["card"].lower()})[
        "code"] == "same_card_discard"


def test_a_draw_tells_the_drawer_its_card_and_no_one_else() -> None:
    session = _new()
    _ask(session, {"op": "move", "player": "Bo", "move": "pass"})
    _ask(session, {"op": "move", "player": "Ann", "move": "pass"})
    table = session.table
    assert table is not None
    before = table.view("Bo").hand.mask
    answer = _ask(session, {"op": "move", "player": "Bo", "move": "draw"})
    drawn = table.view("Bo").hand.mask & ~before
    assert answer["card"] == card_name(next(scan(drawn)))
    assert "card" not in _ask(session, {"op": "view", "player": "Ann"})["view"]


def test_legal_says_why_it_is_empty() -> None:
    session = _new(2)
    table = session.table
    assert table is not None
    assert _ask(session, {"op": "legal", "player": "Ann"})["why"] == "not_your_turn"
    while not table.is_over():
        _ask(session, {"op": "move", "move": str(table.legal_moves()[-1])})
    for player in ("Ann", "Bo", None):
        answer = _ask(session, {"op": "legal", "player": player})
        assert answer == {"ok": True, "moves": [], "why": "hand_over"}


def test_a_new_hand_without_a_deal_reports_the_seed_that_deals_it_again() -> None:
    first = Session()
    seed = _ask(first, {"op": "new"})["seed"]
    again = Session()
    assert _ask(again, {"op": "new", "seed": seed})["seed"] == seed
    assert first.table is not None and again.table is not None
    assert first.table.view("North") == again.table.view("North")
    assert first.table.view("South") == again.table.view("South")


def test_the_answer_that_ends_the_game_says_so_and_the_record_holds_every_hand() -> None:
    session = Session()
    _ask(session, {"op": "new", "players": list(PLAYERS), "set": {"game_target": 25}, "seed": 0})
    table = session.table
    assert table is not None
    hands, rng = 1, random.Random(0)
    while True:
        while not table.is_over():
            moves = table.legal_moves()
            knocks = [m for m in moves if m.kind == "knock"]
            answer = _ask(session, {"op": "move", "move": str(knocks[0] if knocks else rng.choice(moves))})
        assert answer["hand"] == hands and "game" in answer
        if answer["game"]["game_over"]:
            break
        assert _ask(session, {"op": "next_hand", "seed": hands})["hand"] == hands + 1
        hands += 1
    game = answer["game"]
    assert game["winner"] in PLAYERS
    assert game["final_totals"][game["winner"]] > game["hand_totals"][game["winner"]]  # the game bonus
    assert _ask(session, {"op": "next_hand"})["error"] == "bad_request"
    record = _ask(session, {"op": "record", "player": "Ann"})["record"]
    assert len(record["hands"]) == hands


def test_a_real_process_outlives_a_deep_line_and_a_long_name() -> None:
    lines = ['{"op": "new", "players": ["' + "A" * 90 + '", "Bo"], "seed": 1}',
             '{"op": "legal", "id": ' + "[" * 988 + "]" * 988 + "}",
             "[" * 60_000, '{"op": "new", "seed": 1}', '{"op": "legal", "id": 5}']
    done = subprocess.run([sys.executable, "-m", "ginref", "table"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("error") for a in answers] == ["bad_request", "too_deep", "too_deep", None, None]
    assert answers[-1]["id"] == 5 and done.returncode == 0


# -- the command ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "env", "rules"), [
    ([], {}, "standard"), (["--rules", "oklahoma"], {}, "oklahoma"),
    ([], {"GINREF_RULES": "hollywood"}, "hollywood"),
    (["--rules", "standard", "--set", "gin_bonus=31"], {}, "standard"),
])
def test_the_command_takes_rules_as_every_command_does(
        args: list[str], env: dict[str, str], rules: str) -> None:
    from click.testing import CliRunner

    from ginref.cli import cli

    lines = ('{"op": "new", "seed": 7}\n{"op": "record"}\n'
             '{"op": "new", "seed": 7, "rules": "straight"}\n{"op": "record"}\n')
    result = CliRunner(env=env).invoke(cli, ["table", *args], input=lines, catch_exceptions=False)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[1]["record"]["rules"] == rules and answers[3]["record"]["rules"] == "straight"
    overrides = answers[1]["record"].get("overrides", {})
    assert ("gin_bonus" in str(overrides)) == ("--set" in args)


def test_the_end_of_input_with_a_hand_in_play_is_noted_on_stderr() -> None:
    from click.testing import CliRunner

    from ginref.cli import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["table"], input='{"op": "new", "seed": 7}\n{"op": "move", "move": "pass"}\n')
    assert result.exit_code == 0
    assert result.stderr == "note: the input ended with hand 1 in play after 1 move; it is left unfinished\n"
    assert runner.invoke(cli, ["table"], input="").stderr == ""


def test_on_a_terminal_the_command_says_what_it_waits_for() -> None:
    pty = pytest.importorskip("pty")
    import os

    pid, fd = pty.fork()
    if pid == 0:  # the child: ginref table on a terminal, which ends at once (Ctrl-D)
        os.execv(sys.executable, [sys.executable, "-m", "ginref", "table"])
    os.write(fd, b"\x04")
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"ginref table: reading JSON requests, one a line" in seen
