"""Weapons and armour as rules tables (002 > Combat > Weapon Modifiers; Armour).

Weapon groups give a bonus (or penalty) to the combat roll by the target's kind, melee or
ranged; armour pieces add up to an armour level (at most 5) whose combat-roll penalty comes from
the armour table, less one die per point of Endurance (never a bonus).
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable._model import Record, find_named
from taletable.errors import InputError
from taletable.library import load_package_table

__all__ = [
    "ArmourPiece",
    "ArmourTable",
    "WeaponGroup",
    "WeaponTable",
    "armour_level",
    "armour_penalty",
    "armour_table",
    "weapon_group",
    "weapon_table",
]

PACKAGE = "taletable.systems.cogent"


class WeaponGroup(Record):
    """A weapon group: its combat skill and its bonus against melee and ranged targets."""

    name: str
    skill: str
    melee: int | None
    ranged: int | None
    close_combat: bool
    notes: str = ""


class WeaponTable(Record):
    """002 > Combat > Weapon Modifiers."""

    source: str
    groups: tuple[WeaponGroup, ...]


class ArmourPiece(Record):
    """A piece of armour (or a shield) and its level and penalty on its own."""

    name: str
    level: int
    penalty: int
    shield: bool = False


class ArmourTable(Record):
    """002 > Combat > Armour."""

    source: str
    pieces: tuple[ArmourPiece, ...]
    penalties: dict[int, int]
    maximum_level: int


def weapon_table() -> WeaponTable:
    """The standard weapon groups (002 > Combat > Weapon Modifiers)."""
    return load_package_table(PACKAGE, "data/weapons.yaml", WeaponTable)


def armour_table() -> ArmourTable:
    """The standard armour table (002 > Combat > Armour)."""
    return load_package_table(PACKAGE, "data/armour.yaml", ArmourTable)


def weapon_group(name: str) -> WeaponGroup:
    """The weapon group called ``name`` (case-insensitive)."""
    group = find_named(weapon_table().groups, name)
    if group is not None:
        return group
    names = ", ".join(group.name for group in weapon_table().groups)
    raise InputError("weapon", f"{name!r} is not a weapon group", expected=names)


def _piece(name: str) -> ArmourPiece:
    piece = find_named(armour_table().pieces, name)
    if piece is not None:
        return piece
    names = ", ".join(piece.name for piece in armour_table().pieces)
    raise InputError("armour", f"{name!r} is not an armour piece", expected=names)


def armour_level(pieces: Sequence[str]) -> int:
    """The armour level of worn pieces: body armour (the best one) plus one shield, at most 5.

    002 > Armour: "In the case of shields, the armour rating stacks with worn armour."
    """
    chosen = [_piece(name) for name in pieces]
    shields = [piece for piece in chosen if piece.shield]
    worn = [piece for piece in chosen if not piece.shield]
    if len(shields) > 1:
        raise InputError("armour", "more than one shield", expected="at most one shield")
    level = max((piece.level for piece in worn), default=0) + sum(piece.level for piece in shields)
    return min(level, armour_table().maximum_level)


def armour_penalty(level: int, endurance: int = 0) -> int:
    """Dice the armour takes from the combat roll, less one per Endurance point, never below 0.

    002 > Combat > Armour; Endurance and Armour.
    """
    table = armour_table().penalties
    if level not in table:
        raise InputError("armour", f"level {level}", expected=f"0 to {max(table)}")
    return max(0, table[level] - max(0, endurance))
