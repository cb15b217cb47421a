"""NPC and monster statblocks: simpler sheets for the narrator (002 > NPCs and Monsters).

A statblock has attributes, core skills and vocations with their skills (combat skills may be
free-form for beasts and monsters), equipment, notes and rough pools ("Intelligence skills,
5D6": the book's shorthand for an NPC not worth a full sheet). It is not held to the creation rules
of player characters, only to the rule that no skill under a vocation exceeds the vocation
(RULINGS.md "statblock vocations"). It converts to a core sheet so every pool of the character
engine (checks, assists, combat) works on it. The book's guideline tiers build new NPCs:
average (attributes 0, vocational skills 2), elite (1 and 3), exceptional (2 and 4).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import DataError, InputError
from taletable.files import load_model
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
from taletable.systems.cogent.character.tables import combat_skill_table, skill_table
from taletable.systems.cogent.equipment import weapon_group, weapon_table
from taletable.systems.cogent.pools import MAX_POOL

__all__ = [
    "NPC_TIERS",
    "Statblock",
    "new_npc",
    "statblock_from_data",
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
    #: Conditions it is in (asleep, tied up, prone...), honoured in a fight (002 > Combat).
    conditions: tuple[str, ...] = ()
    scale: int = Field(default=0, ge=-6, le=6)
    #: 002 > NPCs: "give them 'rough dice pools' - such as 'Intelligence skills, 5D6'".
    rough_pools: dict[str, int] = Field(default_factory=dict)
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
            conditions=self.conditions,
        )


def statblock_problems(block: Statblock) -> list[str]:
    """What is wrong with a statblock (002 > Vocations: no skill above its vocation).

    Also: a weapon's group must be a weapon group of 002 > Weapon Modifiers, and a rough pool
    (002 > NPCs) is a named pool of 0 to ``MAX_POOL`` dice.
    """
    problems = []
    categories = combat_skill_table()
    groups = {group.name.lower() for group in weapon_table().groups}
    for weapon in block.equipment.weapons:
        if weapon.group.strip().lower() not in groups:
            problems.append(
                f"weapon {weapon.name}: {weapon.group!r} is not a weapon group (002 > Weapon "
                f"Modifiers); use one of {', '.join(g.name for g in weapon_table().groups)}"
            )
    for label, size in block.rough_pools.items():
        if not label.strip() or not 0 <= size <= MAX_POOL:
            problems.append(
                f"rough pool {label!r}: {size} dice; give a name and 0 to {MAX_POOL} dice ({NPCS})"
            )
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


def statblock_from_data(data: object, source: str) -> Statblock:
    """A statblock from plain data (a file's or a store's), checked (``statblock_problems``)."""
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key != "revision"}  # a store's
    block = load_model(data, Statblock, source=source)
    problems = statblock_problems(block)
    if problems:
        raise DataError(source, problems[0])
    return block


def _vocational_skills(names: tuple[str, ...]) -> None:
    """Each a vocational skill (not a core skill), named once."""
    core = {known.name.lower() for known in skill_table("core").skills}
    seen: set[str] = set()
    for skill_name in names:
        key = skill_name.strip().lower()
        if not key:
            raise InputError("skill", "empty", expected="a vocational skill's name")
        if key in core:
            raise InputError(
                "skill", f"{skill_name!r} is a core skill",
                expected="a vocational skill (the tier's attribute already raises core skills)",
            )  # fmt: skip
        if key in seen:
            raise InputError("skill", f"{skill_name!r} given twice", expected="each skill once")
        seen.add(key)


def _rough_pools(rough_pools: dict[str, int] | None) -> dict[str, int]:
    """The book's shorthand pools, each named and within the pool limit."""
    pools = dict(rough_pools or {})
    for label, size in pools.items():
        if not label.strip() or not 0 <= size <= MAX_POOL:
            raise InputError(
                "rough", f"{label!r} with {size} dice", expected=f"a name and 0 to {MAX_POOL}"
            )
    return pools


def _npc_attributes(points: int, attribute: str, chosen: list[str]) -> CoreAttributes:
    """The tier's attribute points, one each to the attributes chosen, in turn."""
    values = {"STR": 0, "RFL": 0, "INT": 0}
    for which in (attribute, *chosen):
        if which not in values:
            raise InputError("attribute", f"{which!r}", expected="STR, RFL or INT")
    for index in range(points):
        values[chosen[index % len(chosen)]] += 1
    return CoreAttributes(**values)


def _npc_arms(
    weapon_skill: str | None, weapon: str | None, points: int
) -> tuple[tuple[CombatSkill, ...], Equipment]:
    """The combat skill (a weapon category, at the tier's skill points) and the weapon carried
    (a weapon group), each optional."""
    combat: tuple[CombatSkill, ...] = ()
    equipment = Equipment()
    if weapon_skill is not None:
        canonical = combat_skill_table().canonical(weapon_skill)
        if canonical is None:
            raise InputError("weapon_skill", f"{weapon_skill!r}", expected="a weapon category")
        combat = (CombatSkill(name=canonical, points=points),)
    if weapon is not None:
        try:
            group = weapon_group(weapon).name
        except InputError as error:
            raise InputError(
                "weapon", f"{weapon!r} is not a weapon group", expected=error.expected
            ) from None
        equipment = Equipment(weapons=(Weapon(name=group, group=group),))
    return combat, equipment


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
    rough_pools: dict[str, int] | None = None,
) -> Statblock:
    """An NPC by the book's guideline tiers (002 > NPCs): attributes 0/1/2, skills 2/3/4.

    ``attributes`` lists which attributes get the tier's points (one point each, in order; the
    vocation's attribute by default). ``rough_pools`` are the book's shorthand pools
    (``{"Intelligence skills": 5}``), kept beside the sheet.
    """
    if tier not in NPC_TIERS:
        raise InputError("tier", f"{tier!r}", expected=", ".join(NPC_TIERS))
    if not name.strip():
        raise InputError("name", "empty", expected="the NPC's name")
    if not vocation.strip():
        raise InputError("vocation", "empty", expected="a vocation, e.g. 'Town Guard'")
    _vocational_skills(vocational_skills)
    pools = _rough_pools(rough_pools)
    points, skill = NPC_TIERS[tier]
    values = _npc_attributes(points, attribute, list(attributes) or [attribute] * points)
    combat, equipment = _npc_arms(weapon_skill, weapon, skill)
    vocational = tuple(
        VocationalSkill(name=n, attribute=attribute, points=skill) for n in vocational_skills
    )
    return Statblock(
        name=name,
        tier=tier,
        attributes=values,
        vocations=(
            CoreVocation(name=vocation, attribute=attribute, points=skill,
                         vocational_skills=vocational, combat_skills=combat),
        ),
        equipment=equipment,
        rough_pools=pools,
        source=NPCS,
    )  # fmt: skip
