"""More creation rules, each refused with its message: vocations, commerce, campaign tiers."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.files import character_from_data

EXAMPLES = Path("examples/characters")
TERRIK = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text())
MARA = yaml.safe_load((EXAMPLES / "core_mara_the_thief.yaml").read_text())
RICK = yaml.safe_load((EXAMPLES / "tiered_rick_the_ranger.yaml").read_text())


def problems(data: dict[str, Any]) -> list[str]:
    return [str(p) for p in validate(character_from_data(data, source="test")).problems]


def with_changes(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    data.update(changes)
    return data


def knight(points: int, **nested: Any) -> dict[str, Any]:
    return {"name": "Knight", "attribute": "STR", "points": points, **nested}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"vocations": [knight(1, vocational_skills=[
            {"name": "Heraldry", "attribute": "INT", "points": 2}])]},
         "Heraldry (2) is above its vocation Knight (1)"),
        ({"vocations": [knight(2, vocational_skills=[
            {"name": "Heraldry", "attribute": "INT", "points": -1}])]}, "Heraldry has -1"),
        ({"vocations": [knight(1), {"name": "Squire", "attribute": "STR", "points": -1}]},
         "vocation Squire has -1"),
        ({"vocations": [knight(4, combat_skills=[{"name": "Medium Weapons", "points": 5}])]},
         "Medium Weapons has 5"),
        ({"disabling_characteristics": [{"name": "Overconfident"}]},
         "Overconfident names no skill"),
        ({"destiny": {"points": 4, "maximum": 3}}, "4 destiny points"),
        ({"commerce": {"assigned": 3, "adjustment": -1}}, "name 1: one at level 2"),
        ({"commerce": {"assigned": 4, "adjustment": 1, "quirks": ["Fame"]}}, "take 2"),
        ({"commerce": {"assigned": 4, "adjustment": 1, "quirks": ["Fame", "fame"]}},
         "the same quirk twice"),
        ({"commerce": {"assigned": 2, "adjustment": -1, "bonus_skills": ["Swim", "swim"]},
          "skills": {**TERRIK["skills"], "Swim": 1}}, "the same commerce bonus skill twice"),
        ({"glory_days": True}, "Glory Days is a Veteran rule"),
    ],
)  # fmt: skip
def test_more_core_violations_are_refused(changes: dict[str, Any], message: str) -> None:
    """A fast-play sheet breaking one rule is refused, naming what was found and the rule."""
    found = problems(with_changes(TERRIK, **changes))
    assert any(message in p for p in found), found
    assert all("(002 >" in p for p in found)


def test_beasts_monsters_and_magic_may_have_free_form_combat_skills() -> None:
    """002 > Combat Skills: a free-form combat skill needs free_form (beast, monster, magic)."""
    fire = {"name": "Pyromancy", "points": 1}
    plain = with_changes(TERRIK, vocations=[knight(2, combat_skills=[fire])])
    assert any("'Pyromancy' is not a weapon category" in p for p in problems(plain))
    magic = with_changes(
        TERRIK, vocations=[knight(2, combat_skills=[{**fire, "free_form": "magic"}])]
    )
    assert problems(magic) == []


def test_custom_disabling_characteristic_earns_one_point() -> None:
    """002 > Disabling Characteristics: a narrator-approved custom characteristic gives +1."""
    base = validate(character_from_data(TERRIK, source="t")).budget.skill_points
    custom = with_changes(
        TERRIK, disabling_characteristics=[{"name": "Sworn to Silence", "custom": True}]
    )
    report = validate(character_from_data(custom, source="t"))
    assert report.legal and report.budget.skill_points == base + 1


def test_commerce_step_down_adds_a_point_for_an_untouched_skill() -> None:
    """002 > Assigning Commerce Points: level 2 and a step down give +1 each, untouched skills."""
    data = copy.deepcopy(MARA)
    data["commerce"] = {"assigned": 2, "adjustment": -1, "bonus_skills": ["Persuasion", "Throw"]}
    data["skills"]["Throw"] = 1
    report = validate(character_from_data(data, source="t"))
    assert report.legal, [str(p) for p in report.problems]
    assert (
        report.budget.skill_points
        == validate(character_from_data(MARA, source="t")).budget.skill_points + 1
    )
    data["skills"]["Throw"] = 2
    assert any("commerce bonus point in Throw (2 points)" in p for p in problems(data))


# A campaign sheet: one STR vocation, nothing else spent.
def campaign(mode: str, **changes: Any) -> dict[str, Any]:
    data = {
        "edition": "core",
        "mode": mode,
        "identity": {"name": "Recruit"},
        "vocations": [knight(1)],
        "commerce": {"assigned": 3},
    }
    data.update(changes)
    return data


# 002 > Campaign Progression: starting attribute points, skill points, vocations, disabling
# characteristics, and the core/vocation caps of each tier.
TIERS = {
    "initiate": (1, 6, 1, 1, 2, 2),
    "adept": (2, 12, 2, 2, 3, 3),
    "veteran": (2, 18, 3, 3, 4, 4),
}


@pytest.mark.parametrize("mode", sorted(TIERS))
def test_campaign_tier_creation_limits(mode: str) -> None:
    """Each tier's starting points, maximum vocations and disabling characteristics, and caps."""
    attributes, skills, vocations, disabling, core_cap, vocation_cap = TIERS[mode]
    legal = validate(character_from_data(campaign(mode), source="t"))
    assert legal.legal, [str(p) for p in legal.problems]
    assert legal.budget.attribute_points == attributes
    assert legal.budget.skill_points == skills + 1  # + the first vocation's free point

    over = campaign(mode, attributes={"STR": 2, "RFL": attributes - 1})
    assert any(f"spend at most {attributes}" in p for p in problems(over))
    trades = [{"name": f"Trade {n}", "attribute": "INT", "points": 0} for n in range(vocations)]
    many = campaign(mode, vocations=[knight(1), *trades])
    assert any(f"at most {vocations} at creation in {mode}" in p for p in problems(many))
    flaws = [{"name": name} for name in ("Phobia", "Paranoia", "Delusion", "Addiction")]
    burdened = campaign(mode, disabling_characteristics=flaws[: disabling + 1])
    assert any(f"at most {disabling} at creation in {mode}" in p for p in problems(burdened))
    if core_cap < 4:
        capped = campaign(mode, skills={"Athletics": core_cap + 1})
        assert any(f"at most {core_cap} in a core skill" in p for p in problems(capped))
        vocation = campaign(mode, vocations=[knight(vocation_cap + 1)])
        assert any(f"0 to {vocation_cap} points" in p for p in problems(vocation))
    spent = campaign(mode, skills={"Athletics": 2, "Survival": 2, "Stealth": 2, "Grip": 2,
                                   "Swim": 2, "Throw": 2, "Endurance": 2, "Perception": 2,
                                   "Acrobatics": 2, "Persuasion": 2})  # fmt: skip
    assert any(f"spend at most {skills + 1}" in p for p in problems(spent))  # 20 > 18 + 1


def test_creation_limits_lift_once_the_campaign_progresses() -> None:
    """002 > Campaign Progression: "as soon as the campaign progresses, these restrictions no
    longer apply" (new vocations and disabling characteristics may come later)."""
    two = [knight(1), {"name": "Scout", "attribute": "RFL", "points": 1}]
    at_creation = campaign("initiate", vocations=two, disabling_characteristics=[
        {"name": "Phobia"}, {"name": "Paranoia"}])  # fmt: skip
    assert sum("at creation in initiate" in p for p in problems(at_creation)) == 2
    later = {**at_creation, "progress": {"chapters_completed": 1, "skill_points_awarded": 1}}
    assert not any("at creation" in p for p in problems(later))


def test_caps_lift_at_arcs_and_career_milestones() -> None:
    """Adept: core cap 4 after arc 1; vocations stay at 3 until a career milestone (or, without
    milestones, the end of arc 1); a milestone for one vocation lifts only that vocation."""
    progress = {"arcs_completed": 1, "chapters_completed": 7, "skill_points_awarded": 12}
    strong = [knight(4), {"name": "Scout", "attribute": "RFL", "points": 4}]
    data = campaign("adept", skills={"Athletics": 4}, vocations=strong, progress=progress)
    found = problems(data)
    assert not any("in a core skill" in p for p in found)
    assert any("vocation Knight has 4" in p and "0 to 3" in p for p in found)
    knight_milestone = {**progress, "career_milestones": ["Knight"]}
    found = problems({**data, "progress": knight_milestone})
    assert not any("vocation Knight" in p for p in found)
    assert any("vocation Scout has 4" in p for p in found)
    without = {**data, "career_milestones_used": False}
    assert problems(without) == []
    before_arc = {**without, "progress": {**progress, "arcs_completed": 0}}
    assert any("at most 3 in a core skill" in p for p in problems(before_arc))


@pytest.mark.parametrize(
    ("tier", "changes", "message"),
    [
        (0, {"skills": {"Athletics": 1}}, "0 to 0 at tier 0"),
        (1, {"vocations": [{"name": "Guard", "attribute": "STR", "rank": 2}]}, "0 to 1 at tier 1"),
        (5, {"skills": {"Athletics": 5}}, "0 to 4 at tier 5"),
        (3, {"equipment": {"weapons": [{"name": "Laser", "group": "Laser"}]}},
         "not a weapon group"),
        (3, {"equipment": {"armour": ["Small Shield", "Large Shield"]}}, "one shield at most"),
    ],
)  # fmt: skip
def test_tiered_limits_by_tier(tier: int, changes: dict[str, Any], message: str) -> None:
    """000 > Tier Resources and Limits, and the core weapon and armour tables."""
    data = with_changes(RICK, tier=tier, **changes)
    found = problems(data)
    assert any(message in p for p in found), found


def test_a_quirk_agreed_with_the_narrator_counts() -> None:
    """002 > Assigning Commerce Points: "Player and Narrator can instead agree upon a backstory
    appropriate quirk": it takes the place of a rolled one."""
    agreed = with_changes(TERRIK, commerce={"assigned": 4, "custom_quirks": ["Owes the Abbey"]})
    assert problems(agreed) == []
    both = with_changes(
        TERRIK, commerce={"assigned": 4, "quirks": ["Fame"], "custom_quirks": ["Owes the Abbey"]}
    )
    assert any("2 quirks of wealth" in p and "take 1" in p for p in problems(both))


def test_complete_samples_of_each_edition() -> None:
    """examples/characters: four legal core sheets (one a wizard) and three tiered, every point
    spent."""
    files = sorted(EXAMPLES.glob("*.yaml"))
    assert [f.name.split("_")[0] for f in files].count("core") == 4
    assert [f.name.split("_")[0] for f in files].count("tiered") == 3
    for file in files:
        report = validate(character_from_data(yaml.safe_load(file.read_text()), source=file.name))
        budget = report.budget
        assert report.legal, file
        left = (budget.attribute_points_left, budget.skill_points_left)
        assert left == (0, 0), file
        assert budget.vocation_points_spent == budget.vocation_points, file


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"commerce": {"quirks": ["Fame", "fame"]}}, "the same quirk twice"),
        ({"vocations": [{"name": "Ranger", "attribute": "RFL", "rank": 2, "specialisations": [
            {"name": "Tracking", "attribute": "RFL", "points": -1}]}]},
         "Tracking has -1"),
    ],
)  # fmt: skip
def test_more_tiered_violations(changes: dict[str, Any], message: str) -> None:
    """000 > Equipment (each quirk once) and Skills (specialisations 0 to the vocation's rank)."""
    data = with_changes(RICK, tier=4, **changes)
    assert any(message in p for p in problems(data)), problems(data)


def test_tiered_disabling_characteristics_give_no_points() -> None:
    """RULINGS.md: a tiered sheet's disabling characteristics take dice but give no points."""
    from taletable.systems.cogent.character import check_pool

    feeble = with_changes(
        RICK, disabling_characteristics=[{"name": "Feeble", "how": "rolled", "roll": 2}]
    )
    before = validate(character_from_data(RICK, source="t")).budget
    after = validate(character_from_data(feeble, source="t")).budget
    assert after.skill_points == before.skill_points
    assert after.skill_points_spent == before.skill_points_spent
    rick, weak = (character_from_data(d, source="t") for d in (RICK, feeble))
    assert check_pool(weak, "Athletics").size == check_pool(rick, "Athletics").size - 1


def test_creation_only_limits_lift_once_the_campaign_progresses() -> None:
    """002 > Disabling Characteristics: Overconfident "cannot spend points on an applicable skill
    during character creation"; 002 > Assigning Commerce Points: the bonus point goes in an
    untouched skill. Both hold at creation; after a chapter the skill may grow (RULINGS.md)."""
    data = copy.deepcopy(MARA)  # commerce level 2: her bonus point is in Persuasion
    data["mode"] = "adept"
    data["disabling_characteristics"] = [{"name": "Overconfident", "skill": "Acrobatics"}]
    data["skills"] = {**data["skills"], "Persuasion": 2, "Acrobatics": 1}
    at_creation = problems(data)
    assert any("Overconfident: points in Acrobatics" in p for p in at_creation), at_creation
    assert any("commerce bonus point in Persuasion (2 points)" in p for p in at_creation)
    later = {**data, "progress": {"chapters_completed": 2, "skill_points_awarded": 2}}
    after = problems(later)
    assert not any("Overconfident" in p or "commerce bonus point" in p for p in after), after
