"""Melee against ranged (002 > Combat > Melee vs Ranged): a pair of rolls is compared once, the
shooter's roll counting its melee-target penalty when the melee fighter reaches it first."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.explain import render_all
from taletable.systems.cogent.combat import Declaration, start_encounter
from taletable.systems.cogent.combat.state import Encounter
from tests.combat.test_rules_in_play import attack, fighter, play

BOW = ("Bow", "Long Stringed")


def duel(archer_rfl: int, knight_rfl: int, tie: tuple[int, int] = (1, 2)) -> Encounter:
    """An archer (6D6 at a ranged target, 3D6 - 3 + 1 = 1D6 against a melee one) and a knight
    (4D6), at range."""
    archer = fighter("Archer", BOW, "Long Stringed", rfl=archer_rfl)
    knight = fighter("Knight", rfl=knight_rfl)
    return start_encounter(
        [("archer", "a", archer, "Bow"), ("knight", "k", knight, "Sword")], GivenFaces(list(tie))
    )


SHOOT = Declaration(actor="archer", action="ranged", target="knight")


def levels(encounter: Encounter) -> list[tuple[str, str, int]]:
    return [(v.winner, v.loser, v.level) for v in encounter.victories]


@pytest.mark.parametrize(
    ("wins", "found"),
    [
        ({"archer": 2, "knight": 4}, [("knight", "archer", 2)]),
        ({"archer": 5, "knight": 3}, [("archer", "knight", 2)]),
        ({"archer": 3, "knight": 3}, []),
    ],
)
def test_a_slower_melee_attacker_strikes_in_the_round_it_closes(
    wins: dict[str, int], found: list[tuple[str, str, int]]
) -> None:
    """002 > Melee vs Ranged: "In the first round where the Melee combatant gets to attack, the
    ranged combatant might still not receive the ascribed penalty, if they have a higher
    reflex." The slower knight closes and strikes; the faster archer shoots before it arrives,
    so its whole roll (6D6) counts. The two rolls are compared once: only the side with more
    wins gains victory levels."""
    encounter = play(duel(2, 0), {"knight": attack("knight", "archer"), "archer": SHOOT}, wins)
    assert levels(encounter) == found
    assert encounter.distance("knight", "archer") == "adjacent"
    note = "archer is faster and shoots before knight arrives"
    assert any(note in line for line in render_all(encounter.log))


@pytest.mark.parametrize(
    ("wins", "found"),
    [
        # the archer's 3 wins are its first three dice: only the first (one die) counts
        ({"archer": 3, "knight": 2}, [("knight", "archer", 1)]),
        ({"archer": 1, "knight": 0}, [("archer", "knight", 1)]),
    ],
)
def test_a_faster_melee_attacker_meets_the_penalised_shot_once(
    wins: dict[str, int], found: list[tuple[str, str, int]]
) -> None:
    """002 > Melee vs Ranged: "If the melee combatant has a higher reflex and is close enough
    they can close the distance to a combatant using a ranged weapon before they can fire. In
    this instance, the ranged combatant received the appropriate penalty" (the bow's -3D6 at a
    melee target: 1D6 of its 6D6 count). Compared once: the archer, who aimed at the knight,
    does not also win levels with its whole roll."""
    encounter = play(duel(0, 2), {"archer": SHOOT, "knight": attack("knight", "archer")}, wins)
    assert levels(encounter) == found


def test_once_adjacent_the_shot_is_penalised_whoever_is_faster() -> None:
    """002 > Melee vs Ranged: once the melee fighter is adjacent, the shooter "will incur the
    standard penalty as described in weapon modifiers": its roll is built at a melee target
    (3 + RFL 2 + 1 + bow -3 = 3D6, against 8D6 at range); the faster archer no longer fires
    first."""
    declarations = {"knight": attack("knight", "archer"), "archer": SHOOT}
    encounter = play(duel(2, 0), declarations, {"archer": 2, "knight": 2})
    assert levels(encounter) == []
    assert [r.pool for r in encounter.rolls if r.actor == "archer"] == [8]
    assert (encounter.round, encounter.distance("knight", "archer")) == (2, "adjacent")
    encounter = play(encounter, declarations, {"archer": 1, "knight": 3})
    assert [r.pool for r in encounter.rolls if r.actor == "archer"] == [3]
    assert levels(encounter) == [("knight", "archer", 2)]


@pytest.mark.parametrize(("tie", "first"), [((6, 1), "archer"), ((1, 6), "knight")])
def test_equal_reflex_is_settled_by_the_roll_off(tie: tuple[int, int], first: str) -> None:
    """Equal RFL (RULINGS.md "melee against ranged"): who acts first is who declares later, by
    the encounter's 1D6 roll-off (002 > Declaration Phase: "the highest resulting roll gets to
    declare later"). The archer who wins it shoots first (whole 7D6 roll, 4 wins); the knight
    who wins it closes first (the archer's first two dice only: 3 + 1 + 1 - 3 = 2D6)."""
    encounter = duel(1, 1, tie)
    assert encounter.declaration_order()[-1] == first
    declarations = {"knight": attack("knight", "archer"), "archer": SHOOT}
    encounter = play(encounter, declarations, {"archer": 4, "knight": 3})
    expected = ("archer", "knight", 1) if first == "archer" else ("knight", "archer", 1)
    assert levels(encounter) == [expected]
