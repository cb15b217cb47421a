"""`cogent.npc.show`, `cogent.npc.new` and `cogent.character.pools` as play actions, through a
memory store: every pool of a statblock, and a hardcore sheet shown by the hardcore rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taletable.errors import InputError
from taletable.play import Table, all_actions, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.character.pool_summary import PoolLine
from taletable.systems.cogent.rules import Rules

EXAMPLES = Path("examples/statblocks")


def _table(*statblocks: str, rules: Rules | None = None) -> Table:
    """A table whose store holds the named example statblocks (under ``statblock``) and Sir
    Terrik (under ``character``)."""
    store = MemoryStore()
    for name in statblocks:
        data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
        store.save("statblock", name, data, version=None)
    terrik = yaml.safe_load(Path("examples/characters/core_sir_terrik.yaml").read_text())
    store.save("character", "terrik", terrik, version=None)
    return Table(rules=rules or Rules(), store=store)


def _dice(pools: dict[str, PoolLine]) -> dict[str, int]:
    return {name: line.dice for name, line in pools.items()}


def test_the_actions_are_registered_by_their_command_paths() -> None:
    """`npc show`, `npc new` and `character pools` are actions named by their command paths."""
    assert {"cogent.npc.show", "cogent.npc.new", "cogent.character.pools"} <= set(all_actions())


def test_npc_show_has_every_combat_pool_of_a_bow() -> None:
    """002 > Weapon Modifiers, Ranged: "+2D6 (Ranged Target)", "-3D6 (Melee Target)"; Unarmed
    "-1D6 (Ungloved)". Ysolde (RFL 1, Short Stringed 1) shoots with 3 + 1 + 1 + 2 = 7D6, has 2D6
    with the bow against a melee target, and 3D6 bare-handed."""
    shown = perform("cogent.npc.show", {"statblock": "sample_spearwoman"}, _table(
        "sample_spearwoman"
    ))  # fmt: skip
    combat = _dice(shown.result.pools.combat)
    assert combat == {
        "Spear vs melee": 8, "Short Bow vs melee": 2, "Short Bow vs ranged": 7,
        "bare hands vs melee": 3,
    }  # fmt: skip
    assert shown.result.to_data()["name"] == "Ysolde the Spear"  # the statblock as written
    assert shown.events[0].subject == "sample_spearwoman"


def test_a_hardcore_statblock_is_refused_naming_the_switch() -> None:
    """002 > Hardcore Armour Rules: a Helmet is a piece of the hardcore armour table only; shown
    by the standard rules it is refused before any pool, naming the switch that reads it."""
    with pytest.raises(InputError) as refused:
        perform("cogent.npc.show", {"statblock": "sample_plated_knight"}, _table(
            "sample_plated_knight"
        ))  # fmt: skip
    assert refused.value.field == "armour"
    assert "'Helmet' is a piece of 002 > Hardcore Combat > Hardcore Armour Rules" in str(
        refused.value
    )
    assert "hardcore_armour" in refused.value.mentions


def test_a_hardcore_statblock_shown_by_the_hardcore_rules() -> None:
    """002 > Hardcore Armour Rules: "Armour levels are calculated by adding the armour ratings of
    each specific piece" (helmet 1, upper body 1 twice, arms 1, legs 1: 5) and "Half the player's
    total armour level (rounded down) is subtracted from their total combat roll" (2, less
    Endurance 1). 002 > Hardcore Weapon Modifiers: a poleaxe is "a reach-hafted blunt, reach-hafted
    blade, or a reach-hafted point weapon" (+2D6, +4D6, +3D6): a pool for each way."""
    args = {"statblock": "sample_plated_knight", "hardcore_armour": True,
            "hardcore_weapons": True}  # fmt: skip
    pools = perform("cogent.npc.show", args, _table("sample_plated_knight")).result.pools
    assert pools.armour_level == 5 and pools.hardcore_armour and pools.hardcore_weapons
    combat = _dice(pools.combat)
    assert combat == {
        "Poleaxe vs melee": 10,  # 3 + STR 1 + Reach Weapons 3 - armour 1 + blade 4
        "Poleaxe as Reach Hafted Blunt vs melee": 8,
        "Poleaxe as Reach Hafted Point vs melee": 9,
        "Arming Sword vs melee": 6,  # 3 + 1 + Medium Weapons 2 - 1 + Medium Sword 1
        "bare hands vs melee": 2,
    }
    parts = [(c.source, c.dice) for c in pools.combat["Poleaxe vs melee"].breakdown]
    assert ("hardcore armour (half the level, less Endurance)", -1) in parts


def test_a_tables_own_hardcore_rules_stay_on() -> None:
    """A table that plays by the hardcore armour rules shows the knight without the request
    asking: the request only switches rules on."""
    table = _table("sample_plated_knight", rules=Rules(hardcore_armour=True))
    shown = perform("cogent.npc.show", {"statblock": "sample_plated_knight"}, table).result
    assert shown.pools.armour_level == 5 and not shown.pools.hardcore_weapons


def test_character_pools_of_a_sheet_and_of_a_statblock() -> None:
    """002 > Combat Fundamentals: Sir Terrik's sword is 8D6 (the book's "combat roll of 8D6");
    a statblock saved as a statblock is read too, its rough pools beside."""
    table = _table("sample_swordsman", "korinkian_boreworm")
    terrik = perform("cogent.character.pools", {"character": "terrik"}, table).result
    assert terrik.combat["Arming Sword vs melee"].dice == 8
    hale = perform("cogent.character.pools", {"character": "sample_swordsman"}, table).result
    assert hale.armour_level == 3  # Breastplate 2 + Small Shield 1 (002 > Armour)
    with pytest.raises(InputError, match="no character or statblock is saved as 'nobody'"):
        perform("cogent.character.pools", {"character": "nobody"}, table)


def test_npc_new_saves_a_new_statblock_and_never_overwrites() -> None:
    """002 > NPCs: an elite NPC has attributes 1 and skills 3: with a medium weapon 3 + STR 1 +
    Medium Weapons 3 + 1 = 8D6. Saved once under its key; a second save there is refused on
    `out` and the first stays at version 1."""
    table = _table()
    args = {"name": "Guard", "tier": "elite", "vocation": "Town Guard",
            "weapon_skill": "Medium Weapons", "weapon": "Medium Weapon", "out": "guard",
            "rough": {"Intelligence skills": 5}}  # fmt: skip
    made = perform("cogent.npc.new", args, table)
    assert made.result.pools.combat["Medium Weapon vs melee"].dice == 8
    assert made.result.pools.rough_pools == {"Intelligence skills": 5}
    assert [event.kind for event in made.events] == ["cogent.npc.new", "statblock.saved"]
    shown = perform("cogent.npc.show", {"statblock": "guard"}, table).result
    assert shown.statblock == made.result.statblock
    with pytest.raises(InputError) as refused:
        perform("cogent.npc.new", {**args, "name": "Other"}, table)
    assert refused.value.field == "out"
    assert table.store.read("statblock", "guard").version == 1
    assert perform("cogent.npc.new", {**args, "out": None}, table).events[-1].kind == (
        "cogent.npc.new"
    )
