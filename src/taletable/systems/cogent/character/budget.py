"""What a character has to spend and what it has spent (the builder view).

core (002 > Character Creation): attribute points by mode; skill points by mode, +3 per INT
point of creation (not one bought later with an award), +1 per chosen and +2 per rolled
disabling characteristic (the first two only), +1 free point for the first vocation, the
commerce bonus points (only in untouched skills), and the skill points campaign progression
awarded. Points in a skill whose attribute (or the skill itself) a
disabling characteristic marks * cost more (RULINGS.md "cost increase"); a negative core skill
point gives one point back.
tiered (000 > Character Creation): attribute, vocation and skill points by tier; skill points
may pay for vocation ranks beyond the vocation points.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.systems.cogent.character.sheet import (
    CORE_ATTRIBUTES,
    CoreCharacter,
    TieredCharacter,
)
from taletable.systems.cogent.character.tables import (
    campaign_tiers,
    disabling_table,
    skill_table,
    tier_resources,
)

__all__ = [
    "Budget",
    "core_budget",
    "creation_attributes",
    "creation_intelligence",
    "marked_for_cost",
    "point_cost",
    "points_in",
    "tiered_budget",
]

#: +3 skill points per point of Intelligence (002 > Attributes).
SKILL_POINTS_PER_INT = 3


class Budget(Record):
    """Points available, spent and left, with where they came from."""

    attribute_points: int
    attribute_points_spent: int
    attribute_points_left: int
    skill_points: int
    skill_points_spent: int
    skill_points_left: int
    vocation_points: int = 0
    vocation_points_spent: int = 0
    sources: tuple[str, ...] = ()


def marked_for_cost(sheet: CoreCharacter | TieredCharacter) -> tuple[set[str], set[str]]:
    """Attributes and skills whose points cost more, from the sheet's disabling characteristics."""
    attributes: set[str] = set()
    skills: set[str] = set()
    table = disabling_table()
    for choice in sheet.disabling_characteristics:
        entry = table.find(choice.name)
        if entry is not None and entry.cost_increase is not None:
            if entry.cost_increase.attribute:
                attributes.add(entry.cost_increase.attribute)
            if entry.cost_increase.skill:
                skills.add(entry.cost_increase.skill.lower())
    return attributes, skills


def point_cost(
    name: str, attribute: str | None, marked: tuple[set[str], set[str]], cost_increase: int
) -> int:
    """Skill points one point of ``name`` costs (1, or more when marked *)."""
    attributes, skills = marked
    if (attribute is not None and attribute in attributes) or name.lower() in skills:
        return 1 + cost_increase
    return 1


def points_in(sheet: CoreCharacter, name: str) -> int:
    """Points in a core skill, vocation, vocational or combat skill of ``name`` (0 if none)."""
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


def creation_attributes(sheet: CoreCharacter) -> dict[str, int]:
    """Each attribute as it was at creation: its value less the awarded points spent on it."""
    bought = sheet.progress.attributes_from_awards
    return {name: getattr(sheet.attributes, name) - bought.get(name, 0) for name in CORE_ATTRIBUTES}


def creation_intelligence(sheet: CoreCharacter) -> int:
    """INT points that give skill points: those of creation, not those bought with a later award.

    002 > Attributes: "For each point in INT, you receive +3 Skill Points during character
    creation" (RULINGS.md "INT bought with an award").
    """
    return max(0, creation_attributes(sheet)["INT"])


def _disabling_bonus(sheet: CoreCharacter) -> int:
    table = disabling_table()
    bonuses = [
        table.rolled_bonus if choice.how == "rolled" else table.chosen_bonus
        for choice in sheet.disabling_characteristics
    ]
    return sum(bonuses[: table.bonus_limit])


def _spell_points(
    sheet: CoreCharacter, marked: tuple[set[str], set[str]], cost_increase: int
) -> int:
    """Skill points the magic section's spells cost: each is a proficiency bought point by
    point (002 > Example Magic Systems), at its vocation's attribute's cost (RULINGS.md)."""
    if sheet.magic is None:
        return 0
    wanted = (sheet.magic.vocation or "").strip().lower()
    attribute = next((v.attribute for v in sheet.vocations if v.name.lower() == wanted), None)
    return sum(
        max(0, spell.points) * point_cost(spell.name, attribute, marked, cost_increase)
        for spell in sheet.magic.spells
    )


def core_budget(sheet: CoreCharacter, *, cost_increase: int = 1) -> Budget:
    """The builder view of a core sheet (002 > Character Creation; Campaign Progression)."""
    mode = campaign_tiers().modes[sheet.mode]
    attribute_points = mode.attribute_points + sheet.progress.attribute_points_awarded
    attribute_spent = sum(max(0, value) for value in sheet.attributes.model_dump().values())
    marked = marked_for_cost(sheet)
    table = skill_table("core")
    bonus_skills = {name.lower() for name in sheet.commerce.bonus_skills}
    commerce_bonus = len(bonus_skills)
    disabling = _disabling_bonus(sheet)
    intelligence = creation_intelligence(sheet) * SKILL_POINTS_PER_INT
    free_vocation = 1 if sheet.vocations else 0
    skill_points = (
        mode.skill_points
        + intelligence
        + disabling
        + sheet.progress.skill_points_awarded
        + free_vocation
        + commerce_bonus
    )
    spent = 0
    for name, points in sheet.skills.items():
        cost = point_cost(name, table.attribute_of(name), marked, cost_increase)
        spent += points * cost if points > 0 else points
    for index, vocation in enumerate(sheet.vocations):
        cost = point_cost(vocation.name, vocation.attribute, marked, cost_increase)
        spent += vocation.points * cost
        if index == 0 and vocation.points > 0:
            spent -= cost - 1  # the free point pays for one point whatever it costs
        for skill in vocation.vocational_skills:
            spent += skill.points * point_cost(skill.name, skill.attribute, marked, cost_increase)
        spent += sum(max(0, combat.points) for combat in vocation.combat_skills)
    spent += _spell_points(sheet, marked, cost_increase)
    sources = [
        f"{mode.skill_points} for {sheet.mode.replace('_', ' ')}",
        f"{intelligence} from INT",
        f"{disabling} from disabling characteristics",
        f"{free_vocation} free for the first vocation",
        f"{commerce_bonus} from commerce (untouched skills only)",
        f"{sheet.progress.skill_points_awarded} awarded in the campaign",
    ]
    return Budget(
        attribute_points=attribute_points,
        attribute_points_spent=attribute_spent,
        attribute_points_left=attribute_points - attribute_spent,
        skill_points=skill_points,
        skill_points_spent=spent,
        skill_points_left=skill_points - spent,
        sources=tuple(sources),
    )


def tiered_budget(sheet: TieredCharacter) -> Budget:
    """The builder view of a tiered sheet (000 > Tier Resources and Limits)."""
    tier = tier_resources().of(sheet.tier)
    attribute_spent = sum(max(0, value) for value in sheet.attributes.model_dump().values())
    ranks = sum(vocation.rank for vocation in sheet.vocations)
    specialisations = sum(
        max(0, special.points)
        for vocation in sheet.vocations
        for special in vocation.specialisations
    )
    skill_spent = sum(max(0, points) for points in sheet.skills.values()) + specialisations
    skill_spent += max(0, ranks - tier.vocation_points)
    skill_points = tier.skill_points + sheet.skill_points_awarded
    return Budget(
        attribute_points=tier.attribute_points,
        attribute_points_spent=attribute_spent,
        attribute_points_left=tier.attribute_points - attribute_spent,
        skill_points=skill_points,
        skill_points_spent=skill_spent,
        skill_points_left=skill_points - skill_spent,
        vocation_points=tier.vocation_points,
        vocation_points_spent=min(ranks, tier.vocation_points),
        sources=(
            f"tier {tier.tier} ({tier.name})",
            "skill points pay for ranks beyond the vocation points",
        ),
    )
