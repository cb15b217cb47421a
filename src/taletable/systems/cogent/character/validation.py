"""Is a core-edition character legal? Every creation rule, every problem at once.

002 > Character Creation (Fast Play) and 002 > Narration > Campaign Progression (Initiate,
Adept, Veteran). Each problem names the rule (file > section), what was found and the fix; the
report also says what is left to spend (the builder view).
"""

from __future__ import annotations

from taletable._model import Record
from taletable.errors import InputError
from taletable.systems.cogent.character.budget import Budget, core_budget
from taletable.systems.cogent.character.sheet import CombatSkill, CoreCharacter, VocationalSkill
from taletable.systems.cogent.character.tables import (
    campaign_tiers,
    combat_skill_table,
    disabling_table,
    quirk_table,
    skill_table,
)
from taletable.systems.cogent.equipment import armour_level, weapon_group

__all__ = ["Problem", "Report", "core_caps", "validate_core"]

CREATION = "002 > Character Creation"
ATTRIBUTES = f"{CREATION} > Attributes"
CORE_SKILLS = f"{CREATION} > Core Skills"
VOCATIONS = f"{CREATION} > Vocations"
COMBAT_SKILLS = f"{VOCATIONS} > Combat Skills"
DISABLING = f"{CREATION} > Disabling Characteristics"
COMMERCE = f"{CREATION} > Commerce Points > Assigning Commerce Points"
DESTINY = f"{CREATION} > Destiny Points"
CAMPAIGN = "002 > Narration > Campaign Progression"
MAX_ATTRIBUTE = 2
MAX_SKILLS_PER_VOCATION = 4


class Problem(Record):
    """One broken rule: where it is in the rulebook, what was found, how to fix it."""

    rule: str
    found: str
    fix: str

    def __str__(self) -> str:
        return f"{self.found} ({self.rule}); {self.fix}"


class Report(Record):
    """Every problem of a sheet, and what is left to spend."""

    legal: bool
    problems: tuple[Problem, ...]
    budget: Budget


def core_caps(sheet: CoreCharacter) -> tuple[int, int, dict[str, int]]:
    """Max points in a core skill, in a vocation (or its skills), and per-vocation overrides.

    Fast Play caps every skill at 4; campaign tiers start lower and lift at the arc ends and
    career milestones of 002 > Campaign Progression.
    """
    mode = campaign_tiers().modes[sheet.mode]
    core_cap, vocation_cap = mode.max_core_skill, mode.max_vocation_skill
    arcs = sheet.progress.arcs_completed
    if sheet.mode == "initiate":
        core_cap = 4 if arcs >= 2 else 3 if arcs >= 1 else 2
        vocation_cap = 3 if arcs >= 1 else 2
        if arcs >= 2 and not sheet.career_milestones_used:
            vocation_cap = 4
    elif sheet.mode == "adept":
        core_cap = 4 if arcs >= 1 else 3
        if arcs >= 1 and not sheet.career_milestones_used:
            vocation_cap = 4
    overrides = {name: 4 for name in sheet.progress.career_milestones}
    if "*" in sheet.progress.career_milestones:
        vocation_cap = 4
    return core_cap, vocation_cap, overrides


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
                )
            )
        if points > core_cap:
            problems.append(
                Problem(
                    rule=CORE_SKILLS if sheet.mode == "fast_play" else CAMPAIGN,
                    found=f"{name} has {points} points",
                    fix=f"at most {core_cap} in a core skill",
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


def _vocations(
    sheet: CoreCharacter, vocation_cap: int, overrides: dict[str, int], problems: list[Problem]
) -> None:
    mode = campaign_tiers().modes[sheet.mode]
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
            )
        )
    if mode.max_vocations is not None and len(sheet.vocations) > mode.max_vocations:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{len(sheet.vocations)} vocations",
                fix=f"at most {mode.max_vocations} at creation in {sheet.mode}",
            )
        )
    categories = combat_skill_table()
    for vocation in sheet.vocations:
        cap = overrides.get(vocation.name, vocation_cap)
        nested: list[VocationalSkill | CombatSkill] = [
            *vocation.vocational_skills,
            *vocation.combat_skills,
        ]
        if vocation.points > cap or vocation.points < 0:
            problems.append(
                Problem(
                    rule=VOCATIONS,
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
        for skill in nested:
            if skill.points > vocation.points:
                problems.append(
                    Problem(
                        rule=VOCATIONS,
                        found=f"{skill.name} ({skill.points}) is above its vocation "
                        f"{vocation.name} ({vocation.points})",
                        fix="never more points in a vocational or combat skill than its vocation",
                    )
                )
            if skill.points > cap or skill.points < 0:
                problems.append(
                    Problem(
                        rule=VOCATIONS,
                        found=f"{skill.name} has {skill.points}",
                        fix=f"0 to {cap} points",
                    )
                )
        for combat in vocation.combat_skills:
            if combat.free_form is None and categories.canonical(combat.name) is None:
                known = ", ".join(category.name for category in categories.categories)
                problems.append(
                    Problem(
                        rule=COMBAT_SKILLS,
                        found=f"{combat.name!r} is not a weapon category",
                        fix=f"use one of {known} (beasts, monsters and magic may set free_form)",
                    )
                )


def _disabling(sheet: CoreCharacter, problems: list[Problem]) -> None:
    mode = campaign_tiers().modes[sheet.mode]
    table = disabling_table()
    if mode.max_disabling is not None and len(sheet.disabling_characteristics) > mode.max_disabling:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{len(sheet.disabling_characteristics)} disabling characteristics",
                fix=f"at most {mode.max_disabling} at creation in {sheet.mode}",
            )
        )
    for choice in sheet.disabling_characteristics:
        entry = table.find(choice.name)
        if entry is None and not choice.custom:
            problems.append(
                Problem(
                    rule=DISABLING,
                    found=f"{choice.name!r} is not on the table",
                    fix="use a table name, or mark it custom (narrator-approved)",
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
            if not choice.skill:
                problems.append(
                    Problem(
                        rule=DISABLING,
                        found=f"{entry.name} names no skill",
                        fix="name the applicable skill",
                    )
                )
            elif _points_in(sheet, choice.skill) > 0:
                problems.append(
                    Problem(
                        rule=DISABLING,
                        found=f"{entry.name}: points in {choice.skill}",
                        fix="an Overconfident character spends no points on that skill at creation",
                    )
                )


def _points_in(sheet: CoreCharacter, name: str) -> int:
    lowered = name.strip().lower()
    for core_name, points in sheet.skills.items():
        if core_name.lower() == lowered:
            return points
    for vocation in sheet.vocations:
        if vocation.name.lower() == lowered:
            return vocation.points
        for vocational in vocation.vocational_skills:
            if vocational.name.lower() == lowered:
                return vocational.points
        for combat in vocation.combat_skills:
            if combat.name.lower() == lowered:
                return combat.points
    return 0


def _commerce(sheet: CoreCharacter, problems: list[Problem]) -> None:
    commerce = sheet.commerce
    if commerce.assigned not in (2, 3, 4):
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"assigned commerce level {commerce.assigned}",
                fix="the narrator assigns a commerce level of 2, 3 or 4",
            )
        )
    quirks_needed = (commerce.assigned == 4) + (commerce.adjustment == 1)
    if len(commerce.quirks) != quirks_needed:
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"{len(commerce.quirks)} quirks of wealth",
                fix=f"take {quirks_needed}: one at level 4, one more for stepping up",
            )
        )
    table = quirk_table().core
    for quirk in commerce.quirks:
        if table.find(quirk) is None:
            problems.append(
                Problem(
                    rule=COMMERCE,
                    found=f"{quirk!r} is not a quirk of wealth",
                    fix="use a name from the Quirks of Wealth table",
                )
            )
    if len({quirk.lower() for quirk in commerce.quirks}) != len(commerce.quirks):
        problems.append(
            Problem(rule=COMMERCE, found="the same quirk twice", fix="reroll duplicates")
        )
    bonus_needed = (commerce.assigned == 2) + (commerce.adjustment == -1)
    if len(commerce.bonus_skills) != bonus_needed:
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"{len(commerce.bonus_skills)} commerce bonus skill(s)",
                fix=f"name {bonus_needed}: one at level 2, one more for stepping down",
            )
        )
    for name in commerce.bonus_skills:
        if _points_in(sheet, name) != 1:
            problems.append(
                Problem(
                    rule=COMMERCE,
                    found=f"commerce bonus point in {name} ({_points_in(sheet, name)} points)",
                    fix="the bonus point goes in a skill with no other points: it has exactly 1",
                )
            )


def _destiny(sheet: CoreCharacter, problems: list[Problem]) -> None:
    from taletable.systems.cogent.character.progression import core_destiny_maximum

    maximum = core_destiny_maximum(sheet)
    if sheet.destiny.maximum != maximum:
        problems.append(
            Problem(
                rule=DESTINY,
                found=f"destiny maximum {sheet.destiny.maximum}",
                fix=f"the maximum here is {maximum}",
            )
        )
    if sheet.destiny.points > sheet.destiny.maximum:
        problems.append(
            Problem(
                rule=DESTINY,
                found=f"{sheet.destiny.points} destiny points",
                fix=f"at most {sheet.destiny.maximum}",
            )
        )


def _equipment(sheet: CoreCharacter, problems: list[Problem]) -> None:
    for weapon in sheet.equipment.weapons:
        try:
            weapon_group(weapon.group)
        except InputError as error:
            problems.append(
                Problem(
                    rule="002 > Combat > Weapon Modifiers",
                    found=str(error),
                    fix="use a weapon group from the table",
                )
            )
    try:
        armour_level(sheet.equipment.armour)
    except InputError as error:
        problems.append(
            Problem(
                rule="002 > Combat > Armour",
                found=str(error),
                fix="use armour pieces from the table, one shield at most",
            )
        )


def validate_core(sheet: CoreCharacter, *, cost_increase: int = 1) -> Report:
    """Check a core sheet against every creation rule of its mode; list every problem."""
    problems: list[Problem] = []
    core_cap, vocation_cap, overrides = core_caps(sheet)
    _attributes(sheet, problems)
    _skills(sheet, core_cap, problems)
    _vocations(sheet, vocation_cap, overrides, problems)
    _disabling(sheet, problems)
    _commerce(sheet, problems)
    _destiny(sheet, problems)
    _equipment(sheet, problems)
    budget = core_budget(sheet, cost_increase=cost_increase)
    if budget.attribute_points_left < 0:
        problems.append(
            Problem(
                rule=ATTRIBUTES,
                found=f"{-budget.attribute_points_left} attribute point(s) over",
                fix=f"spend at most {budget.attribute_points}",
            )
        )
    if budget.skill_points_left < 0:
        problems.append(
            Problem(
                rule=CORE_SKILLS,
                found=f"{-budget.skill_points_left} skill point(s) over",
                fix=f"spend at most {budget.skill_points}; points in a skill marked * cost more",
            )
        )
    return Report(legal=not problems, problems=tuple(problems), budget=budget)
