"""Encounters: legal command sequences keep the state sound; illegal ones are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError, TaletableError
from taletable.store.sheets import load_character, load_statblock
from taletable.systems.cogent.combat import (
    Declaration,
    Encounter,
    choose,
    declare,
    legal_outcomes,
    resolve,
    start_encounter,
)
from taletable.systems.cogent.combat.aftermath import pending
from taletable.systems.cogent.combat.chases import Chase, chase_round
from taletable.systems.cogent.combat.simulate import simulate_duel
from taletable.systems.cogent.pools import pool_of

TERRIK = load_character("examples/characters/core_sir_terrik.yaml")
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


def duel() -> Encounter:
    return start_encounter(
        [("terrik", "k", TERRIK, "Arming Sword"), ("thug", "g", THUG, "Club")], GivenFaces([3, 5])
    )


def test_illegal_commands_are_refused() -> None:
    """Out of order, twice, unknown targets, early resolves and illegal outcomes are refused."""
    encounter = duel()
    first, second = encounter.declaration_order()
    with pytest.raises(RulesError, match="declares before"):
        declare(encounter, Declaration(actor=second, action="attack", target=first))
    with pytest.raises(InputError, match="no combatant"):
        declare(encounter, Declaration(actor=first, action="attack", target="nobody"))
    with pytest.raises(RulesError, match="no ranged weapon"):
        declare(encounter, Declaration(actor=first, action="ranged", target=second))
    encounter = declare(encounter, Declaration(actor=first, action="attack", target=second))
    with pytest.raises(RulesError, match="cannot be changed"):
        declare(encounter, Declaration(actor=first, action="defend"))
    with pytest.raises(RulesError, match="has not declared"):
        resolve(encounter, SeededDice(1))
    with pytest.raises(RulesError, match="needs close combat"):
        declare(encounter, Declaration(actor=second, action="disarm", target=first))
    encounter = declare(encounter, Declaration(actor=second, action="attack", target=first))
    faces = {"terrik": [4, 4] + [1] * 6, "thug": [4] + [1] * 5}
    performance = list(reversed(encounter.declaration_order()))
    encounter = resolve(encounter, GivenFaces([f for who in performance for f in faces[who]]))
    [victory] = pending(encounter)
    assert (victory.winner, victory.level) == ("terrik", 1)
    with pytest.raises(RulesError, match="not allowed at level"):
        choose(encounter, victory.id, "knockout")
    with pytest.raises(InputError, match="no pending victory"):
        choose(encounter, 99)


def test_outcomes_by_level() -> None:
    """002 > Victory Levels: each level's outcomes; ranged rolls cannot close in or dismember."""
    assert legal_outcomes(1) == ["close combat", "minor injury", "stagger"]
    assert "dismember" in legal_outcomes(4)
    assert "dismember" not in legal_outcomes(4, ranged=True)
    assert "close combat" not in legal_outcomes(2, ranged=True)
    assert legal_outcomes(6)[0] == "deathblow"


def test_defence_roll_wins_nothing_and_stagger_lasts_a_round() -> None:
    """A defence roll adds 2D6 but wins no victory; a stagger weighs on the next round only."""
    encounter = duel()
    first, second = encounter.declaration_order()
    encounter = declare(encounter, Declaration(actor=first, action="attack", target=second))
    encounter = declare(encounter, Declaration(actor=second, action="defend"))
    rolls_needed = 8 + 8  # Terrik 8D6; the thug 6D6 + 2D6 defence
    encounter = resolve(
        encounter, GivenFaces([1] * 8 + [6] * 8 if first == "thug" else [6] * 8 + [1] * 8)
    )
    assert all(v.winner == "terrik" for v in encounter.victories)
    assert rolls_needed == sum(r.pool for r in encounter.rolls)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_seeded_duels_keep_the_encounter_sound(seed: int) -> None:
    """Any seeded duel under the named policies ends or hits its cap with a sound state."""
    result = simulate_duel(
        (TERRIK, "Arming Sword"), (THUG, "Club"), SeededDice(seed), max_rounds=30
    )
    encounter = result.encounter
    assert Encounter.model_validate(encounter.model_dump(mode="json")) == encounter
    for fighter in encounter.combatants:
        assert 0 <= fighter.strength_left <= max(0, fighter.sheet.attributes.STR)
        assert 0 <= fighter.armour_left <= fighter.armour_level
    assert all(v.outcome is not None for v in encounter.victories)
    if result.winner is not None:
        assert len(encounter.sides()) == 1


def test_chase_closes_and_catches() -> None:
    """002 > Chases: the pursuer's wins close the distance; winning at close catches."""
    chase = Chase(distance="medium")
    chase = chase_round(
        chase, pool_of(4), pool_of(4), GivenFaces([6, 6, 6, 1]), GivenFaces([1, 1, 1, 6])
    )
    assert chase.distance == "close"
    chase = chase_round(
        chase, pool_of(4), pool_of(4), GivenFaces([6, 6, 1, 1]), GivenFaces([1, 1, 1, 6])
    )
    assert (chase.outcome, chase.last_margin) == ("caught", 1)
    with pytest.raises(RulesError, match="over"):
        chase_round(chase, pool_of(4), pool_of(4), SeededDice(1))
    escape = Chase(distance="long")
    escape = chase_round(
        escape, pool_of(3), pool_of(3), GivenFaces([1, 1, 1]), GivenFaces([6, 1, 1])
    )
    assert escape.outcome == "escaped"


def test_full_seeded_fight_from_the_cli(run_cli: Any, tmp_path: Path) -> None:
    """Two sample combatants fight from the CLI to the end; a refused step leaves the file."""
    file = tmp_path / "fight.json"
    started = run_cli(
        "cogent",
        "combat",
        "start",
        "--fighter",
        "terrik:knights:examples/characters/core_sir_terrik.yaml:Arming Sword",
        "--fighter",
        "thug:gang:examples/statblocks/thug.yaml:Club",
        "--out",
        str(file),
        "--seed",
        "2",
    )
    assert started.status == 0, started.stderr
    seed = 10
    for _ in range(60):
        state = json.loads(file.read_text())
        able = [
            c["id"]
            for c in state["combatants"]
            if not {"dead", "unconscious", "incapacitated"} & set(c["conditions"])
        ]
        if len({c["side"] for c in state["combatants"] if c["id"] in able}) < 2:
            break
        before = file.read_text()
        refused = run_cli("cogent", "combat", "choose", str(file), "--victory", "999")
        assert refused.status == 2 and file.read_text() == before
        status = run_cli("cogent", "combat", "status", str(file), "--json").json()
        order = sorted(
            able,
            key=lambda i: next(
                (c["sheet"]["attributes"]["RFL"], c["tie_roll"])
                for c in status["combatants"]
                if c["id"] == i
            ),
        )
        for actor in order:
            other = next(i for i in able if i != actor)
            out = run_cli(
                "cogent",
                "combat",
                "declare",
                str(file),
                "--actor",
                actor,
                "--action",
                "attack",
                "--target",
                other,
            )
            assert out.status == 0, out.stderr
        seed += 1
        assert run_cli("cogent", "combat", "resolve", str(file), "--seed", str(seed)).status == 0
        for victory in json.loads(file.read_text())["victories"]:
            if victory["outcome"] is None:
                assert (
                    run_cli(
                        "cogent", "combat", "choose", str(file), "--victory", str(victory["id"])
                    ).status
                    == 0
                )
    final = json.loads(file.read_text())
    standing = {
        c["side"]
        for c in final["combatants"]
        if not {"dead", "unconscious", "incapacitated"} & set(c["conditions"])
    }
    assert len(standing) == 1


def test_errors_are_taletable_errors() -> None:
    """The engine raises only its own errors for bad commands."""
    with pytest.raises(TaletableError):
        start_encounter([("a", "x", TERRIK, "Nothing"), ("b", "y", THUG, None)], SeededDice(1))
