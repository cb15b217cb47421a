"""The example magic system's printed numbers (002 > Supplementary Content) and Erin the Mage
(000), as tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.explain import render_all
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.magic import (
    cast_hard_spell,
    movement_challenge_level,
    read_mind,
    summon,
)
from taletable.systems.cogent.pools import pool_of


def test_pyromancy_matching_the_cl_keeps_the_elemental_three_rounds() -> None:
    """Sorcery: "Matching the CL = three rounds"; a CL 5 True Elemental with an 8D6 roll."""
    result = summon("Pyromancy", 5, pool_of(6), GivenFaces([4, 4, 4, 4, 4, 1]))
    assert (result.creature.name, result.creature.combat_pool) == ("True Elemental", 8)
    assert result.duration == "three rounds"


def test_sorcery_five_over_stays_until_dismissed() -> None:
    """Sorcery: "+5 over the CL = Will stay with the Sorcerer until dismissed"."""
    result = summon("Hydromancy", 1, pool_of(6), GivenFaces([6] * 6))
    assert result.duration == "until dismissed"


def test_terramancy_matching_the_cl_is_one_round_and_six_over_until_dismissed() -> None:
    """Terramancy and Naturmancy: matching = one round, +5 = a day, +6 = until dismissed."""
    assert summon("Terramancy", 2, pool_of(2), GivenFaces([5, 5])).duration == "one round"
    assert summon("Naturmancy", 1, pool_of(6), GivenFaces([6] * 6)).duration == "a day"
    assert summon("Naturmancy", 1, pool_of(7), GivenFaces([6] * 7)).duration == "until dismissed"


def test_rolling_under_the_cl_the_elemental_attacks_the_sorcerer() -> None:
    """Under the CL by 1: the elemental attacks and stays as +1 over would keep it (ten rounds)."""
    result = summon("Aeromancy", 3, pool_of(3), GivenFaces([6, 6, 1]))
    assert result.hostile and result.duration == "ten rounds"


def test_other_teleportation_farthest_distance_and_unseen() -> None:
    """Other teleportation 50-100 m of a human-sized thing: CL 12; to an unseen place 24."""
    assert movement_challenge_level("Other teleportation", 75, "human").challenge_level == 12
    level = movement_challenge_level("Other teleportation", 75, "human", unseen=True)
    assert level.challenge_level == 24


def test_telepathy_each_die_beyond_four_is_another_injury_level() -> None:
    """Exceeding a resisting roll by 6: read, probe, and 3 injury levels."""
    result = read_mind(pool_of(7), GivenFaces([6] * 7 + [4, 1, 1]), resist_pool=pool_of(3))
    assert (result.exceeded_by, result.read, result.probe, result.injury_levels) == (
        6,
        True,
        True,
        3,
    )


def test_strength_of_wood_gives_two_armour_points_and_does_not_stack() -> None:
    """002 > Metahuman Powers > Strength of Wood: CL 4, 2 points in Druidic Plantcraft, touching
    a tree of twenty years or more; on success "You immediately gain 2 armour points. This spell
    does not stack with itself."; a failure gives none."""
    passed = cast_hard_spell(
        "Strength of Wood", pool_of(5), GivenFaces([4, 4, 4, 4, 1]), skill_points=2,
        have=["old-tree"],
    )  # fmt: skip
    assert (passed.challenge_level, passed.passed, passed.armour_gained) == (4, True, 2)
    assert "Strength of Wood does not stack with itself" in render_all(passed.rules_applied)
    failed = cast_hard_spell(
        "Strength of Wood", pool_of(5), GivenFaces([4, 4, 4, 1, 1]), skill_points=2,
        have=["old-tree"],
    )  # fmt: skip
    assert (failed.passed, failed.armour_gained) == (False, None)
    source = GivenFaces([4, 4, 4, 4, 1])
    with pytest.raises(RulesError, match="requires 2 skill points in the Druidic Plantcraft"):
        cast_hard_spell("Strength of Wood", pool_of(5), source, skill_points=1, have=["old-tree"])
    assert source.used == 0


def test_grass_shackle_gives_no_armour() -> None:
    """Grass-shackle (CL 4) binds its target and gives the caster no armour."""
    cast = cast_hard_spell(
        "Grass-shackle", pool_of(4), GivenFaces([4, 4, 4, 4]), skill_points=2,
        have=["moonlit-grass"],
    )  # fmt: skip
    assert cast.passed and cast.armour_gained is None


def test_erin_the_mage_casts_her_fireball_from_her_sheet() -> None:
    """000 > Narrative Success or Failure: "Erin the Mage wants to strategically cast a fireball
    into a group of goblins ... a Sorcery Specialisation check"; with Advantage at CL 3 she rolls
    "1, 3, 3, 4, 4, and 5. This generates 5 successes or a Narrative Success of +2". Cast as the
    example system's Pyromancy from her sheet, whose school is her Sorcery specialisation: the
    listed parts, 6D6 (RULINGS.md "Erin's pool"; "spells on the sheet")."""
    store = MemoryStore()
    sheet = yaml.safe_load(Path("examples/characters/tiered_erin_the_mage.yaml").read_text())
    store.save("character", "erin", sheet, version=None)
    played = perform(
        "cogent.cast",
        {"spell": "Pyromancy", "character": "erin", "cl": 3, "advantage": True,
         "faces": "1,3,3,4,4,5"},
        Table(store=store),
    )  # fmt: skip
    result = played.result
    assert [(c.source, c.dice) for c in result.check.breakdown] == [
        ("base", 3), ("INT", 1), ("Mage rank", 1), ("Sorcery", 1)]  # fmt: skip
    assert (result.check.pool, result.check.win_on, result.check.wins) == (6, 3, 5)
    assert (result.check.margin, result.miscast) == (2, False)
    assert result.check.outcome == "narrative success of +2"
    assert result.schools == ("Sorcery",)
