"""Is a tiered-edition character legal? (000 > Character Creation; Tier Resources and Limits)

Attribute points, vocation points and skill points by tier (skill points may buy vocation
ranks); no vocation rank above the tier's maximum; no skill above the tier's maximum; no
specialisation above its vocation; at most 1 + INT vocations (001); commerce points from the
tier plus one per quirk, no more quirks than the tier allows; destiny by tier; weapons and
armour from the core tables (RULINGS.md "tiered combat").
"""

from __future__ import annotations

from taletable.systems.cogent.character.budget import tiered_budget
from taletable.systems.cogent.character.disabling_validation import disabling_problems
from taletable.systems.cogent.character.equipment_validation import equipment_problems
from taletable.systems.cogent.character.report import Problem, Report, tagged
from taletable.systems.cogent.character.sheet import TieredCharacter
from taletable.systems.cogent.character.spells import magic_problems
from taletable.systems.cogent.character.tables import (
    Tier,
    quirk_table,
    skill_table,
    tier_resources,
)

__all__ = ["DESTINY_AWARDS", "destiny_awarded", "validate_tiered"]

CREATION = "000 > Character Creation"
LIMITS = "000 > Tier Progression > Tier Resources and Limits"


#: History events that award destiny: a chapter's point, a new tier's (a new Story's) start,
#: the narrator's award (`character destiny --award`).
DESTINY_AWARDS = frozenset({"chapter", "tier", "destiny"})


def destiny_awarded(sheet: TieredCharacter) -> bool:
    """Has the sheet's history recorded a destiny award? Until then its destiny is creation's.

    000 > Finishing Touches: "use the table above to determine your starting Destiny Points
    (Starting Destiny), and gain 1 Destiny Point per Story Chapter". Other history lines (a
    purchase, commerce, an attribute) award no destiny (RULINGS.md "tiered starting destiny").
    """
    return any(award.event in DESTINY_AWARDS for award in sheet.history)


def _attribute_and_skill_problems(sheet: TieredCharacter, tier: Tier) -> list[Problem]:
    """No attribute below 0; only the edition's skills, each within the tier's maximum."""
    problems = [
        Problem(
            rule=f"{CREATION} > Attributes",
            found=f"{name} is {value}",
            fix="assign 0 or more",
            field="attributes",
        )
        for name, value in sheet.attributes.model_dump().items()
        if value < 0
    ]
    table = skill_table("tiered")
    for name, points in sheet.skills.items():
        if table.canonical(name) is None:
            known = ", ".join(skill.name for skill in table.skills)
            problems.append(
                Problem(
                    rule=f"{CREATION} > Skills",
                    found=f"{name!r} is not a skill",
                    fix=f"use one of {known}",
                    field=f"skills.{name}",
                )
            )
        if not 0 <= points <= tier.max_skill:
            problems.append(
                Problem(
                    rule=LIMITS,
                    found=f"{name} has {points}",
                    fix=f"0 to {tier.max_skill} at tier {tier.tier}",
                    field=f"skills.{name}",
                )
            )
    return problems


def _vocation_problems(sheet: TieredCharacter, tier: Tier) -> list[Problem]:
    """At most 1 + INT vocations (001), ranks within the tier, no specialisation above its
    vocation's rank."""
    problems = []
    most = 1 + max(0, sheet.attributes.INT)
    if len(sheet.vocations) > most:
        problems.append(
            Problem(
                rule="001 > Character Creation > Vocations",
                found=f"{len(sheet.vocations)} vocations",
                fix=f"at most 1 + INT = {most}",
                field="vocations",
            )
        )
    for index, vocation in enumerate(sheet.vocations):
        if not 0 <= vocation.rank <= tier.max_vocation:
            problems.append(
                Problem(
                    rule=LIMITS,
                    found=f"vocation {vocation.name} rank {vocation.rank}",
                    fix=f"0 to {tier.max_vocation} at tier {tier.tier}",
                    field=f"vocations.{index}",
                )
            )
        for row, special in enumerate(vocation.specialisations):
            if special.points < 0:
                found = f"{special.name} has {special.points}"
                fix = f"0 to {vocation.name}'s rank {vocation.rank}"
            elif special.points > vocation.rank:
                found = f"{special.name} ({special.points}) above {vocation.name} ({vocation.rank})"
                fix = "no specialisation above its vocation"
            else:
                continue
            where = f"vocations.{index}.specialisations.{row}"
            problems.append(Problem(rule=f"{CREATION} > Skills", found=found, fix=fix, field=where))
    return problems


def _commerce_problems(sheet: TieredCharacter, tier: Tier) -> list[Problem]:
    """No more quirks than the tier allows, each a quirk of wealth taken once; commerce points
    from the tier, plus one per quirk, plus what play has recorded."""
    rule, commerce = f"{CREATION} > Equipment", sheet.commerce
    found_fix = []
    if len(commerce.quirks) > tier.quirks:
        found_fix.append(
            (f"{len(commerce.quirks)} quirks", f"at most {tier.quirks} at tier {tier.tier}")
        )
    quirks = quirk_table().tiered
    found_fix += [
        (f"{quirk!r} is not a quirk of wealth", "use a name from the Quirks of Wealth table")
        for quirk in commerce.quirks
        if quirks.find(quirk) is None
    ]
    taken = [quirk.strip().lower() for quirk in commerce.quirks]
    if len(set(taken)) != len(taken):
        found_fix.append(("the same quirk twice", "each quirk is taken once"))
    most = tier.commerce_points + len(commerce.quirks) + commerce.gained
    if commerce.points is not None and commerce.points > most:
        found_fix.append(
            (
                f"{commerce.points} commerce points",
                f"at most {most}: tier {tier.tier}'s {tier.commerce_points} + 1 per "
                f"quirk of wealth + {commerce.gained} gained in play (recorded "
                "commerce awards)",
            )
        )
    return [Problem(rule=rule, found=found, fix=fix, field="commerce") for found, fix in found_fix]


def _destiny_problems(sheet: TieredCharacter, tier: Tier) -> list[Problem]:
    """The tier's destiny maximum; its starting destiny until play awards more."""
    destiny, found_fix = sheet.destiny, []
    if destiny.maximum != tier.destiny_max:
        found_fix.append(
            (
                f"destiny maximum {destiny.maximum}",
                f"tier {tier.tier}'s maximum is {tier.destiny_max}",
            )
        )
    if not destiny_awarded(sheet) and destiny.points > tier.destiny_start:
        found_fix.append(
            (
                f"{destiny.points} destiny points with no destiny award in the history",
                f"start with tier {tier.tier}'s {tier.destiny_start}; more "
                "come per chapter (a chapter advance, recorded in the history)",
            )
        )
    elif destiny.points > destiny.maximum:
        found_fix.append((f"{destiny.points} destiny points", f"at most {destiny.maximum}"))
    rule = f"{CREATION} > Finishing Touches"
    return [Problem(rule=rule, found=found, fix=fix, field="destiny") for found, fix in found_fix]


def validate_tiered(sheet: TieredCharacter) -> Report:
    """Check a tiered sheet against its tier; list every problem."""
    tier = tier_resources().of(sheet.tier)
    problems = [
        *_attribute_and_skill_problems(sheet, tier),
        *_vocation_problems(sheet, tier),
        *_commerce_problems(sheet, tier),
        *_destiny_problems(sheet, tier),
        *tagged(disabling_problems(sheet), "disabling_characteristics"),
        *tagged(equipment_problems(sheet), "equipment"),
        *tagged(magic_problems(sheet), "magic"),
    ]
    budget = tiered_budget(sheet)
    if budget.attribute_points_left < 0:
        problems.append(
            Problem(
                rule=f"{CREATION} > Attributes",
                found=f"{-budget.attribute_points_left} attribute point(s) over",
                fix=f"spend at most {budget.attribute_points}",
                field="attribute_points",
            )
        )
    if budget.skill_points_left < 0:
        problems.append(
            Problem(
                rule=f"{CREATION} > Skills",
                found=f"{-budget.skill_points_left} skill point(s) over",
                fix=f"spend at most {budget.skill_points} (vocation ranks beyond "
                f"{tier.vocation_points} vocation points are paid with skill "
                "points)",
                field="skill_points",
            )
        )
    return Report(legal=not problems, problems=tuple(problems), budget=budget)
