"""Campaign progression: career milestones, arcs, and the tiered edition's tier advancement."""

from __future__ import annotations

from pathlib import Path

import pytest

from taletable.errors import InputError, RulesError
from taletable.store.sheets import load_character
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.progression import advance_core, advance_tiered
from taletable.systems.cogent.character.sheet import CoreCharacter

EXAMPLES = Path("examples/characters")


def ansel() -> CoreCharacter:
    sheet = load_character(EXAMPLES / "core_brother_ansel.yaml")
    assert isinstance(sheet, CoreCharacter)
    return sheet


def test_career_milestone_names_a_vocation_on_the_sheet() -> None:
    """002 > Adept Tier: after arc 1 a milestone lifts one vocation's cap; the name must match."""
    sheet = advance_core(ansel(), "arc")
    with pytest.raises(InputError, match="'Cook' is not a vocation on the sheet"):
        advance_core(sheet, "milestone", vocation="Cook")
    lifted = advance_core(sheet, "milestone", vocation="monk")
    assert lifted.progress.career_milestones == ("Monk",)
    assert lifted.history[-1].detail == "career milestone (Monk): vocation cap 4"
    with pytest.raises(RulesError, match="the milestone for Monk is done"):
        advance_core(lifted, "milestone", vocation="Monk")


def test_career_milestones_refused_when_the_campaign_does_not_use_them() -> None:
    """002 > Adept Tier: without career milestones the cap lifts at the arc end instead."""
    sheet = advance_core(ansel(), "arc").model_copy(update={"career_milestones_used": False})
    with pytest.raises(RulesError, match="does not use career milestones"):
        advance_core(sheet, "milestone", vocation="Monk")
    veteran = ansel().model_copy(update={"mode": "veteran"})
    with pytest.raises(RulesError, match="not veteran"):
        advance_core(veteran, "milestone")


def test_arc_awards_follow_the_tier() -> None:
    """Attribute points: Initiate and Adept at the end of arc 2, Veteran at the end of arc 1, and
    every tier at the start of the final arc (002 > Acts and Chapters)."""
    for mode, after_arcs in (("initiate", [0, 1, 1]), ("adept", [0, 1, 1]), ("veteran", [1, 1, 1])):
        sheet = ansel().model_copy(update={"mode": mode})
        awarded = []
        for _ in range(3):
            sheet = advance_core(sheet, "arc")
            awarded.append(sheet.progress.attribute_points_awarded)
        assert awarded == after_arcs, mode
        sheet = advance_core(sheet, "final-arc")
        assert sheet.progress.attribute_points_awarded == after_arcs[-1] + 1
        with pytest.raises(RulesError, match="already begun"):
            advance_core(sheet, "final-arc")


def test_first_taste_of_glory_is_initiate_only_and_once() -> None:
    """002 > Initiate Progression Guidelines: a skill point after the first session, once."""
    with pytest.raises(RulesError, match="Initiate rule"):
        advance_core(ansel(), "first-session")
    initiate = advance_core(ansel().model_copy(update={"mode": "initiate"}), "first-session")
    assert initiate.progress.skill_points_awarded == 1
    with pytest.raises(RulesError, match="already awarded"):
        advance_core(initiate, "first-session")


def test_a_new_tier_brings_the_next_row_of_resources() -> None:
    """001 > Tier Resources and Limits (increment row): +1 AP, +4 SP, +1 CP, the new maximums."""
    olga = load_character(EXAMPLES / "tiered_olga_the_protector.yaml")
    assert not isinstance(olga, CoreCharacter)
    before = validate(olga).budget
    held = olga.model_copy(update={"commerce": olga.commerce.model_copy(update={"points": 1})})
    raised = advance_tiered(held, "tier")
    after = validate(raised).budget
    assert (raised.tier, raised.destiny.maximum, raised.commerce.points) == (2, 3, 2)
    assert after.attribute_points == before.attribute_points + 1
    assert after.skill_points == before.skill_points + 4
    assert after.vocation_points == 1  # 0 + 0.5 + 0.5, whole values only
    assert raised.history[-1].detail == (
        "tier 2 (Adventurer): destiny 0 -> 1/3 (a new Story starts with 1)"
    )
    legend = raised.model_copy(update={"tier": 5})
    with pytest.raises(RulesError, match="tier 5 is the highest"):
        advance_tiered(legend, "tier")


def test_every_second_chapter_counts_within_the_arc() -> None:
    """002 > Acts and Chapters in Adept Campaigns: from the third arc, a skill point every second
    chapter of the arc (the 2nd, 4th, ...), whatever the earlier arcs' chapter counts."""
    sheet = ansel()
    for chapters in (7, 5):  # two arcs of odd length: 12 chapters before arc 3
        for _ in range(chapters):
            sheet = advance_core(sheet, "chapter")
        sheet = advance_core(sheet, "arc")
    assert sheet.progress.skill_points_awarded == 12
    awarded = []
    for _ in range(4):
        before = sheet.progress.skill_points_awarded
        sheet = advance_core(sheet, "chapter")
        awarded.append(sheet.progress.skill_points_awarded - before)
    assert awarded == [0, 1, 0, 1]
    assert sheet.history[-1].detail.startswith("chapter 16 (arc 3, chapter 4): +1 skill point")


def test_progression_reads_the_campaign_tiers_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The awards come from data/campaign_tiers.yaml (DESIGN > Principles 4): a house table that
    halves Adept skill points from the first arc gives one point in two chapters, not two."""
    from taletable.systems.cogent.character import progression
    from taletable.systems.cogent.character.tables import campaign_tiers

    table = campaign_tiers()
    adept = table.progression["adept"].model_copy(
        update={"skill_points_every_second_chapter_from_arc": 1}
    )
    house = table.model_copy(update={"progression": {**table.progression, "adept": adept}})
    assert (
        advance_core(advance_core(ansel(), "chapter"), "chapter").progress.skill_points_awarded == 2
    )
    monkeypatch.setattr(progression, "campaign_tiers", lambda: house)
    assert (
        advance_core(advance_core(ansel(), "chapter"), "chapter").progress.skill_points_awarded == 1
    )
