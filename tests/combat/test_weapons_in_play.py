"""Weapons in play: dual wielding under disarm and close combat, unarmed disarms, and
declarations refused at once when their roll could not be made (002 > Combat Modifiers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.explain import render_all
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.outcomes import legal_outcomes
from taletable.systems.cogent.combat.situation import roll_pool
from tests.combat_helpers import fighter

HALE = load_statblock("examples/statblocks/sample_swordsman.yaml").as_character()
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


def kelvin() -> CoreCharacter:
    return fighter(
        "Kelvin",
        rfl=1,
        intelligence=1,
        skills=(("Medium Weapons", 2), ("Small Weapons", 1)),
        weapons=(("Rapier", "Medium Weapon"), ("Dagger", "Small Weapon")),
    )


def rogue() -> CoreCharacter:
    return fighter(
        "Rogue", rfl=2, skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )


def attack(actor: str, target: str) -> Declaration:
    return Declaration(actor=actor, action="attack", target=target)


def test_disarmed_dual_wielder_fights_on_with_the_dagger() -> None:
    """002 > Dual Wielding (Kelvin): disarmed of his rapier he loses the dual-wield bonus and the
    dagger becomes his primary weapon: 10D6 becomes 3 + INT 1 + REF 1 + Small 1 = 6D6."""
    encounter = start_encounter(
        [("kelvin", "k", kelvin(), "Rapier"), ("rogue", "r", rogue(), "Sword")],
        GivenFaces([]),
        secondary={"kelvin": "Dagger"},
    )
    assert roll_pool(encounter, encounter.combatant("kelvin"), attack("kelvin", "rogue")).size == 10
    encounter = declare(encounter, attack("kelvin", "rogue"))
    encounter = declare(encounter, attack("rogue", "kelvin"))
    # performance: the rogue (RFL 2) 7D6 with 4 wins, then Kelvin 10D6 with 2 wins
    encounter = resolve(encounter, GivenFaces([6] * 4 + [1] * 3 + [6] * 2 + [1] * 8))
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("rogue", 2)
    encounter = choose(encounter, victory.id, "disarm")
    disarmed = encounter.combatant("kelvin")
    assert (disarmed.weapon, disarmed.secondary, disarmed.conditions) == ("Dagger", None, ())
    assert roll_pool(encounter, disarmed, attack("kelvin", "rogue")).size == 6


def test_dual_wielder_in_close_combat_keeps_the_small_secondary() -> None:
    """002 > Close Combat: Hale's sword counts as unarmed in close combat; his dagger is a small
    weapon, usable there: he fights with it, without the dual-wield bonus (3 + STR 1 + Small 1)."""
    encounter = start_encounter(
        [("hale", "g", HALE, "Sword"), ("thug", "t", THUG, "Club")],
        GivenFaces([3, 5]),
        secondary={"hale": "Dagger"},
    )
    hale = encounter.combatant("hale")
    assert roll_pool(encounter, hale, attack("hale", "thug")).size == 9
    encounter = encounter.with_distance("hale", "thug", "close")
    pool = roll_pool(encounter, hale, attack("hale", "thug"))
    assert pool.size == 5
    assert "close combat: Sword counts as unarmed, Dagger in hand" in [
        c.source for c in pool.contributions
    ]
    for ident in encounter.declaration_order():
        encounter = declare(encounter, attack(ident, "thug" if ident == "hale" else "hale"))
    resolved = resolve(encounter, SeededDice(4))
    assert {r.actor: r.pool for r in resolved.rolls}["hale"] == 5


def unarmed_pair() -> tuple[CoreCharacter, CoreCharacter]:
    brawler = fighter("Brawler", rfl=2, weapons=())
    swordsman = fighter(
        "Swordsman", skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )
    return brawler, swordsman


@pytest.mark.parametrize(("brawler_wins", "victories"), [(2, []), (3, ["disarm"])])
def test_unarmed_disarm_needs_a_level_2_victory(brawler_wins: int, victories: list[str]) -> None:
    """002 > Weapon Modifiers (Unarmed): +4D6 to disarm in close combat, the roll good for a disarm
    only; a disarm is a level 2 outcome, so a level 1 win achieves nothing."""
    assert legal_outcomes(1, disarm_only=True) == []
    assert legal_outcomes(5, disarm_only=True) == ["disarm"]
    brawler, swordsman = unarmed_pair()
    encounter = start_encounter(
        [("brawler", "b", brawler, None), ("sword", "s", swordsman, "Sword")], GivenFaces([])
    )
    encounter = encounter.with_distance("brawler", "sword", "close")
    encounter = declare(encounter, Declaration(actor="sword", action="defend"))
    encounter = declare(encounter, Declaration(actor="brawler", action="disarm", target="sword"))
    # the brawler: 3 + RFL 2 - 1 bare hands + 4 disarm = 8D6; the defender's sword counts as
    # unarmed in close combat: 3 - 1 bare hands + 2 defence = 4D6
    brawl = [6] * brawler_wins + [1] * (8 - brawler_wins)
    encounter = resolve(encounter, GivenFaces([*brawl, 6, 1, 1, 1]))
    assert {r.actor: r.pool for r in encounter.rolls} == {"brawler": 8, "sword": 4}
    found = [legal_outcomes(v.level, disarm_only=v.disarm_only) for v in encounter.victories]
    assert found == ([victories] if victories else [])
    if not victories:
        assert "short of the level 2 a disarm needs" in render_all(encounter.log)[-2]


def test_declarations_that_could_not_be_rolled_are_refused_at_once() -> None:
    """A heavy ballistic weapon cannot strike in melee; an off-guard attack takes no flank bonus;
    a narrator's modifier is at most 50 dice and a pool at most 200: refused when declared."""
    gunner = fighter(
        "Gunner", rfl=3, skills=(("Heavy Ballistic", 1),), weapons=(("Minigun", "Heavy Ballistic"),)
    )
    encounter = start_encounter(
        [("thug", "t", THUG, "Club"), ("gunner", "g", gunner, "Minigun")], GivenFaces([])
    )
    encounter = declare(encounter, attack("thug", "gunner"))
    with pytest.raises(InputError, match="cannot be used against a melee target"):
        declare(encounter, attack("gunner", "thug"))
    fresh = start_encounter(
        [("thug", "t", THUG, "Club"), ("gunner", "g", gunner, "Minigun")], GivenFaces([])
    )
    with pytest.raises(RulesError, match="without a flanking bonus"):
        declare(
            fresh,
            attack("thug", "gunner").model_copy(
                update={"challenge_level": 2, "circumstances": ("flank",)}
            ),
        )
    with pytest.raises(ValidationError):
        Declaration(actor="thug", action="attack", target="gunner", modifiers=(("x", 51),))
    huge = attack("thug", "gunner").model_copy(update={"modifiers": (("a", 50),) * 4})
    with pytest.raises(InputError, match="at most 200"):
        declare(fresh, huge)


def test_start_checks_secondaries_and_scales() -> None:
    """A secondary weapon must be carried and small or medium; scales name combatants, -6 to 6."""
    pair = [("hale", "g", HALE, "Sword"), ("thug", "t", THUG, "Club")]
    with pytest.raises(InputError, match="carries no 'Axe'"):
        start_encounter(pair, GivenFaces([3, 5]), secondary={"hale": "Axe"})
    with pytest.raises(InputError, match="no combatant 'ogre'"):
        start_encounter(pair, GivenFaces([3, 5]), scales={"ogre": 1})
    with pytest.raises(InputError, match="-6 to 6"):
        start_encounter(pair, GivenFaces([3, 5]), scales={"hale": 7})
    spear = fighter("Spear", weapons=(("Sword", "Medium Weapon"), ("Pike", "Reach Weapon")))
    with pytest.raises(RulesError, match="cannot be a secondary weapon"):
        start_encounter(
            [("s", "a", spear, "Sword"), ("thug", "t", THUG, "Club")],
            GivenFaces([3, 5]),
            secondary={"s": "Pike"},
        )


def test_cli_refuses_bad_files_and_modifiers(run_cli: Any, tmp_path: Path) -> None:
    """One-line errors, exit 2: an --out in a missing directory; an oversized modifier (the
    encounter file is left as it was). A dual wielder starts as ID:SIDE:FILE:WEAPON:SECONDARY."""
    hale = "hale:g:examples/statblocks/sample_swordsman.yaml:Sword:Dagger"
    thug = "thug:t:examples/statblocks/thug.yaml:Club"
    missing = run_cli(
        "cogent", "combat", "start", "--fighter", hale, "--fighter", thug,
        "--out", str(tmp_path / "nowhere" / "fight.json"),
    )  # fmt: skip
    assert missing.status == 2 and "no such directory" in missing.stderr
    assert "Traceback" not in missing.stderr
    file = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--fighter", hale, "--fighter", thug, "--out", str(file),
        "--seed", "3",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    assert "weapon Sword and Dagger" in started.stdout
    first = run_cli("cogent", "combat", "status", str(file), "--json").json()
    actor = next(
        c["id"]
        for c in first["combatants"]
        if c["tie_roll"] == min(c["tie_roll"] for c in first["combatants"])
    )
    before = file.read_text()
    for modifier in ("x=60", "x=abc"):
        bad = run_cli(
            "cogent", "combat", "declare", str(file), "--actor", actor, "--action", "attack",
            "--target", "thug" if actor == "hale" else "hale", "--modifier", modifier,
        )  # fmt: skip
        assert bad.status == 2 and "--modifier" in bad.stderr
    negative = run_cli(
        "cogent", "combat", "declare", str(file), "--actor", actor, "--action", "other",
        "--pool", "-1",
    )  # fmt: skip
    assert negative.status == 2 and "--pool" in negative.stderr
    assert file.read_text() == before


def test_status_shows_who_is_engaged(run_cli: Any, tmp_path: Path) -> None:
    """`combat status` names the engaged pairs: adjacent or in close combat."""
    file = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--out", str(file), "--faces", "3,5",
        "--fighter", "hale:g:examples/statblocks/sample_swordsman.yaml:Sword",
        "--fighter", "thug:t:examples/statblocks/thug.yaml:Club", "--engaged", "hale:thug:close",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    out = run_cli("cogent", "combat", "status", str(file))
    assert out.status == 0, out.stderr
    assert "hale and thug: in close combat" in out.stdout


@pytest.mark.parametrize(
    ("foe_group", "dice"), [("Reach Weapon", 5), ("reach weapon", 5), ("Large Weapon", 2)]
)
def test_a_medium_weapon_keeps_its_bonus_in_close_combat_against_reach(
    foe_group: str, dice: int
) -> None:
    """002 > Close Combat: "you can use a medium weapon in close combat if your opponent is using a
    reach weapon" (3 + Medium 1 + sword 1 = 5D6, the group named in any case); against any other
    weapon the sword counts as unarmed (3 - 1 bare hands = 2D6)."""
    swordsman = fighter(
        "Swordsman", skills=(("Medium Weapons", 1),), weapons=(("Sword", "Medium Weapon"),)
    )
    foe = fighter("Foe", weapons=(("Polearm", foe_group),))
    encounter = start_encounter(
        [("s", "a", swordsman, "Sword"), ("f", "b", foe, "Polearm")], GivenFaces([3, 5])
    ).with_distance("s", "f", "close")
    assert roll_pool(encounter, encounter.combatant("s"), attack("s", "f")).size == dice
