"""Gloved hands once disarmed or in close combat: 002 > Combat > Weapon Modifiers (Unarmed:
"-1D6 (Ungloved)", "+0D6 (Gloved)"); RULINGS.md "gloved hands"."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.systems.cogent.character.pools import combat_pool, gloved
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.situation import roll_pool
from tests.combat_helpers import fighter


def knight(items: tuple[str, ...] = ()) -> CoreCharacter:
    """A swordsman (3 + RFL 1 + Medium 1 + sword 1 = 6D6) carrying ``items``."""
    sheet = fighter(
        "Knight",
        rfl=1,
        skills=(("Medium Weapons", 1), ("Unarmed", 1)),
        weapons=(("Sword", "Medium Weapon"),),
    )
    return sheet.model_copy(
        update={"equipment": sheet.equipment.model_copy(update={"items": items})}
    )


def rogue() -> CoreCharacter:
    return fighter(
        "Rogue", rfl=2, skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )


def attack(actor: str, target: str) -> Declaration:
    return Declaration(actor=actor, action="attack", target=target)


@pytest.mark.parametrize(
    ("items", "gloves"),
    [((), False), (("Rope",), False), (("Leather Gloves",), True), (("steel gauntlets",), True)],
)
def test_gloves_or_gauntlets_among_the_items_mark_gloved_hands(
    items: tuple[str, ...], gloves: bool
) -> None:
    """An item named gloves or gauntlets protects the hands; any other item does not."""
    assert gloved(knight(items)) is gloves


@pytest.mark.parametrize(("items", "dice"), [((), 4), (("Gauntlets",), 5)])
def test_a_disarmed_fighter_fights_gloved_at_plus_nothing(
    items: tuple[str, ...], dice: int
) -> None:
    """002 > Weapon Modifiers, Unarmed: "-1D6 (Ungloved)", "+0D6 (Gloved)": disarmed of his
    sword, the knight rolls 3 + RFL 1 + Unarmed 1 - 1 = 4D6 bare-handed, 5D6 in gauntlets."""
    encounter = start_encounter(
        [("knight", "k", knight(items), "Sword"), ("rogue", "r", rogue(), "Sword")],
        GivenFaces([]),
    )
    encounter = declare(encounter, attack("knight", "rogue"))
    encounter = declare(encounter, attack("rogue", "knight"))
    # the rogue (RFL 2, 7D6) wins 4, the knight (6D6) wins 2: a level 2 victory, a disarm
    encounter = resolve(encounter, GivenFaces([6] * 4 + [1] * 3 + [6] * 2 + [1] * 4))
    [victory] = encounter.victories
    encounter = choose(encounter, victory.id, "disarm")
    disarmed = encounter.combatant("knight")
    assert "disarmed" in disarmed.conditions
    pool = roll_pool(encounter, disarmed, attack("knight", "rogue"))
    assert pool.size == dice
    bare = "bare hands (Unarmed (ungloved))" in [c.source for c in pool.contributions]
    assert bare is (not items)


def test_in_close_combat_a_sword_counted_as_unarmed_is_gloved_in_gauntlets() -> None:
    """002 > Close Combat: the sword counts as unarmed in close combat; with gauntlets the hands
    are "+0D6 (Gloved)": 3 + RFL 1 + Unarmed 1 = 5D6, where bare hands give 4D6."""
    foe = rogue()
    for items, dice in (((), 4), (("Gauntlets",), 5)):
        encounter = start_encounter(
            [("knight", "k", knight(items), "Sword"), ("rogue", "r", foe, "Sword")],
            GivenFaces([]),
        ).with_distance("knight", "rogue", "close")
        assert (
            roll_pool(encounter, encounter.combatant("knight"), attack("knight", "rogue")).size
            == dice
        )


def test_the_sheet_pool_of_hands_gloved_and_bare() -> None:
    """The sheet's unarmed pool: gloved hands +0D6 (3 + RFL 1 + Unarmed 1 = 5D6), bare -1D6."""
    assert combat_pool(knight(("Gloves",)), None).size == 5
    bare = combat_pool(knight(), None)
    assert bare.size == 4
    assert ("bare hands (Unarmed (ungloved))", -1) in [
        (c.source, c.dice) for c in bare.contributions
    ]
