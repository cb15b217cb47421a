"""Worked examples read as data: the notes a roll and a fight leave carry the book's numbers
(issue 11: "the rules applied become structured entries ... the rule's citation key")."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.explain import Note, note, render_all
from taletable.store.sheets import load_character
from taletable.systems.cogent.assists import roll_assist
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.combat import Declaration, declare, resolve, start_encounter
from taletable.systems.cogent.pools import pool_of
from tests.examples.test_combat_examples import TERRIK, goblin


def _of(notes: tuple[Note, ...], kind: str) -> list[Note]:
    return [entry for entry in notes if entry.kind == kind]


def test_acrobatics_assist_as_notes() -> None:
    """002 > Assists: the Martial Artist's 7D6 at assist CL 3 (five wins, +2); the 5D6 at CL 4
    it helps. The notes cite the passages, and the words are the book's rules."""
    assist = roll_assist(pool_of(7), 3, GivenFaces([4, 4, 5, 5, 6, 1, 1]))
    assert assist.rules_applied == (note("cogent.assist.bonus", "002 > How to Play > Assists"),)
    check = roll_check(pool_of(5), 4, GivenFaces([4, 4, 5, 6, 1]), assist_bonus=assist.bonus)
    assert [entry.kind for entry in check.rules_applied] == [
        "cogent.check.dice_pools", "cogent.check.assisted", "cogent.check.pass"
    ]  # fmt: skip
    assert _of(check.rules_applied, "cogent.check.assisted")[0].cite == "002 > Assists"
    assert render_all(check.rules_applied)[-1] == (
        "pass when wins >= CL; margin = wins - CL "
        "(002 > How to Play > Actions and Challenge Levels)"
    )


def test_sir_terrik_vs_two_goblins_round_one_as_notes() -> None:
    """002 > Fighting Groups, round 1: goblins roll 5 and 4 wins on 7D6, Terrik 4 on 8D6; the
    second goblin wins level 1 over Terrik. Each is a note with the actor, pool, faces, wins."""
    encounter = start_encounter(
        [
            ("terrik", "knight", load_character(TERRIK), "Arming Sword"),
            ("g1", "goblins", goblin(), "Sword"),
            ("g2", "goblins", goblin(), "Sword"),
        ],
        GivenFaces([1, 2]),
    )
    assert _of(encounter.log, "combat.order") == [
        note("combat.order", round=1, order=("terrik", "g1", "g2"))
    ]
    for actor, target in (("terrik", "g1"), ("g1", "terrik"), ("g2", "terrik")):
        encounter = declare(encounter, Declaration(actor=actor, action="attack", target=target))
    encounter = resolve(
        encounter, GivenFaces([4] * 5 + [1] * 2 + [4] * 4 + [1] * 3 + [4] * 4 + [1] * 4)
    )
    rolls = {entry.values["actor"]: entry.values for entry in _of(encounter.log, "combat.roll")}
    assert {who: (v["pool"], v["wins"]) for who, v in rolls.items()} == {
        "g2": (7, 5), "g1": (7, 4), "terrik": (8, 4)
    }  # fmt: skip
    assert rolls["g2"]["faces"] == (4, 4, 4, 4, 4, 1, 1)
    assert _of(encounter.log, "combat.victory") == [
        note("combat.victory", round=1, winner="g2", level=1, loser="terrik", victory=1)
    ]
    assert "round 1: g2 wins victory level 1 over terrik (#1)" in render_all(encounter.log)
