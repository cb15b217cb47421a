"""Every creation rule: a sheet that breaks it is refused with a message naming the rule."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.errors import DataError
from taletable.store.sheets import load_character, save_character
from taletable.systems.cogent.character import (
    character_schema,
    check_pool,
    validate,
)
from taletable.systems.cogent.character.commerce import roll_disabling, roll_quirks
from taletable.systems.cogent.character.files import character_from_data

EXAMPLES = Path("examples/characters")
TERRIK = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text())
RICK = yaml.safe_load((EXAMPLES / "tiered_rick_the_ranger.yaml").read_text())


def problems(data: dict[str, Any]) -> list[str]:
    report = validate(character_from_data(data, source="test"))
    return [str(problem) for problem in report.problems]


def edited(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target.setdefault(key, {})
        target[keys[-1]] = value
    return data


@pytest.mark.parametrize("file", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_sample_characters_are_legal(file: Path) -> None:
    """Every shipped sample character passes every creation rule."""
    report = validate(load_character(file))
    assert report.legal, [str(problem) for problem in report.problems]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"attributes": {"STR": 2, "RFL": 1, "INT": 1}}, "attribute point(s) over"),
        ({"attributes": {"STR": -1, "INT": 1}}, "may not choose a negative attribute"),
        ({"attributes": {"STR": 3}}, "at most 2 without superhuman"),
        ({"skills": {"Athletics": 5}}, "at most 4 in a core skill"),
        ({"skills": {"Athletics": 4, "Endurance": 4, "Grip": 4, "Swim": 4}}, "skill point(s) over"),
        ({"skills": {"Athletics": 2, "Swim": -1, "Grip": -1}}, "single negative point"),
        ({"skills": {"Juggling": 1}}, "'Juggling' is not a core skill"),
        ({"vocations": []}, "at least one vocation is mandatory"),
        ({"vocations__0__points": 0, "vocations__0__combat_skills": []}, "takes its free point"),
        ({"vocations__0__points": 5}, "0 to 4 points"),
        ({"vocations__0__combat_skills": [{"name": "Medium Weapons", "points": 3}]},
         "never more points in a vocational or combat skill"),
        ({"vocations__0__combat_skills": [{"name": "Swords", "points": 1}]},
         "not a weapon category"),
        ({"vocations__0__vocational_skills": [
            {"name": f"Skill {n}", "attribute": "STR", "points": 0} for n in range(4)]},
         "at most 4 skills under a vocation"),
        ({"disabling_characteristics": [{"name": "Bad Luck"}]}, "not on the table"),
        ({"disabling_characteristics": [{"name": "Heavy", "how": "rolled", "roll": 7}]},
         "a rolled characteristic is the table's entry"),
        ({"disabling_characteristics": [{"name": "Overconfident", "skill": "Athletics"}]},
         "Overconfident character spends no points"),
        ({"destiny": {"points": 3, "maximum": 4}}, "the maximum here is 3"),
        ({"commerce": {"assigned": 5}}, "assigns a commerce level of 2, 3 or 4"),
        ({"commerce": {"assigned": 4}}, "take 1: one at level 4"),
        ({"commerce": {"assigned": 3, "adjustment": 1, "quirks": ["Fame", "Debt"]}}, "take 1"),
        ({"commerce": {"assigned": 4, "quirks": ["Wealthy"]}}, "not a quirk of wealth"),
        ({"commerce": {"assigned": 2, "bonus_skills": ["Athletics"]}},
         "the bonus point goes in a skill with no other points"),
        ({"commerce": {"assigned": 2}}, "name 1: one at level 2"),
        ({"equipment": {"armour": ["Small Shield", "Large Shield"]}}, "one shield at most"),
        ({"equipment": {"weapons": [{"name": "Laser", "group": "Laser"}]}}, "not a weapon group"),
    ],
)  # fmt: skip
def test_core_rule_violations_are_refused(changes: dict[str, Any], message: str) -> None:
    """A fast-play sheet breaking one rule is refused, the message naming rule and fix."""
    found = problems(edited(TERRIK, **changes))
    assert any(message in problem for problem in found), found
    assert all("(002 >" in problem for problem in found)


def test_disabling_characteristics_add_skill_points_for_two_only() -> None:
    """+1 chosen, +2 rolled, for the first two only; * makes points cost more (RULINGS.md)."""
    base = edited(TERRIK, disabling_characteristics=[
        {"name": "Phobia"}, {"name": "Paranoia", "how": "rolled", "roll": 9},
        {"name": "Short Temper"}])  # fmt: skip
    report = validate(character_from_data(base, source="t"))
    assert report.budget.skill_points == 16 + 1 + 2
    feeble = edited(
        TERRIK, disabling_characteristics=[{"name": "Feeble", "how": "rolled", "roll": 2}]
    )
    costly = validate(character_from_data(feeble, source="t"))
    # Athletics 2, Endurance 2 and the STR vocation's 2 points now cost 2 each: +5 (free point
    # still pays for one of the Knight's points), against +2 from the roll.
    assert costly.budget.skill_points_spent == 16 + 5
    assert not costly.legal


def test_campaign_tier_limits() -> None:
    """Initiate: 1 attribute point, 6 skill points, 1 vocation, caps of 2 until arcs lift them."""
    initiate = edited(TERRIK, mode="initiate", skills={"Athletics": 3})
    found = problems(initiate)
    assert any("attribute point(s) over" in p for p in found)
    assert any("at most 2 in a core skill" in p for p in found)
    assert all("002 >" in p for p in found)
    two = [{"name": n, "attribute": "STR", "points": 1} for n in "AB"]
    two_vocations = edited(TERRIK, mode="initiate", vocations=two)
    assert any("at most 1 at creation in initiate" in p for p in problems(two_vocations))
    progress = {"arcs_completed": 2, "attribute_points_awarded": 1, "skill_points_awarded": 10}
    lifted = edited(TERRIK, mode="initiate", skills={"Athletics": 3}, progress=progress)
    assert not any("in a core skill" in p for p in problems(lifted))


def test_glory_days_destiny() -> None:
    """Veteran Glory Days: a destiny maximum of 1 at the start."""
    data = edited(TERRIK, mode="veteran", glory_days=True)
    assert any("the maximum here is 1" in p for p in problems(data))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"attributes": {"STR": 2, "RFL": 1, "INT": 1}}, "attribute point(s) over"),
        ({"skills": {"Perception": 4}}, "0 to 3 at tier 3"),
        ({"vocations__0__rank": 4}, "0 to 3 at tier 3"),
        ({"vocations__0__specialisations": [
            {"name": "Wildcraft", "attribute": "INT", "points": 3}]},
         "no specialisation above its vocation"),
        ({"attributes": {"STR": 1, "RFL": 1, "INT": 0}, "vocations": [
            {"name": "Ranger", "attribute": "RFL", "rank": 1},
            {"name": "Scout", "attribute": "RFL", "rank": 1}]}, "at most 1 + INT = 1"),
        ({"commerce": {"quirks": ["Fame", "Debt"]}}, "at most 1 at tier 3"),
        ({"destiny": {"points": 2, "maximum": 5}}, "tier 3's maximum is 4"),
        ({"skills": {"Perception": 3, "Stealth": 3, "Athletics": 3, "Endurance": 3,
                     "Dexterity": 3}}, "skill point(s) over"),
        ({"skills": {"Charm": 1}}, "not a skill"),
        ({"attributes": {"STR": -1, "RFL": 1}}, "assign 0 or more"),
        ({"commerce": {"quirks": ["Wealthy"]}}, "not a quirk of wealth"),
        ({"commerce": {"quirks": ["Loan Shark"], "points": 6}}, "at most 5: tier 3's 4"),
        ({"destiny": {"points": 3, "maximum": 4}}, "start with tier 3's 2"),
    ],
)  # fmt: skip
def test_tiered_rule_violations_are_refused(changes: dict[str, Any], message: str) -> None:
    """A tier 3 sheet breaking one rule is refused with the rule's source."""
    found = problems(edited(RICK, **changes))
    assert any(message in problem for problem in found), found
    assert all("(00" in problem for problem in found)


def test_files_round_trip_and_bad_files(tmp_path: Path) -> None:
    """Save and load (YAML and JSON) give the same sheet; broken files are DataErrors."""
    sheet = load_character(EXAMPLES / "core_mara_the_thief.yaml")
    for suffix in (".yaml", ".json"):
        path = tmp_path / f"mara{suffix}"
        save_character(sheet, path)
        assert load_character(path) == sheet
    (tmp_path / "bad.yaml").write_text("edition: core\nidentity: {name: X}\nlevel: 3\n")
    with pytest.raises(DataError, match="level: Extra inputs are not permitted"):
        load_character(tmp_path / "bad.yaml")
    (tmp_path / "none.yaml").write_text("identity: {name: X}\n")
    with pytest.raises(DataError, match="edition: missing"):
        load_character(tmp_path / "none.yaml")
    assert "CoreCharacter" in str(character_schema())


def test_d20_tables_reroll_duplicates() -> None:
    """Quirks rolled twice reroll a duplicate; a rolled disabling characteristic is the table's."""
    assert roll_quirks(2, GivenFaces([7, 7, 11])) == ["Tight Purse", "Debt"]
    assert roll_disabling(GivenFaces([13])) == "Overconfident"


def test_intelligence_adds_three_skill_points_per_point() -> None:
    """002 > Character Creation: 12 skill points, +3 per point of INT, +1 free vocation point."""
    one = validate(character_from_data(TERRIK, source="t")).budget
    two = validate(
        character_from_data(edited(TERRIK, attributes={"STR": 0, "RFL": 0, "INT": 2}), source="t")
    ).budget
    assert one.skill_points == 12 + 3 + 1
    assert two.skill_points == one.skill_points + 3
    assert two.skill_points_left == one.skill_points_left + 3


def test_every_problem_is_reported_at_once() -> None:
    """Validation lists every broken rule together, each with its rule, finding and fix."""
    broken = edited(
        TERRIK,
        attributes={"STR": 3, "RFL": 0, "INT": 0},
        skills={"Athletics": 5, "Juggling": 1},
        destiny={"points": 3, "maximum": 4},
    )
    report = validate(character_from_data(broken, source="t"))
    assert not report.legal
    assert [(problem.rule, problem.found) for problem in report.problems] == [
        ("002 > Character Creation > Attributes", "STR is 3"),
        ("002 > Character Creation > Core Skills", "Athletics has 5 points"),
        ("002 > Character Creation > Core Skills", "'Juggling' is not a core skill"),
        ("002 > Character Creation > Destiny Points", "destiny maximum 4"),
        ("002 > Character Creation > Attributes", "1 attribute point(s) over"),
    ]
    assert all(problem.fix for problem in report.problems)


def test_campaign_tier_limits_disabling_characteristics() -> None:
    """002 > Campaign Progression: an Initiate starts with at most one disabling characteristic."""
    data = edited(
        TERRIK,
        mode="initiate",
        disabling_characteristics=[{"name": "Phobia"}, {"name": "Paranoia"}],
    )
    assert any("at most 1 at creation in initiate" in p for p in problems(data))


def test_tiered_skill_points_buy_vocation_ranks() -> None:
    """000 > Tier Resources: ranks beyond the tier's vocation points are paid with skill points."""
    base = validate(character_from_data(RICK, source="t")).budget
    raised = copy.deepcopy(RICK)
    raised["vocations"][0]["rank"] += 1
    after = validate(character_from_data(raised, source="t")).budget
    assert after.skill_points_spent == base.skill_points_spent + 1


def test_tiered_destiny_grows_by_chapter_up_to_the_maximum() -> None:
    """000 > Destiny: start with the tier's destiny, +1 per chapter, never above the maximum."""
    awarded = edited(RICK, destiny={"points": 4, "maximum": 4})
    awarded["history"] = [{"event": "chapter", "detail": "+1 destiny"}] * 2
    assert validate(character_from_data(awarded, source="t")).legal
    over = edited(awarded, destiny={"points": 5, "maximum": 4})
    assert any("5 destiny points" in p and "at most 4" in p for p in problems(over))


def test_disabling_characteristic_penalties_in_pools() -> None:
    """002 > Disabling Characteristics: Feeble -1D6 on STR checks; Imperceptive -3D6 Perception."""
    data = edited(
        TERRIK,
        disabling_characteristics=[
            {"name": "Feeble", "how": "rolled", "roll": 2},
            {"name": "Imperceptive", "how": "rolled", "roll": 17},
        ],
    )
    sheet = character_from_data(data, source="t")
    athletics = check_pool(sheet, "Athletics")
    assert athletics.size == 3 + 1 + 2 - 1
    assert ("Feeble", -1) in [(c.source, c.dice) for c in athletics.contributions]
    assert check_pool(sheet, "Perception", situation="environmental").size == 3 + 2 - 3
    assert check_pool(sheet, "Perception", situation="against Deception").size == 3 + 2
    assert check_pool(sheet, "Persuasion").size == 3 + 1 + 2
