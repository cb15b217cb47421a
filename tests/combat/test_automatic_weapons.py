"""Automatic weapons against several opponents: 002 > Combat > Fighting Groups, "Ranged weapons
usually cannot achieve victories against more than one opponent per round (... a fully automatic
machine gun can hit multiple opponents in a single round ...)"."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.systems.cogent.character.sheet import Weapon
from taletable.systems.cogent.combat import Declaration, declare, resolve, start_encounter
from taletable.systems.cogent.combat.state import Encounter, Engagement
from tests.combat_helpers import faces_for, fighter

RAIDER = fighter("Raider", skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),))
SENTRY = fighter("Sentry", skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),))


def gunner_round(gun: Weapon) -> Encounter:
    """A gunner shoots the sentry while the raider, adjacent, attacks the gunner in melee; the
    gunner's roll beats both."""
    gunner = fighter("Gunner", rfl=2, skills=(("Shoulder Stock Ballistics", 2),), weapons=(gun,))
    encounter = start_encounter(
        [("raider", "r", RAIDER, "Sword"), ("sentry", "s", SENTRY, "Sword"),
         ("gunner", "g", gunner, gun.name)],
        GivenFaces([2, 5]),  # the raider and the sentry's RFL roll-off
        engagements=(Engagement(a="raider", b="gunner", distance="adjacent"),),
    )  # fmt: skip
    encounter = declare(encounter, Declaration(actor="raider", action="attack", target="gunner"))
    encounter = declare(encounter, Declaration(actor="sentry", action="defend"))
    encounter = declare(encounter, Declaration(actor="gunner", action="ranged", target="sentry"))
    pools = {"gunner": 8, "raider": 0, "sentry": 0}
    return resolve(encounter, faces_for(encounter, pools))


def test_a_fully_automatic_weapon_achieves_victories_against_several_opponents() -> None:
    """ "can hit multiple opponents in a single round": the automatic rifle's roll wins over the
    sentry it aimed at and over the raider attacking it in melee."""
    encounter = gunner_round(Weapon(name="Assault Rifle", group="Shoulder Stock Ballistic",
                                    automatic=True))  # fmt: skip
    assert sorted(v.loser for v in encounter.victories if v.winner == "gunner") == [
        "raider", "sentry",
    ]  # fmt: skip


def test_a_single_shot_weapon_wins_against_its_target_only() -> None:
    """ "Ranged weapons usually cannot achieve victories against more than one opponent per
    round": the same roll with a bolt-action rifle wins over the sentry alone."""
    encounter = gunner_round(Weapon(name="Hunting Rifle", group="Shoulder Stock Ballistic"))
    assert [v.loser for v in encounter.victories if v.winner == "gunner"] == ["sentry"]
