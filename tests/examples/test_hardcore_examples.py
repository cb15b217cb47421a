"""002 > Hardcore Combat: the armour, weapon and ranged tables, and their effect in a fight."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.cogent.character.sheet import CoreCharacter, Weapon
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.hardcore import (
    armour_after_weapon,
    hardcore_armour_level,
    hardcore_armour_penalty,
    hardcore_weapon,
    hardcore_weapon_bonus,
    ranged_challenge_level,
)
from taletable.systems.cogent.combat.outcomes import reduce
from taletable.systems.cogent.combat.pool import Situation, situational_pool
from taletable.systems.cogent.rules import Rules
from tests.combat_helpers import faces_for, fighter

HARDCORE = Rules(hardcore_armour=True, hardcore_weapons=True, hardcore_ranged=True)


@pytest.mark.parametrize(
    ("distance", "state", "level"),
    [
        ("adjacent", "stationary", 1),
        ("close", "stationary", 2),
        ("close", "cover_50", 4),
        ("close", "cover_90", 6),
        ("close", "moving_human", 4),
        ("close", "moving_car", 8),
        ("medium", "stationary", 4),
        ("medium", "cover_50", 6),
        ("medium", "cover_90", 8),
        ("medium", "moving_human", 6),
        ("medium", "moving_car", 8),
        ("long", "stationary", 6),
        ("long", "cover_50", 10),
        ("long", "cover_90", 14),
        ("long", "moving_human", 8),
        ("long", "moving_car", 10),
        ("sniper", "stationary", 6),
        ("sniper", "cover_90", 14),
        ("sniper", "moving_car", 10),
    ],
)
def test_hardcore_ranged_cl_table(distance: str, state: str, level: int) -> None:
    """002 > Hardcore Ranged Rules: the CL table as printed."""
    assert ranged_challenge_level(distance, state) == level  # type: ignore[arg-type]


def test_hardcore_ranged_modifiers() -> None:
    """Sniper CLs double without the proficiency or a steady posture; moving in cover adds."""
    assert ranged_challenge_level("sniper", sniper_proficiency=False) == 12
    assert ranged_challenge_level("sniper", steady=False) == 12
    assert ranged_challenge_level("medium", "moving_human", cover="cover_50") == 6 + 6
    with pytest.raises(RulesError, match="scope"):
        ranged_challenge_level("sniper", scope=False)
    with pytest.raises(RulesError, match="not adjacent"):
        ranged_challenge_level("adjacent", "moving_human")


def test_hardcore_armour_and_weapons() -> None:
    """Pieces add up; half the level (down) comes off the roll; weapons cut armour."""
    plate = [
        "Helmet",
        "Upper Body",
        "Upper Body",
        "Arm Protection",
        "Leg Protection",
        "Large Shield",
    ]
    assert hardcore_armour_level(plate) == 8
    assert hardcore_armour_penalty(7) == 3
    assert hardcore_weapon_bonus("Medium Sword", "melee", 2) == 2
    assert hardcore_weapon_bonus("Large Sword", "melee", 1) == 0
    assert hardcore_weapon_bonus("Large Flexed Ranged", "ranged") == 2
    assert armour_after_weapon(7, "Large Blunt") == 2
    assert armour_after_weapon(3, "Hand Ballistics") == 0


def _knight(name: str, weapon: Weapon, armour: tuple[str, ...]) -> CoreCharacter:
    return fighter(
        name,
        strength=1,
        rfl=1,
        skills=(("Medium Weapons", 2),),
        weapons=(weapon,),
        armour=armour,
    )


def test_hardcore_fight_applies_armour_to_every_injury() -> None:
    """In hardcore, armour (less the weapon's reduction) cuts every injury, with no budget."""
    mace = Weapon(name="Mace", group="Medium Weapon", hardcore_group="Medium Blunt", hands=1)
    sword = Weapon(name="Sword", group="Medium Weapon", hardcore_group="Medium Sword", hands=1)
    a = _knight("A", mace, ())
    b = _knight(
        "B", sword, ("Helmet", "Upper Body", "Upper Body", "Arm Protection", "Leg Protection")
    )
    pool = situational_pool(b, Situation(weapon="Sword"), HARDCORE)
    assert ("hardcore armour (half the level, less Endurance)", -2) in [
        (c.source, c.dice) for c in pool.contributions
    ]
    encounter = start_encounter(
        [("a", "x", a, "Mace"), ("b", "y", b, "Sword")], GivenFaces([1, 2]), rules=HARDCORE
    )
    assert encounter.combatant("b").armour_level == 5
    first, second = encounter.declaration_order()
    encounter = declare(encounter, Declaration(actor=first, action="attack", target=second))
    encounter = declare(encounter, Declaration(actor=second, action="attack", target=first))
    # a: 3 + STR 1 + RFL 1 + Medium 2 + mace (Medium Blunt, one hand) 1 = 8D6, all 6s;
    # b: 3 + 1 + 1 + 2 + sword (Medium Sword) 1 - armour 2 = 6D6, all 1s
    faces = {"a": [6] * 8, "b": [1] * 6}
    performance = list(reversed(encounter.declaration_order()))
    encounter = resolve(encounter, GivenFaces([f for who in performance for f in faces[who]]))
    assert {r.actor: (r.pool, r.wins) for r in encounter.rolls} == {"a": (8, 8), "b": (6, 0)}
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("a", 8)
    encounter = choose(encounter, victory.id, "minor injury", strength=0)
    # armour 5 less the mace's 4 = 1: a minor injury is absorbed; the armour is not used up
    assert encounter.combatant("b").sheet.injuries == ()
    assert encounter.combatant("b").armour_left == 5


@pytest.mark.parametrize(
    ("group", "melee", "ranged", "one_handed", "two_handed", "reduction", "max_targets"),
    [
        ("Unarmed", 0, None, 0, 0, 0, None),
        ("Unarmed (unprotected)", -1, None, 0, 0, 0, None),
        ("Thrown Weapons", 0, 0, 0, 0, 0, None),
        ("Small Flexed Ranged", -1, 1, 0, 0, 0, None),
        ("Large Flexed Ranged", -2, 2, 0, 0, 0, None),
        ("Small Hafted Blade/Point", 1, None, 0, 0, 0, None),
        ("Small Blunt", -1, None, 0, 0, 3, None),
        ("Small Bladed", 0, None, 0, 0, 2, None),
        ("Medium Hafted Blade/Point", 2, None, 0, 1, 1, None),
        ("Medium Blunt", 1, None, 0, 1, 4, None),
        ("Medium Sword", 1, None, 0, 1, 2, None),
        ("Large Hafted Blade/Point", 3, None, -2, 0, 2, None),
        ("Large Blunt", 1, None, -2, 0, 5, None),
        ("Large Sword", 2, None, -2, 0, 3, None),
        ("Short Spear", 3, None, 0, 0, 3, 2),
        ("Reach Hafted Point", 3, None, 0, 0, 4, None),
        ("Reach Hafted Blade", 4, None, 0, 0, 2, None),
        ("Reach Hafted Blunt", 2, None, 0, 0, 5, None),
        ("Greatsword", 3, None, 0, 0, 4, None),
        ("Longspear", 4, None, 0, 0, 4, 2),
        ("Hand Ballistics", -3, 2, 0, 0, 6, None),
        ("Shoulder Stock Ballistics", -4, 4, 0, 0, 8, None),
        ("Heavy Ballistics", None, 6, 0, 0, 6, None),
    ],
)
def test_hardcore_weapon_table(
    group: str,
    melee: int | None,
    ranged: int | None,
    one_handed: int,
    two_handed: int,
    reduction: int,
    max_targets: int | None,
) -> None:
    """002 > Hardcore Weapon Modifiers: every row as printed (bonus by target, hands, armour
    reduction, the spears' two targets a round)."""
    row = hardcore_weapon(group)
    assert (row.melee, row.ranged, row.one_handed, row.two_handed) == (
        melee,
        ranged,
        one_handed,
        two_handed,
    )
    assert (row.armour_reduction, row.max_targets) == (reduction, max_targets)


def test_hardcore_armour_table() -> None:
    """002 > Hardcore Armour Rules: each piece's level as printed; two of a category stack."""
    levels = {
        "Small Shield": 1,
        "Medium Shield": 2,
        "Large Shield": 3,
        "Helmet": 1,
        "Upper Body": 1,
        "Arm Protection": 1,
        "Leg Protection": 1,
    }
    assert {name: hardcore_armour_level([name]) for name in levels} == levels
    assert hardcore_armour_level(["Upper Body", "Upper Body"]) == 2  # gambeson under chainmail


@pytest.mark.parametrize(
    ("level", "final", "injury"),
    [(7, None, 0), (8, "minor injury", 1), (9, "medium injury", 2), (11, "fatal injury", 4),
     (12, "deathblow", 5)],
)  # fmt: skip
def test_hardcore_armour_seven_is_exceeded_by_the_victory_level(
    level: int, final: str | None, injury: int
) -> None:
    """002 > Hardcore Armour Rules: "the only way to injure an opponent in armour is to exceed
    their armour score"; "A level eight victory is VERY hard to achieve, which would be needed
    to inflict even a minor injury to an opponent with an armour score of 7." The whole armour
    score comes off the whole victory level: the deathblow's level 5 is not a cap here."""
    result = reduce("deathblow", level, armour=7, hardcore_armour=True)
    assert (result.final, result.injury_level) == (final, injury)


def test_standard_deathblow_stays_injury_five() -> None:
    """002 > Victory Levels ("Level 5 Victory and Higher": a deathblow "unless the character
    ... is wearing armour and uses them to reduce either the level of victory or injury"):
    under the standard rules a deathblow is injury 5 whatever the level (RULINGS.md)."""
    result = reduce("deathblow", 9, armour=3)
    assert (result.final, result.injury_level, result.armour_used) == ("medium injury", 2, 3)


def test_a_fighter_in_armour_seven_is_hurt_by_a_level_nine_victory_in_a_fight() -> None:
    """002 > Hardcore Armour Rules, in play: armour 7 (plate, helmet and a medium shield) against
    a level 9 victory is a medium injury under the default outcome (the most severe)."""
    sword = Weapon(name="Sword", group="Medium Weapon")
    plate = ("Helmet", "Upper Body", "Upper Body", "Arm Protection", "Leg Protection")
    a = _knight("A", sword, ())
    b = _knight("B", sword, (*plate, "Medium Shield"))
    encounter = start_encounter(
        [("a", "x", a, "Sword"), ("b", "y", b, "Sword")],
        GivenFaces([1, 2]),
        rules=Rules(hardcore_armour=True),
    )
    assert encounter.combatant("b").armour_level == 7
    first, second = encounter.declaration_order()
    # a: 3 + STR 1 + RFL 1 + Medium 2 + sword 1 + a narrator's 1 = 9D6, all 6s;
    # b: 8D6 less half its armour (3) = 5D6, all 1s
    extra = {"a": (("high ground", 1),), "b": ()}
    for actor, target in ((first, second), (second, first)):
        declaration = Declaration(
            actor=actor, action="attack", target=target, modifiers=extra[actor]
        )
        encounter = declare(encounter, declaration)
    encounter = resolve(encounter, faces_for(encounter, {"a": 9, "b": 0}))
    [victory] = encounter.victories
    assert victory.level == 9
    encounter = choose(encounter, victory.id, strength=0)
    assert [i.level for i in encounter.combatant("b").sheet.injuries] == [2]
