"""States the narrator sets during a fight (002 > Combat > Circumstantial Modifiers): thrown sand
staggers, a trip or a slip leaves a fighter prone, the tied up and the asleep are helpless; each
is a step of the encounter, so a replay makes it again."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.explain import render_all
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.combat import (
    Declaration,
    choose,
    declare,
    resolve,
    start_encounter,
)
from taletable.systems.cogent.combat.narration import narrate_condition
from taletable.systems.cogent.combat.replay import verify_replay
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.combat.state import Encounter
from tests.combat_helpers import faces_for, fighter

SWORD = ("Sword", "Medium Weapon")


def _duel() -> Encounter:
    knight = fighter(
        "Knight", rfl=2, skills=(("Medium Weapons", 1),), weapons=(SWORD,), armour=("Breastplate",)
    )
    thug = fighter("Thug", rfl=1, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    return start_encounter([("k", "a", knight, "Sword"), ("t", "b", thug, "Sword")], GivenFaces([]))


def _both_attack(encounter: Encounter) -> Encounter:
    for actor in encounter.declaration_order():
        other = "t" if actor == "k" else "k"
        encounter = declare(encounter, Declaration(actor=actor, action="attack", target=other))
    return encounter


def _parts(encounter: Encounter, ident: str) -> list[tuple[str, int]]:
    declared = next(d for d in encounter.declarations if d.actor == ident)
    pool = roll_pool(encounter, encounter.combatant(ident), declared)
    return [(c.source, c.dice) for c in pool.contributions]


def test_sand_in_the_face_staggers_for_one_round() -> None:
    """002 > Circumstantial Modifiers: "Staggered -2D6 Penalty received if the opponent selects
    to stagger through a victory level, or if the Narrator applies it, IE sand is thrown in a
    character's face"; a stagger lasts "for one round" (Victory Levels)."""
    encounter = narrate_condition(_duel(), "t", "staggered")
    assert encounter.combatant("t").conditions == ("staggered",)
    encounter = _both_attack(encounter)
    assert ("staggered", -2) in _parts(encounter, "t")
    encounter = resolve(encounter, faces_for(encounter, {"k": 1, "t": 1}))
    assert encounter.round == 2 and encounter.combatant("t").conditions == ()
    assert verify_replay(encounter) == encounter
    assert "narrator: t is staggered until the end of round 1" in "\n".join(
        render_all(encounter.log)
    )


def test_prone_for_the_rounds_the_narrator_gives() -> None:
    """002 > Circumstantial Modifiers: "Prone -4D6 Penalty lasts for one round or until the
    character readies themselves": prone for two rounds weighs on both."""
    encounter = narrate_condition(_duel(), "k", "prone", rounds=2)
    for _ in range(2):
        encounter = _both_attack(encounter)
        assert ("prone", -4) in _parts(encounter, "k")
        encounter = resolve(encounter, faces_for(encounter, {"k": 1, "t": 1}))
    assert encounter.round == 3 and encounter.combatant("k").conditions == ()
    assert verify_replay(encounter) == encounter


def test_a_tied_up_fighter_is_hit_at_cl_1_with_armour_ignored_until_freed() -> None:
    """002 > Circumstantial Modifiers (Incapacitated): "held in place, tied up, or unconscious
    and therefore cannot fight back or defend themselves. armour levels are disregarded and the
    CL a character must exceed to obtain ANY victory level against them is CL1"."""
    encounter = narrate_condition(_duel(), "k", "tied up")
    assert encounter.declaration_order() == ["t"]
    with pytest.raises(RulesError, match="cannot act"):
        declare(encounter, Declaration(actor="k", action="defend"))
    encounter = declare(encounter, Declaration(actor="t", action="attack", target="k"))
    encounter = resolve(encounter, faces_for(encounter, {"t": 3}))
    [victory] = encounter.victories
    assert (victory.level, victory.armour_allowed, victory.detail) == (
        2, False, "incapacitated target (CL 1, armour ignored)",
    )  # fmt: skip
    encounter = choose(encounter, victory.id, "stagger")
    encounter = narrate_condition(encounter, "k", "tied up", clear=True)
    assert encounter.combatant("k").can_act
    assert encounter.declaration_order() == ["t", "k"]
    assert verify_replay(encounter) == encounter


def test_asleep_and_prone_stays_prone_until_woken() -> None:
    """002 > Circumstantial Modifiers (Prone): "Penalty lasts for one round ... unless they are
    incapacitated/sleeping"."""
    encounter = narrate_condition(narrate_condition(_duel(), "k", "prone"), "k", "asleep")
    assert "prone" not in encounter.combatant("k").condition_until
    encounter = declare(encounter, Declaration(actor="t", action="wait"))
    encounter = resolve(encounter, GivenFaces([]))
    assert encounter.round == 2 and "prone" in encounter.combatant("k").conditions


def test_states_change_between_rounds_only_and_known_ones_only() -> None:
    """A declaration "cannot change" once made (002 > Round Order), so the narrator sets a state
    before anyone declares; an unknown state, or clearing one not held, is refused."""
    encounter = declare(_duel(), Declaration(actor="t", action="attack", target="k"))
    with pytest.raises(RulesError, match="before anyone declares"):
        narrate_condition(encounter, "k", "prone")
    with pytest.raises(InputError) as unknown:
        narrate_condition(_duel(), "k", "poisoned")
    assert unknown.value.field == "condition"
    with pytest.raises(InputError, match="is not prone"):
        narrate_condition(_duel(), "k", "prone", clear=True)


def test_the_condition_action_through_the_store_and_the_cli(run_cli: Any, tmp_path: Any) -> None:
    """`cogent.combat.condition` saves a step that replays; the CLI sets, clears and refuses."""
    table = Table(dice=SeededDice(1), store=MemoryStore(), seal_key=b"k")
    args = {"out": "f", "fighter": ["a:x:@goblin", "b:y:@goblin"]}
    perform("cogent.combat.start", args, table)
    played = perform(
        "cogent.combat.condition", {"file": "f", "fighter": "a", "set": "tied up"}, table
    )
    assert played.result.steps[-1].kind == "condition"
    assert perform("cogent.combat.replay", {"file": "f"}, table).result == played.result
    with pytest.raises(InputError):
        perform("cogent.combat.condition", {"file": "f", "fighter": "a"}, table)
    sheet = tmp_path / "k.yaml"
    with open("examples/characters/core_sir_terrik.yaml", encoding="utf-8") as handle:
        sheet.write_text(yaml.safe_dump(yaml.safe_load(handle)))
    out = str(tmp_path / "fight.json")
    run_cli("cogent", "combat", "start", "--fighter", f"k:a:{sheet}", "--fighter",
            "g:b:@goblin", "--out", out, "--seed", "1")  # fmt: skip
    done = run_cli("cogent", "combat", "condition", out, "--fighter", "g", "--set", "sand")
    assert done.status == 2 and "--set" in done.stderr
    done = run_cli("cogent", "combat", "condition", out, "--fighter", "g", "--set", "staggered")
    assert done.status == 0 and "g is staggered until the end of round 1" in done.stdout
    cleared = run_cli(
        "cogent", "combat", "condition", out, "--fighter", "g", "--clear", "staggered"
    )
    assert cleared.status == 0 and "g is no longer staggered" in cleared.stdout
    assert run_cli("cogent", "combat", "replay", out).status == 0
