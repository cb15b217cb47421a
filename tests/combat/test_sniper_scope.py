"""The scope sniper range needs: 002 > Hardcore Combat > Hardcore Ranged Rules, "Sniper range can
only be attempted if the weapon has a scope" (the weapon's ``scope`` on the sheet)."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.sheet import CoreCharacter, Weapon
from taletable.systems.cogent.combat import Declaration, declare, resolve, start_encounter
from taletable.systems.cogent.combat.state import Encounter
from taletable.systems.cogent.rules import Rules
from tests.combat_helpers import faces_for, fighter

THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


def rifleman(scope: bool) -> CoreCharacter:
    """A rifleman with a point in sniper, so the sniper row's CL is not doubled."""
    rifle = Weapon(name="Rifle", group="Shoulder Stock Ballistic", scope=scope)
    skills = (("Shoulder Stocked Ballistic", 1), ("Sniper", 1))
    return fighter("Rifleman", rfl=3, skills=skills, weapons=(rifle,))


def opening(scope: bool) -> Encounter:
    encounter = start_encounter(
        [("thug", "t", THUG, "Club"), ("rifleman", "r", rifleman(scope), "Rifle")],
        GivenFaces([]),
        rules=Rules(hardcore_ranged=True),
    )
    return declare(encounter, Declaration(actor="thug", action="defend"))


def shot(distance: str) -> Declaration:
    return Declaration.model_validate(
        {"actor": "rifleman", "action": "ranged", "target": "thug", "hardcore_range": distance}
    )


def test_sniper_range_without_a_scope_is_refused_at_declaration() -> None:
    """ "Sniper range can only be attempted if the weapon has a scope": a rifle without one is
    refused when the shot is declared, and nothing is recorded."""
    encounter = opening(scope=False)
    with pytest.raises(RulesError, match="only be attempted if the weapon has a scope"):
        declare(encounter, shot("sniper"))
    assert [d.actor for d in encounter.declarations] == ["thug"]


def test_a_weapon_has_no_scope_unless_the_sheet_says_so() -> None:
    """A sheet's weapon has no scope by default; ``scope: true`` fits one."""
    assert Weapon(name="Rifle", group="Shoulder Stock Ballistic").scope is False
    assert Weapon.model_validate({"name": "Rifle", "group": "Rifle", "scope": True}).scope


def test_a_scoped_rifle_shoots_at_sniper_range_against_the_sniper_row() -> None:
    """Sniper range, a stationary target: CL 6 (with a sniper proficiency and kneeling or lying
    down, not doubled): 8 wins are a level 2 victory."""
    encounter = declare(opening(scope=True), shot("sniper"))
    encounter = resolve(encounter, faces_for(encounter, {"rifleman": 8, "thug": 5}))
    assert [(v.loser, v.level, v.detail) for v in encounter.victories] == [
        ("thug", 2, "hardcore ranged CL 6")
    ]


def test_a_rifle_without_a_scope_still_shoots_at_long_range() -> None:
    """Only sniper range needs the scope: at long range (CL 6 stationary) the same rifle shoots."""
    encounter = declare(opening(scope=False), shot("long"))
    encounter = resolve(encounter, faces_for(encounter, {"rifleman": 7, "thug": 0}))
    assert [(v.level, v.detail) for v in encounter.victories] == [(1, "hardcore ranged CL 6")]
