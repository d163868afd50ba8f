"""A knob's text, and which preset plus overrides a rule set is, have one home: ``Rules``.
"The record's rules, or raise" has one: ``RecordRules.required``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginref.errors import RulingError, UnknownRulesError
from ginref.rules import (
    KNOB_NAMES,
    PRESET_NAMES,
    PRESETS,
    find_rules,
    knob_choices,
    record_rules,
    with_overrides,
)


@pytest.mark.parametrize(("preset", "knob", "text"), [
    ("standard", "gin_bonus", "20"),
    ("standard", "layoff_chaining", "true"),
    ("rlcard", "layoff_on_knock", "false"),
    ("hoyle", "big_gin_bonus", "31"),
    ("standard", "big_gin_bonus", "off"),
    ("openspiel", "tie_policy", "no_score"),
    ("openspiel", "max_discard_draws", "50"),
    ("standard", "max_discard_draws", "off"),
])
def test_a_knobs_text_is_what_set_takes(preset: str, knob: str, text: str) -> None:
    rules = PRESETS[preset]
    assert rules.knob_text(knob) == text and rules.setting(knob) == f"{knob}={text}"
    assert with_overrides(PRESETS["standard"], {knob: text}).knob_text(knob) == text  # it reads back


@given(st.sampled_from(PRESET_NAMES), st.sampled_from(KNOB_NAMES), st.data())
def test_as_preset_names_the_rules_a_record_gives_back(preset: str, knob: str, data: st.DataObject) -> None:
    """A record naming the preset and the changes ``as_preset`` gives is ruled by the same rules."""
    choices = knob_choices(knob)
    value = data.draw(st.sampled_from(choices)) if choices else data.draw(st.integers(1, 60).map(str))
    try:
        rules = with_overrides(PRESETS[preset], {knob: value})
    except UnknownRulesError:
        return  # a value this knob does not take
    name, overrides = rules.as_preset()
    assert name == preset
    assert overrides == ((knob, rules.knob_text(knob)),) if rules != PRESETS[preset] else overrides == ()
    assert record_rules(name, overrides).required() == rules


def test_rules_named_after_no_preset_are_standards_with_changes() -> None:
    import msgspec

    rules = msgspec.structs.replace(find_rules("standard"), name="my table", gin_bonus=30)
    assert rules.as_preset() == ("standard", (("gin_bonus", "30"),))


def test_the_rules_or_raise() -> None:
    assert record_rules("hoyle", (("gin_bonus", "30"),)).required() == with_overrides(find_rules("hoyle"),
                                                                                      {"gin_bonus": 30})
    with pytest.raises(RulingError, match=r"^the record's rules cannot be used: the record asks for rules"):
        record_rules("nope").required()

    class Refused(RulingError):
        pass

    with pytest.raises(Refused, match=r"^rule override gin_bonus=lots ignored"):
        record_rules("standard", (("gin_bonus", "lots"),)).required(Refused)


def test_a_records_label_is_what_it_asked_when_ginref_cannot_apply_it() -> None:
    assert record_rules("hoyle", (("gin_bonus", "30"),)).label == "hoyle + gin_bonus=30"
    assert record_rules("nope", (("gin_bonus", "30"),)).label == "nope + gin_bonus=30"
    assert record_rules("standard", (("gin_bonus", "lots"),)).label == "standard + gin_bonus=lots"


def test_the_rules_fit_spells_a_knob_as_set_does() -> None:
    """Where the records part from the rules they name, a knob's value is written as ``--set``
    takes it (``off``, not Python's ``None``)."""
    from pathlib import Path

    from ginref.records import read_records
    from ginref.rulefit import fit_rules

    samples = Path(__file__).resolve().parents[2] / "samples" / "records"
    fit = fit_rules(record for path in sorted(samples.glob("*.gin")) for record in read_records(path))
    knobs = [knob for parting in (*fit.partings, *fit.rejected) for knob in parting.knobs]
    assert "big_gin_bonus: the records say 31, standard says off" in knobs
    assert not any(knob.endswith("None") for knob in knobs)
