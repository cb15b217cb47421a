"""The RFL roll-off (002 > Combat > Round Order > Declaration Phase): "If two Characters have the
same REF, they each roll 1D6, where the highest resulting roll gets to declare later for the rest
of the combat encounter"; a roll-off that ties again is rolled again among those still tied."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.explain import render_all
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat import start_encounter
from taletable.systems.cogent.combat.replay import verify_replay
from tests.combat_helpers import fighter

SWORD = ("Sword", "Medium Weapon")


def _goblin(name: str) -> CoreCharacter:
    return fighter(name, rfl=2, skills=(("Medium Weapons", 1),), weapons=(SWORD,))


def test_two_goblins_who_both_roll_3_roll_again() -> None:
    """Both goblins roll 3: they roll again (g1 2, g2 5), so g2 declares later, whatever the order
    of entry; a knight of RFL 1 is not in the roll-off and declares first."""
    knight = fighter("Knight", rfl=1, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    fighters = [("g2", "b", _goblin("G2"), "Sword"), ("g1", "b", _goblin("G1"), "Sword"),
                ("k", "a", knight, "Sword")]  # fmt: skip
    encounter = start_encounter(fighters, GivenFaces([3, 3, 5, 2]))
    assert [f.tie_rerolls for f in encounter.combatants] == [(5,), (2,), ()]
    assert encounter.declaration_order() == ["k", "g1", "g2"]
    assert "round 1: g2, g1 tie the roll-off and roll again: g2 5, g1 2" in render_all(
        encounter.log
    )
    assert verify_replay(encounter) == encounter


def test_only_those_still_tied_roll_again_until_none_are() -> None:
    """Three goblins roll 4, 4, 1: the two 4s roll again, tie on 6, and roll once more (1, 3);
    the goblin who rolled 1 rolls nothing more and declares first."""
    fighters = [(f"g{i}", "b", _goblin(f"G{i}"), "Sword") for i in (1, 2, 3)]
    encounter = start_encounter(fighters, GivenFaces([4, 4, 1, 6, 6, 1, 3]))
    assert [f.tie_rerolls for f in encounter.combatants] == [(6, 1), (6, 3), ()]
    assert encounter.declaration_order() == ["g3", "g1", "g2"]
