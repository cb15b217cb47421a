"""Is a core-edition character legal? Every creation rule, every problem at once.

002 > Character Creation (Fast Play) and 002 > Narration > Campaign Progression (Initiate,
Adept, Veteran). Each problem names the rule (file > section), what was found and the fix; the
report also says what is left to spend (the builder view).
"""

from __future__ import annotations

from taletable.systems.cogent.character.budget import core_budget, creation_attributes
from taletable.systems.cogent.character.campaign_limits import campaign_problems, core_caps
from taletable.systems.cogent.character.commerce_validation import commerce_problems
from taletable.systems.cogent.character.disabling_validation import disabling_problems
from taletable.systems.cogent.character.equipment_validation import equipment_problems
from taletable.systems.cogent.character.report import (
    ATTRIBUTES,
    CAMPAIGN,
    COMBAT_SKILLS,
    CORE_SKILLS,
    DESTINY,
    VOCATIONS,
    Problem,
    Report,
    tagged,
)
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreCharacter,
    CoreVocation,
    VocationalSkill,
)
from taletable.systems.cogent.character.spells import MAX_SKILLS_PER_VOCATION, magic_problems
from taletable.systems.cogent.character.tables import (
    campaign_tiers,
    combat_skill_table,
    skill_table,
)

__all__ = ["Problem", "Report", "core_caps", "validate_core"]

MAX_ATTRIBUTE = 2


def _attributes(sheet: CoreCharacter, problems: list[Problem]) -> None:
    for name, value in sheet.attributes.model_dump().items():
        if value < 0:
            problems.append(
                Problem(
                    rule=ATTRIBUTES,
                    found=f"{name} is {value}",
                    fix="players may not choose a negative attribute; set it to 0 or more",
                )
            )
        if value > MAX_ATTRIBUTE and not sheet.superhuman_attributes:
            problems.append(
                Problem(
                    rule=ATTRIBUTES,
                    found=f"{name} is {value}",
                    fix=f"at most {MAX_ATTRIBUTE} without superhuman means; lower it, or set "
                    "superhuman_attributes if the narrator allows it",
                )
            )


def _attributes_from_awards(sheet: CoreCharacter, problems: list[Problem]) -> None:
    """Awarded attribute points spent (``progress.attributes_from_awards``) must have been
    awarded and be held; the rest must fit creation's points, since only creation's INT points
    give skill points (002 > Attributes; RULINGS.md "INT bought with an award")."""
    progress = sheet.progress
    bought = progress.attributes_from_awards
    if sum(bought.values()) > progress.attribute_points_awarded:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{sum(bought.values())} awarded attribute point(s) recorded as spent",
                fix=f"{progress.attribute_points_awarded} were awarded (`character advance`)",
            )
        )
    for name, points in bought.items():
        if points > getattr(sheet.attributes, name):
            problems.append(
                Problem(
                    rule=CAMPAIGN,
                    found=f"{name} is {getattr(sheet.attributes, name)} with {points} point(s) "
                    "bought with awards",
                    fix="record only the points the attribute holds",
                )
            )
    if not progress.attribute_points_awarded:
        return  # the budget's own check covers creation's points
    start = campaign_tiers().modes[sheet.mode].attribute_points
    at_creation = sum(max(0, value) for value in creation_attributes(sheet).values())
    if at_creation > start:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{at_creation} attribute points at creation",
                fix=f"{sheet.mode.replace('_', ' ')} starts with {start}; record a point bought "
                "with a later award as an attribute raise, recorded in the history (an INT point "
                "bought so gives no skill points)",
            )
        )


def _skills(sheet: CoreCharacter, core_cap: int, problems: list[Problem]) -> None:
    table = skill_table("core")
    negatives = [name for name, points in sheet.skills.items() if points < 0]
    for name, points in sheet.skills.items():
        if table.canonical(name) is None:
            known = ", ".join(skill.name for skill in table.skills)
            problems.append(
                Problem(
                    rule=CORE_SKILLS,
                    found=f"{name!r} is not a core skill",
                    fix=f"use one of {known}",
                    field=f"skills.{name}",
                )
            )
        if points > core_cap:
            problems.append(
                Problem(
                    rule=CORE_SKILLS if sheet.mode == "fast_play" else CAMPAIGN,
                    found=f"{name} has {points} points",
                    fix=f"at most {core_cap} in a core skill",
                    field=f"skills.{name}",
                )
            )
    if len(negatives) > 1 or any(sheet.skills[name] < -1 for name in negatives):
        problems.append(
            Problem(
                rule=CORE_SKILLS,
                found=f"negative skills: {', '.join(negatives)}",
                fix="one core skill may take a single negative point (-1), no more",
            )
        )


def _cap_rule(sheet: CoreCharacter, points: int) -> str:
    """Where a vocation cap comes from: a campaign tier's table (002 > Campaign Progression),
    or Fast Play's "up to four points" (002 > Vocations); a negative point is always the
    latter's "may NEVER be assigned a negative skill point"."""
    return CAMPAIGN if sheet.mode != "fast_play" and points > 0 else VOCATIONS


def _vocations(
    sheet: CoreCharacter, vocation_cap: int, overrides: dict[str, int], problems: list[Problem]
) -> None:
    if not sheet.vocations:
        problems.append(
            Problem(
                rule=VOCATIONS,
                found="no vocation",
                fix="selecting at least one vocation is mandatory (it gets a free point)",
            )
        )
    elif sheet.vocations[0].points < 1:
        problems.append(
            Problem(
                rule=VOCATIONS,
                found=f"{sheet.vocations[0].name} has no points",
                fix="the first vocation takes its free point: give it at least 1",
                field="vocations.0",
            )
        )
    for index, vocation in enumerate(sheet.vocations):
        cap = overrides.get(vocation.name.lower(), vocation_cap)
        problems += tagged(_vocation_problems(sheet, vocation, cap, index), f"vocations.{index}")


def _vocation_problems(
    sheet: CoreCharacter, vocation: CoreVocation, cap: int, index: int = 0
) -> list[Problem]:
    """One vocation (the ``index``-th): its points within the cap, at most four skills nested
    under it, none above it or the cap, and its combat skills weapon categories (002 >
    Vocations; Combat Skills); a nested skill's problem names its row's field."""
    problems = []
    nested: list[VocationalSkill | CombatSkill] = [
        *vocation.vocational_skills,
        *vocation.combat_skills,
    ]
    rows = [
        f"vocations.{index}.{kind}.{n}"
        for kind, held in (("vocational_skills", vocation.vocational_skills),
                           ("combat_skills", vocation.combat_skills))
        for n in range(len(held))
    ]  # fmt: skip
    if vocation.points > cap or vocation.points < 0:
        problems.append(
            Problem(
                rule=_cap_rule(sheet, vocation.points),
                found=f"vocation {vocation.name} has {vocation.points}",
                fix=f"0 to {cap} points",
            )
        )
    if len(nested) > MAX_SKILLS_PER_VOCATION:
        problems.append(
            Problem(
                rule=VOCATIONS,
                found=f"{len(nested)} skills under {vocation.name}",
                fix=f"at most {MAX_SKILLS_PER_VOCATION} skills under a vocation",
            )
        )
    for skill, row in zip(nested, rows, strict=True):
        if skill.points > vocation.points:
            problems.append(
                Problem(
                    rule=VOCATIONS,
                    found=f"{skill.name} ({skill.points}) is above its vocation {vocation.name} "
                    f"({vocation.points})",
                    fix="never more points in a vocational or combat skill than its vocation",
                    field=row,
                )
            )
        if skill.points > cap or skill.points < 0:
            problems.append(
                Problem(
                    rule=_cap_rule(sheet, skill.points),
                    found=f"{skill.name} has {skill.points}",
                    fix=f"0 to {cap} points",
                    field=row,
                )
            )
    categories = combat_skill_table()
    known = ", ".join(category.name for category in categories.categories)
    problems += [
        Problem(
            rule=COMBAT_SKILLS,
            found=f"{combat.name!r} is not a weapon category",
            fix=f"use one of {known} (beasts, monsters and magic may set free_form)",
            field=f"vocations.{index}.combat_skills.{n}",
        )
        for n, combat in enumerate(vocation.combat_skills)
        if combat.free_form is None and categories.canonical(combat.name) is None
    ]
    return problems


def _destiny(sheet: CoreCharacter, problems: list[Problem]) -> None:
    from taletable.systems.cogent.character.progression import core_destiny_maximum

    maximum = core_destiny_maximum(sheet)
    rule = f"{CAMPAIGN} > Veteran Tier (Glory Days)" if sheet.glory_days else DESTINY
    if sheet.destiny.maximum != maximum:
        problems.append(
            Problem(
                rule=rule,
                found=f"destiny maximum {sheet.destiny.maximum}",
                fix=f"the maximum here is {maximum}",
            )
        )
    if sheet.destiny.points > sheet.destiny.maximum:
        problems.append(
            Problem(
                rule=rule,
                found=f"{sheet.destiny.points} destiny points",
                fix=f"at most {sheet.destiny.maximum}",
            )
        )


def validate_core(sheet: CoreCharacter, *, cost_increase: int = 1) -> Report:
    """Check a core sheet against every creation rule of its mode; list every problem."""
    core_cap, vocation_cap, overrides = core_caps(sheet)
    attributes: list[Problem] = []
    _attributes(sheet, attributes)
    _attributes_from_awards(sheet, attributes)
    skills: list[Problem] = []
    _skills(sheet, core_cap, skills)
    vocations: list[Problem] = []
    _vocations(sheet, vocation_cap, overrides, vocations)
    destiny: list[Problem] = []
    _destiny(sheet, destiny)
    problems = [
        *tagged(attributes, "attributes"),
        *tagged(skills, "skills"),
        *tagged(vocations, "vocations"),
        *campaign_problems(sheet),
        *tagged(disabling_problems(sheet), "disabling_characteristics"),
        *tagged(commerce_problems(sheet), "commerce"),
        *tagged(destiny, "destiny"),
        *tagged(equipment_problems(sheet), "equipment"),
        *tagged(magic_problems(sheet), "magic"),
    ]
    budget = core_budget(sheet, cost_increase=cost_increase)
    campaign = sheet.mode != "fast_play"  # the tier's starting points replace Fast Play's
    if budget.attribute_points_left < 0:
        problems.append(
            Problem(
                rule=CAMPAIGN if campaign else ATTRIBUTES,
                found=f"{-budget.attribute_points_left} attribute point(s) over",
                fix=f"spend at most {budget.attribute_points}",
                field="attribute_points",
            )
        )
    if budget.skill_points_left < 0:
        problems.append(
            Problem(
                rule=CAMPAIGN if campaign else CORE_SKILLS,
                found=f"{-budget.skill_points_left} skill point(s) over",
                fix=f"spend at most {budget.skill_points}; points in a skill marked * cost more",
                field="skill_points",
            )
        )
    return Report(legal=not problems, problems=tuple(problems), budget=budget)
