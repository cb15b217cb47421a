"""Assists and destiny on combat rolls (002 > Assists; 002 > Character Creation > Destiny
Points): an assist's wins or a backfire's losses join the roll's result; destiny before the roll
makes 3-6 win, after it adds a win each, from the points the fighter's sheet holds."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.explain import render_all, render_data
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.character.sheet import Destiny
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.replay import destiny_after, verify_replay
from taletable.systems.cogent.combat.state import Encounter
from tests.combat_helpers import fighter

SWORD = ("Sword", "Medium Weapon")


def _duel(destiny: int = 3) -> Encounter:
    """Knight (RFL 2, 7D6) against thug (RFL 1, 6D6), both with medium swords."""
    knight = fighter("Knight", rfl=2, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    knight = knight.model_copy(update={"destiny": Destiny(points=destiny, maximum=3)})
    thug = fighter("Thug", rfl=1, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    return start_encounter([("k", "a", knight, "Sword"), ("t", "b", thug, "Sword")], GivenFaces([]))


def _declare(encounter: Encounter, **knight: Any) -> Encounter:
    encounter = declare(encounter, Declaration(actor="t", action="attack", target="k"))
    return declare(encounter, Declaration(actor="k", action="attack", target="t", **knight))


def test_an_assist_adds_its_wins_to_the_combat_roll() -> None:
    """002 > Assists: "additional wins are added to the result of the skill or combat roll the
    player has assisted": 2 wins and an assist of +2 beat the thug's 3 wins by one level."""
    encounter = _declare(_duel(), assist_wins=2)
    encounter = resolve(encounter, GivenFaces([4, 4, 1, 1, 1, 1, 1, 5, 5, 5, 1, 1, 1]))
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("k", 1)
    assert encounter.rolls[0].wins == 4 and encounter.rolls[0].assist == 2
    assert "round 1: k rolls 7D6 [4, 4, 1, 1, 1, 1, 1]: 4 wins (assist +2)" in render_all(
        encounter.log
    )
    assert verify_replay(encounter) == encounter


def test_a_backfired_assist_takes_wins_away() -> None:
    """002 > Assists: "if a player achieves only 1 win in an assist roll of CL 3, the player
    will then face a penalty of -2, to be deducted from the result": 3 wins less 2 lose to 2."""
    encounter = _declare(_duel(), assist_wins=-2)
    encounter = resolve(encounter, GivenFaces([6, 6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]))
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("t", 1)


def test_destiny_before_the_roll_makes_three_to_six_win_and_is_debited() -> None:
    """002 > Destiny Points: "A character may spend a Destiny Point before any d6-based roll ...
    each dice that rolls a 3 or higher will be considered a win"."""
    encounter = _declare(_duel(), destiny_before=True)
    assert encounter.combatant("k").sheet.destiny.points == 2
    assert encounter.combatant("k").sheet.history[-1].event == "destiny-spent"
    encounter = resolve(encounter, GivenFaces([3, 3, 3, 3, 1, 1, 1, 3, 3, 3, 4, 1, 1]))
    assert [r.wins for r in encounter.rolls] == [4, 1]
    assert encounter.victories[0].level == 3
    assert verify_replay(encounter) == encounter


def test_destiny_after_the_roll_adds_a_win_each_and_compares_again() -> None:
    """002 > Destiny Points: "A character may spend a Destiny Point after any d6-based roll to
    add a single win in addition to what they achieved. They may do this multiple times": a tie
    (no victory, the round over) becomes a level 2 victory with two points."""
    encounter = resolve(_declare(_duel()), GivenFaces([6, 6, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]))
    assert encounter.victories == () and encounter.round == 2
    encounter = destiny_after(encounter, "k", 1)
    assert encounter.victories[0].level == 1 and encounter.round == 1
    encounter = destiny_after(encounter, "k", 1)
    [victory] = encounter.victories
    assert (victory.winner, victory.level) == ("k", 2)
    assert encounter.combatant("k").sheet.destiny.points == 1
    assert encounter.rolls[0].destiny_after == 2
    assert verify_replay(encounter) == encounter
    encounter = choose(encounter, victory.id)
    with pytest.raises(RulesError, match="right after the roll"):
        destiny_after(encounter, "k", 1)


def test_destiny_is_only_what_the_sheet_holds() -> None:
    """002 > Destiny Points: "for as many Destiny Points as they have"."""
    with pytest.raises(RulesError, match="holds 0 destiny"):
        _declare(_duel(destiny=0), destiny_before=True)
    encounter = resolve(_declare(_duel(destiny=1)), GivenFaces([1] * 13))
    with pytest.raises(RulesError, match="holds 1 destiny point"):
        destiny_after(encounter, "k", 2)
    with pytest.raises(InputError, match="made no roll"):
        waited = declare(_duel(), Declaration(actor="t", action="wait"))
        waited = declare(waited, Declaration(actor="k", action="wait"))
        destiny_after(resolve(waited, GivenFaces([])), "k", 1)


def test_assist_and_destiny_through_the_play_layer_and_cli(run_cli: Any, tmp_path: Any) -> None:
    """`declare --assist-wins --destiny-before` and `combat destiny`; a statblock holds no
    destiny (RULINGS.md "assists and destiny in combat")."""
    table = Table(dice=SeededDice(1), store=MemoryStore(), seal_key=b"k")
    perform("cogent.combat.start", {"out": "f", "fighter": ["a:x:@goblin", "b:y:@goblin"]}, table)
    first = perform("cogent.combat.status", {"file": "f"}, table).result.declaration_order()[0]
    with pytest.raises(RulesError, match="holds 0 destiny"):
        perform("cogent.combat.declare", {"file": "f", "actor": first, "action": "attack",
                "target": "b" if first == "a" else "a", "destiny_before": True}, table)  # fmt: skip
    sheet = tmp_path / "t.yaml"
    with open("examples/characters/core_sir_terrik.yaml", encoding="utf-8") as handle:
        sheet.write_text(yaml.safe_dump(yaml.safe_load(handle)))
    out = str(tmp_path / "fight.json")
    started = run_cli("cogent", "combat", "start", "--fighter", f"k:a:{sheet}", "--fighter",
                      "g:b:@goblin", "--out", out, "--seed", "1", "--json")  # fmt: skip
    held = next(f for f in started.json()["combatants"] if f["id"] == "k")["sheet"]["destiny"]
    order = render_data(started.json()["log"][-1]).split("declaration order ")[1].split(", ")
    for actor in order:
        extra = ["--destiny-before", "--assist-wins", "1"] if actor == "k" else []
        target = "g" if actor == "k" else "k"
        done = run_cli("cogent", "combat", "declare", out, "--actor", actor, "--action",
                       "attack", "--target", target, *extra)  # fmt: skip
        assert done.status == 0, done.stderr
    rolled = run_cli("cogent", "combat", "resolve", out, "--seed", "2", "--json")
    assert rolled.status == 0, rolled.stderr
    knight = next(r for r in rolled.json()["rolls"] if r["actor"] == "k")
    assert (knight["win_on"], knight["assist"]) == (3, 1)
    spent = run_cli("cogent", "combat", "destiny", out, "--fighter", "k", "--json")
    assert spent.status == 0, spent.stderr
    after = next(f for f in spent.json()["combatants"] if f["id"] == "k")["sheet"]["destiny"]
    assert after["points"] == held["points"] - 2
    stored = yaml.safe_load(sheet.read_text())
    assert stored["destiny"]["points"] == held["points"] - 2  # the character's own sheet too
    assert [a["event"] for a in stored["history"][-2:]] == ["destiny-spent", "destiny-spent"]
    assert run_cli("cogent", "combat", "replay", out).status == 0


def test_destiny_spent_in_a_fight_comes_off_the_stored_sheet(tmp_path: Any) -> None:
    """The character in the store is debited with the encounter's copy; a sheet that has spent
    its points elsewhere since the fight began refuses the spend, and nothing is saved."""
    store = MemoryStore()
    table = Table(dice=SeededDice(3), store=store)
    with open("examples/characters/core_sir_terrik.yaml", encoding="utf-8") as handle:
        terrik = yaml.safe_load(handle)
    store.save("character", "terrik", terrik, version=None)
    perform("cogent.combat.start", {"out": "f", "fighter": ["k:a:terrik", "g:b:@goblin"]}, table)
    held = terrik["destiny"]["points"]
    for actor in perform("cogent.combat.status", {"file": "f"}, table).result.declaration_order():
        perform("cogent.combat.declare", {"file": "f", "actor": actor, "action": "attack",
                "target": "g" if actor == "k" else "k", "destiny_before": actor == "k"},
                table)  # fmt: skip
    assert store.read("character", "terrik").data["destiny"]["points"] == held - 1
    perform("cogent.combat.resolve", {"file": "f"}, table)
    drained = dict(store.read("character", "terrik").data)
    drained["destiny"] = {**drained["destiny"], "points": 0}
    store.save("character", "terrik", drained, version=store.read("character", "terrik").version)
    fight = store.read("encounter", "f").version
    with pytest.raises(RulesError, match="1 destiny point"):
        perform("cogent.combat.destiny", {"file": "f", "fighter": "k"}, table)
    assert store.read("encounter", "f").version == fight
    assert store.read("character", "terrik").data["destiny"]["points"] == 0
