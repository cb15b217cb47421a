"""Magic or explosive projectiles may dismember at range: 002 > Combat > Victory Levels, Level 4,
"Dismember an arm or leg ... (not available to ranged combat rolls unless magic or explosive
projectiles are involved)"."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.cogent.character.sheet import Weapon
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.outcomes import legal_outcomes
from taletable.systems.cogent.combat.state import Encounter
from tests.combat_helpers import faces_for, fighter

KNIGHT = fighter("Knight", skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),))


def shot_won(bow: Weapon) -> Encounter:
    """An archer's ranged roll beats the knight's defence by 4: a level 4 victory at range."""
    archer = fighter("Archer", rfl=2, skills=(("Long Stringed", 1),), weapons=(bow,))
    encounter = start_encounter(
        [("knight", "k", KNIGHT, "Sword"), ("archer", "a", archer, bow.name)], GivenFaces([])
    )
    encounter = declare(encounter, Declaration(actor="knight", action="defend"))
    encounter = declare(encounter, Declaration(actor="archer", action="ranged", target="knight"))
    encounter = resolve(encounter, faces_for(encounter, {"archer": 6, "knight": 2}))
    assert [(v.winner, v.level, v.ranged) for v in encounter.victories] == [("archer", 4, True)]
    return encounter


@pytest.mark.parametrize(
    "bow",
    [
        Weapon(name="Elven Bow", group="Long Stringed", magic_projectile=True),
        Weapon(name="Bomb Bow", group="Long Stringed", explosive=True),
    ],
)
def test_magic_or_explosive_projectiles_may_dismember_at_range(bow: Weapon) -> None:
    """ "unless magic or explosive projectiles are involved": the level 4 shot dismembers, a
    serious injury to the knight."""
    encounter = choose(shot_won(bow), 1, "dismember")
    [victory] = encounter.victories
    assert (victory.outcome, victory.dismembering_projectile) == ("dismember", True)
    assert [i.level for i in encounter.combatant("knight").sheet.injuries] == [3]


def test_an_ordinary_arrow_cannot_dismember() -> None:
    """ "not available to ranged combat rolls": an ordinary arrow's level 4 is refused a
    dismemberment and nothing changes."""
    encounter = shot_won(Weapon(name="Bow", group="Long Stringed"))
    with pytest.raises(RulesError, match="'dismember' is not allowed"):
        choose(encounter, 1, "dismember")
    assert encounter.victories[0].outcome is None


def test_projectiles_let_a_ranged_roll_dismember_but_not_close_in() -> None:
    """Only dismemberment is opened: a ranged roll still cannot put into close combat."""
    allowed = legal_outcomes(4, ranged=True, projectile=True)
    assert "dismember" in allowed
    assert "close combat" not in allowed
    assert "dismember" not in legal_outcomes(4, ranged=True)
