"""Rule presets, lookup, overrides and rules files (``ginref.rules``).

The expected values are transcribed from ``shared/rules/VARIANTS.md``: the section 10
schema (whose defaults are the ``standard`` preset) and, per preset, exactly the knobs
that differ from ``standard``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec
import pytest

from ginref.cards import RANKS, SUITS, card
from ginref.errors import GinrefError, InputFileError, UnknownRulesError
from ginref.rules import (
    ALIASES,
    KNOB_NAMES,
    PRESET_NAMES,
    PRESETS,
    STANDARD,
    Rules,
    find_rules,
    load_rules_file,
    parse_override,
    with_overrides,
)

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

# VARIANTS.md section 10, verbatim: the schema, with the standard values.
SCHEMA_TOML = """
[rules.standard]
knock_limit = 10            # 0 = straight gin
oklahoma = "off"            # off | gin_only | one
spade_double = false
spade_double_boxes = false
gin_bonus = 20
big_gin_bonus = "off"       # off | integer (31)
undercut_bonus = 10
tie_policy = "undercut"     # undercut | no_score | knocker
layoff_on_gin = false
layoff_chaining = true
defender_layoff_mode = "joint"   # joint | meld_first
knocker_must_meld_max = false
no_same_card_discard = true
first_turn = "ritual"       # ritual | none | eleven_card
stock_floor = 2
stock_end = "void"          # void | last_discard_knock_only | take_or_dead
void_hand_dealer = "same"   # same | passes
next_dealer = "winner"      # winner | alternate | loser
ace = "low"                 # low | high_or_low
wraparound = false
unmatched_ace_value = 1     # 15 in round-the-corner
game_target = 100
game_bonus = 100
box_bonus = 20
box_timing = "end"          # end | immediate
shutout = "game_bonus_200"  # game_bonus_200 | double_total | none
extra_boxes_undercut = 0
extra_boxes_gin = 0
hollywood_columns = 0       # 3 for Hollywood
illegal_knock = "expose"    # expose | accept_or_refuse | forfeit | reject
"""
SCHEMA: dict[str, object] = tomllib.loads(SCHEMA_TOML)["rules"]["standard"]
SCHEMA_CHOICES = {
    "oklahoma": {"off", "gin_only", "one"},
    "tie_policy": {"undercut", "no_score", "knocker"},
    "defender_layoff_mode": {"joint", "meld_first"},
    "first_turn": {"ritual", "none", "eleven_card"},
    "stock_end": {"void", "last_discard_knock_only", "take_or_dead"},
    "void_hand_dealer": {"same", "passes"},
    "next_dealer": {"winner", "alternate", "loser"},
    "ace": {"low", "high_or_low"},
    "box_timing": {"end", "immediate"},
    "shutout": {"game_bonus_200", "double_total", "none"},
    "illegal_knock": {"expose", "accept_or_refuse", "forfeit", "reject"},
}
BOOL_CHOICES = "choose from: false, true"
TIE_CHOICES = "choose from: knocker, no_score, undercut"
OFF_OR_WHOLE = "expected 'off' or a whole number >= 0"
EXTRA_KNOBS = {"max_discard_draws": "off", "repeat_discard_draw": False, "layoff_on_big_gin": False,
               "layoff_chain_limit": "off", "layoff_on_knock": True}

# Every knob in which a preset differs from `standard` (to_dict spelling), per VARIANTS.md.
PRESET_DIFFS: dict[str, dict[str, object]] = {
    "standard": {},
    "hoyle": {  # S3 / P13; illegal knock per Hoyle PC [P21]
        "gin_bonus": 25, "undercut_bonus": 25, "box_bonus": 25, "big_gin_bonus": 31,
        "illegal_knock": "accept_or_refuse",
    },
    "cardhearth": {  # S4; section 10 row 13: no game-end bonuses
        "gin_bonus": 25, "undercut_bonus": 25, "first_turn": "none",
        "game_bonus": 0, "box_bonus": 0, "shutout": "none",
    },
    "oklahoma": {  # section 8 and section 10 rows 8, 12
        "oklahoma": "gin_only", "spade_double": True, "game_target": 150,
    },
    "hollywood": {"hollywood_columns": 3},
    "straight": {"knock_limit": 0, "gin_bonus": 25},  # P31
    "openspiel": {  # C1: the `tournament` column
        "gin_bonus": 25, "undercut_bonus": 25, "tie_policy": "no_score",
        "no_same_card_discard": False, "stock_end": "last_discard_knock_only",
        "max_discard_draws": 50, "repeat_discard_draw": True, "layoff_chain_limit": 2,
        "game_target": 0, "game_bonus": 0, "box_bonus": 0, "shutout": "none",
        "illegal_knock": "reject",
    },
    "eaai": {  # C3
        "gin_bonus": 25, "undercut_bonus": 25, "next_dealer": "alternate",
        "game_bonus": 0, "box_bonus": 0, "shutout": "none", "illegal_knock": "forfeit",
    },
    "rlcard": {  # RLCard's gin-rummy game: 11-card opening, no layoffs, take-or-dead wall, one hand
        "layoff_on_knock": False, "gin_bonus": 25, "undercut_bonus": 25, "no_same_card_discard": False,
        "first_turn": "eleven_card",
        "stock_end": "take_or_dead", "game_target": 0, "game_bonus": 0, "box_bonus": 0, "shutout": "none",
        "illegal_knock": "reject",
    },
    "round_the_corner": {  # P19
        "ace": "high_or_low", "wraparound": True, "unmatched_ace_value": 15,
        "layoff_on_gin": True, "undercut_bonus": 20, "game_target": 125,
    },
}

# Headline values restated per preset (a second, independent transcription).
KEY_VALUES = [
    # preset, knock, gin, undercut, big gin, box, target, game bonus, tie, first turn
    ("standard", 10, 20, 10, None, 20, 100, 100, "undercut", "ritual"),
    ("hoyle", 10, 25, 25, 31, 25, 100, 100, "undercut", "ritual"),
    ("cardhearth", 10, 25, 25, None, 0, 100, 0, "undercut", "none"),
    ("oklahoma", 10, 20, 10, None, 20, 150, 100, "undercut", "ritual"),
    ("hollywood", 10, 20, 10, None, 20, 100, 100, "undercut", "ritual"),
    ("straight", 0, 25, 10, None, 20, 100, 100, "undercut", "ritual"),
    ("openspiel", 10, 25, 25, None, 0, 0, 0, "no_score", "ritual"),
    ("eaai", 10, 25, 25, None, 0, 100, 0, "undercut", "ritual"),
    ("rlcard", 10, 25, 25, None, 0, 0, 0, "undercut", "eleven_card"),
    ("round_the_corner", 10, 20, 20, None, 20, 125, 100, "undercut", "ritual"),
]


def knob_values(rules: Rules) -> dict[str, object]:
    data = rules.to_dict()
    return {knob: data[knob] for knob in KNOB_NAMES}


# -- the schema --------------------------------------------------------------------------


def test_every_schema_knob_is_a_field_in_schema_order() -> None:
    schema_order = list(SCHEMA)
    assert [k for k in KNOB_NAMES if k in SCHEMA] == schema_order
    assert set(KNOB_NAMES) - set(SCHEMA) == set(EXTRA_KNOBS)


def test_field_order_is_name_aliases_description_knobs_overrides() -> None:
    names = list(Rules.__struct_fields__)
    assert names == ["name", "aliases", "description", *KNOB_NAMES, "overrides"]


def test_standard_matches_the_schema_defaults() -> None:
    assert knob_values(STANDARD) == {**SCHEMA, **EXTRA_KNOBS}


def test_default_constructed_rules_are_standard_knobs() -> None:
    assert knob_values(Rules(name="mine")) == knob_values(STANDARD)


@pytest.mark.parametrize("knob", sorted(SCHEMA_CHOICES))
def test_choice_knobs_accept_exactly_the_schema_choices(knob: str) -> None:
    for choice in SCHEMA_CHOICES[knob]:
        if knob == "ace" and choice == "low":
            continue
        assert getattr(with_overrides(STANDARD, {knob: choice}), knob) == choice
    with pytest.raises(UnknownRulesError) as info:
        with_overrides(STANDARD, {knob: "bogus"})
    assert str(info.value) == (
        f"bad value 'bogus' for {knob}; choose from: {', '.join(sorted(SCHEMA_CHOICES[knob]))}"
    )


# -- presets -----------------------------------------------------------------------------


def test_preset_names() -> None:
    assert tuple(sorted(PRESET_DIFFS)) == PRESET_NAMES
    assert set(PRESETS) == set(PRESET_DIFFS)
    assert all(PRESETS[name].name == name for name in PRESETS)


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_preset_differs_from_standard_exactly_as_documented(name: str) -> None:
    standard, preset = knob_values(STANDARD), knob_values(PRESETS[name])
    diff = {k: v for k, v in preset.items() if standard[k] != v}
    assert diff == PRESET_DIFFS[name]


@pytest.mark.parametrize(
    ("name", "knock", "gin", "undercut", "big_gin", "box", "target", "game_bonus", "tie", "first"),
    KEY_VALUES,
)
def test_preset_key_values(
    name: str, knock: int, gin: int, undercut: int, big_gin: int | None, box: int,
    target: int, game_bonus: int, tie: str, first: str,
) -> None:
    rules = PRESETS[name]
    assert rules.knock_limit == knock
    assert rules.gin_bonus == gin
    assert rules.undercut_bonus == undercut
    assert rules.big_gin_bonus == big_gin
    assert rules.recognises_big_gin is (big_gin is not None)
    assert rules.box_bonus == box
    assert rules.game_target == target
    assert rules.single_hand is (target == 0)
    assert rules.game_bonus == game_bonus
    assert rules.tie_policy == tie
    assert rules.first_turn == first


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_presets_have_a_description_and_no_overrides(name: str) -> None:
    rules = PRESETS[name]
    assert rules.description
    assert rules.overrides == ()
    assert rules.label == name


# -- lookup ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("standard", "standard"),
        ("Standard", "standard"),
        ("  HOYLE ", "hoyle"),
        ("tallynight", "hoyle"),
        ("TallyNight", "hoyle"),
        ("tournament", "openspiel"),
        ("OpenSpiel", "openspiel"),
        ("round_the_corner", "round_the_corner"),
        ("Round-The-Corner", "round_the_corner"),
        *((name, name) for name in sorted(PRESET_DIFFS)),
    ],
)
def test_find_rules(text: str, expected: str) -> None:
    assert find_rules(text) is PRESETS[expected]


def test_aliases() -> None:
    assert ALIASES == {"tallynight": "hoyle", "tournament": "openspiel"}
    assert PRESETS["hoyle"].aliases == ("tallynight",)
    assert not set(ALIASES) & set(PRESETS)


CHOICES = "`ginref rules` lists every rule set and its aliases"
SEE_ALL = " (`ginref rules` lists every rule set and its aliases)"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hollywod", f"unknown rules 'hollywod'; did you mean 'hollywood'?{SEE_ALL}"),
        ("Hollywoood", f"unknown rules 'hollywoood'; did you mean 'hollywood'?{SEE_ALL}"),
        ("", f"unknown rules ''; {CHOICES}"),
        ("gin rummy", f"unknown rules 'gin rummy'; {CHOICES}"),
    ],
)
def test_find_rules_unknown(text: str, expected: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        find_rules(text)
    assert str(info.value) == expected


def test_errors_are_value_errors_under_the_root() -> None:
    with pytest.raises(ValueError):
        find_rules("nope")
    with pytest.raises(GinrefError):
        with_overrides(STANDARD, {"nope": 1})


# -- overrides ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knob", "raw", "expected"),
    [
        # int: text or int, zero allowed
        ("gin_bonus", "25", 25),
        ("gin_bonus", " 25 ", 25),
        ("gin_bonus", "+25", 25),
        ("gin_bonus", 31, 31),
        ("knock_limit", "0", 0),
        ("game_target", 0, 0),
        ("unmatched_ace_value", "15", 15),
        ("hollywood_columns", "3", 3),
        ("hollywood_columns", 0, 0),
        # int | None: "off" / None / a number
        ("big_gin_bonus", "31", 31),
        ("big_gin_bonus", 0, 0),
        ("big_gin_bonus", "off", None),
        ("big_gin_bonus", "OFF", None),
        ("big_gin_bonus", "none", None),
        ("big_gin_bonus", None, None),
        ("max_discard_draws", "50", 50),
        ("max_discard_draws", 1, 1),
        ("max_discard_draws", "off", None),
        # bool: TOML bool or text
        ("layoff_on_gin", True, True),
        ("layoff_on_gin", "true", True),
        ("layoff_on_gin", "True", True),
        ("layoff_on_gin", "yes", True),
        ("layoff_on_gin", "on", True),
        ("layoff_on_gin", "1", True),
        ("layoff_chaining", False, False),
        ("layoff_chaining", "false", False),
        ("layoff_chaining", "no", False),
        ("layoff_chaining", "off", False),
        ("layoff_chaining", "0", False),
        # choice: case and hyphens do not matter
        ("tie_policy", "no_score", "no_score"),
        ("tie_policy", "No-Score", "no_score"),
        ("tie_policy", "KNOCKER", "knocker"),
        ("oklahoma", "one", "one"),
        ("first_turn", "eleven-card", "eleven_card"),
        ("shutout", "double_total", "double_total"),
    ],
)
def test_override_values(knob: str, raw: object, expected: object) -> None:
    rules = with_overrides(STANDARD, {knob: raw})
    value = getattr(rules, knob)
    assert value == expected
    assert type(value) is type(expected)
    assert rules.name == "standard"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"gin_bonuss": 25}, "unknown rule knob 'gin_bonuss'; did you mean 'gin_bonus'?"),
        ({"tie_polcy": "knocker"}, "unknown rule knob 'tie_polcy'; did you mean 'tie_policy'?"),
        ({"frobnicate": 1}, "unknown rule knob 'frobnicate'"),
        ({"name": "mine"}, "rule field 'name' cannot be overridden"),
        ({"aliases": "x"}, "rule field 'aliases' cannot be overridden"),
        ({"description": "x"}, "rule field 'description' cannot be overridden"),
        ({"overrides": "x"}, "rule field 'overrides' cannot be overridden"),
        ({"tie_policy": "maybe"}, "bad value 'maybe' for tie_policy; " + TIE_CHOICES),
        ({"tie_policy": 1}, "bad value 1 for tie_policy; " + TIE_CHOICES),
        ({"tie_policy": ""}, "bad value '' for tie_policy; " + TIE_CHOICES),
        ({"gin_bonus": "-5"}, "bad value '-5' for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": -5}, "bad value -5 for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": "25.0"}, "bad value '25.0' for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": 2.5}, "bad value 2.5 for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": True}, "bad value True for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": "off"}, "bad value 'off' for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": ""}, "bad value '' for gin_bonus; expected a whole number >= 0"),
        ({"gin_bonus": None}, "bad value None for gin_bonus; expected a whole number >= 0"),
        ({"knock_limit": "-1"}, "bad value '-1' for knock_limit; expected a whole number >= 0"),
        ({"stock_floor": "two"}, "bad value 'two' for stock_floor; expected a whole number >= 0"),
        ({"big_gin_bonus": "maybe"}, "bad value 'maybe' for big_gin_bonus; " + OFF_OR_WHOLE),
        ({"big_gin_bonus": -31}, "bad value -31 for big_gin_bonus; " + OFF_OR_WHOLE),
        ({"max_discard_draws": 0}, "bad value 0 for max_discard_draws; " + OFF_OR_WHOLE[:-1] + "1"),
        ({"hollywood_columns": "2"}, "bad value '2' for hollywood_columns; choose from: 0, 3"),
        ({"layoff_on_gin": "maybe"}, "bad value 'maybe' for layoff_on_gin; " + BOOL_CHOICES),
        ({"layoff_on_gin": 1}, "bad value 1 for layoff_on_gin; " + BOOL_CHOICES),
        ({"layoff_on_gin": None}, "bad value None for layoff_on_gin; " + BOOL_CHOICES),
        ({"wraparound": "true"}, "wraparound = true needs ace = 'high_or_low'"),
        # one bad value spoils the whole batch
        ({"gin_bonus": 25, "tie_policy": "bad"}, "bad value 'bad' for tie_policy; " + TIE_CHOICES),
    ],
)
def test_bad_overrides(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        with_overrides(STANDARD, overrides)
    assert str(info.value) == message


def test_wraparound_with_ace_high_or_low_together() -> None:
    rules = with_overrides(STANDARD, {"ace": "high_or_low", "wraparound": "true"})
    assert (rules.ace, rules.wraparound) == ("high_or_low", True)


def test_knob_names_may_use_hyphens_and_any_case() -> None:
    rules = with_overrides(STANDARD, {"Gin-Bonus": "25"})
    assert rules.gin_bonus == 25
    assert rules.overrides == (("gin_bonus", "25"),)


def test_overrides_are_recorded_sorted_in_toml_spelling() -> None:
    rules = with_overrides(
        STANDARD,
        {"tie_policy": "No-Score", "gin_bonus": 25, "big_gin_bonus": "31", "layoff_on_gin": "yes"},
    )
    assert rules.name == "standard"
    assert rules.overrides == (
        ("big_gin_bonus", "31"), ("gin_bonus", "25"),
        ("layoff_on_gin", "true"), ("tie_policy", "no_score"),
    )
    assert rules.label == (
        "standard + big_gin_bonus=31, gin_bonus=25, layoff_on_gin=true, tie_policy=no_score"
    )
    assert rules.to_dict()["overrides"] == {
        "big_gin_bonus": 31, "gin_bonus": 25, "layoff_on_gin": True, "tie_policy": "no_score",
    }


def test_override_to_off_is_recorded_as_off() -> None:
    rules = with_overrides(PRESETS["hoyle"], {"big_gin_bonus": "off"})
    assert rules.big_gin_bonus is None
    assert rules.label == "hoyle + big_gin_bonus=off"


def test_override_to_the_preset_value_is_not_a_change() -> None:
    assert with_overrides(STANDARD, {"gin_bonus": "20"}) == STANDARD
    assert with_overrides(STANDARD, {}) is STANDARD
    changed = with_overrides(STANDARD, {"gin_bonus": 25, "box_bonus": 25})
    reverted = with_overrides(changed, {"gin_bonus": 20})
    assert reverted.overrides == (("box_bonus", "25"),)
    assert with_overrides(reverted, {"box_bonus": 20}) == STANDARD


def test_overrides_accumulate() -> None:
    rules = with_overrides(with_overrides(STANDARD, {"gin_bonus": 25}), {"gin_bonus": 30})
    assert rules.label == "standard + gin_bonus=30"
    rules = with_overrides(rules, {"tie_policy": "knocker"})
    assert rules.label == "standard + gin_bonus=30, tie_policy=knocker"


def test_overrides_on_rules_that_are_not_a_preset() -> None:
    mine = Rules(name="mine", gin_bonus=30)
    assert with_overrides(mine, {"gin_bonus": 30}) == mine
    assert with_overrides(mine, {"gin_bonus": 20}).label == "mine + gin_bonus=20"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gin_bonus=25", ("gin_bonus", "25")),
        (" gin_bonus = 25 ", ("gin_bonus", "25")),
        ("big_gin_bonus=off", ("big_gin_bonus", "off")),
        ("tie_policy=no_score", ("tie_policy", "no_score")),
        ("gin_bonus=", ("gin_bonus", "")),
        ("a=b=c", ("a", "b=c")),
    ],
)
def test_parse_override(text: str, expected: tuple[str, str]) -> None:
    assert parse_override(text) == expected


@pytest.mark.parametrize("text", ["gin_bonus", "", "=25", "  =25", "gin_bonus:25"])
def test_parse_override_needs_knob_and_equals(text: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        parse_override(text)
    assert str(info.value) == f"bad rule override {text!r}; expected knob=value"


def test_cli_path_parse_then_override() -> None:
    texts = ["gin_bonus=25", "undercut_bonus=25", "tie_policy=knocker"]
    pairs = dict(parse_override(text) for text in texts)
    rules = with_overrides(find_rules("standard"), pairs)
    assert (rules.gin_bonus, rules.undercut_bonus, rules.tie_policy) == (25, 25, "knocker")


# -- construction checks and immutability -----------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tie_policy": "maybe"}, "bad value 'maybe' for tie_policy; " + TIE_CHOICES),
        ({"tie_policy": "Undercut"}, "bad value 'Undercut' for tie_policy; " + TIE_CHOICES),
        ({"gin_bonus": "25"}, "bad value '25' for gin_bonus; expected a whole number >= 0"),
        ({"layoff_on_gin": 1}, "bad value 1 for layoff_on_gin; " + BOOL_CHOICES),
        ({"knock_limit": -1}, "bad value -1 for knock_limit; expected a whole number >= 0"),
        ({"wraparound": True}, "wraparound = true needs ace = 'high_or_low'"),
    ],
)
def test_constructor_rejects_bad_values(changes: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownRulesError) as info:
        msgspec.structs.replace(STANDARD, **changes)
    assert str(info.value) == message


def test_rules_are_frozen() -> None:
    with pytest.raises(AttributeError):
        STANDARD.gin_bonus = 25  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        STANDARD.not_a_field = 1  # type: ignore[attr-defined]
    assert STANDARD.gin_bonus == 20
    assert hash(STANDARD) == hash(msgspec.structs.replace(STANDARD))


# -- predicates --------------------------------------------------------------------------

# rank index -> (gin_only limit, one limit) under Oklahoma with knock_limit 10
OKLAHOMA_LIMITS = {
    0: (0, 1), 1: (2, 2), 2: (3, 3), 3: (4, 4), 4: (5, 5), 5: (6, 6), 6: (7, 7),
    7: (8, 8), 8: (9, 9), 9: (10, 10), 10: (10, 10), 11: (10, 10), 12: (10, 10),
}


@pytest.mark.parametrize("rank", range(13), ids=list(RANKS))
@pytest.mark.parametrize("suit", range(4), ids=list(SUITS))
def test_oklahoma_knock_limit_for_every_upcard(rank: int, suit: int) -> None:
    gin_only, one = OKLAHOMA_LIMITS[rank]
    upcard = card(rank, suit)
    assert PRESETS["oklahoma"].knock_limit_for(upcard) == gin_only
    assert with_overrides(PRESETS["oklahoma"], {"oklahoma": "one"}).knock_limit_for(upcard) == one
    assert STANDARD.knock_limit_for(upcard) == 10


@pytest.mark.parametrize(
    ("knock_limit", "oklahoma", "upcard", "expected"),
    [
        (7, "gin_only", "K", 7),   # capped by knock_limit
        (7, "gin_only", "8", 7),
        (7, "gin_only", "6", 6),
        (7, "one", "A", 1),
        (0, "one", "A", 0),        # straight gin stays gin only
        (0, "gin_only", "9", 0),
        (5, "off", "2", 5),
    ],
)
def test_knock_limit_for_is_capped(
    knock_limit: int, oklahoma: str, upcard: str, expected: int
) -> None:
    rules = with_overrides(STANDARD, {"knock_limit": knock_limit, "oklahoma": oklahoma})
    assert rules.knock_limit_for(card(RANKS.index(upcard), 0)) == expected


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_knock_limit_without_upcard(name: str) -> None:
    rules = PRESETS[name]
    assert rules.knock_limit_for(None) == rules.knock_limit
    assert rules.knock_limit_for() == rules.knock_limit


@pytest.mark.parametrize("suit", range(4), ids=list(SUITS))
def test_spade_doubling(suit: int) -> None:
    upcard = card(4, suit)
    spade = SUITS[suit] == "S"
    assert PRESETS["oklahoma"].is_spade_doubled(upcard) is spade
    assert PRESETS["oklahoma"].multiplier(upcard) == (2 if spade else 1)
    assert STANDARD.is_spade_doubled(upcard) is False
    assert STANDARD.multiplier(upcard) == 1
    assert PRESETS["oklahoma"].is_spade_doubled(None) is False


def test_big_gin_and_single_hand() -> None:
    assert [n for n in PRESET_NAMES if PRESETS[n].recognises_big_gin] == ["hoyle"]
    assert [n for n in PRESET_NAMES if PRESETS[n].single_hand] == ["openspiel", "rlcard"]
    assert with_overrides(STANDARD, {"big_gin_bonus": 31}).recognises_big_gin


# -- to_dict -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_to_dict_covers_every_field_and_is_json(name: str) -> None:
    rules = PRESETS[name]
    data = rules.to_dict()
    fields = list(Rules.__struct_fields__)
    assert list(data) == ["name", "label", *fields[1:]]
    assert json.loads(json.dumps(data)) == data
    assert data["name"] == name
    assert data["aliases"] == list(rules.aliases)
    for knob in KNOB_NAMES:
        value = getattr(rules, knob)
        assert data[knob] == ("off" if value is None else value)
        assert type(data[knob]) in (bool, int, str)


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_to_dict_values_feed_back_as_overrides(name: str) -> None:
    rules = PRESETS[name]
    rebuilt = with_overrides(STANDARD, knob_values(rules))
    assert knob_values(rebuilt) == knob_values(rules)


# -- rules files -------------------------------------------------------------------------


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)


@pytest.mark.parametrize("name", sorted(PRESET_DIFFS))
def test_to_dict_written_as_toml_loads_back(name: str, tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(
        "".join(f"{k} = {toml_value(v)}\n" for k, v in knob_values(PRESETS[name]).items())
    )
    loaded = load_rules_file(path)
    assert knob_values(loaded) == knob_values(PRESETS[name])
    assert loaded.name == "standard"


@pytest.mark.parametrize(
    ("text", "label", "checks"),
    [
        ("", "standard", {}),
        ('base = "hoyle"\n', "hoyle", {"gin_bonus": 25}),
        ('base = "TallyNight"\ngin_bonus = 30\n', "hoyle + gin_bonus=30", {"gin_bonus": 30}),
        (
            'gin_bonus = 25\nbig_gin_bonus = "off"\n'
            'tie_policy = "no_score"\nlayoff_on_gin = true\n',
            "standard + gin_bonus=25, layoff_on_gin=true, tie_policy=no_score",
            {"big_gin_bonus": None, "layoff_on_gin": True},
        ),
        (
            '[rules]\nbase = "oklahoma"\noklahoma = "one"\nspade_double_boxes = true\n',
            "oklahoma + oklahoma=one, spade_double_boxes=true",
            {"oklahoma": "one", "game_target": 150},
        ),
        (
            'base = "standard"\n[rules]\ngame_target = "150"\n',
            "standard + game_target=150",
            {"game_target": 150},
        ),
        ("# only a comment\n", "standard", {}),
    ],
)
def test_load_rules_file(text: str, label: str, checks: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    rules = load_rules_file(path)
    assert rules.label == label
    for knob, value in checks.items():
        assert getattr(rules, knob) == value
    assert load_rules_file(str(path)) == rules


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("gin_bonus = \n", "{f}:1:13: invalid value"),
        ("gin_bonus 25\n", "{f}:1:11: expected '=' after a key in a key/value pair"),
        ('gin_bonus = 25\ngin_bonus = 30\n', "{f}:2:"),
        ('gin_bonus = 25\ntie_policy = "no', "{f}:2: unterminated string (at end of file)"),
        ("gin_bonuss = 25\n", "{f}:1: unknown rule knob 'gin_bonuss'; did you mean 'gin_bonus'?"),
        (
            "# house rules\n\ntie_policy = \"maybe\"\n",
            "{f}:3: bad value 'maybe' for tie_policy; " + TIE_CHOICES,
        ),
        ("gin_bonus = -5\n", "{f}:1: bad value -5 for gin_bonus; expected a whole number >= 0"),
        ("gin_bonus = 2.5\n", "{f}:1: bad value 2.5 for gin_bonus; expected a whole number >= 0"),
        ('base = "hollywod"\n', "{f}:1: unknown rules 'hollywod'; did you mean 'hollywood'?"),
        ("base = 3\n", "{f}:1: bad value 3 for base; expected a name"),
        ('name = "mine"\n', "{f}:1: rule field 'name' cannot be overridden"),
        ("[rules.standard]\ngin_bonus = 25\n", "{f}:1: nested table [rules.standard] is not"),
        ("rules = 3\n", "{f}:1: 'rules' must be a table"),
        ("gin_bonus = 25\n[rules]\ngin_bonus = 30\n", "{f}:1: 'gin_bonus' is given twice"),
        ("[meta]\nauthor = \"me\"\n", "{f}:1: unknown rule knob 'meta'"),
        ("[ rules . 'standard' ]\ngin_bonus = 25\n", "{f}:1: nested table [rules.standard] is not"),
        ('gin_bonus = 25\n[rules]\n"gin_bonus" = 30\n', "{f}:1: 'gin_bonus' is given twice"),
        # a key of any length: found in one pass, cut in the message (it took a regex of the key)
        ('base = "hoyle"\ngin' + "a" * 200_000 + " = 1\n", "{f}:2: unknown rule knob 'ginaaaa"),
        ("[rules.x" + "0" * 5000 + "]\ny = 1\n", "{f}:1: nested table [rules.x000000000"),
        # tomllib's own message quotes the key whole (fuzz, seed 31): cut to one short line
        ("[r" + "0" * 5000 + "]\n[r" + "0" * 5000 + "]\n", "{f}:2:5003: cannot declare ('r0000000"),
    ],
)
def test_load_rules_file_errors(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UnknownRulesError) as info:
        load_rules_file(path)
    assert str(info.value).startswith(message.format(f=path))
    assert len(str(info.value)) < len(str(path)) + 160


def test_load_rules_file_missing(tmp_path: Path) -> None:
    """Paths are read by ``ginref.files``: a missing one is an InputFileError marked missing."""
    path = tmp_path / "nope.toml"
    with pytest.raises(InputFileError) as info:
        load_rules_file(path)
    assert str(info.value) == f"{path}: no such file"
    assert info.value.missing


def test_load_rules_file_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as info:
        load_rules_file(tmp_path)
    assert str(info.value) == f"{tmp_path}: cannot read a folder; give a file or a pipe"
    assert not info.value.missing
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"# caf\xe9\n")
    with pytest.raises(InputFileError) as info:
        load_rules_file(bad)
    assert str(info.value) == f"{bad}:1:6: invalid UTF-8 (byte 0xe9); the file must be UTF-8 text"



@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_compare_and_hash_field_by_field(name: str) -> None:
    """Equal rule sets are equal field by field and hash alike; one field changed, they differ."""
    rules = find_rules(name)
    fields = Rules.__struct_fields__
    twin = Rules(**{field: getattr(rules, field) for field in fields})
    assert twin == rules and hash(twin) == hash(rules)
    assert rules != tuple(getattr(rules, field) for field in fields) and rules != name
    for field in fields:  # one field changed, to another preset's value
        for other in PRESETS.values():
            value = getattr(other, field)
            if value != getattr(rules, field):
                try:
                    changed = msgspec.structs.replace(rules, **{field: value})
                except UnknownRulesError:  # wraparound without ace = high_or_low
                    continue
                assert changed != rules and not changed == rules  # noqa: SIM201
