"""The example magic system: data, casting, summoning, movement CLs, minds and hard spells."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.explain import render_all
from taletable.systems.cogent.magic import (
    MagicRules,
    cast_hard_spell,
    cast_spell,
    check_spell_choices,
    counter_spell,
    difficulty_challenge_level,
    flight_challenge_level,
    hold_still,
    magic_system,
    movement_challenge_level,
    read_mind,
    spell_pool,
    summon,
    summon_duration,
    summoned_creature,
    telepathy_outcome,
)
from taletable.systems.cogent.pools import pool_of


def test_schools_and_spells_load() -> None:
    """Six schools; sorcery's four elemental spells; every school's spell is defined."""
    system = magic_system()
    assert [s.name for s in system.schools] == [
        "Sorcery", "Wizardry", "Witchcraft", "Druidism", "Necromancy", "Holy miracles",
    ]  # fmt: skip
    assert system.school("sorcery").spells == ("Pyromancy", "Hydromancy", "Aeromancy", "Terramancy")
    assert system.schools_of("Necromancy") == ("Necromancy",)


def test_spell_points_up_to_two() -> None:
    """A spell takes 0 to 2 points; the pool is base 3 + attribute + points."""
    assert spell_pool(2, attribute_points=1).size == 6
    with pytest.raises(RulesError, match="up to 2 skill points"):
        spell_pool(3)


def test_one_school_only() -> None:
    """A sorcerer cannot know Telepathy unless the narrator mixes schools."""
    check_spell_choices("Sorcery", ["pyromancy", "Aeromancy"])
    with pytest.raises(RulesError, match="not a Sorcery spell"):
        check_spell_choices("Sorcery", ["Telepathy"])
    check_spell_choices("Sorcery", ["Telepathy"], mixed=True)


def test_cast_passes_or_miscasts_by_the_shortfall() -> None:
    """CL 3: 3 wins cast as wished; 1 win is a miscast of 2 (the spell is still cast)."""
    cast = cast_spell("Hydromancy", pool_of(5), 3, GivenFaces([4, 5, 6, 1, 1]))
    assert (cast.miscast, cast.miscast_level, cast.check.margin) == (False, 0, 0)
    miscast = cast_spell("Hydromancy", pool_of(5), 3, GivenFaces([4, 1, 1, 2, 3]))
    assert (miscast.miscast, miscast.miscast_level) == (True, 2)
    assert "miscast by 2" in miscast.outcome


def test_summoning_table() -> None:
    """CL 1-8: little sprite 3D6 ... lesser elemental 7D6 ... elder elemental 11D6."""
    pools = [summoned_creature(cl).combat_pool for cl in range(1, 9)]
    assert pools == [3, 4, 5, 7, 8, 9, 10, 11]
    assert summoned_creature(4).name == "Lesser Elemental"
    with pytest.raises(RulesError, match="no CL 9"):
        summoned_creature(9)


SORCERY = ["three rounds", "ten rounds", "one hour", "six hours", "a day", "until dismissed"]
SLOW = ["one round", "three rounds", "ten rounds", "one hour", "six hours", "a day",
        "until dismissed"]  # fmt: skip


def test_duration_schedules() -> None:
    """The two schedules of the book, step by step, and past their ends."""
    assert [summon_duration("sorcery", m) for m in range(6)] == SORCERY
    assert [summon_duration("slow", m) for m in range(7)] == SLOW
    assert summon_duration("sorcery", 9) == "until dismissed"


@pytest.mark.parametrize(
    ("spell", "wins", "duration"),
    [("Pyromancy", 2, "three rounds"), ("Hydromancy", 3, "ten rounds"),
     ("Aeromancy", 4, "one hour"), ("Pyromancy", 7, "until dismissed"),
     ("Terramancy", 2, "one round"), ("Terramancy", 3, "three rounds"),
     ("Naturmancy", 7, "a day"), ("Naturmancy", 8, "until dismissed")],
)  # fmt: skip
def test_summon_durations_by_margin(spell: str, wins: int, duration: str) -> None:
    """A CL 2 summoning that wins ``wins`` stays for the book's duration."""
    faces = [6] * wins + [1] * (8 - wins)
    result = summon(spell, 2, pool_of(8), GivenFaces(faces))
    assert result.bound and not result.hostile
    assert result.creature.name == "Sprite" and result.creature.combat_pool == 4
    assert result.duration == duration


def test_failed_summoning_turns_on_the_caster() -> None:
    """CL 4 with 2 wins: 2 losses; the elemental attacks and stays as +2 would keep it."""
    result = summon("pyromancy", 4, pool_of(6), GivenFaces([6, 6, 1, 1, 1, 1]))
    assert result.hostile and not result.bound
    assert (result.duration_step, result.duration) == (2, "one hour")
    mirrored = summon(
        "fire", 4, pool_of(6), GivenFaces([6, 6, 1, 1, 1, 1]),
        magic_rules=MagicRules(failure_duration="mirrored"),
    )  # fmt: skip
    assert (mirrored.duration_step, mirrored.duration) == (1, "ten rounds")


def test_elemental_damage_rules() -> None:
    """Fire is immune to fire, doubly hurt by water; forest elementals take regular attacks."""
    fire = summon("pyromancy", 1, pool_of(3), GivenFaces([6, 1, 1]))
    assert (fire.immune_to, fire.double_damage_from, fire.harmed_by_regular_attacks) == (
        "fire", "water", False,
    )  # fmt: skip
    assert any("strike multiple opponents" in rule for rule in render_all(fire.rules_applied))
    forest = summon("naturmancy", 1, pool_of(3), GivenFaces([6, 1, 1]))
    assert (forest.double_damage_from, forest.harmed_by_regular_attacks) == ("fire", True)
    with pytest.raises(InputError, match="cannot summon"):
        summon("telepathy", 1, pool_of(3), GivenFaces([6, 1, 1]))


@pytest.mark.parametrize(("speed", "cl"), [(10, 2), (25, 2), (26, 4), (100, 4), (500, 6)])
def test_flight(speed: int, cl: int) -> None:
    """Sprinting CL 2, up to 100 km/h CL 4, up to 500 km/h CL 6."""
    assert flight_challenge_level(speed).challenge_level == cl


def test_flight_past_the_table() -> None:
    """Faster than 500 km/h is past the book's table."""
    with pytest.raises(RulesError, match="500"):
        flight_challenge_level(800)


@pytest.mark.parametrize(
    ("spell", "distance", "size", "cl"),
    [("Levitation", 5, "human", 0), ("Levitation", 8, "car", 3), ("Levitation", 15, "human", 3),
     ("Levitation", 40, "car", 7), ("Levitation", 90, "human", 7),
     ("Self teleportation", 10, "human", 2), ("Self teleportation", 45, "human", 6),
     ("Self teleportation", 60, "human", 9),
     ("Other teleportation", 10, "human", 5), ("Other teleportation", 20, "car", 9),
     ("Other teleportation", 100, "human", 12)],
)  # fmt: skip
def test_movement_tables(spell: str, distance: int, size: str, cl: int) -> None:
    """Each printed row of the levitation and teleportation tables."""
    level = movement_challenge_level(spell, distance, size)
    assert level.challenge_level == cl
    assert level.needs_check == (cl > 0)


def test_unseen_teleportation_doubles() -> None:
    """Teleporting to an unseen place doubles the CL; levitation has no such rule."""
    assert (
        movement_challenge_level("self teleportation", 15, "human", unseen=True).challenge_level
        == 8
    )
    assert (
        movement_challenge_level("Other teleportation", 60, "human", unseen=True).challenge_level
        == 24
    )
    with pytest.raises(RulesError, match="only teleportation"):
        movement_challenge_level("Levitation", 15, "human", unseen=True)


def test_movement_past_the_tables() -> None:
    """A bus at 50-100 m, or anything past 100 m, is for the narrator to set."""
    with pytest.raises(RulesError, match="no CL for bus"):
        movement_challenge_level("Levitation", 80, "bus")
    with pytest.raises(RulesError, match="100 m"):
        movement_challenge_level("Levitation", 150, "human")
    with pytest.raises(InputError, match="^size: "):
        movement_challenge_level("Levitation", 5, "ship")


@pytest.mark.parametrize(
    ("distance", "cl"), [(10, 0), (10.5, 3), (20, 3), (20.5, 5), (50, 5), (50.5, 7), (100, 7)]
)
def test_a_distance_on_a_band_edge_is_in_the_lower_band(distance: float, cl: int) -> None:
    """RULINGS.md "Levitation and teleportation": the book's bands share their edges ("within
    10 meters", "10 - 20 meters"); exactly 10 m is in the lower band (within 10 m), so a
    human-sized thing needs no check, and just past it is CL 3."""
    assert movement_challenge_level("Levitation", distance, "human").challenge_level == cl


def test_sizes_are_read_in_any_case() -> None:
    """``--size Car`` is the car row (CL 3 within 10 m), as ``car`` is."""
    assert movement_challenge_level("Levitation", 8, " Car ").challenge_level == 3


@pytest.mark.parametrize(
    ("exceeded", "expected"),
    [(-1, (False, False, 0)), (0, (False, False, 0)), (1, (True, False, 0)),
     (2, (True, True, 0)), (3, (True, True, 0)), (4, (True, True, 1)), (6, (True, True, 3))],
)  # fmt: skip
def test_telepathy_thresholds(exceeded: int, expected: tuple[bool, bool, int]) -> None:
    """Exceed to read, by 2 to probe, by 4 to injure, one more level per die beyond."""
    assert telepathy_outcome(exceeded) == expected


@given(st.integers(-20, 20))
def test_telepathy_is_monotone(exceeded: int) -> None:
    """More wins over the resistance never does less."""
    now, more = telepathy_outcome(exceeded), telepathy_outcome(exceeded + 1)
    assert all(int(b) >= int(a) for a, b in zip(now, more, strict=True))


def test_read_mind_contest() -> None:
    """5 wins against 1: exceeded by 4, an injury level; unresisted minds need no roll."""
    result = read_mind(pool_of(5), GivenFaces([6, 6, 6, 6, 6, 4, 1, 1]), resist_pool=pool_of(3))
    assert (result.exceeded_by, result.probe, result.injury_levels) == (4, True, 1)
    free = read_mind(pool_of(5), GivenFaces([]))
    assert free.read and free.caster is None


def test_counteraction() -> None:
    """Equal prevents; greater miscasts by the excess; lower fails."""
    assert counter_spell(pool_of(3), 2, GivenFaces([4, 4, 1])).outcome == "prevented"
    greater = counter_spell(pool_of(3), 1, GivenFaces([4, 4, 4]))
    assert (greater.outcome, greater.miscast_level) == ("miscast", 2)
    assert counter_spell(pool_of(3), 3, GivenFaces([4, 1, 1])).outcome == "failed"


def test_hard_spell_requirements() -> None:
    """Grass-shackle needs 2 Druidic combat points and moonlit grass in hand."""
    source = GivenFaces([6, 6, 6, 6, 1])
    with pytest.raises(RulesError, match="requires 2 skill points"):
        cast_hard_spell("grass-shackle", pool_of(5), source, skill_points=1, have=["moonlit-grass"])
    with pytest.raises(RulesError, match="moonlit-grass"):
        cast_hard_spell("Grass-shackle", pool_of(5), source, skill_points=2)
    with pytest.raises(InputError, match="goat-heart"):
        cast_hard_spell(
            "Bloom", pool_of(5), source, skill_points=1, have=["moonlight", "goat-heart"]
        )
    assert source.used == 0
    cast = cast_hard_spell(
        "Grass-shackle", pool_of(5), source, skill_points=2, have=["moonlit-grass"]
    )
    assert cast.passed and cast.consumed == ("a handful of grass gathered in moonlight, held",)


def test_earthrot_failure_splits_the_skull() -> None:
    """Earthrot fails at CL 6: a minor injury, the heart consumed, the skull split."""
    cast = cast_hard_spell(
        "Earthrot", pool_of(6), GivenFaces([6, 6, 6, 1, 1, 1]), skill_points=3,
        have=["goat-skull", "goat-heart"],
    )  # fmt: skip
    assert not cast.passed
    assert cast.caster_injury == "minor"
    assert cast.consumed == ("the heart of a goat",)
    assert cast.broken == ("wearing the skull of a goat slaughtered on a full moon",)


def test_gust_of_wind_is_a_conflict() -> None:
    """Aeromancy 3 wins against a defence of 1: knocked down; a tie is rerolled."""
    from taletable.systems.cogent.magic import gust_of_wind

    gust = gust_of_wind(pool_of(3), pool_of(3), GivenFaces([6, 6, 6, 4, 1, 1]))
    assert gust.knocked_down and gust.conflict.victory_level == 2
    held = gust_of_wind(pool_of(3), pool_of(3), GivenFaces([4, 1, 1, 4, 1, 1, 1, 1, 1, 4, 1, 1]))
    assert not held.knocked_down and held.conflict.rerolls == 1


@pytest.mark.parametrize(
    ("word", "level"),
    [("common", 1), ("Uncommon Task", 2), ("specialized", 3), ("extremely-difficult", 5),
     ("inconceivable", 8)],
)  # fmt: skip
def test_difficulty_words_are_the_core_scale(word: str, level: int) -> None:
    """002 > Assigning CL and Skills: Common 1 ... Inconceivable 8."""
    assert difficulty_challenge_level(word) == level


def test_levitation_holding_a_resisting_person_is_a_conflict() -> None:
    """002 > Levitation: "Hold another person still who is actively trying to resist ... it is a
    Conflict CL": held only if the caster wins; a tie between aware parties is rerolled."""
    held = hold_still(pool_of(2), pool_of(2), GivenFaces([6, 1, 6, 1, 6, 6, 1, 1]))
    assert held.held and held.conflict.rerolls == 1
    loose = hold_still(pool_of(3), pool_of(3), GivenFaces([4, 1, 1, 5, 5, 1]))
    assert not loose.held and loose.conflict.winner == "b"
