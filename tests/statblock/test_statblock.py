"""Statblock files and the npc commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.errors import DataError, InputError
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.statblock import new_npc


def test_statblock_refuses_a_skill_above_its_vocation(tmp_path: Path) -> None:
    """A skill above its vocation, or a made-up weapon category not marked free-form: DataError."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: X\nvocations:\n  - {name: V, attribute: STR, points: 1,"
        " combat_skills: [{name: Small Weapons, points: 2}]}\n"
    )
    with pytest.raises(DataError, match="above its vocation"):
        load_statblock(bad)
    bad.write_text(
        "name: X\nvocations:\n  - {name: V, attribute: STR, points: 2,"
        " combat_skills: [{name: Claws, points: 2}]}\n"
    )
    with pytest.raises(DataError, match="mark it free_form"):
        load_statblock(bad)


def test_npc_commands(run_cli: Any, tmp_path: Path) -> None:
    """`cogent npc new` saves a statblock that `cogent npc show` reads back."""
    out = tmp_path / "guard.yaml"
    made = run_cli(
        "cogent",
        "npc",
        "new",
        "--name",
        "Guard",
        "--tier",
        "average",
        "--vocation",
        "Town Guard",
        "--weapon-skill",
        "Medium Weapons",
        "--weapon",
        "Medium Weapon",
        "--out",
        str(out),
    )
    assert made.status == 0, made.stderr
    shown = run_cli("cogent", "npc", "show", str(out), "--json")
    assert shown.json()["tier"] == "average"
    assert run_cli("cogent", "npc", "show", str(tmp_path / "missing.yaml")).status == 2


def test_rough_pools_are_kept_and_shown(run_cli: Any, tmp_path: Path) -> None:
    """002 > NPCs: "give them 'rough dice pools' - such as 'Intelligence skills, 5D6'"."""
    out = tmp_path / "sage.yaml"
    made = run_cli("cogent", "npc", "new", "--name", "Sage", "--tier", "average",
                   "--vocation", "Scholar", "--attribute", "INT",
                   "--rough", "Intelligence skills=5D6", "--out", str(out))  # fmt: skip
    assert made.status == 0, made.stderr
    assert load_statblock(out).rough_pools == {"Intelligence skills": 5}
    shown = run_cli("cogent", "npc", "show", str(out))
    assert "Intelligence skills (rough): 5D6" in shown.stdout
    bad = run_cli("cogent", "npc", "new", "--name", "S", "--tier", "average",
                  "--vocation", "Scholar", "--rough", "Intelligence")  # fmt: skip
    assert bad.status == 2 and "--rough: 'Intelligence'" in bad.stderr


def test_a_rough_pool_out_of_range_is_a_data_error(tmp_path: Path) -> None:
    """A statblock file with a negative rough pool names it."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nrough_pools: {Fighting: -2}\n")
    with pytest.raises(DataError, match="rough pool 'Fighting'"):
        load_statblock(bad)


def test_a_weapon_outside_the_groups_is_refused(run_cli: Any, tmp_path: Path) -> None:
    """A weapon group the book does not have is refused by npc new and in a file."""
    made = run_cli("cogent", "npc", "new", "--name", "B", "--tier", "elite",
                   "--vocation", "Guard", "--weapon", "Plasma rifle")  # fmt: skip
    assert made.status == 2 and made.stdout == ""
    assert "--weapon: 'Plasma rifle' is not a weapon group" in made.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nequipment: {weapons: [{name: Zap, group: Plasma}]}\n")
    with pytest.raises(DataError, match="'Plasma' is not a weapon group"):
        load_statblock(bad)


@pytest.mark.parametrize(
    ("name", "vocation", "skills", "message"),
    [
        (" ", "Guard", (), "--name: empty"),
        ("Bob", "", (), "--vocation: empty"),
        ("Bob", "Guard", ("Athletics",), "'Athletics' is a core skill"),
        ("Bob", "Guard", ("Drill", "drill"), "given twice"),
    ],
)
def test_npc_new_refuses_bad_input_in_one_line(
    run_cli: Any, name: str, vocation: str, skills: tuple[str, ...], message: str
) -> None:
    """Empty names, a core skill as a vocational skill, a repeated skill: exit 2, one line."""
    flags = [item for skill in skills for item in ("--skill", skill)]
    result = run_cli("cogent", "npc", "new", "--name", name, "--tier", "average",
                     "--vocation", vocation, *flags)  # fmt: skip
    assert result.status == 2 and message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["no/such/folder/guard.yaml", "guard.txt"])
def test_npc_new_out_to_a_bad_path(run_cli: Any, tmp_path: Path, name: str) -> None:
    """--out into a missing folder or with an unknown suffix: exit 2, nothing written."""
    target = tmp_path / name
    result = run_cli("cogent", "npc", "new", "--name", "G", "--tier", "average",
                     "--vocation", "Guard", "--out", str(target))  # fmt: skip
    assert result.status == 2 and "--out" in result.stderr
    assert "Traceback" not in result.stderr and not target.exists()


def test_npc_new_saves_json(run_cli: Any, tmp_path: Path) -> None:
    """--out x.json writes JSON that npc show reads back."""
    out = tmp_path / "guard.json"
    made = run_cli("cogent", "npc", "new", "--name", "G", "--tier", "exceptional",
                   "--vocation", "Knight", "--weapon-skill", "Large Weapons",
                   "--weapon", "large weapon", "--out", str(out))  # fmt: skip
    assert made.status == 0, made.stderr
    assert out.read_text().lstrip().startswith("{")
    shown = run_cli("cogent", "npc", "show", str(out), "--json").json()
    assert shown["equipment"]["weapons"][0]["group"] == "Large Weapon"
    shown_text = run_cli("cogent", "npc", "show", str(out)).stdout
    assert "combat with Large Weapon vs melee: 11D6" in shown_text


EXAMPLES = sorted(Path("examples/statblocks").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_shipped_statblocks_load_and_fight_to_an_end(path: Path) -> None:
    """Every shipped statblock (the Thug, the Korinkian Boreworm, ...) fights the Thug to a
    winner in the combat engine (seeded), with its first weapon; a statblock in hardcore armour
    pieces (002 > Hardcore Armour Rules) fights by the hardcore rules it is written for."""
    from taletable.dice import SeededDice
    from taletable.systems.cogent.combat.simulate import simulate_duel
    from taletable.systems.cogent.rules import Rules

    assert {"thug", "korinkian_boreworm"} <= {example.stem for example in EXAMPLES}
    block = load_statblock(path).as_character()
    thug = load_statblock("examples/statblocks/thug.yaml").as_character()
    weapon = block.equipment.weapons[0].name
    hardcore = "Helmet" in block.equipment.armour
    rules = Rules(hardcore_armour=hardcore, hardcore_weapons=hardcore)
    duel = simulate_duel((block, weapon), (thug, "Knife"), SeededDice(11), rules=rules)
    assert duel.winner in {"a", "b"} and duel.rounds >= 1
    assert duel.loser_state != "standing"


def test_npc_attribute_points_go_where_named() -> None:
    """RULINGS.md "Guideline tiers": the tier's attribute points go to the vocation's attribute
    unless others are named, one point each in turn; an attribute Cogent lacks is refused."""
    assert new_npc("Scout", "elite", "Ranger", attribute="RFL").attributes.RFL == 1
    spread = new_npc("Scout", "exceptional", "Ranger", attributes=("STR", "RFL")).attributes
    assert (spread.STR, spread.RFL, spread.INT) == (1, 1, 0)
    with pytest.raises(InputError, match="attribute: 'CHA'"):
        new_npc("Scout", "elite", "Ranger", attributes=("CHA",))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flag", "message"),
    [("--weapon-skill", "--weapon-skill: ''"), ("--weapon", "--weapon: '' is not a weapon group")],
)
def test_npc_new_refuses_an_empty_weapon(run_cli: Any, flag: str, message: str) -> None:
    """An empty --weapon-skill or --weapon is refused, not silently dropped from the NPC."""
    result = run_cli("cogent", "npc", "new", "--name", "G", "--tier", "average",
                     "--vocation", "Guard", flag, "")  # fmt: skip
    assert result.status == 2 and message in result.stderr and result.stdout == ""
