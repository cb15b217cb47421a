"""The combat roll's pool in a situation (002 > Combat; Combat Modifiers).

Starts from the sheet's combat pool with the weapon in hand (base 3 + STR + RFL + INT + combat
skill + weapon bonus for the target's kind - armour penalty less Endurance - injuries), then:
dual wielding (+2D6 small, +1D6 medium secondary, with a point in both proficiencies); close
combat (medium and larger weapons count as unarmed, except a medium weapon against a reach
weapon); staggered -2D6; prone -4D6; high ground +2D6; flank +2D6; charge +1D6; defence +2D6;
an unarmed disarm in close combat +4D6; narrow confines negate a reach weapon's bonus; and any
narrator modifier by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.pools import combat_pool as sheet_combat_pool
from taletable.systems.cogent.character.pools import endurance_points
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter, Weapon
from taletable.systems.cogent.combat.hardcore import (
    hardcore_armour_level,
    hardcore_armour_penalty,
    hardcore_weapon,
    hardcore_weapon_bonus,
)
from taletable.systems.cogent.equipment import (
    armour_level,
    armour_penalty,
    weapon_group,
)
from taletable.systems.cogent.pools import Contribution, DicePool, base_pool
from taletable.systems.cogent.rules import Rules

__all__ = [
    "CIRCUMSTANCES",
    "Situation",
    "combat_pool",
    "situational_pool",
    "targets",
    "weapon_pool",
    "weapon_use",
]

Sheet = CoreCharacter | TieredCharacter
Target = Literal["melee", "ranged"]

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
    #: Narrow confines (an alleyway, a hallway): a reach weapon's bonus is negated (_narrow).
    "narrow": 0,
}
REACH = "Reach Weapon"
#: The largest narrator's modifier, in dice either way (a declaration's bound).
MAX_MODIFIER = 50
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


def weapon_use(carried: Weapon, use: str | None) -> str | None:
    """The hardcore group ``carried`` is used as: ``use`` if declared, else its standard one.

    002 > Hardcore Weapon Modifiers: a weapon with several heads (a poleaxe's hammer, axe and
    spike) is used one way, named before the roll; unnamed, it is used in its standard function.
    """
    if use is None:
        return carried.hardcore_group
    ways = [carried.hardcore_group, *carried.hardcore_uses]
    found = next((way for way in ways if way and way.lower() == use.strip().lower()), None)
    if found is None:
        raise InputError(
            "use",
            f"{carried.name} cannot be used as {use!r}",
            expected=", ".join(way for way in ways if way) or "no hardcore group on the sheet",
        )
    return found


class Situation(Record):
    """What shapes a combat roll this round."""

    weapon: str | None = None
    secondary: str | None = None
    #: The hardcore group the weapon is used as this round (None: its standard function).
    use: str | None = None
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
    pool: DicePool,
    sheet: Sheet,
    carried: Weapon | None,
    target: Target,
    use: str | None,
    rules: Rules,
) -> DicePool:
    """Swap the standard armour penalty and weapon bonus for the hardcore ones (002 > Hardcore)."""
    parts = list(pool.contributions)
    if rules.hardcore_armour:
        parts = [part for part in parts if not part.source.startswith("armour")]
        level = hardcore_armour_level(sheet.equipment.armour)
        penalty = hardcore_armour_penalty(level, endurance_points(sheet))
        if penalty:
            parts.append(
                Contribution(
                    source="hardcore armour (half the level, less Endurance)", dice=-penalty
                )
            )
    if rules.hardcore_weapons and carried is not None:
        group = weapon_use(carried, use)
        if group is not None:
            parts = [part for part in parts if not part.source.startswith(f"{carried.name} (")]
            bonus = hardcore_weapon_bonus(group, target, carried.hands)
            if bonus:
                parts.append(Contribution(source=f"{carried.name} ({group})", dice=bonus))
    return DicePool(contributions=tuple(parts))


def _carried(sheet: Sheet, weapon: str | None) -> Weapon | None:
    return next(
        (w for w in sheet.equipment.weapons if weapon and w.name.lower() == weapon.lower()), None
    )


def weapon_pool(
    sheet: Sheet,
    weapon: str | None,
    target: Target,
    rules: Rules | None = None,
    *,
    use: str | None = None,
) -> DicePool:
    """The combat pool of a carried weapon (None: bare hands) against a ``melee`` or ``ranged``
    target, by the rules in force: the sheet's combat pool (002 > Combat Fundamentals), with the
    hardcore armour penalty (002 > Hardcore Armour Rules) and the hardcore weapon's bonus, used
    as ``use`` (002 > Hardcore Weapon Modifiers) in place of the standard ones when switched on.
    """
    hardcore_armour = rules is not None and rules.hardcore_armour
    unarmoured = sheet.equipment.model_copy(update={"armour": ()})
    base = sheet.model_copy(update={"equipment": unarmoured}) if hardcore_armour else sheet
    pool = sheet_combat_pool(base, weapon, target=target)
    if rules is not None and (rules.hardcore_armour or rules.hardcore_weapons):
        pool = _hardcore(pool, sheet, _carried(sheet, weapon), target, use, rules)
    return pool


def targets(
    carried: Weapon | None, rules: Rules | None = None, use: str | None = None
) -> list[Target]:
    """The kinds of target a weapon (None: bare hands) can be used against: those its group has a
    bonus for (002 > Weapon Modifiers), and under ``Rules.hardcore_weapons`` those its hardcore
    group, used as ``use``, has one for too (002 > Hardcore Weapon Modifiers)."""
    group = weapon_group(carried.group if carried is not None else "Unarmed (ungloved)")
    kinds: list[Target] = [kind for kind in ("melee", "ranged") if getattr(group, kind) is not None]
    if rules is not None and rules.hardcore_weapons and carried is not None:
        hardcore = weapon_use(carried, use)
        if hardcore is not None:
            table = hardcore_weapon(hardcore)
            kinds = [kind for kind in kinds if getattr(table, kind) is not None]
    return kinds


def situational_pool(
    sheet: CoreCharacter, situation: Situation, rules: Rules | None = None
) -> DicePool:
    """The pool for one combat roll in ``situation`` (002 > Combat Modifiers).

    Close combat (002 > Close Combat): a medium or larger weapon counts as unarmed (a medium
    weapon keeps its bonus against a reach weapon); a dual wielder whose primary is lost so
    fights with a small secondary as the weapon, without the dual-wield bonus (RULINGS.md
    "dual wielding"). Dual Wielding: +2D6 for a small, +1D6 for a medium secondary, only with a
    point in both weapons' proficiencies ("to receive any bonus"; without, the bonus is 0).
    """
    weapon, secondary = situation.weapon, situation.secondary
    group = _group_of(sheet, weapon)
    lost = None
    if situation.close_combat and group not in CLOSE_COMBAT_GROUPS:
        medium_vs_reach = group == "Medium Weapon" and situation.opponent_reach
        if not medium_vs_reach:
            lost, weapon = weapon, None  # counts as unarmed (002 > Close Combat)
    if situation.close_combat and secondary is not None:
        if _group_of(sheet, secondary) in CLOSE_COMBAT_GROUPS and weapon is None and lost:
            weapon = secondary  # the small secondary fights on as the only weapon
        secondary = None if weapon == secondary or lost else secondary
        if secondary is not None and _group_of(sheet, secondary) not in CLOSE_COMBAT_GROUPS:
            secondary = None
    group = _group_of(sheet, weapon)
    pool = weapon_pool(sheet, weapon, situation.target, rules, use=situation.use)
    if lost is not None:
        label = f"close combat: {lost} counts as unarmed"
        pool = pool.plus(label + (f", {weapon} in hand" if weapon else ""), 0)
    if secondary is not None and weapon is not None:
        pool = _dual_wield(pool, sheet, weapon, secondary)
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
        if name == "narrow":
            pool = _narrow(pool, sheet, weapon)
        else:
            pool = pool.plus(name, CIRCUMSTANCES[name])
    for name, dice in situation.narrator:
        pool = pool.plus(f"narrator: {name}", dice)
    return pool


def _narrow(pool: DicePool, sheet: CoreCharacter, weapon: str | None) -> DicePool:
    """Narrow confines negate the reach weapon's bonus (002 > Weapon Modifiers, Reach: "the
    Narrator is free to negate all dice bonuses if they feel the reach weapon would not work as
    effectively due to narrow confines such as an alleyway or hallway"; RULINGS.md)."""
    carried = _carried(sheet, weapon)
    if carried is None or weapon_group(carried.group).name != REACH:
        return pool.plus("narrow confines: no reach weapon in hand, no change", 0)
    bonus = sum(
        part.dice
        for part in pool.contributions
        if part.source.startswith(f"{carried.name} (") and part.dice > 0
    )
    return pool.plus(f"narrow confines: {carried.name}'s reach bonus negated", -bonus)


def _dual_wield(pool: DicePool, sheet: CoreCharacter, weapon: str, secondary: str) -> DicePool:
    """+2D6 small, +1D6 medium secondary, a point in both proficiencies (002 > Dual Wielding)."""
    group = _group_of(sheet, secondary)
    if group not in DUAL_WIELD_BONUS:
        raise RulesError(
            f"{MODIFIERS} > Dual Wielding",
            f"a {group} cannot be a secondary weapon",
            fix="dual wield a small or medium secondary weapon",
        )
    needed = [weapon_group(_group_of(sheet, name)).skill for name in (weapon, secondary)]
    missing = [skill for skill in needed if not _has_skill(sheet, skill)]
    if missing:
        return pool.plus(f"dual wielding ({secondary}): no point in {missing[0]}, no bonus", 0)
    return pool.plus(f"dual wielding ({secondary})", DUAL_WIELD_BONUS[group])


def narrator_modifiers(pairs: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Read ``NAME=DICE`` narrator modifiers (distance, unequal equipment...)."""
    parsed = []
    for text in pairs:
        name, _, dice = text.rpartition("=")
        try:
            value = int(dice)
        except ValueError:
            raise InputError(
                "modifiers", f"{text!r}", expected="NAME=DICE, e.g. distance=-2"
            ) from None
        if not -MAX_MODIFIER <= value <= MAX_MODIFIER:
            raise InputError(
                "modifiers", f"{text!r}", expected=f"-{MAX_MODIFIER} to {MAX_MODIFIER} dice"
            )
        parsed.append((name.strip() or "modifier", value))
    return tuple(parsed)
