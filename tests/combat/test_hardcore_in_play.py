"""Hardcore combat in a fight: weapons of several heads, spears' two targets, ballistic shots
against the CL table (002 > Hardcore Combat)."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import InputError
from taletable.explain import render_all
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.sheet import CoreCharacter, Weapon
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.rules import Rules
from tests.combat_helpers import faces_for
from tests.combat_helpers import fighter as sheet

THUG = load_statblock("examples/statblocks/thug.yaml").as_character()
PLATE = ("Helmet", "Upper Body", "Upper Body", "Arm Protection", "Leg Protection")


def fighter(
    name: str, weapon: Weapon, skill: str, *, rfl: int = 0, armour: tuple[str, ...] = ()
) -> CoreCharacter:
    """One weapon and a point in one combat skill."""
    return sheet(name, rfl=rfl, skills=((skill, 1),), weapons=(weapon,), armour=armour)


POLEAXE = Weapon(
    name="Poleaxe",
    group="Reach Weapon",
    hardcore_group="Reach Hafted Blade",
    hardcore_uses=("Reach Hafted Blunt", "Reach Hafted Point"),
)


@pytest.mark.parametrize(
    ("use", "bonus", "injuries"),
    [
        (None, ("Poleaxe (Reach Hafted Blade)", 4), ()),
        ("Reach Hafted Blunt", ("Poleaxe (Reach Hafted Blunt)", 2), (1,)),
    ],
)
def test_poleaxe_used_one_way_declared_before_the_roll(
    use: str | None, bonus: tuple[str, int], injuries: tuple[int, ...]
) -> None:
    """002 > Hardcore Weapon Modifiers: a poleaxe is a reach-hafted blunt, blade or point weapon,
    used one way named before the roll (else its standard function). As a blade (+4D6) it takes 2
    levels off plate of 5, which absorbs a minor injury; as a hammer (+2D6) it takes 5: the minor
    injury lands."""
    rules = Rules(hardcore_armour=True, hardcore_weapons=True)
    knight = fighter("Knight", POLEAXE, "Reach Weapons", rfl=2)
    sword = Weapon(name="Sword", group="Medium Weapon", hardcore_group="Medium Sword", hands=1)
    guard = fighter("Guard", sword, "Medium Weapons", armour=PLATE)
    encounter = start_encounter(
        [("knight", "k", knight, "Poleaxe"), ("guard", "g", guard, "Sword")],
        GivenFaces([]),
        rules=rules,
    )
    encounter = declare(encounter, Declaration(actor="guard", action="attack", target="knight"))
    encounter = declare(
        encounter, Declaration(actor="knight", action="attack", target="guard", use=use)
    )
    pool = roll_pool(encounter, encounter.combatant("knight"), encounter.declarations[-1])
    assert bonus in [(c.source, c.dice) for c in pool.contributions]
    encounter = resolve(encounter, faces_for(encounter, {"knight": 2, "guard": 1}))
    [victory] = encounter.victories
    encounter = choose(encounter, victory.id, "minor injury", strength=0)
    assert tuple(i.level for i in encounter.combatant("guard").sheet.injuries) == injuries


def test_a_use_the_weapon_does_not_have_is_refused() -> None:
    """Only the weapon's standard group and its listed uses can be declared."""
    rules = Rules(hardcore_weapons=True)
    knight = fighter("Knight", POLEAXE, "Reach Weapons", rfl=2)
    encounter = start_encounter(
        [("thug", "t", THUG, "Club"), ("knight", "k", knight, "Poleaxe")],
        GivenFaces([]),
        rules=rules,
    )
    encounter = declare(encounter, Declaration(actor="thug", action="attack", target="knight"))
    with pytest.raises(InputError, match="cannot be used as 'Greatsword'"):
        declare(
            encounter,
            Declaration(actor="knight", action="attack", target="thug", use="Greatsword"),
        )


@pytest.mark.parametrize(
    ("hardcore", "beaten"), [(False, ["t1", "t2", "t3"]), (True, ["t2", "t3"])]
)
def test_a_longspear_wins_over_two_targets_a_round(hardcore: bool, beaten: list[str]) -> None:
    """002 > Hardcore Weapon Modifiers (Longspear): victory levels against at most 2 targets a
    round; the declared target first, then the highest levels. Without the rule, a melee roll wins
    over every engaged opponent it beats."""
    pike = Weapon(name="Pike", group="Reach Weapon", hardcore_group="Longspear", hands=2)
    ysolde = fighter("Ysolde", pike, "Reach Weapons", rfl=3)
    thugs = [(f"t{n}", "gang", THUG, "Club") for n in (1, 2, 3)]
    encounter = start_encounter(
        [("ysolde", "y", ysolde, "Pike"), *thugs],
        GivenFaces([1, 2, 3]),
        rules=Rules(hardcore_weapons=hardcore),
    )
    for ident in encounter.declaration_order():
        target = "t3" if ident == "ysolde" else "ysolde"
        encounter = declare(encounter, Declaration(actor=ident, action="attack", target=target))
    wins = {"ysolde": 5, "t1": 4, "t2": 1, "t3": 2}
    encounter = resolve(encounter, faces_for(encounter, wins))
    assert sorted(v.loser for v in encounter.victories) == beaten
    if hardcore:
        note = "ysolde's Longspear wins over 2 targets at most; none over t1"
        assert any(line.endswith(note) for line in render_all(encounter.log))


def gunner(weapon: Weapon, skill: str) -> CoreCharacter:
    return fighter("Shooter", weapon, skill, rfl=3)


def test_a_pistol_shot_is_rolled_against_the_cl_table_a_bow_shot_is_opposed() -> None:
    """002 > Hardcore Ranged Rules: a ballistic shot is rolled against the CL of its range and the
    target's state (close, stationary: CL 2) and no defence roll can be made: 5 wins are a level 3
    victory whatever the target rolls. Bows "work differently": an arrow stays opposed."""
    rules = Rules(hardcore_ranged=True)
    pistol = Weapon(name="Pistol", group="Hand Ballistic")
    bow = Weapon(name="Bow", group="Long Stringed")
    for weapon, skill, level in ((pistol, "Hand Ballistic", 3), (bow, "Long Stringed", None)):
        shooter = gunner(weapon, skill)
        encounter = start_encounter(
            [("thug", "t", THUG, "Club"), ("shooter", "s", shooter, weapon.name)],
            GivenFaces([]),
            rules=rules,
        )
        encounter = declare(encounter, Declaration(actor="thug", action="defend"))
        extra = {"hardcore_range": "close"} if weapon is pistol else {}
        encounter = declare(
            encounter,
            Declaration(actor="shooter", action="ranged", target="thug").model_copy(update=extra),
        )
        encounter = resolve(encounter, faces_for(encounter, {"shooter": 5, "thug": 5}))
        found = [(v.loser, v.level, v.detail) for v in encounter.victories]
        if level is None:
            assert found == []
        else:
            assert found == [("thug", level, "hardcore ranged CL 2")]


def test_a_hardcore_range_needs_a_ballistic_shot() -> None:
    """--range is refused for a bow, or without the hardcore ranged rules."""
    bow = Weapon(name="Bow", group="Long Stringed")
    encounter = start_encounter(
        [("thug", "t", THUG, "Club"), ("archer", "a", gunner(bow, "Long Stringed"), "Bow")],
        GivenFaces([]),
        rules=Rules(hardcore_ranged=True),
    )
    encounter = declare(encounter, Declaration(actor="thug", action="defend"))
    with pytest.raises(InputError, match="ballistic"):
        declare(
            encounter,
            Declaration(actor="archer", action="ranged", target="thug", hardcore_range="close"),
        )
