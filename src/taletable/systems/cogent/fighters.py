"""Who can fight: a character sheet, a statblock file, or a creature of the bestiary.

One loader for every tool that puts combatants in the combat engine (``cogent combat start``,
``odds cogent duel``, ``odds cogent fight``). A reference is a path to a character or statblock
file (YAML or JSON), or ``@NAME`` for a creature of the shipped bestiary (``@goblin``).
A tiered sheet fights as its core equivalent (RULINGS.md "tiered combat").
"""

from __future__ import annotations

from taletable.errors import InputError
from taletable.files import read_structured
from taletable.systems.cogent.character import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.narrator.bestiary import bestiary_statblock
from taletable.systems.cogent.statblock import load_statblock

__all__ = ["Fighter", "default_weapon", "load_fighter_sheet", "parse_fighter"]

#: ``(id, side, sheet, weapon or None)`` as the combat engine takes it.
Fighter = tuple[str, str, CoreCharacter, str | None]


def load_fighter_sheet(reference: str) -> CoreCharacter:
    """The sheet behind ``reference``: ``@NAME`` (bestiary), a statblock or a character file."""
    if reference.startswith("@"):
        return bestiary_statblock(reference[1:]).as_character()
    data = read_structured(reference)
    if isinstance(data, dict) and data.get("kind") == "statblock":
        return load_statblock(reference).as_character()
    return combatant_sheet(load_character(reference))


def parse_fighter(text: str, *, field: str = "--fighter") -> Fighter:
    """``ID:SIDE:FILE[:WEAPON]`` (FILE may be ``@NAME``; WEAPON defaults to the first one)."""
    parts = text.split(":")
    if len(parts) not in (3, 4) or not all(part.strip() for part in parts[:3]):
        raise InputError(
            field, f"{text!r}", expected="ID:SIDE:FILE[:WEAPON], e.g. g1:b:@goblin or t:a:me.yaml"
        )
    sheet = load_fighter_sheet(parts[2].strip())
    weapon = parts[3].strip() if len(parts) == 4 and parts[3].strip() else default_weapon(sheet)
    return parts[0].strip(), parts[1].strip(), sheet, weapon


def default_weapon(sheet: CoreCharacter) -> str | None:
    """The weapon a fighter wields unless told otherwise: its first, or none (unarmed)."""
    return sheet.equipment.weapons[0].name if sheet.equipment.weapons else None
