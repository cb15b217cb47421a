"""002 > Combat > Combat Fundamentals: the worked pools from plain values (combat.pool)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.errors import RulesError
from taletable.systems.cogent.character import combat_pool as sheet_combat_pool
from taletable.systems.cogent.character.sheet import (
    CombatSkill,
    CoreAttributes,
    CoreCharacter,
    CoreVocation,
    Equipment,
    Identity,
    Injury,
    Weapon,
)
from taletable.systems.cogent.combat.pool import combat_pool
from taletable.systems.cogent.equipment import weapon_group


def test_sir_terrik_8d6_pool() -> None:
    """Sir Terrik: 3 + STR 1 + INT 1 + Medium Weapons 2 + sword 1; full chainmail's -1D6 cancelled
    by Endurance 2: 8D6."""
    pool = combat_pool(1, 0, 1, 2, "Medium Weapon", ["Full Chainmail"], endurance=2)
    assert pool.size == 8
    parts = {c.source: c.dice for c in pool.contributions}
    assert parts == {
        "base": 3,
        "STR +1": 1,
        "INT +1": 1,
        "Medium Weapons +2": 2,
        "weapon +1 (Medium Weapon, melee target)": 1,
    }


def test_goblins_7d6_pool() -> None:
    """Each goblin: 3 + RFL 2 + Medium Weapons 1 + sword 1 = 7D6."""
    assert combat_pool(0, 2, 0, 1, "Medium Weapon", 0).size == 7


def test_terrik_injured_and_unprotected() -> None:
    """A minor injury takes 1D6 (Terrik's 7D6 in round 2); without Endurance, full chainmail
    (level 2) costs 1D6."""
    assert combat_pool(1, 0, 1, 2, "Medium Weapon", ["Full Chainmail"], 2, injuries=1).size == 7
    unprotected = combat_pool(1, 0, 1, 2, "Medium Weapon", ["Full Chainmail"])
    assert unprotected.size == 7
    assert ("armour -1 (level 2, Endurance 0)", -1) in [
        (c.source, c.dice) for c in unprotected.contributions
    ]


def test_endurance_is_never_a_bonus() -> None:
    """002 > Endurance and Armour: Endurance only cancels the armour penalty, never adds dice."""
    assert combat_pool(0, 0, 0, 0, "Small Weapon", 0, endurance=5).size == 3


def test_target_kinds_and_magic() -> None:
    """A bow gives +2D6 against a ranged target and -3D6 in melee; heavy ballistics cannot melee;
    a magic weapon's bonus adds (002 > Custom Rules)."""
    assert combat_pool(0, 0, 0, 1, "Long Stringed", 0, target="ranged").size == 6
    assert combat_pool(0, 0, 0, 1, "Long Stringed", 0, target="melee").size == 1
    assert combat_pool(0, 0, 0, 0, "Medium Weapon", 0, magic_bonus=2).size == 6
    assert combat_pool(0, 0, 0, 0, None, 0).size == 2  # bare hands -1D6
    with pytest.raises(RulesError, match="cannot be used against a melee target"):
        combat_pool(0, 0, 0, 0, "Heavy Ballistic", 0)


GROUPS = ["Small Weapon", "Medium Weapon", "Large Weapon", "Reach Weapon", "Long Stringed"]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.sampled_from([None, *GROUPS]),
    st.sampled_from([(), ("Leather Armour",), ("Full Plate",), ("Full Plate", "Large Shield")]),
    st.integers(0, 4),
    st.sampled_from(["melee", "ranged"]),
    st.integers(0, 3),
)
def test_the_plain_pool_agrees_with_the_sheet_pool(
    strength: int,
    reflex: int,
    intelligence: int,
    skill: int,
    group: str | None,
    armour: tuple[str, ...],
    endurance: int,
    target: str,
    injuries: int,
) -> None:
    """Two doors to one rule (002 > Combat Fundamentals): ``combat.combat_pool`` from plain
    values and the sheet's ``character.combat_pool`` give the same dice for the same fighter."""
    weapon = None if group is None else weapon_group(group)
    if weapon is not None and (weapon.melee if target == "melee" else weapon.ranged) is None:
        return
    if weapon is None and target == "ranged":
        return
    skills = (CombatSkill(name=weapon.skill, points=skill),) if weapon and skill else ()
    sheet = CoreCharacter(
        identity=Identity(name="Anyone"),
        superhuman_attributes=True,
        attributes=CoreAttributes(STR=strength, RFL=reflex, INT=intelligence),
        skills={"Endurance": endurance} if endurance else {},
        vocations=(
            CoreVocation(
                name="Fighter", attribute="STR", points=max(1, skill), combat_skills=skills
            ),
        ),
        equipment=Equipment(
            weapons=(Weapon(name="Held", group=group),) if group else (), armour=armour
        ),
        injuries=tuple(Injury(level=1) for _ in range(injuries)),
    )
    plain = combat_pool(
        strength,
        reflex,
        intelligence,
        skill if weapon else 0,
        group,
        list(armour),
        endurance,
        target,  # type: ignore[arg-type]
        injuries=injuries,
    )
    from_sheet = sheet_combat_pool(sheet, "Held" if group else None, target=target)  # type: ignore[arg-type]
    assert plain.size == from_sheet.size
