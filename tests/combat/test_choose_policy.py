"""`choose` by the stated policy (RULINGS.md "Default policies"): the loser spends STR, then
armour, only as far as needed; a loser who cannot act spends nothing (002 > Circumstantial
Modifiers, Incapacitated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.cogent.combat import choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.outcomes import policy_reductions
from taletable.systems.cogent.combat.state import Encounter
from taletable.systems.cogent.rules import Rules
from tests.combat.test_rules_in_play import attack, fighter
from tests.combat_helpers import faces_for


def two_on_one(rules: Rules | None = None) -> Encounter:
    """Two raiders (RFL 1) beat a strong knight (STR 2, breastplate: armour 2) in one round."""
    raiders = [(f"r{n}", "r", fighter(f"R{n}", rfl=1), "Sword") for n in (1, 2)]
    knight = fighter("Knight", strength=2, armour=("Breastplate",))
    encounter = start_encounter(
        [("k", "k", knight, "Sword"), *raiders], GivenFaces([1, 2]), rules=rules
    )
    for ident in encounter.declaration_order():
        target = "r1" if ident == "k" else "k"
        encounter = declare(encounter, attack(ident, target))
    return resolve(encounter, faces_for(encounter, {"k": 0, "r1": 4, "r2": 5}))


def test_a_loser_put_down_spends_nothing_on_the_next_victory() -> None:
    """002 > Circumstantial Modifiers (Incapacitated): "cannot fight back or defend themselves.
    armour levels are disregarded". The first victory (level 4) leaves the knight, after its
    policy, with a fatal injury; against the second it spends no STR and no armour, and an
    explicit --strength is refused."""
    encounter = two_on_one()
    first, second = (v.id for v in encounter.victories)
    encounter = choose(encounter, first, "fatal injury", strength=0, armour=0)
    knight = encounter.combatant("k")
    assert not knight.can_act and (knight.strength_left, knight.armour_left) == (2, 2)
    with pytest.raises(RulesError, match="cannot act"):
        choose(encounter, second, strength=1)
    encounter = choose(encounter, second)
    knight = encounter.combatant("k")
    assert (knight.strength_left, knight.armour_left) == (2, 2)
    assert "dead" in knight.conditions  # level 5: a deathblow, nothing reduces it


def test_the_default_spends_strength_then_armour_only_as_needed() -> None:
    """RULINGS.md "Default policies": STR first, then armour, only as far as needed. A level 4
    victory: STR 2 makes it a medium injury, armour 2 negates it (2 STR, 2 armour). A level 6
    deathblow against STR 1: the point would leave a level 5 deathblow, so it is kept."""
    result = policy_reductions("fatal injury", 4, strength_left=2, armour_left=2)
    assert (result.strength_used, result.armour_used, result.final) == (2, 2, None)
    result = policy_reductions("deathblow", 6, strength_left=1, armour_left=1)
    assert (result.strength_used, result.armour_used, result.final) == (0, 1, "fatal injury")
    # a minor injury chosen at level 3 stays minor until the level is 0: one armour, no STR
    result = policy_reductions("minor injury", 3, strength_left=2, armour_left=4)
    assert (result.strength_used, result.armour_used, result.final) == (0, 1, None)
    # a medium injury at level 2: STR 1 makes it minor, one armour negates it (STR first)
    result = policy_reductions("medium injury", 2, strength_left=1, armour_left=3)
    assert (result.strength_used, result.armour_used, result.final) == (1, 1, None)


def test_hardcore_armour_is_free_so_strength_is_kept() -> None:
    """002 > Hardcore Armour Rules: the reduction is "permanent and applies to every injury";
    the policy spends no STR where the armour alone does (a minor injury against armour 3)."""
    result = policy_reductions(
        "serious injury", 3, strength_left=2, armour_left=3, hardcore_armour=True
    )
    assert (result.strength_used, result.final) == (0, None)
    result = policy_reductions("deathblow", 6, strength_left=2, armour_left=3, hardcore_armour=True)
    assert (result.strength_used, result.injury_level) == (2, 1)


def test_a_trip_is_not_resisted_by_default() -> None:
    """An outcome that is no injury is not resisted unless STR is given (RULINGS.md)."""
    result = policy_reductions("trip", 3, strength_left=2, armour_left=2)
    assert (result.strength_used, result.final) == (0, "trip")
    resisted = policy_reductions("trip", 3, strength_left=2, armour_left=2, strength=1)
    assert (resisted.strength_used, resisted.final) == (1, None)


def _started(run_cli: Any, tmp_path: Path) -> Path:
    out = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--fighter", f"t:a:{TERRIK}", "--fighter", "g:b:@goblin",
        "--out", str(out), "--seed", "3",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    return out


TERRIK = "examples/characters/core_sir_terrik.yaml"


def test_declare_and_status_show_the_pools_and_the_reading_order(
    run_cli: Any, tmp_path: Path
) -> None:
    """002 > Round Order: in the performance phase the fastest act first; a table rolling its
    own dice sees each pool as built and which faces are whose."""
    out = _started(run_cli, tmp_path)
    declared = run_cli("cogent", "combat", "declare", str(out), "--actor", "t", "--action",
                       "attack", "--target", "g", "--circumstance", "high ground")  # fmt: skip
    assert declared.status == 0, declared.stderr
    assert "t will roll 10D6 = base +3, STR +1, INT +1" in declared.stdout
    assert "high ground +2" in declared.stdout
    run_cli("cogent", "combat", "declare", str(out), "--actor", "g", "--action", "attack",
            "--target", "t")  # fmt: skip
    status = run_cli("cogent", "combat", "status", str(out))
    assert "g rolls 5D6 = base +3, Small Weapons (Raider) +2" in status.stdout
    assert "faces are read highest RFL first: g 5D6 (faces 1-5), t 10D6 (faces 6-15)" in (
        status.stdout.replace("\n", " ")
    )


@pytest.mark.parametrize(
    ("faces", "told"),
    [
        ("1,2,3", "g's roll needs 2 more and those after it 8 more"),
        (",".join(["4"] * 12), "t's roll needs 1 more"),
        (",".join(["4"] * 15), "2 too many"),
    ],
)
def test_resolve_says_whose_roll_is_short(
    run_cli: Any, tmp_path: Path, faces: str, told: str
) -> None:
    """`resolve --faces` short or long names the roll and the count, and changes nothing."""
    out = _started(run_cli, tmp_path)
    for actor, target in (("t", "g"), ("g", "t")):
        run_cli("cogent", "combat", "declare", str(out), "--actor", actor, "--action", "attack",
                "--target", target)  # fmt: skip
    before = out.read_text()
    resolved = run_cli("cogent", "combat", "resolve", str(out), "--faces", faces)
    assert resolved.status == 2
    assert told in resolved.stderr and "this round reads 13" in resolved.stderr
    assert resolved.stderr.count("\n") == 1
    assert out.read_text() == before
