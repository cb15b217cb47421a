"""Casting and summoning through ``perform``, with sheets in a memory store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.play import CastRequest, Table, all_actions, cast, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.rules import Rules

EXAMPLES = Path("examples/characters")


def _table(edition: str = "core") -> Table:
    table = Table(rules=Rules(edition=edition), dice=SeededDice(1), store=MemoryStore())
    for key, name in (("ilsa", "core_ilsa_the_wizard"), ("erin", "tiered_erin_the_mage"),
                      ("terrik", "core_sir_terrik")):  # fmt: skip
        data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
        table.store.save("character", key, data, version=None)
    return table


def test_cast_and_summon_are_actions() -> None:
    """Both shells dispatch cogent.cast and cogent.summon from the one registry."""
    assert {"cogent.cast", "cogent.summon"} <= set(all_actions())


def test_a_sheet_casts_with_its_spells_pool() -> None:
    """Ilsa's Levitation (3 base + 2 INT + 2 points = 7D6) against the narrator's CL 4."""
    played = perform(
        "cogent.cast",
        {"spell": "levitation", "character": "ilsa", "cl": 4, "faces": "6,5,4,4,1,1,1"},
        _table(),
    )
    check = played.result.check
    assert (check.pool, check.wins, played.result.miscast) == (7, 4, False)
    assert [c.source for c in check.breakdown] == ["base", "INT", "Levitation"]
    assert played.events[0].subject == "ilsa"


def test_a_spell_the_sheet_does_not_hold_is_refused_citing_the_rule() -> None:
    """002 > Classic Fantasy Magic system: a school's spells only, each a proficiency chosen."""
    source = GivenFaces([6] * 7)
    table = Table(dice=source, store=_table().store)
    with pytest.raises(RulesError, match=r"Ilsa does not know Pyromancy.*Classic Fantasy"):
        perform("cogent.cast", {"spell": "pyromancy", "character": "ilsa", "cl": 2}, table)
    with pytest.raises(RulesError, match="Terrik's sheet records no school of magic"):
        perform("cogent.summon", {"school": "fire", "character": "terrik", "cl": 2}, table)
    assert source.used == 0


def test_a_sheet_pool_refuses_a_pool_beside_it() -> None:
    """With a character the sheet builds the pool: a pool or points beside it are refused."""
    with pytest.raises(InputError, match=r"^pool: character builds the pool"):
        perform("cogent.cast", {"spell": "levitation", "character": "ilsa", "pool": 5, "cl": 2},
                _table())  # fmt: skip


def test_a_movement_needing_no_check_still_needs_the_spell_on_the_sheet() -> None:
    """Levitating a human-sized thing within 10 m needs no check, but only for a sheet holding
    Levitation (Erin's school is Sorcery)."""
    free = perform("cogent.cast", {"spell": "levitation", "character": "ilsa", "distance": 5,
                                   "size": "human"}, _table())  # fmt: skip
    assert free.result.needs_check is False
    with pytest.raises(RulesError, match="Erin does not know Levitation"):
        perform("cogent.cast", {"spell": "levitation", "character": "erin", "distance": 5,
                                "size": "human"}, _table())  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"spell": "levitation", "speed": "sprint"},
         r"^speed: Levitation does not read speed; expected with Levitation: "
         r"challenge_level, difficulty, distance, size, resist_pool$"),
        ({"spell": "pyromancy", "distance": 5, "size": "human"},
         r"^distance: Pyromancy does not read distance"),
        ({"spell": "self-teleportation", "cl": 2, "distance": 15, "size": "human"},
         r"^distance: challenge_level and distance are two ways to cast"),
        ({"spell": "telepathy", "resist_pool": 3, "advantage": True},
         r"^advantage: advantage is for a check against a CL"),
        ({"spell": "levitation", "distance": 15},
         r"^size: the Levitation table reads distance and size"),
        ({"spell": "bloom", "cl": 3, "skill_points": 1},
         r"^challenge_level/difficulty: Bloom is a hard spell with a fixed CL 2"),
        ({"spell": "aeromancy", "has": ["moonlight"], "cl": 2},
         r"^skill_points/have: Aeromancy is not a hard-magic spell"),
    ],
)  # fmt: skip
def test_options_a_spell_does_not_read_are_refused(args: dict[str, Any], message: str) -> None:
    """Each spell reads its own fields (Levitation: distance and size, or a resisting pool); any
    other is refused by name, before a die is rolled."""
    source = GivenFaces([6] * 10)
    with pytest.raises(InputError, match=message):
        perform("cogent.cast", {"pool": 5, **args}, Table(dice=source, store=MemoryStore()))
    assert source.used == 0


def test_the_ways_to_cast_reach_their_rules() -> None:
    """Aeromancy flight at sprinting speed is CL 2 ("Fly at standard sprinting speed"); a gust
    is a conflict; counteraction with equal wins prevents the spell."""
    flight = cast(CastRequest(spell="aeromancy", pool=3, speed="sprint", faces=(4, 4, 1)),
                  _table())  # fmt: skip
    assert (flight.result.check.challenge_level, flight.result.miscast) == (2, False)
    gust = perform("cogent.cast", {"spell": "aeromancy", "pool": 3, "defence_pool": 2,
                                   "faces": "6,6,1,1,1"}, _table())  # fmt: skip
    assert gust.result.knocked_down is True
    counter = perform("cogent.cast", {"spell": "counteraction", "pool": 3, "against_wins": 2,
                                      "faces": "4,4,1"}, _table())  # fmt: skip
    assert counter.result.outcome == "prevented"


def test_summon_from_a_sheet() -> None:
    """Erin (tiered) summons with her Sorcery specialisation's pool: a CL 2 sprite for three
    rounds when her 6D6 match the CL ("Matching the CL= three rounds")."""
    played = perform("cogent.summon", {"school": "pyromancy", "character": "erin", "cl": 2,
                                       "faces": "5,5,1,1,1,1"}, _table())  # fmt: skip
    result = played.result
    assert (result.check.pool, result.creature.name, result.duration) == (
        6, "Sprite", "three rounds")  # fmt: skip
    assert result.check.edition == "tiered"


def _druid(table: Table, edition: str) -> None:
    """A sheet with the druid skills the hard spells require (002 > Metahuman Powers)."""
    if edition == "core":
        data = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text())
        data["vocations"].append({
            "name": "Druid", "attribute": "INT", "points": 2,
            "combat_skills": [{"name": "Druidic", "points": 2}],
            "vocational_skills": [{"name": "Druidic Plantcraft", "attribute": "INT", "points": 1}],
        })  # fmt: skip
    else:
        data = yaml.safe_load((EXAMPLES / "tiered_olga_the_protector.yaml").read_text())
        data["vocations"].append({
            "name": "Druid", "attribute": "INT", "rank": 1,
            "specialisations": [{"name": "Druidic Plantcraft", "attribute": "INT", "points": 2}],
        })  # fmt: skip
    table.store.save("character", "druid", data, version=None)


def test_a_sheet_casts_a_hard_spell_with_the_skill_it_requires() -> None:
    """Grass-shackle needs 2 points in the Druidic combat skill: core Terrik-the-druid casts
    it with base 3 + INT 1 + Druidic 2 = 6D6 against its fixed CL 4 (RULINGS.md "hard spells
    from a sheet"); Strength of Wood needs 2 in Druidic Plantcraft, where he has 1."""
    table = _table()
    _druid(table, "core")
    cast = perform("cogent.cast", {"spell": "grass-shackle", "character": "druid",
                   "have": ["moonlit-grass"], "faces": "6,6,5,5,1,1"}, table).result  # fmt: skip
    parts = {part.source: part.dice for part in cast.check.breakdown}
    assert (cast.check.pool, parts["Druidic"], parts["INT"]) == (6, 2, 1)
    assert (cast.challenge_level, cast.passed, len(cast.consumed)) == (4, True, 1)
    with pytest.raises(RulesError, match="requires 2 skill points in the Druidic Plantcraft"):
        perform("cogent.cast", {"spell": "strength of wood", "character": "druid",
                "have": ["old-tree"]}, table)  # fmt: skip
    with pytest.raises(RulesError, match="Ilsa.*no such skill"):
        perform("cogent.cast", {"spell": "bloom", "character": "ilsa", "have": ["moonlight"]},
                table)  # fmt: skip
    with pytest.raises(InputError, match=r"^skill_points: character holds the points"):
        perform("cogent.cast", {"spell": "bloom", "character": "druid", "skill_points": 3,
                "have": ["moonlight"]}, table)  # fmt: skip


def test_a_tiered_sheet_casts_a_hard_spell_with_its_specialisation() -> None:
    """Tiered: the specialisation's pool (base 3 + INT 0 + rank 1 + 2 points = 6D6)."""
    table = _table("tiered")
    _druid(table, "tiered")
    cast = perform("cogent.cast", {"spell": "strength of wood", "character": "druid",
                   "have": ["old-tree"], "faces": "6,6,6,6,1,1"}, table).result  # fmt: skip
    parts = {part.source: part.dice for part in cast.check.breakdown}
    assert (cast.check.pool, parts["Druid rank"], parts["Druidic Plantcraft"]) == (6, 1, 2)
    assert (cast.passed, cast.armour_gained) == (True, 2)
