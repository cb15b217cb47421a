"""Hardcore combat, the optional rules of 002 > Hardcore Combat.

* Armour by pieces (``Rules.hardcore_armour``): the pieces' levels add up (two pieces of one
  category stack); half the armour level, rounded down, comes off the combat roll; the armour's
  injury reduction is permanent and applies to every injury.
* The hardcore weapon table (``Rules.hardcore_weapons``): bonuses by the target's kind, one- and
  two-handed adjustments, the levels each weapon takes off the target's armour, the targets a
  spear can reach; a weapon with several heads is declared for one use before the roll.
* Hardcore ranged (``Rules.hardcore_ranged``): ballistic shots are made against a CL by range and
  the target's state; every win over it is a victory level. At sniper range (a scope needed) the
  CL doubles without a sniper proficiency or a kneeling or prone posture; a moving target in
  cover adds both CLs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.library import load_package_table
from taletable.systems.cogent.equipment import armour_level, armour_table
from taletable.systems.cogent.rules import Rules

__all__ = [
    "Cover",
    "HardcoreWeapon",
    "Range",
    "TargetState",
    "armour_after_weapon",
    "hardcore_armour_level",
    "hardcore_armour_penalty",
    "hardcore_tables",
    "hardcore_weapon",
    "hardcore_weapon_bonus",
    "ranged_challenge_level",
    "worn_armour_level",
]

RANGED = "002 > Hardcore Combat > Hardcore Ranged Rules"
ARMOUR = "002 > Hardcore Combat > Hardcore Armour Rules"
Range = Literal["adjacent", "close", "medium", "long", "sniper"]
TargetState = Literal["stationary", "cover_50", "cover_90", "moving_human", "moving_car"]
#: The cover of a moving target (its CL adds to the moving one's).
Cover = Literal["none", "cover_50", "cover_90"]


class HardcorePiece(Record):
    name: str
    level: int
    category: str


class HardcoreArmour(Record):
    source: str
    pieces: tuple[HardcorePiece, ...]


class HardcoreWeapon(Record):
    """A hardcore weapon group (002 > Hardcore Weapon Modifiers)."""

    name: str
    melee: int | None
    ranged: int | None
    close_combat: bool = False
    one_handed: int = 0
    two_handed: int = 0
    armour_reduction: int = Field(default=0, ge=0)
    max_targets: int | None = None
    notes: str = ""


class HardcoreWeapons(Record):
    source: str
    groups: tuple[HardcoreWeapon, ...]


class HardcoreRanged(Record):
    source: str
    ranges: dict[str, dict[str, int]]


class HardcoreTables(Record):
    """Every hardcore table."""

    source: str
    armour: HardcoreArmour
    weapons: HardcoreWeapons
    ranged: HardcoreRanged


def hardcore_tables() -> HardcoreTables:
    """002 > Hardcore Combat, as data."""
    return load_package_table("taletable.systems.cogent", "data/hardcore.yaml", HardcoreTables)


def hardcore_armour_level(pieces: Sequence[str]) -> int:
    """The sum of every worn piece's level (002 > Hardcore Armour Rules)."""
    table = {piece.name.lower(): piece for piece in hardcore_tables().armour.pieces}
    total = 0
    for name in pieces:
        piece = table.get(name.strip().lower())
        if piece is None:
            names = ", ".join(p.name for p in hardcore_tables().armour.pieces)
            if _named(name, (p.name for p in armour_table().pieces)):
                raise InputError(
                    "armour",
                    f"{name!r} is a piece of the standard armour table (002 > Combat > Armour), "
                    f"not of {ARMOUR}",
                    expected=f"hardcore pieces: {names}; or the standard armour rules (no "
                    "{hardcore_armour})",
                )
            raise InputError("armour", f"{name!r} is not a hardcore armour piece", expected=names)
        total += piece.level
    return total


def _named(name: str, names: Iterable[str]) -> bool:
    return name.strip().lower() in {known.lower() for known in names}


def worn_armour_level(pieces: Sequence[str], rules: Rules) -> int:
    """The armour level of the pieces worn, by the armour rules in force: each piece's level
    added up under ``Rules.hardcore_armour`` (002 > Hardcore Armour Rules), else the standard
    table's (002 > Combat > Armour).

    A piece only the hardcore table has (a Helmet) is refused under the standard rules by name,
    with the switch that reads it, before any pool is built.
    """
    if rules.hardcore_armour:
        return hardcore_armour_level(pieces)
    standard = [piece.name for piece in armour_table().pieces]
    hardcore = [piece.name for piece in hardcore_tables().armour.pieces]
    for name in pieces:
        if not _named(name, standard) and _named(name, hardcore):
            raise InputError(
                "armour",
                f"{name!r} is a piece of {ARMOUR}, not of the standard armour table "
                "(002 > Combat > Armour)",
                expected="the hardcore armour rules: add {hardcore_armour}; or standard pieces: "
                + ", ".join(standard),
            )
    return armour_level(pieces)


def hardcore_armour_penalty(level: int, endurance: int = 0) -> int:
    """Half the armour level, rounded down, off the combat roll (less Endurance, RULINGS.md)."""
    return max(0, level // 2 - max(0, endurance))


def hardcore_weapon(name: str) -> HardcoreWeapon:
    """The hardcore weapon group called ``name`` (002 > Hardcore Weapon Modifiers)."""
    for group in hardcore_tables().weapons.groups:
        if group.name.lower() == name.strip().lower():
            return group
    names = ", ".join(group.name for group in hardcore_tables().weapons.groups)
    raise InputError("weapon", f"{name!r} is not a hardcore weapon group", expected=names)


def hardcore_weapon_bonus(
    name: str, target: Literal["melee", "ranged"], hands: Literal[1, 2] | None = None
) -> int:
    """The hardcore weapon's dice against a target, with its one- or two-handed adjustment
    (002 > Hardcore Weapon Modifiers)."""
    group = hardcore_weapon(name)
    bonus = group.melee if target == "melee" else group.ranged
    if bonus is None:
        raise RulesError(
            "002 > Hardcore Weapon Modifiers",
            f"a {group.name} cannot be used so",
            fix="use it against the other kind of target",
        )
    if hands == 1:
        bonus += group.one_handed
    elif hands == 2:
        bonus += group.two_handed
    return bonus


def armour_after_weapon(armour: int, weapon: str | None) -> int:
    """The target's armour level after the weapon's armour reduction, never below 0
    (002 > Hardcore Weapon Modifiers; Hardcore Armour Rules)."""
    reduction = hardcore_weapon(weapon).armour_reduction if weapon else 0
    return max(0, armour - reduction)


def ranged_challenge_level(
    distance: Range,
    state: TargetState = "stationary",
    *,
    cover: Cover = "none",
    scope: bool = True,
    sniper_proficiency: bool = True,
    steady: bool = True,
) -> int:
    """The CL of a hardcore ranged roll (002 > Hardcore Ranged Rules).

    A moving target in cover adds the two CLs; walking counts as stationary, as does moving
    straight towards or away from the shooter (the caller gives ``stationary``). At sniper range a
    scope is needed and the CL doubles without a sniper proficiency or a steady posture
    (RULINGS.md "hardcore ranged").
    """
    table = hardcore_tables().ranged.ranges
    row = table.get(distance)
    if row is None:
        raise InputError("hardcore_range", f"{distance!r}", expected=", ".join(table))
    if distance == "adjacent" and (state != "stationary" or cover != "none"):
        raise RulesError(
            RANGED, "a target in cover or moving is not adjacent", fix="use close range"
        )
    if state not in row:
        raise InputError("target_state", f"{state!r}", expected=", ".join(row))
    level = row[state]
    if cover != "none" and state.startswith("moving"):
        level += row[cover]
    if distance == "sniper":
        if not scope:
            raise RulesError(RANGED, "sniper range needs a scope", fix="fit a scope or close in")
        if not sniper_proficiency or not steady:
            level *= 2
    return level
