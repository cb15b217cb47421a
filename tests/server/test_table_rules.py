"""A table's rule options and house rules, chosen when it is made (issue 15, Start page): its
actions and odds follow them, another table's do not, and a broken choice is refused naming it."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from taletable.play import is_read
from taletable.server.pages.common import plain_cite
from taletable.systems.cogent.rules import switches
from tests.server.conftest import SAME_ORIGIN, bearer
from tests.server.test_characters import terrik

WEAPONS = Path("src/taletable/systems/cogent/data/weapons.yaml")
MEDIUM = "{name: Medium Weapon, skill: Medium Weapons, melee: 1,"


def _house_weapons(melee: int) -> dict[str, Any]:
    text = WEAPONS.read_text(encoding="utf-8")
    changed = text.replace(MEDIUM, MEDIUM.replace("melee: 1,", f"melee: {melee},"))
    return {"cogent/weapons.yaml": yaml.safe_load(changed)}


def _table(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    made = client.post("/api/tables", json={"name": "T", "system": "cogent", **extra})
    assert made.status_code == 201, made.text
    return made.json()["id"], bearer(made.json()["narrator_token"])


def _act(client: TestClient, table: str, who: dict[str, str], action: str, **args: Any) -> Any:
    done = client.post(
        f"/api/tables/{table}/actions", json={"action": action, "args": args}, headers=who
    )
    assert done.status_code == (200 if is_read(action) else 201), done.text
    return done.json()["result"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_each_table_plays_by_its_own_house_rules(client: TestClient) -> None:
    """A medium weapon worth +3 at one table makes Sir Terrik's Arming Sword pool 10D6 there
    and leaves it 8D6 at a table with the shipped weapons."""
    house, narrator = _table(client, house_rules=_house_weapons(3))
    plain, other = _table(client)
    pools = {}
    for table, who in ((house, narrator), (plain, other)):
        made = client.post(f"/api/tables/{table}/characters", json={"sheet": terrik()}, headers=who)
        result = _act(client, table, who, "cogent.character.pools", character=made.json()["id"])
        pools[table] = result["combat"]["Arming Sword vs melee"]["dice"]
    assert pools == {house: 10, plain: 8}
    export = client.get(f"/api/tables/{house}/export", headers=narrator).json()
    assert export["table"]["house_rules"] == _house_weapons(3)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_rule_option_changes_the_roll(client: TestClient) -> None:
    """With the destiny-after cap (RULINGS.md "Core destiny after"), 1 win and 3 destiny points
    after the roll on 3 dice make 3 wins; without it, 4 (physical dice entered, so both roll
    the same faces)."""
    capped, narrator = _table(client, physical_dice=True, rules={"destiny_after_cap": True})
    free, other = _table(client, physical_dice=True)
    args = {"pool": 3, "cl": 4, "destiny_after": 3, "destiny_points": 3, "faces": "1,1,4"}
    wins = {
        table: _act(client, table, who, "cogent.check", **args)["wins"]
        for table, who in ((capped, narrator), (free, other))
    }
    assert wins == {capped: 3, free: 4}
    options = client.get("/api/tables/rule-options").json()
    assert "destiny_after_cap" in options["rules"]
    assert "cogent/weapons.yaml" in options["house_rules"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_broken_choice_is_refused_naming_it(client: TestClient) -> None:
    """An unknown option, a value that is not a yes or no, an unknown rules table and a table
    its model refuses are each a 422 naming the field; no table is made."""
    cases = [
        ({"rules": {"hardcore_everything": True}}, "rules.hardcore_everything"),
        ({"rules": {"hardcore_armour": "yes please"}}, "rules.hardcore_armour"),
        ({"house_rules": {"cogent/dragons.yaml": {}}}, "house_rules.cogent/dragons.yaml"),
        (
            {"house_rules": {"cogent/weapons.yaml": {"groups": "none"}}},
            "house_rules.cogent/weapons.yaml",
        ),
        ({"system": "boons", "edition": None, "rules": {"hardcore_armour": True}},
         "rules.hardcore_armour"),
        ({"system": "labcats", "edition": None, "rules": {"hardcore_armour": True}}, "rules"),
    ]
    for extra, field in cases:
        body = {"name": "T", "system": "cogent", **extra}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 422, (extra, refused.text)
        assert refused.json()["error"]["field"] == field, refused.json()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_start_page_offers_the_options_and_takes_house_rules(client: TestClient) -> None:
    """The Start page lists the server's rule options; a table made with one checked and a
    house weapons table pasted plays by both; a broken paste is shown, naming the table."""
    start = client.get("/")
    for option in client.get("/api/tables/rule-options").json()["rules"]:
        assert f'name="rule_{option}"' in start.text
    pasted = yaml.safe_dump(_house_weapons(3))
    made = client.post(
        "/start",
        data={
            "name": "House",
            "system": "cogent",
            "edition": "core",
            "rule_hardcore_armour": "true",
            "house_rules": pasted,
        },
        headers=SAME_ORIGIN,
    )
    assert made.status_code == 200, made.text
    table = made.text.split("/t/")[1].split('"')[0].split("/")[0]
    token = made.text.split("token=")[1].split('"')[0].split("&")[0]
    export = client.get(f"/api/tables/{table}/export", headers=bearer(token)).json()
    assert export["table"]["rules"] == {"hardcore_armour": True}
    assert export["table"]["house_rules"] == _house_weapons(3)
    broken = client.post(
        "/start",
        data={
            "name": "Broken",
            "system": "cogent",
            "house_rules": "cogent/weapons.yaml: {groups: 1}",
        },
        headers=SAME_ORIGIN,
    )
    assert broken.status_code == 422 and "house rules cogent/weapons.yaml: source" in broken.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_options_are_described_as_rules_describes_them(client: TestClient) -> None:
    """The API lists each yes-or-no switch of ``Rules`` with its label, help and citation, and
    the Start page shows them (issue 21.7: one description of each thing; issue 24: labels in
    plain words, the citation beside them)."""
    listed = client.get("/api/tables/rule-options").json()["rules"]
    expected = {name: rule for name, rule in switches().items() if rule.yes_or_no}
    assert list(listed) == list(expected)
    for name, rule in expected.items():
        assert listed[name] == rule.to_data(), name
        assert "(00" not in rule.label and "002 >" not in rule.label
    start = html.unescape(client.get("/").text)
    for rule in expected.values():
        assert f"> {rule.label}</label>" in start and rule.help in start
        assert plain_cite(rule.cite) in start  # beside its option, without file numbers
    clamp = start.split('name="rule_scale_clamp"')[1].split(">")[0]
    assert "checked" in clamp  # on unless switched off, as the table would play


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_start_page_switches_off_a_rule_on_by_default(client: TestClient) -> None:
    """The scale clamp's box is shown checked; sent unchecked from the page, the table is made
    without the clamp; the other boxes left unchecked stay at their defaults."""
    form = {"name": "Loose", "system": "cogent", "edition": "tiered", "rules_shown": "true"}
    made = client.post("/start", data=form, headers=SAME_ORIGIN)
    assert made.status_code == 200, made.text
    table = made.text.split("/t/")[1].split('"')[0].split("/")[0]
    token = made.text.split("token=")[1].split('"')[0].split("&")[0]
    export = client.get(f"/api/tables/{table}/export", headers=bearer(token)).json()
    assert export["table"]["rules"] == {"scale_clamp": False}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_fight_keeps_the_table_s_combat_options(client: TestClient) -> None:
    """A table made with hardcore armour and without the scale clamp starts its fights so,
    though the start names neither (002 > Hardcore Armour Rules; RULINGS.md "scale clamp");
    under hardcore armour a sheet's standard armour is refused, naming it."""
    table, narrator = _table(client, rules={"hardcore_armour": True, "scale_clamp": False})
    fight = _act(
        client,
        table,
        narrator,
        "cogent.combat.start",
        encounter="f",
        fighters=["a:a:@goblin", "b:b:@goblin"],
    )
    assert fight["rules"]["hardcore_armour"] is True and fight["rules"]["scale_clamp"] is False
    plain, other = _table(client)
    fight = _act(
        client,
        plain,
        other,
        "cogent.combat.start",
        encounter="f",
        fighters=["a:a:@goblin", "b:b:@goblin"],
    )
    assert fight["rules"]["hardcore_armour"] is False and fight["rules"]["scale_clamp"] is True


def test_a_tables_rules_are_made_once_per_set_and_are_that_sets() -> None:
    """Every action of a table plays by its edition and options, made once and kept: the same
    set gives the same Rules, another set (or edition) its own."""
    from taletable.server.table_rules import table_rules
    from taletable.systems.cogent.rules import Rules

    name = "destiny_after_cap"  # a switch of every edition
    assert name in switches()
    default = getattr(Rules(), name)
    kept = table_rules("core", {name: not default})
    assert kept is table_rules("core", {name: not default})
    assert getattr(kept, name) is (not default) and kept.edition == "core"
    assert getattr(table_rules("core", {}), name) is default
    assert table_rules("tiered", {name: not default}).edition == "tiered"
    assert table_rules("core", {}) == Rules()
