"""Every pool of a sheet or statblock at once, each with how it is built (the pools view).

002 > How to Play > Dice Pools (a check pool for each core skill, vocation and vocational skill;
000 > Calculate your Dice Pool for the tiered edition), with the situations in which a
disabling characteristic takes dice (002 > Disabling Characteristics); 002 > Combat
Fundamentals (a combat pool for each weapon carried against each target it can be used on,
and bare hands); each spell of a magic section (002 > Example Magic Systems); 002 > Attributes
(initiative is RFL, one injury reduction per STR point); 002 > Armour. A statblock adds its
rough pools (002 > NPCs: "rough dice pools"), shown, not derived.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.pools import (
    check_pool,
    combat_pool,
    pool_names,
    situations,
    strength_reductions,
)
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.spells import spell_check_pool
from taletable.systems.cogent.equipment import armour_level
from taletable.systems.cogent.pools import Contribution, DicePool

__all__ = ["PoolLine", "SheetPools", "sheet_pools"]

TARGETS: tuple[Literal["melee", "ranged"], ...] = ("melee", "ranged")


class PoolLine(Record):
    """One pool: its dice and the named contributions that make them."""

    dice: int
    breakdown: tuple[Contribution, ...]

    @classmethod
    def of(cls, pool: DicePool) -> PoolLine:
        return cls(dice=pool.size, breakdown=pool.contributions)


class SheetPools(Record):
    """Every check and combat pool of a sheet, its initiative, STR reductions and armour."""

    checks: dict[str, PoolLine]
    combat: dict[str, PoolLine]
    initiative: int
    strength_reductions: int
    armour_level: int
    #: A statblock's rough pools (002 > NPCs), as written.
    rough_pools: dict[str, int] = Field(default_factory=dict)
    #: Each spell of the magic section, cast from the sheet (002 > Example Magic Systems).
    spells: dict[str, PoolLine] = Field(default_factory=dict)


def _combat(sheet: CoreCharacter | TieredCharacter) -> dict[str, PoolLine]:
    combat: dict[str, PoolLine] = {}
    for weapon in sheet.equipment.weapons:
        for target in TARGETS:
            try:
                pool = combat_pool(sheet, weapon.name, target=target)
            except InputError as error:  # a weapon useless against this kind of target
                if error.field != "--target":
                    raise  # an unknown weapon group: say so rather than drop the weapon
                continue
            combat[f"{weapon.name} vs {target}"] = PoolLine.of(pool)
    combat["bare hands vs melee"] = PoolLine.of(combat_pool(sheet, None))  # always at hand
    return combat


def _spells(sheet: CoreCharacter | TieredCharacter) -> dict[str, PoolLine]:
    """The pool of each spell the sheet holds (none where its magic section cannot cast)."""
    spells: dict[str, PoolLine] = {}
    for choice in sheet.magic.spells if sheet.magic else ():
        try:
            spells[f"{choice.name} (spell)"] = PoolLine.of(spell_check_pool(sheet, choice.name))
        except (InputError, RulesError):  # `validate` names what is wrong with the section
            continue
    return spells


def sheet_pools(
    sheet: CoreCharacter | TieredCharacter, *, rough_pools: dict[str, int] | None = None
) -> SheetPools:
    """Every pool of ``sheet`` (a character, or a statblock's sheet with its rough pools)."""
    checks: dict[str, PoolLine] = {}
    for name in pool_names(sheet):
        checks[name] = PoolLine.of(check_pool(sheet, name))
        for when in situations(sheet, name):  # e.g. Imperceptive: environmental Perception
            checks[f"{name} ({when})"] = PoolLine.of(check_pool(sheet, name, situation=when))
    return SheetPools(
        checks=checks,
        combat=_combat(sheet),
        initiative=sheet.attributes.RFL,
        strength_reductions=strength_reductions(sheet),
        armour_level=armour_level(sheet.equipment.armour),
        rough_pools=dict(rough_pools or {}),
        spells=_spells(sheet),
    )
