"""Scale in combat (tiered) and the combat CLI's rules options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.dice import GivenFaces
from taletable.systems.cogent.combat import Declaration, declare, resolve, start_encounter
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.statblock import load_statblock

THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


@pytest.mark.parametrize(("method", "level"), [("table", 3), ("difference", 2)])
def test_ogre_and_pixie_in_combat(method: str, level: int) -> None:
    """000 > Scale: Ogre (+1) and Pixie (-1) tie; the Ogre's 0 becomes a victory (the book's
    arithmetic gives 2; the table, by default, 3); the Pixie's 0 stays 0."""
    rules = Rules(edition="tiered", scale_method=method)  # type: ignore[arg-type]
    encounter = start_encounter(
        [("ogre", "o", THUG, "Club"), ("pixie", "p", THUG, "Knife")],
        GivenFaces([1, 2]),
        rules=rules,
        scales={"ogre": 1, "pixie": -1},
    )
    first, second = encounter.declaration_order()
    encounter = declare(encounter, Declaration(actor=first, action="attack", target=second))
    encounter = declare(encounter, Declaration(actor=second, action="attack", target=first))
    encounter = resolve(encounter, GivenFaces([4, 4, 1, 1, 1, 1] * 2))
    [victory] = encounter.victories
    assert (victory.winner, victory.loser, victory.level) == ("ogre", "pixie", level)


def test_cli_start_with_rules_and_scale(run_cli: Any, tmp_path: Path) -> None:
    """`combat start` takes the edition, the hardcore switches and scales."""
    out = tmp_path / "fight.json"
    started = run_cli(
        "cogent",
        "combat",
        "start",
        "--fighter",
        "a:x:examples/statblocks/thug.yaml:Club",
        "--fighter",
        "b:y:examples/statblocks/thug.yaml:Knife",
        "--edition",
        "tiered",
        "--scale",
        "a=2",
        "--hardcore-ranged",
        "--out",
        str(out),
        "--seed",
        "1",
        "--json",
    )
    assert started.status == 0, started.stderr
    data = started.json()
    assert data["rules"]["edition"] == "tiered" and data["rules"]["hardcore_ranged"] is True
    assert {c["id"]: c["scale"] for c in data["combatants"]} == {"a": 2, "b": 0}
    bad = run_cli(
        "cogent",
        "combat",
        "start",
        "--fighter",
        "a:x:examples/statblocks/thug.yaml",
        "--fighter",
        "b:y:examples/statblocks/thug.yaml",
        "--scale",
        "a=big",
        "--out",
        str(tmp_path / "other.json"),
    )
    assert bad.status == 2 and "--scale" in bad.stderr
