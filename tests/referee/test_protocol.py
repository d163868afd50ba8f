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
        answered = serve(stdin, out)
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
                      "message": "Ann took no card at the start of the turn", "place": "hand 1, move 2"}
    assert _state(session) == before


def test_a_player_out_of_turn_is_refused() -> None:
    session = _new()
    answer = _ask(session, {"op": "move", "player": "Ann", "move": "pass"})
    assert (answer["error"], answer["code"]) == ("illegal_move", "wrong_turn")
    assert _ask(session, {"op": "legal", "player": "Ann"}) == {"ok": True, "moves": []}


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
    assert serve(stdin, out, max_line=100) == 3
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
        assert process.stderr is not None and process.stderr.read() == ""
    finally:
        process.kill()
        process.wait()
