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
from taletable.systems.cogent.character.tables import quirk_table, skill_table, tier_resources

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


def validate_tiered(sheet: TieredCharacter) -> Report:
    """Check a tiered sheet against its tier; list every problem."""
    tier = tier_resources().of(sheet.tier)
    problems: list[Problem] = []

    def problem(rule: str, found: str, fix: str, field: str) -> None:
        problems.append(Problem(rule=rule, found=found, fix=fix, field=field))

    for name, value in sheet.attributes.model_dump().items():
        if value < 0:
            problem(
                f"{CREATION} > Attributes", f"{name} is {value}", "assign 0 or more", "attributes"
            )
    table = skill_table("tiered")
    for name, points in sheet.skills.items():
        if table.canonical(name) is None:
            problem(
                f"{CREATION} > Skills",
                f"{name!r} is not a skill",
                "use one of " + ", ".join(skill.name for skill in table.skills),
                "skills",
            )
        if not 0 <= points <= tier.max_skill:
            problem(
                LIMITS,
                f"{name} has {points}",
                f"0 to {tier.max_skill} at tier {tier.tier}",
                "skills",
            )
    most = 1 + max(0, sheet.attributes.INT)
    if len(sheet.vocations) > most:
        problem(
            "001 > Character Creation > Vocations",
            f"{len(sheet.vocations)} vocations",
            f"at most 1 + INT = {most}",
            "vocations",
        )
    for vocation in sheet.vocations:
        if not 0 <= vocation.rank <= tier.max_vocation:
            problem(
                LIMITS,
                f"vocation {vocation.name} rank {vocation.rank}",
                f"0 to {tier.max_vocation} at tier {tier.tier}",
                "vocations",
            )
        for special in vocation.specialisations:
            if special.points < 0:
                problem(
                    f"{CREATION} > Skills",
                    f"{special.name} has {special.points}",
                    f"0 to {vocation.name}'s rank {vocation.rank}",
                    "vocations",
                )
            elif special.points > vocation.rank:
                problem(
                    f"{CREATION} > Skills",
                    f"{special.name} ({special.points}) above {vocation.name} ({vocation.rank})",
                    "no specialisation above its vocation",
                    "vocations",
                )
    quirks = quirk_table().tiered
    if len(sheet.commerce.quirks) > tier.quirks:
        problem(
            f"{CREATION} > Equipment",
            f"{len(sheet.commerce.quirks)} quirks",
            f"at most {tier.quirks} at tier {tier.tier}",
            "commerce",
        )
    for quirk in sheet.commerce.quirks:
        if quirks.find(quirk) is None:
            problem(
                f"{CREATION} > Equipment",
                f"{quirk!r} is not a quirk of wealth",
                "use a name from the Quirks of Wealth table",
                "commerce",
            )
    taken = [quirk.strip().lower() for quirk in sheet.commerce.quirks]
    if len(set(taken)) != len(taken):
        problem(
            f"{CREATION} > Equipment",
            "the same quirk twice",
            "each quirk is taken once",
            "commerce",
        )
    gained = sheet.commerce.gained
    most_commerce = tier.commerce_points + len(sheet.commerce.quirks) + gained
    if sheet.commerce.points is not None and sheet.commerce.points > most_commerce:
        problem(
            f"{CREATION} > Equipment",
            f"{sheet.commerce.points} commerce points",
            f"at most {most_commerce}: tier {tier.tier}'s {tier.commerce_points} "
            f"+ 1 per quirk of wealth + {gained} gained in play (recorded commerce awards)",
            "commerce",
        )
    if sheet.destiny.maximum != tier.destiny_max:
        problem(
            f"{CREATION} > Finishing Touches",
            f"destiny maximum {sheet.destiny.maximum}",
            f"tier {tier.tier}'s maximum is {tier.destiny_max}",
            "destiny",
        )
    if not destiny_awarded(sheet) and sheet.destiny.points > tier.destiny_start:
        problem(
            f"{CREATION} > Finishing Touches",
            f"{sheet.destiny.points} destiny points with no destiny award in the history",
            f"start with tier {tier.tier}'s {tier.destiny_start}; more come per chapter "
            "(a chapter advance, recorded in the history)",
            "destiny",
        )
    elif sheet.destiny.points > sheet.destiny.maximum:
        problem(
            f"{CREATION} > Finishing Touches",
            f"{sheet.destiny.points} destiny points",
            f"at most {sheet.destiny.maximum}",
            "destiny",
        )
    problems += tagged(disabling_problems(sheet), "disabling_characteristics")
    problems += tagged(equipment_problems(sheet), "equipment")
    problems += tagged(magic_problems(sheet), "magic")
    budget = tiered_budget(sheet)
    if budget.attribute_points_left < 0:
        problem(
            f"{CREATION} > Attributes",
            f"{-budget.attribute_points_left} attribute point(s) over",
            f"spend at most {budget.attribute_points}",
            "attribute_points",
        )
    if budget.skill_points_left < 0:
        problem(
            f"{CREATION} > Skills",
            f"{-budget.skill_points_left} skill point(s) over",
            f"spend at most {budget.skill_points} (vocation ranks beyond {tier.vocation_points} "
            "vocation points are paid with skill points)",
            "skill_points",
        )
    return Report(legal=not problems, problems=tuple(problems), budget=budget)
