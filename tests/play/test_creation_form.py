"""The creation steps described once for both shells: each plain field's words, default,
bounds and choices come from the engine's tables and sheet models."""

from __future__ import annotations

from taletable.play.creation_form import creation_choices, step_fields
from taletable.systems.cogent.character.creation import IDENTITY_REQUIRED
from taletable.systems.cogent.character.tables import campaign_tiers, tier_resources


def test_identity_asks_the_name_the_concept_and_every_section_creation_requires() -> None:
    """002 and 000 > Character Identity: the prompts are the book's section names, in order;
    only the name is required to go on (the step's check asks for the rest)."""
    for edition in ("core", "tiered"):
        fields = step_fields(edition, "identity")
        sections = dict(IDENTITY_REQUIRED[edition])
        assert [f.name for f in fields][:2] == ["identity.name", "identity.concept"]
        assert {f.name.removeprefix("identity."): f.prompt for f in fields if f.name.removeprefix(
            "identity.") in sections} == sections  # fmt: skip
        assert [f.name for f in fields if f.required] == ["identity.name"]


def test_modes_tiers_attributes_and_commerce_come_from_the_tables_and_the_sheet() -> None:
    """The modes of 002 > Campaign Progression, the six tiers of 000 with their names, each
    attribute bounded as the sheet bounds it (-5..10), the narrator's commerce level 0..8."""
    mode = step_fields("core", "mode")[0]
    assert mode.choices == tuple(campaign_tiers().modes) and mode.default == "fast_play"
    tier = step_fields("tiered", "tier")[0]
    assert tier.choices == tuple(t.tier for t in tier_resources().tiers) == (0, 1, 2, 3, 4, 5)
    assert tier.titles[2].startswith("2: ") and tier.default == 2
    attributes = step_fields("tiered", "attributes")
    assert [(f.label, f.low, f.high) for f in attributes] == [
        (name, -5, 10) for name in ("STR", "RFL", "INT", "CHA")]  # fmt: skip
    level, adjustment = step_fields("core", "commerce")
    assert (level.default, level.low, level.high, adjustment.choices) == (3, 0, 8, (-1, 0, 1))
    assert step_fields("core", "skills") == []


def test_the_lists_include_the_sheets_own_skills() -> None:
    """Overconfident's "specific skill" may be a vocational skill of the sheet: it is offered
    with the core skills; combat skills are 002's weapon categories."""
    sheet = {"edition": "core", "vocations": [{"name": "Scout", "vocational_skills": [
        {"name": "Tracking", "attribute": "INT", "points": 1}]}]}  # fmt: skip
    choices = creation_choices(sheet)
    assert choices["skill_choices"][-1] == "Tracking" and "Stealth" in choices["skill_choices"]
    assert "Tracking" not in choices["skills"]
    assert choices["combat_skills"][0] == "Unarmed" and "Full Plate" in choices["armour"]
