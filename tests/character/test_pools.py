"""Derived values from a sheet: check pools, assists, combat pools, initiative, STR, armour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.errors import InputError
from taletable.systems.cogent.character import check_pool, combat_pool, validate
from taletable.systems.cogent.character.pools import strength_reductions
from taletable.systems.cogent.character.sheet import CoreCharacter

EXAMPLES = Path("examples/characters")


def core(**fields: Any) -> CoreCharacter:
    return CoreCharacter.model_validate({"identity": {"name": "Test"}, **fields})


SCOUT = {
    "attributes": {"STR": 1, "RFL": 1, "INT": 0},
    "skills": {"Athletics": 1, "Stealth": 2, "Persuasion": 1, "Endurance": 1},
    "vocations": [
        {
            "name": "Scout",
            "attribute": "RFL",
            "points": 2,
            "vocational_skills": [
                {"name": "Tracking", "attribute": "RFL", "points": 2},
                {"name": "Maps", "attribute": "INT", "points": 1},
            ],
            "combat_skills": [{"name": "Long Stringed", "points": 2}],
        }
    ],
    "equipment": {"weapons": [{"name": "Bow", "group": "Long Stringed"}]},
}


def test_injuries_weigh_on_physical_checks_only() -> None:
    """002 > Victory Levels: a medium injury is -2D6 on physical (STR, RFL) checks and combat;
    INT checks are not physical (RULINGS.md)."""
    well = core(**SCOUT)
    hurt = core(**SCOUT, injuries=[{"level": 2}])
    for name, physical in (("Athletics", True), ("Stealth", True), ("Tracking", True),
                           ("Persuasion", False), ("Maps", False)):  # fmt: skip
        drop = check_pool(well, name).size - check_pool(hurt, name).size
        assert drop == (2 if physical else 0), name
    assert ("injuries", -2) in [
        (c.source, c.dice) for c in check_pool(hurt, "Stealth").contributions
    ]
    assert (
        combat_pool(well, "Bow", target="ranged").size - 2
        == combat_pool(hurt, "Bow", target="ranged").size
    )


def test_vocational_skill_and_vocation_pools() -> None:
    """002 > Vocational Skills: base 3 + the skill's own attribute + its points; a vocation's pool
    (assists only) is base 3 + its attribute + its points."""
    scout = core(**SCOUT)
    assert check_pool(scout, "Tracking").size == 3 + 1 + 2
    assert check_pool(scout, "Maps").size == 3 + 0 + 1
    vocation = check_pool(scout, "scout")
    assert vocation.size == 3 + 1 + 2
    assert "Scout (vocation, assists only)" in [c.source for c in vocation.contributions]
    with pytest.raises(InputError, match="'Juggling' is not on the sheet"):
        check_pool(scout, "Juggling")


@pytest.mark.parametrize(
    ("armour", "endurance", "dice"),
    [
        ([], 0, 0),
        (["Full Plate"], 0, -2),
        (["Full Plate"], 1, -1),
        (["Full Plate"], 4, 0),
        (["Full Plate", "Large Shield"], 3, -1),
        (["Full Plate", "Large Shield"], 4, 0),
    ],
)
def test_armour_penalty_less_endurance(armour: list[str], endurance: int, dice: int) -> None:
    """002 > Endurance and Armour: each Endurance point takes one die off the armour penalty; "4
    points in endurance can wear full-plate mail and carry a large shield" with no penalty."""
    sheet = core(**{**SCOUT, "skills": {"Endurance": endurance},
                    "equipment": {**SCOUT["equipment"], "armour": armour}})  # fmt: skip
    pool = combat_pool(sheet, "Bow", target="ranged")
    parts = dict((c.source, c.dice) for c in pool.contributions)
    assert parts.get("armour (less Endurance)", 0) == dice
    assert pool.size == 3 + 1 + 1 + 2 + parts["Bow (Long Stringed)"] + dice


def test_initiative_strength_reductions_and_armour_level(run_cli: Any) -> None:
    """002 > Attributes: initiative is RFL; STR reduces an injury level per point per encounter;
    002 > Armour: Sir Terrik's full chainmail is armour level 2."""
    sheet = core(attributes={"STR": 2, "RFL": 0, "INT": 0})
    assert strength_reductions(sheet) == 2
    out = run_cli(
        "cogent", "character", "pools", str(EXAMPLES / "core_mara_the_thief.yaml"), "--json"
    )
    assert (out.json()["initiative"], out.json()["strength_reductions"]) == (1, 0)
    terrik = run_cli(
        "cogent", "character", "pools", str(EXAMPLES / "core_sir_terrik.yaml"), "--json"
    )
    assert (terrik.json()["strength_reductions"], terrik.json()["armour_level"]) == (1, 2)


def test_cost_increase_from_two_perception_characteristics_does_not_stack() -> None:
    """RULINGS.md: Imperceptive and Gullible both mark Perception; a point still costs 2."""
    base = {**SCOUT, "skills": {"Perception": 2}}
    one = core(**base, disabling_characteristics=[{"name": "Imperceptive"}])
    two = core(**base, disabling_characteristics=[{"name": "Imperceptive"}, {"name": "Gullible"}])
    plain = validate(core(**base)).budget.skill_points_spent
    assert validate(one).budget.skill_points_spent == plain + 2
    assert validate(two).budget.skill_points_spent == plain + 2
    assert validate(one, cost_increase=0).budget.skill_points_spent == plain


def test_situational_perception_penalties_only_in_their_situation(
    run_cli: Any, tmp_path: Path
) -> None:
    """002 > Disabling Characteristics: Imperceptive is -3D6 on environmental Perception rolls and
    Gullible -3D6 on Perception vs Deception; a check takes only its situation's penalty."""
    flaws = [{"name": "Imperceptive"}, {"name": "Gullible"}]
    sheet = core(**{**SCOUT, "skills": {"Perception": 2}}, disabling_characteristics=flaws)
    assert check_pool(sheet, "Perception").size == 3 + 1 + 2
    assert check_pool(sheet, "Perception", situation="environmental").size == 3 + 1 + 2 - 3
    against = check_pool(sheet, "Perception", situation="Deception")
    assert [(c.source, c.dice) for c in against.contributions][-1] == (
        "Gullible (Perception rolls against Deception)", -3,
    )  # fmt: skip
    assert check_pool(sheet, "Perception", situation="persuasion").size == 6
    file = tmp_path / "scout.json"
    file.write_text(sheet.model_dump_json())
    pools = run_cli("cogent", "character", "pools", str(file), "--json").json()["checks"]
    assert pools["Perception"]["dice"] == 6
    assert pools["Perception (environmental Perception rolls)"]["dice"] == 3
    assert pools["Perception (Perception rolls against Deception)"]["dice"] == 3
    rolled = run_cli(
        "cogent", "check", "--character", str(file), "--skill", "Perception", "--cl", "1",
        "--situation", "environmental", "--faces", "4,1,1", "--json",
    )  # fmt: skip
    assert rolled.status == 0, rolled.stderr
    assert rolled.json()["pool"] == 3
    stray = run_cli("cogent", "check", "--pool", "4", "--cl", "1", "--situation", "environmental")
    assert stray.status == 2 and "--situation needs --character" in stray.stderr
    odds = run_cli(
        "odds", "cogent", "--character", str(file), "--skill", "Perception", "--cl", "1",
        "--situation", "environmental", "--json",
    )  # fmt: skip
    assert (odds.json()["pool"], odds.json()["p_pass"]) == (3, "7/8")  # 1 - (1/2) ** 3


def test_pools_list_bare_hands(run_cli: Any) -> None:
    """002 > Weapon Modifiers: unarmed (ungloved) is -1D6; every sheet can fight bare-handed."""
    out = run_cli("cogent", "character", "pools", str(EXAMPLES / "core_sir_terrik.yaml"), "--json")
    bare = out.json()["combat"]["bare hands vs melee"]
    assert bare["dice"] == 3 + 1 + 1 - 1  # base, STR, INT, ungloved; no Unarmed skill
