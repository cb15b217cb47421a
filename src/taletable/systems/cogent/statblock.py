"""NPC and monster statblocks: simpler sheets for the narrator (002 > NPCs and Monsters).

A statblock has attributes, core skills and vocations with their skills (combat skills may be
free-form for beasts and monsters), equipment and notes. It is not held to the creation rules
of player characters, only to the rule that no skill under a vocation exceeds the vocation
(RULINGS.md "statblock vocations"). It converts to a core sheet so every pool of the character
engine (checks, assists, combat) works on it. The book's guideline tiers build new NPCs:
average (attributes 0, vocational skills 2), elite (1 and 3), exceptional (2 and 4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import DataError, InputError
from taletable.files import atomic_write_text, load_model, read_structured
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreAttributes,
    CoreCharacter,
    CoreVocation,
    Equipment,
    Identity,
    Injury,
    VocationalSkill,
    Weapon,
)
from taletable.systems.cogent.character.tables import combat_skill_table

__all__ = [
    "NPC_TIERS",
    "Statblock",
    "load_statblock",
    "new_npc",
    "save_statblock",
    "statblock_problems",
]

NPCS = "002 > Narration > NPCs and Monsters"
#: 002 > NPCs: the guideline tiers (attribute points, points in vocational skills).
NPC_TIERS: dict[str, tuple[int, int]] = {"average": (0, 2), "elite": (1, 3), "exceptional": (2, 4)}

Attribute = Literal["STR", "RFL", "INT"]


class Statblock(Record):
    """An NPC's or monster's statblock (schema version 1)."""

    schema_version: Literal[1] = 1
    kind: Literal["statblock"] = "statblock"
    name: str = Field(min_length=1, max_length=200)
    tier: Literal["average", "elite", "exceptional", "custom"] = "custom"
    description: str = ""
    attributes: CoreAttributes = CoreAttributes()
    skills: dict[str, int] = Field(default_factory=dict)
    vocations: tuple[CoreVocation, ...] = ()
    equipment: Equipment = Equipment()
    injuries: tuple[Injury, ...] = ()
    scale: int = Field(default=0, ge=-6, le=6)
    source: str = ""

    def as_character(self) -> CoreCharacter:
        """The statblock as a core sheet, for pools and combat."""
        return CoreCharacter(
            mode="fast_play",
            superhuman_attributes=True,
            identity=Identity(name=self.name, concept=self.description),
            attributes=self.attributes,
            skills=self.skills,
            vocations=self.vocations,
            equipment=self.equipment,
            injuries=self.injuries,
        )


def statblock_problems(block: Statblock) -> list[str]:
    """What is wrong with a statblock (002 > Vocations: no skill above its vocation)."""
    problems = []
    categories = combat_skill_table()
    for vocation in block.vocations:
        nested: list[VocationalSkill | CombatSkill] = [
            *vocation.vocational_skills,
            *vocation.combat_skills,
        ]
        for skill in nested:
            if skill.points > vocation.points:
                problems.append(
                    f"{skill.name} ({skill.points}) is above its vocation {vocation.name} "
                    f"({vocation.points}) ({NPCS}); raise the vocation or lower the skill"
                )
        for combat in vocation.combat_skills:
            if combat.free_form is None and categories.canonical(combat.name) is None:
                problems.append(
                    f"{combat.name!r} is not a weapon category; mark it free_form "
                    f"(beast, monster or magic) ({NPCS})"
                )
    return problems


def load_statblock(path: str | Path) -> Statblock:
    """Read and check a statblock file (YAML or JSON)."""
    block = load_model(read_structured(path), Statblock, source=str(path))
    problems = statblock_problems(block)
    if problems:
        raise DataError(str(path), problems[0])
    return block


def save_statblock(block: Statblock, path: str | Path) -> None:
    """Write a statblock atomically as YAML."""
    import yaml

    atomic_write_text(path, yaml.safe_dump(block.model_dump(mode="json"), sort_keys=False))


def new_npc(
    name: str,
    tier: Literal["average", "elite", "exceptional"],
    vocation: str,
    *,
    attribute: Attribute = "STR",
    weapon_skill: str | None = None,
    weapon: str | None = None,
    vocational_skills: tuple[str, ...] = (),
    attributes: tuple[Attribute, ...] = (),
) -> Statblock:
    """An NPC by the book's guideline tiers (002 > NPCs): attributes 0/1/2, skills 2/3/4.

    ``attributes`` lists which attributes get the tier's points (one point each, in order; the
    vocation's attribute by default).
    """
    if tier not in NPC_TIERS:
        raise InputError("--tier", f"{tier!r}", expected=", ".join(NPC_TIERS))
    points, skill = NPC_TIERS[tier]
    chosen = list(attributes) or [attribute] * points
    values = {"STR": 0, "RFL": 0, "INT": 0}
    for index in range(points):
        values[chosen[index % len(chosen)]] += 1
    combat: tuple[CombatSkill, ...] = ()
    equipment = Equipment()
    if weapon_skill:
        canonical = combat_skill_table().canonical(weapon_skill)
        if canonical is None:
            raise InputError("--weapon-skill", f"{weapon_skill!r}", expected="a weapon category")
        combat = (CombatSkill(name=canonical, points=skill),)
    if weapon:
        equipment = Equipment(weapons=(Weapon(name=weapon, group=weapon),))
    vocational = tuple(
        VocationalSkill(name=n, attribute=attribute, points=skill) for n in vocational_skills
    )
    return Statblock(
        name=name,
        tier=tier,
        attributes=CoreAttributes(**values),
        vocations=(
            CoreVocation(name=vocation, attribute=attribute, points=skill,
                         vocational_skills=vocational, combat_skills=combat),
        ),
        equipment=equipment,
        source=NPCS,
    )  # fmt: skip
