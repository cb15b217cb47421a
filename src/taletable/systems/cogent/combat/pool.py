"""The combat roll's pool in a situation (002 > Combat; Combat Modifiers).

Starts from the sheet's combat pool with the weapon in hand (base 3 + STR + RFL + INT + combat
skill + weapon bonus for the target's kind - armour penalty less Endurance - injuries), then:
dual wielding (+2D6 small, +1D6 medium secondary, with a point in both proficiencies); close
combat (medium and larger weapons count as unarmed, except a medium weapon against a reach
weapon); staggered -2D6; prone -4D6; high ground +2D6; flank +2D6; charge +1D6; defence +2D6;
an unarmed disarm in close combat +4D6; and any narrator modifier by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.pools import combat_pool as sheet_combat_pool
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat.hardcore import (
    hardcore_armour_level,
    hardcore_armour_penalty,
    hardcore_weapon_bonus,
)
from taletable.systems.cogent.equipment import (
    armour_level,
    armour_penalty,
    weapon_group,
)
from taletable.systems.cogent.pools import Contribution, DicePool, base_pool
from taletable.systems.cogent.rules import Rules

__all__ = ["CIRCUMSTANCES", "Situation", "combat_pool", "situational_pool"]

MODIFIERS = "002 > Combat > Combat Modifiers"
#: 002 > Circumstantial Modifiers (dice), plus the actions' own bonuses.
CIRCUMSTANCES: dict[str, int] = {
    "high ground": 2,
    "flank": 2,
    "staggered": -2,
    "prone": -4,
    "charge": 1,
    "defence": 2,
    "disarm": 4,
}
DUAL_WIELD_BONUS = {"Small Weapon": 2, "Medium Weapon": 1}
CLOSE_COMBAT_GROUPS = ("Unarmed", "Unarmed (ungloved)", "Small Weapon")


def combat_pool(
    strength: int,
    reflex: int,
    intelligence: int,
    combat_skill: int,
    weapon: str | None,
    armour: int | Sequence[str],
    endurance: int = 0,
    target: Literal["melee", "ranged"] = "melee",
    *,
    magic_bonus: int = 0,
    injuries: int = 0,
) -> DicePool:
    """The combat pool from plain values, each part named (002 > Combat > Combat Fundamentals).

    Base 3 + STR + RFL + INT + the combat skill + the weapon group's bonus against a ``melee`` or
    ``ranged`` target (002 > Weapon Modifiers; ``weapon`` is a group name, None for bare hands)
    + a magic weapon's bonus (002 > Custom Rules) - the armour penalty less one die per
    Endurance point, never a bonus (002 > Armour; Endurance and Armour; ``armour`` is a level
    or the worn pieces) - 1D6 per injury level (002 > Victory Levels).
    """
    group = weapon_group(weapon if weapon is not None else "Unarmed (ungloved)")
    bonus = group.melee if target == "melee" else group.ranged
    if bonus is None:
        raise RulesError(
            f"{MODIFIERS} > Weapon Modifiers",
            f"a {group.name} cannot be used against a {target} target",
            fix="choose a weapon that can, or the other target kind",
        )
    level = armour if isinstance(armour, int) else armour_level(armour)
    penalty = armour_penalty(level, endurance)
    if not 0 <= injuries <= 50:
        raise InputError("injuries", f"{injuries}", expected="0 to 50 injury levels")
    parts = [
        (f"STR {strength:+d}", strength),
        (f"RFL {reflex:+d}", reflex),
        (f"INT {intelligence:+d}", intelligence),
        (f"{group.skill} {combat_skill:+d}", combat_skill),
        (f"weapon {bonus:+d} ({group.name}, {target} target)", bonus),
        (f"magic weapon {magic_bonus:+d}", magic_bonus),
        (f"armour -{penalty} (level {level}, Endurance {max(0, endurance)})", -penalty),
        (f"injuries -{injuries}", -injuries),
    ]
    return base_pool([(source, dice) for source, dice in parts if dice])


class Situation(Record):
    """What shapes a combat roll this round."""

    weapon: str | None = None
    secondary: str | None = None
    target: Literal["melee", "ranged"] = "melee"
    close_combat: bool = False
    opponent_reach: bool = False
    circumstances: tuple[str, ...] = ()
    narrator: tuple[tuple[str, int], ...] = ()


def _group_of(sheet: CoreCharacter, weapon: str | None) -> str:
    if weapon is None:
        return "Unarmed (ungloved)"
    carried = next((w for w in sheet.equipment.weapons if w.name.lower() == weapon.lower()), None)
    if carried is None:
        raise InputError("weapon", f"{weapon!r} is not carried", expected="a carried weapon")
    return weapon_group(carried.group).name


def _has_skill(sheet: CoreCharacter, skill: str) -> bool:
    return any(
        combat.name.lower() == skill.lower() and combat.points > 0
        for vocation in sheet.vocations
        for combat in vocation.combat_skills
    )


def _hardcore(
    pool: DicePool, sheet: CoreCharacter, weapon: str | None, target: str, rules: Rules
) -> DicePool:
    """Swap the standard armour penalty and weapon bonus for the hardcore ones (002 > Hardcore)."""
    carried = next(
        (w for w in sheet.equipment.weapons if weapon and w.name.lower() == weapon.lower()), None
    )
    parts = list(pool.contributions)
    if rules.hardcore_armour:
        parts = [part for part in parts if not part.source.startswith("armour")]
        endurance = next((p for n, p in sheet.skills.items() if n.lower() == "endurance"), 0)
        level = hardcore_armour_level(sheet.equipment.armour)
        penalty = hardcore_armour_penalty(level, endurance)
        if penalty:
            parts.append(
                Contribution(
                    source="hardcore armour (half the level, less Endurance)", dice=-penalty
                )
            )
    if rules.hardcore_weapons and carried is not None and carried.hardcore_group:
        parts = [part for part in parts if not part.source.startswith(f"{carried.name} (")]
        group, hands = carried.hardcore_group, carried.hands
        bonus = hardcore_weapon_bonus(group, target, hands)  # type: ignore[arg-type]
        if bonus:
            parts.append(
                Contribution(source=f"{carried.name} ({carried.hardcore_group})", dice=bonus)
            )
    return DicePool(contributions=tuple(parts))


def situational_pool(
    sheet: CoreCharacter, situation: Situation, rules: Rules | None = None
) -> DicePool:
    """The pool for one combat roll in ``situation`` (002 > Combat Modifiers)."""
    weapon = situation.weapon
    group = _group_of(sheet, weapon)
    if situation.close_combat and group not in CLOSE_COMBAT_GROUPS:
        medium_vs_reach = group == "Medium Weapon" and situation.opponent_reach
        if not medium_vs_reach:
            weapon = None  # counts as unarmed (002 > Close Combat)
    hardcore_armour = rules is not None and rules.hardcore_armour
    unarmoured = sheet.equipment.model_copy(update={"armour": ()})
    base = sheet.model_copy(update={"equipment": unarmoured}) if hardcore_armour else sheet
    pool = sheet_combat_pool(base, weapon, target=situation.target)
    if rules is not None and (rules.hardcore_armour or rules.hardcore_weapons):
        pool = _hardcore(pool, sheet, weapon, situation.target, rules)
    if weapon is None and situation.weapon is not None:
        pool = pool.plus(f"close combat: {situation.weapon} counts as unarmed", 0)
    if situation.secondary is not None:
        secondary = _group_of(sheet, situation.secondary)
        if secondary not in DUAL_WIELD_BONUS:
            raise RulesError(
                f"{MODIFIERS} > Dual Wielding",
                f"a {secondary} cannot be a secondary weapon",
                fix="dual wield a small or medium secondary weapon",
            )
        skill = weapon_group(secondary).skill
        if not _has_skill(sheet, skill) or weapon is None:
            raise RulesError(
                f"{MODIFIERS} > Dual Wielding",
                f"no point in {skill} (or no primary weapon)",
                fix="a point in both weapons' proficiencies is needed",
            )
        pool = pool.plus(f"dual wielding ({situation.secondary})", DUAL_WIELD_BONUS[secondary])
    for name in situation.circumstances:
        if name not in CIRCUMSTANCES:
            raise InputError("circumstance", f"{name!r}", expected=", ".join(CIRCUMSTANCES))
        if name == "disarm" and not (
            situation.close_combat and group in ("Unarmed", "Unarmed (ungloved)")
        ):
            raise RulesError(
                f"{MODIFIERS} > Weapon Modifiers",
                "an unarmed disarm needs close combat",
                fix="enter close combat, unarmed, first",
            )
        pool = pool.plus(name, CIRCUMSTANCES[name])
    for name, dice in situation.narrator:
        pool = pool.plus(f"narrator: {name}", dice)
    return pool


def narrator_modifiers(pairs: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Read ``NAME=DICE`` narrator modifiers (distance, unequal equipment...)."""
    parsed = []
    for text in pairs:
        name, _, dice = text.rpartition("=")
        try:
            parsed.append((name.strip() or "modifier", int(dice)))
        except ValueError:
            raise InputError(
                "--modifier", f"{text!r}", expected="NAME=DICE, e.g. distance=-2"
            ) from None
    return tuple(parsed)
