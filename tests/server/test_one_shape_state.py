"""One result shape for both shells (issue 23.5), for the actions that need something stored
first: a fight, a statblock, a new character. Each is set up alike at both shells (files
under a temp folder for the CLI; the same characters at a live table for the API) and each
step's ``--json`` is compared with the API's ``result``: the same record, value for value,
with the given faces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.server.shells import EXAMPLES, Shells, make_shells, named, play, same_keys

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)

#: The actions the CLI exposes that the tests here compare (test_one_shape.py counts them).
COMPARED_HERE = frozenset({
    "cogent.combat.start", "cogent.combat.declare", "cogent.combat.resolve",
    "cogent.combat.destiny", "cogent.combat.choose", "cogent.combat.condition",
    "cogent.combat.status", "cogent.combat.replay", "cogent.combat.take-back",
    "cogent.combat.end",
    "cogent.npc.new", "cogent.npc.show", "cogent.character.new",
})  # fmt: skip


@pytest.fixture
def shells(client: TestClient, tmp_path: Path) -> Shells:
    return make_shells(client, tmp_path)


class Both:
    """One table at each shell: ``run`` plays an action at both and gives the two records,
    each sheet's path or id (and each stored thing's) written as its name."""

    def __init__(
        self, shells: Shells, client: TestClient, run_cli: Any, table: str = "core"
    ) -> None:
        self.table = shells.tables[table]
        self.client, self.run_cli = client, run_cli
        self.names = shells.names(table)

    def run(self, action: str, argv: list[str], args: dict[str, Any]) -> tuple[Any, Any]:
        printed = self.run_cli(*action.split("."), *argv, "--json")
        assert printed.status == 0, printed.stderr
        from_api = play(self.client, self.table, action, args)
        from_cli, from_api = named(printed.json(), self.names), named(from_api, self.names)
        same_keys(from_cli, from_api)
        return from_cli, from_api

    def same(self, action: str, argv: list[str], args: dict[str, Any]) -> Any:
        """The one record both shells print for ``action``."""
        from_cli, from_api = self.run(action, argv, args)
        assert from_cli == from_api
        return from_api


@pytest.fixture
def both(shells: Shells, client: TestClient, run_cli: Any) -> Both:
    return Both(shells, client, run_cli)


def _fighter(record: dict[str, Any], ident: str) -> dict[str, Any]:
    fighter: dict[str, Any] = next(f for f in record["combatants"] if f["id"] == ident)
    return fighter


@SQLITE
def test_a_fight_is_the_same_record_at_each_step(
    shells: Shells, both: Both, tmp_path: Path
) -> None:
    """Sir Terrik against a goblin (002 > Combat), the same fight at both shells: start,
    declarations (lowest RFL first), a resolve with given faces (highest RFL first), a destiny
    point after the roll, the victory's outcome, a narrated state, status and replay, then
    three steps taken back (RULINGS.md "undoing at the table"): every step prints the same
    encounter."""
    out = str(tmp_path / "fight.json")
    both.names[out] = "<fight>"
    terrik = shells.ids["core"]["terrik"]
    fight = {"encounter": "the-fight"}

    def step(command: str, argv: list[str], args: dict[str, Any]) -> Any:
        where = ["--out", out] if command == "start" else [out]
        return both.same(f"cogent.combat.{command}", [*where, *argv], {**fight, **args})

    started = step("start", ["--fighter", f"t:a:{shells.files['terrik']}", "--fighter",
                             "g:b:@goblin", "--faces", "6,1"],
                   {"fighters": [f"t:a:{terrik}", "g:b:@goblin"], "faces": "6,1"})  # fmt: skip
    assert [f["id"] for f in started["combatants"]] == ["t", "g"]
    for actor, target in (("g", "t"), ("t", "g")):
        step("declare", ["--actor", actor, "--action", "attack", "--target", target],
             {"actor": actor, "action": "attack", "target": target})  # fmt: skip
    faces = "6,6,6,6,6,6,6,6,1,1,1,1,1"  # t's 8D6 all sixes, then g's 5D6 all ones
    resolved = step("resolve", ["--faces", faces], {"faces": faces})
    assert [(v["winner"], v["loser"]) for v in resolved["victories"]] == [("t", "g")]
    points = _fighter(resolved, "t")["sheet"]["destiny"]["points"]
    spent = step("destiny", ["--fighter", "t", "--points", "1"], {"fighter": "t", "points": 1})
    assert _fighter(spent, "t")["sheet"]["destiny"]["points"] == points - 1
    chosen = step("choose", ["--victory", "1"], {"victory": 1})
    assert chosen["victories"][0]["outcome"] == "deathblow"
    assert "dead" in _fighter(chosen, "g")["conditions"]
    narrated = step("condition", ["--fighter", "t", "--set", "prone"],
                    {"fighter": "t", "condition": "prone"})  # fmt: skip
    assert "prone" in _fighter(narrated, "t")["conditions"]
    assert step("status", [], {}) == narrated
    assert step("replay", [], {}) == narrated
    assert step("take-back", [], {}) == chosen  # the state set, taken back
    step("take-back", [], {})  # the outcome chosen
    unspent = step("take-back", [], {})  # the destiny spent: given back
    assert _fighter(unspent, "t")["sheet"]["destiny"]["points"] == points
    assert step("status", [], {}) == unspent
    step("choose", ["--victory", "1"], {"victory": 1})
    both.names["the-fight"] = "<fight>"  # the record names the fight's key
    ended = step("end", [], {})  # the same fighters' ends (the keys written as names)
    assert [(f["id"], f["destiny_spent"]) for f in ended["fighters"]] == [("t", 0), ("g", 0)]


@SQLITE
def test_a_new_npc_and_the_statblock_it_saved(both: Both, tmp_path: Path) -> None:
    """002 > NPCs and Monsters: an elite town guard made at both shells and saved (a file at
    the CLI, a statblock at the table), then shown from where it was saved: the same record
    each time (the record never names where it was saved)."""
    out = str(tmp_path / "guard.yaml")
    both.names[out] = "<guard>"
    guard = ["--name", "Watchman", "--tier", "elite", "--vocation", "Town Guard",
             "--weapon-skill", "Medium Weapons", "--weapon", "Medium Weapon",
             "--skill", "Awareness", "--rough", "Intelligence skills=5"]  # fmt: skip
    args = {"name": "Watchman", "tier": "elite", "vocation": "Town Guard",
            "weapon_skill": "Medium Weapons", "weapon": "Medium Weapon", "skills": ["Awareness"],
            "rough": ["Intelligence skills=5"]}  # fmt: skip
    made = both.same("cogent.npc.new", [*guard, "--out", out], {**args, "out": "guard"})
    assert made["name"] == "Watchman" and made["rough_pools"] == {"Intelligence skills": 5}
    shown = both.same("cogent.npc.show", [out], {"statblock": "guard"})
    assert shown == made
    hardcore = both.same("cogent.npc.show", [out, "--hardcore-armour", "--hardcore-weapons"],
                         {"statblock": "guard", "hardcore_armour": True,
                          "hardcore_weapons": True})  # fmt: skip
    assert hardcore["name"] == "Watchman"


@SQLITE
def test_a_new_character_from_a_file(both: Both, tmp_path: Path) -> None:
    """002 > Character Creation: Sir Terrik made from his file at both shells, the same
    record but for ``saved``, which names where it was saved (the file at the CLI, the key at
    the table): that one field is compared as the place each shell was told."""
    source = EXAMPLES / "characters" / "core_sir_terrik.yaml"
    out = str(tmp_path / "terrik-new.yaml")
    sheet = yaml.safe_load(source.read_text())
    from_cli, from_api = both.run("cogent.character.new", ["--from", str(source), "--out", out],
                                  {"sheet": sheet, "key": "terrik-new"})  # fmt: skip
    assert (from_cli.pop("saved"), from_api.pop("saved")) == (out, "terrik-new")
    assert from_cli == from_api
    assert from_api["legal"] is True and from_api["sheet"]["identity"]["name"] == "Sir Terrik"


@SQLITE
def test_a_tiered_fight_with_the_hardcore_rules_is_the_same_record(
    shells: Shells, client: TestClient, run_cli: Any, tmp_path: Path
) -> None:
    """Erin the Mage against two goblins at a tiered table (RULINGS.md "tiered combat"), with
    hardcore armour and weapons, Erin and the first goblin in close combat, a flank, high
    ground and a narrator's modifier: the CLI told ``--edition tiered`` and the rules, the API
    at a tiered table: every step prints the same encounter."""
    both = Both(shells, client, run_cli, "tiered")
    out = str(tmp_path / "tiered.json")
    both.names[out] = "<fight>"
    erin = shells.ids["tiered"]["erin"]
    rules = {"hardcore_armour": True, "hardcore_weapons": True, "engagements": ["e:g1:close"]}
    flags = ["--hardcore-armour", "--hardcore-weapons", "--engaged", "e:g1:close"]
    started = both.same(
        "cogent.combat.start",
        ["--out", out, "--edition", "tiered", "--fighter", f"e:a:{shells.files['erin']}",
         "--fighter", "g1:b:@goblin", "--fighter", "g2:b:@goblin", *flags, "--faces", "6,1,3"],
        {"encounter": "tiered", "fighters": [f"e:a:{erin}", "g1:b:@goblin", "g2:b:@goblin"],
         "faces": "6,1,3", **rules},
    )  # fmt: skip
    assert started["rules"]["edition"] == "tiered" and started["rules"]["hardcore_armour"]
    declared = (("g1", "e", ["--circumstance", "flank"], {"circumstances": ["flank"]}),
                ("g2", "e", ["--modifier", "distance=-1"], {"modifiers": ["distance=-1"]}),
                ("e", "g1", ["--circumstance", "high ground"],
                 {"circumstances": ["high ground"]}))  # fmt: skip
    for actor, target, argv, args in declared:
        both.same("cogent.combat.declare",
                  [out, "--actor", actor, "--action", "attack", "--target", target, *argv],
                  {"encounter": "tiered", "actor": actor, "action": "attack", "target": target,
                   **args})  # fmt: skip
    faces = "6,6,6,6,6,1,1,1,1,6,6,6,6,1,1,1"  # e 5D6, g2 4D6, g1 7D6 (highest RFL first)
    resolved = both.same("cogent.combat.resolve", [out, "--faces", faces],
                         {"encounter": "tiered", "faces": faces})  # fmt: skip
    assert resolved["victories"]
    for victory in resolved["victories"]:
        both.same("cogent.combat.choose", [out, "--victory", str(victory["id"])],
                  {"encounter": "tiered", "victory": victory["id"]})  # fmt: skip
    both.same("cogent.combat.replay", [out], {"encounter": "tiered"})
