"""Who can fight: a character sheet, a statblock file, or a creature of the bestiary.

One loader for every tool that puts combatants in the combat engine (``cogent combat start``,
``odds cogent duel``, ``odds cogent fight``). A reference is a path to a character or statblock
file (YAML or JSON), or ``@NAME`` for a creature of the shipped bestiary (``@goblin``).
A tiered sheet fights as its core equivalent (RULINGS.md "tiered combat").
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable.errors import InputError
from taletable.files import read_structured
from taletable.systems.cogent.character import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.narrator.bestiary import bestiary_statblock
from taletable.systems.cogent.statblock import load_statblock

__all__ = [
    "UNARMED",
    "Fighter",
    "chosen_weapon",
    "default_weapon",
    "encounter_fighters",
    "fighter_scale",
    "load_fighter_sheet",
    "parse_fighter",
]

#: The longest combatant id (an encounter's ``Combatant.id``).
MAX_ID = 60
#: The word that names no weapon: bare hands (002 > Weapons: Unarmed).
UNARMED = "unarmed"
#: ``(id, side, sheet, weapon or None)`` as the combat engine takes it.
Fighter = tuple[str, str, CoreCharacter, str | None]


def load_fighter_sheet(reference: str, *, field: str = "fighter") -> CoreCharacter:
    """The sheet behind ``reference``: ``@NAME`` (bestiary), a statblock or a character file."""
    if reference.startswith("@"):
        try:
            creature = bestiary_statblock(reference[1:])
        except InputError as error:
            raise InputError(
                field, f"no creature called {reference[1:]!r}", expected=error.expected
            ) from None
        return creature.as_character()
    data = read_structured(reference)
    if isinstance(data, dict) and data.get("kind") == "statblock":
        return load_statblock(reference).as_character()
    return combatant_sheet(load_character(reference))


def parse_fighter(text: str, *, field: str = "fighter") -> tuple[Fighter, str | None]:
    """``ID:SIDE:FILE[:WEAPON[:SECONDARY]]`` as a combatant for the engine, and its secondary.

    FILE may be ``@NAME`` (the bestiary). WEAPON defaults to the sheet's first weapon; the word
    ``unarmed`` fights bare-handed (unless the sheet carries a weapon of that name). SECONDARY
    is a second weapon for dual wielding (002 > Dual Wielding).
    """
    parts = [part.strip() for part in text.split(":")]
    if not 3 <= len(parts) <= 5 or not all(parts):
        raise InputError(
            field, f"{text!r}",
            expected="ID:SIDE:FILE[:WEAPON[:SECONDARY]], e.g. g1:b:@goblin or t:a:me.yaml:Axe",
        )  # fmt: skip
    if len(parts[0]) > MAX_ID:
        raise InputError(
            field,
            f"the id {parts[0][:20]!r}... is too long",
            expected=f"at most {MAX_ID} characters",
        )
    sheet = load_fighter_sheet(parts[2], field=field)
    weapon = chosen_weapon(sheet, parts[3] if len(parts) > 3 else None)
    secondary = parts[4] if len(parts) == 5 else None
    return (parts[0], parts[1], sheet, weapon), secondary


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


def fighter_scale(reference: str) -> int:
    """The scale a fighter's file gives it: a statblock's (or a bestiary creature's) own
    ``scale`` (000 > Scale), 0 for a character sheet, which has none."""
    if reference.startswith("@"):
        return bestiary_statblock(reference[1:]).scale
    data = read_structured(reference)
    if isinstance(data, dict) and data.get("kind") == "statblock":
        return load_statblock(reference).scale
    return 0


def _scale_overrides(texts: Sequence[str]) -> dict[str, int]:
    scales: dict[str, int] = {}
    for text in texts:
        ident, _, value = text.partition("=")
        try:
            scales[ident.strip()] = int(value)
        except ValueError:
            raise InputError("scale", f"{text!r}", expected="ID=N, e.g. ogre=1") from None
    return scales


def encounter_fighters(
    texts: Sequence[str], scale_texts: Sequence[str] = ()
) -> tuple[list[Fighter], dict[str, str], dict[str, int]]:
    """The fighters of ``ID:SIDE:FILE[:WEAPON[:SECONDARY]]`` texts, their secondary weapons, and
    their scales: a statblock's own scale counts without being repeated; ``ID=N`` overrides it
    (000 > Scale; RULINGS.md "scale in combat")."""
    fighters: list[Fighter] = []
    secondary: dict[str, str] = {}
    scales: dict[str, int] = {}
    for text in texts:
        fighter, second = parse_fighter(text)
        fighters.append(fighter)
        if second is not None:
            secondary[fighter[0]] = second
        own = fighter_scale(text.split(":")[2].strip())
        if own:
            scales[fighter[0]] = own
    return fighters, secondary, {**scales, **_scale_overrides(scale_texts)}
