"""Chases built from sheets (002 > Combat > Chases): "When on foot, the characters use the
athletics skill to make chase rolls"; "When using a vehicle (including mounts) the characters use
their ride/pilot skill"; assists allowed; a clear result of who is caught."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.play import Table, perform
from taletable.store import MemoryStore

TERRIK = "examples/characters/core_sir_terrik.yaml"
MARA = "examples/characters/core_mara_the_thief.yaml"


def _table() -> Table:
    store = MemoryStore()
    for key, path in (("terrik", TERRIK), ("mara", MARA)):
        with open(path, encoding="utf-8") as handle:
            store.save("character", key, yaml.safe_load(handle), version=None)
    return Table(dice=SeededDice(5), store=store)


def test_athletics_on_foot_and_the_catch_at_close_distance() -> None:
    """ "If a pursuer wins the chase roll against the target at a close distance, the pursuer
    'catches' those trying to flee": Terrik's Athletics (3 + STR 1 + Athletics 2 = 6D6) against
    Mara's (3 + STR 0 + Athletics 1 = 4D6), 3 wins to 1."""
    args = {"distance": "close", "pursuer": "terrik", "target": "mara",
            "faces": [6, 6, 6, 1, 1, 1, 6, 1, 1, 1]}  # fmt: skip
    result = perform("cogent.combat.chase", args, _table()).result
    assert (result.pursuer.skill, result.pursuer.pool) == ("Athletics", 6)
    assert ("Athletics", 2) in result.pursuer.breakdown
    assert (result.target.skill, result.target.pool) == ("Athletics", 4)
    assert (result.outcome, result.caught, result.escaped) == ("caught", "Mara", None)
    assert result.summary == f"Mara caught by {result.pursuer.name}"
    assert result.last_margin == 2


def test_a_mount_rolls_ride_pilot_and_an_assist_helps_the_target_escape() -> None:
    """Ride/Pilot on a mount (Terrik: 3 + RFL 0 + Ride/Pilot 2); "other skills ... can be used to
    assist the chase role, such as using acrobatics": Mara's +2 assist turns 1 win against 2
    into 3, and at long distance "the characters have successfully fled"."""
    args = {"distance": "long", "pursuer": "terrik", "pursuer_on": "vehicle", "target": "mara",
            "target_assist": 2, "faces": [6, 6, 1, 1, 1, 6, 1, 1, 1]}  # fmt: skip
    result = perform("cogent.combat.chase", args, _table()).result
    assert (result.pursuer.skill, result.pursuer.pool) == ("Ride/Pilot", 5)
    assert (result.outcome, result.escaped, result.caught) == ("escaped", "Mara", None)


def test_rounds_run_until_the_chase_ends_and_bad_sides_are_refused() -> None:
    """ "If the pursuer wins the chase roll, the distance between the characters is reduced":
    from medium, two pursuer wins close to close and then catch; a bestiary creature rolls its
    Athletics; an unknown sheet is refused."""
    table = _table()
    args = {"distance": "medium", "pursuer": "2", "target": "1", "rounds": 5}
    result = perform("cogent.combat.chase", {**args, "faces": [6, 6, 1, 6, 6, 1]}, table).result
    assert (result.outcome, result.rounds, result.distance) == ("caught", 2, "close")
    assert result.caught == "target (1 dice)"
    goblin = perform("cogent.combat.chase", {**args, "target": "@goblin", "rounds": 1}, table)
    assert goblin.result.target.skill == "Athletics" and goblin.result.rounds == 1
    with pytest.raises(InputError) as raised:
        perform("cogent.combat.chase", {**args, "target": "nobody"}, table)
    assert "nobody" in str(raised.value)


def test_the_cli_builds_a_chase_from_sheet_files(run_cli: Any) -> None:
    """`combat chase --pursuer FILE --target FILE` shows each pool as built and who is caught."""
    out = run_cli("cogent", "combat", "chase", "--distance", "close", "--pursuer", TERRIK,
                  "--target", MARA, "--faces", "6,6,6,1,1,1,6,1,1,1")  # fmt: skip
    assert out.status == 0, out.stderr
    assert "target: Mara, Athletics 4D6 = base +3" in out.stdout
    assert "Mara caught by" in out.stdout and "lost by 2" in out.stdout
