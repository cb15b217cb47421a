"""Injuries and conditions a fighter brings into a fight (002 > Combat > Victory Levels;
Circumstantial Modifiers): a fatal injury on the sheet incapacitates from the start, and the
sheet's own conditions hold in the first round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.explain import render_all
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.sheet import (
    CoreCharacter,
    Injury,
    Specialisation,
    TieredAttributes,
    TieredCharacter,
    TieredVocation,
)
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.combat.conditions import brought_conditions
from taletable.systems.cogent.combat.replay import verify_replay
from taletable.systems.cogent.combat.situation import roll_pool
from tests.combat_helpers import faces_for, fighter

SWORD = ("Sword", "Medium Weapon")


def knight(**update: object) -> CoreCharacter:
    base = fighter(
        "Knight", skills=(("Medium Weapons", 1),), weapons=(SWORD,), armour=("Breastplate",)
    )
    return base.model_copy(update=update)


def test_a_fatal_injury_on_the_sheet_incapacitates_from_the_start() -> None:
    """002 > Victory Levels, Level 4: "Fatal injury -4D6 ..., incapacitated"; 002 >
    Circumstantial Modifiers (Incapacitated): "cannot fight back or defend themselves. armour
    levels are disregarded and the CL a character must exceed to obtain ANY victory level
    against them is CL1". The wounded knight cannot declare; the attack on it is at CL 1 and
    its breastplate (armour 2) reduces nothing."""
    wounded = knight(injuries=(Injury(level=4, description="last night's ambush"),))
    encounter = start_encounter(
        [("w", "x", wounded, "Sword"), ("b", "y", knight(), "Sword")], GivenFaces([1, 2])
    )
    assert encounter.combatant("w").conditions == ("incapacitated",)
    assert encounter.declaration_order() == ["b"]
    with pytest.raises(RulesError, match="cannot act"):
        declare(encounter, Declaration(actor="w", action="defend"))
    encounter = declare(encounter, Declaration(actor="b", action="attack", target="w"))
    encounter = resolve(encounter, faces_for(encounter, {"b": 3}))
    [victory] = encounter.victories
    assert (victory.level, victory.armour_allowed) == (2, False)
    encounter = choose(encounter, victory.id)
    assert [i.level for i in encounter.combatant("w").sheet.injuries] == [4, 2]
    assert verify_replay(encounter) == encounter  # the opening notes replay too


def test_a_statblock_with_a_fatal_injury_is_incapacitated() -> None:
    """The same for a statblock (002 > NPCs and Monsters: a statblock fights as a sheet)."""
    thug = load_statblock("examples/statblocks/thug.yaml")
    hurt = thug.model_copy(update={"injuries": (Injury(level=4),)}).as_character()
    encounter = start_encounter(
        [("t", "x", hurt, None), ("b", "y", knight(), "Sword")], GivenFaces([1, 2])
    )
    assert not encounter.combatant("t").can_act
    assert "t: incapacitated by the fatal injury on its sheet" in render_all(encounter.log)[0]


def test_a_staggered_sheet_rolls_two_dice_fewer_in_the_first_round_only() -> None:
    """002 > Circumstantial Modifiers: "Staggered -2D6 ... if the Narrator applies it, IE sand is
    thrown in a character's face"; a stagger lasts "for one round" (Victory Levels)."""
    staggered = knight(conditions=("Staggered",))
    encounter = start_encounter(
        [("s", "x", staggered, "Sword"), ("b", "y", knight(), "Sword")], GivenFaces([1, 2])
    )
    assert encounter.combatant("s").conditions == ("staggered",)
    first, second = encounter.declaration_order()
    encounter = declare(encounter, Declaration(actor=first, action="attack", target=second))
    encounter = declare(encounter, Declaration(actor=second, action="attack", target=first))
    pool = roll_pool(encounter, encounter.combatant("s"), encounter.declarations[0])
    assert ("staggered", -2) in [(c.source, c.dice) for c in pool.contributions]
    encounter = resolve(encounter, faces_for(encounter, {"s": 1, "b": 1}))
    assert encounter.round == 2
    assert encounter.combatant("s").conditions == ()


@pytest.mark.parametrize("words", [("asleep",), ("tied up",), ("Tied_Up",), ("sleeping",)])
def test_asleep_or_tied_up_on_the_sheet_is_helpless(words: tuple[str, ...]) -> None:
    """002 > Circumstantial Modifiers (Incapacitated): "held in place, tied up, or unconscious
    and therefore cannot fight back"; Prone names the "incapacitated/sleeping"."""
    conditions, _, notes = brought_conditions(knight(conditions=words))
    assert notes == []
    encounter = start_encounter(
        [("s", "x", knight(conditions=words), "Sword"), ("b", "y", knight(), "Sword")],
        GivenFaces([1, 2]),
    )
    assert not encounter.combatant("s").can_act
    assert len(conditions) == 1


def test_prone_and_asleep_stays_prone() -> None:
    """002 > Circumstantial Modifiers (Prone): "Penalty lasts for one round ... unless they are
    incapacitated/sleeping"."""
    conditions, until, _ = brought_conditions(knight(conditions=("prone", "asleep")))
    assert conditions == ("prone", "asleep")
    assert until == {}
    assert brought_conditions(knight(conditions=("prone",)))[1] == {"prone": 1}


def test_a_condition_without_a_combat_rule_is_noted() -> None:
    """A condition the combat chapter gives no rule for is noted in the log, not applied."""
    encounter = start_encounter(
        [("s", "x", knight(conditions=("poisoned",)), "Sword"), ("b", "y", knight(), "Sword")],
        GivenFaces([1, 2]),
    )
    assert encounter.combatant("s").conditions == ()
    assert "'poisoned' has no rule in combat" in render_all(encounter.log)[0]


def test_a_tiered_sheet_keeps_its_conditions() -> None:
    """A tiered sheet fights as its core equivalent (RULINGS.md "tiered combat") with its
    injuries and conditions."""
    tiered = TieredCharacter(
        identity=knight().identity,
        attributes=TieredAttributes(STR=1),
        vocations=(
            TieredVocation(
                name="Soldier",
                attribute="STR",
                rank=1,
                specialisations=(Specialisation(name="Medium Weapons", attribute="STR", points=1),),
            ),
        ),
        conditions=("unconscious",),
    )
    assert combatant_sheet(tiered).conditions == ("unconscious",)


def test_combat_start_shows_a_fighter_brought_in_incapacitated(
    tmp_path: Path, run_cli: Any
) -> None:
    """`combat start` with a sheet carrying a fatal injury: the status shows it incapacitated,
    and the saved encounter carries the condition."""
    sheet = yaml.safe_load(Path("examples/characters/core_sir_terrik.yaml").read_text())
    sheet["injuries"] = [{"level": 4, "description": "fell from the wall"}]
    path = tmp_path / "terrik.yaml"
    path.write_text(yaml.safe_dump(sheet))
    out = tmp_path / "fight.json"
    result = run_cli(
        "cogent", "combat", "start", "--fighter", f"t:a:{path}", "--fighter", "g:b:@goblin",
        "--out", str(out), "--seed", "1",
    )  # fmt: skip
    assert result.status == 0, result.stderr
    assert "incapacitated" in result.stdout
    saved = json.loads(out.read_text())
    terrik = next(c for c in saved["combatants"] if c["id"] == "t")
    assert terrik["conditions"] == ["incapacitated"]
