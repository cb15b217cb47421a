"""Worked examples of character creation, pools and commerce (002, 000), with their numbers."""

from __future__ import annotations

from taletable.store.sheets import load_character
from taletable.systems.cogent.character import check_pool, combat_pool, validate
from taletable.systems.cogent.character.commerce import purchase, purchase_cost
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreAttributes,
    CoreCharacter,
    CoreVocation,
    Equipment,
    Identity,
    Injury,
    Weapon,
)

EXAMPLES = "examples/characters"


def core(**fields: object) -> CoreCharacter:
    return CoreCharacter.model_validate({"identity": {"name": "Test"}, **fields})


def test_one_strength_three_athletics_is_seven_dice() -> None:
    """002 > Core Skills: 1 STR and 3 Athletics: 3D6 + 1D6 + 3D6 = 7D6."""
    sheet = core(attributes={"STR": 1}, skills={"Athletics": 3})
    pool = check_pool(sheet, "athletics")
    assert pool.size == 7
    assert [(c.source, c.dice) for c in pool.contributions] == [
        ("base", 3), ("STR", 1), ("Athletics", 3),
    ]  # fmt: skip


def test_rob_athletics_from_a_sheet() -> None:
    """002 > Dice Pools: 2 Athletics and 1 Strength: Rob rolls 6D6."""
    assert check_pool(core(attributes={"STR": 1}, skills={"Athletics": 2}), "Athletics").size == 6


def test_sir_terrik_combat_pool() -> None:
    """002 > Combat Fundamentals: 3 + STR 1 + INT 1 + 2 Medium Weapons + 1 arming sword = 8D6."""
    sheet = load_character(f"{EXAMPLES}/core_sir_terrik.yaml")
    pool = combat_pool(sheet, "Arming Sword")
    assert pool.size == 8


def test_goblins_combat_pool() -> None:
    """002 > Fighting Groups: 3D6 + 2D6 REF + 1D6 medium proficiency + 1D6 medium weapon = 7D6."""
    goblin = CoreCharacter(
        identity=Identity(name="Goblin"),
        attributes=CoreAttributes(RFL=2),
        vocations=(CoreVocation(name="Raider", attribute="RFL", points=1,
                                combat_skills=(CombatSkill(name="Medium Weapons", points=1),)),),
        equipment=Equipment(weapons=(Weapon(name="Rusty sword", group="Medium Weapon"),)),
    )  # fmt: skip
    assert combat_pool(goblin, "Rusty sword").size == 7


def test_terrik_after_a_minor_injury_rolls_seven() -> None:
    """002 > Fighting Groups: Terrik's second-round pool is 7D6, his injury inflicting -1D6."""
    sheet = load_character(f"{EXAMPLES}/core_sir_terrik.yaml")
    hurt = sheet.model_copy(update={"injuries": (Injury(level=1),)})
    assert combat_pool(hurt, "Arming Sword").size == 7


def test_erin_sorcery_pool_from_her_sheet() -> None:
    """000 > Narrative Success or Failure: 3 base + 1 INT + 1 Mage + 1 Sorcery (the book says 5D6,
    its parts add up to 6; RULINGS.md "Erin's pool")."""
    sheet = load_character(f"{EXAMPLES}/tiered_erin_the_mage.yaml")
    assert check_pool(sheet, "Sorcery").size == 6


def test_commerce_nice_home_example() -> None:
    """002 > Commerce Points: at 4 commerce points a level 4 nice home costs 2, leaving 2
    (commoner); one level below costs 1; two or more below costs nothing."""
    assert purchase_cost(4, 4) == 2
    assert purchase_cost(3, 4) == 1
    assert purchase_cost(2, 4) == 0
    assert purchase_cost(2, 4, quantity=True) == 1
    sheet = core(commerce={"assigned": 4, "quirks": ["Fame"]})
    bought, record = purchase(sheet, "A nice home", 4)
    assert (record.cost, record.points_after, bought.commerce.current) == (2, 2, 2)


def test_ten_bodyguards_equal_a_security_force_value_guide() -> None:
    """002 > Commerce Points: the scale is a guide (10 of one level ~ 1 of the next); a level 5
    buyer pays 1 for a level 4 bodyguard, and 1 per batch when buying in quantity below that."""
    assert purchase_cost(4, 5) == 1
    assert purchase_cost(3, 5, quantity=True) == 1


def test_chef_cooking_never_above_its_vocation() -> None:
    """002 > Vocations: "A player with Vocation: Chef and two points assigned to it may not assign
    a third point to its Vocational Skill: Cooking, until they have first assigned a third skill
    point into Vocation: Chef"."""

    def chef(points: int, cooking: int) -> list[str]:
        cooking_skill = {"name": "Cooking", "attribute": "INT", "points": cooking}
        vocation = {"name": "Chef", "attribute": "INT", "points": points,
                    "vocational_skills": [cooking_skill]}  # fmt: skip
        return [p.found for p in validate(core(vocations=[vocation])).problems]

    assert "Cooking (3) is above its vocation Chef (2)" in chef(2, 3)
    assert not any("above its vocation" in found for found in chef(2, 2) + chef(3, 3))
