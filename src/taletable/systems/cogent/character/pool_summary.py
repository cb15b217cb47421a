"""Every pool of a sheet or statblock at once, each with how it is built (the pools view).

002 > How to Play > Dice Pools (a check pool for each core skill, vocation and vocational skill;
000 > Calculate your Dice Pool for the tiered edition), with the situations in which a
disabling characteristic takes dice (002 > Disabling Characteristics); 002 > Combat
Fundamentals (a combat pool for each weapon carried against each target it can be used on,
and bare hands); each spell of a magic section (002 > Example Magic Systems); 002 > Attributes
(initiative is RFL, one injury reduction per STR point); 002 > Armour. A statblock adds its
rough pools (002 > NPCs: "rough dice pools"), shown, not derived. Under the hardcore rules
(002 > Hardcore Combat [Optional]; ``Rules.hardcore_armour``, ``Rules.hardcore_weapons``) the
armour is read by pieces and each weapon by the hardcore table, with a pool for each way a
weapon of several heads can be used.
"""

from __future__ import annotations

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.pools import (
    check_pool,
    pool_names,
    situations,
    strength_reductions,
)
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter, Weapon
from taletable.systems.cogent.character.spells import spell_check_pool
from taletable.systems.cogent.combat.hardcore import worn_armour_level
from taletable.systems.cogent.combat.pool import targets, weapon_pool
from taletable.systems.cogent.pools import Contribution, DicePool
from taletable.systems.cogent.rules import CORE, Rules

__all__ = ["PoolLine", "SheetPools", "sheet_pools"]


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
    #: Armour by pieces, its injury reduction permanent (002 > Hardcore Armour Rules).
    hardcore_armour: bool = False
    #: Weapons by the hardcore table (002 > Hardcore Weapon Modifiers).
    hardcore_weapons: bool = False


def _uses(weapon: Weapon, rules: Rules) -> list[str | None]:
    """Each way a weapon is used: its standard function (None), and under the hardcore weapon
    table each other head it has (002 > Hardcore Weapon Modifiers: a poleaxe's hammer, axe, spike).
    """
    return [None, *(weapon.hardcore_uses if rules.hardcore_weapons else ())]


def _combat(sheet: CoreCharacter | TieredCharacter, rules: Rules) -> dict[str, PoolLine]:
    combat: dict[str, PoolLine] = {}
    for weapon in sheet.equipment.weapons:
        for use in _uses(weapon, rules):
            label = weapon.name if use is None else f"{weapon.name} as {use}"
            for target in targets(weapon, rules, use):  # none a weapon is useless against
                pool = weapon_pool(sheet, weapon.name, target, rules, use=use)
                combat[f"{label} vs {target}"] = PoolLine.of(pool)
    combat["bare hands vs melee"] = PoolLine.of(weapon_pool(sheet, None, "melee", rules))
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
    sheet: CoreCharacter | TieredCharacter,
    *,
    rough_pools: dict[str, int] | None = None,
    rules: Rules = CORE,
) -> SheetPools:
    """Every pool of ``sheet`` (a character, or a statblock's sheet with its rough pools), by the
    combat rules of ``rules``; armour the rules in force cannot read is refused first."""
    armour = worn_armour_level(sheet.equipment.armour, rules)
    checks: dict[str, PoolLine] = {}
    for name in pool_names(sheet):
        checks[name] = PoolLine.of(check_pool(sheet, name))
        for when in situations(sheet, name):  # e.g. Imperceptive: environmental Perception
            checks[f"{name} ({when})"] = PoolLine.of(check_pool(sheet, name, situation=when))
    return SheetPools(
        checks=checks,
        combat=_combat(sheet, rules),
        initiative=sheet.attributes.RFL,
        strength_reductions=strength_reductions(sheet),
        armour_level=armour,
        rough_pools=dict(rough_pools or {}),
        spells=_spells(sheet),
        hardcore_armour=rules.hardcore_armour,
        hardcore_weapons=rules.hardcore_weapons,
    )
