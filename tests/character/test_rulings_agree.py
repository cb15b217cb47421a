"""RULINGS.md says once what the code does: the attribute cap is core's, a statblock is refused
for the listed reasons only, hardcore armour applies in full only where armour applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.errors import InputError
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.combat.outcomes import policy_reductions
from taletable.systems.cogent.statblock import new_npc, statblock_from_data

RICK = yaml.safe_load(Path("examples/characters/tiered_rick_the_ranger.yaml").read_text())
TERRIK = yaml.safe_load(Path("examples/characters/core_sir_terrik.yaml").read_text())


def _found(data: dict[str, Any]) -> list[str]:
    return [problem.found for problem in validate(character_from_data(data, source="t")).problems]


def test_the_cap_of_2_is_the_core_editions() -> None:
    """000: "no restrictions on how many AP can be assigned per Attribute": Rick (tier 3) with
    all three points in STR is legal; a core sheet at STR 3 is refused (002: "over 2 points ...
    justifiable through superhuman powers")."""
    assert _found({**RICK, "attributes": {"STR": 3, "RFL": 0, "INT": 0, "CHA": 0}}) == []
    assert "STR is 3" in _found({**TERRIK, "attributes": {"STR": 3, "RFL": 0, "INT": 0}})


def test_a_statblock_file_is_refused_only_for_the_listed_reasons() -> None:
    """RULINGS.md "Statblock rules": attributes above 2 and a core skill among the vocational
    skills load from a file; `npc new` refuses the core skill in what it is given."""
    data = {"name": "Ogre", "attributes": {"STR": 4},
            "vocations": [{"name": "Brute", "attribute": "STR", "points": 2,
                           "vocational_skills": [{"name": "Athletics", "attribute": "STR",
                                                  "points": 2}]}]}  # fmt: skip
    assert statblock_from_data(data, "ogre").attributes.STR == 4
    with pytest.raises(InputError, match="'Athletics' is a core skill"):
        new_npc("Ogre", "elite", "Brute", vocational_skills=("Athletics",))


def test_hardcore_armour_applies_in_full_only_where_armour_applies() -> None:
    """002 > Hardcore Armour Rules: the reduction "applies to every injury"; in close combat
    armour reduces no injury (RULINGS.md "Close combat"), hardcore or not: a level 3 victory
    against armour 3 is no injury outside close combat and a serious one inside."""
    outside = policy_reductions("serious injury", 3, strength_left=0, armour_left=3,
                                hardcore_armour=True)  # fmt: skip
    inside = policy_reductions("serious injury", 3, strength_left=0, armour_left=3,
                               armour_allowed=False, hardcore_armour=True)  # fmt: skip
    assert (outside.injury_level, inside.injury_level) == (0, 3)
