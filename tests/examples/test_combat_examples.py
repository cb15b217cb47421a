"""Worked examples of Cogent combat (002 > Combat), with the book's own numbers."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.explain import render_all
from taletable.store.sheets import load_character
from taletable.systems.cogent.character import combat_pool
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.outcomes import reduce
from taletable.systems.cogent.combat.pool import Situation, situational_pool
from taletable.systems.cogent.equipment import armour_level, armour_penalty, weapon_group
from tests.combat_helpers import fighter

TERRIK = "examples/characters/core_sir_terrik.yaml"


def goblin() -> CoreCharacter:
    return fighter(
        "Goblin", rfl=2, skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )


def test_sir_terrik_vs_two_goblins() -> None:
    """002 > Fighting Groups: round 1 Terrik 4 wins, goblins 4 and 5: a goblin's level 1 victory,
    a minor injury. Round 2 Terrik's 7D6 (injured) rolls 6 wins against 3 and 3: level 3
    victories over both, serious injuries."""
    terrik = load_character(TERRIK)
    assert combat_pool(terrik, "Arming Sword").size == 8
    assert combat_pool(goblin(), "Sword").size == 7
    encounter = start_encounter(
        [
            ("terrik", "knight", terrik, "Arming Sword"),
            ("g1", "goblins", goblin(), "Sword"),
            ("g2", "goblins", goblin(), "Sword"),
        ],
        GivenFaces([1, 2]),
    )
    assert encounter.declaration_order() == ["terrik", "g1", "g2"]  # lowest RFL declares first
    for actor, target in (("terrik", "g1"), ("g1", "terrik"), ("g2", "terrik")):
        encounter = declare(encounter, Declaration(actor=actor, action="attack", target=target))
    # performance from the highest RFL: g2 (5 wins), g1 (4 wins), Terrik (4 wins)
    encounter = resolve(
        encounter, GivenFaces([4] * 5 + [1] * 2 + [4] * 4 + [1] * 3 + [4] * 4 + [1] * 4)
    )
    [victory] = encounter.victories
    assert (victory.winner, victory.loser, victory.level) == ("g2", "terrik", 1)
    encounter = choose(encounter, victory.id, "minor injury", strength=0, armour=0)
    assert encounter.round == 2
    assert combat_pool(encounter.combatant("terrik").sheet, "Arming Sword").size == 7
    for actor, target in (("terrik", "g1"), ("g1", "terrik"), ("g2", "terrik")):
        encounter = declare(encounter, Declaration(actor=actor, action="attack", target=target))
    encounter = resolve(
        encounter, GivenFaces([4] * 3 + [1] * 4 + [4] * 3 + [1] * 4 + [4] * 6 + [1])
    )
    second = [v for v in encounter.victories if v.round == 2]
    assert sorted((v.winner, v.loser, v.level) for v in second) == [
        ("terrik", "g1", 3),
        ("terrik", "g2", 3),
    ]
    for victory in second:
        encounter = choose(encounter, victory.id, "serious injury")
    assert [i.level for i in encounter.combatant("g1").sheet.injuries] == [3]
    assert [i.level for i in encounter.combatant("g2").sheet.injuries] == [3]


def test_victoria_armour_reductions() -> None:
    """002 > Armour: a serious injury reduced 3 times by armour is negated. The book gives her
    full plate 4 reductions (one left); the table gives full plate level 3 (none left) at -2D6
    (RULINGS.md "armour table and prose")."""
    negated = reduce("serious injury", 3, armour=3)
    assert (negated.final, negated.injury_level, negated.armour_used) == (None, 0, 3)
    assert armour_level(["Full Plate"]) == 3  # the book's prose: 4, so 4 - 3 = 1 left
    assert armour_penalty(3) == 2  # "fighting with -2D6 to her combat roll"
    partly = reduce("serious injury", 3, armour=1)
    assert (partly.final, partly.injury_level) == ("medium injury", 2)


def test_kelvin_dual_wield_pool() -> None:
    """002 > Dual Wielding: 3 + INT 1 + REF 1 + 2 Medium skill + 1 rapier + 2 dagger = 10D6."""
    kelvin = fighter(
        "Kelvin",
        rfl=1,
        intelligence=1,
        skills=(("Medium Weapons", 2), ("Small Weapons", 1)),
        weapons=(("Rapier", "Medium Weapon"), ("Dagger", "Small Weapon")),
    )
    pool = situational_pool(kelvin, Situation(weapon="Rapier", secondary="Dagger"))
    assert pool.size == 10


def test_troll_charge_against_marcus_brace() -> None:
    """002 > Circumstantial Modifiers: the troll charges with 6D6 + 1D6 and rolls 4 wins; Marcus
    braces with 7D6, rolls 3 wins, +2 for the brace: 5, a victory level 1 for Marcus."""
    troll = fighter(
        "Troll", strength=2, skills=(("Large Weapons", 1),), weapons=(("Club", "Medium Weapon"),)
    )  # 3 + 2 + 0 + 1 = 6D6
    marcus = fighter(
        "Marcus",
        rfl=1,
        skills=(("Medium Weapons", 1),),
        weapons=(("Sword", "Medium Weapon"),),
        intelligence=1,
    )  # 3 + RFL 1 + INT 1 + 1 skill + 1 sword = 7D6
    assert combat_pool(troll, "Club").size == 6
    assert combat_pool(marcus, "Sword").size == 7
    encounter = start_encounter(
        [("troll", "t", troll, "Club"), ("marcus", "m", marcus, "Sword")], GivenFaces([])
    )
    encounter = declare(encounter, Declaration(actor="troll", action="charge", target="marcus"))
    encounter = declare(encounter, Declaration(actor="marcus", action="brace", target="troll"))
    encounter = resolve(encounter, GivenFaces([*(4, 4, 4, 1, 1, 1, 1), *(4, 4, 4, 4, 1, 1, 1)]))
    rolls = {r.actor: r for r in encounter.rolls}
    assert (rolls["troll"].pool, rolls["troll"].wins) == (7, 4)
    assert (rolls["marcus"].pool, rolls["marcus"].wins) == (7, 3)
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("marcus", 1)


def test_leon_and_dartain() -> None:
    """002 > Performance Phase: Leon's 3D6 + 2 RFL + 2 Acrobatics assist = 7D6 rolls 4 wins;
    Dartain's acrobatics check to jump on the table is against CL 4 instead of CL 1."""
    leon = fighter(
        "Leon", rfl=2, skills=(("Medium Weapons", 1),), weapons=(("Rapier", "Medium Weapon"),)
    )
    dartain = fighter(
        "Dartain", rfl=1, skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )
    encounter = start_encounter(
        [("leon", "l", leon, "Rapier"), ("dartain", "d", dartain, "Sword")], GivenFaces([])
    )
    assert encounter.declaration_order() == ["dartain", "leon"]
    encounter = declare(
        encounter, Declaration(actor="dartain", action="check", pool=4, against="leon")
    )
    encounter = declare(encounter, Declaration(actor="leon", action="other", pool=3 + 2 + 2))
    encounter = resolve(encounter, GivenFaces([*(4, 4, 4, 4, 1, 1, 1), *(4, 4, 4, 1)]))
    assert {r.actor: r.wins for r in encounter.rolls} == {"leon": 4, "dartain": 3}
    assert "dartain's check against CL 4: failed" in " ".join(render_all(encounter.log))


def test_standard_weapon_and_armour_tables() -> None:
    """002 > Weapon Modifiers and Armour: the tables as printed."""
    assert [
        (g.name, g.melee, g.ranged)
        for g in map(
            weapon_group,
            [
                "Unarmed",
                "Small Weapon",
                "Medium Weapon",
                "Large Weapon",
                "Reach Weapon",
                "Long Stringed",
                "Hand Ballistic",
                "Shoulder Stock Ballistic",
                "Heavy Ballistic",
            ],
        )
    ] == [
        ("Unarmed", 0, None),
        ("Small Weapon", 0, None),
        ("Medium Weapon", 1, None),
        ("Large Weapon", 2, None),
        ("Reach Weapon", 3, None),
        ("Long Stringed", -3, 2),
        ("Hand Ballistic", -3, 2),
        ("Shoulder Stock Ballistic", -4, 4),
        ("Heavy Ballistic", None, 6),
    ]
    assert [armour_penalty(level) for level in range(1, 6)] == [0, 1, 2, 3, 4]
    assert armour_level(["Full Plate", "Small Shield"]) == 4
    assert armour_level(["Full Plate", "Large Shield"]) == 5
    assert armour_penalty(5, endurance=4) == 0  # Endurance offsets, never a bonus


def test_victoria_in_an_encounter() -> None:
    """002 > Armour (Victoria): a rogue attacks her unawares (off guard, the narrator's CL 2) and
    its 5 wins are a level 3 victory; it chooses a serious injury; she spends 3 armour reductions
    and is unhurt, with the table's full plate (3) leaving none for the encounter (the prose's 4
    would leave one; RULINGS.md), and fights at -2D6 for her heavy armour."""
    victoria = fighter(
        "Victoria",
        rfl=1,
        skills=(("Medium Weapons", 1),),
        weapons=(("Sword", "Medium Weapon"),),
        armour=("Full Plate",),
    )
    rogue = fighter(
        "Rogue", rfl=2, skills=(("Small Weapons", 1),), weapons=(("Dagger", "Small Weapon"),)
    )
    pool = combat_pool(victoria, "Sword")
    assert ("armour (less Endurance)", -2) in [(c.source, c.dice) for c in pool.contributions]
    assert pool.size == 3 + 1 + 1 + 1 - 2
    encounter = start_encounter(
        [("victoria", "v", victoria, "Sword"), ("rogue", "r", rogue, "Dagger")], GivenFaces([])
    )
    assert encounter.combatant("victoria").armour_left == 3
    encounter = declare(encounter, Declaration(actor="victoria", action="wait"))
    encounter = declare(
        encounter,
        Declaration(actor="rogue", action="attack", target="victoria", challenge_level=2),
    )
    encounter = resolve(encounter, GivenFaces([6, 6, 6, 6, 6, 1]))  # the rogue's 6D6
    [victory] = encounter.victories
    assert (victory.level, victory.detail) == (3, "off guard")
    encounter = choose(encounter, victory.id, "serious injury", strength=0, armour=3)
    victoria_now = encounter.combatant("victoria")
    assert victoria_now.sheet.injuries == ()
    assert victoria_now.armour_left == 0


def test_marcus_reinforces_his_brace_as_a_defence() -> None:
    """002 > Circumstantial Modifiers (the troll's note): a brace made a defence roll gains +2D6
    (7D6 + 2 = 9D6) but wins no victory: Marcus's 3 wins + 2 beat the troll's 4 and nothing
    follows; a brace needs a charge declared before it (or a prepared round)."""
    troll = fighter("Troll", strength=2, weapons=(("Club", "Medium Weapon"),))
    marcus = fighter(
        "Marcus",
        rfl=1,
        intelligence=1,
        skills=(("Medium Weapons", 1),),
        weapons=(("Sword", "Medium Weapon"),),
    )
    encounter = start_encounter(
        [("troll", "t", troll, "Club"), ("marcus", "m", marcus, "Sword")], GivenFaces([])
    )
    with pytest.raises(RulesError, match="counters a charge"):
        declare(
            declare(encounter, Declaration(actor="troll", action="attack", target="marcus")),
            Declaration(actor="marcus", action="brace", target="troll"),
        )
    encounter = declare(encounter, Declaration(actor="troll", action="charge", target="marcus"))
    encounter = declare(
        encounter,
        Declaration(actor="marcus", action="brace", target="troll", circumstances=("defence",)),
    )
    # performance from the higher RFL: Marcus's 9D6, then the troll's 7D6
    encounter = resolve(encounter, GivenFaces([*(4, 4, 4), *[1] * 6, *(4, 4, 4, 4, 1, 1, 1)]))
    assert {r.actor: (r.pool, r.wins) for r in encounter.rolls} == {
        "troll": (7, 4),
        "marcus": (9, 3),
    }
    assert encounter.victories == ()
