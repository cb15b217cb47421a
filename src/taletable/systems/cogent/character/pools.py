"""Dice pools from a sheet: checks, assists and combat (derived values).

core (002 > How to Play > Dice Pools): a core skill's or vocational skill's pool is base 3 +
its attribute + its points; a vocation's (assists only) is base 3 + its attribute + its points.
tiered (000 > Calculate your Dice Pool): a specialisation adds its vocation's rank too.
Disabling characteristics take their dice (Feeble -1 to STR skills; Imperceptive -3D6 on
environmental Perception rolls when the check is one, named in the breakdown); injuries take
1D6 per level from physical (STR and RFL) checks (RULINGS.md "physical checks").
Combat (002 > Combat Fundamentals): base 3 + STR + RFL + INT + the combat skill + the weapon's
bonus against the target, less the armour penalty (reduced by Endurance) and injuries.
"""

from __future__ import annotations

from typing import Literal

from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.cogent.character.sheet import CoreCharacter, CoreVocation, TieredCharacter
from taletable.systems.cogent.character.tables import disabling_table, skill_table
from taletable.systems.cogent.equipment import armour_level, armour_penalty, weapon_group
from taletable.systems.cogent.pools import DicePool, base_pool

__all__ = [
    "PHYSICAL",
    "attribute_pool",
    "check_pool",
    "combat_pool",
    "endurance_points",
    "gloved",
    "injury_notes",
    "injury_penalty",
    "pool_names",
    "situations",
    "strength_reductions",
]

Sheet = CoreCharacter | TieredCharacter
#: Attributes whose checks are physical, so injuries weigh on them (RULINGS.md).
PHYSICAL = ("STR", "RFL")
#: Words that name hand protection among the sheet's items (RULINGS.md "gloved hands").
GLOVE_WORDS = ("glove", "gauntlet")


def gloved(sheet: Sheet) -> bool:
    """The hands are protected: an item whose name says gloves or gauntlets.

    002 > Combat > Weapon Modifiers (Unarmed: "-1D6 (Ungloved)", "+0D6 (Gloved)"); RULINGS.md
    "gloved hands".
    """
    items = sheet.equipment.items
    return any(word in name.lower() for name in items for word in GLOVE_WORDS)


def injury_penalty(sheet: Sheet) -> int:
    """Dice injuries take from physical checks: 1D6 per level, stacking (002 > Victory Levels)."""
    return sum(injury.level for injury in sheet.injuries)


#: Where the injuries' dice are ruled: the book's penalty, and which checks are physical.
INJURIES_ON_CHECKS = '002 > Combat > Victory Levels; RULINGS.md "injuries on checks"'


def injury_notes(sheet: Sheet, pool: DicePool) -> tuple[Note, ...]:
    """Why ``pool``, built from ``sheet``, lost dice to its injuries: a note naming them and the
    dice, citing the section (002 > Victory Levels: "-1D6 to all physical-based dice checks"
    per level, stacking); none when the pool took none (not physical, or no injury)."""
    taken = sum(-part.dice for part in pool.contributions if part.source == "injuries")
    if taken <= 0:
        return ()
    from taletable.systems.cogent.character.healing import injury_name

    names = tuple(injury_name(injury) for injury in sheet.injuries)
    return (note("cogent.check.injuries", INJURIES_ON_CHECKS, dice=taken, injuries=names),)


def endurance_points(sheet: Sheet) -> int:
    """Points in the Endurance core skill, which offset armour's combat penalty (002 > Armour >
    Endurance and Armour: "NOT including the base 3D6 or any strength modifiers")."""
    return next((p for n, p in sheet.skills.items() if n.lower() == "endurance"), 0)


def _attribute(sheet: Sheet, name: str) -> int:
    return int(getattr(sheet.attributes, name, 0))


def _disabling_parts(sheet: Sheet, skill: str, attribute: str) -> list[tuple[str, int, str]]:
    """(source, dice, situation) of each disabling penalty on ``skill``; situation "" is always."""
    parts: list[tuple[str, int, str]] = []
    table = disabling_table()
    for choice in sheet.disabling_characteristics:
        entry = table.find(choice.name)
        if entry is None or entry.penalty is None:
            continue
        penalty = entry.penalty
        if penalty.attribute == attribute and not penalty.when:
            parts.append((entry.name, penalty.dice, ""))
        elif penalty.skill and penalty.skill.lower() == skill.lower():
            parts.append((f"{entry.name} ({penalty.when})", penalty.dice, penalty.when))
    return parts


def situations(sheet: Sheet, skill_name: str) -> list[str]:
    """The situations in which a disabling characteristic takes dice from ``skill_name``'s pool
    (002 > Disabling Characteristics: Imperceptive, Gullible, Impressionable on Perception)."""
    name, attribute, _ = _find(sheet, skill_name)
    return [when for _, _, when in _disabling_parts(sheet, name, attribute) if when]


def _find(sheet: Sheet, name: str) -> tuple[str, str, list[tuple[str, int]]]:
    """(canonical name, attribute, the parts after base and attribute) of a skill-like entry."""
    lowered = name.strip().lower()
    table = skill_table(sheet.edition)
    canonical = table.canonical(name)
    if canonical is not None:
        points = next((p for n, p in sheet.skills.items() if n.lower() == lowered), 0)
        return canonical, table.attribute_of(canonical) or "", [(canonical, points)]
    if isinstance(sheet, CoreCharacter):
        for vocation in sheet.vocations:
            if vocation.name.lower() == lowered:
                label = f"{vocation.name} (vocation, assists only)"
                return vocation.name, vocation.attribute, [(label, vocation.points)]
            for skill in vocation.vocational_skills:
                if skill.name.lower() == lowered:
                    return skill.name, skill.attribute, [(skill.name, skill.points)]
    else:
        for tiered in sheet.vocations:
            rank = (f"{tiered.name} rank", tiered.rank)
            if tiered.name.lower() == lowered:
                return tiered.name, tiered.attribute, [rank]
            for special in tiered.specialisations:
                if special.name.lower() == lowered:
                    return special.name, special.attribute, [rank, (special.name, special.points)]
    expected = ", ".join(pool_names(sheet))
    raise InputError("skill", f"{name!r} is not on the sheet", expected=expected)


def pool_names(sheet: Sheet) -> list[str]:
    """Every name a check pool can be built for: core skills, vocations and their skills."""
    names = [skill.name for skill in skill_table(sheet.edition).skills]
    for vocation in sheet.vocations:
        names.append(vocation.name)
        if isinstance(vocation, CoreVocation):
            names += [skill.name for skill in vocation.vocational_skills]
        else:
            names += [special.name for special in vocation.specialisations]
    return names


def check_pool(sheet: Sheet, skill_name: str, *, situation: str | None = None) -> DicePool:
    """The pool for a check with ``skill_name`` (002 > Dice Pools; 000 > Calculate your Dice Pool).

    A penalty that holds only in a situation (002 > Disabling Characteristics: Imperceptive
    "-3D6 to environmental Perception rolls", Gullible "vs Deception", Impressionable "vs
    Persuasion") is taken only when ``situation`` names it: a word or words of its situation
    ("environmental", "deception", "persuasion"). RULINGS.md "situational penalties".
    """
    name, attribute, parts = _find(sheet, skill_name)
    return attribute_pool(sheet, name, attribute, parts, situation=situation)


def attribute_pool(
    sheet: Sheet,
    name: str,
    attribute: str,
    parts: list[tuple[str, int]],
    *,
    situation: str | None = None,
) -> DicePool:
    """Base 3 + ``attribute`` + ``parts``, less the disabling penalties on ``name`` and its
    attribute and, on a physical attribute, the injuries (002 > Dice Pools; RULINGS.md
    "physical checks"): the pool of any skill-like entry, a spell's too."""
    contributions = [(attribute, _attribute(sheet, attribute)), *parts]
    wanted = (situation or "").strip().lower()
    for source, dice, when in _disabling_parts(sheet, name, attribute):
        if not when or (wanted and wanted in when.lower()):
            contributions.append((source, dice))
    injuries = injury_penalty(sheet)
    if injuries and attribute in PHYSICAL:
        contributions.append(("injuries", -injuries))
    return base_pool([(source, dice) for source, dice in contributions if dice])


def _combat_skill(sheet: Sheet, skill: str) -> tuple[str, int]:
    best = ("no combat skill", 0)
    if isinstance(sheet, CoreCharacter):
        for vocation in sheet.vocations:
            for combat in vocation.combat_skills:
                if combat.name.lower() == skill.lower() and combat.points > best[1]:
                    best = (f"{combat.name} ({vocation.name})", combat.points)
            for vocational in vocation.vocational_skills:  # a creature's natural weapons
                if vocational.name.lower() == skill.lower() and vocational.points > best[1]:
                    best = (f"{vocational.name} ({vocation.name})", vocational.points)
    else:
        for tiered_vocation in sheet.vocations:
            for special in tiered_vocation.specialisations:
                if special.name.lower() == skill.lower() and special.points > best[1]:
                    best = (f"{special.name} ({tiered_vocation.name})", special.points)
    return best


def combat_pool(
    sheet: Sheet, weapon: str | None = None, *, target: Literal["melee", "ranged"] = "melee"
) -> DicePool:
    """The combat roll's pool with ``weapon`` (a carried weapon's name; None: unarmed).

    002 > Combat Fundamentals; Weapon Modifiers; Armour; Endurance and Armour. The tiered
    edition uses the same rule with STR, RFL and INT (RULINGS.md "tiered combat").
    """
    if weapon is None:  # gloved hands +0D6, bare -1D6 (002 > Weapon Modifiers)
        group = weapon_group("Unarmed" if gloved(sheet) else "Unarmed (ungloved)")
        label, magic = "gloved hands" if gloved(sheet) else "bare hands", 0
    else:
        carried = next(
            (w for w in sheet.equipment.weapons if w.name.lower() == weapon.lower()), None
        )
        if carried is None:
            names = ", ".join(w.name for w in sheet.equipment.weapons) or "none carried"
            raise InputError("weapon", f"{weapon!r} is not carried", expected=names)
        group, label, magic = weapon_group(carried.group), carried.name, carried.magic_bonus
        if carried.skill:
            group = group.model_copy(update={"skill": carried.skill})
    bonus = group.melee if target == "melee" else group.ranged
    if bonus is None:
        raise InputError(
            "target",
            f"a {group.name} cannot be used against a {target} target",
            expected="the other target kind",
        )
    skill_label, skill_points = _combat_skill(sheet, group.skill)
    penalty = armour_penalty(armour_level(sheet.equipment.armour), endurance_points(sheet))
    parts = [
        ("STR", sheet.attributes.STR),
        ("RFL", sheet.attributes.RFL),
        ("INT", sheet.attributes.INT),
        (skill_label, skill_points),
        (f"{label} ({group.name})", bonus),
        ("magic weapon", magic),
        ("armour (less Endurance)", -penalty),
        ("injuries", -injury_penalty(sheet)),
    ]
    return base_pool([(source, dice) for source, dice in parts if dice])


def strength_reductions(sheet: Sheet) -> int:
    """Victory levels STR may reduce per encounter: one per point (002 > Attributes)."""
    return max(0, sheet.attributes.STR)
