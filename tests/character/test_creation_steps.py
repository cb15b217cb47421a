"""The creation steps of every mode of both editions, checked one step at a time."""

from __future__ import annotations

from typing import Any

import pytest

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.creation import (
    CreationRefused,
    check_step,
    creation_steps,
)
from taletable.systems.cogent.character.creation_choices import (
    choose_disabling,
    choose_quirk,
    commerce_needs,
    with_commerce,
    with_starting_destiny,
)

CORE_IDENTITY = {
    "name": "Ada",
    "disposition": "Cautious",
    "history": "A clerk's daughter",
    "beliefs": "Debts are paid",
    "goals": "Own the shop",
}
TIERED_IDENTITY = {
    "name": "Olga",
    "concept": "Orc protector",
    "elevator_pitch": "Raised in a human town, she stopped the bandits.",
    "history": "Born by the river; her call to quest was the raid.",
}

#: A legal core sheet, step by step, for each mode: attributes, skills, vocation points.
CORE_MODES = {
    "fast_play": ({"STR": 1, "RFL": 0, "INT": 1}, {"Athletics": 4, "Stealth": 4}, 4),
    "initiate": ({"STR": 0, "RFL": 1, "INT": 0}, {"Athletics": 2, "Stealth": 2}, 2),
    "adept": ({"STR": 1, "RFL": 1, "INT": 0}, {"Athletics": 3, "Stealth": 3}, 3),
    "veteran": ({"STR": 0, "RFL": 0, "INT": 2}, {"Athletics": 4, "Stealth": 4}, 4),
}


def core_sheet_by_steps(mode: str) -> dict[str, Any]:
    """Fill a core sheet one step at a time, every step checked legal as it is filled."""
    attributes, skills, vocation_points = CORE_MODES[mode]
    data: dict[str, Any] = {"edition": "core", "mode": mode}
    fills: dict[str, dict[str, Any]] = {
        "mode": {},
        "identity": {"identity": CORE_IDENTITY},
        "attributes": {"attributes": attributes},
        "disabling": {"disabling_characteristics": [{"name": "Phobia"}]},
        "skills": {"skills": skills},
        "vocations": {
            "vocations": [
                {"name": "Clerk", "attribute": "INT", "points": vocation_points,
                 "vocational_skills": [{"name": "Ledgers", "attribute": "INT", "points": 1}],
                 "combat_skills": [{"name": "Small Weapons", "points": 1}]},
            ]
        },
        "equipment": {"equipment": {"weapons": [{"name": "Knife", "group": "Small Weapon"}]}},
    }  # fmt: skip
    for step in creation_steps("core"):
        if step.name == "commerce":
            data = with_commerce(data, assigned=3)
        elif step.name == "destiny":
            data = with_starting_destiny(data)
        else:
            data = {**data, **fills[step.name]}
        checked = check_step(data, step.name)
        assert checked.legal, (mode, step.name, checked.problems)
    return data


@pytest.mark.parametrize("mode", sorted(CORE_MODES))
def test_every_core_mode_walks_its_steps_to_a_legal_sheet(mode: str) -> None:
    """002 > Character Creation: each mode's steps, each checked legal, end in a legal sheet."""
    data = core_sheet_by_steps(mode)
    assert check_step(data, "destiny").next_step is None
    assert data["destiny"] == {"points": 3, "maximum": 3}  # "starts with 3 Destiny Points"


@pytest.mark.parametrize("tier", range(6))
def test_every_tier_walks_its_steps_to_a_legal_sheet(tier: int) -> None:
    """000 > Character Creation: the tier's AP, VP, SP, CP and destiny, step by step."""
    rows = {0: (0, 0, 0), 1: (1, 1, 1), 2: (2, 2, 2), 3: (3, 3, 3), 4: (4, 4, 4), 5: (5, 4, 4)}
    points, rank, most = rows[tier]
    data: dict[str, Any] = {"edition": "tiered", "tier": tier}
    vocations = [{"name": "Guard", "attribute": "STR", "rank": rank}] if rank else []
    fills = {
        "tier": {},
        "identity": {"identity": TIERED_IDENTITY},
        "attributes": {"attributes": {"STR": points, "RFL": 0, "INT": 0, "CHA": 0}},
        "vocations": {"vocations": vocations},
        "skills": {"skills": {"Athletics": most, "Stealth": most} if most else {}},
        "equipment": {"equipment": {"items": ["Rope"]}},
        "finishing": {},
    }
    for step in creation_steps("tiered"):
        data = {**data, **fills[step.name]}
        if step.name == "finishing":
            data = with_starting_destiny(data)
        checked = check_step(data, step.name)
        assert checked.legal, (tier, step.name, checked.problems)
    starts = {0: 0, 1: 0, 2: 1, 3: 2, 4: 3, 5: 5}
    assert data["destiny"]["points"] == starts[tier]  # the "Starting Destiny" row


def test_attribute_total_is_checked_at_the_attributes_step() -> None:
    """002 > Attributes: "player characters will be given 2 Attribute Points"; three are over,
    though each attribute alone is within 2."""
    data = {"edition": "core", "identity": CORE_IDENTITY, "attributes": {"STR": 1, "RFL": 1,
            "INT": 1}}  # fmt: skip
    checked = check_step(data, "attributes")
    assert not checked.legal
    (problem,) = checked.problems
    assert problem.field == "attribute_points" and "1 attribute point(s) over" in problem.found


def test_a_step_reports_only_its_own_fields() -> None:
    """The mandatory vocation ("Selecting at least one Vocation is Mandatory") waits for its
    step: the attributes step of a sheet without one is legal, the vocations step is not."""
    data = {"edition": "core", "identity": CORE_IDENTITY, "attributes": {"STR": 2}}
    assert check_step(data, "attributes").legal
    vocations = check_step(data, "vocations")
    assert [p.found for p in vocations.problems] == ["no vocation"]


def test_identity_step_asks_the_core_characteristics() -> None:
    """002 > Creating a Character: "there are several Core Characteristic requirements to be
    filled out": disposition, history, beliefs, goals."""
    checked = check_step({"edition": "core", "identity": {"name": "Ada"}}, "identity")
    assert [p.field for p in checked.problems] == [
        "identity.disposition", "identity.history", "identity.beliefs", "identity.goals",
    ]  # fmt: skip
    tiered = check_step({"edition": "tiered", "identity": {"name": "O"}}, "identity")
    assert [p.field for p in tiered.problems] == [
        "identity.concept", "identity.elevator_pitch", "identity.history",
    ]  # fmt: skip


def test_a_malformed_field_is_a_problem_and_an_unknown_step_an_input_error() -> None:
    """A wizard's bad value is named by its path; a step the edition lacks names the steps."""
    checked = check_step({"edition": "core", "attributes": {"STR": "lots"}}, "attributes")
    assert not checked.legal and checked.problems[0].field == "attributes.STR"
    with pytest.raises(InputError, match="step: no step 'finishing' in core"):
        check_step({"edition": "core"}, "finishing")


def test_campaign_limits_hold_at_their_steps() -> None:
    """002 > Campaign Progression, Initiate: "Maximum Core Skill Points 2"; Maximum Vocations
    1; a third core skill point in Athletics is refused at the skills step."""
    data = {"edition": "core", "mode": "initiate", "identity": CORE_IDENTITY,
            "skills": {"Athletics": 3}}  # fmt: skip
    assert "at most 2 in a core skill" in check_step(data, "skills").problems[0].fix
    two = [{"name": "A", "attribute": "STR", "points": 1}, {"name": "B", "attribute": "STR"}]
    problems = check_step({**data, "skills": {}, "vocations": two}, "vocations").problems
    assert any("at most 1 at creation in initiate" in p.fix for p in problems)


def test_disabling_choices_roll_choose_or_custom() -> None:
    """002 > Disabling Characteristics: "you may roll a twenty-sided dice ... This cannot be
    taken back"; a name off the table is refused unless it is one "the Narrator approves"."""
    rolled = choose_disabling("roll", GivenFaces([13]))
    assert (rolled.name, rolled.how, rolled.roll) == ("Overconfident", "rolled", 13)
    assert choose_disabling("phobia", GivenFaces([])).name == "Phobia"
    with pytest.raises(RulesError, match="'Sneezes' is not on the table"):
        choose_disabling("Sneezes", GivenFaces([]))
    custom = choose_disabling("Sneezes", GivenFaces([]), custom=True)
    assert custom.custom and custom.name == "Sneezes"


def test_overconfident_names_a_real_skill() -> None:
    """Overconfident: "You are extremely overconfident in a specific skill, such as stealth":
    "Basketweaving" is no skill of the sheet; Stealth is."""
    overconfident = {"name": "Overconfident", "skill": "Basketweaving"}
    data = {"edition": "core", "identity": CORE_IDENTITY,
            "disabling_characteristics": [overconfident]}  # fmt: skip
    (problem,) = check_step(data, "disabling").problems
    assert "'Basketweaving' is not a skill of this sheet" in problem.found
    assert problem.field == "disabling_characteristics.0.skill"
    data["disabling_characteristics"][0]["skill"] = "stealth"
    assert check_step(data, "disabling").legal


def test_quirks_roll_choose_or_custom() -> None:
    """002 > Assigning Commerce Points: "they must roll on the 'Quirks of Wealth' table ...
    (Player and Narrator can instead agree upon a backstory appropriate quirk if they desire)"."""
    assert choose_quirk("", GivenFaces([7])) == ("Tight Purse", False)
    assert choose_quirk("roll", GivenFaces([7, 11]), held=("Tight Purse",)) == ("Debt", False)
    with pytest.raises(RulesError, match="'Collector' is not a quirk of wealth"):
        choose_quirk("Collector", GivenFaces([]))
    assert choose_quirk("Collector", GivenFaces([]), custom=True) == ("Collector", True)
    with pytest.raises(RulesError, match="'Collector' is not a quirk of wealth"):
        choose_quirk("Collector", GivenFaces([]), edition="tiered", custom=True)
    assert choose_quirk("monopoly", GivenFaces([]), edition="tiered") == ("Monopoly", False)


def test_commerce_level_two_puts_a_point_in_an_untouched_skill() -> None:
    """ "a commerce level of Two, they gain +1 skill point ... but may only spend it in a skill
    they have not already assigned any points into"; stepping up brings a quirk."""
    assert commerce_needs(2, 0) == (0, 1) and commerce_needs(4, 1) == (2, 0)
    data = {"edition": "core", "identity": CORE_IDENTITY, "skills": {"Athletics": 2}}
    placed = with_commerce(data, assigned=2, bonus_skills=("Swim",))
    assert placed["skills"] == {"Athletics": 2, "Swim": 1}
    assert placed["commerce"]["bonus_skills"] == ["Swim"]
    with pytest.raises(RulesError, match="Athletics already holds 2 point"):
        with_commerce(data, assigned=2, bonus_skills=("Athletics",))
    with pytest.raises(RulesError, match="the narrator assigns a commerce level of 2, 3 or 4"):
        commerce_needs(6, 0)


def test_creation_refused_keeps_every_problem() -> None:
    """A refusal names the first problem in one line and keeps them all."""
    from taletable.systems.cogent.character.report import Problem

    problems = (Problem(rule="r1", found="a", fix="x"), Problem(rule="r2", found="b", fix="y"))
    refused = CreationRefused(problems)
    assert str(refused) == "not a legal character: a (and 1 more) (r1); x"
    assert refused.problems == problems
