"""The round's rules with given faces: melee against ranged, off guard, incapacitated targets,
circumstances, fighting groups, reductions and outcomes (002 > Combat)."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.systems.cogent.character.sheet import CoreCharacter, Injury
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.combat.state import Encounter
from tests.combat_helpers import faces_for
from tests.combat_helpers import fighter as sheet


def fighter(
    name: str,
    weapon: tuple[str, str] | None = ("Sword", "Medium Weapon"),
    skill: str = "Medium Weapons",
    *,
    strength: int = 0,
    rfl: int = 0,
    armour: tuple[str, ...] = (),
) -> CoreCharacter:
    """One weapon (or none) and a point in one combat skill."""
    return sheet(
        name,
        strength=strength,
        rfl=rfl,
        skills=((skill, 1),),
        weapons=(weapon,) if weapon else (),
        armour=armour,
    )


def play(
    encounter: Encounter, declarations: dict[str, Declaration], wins: dict[str, int]
) -> Encounter:
    """Declare in order, then resolve with each roller's wins as 6s (the rest 1s)."""
    for ident in encounter.declaration_order():
        encounter = declare(encounter, declarations[ident])
    return resolve(encounter, faces_for(encounter, wins))


def attack(actor: str, target: str, **extra: object) -> Declaration:
    return Declaration(actor=actor, action="attack", target=target).model_copy(update=extra)


BOW = ("Bow", "Long Stringed")


def test_a_faster_melee_attacker_strikes_and_the_shooter_counts_melee_dice_only() -> None:
    """002 > Melee vs Ranged: a faster melee attacker closes and strikes at once; the archer, who
    aimed elsewhere, compares with it only the dice left after the bow's -3D6 melee penalty, and
    cannot win victories over it (a ranged roll wins only against its declared target)."""
    archer = fighter("Archer", BOW, "Long Stringed", rfl=0)
    knight = fighter("Knight", rfl=2)
    bystander = fighter("Bystander")
    encounter = start_encounter(
        [
            ("archer", "a", archer, "Bow"),
            ("knight", "k", knight, "Sword"),
            ("by", "k", bystander, "Sword"),
        ],
        GivenFaces([1, 2]),
    )
    # the archer's ranged pool: 3 + 1 skill + 2 bow = 6D6; against melee 3 + 1 - 3 = 1D6
    assert (
        roll_pool(
            encounter,
            encounter.combatant("archer"),
            Declaration(actor="archer", action="ranged", target="by"),
        ).size
        == 6
    )
    encounter = play(
        encounter,
        {
            "archer": Declaration(actor="archer", action="ranged", target="by"),
            "by": Declaration(actor="by", action="wait"),
            "knight": attack("knight", "archer"),
        },
        {"archer": 3, "knight": 2},
    )
    found = sorted((v.winner, v.loser, v.level) for v in encounter.victories)
    # the archer's first die (a 6) is its only one against the knight: 2 - 1 = level 1 for the
    # knight; the bystander takes the archer's 3 wins: level 3
    assert found == [("archer", "by", 3), ("knight", "archer", 1)]


def test_off_guard_and_incapacitated_targets_are_rolled_against_a_cl() -> None:
    """002 > Circumstantial Modifiers: an off-guard attack is rolled against the narrator's CL
    (the target cannot defend; wins over it are victory levels); an incapacitated target is CL 1
    and its armour is disregarded."""
    rogue = fighter("Rogue", rfl=2)
    guard = fighter("Guard", armour=("Full Plate",))
    encounter = start_encounter(
        [("rogue", "r", rogue, "Sword"), ("guard", "g", guard, "Sword")], GivenFaces([])
    )
    encounter = play(
        encounter,
        {
            "guard": Declaration(actor="guard", action="wait"),
            "rogue": attack("rogue", "guard", challenge_level=2),
        },
        {"rogue": 6},
    )
    [victory] = encounter.victories  # 6 wins over CL 2
    assert (victory.level, victory.detail, victory.armour_allowed) == (4, "off guard", True)
    encounter = choose(encounter, victory.id, "fatal injury", strength=0, armour=0)
    assert "incapacitated" in encounter.combatant("guard").conditions
    encounter = play(encounter, {"rogue": attack("rogue", "guard")}, {"rogue": 2})
    [second] = [v for v in encounter.victories if v.round == 2]
    assert (second.level, second.armour_allowed) == (1, False)
    assert second.detail.startswith("incapacitated target (CL 1")


def test_a_trip_weighs_on_the_next_round_only() -> None:
    """Prone -4D6 lasts one round; high ground and flank add 2D6 each; a charge adds 1D6
    (002 > Circumstantial Modifiers)."""
    a, b = fighter("A", rfl=1), fighter("B")
    encounter = start_encounter([("a", "x", a, "Sword"), ("b", "y", b, "Sword")], GivenFaces([]))
    base = roll_pool(encounter, encounter.combatant("b"), attack("b", "a")).size
    assert base == 5
    assert (
        roll_pool(
            encounter,
            encounter.combatant("a"),
            attack("a", "b", circumstances=("high ground", "flank")),
        ).size
        == 6 + 4
    )
    assert (
        roll_pool(
            encounter, encounter.combatant("a"), Declaration(actor="a", action="charge", target="b")
        ).size
        == 6 + 1
    )
    encounter = play(encounter, {"b": attack("b", "a"), "a": attack("a", "b")}, {"a": 4, "b": 1})
    [victory] = encounter.victories
    encounter = choose(encounter, victory.id, "trip")
    assert roll_pool(encounter, encounter.combatant("b"), attack("b", "a")).size == base - 4
    encounter = play(encounter, {"b": attack("b", "a"), "a": attack("a", "b")}, {"a": 0, "b": 0})
    assert encounter.round == 3 and encounter.combatant("b").conditions == ()
    assert roll_pool(encounter, encounter.combatant("b"), attack("b", "a")).size == base


def test_several_opponents_half_the_pool_and_strength_once_per_encounter() -> None:
    """002 > Fighting Groups: a 4D6 roll faces 2 opponents; the third is compared with 0 wins.
    002 > Attributes: STR lowers victory levels, a point each, once per encounter."""
    hero = fighter("Hero", None, strength=1, rfl=1)  # 3 + STR 1 + RFL 1 - 1 bare hands = 4D6
    foes = [(f"f{n}", "foes", fighter(f"F{n}"), "Sword") for n in (1, 2, 3)]
    encounter = start_encounter([("hero", "h", hero, None), *foes], GivenFaces([1, 2, 3]))
    assert roll_pool(encounter, encounter.combatant("hero"), attack("hero", "f1")).size == 4
    declarations = {"hero": attack("hero", "f1")} | {
        f"f{n}": attack(f"f{n}", "hero") for n in (1, 2, 3)
    }
    encounter = play(encounter, declarations, {"hero": 2, "f1": 1, "f2": 1, "f3": 1})
    assert encounter.declaration_order() == ["f1", "f2", "f3", "hero"]  # ties: 1D6 1, 2, 3
    found = sorted((v.winner, v.loser, v.level) for v in encounter.victories)
    # the hero's 2 wins beat f1 and f2 (1 each); f3, the third attacker, meets 0 wins
    assert found == [("f3", "hero", 1), ("hero", "f1", 1), ("hero", "f2", 1)]
    hit = next(v for v in encounter.victories if v.winner == "f3")
    encounter = choose(encounter, hit.id, "minor injury")  # the policy spends STR 1: negated
    assert encounter.combatant("hero").strength_left == 0
    assert encounter.combatant("hero").sheet.injuries == ()


def test_injuries_stack_in_penalty_not_fatality_and_outcomes_mark_the_loser() -> None:
    """002 > Victory Levels: two medium injuries are -4D6 but not a fatal injury; a knockout
    leaves the target unconscious with a medium injury; a deathblow kills."""
    wounded = fighter("W").model_copy(update={"injuries": (Injury(level=2), Injury(level=2))})
    fresh = fighter("F")
    encounter = start_encounter(
        [("w", "x", wounded, "Sword"), ("f", "y", fresh, "Sword")], GivenFaces([1, 2])
    )
    pools = {
        i: roll_pool(encounter, encounter.combatant(i), attack(i, "f" if i == "w" else "w")).size
        for i in ("w", "f")
    }
    assert pools == {"w": 1, "f": 5}
    assert encounter.combatant("w").can_act
    encounter = play(encounter, {"w": attack("w", "f"), "f": attack("f", "w")}, {"w": 0, "f": 4})
    [victory] = encounter.victories
    encounter = choose(encounter, victory.id, "knockout", strength=0, armour=0)
    knocked = encounter.combatant("w")
    assert "unconscious" in knocked.conditions and knocked.sheet.injuries[-1].level == 2
    finish = attack("f", "w", modifiers=(("helpless foe", 1),))  # 6D6, 6 wins over CL 1
    encounter = play(encounter, {"f": finish}, {"f": 6})
    [blow] = [v for v in encounter.victories if v.round == 2]
    encounter = choose(encounter, blow.id, "deathblow")
    assert "dead" in encounter.combatant("w").conditions
