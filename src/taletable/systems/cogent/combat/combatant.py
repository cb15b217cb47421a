"""Sheets of either edition as combatants (002 > Combat; 000 for the tiered edition).

The combat engine works on core-shaped sheets (STR, RFL, INT, combat skills by weapon category).
A tiered sheet (000) fights by the core combat rules adapted (RULINGS.md "tiered combat"): its
STR, RFL and INT join the pool, CHA does not; a specialisation named after a weapon category
(or a weapon's own skill) is its combat skill, with its points only; everything else that a
fight reads (skills such as Endurance, equipment, injuries, disabling characteristics) is kept.

A fighter's destiny is its sheet's: :func:`spend_from_sheet` debits it, for a declaration made
with destiny (``rounds``) and for wins added after a roll (``destiny``).
"""

from __future__ import annotations

from taletable.errors import RulesError
from taletable.systems.cogent.character.destiny_awards import spend_destiny
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreAttributes,
    CoreCharacter,
    CoreVocation,
    TieredCharacter,
)
from taletable.systems.cogent.combat.state import Combatant
from taletable.systems.cogent.equipment import weapon_table

__all__ = ["DESTINY", "TIERED_COMBAT", "combatant_sheet", "spend_from_sheet"]

TIERED_COMBAT = "000 > Combat (the core combat rules, 002 > Combat, adapted)"
DESTINY = "002 > Character Creation > Destiny Points"


def _combat_skill_names(sheet: TieredCharacter) -> set[str]:
    names = {group.skill.lower() for group in weapon_table().groups}
    names |= {weapon.skill.lower() for weapon in sheet.equipment.weapons if weapon.skill}
    return names


def combatant_sheet(sheet: CoreCharacter | TieredCharacter) -> CoreCharacter:
    """The sheet the combat engine fights with; a core sheet is returned as it is.

    000 > Attributes; 002 > Combat > Combat Fundamentals (RULINGS.md "tiered combat").
    """
    if isinstance(sheet, CoreCharacter):
        return sheet
    combat_names = _combat_skill_names(sheet)
    vocations = []
    for vocation in sheet.vocations:
        skills = tuple(
            CombatSkill(name=special.name, points=special.points)
            for special in vocation.specialisations
            if special.name.lower() in combat_names
        )
        if skills:
            attribute = vocation.attribute if vocation.attribute != "CHA" else "INT"
            vocations.append(
                CoreVocation(
                    name=vocation.name,
                    attribute=attribute,
                    points=max(special.points for special in skills),
                    combat_skills=skills,
                )
            )
    attributes = sheet.attributes
    return CoreCharacter(
        mode="fast_play",
        superhuman_attributes=True,
        identity=sheet.identity,
        attributes=CoreAttributes(STR=attributes.STR, RFL=attributes.RFL, INT=attributes.INT),
        skills=sheet.skills,
        vocations=tuple(vocations),
        disabling_characteristics=sheet.disabling_characteristics,
        destiny=sheet.destiny,
        equipment=sheet.equipment,
        injuries=sheet.injuries,
        conditions=sheet.conditions,
    )


def spend_from_sheet(fighter: Combatant, points: int, what: str) -> Combatant:
    """``fighter`` with ``points`` debited from its sheet's destiny, recorded in its history;
    refused beyond what the sheet holds ("for as many Destiny Points as they have";
    002 > Character Creation > Destiny Points)."""
    held = fighter.sheet.destiny.points
    if points > held:
        raise RulesError(
            DESTINY,
            f"{fighter.id} holds {held} destiny point(s), {points} to spend",
            fix=f"spend at most {held}" if held else "spend none: its sheet holds no destiny",
        )
    return fighter.model_copy(update={"sheet": spend_destiny(fighter.sheet, points, what)})
