"""Shared builders for combat tests: a fighter's sheet from plain values, and given faces that
make each roller win a chosen number of dice (tests/combat and tests/examples)."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreAttributes,
    CoreCharacter,
    CoreVocation,
    Equipment,
    Identity,
    Weapon,
)
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.combat.state import Encounter

__all__ = ["faces_for", "fighter"]


def fighter(
    name: str,
    *,
    strength: int = 0,
    rfl: int = 0,
    intelligence: int = 0,
    skills: tuple[tuple[str, int], ...] = (),
    weapons: tuple[Weapon | tuple[str, str], ...] = (),
    armour: tuple[str, ...] = (),
) -> CoreCharacter:
    """A core sheet: attributes, one vocation holding the combat ``skills`` (NAME, points), and
    ``weapons`` given as ``Weapon`` or ``(name, group)``."""
    return CoreCharacter(
        identity=Identity(name=name),
        attributes=CoreAttributes(STR=strength, RFL=rfl, INT=intelligence),
        vocations=(
            CoreVocation(
                name="Fighter",
                attribute="STR",
                points=max([1, *(points for _, points in skills)]),
                combat_skills=tuple(CombatSkill(name=n, points=p) for n, p in skills),
            ),
        ),
        equipment=Equipment(
            weapons=tuple(
                w if isinstance(w, Weapon) else Weapon(name=w[0], group=w[1]) for w in weapons
            ),
            armour=armour,
        ),
    )


def faces_for(encounter: Encounter, wins: dict[str, int]) -> GivenFaces:
    """Faces for the declared round, in performance order (highest RFL first): each roller's
    ``wins`` as 6s, the rest of its pool 1s."""
    faces: list[int] = []
    for ident in reversed(encounter.declaration_order()):
        declared = next(d for d in encounter.declarations if d.actor == ident)
        if declared.action == "wait":
            continue
        size = roll_pool(encounter, encounter.combatant(ident), declared).size
        faces += [6] * wins[ident] + [1] * (size - wins[ident])
    return GivenFaces(faces)
