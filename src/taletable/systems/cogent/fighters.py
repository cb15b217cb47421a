"""Fighters as the combat engine takes them: ``(id, side, sheet, weapon)``, and which weapon a
sheet fights with (002 > Weapons). Reading a fighter from a file, a store or the bestiary is
:mod:`taletable.play.fighters`; this module does no I/O.
"""

from __future__ import annotations

from taletable.systems.cogent.character.sheet import CoreCharacter

__all__ = ["MAX_ID", "UNARMED", "Fighter", "chosen_weapon", "default_weapon"]

#: The longest combatant id (an encounter's ``Combatant.id``).
MAX_ID = 60
#: The word that names no weapon: bare hands (002 > Weapons: Unarmed).
UNARMED = "unarmed"
#: ``(id, side, sheet, weapon or None)`` as the combat engine takes it.
Fighter = tuple[str, str, CoreCharacter, str | None]


def chosen_weapon(sheet: CoreCharacter, named: str | None) -> str | None:
    """The weapon ``named`` (None: the first carried; ``unarmed``: bare hands, as None)."""
    if not named:
        return default_weapon(sheet)
    carried = {weapon.name.lower() for weapon in sheet.equipment.weapons}
    if named.lower() == UNARMED and UNARMED not in carried:
        return None
    return named


def default_weapon(sheet: CoreCharacter) -> str | None:
    """The weapon a fighter wields unless told otherwise: its first, or none (unarmed)."""
    return sheet.equipment.weapons[0].name if sheet.equipment.weapons else None
