"""Scale in combat (tiered) and the combat CLI's rules options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.explain import render_data
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.combat import Declaration, declare, resolve, start_encounter
from taletable.systems.cogent.rules import Rules

THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


@pytest.mark.parametrize(("method", "level"), [(None, 2), ("table", 3), ("difference", 2)])
def test_ogre_and_pixie_in_combat(method: str | None, level: int) -> None:
    """000 > Scale: "An Ogre (+1 Scale) is trying to smash a Pixie (-1 Scale)... The Ogre rolls
    Narrative Success of 0 and adds the +2 Scale modifier to get a total of Narrative Success of
    2 (Level 2 Injury before Armour)". A tie is the Ogre's 0: by default (the book's arithmetic)
    a level 2 victory; by the table switch 3. The Pixie's 0 stays 0 ("can not be turned to
    Narrative Failure")."""
    rules = Rules(edition="tiered")
    if method is not None:
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


def _statblock(tmp_path: Path, name: str, scale: int) -> Path:
    data = yaml.safe_load(Path("examples/statblocks/thug.yaml").read_text())
    data.update({"name": name, "scale": scale})
    path = tmp_path / f"{name.lower()}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_a_statblocks_own_scale_counts_in_combat_start(run_cli: Any, tmp_path: Path) -> None:
    """000 > Scale: "Any Character or Item that has a scale larger or smaller than the standard
    Player Character ... will be denoted with a scale modifier": a statblock's own `scale` is
    the fighter's without --scale; --scale overrides it; --scale-method is the checks' switch."""
    ogre, pixie = _statblock(tmp_path, "Ogre", 1), _statblock(tmp_path, "Pixie", -1)
    fighters = ("--fighter", f"o:x:{ogre}:Club", "--fighter", f"p:y:{pixie}:Club")
    out = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", *fighters, "--edition", "tiered", "--out", str(out),
        "--seed", "1", "--json",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    data = started.json()
    assert {c["id"]: c["scale"] for c in data["combatants"]} == {"o": 1, "p": -1}
    assert data["rules"]["scale_method"] == "difference"
    other = tmp_path / "other.json"
    started = run_cli(
        "cogent", "combat", "start", *fighters, "--edition", "tiered", "--scale", "p=0",
        "--scale-method", "table", "--no-scale-clamp", "--out", str(other), "--seed", "1",
        "--json",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    data = started.json()
    assert {c["id"]: c["scale"] for c in data["combatants"]} == {"o": 1, "p": 0}
    assert (data["rules"]["scale_method"], data["rules"]["scale_clamp"]) == ("table", False)


def test_scale_in_a_core_encounter_is_noted(run_cli: Any, tmp_path: Path) -> None:
    """Scale is a tiered rule (000 > Scale; RULINGS.md): a core encounter says it changes
    nothing."""
    ogre = _statblock(tmp_path, "Ogre", 1)
    out = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--fighter", f"o:x:{ogre}", "--fighter", "g:y:@goblin",
        "--out", str(out), "--seed", "1", "--json",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    assert any(
        "scale changes nothing in the core edition" in line
        for line in map(render_data, started.json()["log"])
    )
