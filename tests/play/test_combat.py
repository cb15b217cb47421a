"""Combat through the play layer with a memory store: the actions a live table dispatches."""

from __future__ import annotations

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import ConflictError, DataError, InputError, RulesError
from taletable.play import Table, perform
from taletable.play.seal import seal
from taletable.store import MemoryStore
from taletable.systems.cogent.combat.reading import round_rolls

KEY = b"the table's key"


def _table(store: MemoryStore | None = None, seed: int = 3) -> Table:
    return Table(dice=SeededDice(seed), store=store or MemoryStore(), seal_key=KEY)


def _store_with_terrik() -> MemoryStore:
    store = MemoryStore()
    with open("examples/characters/core_sir_terrik.yaml", encoding="utf-8") as handle:
        store.save("character", "terrik", yaml.safe_load(handle), version=None)
    with open("examples/statblocks/thug.yaml", encoding="utf-8") as handle:
        store.save("statblock", "thug", yaml.safe_load(handle), version=None)
    return store


def test_a_round_from_start_to_choice_through_the_store() -> None:
    """Start from a stored sheet and statblock, declare lowest RFL first, resolve with given
    faces, choose: each step saves a new version and says where its log lines begin."""
    store = _store_with_terrik()
    table = _table(store)
    started = perform(
        "cogent.combat.start",
        {"out": "duel", "fighter": ["terrik:k:terrik:Arming Sword", "thug:g:thug:Club"]},
        table,
    )
    assert [f.id for f in started.result.combatants] == ["terrik", "thug"]
    assert started.result.opening_dice_source == "seeded"
    order = started.result.declaration_order()
    for actor in order:
        target = "thug" if actor == "terrik" else "terrik"
        args = {"file": "duel", "actor": actor, "action": "attack", "target": target}
        perform("cogent.combat.declare", args, table)
    assert store.read("encounter", "duel").version == 3
    declared = perform("cogent.combat.status", {"file": "duel"}, table).result
    faces = [6 if ident == "terrik" else 1 for ident, pool in round_rolls(declared)
             for _ in range(pool.size)]  # fmt: skip
    rolled = perform("cogent.combat.resolve", {"file": "duel", "faces": faces}, table)
    assert rolled.result.victories[0].winner == "terrik"
    assert rolled.events[0].data["log_from"] == len(started.result.log) + 2
    chosen = perform("cogent.combat.choose", {"file": "duel", "victory": 1}, table)
    assert chosen.result.victories[0].outcome is not None
    status = perform("cogent.combat.status", {"encounter": "duel"}, table).result
    assert status == chosen.result
    replayed = perform("cogent.combat.replay", {"encounter": "duel"}, table)
    assert replayed.result == chosen.result and replayed.events[0].data["steps"] == 4


def test_the_fight_can_start_engaged_per_pair() -> None:
    """002 > Combat > Melee vs Ranged: "the narrator will determine how many rounds this will
    take (it might not take any rounds if the character is close enough)": a pair may start
    adjacent or in close combat; any other pair starts at range."""
    table = _table()
    args = {"out": "f", "fighter": ["a:x:@goblin", "b:y:@goblin", "c:y:@goblin"],
            "engaged": ["a:b:close"]}  # fmt: skip
    encounter = perform("cogent.combat.start", args, table).result
    assert (encounter.distance("a", "b"), encounter.distance("a", "c")) == ("close", "range")
    for bad in (["a:b:far"], ["a:z:close"], ["a:b:close", "b:a:adjacent"], ["a:a:close"]):
        with pytest.raises(InputError) as raised:
            perform("cogent.combat.start", {**args, "out": "g", "engaged": bad}, table)
        assert raised.value.field == "engagements"


def test_a_forged_encounter_is_refused_before_anything_acts() -> None:
    """A victory raised by hand in the stored data, even re-sealed with another key."""
    store = _store_with_terrik()
    table = _table(store)
    perform("cogent.combat.start", {"out": "f", "fighter": ["a:x:@goblin", "b:y:@goblin"]}, table)
    stored = store.read("encounter", "f")
    forged = {**stored.data, "round": 7}
    store.save("encounter", "f", forged, version=stored.version)
    with pytest.raises(DataError, match="edited outside taletable"):
        perform("cogent.combat.status", {"encounter": "f"}, table)
    body = {k: v for k, v in forged.items() if k != "seal"}
    store.save("encounter", "f", seal(body, b"another key"), version=stored.version + 1)
    with pytest.raises(DataError, match="edited outside taletable"):
        perform("cogent.combat.status", {"encounter": "f"}, table)


def test_a_stale_step_is_a_conflict_and_rules_still_refuse() -> None:
    """Two people reading version 1: the first step lands, the second is a ConflictError; a
    declaration out of RFL order is a RulesError citing Round Order."""
    from taletable.play.combat import CombatDeclareRequest, combat_declare
    from taletable.play.encounters import read_encounter, save_encounter

    table = _table()
    perform("cogent.combat.start", {"out": "f", "fighter": ["a:x:@goblin", "b:y:@goblin"]}, table)
    first, second = read_encounter(table, "f").encounter.declaration_order()
    stale = read_encounter(table, "f")
    combat_declare(
        CombatDeclareRequest(encounter="f", actor=first, action="attack", target=second), table
    )
    with pytest.raises(ConflictError):
        save_encounter(table, stale, stale.encounter)
    with pytest.raises(RulesError, match="Round Order"):
        args = {"file": "f", "actor": first, "action": "attack", "target": second}
        perform("cogent.combat.declare", args, table)
