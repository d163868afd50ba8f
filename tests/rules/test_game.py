"""Whole-game scoring, Hollywood (``ginref.game``) and score sheets (``ginref.sheets``).

The two worked examples are transcribed from the seeds: seed 000 (standard, Ann and
Bo, seven hands) and seed 003 (Tallynight/hoyle, Ana and Ben, four hands). Every
other expected number is worked out by hand in the comments next to it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginref.errors import GinrefError, RecordError, UnknownRulesError
from ginref.game import (
    GameError,
    GameOverError,
    GameTally,
    HandEntry,
    HollywoodTally,
    Scorer,
    hollywood,
    score_entries,
    tally,
)
from ginref.rules import PRESETS, STANDARD, Rules, find_rules, with_overrides
from ginref.sheets import parse_sheet, read_sheet

SHEETS = Path(__file__).resolve().parents[2] / "samples" / "sheets"
E = HandEntry
AB = ("Ann", "Bo")


def bonuses(result: GameTally) -> dict[str, list[tuple[str, int]]]:
    return {p: [(b.kind, b.points) for b in items] for p, items in result.bonuses.items()}


def running(result: GameTally) -> list[tuple[int, int]]:
    a, b = result.players
    return [(h.totals[a], h.totals[b]) for h in result.hands]


# -- the worked examples ------------------------------------------------------------------

SEED_000 = [
    E("Ann", 9, "knock", "Ann"),       # 15 - 6
    E("Ann", 13, "undercut", "Bo"),    # 8 - 5 + 10
    E("Bo", 42, "gin", "Bo"),          # 22 + 20
    E("Ann", 19, "knock", "Ann"),      # 21 - 2
    E("Bo", 11, "knock", "Bo"),        # 18 - 7
    E("Ann", 32, "knock", "Ann"),      # 35 - 3
    E("Ann", 50, "gin", "Ann"),        # 30 + 20
]
SEED_000_RUNNING = [(9, 0), (22, 0), (22, 42), (41, 42), (41, 53), (73, 53), (123, 53)]

SEED_003 = [
    E("Ana", 15, "knock", "Ana"),      # 21 - 6
    E("Ben", 43, "gin", "Ben"),        # 18 + 25
    E("Ben", 28, "undercut", "Ana"),   # 8 - 5 + 25
    E("Ana", 32, "knock", "Ana"),      # 34 - 2
]


def test_seed_000_standard_worked_example() -> None:
    result = tally(AB, SEED_000, STANDARD)
    assert running(result) == SEED_000_RUNNING
    assert [h.game_over for h in result.hands] == [False] * 6 + [True]
    assert result.hand_totals == {"Ann": 123, "Bo": 53}
    assert result.hands_won == {"Ann": 5, "Bo": 2}
    assert result.boxes == {"Ann": 5, "Bo": 2}
    assert bonuses(result) == {"Ann": [("game", 100), ("box", 100)], "Bo": [("box", 40)]}
    assert result.final_totals == {"Ann": 323, "Bo": 93}
    assert (result.game_over, result.winner, result.leader, result.margin) == (True, "Ann", "Ann", 230)
    assert result.shutout is False


@pytest.mark.parametrize("name", ["hoyle", "tallynight", "Tallynight"])
def test_seed_003_tallynight_example(name: str) -> None:
    result = tally(("Ana", "Ben"), SEED_003, find_rules(name))
    assert running(result) == [(15, 0), (15, 43), (15, 71), (47, 71)]
    assert result.hand_totals == {"Ana": 47, "Ben": 71}
    assert result.game_over is False
    assert result.winner is None
    assert bonuses(result) == {"Ana": [], "Ben": []}
    assert result.final_totals == {"Ana": 47, "Ben": 71}
    assert (result.leader, result.margin) == ("Ben", 24)


# -- end of game, bonuses -----------------------------------------------------------------

SHUTOUT_GAME = [E("Ann", 60, "knock", "Ann"), E("Ann", 45, "gin", "Ann")]  # Ann 105, Bo 0


@pytest.mark.parametrize(
    ("shutout", "ann_bonuses", "ann_final"),
    [
        # 105 + 100 game + 100 more for the shutout + 2 boxes x 20
        ("game_bonus_200", [("game", 100), ("shutout", 100), ("box", 40)], 345),
        # (105 + 100 + 40) doubled
        ("double_total", [("game", 100), ("box", 40), ("shutout", 245)], 490),
        ("none", [("game", 100), ("box", 40)], 245),
    ],
)
def test_shutout_knob(shutout: str, ann_bonuses: list[tuple[str, int]], ann_final: int) -> None:
    result = tally(AB, SHUTOUT_GAME, with_overrides(STANDARD, {"shutout": shutout}))
    assert result.shutout is True
    assert bonuses(result)["Ann"] == ann_bonuses
    assert result.final_totals == {"Ann": ann_final, "Bo": 0}


@pytest.mark.parametrize("shutout", ["game_bonus_200", "double_total"])
def test_no_shutout_when_the_loser_won_a_hand_worth_nothing(shutout: str) -> None:
    # tie_policy knocker: Bo wins a tie for 0 points; he won a hand, so no shutout
    rules = with_overrides(STANDARD, {"shutout": shutout, "tie_policy": "knocker"})
    entries = [E("Bo", 0, "knock", "Bo"), *SHUTOUT_GAME]
    result = tally(AB, entries, rules)
    assert result.shutout is False
    assert bonuses(result) == {"Ann": [("game", 100), ("box", 40)], "Bo": [("box", 20)]}
    assert result.final_totals == {"Ann": 245, "Bo": 20}


def test_box_bonus_does_not_count_toward_the_target() -> None:
    five = [E("Ann", 19, "knock", "Ann")] * 5  # 95, and 5 boxes worth 100 would pass 100
    result = tally(AB, five, STANDARD)
    assert result.hand_totals == {"Ann": 95, "Bo": 0}
    assert result.game_over is False
    assert result.final_totals == {"Ann": 95, "Bo": 0}  # no bonus before the end
    assert result.boxes == {"Ann": 5, "Bo": 0}
    result = tally(AB, [*five, E("Ann", 5, "knock", "Ann")], STANDARD)
    # 100 + 100 game + 100 shutout + 6 boxes x 20
    assert (result.game_over, result.final_totals["Ann"]) == (True, 420)


def test_immediate_boxes_count_toward_the_target() -> None:
    rules = with_overrides(STANDARD, {"box_timing": "immediate", "box_bonus": 10})
    result = tally(AB, [E("Ann", 19, "knock", "Ann")] * 4, rules)
    assert running(result) == [(29, 0), (58, 0), (87, 0), (116, 0)]
    assert [h.box_points for h in result.hands] == [10, 10, 10, 10]
    assert result.game_over is True
    # boxes were paid as they came: only the game bonus and the shutout are added
    assert bonuses(result)["Ann"] == [("game", 100), ("shutout", 100)]
    assert result.final_totals == {"Ann": 316, "Bo": 0}
    with pytest.raises(GameOverError, match="hand 5 comes after the end of the game"):
        tally(AB, [E("Ann", 19, "knock", "Ann")] * 5, rules)


def test_game_bonus_goes_to_the_player_reaching_the_target_on_an_undercut() -> None:
    entries = [E("Bo", 95, "knock", "Bo"), E("Bo", 12, "undercut", "Ann")]
    result = tally(AB, entries, STANDARD)
    assert (result.winner, result.final_totals) == ("Bo", {"Ann": 0, "Bo": 107 + 200 + 40})


def test_winner_is_the_first_to_the_target_even_when_the_loser_ends_ahead() -> None:
    # Bo wins 9 small hands (9 boxes = 180), Ann one big one: Ann wins the game,
    # Bo has the higher final total (seed 000 vs seed 003 wording, see GameTally)
    entries = [E("Bo", 10, "knock", "Bo")] * 9 + [E("Ann", 100, "gin", "Ann")]
    result = tally(AB, entries, STANDARD)
    assert result.final_totals == {"Ann": 220, "Bo": 270}
    assert (result.winner, result.leader, result.margin) == ("Ann", "Bo", 50)


@pytest.mark.parametrize(
    ("entry", "winner", "final"),
    [
        (E("Ann", 25, "gin", "Ann"), "Ann", {"Ann": 25, "Bo": 0}),
        (E("Bo", 27, "undercut", "Ann"), "Bo", {"Ann": 0, "Bo": 27}),
        (E(None, 0, "void"), None, {"Ann": 0, "Bo": 0}),
        (E(None, 0, "tie", "Ann"), None, {"Ann": 0, "Bo": 0}),
    ],
)
def test_game_target_zero_is_one_hand(entry: HandEntry, winner: str | None, final: dict[str, int]) -> None:
    rules = PRESETS["openspiel"]
    assert rules.game_target == 0
    rules = with_overrides(rules, {"game_bonus": 100, "box_bonus": 20})  # still no bonuses
    result = tally(AB, [entry], rules)
    assert (result.game_over, result.winner, result.final_totals) == (True, winner, final)
    assert bonuses(result) == {"Ann": [], "Bo": []}
    with pytest.raises(GameOverError, match=r"hand 2 comes after the end of the game \(hand 1\)"):
        tally(AB, [entry, entry], rules)


# -- the next dealer ----------------------------------------------------------------------

DEALER_HANDS = [
    E("Ann", 10, "knock", "Ann"),
    E(None, 0, "void"),
    E("Bo", 10, "knock", "Bo"),
    E("Ann", 10, "knock", "Ann"),
    E(None, 0, "tie", "Bo"),
]


@pytest.mark.parametrize(
    ("next_dealer", "void_dealer", "first", "dealers"),
    [
        # dealer of hands 1-5, then of hand 6
        ("winner", "same", "Bo", ["Bo", "Ann", "Ann", "Bo", "Ann", "Ann"]),
        ("winner", "passes", "Bo", ["Bo", "Ann", "Bo", "Bo", "Ann", "Bo"]),
        ("loser", "same", "Bo", ["Bo", "Bo", "Bo", "Ann", "Bo", "Bo"]),
        ("loser", "passes", "Ann", ["Ann", "Bo", "Ann", "Ann", "Bo", "Ann"]),
        ("alternate", "same", "Bo", ["Bo", "Ann", "Ann", "Bo", "Ann", "Ann"]),
        ("alternate", "passes", "Bo", ["Bo", "Ann", "Bo", "Ann", "Bo", "Ann"]),
        ("alternate", "same", "Ann", ["Ann", "Bo", "Bo", "Ann", "Bo", "Bo"]),
        # without a first dealer only what the rule decides by itself is known
        ("winner", "same", None, [None, "Ann", "Ann", "Bo", "Ann", "Ann"]),
        ("loser", "passes", None, [None, "Bo", "Ann", "Ann", "Bo", "Ann"]),
        ("alternate", "same", None, [None] * 6),
    ],
)
def test_next_dealer(
    next_dealer: str, void_dealer: str, first: str | None, dealers: list[str | None]
) -> None:
    rules = with_overrides(STANDARD, {"next_dealer": next_dealer, "void_hand_dealer": void_dealer})
    result = tally(AB, DEALER_HANDS, rules, first_dealer=first)
    assert [h.dealer for h in result.hands] == dealers[:5]
    assert [h.next_dealer for h in result.hands] == dealers[1:]
    assert result.next_dealer == dealers[5]
    assert result.first_dealer == first


# -- Oklahoma -----------------------------------------------------------------------------

OKLAHOMA_HANDS = [
    E("Ann", 60, "gin", "Ann", multiplier=2),   # (10 + 20) x 2
    E("Bo", 15, "undercut", "Ann"),
    E("Ann", 90, "knock", "Ann", multiplier=2),  # 45 x 2: Ann reaches 150
]


@pytest.mark.parametrize(
    ("overrides", "boxes", "final"),
    [
        # the preset: target 150, one box per hand, boxes not doubled
        ({}, {"Ann": 2, "Bo": 1}, {"Ann": 150 + 100 + 40, "Bo": 15 + 20}),
        # extra boxes: gin 1 + 2, undercut 1 + 1
        ({"extra_boxes_gin": 2, "extra_boxes_undercut": 1}, {"Ann": 4, "Bo": 2},
         {"Ann": 150 + 100 + 80, "Bo": 15 + 40}),
        # and doubled hands count all their boxes twice: gin (1 + 2) x 2, knock 1 x 2
        ({"extra_boxes_gin": 2, "extra_boxes_undercut": 1, "spade_double_boxes": True},
         {"Ann": 8, "Bo": 2}, {"Ann": 150 + 100 + 160, "Bo": 15 + 40}),
    ],
)
def test_oklahoma_boxes(overrides: dict[str, object], boxes: dict[str, int], final: dict[str, int]) -> None:
    rules = with_overrides(PRESETS["oklahoma"], overrides)
    result = tally(AB, OKLAHOMA_HANDS, rules)
    assert result.hand_totals == {"Ann": 150, "Bo": 15}
    assert result.game_over is True
    assert result.boxes == boxes
    assert result.final_totals == final


def test_big_gin_earns_the_gin_extra_boxes() -> None:
    rules = with_overrides(find_rules("hoyle"), {"extra_boxes_gin": 2})
    result = tally(AB, [E("Ann", 61, "big_gin", "Ann")], rules)
    assert result.boxes == {"Ann": 3, "Bo": 0}


def test_oklahoma_sheet_doubles_spade_hands() -> None:
    text = (
        "players: Ann Bo\nrules: oklahoma\n"
        "Ann gin 10 spade\n"            # (10 + 20) x 2 = 60
        "Ann knock 4 5 upcard 4H\n"     # 1, the 4H allows 4
        "Ann knock 3 25 upcard 9S\n"    # (25 - 3) x 2 = 44, doubled by the spade upcard
        "Bo knock 2 2 spade upcard KS\n"  # undercut (0 + 10) x 2 = 20
    )
    sheet = parse_sheet(text)
    assert [(h.entry.winner, h.entry.points, h.entry.outcome, h.entry.multiplier) for h in sheet.hands] == [
        ("Ann", 60, "gin", 2), ("Ann", 1, "knock", 1), ("Ann", 44, "knock", 2), ("Ann", 20, "undercut", 2),
    ]
    assert sheet.tally().hand_totals == {"Ann": 125, "Bo": 0}


# -- Hollywood ----------------------------------------------------------------------------

LADDER = [
    E("Ann", 30, "knock"),   # Ann's 1st win: game 1
    E("Bo", 12, "knock"),    # Bo's 1st: game 1
    E("Ann", 25, "knock"),   # Ann's 2nd: games 1, 2
    E("Ann", 40, "knock"),   # Ann's 3rd: all three
    E("Bo", 20, "knock"),    # Bo's 2nd: games 1, 2
    E("Ann", 15, "knock"),   # all: game 1 reaches 110 and closes
    E("Bo", 50, "knock"),    # Bo's 3rd: the open games 2, 3
    E(None, 0, "void"),
    E("Bo", 35, "knock"),    # games 2, 3: game 2 reaches 105 and closes
    E("Ann", 45, "knock"),   # game 3 only: 100, closes; the match is over
]


def test_hollywood_entry_ladder_and_closing() -> None:
    result = hollywood(AB, LADDER, PRESETS["hollywood"], first_dealer="Bo")
    assert [h.games for h in result.hands] == [
        (1,), (1,), (1, 2), (1, 2, 3), (1, 2), (1, 2, 3), (2, 3), (), (2, 3), (3,),
    ]
    assert [h.closed for h in result.hands] == [(), (), (), (), (), (1,), (), (), (2,), (3,)]
    assert [tuple((t["Ann"], t["Bo"]) for t in h.totals) for h in result.hands][5] == (
        (110, 32), (80, 20), (55, 0),
    )
    game1, game2, game3 = result.games
    assert game1.hand_totals == {"Ann": 110, "Bo": 32}
    assert game2.hand_totals == {"Ann": 80, "Bo": 105}
    assert game3.hand_totals == {"Ann": 100, "Bo": 85}
    # game 1: Ann 4 boxes (hands 1, 3, 4, 6), Bo 2 (hands 2, 5)
    assert game1.final_totals == {"Ann": 110 + 100 + 80, "Bo": 32 + 40}
    # game 2: Ann 3 boxes (3, 4, 6), Bo 3 (5, 7, 9)
    assert game2.final_totals == {"Ann": 80 + 60, "Bo": 105 + 100 + 60}
    # game 3: Ann 3 boxes (4, 6, 10), Bo 2 (7, 9)
    assert game3.final_totals == {"Ann": 100 + 100 + 60, "Bo": 85 + 40}
    assert [g.winner for g in result.games] == ["Ann", "Bo", "Ann"]
    assert [h.number for h in game2.hands] == [3, 4, 5, 6, 7, 9]
    assert result.match_over is True
    assert result.match_totals == {"Ann": 290 + 140 + 260, "Bo": 72 + 265 + 125}
    assert result.games_won == {"Ann": 2, "Bo": 1}
    assert (result.winner, result.margin) == ("Ann", 228)
    assert result.next_dealer == "Ann"
    with pytest.raises(GameOverError, match="hand 11 comes after the end of the Hollywood match"):
        hollywood(AB, [*LADDER, E("Bo", 5, "knock")], PRESETS["hollywood"])


def test_hollywood_shut_out_player_starts_in_the_next_open_game() -> None:
    entries = [E("Ann", 40, "knock")] * 3 + [E("Bo", 25, "knock"), E("Bo", 10, "knock")]
    result = hollywood(AB, entries, PRESETS["hollywood"])
    # Ann: 40 / 80, 40 / 120, 80, 40: game 1 closes with Bo shut out
    assert [h.games for h in result.hands] == [(1,), (1, 2), (1, 2, 3), (2,), (2, 3)]
    game1, game2, game3 = result.games
    assert game1.shutout is True
    assert game1.final_totals == {"Ann": 120 + 100 + 100 + 60, "Bo": 0}
    assert game2.hand_totals == {"Ann": 80, "Bo": 35}
    assert game3.hand_totals == {"Ann": 40, "Bo": 10}
    assert result.open_games == (2, 3)
    assert (result.match_over, result.winner, result.leader) == (False, None, "Ann")


def test_hollywood_sample_sheet() -> None:
    sheet = parse_sheet((SHEETS / "hollywood.sheet").read_text(encoding="utf-8"))
    assert sheet.hollywood is True
    result = sheet.score()
    assert isinstance(result, HollywoodTally)
    assert [h.games for h in result.hands] == [
        (1,), (1, 2), (1, 2, 3), (), (2,), (2, 3), (2, 3), (2, 3), (3,), (3,),
    ]
    assert [g.final_totals for g in result.games] == [
        {"Ann": 365, "Bo": 0}, {"Ann": 261, "Bo": 137}, {"Ann": 109, "Bo": 295},
    ]
    assert [bonuses(g) for g in result.games] == [
        {"Ann": [("game", 100), ("shutout", 100), ("box", 60)], "Bo": []},
        {"Ann": [("game", 100), ("box", 60)], "Bo": [("box", 60)]},
        {"Ann": [("box", 40)], "Bo": [("game", 100), ("box", 80)]},
    ]
    assert result.match_totals == {"Ann": 735, "Bo": 432}
    assert (result.match_over, result.winner, result.margin) == (True, "Ann", 303)
    assert [h.dealer for h in result.hands] == [
        "Bo", "Ann", "Ann", "Ann", "Ann", "Bo", "Bo", "Bo", "Ann", "Bo",
    ]
    json.dumps(result.to_dict())


def test_hollywood_needs_a_target() -> None:
    with pytest.raises(GameError, match="needs a game target"):
        hollywood(AB, [E("Ann", 10, "knock")], PRESETS["openspiel"])


# -- entries that cannot be tallied -------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "entries", "message"),
    [
        (AB, [E("Cy", 10, "knock")], "hand 1: unknown winner 'Cy'; the players are 'Ann' and 'Bo'"),
        (AB, [E("Ann", 1, "knock"), E("Ann", 10, "knock", "Cy")], "hand 2: unknown knocker 'Cy'"),
        (AB, [E("Ann", -5, "knock")], "hand 1: points cannot be negative, got -5"),
        (AB, [E("Ann", 5, "win")], "hand 1: unknown outcome 'win'"),
        (AB, [E("Ann", 5, "void")], "hand 1: a void hand has no winner, got 'Ann'"),
        (AB, [E(None, 0, "knock")], "hand 1: a knock hand needs a winner"),
        (AB, [E(None, 5, "void")], "hand 1: a hand nobody won cannot score 5 points"),
        (AB, [E("Ann", 5, "knock", multiplier=0)], "hand 1: the multiplier must be 1 or more"),
        (("Ann", "Ann"), [], "the two players need different names"),
        (("Ann", ""), [], "a game needs two player names"),
        (("A" * 81, "Bo"), [], "player names have at most 80 characters, not 81"),
        (("Ann", "B" * 1_000_000), [], "player names have at most 80 characters, not 1000000"),
    ],
)
def test_bad_entries(players: tuple[str, str], entries: list[HandEntry], message: str) -> None:
    with pytest.raises(GameError) as info:
        tally(players, entries, STANDARD)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, GinrefError)


def test_unknown_first_dealer() -> None:
    with pytest.raises(GameError, match="unknown first dealer 'Cy'"):
        tally(AB, [], STANDARD, first_dealer="Cy")


def test_game_over_error_names_the_hand() -> None:
    with pytest.raises(GameOverError) as info:
        tally(AB, [*SEED_000, E("Bo", 5, "knock")], STANDARD)
    assert info.value.hand == 8
    assert str(info.value) == "hand 8 comes after the end of the game (hand 7)"


# -- score sheets -------------------------------------------------------------------------

SAMPLES = {
    "standard-worked.sheet": {
        "running": SEED_000_RUNNING,
        "hand_totals": {"Ann": 123, "Bo": 53},
        "final_totals": {"Ann": 323, "Bo": 93},
        "outcomes": ["knock", "undercut", "gin", "knock", "knock", "knock", "gin"],
        "game_over": True,
        "winner": "Ann",
    },
    "tallynight.sheet": {
        "running": [(15, 0), (15, 43), (15, 71), (47, 71)],
        "hand_totals": {"Ana": 47, "Ben": 71},
        "final_totals": {"Ana": 47, "Ben": 71},
        "outcomes": ["knock", "gin", "undercut", "knock"],
        "game_over": False,
        "winner": None,
    },
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_sheets(name: str) -> None:
    expected = SAMPLES[name]
    sheet = parse_sheet((SHEETS / name).read_text(encoding="utf-8"), source=name)
    result = sheet.score()
    assert isinstance(result, GameTally)
    assert running(result) == expected["running"]
    assert [h.outcome for h in result.hands] == expected["outcomes"]
    assert result.hand_totals == expected["hand_totals"]
    assert result.final_totals == expected["final_totals"]
    assert (result.game_over, result.winner) == (expected["game_over"], expected["winner"])
    document = json.loads(json.dumps(result.to_dict()))
    for key in ("hands", "hand_totals", "final_totals", "winner", "game_over", "bonuses", "margin"):
        assert key in document
    assert {"winner", "points", "totals", "next_dealer"} <= set(document["hands"][0])


def test_sheet_hands_carry_their_lines() -> None:
    sheet = parse_sheet("players: Ann Bo\n\n  Ann knock 6 15   # nine\nvoid\n")
    assert [(h.line, h.column, h.text) for h in sheet.hands] == [
        (3, 3, "  Ann knock 6 15"), (4, 1, "void"),
    ]
    assert sheet.entries == (E("Ann", 9, "knock", "Ann"), E(None, 0, "void"))


@pytest.mark.parametrize(
    ("line", "entry"),
    [
        ("Ann knock 6 15", E("Ann", 9, "knock", "Ann")),
        ("Bo knock 8 5", E("Ann", 13, "undercut", "Bo")),
        ("Bo KNOCK 8 8", E("Ann", 10, "undercut", "Bo")),
        ("Bo gin 22", E("Bo", 42, "gin", "Bo")),
        ("Bo gin +22", E("Bo", 42, "gin", "Bo")),
        ("Ann wins 25", E("Ann", 25, "knock", "Ann")),
        ("Ann wins 25 undercut", E("Ann", 25, "undercut", "Bo")),
        ("Ann wins 25 gin", E("Ann", 25, "gin", "Ann")),
        ("Ann\twins\t7", E("Ann", 7, "knock", "Ann")),
        ("void   # the stock ran out", E(None, 0, "void")),
        ("VOID", E(None, 0, "void")),
    ],
)
def test_sheet_hand_lines(line: str, entry: HandEntry) -> None:
    assert parse_sheet(f"players: Ann Bo\n{line}\n").entries == (entry,)


@pytest.mark.parametrize(
    ("rules", "line", "entry"),
    [
        ("hoyle", "Ann big_gin 30", E("Ann", 61, "big_gin", "Ann")),
        ("hoyle", "Ann wins 61 big_gin", E("Ann", 61, "big_gin", "Ann")),
        ("openspiel", "Ann knock 5 5", E(None, 0, "tie", "Ann")),         # tie scores nothing
        ("round_the_corner", "Ann gin 0", E(None, 0, "tie", "Ann")),      # gin laid off to 0
        ("straight", "Ann gin 12", E("Ann", 37, "gin", "Ann")),
    ],
)
def test_sheet_hand_lines_follow_the_rules(rules: str, line: str, entry: HandEntry) -> None:
    assert parse_sheet(f"players: Ann Bo\nrules: {rules}\n{line}\n").entries == (entry,)


ERRORS = [
    # (sheet, line, column, message)
    ("players: Ann Bo\nCy knock 6 15", 2, 1, "unknown player 'Cy'; the players are 'Ann' and 'Bo'"),
    ("players: Ann Bo\nAnn knock -3 15", 2, 11, "deadwood cannot be negative: '-3'"),
    ("players: Ann Bo\nAnn knock 3 -15", 2, 13, "deadwood cannot be negative: '-15'"),
    ("players: Ann Bo\nAnn wins -4", 2, 10, "points cannot be negative: '-4'"),
    ("players: Ann Bo\nAnn big_gin 30", 2, 5, "big gin is not a rule in standard"),
    ("players: Ann Bo\nAnn wins 50 big_gin", 2, 13, "big gin is not a rule in standard"),
    ("players: Ann Bo\nAnn gin 0 22", 2, 9, "gin takes only the opponent's deadwood: write 'Ann gin 22'"),
    ("players: Ann Bo\nrules: hoyle\nAnn big_gin 1 30", 3, 13,
     "big_gin takes only the opponent's deadwood: write 'Ann big_gin 30'"),
    ("# no players\nAnn knock 6 15", 2, 1,
     "no players: add a 'players: NAME NAME' line before the first hand"),
    ("players: Ann Bo\nAnn knock 12 30", 2, 11, "a knock with 12 is over the knock limit 10"),
    ("players: Ann Bo\nAnn knock 0 30", 2, 5, "a knock with no deadwood is gin: write 'Ann gin 30'"),
    ("players: Ann Bo\nrules: straight\nAnn knock 3 30", 3, 5,
     "no knocking: only gin ends a hand in straight"),
    ("players: Ann Bo\nrules: oklahoma\nAnn knock 8 20 upcard 7S", 3, 11,
     "a knock with 8 is over the knock limit 7 set by the upcard 7S"),
    ("players: Ann Bo\nrules: oklahoma\nAnn knock 1 20 upcard AS", 3, 5,
     "no knocking: the upcard AS allows gin only"),
    ("players: Ann Bo\nAnn knock 5 10 spade", 2, 16,
     "'spade' marks a doubled hand, but spade doubling is off in standard"),
    ("players: Ann Bo\nrules: oklahoma\nAnn knock 5 10 spade upcard 7H", 3, 16,
     "'spade' contradicts the upcard 7H"),
    ("players: Ann Bo\nrules: oklahoma\nAnn knock 5 10 spade spade", 3, 22, "'spade' is given twice"),
    ("players: Ann Bo\nAnn knock 5 10 upcard 7X", 2, 23, "unknown card '7X'"),
    ("players: Ann Bo\nAnn knock 5 10 upcard 1S", 2, 23, "unknown card '1S': write the ace as 'A' ('AS')"),
    ("players: Ann Bo\nAnn knock 5 10 upcard", 2, 22, "expected card, found end of line"),
    ("players: Ann Bo\nAnn nock 5 10", 2, 5,
     "expected 'knock', 'gin', 'big_gin', 'undercut' or 'wins', found 'nock'"),
    ("players: Ann Bo\nAnn knock 5", 2, 12, "expected defender's deadwood, found end of line"),
    ("players: Ann Bo\nAnn knock 5 1O", 2, 13, "expected defender's deadwood, found '1O'"),
    ("players: Ann Bo\nAnn knock 5 10 spad", 2, 16,
     "expected 'spade', 'upcard CARD' or end of line, found 'spad'"),
    ("players: Ann Bo\nvoid 3", 2, 6, "expected end of line, found '3'"),
    ("players: Ann Bo\n5 knock 5 10", 2, 1,
     "expected 'players:', 'rules:', 'dealer:', 'void' or a player name, found '5'"),
    ("players: Ann", 1, 13, "expected player name, found end of line"),
    ("players: Ann Bo Cy", 1, 17, "expected end of line, found 'Cy'"),
    ("players: Ann Ann", 1, 14, "the two players need different names, got 'Ann' twice"),
    ("players Ann Bo", 1, 9, "expected ':', found 'Ann'"),
    ("player: Ann Bo", 1, 1, "unknown header 'player'; expected 'players:', 'rules:' or 'dealer:'"),
    ("players: Ann Bo\nrules: hollywod", 2, 8, "unknown rules 'hollywod'; did you mean 'hollywood'?"),
    ("players: Ann Bo\nrules: zzz", 2, 8, "unknown rules 'zzz'; `ginref rules` lists every rule set"),
    ("players: Ann Bo\ndealer: Cy", 2, 9, "unknown dealer 'Cy'; the players are 'Ann' and 'Bo'"),
    ("players: Ann Bo\nplayers: Ann Bo", 2, 1, "'players:' is given twice (first on line 1)"),
    ("players: Ann Bo\nAnn wins 5\nrules: hoyle", 3, 1, "'rules:' must come before the first hand (line 2)"),
    ("players: Ann Bo\nAnn wins 100\nBo wins 5", 3, 1,
     "hand 2 comes after the end of the game (hand 1, line 2)"),
    ("players: Ann Bo\nrules: hollywood\nAnn wins 100\nAnn wins 100\nAnn wins 100\nBo wins 5", 6, 1,
     "hand 4 comes after the end of the Hollywood match (hand 3, line 5)"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), ERRORS)
def test_sheet_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_sheet(text, source="game.sheet")
    error = info.value
    assert (error.line, error.column) == (line, column)
    assert error.message.startswith(message)
    assert str(error) == f"game.sheet:{line}:{column}: {error.message}"
    assert "\n" not in str(error)


@pytest.mark.parametrize(("text", "line", "column", "message"), ERRORS)
def test_lenient_reading_reports_the_same_error(text: str, line: int, column: int, message: str) -> None:
    _, errors = read_sheet(text, keep_going=True)
    assert [(e.line, e.column) for e in errors] == [(line, column)]
    assert errors[0].message.startswith(message)


def test_lenient_reading_collects_every_bad_line() -> None:
    text = "\n".join([
        "players: Ann Bo",      # 1
        "Ann knock 6 15",       # 2  9 to Ann
        "Cy knock 1 2",         # 3  unknown player
        "Bo gin 22",            # 4  42 to Bo
        "Ann knock 4",          # 5  missing count
        "Ann big_gin 30",       # 6  no big gin in standard
        "rules: hoyle",         # 7  too late
        "Ann wins 100",         # 8  Ann 109: game over
        "Bo wins 3",            # 9  after the end
        "void",                 # 10 after the end
    ])
    sheet, errors = read_sheet(text, keep_going=True, source="s")
    assert [(e.line, e.column) for e in errors] == [(3, 1), (5, 12), (6, 5), (7, 1), (9, 1), (10, 1)]
    assert [h.line for h in sheet.hands] == [2, 4, 8]
    result = sheet.tally()
    assert result.hand_totals == {"Ann": 109, "Bo": 42}
    assert result.game_over is True
    with pytest.raises(RecordError) as info:
        read_sheet(text, source="s")
    assert str(info.value) == "s:3:1: unknown player 'Cy'; the players are 'Ann' and 'Bo'"


def test_lenient_reading_without_players() -> None:
    sheet, errors = read_sheet("Ann knock 6 15\nBo gin 3\nAnn knock x", keep_going=True)
    assert [(e.line, e.column) for e in errors] == [(1, 1), (3, 11)]
    assert sheet.players is None
    with pytest.raises(GameError, match="names no players"):
        sheet.tally()


def test_reader_options_override_the_sheet() -> None:
    text = "players: Ann Bo\nrules: standard\ndealer: Bo\nBo knock 8 5\nAnn gin 10\n"
    sheet = parse_sheet(text, rules=find_rules("hoyle"))
    assert sheet.rules.name == "hoyle"
    assert sheet.rules_name == "standard"
    assert [h.entry.points for h in sheet.hands] == [28, 35]
    sheet = parse_sheet(text, overrides={"undercut_bonus": 20})
    assert sheet.rules.label == "standard + undercut_bonus=20"
    assert [h.entry.points for h in sheet.hands] == [23, 30]
    sheet = parse_sheet(text, hollywood=True)
    assert isinstance(sheet.score(), HollywoodTally)
    assert sheet.tally().first_dealer == "Bo"
    renamed = "dealer: Bo\nBo knock 8 5\nCy gin 10\n"
    assert parse_sheet(renamed, players=("Cy", "Bo")).tally().hand_totals == {"Cy": 43, "Bo": 0}
    with pytest.raises(UnknownRulesError):
        parse_sheet(text, overrides={"gin_bonuss": 20})
    with pytest.raises(GameError, match="cannot be a player name"):
        parse_sheet(text, players=("Ann Lee", "Bo"))


def test_sheet_to_dict_is_json() -> None:
    sheet = parse_sheet((SHEETS / "standard-worked.sheet").read_text(encoding="utf-8"), source="w")
    document = json.loads(json.dumps(sheet.to_dict()))
    assert document["players"] == ["Ann", "Bo"]
    assert document["hands"][1] == {
        "line": 17, "column": 1, "text": "Bo knock 8 5", "winner": "Ann", "points": 13,
        "outcome": "undercut", "knocker": "Bo", "multiplier": 1,
    }


def test_results_are_frozen() -> None:
    result = tally(AB, SEED_000, STANDARD)
    with pytest.raises(AttributeError, match="immutable"):
        result.winner = "Bo"  # type: ignore[misc]
    assert isinstance(result.rules, Rules)


# -- score_entries and Scorer: the referee's one call, held to tally and hollywood -------

_RULE_SETS = [
    STANDARD,
    PRESETS["hoyle"],
    PRESETS["oklahoma"],
    PRESETS["hollywood"],
    find_rules("straight"),
    with_overrides(STANDARD, {"game_target": 0}),
    with_overrides(STANDARD, {"box_timing": "immediate"}),
    with_overrides(STANDARD, {"game_target": 40, "shutout": "double_total"}),
    with_overrides(STANDARD, {"next_dealer": "loser", "void_hand_dealer": "passes"}),
    with_overrides(PRESETS["oklahoma"], {"box_timing": "immediate", "spade_double_boxes": True}),
]


@st.composite
def _entries(draw: st.DrawFn) -> list[HandEntry]:
    out = []
    for _ in range(draw(st.integers(0, 14))):
        winner = draw(st.sampled_from(["Ann", "Bo", None]))
        if winner is None:
            out.append(HandEntry(None, 0, draw(st.sampled_from(["void", "tie", "illegal_knock"]))))
            continue
        outcome = draw(st.sampled_from(["knock", "gin", "big_gin", "undercut", "illegal_knock"]))
        points = draw(st.integers(0, 70))
        out.append(HandEntry(winner, points, outcome, winner, draw(st.sampled_from([1, 1, 2]))))
    return out


def _played_by_tally(entries: list[HandEntry], score: object) -> int:
    """How many hands ``score`` accepts before GameOverError (the retry the referee used)."""
    try:
        score(entries)  # type: ignore[operator]
    except GameOverError as exc:
        return exc.hand - 1
    return len(entries)


@settings(max_examples=400, deadline=None)
@given(_entries(), st.sampled_from(_RULE_SETS), st.sampled_from(["Ann", "Bo", None]))
def test_score_entries_agrees_with_tally_and_hollywood(
    entries: list[HandEntry], rules: Rules, first_dealer: str | None
) -> None:
    got = score_entries(AB, entries, rules, first_dealer)
    if rules.hollywood_columns == 3 and not rules.single_hand:
        played = _played_by_tally(entries, lambda e: hollywood(AB, e, rules, first_dealer))
        match = hollywood(AB, entries[:played], rules, first_dealer)
        points = dict.fromkeys(AB, 0)
        running = []
        for entry in entries[:played]:
            if entry.winner is not None:
                points[entry.winner] += entry.points
            running.append(dict(points))
        expected = (played, running, points, match.match_totals, match.match_over, match.winner,
                    match.next_dealer)
    else:
        played = _played_by_tally(entries, lambda e: tally(AB, e, rules, first_dealer))
        game = tally(AB, entries[:played], rules, first_dealer)
        expected = (played, [h.totals for h in game.hands], game.hand_totals, game.final_totals,
                    game.game_over, game.winner, game.next_dealer)
    assert (got.played, list(got.running_totals), got.hand_totals, got.final_totals, got.game_over,
            got.winner, got.next_dealer) == expected
    assert got.after_end == len(entries) - played


@settings(max_examples=200, deadline=None)
@given(_entries(), st.sampled_from(_RULE_SETS))
def test_scorer_one_hand_at_a_time_is_score_entries(entries: list[HandEntry], rules: Rules) -> None:
    scorer = Scorer(AB, rules, "Ann")
    for number, entry in enumerate(entries, 1):
        if scorer.over:
            with pytest.raises(GameOverError):
                scorer.add(entry)
            break
        ended = scorer.add(entry)
        assert ended == scorer.over == score_entries(AB, entries[:number], rules, "Ann").game_over
    assert scorer.score(len(entries) - scorer.score().played) == score_entries(AB, entries, rules, "Ann")


SCORE_ENTRIES_CASES = [
    # a game that ends at hand 2 of 3: the third is counted, not scored
    ([E("Ann", 60, "knock"), E("Ann", 45, "gin"), E("Bo", 5, "knock")], STANDARD,
     (2, 1, {"Ann": 105, "Bo": 0}, {"Ann": 345, "Bo": 0}, True, "Ann")),
    # still on after one hand
    ([E("Bo", 25, "knock")], STANDARD, (1, 0, {"Ann": 0, "Bo": 25}, {"Ann": 0, "Bo": 25}, False, None)),
    # one-hand rule set: over at once, later hands counted
    ([E(None, 0, "void"), E("Ann", 9, "knock")], with_overrides(STANDARD, {"game_target": 0}),
     (1, 1, {"Ann": 0, "Bo": 0}, {"Ann": 0, "Bo": 0}, True, None)),
    # no hands at all
    ([], STANDARD, (0, 0, {"Ann": 0, "Bo": 0}, {"Ann": 0, "Bo": 0}, False, None)),
]


@pytest.mark.parametrize(("entries", "rules", "expected"), SCORE_ENTRIES_CASES)
def test_score_entries(entries: list[HandEntry], rules: Rules, expected: tuple[object, ...]) -> None:
    got = score_entries(AB, entries, rules)
    assert (got.played, got.after_end, got.hand_totals, got.final_totals, got.game_over,
            got.winner) == expected


def test_score_entries_checks_entries_like_tally() -> None:
    with pytest.raises(GameError, match=r"^hand 2: unknown winner 'Cy'"):
        score_entries(AB, [E("Ann", 5, "knock"), E("Cy", 5, "knock")])
    with pytest.raises(GameError, match="Hollywood scoring needs a game target above 0"):
        score_entries(AB, [], with_overrides(STANDARD, {"game_target": 0}), hollywood=True)
