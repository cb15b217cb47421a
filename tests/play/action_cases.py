"""The cases of :mod:`test_every_action` (rolls, odds, tables): every action of the registry,
played through a memory store (issue 11: "every play function
is exercised through the memory store"). Each has a case here with a real request and a check of
its outcome; an action registered without a case fails :func:`test_every_action_has_a_case`.

The table holds the example sheets (``terrik``, ``ilsa``, ``mara``, ``ansel`` core; ``erin``,
``olga`` tiered), a boons character (``irzi``) and the Thug's statblock (``thug``); dice are
given faces or a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from taletable.dice import SeededDice
from taletable.play import Played, Table, perform
from taletable.store import MemoryStore

EXAMPLES = Path("examples")
SHEETS = {
    "terrik": "characters/core_sir_terrik.yaml",
    "ilsa": "characters/core_ilsa_the_wizard.yaml",
    "mara": "characters/core_mara_the_thief.yaml",
    "erin": "characters/tiered_erin_the_mage.yaml",
    "olga": "characters/tiered_olga_the_protector.yaml",
    "ansel": "characters/core_brother_ansel.yaml",
}


#: A boons character with a tracked value (003 > Accumulation Checks).
IRZI = {"name": "Irzi", "tracks": {"strain": {"value": 3, "low": 0, "high": 20}}}


def _table() -> Table:
    store = MemoryStore()
    for key, path in SHEETS.items():
        store.save("character", key, yaml.safe_load((EXAMPLES / path).read_text()), version=None)
    thug = yaml.safe_load((EXAMPLES / "statblocks/thug.yaml").read_text())
    store.save("statblock", "thug", thug, version=None)
    store.save("character", "irzi", IRZI, version=None)
    return Table(dice=SeededDice(7), store=store)


def _data(played: Played[Any]) -> Any:
    return played.result.to_data() if hasattr(played.result, "to_data") else played.result


def _stored(table: Table, key: str, kind: str = "character") -> dict[str, Any]:
    return dict(table.store.read(kind, key).data)


Check = Callable[[Played[Any], Table], None]
#: action -> (its arguments, or a function of the table that prepares and returns them; a check)
CASES: dict[str, tuple[dict[str, Any] | Callable[[Table], dict[str, Any]], Check]] = {}


def case(name: str, args: dict[str, Any] | Callable[[Table], dict[str, Any]]) -> Any:
    def register(check: Check) -> Check:
        CASES[name] = (args, check)
        return check

    return register


def _p(value: Any) -> Fraction:
    return Fraction(str(value))


def expect(action: str, args: dict[str, Any], /, *path: str | int, **wanted: Any) -> None:
    """A case whose check is: the result's data at ``path`` holds ``wanted``."""

    def check(played: Played[Any], _: Table) -> None:
        data = _data(played)
        for step in path:
            data = data[step]
        _expect(data, **wanted)

    CASES[action] = (args, check)


# -- rolls: Cogent --------------------------------------------------------------------------
expect(
    "cogent.check",
    {"pool": 5, "cl": 3, "faces": "6,5,4,1,1"},
    wins=3,
    passed=True,
    outcome="narrative success of 0",
)
expect(
    "cogent.conflict",
    {"pool_a": 3, "pool_b": 2, "faces_a": "6,6,1", "faces_b": "1,1"},
    winner="a",
    victory_level=2,
)
expect(
    "cogent.assist",
    {"pool": 4, "challenge_level": 3, "helpers": 3, "faces": "6,6,1,1,6,5,1"},
    pool=7,
    wins=4,
    bonus=1,
)
expect(
    "cogent.collaborate",
    {"pools": [3, 2], "challenge_level": 2, "faces": "6,5,1,1,6"},
    cl=4,
    wins=3,
    passed=False,
)
expect("cogent.destiny-roll", {"face": 17}, band="for")
expect("cogent.powerless", {"pool": 5}, cl=2)
expect("cogent.challenge-levels", {}, "levels", 0, name="Common Task")
expect("roll", {"notation": "2d6+1", "faces": "3,4"}, total=8)


@case("chat.say", {"text": "I climb [[check Athletics cl 1]], then [[2d6+1]]", "as": "terrik"})
def _chat(played: Played[Any], table: Table) -> None:
    result = played.result
    assert result.speaker_name == "Sir Terrik" and result.text.startswith("I climb")
    check, dice = result.rolls
    assert check.kind == "check" and check.chance is not None and check.start == 8
    assert dice.total == sum(dice.faces) + 1 and dice.chance_of == f"{dice.total} or more"

expect(
    "cogent.cast",
    {"spell": "levitation", "character": "ilsa", "cl": 4, "faces": "6,5,4,4,1,1,1"},
    "check",
    pool=7,
    wins=4,
    passed=True,
)
expect(
    "cogent.summon",
    {"school": "pyromancy", "challenge_level": 4, "pool": 6, "faces": "6,6,1,1,1,1"},
    "creature",
    name="Lesser Elemental",
)


def _expect(data: dict[str, Any], **wanted: Any) -> None:
    for name, value in wanted.items():
        assert data[name] == value, (name, data[name], value)


def _logged_check(table: Table) -> dict[str, Any]:
    """A check from Terrik's sheet, as a live table's log would hand it to a follow-up."""
    args = {"character": "terrik", "skill": "Athletics", "cl": 5, "faces": "1,1,1,1,4,5"}
    result = perform("cogent.check", args, table).result.to_data()
    followed = {
        "action": "cogent.check",
        "args": args,
        "result": result,
        "roller": "s1",
        "spender": "s1",
    }
    return {"follows": 3, "destiny_after": 2, "roll": followed}


@case("cogent.destiny-after", _logged_check)
def _destiny_after(played: Played[Any], table: Table) -> None:
    assert played.result.check.wins == 4 and played.result.outcome_before.startswith("narrative")
    assert _stored(table, "terrik")["destiny"]["points"] == 1  # 3 held, 2 spent


# -- rolls: boons and labcats ---------------------------------------------------------------
expect(
    "boons.check",
    {"bonus": 9, "banes": 2, "target": 25, "faces": "6,8,3"},
    total=24,
    margin=-1,
    passed=False,
)
expect(
    "boons.contest",
    {"a_bonus": 3, "b_bonus": 2, "faces_a": "4,4,4", "faces_b": "2,2,2"},
    a_total=15,
    b_total=8,
    winner="a",
)
expect("boons.difficulty", {}, "tiers", 0, name="Trivial", high=12)
expect(
    "boons.group",
    {"difficulty": "moderate", "members": ["Irzi:9:25", "Bo:5:25"], "faces": "5,5,5,1,1,1"},
    "members",
    0,
    name="Irzi",
)
expect("boons.scatter", {"grid": "square", "faces": "2,5"}, direction="north", direct_hit=False)
expect("boons.twist", {"face": 5}, kind="complication")
expect(
    "boons.accumulate",
    {"character": "irzi", "track": "strain", "formula": "1d6+1", "faces": [4]},
    "step",
    before=3,
    delta=5,
    after=8,
)
expect(
    "boons.circumstances-changed",
    {"situation": " deceive the magistrate ", "character": "Silarn"},
    situation="deceive the magistrate",
    character="Silarn",
)
expect(
    "boons.bind-again",
    {"situation": " deceive the magistrate ", "character": "Silarn"},
    situation="deceive the magistrate",
    character="Silarn",
)
expect("boons.track", {"character": "irzi", "track": "strain", "value": 7}, value=7, high=20)
expect(
    "labcats.roll",
    {"pool": "d8,d6,d6,d10", "resources": "d6,d8", "faces": "1,5,3,7", "resource_faces": "4,2"},
    total=16,
    kept=[7, 5],
)
expect("labcats.build", {"value": "Duty=d8", "relationships": ["Mara=d6"]}, pool=[8, 6])
expect(
    "labcats.trouble",
    {"complications": ["d6"], "add": "d6", "watchtower_points": 1},
    trouble_pool=[6],
    plot_points={"Watchtower": 0, "player": 1},
)


# -- odds: exact answers --------------------------------------------------------------------
def chance(name: str, args: dict[str, Any], *path: str | int, p: Fraction) -> None:
    """A case whose check is: the exact probability at ``path`` is ``p``."""

    def check(played: Played[Any], _: Table) -> None:
        data = _data(played)
        for step in path:
            data = data[step]
        assert Fraction(str(data)) == p, (name, data, p)

    CASES[name] = (args, check)


chance("odds.cogent", {"pool": 4, "challenge_level": 2}, "p_pass", p=Fraction(11, 16))
chance(
    "odds.cogent.assist",
    {"pool": 4, "challenge_level": 2, "assist_pool": 3},
    "p_pass_alone",
    p=Fraction(11, 16),
)
chance(
    "odds.cogent.collaborate", {"pools": [3, 2], "challenge_level": 2}, "p_pass", p=Fraction(3, 16)
)
chance("odds.cogent.conflict", {"pool_a": 3, "pool_b": 2}, "p_a", p=Fraction(8, 11))
chance("odds.boons", {"bonus": 9, "target": 25}, "p_pass", p=Fraction(81, 256))
chance(
    "odds.boons.accumulate",
    {"character": "irzi", "track": "strain", "formula": "1d4", "subtract": True},
    "distribution", 0, 1, p=Fraction(1, 2),  # 3 - 1d4 at least 0: 0 on a 3 or a 4
)  # fmt: skip
chance("odds.labcats", {"pool": "d8,d6", "target": 8}, "p_pass", p=Fraction(13, 24))
chance("cheatsheet.cogent", {"max_pool": 4, "max_cl": 2}, "exact", "4", 1, 1, p=Fraction(3, 4))
chance("table.odds", {"name": "severity"}, "entries", 0, "chance", p=Fraction(1, 3))
expect("odds.cogent.advise", {"pool": 4, "chance": 31}, cl=3)
case("odds.cogent.duel", {"a": "terrik", "b": "thug:Club", "rounds": 20})(
    lambda played, _: _expect({"p": _p(_data(played)["p_a"]) > Fraction(9, 10)}, p=True)
)
case("odds.cogent.fight", {"fighters": ["t:a:terrik", "g:b:@goblin"], "samples": 200, "seed": 1})(
    lambda played, _: _expect({"w": _data(played)["wins"]["a"]["p"] > 0.9}, w=True)
)

# -- narrator's tables, NPCs ----------------------------------------------------------------
case("table.list", {})(
    lambda played, _: _expect(
        {"has": "severity" in {t["name"] for t in _data(played)["tables"]}}, has=True
    )
)
expect("table.roll", {"name": "severity", "faces": "4"}, result="Average", total=4)
expect(
    "cogent.weather",
    {"season": "winter", "climate": "cold", "days": 2, "faces": "3,3,3"},
    "days",
    0,
    weather="Blizzard",
)
expect(
    "cogent.encounter",
    {"where": "city", "time": "day", "faces": "50,3"},
    encounter="Preacher",
    severity="Average",
)
expect("cogent.npc.bestiary", {"name": "goblin"}, name="Goblin")
expect("cogent.npc.show", {"statblock": "thug"}, name="Thug")


@case(
    "cogent.npc.new", {"name": "Guard", "tier": "elite", "vocation": "Town Guard", "out": "guard"}
)
def _npc_new(played: Played[Any], table: Table) -> None:
    assert _data(played)["attributes"]["STR"] == 1
    assert _stored(table, "guard", "statblock")["name"] == "Guard"


@case(
    "cogent.combat.chase",
    {"distance": "close", "pursuer": "terrik", "target": "@goblin", "faces": "6,6,6,6,6,6,6,6,1"},
)
def _chase(played: Played[Any], _: Table) -> None:
    _expect(_data(played), outcome="caught", rounds=1)


@case("log.strike", {"seq": 4, "reason": "  the wrong CL  "})
def _strike(played: Played[Any], _: Table) -> None:
    _expect(_data(played), seq=4, reason="the wrong CL")
    assert played.result.summary.values == {"seq": 4, "reason": "the wrong CL"}
