"""Disabling characteristics at creation (002 > Character Creation > Disabling Characteristics).

A characteristic is from the d20 table or custom (narrator-approved, marked ``custom: true``); a
rolled one is the table's entry for its roll; Overconfident names a real skill of the sheet (a
core skill of its edition, a combat skill category, or a vocation, vocational or combat skill,
or specialisation on the sheet) that gets no points "during character creation" (once the
campaign progresses points may go there: RULINGS.md "When the campaign progresses"). The bonus
skill points and the `*` cost increases are counted in ``budget.py``; the dice penalties in
``pools.py``. A tiered sheet's characteristics follow the same table (RULINGS.md).
"""

from __future__ import annotations

from taletable._model import find_named
from taletable.systems.cogent.character.campaign_limits import campaign_started
from taletable.systems.cogent.character.report import DISABLING, Problem
from taletable.systems.cogent.character.sheet import (
    CoreCharacter,
    TieredCharacter,
    TieredVocation,
)
from taletable.systems.cogent.character.tables import (
    combat_skill_table,
    disabling_table,
    skill_table,
)

__all__ = ["disabling_problems", "named_skills", "skill_points_of"]

#: History events after which a tiered character is past creation (a chapter, a new tier).
TIERED_PROGRESS = frozenset({"chapter", "tier"})


def named_skills(sheet: CoreCharacter | TieredCharacter) -> dict[str, int]:
    """Every skill the sheet could put points in, by lower-case name: its points (0 if none).

    The edition's core skills and the combat skill categories, then the sheet's own vocations
    and the skills nested under them (002 > Core Skills, > Vocations; 000 > Skills).
    """
    names: dict[str, int] = {skill.name.lower(): 0 for skill in skill_table(sheet.edition).skills}
    if isinstance(sheet, CoreCharacter):
        names.update({c.name.lower(): 0 for c in combat_skill_table().categories})
    for name, points in sheet.skills.items():
        names[name.lower()] = points
    for vocation in sheet.vocations:
        if isinstance(vocation, TieredVocation):
            names[vocation.name.lower()] = vocation.rank
            names.update({s.name.lower(): s.points for s in vocation.specialisations})
        else:
            names[vocation.name.lower()] = vocation.points
            names.update({s.name.lower(): s.points for s in vocation.vocational_skills})
            names.update({s.name.lower(): s.points for s in vocation.combat_skills})
    return names


def skill_points_of(sheet: CoreCharacter | TieredCharacter, name: str) -> int | None:
    """Points in the skill called ``name`` (any case); None when no such skill exists."""
    return named_skills(sheet).get(name.strip().lower())


def _at_creation(sheet: CoreCharacter | TieredCharacter) -> bool:
    if isinstance(sheet, CoreCharacter):
        return not campaign_started(sheet)
    return not any(award.event in TIERED_PROGRESS for award in sheet.history)


def _overconfident(
    sheet: CoreCharacter | TieredCharacter, index: int, name: str, skill: str | None
) -> list[Problem]:
    """002 > Disabling Characteristics: Overconfident "(cannot spend points on an applicable
    skill during character creation)" names a real skill, which holds no points at creation."""
    where = f"disabling_characteristics.{index}.skill"
    if not skill or not skill.strip():
        return [Problem(rule=DISABLING, found=f"{name} names no skill",
                        fix="name the applicable skill", field=where)]  # fmt: skip
    points = skill_points_of(sheet, skill)
    if points is None:
        known = ", ".join(s.name for s in skill_table(sheet.edition).skills)
        return [
            Problem(
                rule=DISABLING,
                found=f"{name}: {skill!r} is not a skill of this sheet",
                fix=f"name a real skill: one of {known}, a combat skill, or a vocation or "
                "vocational skill on the sheet",
                field=where,
            )
        ]
    if _at_creation(sheet) and points > 0:
        core = find_named(skill_table(sheet.edition).skills, skill) is not None
        return [
            Problem(
                rule=DISABLING,
                found=f"{name}: points in {skill}",
                fix="an Overconfident character spends no points on that skill at creation",
                field="skills" if core else "vocations",
            )
        ]
    return []


def disabling_problems(sheet: CoreCharacter | TieredCharacter) -> list[Problem]:
    """Every problem with the sheet's disabling characteristics (002 > Disabling Chars.)."""
    problems: list[Problem] = []
    table = disabling_table()
    for index, choice in enumerate(sheet.disabling_characteristics):
        entry = table.find(choice.name)
        if entry is None and not choice.custom:
            problems.append(
                Problem(
                    rule=DISABLING,
                    found=f"{choice.name!r} is not on the table",
                    fix="use a table name, or mark it custom (narrator-approved): custom: true",
                )
            )
            continue
        if choice.how == "rolled" and (entry is None or choice.roll != entry.roll):
            problems.append(
                Problem(
                    rule=DISABLING,
                    found=f"{choice.name} marked rolled with roll {choice.roll}",
                    fix="a rolled characteristic is the table's entry for its d20 roll",
                )
            )
        if entry is not None and entry.forbids_skill:
            problems += _overconfident(sheet, index, entry.name, choice.skill)
    return problems
