"""The book's statblocks (002 > NPCs and Monsters) and its NPC guideline tiers."""

from __future__ import annotations

from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character import check_pool, combat_pool
from taletable.systems.cogent.statblock import new_npc


def test_thug_statblock() -> None:
    """The Thug: STR 1; Athletics 2, Endurance 2; Muscle 2 with Small Weapons 2, Medium 1,
    Intimidation 1. Knife 3 + 1 + 2 + 0 = 6D6; club 3 + 1 + 1 + 1 = 6D6; Athletics 6D6."""
    thug = load_statblock("examples/statblocks/thug.yaml").as_character()
    assert combat_pool(thug, "Knife").size == 6
    assert combat_pool(thug, "Club").size == 6
    assert check_pool(thug, "Athletics").size == 6
    assert check_pool(thug, "Intimidation").size == 5
    assert check_pool(thug, "Muscle").size == 6


def test_korinkian_boreworm_statblock() -> None:
    """The Boreworm: Ambush Predator with Rock Tunnelling 3, Rock Mimicry 2, Grinding Teeth 3
    (a monster's free-form combat skill): Grinding Teeth 3 + 3 = 6D6."""
    worm = load_statblock("examples/statblocks/korinkian_boreworm.yaml").as_character()
    assert combat_pool(worm, "Grinding Teeth").size == 6
    assert check_pool(worm, "Rock Tunnelling").size == 6
    assert check_pool(worm, "Rock Mimicry").size == 5


def test_town_guard_guideline() -> None:
    """002 > NPCs: an average town guard rolls base three + 0 attributes + 2 in a weapon skill
    + the weapon bonus; elite NPCs have an attribute point and 3, exceptional 2 and 4."""
    guard = new_npc(
        "Guard", "average", "Town Guard", weapon_skill="Medium Weapons", weapon="Medium Weapon"
    ).as_character()
    assert combat_pool(guard, "Medium Weapon").size == 3 + 0 + 2 + 1
    elite = new_npc(
        "Captain", "elite", "Town Guard", weapon_skill="Medium Weapons", weapon="Medium Weapon"
    ).as_character()
    assert combat_pool(elite, "Medium Weapon").size == 3 + 1 + 3 + 1
    exceptional = new_npc(
        "Champion", "exceptional", "Knight", weapon_skill="Large Weapons", weapon="Large Weapon"
    ).as_character()
    assert combat_pool(exceptional, "Large Weapon").size == 3 + 2 + 4 + 2
