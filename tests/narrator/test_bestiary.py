"""The bestiary: statblocks of the encounter tables' creatures, by the guideline tiers."""

from __future__ import annotations

from typing import Any

import pytest

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.pools import combat_pool
from taletable.systems.cogent.combat.simulate import simulate_duel
from taletable.systems.cogent.narrator import bestiary, bestiary_statblock, shipped_tables
from taletable.systems.cogent.narrator.encounters import roll_encounter
from taletable.systems.cogent.statblock import NPC_TIERS

TIERED = [key for key, block in bestiary().items() if block.tier in NPC_TIERS]


def test_every_encounter_statblock_is_in_the_bestiary() -> None:
    """Each creature an encounter table names has a statblock."""
    named = {
        entry.tags["statblock"]
        for table in shipped_tables().tables.values()
        for entry in table.entries
        if "statblock" in entry.tags
    }
    assert named and named <= set(bestiary())


@pytest.mark.parametrize("key", TIERED)
def test_creatures_follow_their_tier(key: str) -> None:
    """Attributes add up to the tier's points and the vocation has the tier's skill points."""
    block = bestiary()[key]
    attributes, skill = NPC_TIERS[block.tier]
    values = block.attributes
    assert attributes == values.STR + values.RFL + values.INT
    assert block.vocations[0].points == skill
    assert all(c.points == skill for c in block.vocations[0].combat_skills)


@pytest.mark.parametrize("key", sorted(bestiary()))
def test_creatures_fight_in_the_combat_engine(key: str) -> None:
    """Every creature fights a Thug to an end in the combat engine (seeded)."""
    creature = bestiary()[key].as_character()
    thug = load_statblock("examples/statblocks/thug.yaml").as_character()
    weapon = creature.equipment.weapons[0].name
    assert combat_pool(creature, weapon).size >= 5
    duel = simulate_duel((creature, weapon), (thug, "Knife"), SeededDice(7))
    assert duel.rounds >= 1


def test_guard_is_the_books_town_guard() -> None:
    """002 > NPCs: base three + 0 attributes + 2 + the medium weapon's 1 = 6D6."""
    guard = bestiary_statblock("Guard").as_character()
    assert combat_pool(guard, "Sword").size == 3 + 0 + 2 + 1


def test_encounter_names_its_statblock() -> None:
    """A night wight names the wight; a wedding names none."""
    assert roll_encounter("country", "night", GivenFaces([70, 1, 3])).statblock == "wight"
    assert roll_encounter("city", "day", GivenFaces([80, 1])).statblock is None
    with pytest.raises(InputError, match="no creature"):
        bestiary_statblock("unicorn")


def test_bestiary_cli(run_cli: Any) -> None:
    """`cogent npc bestiary` lists the creatures and shows one as a statblock."""
    listed = run_cli("cogent", "npc", "bestiary", "--json")
    assert listed.json()["creatures"]["dire_wolf"]["tier"] == "elite"
    shown = run_cli("cogent", "npc", "bestiary", "dire-wolf", "--json")
    assert shown.json()["name"] == "Dire Wolf"
    readable = run_cli(
        "cogent", "encounter", "--where", "country", "--time", "day", "--faces", "70,2"
    )
    assert "npc bestiary wolf" in readable.stdout
