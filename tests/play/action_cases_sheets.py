"""The cases of :mod:`test_every_action` that keep sheets and fights in the store: character
actions and combat, each checked on what the store holds afterwards."""

from __future__ import annotations

from typing import Any

import yaml

from taletable.play import Played, Table, perform
from tests.play.action_cases import EXAMPLES, SHEETS, _data, _expect, _stored, case, expect

# -- characters: sheets in the store --------------------------------------------------------
TERRIK = yaml.safe_load((EXAMPLES / SHEETS["terrik"]).read_text())

expect("cogent.character.pools", {"character": "terrik"}, "checks", "Athletics", dice=6)
expect("cogent.character.validate", {"key": "terrik"}, legal=True)


@case("cogent.character.new", {"sheet": TERRIK, "key": "terrik2"})
def _new(played: Played[Any], table: Table) -> None:
    assert played.result.legal and _stored(table, "terrik2")["identity"]["name"] == "Sir Terrik"


expect(
    "cogent.character.new.step",
    {"sheet": TERRIK, "step": "attributes"},
    step="attributes",
    legal=True,
)
expect("cogent.character.new.disabling", {"answer": "roll"}, how="rolled")
case("cogent.character.new.quirk", {"answer": "roll", "edition": "core"})(
    lambda played, _: _expect({"named": bool(_data(played)["name"])}, named=True)
)
expect(
    "cogent.character.new.commerce",
    {"sheet": TERRIK, "assigned": 3},
    "sheet",
    "commerce",
    assigned=3,
)
expect("cogent.character.new.starting-destiny", {"sheet": TERRIK}, "sheet", "destiny", points=3)


@case("cogent.buy", {"character": "terrik", "item": "Rope", "value": 1})
def _buy(played: Played[Any], table: Table) -> None:
    _expect(_data(played), cost=0, points_after=3)
    assert "Rope" in _stored(table, "terrik")["equipment"]["items"]


@case("cogent.character.advance", {"character": "ansel", "event": "chapter"})
def _advance(played: Played[Any], table: Table) -> None:
    assert _stored(table, "ansel")["progress"]["chapters_completed"] == 1


@case("cogent.character.commerce", {"character": "terrik", "gain": 1, "reason": "loot"})
def _commerce(played: Played[Any], table: Table) -> None:
    assert _stored(table, "terrik")["commerce"]["gained"] == 1


@case("cogent.character.destiny", {"character": "olga", "award": 1, "reason": "heroics"})
def _destiny(played: Played[Any], table: Table) -> None:
    assert _stored(table, "olga")["destiny"]["points"] == 1


def _in_debt(table: Table) -> dict[str, Any]:
    """Brother Ansel with the Debt quirk (002 > Quirks of Wealth: "lose 2 Commerce Level")."""
    ansel = _stored(table, "ansel")
    ansel["commerce"] = {**ansel["commerce"], "quirks": ["Debt"]}
    table.store.save(
        "character", "ansel", ansel, version=table.store.read("character", "ansel").version
    )
    return {"character": "ansel", "quirk": "Debt", "reason": "lost the income for a month"}


@case("cogent.character.quirk", _in_debt)
def _quirk(played: Played[Any], table: Table) -> None:
    stored = _stored(table, "ansel")
    assert stored["history"][-1]["event"] == "quirk"
    assert stored["commerce"]["points"] == 2  # level 4, less the 2 the quirk costs


def _arc_ended(table: Table) -> dict[str, Any]:
    for _ in range(2):
        perform("cogent.character.advance", {"character": "ansel", "event": "arc"}, table)
    return {"character": "ansel", "attribute": "RFL"}


@case("cogent.character.raise", _arc_ended)
def _raise(played: Played[Any], table: Table) -> None:
    before = yaml.safe_load((EXAMPLES / SHEETS["ansel"]).read_text())["attributes"]["RFL"]
    assert _stored(table, "ansel")["attributes"]["RFL"] == before + 1


# -- combat: one fight, played as far as each action needs ----------------------------------
def _fight(table: Table, upto: str) -> dict[str, Any]:
    """Sir Terrik (``k``, from the store) against a goblin, played up to ``upto``."""
    steps = ["start", "declare", "resolve", "choose"]
    if upto == "start":
        return {"encounter": "f", "fighters": ["k:a:terrik", "g:b:@goblin"]}
    perform("cogent.combat.start", _fight(table, "start"), table)
    if upto in ("status", "replay", "condition", "declare"):
        return {"encounter": "f"}
    for actor in perform(
        "cogent.combat.status", {"encounter": "f"}, table
    ).result.declaration_order():
        target = "g" if actor == "k" else "k"
        perform(
            "cogent.combat.declare",
            {
                "encounter": "f",
                "actor": actor,
                "action": "attack",
                "target": target,
                "destiny_before": actor == "k",
            },
            table,
        )
    if upto in ("resolve",):
        return {"encounter": "f"}
    perform("cogent.combat.resolve", {"encounter": "f"}, table)
    assert steps
    return {"encounter": "f"}


def _fighter(table: Table, ident: str) -> dict[str, Any]:
    encounter = perform("cogent.combat.status", {"encounter": "f"}, table).result
    return encounter.combatant(ident).to_data()


@case("cogent.combat.start", lambda table: _fight(table, "start"))
def _start(played: Played[Any], table: Table) -> None:
    assert [f.id for f in played.result.combatants] == ["k", "g"]
    assert table.store.read("encounter", "f").version == 1


@case("cogent.combat.status", lambda table: _fight(table, "status"))
def _status(played: Played[Any], _: Table) -> None:
    assert played.result.phase == "declaration" and played.result.round == 1


@case(
    "cogent.combat.declare",
    lambda table: {**_fight(table, "declare"), "actor": "g", "action": "attack", "target": "k"},
)
def _declare(played: Played[Any], _: Table) -> None:
    assert [d.actor for d in played.result.declarations] == ["g"]


@case("cogent.combat.resolve", lambda table: _fight(table, "resolve"))
def _resolve(played: Played[Any], table: Table) -> None:
    assert played.result.phase == "outcomes" and len(played.result.rolls) == 2
    assert _stored(table, "terrik")["destiny"]["points"] == 2  # spent before the roll


@case("cogent.combat.destiny", lambda table: {**_fight(table, "destiny"), "fighter": "k"})
def _combat_destiny(played: Played[Any], table: Table) -> None:
    assert played.result.combatant("k").sheet.destiny.points == 1
    assert _stored(table, "terrik")["destiny"]["points"] == 1


def _chosen(table: Table) -> dict[str, Any]:
    args = _fight(table, "choose")
    victory = perform("cogent.combat.status", args, table).result.victories[0]
    return {**args, "victory": victory.id}


@case("cogent.combat.choose", _chosen)
def _choose(played: Played[Any], _: Table) -> None:
    assert played.result.steps[-1].kind == "choose"


@case(
    "cogent.combat.condition",
    lambda table: {**_fight(table, "condition"), "fighter": "g", "condition": "prone"},
)
def _condition(played: Played[Any], table: Table) -> None:
    assert "prone" in _fighter(table, "g")["conditions"]


@case("cogent.combat.replay", lambda table: _fight(table, "replay"))
def _replay(played: Played[Any], _: Table) -> None:
    assert played.result.round == 1 and not played.result.steps


@case("cogent.combat.take-back", lambda table: _fight(table, "resolve"))
def _take_back(played: Played[Any], table: Table) -> None:
    """The last declaration (Sir Terrik's, with a destiny point) is taken back: one step is
    left, the encounter is at a new version, and the point is back on his sheet."""
    assert [step.kind for step in played.result.steps] == ["declare"]
    assert [d.actor for d in played.result.declarations] == ["g"]
    assert table.store.read("encounter", "f").version == 4
    assert _stored(table, "terrik")["destiny"]["points"] == 3


def _ended(table: Table) -> dict[str, Any]:
    """The fight rolled and its victory chosen: ready to end."""
    return _chosen_args(_chosen(table), table)


def _chosen_args(args: dict[str, Any], table: Table) -> dict[str, Any]:
    perform("cogent.combat.choose", args, table)
    return {"encounter": args["encounter"]}


@case("cogent.combat.end", _ended)
def _end(played: Played[Any], table: Table) -> None:
    """Sir Terrik's injuries and lasting states go on his stored sheet when they changed; the
    goblin is reported; the fight is played on no more."""
    ends = {end.id: end for end in played.result.fighters}
    assert ends["g"].character is None and ends["k"].character == "terrik"
    assert ends["k"].destiny_spent == 1  # his point before the roll, already off his sheet
    stored = _stored(table, "terrik")
    assert len(stored.get("injuries", [])) == len(ends["k"].injuries)
    assert table.store.read("encounter", "f").data["ended"] is True


def _hurt(table: Table) -> dict[str, Any]:
    sheet = {**_stored(table, "ansel"), "injuries": [{"level": 1}, {"level": 3}]}
    table.store.save(
        "character", "ansel", sheet, version=table.store.read("character", "ansel").version
    )
    return {"character": "ansel"}


@case("cogent.character.treat", _hurt)
def _treat(played: Played[Any], table: Table) -> None:
    """The most severe untreated injury (the serious one) at CL 3, treated on a pass only."""
    assert played.result.injury.level == 3 and played.result.check.challenge_level == 3
    assert _stored(table, "ansel")["injuries"][1].get("treated", False) is played.result.treated


@case("cogent.character.rest", lambda table: {**_hurt(table), "days": 3})
def _rest(played: Played[Any], table: Table) -> None:
    """Three days heal the untreated minor injury; the untreated serious one waits."""
    assert [injury.level for injury in played.result.injuries] == [3]
    assert _stored(table, "ansel")["injuries"] == [{"level": 3, "description": ""}]
