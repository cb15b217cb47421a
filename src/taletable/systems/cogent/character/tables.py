"""Character rules tables, loaded from ``data/*.yaml`` and validated (DESIGN > Principles 4)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taletable._model import Record, find_named
from taletable.library import load_package_table
from taletable.systems.cogent.rules import Edition

__all__ = [
    "ArcAward",
    "CampaignMode",
    "CampaignTiers",
    "CombatSkillTable",
    "CommerceScale",
    "Consequence",
    "DisablingTable",
    "Progression",
    "Quirk",
    "QuirkTable",
    "SkillTable",
    "TierResources",
    "campaign_tiers",
    "combat_skill_table",
    "commerce_scale",
    "disabling_table",
    "quirk_table",
    "skill_table",
    "tier_resources",
]

PACKAGE = "taletable.systems.cogent"


class Skill(Record):
    name: str
    attribute: str


class SkillTable(Record):
    """An edition's core skills and attributes."""

    source: str
    attributes: tuple[str, ...]
    skills: tuple[Skill, ...]

    def attribute_of(self, name: str) -> str | None:
        """The attribute of the core skill called ``name`` (any case), or None."""
        skill = find_named(self.skills, name)
        return skill.attribute if skill else None

    def canonical(self, name: str) -> str | None:
        """The core skill called ``name`` as the book spells it, or None."""
        skill = find_named(self.skills, name)
        return skill.name if skill else None


class CombatCategory(Record):
    name: str
    range: Literal["melee", "ranged"]
    examples: str


class CombatSkillTable(Record):
    """The combat skill categories (002 > Combat Skills), melee and ranged."""

    source: str
    categories: tuple[CombatCategory, ...]

    def canonical(self, name: str) -> str | None:
        """The category called ``name`` as the book spells it, or None."""
        category = find_named(self.categories, name)
        return category.name if category else None


class CostIncrease(Record):
    attribute: str | None = None
    skill: str | None = None


class Penalty(Record):
    attribute: str | None = None
    skill: str | None = None
    dice: int
    when: str = ""


class DisablingEntry(Record):
    roll: int = Field(ge=1, le=20)
    name: str
    cost_increase: CostIncrease | None = None
    penalty: Penalty | None = None
    forbids_skill: bool = False


class DisablingTable(Record):
    source: str
    chosen_bonus: int
    rolled_bonus: int
    bonus_limit: int
    entries: tuple[DisablingEntry, ...]

    def find(self, name: str) -> DisablingEntry | None:
        """The disabling characteristic called ``name`` (any case), or None."""
        return find_named(self.entries, name)

    def rolled(self, face: int) -> DisablingEntry:
        return next(entry for entry in self.entries if entry.roll == face)


class Consequence(Record):
    """What happens when a quirk's condition comes about: the commerce levels lost (None: the
    narrator says how many, as for a quirk whose specifics the narrator defines)."""

    event: str
    levels: int | None = Field(default=None, ge=1, le=8)


class Quirk(Record):
    name: str
    restriction: str
    roll: int | None = None
    narrator_defines: bool = False
    max_item_value_below_level: int | None = None
    #: Closed Trade/Unique Market: "You treat your CL as two points lower when outside this area."
    away_level_drop: int | None = Field(default=None, ge=1, le=8)
    #: Buying for someone else: refused (Scrooge), a loan (Loan Shark), a favour (Hidden Price).
    for_others: Literal["forbidden", "loan", "favour"] | None = None
    #: Family Ties: "spending that would decrease your CL must be approved by them".
    approval_to_spend: bool = False
    #: Debt: "Should you lose your income for a month, you immediately lose 2 Commerce Level".
    consequence: Consequence | None = None


class QuirkList(Record):
    source: str
    entries: tuple[Quirk, ...]

    def find(self, name: str) -> Quirk | None:
        """The quirk of wealth called ``name`` (any case), or None."""
        return find_named(self.entries, name)


class QuirkTable(Record):
    core: QuirkList
    tiered: QuirkList

    def of(self, edition: Edition) -> QuirkList:
        return self.core if edition == "core" else self.tiered


class CommerceLevel(Record):
    value: int
    wealth: str
    items: str


class CommerceScale(Record):
    source: str
    levels: tuple[CommerceLevel, ...]


class CampaignMode(Record):
    attribute_points: int
    skill_points: int
    max_vocations: int | None
    max_disabling: int | None
    max_core_skill: int
    max_vocation_skill: int


class ArcAward(Record):
    """What the end of an arc (or the start of the final arc) awards in a campaign tier."""

    max_core_skill: int | None = Field(default=None, ge=0, le=20)
    max_vocation_skill: int | None = Field(default=None, ge=0, le=20)
    max_vocation_skill_without_milestones: int | None = Field(default=None, ge=0, le=20)
    attribute_points: int = Field(default=0, ge=0, le=10)
    glory_days_maximum_destiny: int | None = Field(default=None, ge=0, le=50)


class Progression(Record):
    """002 > Campaign Progression > Acts and Chapters of one tier."""

    first_session_skill_point: bool = False
    skill_points_every_second_chapter_from_arc: int = Field(ge=1)
    career_milestone_after_arc: int | None = None
    career_milestone_vocation_cap: int = 4
    glory_days_maximum_destiny: int | None = None
    arcs: dict[int, ArcAward] = Field(default_factory=dict)
    final_arc: ArcAward = ArcAward()


class CampaignTiers(Record):
    source: str
    modes: dict[str, CampaignMode]
    progression: dict[str, Progression]


class Tier(Record):
    tier: int
    name: str
    attribute_points: int
    vocation_points: int
    skill_points: int
    max_vocation: int
    max_skill: int
    commerce_points: int
    quirks: int
    destiny_start: int
    destiny_max: int


class TierResources(Record):
    source: str
    tiers: tuple[Tier, ...]

    def of(self, tier: int) -> Tier:
        return next(row for row in self.tiers if row.tier == tier)


class _Skills(Record):
    core: SkillTable
    tiered: SkillTable


def _skills() -> _Skills:
    return load_package_table(PACKAGE, "data/skills.yaml", _Skills)


def skill_table(edition: Edition) -> SkillTable:
    """The core skills of ``edition`` (002 > Core Skills; 000 > Skills)."""
    return _skills().core if edition == "core" else _skills().tiered


def combat_skill_table() -> CombatSkillTable:
    """002 > Vocations > Combat Skills."""
    return load_package_table(PACKAGE, "data/combat_skills.yaml", CombatSkillTable)


def disabling_table() -> DisablingTable:
    """002 > Disabling Characteristics."""
    return load_package_table(PACKAGE, "data/disabling_characteristics.yaml", DisablingTable)


def quirk_table() -> QuirkTable:
    """Quirks of wealth of both editions."""
    return load_package_table(PACKAGE, "data/quirks_of_wealth.yaml", QuirkTable)


def commerce_scale() -> CommerceScale:
    """002 > Commerce Points: item values."""
    return load_package_table(PACKAGE, "data/commerce_scale.yaml", CommerceScale)


def campaign_tiers() -> CampaignTiers:
    """002 > Campaign Progression: creation limits of each core mode."""
    return load_package_table(PACKAGE, "data/campaign_tiers.yaml", CampaignTiers)


def tier_resources() -> TierResources:
    """000 > Tier Resources and Limits."""
    return load_package_table(PACKAGE, "data/tier_resources.yaml", TierResources)
