"""Reach lost in narrow confines: 002 > Combat > Weapon Modifiers, Reach Weapon: "the Narrator is
free to negate all dice bonuses if they feel the reach weapon would not work as effectively due to
narrow confines such as an alleyway or hallway" (the declaration's ``narrow`` circumstance)."""

from __future__ import annotations

from typing import Any

import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.combat import Declaration, start_encounter
from taletable.systems.cogent.combat.reading import round_rolls
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.combat.state import Encounter

YSOLDE = load_statblock("examples/statblocks/sample_spearwoman.yaml").as_character()
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


def alley(weapon: str) -> Encounter:
    return start_encounter(
        [("ysolde", "y", YSOLDE, weapon), ("thug", "t", THUG, "Club")], GivenFaces([])
    )


def pool_of(encounter: Encounter, *circumstances: str) -> list[tuple[str, int]]:
    declared = Declaration(
        actor="ysolde", action="attack", target="thug", circumstances=circumstances
    )
    pool = roll_pool(encounter, encounter.combatant("ysolde"), declared)
    return [(c.source, c.dice) for c in pool.contributions]


def test_narrow_confines_negate_the_spears_reach_bonus() -> None:
    """The spear's +3D6 (Reach Weapon) is negated in an alleyway: 3D6 fewer, named."""
    encounter = alley("Spear")
    open_ground = pool_of(encounter)
    narrow = pool_of(encounter, "narrow")
    assert ("Spear (Reach Weapon)", 3) in open_ground
    assert narrow == [*open_ground, ("narrow confines: Spear's reach bonus negated", -3)]
    assert sum(d for _, d in narrow) == sum(d for _, d in open_ground) - 3


def test_narrow_confines_leave_a_bow_alone() -> None:
    """Only a reach weapon loses its bonus: a bow's pool is the same, with a note saying so."""
    encounter = alley("Short Bow")
    assert sum(d for _, d in pool_of(encounter, "narrow")) == sum(d for _, d in pool_of(encounter))


def test_narrow_is_a_circumstance_of_the_play_request_and_the_cli(run_cli: Any) -> None:
    """``narrow`` is accepted by the play request (cogent.combat.declare) and the round's pool
    drops the reach bonus; the CLI lists it as a --circumstance choice."""
    store = MemoryStore()
    with open("examples/statblocks/sample_spearwoman.yaml", encoding="utf-8") as handle:
        store.save("statblock", "ysolde", yaml.safe_load(handle), version=None)
    with open("examples/statblocks/thug.yaml", encoding="utf-8") as handle:
        store.save("statblock", "thug", yaml.safe_load(handle), version=None)
    table = Table(dice=SeededDice(1), store=store, seal_key=b"key")
    fighters = ["ysolde:y:ysolde:Spear", "thug:t:thug:Club"]
    perform("cogent.combat.start", {"out": "alley", "fighter": fighters}, table)
    args = {"file": "alley", "action": "attack"}
    perform("cogent.combat.declare", {**args, "actor": "thug", "target": "ysolde"}, table)
    declared = perform(
        "cogent.combat.declare",
        {**args, "actor": "ysolde", "target": "thug", "circumstance": ["narrow"]},
        table,
    ).result
    assert declared.declarations[-1].circumstances == ("narrow",)
    pools = dict(round_rolls(declared))
    sources = [(c.source, c.dice) for c in pools["ysolde"].contributions]
    assert ("narrow confines: Spear's reach bonus negated", -3) in sources
    out = run_cli("cogent", "combat", "declare", "--help")
    assert "narrow" in out.stdout
