"""Is a sheet's equipment on the rules tables? (002 > Combat > Weapon Modifiers; Armour)

Both editions: the tiered edition fights with the core combat rules (RULINGS.md "tiered combat").
"""

from __future__ import annotations

from taletable.errors import InputError
from taletable.systems.cogent.character.report import Problem
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.equipment import armour_level, weapon_group

__all__ = ["equipment_problems"]


def equipment_problems(sheet: CoreCharacter | TieredCharacter) -> list[Problem]:
    """Every weapon's group and the worn armour must be on the tables (one shield at most)."""
    problems: list[Problem] = []
    for weapon in sheet.equipment.weapons:
        try:
            weapon_group(weapon.group)
        except InputError as error:
            problems.append(
                Problem(
                    rule="002 > Combat > Weapon Modifiers",
                    found=str(error),
                    fix="use a weapon group from the table",
                )
            )
    try:
        armour_level(sheet.equipment.armour)
    except InputError as error:
        problems.append(
            Problem(
                rule="002 > Combat > Armour",
                found=str(error),
                fix="use armour pieces from the table, one shield at most",
            )
        )
    return problems
